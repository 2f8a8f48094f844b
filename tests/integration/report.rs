//! `bulkdoku report` through the real binary.
