//! Dynamic chains: Sudoku Explainer's "Nishio Forcing Chains" (7.5), "Dynamic Forcing
//! Chains" (8.5) and "Dynamic Forcing Chains (+)" (9.0), each plus the chain-length
//! penalty.
//!
//! A dynamic run assumes one candidate true (or false) and follows the implications
//! on a working copy of the grid: every candidate found false is taken off the copy
//! when its own implications are followed, so later "only candidate left in the cell"
//! and "only position left in the house" deductions see every earlier one. A
//! deduction made that way has as parents, besides the candidate that triggered it,
//! every candidate that had to go for it to hold (its "hidden" parents); a chain's
//! complexity is the number of distinct candidate states among the ancestors of its
//! end(s), and the difficulty is the base plus [`length_difficulty`] of the summed
//! complexity. True candidates are processed before false ones, as Sudoku Explainer
//! does, which decides which way each state is reached first.
//!
//! From every cell of two or more candidates, each candidate in turn:
//!
//! - *contradiction*: assuming it true (or false) leads to some candidate both true
//!   and false, so it is false (or true) (sort key 7: after every other kind);
//! - *double*: something follows both from the candidate true and from it false
//!   (cells of three or more candidates; key 1);
//! - *region*: the first position of a digit in a house: what every position of the
//!   digit in the house implies (key 6);
//! - *cell*: what every candidate of the cell implies (key 5).
//!
//! Nishio forcing chains are the contradictions alone, with only house links (no
//! "only candidate of the cell" and no "one digit per cell" links). The simplest
//! hint of a producer wins: lowest difficulty, then complexity, then sort key, then
//! the first found in the scan order.
//!
//! With nesting level 1 ("(+)"), when a run has nothing left to follow, pointing and
//! claiming, hidden pairs, naked pairs and X-wings are looked for on the working grid,
//! and the eliminations of the first of these techniques that has any which depend on
//! the run's own eliminations are added to the run as false candidates.

use super::board::{bits, cells, Board, Cells, HOUSES, HOUSE_MASK};
use super::chains::{digest_mix, length_difficulty, Found, DIGEST_START};
use super::hint::Hint;
use super::reach::{Houses, Reach};

const STATES: usize = 81 * 9 * 2;
/// [`Run::node_of`]'s "not reached".
const NODE_NONE: u16 = u16::MAX;
// Candidate states are encoded as the static chains encode them.
use super::chains::{and, cell_of, digit_of, is_on, state, within, State, NONE};

/// The three houses of a cell in Sudoku Explainer's order: box, row, column.
#[inline]
fn houses_of(cell: usize) -> [usize; 3] {
    let (r, c) = (cell / 9, cell % 9);
    [(r / 3) * 3 + c / 3, 9 + r, 18 + c]
}

/// One dynamic run: every state reached from the assumption, each with the parents
/// it was first reached from.
#[derive(Debug, Clone)]
pub struct Run {
    /// Node of each state reached (`NODE_NONE` if not reached; a run has at most one
    /// node per state and a temporary one, fewer than `NODE_NONE`): 16 bits, so
    /// that the runs of a position take half the cache.
    node_of: Vec<u16>,
    /// The states reached, as a bit set: the cell and region chains ask which states
    /// every run of a group reached, an intersection of these.
    seen: [u128; 12],
    /// The cells of each digit whose "on" (`on_cells`) or "off" (`off_cells`) state
    /// the run reached: an "on" state's whole wave of "off" peers is checked against
    /// these at once.
    on_cells: [u128; 9],
    off_cells: [u128; 9],
    /// State of each node.
    states: Vec<State>,
    /// Parents of node `n`: `parents[par_start[n]..par_start[n + 1]]`.
    par_start: Vec<u32>,
    /// Complexity of the inner (nested) chain each node was deduced by, 0 if none
    /// (nodes past the end: none; only nested runs fill it).
    nest: Vec<u32>,
    /// Which inner hint each node was deduced by (`NONE` if none, or past the end).
    nest_id: Vec<u32>,
    /// How each "on" node was deduced, when the run records it ([`Mode::causes`]):
    /// 0 to 2 the only position left in its box, row or column, 3 the only candidate
    /// left in its cell; [`NO_CAUSE`] for the others (and past the end).
    cause: Vec<u8>,
    /// Nodes are fewer than `NODE_NONE`, so 16 bits hold them.
    parents: Vec<u16>,
    /// "On" and "off" states reached, in the order reached.
    order_on: Vec<State>,
    order_off: Vec<State>,
    /// Nodes queued, "on" and "off": `queue_on[head_on..]` are still to follow.
    queue_on: Vec<u16>,
    queue_off: Vec<u16>,
    head_on: usize,
    head_off: usize,
    /// The contradiction found, as (on node, off node) of one candidate.
    contradiction: Option<(u32, u32)>,
    /// The working grid.
    grid: Board,
    /// Scratch parents list.
    par: Vec<u32>,
}

impl Default for Run {
    fn default() -> Self {
        Run {
            node_of: vec![NODE_NONE; STATES],
            seen: [0; 12],
            on_cells: [0; 9],
            off_cells: [0; 9],
            states: Vec::new(),
            par_start: vec![0],
            nest: Vec::new(),
            nest_id: Vec::new(),
            cause: Vec::new(),
            parents: Vec::new(),
            order_on: Vec::new(),
            order_off: Vec::new(),
            queue_on: Vec::new(),
            queue_off: Vec::new(),
            head_on: 0,
            head_off: 0,
            contradiction: None,
            grid: Board::new(),
            par: Vec::new(),
        }
    }
}

/// Link rules and nesting of one run.
#[derive(Clone, Copy, Debug)]
struct Mode {
    /// Cell links ("only candidate left", "one digit per cell"); off for Nishio.
    y: bool,
    /// Nesting level: 0 plain dynamic, 1 with the basic techniques, 2 to 4 also with
    /// the inner chain producers of the nested levels (see `nested`).
    level: u8,
    /// Record how each "on" node was deduced (`Run::cause`): the rule parents of an
    /// inner producer's hints need it.
    causes: bool,
}

impl Mode {
    /// A run with cell links or not (`y`) at nesting `level`, recording no causes.
    const fn new(y: bool, level: u8) -> Mode {
        Mode {
            y,
            level,
            causes: false,
        }
    }
}

/// [`Run::cause`] of a node not deduced by a cell or house link.
const NO_CAUSE: u8 = u8::MAX;

impl Run {
    fn clear(&mut self) {
        for &s in &self.states {
            self.node_of[s as usize] = NODE_NONE;
        }
        self.seen = [0; 12];
        self.on_cells = [0; 9];
        self.off_cells = [0; 9];
        self.states.clear();
        self.par_start.clear();
        self.par_start.push(0);
        self.nest.clear();
        self.nest_id.clear();
        self.cause.clear();
        self.parents.clear();
        self.order_on.clear();
        self.order_off.clear();
        self.queue_on.clear();
        self.queue_off.clear();
        self.head_on = 0;
        self.head_off = 0;
        self.contradiction = None;
    }

    #[inline]
    fn reached(&self, s: State) -> bool {
        self.node_of[s as usize] != NODE_NONE
    }

    /// The node of state `s`, `NONE` if not reached.
    #[inline]
    fn node_at(&self, s: State) -> u32 {
        match self.node_of[s as usize] {
            NODE_NONE => NONE,
            n => n as u32,
        }
    }

