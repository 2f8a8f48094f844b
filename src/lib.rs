//! bulkdoku: solve, verify and time Sudoku puzzle datasets in bulk, on all cores.
//!
//! The library has layers that know little of each other:
//! - [`solver`]: the engine. A [`Grid`] and a solution limit in, an [`Outcome`] out.
//! - [`input`]: datasets in their many formats in, [`input::Record`]s out.
//! - [`pipeline`] and [`dataset`]: an ordered, bounded, parallel map over the records
//!   of whole files, in batches.
//! - [`solving`] and [`verify`]: what is done to each record (and, for `verify`, to the
//!   dataset as a whole: [`dedup`] tables of what was seen); [`rating`]: the same for
//!   `rate`, around the rater ([`rate`]: Sudoku Explainer's ER, EP, ED).
//! - [`row`] and [`output`]: the output rows and their writers.
//! - [`rules`]: variant rules (Sudoku-X, Windoku, anti-knight, anti-king,
//!   non-consecutive, jigsaw, disjoint groups), one file each behind one trait, and
//!   their engines.
//! - [`generate`], [`canon`], [`report`]: puzzles made, puzzles compared, runs summarised.
//!
//! The `bulkdoku` binary (feature `cli`, on by default) only wires them together; the
//! library builds without it (`default-features = false`): no clap, indicatif or
//! plotters.
//!
//! One puzzle:
//!
//! ```
//! use bulkdoku::{solve, Grid, Uniqueness};
//!
//! let puzzle: Grid =
//!     "103000509002109400000704000300502006060000050700803004000401000009205800804000107"
//!         .parse()
//!         .expect("81 cells, no conflicting givens");
//! let outcome = solve(&puzzle, 2);
//! assert_eq!(outcome.uniqueness(), Uniqueness::Unique);
//! assert_eq!(
//!     outcome.first.unwrap().to_line(),
//!     "143628579572139468986754231391542786468917352725863914237481695619275843854396127"
//! );
//! ```
//!
//! A whole dataset, on all cores, results in input order:
//!
//! ```
//! use std::ops::ControlFlow;
//! use bulkdoku::clock::Clock;
//! use bulkdoku::dataset::Driver;
//! use bulkdoku::input::InputOptions;
//! use bulkdoku::solving::{solve_record, SolveOptions, Solved};
//! use bulkdoku::Solver;
//!
//! # fn main() -> anyhow::Result<()> {
//! # let dir = tempfile::tempdir()?;
//! # let path = dir.path().join("puzzles.txt");
//! # std::fs::write(&path, "# two puzzles\n\
//! #   103000509002109400000704000300502006060000050700803004000401000009205800804000107\n\
//! #   12345\n")?;
//! let options = SolveOptions::default(); // count to 2: uniqueness
//! let clock = Clock::start();
//! let mut unique = 0;
//! let summary = Driver::new(vec![Some(path)], InputOptions::new()).run(
//!     Solver::new,
//!     |solver, item| solve_record(solver, &item.record, &options, &clock),
//!     |_sources, items, results| {
//!         for (item, solved) in items.iter().zip(results) {
//!             match solved {
//!                 Solved::Valid { solutions: 1, .. } => unique += 1,
//!                 Solved::Valid { .. } => {}
//!                 Solved::Invalid(why) => eprintln!("line {}: {why}", item.record.line),
//!                 Solved::Cut => {} // only with a stop flag (none here)
//!             }
//!         }
//!         Ok(ControlFlow::Continue(()))
//!     },
//! )?;
//! assert_eq!((summary.records, unique), (2, 1));
//! # Ok(()) }
//! ```

#![warn(missing_docs)]

pub mod canon;
pub mod clock;
pub mod dataset;
pub mod dedup;
pub mod generate;
pub mod grid;
pub mod input;
pub mod output;
pub mod pipeline;
pub mod rate;
pub mod rating;
pub mod report;
pub mod resume;
pub mod row;
pub mod rules;
pub mod solver;
pub mod solving;
pub mod stats;
pub mod stop;
pub mod units;
pub mod verify;

pub use grid::{Conflict, Grid, InvalidPuzzle, ParseError};
pub use solver::{count, solutions, solve, Outcome, Solutions, Solver, Uniqueness};
