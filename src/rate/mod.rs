//! The rater: Sudoku Explainer's difficulty scale (ER, EP, ED) for one puzzle.
//!
//! INTERFACE CONTRACT (lead engineer, shared by the `rate` engine branch and the
//! `ratecli` branch; keep these names and shapes, add freely):
//!
//! - [`Rating`]: `er`, `ep`, `ed` in tenths (72 = 7.2), `er_technique` the name of the
//!   hardest technique, `step_count` the number of steps on the path, and `steps` the
//!   path itself when asked for (empty otherwise).
//! - [`Rater::new`], [`Rater::rate`]: a reusable worker (one per thread), rating one
//!   puzzle that the caller already knows to have exactly one solution.
//! - [`rate`]: one puzzle with its step list, for library users.

use crate::grid::Grid;

/// One logical step on the rating path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// The technique's name as Sudoku Explainer prints it (e.g. `"Hidden Single"`).
    pub technique: &'static str,
    /// Its difficulty in tenths (12 = 1.2).
    pub difficulty: u8,
    /// Cells placed: (cell 0..81, digit 1..=9).
    pub placed: Vec<(u8, u8)>,
    /// Candidates removed: (cell 0..81, digit 1..=9).
    pub removed: Vec<(u8, u8)>,
}

/// A puzzle's rating.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rating {
    /// ER: the hardest step of the path, in tenths.
    pub er: u8,
    /// EP (pearl), in tenths.
    pub ep: u8,
    /// ED (diamond), in tenths.
    pub ed: u8,
    /// The hardest step's technique.
    pub er_technique: &'static str,
    /// Number of steps on the path.
    pub step_count: u32,
    /// The path, when asked for; empty otherwise.
    pub steps: Vec<Step>,
}

/// Why a puzzle could not be rated.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RateError {
    /// No technique of the set applies to the position reached.
    #[error("no technique applies after {steps} steps")]
    Stuck {
        /// Steps taken before getting stuck.
        steps: u32,
    },
}

/// A reusable rating worker (buffers kept between puzzles); one per thread.
#[derive(Debug, Default)]
pub struct Rater {}

impl Rater {
    /// A new worker.
    pub fn new() -> Rater {
        Rater {}
    }

    /// Rate `puzzle` (which must have exactly one solution); with `keep_steps` the
    /// returned rating carries the whole path.
    pub fn rate(&mut self, puzzle: &Grid, keep_steps: bool) -> Result<Rating, RateError> {
        let _ = (puzzle, keep_steps);
        Err(RateError::Stuck { steps: 0 })
    }
}

/// Rate one puzzle with its step list.
pub fn rate(puzzle: &Grid) -> Result<Rating, RateError> {
    Rater::new().rate(puzzle, true)
}
