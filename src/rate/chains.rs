//! Static chains: bidirectional X-, Y- and XY-cycles and forcing X-chains / forcing
//! chains, Sudoku Explainer's "Forcing Chains & Cycles" producer.
//!
//! From each candidate taken as true, implications are followed breadth first: a true
//! candidate turns off its peers' copies (and, with Y-links, the other candidates of
//! its cell); a false candidate turns on the only other position in a house (X-links)
//! or the other candidate of a bivalue cell (Y-links). A chain back to the start is a
//! cycle (6.5, or 7.0 with both link kinds); a chain to the start's opposite is a
//! forcing chain (6.6, or 7.0). Longer chains cost more: +0.1 each time the chain
//! length passes 4, 6, 8, 12, 16, 24, ... nodes.

use super::board::{Board, HOUSE_MASK, PEERS};
use super::hint::Hint;

pub(super) const NONE: u32 = u32::MAX;

/// A candidate state: `(cell * 9 + digit index) * 2 + on`.
pub(super) type State = u16;

#[inline]
pub(super) fn state(cell: usize, di: usize, on: bool) -> State {
    ((cell * 9 + di) * 2 + on as usize) as State
}
#[inline]
pub(super) fn cell_of(s: State) -> usize {
    s as usize / 18
}
#[inline]
pub(super) fn digit_of(s: State) -> usize {
    (s as usize / 2) % 9
}
#[inline]
pub(super) fn is_on(s: State) -> bool {
    s & 1 != 0
}

#[derive(Clone, Copy, Debug)]
struct Node {
    s: State,
    parent: u32,
}

/// Every candidate's direct implications, built once per position and shared by all
/// the searches from it; [`Graph::view`] picks the link rules (Y-links, X-links or
/// both) the searches follow, without building again.
#[derive(Debug, Default)]
pub struct Graph {
    start: Vec<u32>,
    list: Vec<State>,
    /// How many of each state's implications (at the front of its list) are Y-links.
    ny: Vec<u8>,
    /// Each state's implications under the link rules in force: `list[lo..hi]`.
    lo: Vec<u32>,
    hi: Vec<u32>,
    /// The reverse of the whole graph: the states leading to `s` are
    /// `rlist[rstart[s]..rstart[s + 1]]` (see [`Graph::build_reverse`]).
    rstart: Vec<u32>,
    rlist: Vec<(u32, State)>,
    fill: Vec<u32>,
    stack: Vec<State>,
    /// Strongly connected components of the view in force ([`Graph::components`]):
    /// each state's component (`NO_COMP` if the search never met it), the states of
    /// component `k` as `members[comp_start[k]..comp_start[k + 1]]`.
    comp: Vec<u16>,
    comp_start: Vec<u32>,
    members: Vec<u16>,
    index: Vec<u32>,
    low: Vec<u32>,
    calls: Vec<(u16, u32)>,
    bit_of: Vec<u16>,
    reach: Vec<u64>,
    /// Words per component in `reach`.
    reach_words: usize,
    /// Whether `comp` is that of the view in force ([`Graph::components`] ran since
    /// the last build or view), and whether `reach` is too ([`Graph::reach_opposite`]).
    comp_current: bool,
    reach_current: bool,
    /// The position the graph was built on, when built ([`Graph::build_all`] keeps
    /// the graph when asked for the same position again).
    built_on: Option<Board>,
}

const NO_COMP: u16 = u16::MAX;

impl Graph {
    /// Build with the link rules `y` and `x` in force (see [`Graph::view`]).
    fn build(&mut self, b: &Board, y: bool, x: bool) {
        self.build_all(b);
        self.view(y, x);
    }

    /// Every implication on `b`. "On" states lead to what they turn off: the cell's
    /// other candidates (Y-links), then the digit's positions in the box, the row and
    /// the column, each in reading order. "Off" states lead to what they turn on: the
    /// other candidate of a two-candidate cell (a Y-link), then the digit's last other
    /// position in the box, the row and the column (X-links).
    fn build_all(&mut self, b: &Board) {
        self.comp_current = false;
        self.reach_current = false;
        if self.built_on.as_ref() == Some(b) {
            return;
        }
        self.built_on = None;
        self.start.clear();
        self.list.clear();
        self.ny.clear();
        for cell in 0..81 {
            let bit = 1u128 << cell;
            let houses = houses_of(cell);
            for di in 0..9 {
                let dm = b.digit[di];
                // the "off" state, then the "on" state of (cell, di)
                self.start.push(self.list.len() as u32);
                if dm & bit == 0 {
                    self.ny.extend_from_slice(&[0, 0]);
                    self.start.push(self.list.len() as u32);
                    continue;
                }
                let from = self.list.len();
                let m = b.cand[cell];
                if m.count_ones() == 2 {
                    let other = (m & !(1 << di)).trailing_zeros() as usize;
                    self.list.push(state(cell, other, true));
                }
                self.ny.push((self.list.len() - from) as u8);
                let xs = self.list.len();
                for h in houses {
                    let rest = dm & HOUSE_MASK[h] & !bit;
                    if rest.count_ones() == 1 {
                        let s2 = state(rest.trailing_zeros() as usize, di, true);
                        if !self.list[xs..].contains(&s2) {
                            self.list.push(s2);
                        }
                    }
                }
                self.start.push(self.list.len() as u32);
                let from = self.list.len();
                for d in super::board::bits(b.cand[cell] as u32) {
                    if d != di {
                        self.list.push(state(cell, d, false));
                    }
                }
                self.ny.push((self.list.len() - from) as u8);
                let mut added = bit;
                for h in houses {
                    let new = dm & HOUSE_MASK[h] & !added;
                    added |= new;
                    for o in super::board::cells(new) {
                        self.list.push(state(o, di, false));
                    }
                }
            }
        }
        self.start.push(self.list.len() as u32);
        self.built_on = Some(*b);
    }

    /// Follow Y-links if `y` and X-links if `x` from now on ("on" states always turn
    /// off the digit's other positions in their houses).
    fn view(&mut self, y: bool, x: bool) {
        self.comp_current = false;
        self.reach_current = false;
        let n = self.ny.len();
        self.lo.resize(n, 0);
        self.hi.resize(n, 0);
        // written in place, without a push (and its capacity test) per state
        let ranges = self.start.windows(2).zip(&self.ny);
        for (s, ((lo, hi), (w, &ny))) in
            self.lo.iter_mut().zip(&mut self.hi).zip(ranges).enumerate()
        {
            let (a, z, ny) = (w[0], w[1], ny as u32);
            (*lo, *hi) = match (s & 1 != 0, y, x) {
                (true, true, _) => (a, z),
                (true, false, _) => (a + ny, z),
                (false, true, true) => (a, z),
                (false, true, false) => (a, a + ny),
                (false, false, true) => (a + ny, z),
                (false, false, false) => (a, a),
            };
        }
    }

    /// The reverse of the whole graph (built on demand, once per [`Graph::build_all`]):
    /// the links into `t` as indices into `list`, and the state each comes from.
    fn build_reverse(&mut self) {
        let n = self.ny.len();
        self.rstart.clear();
        self.rstart.resize(n + 1, 0);
        for &t in &self.list {
            self.rstart[t as usize + 1] += 1;
        }
        for i in 0..n {
            self.rstart[i + 1] += self.rstart[i];
        }
        self.rlist.clear();
        self.rlist.resize(self.list.len(), (0, 0));
        self.fill.clear();
        self.fill.extend_from_slice(&self.rstart[..n]);
        for s in 0..n {
            for e in self.start[s]..self.start[s + 1] {
                let t = self.list[e as usize] as usize;
                self.rlist[self.fill[t] as usize] = (e, s as State);
                self.fill[t] += 1;
            }
        }
    }

