//! The generic engine: solves, counts and enumerates under any [`Variant`].
//!
//! State is one 81-bit candidate board per digit (`u128`, bit `c` for cell `c`) and a
//! board of open cells. A solved cell stays in its own digit's board and leaves the
//! others, so every board always covers each house the digit still can fill, and the
//! solution is read straight off the boards.
//!
//! - Placing digit `d` in cell `c` clears `c` from the other boards and `c`'s peers
//!   (house-mates plus knight/king neighbours, one precomputed mask) from board `d`;
//!   under `non-consecutive` it also clears `c`'s orthogonal neighbours from boards
//!   `d-1` and `d+1`. A placement whose cell no longer allows `d` is a contradiction.
//! - Naked singles come from bit-sliced "at least one / at least two" accumulation over
//!   the nine boards: 27 word operations find every open cell with one candidate (and
//!   every open cell with none, a contradiction).
//! - Hidden singles: board `d` ∧ house has one bit, an open cell, for a house that lacks
//!   `d`; no bit at all is a contradiction. Only digits whose boards lost cells since
//!   their last scan are scanned again, and of their houses only those of the cells
//!   lost (a cell's houses are one table word, `Variant::house_of`): a placement takes
//!   one cell from eight boards, so eight digits look at three houses, not all.
//! - When singles stall, locked candidates (places of a digit in a house that all see
//!   a cell rule it out there) and, under jigsaw, the law of leftovers (`leftovers.rs`:
//!   cell sets of lines and regions that must hold the same digits) remove candidates,
//!   again only in the houses and pairs whose cells changed since the digit's last
//!   scan (on 1,500 generated jigsaw puzzles, seeds 5, 6, 11, 31, 47: this and the
//!   same for hidden singles take the search to 0.72 of its time, outputs equal).
//! - When propagation stalls the search branches on a cell with the fewest
//!   candidates (bit-sliced counts up to three), tries its lowest digit and keeps "not
//!   that digit" on an explicit stack, so enumeration can stop and resume at every
//!   solution and no allocation happens once the stack has grown.

use crate::grid::{Grid, CELLS};
use crate::solver::Outcome;
use crate::stop::StopFlag;

use super::bands;
use super::catalog::Catalog;
use super::table::Variant;
use super::RuleSet;
use std::sync::Arc;

/// All 81 cells.
const ALL: u128 = (1 << CELLS) - 1;

/// `x` without its lowest set bit.
#[inline(always)]
fn clear_lowest(x: u128) -> u128 {
    x & x.wrapping_sub(1)
}

/// The union of `of[c]` over the cells `c` of `cells` (the houses, or the leftover
/// pairs, that the cells lie in).
#[inline(always)]
fn over_cells(mut cells: u128, of: &[u64; CELLS]) -> u64 {
    let mut union = 0;
    while cells != 0 {
        union |= of[cells.trailing_zeros() as usize];
        cells &= cells - 1;
    }
    union
}

/// The bits above bit `i` (`i` < 64).
#[inline(always)]
fn after(i: u32) -> u64 {
    (u64::MAX << i) << 1
}

/// A position with no solution, found by an inference.
struct Dead;

/// A search position.
#[derive(Clone, Copy)]
pub(crate) struct State {
    /// `cand[d]`: cells that may hold digit `d + 1`, including cells solved with it.
    pub(crate) cand: [u128; 9],
    /// Cells not solved yet.
    pub(crate) open: u128,
    /// Each board as of its last hidden-single scan: a board equal to it has nothing
    /// new to find. Comparing boards costs less than tracking changes in `place`.
    scanned: [u128; 9],
    /// Each board as of the start of its last locked-candidates scan
    /// ([`State::eliminate_seen`]): a house whose places are as they were then has
    /// nothing new.
    locked: [u128; 9],
}

impl State {
    /// The empty grid: every digit possible everywhere.
    pub(crate) const EMPTY: State = State {
        cand: [ALL; 9],
        open: ALL,
        scanned: [0; 9],
        locked: [0; 9],
    };

