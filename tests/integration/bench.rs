//! `bulkdoku bench` through the real binary.