    /// A node for `s` with `parents`; registered (and queued) unless `temp`.
    fn node(&mut self, s: State, parents: &[u32], temp: bool) -> u32 {
        let n = self.states.len() as u32;
        self.states.push(s);
        // one by one: a copy of a slice this short costs more as a call
        for &q in parents {
            self.parents.push(q as u16);
        }
        self.par_start.push(self.parents.len() as u32);
        if !temp {
            debug_assert!(n < NODE_NONE as u32);
            self.node_of[s as usize] = n as u16;
            self.seen[s as usize / 128] |= 1u128 << (s as usize % 128);
            let bit = 1u128 << cell_of(s);
            if is_on(s) {
                self.on_cells[digit_of(s)] |= bit;
                self.order_on.push(s);
                self.queue_on.push(n as u16);
            } else {
                self.off_cells[digit_of(s)] |= bit;
                self.order_off.push(s);
                self.queue_off.push(n as u16);
            }
        }
        n
    }

    /// A registered "off" node for `s` = (`cell`, `di`), not reached yet, whose one
    /// parent is the "on" node `p` (what [`Run::node`] does, without its tests).
    #[inline]
    fn off_node(&mut self, s: State, cell: usize, di: usize, p: u32) {
        let n = self.states.len() as u32;
        self.states.push(s);
        self.parents.push(p as u16);
        self.par_start.push(self.parents.len() as u32);
        debug_assert!(n < NODE_NONE as u32);
        self.node_of[s as usize] = n as u16;
        self.seen[s as usize / 128] |= 1u128 << (s as usize % 128);
        self.off_cells[di] |= 1u128 << cell;
        self.order_off.push(s);
        self.queue_off.push(n as u16);
    }

    /// Distinct states among the ancestors of node `n`, itself included, plus the
    /// complexity of the inner chains those states were deduced by.
    /// Each inner chain counts once per outer hint: `nested` holds those already
    /// counted, and the caller clears it between hints.
    ///
    /// The count stops as soon as it exceeds `limit` (the result is then above
    /// `limit` but not the full count): a hint with more than the best's complexity
    /// cannot beat it, the difficulty growing with the complexity.
    fn ancestors(
        &self,
        n: u32,
        seen: &mut [u128; 12],
        stack: &mut Vec<u32>,
        nested: &mut Vec<u32>,
        limit: u32,
    ) -> u32 {
        *seen = [0; 12];
        stack.clear();
        stack.push(n);
        let mut count = 0;
        while let Some(p) = stack.pop() {
            let s = self.states[p as usize] as usize;
            if seen[s / 128] >> (s % 128) & 1 != 0 {
                continue;
            }
            seen[s / 128] |= 1u128 << (s % 128);
            count += 1;
            let id = self.nest_id.get(p as usize).copied().unwrap_or(NONE);
            if id != NONE && !nested.contains(&id) {
                nested.push(id);
                count += self.nest[p as usize];
            }
            if count > limit {
                return count;
            }
            let (a, z) = (
                self.par_start[p as usize] as usize,
                self.par_start[p as usize + 1] as usize,
            );
            for &q in &self.parents[a..z] {
                stack.push(q as u32);
            }
        }
        count
    }

    /// Follow every implication of `source` on a copy of `base`, stopping at the
    /// first contradiction.
    fn chain(&mut self, base: &Board, source: State, mode: Mode, adv: &mut Advanced) {
        self.clear();
        self.grid = *base;
        self.node(source, &[], false);
        let mut par = std::mem::take(&mut self.par);
        self.follow(base, mode, adv, &mut par);
        self.par = par;
    }

    fn follow(&mut self, base: &Board, mode: Mode, adv: &mut Advanced, par: &mut Vec<u32>) {
        let mut ons: [(State, usize); 4] = [(0, 0); 4];
        loop {
            if let Some(&p) = self.queue_on.get(self.head_on) {
                let p = p as u32;
                self.head_on += 1;
                let s = self.states[p as usize];
                let (cell, di) = (cell_of(s), digit_of(s));
                let bit = 1u128 << cell;
                if mode.y {
                    for d in bits(self.grid.cand[cell] as u32) {
                        if d == di || self.off_cells[d] & bit != 0 {
                            continue;
                        }
                        if self.on_cells[d] & bit != 0 {
                            // a contradiction
                            self.off_from_on(state(cell, d, false), p);
                            return;
                        }
                        self.off_node(state(cell, d, false), cell, d, p);
                    }
                }
                // box, row, column, each in cell order (a house's cells are listed
                // in increasing order), every cell once
                let mut added = bit;
                for h in houses_of(cell) {
                    let fresh = self.grid.digit[di] & HOUSE_MASK[h] & !added;
                    added |= fresh;
                    if fresh & self.on_cells[di] != 0 {
                        // a contradiction in this house: the states before it first,
                        // in order
                        for o in cells(fresh) {
                            if self.off_from_on(state(o, di, false), p) {
                                return;
                            }
                        }
                    }
                    for o in cells(fresh & !self.off_cells[di]) {
                        self.off_node(state(o, di, false), o, di, p);
                    }
                }
                continue;
            }
            if let Some(&p) = self.queue_off.get(self.head_off) {
                let p = p as u32;
                self.head_off += 1;
                let s = self.states[p as usize];
                let (cell, di) = (cell_of(s), digit_of(s));
                // what turns on, on the grid still holding `s`
                let mut n_ons = 0;
                if mode.y {
                    let m = self.grid.cand[cell];
                    if m.count_ones() == 2 {
                        let other = (m & !(1 << di)).trailing_zeros() as usize;
                        ons[n_ons] = (state(cell, other, true), 3);
                        n_ons += 1;
                    }
                }
                for (k, h) in houses_of(cell).into_iter().enumerate() {
                    let rest = self.grid.digit[di] & HOUSE_MASK[h] & !(1u128 << cell);
                    if rest.count_ones() == 1 {
                        let t = state(rest.trailing_zeros() as usize, di, true);
                        if !ons[..n_ons].iter().any(|&(u, _)| u == t) {
                            ons[n_ons] = (t, k);
                            n_ons += 1;
                        }
                    }
                }
                for &(t, why) in &ons[..n_ons] {
                    par.clear();
                    par.push(p);
                    let tc = cell_of(t);
                    if why == 3 {
                        let gone = base.cand[tc] & !self.grid.cand[tc];
                        for d in bits(gone as u32) {
                            par.push(self.node_at(state(tc, d, false)));
                        }
                    } else {
                        let h = houses_of(cell)[why];
                        // in the house's order, which is increasing
                        let gone = base.digit[di] & HOUSE_MASK[h] & !self.grid.digit[di];
                        for o in cells(gone) {
                            par.push(self.node_at(state(o, di, false)));
                        }
                    }
                    debug_assert!(par.iter().all(|&x| x != NONE));
                    if self.reached(t ^ 1) {
                        let on = self.node(t, par, true);
                        if mode.causes {
                            self.set_cause(on, why as u8);
                        }
                        self.contradiction = Some((on, self.node_at(t ^ 1)));
                        return;
                    }
                    if !self.reached(t) {
                        let n = self.node(t, par, false);
                        if mode.causes {
                            self.set_cause(n, why as u8);
                        }
                    }
                }
                // dynamic: the candidate leaves the working grid
                self.grid.cand[cell] &= !(1 << di);
                self.grid.digit[di] &= !(1u128 << cell);
                continue;
            }
            if mode.level == 0 || !self.advanced(base, adv, mode.level) {
                return;
            }
        }
    }

