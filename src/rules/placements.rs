//! Whole placements of one digit: the ways to put a digit in nine cells, one in each
//! row, column, box and extra house, no two of them peers under the rule set (a
//! knight's or king's move apart, on one diagonal, ...). Every solution puts each
//! digit on one of them, so a candidate on none of the placements still open for its
//! digit is no candidate, and a digit with none left is a dead position.
//!
//! Under anti-knight there are 3,176 of them per digit (46,656 under classic rules),
//! few enough to keep per search position the list of those still open for each digit
//! and filter it as candidates go ([`Frames`]): a child position's lists are its
//! parent's filtered, so deep in the search they are short. The band engine
//! ([`super::bands`]) runs this after its other inferences stall, for the rule sets
//! where it pays (see `Kinds::placements` there).

use super::bands::split;
use super::table::Variant;

/// A placement or a candidate set: the cells per band (27 bits each, as the band
/// engine's words).
pub(crate) type Cells = [u32; 3];

/// Every whole placement of one digit under `v`'s rules (rows, columns, boxes or
/// regions, extra houses, extra peers), in a fixed order, or `None` when there are
/// more than `most`. Built row by row: a cell not a peer of those taken so far, and at
/// the end every house holds one of the nine.
pub(crate) fn whole_placements(v: &Variant, most: usize) -> Option<Vec<Cells>> {
    let houses = &v.houses[..v.n_houses];
    let mut out = Vec::new();
    let complete = place_row(v, houses, 0, 0, 0, most, &mut out);
    complete.then_some(out)
}

/// Extend `chosen` (one cell in each row above `row`; `blocked`: their peers) by a
/// cell of `row` and on; `false` once `out` would exceed `most`.
fn place_row(
    v: &Variant,
    houses: &[u128],
    row: usize,
    chosen: u128,
    blocked: u128,
    most: usize,
    out: &mut Vec<Cells>,
) -> bool {
    if row == 9 {
        if houses.iter().all(|&h| (h & chosen).count_ones() == 1) {
            if out.len() == most {
                return false;
            }
            out.push(split(chosen));
        }
        return true;
    }
    for col in 0..9 {
        let cell = row * 9 + col;
        if blocked >> cell & 1 == 0
            && !place_row(
                v,
                houses,
                row + 1,
                chosen | 1 << cell,
                blocked | v.peers[cell] | 1 << cell,
                most,
                out,
            )
        {
            return false;
        }
    }
    true
}

/// Three band words packed in one `u128`, band `b` at bit `32 * b`: a placement
/// tested against candidates in two 64-bit operations a step.
#[inline(always)]
fn pack(w: Cells) -> u128 {
    u128::from(w[0]) | u128::from(w[1]) << 32 | u128::from(w[2]) << 64
}

/// The band words of a [`pack`]ed mask.
#[inline(always)]
fn unpack(m: u128) -> Cells {
    [m as u32, (m >> 32) as u32, (m >> 64) as u32]
}

/// One level of [`Frames`]: per digit, where its open placements lie in the arena and
/// the digit's candidates when they were last filtered.
#[derive(Clone, Copy, Debug)]
struct Level {
    start: [u32; 9],
    len: [u32; 9],
    seen: [u128; 9],
    /// The arena's top when the level began: a range starting here or later is the
    /// level's own (filtered in place); one below it is an older level's, copied.
    begin: u32,
    /// The arena's top when the level was last written.
    end: u32,
}

/// The open placements of every digit along the search's current path: level 0 holds
/// all of them, each later level those of a position on the path, filtered from the
/// level of the position it came from. A position on the search's stack names the
/// level its lists come from (the lists of a position before it, so a superset of
/// its own); going back to it drops the levels above.
#[derive(Clone, Debug)]
pub(crate) struct Frames {
    /// The placements of every level ([`pack`]ed), level 0's (all of them) first;
    /// in use up to `top`, the rest room to write in (never shrunk, so that a
    /// level's lists cost no zeroing).
    arena: Vec<u128>,
    top: usize,
    levels: Vec<Level>,
    /// How many placements there are (level 0's).
    all: usize,
    /// Per cell, the placements (indices into level 0) through it.
    through: Vec<Vec<u16>>,
    /// The rule set's houses ([`pack`]ed): each placement has one cell in each.
    houses: Vec<u128>,
}