    /// The start position of `grid`, or `None` when its givens contradict each other.
    pub(crate) fn start(v: &Variant, grid: &Grid) -> Option<State> {
        let mut s = State::EMPTY;
        for (cell, &digit) in grid.cells().iter().enumerate() {
            if digit != 0 && !s.place(v, usize::from(digit) - 1, cell) {
                return None;
            }
        }
        Some(s)
    }

    /// Put digit `d` (0-based) in `cell`; `false` if the cell no longer allows it.
    #[inline(always)]
    pub(crate) fn place(&mut self, v: &Variant, d: usize, cell: usize) -> bool {
        let bit = 1u128 << cell;
        if self.cand[d] & bit == 0 {
            return false;
        }
        // Every other digit loses the cell, digit `d` loses the peers.
        for board in self.cand.iter_mut() {
            *board &= !bit;
        }
        self.cand[d] = (self.cand[d] & !v.peers[cell]) | bit;
        // Each link's banned digits lose the cell's neighbours.
        for (_, link) in &v.links {
            let near = link.near[cell];
            let mut ban = link.ban[d + 1];
            while ban != 0 {
                self.cand[ban.trailing_zeros() as usize] &= !near;
                ban &= ban - 1;
            }
        }
        self.open &= !bit;
        true
    }

    /// Take digit `d` out of `cell`'s candidates (the other branch of a guess).
    #[inline(always)]
    pub(crate) fn forbid(&mut self, d: usize, cell: usize) {
        self.cand[d] &= !(1u128 << cell);
    }

    /// Place naked and hidden singles until none is left; `false` on a contradiction.
    #[inline(always)]
    pub(crate) fn propagate(&mut self, v: &Variant) -> bool {
        let houses = &v.houses[..v.n_houses];
        // Locked candidates run once per call: a second pass after the singles they
        // unlock costs more than the guesses it saves (measured on x, windoku,
        // anti-knight and classic puzzles). Jigsaw prefers them run to a fixed point
        // (with the law of leftovers, 7.5K vs 6.9K puzzles/s on data/jigsaw_200).
        let mut locked_done = false;
        loop {
            let (mut one, mut two) = (0u128, 0u128);
            for &board in &self.cand {
                let b = board & self.open;
                two |= one & b;
                one |= b;
            }
            if self.open & !one != 0 {
                return false;
            }
            let singles = one & !two;
            if singles != 0 {
                for d in 0..9 {
                    let mut s = singles & self.cand[d];
                    while s != 0 {
                        let cell = s.trailing_zeros() as usize;
                        s &= s - 1;
                        if !self.place(v, d, cell) {
                            return false;
                        }
                    }
                }
                continue;
            }
            let mut placed = false;
            for d in 0..9 {
                let changed = self.cand[d] ^ self.scanned[d];
                if changed == 0 {
                    continue;
                }
                self.scanned[d] = self.cand[d];
                // The houses that lost a place of `d`: those of the changed cells.
                let mut todo = over_cells(changed, &v.house_of);
                while todo != 0 {
                    let house = houses[todo.trailing_zeros() as usize];
                    todo &= todo - 1;
                    let x = self.cand[d] & house;
                    if x == 0 {
                        return false;
                    }
                    // One cell left for `d` and it is open: a hidden single.
                    if x & (x - 1) == 0 && x & self.open != 0 {
                        if !self.place(v, d, x.trailing_zeros() as usize) {
                            return false;
                        }
                        placed = true;
                    }
                }
            }
            if !placed {
                // A scan that placed nothing leaves every board as scanned.
                if locked_done && !v.jigsaw {
                    return true;
                }
                match self.eliminate_seen(v) {
                    Ok(true) => {}
                    Ok(false) => return true,
                    Err(Dead) => return false,
                }
                locked_done = true;
            }
        }
    }