    /// Record that the "on" node `n` was deduced by link `why` ([`Run::cause`]).
    fn set_cause(&mut self, n: u32, why: u8) {
        if self.cause.len() <= n as usize {
            self.cause.resize(n as usize + 1, NO_CAUSE);
        }
        self.cause[n as usize] = why;
    }

    /// Append to `out` the rule parents of the chain(s) ending at node `n`: for each
    /// "on" ancestor deduced by a link, the candidates of `base` missing on `g` in the
    /// link's cell (only candidate left) or house (only position left), as "off"
    /// states (the assumption's own cell or house, for a cell or region forcing chain,
    /// is the caller's to add). `seen` and `stack` are scratch.
    fn rule_parents(
        &self,
        (base, g): (&Board, &Board),
        n: u32,
        (seen, stack): (&mut [u128; 12], &mut Vec<u32>),
        out: &mut Vec<State>,
    ) {
        *seen = [0; 12];
        stack.clear();
        stack.push(n);
        while let Some(p) = stack.pop() {
            let s = self.states[p as usize];
            let su = s as usize;
            if seen[su / 128] >> (su % 128) & 1 != 0 {
                continue;
            }
            seen[su / 128] |= 1u128 << (su % 128);
            let why = self.cause.get(p as usize).copied().unwrap_or(NO_CAUSE);
            if is_on(s) && why != NO_CAUSE {
                let (cell, di) = (cell_of(s), digit_of(s));
                if why == 3 {
                    for d in bits((base.cand[cell] & !g.cand[cell]) as u32) {
                        out.push(state(cell, d, false));
                    }
                } else {
                    let hm = HOUSE_MASK[houses_of(cell)[why as usize]];
                    for o in cells(base.digit[di] & hm & !g.digit[di]) {
                        out.push(state(o, di, false));
                    }
                }
            }
            let (a, z) = (
                self.par_start[p as usize] as usize,
                self.par_start[p as usize + 1] as usize,
            );
            for &q in &self.parents[a..z] {
                stack.push(q as u32);
            }
        }
    }

    /// An "off" state implied by the "on" node `p`; true on a contradiction.
    #[inline]
    fn off_from_on(&mut self, t: State, p: u32) -> bool {
        if self.reached(t ^ 1) {
            let off = self.node(t, &[p], true);
            self.contradiction = Some((self.node_at(t ^ 1), off));
            return true;
        }
        if !self.reached(t) {
            self.node(t, &[p], false);
        }
        false
    }

    /// Level 1: the eliminations of the first basic technique that has some depending
    /// on the run's eliminations, added as "off" states; whether any was added.
    fn advanced(&mut self, base: &Board, adv: &mut Advanced, level: u8) -> bool {
        adv.found.clear();
        adv.parents.clear();
        let g = self.grid;
        // techniques in Sudoku Explainer's order; the first with any result is used
        if !(adv.locking(base, &g)
            || adv.hidden_pairs(base, &g)
            || adv.naked_pairs(base, &g)
            || adv.x_wings(base, &g))
            && level >= 2
        {
            super::nested::inner(adv, base, &g, level);
        }
        let mut any = false;
        let found = std::mem::take(&mut adv.found);
        let mut par: Vec<u32> = Vec::new();
        for &(s, pa, pz, cx, id) in &found {
            if self.reached(s) {
                continue;
            }
            par.clear();
            for &q in &adv.parents[pa as usize..pz as usize] {
                par.push(self.node_at(q));
            }
            debug_assert!(par.iter().all(|&x| x != NONE));
            let n = self.node(s, &par, false);
            if self.nest.len() <= n as usize {
                self.nest.resize(n as usize + 1, 0);
                self.nest_id.resize(n as usize + 1, NONE);
            }
            self.nest[n as usize] = cx;
            self.nest_id[n as usize] = id;
            any = true;
        }
        adv.found = found;
        any
    }
}

/// The 36 pairs `(i, j)`, `i < j < 9`, in the order Sudoku Explainer enumerates pairs
/// of digits, cells or lines (as two-bit masks in increasing order: by `j`, then `i`).
const PAIRS: [(usize, usize); 36] = {
    let mut p = [(0usize, 0usize); 36];
    let (mut j, mut k) = (1, 0);
    while j < 9 {
        let mut i = 0;
        while i < j {
            p[k] = (i, j);
            k += 1;
            i += 1;
        }
        j += 1;
    }
    p
};

/// The basic techniques a level-1 run may use, each elimination with the removed
/// candidates it depends on ("off" states).
#[derive(Debug, Default)]
pub struct Advanced {
    /// (eliminated "off" state, parents range in `parents`, complexity of the inner
    /// chain that found it or 0).
    pub(super) found: Vec<(State, u32, u32, u32, u32)>,
    pub(super) parents: Vec<State>,
    /// The inner producers of the nested levels.
    pub(super) inner: super::nested::Inner,
}

impl Advanced {
    /// Record `elims` ("off" states) with the parents pushed since `par_start`; a
    /// deduction with no parent does not depend on the run and is skipped. An inner
    /// hint (complexity `cx` above 0) is told apart from the others by `chain` (a
    /// digest of its targets and their chains, [`Found::chain`]): Sudoku Explainer
    /// counts an inner chain once per outer hint, even when two runs of that hint
    /// found it each.
    ///
    /// The run takes them up in Sudoku Explainer's order, which is that of its hint's
    /// map from cells to removed digits: a hash table whose buckets are the cell index
    /// modulo its capacity (16, doubled while the cells fill more than three quarters
    /// of it), each cell's digits in increasing order. The order decides which of
    /// two contradictions a run meets first, and so a chain's length.
    pub(super) fn record(
        &mut self,
        elims: &[State],
        par_start: usize,
        cx: u32,
        chain: u64,
    ) -> bool {
        if self.parents.len() == par_start {
            return false;
        }
        let pz = self.parents.len() as u32;
        let start = self.found.len();
        let mut cells = 0u128;
        let id = match cx {
            0 => NONE,
            _ => ((chain ^ chain >> 32) as u32) % NONE,
        };
        for &e in elims {
            self.found.push((e, par_start as u32, pz, cx, id));
            cells |= 1u128 << cell_of(e);
        }
        let mut capacity = 16;
        while cells.count_ones() * 4 > capacity * 3 {
            capacity *= 2;
        }
        let bucket = capacity as usize - 1;
        self.found[start..].sort_unstable_by_key(|f| (cell_of(f.0) & bucket, f.0));
        true
    }

    /// Pointing and claiming on the working grid `g`; parents: the candidates of the
    /// digit removed from the first house outside the second.
    fn locking(&mut self, base: &Board, g: &Board) -> bool {
        let start = self.found.len();
        let mut elims: Vec<State> = Vec::new();
        for &(t1, t2) in &super::singles::LOCK_PAIRS {
            for di in 0..9 {
                let dm = g.digit[di];
                for i1 in 0..9 {
                    let h1 = t1 + i1;
                    let p1 = dm & HOUSE_MASK[h1];
                    if p1.count_ones() < 2 {
                        continue;
                    }
                    for i2 in 0..9 {
                        let h2 = t2 + i2;
                        if p1 & !HOUSE_MASK[h2] != 0 {
                            continue;
                        }
                        let victims = dm & HOUSE_MASK[h2] & !HOUSE_MASK[h1];
                        if victims == 0 {
                            continue;
                        }
                        let ps = self.parents.len();
                        let gone = base.digit[di] & !g.digit[di] & HOUSE_MASK[h1] & !HOUSE_MASK[h2];
                        for c in cells(gone) {
                            self.parents.push(state(c, di, false));
                        }
                        elims.clear();
                        elims.extend(cells(victims).map(|c| state(c, di, false)));
                        self.record(&elims, ps, 0, 0);
                    }
                }
            }
        }
        self.found.len() > start
    }