    /// The states (as a bit set) from which, following the links of the view in
    /// force, some link can be reached whose rule parents (see [`link_parents`], also
    /// read backwards) may hold candidates of `base` missing on the working grid `g`
    /// the graph was built on: a link within a cell that lost candidates, or one
    /// between positions of a digit in a house that lost positions of it. A chain with
    /// any such parent starts from one of these states. [`Graph::build_reverse`] must
    /// have run since the graph was built.
    fn reaching_changed_links(&mut self, base: &Board, g: &Board) -> [u128; 12] {
        let mut reach = [0u128; 12];
        self.stack.clear();
        let mark = |reach: &mut [u128; 12], stack: &mut Vec<State>, s: usize| {
            if reach[s / 128] >> (s % 128) & 1 == 0 {
                reach[s / 128] |= 1u128 << (s % 128);
                stack.push(s as State);
            }
        };
        // the states with a link of the view that may have such parents
        for di in 0..9 {
            let gone = base.digit[di] & !g.digit[di];
            if gone == 0 {
                continue;
            }
            for h in 0..27 {
                if gone & HOUSE_MASK[h] == 0 {
                    continue;
                }
                for c in super::board::cells(g.digit[di] & HOUSE_MASK[h]) {
                    for s in [state(c, di, false), state(c, di, true)] {
                        let s = s as usize;
                        if self.hi[s] > self.lo[s] {
                            mark(&mut reach, &mut self.stack, s);
                        }
                    }
                }
            }
        }
        for cell in super::board::cells(g.empty) {
            if base.cand[cell] == g.cand[cell] {
                continue;
            }
            for di in super::board::bits(g.cand[cell] as u32) {
                for s in [state(cell, di, false), state(cell, di, true)] {
                    // the cell's links come first in each list
                    let s = s as usize;
                    let (lo, ny) = (self.lo[s], self.start[s] + self.ny[s] as u32);
                    if lo < ny && self.hi[s] > lo {
                        mark(&mut reach, &mut self.stack, s);
                    }
                }
            }
        }
        while let Some(t) = self.stack.pop() {
            let (a, z) = (
                self.rstart[t as usize] as usize,
                self.rstart[t as usize + 1] as usize,
            );
            for &(e, s) in &self.rlist[a..z] {
                let su = s as usize;
                if self.lo[su] <= e && e < self.hi[su] {
                    mark(&mut reach, &mut self.stack, su);
                }
            }
        }
        reach
    }

    /// The strongly connected components of the view in force (Tarjan's search,
    /// without recursion), numbered in the order they close, so that every link
    /// between two components leads to a lower number. Only `roots` with a link of
    /// the view, and the states they reach, get a component.
    fn components(&mut self, roots: &[State]) {
        let n = self.lo.len();
        self.comp.clear();
        self.comp.resize(n, NO_COMP);
        self.index.clear();
        self.index.resize(n, u32::MAX);
        self.low.clear();
        self.low.resize(n, 0);
        self.comp_start.clear();
        self.members.clear();
        self.stack.clear();
        self.calls.clear();
        let mut next = 0u32;
        for &r in roots {
            let r = r as usize;
            if self.index[r] != u32::MAX || self.lo[r] == self.hi[r] {
                continue;
            }
            self.visit(r, &mut next);
            while let Some(&(v, e)) = self.calls.last() {
                let v = v as usize;
                if e < self.hi[v] {
                    self.calls.last_mut().unwrap().1 += 1;
                    let w = self.list[e as usize] as usize;
                    if self.index[w] == u32::MAX {
                        self.visit(w, &mut next);
                    } else if self.comp[w] == NO_COMP {
                        // still on the stack: in the component being formed
                        self.low[v] = self.low[v].min(self.index[w]);
                    }
                    continue;
                }
                self.calls.pop();
                if let Some(&(u, _)) = self.calls.last() {
                    self.low[u as usize] = self.low[u as usize].min(self.low[v]);
                }
                if self.low[v] == self.index[v] {
                    let k = self.comp_start.len() as u16;
                    self.comp_start.push(self.members.len() as u32);
                    loop {
                        let x = self.stack.pop().unwrap();
                        self.comp[x as usize] = k;
                        self.members.push(x);
                        if x as usize == v {
                            break;
                        }
                    }
                }
            }
        }
        self.comp_start.push(self.members.len() as u32);
        self.comp_current = true;
        self.reach_current = false;
    }

    fn visit(&mut self, v: usize, next: &mut u32) {
        self.index[v] = *next;
        self.low[v] = *next;
        *next += 1;
        self.stack.push(v as State);
        self.calls.push((v as State, self.lo[v]));
    }

    /// Whether `s` lies on a cycle of the view (its component has other states);
    /// [`Graph::components`] must have run on the view.
    fn on_cycle(&self, s: State) -> bool {
        let k = self.comp[s as usize];
        k != NO_COMP && self.comp_start[k as usize + 1] - self.comp_start[k as usize] > 1
    }

    /// Of `sources`, those from which the view leads to their opposite state (bit
    /// set): a forcing chain can start only there. [`Graph::components`] must have
    /// run on the view. Reachability is carried down the components in the order
    /// they closed, as bit sets over the components the question names.
    fn reach_opposite(&mut self, sources: &[State]) -> [u128; 12] {
        let ncomp = self.comp_start.len() - 1;
        self.bit_of.clear();
        self.bit_of.resize(ncomp, NO_COMP);
        let mut nbits = 0usize;
        let mut out = [0u128; 12];
        for &s in sources {
            let (a, b) = (self.comp[s as usize], self.comp[(s ^ 1) as usize]);
            if a == NO_COMP || b == NO_COMP {
                continue;
            }
            if a == b {
                out[s as usize / 128] |= 1u128 << (s as usize % 128);
            }
            // every opposite gets a bit, so that a forcing search can ask which
            // states still lead to its target ([`Graph::leads_to`])
            if self.bit_of[b as usize] == NO_COMP {
                self.bit_of[b as usize] = nbits as u16;
                nbits += 1;
            }
        }
        let w = nbits.div_ceil(64);
        self.reach_words = w;
        self.reach_current = true;
        if w == 0 {
            return out;
        }
        self.reach.clear();
        self.reach.resize(ncomp * w, 0);
        for k in 0..ncomp {
            let (below, mine) = self.reach.split_at_mut(k * w);
            let mine = &mut mine[..w];
            let bit = self.bit_of[k];
            if bit != NO_COMP {
                mine[bit as usize / 64] |= 1u64 << (bit % 64);
            }
            let (a, z) = (self.comp_start[k] as usize, self.comp_start[k + 1] as usize);
            for &s in &self.members[a..z] {
                let (lo, hi) = (self.lo[s as usize] as usize, self.hi[s as usize] as usize);
                for &t in &self.list[lo..hi] {
                    let c = self.comp[t as usize] as usize;
                    if c != k {
                        for (m, r) in mine.iter_mut().zip(&below[c * w..c * w + w]) {
                            *m |= r;
                        }
                    }
                }
            }
        }
        for &s in sources {
            let (a, b) = (self.comp[s as usize], self.comp[(s ^ 1) as usize]);
            if a == NO_COMP || b == NO_COMP || a == b {
                continue;
            }
            let bit = self.bit_of[b as usize] as usize;
            if self.reach[a as usize * w + bit / 64] >> (bit % 64) & 1 != 0 {
                out[s as usize / 128] |= 1u128 << (s as usize % 128);
            }
        }
        out
    }

    /// The reachability bit [`Graph::reach_opposite`] gave the component of `target`,
    /// if the components and that table are those of the view in force and it has one.
    fn target_bit(&self, target: State) -> Option<usize> {
        if !self.reach_current {
            return None;
        }
        let k = self.comp[target as usize];
        if k == NO_COMP || self.bit_of[k as usize] == NO_COMP {
            return None;
        }
        Some(self.bit_of[k as usize] as usize)
    }

    /// Whether the view leads from `s` to the target whose bit is `bit`
    /// ([`Graph::target_bit`]); a state without a component (not met by the
    /// search) is not ruled out.
    #[inline]
    fn leads_to(&self, s: State, bit: usize) -> bool {
        let k = self.comp[s as usize];
        k == NO_COMP || self.reach[k as usize * self.reach_words + bit / 64] >> (bit % 64) & 1 != 0
    }

    /// The component of `s` when the components are those of the view in force.
    fn current_comp(&self, s: State) -> Option<u16> {
        let k = *self.comp.get(s as usize).filter(|_| self.comp_current)?;
        (k != NO_COMP).then_some(k)
    }

    /// The direct implications of `s`.
    #[inline]
    fn next(&self, s: State) -> &[State] {
        &self.list[self.lo[s as usize] as usize..self.hi[s as usize] as usize]
    }
}

/// The three houses of a cell: box, row, column.
#[inline]
fn houses_of(cell: usize) -> [usize; 3] {
    let (r, c) = (cell / 9, cell % 9);
    [(r / 3) * 3 + c / 3, 9 + r, 18 + c]
}

