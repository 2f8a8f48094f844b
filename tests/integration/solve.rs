//! `bulkdoku solve` through the real binary.