    /// Hidden pairs: two digits in the same two cells of a house; parents: the
    /// candidates of the two digits once in the house's other cells. Every hint is
    /// recorded, in Sudoku Explainer's order ([`SE_ORDER`](super::singles::SE_ORDER), then [`PAIRS`] of digits),
    /// since an elimination two hints share keeps the first one's parents.
    fn hidden_pairs(&mut self, base: &Board, g: &Board) -> bool {
        let start = self.found.len();
        let mut elims: Vec<State> = Vec::new();
        for h in super::singles::SE_ORDER {
            let hm = HOUSE_MASK[h] & g.empty;
            if hm.count_ones() <= 4 {
                continue;
            }
            for (d1, d2) in PAIRS {
                let p1 = g.digit[d1] & HOUSE_MASK[h];
                if p1.count_ones() != 2 {
                    continue;
                }
                let p2 = g.digit[d2] & HOUSE_MASK[h];
                if p2 != p1 {
                    continue;
                }
                elims.clear();
                for c in cells(p1) {
                    for d in bits(g.cand[c] as u32) {
                        if d != d1 && d != d2 {
                            elims.push(state(c, d, false));
                        }
                    }
                }
                if elims.is_empty() {
                    continue;
                }
                let ps = self.parents.len();
                for &o in &HOUSES[h] {
                    let o = o as usize;
                    if p1 >> o & 1 != 0 {
                        continue;
                    }
                    for d in [d1, d2] {
                        if base.digit[d] >> o & 1 != 0 {
                            self.parents.push(state(o, d, false));
                        }
                    }
                }
                self.record(&elims, ps, 0, 0);
            }
        }
        self.found.len() > start
    }

    /// Naked pairs: two cells of a house holding the same two digits; parents: the
    /// cells' other candidates removed. In Sudoku Explainer's order: [`SE_ORDER`](super::singles::SE_ORDER),
    /// then [`PAIRS`] of the house's cells.
    fn naked_pairs(&mut self, base: &Board, g: &Board) -> bool {
        let start = self.found.len();
        let mut elims: Vec<State> = Vec::new();
        for h in super::singles::SE_ORDER {
            if g.empty_count(h) < 4 {
                continue;
            }
            let hs = &HOUSES[h];
            for (i, j) in PAIRS {
                let a = hs[i] as usize;
                let m = g.cand[a];
                if m.count_ones() != 2 {
                    continue;
                }
                let bc = hs[j] as usize;
                if g.cand[bc] != m {
                    continue;
                }
                let pair = (1u128 << a) | (1u128 << bc);
                elims.clear();
                for &o in hs {
                    let o = o as usize;
                    if pair >> o & 1 == 0 {
                        for d in bits((g.cand[o] & m) as u32) {
                            elims.push(state(o, d, false));
                        }
                    }
                }
                if elims.is_empty() {
                    continue;
                }
                let ps = self.parents.len();
                for c in [a, bc] {
                    for d in bits((base.cand[c] & !m) as u32) {
                        self.parents.push(state(c, d, false));
                    }
                }
                self.record(&elims, ps, 0, 0);
            }
        }
        self.found.len() > start
    }

    /// X-wings: a digit in two rows (columns) only in the same two columns (rows);
    /// parents: the digit's removed candidates in the two base lines outside the cover.
    /// In Sudoku Explainer's order: column bases first, then row bases; [`PAIRS`] of
    /// lines, then digits (only those placed at most five times).
    fn x_wings(&mut self, base: &Board, g: &Board) -> bool {
        let start = self.found.len();
        let mut elims: Vec<State> = Vec::new();
        // Sudoku Explainer looks for fish only in digits placed at most five times
        let mut placed = [0u8; 9];
        for &v in &g.value {
            if v != 0 {
                placed[v as usize - 1] += 1;
            }
        }
        for (bt, ct) in [(18usize, 9usize), (9, 18)] {
            for (i, j) in PAIRS {
                for di in 0..9 {
                    if placed[di] > 5 {
                        continue;
                    }
                    let dm = g.digit[di];
                    let p1 = dm & HOUSE_MASK[bt + i];
                    if p1.count_ones() != 2 {
                        continue;
                    }
                    let p2 = dm & HOUSE_MASK[bt + j];
                    if p2.count_ones() != 2 {
                        continue;
                    }
                    let covers: Vec<usize> = (0..9)
                        .filter(|&k| (p1 | p2) & HOUSE_MASK[ct + k] != 0)
                        .collect();
                    if covers.len() != 2 {
                        continue;
                    }
                    let cover = HOUSE_MASK[ct + covers[0]] | HOUSE_MASK[ct + covers[1]];
                    let bases = HOUSE_MASK[bt + i] | HOUSE_MASK[bt + j];
                    let victims = dm & cover & !bases;
                    if victims == 0 {
                        continue;
                    }
                    elims.clear();
                    elims.extend(cells(victims).map(|c| state(c, di, false)));
                    let ps = self.parents.len();
                    for c in cells(base.digit[di] & !dm & bases & !cover) {
                        self.parents.push(state(c, di, false));
                    }
                    self.record(&elims, ps, 0, 0);
                }
            }
        }
        self.found.len() > start
    }
}

/// Which producer: Nishio, dynamic, or dynamic (+).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// "Nishio Forcing Chains", 7.5.
    Nishio,
    /// "Dynamic ... Forcing Chains", 8.5.
    Dynamic,
    /// "Dynamic ... Forcing Chains (+)", 9.0.
    DynamicPlus,
    /// Nested forcing chains of level 2 to 5 (9.5, 10.0, 10.5, 11.0): "(+ Forcing
    /// Chains)", "(+ Multiple Forcing Chains)", "(+ Dynamic Forcing Chains)" and
    /// "(+ Dynamic Forcing Chains (+))".
    Nested(u8),
}

/// The best hint so far: (difficulty, complexity, sort key, hint).
type Best = Option<(u8, u32, u8, Hint)>;

/// Buffers for the dynamic producers, kept between steps and puzzles.
#[derive(Debug, Default)]
pub struct Dynamic {
    /// The "on" run of each candidate (`cell * 9 + digit index`), computed at most
    /// once per position: the cell's own runs, and those of the other positions of a
    /// digit in a house for the region chains.
    runs: Vec<Run>,
    /// Which of `runs` hold the position in hand's run.
    done: [u128; 9],
    /// The "off" run of the candidate in hand.
    off: Run,
    /// What a Nishio run reaches, without its chains ([`Reach`]).
    reach: Reach,
    /// The position in hand's houses that hold a digit more than once.
    houses: Houses,
    /// Follow every Nishio run in full (the tests check that this changes no hint).
    follow_all: bool,
    adv: Advanced,
    seen: [u128; 12],
    stack: Vec<u32>,
    /// Inner chains already counted in the complexity of the hint in hand.
    nested: Vec<u32>,
    /// The states a group of runs reached, in one run's order ([`common_in_order`]).
    common: Vec<u32>,
    /// The last position on which the Nishio chains found nothing (see
    /// [`Dynamic::hint`]).
    nishio_nothing_on: Option<Board>,
    /// Nishio candidates left out thanks to `nishio_nothing_on` (for tests).
    #[cfg(test)]
    pub(super) nishio_skipped: usize,
}

