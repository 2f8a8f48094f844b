//! The engine: candidate bit sets, propagation of singles, most-constrained-cell search.
//!
//! The solver knows nothing of files. It takes a [`Grid`] and a solution limit and
//! returns an [`Outcome`]: how many solutions it found (capped at the limit), the first
//! one, and how many guesses it made. Limit 1 finds one solution, limit 2 decides
//! uniqueness, larger limits count or enumerate.
//!
//! How it works: candidates are kept per digit and per band of three rows (see
//! `state.rs`), which lets one table lookup do the row/box reasoning of a digit in a
//! band. Propagation places naked singles and hidden singles in rows and boxes, and
//! claims columns at the givens and in searches that turned out hard; when it stalls,
//! the search branches on the most constrained open cell (a cell with two candidates;
//! once a puzzle has needed a few guesses, the one whose digits cover the most peers),
//! trying its lowest digit and keeping the other branch ("the other digit", or "not
//! that digit" for a cell with more) on an explicit stack, so enumeration can stop and
//! resume at every solution.
//! Puzzles that are still wide open when they first need a guess (very hard ones) switch
//! to a heavy mode, after the idea of tdoku's triad reasoning: propagation adds the triad
//! rules (a minirow or minicolumn holds exactly three digits) on a per-digit summary of
//! segments and columns, and the search branches on a digit's placement in a band or
//! stack (which row takes which box, which band takes which column) with two placements
//! left, in the band or stack with the fewest placements in all. That makes as few
//! guesses as tdoku; the light search stays for the rest, whose few guesses it makes
//! more cheaply.
//! Count-only searches that may count many solutions fill two bands first and count
//! the ways to fill the third in closed form (`band.rs`); those that stop at one or
//! two finish positions with few open cells by a plain depth-first search (`tail.rs`).
//!
//! Everything is deterministic and free of shared state: any number of threads may solve
//! at once, each with its own [`Solver`].

mod band;
mod state;
mod tables;
mod tail;

// Shared with the box-band engine for variant rules (`crate::rules::bands`), which
// lays its slots out the same way.
pub(crate) use state::{changed_slots, segment_map_bmi2, SLOT_BANDS};
pub(crate) use tables::SLOT_TABLES;

use crate::grid::Grid;
use crate::stop::StopFlag;
use state::State;

/// Guesses a search makes before it treats the puzzle as hard and spends more on each
/// node: it scores its branch cells, and claims columns whenever propagation stalls.
/// Both pay on hard puzzles (scoring halves their trees) but only make each node dearer
/// on the many puzzles that finish within a few guesses: those are faster with the first
/// two-candidate cell, and column claiming at the givens alone does nearly all that it
/// does for them (on `puzzles7_serg_benchmark` it saves no guess at all after the root).
const HARD_AFTER_GUESSES: u64 = 8;

/// Count-only searches with at least this limit fill two bands first and count the
/// ways to fill the third in bulk (see `band.rs`). Below it, a search expects to stop
/// after a solution or two, and branching anywhere (most constrained first) finds them
/// sooner.
const BAND_COUNT_FROM: u64 = 3;

/// From this limit on, [`Solver::solve`] counts the solutions after the first instead of
/// visiting each (the count-only search of [`Solver::count`]). For uniqueness (limit 2)
/// visiting the second is cheaper: the plain search of the tail (`tail.rs`) costs
/// more than propagation when the whole rest of a tree must be ruled out.
const COUNT_REST_FROM: u64 = 3;

/// Searches whose position still has at least this many open cells when they first
/// have to guess switch to heavy mode (see `State::enter_heavy`): the triad rules in
/// propagation and branching on a digit's placement in a band or stack. On the very
/// hard puzzles of `puzzles5_forum_hardest_1905_11+` (55 or more open cells at the
/// first guess) that makes a quarter fewer guesses and is faster; on puzzles that open
/// up less before their first guess (`puzzles7_serg_benchmark`: under 50) the light
/// search is faster, its few guesses costing less each.
const HEAVY_FROM_OPEN: u32 = 50;

/// Never switch to heavy mode.
const NEVER_HEAVY: u32 = u32::MAX;

/// "No band": branch anywhere.
const NO_BAND: usize = 3;