    /// Locked candidates, generalised: when every place left for digit `d` in a house
    /// is a peer of some cell outside them, that cell cannot be `d` (one of those
    /// places will hold it). With boxes and lines this is pointing and claiming; it
    /// also covers the diagonals, windows, regions and knight/king peers. Only houses
    /// with two places are looked at: allowing three found more but cost more than it
    /// saved on x, windoku and anti-knight puzzles. Jigsaw looks at three (a region
    /// meets a line in more shapes than a box does; 13.6 vs 15.8 guesses a puzzle on
    /// data/jigsaw_200).
    /// Under jigsaw it also applies the law of leftovers (`leftovers.rs`).
    /// Returns whether it removed a candidate, or [`Dead`] on a contradiction.
    #[inline(always)]
    fn eliminate_seen(&mut self, v: &Variant) -> Result<bool, Dead> {
        let mut changed = false;
        for d in 0..9 {
            let mut board = self.cand[d];
            let last = self.locked[d];
            if board == last {
                continue;
            }
            // The board as the scan starts: what the scan takes counts as a change
            // next time (a house scanned before it did not see it).
            self.locked[d] = board;
            let mut todo = over_cells(board ^ last, &v.house_of);
            while todo != 0 {
                // Places as at the last scan: the cells that see them all went then
                // (candidates only ever go).
                let i = todo.trailing_zeros();
                let house = v.houses[i as usize];
                todo &= todo - 1;
                let places = board & house;
                // Solved in this house already, or more than two places (clearing the
                // lowest two bits leaves some; no popcount instruction needed).
                let most = if v.jigsaw {
                    clear_lowest(clear_lowest(clear_lowest(places)))
                } else {
                    clear_lowest(clear_lowest(places))
                };
                if places & !self.open != 0 || most != 0 {
                    continue;
                }
                let mut seen = ALL;
                let mut p = places;
                while p != 0 {
                    seen &= v.peers[p.trailing_zeros() as usize];
                    p &= p - 1;
                }
                let gone = seen & board;
                if gone != 0 {
                    board &= !gone;
                    changed = true;
                    // Their houses lost places too (those after this one, as in
                    // the order of one pass over the houses).
                    todo |= over_cells(gone, &v.house_of) & after(i);
                }
            }
            // The law of leftovers: a side of a pair with no place for `d` leaves
            // none on the other side.
            let mut todo = over_cells(board ^ last, &v.pair_of);
            while todo != 0 {
                let i = todo.trailing_zeros();
                let (a, b) = v.leftovers[i as usize];
                todo &= todo - 1;
                let gone = if board & a == 0 {
                    board & b
                } else if board & b == 0 {
                    board & a
                } else {
                    0
                };
                if gone != 0 {
                    // A cell solved with `d` on the side that must lack it.
                    if gone & !self.open != 0 {
                        return Err(Dead);
                    }
                    board &= !gone;
                    changed = true;
                    todo |= over_cells(gone, &v.pair_of) & after(i);
                }
            }
            self.cand[d] = board;
        }
        Ok(changed)
    }

    /// The open cell to branch on: of the cells with two candidates, the one whose
    /// two digits have the most places among the open cells it sees (the first of
    /// those), else the first with the fewest candidates. Such a guess takes the most
    /// candidates either way: on `data/jigsaw_200.txt` 14.4 guesses a puzzle against
    /// the first two-candidate cell, 12.1 counting the open cells seen, 11.7 counting
    /// the places of its digits there; on 1,500 puzzles generated with seeds 5, 6, 11,
    /// 31 and 47, 12.1 and 11.4 for the last two.
    #[inline(always)]
    fn branch_cell(&self, v: &Variant) -> usize {
        let (mut one, mut two, mut three) = (0u128, 0u128, 0u128);
        for &board in &self.cand {
            let b = board & self.open;
            three |= two & b;
            two |= one & b;
            one |= b;
        }
        let pairs = two & !three;
        if pairs != 0 {
            let (mut best, mut most) = (pairs.trailing_zeros() as usize, 0);
            let mut m = pairs;
            while m != 0 {
                let cell = m.trailing_zeros() as usize;
                m &= m - 1;
                let around = v.peers[cell] & self.open;
                let mut seen = 0;
                for b in &self.cand {
                    if b >> cell & 1 != 0 {
                        seen += (around & b).count_ones();
                    }
                }
                if seen > most {
                    (best, most) = (cell, seen);
                }
            }
            return best;
        }
        let mut best = (10, 0);
        let mut open = self.open;
        while open != 0 {
            let cell = open.trailing_zeros() as usize;
            open &= open - 1;
            let n = self.cand.iter().filter(|&&b| b >> cell & 1 != 0).count();
            if n < best.0 {
                best = (n, cell);
            }
        }
        best.1
    }