impl Dynamic {
    /// The simplest hint of producer `kind` on `b`, if any.
    ///
    /// The Nishio chains remember the last position on which they found nothing. A
    /// Nishio run never leaves its digit (no cell links), so on a position `b` with
    /// only fewer candidates than that one, the runs from a candidate of a digit whose
    /// positions are as they were there are the runs followed there, which met no
    /// contradiction (a contradiction there removed a candidate that `b` has too: the
    /// one taken as true, or the other candidates of its cell): they meet none now
    /// and are left out, the others followed in the same order, so the hint is the
    /// same.
    pub fn hint(&mut self, b: &Board, kind: Kind) -> Option<Hint> {
        let (mode, base, names): (Mode, u8, &Names) = match kind {
            Kind::Nishio => (Mode::new(false, 0), 75, &NISHIO),
            Kind::Dynamic => (Mode::new(true, 0), 85, &DYNAMIC),
            Kind::DynamicPlus => (Mode::new(true, 1), 90, &PLUS),
            Kind::Nested(level) => (
                Mode::new(true, level),
                95 + 5 * (level - 2),
                &NESTED[level as usize - 2],
            ),
        };
        if self.runs.len() < 729 {
            self.runs.resize_with(729, Run::default);
        }
        self.done = [0; 9];
        let nishio = kind == Kind::Nishio;
        // Nishio's runs conclude only by a contradiction, which is seldom there: a run
        // is followed in full (for its chains) only if its reach meets one.
        let filter = nishio && !self.follow_all;
        if filter {
            self.houses = Houses::new(b);
        }
        // Nishio: the digits whose positions are those of the remembered position,
        // if `b` has only fewer candidates
        let same = match self.nishio_nothing_on.filter(|r| nishio && within(b, r)) {
            Some(r) => (0..9)
                .filter(|&di| r.digit[di] == b.digit[di])
                .fold(0u16, |m, di| m | 1 << di),
            None => 0,
        };
        let mut best: Best = None;
        for cell in cells(b.empty) {
            let m = b.cand[cell];
            let card = m.count_ones();
            if card < 2 {
                continue;
            }
            for di in bits(m as u32) {
                if same >> di & 1 != 0 {
                    #[cfg(test)]
                    {
                        self.nishio_skipped += 1;
                    }
                    continue;
                }
                let on = state(cell, di, true);
                let (follow_on, follow_off) = if filter {
                    self.reach.follow(b, &self.houses, on);
                    let on_fails = self.reach.contradiction;
                    self.reach.follow(b, &self.houses, on ^ 1);
                    (on_fails, self.reach.contradiction)
                } else {
                    (true, true)
                };
                if follow_on {
                    self.on_run(b, cell, di, mode);
                }
                if let (true, Some((n_on, n_off))) =
                    (follow_on, self.runs[cell * 9 + di].contradiction)
                {
                    let r = &self.runs[cell * 9 + di];
                    let cx = complexity(
                        [(r, n_on), (r, n_off)],
                        (&mut self.seen, &mut self.stack, &mut self.nested),
                        limit(&best),
                    );
                    let mut elim = [0u128; 9];
                    elim[di] = 1u128 << cell;
                    offer(&mut best, b, names.contradiction, base, cx, 7, elim);
                }
                if !follow_off {
                    continue;
                }
                self.off.chain(b, on ^ 1, mode, &mut self.adv);
                if let Some((n_on, n_off)) = self.off.contradiction {
                    let r = &self.off;
                    let cx = complexity(
                        [(r, n_on), (r, n_off)],
                        (&mut self.seen, &mut self.stack, &mut self.nested),
                        limit(&best),
                    );
                    offer(
                        &mut best,
                        b,
                        names.contradiction,
                        base,
                        cx,
                        7,
                        target_elim(b, on),
                    );
                }
                if nishio {
                    continue;
                }
                if card >= 3 {
                    self.doubles(b, cell * 9 + di, names, base, &mut best);
                }
                self.regions(b, cell, di, mode, names, base, &mut best);
            }
            if nishio {
                continue;
            }
            // cell reduction: what every digit of the cell implies
            let first = cell * 9 + m.trailing_zeros() as usize;
            let runs = &self.runs[cell * 9..cell * 9 + 9];
            let mut every = [u128::MAX; 12];
            for d in bits(m as u32) {
                every = and(&every, &runs[d].seen);
            }
            common_in_order(&self.runs[first], &every, &mut self.common);
            for &k in &self.common {
                let s = self.runs[first].states[(k & 0xffff) as usize];
                let elim = target_elim(b, s);
                if !removes(b, &elim) {
                    continue;
                }
                let cx = complexity(
                    bits(m as u32).map(|d| (&runs[d], runs[d].node_at(s))),
                    (&mut self.seen, &mut self.stack, &mut self.nested),
                    limit(&best),
                );
                offer(&mut best, b, names.cell, base, cx, 5, elim);
            }
        }
        if nishio && best.is_none() {
            self.nishio_nothing_on = Some(*b);
        }
        best.map(|(_, _, _, h)| h)
    }

    /// The "on" run of candidate (`cell`, `di`) into `runs`, unless already there.
    fn on_run(&mut self, b: &Board, cell: usize, di: usize, mode: Mode) {
        if self.done[di] >> cell & 1 == 0 {
            self.done[di] |= 1u128 << cell;
            self.runs[cell * 9 + di].chain(b, state(cell, di, true), mode, &mut self.adv);
        }
    }

    /// Where `cell` is the first of two or more positions of digit `di` in house `h`,
    /// the others, with their "on" runs computed (a region forcing chain's group).
    fn region_others(
        &mut self,
        b: &Board,
        cell: usize,
        di: usize,
        h: usize,
        mode: Mode,
    ) -> Option<Cells> {
        let pos = b.digit[di] & HOUSE_MASK[h];
        if pos.count_ones() < 2 || pos.trailing_zeros() as usize != cell {
            return None;
        }
        let others = pos & !(1u128 << cell);
        for o in cells(others) {
            self.on_run(b, o, di, mode);
        }
        Some(others)
    }

    /// Double forcing chains: what follows from the candidate both true and false.
    fn doubles(&mut self, b: &Board, idx: usize, names: &Names, base: u8, best: &mut Best) {
        let on_run = &self.runs[idx];
        common_in_order(on_run, &self.off.seen, &mut self.common);
        for &k in &self.common {
            let s = on_run.states[(k & 0xffff) as usize];
            let elim = target_elim(b, s);
            if !removes(b, &elim) {
                continue;
            }
            let cx = complexity(
                [
                    (on_run, on_run.node_at(s)),
                    (&self.off, self.off.node_at(s)),
                ],
                (&mut self.seen, &mut self.stack, &mut self.nested),
                limit(best),
            );
            offer(best, b, names.double, base, cx, 1, elim);
        }
    }