/// What [`Frames::filter`] found.
pub(crate) enum Filtered {
    /// A digit has no placement left: the position is dead.
    Dead,
    /// The candidates on no open placement of their digit went (the words were
    /// changed where marked in the returned slot bits; 0 when none).
    Removed(u32),
}

/// Keep the placements at the arena indices `from` that lie inside `c`, written from
/// `to` on (`to` no later than the first index read, or past them all), returning
/// how many and their union. Each is written, and counted when it fits: no branch
/// that mispredicts.
#[inline(always)]
fn keep_inside(
    arena: &mut [u128],
    from: impl Iterator<Item = usize>,
    to: usize,
    c: u128,
) -> (usize, u128) {
    let (mut kept, mut union) = (0, 0u128);
    for i in from {
        let p = arena[i];
        let fits = p & !c == 0;
        arena[to + kept] = p;
        kept += usize::from(fits);
        union |= p & u128::from(fits).wrapping_neg();
    }
    (kept, union)
}

impl Frames {
    /// The frames of `all`, every digit's placements (level 0).
    pub(crate) fn new(v: &Variant, all: Vec<Cells>) -> Frames {
        let n = all.len() as u32;
        let through = (0..81)
            .map(|cell: usize| {
                (0..all.len())
                    .filter(|&i| all[i][cell / 27] >> (cell % 27) & 1 != 0)
                    .map(|i| u16::try_from(i).expect("at most 65,536 placements"))
                    .collect()
            })
            .collect();
        let mut arena: Vec<u128> = all.iter().map(|&p| pack(p)).collect();
        // Room for a few levels to start with.
        arena.resize(all.len() * 8, 0);
        Frames {
            all: all.len(),
            top: all.len(),
            through,
            houses: v.houses[..v.n_houses]
                .iter()
                .map(|&h| pack(split(h)))
                .collect(),
            arena,
            levels: vec![Level {
                start: [0; 9],
                len: [n; 9],
                seen: [u128::MAX; 9],
                begin: n,
                end: n,
            }],
        }
    }

    /// Room for `more` placements past the top.
    #[inline(always)]
    fn room(&mut self, more: usize) {
        if self.top + more > self.arena.len() {
            self.arena.resize((self.top + more) * 2, 0);
        }
    }

