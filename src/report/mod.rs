//! Timing reports over `bulkdoku solve` runs: the analysis behind `bulkdoku report`.
//!
//! The data flows through one file per step:
//! - [`run`]: a run CSV in, [`RunRow`]s out (by column name; bad rows name file and line);
//! - [`summary`]: rows in, a [`Summary`] of counts, percentiles, histogram and slowest
//!   puzzles out;
//! - [`compare`]: two runs of one dataset in, a puzzle-by-puzzle [`Comparison`] out;
//! - [`format`](mod@format): a summary in, text, Markdown or JSON out.
//!
//! - [`ratings`]: the same for `bulkdoku rate` outputs: the ER distribution, the
//!   hardest techniques, the slowest puzzles to rate.
//!
//! The picture of the latency distribution (`report --plot`) is the binary's: it
//! needs `plotters`, which the library does without.

pub mod compare;
pub mod format;
pub mod ratings;
pub mod run;
pub mod summary;

pub use compare::Comparison;
pub use run::{RunRow, Status};
pub use summary::Summary;