    /// The lowest candidate digit of an open cell.
    #[inline(always)]
    fn first_digit(&self, cell: usize) -> usize {
        (0..9)
            .find(|&d| self.cand[d] >> cell & 1 != 0)
            .expect("an open cell after propagation has candidates")
    }

    /// The candidate digits (0-based) of a cell as a 9-bit mask.
    pub(crate) fn digits_at(&self, cell: usize) -> u16 {
        (0..9).fold(0, |m, d| m | (((self.cand[d] >> cell) & 1) as u16) << d)
    }

    /// The grid of a fully solved position.
    pub(crate) fn grid(&self) -> Grid {
        let mut cells = [0u8; CELLS];
        for (d, &board) in self.cand.iter().enumerate() {
            let mut b = board;
            while b != 0 {
                cells[b.trailing_zeros() as usize] = d as u8 + 1;
                b &= b - 1;
            }
        }
        Grid::from_cells(cells).expect("digits are 1..=9")
    }
}

/// Which engine a [`VariantSolver`] runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum EngineChoice {
    /// The fastest for each rule set: the classic band engine ([`crate::Solver`]) for
    /// classic rules, the variant box-band engine for other rule sets that keep the
    /// 3×3 boxes, the generic engine for jigsaw. A rule set that keeps the boxes and
    /// allows few complete grids (at most 512, enumerated within 2,048 guesses, such as
    /// the 72 of anti-king,anti-knight,non-consecutive) is answered from the list of
    /// its grids, made once per process, with no guesses.
    #[default]
    Auto,
    /// The generic engine for every rule set (for comparisons and tests).
    Generic,
    /// The variant box-band engine for every rule set it runs (those that keep the
    /// boxes, classic included, and whose houses and links it has the layout for);
    /// the rest (jigsaw, disjoint) still run the generic engine (for comparisons and
    /// tests).
    Bands,
}

/// The vector instructions the box-band engine's vector search runs on (rule sets `x`,
/// `windoku`, `x,windoku`, `anti-king` and `non-consecutive`, x86-64 only):
/// [`Vectors::Best`] (the default) picks the fastest the CPU has; the others are for
/// comparisons and tests. A choice the CPU lacks falls back to the next one in this
/// order that it has (see [`Vectors::available`]). Every choice of vectors finds the
/// same solutions in the same order with the same guesses; [`Vectors::Scalar`] (the
/// box-band engine's own search, with its own rules and branch) finds the same
/// solutions, in its own order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Vectors {
    /// The fastest the CPU has.
    #[default]
    Best,
    /// AVX2 code compiled with AVX-512VL too (ternary logic and mask registers on
    /// 256-bit vectors): the fastest on the AVX-512 machine it was measured on.
    Avx2Vl,
    /// AVX-512 registers, the 27 (digit, band) words packed in two of them.
    Avx512,
    /// AVX2 registers, a band's words side by side.
    Avx2,
    /// None: the box-band engine's scalar search.
    Scalar,
}

impl Vectors {
    /// Whether this CPU has what `self` needs ([`Vectors::Best`] and
    /// [`Vectors::Scalar`] always).
    pub fn available(self) -> bool {
        super::xlanes::Search::available(self)
    }
}

/// The box-band engine of a rule set, with the catalog of the rule set's grids if it
/// has few ([`Catalog`]).
type BandEngine = (RuleSet, bands::Engine, Option<Arc<Catalog>>);