/// True when the CPU has the bit-manipulation instructions (POPCNT, BMI1/2, LZCNT)
/// that the `*_fast` variants of the searches are compiled for.
///
/// The engine is written once. Everything on the search path is `#[inline(always)]`, so
/// a whole search inlines into each of two functions: one compiled for the baseline
/// x86-64 and one with those instructions enabled, picked here by std's cached CPU
/// detection. A binary built for the baseline thus still uses them, at the cost of one
/// check per search instead of one per node.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) fn fast_bits() -> bool {
    std::arch::is_x86_feature_detected!("popcnt")
        && std::arch::is_x86_feature_detected!("bmi1")
        && std::arch::is_x86_feature_detected!("bmi2")
        && std::arch::is_x86_feature_detected!("lzcnt")
}

/// True when the CPU has a fast BMI2 PEXT: settling then reads a digit's row/box map
/// with one PEXT (see `State::set_givens`). AMD CPUs before Zen 3 (family 0x19) have
/// BMI2 but run PEXT in microcode, tens to hundreds of cycles instead of one or three:
/// there the tables stay.
pub(crate) fn bmi2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("bmi2") && !slow_pext()
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// True on an AMD CPU of a family before 0x19 (Zen 3), whose PEXT is microcoded.
#[cfg(target_arch = "x86_64")]
fn slow_pext() -> bool {
    use std::arch::x86_64::__cpuid;
    // Leaves 0 (vendor) and 1 (family) exist on every x86-64 CPU.
    let (vendor, signature) = (__cpuid(0), __cpuid(1));
    // "AuthenticAMD": EBX, EDX, ECX of leaf 0.
    let amd = (vendor.ebx, vendor.edx, vendor.ecx) == (0x6874_7541, 0x6974_6e65, 0x444d_4163);
    let base = (signature.eax >> 8) & 0xF;
    let family = if base == 0xF {
        base + ((signature.eax >> 20) & 0xFF)
    } else {
        base
    };
    amd && family < 0x19
}

/// What a search found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Outcome {
    /// Solutions found, capped at the limit.
    pub solutions: u64,
    /// The first solution found (none for count-only searches or without solutions).
    pub first: Option<Grid>,
    /// Branch decisions made.
    pub guesses: u64,
    /// The search's [`StopFlag`] was set when it returned: it may have been given up
    /// before its end, so `solutions` is no verdict (fewer may have been found than
    /// there are).
    pub cut: bool,
}

impl Outcome {
    /// Nothing found yet.
    const NONE: Outcome = Outcome {
        solutions: 0,
        first: None,
        guesses: 0,
        cut: false,
    };

    /// True when the search needed no guess.
    pub fn solved_without_guessing(&self) -> bool {
        self.guesses == 0
    }

    /// The uniqueness verdict of a search run with limit ≥ 2.
    pub fn uniqueness(&self) -> Uniqueness {
        match self.solutions {
            0 => Uniqueness::NoSolution,
            1 => Uniqueness::Unique,
            _ => Uniqueness::Multiple,
        }
    }
}

/// How many solutions a puzzle has, as far as uniqueness goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Uniqueness {
    /// No solution.
    NoSolution,
    /// Exactly one solution.
    Unique,
    /// Two or more.
    Multiple,
}

/// A reusable solver: keeps its search stack between puzzles so that bulk solving does
/// not allocate per puzzle.
#[derive(Debug)]
pub struct Solver {
    stack: Vec<State>,
    /// Open cells at the first guess from which a search goes heavy.
    heavy_from: u32,
    /// The CPU has BMI2 (see [`bmi2`]); tests turn it off to check the portable
    /// path.
    bmi2: bool,
    /// What makes searches give up (lent to each [`Search`] with the stack).
    stop: StopFlag,
}

impl Default for Solver {
    fn default() -> Solver {
        Solver::new()
    }
}

impl Solver {
    /// A solver with an empty stack.
    pub fn new() -> Solver {
        Solver {
            stack: Vec::with_capacity(81),
            heavy_from: HEAVY_FROM_OPEN,
            bmi2: bmi2(),
            stop: StopFlag::never(),
        }
    }

    /// Make searches give up once `stop` is set (their outcome then says
    /// [`Outcome::cut`]).
    pub fn set_stop(&mut self, stop: StopFlag) {
        self.stop = stop;
    }

    /// Make searches switch to heavy mode from `open_cells` open cells at their first
    /// guess (0: every search that guesses; above 81: never). For tests that compare
    /// both modes with a reference; the default is what measured fastest.
    #[doc(hidden)]
    pub fn set_heavy_from(&mut self, open_cells: u32) {
        self.heavy_from = open_cells;
    }

