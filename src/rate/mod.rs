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
//!
//! The engine follows serate (Sukaku Explainer's rater) with its default options: at
//! each step the first technique of its default set, in its order, that applies (see
//! `driver`), applied; ER is the hardest step, ED the first step's rating, EP the
//! hardest step up to the first placement. Implemented: singles, direct pointing /
//! claiming / hidden pairs and triplets, intersections, naked and hidden subsets,
//! X-wing / swordfish / jellyfish, strong-link chains of 2-4 links (skyscraper, kite,
//! turbot, their grouped forms with a group at either end of any link, and loops),
//! XY- and XYZ-wings, unique rectangles and loops (types 1-4, type 3 with a naked or a
//! hidden set), BUG (types 1, 2 and 4), WXYZ- to TUVWXYZ-wings, aligned pair and triplet
//! exclusion, X/Y/XY-cycles and forcing chains, Nishio forcing chains, cell and region
//! forcing chains, dynamic forcing chains (contradiction, double, cell, region; 8.5+)
//! and dynamic forcing chains (+) (9.0+, their runs also using pointing / claiming,
//! hidden and naked pairs and X-wings; see `dynamic`), and the nested levels 2 to 4,
//! "(+ Forcing Chains)" (9.5+), "(+ Multiple Forcing Chains)" (10.0+) and "(+ Dynamic
//! Forcing Chains)" (10.5+, see `nested`), which the forum's hardest puzzles (ER 10
//! to 11.5) need. Not yet: BUG type 3, and Sudoku Explainer's last resort after level
//! 4, the same level with dynamic forcing chains (+) or nested ones inside; a puzzle
//! that would need it gives [`RateError::Stuck`].

// Cells and digits index several parallel tables at once (candidates, digit sets,
// house tables); index loops read better here than zipped iterators.
#![allow(clippy::needless_range_loop)]

use crate::grid::Grid;

mod aligned;
mod board;
mod chains;
mod driver;
mod dynamic;
mod fish;
mod hint;
mod links;
mod memory;
mod nested;
mod reach;
mod singles;
#[cfg(test)]
mod tests;
mod uniqueness;
mod wings;

use board::Board;
use hint::Hint;

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
    /// No technique of the set applies to the position reached: Sudoku Explainer
    /// would go on with nesting level 4 whose inner chains are themselves dynamic
    /// forcing chains (+) or nested (ER 10.5 and up), which is not built.
    #[error(
        "no technique applies after {steps} steps (the next would be nested forcing chains \
         (+ Dynamic Forcing Chains) with nested inner chains, not built): ER {}.{} or more",
        .er_at_least / 10,
        .er_at_least % 10
    )]
    Stuck {
        /// Steps taken before getting stuck.
        steps: u32,
        /// A lower bound of the ER, in tenths: the hardest step taken, or the 10.5 that
        /// any step of the levels not built is rated at least, whichever is higher.
        er_at_least: u8,
    },
}

/// The difficulty, in tenths, of the simplest step of the nesting not built (level 4,
/// "+ Dynamic Forcing Chains", with nested inner chains: Sudoku Explainer's base 10.5
/// for level 4, plus a length penalty of zero or more).
const NOT_BUILT_MIN: u8 = 105;

/// A reusable rating worker (buffers kept between puzzles); one per thread.
#[derive(Debug, Default)]
pub struct Rater {
    board: Board,
    producers: driver::Producers,
}

impl Rater {
    /// A new worker.
    pub fn new() -> Rater {
        Rater {
            board: Board::new(),
            producers: driver::Producers::default(),
        }
    }

    /// Rate `puzzle` (which must have exactly one solution); with `keep_steps` the
    /// returned rating carries the whole path.
    pub fn rate(&mut self, puzzle: &Grid, keep_steps: bool) -> Result<Rating, RateError> {
        self.board = Board::from_values(puzzle.cells());
        let b = &mut self.board;
        let mut rating = Rating {
            er: 0,
            ep: 0,
            ed: 0,
            er_technique: "",
            step_count: 0,
            steps: Vec::new(),
        };
        let mut pearl_done = false;
        while !b.solved() {
            let Some(hint) = self.producers.next_hint(b) else {
                return Err(RateError::Stuck {
                    steps: rating.step_count,
                    er_at_least: rating.er.max(NOT_BUILT_MIN),
                });
            };
            if hint.difficulty > rating.er {
                rating.er = hint.difficulty;
                rating.er_technique = hint.name;
            }
            if keep_steps {
                rating.steps.push(step_of(&hint, b));
            }
            hint.apply(b);
            rating.step_count += 1;
            // Sudoku Explainer's definitions: ED is the hardest step up to and
            // including the first one; EP the hardest up to and including the first
            // step that places a digit.
            if !pearl_done {
                if rating.step_count == 1 {
                    rating.ed = rating.er;
                }
                if hint.place.is_some() {
                    rating.ep = rating.er;
                    pearl_done = true;
                }
            }
        }
        Ok(rating)
    }
}

fn step_of(hint: &Hint, b: &Board) -> Step {
    let mut removed = Vec::new();
    for (di, &set) in hint.elim.iter().enumerate() {
        for c in board::cells(set & b.digit[di]) {
            removed.push((c as u8, di as u8 + 1));
        }
    }
    removed.sort_unstable();
    Step {
        technique: hint.name,
        difficulty: hint.difficulty,
        placed: hint.place.into_iter().collect(),
        removed,
    }
}

/// Rate one puzzle with its step list.
pub fn rate(puzzle: &Grid) -> Result<Rating, RateError> {
    Rater::new().rate(puzzle, true)
}