/// A reusable solver for any [`Variant`]: keeps its search stack (and the band tables
/// of the last rule set) between puzzles, so bulk solving does not allocate per
/// puzzle.
#[derive(Default)]
pub struct VariantSolver {
    stack: Vec<State>,
    choice: EngineChoice,
    /// The classic band engine, for classic rules under [`EngineChoice::Auto`].
    classic: Option<Box<crate::Solver>>,
    /// The box-band engine of the last rule set it ran for.
    bands: Option<Box<BandEngine>>,
    /// The vectors of the box-band engine's vector search (x, windoku, x,windoku,
    /// anti-king, non-consecutive).
    vectors: Vectors,
    /// What makes searches give up (see [`VariantSolver::set_stop`]).
    stop: StopFlag,
}

impl std::fmt::Debug for VariantSolver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("VariantSolver")
            .field("choice", &self.choice)
            .field("vectors", &self.vectors)
            .field("stack_capacity", &self.stack.capacity())
            .finish()
    }
}

impl VariantSolver {
    /// A solver with an empty stack that picks the fastest engine per rule set.
    pub fn new() -> VariantSolver {
        VariantSolver::with_engine(EngineChoice::Auto)
    }

    /// A solver that runs the given engine.
    pub fn with_engine(choice: EngineChoice) -> VariantSolver {
        VariantSolver {
            stack: Vec::with_capacity(81),
            choice,
            classic: None,
            bands: None,
            vectors: Vectors::Best,
            stop: StopFlag::never(),
        }
    }

    /// Make every engine's searches give up once `stop` is set (their outcome then
    /// says [`Outcome::cut`]).
    pub fn set_stop(&mut self, stop: StopFlag) {
        if let Some(classic) = &mut self.classic {
            classic.set_stop(stop.clone());
        }
        if let Some(bands) = &mut self.bands {
            bands.1.set_stop(stop.clone());
        }
        self.stop = stop;
    }

    /// This solver with the box-band engine's vector search on `vectors` (see
    /// [`Vectors`]; for comparisons and tests).
    pub fn with_vectors(mut self, vectors: Vectors) -> VariantSolver {
        self.vectors = vectors;
        self.bands = None;
        self
    }

    /// Make ready what searches under `v`'s rules need (the box-band engine's tables
    /// and, for a rule set with few grids, their catalog), if the last search was under
    /// other rules; searches do it themselves, so this is only for callers that time
    /// each search and want the set-up out of the first one's time.
    pub fn prepare(&mut self, v: &Variant) {
        let rules = v.rules();
        let uses_bands = match self.choice {
            EngineChoice::Auto => !rules.is_classic(),
            EngineChoice::Bands => true,
            EngineChoice::Generic => false,
        };
        if !uses_bands || !v.band_engine_runs() || self.bands.as_ref().is_some_and(|b| b.0 == rules)
        {
            return;
        }
        let mut engine = bands::Engine::new(v, self.vectors);
        engine.set_stop(self.stop.clone());
        // The catalog only where the engine is picked per rule set: forced engines
        // are for comparisons.
        let catalog = match self.choice {
            EngineChoice::Auto => Catalog::shared(rules, &mut engine),
            _ => None,
        };
        self.bands = Some(Box::new((rules, engine, catalog)));
    }

    /// Find up to `limit` solutions of `grid` under `v`'s rules, keeping the first.
    ///
    /// Givens that break a rule give no solution; check them first with
    /// [`Variant::check_givens`] to say why.
    pub fn solve(&mut self, v: &Variant, grid: &Grid, limit: u64) -> Outcome {
        self.for_each_solution(v, grid, limit, |_| {})
    }

    /// Count up to `limit` solutions (the first is not kept).
    pub fn count(&mut self, v: &Variant, grid: &Grid, limit: u64) -> Outcome {
        let mut outcome = self.search(v, grid, limit, |_| {});
        outcome.first = None;
        outcome
    }

