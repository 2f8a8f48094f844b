//! The engine: candidate bit sets, propagation of singles, most-constrained-cell search.
//!
//! The solver knows nothing of files. It takes a [`Grid`] and a solution limit and
//! returns an [`Outcome`]: how many solutions it found (capped at the limit), the first
//! one, and how many guesses it made. Limit 1 finds one solution, limit 2 decides
//! uniqueness, larger limits count or enumerate.
//!
//! How it works: candidates are kept per digit and per band of three rows (see
//! `state.rs`), which lets one table lookup do the row/box reasoning of a digit in a
//! band. Propagation places naked singles and hidden singles in rows, boxes and columns;
//! when it stalls, the search branches on the most constrained open cell (a cell with
//! two candidates; once a puzzle has needed a few guesses, the one whose digits cover
//! the most peers), trying its lowest digit
//! and keeping the other branch ("the other digit", or "not that digit" for a cell with
//! more) on an explicit stack, so enumeration can stop and resume at every solution.
//! Count-only searches finish positions with few open cells by a plain depth-first
//! search (`tail.rs`).
//!
//! Everything is deterministic and free of shared state: any number of threads may solve
//! at once, each with its own [`Solver`].

mod state;
mod tables;
mod tail;

use crate::grid::Grid;
use state::{Dead, State};

/// Guesses a search makes before it treats the puzzle as hard and spends more on each
/// node: it scores its branch cells, and claims columns whenever propagation stalls.
/// Both pay on hard puzzles (scoring halves their trees) but only make each node dearer
/// on the many puzzles that finish within a few guesses: those are faster with the first
/// two-candidate cell, and column claiming at the givens alone does nearly all that it
/// does for them (on `puzzles7_serg_benchmark` it saves no guess at all after the root).
const HARD_AFTER_GUESSES: u64 = 8;

/// What a search found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Outcome {
    /// Solutions found, capped at the limit.
    pub solutions: u64,
    /// The first solution found (none for count-only searches or without solutions).
    pub first: Option<Grid>,
    /// Branch decisions made.
    pub guesses: u64,
}

impl Outcome {
    /// Nothing found yet.
    const NONE: Outcome = Outcome {
        solutions: 0,
        first: None,
        guesses: 0,
    };

    /// True when the search needed no guess.
    pub fn solved_without_guessing(&self) -> bool {
        self.guesses == 0
    }

    /// The uniqueness verdict of a search run with limit ≥ 2.
    pub fn uniqueness(&self) -> Uniqueness {
        match self.solutions {
            0 => Uniqueness::None,
            1 => Uniqueness::Unique,
            _ => Uniqueness::Multiple,
        }
    }
}

/// How many solutions a puzzle has, as far as uniqueness goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Uniqueness {
    /// No solution.
    None,
    /// Exactly one solution.
    Unique,
    /// Two or more.
    Multiple,
}

/// A reusable solver: keeps its search stack between puzzles so that bulk solving does
/// not allocate per puzzle.
#[derive(Debug, Default)]
pub struct Solver {
    stack: Vec<State>,
}

impl Solver {
    /// A solver with an empty stack.
    pub fn new() -> Solver {
        Solver {
            stack: Vec::with_capacity(81),
        }
    }

    /// Find up to `limit` solutions, keeping the first.
    pub fn solve(&mut self, grid: &Grid, limit: u64) -> Outcome {
        let mut first = None;
        let mut outcome = self.search(grid, limit, |s| {
            if first.is_none() {
                first = Some(s.solution_grid());
            }
        });
        outcome.first = first;
        outcome
    }

    /// Count up to `limit` solutions without materialising any.
    ///
    /// Positions with few open cells left are counted by a plain depth-first search
    /// instead of propagating towards each solution (see `tail.rs`), which makes
    /// counting puzzles with many solutions several times faster.
    pub fn count(&mut self, grid: &Grid, limit: u64) -> Outcome {
        let mut outcome = Outcome::NONE;
        if limit == 0 {
            return outcome;
        }
        let mut search = Search::start(grid, std::mem::take(&mut self.stack));
        if search.phase == Phase::Ready {
            loop {
                if search.cur.open_cells() <= tail::TAIL_CELLS {
                    outcome.solutions += tail::count(
                        search.cur.open_cell_digits(),
                        limit - outcome.solutions,
                        &mut search.guesses,
                    );
                    if outcome.solutions >= limit || !search.backtrack() {
                        break;
                    }
                } else if !search.descend() {
                    break;
                }
            }
        }
        outcome.guesses = search.guesses;
        self.stack = search.into_stack();
        outcome
    }

    /// Hand each of up to `limit` solutions to `each` as it is found.
    pub fn for_each_solution(
        &mut self,
        grid: &Grid,
        limit: u64,
        mut each: impl FnMut(&Grid),
    ) -> Outcome {
        let mut first = None;
        let mut outcome = self.search(grid, limit, |s| {
            let g = s.solution_grid();
            if first.is_none() {
                first = Some(g);
            }
            each(&g);
        });
        outcome.first = first;
        outcome
    }

