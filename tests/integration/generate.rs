//! `bulkdoku generate` through the real binary.