    /// Hand each of up to `limit` solutions to `each` as it is found (the first is
    /// also kept in the outcome).
    pub fn for_each_solution(
        &mut self,
        v: &Variant,
        grid: &Grid,
        limit: u64,
        mut each: impl FnMut(&Grid),
    ) -> Outcome {
        let mut first = None;
        let mut outcome = self.search(v, grid, limit, |g| {
            debug_assert!(v.solves(&g, grid), "engine solution breaks a rule: {g}");
            first.get_or_insert(g);
            each(&g);
        });
        outcome.first = first;
        outcome
    }

    /// Run a search from `grid`, handing each solved position to `found`, up to `limit`.
    fn search(&mut self, v: &Variant, grid: &Grid, limit: u64, found: impl FnMut(Grid)) -> Outcome {
        let mut outcome = self.search_any(v, grid, limit, found);
        outcome.cut = self.stop.is_set();
        outcome
    }

    /// [`VariantSolver::search`] before the outcome says whether it was cut.
    fn search_any(
        &mut self,
        v: &Variant,
        grid: &Grid,
        limit: u64,
        mut found: impl FnMut(Grid),
    ) -> Outcome {
        let mut outcome = Outcome {
            solutions: 0,
            first: None,
            guesses: 0,
            cut: false,
        };
        if limit == 0 {
            return outcome;
        }
        if self.choice == EngineChoice::Auto && v.rules().is_classic() && v.regions().is_none() {
            let stop = &self.stop;
            let classic = self.classic.get_or_insert_with(|| {
                let mut classic = Box::<crate::Solver>::default();
                classic.set_stop(stop.clone());
                classic
            });
            let mut outcome = classic.for_each_solution(grid, limit, |g| found(*g));
            outcome.first = None;
            return outcome;
        }
        if self.choice != EngineChoice::Generic && v.band_engine_runs() {
            self.prepare(v);
            let (_, engine, catalog) = &mut **self.bands.as_mut().expect("just made");
            if let Some(catalog) = catalog {
                outcome.solutions = catalog.search(grid, limit, &mut found);
                return outcome;
            }
            let (solutions, guesses) = engine.search(grid, limit, &mut found);
            outcome.solutions = solutions;
            outcome.guesses = guesses;
            return outcome;
        }
        let Some(start) = State::start(v, grid) else {
            return outcome;
        };
        let (solutions, guesses) = run(v, start, &mut self.stack, limit, &self.stop, |s| {
            found(s.grid())
        });
        outcome.solutions = solutions;
        outcome.guesses = guesses;
        outcome
    }
}

/// The search loop: depth first from `cur`, the other branch of each guess on `stack`,
/// given up before a guess once `stop` is set. Returns (solutions found up to `limit`,
/// guesses made).
#[inline(always)]
fn run(
    v: &Variant,
    mut cur: State,
    stack: &mut Vec<State>,
    limit: u64,
    stop: &StopFlag,
    mut found: impl FnMut(&State),
) -> (u64, u64) {
    stack.clear();
    let (mut solutions, mut guesses) = (0, 0);
    loop {
        if cur.propagate(v) {
            if cur.open == 0 {
                found(&cur);
                solutions += 1;
                if solutions >= limit {
                    break;
                }
            } else if stop.is_set() {
                break;
            } else {
                let cell = cur.branch_cell(v);
                let d = cur.first_digit(cell);
                let mut other = cur;
                other.forbid(d, cell);
                stack.push(other);
                let placed = cur.place(v, d, cell);
                debug_assert!(placed);
                guesses += 1;
                continue;
            }
        }
        match stack.pop() {
            Some(next) => cur = next,
            None => break,
        }
    }
    (solutions, guesses)
}