    fn search(&mut self, grid: &Grid, limit: u64, mut found: impl FnMut(&State)) -> Outcome {
        let mut outcome = Outcome::NONE;
        if limit == 0 {
            return outcome;
        }
        let mut search = Search::start(grid, std::mem::take(&mut self.stack));
        while search.next_solution() {
            found(&search.cur);
            outcome.solutions += 1;
            if outcome.solutions >= limit {
                break;
            }
        }
        outcome.guesses = search.guesses;
        self.stack = search.into_stack();
        outcome
    }
}

/// Find up to `limit` solutions of `grid`, keeping the first.
///
/// ```
/// use bulkdoku::{solve, Grid, Uniqueness};
/// let puzzle: Grid =
///     "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
///         .parse()
///         .unwrap();
/// let outcome = solve(&puzzle, 2);
/// assert_eq!(outcome.uniqueness(), Uniqueness::Unique);
/// assert!(outcome.first.unwrap().is_valid_solution());
/// ```
pub fn solve(grid: &Grid, limit: u64) -> Outcome {
    Solver::new().solve(grid, limit)
}

/// Count up to `limit` solutions of `grid` without materialising them.
pub fn count(grid: &Grid, limit: u64) -> Outcome {
    Solver::new().count(grid, limit)
}

/// Every solution of `grid`, lazily, in a fixed order.
///
/// ```
/// use bulkdoku::{solutions, Grid};
/// let first_three: Vec<Grid> = solutions(&Grid::EMPTY).take(3).collect();
/// assert!(first_three.iter().all(|g| g.is_valid_solution()));
/// assert_ne!(first_three[0], first_three[1]);
/// ```
pub fn solutions(grid: &Grid) -> Solutions {
    Solutions {
        search: Search::start(grid, Vec::with_capacity(81)),
    }
}

/// Iterator over the solutions of a grid; see [`solutions`].
#[derive(Debug)]
pub struct Solutions {
    search: Search,
}

impl Solutions {
    /// Guesses made so far.
    pub fn guesses(&self) -> u64 {
        self.search.guesses
    }
}

impl Iterator for Solutions {
    type Item = Grid;
    fn next(&mut self) -> Option<Grid> {
        self.search
            .next_solution()
            .then(|| self.search.cur.solution_grid())
    }
}

/// A resumable depth-first search over binary branches: "cell = digit" now, and
/// "cell ≠ digit" saved on the stack for later.
#[derive(Debug)]
struct Search {
    cur: State,
    stack: Vec<State>,
    guesses: u64,
    phase: Phase,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// `cur` is propagated and consistent; look from here.
    Ready,
    /// `cur` is a solution already reported; move past it first.
    Reported,
    /// Nothing left.
    Done,
}

impl Search {
    fn start(grid: &Grid, mut stack: Vec<State>) -> Search {
        stack.clear();
        let started = State::from_grid(grid).and_then(|mut s| s.propagate(true).map(|()| s));
        let (cur, phase) = match started {
            Ok(s) => (s, Phase::Ready),
            Err(Dead) => (State::from_grid(&Grid::EMPTY).expect("empty"), Phase::Done),
        };
        Search {
            cur,
            stack,
            guesses: 0,
            phase,
        }
    }

    fn into_stack(self) -> Vec<State> {
        self.stack
    }

    /// Advance to the next solution; `false` when there is none.
    fn next_solution(&mut self) -> bool {
        match self.phase {
            Phase::Done => return false,
            Phase::Reported => {
                if !self.backtrack() {
                    self.phase = Phase::Done;
                    return false;
                }
            }
            Phase::Ready => {}
        }
        loop {
            if self.cur.is_solved() {
                self.phase = Phase::Reported;
                return true;
            }
            if !self.descend() {
                self.phase = Phase::Done;
                return false;
            }
        }
    }

    /// Branch on the chosen cell of the current (propagated, unsolved) position: try
    /// its lowest digit and save the rest for later. Leaves a propagated position in
    /// `cur`, backtracking as needed; `false` when the whole tree is exhausted.
    fn descend(&mut self) -> bool {
        let branch = self.cur.choose_branch(self.is_hard());
        let digit = branch.digits.trailing_zeros() as usize;
        self.guesses += 1;
        let mut other = self.cur;
        if branch.digits.count_ones() == 2 {
            // The other branch of a two-way choice is the other digit: placing it now
            // spares a round of propagation when we come back.
            let second = 31 - branch.digits.leading_zeros() as usize;
            other.assign(second, branch.band, branch.cell);
        } else {
            other.forbid(digit, branch.band, branch.cell);
        }
        self.stack.push(other);
        self.cur.assign(digit, branch.band, branch.cell);
        self.cur.propagate(self.is_hard()).is_ok() || self.backtrack()
    }

    /// True once the search has made enough guesses to treat its puzzle as hard.
    #[inline]
    fn is_hard(&self) -> bool {
        self.guesses >= HARD_AFTER_GUESSES
    }

    /// Resume from the latest saved branch that survives propagation.
    fn backtrack(&mut self) -> bool {
        while let Some(saved) = self.stack.pop() {
            self.cur = saved;
            if self.cur.propagate(self.is_hard()).is_ok() {
                return true;
            }
        }
        false
    }
}