    /// Find up to `limit` solutions, keeping the first. With a limit of 3 or more the
    /// solutions after the first are counted, not visited, as [`Solver::count`] does.
    pub fn solve(&mut self, grid: &Grid, limit: u64) -> Outcome {
        if limit >= COUNT_REST_FROM {
            return self.solve_then_count(grid, limit);
        }
        let mut first = None;
        let mut outcome = self.search(grid, limit, |s| {
            if first.is_none() {
                first = Some(s.solution_grid());
            }
        });
        outcome.first = first;
        outcome
    }

    /// [`Solver::solve`] for limits from [`COUNT_REST_FROM`] on.
    fn solve_then_count(&mut self, grid: &Grid, limit: u64) -> Outcome {
        #[cfg(target_arch = "x86_64")]
        if fast_bits() {
            // SAFETY: the CPU has the features `solve_then_count_fast` is compiled for.
            return unsafe { self.solve_then_count_fast(grid, limit) };
        }
        self.solve_then_count_inline(grid, limit)
    }

    /// [`Solver::solve_then_count`] compiled for CPUs with bit-manipulation
    /// instructions.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt")]
    unsafe fn solve_then_count_fast(&mut self, grid: &Grid, limit: u64) -> Outcome {
        self.solve_then_count_inline(grid, limit)
    }

    /// The first solution, then the rest counted as [`Solver::count`] does.
    #[inline(always)]
    fn solve_then_count_inline(&mut self, grid: &Grid, limit: u64) -> Outcome {
        let mut outcome = Outcome::NONE;
        let mut search = Search::start(
            grid,
            std::mem::take(&mut self.stack),
            self.heavy_from,
            self.bmi2,
        )
        .stop_on(std::mem::take(&mut self.stop));
        if search.next_solution() {
            outcome.first = Some(search.cur.solution_grid());
            outcome.solutions = 1;
            if search.resume() {
                outcome.solutions += search.count_all(limit - 1);
            }
        }
        outcome.guesses = search.guesses;
        outcome.cut = search.stop.is_set();
        (self.stack, self.stop) = search.into_parts();
        outcome
    }

    /// Count up to `limit` solutions without materialising any.
    ///
    /// With a limit of 3 or more the search branches outside one band until the other
    /// two are full and then counts that band's fillings in one step (see `band.rs`):
    /// from the empty grid that is about two hundred solutions at a time. With a
    /// smaller limit, positions with few open cells left are counted by a plain
    /// depth-first search instead of propagating towards each solution (`tail.rs`).
    pub fn count(&mut self, grid: &Grid, limit: u64) -> Outcome {
        #[cfg(target_arch = "x86_64")]
        if fast_bits() {
            // SAFETY: the CPU has the features `count_fast` is compiled for.
            return unsafe { self.count_fast(grid, limit) };
        }
        self.count_inline(grid, limit)
    }

    /// [`Solver::count`] compiled for CPUs with bit-manipulation instructions.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt")]
    unsafe fn count_fast(&mut self, grid: &Grid, limit: u64) -> Outcome {
        self.count_inline(grid, limit)
    }