/// Reusable buffers for the chain searches.
#[derive(Debug, Default)]
pub struct Chains {
    nodes: Vec<Node>,
    pending_on: Vec<u32>,
    pending_off: Vec<u32>,
    /// States reached by the search in hand: those whose entry equals `stamp` (an
    /// "on" and an "off" state never share an index, so one table serves both).
    seen: Vec<u32>,
    stamp: u32,
    found: Vec<u32>,
    graph: Graph,
    sources: Vec<State>,
    /// Test switch: search every state, not only those the components say can still
    /// close the cycle or reach the forcing chain's target.
    no_prune: bool,
    /// The last position on which "Forcing Chains & Cycles" found nothing (see
    /// [`Chains::cycles_and_forcing_chains`]).
    nothing_on: Option<Board>,
    /// Sources left out thanks to `nothing_on` (for tests).
    #[cfg(test)]
    pub(super) skipped: usize,
}

/// The states the chains of "Forcing Chains & Cycles" start from on `b`: with X-links
/// (`x`) both states of every candidate of a cell with two or more, else the "on"
/// states of the bivalue cells' candidates.
fn chain_sources(b: &Board, x: bool, out: &mut Vec<State>) {
    out.clear();
    for cell in super::board::cells(b.empty) {
        let m = b.cand[cell];
        if m.count_ones() == 2 || (x && m.count_ones() > 2) {
            for di in super::board::bits(m as u32) {
                out.push(state(cell, di, true));
                if x {
                    out.push(state(cell, di, false));
                }
            }
        }
    }
}

/// The states in both bit sets.
#[inline]
pub(super) fn and(a: &[u128; 12], b: &[u128; 12]) -> [u128; 12] {
    std::array::from_fn(|i| a[i] & b[i])
}

/// Whether state `s` is in the bit set `set`.
#[inline]
pub(super) fn has(set: &[u128; 12], s: State) -> bool {
    set[s as usize / 128] >> (s as usize % 128) & 1 != 0
}

/// The best hint so far: (difficulty, complexity, sort key, hint).
type Best = Option<(u8, u32, u8, Hint)>;

impl Chains {
    /// Start a search: no node, no state reached (a new stamp instead of clearing
    /// the table).
    fn reset(&mut self) {
        self.nodes.clear();
        self.pending_on.clear();
        self.pending_off.clear();
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 || self.seen.len() != 81 * 9 * 2 {
            self.seen.clear();
            self.seen.resize(81 * 9 * 2, 0);
            self.stamp = 1;
        }
        self.found.clear();
    }

    /// Mark `s` reached; whether it was not yet.
    #[inline]
    fn first_visit(&mut self, s: State) -> bool {
        let e = &mut self.seen[s as usize];
        let new = *e != self.stamp;
        *e = self.stamp;
        new
    }

    fn push(&mut self, s: State, parent: u32) -> u32 {
        self.nodes.push(Node { s, parent });
        (self.nodes.len() - 1) as u32
    }

    /// Nodes above `n` on its chain (the root has depth 0).
    fn depth(&self, n: u32) -> u32 {
        let mut d = 0;
        let mut p = self.nodes[n as usize].parent;
        while p != NONE {
            d += 1;
            p = self.nodes[p as usize].parent;
        }
        d
    }

    /// Distinct states on the chain ending at `n`.
    fn complexity(&self, n: u32) -> u32 {
        let mut count = 0;
        let mut seen: [u128; 12] = [0; 12];
        let mut p = n;
        while p != NONE {
            let s = self.nodes[p as usize].s as usize;
            if seen[s / 128] >> (s % 128) & 1 == 0 {
                seen[s / 128] |= 1u128 << (s % 128);
                count += 1;
            }
            p = self.nodes[p as usize].parent;
        }
        count
    }

    /// Cycles through `source`; the search stops at the first level whose cycles
    /// could not beat `best` (a chain's states are distinct, so a cycle closed from
    /// an "off" node at depth `d` has complexity `d + 1`, and later levels only grow).
    fn cycles(&mut self, source: State, best: &Best, base: u8, key: u8) {
        self.reset();
        let graph = std::mem::take(&mut self.graph);
        let root = self.push(source, NONE);
        self.first_visit(source);
        self.pending_on.push(root);
        // a state off the source's strongly connected component never leads back to
        // it, nor does anything it leads to: such states are not followed (exact, and
        // the order of the states followed is kept)
        let comp = graph.current_comp(source).filter(|_| !self.no_prune);
        let in_reach = |t: State| comp.is_none_or(|k| graph.comp[t as usize] == k);
        let mut length = 0;
        while !self.pending_on.is_empty() || !self.pending_off.is_empty() {
            let cx = length + 2;
            if !beats(best, base + length_difficulty(cx), cx, key) {
                break;
            }
            length += 1;
            let mut ons = std::mem::take(&mut self.pending_on);
            for &p in &ons {
                // the states above `p` on its chain, which the chain cannot revisit
                let mut path = [0u128; 12];
                let mut q = self.nodes[p as usize].parent;
                while q != NONE {
                    let s = self.nodes[q as usize].s as usize;
                    path[s / 128] |= 1u128 << (s % 128);
                    q = self.nodes[q as usize].parent;
                }
                for &off in graph.next(self.nodes[p as usize].s) {
                    let o = off as usize;
                    if path[o / 128] >> (o % 128) & 1 == 0 && in_reach(off) {
                        let n = self.push(off, p);
                        self.pending_off.push(n);
                    }
                }
            }
            ons.clear();
            self.pending_on = ons;
            length += 1;
            let mut offs = std::mem::take(&mut self.pending_off);
            for &p in &offs {
                for &on in graph.next(self.nodes[p as usize].s) {
                    if length >= 4 && on == source {
                        let n = self.push(on, p);
                        self.found.push(n);
                    }
                    if in_reach(on) && self.first_visit(on) {
                        let n = self.push(on, p);
                        self.pending_on.push(n);
                    }
                }
            }
            offs.clear();
            self.pending_off = offs;
        }
        self.graph = graph;
    }

    /// Forcing chains from `source` (on or off) to its opposite; the target node,
    /// the first one found breadth first. Every state is reached once, so a target
    /// found from a node at depth `d` has complexity `d + 2`: the search stops at
    /// the first level whose target could not beat `best`.
    fn forcing(&mut self, source: State, best: &Best, base: u8, key: u8) -> Option<u32> {
        self.reset();
        let root = self.push(source, NONE);
        self.first_visit(source);
        if is_on(source) {
            self.pending_on.push(root);
        } else {
            self.pending_off.push(root);
        }
        let graph = std::mem::take(&mut self.graph);
        let target = self.forcing_bfs(&graph, source ^ 1, best, base, key);
        self.graph = graph;
        target
    }

    fn forcing_bfs(
        &mut self,
        graph: &Graph,
        opposite: State,
        best: &Best,
        base: u8,
        key: u8,
    ) -> Option<u32> {
        // a state that cannot lead to the target is not followed, nor marked: what it
        // leads to cannot either (exact, and the order of the rest is kept)
        let target = graph.target_bit(opposite).filter(|_| !self.no_prune);
        let can_win = |me: &Self, first: u32| {
            let cx = me.depth(first) + 2;
            beats(best, base + length_difficulty(cx), cx, key)
        };
        while !self.pending_on.is_empty() || !self.pending_off.is_empty() {
            // "on" nodes lead to "off" states and back: one loop body for both
            for on_level in [true, false] {
                fn level(me: &Chains, on_level: bool) -> &[u32] {
                    if on_level {
                        &me.pending_on
                    } else {
                        &me.pending_off
                    }
                }
                let len = level(self, on_level).len();
                if len > 0 && !can_win(self, level(self, on_level)[0]) {
                    return None;
                }
                for i in 0..len {
                    let p = level(self, on_level)[i];
                    for &t in graph.next(self.nodes[p as usize].s) {
                        if t == opposite {
                            return Some(self.push(t, p));
                        }
                        if target.is_some_and(|bit| !graph.leads_to(t, bit)) {
                            continue;
                        }
                        if self.first_visit(t) {
                            let n = self.push(t, p);
                            if on_level {
                                self.pending_off.push(n);
                            } else {
                                self.pending_on.push(n);
                            }
                        }
                    }
                }
                if on_level {
                    self.pending_on.clear();
                } else {
                    self.pending_off.clear();
                }
            }
        }
        None
    }