/// The generic engine's candidates for `grid` under `v` once its inference (singles,
/// locked candidates, the law of leftovers) has nothing more to remove: per cell, a
/// 9-bit mask of the digits it may hold (bit `d - 1` for digit `d`), or `None` when
/// the inference finds a contradiction. No guess is made. For tests that hold every
/// inference to a reference: a digit of any solution must stay a candidate.
#[doc(hidden)]
pub fn generic_candidates(v: &Variant, grid: &Grid) -> Option<[u16; CELLS]> {
    let s = settled(v, grid)?;
    Some(std::array::from_fn(|cell| s.digits_at(cell)))
}

/// The position after `propagate` to a fixed point, or `None` on a contradiction.
fn settled(v: &Variant, grid: &Grid) -> Option<State> {
    let mut s = State::start(v, grid)?;
    settle(&mut s, v).then_some(s)
}

/// Propagate `s` under `v` until a pass changes nothing; `false` on a contradiction.
fn settle(s: &mut State, v: &Variant) -> bool {
    loop {
        let before = s.cand;
        if !s.propagate(v) {
            return false;
        }
        if s.cand == before {
            return true;
        }
    }
}

/// Find up to `limit` solutions with a fresh [`VariantSolver`].
pub fn solve(v: &Variant, grid: &Grid, limit: u64) -> Outcome {
    VariantSolver::new().solve(v, grid, limit)
}