    #[inline(always)]
    fn count_inline(&mut self, grid: &Grid, limit: u64) -> Outcome {
        let mut outcome = Outcome::NONE;
        if limit == 0 {
            return outcome;
        }
        // Counting many solutions fills bands for the closed-form count: that wants the
        // light search's cell branches and cheap nodes.
        let heavy_from = if limit >= BAND_COUNT_FROM {
            NEVER_HEAVY
        } else {
            self.heavy_from
        };
        let mut search =
            Search::start(grid, std::mem::take(&mut self.stack), heavy_from, self.bmi2)
                .stop_on(std::mem::take(&mut self.stop));
        if search.phase != Phase::Done {
            outcome.solutions = search.count_all(limit);
        }
        outcome.guesses = search.guesses;
        outcome.cut = search.stop.is_set();
        (self.stack, self.stop) = search.into_parts();
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

    /// Run a search, handing each solution found to `found`, up to `limit`.
    fn search(&mut self, grid: &Grid, limit: u64, found: impl FnMut(&State)) -> Outcome {
        #[cfg(target_arch = "x86_64")]
        if fast_bits() {
            // SAFETY: the CPU has the features `search_fast` is compiled for.
            return unsafe { self.search_fast(grid, limit, found) };
        }
        self.search_inline(grid, limit, found)
    }

    /// [`Solver::search`] compiled for CPUs with bit-manipulation instructions.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt")]
    unsafe fn search_fast(
        &mut self,
        grid: &Grid,
        limit: u64,
        found: impl FnMut(&State),
    ) -> Outcome {
        self.search_inline(grid, limit, found)
    }

    #[inline(always)]
    fn search_inline(&mut self, grid: &Grid, limit: u64, mut found: impl FnMut(&State)) -> Outcome {
        let mut outcome = Outcome::NONE;
        if limit == 0 {
            return outcome;
        }
        let mut search = Search::start(
            grid,
            std::mem::take(&mut self.stack),
            self.heavy_from,
            self.bmi2,
        )
        .stop_on(std::mem::take(&mut self.stop));
        while search.next_solution() {
            found(&search.cur);
            outcome.solutions += 1;
            if outcome.solutions >= limit {
                break;
            }
        }
        outcome.guesses = search.guesses;
        outcome.cut = search.stop.is_set();
        (self.stack, self.stop) = search.into_parts();
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
        search: Search::start(grid, Vec::with_capacity(81), HEAVY_FROM_OPEN, bmi2()),
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

    /// Give up once `stop` is set: the iterator then ends early, and
    /// [`Solutions::cut`] says so.
    pub fn stop_on(mut self, stop: StopFlag) -> Solutions {
        self.search.stop = stop;
        self
    }

    /// The stop flag was set: the iterator may have ended before the last solution.
    pub fn cut(&self) -> bool {
        self.search.stop.is_set()
    }
}

impl Iterator for Solutions {
    type Item = Grid;
    fn next(&mut self) -> Option<Grid> {
        #[cfg(target_arch = "x86_64")]
        if fast_bits() {
            // SAFETY: the CPU has the features `next_solution_fast` is compiled for.
            let found = unsafe { self.search.next_solution_fast() };
            return found.then(|| self.search.cur.solution_grid());
        }
        self.search
            .next_solution()
            .then(|| self.search.cur.solution_grid())
    }
}

/// A resumable depth-first search over binary branches: "cell = digit" now, and
/// "cell ≠ digit" saved on the stack for later.
///
/// Each search loop propagates at one place only ([`Search::settle`]): propagation is
/// by far the largest code on the search path, and every call site of an inlined
/// function is a copy of it. With one copy per loop the loop stays small enough for
/// the instruction cache.
#[derive(Debug)]
struct Search {
    cur: State,
    stack: Vec<State>,
    guesses: u64,
    phase: Phase,
    /// Open cells at the first guess from which to go heavy.
    heavy_from: u32,
    /// Looked at before each guess: once set, the search ends as if exhausted.
    stop: StopFlag,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// `cur` is set (the givens, a branch taken or resumed) but not yet propagated.
    Unsettled,
    /// `cur` is a solution already reported; move past it first.
    Reported,
    /// Nothing left.
    Done,
}

/// Push a copy of `state` (see [`state::copy_state`]: `Vec::push` of a value this size
/// calls `memmove`).
#[inline(always)]
fn push_copy(stack: &mut Vec<State>, state: &State) {
    stack.reserve(1);
    let len = stack.len();
    // SAFETY: `reserve` made room for an element at `len`, which `copy_state` writes
    // whole before the length covers it; `state` is not in the stack's spare room.
    unsafe {
        state::copy_state(state, stack.as_mut_ptr().add(len));
        stack.set_len(len + 1);
    }
}

impl Search {
    #[inline(always)]
    /// `bmi2` only if the CPU has BMI2 (see [`State::set_givens`]).
    fn start(grid: &Grid, mut stack: Vec<State>, heavy_from: u32, bmi2: bool) -> Search {
        stack.clear();
        let mut search = Search {
            cur: State::BLANK,
            stack,
            guesses: 0,
            phase: Phase::Unsettled,
            heavy_from,
            stop: StopFlag::never(),
        };
        // The position is built in place (see `State::set_givens`).
        if search.cur.set_givens(grid, bmi2).is_err() {
            search.cur = State::BLANK;
            search.phase = Phase::Done;
        }
        search
    }

    /// This search giving up once `stop` is set.
    #[inline(always)]
    fn stop_on(mut self, stop: StopFlag) -> Search {
        self.stop = stop;
        self
    }

    /// The stack and the stop flag, for the next search.
    fn into_parts(self) -> (Vec<State>, StopFlag) {
        (self.stack, self.stop)
    }

    /// [`Search::next_solution`] compiled for CPUs with bit-manipulation instructions.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt")]
    unsafe fn next_solution_fast(&mut self) -> bool {
        self.next_solution()
    }

    /// Advance to the next solution; `false` when there is none.
    #[inline(always)]
    fn next_solution(&mut self) -> bool {
        match self.phase {
            Phase::Done => return false,
            Phase::Reported => {
                if !self.resume() {
                    self.phase = Phase::Done;
                    return false;
                }
            }
            Phase::Unsettled => {}
        }
        loop {
            if !self.settle() {
                self.phase = Phase::Done;
                return false;
            }
            if self.cur.is_solved() {
                self.phase = Phase::Reported;
                return true;
            }
            if self.stop.is_set() {
                self.phase = Phase::Done;
                return false;
            }
            self.branch(NO_BAND);
        }
    }

    /// Count the solutions (up to `limit`, which must be at least 1) under the current
    /// position (not yet propagated) and every branch saved on the stack, without
    /// materialising any.
    #[inline(always)]
    fn count_all(&mut self, limit: u64) -> u64 {
        let mut solutions = 0;
        // Set at the first propagated position: counting many solutions fills the
        // other bands first and counts each way to fill the last one in bulk.
        let mut last_band = None;
        loop {
            if !self.settle() {
                break;
            }
            let last_band = match last_band {
                Some(band) => band,
                None => {
                    let band = if limit >= BAND_COUNT_FROM {
                        self.cur.most_open_band()
                    } else {
                        NO_BAND
                    };
                    last_band = Some(band);
                    band
                }
            };
            // No closures here: they would not be inlined into the `*_fast` searches.
            let counted = if last_band != NO_BAND {
                if self.cur.open_only_in(last_band) {
                    let (cells, col_missing) = self.cur.band_and_columns(last_band);
                    let n = band::count(&cells, &col_missing);
                    // As many guesses as a tree of two-way choices with that many
                    // leaves.
                    self.guesses += n.saturating_sub(1);
                    Some(n.min(limit - solutions))
                } else {
                    None
                }
            } else if self.cur.open_cells() <= tail::TAIL_CELLS {
                Some(tail::count(
                    self.cur.open_cell_digits(),
                    limit - solutions,
                    &mut self.guesses,
                ))
            } else {
                None
            };
            match counted {
                Some(n) => {
                    solutions += n;
                    if solutions >= limit || !self.resume() {
                        break;
                    }
                }
                None if self.stop.is_set() => break,
                None => self.branch(last_band),
            }
        }
        solutions
    }

    /// Propagate `cur`; while that finds a contradiction, resume from the latest saved
    /// branch instead. `false` when the whole tree is exhausted.
    #[inline(always)]
    fn settle(&mut self) -> bool {
        loop {
            // Columns are always claimed at the givens (no guess yet), then only in
            // searches that turned out hard.
            let claim = self.guesses == 0 || self.is_hard();
            if self.cur.propagate(claim).is_ok() {
                return true;
            }
            if !self.resume() {
                return false;
            }
        }
    }

    /// Branch on the chosen cell (outside band `skip`; [`NO_BAND`] for anywhere) of the
    /// current (propagated, unsolved) position: take its lowest digit and save the
    /// rest for later. Leaves `cur` to be settled.
    #[inline(always)]
    fn branch(&mut self, skip: usize) {
        if self.guesses == 0 && self.cur.open_cells() >= self.heavy_from {
            self.cur.enter_heavy();
        }
        if self.cur.is_heavy() {
            if let Some((digit, first, second)) = self.cur.choose_placement(skip) {
                self.guesses += 1;
                push_copy(&mut self.stack, &self.cur);
                self.stack
                    .last_mut()
                    .expect("just pushed")
                    .set_digit(digit, second);
                self.cur.set_digit(digit, first);
                return;
            }
        }
        let branch = self.cur.choose_branch(self.is_hard(), skip);
        let digit = branch.digits.trailing_zeros() as usize;
        self.guesses += 1;
        // The other branch is saved by copying the position once, straight onto the
        // stack, and editing it there.
        push_copy(&mut self.stack, &self.cur);
        let other = self.stack.last_mut().expect("just pushed");
        if branch.digits.count_ones() == 2 {
            // The other branch of a two-way choice is the other digit: placing it now
            // spares a round of propagation when we come back.
            let second = 31 - branch.digits.leading_zeros() as usize;
            other.assign(second, branch.band, branch.cell);
        } else {
            other.forbid(digit, branch.band, branch.cell);
        }
        self.cur.assign(digit, branch.band, branch.cell);
    }

    /// True once the search has made enough guesses to treat its puzzle as hard.
    #[inline(always)]
    fn is_hard(&self) -> bool {
        self.guesses >= HARD_AFTER_GUESSES
    }

    /// Take the latest saved branch (to be settled); `false` when none is left.
    #[inline(always)]
    fn resume(&mut self) -> bool {
        let Some(top) = self.stack.len().checked_sub(1) else {
            return false;
        };
        // SAFETY: `top` is the index of the last element, which is initialised; the
        // length drops first (a `State` needs no drop), and `cur` is not on the stack.
        unsafe {
            self.stack.set_len(top);
            state::copy_state(self.stack.as_ptr().add(top), &mut self.cur);
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two equal givens conflict exactly when their cells share a row, column or box:
    /// then there is no solution, else (on an otherwise empty grid) there is one. Every
    /// pair of cells is tried, so every way the set-up can meet a conflict (same row,
    /// same box, same column within a band or across bands) is covered.
    #[test]
    fn equal_givens_conflict_exactly_when_they_see_each_other() {
        let mut solver = Solver::new();
        for a in 0..81 {
            for b in a + 1..81 {
                let digit = (a * 7 + b) % 9 + 1;
                let mut cells = [0u8; 81];
                cells[a] = digit as u8;
                cells[b] = digit as u8;
                let grid = Grid::from_cells(cells).unwrap();
                let sees = a / 9 == b / 9
                    || a % 9 == b % 9
                    || (a / 27 == b / 27 && a % 9 / 3 == b % 9 / 3);
                let found = solver.solve(&grid, 1);
                assert_eq!(found.solutions, u64::from(!sees), "cells {a} and {b}");
                if let Some(solution) = found.first {
                    assert!(solution.is_valid_solution() && solution.agrees_with(&grid));
                }
            }
        }
    }

    /// The search compiled for the baseline instruction set and the one compiled with
    /// bit-manipulation instructions are the same code: they must make the same guesses
    /// and find the same solutions, in light and in heavy mode. (On a CPU with those
    /// instructions the public functions always take the fast variant, so the portable
    /// one is exercised here.)
    #[test]
    fn portable_and_fast_variants_agree() {
        let puzzles = [
            "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
            "103000509002109400000704000300502006060000050700803004000401000009205800804000107",
            "8.........95.......76.........426798...571243...893165......916....3.487....1.532",
            "..3......4...8..36..8...1...4..6..73...9..........2..5..4.7..686........7..6..5..",
            ".................................................................................",
        ];
        let mut solver = Solver::new();
        let mut tables = Solver::new();
        tables.bmi2 = false;
        for (text, heavy_from) in puzzles
            .iter()
            .flat_map(|t| [(t, HEAVY_FROM_OPEN), (t, 0), (t, NEVER_HEAVY)])
        {
            solver.set_heavy_from(heavy_from);
            tables.set_heavy_from(heavy_from);
            let grid = Grid::parse_puzzle(text.as_bytes()).unwrap();
            for limit in [1, 2, 50] {
                let portable = if limit >= COUNT_REST_FROM {
                    solver.solve_then_count_inline(&grid, limit)
                } else {
                    let mut first = None;
                    let outcome = solver.search_inline(&grid, limit, |s| {
                        first.get_or_insert(s.solution_grid());
                    });
                    Outcome { first, ..outcome }
                };
                assert_eq!(solver.solve(&grid, limit), portable, "{text} limit {limit}");
                assert_eq!(tables.solve(&grid, limit), portable, "{text} limit {limit}");
                let portable = solver.count_inline(&grid, limit);
                assert_eq!(solver.count(&grid, limit), portable, "{text} limit {limit}");
                assert_eq!(tables.count(&grid, limit), portable, "{text} limit {limit}");
                assert!(portable.solutions >= 1, "{text}");
            }
        }
    }
}