    /// Region forcing chains from the first position of digit `di` in each house of
    /// `cell`.
    #[allow(clippy::too_many_arguments)]
    fn regions(
        &mut self,
        b: &Board,
        cell: usize,
        di: usize,
        mode: Mode,
        names: &Names,
        base: u8,
        best: &mut Best,
    ) {
        for h in houses_of(cell) {
            let Some(others) = self.region_others(b, cell, di, h, mode) else {
                continue;
            };
            let mine = &self.runs[cell * 9 + di];
            let runs = &self.runs;
            let mut every = [u128::MAX; 12];
            for o in cells(others) {
                every = and(&every, &runs[o * 9 + di].seen);
            }
            common_in_order(mine, &every, &mut self.common);
            for &k in &self.common {
                let s = mine.states[(k & 0xffff) as usize];
                let elim = target_elim(b, s);
                if !removes(b, &elim) {
                    continue;
                }
                let theirs = cells(others).map(|o| &runs[o * 9 + di]);
                let cx = complexity(
                    std::iter::once(mine)
                        .chain(theirs)
                        .map(|r| (r, r.node_at(s))),
                    (&mut self.seen, &mut self.stack, &mut self.nested),
                    limit(best),
                );
                offer(best, b, names.region, base, cx, 6, elim);
            }
        }
    }
}

impl Dynamic {
    /// Every hint of "Dynamic Forcing Chains" (8.5 + length) on the working grid `g`
    /// of a nested run from position `base` (nothing cut short by a better hint),
    /// each with its rule parents against `base`, appended to `out` in the producer's
    /// scan order (that of [`Dynamic::hint`]): the inner producer of nesting level 4.
    pub(super) fn every_hint(&mut self, base: &Board, g: &Board, out: &mut Vec<Found>) {
        let mode = Mode {
            y: true,
            level: 0,
            causes: true,
        };
        if self.runs.len() < 729 {
            self.runs.resize_with(729, Run::default);
        }
        self.done = [0; 9];
        for cell in cells(g.empty) {
            let m = g.cand[cell];
            let card = m.count_ones();
            if card < 2 {
                continue;
            }
            for di in bits(m as u32) {
                let on = state(cell, di, true);
                self.on_run(g, cell, di, mode);
                let r = &self.runs[cell * 9 + di];
                if let Some((n_on, n_off)) = r.contradiction {
                    let mut elim = [0u128; 9];
                    elim[di] = 1u128 << cell;
                    push_found(
                        (base, g),
                        &[(r, n_on), (r, n_off)],
                        &[],
                        7,
                        elim,
                        (&mut self.seen, &mut self.stack),
                        out,
                    );
                }
                self.off.chain(g, on ^ 1, mode, &mut self.adv);
                if let Some((n_on, n_off)) = self.off.contradiction {
                    let r = &self.off;
                    push_found(
                        (base, g),
                        &[(r, n_on), (r, n_off)],
                        &[],
                        7,
                        target_elim(g, on),
                        (&mut self.seen, &mut self.stack),
                        out,
                    );
                }
                if card >= 3 {
                    push_common(
                        (base, g),
                        &[&self.runs[cell * 9 + di], &self.off],
                        &[],
                        1,
                        &mut self.common,
                        (&mut self.seen, &mut self.stack),
                        out,
                    );
                }
                for h in houses_of(cell) {
                    let Some(others) = self.region_others(g, cell, di, h, mode) else {
                        continue;
                    };
                    let runs: Vec<&Run> = std::iter::once(cell)
                        .chain(cells(others))
                        .map(|o| &self.runs[o * 9 + di])
                        .collect();
                    // the hint rests on every position of the digit in the house
                    let roots: Vec<State> = cells(base.digit[di] & HOUSE_MASK[h] & !g.digit[di])
                        .map(|o| state(o, di, false))
                        .collect();
                    push_common(
                        (base, g),
                        &runs,
                        &roots,
                        6,
                        &mut self.common,
                        (&mut self.seen, &mut self.stack),
                        out,
                    );
                }
            }
            // cell reduction: what every digit of the cell implies, resting on every
            // candidate of the cell
            let runs: Vec<&Run> = bits(m as u32).map(|d| &self.runs[cell * 9 + d]).collect();
            let roots: Vec<State> = bits((base.cand[cell] & !m) as u32)
                .map(|d| state(cell, d, false))
                .collect();
            push_common(
                (base, g),
                &runs,
                &roots,
                5,
                &mut self.common,
                (&mut self.seen, &mut self.stack),
                out,
            );
        }
    }
}

/// The hint of [`Dynamic::every_hint`] whose chains end at `ends` (each a node of its
/// run), removing `elim` from `g`, as a [`Found`] of sort key `key` with the rule
/// parents of its chains and `roots`, onto `out`; nothing if it removes nothing.
/// `seen` and `stack` are scratch.
///
/// The runs are plain dynamic ones, with no inner chains of their own, so the
/// complexity is each end's distinct ancestors, summed: the states the rule-parent
/// walk marks, so one walk per end gives both.
fn push_found(
    (base, g): (&Board, &Board),
    ends: &[(&Run, u32)],
    roots: &[State],
    key: u8,
    elim: [Cells; 9],
    (seen, stack): (&mut [u128; 12], &mut Vec<u32>),
    out: &mut Vec<Found>,
) {
    let mut elims = Vec::new();
    for (di, &e) in elim.iter().enumerate() {
        for c in cells(e & g.digit[di]) {
            elims.push(state(c, di, false));
        }
    }
    if elims.is_empty() {
        return;
    }
    let mut parents = roots.to_vec();
    let mut cx = 0;
    // the chains' digest: each target with the states of its ancestors
    let mut chain = DIGEST_START;
    for &(r, n) in ends {
        debug_assert!(r.nest.is_empty(), "an inner run with inner chains");
        r.rule_parents((base, g), n, (seen, stack), &mut parents);
        cx += seen.iter().map(|w| w.count_ones()).sum::<u32>();
        digest_mix(&mut chain, r.states[n as usize] as u64 | 1 << 32);
        for &w in seen.iter() {
            digest_mix(&mut chain, w as u64);
            digest_mix(&mut chain, (w >> 64) as u64);
        }
    }
    parents.sort_unstable();
    parents.dedup();
    out.push(Found {
        chain,
        rank: (85 + length_difficulty(cx), cx, key),
        elims,
        parents,
    });
}

/// The hints of [`Dynamic::every_hint`] whose chains, one from each of `runs`, all end
/// at one state every run reached (the double, cell and region forcing chains, sort key
/// `key`), taken in the first run's order, resting on `roots`, onto `out`. `common`,
/// `seen` and `stack` are scratch.
fn push_common(
    (base, g): (&Board, &Board),
    runs: &[&Run],
    roots: &[State],
    key: u8,
    common: &mut Vec<u32>,
    (seen, stack): (&mut [u128; 12], &mut Vec<u32>),
    out: &mut Vec<Found>,
) {
    let mut every = [u128::MAX; 12];
    for r in runs {
        every = and(&every, &r.seen);
    }
    common_in_order(runs[0], &every, common);
    let mut ends = Vec::with_capacity(runs.len());
    for &k in common.iter() {
        let s = runs[0].states[(k & 0xffff) as usize];
        ends.clear();
        ends.extend(runs.iter().map(|&r| (r, r.node_at(s))));
        push_found(
            (base, g),
            &ends,
            roots,
            key,
            target_elim(g, s),
            (&mut *seen, &mut *stack),
            out,
        );
    }
}

/// The states `run` reached that are also in `every`, in the order the producers
/// look at a run's conclusions ("on" states, then "off" ones, each in the order
/// reached): as `node | off << 16`, sorted. A group's common states are few beside
/// a run's, so they are picked from the bit set rather than tested along the run.
fn common_in_order(run: &Run, every: &[u128; 12], out: &mut Vec<u32>) {
    out.clear();
    for (w, &word) in every.iter().enumerate() {
        let mut x = word & run.seen[w];
        while x != 0 {
            let s = (w * 128 + x.trailing_zeros() as usize) as State;
            x &= x - 1;
            out.push(run.node_of[s as usize] as u32 | (!is_on(s) as u32) << 16);
        }
    }
    out.sort_unstable();
}

