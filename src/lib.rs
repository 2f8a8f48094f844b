//! bulkdoku: solve, verify and time Sudoku puzzle datasets in bulk, on all cores.
//!
//! The library has three layers that know little of each other:
//! - [`solver`]: the engine. A [`Grid`] and a solution limit in, an [`Outcome`] out.
//! - [`input`] and [`output`]: datasets in their many formats in, CSV rows out.
//! - [`pipeline`]: an ordered, bounded, parallel map that joins the two.
//!
//! The `bulkdoku` binary's subcommands ([`cmd`]) wire them together.
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

pub mod canon;
pub mod cli;
pub mod clock;
pub mod cmd;
pub mod generate;
pub mod grid;
pub mod input;
pub mod output;
pub mod pipeline;
pub mod progress;
pub mod record;
pub mod report;
pub mod rules;
pub mod solver;
pub mod stats;

pub use grid::{Conflict, Grid, InvalidPuzzle, ParseError};
pub use solver::{count, solutions, solve, Outcome, Solutions, Solver, Uniqueness};