    /// Of the chain sources on `b` that `keep` names, find under the link view in
    /// force which can find anything: a cycle needs a source on a cycle of links
    /// ([`Graph::on_cycle`]); the returned set holds the sources a forcing chain can
    /// start from (one that leads to its opposite; none without X-links (`x`), where
    /// the producer looks for cycles only).
    fn hopeful_sources(&mut self, b: &Board, x: bool, keep: impl Fn(State) -> bool) -> [u128; 12] {
        chain_sources(b, x, &mut self.sources);
        self.sources.retain(|&s| keep(s));
        self.graph.components(&self.sources);
        if x {
            self.graph.reach_opposite(&self.sources)
        } else {
            [0; 12]
        }
    }

    /// Candidates seen by both an "on" and an "off" node of a cycle ending at `n`.
    fn cycle_eliminations(&self, b: &Board, n: u32) -> [u128; 9] {
        let mut chain_cells = 0u128;
        let mut p = n;
        while self.nodes[p as usize].parent != NONE {
            chain_cells |= 1u128 << cell_of(self.nodes[p as usize].s);
            p = self.nodes[p as usize].parent;
        }
        let mut fwd = [0u128; 9];
        let mut back = [0u128; 9];
        let mut p = n;
        while self.nodes[p as usize].parent != NONE {
            let s = self.nodes[p as usize].s;
            let (c, di) = (cell_of(s), digit_of(s));
            let victims = PEERS[c] & !chain_cells & b.digit[di];
            if is_on(s) {
                fwd[di] |= victims;
            } else {
                back[di] |= victims;
            }
            p = self.nodes[p as usize].parent;
        }
        let mut e = [0u128; 9];
        for di in 0..9 {
            e[di] = fwd[di] & back[di];
        }
        e
    }

    /// Sudoku Explainer's "Forcing Chains & Cycles": the easiest cycle or forcing
    /// chain (lowest difficulty, then shortest, then X before Y before XY).
    ///
    /// It remembers the last position on which it found nothing. Under X-links alone
    /// (the first view) a state's links and everything it leads to are of its own
    /// digit, so on a position `b` with only fewer candidates than that one, from a
    /// source of a digit whose positions are as they were there, the search meets the
    /// same states through the same links in the same order as it did there (where
    /// nothing cut it short): it finds the same cycles and forcing chains, none of
    /// which removed anything there, nor removes anything now (fewer candidates; a
    /// search cut short finds the first of them). Those sources are left out (not
    /// even roots of the components); the others are searched in the same order, so
    /// the hint is the same.
    pub fn cycles_and_forcing_chains(&mut self, b: &Board) -> Option<Hint> {
        let mut best: Best = None;
        let mut built = false;
        // the digits whose positions are those of the remembered position, if `b`
        // has only fewer candidates
        let same = match self.nothing_on.filter(|r| within(b, r)) {
            Some(r) => (0..9)
                .filter(|&di| r.digit[di] == b.digit[di])
                .fold(0u16, |m, di| m | 1 << di),
            None => 0,
        };
        for (y, x) in [(false, true), (true, false), (true, true)] {
            let (base_cycle, base_chain, key) = chain_kind(y, x);
            if !beats(&best, base_cycle.min(base_chain), 0, key) {
                continue;
            }
            if !built {
                self.graph.build_all(b);
                built = true;
            }
            self.graph.view(y, x);
            let left_out = if y { 0 } else { same };
            let forcing = self.hopeful_sources(b, x, |s| left_out >> digit_of(s) & 1 == 0);
            #[cfg(test)]
            {
                self.skipped += super::board::bits(left_out as u32)
                    .map(|di| (b.digit[di] & b.empty).count_ones() as usize)
                    .sum::<usize>();
            }
            for cell in super::board::cells(b.empty) {
                let m = b.cand[cell];
                if m.count_ones() < 2 || (!x && m.count_ones() > 2) {
                    continue;
                }
                for di in super::board::bits(m as u32) {
                    let on = state(cell, di, true);
                    if self.graph.on_cycle(on) {
                        self.cycles(on, &best, base_cycle, key);
                        let found = std::mem::take(&mut self.found);
                        for &n in &found {
                            let elim = self.cycle_eliminations(b, n);
                            let cx = self.complexity(n);
                            let diff = base_cycle + length_difficulty(cx);
                            let name = match (x, y) {
                                (true, true) => "Bidirectional Cycle",
                                (false, true) => "Bidirectional Y-Cycle",
                                _ => "Bidirectional X-Cycle",
                            };
                            offer(&mut best, b, name, diff, cx, key, elim);
                        }
                        self.found = found;
                    }
                    if !x {
                        continue;
                    }
                    for source in [on, on ^ 1] {
                        if !has(&forcing, source) {
                            continue;
                        }
                        if let Some(t) = self.forcing(source, &best, base_chain, key) {
                            let cx = self.complexity(t);
                            let diff = base_chain + length_difficulty(cx);
                            let elim =
                                forcing_eliminations(cell, di, m, is_on(self.nodes[t as usize].s));
                            let name = if y {
                                "Forcing Chain"
                            } else {
                                "Forcing X-Chain"
                            };
                            offer(&mut best, b, name, diff, cx, key, elim);
                        }
                    }
                }
            }
        }
        if best.is_none() {
            self.nothing_on = Some(*b);
        }
        best.map(|(_, _, _, h)| h)
    }
}

/// A hint of an inner producer of the nested chains, found on a working grid: its
/// rank, what it removes, and the candidates removed from the outer position that it
/// depends on (its "rule parents", as "off" states).
#[derive(Debug, Clone, Default)]
pub struct Found {
    /// Difficulty in tenths, complexity and sort key, as the producer ranks hints.
    pub rank: (u8, u32, u8),
    /// Candidates removed, as "off" states present on the working grid.
    pub elims: Vec<State>,
    /// The outer position's candidates, missing on the working grid, that the hint's
    /// "only candidate of the cell" and "only position in the house" links rely on.
    pub parents: Vec<State>,
    /// A digest of the hint's chains (its targets and the candidates leading to them):
    /// two hints with the same are one chain, whose complexity an outer hint counts
    /// once (see `Advanced::record`).
    pub chain: u64,
}

/// A digest of a chain, for [`Found::chain`]: start from [`DIGEST_START`] and mix in
/// each target and the states of its chain, in a fixed order.
pub(super) const DIGEST_START: u64 = 0xcbf2_9ce4_8422_2325;

/// Mix `x` into the digest `h` (see [`DIGEST_START`]).
#[inline]
pub(super) fn digest_mix(h: &mut u64, x: u64) {
    *h = (*h ^ x).wrapping_mul(0x0100_0000_01b3).rotate_left(29);
}

/// The "off" states of `base` missing on `g` that make the "off" to "on" link
/// `from` -> `to` hold: the cell's other candidates (a bivalue-cell link) or the
/// digit's other positions in the first house, box, row then column, where only the
/// two are left.
pub(super) fn link_parents(base: &Board, g: &Board, from: State, to: State, out: &mut Vec<State>) {
    let (fc, tc, di) = (cell_of(from), cell_of(to), digit_of(to));
    if fc == tc {
        for d in super::board::bits((base.cand[tc] & !g.cand[tc]) as u32) {
            out.push(state(tc, d, false));
        }
        return;
    }
    let (r, c) = (fc / 9, fc % 9);
    for h in [(r / 3) * 3 + c / 3, 9 + r, 18 + c] {
        let hm = super::board::HOUSE_MASK[h];
        if hm >> tc & 1 == 0 || (g.digit[di] & hm).count_ones() != 2 {
            continue;
        }
        for o in super::board::cells(base.digit[di] & hm & !g.digit[di]) {
            out.push(state(o, di, false));
        }
        return;
    }
}