/// The printed names of one producer's hints.
struct Names {
    contradiction: &'static str,
    double: &'static str,
    cell: &'static str,
    region: &'static str,
}

const NISHIO: Names = Names {
    contradiction: "Nishio Forcing Chains",
    double: "Nishio Forcing Chains",
    cell: "Nishio Forcing Chains",
    region: "Nishio Forcing Chains",
};
const DYNAMIC: Names = Names {
    contradiction: "Dynamic Contradiction Forcing Chains",
    double: "Dynamic Double Forcing Chains",
    cell: "Dynamic Cell Forcing Chains",
    region: "Dynamic Region Forcing Chains",
};
const PLUS: Names = Names {
    contradiction: "Dynamic Contradiction Forcing Chains (+)",
    double: "Dynamic Double Forcing Chains (+)",
    cell: "Dynamic Cell Forcing Chains (+)",
    region: "Dynamic Region Forcing Chains (+)",
};

const NESTED: [Names; 4] = [
    Names {
        contradiction: "Dynamic Contradiction Forcing Chains (+ Forcing Chains)",
        double: "Dynamic Double Forcing Chains (+ Forcing Chains)",
        cell: "Dynamic Cell Forcing Chains (+ Forcing Chains)",
        region: "Dynamic Region Forcing Chains (+ Forcing Chains)",
    },
    Names {
        contradiction: "Dynamic Contradiction Forcing Chains (+ Multiple Forcing Chains)",
        double: "Dynamic Double Forcing Chains (+ Multiple Forcing Chains)",
        cell: "Dynamic Cell Forcing Chains (+ Multiple Forcing Chains)",
        region: "Dynamic Region Forcing Chains (+ Multiple Forcing Chains)",
    },
    Names {
        contradiction: "Dynamic Contradiction Forcing Chains (+ Dynamic Forcing Chains)",
        double: "Dynamic Double Forcing Chains (+ Dynamic Forcing Chains)",
        cell: "Dynamic Cell Forcing Chains (+ Dynamic Forcing Chains)",
        region: "Dynamic Region Forcing Chains (+ Dynamic Forcing Chains)",
    },
    Names {
        contradiction: "Dynamic Contradiction Forcing Chains (+ Dynamic Forcing Chains (+))",
        double: "Dynamic Double Forcing Chains (+ Dynamic Forcing Chains (+))",
        cell: "Dynamic Cell Forcing Chains (+ Dynamic Forcing Chains (+))",
        region: "Dynamic Region Forcing Chains (+ Dynamic Forcing Chains (+))",
    },
];

/// The eliminations of a conclusion on state `s`: "on" removes the cell's other
/// candidates, "off" the candidate.
fn target_elim(b: &Board, s: State) -> [Cells; 9] {
    let (cell, di) = (cell_of(s), digit_of(s));
    let mut elim = [0u128; 9];
    if is_on(s) {
        for d in bits(b.cand[cell] as u32) {
            if d != di {
                elim[d] = 1u128 << cell;
            }
        }
    } else {
        elim[di] = 1u128 << cell;
    }
    elim
}

/// The largest complexity a hint may have and still beat `best`: a hint of more
/// complexity has at least its difficulty (the length penalty grows with the
/// complexity), so it loses either way.
/// The complexity of a hint whose ends are the nodes `ends` (each in its run): the
/// distinct ancestors of each end summed, the inner chains counted once for the hint,
/// the count stopped once past `limit` (see [`Run::ancestors`]).
fn complexity<'r>(
    ends: impl IntoIterator<Item = (&'r Run, u32)>,
    (seen, stack, nested): (&mut [u128; 12], &mut Vec<u32>, &mut Vec<u32>),
    limit: u32,
) -> u32 {
    nested.clear();
    let mut cx = 0;
    for (r, n) in ends {
        if cx > limit {
            break;
        }
        cx += r.ancestors(n, seen, stack, nested, limit - cx);
    }
    cx
}

fn limit(best: &Best) -> u32 {
    best.as_ref().map_or(u32::MAX, |b| b.1)
}

fn removes(b: &Board, elim: &[Cells; 9]) -> bool {
    elim.iter().zip(b.digit.iter()).any(|(e, d)| e & d != 0)
}

fn offer(
    best: &mut Best,
    b: &Board,
    name: &'static str,
    base: u8,
    cx: u32,
    key: u8,
    elim: [Cells; 9],
) {
    let diff = base.saturating_add(length_difficulty(cx));
    let better = match best {
        None => true,
        Some((d, c, k, _)) => (diff, cx, key) < (*d, *c, *k),
    };
    if !better {
        return;
    }
    let mut h = Hint::new(name, diff);
    h.elim = elim;
    if h.removes_any(b) {
        *best = Some((diff, cx, key, h));
    }
}

#[cfg(test)]
mod tests {
    use super::super::{board::Board, driver, Rater};
    use super::*;
    use crate::grid::Grid;

    /// Puzzles whose hardest step is one of this module's techniques, with serate's
    /// ER and that step's name (from tests/data/serate_ratings.csv and serate runs on
    /// generated puzzles).
    const PUZZLES: [(&str, u8, &str); 5] = [
        (
            "....264...........9...4.31.....1...384.2..7...9.....8218.35..........86...5......",
            78,
            "Nishio Forcing Chains",
        ),
        (
            ".19...5...6..15..2.......3..4.27.1.57...3...4..8..1..........9....4......85..7...",
            89,
            "Dynamic Cell Forcing Chains",
        ),
        (
            "..3.....2...8.1...14..3.9...589.7.6...6.......9...4....6.78..34.............26..5",
            88,
            "Dynamic Region Forcing Chains",
        ),
        (
            "...637..9.7..89.4....1.....6.......1..284.....5...37...2...8.6..6.4....28.7....9.",
            90,
            "Dynamic Double Forcing Chains",
        ),
        (
            "75......1...5.94.79.....8..3..2...6...6...1...9.3........4.52.....8.....1.4.7....",
            90,
            "Dynamic Contradiction Forcing Chains",
        ),
    ];

    /// The solution, from the replayed path (checked to be a valid solution of the
    /// puzzle, hence the only one).
    fn solution(puzzle: &Grid, steps: &[super::super::Step]) -> [u8; 81] {
        let mut cells = *puzzle.cells();
        for s in steps {
            for &(c, d) in &s.placed {
                cells[c as usize] = d;
            }
        }
        let solved = Grid::from_cells(cells).unwrap();
        assert!(solved.is_valid_solution() && solved.agrees_with(puzzle));
        cells
    }

    #[test]
    fn dynamic_paths_rate_as_serate_and_never_remove_the_solution() {
        let mut rater = Rater::new();
        for (puzzle, er, name) in PUZZLES {
            let grid = Grid::parse(puzzle.as_bytes()).unwrap();
            let r = rater.rate(&grid, true).unwrap();
            assert_eq!((r.er, r.er_technique), (er, name), "{puzzle}");
            let sol = solution(&grid, &r.steps);
            for s in &r.steps {
                for &(c, d) in &s.removed {
                    assert_ne!(sol[c as usize], d, "{puzzle}: {s:?} removes the solution");
                }
            }
        }
    }