    /// Filter the placements for the candidates `cand` (`cand[d * 3 + band]`, as the
    /// band engine's words) of a position whose lists are at `level`; with `fresh`,
    /// the position has no level of its own yet: one is made on top of `level` (the
    /// levels above it dropped), else `level` is the position's own and the top one.
    /// Returns the position's level and what was found; the candidates on no open
    /// placement of their digit are taken from `cand`.
    pub(crate) fn filter(
        &mut self,
        cand: &mut [u32; 27],
        level: u16,
        fresh: bool,
    ) -> (u16, Filtered) {
        let mut lv = usize::from(level);
        if fresh {
            self.levels.truncate(lv + 1);
            let base = self.levels[lv];
            self.top = base.end as usize;
            self.levels.push(Level {
                begin: base.end,
                ..base
            });
            lv += 1;
        }
        debug_assert_eq!(lv + 1, self.levels.len(), "filtering the top level");
        let mut level = self.levels[lv];
        let mut changed = 0u32;
        for d in 0..9 {
            let k = d * 3;
            let c = pack([cand[k], cand[k + 1], cand[k + 2]]);
            if c == level.seen[d] {
                continue;
            }
            let (from, len) = (level.start[d] as usize, level.len[d] as usize);
            let (to, (kept, union)) = if from == 0 && len == self.all {
                // From all of them: only those through a candidate of the house
                // where the digit has fewest (each placement has one cell there).
                let house = self
                    .houses
                    .iter()
                    .min_by_key(|&&h| (h & c).count_ones())
                    .expect("a rule set has houses");
                let mut at = house & c;
                let to = self.top;
                let (mut kept, mut union) = (0, 0u128);
                while at != 0 {
                    let bit = at.trailing_zeros() as usize;
                    at &= at - 1;
                    let cell = (bit / 32) * 27 + bit % 32;
                    self.room(kept + self.through[cell].len());
                    let list = self.through[cell].iter().map(|&i| usize::from(i));
                    let (n, u) = keep_inside(&mut self.arena, list, to + kept, c);
                    kept += n;
                    union |= u;
                }
                (to, (kept, union))
            } else if from >= level.begin as usize {
                // This level's own list: in place.
                (
                    from,
                    keep_inside(&mut self.arena, from..from + len, from, c),
                )
            } else {
                // An older level's: copied to the top.
                self.room(len);
                let to = self.top;
                (to, keep_inside(&mut self.arena, from..from + len, to, c))
            };
            if kept == 0 {
                self.levels[lv] = level;
                return (lv as u16, Filtered::Dead);
            }
            if to >= self.top {
                // Written at the top (not in place): the top moves past them.
                self.top = to + kept;
            }
            level.start[d] = to as u32;
            level.len[d] = kept as u32;
            let (c, union) = (unpack(c), unpack(union));
            for b in 0..3 {
                if c[b] & !union[b] != 0 {
                    cand[k + b] = c[b] & union[b];
                    changed |= 1 << (k + b);
                }
            }
            level.seen[d] = pack([cand[k], cand[k + 1], cand[k + 2]]);
        }
        level.end = self.top as u32;
        self.levels[lv] = level;
        (lv as u16, Filtered::Removed(changed))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::Rng;
    use crate::rules::generate::random_solution;
    use crate::rules::RuleSet;
    use crate::Grid;

    fn variant(rules: &str) -> Variant {
        Variant::new(rules.parse::<RuleSet>().unwrap(), None).unwrap()
    }

    /// Every ordering of the nine columns (one cell a row), without pruning.
    fn column_orders(prefix: &mut Vec<usize>, out: &mut Vec<[usize; 9]>) {
        if prefix.len() == 9 {
            out.push(std::array::from_fn(|r| prefix[r]));
            return;
        }
        for c in 0..9 {
            if !prefix.contains(&c) {
                prefix.push(c);
                column_orders(prefix, out);
                prefix.pop();
            }
        }
    }

    /// The placements are exactly the column orders whose nine cells are pairwise
    /// no peers under the rule table and fill every house once, found by trying all
    /// 9! of them; past `most` there are none.
    #[test]
    fn whole_placements_are_the_column_orders_the_rule_table_allows() {
        let mut orders = Vec::new();
        column_orders(&mut Vec::new(), &mut orders);
        assert_eq!(orders.len(), 362_880);
        for rules in [
            "anti-knight",
            "x,anti-knight",
            "anti-king",
            "windoku",
            "x",
            "anti-king,anti-knight,non-consecutive",
        ] {
            let v = variant(rules);
            let mut want: Vec<Cells> = orders
                .iter()
                .filter(|o| {
                    let cells: Vec<usize> = (0..9).map(|r| r * 9 + o[r]).collect();
                    let apart = cells
                        .iter()
                        .enumerate()
                        .all(|(i, &a)| cells[i + 1..].iter().all(|&b| v.peers[a] >> b & 1 == 0));
                    let mask = cells.iter().fold(0u128, |m, &c| m | 1 << c);
                    apart
                        && v.houses[..v.n_houses]
                            .iter()
                            .all(|&h| (h & mask).count_ones() == 1)
                })
                .map(|o| split((0..9).fold(0u128, |m, r| m | 1 << (r * 9 + o[r]))))
                .collect();
            let mut got = whole_placements(&v, usize::MAX).unwrap();
            want.sort_unstable();
            got.sort_unstable();
            assert!(!got.is_empty(), "{rules}");
            assert_eq!(got, want, "{rules}");
            assert!(whole_placements(&v, got.len() - 1).is_none(), "{rules}");
            assert_eq!(
                whole_placements(&v, got.len()).map(|p| p.len()),
                Some(got.len())
            );
        }
    }

    /// What filtering should leave: per digit, the cells of the placements inside
    /// its candidates, or `None` when a digit has none.
    fn reference(all: &[Cells], cand: &[u32; 27]) -> Option<[u32; 27]> {
        let mut out = [0u32; 27];
        for d in 0..9 {
            let c = &cand[d * 3..d * 3 + 3];
            let open: Vec<&Cells> = all
                .iter()
                .filter(|p| (0..3).all(|b| p[b] & !c[b] == 0))
                .collect();
            if open.is_empty() {
                return None;
            }
            for p in open {
                for b in 0..3 {
                    out[d * 3 + b] |= p[b];
                }
            }
        }
        Some(out)
    }

    /// Take each candidate with probability `drop` / 64, but never a cell of `keep`'s
    /// digit there (when given).
    fn thin(cand: &mut [u32; 27], rng: &mut Rng, drop: u64, keep: Option<&Grid>) {
        for c in 0..81 {
            for d in 0..9 {
                let kept = keep.is_some_and(|g| usize::from(g.get(c)) == d + 1);
                if !kept && rng.below(64) < drop {
                    cand[d * 3 + c / 27] &= !(1 << (c % 27));
                }
            }
        }
    }

    /// Along a made-up search path (fresh levels on top of each other, refiltering a
    /// level in place, going back to an earlier level and down another way), each
    /// filter leaves exactly the candidates on an open placement of their digit and
    /// finds a digit without one dead; a solution's cells always stay.
    #[test]
    fn filtering_keeps_exactly_the_candidates_on_an_open_placement() {
        let mut rng = Rng::new(29);
        for rules in ["anti-knight", "x,anti-knight", "anti-king,anti-knight"] {
            let v = variant(rules);
            let all = whole_placements(&v, usize::MAX).unwrap();
            let mut frames = Frames::new(&v, all.clone());
            let (mut removed, mut dead) = (0, 0);
            for round in 0..60 {
                let sol = random_solution(&v, &mut rng).unwrap();
                // Half of the paths keep the solution; the others may lose it.
                let keep = (round % 2 == 0).then_some(&sol);
                let mut cand = [(1u32 << 27) - 1; 27];
                let mut path: Vec<([u32; 27], u16)> = Vec::new();
                let mut level = 0u16;
                for step in 0..8 {
                    thin(&mut cand, &mut rng, 4 + step, keep);
                    // Going back now and then: to a position earlier on the path,
                    // filtered again from its level.
                    if step % 3 == 2 && !path.is_empty() {
                        let back = rng.below(path.len() as u64) as usize;
                        path.truncate(back + 1);
                        (cand, level) = path[back];
                        thin(&mut cand, &mut rng, 2, keep);
                    }
                    // Fresh, then once more in place after a few more removals.
                    for fresh in [true, false] {
                        if !fresh {
                            thin(&mut cand, &mut rng, 1, keep);
                        }
                        let before = cand;
                        let want = reference(&all, &cand);
                        let (at, found) = frames.filter(&mut cand, level, fresh);
                        match (found, want) {
                            (Filtered::Dead, None) => dead += 1,
                            (Filtered::Removed(slots), Some(want)) => {
                                assert_eq!(cand, want, "{rules} round {round} step {step}");
                                for (k, (&a, &b)) in before.iter().zip(&cand).enumerate() {
                                    assert_eq!(slots >> k & 1 == 1, a != b, "{rules} slot {k}");
                                    removed += (a ^ b).count_ones();
                                }
                            }
                            (Filtered::Dead, Some(_)) => panic!("{rules}: dead with placements"),
                            (Filtered::Removed(_), None) => panic!("{rules}: alive without"),
                        }
                        if let Some(sol) = keep {
                            for c in 0..81 {
                                let d = usize::from(sol.get(c)) - 1;
                                assert_ne!(cand[d * 3 + c / 27] >> (c % 27) & 1, 0, "{rules}");
                            }
                        }
                        level = at;
                    }
                    if reference(&all, &cand).is_none() {
                        break;
                    }
                    path.push((cand, level));
                }
            }
            assert!(
                removed > 0 && dead > 0,
                "{rules}: removed {removed}, dead {dead}"
            );
        }
    }
}