/// The "off" states of `base` missing on `g` that Sudoku Explainer names as the rule
/// parents of the "on" to "off" link `from` -> `to` read backwards, as it reads a
/// cycle's second, reversed chain: the cell's removed candidates when the link is
/// within a cell, else the digit's removed positions in the first house (box, row,
/// column) of `from` that holds `to` (the house the link went through).
fn reversed_link_parents(base: &Board, g: &Board, from: State, to: State, out: &mut Vec<State>) {
    let (fc, tc, di) = (cell_of(from), cell_of(to), digit_of(to));
    if fc == tc {
        for d in super::board::bits((base.cand[tc] & !g.cand[tc]) as u32) {
            out.push(state(tc, d, false));
        }
        return;
    }
    if let Some(h) = houses_of(fc)
        .into_iter()
        .find(|&h| HOUSE_MASK[h] >> tc & 1 != 0)
    {
        let hm = HOUSE_MASK[h];
        for o in super::board::cells(base.digit[di] & hm & !g.digit[di]) {
            out.push(state(o, di, false));
        }
    }
}

impl Chains {
    /// Rule parents of the chain ending at node `n`, sorted and distinct. A cycle
    /// (`cycle`) is also read backwards, as Sudoku Explainer reads it: each of its
    /// "off" nodes then stands as an "on" one, with the parents of its link.
    fn chain_parents(&self, base: &Board, g: &Board, n: u32, cycle: bool, out: &mut Vec<State>) {
        out.clear();
        let mut q = n;
        while self.nodes[q as usize].parent != NONE {
            let p = self.nodes[q as usize].parent;
            let (from, to) = (self.nodes[p as usize].s, self.nodes[q as usize].s);
            if is_on(to) {
                link_parents(base, g, from, to, out);
            } else if cycle {
                reversed_link_parents(base, g, from, to, out);
            }
            q = p;
        }
        out.sort_unstable();
        out.dedup();
    }