    /// The position where serate's path first needs a dynamic chain (gen1000:761 of
    /// the ratings file): nothing simpler applies, and the dynamic producer's simplest
    /// hint is a cell forcing chain of 8.9 whose eliminations all miss the solution.
    #[test]
    fn first_dynamic_step_of_a_puzzle() {
        let (puzzle, ..) = PUZZLES[1];
        let grid = Grid::parse(puzzle.as_bytes()).unwrap();
        let sol = solution(&grid, &super::super::rate(&grid).unwrap().steps);
        let mut b = Board::from_values(grid.cells());
        let mut producers = driver::Producers::default();
        let mut dyn2 = Dynamic::default();
        loop {
            let h = producers.next_hint(&b).expect("a step");
            if h.name.starts_with("Dynamic") {
                break;
            }
            h.apply(&mut b);
        }
        assert!(dyn2.hint(&b, Kind::Nishio).is_none());
        let mut multiple = super::super::chains::Multiple::default();
        let mut chains = super::super::chains::Chains::default();
        assert!(multiple.cell_and_region_chains(&b, &mut chains).is_none());
        let h = dyn2.hint(&b, Kind::Dynamic).expect("a dynamic chain");
        assert_eq!((h.name, h.difficulty), ("Dynamic Cell Forcing Chains", 89));
        let mut removed = 0;
        for (di, &set) in h.elim.iter().enumerate() {
            for c in cells(set & b.digit[di]) {
                removed += 1;
                assert_ne!(
                    sol[c] as usize,
                    di + 1,
                    "r{}c{} {}",
                    c / 9 + 1,
                    c % 9 + 1,
                    di + 1
                );
            }
        }
        assert!(removed >= 1);
        // a dynamic run from a true candidate never reaches a contradiction
        let mut run = Run::default();
        let mut adv = Advanced::default();
        for c in cells(b.empty) {
            let di = (sol[c] - 1) as usize;
            run.chain(&b, state(c, di, true), Mode::new(true, 1), &mut adv);
            assert!(run.contradiction.is_none(), "r{}c{}", c / 9 + 1, c % 9 + 1);
            for &s in &run.order_on {
                assert_eq!(sol[cell_of(s)] as usize, digit_of(s) + 1);
            }
        }
    }

    /// A Nishio run meets a contradiction exactly when its [`Reach`] says so, and
    /// otherwise reaches exactly the states the reach holds: from every candidate of
    /// random positions, "on" and "off".
    #[test]
    fn reach_is_what_a_nishio_run_reaches() {
        let (mut run, mut adv, mut reach) = (Run::default(), Advanced::default(), Reach::default());
        let (mut contradictions, mut runs) = (0, 0);
        for (b, g) in super::super::chains::tests::positions()
            .into_iter()
            .step_by(2)
        {
            for pos in [b, g] {
                let houses = Houses::new(&pos);
                for cell in cells(pos.empty) {
                    for di in bits(pos.cand[cell] as u32) {
                        for s in [state(cell, di, true), state(cell, di, false)] {
                            run.chain(&pos, s, Mode::new(false, 0), &mut adv);
                            reach.follow(&pos, &houses, s);
                            assert_eq!(reach.contradiction, run.contradiction.is_some());
                            runs += 1;
                            if reach.contradiction {
                                contradictions += 1;
                                continue;
                            }
                            for t in 0..STATES as State {
                                assert_eq!(reach.has(t), run.reached(t), "{s} -> {t}");
                            }
                        }
                    }
                }
            }
        }
        assert!(
            contradictions > 100 && runs - contradictions > 1000,
            "{contradictions} of {runs}"
        );
    }

    /// Following only the Nishio runs whose reach meets a contradiction gives the same
    /// hint as following them all.
    #[test]
    fn nishio_runs_skipped_by_their_reach_change_no_hint() {
        let (mut filtered, mut all) = (Dynamic::default(), Dynamic::default());
        all.follow_all = true;
        let (mut positions, mut hints) = (0, 0);
        for (b, g) in super::super::chains::tests::positions() {
            for pos in [b, g] {
                let h = filtered.hint(&pos, Kind::Nishio);
                assert_eq!(h, all.hint(&pos, Kind::Nishio));
                positions += 1;
                hints += h.is_some() as usize;
            }
        }
        assert!(hints > 10 && hints < positions, "{hints} of {positions}");
    }

    /// Forum-hardest puzzles (../shared/data/puzzles5_forum_hardest_1905_11+, lines
    /// 5001, 6201 and 7001) whose paths go through dynamic (+) and nested steps: every
    /// step keeps the solution, and the path ends solved.
    #[test]
    fn steps_through_the_nested_levels_keep_the_solution() {
        let puzzles = [
            "98.7..6..5...8......6..45..7...3.....3.9.......5..24....1....65.....1.24......1..",
            "98.7..6..7.5..........8..7.64.9...3.....6.9.4.....2..643.6....7..8...3.......1...",
            "98.7.....6...5......7..86..7....94.....5...3.....2...1.6...57....41...5.....3...2",
        ];
        let mut kinds = std::collections::BTreeSet::new();
        for puzzle in puzzles {
            let grid = Grid::parse(puzzle.as_bytes()).unwrap();
            let sol = *crate::solver::solve(&grid, 1).first.unwrap().cells();
            let mut b = Board::from_values(grid.cells());
            let mut producers = driver::Producers::default();
            let mut steps = 0;
            while let Some(h) = producers.next_hint(&b) {
                for (di, &set) in h.elim.iter().enumerate() {
                    for c in cells(set & b.digit[di]) {
                        assert_ne!(sol[c] as usize, di + 1, "{puzzle}: {}", h.name);
                    }
                }
                if let Some((c, d)) = h.place {
                    assert_eq!(sol[c as usize], d, "{puzzle}: {}", h.name);
                }
                kinds.insert(h.name);
                h.apply(&mut b);
                steps += 1;
            }
            assert!(steps >= 3 && b.solved(), "{puzzle}: {steps} steps");
        }
        for level in ["(+)", "(+ Forcing Chains)", "(+ Multiple Forcing Chains)"] {
            assert!(
                kinds.iter().any(|k| k.ends_with(level)),
                "no {level} step: {kinds:?}"
            );
        }
    }

    /// serate's path on forum-hardest line 5001 (printed with `--after="%r %s"`) starts
    /// with seven dynamic (+) contradiction chains: the same eliminations, in the same
    /// order, at the same difficulties.
    #[test]
    fn dynamic_plus_steps_equal_serates() {
        let puzzle =
            "98.7..6..5...8......6..45..7...3.....3.9.......5..24....1....65.....1.24......1..";
        let serate: [(u8, usize, usize, u8); 7] = [
            (99, 3, 9, 1),
            (99, 2, 4, 3),
            (99, 3, 8, 1),
            (99, 6, 8, 1),
            (100, 6, 9, 1),
            (100, 6, 2, 1),
            (100, 4, 4, 1),
        ];
        let grid = Grid::parse(puzzle.as_bytes()).unwrap();
        let mut b = Board::from_values(grid.cells());
        let mut producers = driver::Producers::default();
        for (diff, row, col, d) in serate {
            let h = producers.next_hint(&b).expect("a step");
            let mut removed = Vec::new();
            for (di, &set) in h.elim.iter().enumerate() {
                for c in cells(set & b.digit[di]) {
                    removed.push((c / 9 + 1, c % 9 + 1, di as u8 + 1));
                }
            }
            assert_eq!(
                (h.name, h.difficulty, removed),
                (
                    "Dynamic Contradiction Forcing Chains (+)",
                    diff,
                    vec![(row, col, d)]
                )
            );
            h.apply(&mut b);
        }
    }
}