/// Count up to `limit` solutions with a fresh [`VariantSolver`].
pub fn count(v: &Variant, grid: &Grid, limit: u64) -> Outcome {
    VariantSolver::new().count(v, grid, limit)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::RuleSet;

    #[test]
    fn classic_rules_agree_with_the_band_engine() {
        let v = Variant::new(RuleSet::CLASSIC, None).unwrap();
        let mut solver = VariantSolver::new();
        let puzzles = [
            "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
            "103000509002109400000704000300502006060000050700803004000401000009205800804000107",
            "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9",
        ];
        for p in puzzles {
            let g: Grid = p.parse().unwrap();
            let ours = solver.solve(&v, &g, 2);
            let band = crate::solve(&g, 2);
            assert_eq!(ours.solutions, band.solutions, "{p}");
            assert_eq!(ours.first, band.first, "{p}");
        }
        // Counting from a sparse grid agrees too.
        let g: Grid =
            "123456789456789123789123456......................................................"
                .parse()
                .unwrap();
        assert_eq!(
            solver.count(&v, &g, 100_000).solutions,
            crate::count(&g, 100_000).solutions
        );
    }

    /// The scans look only at the houses and leftover pairs of the cells that changed
    /// since a digit's last scan: at the end of propagation, scanning everything again
    /// from scratch finds nothing more. On random positions (random layouts and grids,
    /// cells blanked, then wrong digits taken out of open cells as the search's "not
    /// that digit" branches do).
    #[test]
    fn scans_of_what_changed_reach_the_full_scans_fixed_point() {
        let mut rng = crate::generate::Rng::new(29);
        let (mut tried, mut left) = (0, 0u32);
        while tried < 80 {
            let rules = ["jigsaw", "jigsaw,x", "x,windoku", "anti-knight"][tried % 4];
            let rules: super::super::RuleSet = rules.parse().unwrap();
            let regions = rules
                .contains(super::super::Rule::Jigsaw)
                .then(|| super::super::Regions::random(&mut rng));
            let v = Variant::new(rules, regions.as_ref()).unwrap();
            let Ok(solution) = super::super::random_solution(&v, &mut rng) else {
                continue;
            };
            tried += 1;
            let mut puzzle = solution;
            let mut order: Vec<usize> = (0..CELLS).collect();
            rng.shuffle(&mut order);
            for &cell in &order[..45 + tried % 31] {
                puzzle.set(cell, 0);
            }
            let mut s = settled(&v, &puzzle).expect("the grid solves it");
            for _ in 0..4 {
                let open: Vec<usize> = (0..CELLS).filter(|&c| s.open >> c & 1 != 0).collect();
                let Some(&cell) = open.get(rng.below(open.len().max(1) as u64) as usize) else {
                    break;
                };
                let right = usize::from(solution.get(cell)) - 1;
                let Some(wrong) = (0..9).find(|&d| d != right && s.cand[d] >> cell & 1 != 0) else {
                    continue;
                };
                s.forbid(wrong, cell);
                assert!(settle(&mut s, &v), "the solution is still there");
            }
            // From scratch: every board as changed, and the tables of each cell's
            // houses and pairs made here from the houses and pairs themselves.
            let mut full = v.clone();
            for cell in 0..CELLS {
                let lies_in = |(a, b): (u128, u128)| (a | b) >> cell & 1 != 0;
                full.house_of[cell] = (0..v.n_houses)
                    .filter(|&i| lies_in((v.houses[i], 0)))
                    .fold(0, |m, i| m | 1 << i);
                full.pair_of[cell] = (0..v.leftovers.len())
                    .filter(|&i| lies_in(v.leftovers[i]))
                    .fold(0, |m, i| m | 1 << i);
            }
            let mut fresh = s;
            fresh.scanned = [0; 9];
            fresh.locked = [0; 9];
            assert!(settle(&mut fresh, &full));
            assert_eq!(fresh.cand, s.cand, "{rules} {puzzle} {regions:?}");
            left += (0..9)
                .map(|d| (s.cand[d] & s.open).count_ones())
                .sum::<u32>();
        }
        // The positions were open enough to have something to scan: candidates left
        // in open cells.
        assert!(left > 1000, "{left}");
    }

    #[test]
    fn leftovers_fire_on_random_jigsaw_positions_and_keep_the_solution() {
        // Random layouts and grids, many cells blanked: with the law of leftovers the
        // inference keeps the grid's own digits and removes more than without it (in
        // some positions), never less. tests/rules.rs holds it to the reference.
        let mut rng = crate::generate::Rng::new(11);
        let (mut stronger, mut tried) = (0, 0);
        while tried < 60 {
            let regions = super::super::Regions::random(&mut rng);
            let v = Variant::new("jigsaw".parse().unwrap(), Some(&regions)).unwrap();
            let Ok(solution) = super::super::random_solution(&v, &mut rng) else {
                continue;
            };
            tried += 1;
            assert!(v.pair_of.iter().any(|&p| p != 0), "{regions}");
            let mut weaker = v.clone();
            weaker.pair_of = [0; CELLS];
            let mut puzzle = solution;
            // 40 to 70 distinct cells blanked.
            let blanks = 40 + tried % 31;
            let mut order: Vec<usize> = (0..CELLS).collect();
            rng.shuffle(&mut order);
            for &cell in &order[..blanks] {
                puzzle.set(cell, 0);
            }
            let with = settled(&v, &puzzle).expect("the grid solves it");
            let without = settled(&weaker, &puzzle).expect("the grid solves it");
            for cell in 0..CELLS {
                let digit = usize::from(solution.get(cell)) - 1;
                assert!(with.digits_at(cell) >> digit & 1 != 0, "{puzzle} {regions}");
                assert_eq!(with.digits_at(cell) & !without.digits_at(cell), 0);
            }
            if with.cand != without.cand {
                stronger += 1;
            }
        }
        assert!(stronger > 0, "the law of leftovers never removed anything");
    }

    #[test]
    fn limits_and_contradicting_givens() {
        let v = Variant::new("x".parse().unwrap(), None).unwrap();
        let mut solver = VariantSolver::new();
        assert_eq!(solver.solve(&v, &Grid::EMPTY, 0).solutions, 0);
        let five = solver.solve(&v, &Grid::EMPTY, 5);
        assert_eq!(five.solutions, 5);
        assert!(v.is_solution(&five.first.unwrap()));
        let mut seen = std::collections::HashSet::new();
        solver.for_each_solution(&v, &Grid::EMPTY, 50, |g| {
            assert!(v.is_solution(g));
            assert!(seen.insert(*g));
        });
        assert_eq!(seen.len(), 50);
        let mut clash = Grid::EMPTY;
        clash.set(0, 7);
        clash.set(40, 7);
        assert_eq!(solver.solve(&v, &clash, 2).solutions, 0);
    }
}