    /// Every cycle and forcing chain of "Forcing Chains & Cycles" on the working grid
    /// `g` (no search cut short by a better hint), each with its rule parents against
    /// the outer position `base`, appended to `out` in the producer's scan order.
    pub(super) fn every_hint(&mut self, base: &Board, g: &Board, out: &mut Vec<Found>) {
        self.graph.build_all(g);
        self.graph.build_reverse();
        for (y, x) in [(false, true), (true, false), (true, true)] {
            let (base_cycle, base_chain, key) = chain_kind(y, x);
            self.graph.view(y, x);
            // a chain that depends on the run goes through a changed link, so its
            // source must reach one: the others are not searched
            let relevant = self.graph.reaching_changed_links(base, g);
            let relevant = |s: State| has(&relevant, s);
            let forcing = self.hopeful_sources(g, x, relevant);
            for cell in super::board::cells(g.empty) {
                let m = g.cand[cell];
                if m.count_ones() < 2 || (!x && m.count_ones() > 2) {
                    continue;
                }
                for di in super::board::bits(m as u32) {
                    let on = state(cell, di, true);
                    if relevant(on) && self.graph.on_cycle(on) {
                        self.cycles(on, &None, base_cycle, key);
                        let found = std::mem::take(&mut self.found);
                        for &n in &found {
                            let elim = self.cycle_eliminations(g, n);
                            self.push_found(base, g, n, true, elim, base_cycle, key, out);
                        }
                        self.found = found;
                    }
                    if !x {
                        continue;
                    }
                    for source in [on, on ^ 1] {
                        if !has(&forcing, source) {
                            continue;
                        }
                        if let Some(t) = self.forcing(source, &None, base_chain, key) {
                            let elim =
                                forcing_eliminations(cell, di, m, is_on(self.nodes[t as usize].s));
                            self.push_found(base, g, t, false, elim, base_chain, key, out);
                        }
                    }
                }
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn push_found(
        &self,
        base: &Board,
        g: &Board,
        n: u32,
        cycle: bool,
        elim: [u128; 9],
        base_diff: u8,
        key: u8,
        out: &mut Vec<Found>,
    ) {
        let mut elims = Vec::new();
        for (di, &e) in elim.iter().enumerate() {
            for c in super::board::cells(e & g.digit[di]) {
                elims.push(state(c, di, false));
            }
        }
        if elims.is_empty() {
            return;
        }
        let cx = self.complexity(n);
        let mut parents = Vec::new();
        self.chain_parents(base, g, n, cycle, &mut parents);
        let mut chain = DIGEST_START;
        let mut q = n;
        while q != NONE {
            digest_mix(&mut chain, self.nodes[q as usize].s as u64);
            q = self.nodes[q as usize].parent;
        }
        out.push(Found {
            chain,
            rank: (base_diff + length_difficulty(cx), cx, key),
            elims,
            parents,
        });
    }
}

/// Of "Forcing Chains & Cycles" of X links (`x`), Y links (`y`) or both: the base
/// difficulty of its cycles and of its forcing chains, in tenths, and its sort key.
fn chain_kind(y: bool, x: bool) -> (u8, u8, u8) {
    match (x, y) {
        (true, true) => (70, 70, 4),
        (_, true) => (65, 66, 3),
        _ => (65, 66, 2),
    }
}

/// What a forcing chain about candidate `di` of `cell` (candidates `m`) removes: when
/// its end is the candidate "on" (it is true), the cell's other candidates; when "off",
/// the candidate itself.
fn forcing_eliminations(cell: usize, di: usize, m: u16, ends_on: bool) -> [u128; 9] {
    let mut elim = [0u128; 9];
    if ends_on {
        for d in super::board::bits(m as u32) {
            if d != di {
                elim[d] = 1u128 << cell;
            }
        }
    } else {
        elim[di] = 1u128 << cell;
    }
    elim
}

/// Whether a hint ranked `(diff, cx, key)` would replace `best`.
fn beats(best: &Best, diff: u8, cx: u32, key: u8) -> bool {
    match best {
        None => true,
        Some((d, c, k, _)) => (diff, cx, key) < (*d, *c, *k),
    }
}

fn offer(
    best: &mut Best,
    b: &Board,
    name: &'static str,
    diff: u8,
    cx: u32,
    key: u8,
    elim: [u128; 9],
) {
    let mut h = Hint::new(name, diff);
    h.elim = elim;
    if !h.removes_any(b) {
        return;
    }
    if beats(best, diff, cx, key) {
        *best = Some((diff, cx, key, h));
    }
}

/// Sudoku Explainer's length penalty for a chain of `complexity` nodes: +0.1 each
/// time the length (nodes - 2) passes 4, 6, 8, 12, 16, 24, 32, ...
pub fn length_difficulty(complexity: u32) -> u8 {
    let length = complexity as i64 - 2;
    let mut ceil = 4i64;
    let mut added = 0u8;
    let mut odd = false;
    while length > ceil {
        added += 1;
        ceil = if odd { ceil * 4 / 3 } else { ceil * 3 / 2 };
        odd = !odd;
    }
    added
}

/// The outcome of assuming one candidate: every state reached (first way found).
#[derive(Debug, Default, Clone)]
pub struct Run {
    /// The states reached, in the order found, each with its parent node.
    nodes: Vec<RunNode>,
    /// Node of each state reached, `FIRST_NONE` if not reached (a run has at most
    /// one node per state, fewer than `FIRST_NONE`): 16 bits, so that the runs of a
    /// position take half the cache.
    first: Vec<u16>,
    /// The states reached, as a bit set: the cell and region chains ask which
    /// states every run of a group reached, an intersection of these.
    seen: [u128; 12],
    queue_on: std::collections::VecDeque<u16>,
    queue_off: std::collections::VecDeque<u16>,
    /// Whether the run stopped at a contradiction (else it reached every state the
    /// links lead to from its source).
    contradiction: bool,
}

/// A node of a [`Run`]: its state and parent node (`FIRST_NONE` for the source).
#[derive(Clone, Copy, Debug)]
struct RunNode {
    s: State,
    parent: u16,
}

/// [`Run::first`]'s "not reached".
const FIRST_NONE: u16 = u16::MAX;

impl Run {
    fn reached(&self, s: State) -> bool {
        self.first[s as usize] != FIRST_NONE
    }

    #[inline]
    fn add(&mut self, s: State, parent: u16) -> u16 {
        self.nodes.push(RunNode { s, parent });
        let n = (self.nodes.len() - 1) as u16;
        debug_assert!(n < FIRST_NONE);
        self.first[s as usize] = n;
        self.seen[s as usize / 128] |= 1u128 << (s as usize % 128);
        n
    }

    /// The states reached, in the order found.
    fn order(&self) -> impl Iterator<Item = State> + '_ {
        self.nodes.iter().map(|n| n.s)
    }

    /// Nodes on the chain to state `s` (distinct states).
    fn length_to(&self, s: State) -> u32 {
        let mut p = self.first[s as usize];
        let mut count = 0;
        while p != FIRST_NONE {
            count += 1;
            p = self.nodes[p as usize].parent;
        }
        count
    }

    /// Follow every static implication of `source` (Y- and X-links), the "on"
    /// consequences first, stopping at the first contradiction as Sudoku Explainer does.
    fn chain(&mut self, graph: &Graph, source: State) {
        if self.first.len() == 81 * 9 * 2 {
            // only the states reached last time need clearing
            for n in &self.nodes {
                self.first[n.s as usize] = FIRST_NONE;
            }
        } else {
            self.first.clear();
            self.first.resize(81 * 9 * 2, FIRST_NONE);
        }
        self.nodes.clear();
        self.seen = [0; 12];
        self.queue_on.clear();
        self.queue_off.clear();
        self.contradiction = true;
        let root = self.add(source, FIRST_NONE);
        if is_on(source) {
            self.queue_on.push_back(root);
        } else {
            self.queue_off.push_back(root);
        }
        loop {
            if let Some(p) = self.queue_on.pop_front() {
                for &off in graph.next(self.nodes[p as usize].s) {
                    if self.reached(off ^ 1) {
                        return;
                    }
                    if !self.reached(off) {
                        let n = self.add(off, p);
                        self.queue_off.push_back(n);
                    }
                }
            } else if let Some(p) = self.queue_off.pop_front() {
                for &on in graph.next(self.nodes[p as usize].s) {
                    if self.reached(on ^ 1) {
                        return;
                    }
                    if !self.reached(on) {
                        let n = self.add(on, p);
                        self.queue_on.push_back(n);
                    }
                }
            } else {
                self.contradiction = false;
                return;
            }
        }
    }
}

/// Buffers for the multiple forcing chains.
#[derive(Debug, Default)]
pub struct Multiple {
    /// Runs computed on the position in hand, reused across calls for their buffers.
    pool: Vec<Run>,
    /// Runs of `pool` in use.
    used: usize,
    /// Index in `pool` of the run from each "on" candidate (`cell * 9 + digit`),
    /// `NONE` if not run yet on this position.
    run_of: Vec<u32>,
    graph: Graph,
    /// The last position on which the whole producer found nothing.
    memory: NothingFound,
    /// Groups (cells and regions) left unsearched thanks to `memory` (for tests).
    #[cfg(test)]
    pub(super) skipped: usize,
}

/// What [`Multiple`] remembers of the last position on which it found nothing.
///
/// On a position with only fewer candidates than that one, every link of the graph
/// ("on" to "off", and "off" to "on" in a cell or house with two left) was a link
/// there too, except the new "off" to "on" links of cells and houses now down to two.
/// A run that never meets the "off" state starting such a link follows old links
/// only, so it reaches a subset of what it reached there. A group (a cell, or a
/// digit's positions in a house) whose members are as they were there, and whose
/// members' runs there met no contradiction and reached no state starting a new
/// link, therefore concludes a subset of what it concluded there, where nothing
/// removed a candidate: nothing removes one now either, and the group is skipped. The
/// groups searched are searched as before, in the same order, so the hint is the
/// same.
#[derive(Debug, Default)]
struct NothingFound {
    /// That position, when there is one.
    board: Option<Board>,
    /// Per "on" candidate (`cell * 9 + digit`) of a group there: the states its run
    /// reached there (or a superset: the states reached on an earlier such position,
    /// when the group was skipped there).
    reached: Vec<[u128; 12]>,
    /// Whether that run met no contradiction.
    clean: Vec<bool>,
}

impl NothingFound {
    /// Whether the run from candidate `i` cannot have changed against `links` (the
    /// states starting a new link): no contradiction there, no such state reached.
    #[inline]
    fn quiet(&self, i: usize, links: &[u128; 12]) -> bool {
        self.clean[i] && and(&self.reached[i], links).iter().all(|&w| w == 0)
    }
}

/// Whether `b` has only candidates that `r` has.
pub(super) fn within(b: &Board, r: &Board) -> bool {
    (0..9).all(|di| b.digit[di] & !r.digit[di] == 0)
}

/// The "off" states of `b` that start a link (in the view with both link kinds) that
/// `r`, a position with more candidates, does not have: those of cells down to two
/// candidates, and of a digit's positions in a house down to two.
fn new_links(r: &Board, b: &Board) -> [u128; 12] {
    let mut out = [0u128; 12];
    let mut mark = |s: State| out[s as usize / 128] |= 1u128 << (s as usize % 128);
    for cell in super::board::cells(b.empty) {
        let m = b.cand[cell];
        if m.count_ones() == 2 && r.cand[cell].count_ones() > 2 {
            for di in super::board::bits(m as u32) {
                mark(state(cell, di, false));
            }
        }
    }
    for di in 0..9 {
        for h in 0..27 {
            let now = b.digit[di] & super::board::HOUSE_MASK[h];
            if now.count_ones() == 2 && (r.digit[di] & super::board::HOUSE_MASK[h]).count_ones() > 2
            {
                for c in super::board::cells(now) {
                    mark(state(c, di, false));
                }
            }
        }
    }
    out
}

impl Multiple {
    /// Take position `b` in hand: no run computed on it yet, its implication graph.
    fn start(&mut self, b: &Board) {
        self.used = 0;
        self.run_of.clear();
        self.run_of.resize(81 * 9, NONE);
        self.graph.build(b, true, true);
    }

    /// The run from candidate `(cell, di)` taken as true on the position in hand: a
    /// candidate starts the runs of its cell and of up to three houses, so each is
    /// followed once per position and reused.
    fn run(&mut self, cell: usize, di: usize) -> u32 {
        let i = cell * 9 + di;
        if self.run_of[i] == NONE {
            if self.used == self.pool.len() {
                self.pool.push(Run::default());
            }
            self.pool[self.used].chain(&self.graph, state(cell, di, true));
            self.run_of[i] = self.used as u32;
            self.used += 1;
        }
        self.run_of[i]
    }

    /// Cell and region forcing chains (8.0 + length): whatever every candidate of a
    /// cell, or every position of a digit in a house, implies is true. Static chains;
    /// only cells with three or more candidates start them, and a house only from its
    /// first position, as in Sudoku Explainer's "Multiple Forcing Chains".
    ///
    /// The graph of position `b` is borrowed from `chains`, whose "Forcing Chains &
    /// Cycles" built it on the same position just before (else it is built).
    pub fn cell_and_region_chains(&mut self, b: &Board, chains: &mut Chains) -> Option<Hint> {
        std::mem::swap(&mut self.graph, &mut chains.graph);
        let hint = self.cell_and_region_chains_on(b);
        std::mem::swap(&mut self.graph, &mut chains.graph);
        hint
    }

    fn cell_and_region_chains_on(&mut self, b: &Board) -> Option<Hint> {
        let mut best: Best = None;
        self.start(b);
        // the remembered position, if `b` has only fewer candidates, and the states
        // starting a link it did not have
        let memory = self
            .memory
            .board
            .filter(|r| within(b, r))
            .map(|r| (r, new_links(&r, b)));
        let mut values = [NONE; 9];
        for cell in super::board::cells(b.empty) {
            let m = b.cand[cell];
            if m.count_ones() <= 2 {
                continue;
            }
            for di in super::board::bits(m as u32) {
                self.regions(b, cell, di, memory.as_ref(), &mut best);
            }
            let unchanged = memory.as_ref().is_some_and(|(r, links)| {
                r.cand[cell] == m
                    && super::board::bits(m as u32).all(|d| self.memory.quiet(cell * 9 + d, links))
            });
            if unchanged {
                #[cfg(test)]
                {
                    self.skipped += 1;
                }
                continue;
            }
            for di in super::board::bits(m as u32) {
                values[di] = self.run(cell, di);
            }
            // cell reduction: what every digit of the cell implies
            let first = &self.pool[values[m.trailing_zeros() as usize] as usize];
            let mut every = [u128::MAX; 12];
            for d in super::board::bits(m as u32) {
                every = and(&every, &self.pool[values[d] as usize].seen);
            }
            for s in first.order() {
                if !has(&every, s) || !target_removes(b, s) {
                    continue;
                }
                let limit = best.as_ref().map_or(u32::MAX, |h| h.1);
                let mut cx = 0u32;
                for d in super::board::bits(m as u32) {
                    cx += self.pool[values[d] as usize].length_to(s);
                    if cx > limit {
                        break;
                    }
                }
                if cx <= limit {
                    offer_target(&mut best, b, "Cell Forcing Chains", s, cx, 5);
                }
            }
        }
        if best.is_none() {
            self.remember(b);
        }
        best.map(|(_, _, _, h)| h)
    }

    /// Remember `b`, on which nothing was found, with what the runs followed on it
    /// reached (the runs of skipped groups keep what they reached before: a superset).
    fn remember(&mut self, b: &Board) {
        let memory = &mut self.memory;
        memory.reached.resize(81 * 9, [0; 12]);
        memory.clean.resize(81 * 9, false);
        for (i, &k) in self.run_of.iter().enumerate() {
            if k != NONE {
                let run = &self.pool[k as usize];
                memory.reached[i] = run.seen;
                memory.clean[i] = !run.contradiction;
            }
        }
        memory.board = Some(*b);
    }

    fn regions(
        &mut self,
        b: &Board,
        cell: usize,
        di: usize,
        memory: Option<&(Board, [u128; 12])>,
        best: &mut Best,
    ) {
        for h in houses_of(cell) {
            let pos = b.digit[di] & super::board::HOUSE_MASK[h];
            if pos.count_ones() < 2 || pos.trailing_zeros() as usize != cell {
                continue;
            }
            let unchanged = memory.is_some_and(|(r, links)| {
                r.digit[di] & super::board::HOUSE_MASK[h] == pos
                    && super::board::cells(pos).all(|o| self.memory.quiet(o * 9 + di, links))
            });
            if unchanged {
                #[cfg(test)]
                {
                    self.skipped += 1;
                }
                continue;
            }
            let mine = self.run(cell, di);
            // runs for the other positions
            let mut others = [NONE; 9];
            let mut n = 0;
            for o in super::board::cells(pos & !(1u128 << cell)) {
                others[n] = self.run(o, di);
                n += 1;
            }
            let others = &others[..n];
            let mine = &self.pool[mine as usize];
            let mut every = [u128::MAX; 12];
            for &k in others {
                every = and(&every, &self.pool[k as usize].seen);
            }
            for s in mine.order() {
                if !has(&every, s) || !target_removes(b, s) {
                    continue;
                }
                let limit = best.as_ref().map_or(u32::MAX, |h| h.1);
                let mut cx = mine.length_to(s);
                for &k in others {
                    if cx > limit {
                        break;
                    }
                    cx += self.pool[k as usize].length_to(s);
                }
                if cx <= limit {
                    offer_target(best, b, "Region Forcing Chains", s, cx, 6);
                }
            }
        }
    }
}

impl Multiple {
    /// Every cell and region forcing chain of "Multiple Forcing Chains" on the working
    /// grid `g` (nothing cut short by a better hint), each with its rule parents
    /// against the outer position `base`, appended to `out` in the producer's order:
    /// cell by cell, each digit's region chains (box, row, column; conclusions "on"
    /// before "off", each in the order the first position's run reached them), then
    /// the cell's own chains, "on" conclusions before "off" ones.
    pub(super) fn every_hint(&mut self, base: &Board, g: &Board, out: &mut Vec<Found>) {
        self.start(g);
        let mut values = [NONE; 9];
        let mut branches: Vec<u32> = Vec::with_capacity(9);
        for cell in super::board::cells(g.empty) {
            let m = g.cand[cell];
            if m.count_ones() <= 2 {
                continue;
            }
            for di in super::board::bits(m as u32) {
                values[di] = self.run(cell, di);
                for h in houses_of(cell) {
                    let pos = g.digit[di] & super::board::HOUSE_MASK[h];
                    if pos.count_ones() < 2 || pos.trailing_zeros() as usize != cell {
                        continue;
                    }
                    branches.clear();
                    branches.push(values[di]);
                    for o in super::board::cells(pos & !(1u128 << cell)) {
                        branches.push(self.run(o, di));
                    }
                    // the hint rests on every position of the digit in the house
                    let gone = base.digit[di] & !g.digit[di] & super::board::HOUSE_MASK[h];
                    let roots: Vec<State> = super::board::cells(gone)
                        .map(|o| state(o, di, false))
                        .collect();
                    self.found_targets(base, g, &branches, &roots, 6, out);
                }
            }
            branches.clear();
            branches.extend(super::board::bits(m as u32).map(|d| values[d]));
            // the hint rests on every candidate of the cell
            let roots: Vec<State> = super::board::bits((base.cand[cell] & !m) as u32)
                .map(|d| state(cell, d, false))
                .collect();
            self.found_targets(base, g, &branches, &roots, 5, out);
        }
    }

    /// The conclusions every run of `branches` reaches (the first run's order, "on"
    /// states first), as hints of sort key `key` whose rule parents are `roots` and
    /// those of each branch's chain.
    fn found_targets(
        &self,
        base: &Board,
        g: &Board,
        branches: &[u32],
        roots: &[State],
        key: u8,
        out: &mut Vec<Found>,
    ) {
        let first = &self.pool[branches[0] as usize];
        for pass_on in [true, false] {
            for s in first.order() {
                if is_on(s) != pass_on
                    || !branches[1..]
                        .iter()
                        .all(|&k| self.pool[k as usize].reached(s))
                {
                    continue;
                }
                let (cell, di) = (cell_of(s), digit_of(s));
                let mut elims = Vec::new();
                if pass_on {
                    for d in super::board::bits(g.cand[cell] as u32) {
                        if d != di {
                            elims.push(state(cell, d, false));
                        }
                    }
                } else if g.digit[di] >> cell & 1 != 0 {
                    elims.push(s);
                }
                if elims.is_empty() {
                    continue;
                }
                let mut cx = 0;
                let mut parents = roots.to_vec();
                let mut chain = DIGEST_START;
                for &k in branches {
                    let run = &self.pool[k as usize];
                    cx += run.length_to(s);
                    run.chain_parents(base, g, s, &mut parents);
                    run.digest(s, &mut chain);
                }
                parents.sort_unstable();
                parents.dedup();
                out.push(Found {
                    chain,
                    rank: (80 + length_difficulty(cx), cx, key),
                    elims,
                    parents,
                });
            }
        }
    }
}

impl Run {
    /// Mix the states of this run's chain to `s` into the digest `h`.
    fn digest(&self, s: State, h: &mut u64) {
        digest_mix(h, s as u64 | 1 << 32);
        let mut q = self.first[s as usize];
        while q != FIRST_NONE {
            digest_mix(h, self.nodes[q as usize].s as u64);
            q = self.nodes[q as usize].parent;
        }
    }

    /// Append the rule parents of this run's chain to `s` (see [`link_parents`]).
    fn chain_parents(&self, base: &Board, g: &Board, s: State, out: &mut Vec<State>) {
        let mut q = self.first[s as usize];
        while q != FIRST_NONE {
            let p = self.nodes[q as usize].parent;
            if p == FIRST_NONE {
                break;
            }
            let to = self.nodes[q as usize].s;
            if is_on(to) {
                link_parents(base, g, self.nodes[p as usize].s, to, out);
            }
            q = p;
        }
    }
}

/// Whether a conclusion on state `s` removes a candidate of `b` (what
/// [`offer_target`] asks of its hint, before the complexity is counted): a cell
/// reduction or region chain of more complexity than the best hint's cannot beat it
/// (the same base, the length penalty growing with the complexity), and one that
/// removes nothing is not offered.
fn target_removes(b: &Board, s: State) -> bool {
    let (cell, di) = (cell_of(s), digit_of(s));
    let bit = 1u128 << cell;
    if is_on(s) {
        (0..9).any(|d| d != di && b.digit[d] & bit != 0)
    } else {
        b.digit[di] & bit != 0
    }
}

/// A chain conclusion on state `s` as a hint: "on" removes the cell's other
/// candidates, "off" removes the candidate.
fn offer_target(best: &mut Best, b: &Board, name: &'static str, s: State, cx: u32, key: u8) {
    let (cell, di) = (cell_of(s), digit_of(s));
    let mut elim = [0u128; 9];
    if is_on(s) {
        for d in super::board::bits(b.cand[cell] as u32) {
            if d != di {
                elim[d] = 1u128 << cell;
            }
        }
    } else {
        elim[di] = 1u128 << cell;
    }
    offer(best, b, name, 80 + length_difficulty(cx), cx, key, elim);
}

#[cfg(test)]
pub(super) mod tests {
    use super::super::board::{bits, Board};
    use super::*;
    use crate::grid::Grid;

    /// Positions where the serate file's puzzles of ER 6.6 to 9.0 reach their first
    /// step of 6.5 or more (found by our rater), each with a working grid: the position
    /// less some random candidates that are not the solution's.
    pub(in crate::rate) fn positions() -> Vec<(Board, Board)> {
        let file = include_str!("../../tests/data/serate_ratings.csv");
        let mut rater = super::super::Rater::new();
        let mut out = Vec::new();
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        for line in file.lines().filter(|l| !l.starts_with('#')).skip(1) {
            let mut f = line.split(',');
            let (puzzle, er) = (f.next().unwrap(), f.next().unwrap());
            let er: f64 = er.parse().unwrap();
            if !(6.6..=9.0).contains(&er) || next(8) != 0 {
                continue;
            }
            let grid = Grid::parse(puzzle.as_bytes()).unwrap();
            let sol = *crate::solve(&grid, 2).first.unwrap().cells();
            let mut b = Board::from_values(grid.cells());
            for s in rater.rate(&grid, true).unwrap().steps {
                if s.difficulty >= 65 {
                    break;
                }
                super::super::tests::apply_step(&mut b, &s);
            }
            let mut g = b;
            for _ in 0..4 + next(20) {
                let cell = next(81) as usize;
                let wrong = g.cand[cell] & !(1 << (sol[cell] - 1));
                if g.empty >> cell & 1 != 0 && wrong != 0 {
                    let di = bits(wrong as u32).nth(next(wrong.count_ones() as u64) as usize);
                    let mut elim = [0u128; 9];
                    elim[di.unwrap()] = 1u128 << cell;
                    g.eliminate(&elim);
                }
            }
            out.push((b, g));
        }
        assert!(out.len() >= 40, "{} positions", out.len());
        out
    }

    /// Every chain source of every test position under each view (X-links, Y-links,
    /// both), handed to `visit` with the graph built, its components taken and the
    /// states whose opposite a forcing chain can reach.
    fn each_source(mut visit: impl FnMut(&mut Chains, State, (bool, bool), &[u128; 12])) {
        let mut ch = Chains::default();
        for (_, b) in positions() {
            ch.graph.build_all(&b);
            for (y, x) in [(false, true), (true, false), (true, true)] {
                ch.graph.view(y, x);
                chain_sources(&b, x, &mut ch.sources);
                ch.graph.components(&ch.sources);
                let reach = ch.graph.reach_opposite(&ch.sources);
                for s in ch.sources.clone() {
                    visit(&mut ch, s, (y, x), &reach);
                }
            }
        }
    }

    /// The searches skipped as hopeless are exactly those that find nothing: a
    /// forcing chain from a source is found if and only if the components say its
    /// opposite is reachable, and no cycle goes through a source off every cycle.
    #[test]
    fn components_tell_which_searches_can_find_a_chain() {
        let (mut chains, mut cycles) = (0, 0);
        each_source(|ch, s, (y, x), reach| {
            if is_on(s) {
                ch.cycles(s, &None, 65, 2);
                assert!(ch.found.is_empty() || ch.graph.on_cycle(s));
                cycles += ch.found.len();
            }
            if x {
                let found = ch.forcing(s, &None, 66, 2).is_some();
                assert_eq!(found, has(reach, s), "state {s} (view {y} {x})");
                chains += found as usize;
            }
        });
        assert!(
            chains > 100 && cycles > 100,
            "{chains} chains, {cycles} cycles"
        );
    }

    /// The states of the chain ending at node `n`, from its end back to its source.
    fn chain_states(ch: &Chains, n: u32) -> Vec<State> {
        let mut out = Vec::new();
        let mut q = n;
        while q != NONE {
            out.push(ch.nodes[q as usize].s);
            q = ch.nodes[q as usize].parent;
        }
        out
    }

    /// Pruning the searches to the states that can still close the cycle (the
    /// source's component) or reach the forcing chain's target changes nothing: the
    /// same cycles, in the same order, and the same forcing chain, state by state.
    #[test]
    fn pruned_searches_find_the_same_chains() {
        let (mut chains, mut cycles) = (0, 0);
        each_source(|ch, s, (y, x), _| {
            let mut runs = Vec::new();
            for no_prune in [true, false] {
                ch.no_prune = no_prune;
                let mut found: Vec<Vec<State>> = Vec::new();
                if is_on(s) {
                    ch.cycles(s, &None, 65, 2);
                    found = ch.found.iter().map(|&n| chain_states(ch, n)).collect();
                }
                let target = if x {
                    ch.forcing(s, &None, 66, 2).map(|t| chain_states(ch, t))
                } else {
                    None
                };
                runs.push((found, target));
            }
            ch.no_prune = false;
            assert_eq!(runs[0], runs[1], "state {s} (view {y} {x})");
            cycles += runs[0].0.len();
            chains += runs[0].1.is_some() as usize;
        });
        assert!(
            chains > 100 && cycles > 100,
            "{chains} chains, {cycles} cycles"
        );
    }

    /// The cell and region forcing chains, which skip a conclusion that removes
    /// nothing or has more complexity than the best so far, give a hint of the
    /// lowest rank among every cell and region chain of the position (the nested
    /// levels' enumeration, which skips nothing); on both the positions and their
    /// working grids.
    #[test]
    fn cell_and_region_chains_give_a_lowest_ranked_chain() {
        let (mut multiple, mut chains) = (Multiple::default(), Chains::default());
        let mut found = Vec::new();
        let mut hints = 0;
        for (pos, g) in positions() {
            for b in [pos, g] {
                found.clear();
                multiple.every_hint(&b, &b, &mut found);
                let hint = multiple.cell_and_region_chains(&b, &mut chains);
                let lowest = found.iter().map(|f| f.rank).min();
                assert_eq!(hint.is_some(), lowest.is_some());
                let (Some(hint), Some(lowest)) = (hint, lowest) else {
                    continue;
                };
                hints += 1;
                assert_eq!(hint.difficulty, lowest.0);
                let elim_of = |f: &Found| {
                    let mut e = [0u128; 9];
                    for &s in &f.elims {
                        e[digit_of(s)] |= 1u128 << cell_of(s);
                    }
                    e
                };
                let same = |f: &&Found| f.rank == lowest && elim_of(f) == hint.elim;
                assert!(found.iter().any(|f| same(&f)), "{:?}", hint);
            }
        }
        assert!(hints > 50, "{hints} hints");
    }

    /// A chain with rule parents (one that depends on the candidates a run removed)
    /// starts only from a state the relevance search marks.
    #[test]
    fn chains_that_depend_on_removed_candidates_start_where_marked() {
        let mut ch = Chains::default();
        let (mut dependent, mut skipped) = (0, 0);
        let mut parents = Vec::new();
        for (base, g) in positions() {
            ch.graph.build_all(&g);
            ch.graph.build_reverse();
            for (y, x) in [(false, true), (true, false), (true, true)] {
                ch.graph.view(y, x);
                let relevant = ch.graph.reaching_changed_links(&base, &g);
                chain_sources(&g, x, &mut ch.sources);
                for s in ch.sources.clone() {
                    let mut ends = Vec::new();
                    if is_on(s) {
                        ch.cycles(s, &None, 65, 2);
                        for &n in &ch.found.clone() {
                            ch.chain_parents(&base, &g, n, true, &mut parents);
                            ends.push(!parents.is_empty());
                        }
                    }
                    if x {
                        if let Some(t) = ch.forcing(s, &None, 66, 2) {
                            ch.chain_parents(&base, &g, t, false, &mut parents);
                            ends.push(!parents.is_empty());
                        }
                    }
                    for depends in ends {
                        if has(&relevant, s) {
                            dependent += depends as usize;
                        } else {
                            assert!(!depends, "state {s} unmarked, its chain has parents");
                            skipped += 1;
                        }
                    }
                }
            }
        }
        assert!(
            dependent > 50 && skipped > 50,
            "{dependent} dependent, {skipped} skipped"
        );
    }
}
