//! `bulkdoku verify` through the real binary.
