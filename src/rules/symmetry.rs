//! Canonical forms of puzzles under the symmetries that preserve a rule set, for
//! `verify --isomorphs` with variant rules.
//!
//! Classic symmetries do not all survive variant rules (swapping two rows of a band
//! moves cells off the diagonals; relabelling digits breaks `non-consecutive`), so each
//! rule set gets its own group, found rather than listed by hand:
//!
//! - The geometric candidates are the eight symmetries of the square (turns,
//!   transposition, the anti-transpose, mirrors) combined with the 24 *mirrored*
//!   permutations applied to rows and columns alike: swap band 1 with band 3 or not,
//!   permute the rows of band 1 freely (band 3 follows in mirror image), swap rows 4
//!   and 6 or not. These are exactly the row/column permutations with or without
//!   transposition that keep the two diagonals (as a pair): 96 distinct maps.
//! - A candidate is kept for a rule set when it maps the peer relation onto itself (two
//!   cells that may not share a digit still may not), and, under `non-consecutive`,
//!   orthogonal neighbours onto orthogonal neighbours. A complete grid is valid exactly
//!   when no two peers share a digit and no two neighbours are consecutive, so every
//!   kept map takes valid grids to valid grids and puzzles to puzzles with as many
//!   solutions. For `x` all 96 survive; for `windoku` the 16 of them that keep the
//!   windows; for `anti-knight`, `anti-king` and `non-consecutive` the 8 of the square.
//! - Digits may be relabelled freely, except under `non-consecutive`, which only
//!   survives the identity and `d → 10 − d`.
//!
//! The canonical form is the smallest image (blank above every digit, row-major) over
//! the group: two puzzles share it exactly when one maps to the other by a kept
//! symmetry. It is exact for that group but not proven to be the whole symmetry group
//! of every rule set: puzzles equivalent only through a symmetry outside the 96
//! candidates are not merged. Classic rules use [`crate::canon`] (the full classic
//! group); jigsaw gets `None` (a symmetry would have to carry the regions along), and
//! callers refuse `--isomorphs` with a message.

use crate::grid::{Grid, CELLS};

use super::table::{cells, Variant};
use super::Rule;

/// Blank cells compare above every digit, as in [`crate::canon`].
const BLANK: u8 = 10;

/// How digits may be relabelled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Relabel {
    /// Any permutation of 1..=9.
    Any,
    /// Only the identity and `d → 10 − d` (non-consecutive).
    Reverse,
    /// Only the identity (a link that reversing the digits does not keep).
    Identity,
}

/// The symmetries of one (non-classic, non-jigsaw) rule set.
#[derive(Debug, Clone)]
pub struct Symmetries {
    /// `maps[i][c]` is where map `i` sends cell `c`.
    maps: Vec<[u8; CELLS]>,
    relabel: Relabel,
}

/// A map of (row, column) to (row, column).
type CellMap = fn(usize, usize) -> (usize, usize);

/// The 96 candidate maps (see the module docs), identity first.
fn candidates() -> Vec<[u8; CELLS]> {
    let mut perms: Vec<[usize; 9]> = Vec::new();
    let band_orders: [[usize; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    for swap_bands in [false, true] {
        for q in band_orders {
            for swap_middle in [false, true] {
                let mut p = [0usize; 9];
                for i in 0..3 {
                    p[i] = if swap_bands { 8 - q[i] } else { q[i] };
                    p[8 - i] = 8 - p[i];
                }
                let (a, b) = if swap_middle { (5, 3) } else { (3, 5) };
                p[3] = a;
                p[5] = b;
                p[4] = 4;
                perms.push(p);
            }
        }
    }
    // The square's eight symmetries as (row, col) -> (row, col).
    let square: [CellMap; 8] = [
        |r, c| (r, c),
        |r, c| (c, 8 - r),
        |r, c| (8 - r, 8 - c),
        |r, c| (8 - c, r),
        |r, c| (c, r),
        |r, c| (8 - c, 8 - r),
        |r, c| (r, 8 - c),
        |r, c| (8 - r, c),
    ];
    let mut maps: Vec<[u8; CELLS]> = Vec::new();
    for p in &perms {
        for s in &square {
            let map: [u8; CELLS] = std::array::from_fn(|cell| {
                let (r, c) = s(p[cell / 9], p[cell % 9]);
                (r * 9 + c) as u8
            });
            if !maps.contains(&map) {
                maps.push(map);
            }
        }
    }
    maps
}

/// The image of a cell mask under a map.
fn image(map: &[u8; CELLS], mask: u128) -> u128 {
    cells(mask).fold(0, |m, c| m | 1u128 << map[c])
}

impl Symmetries {
    /// The symmetries of `v`'s rules, or `None` for classic rules (use
    /// [`crate::canon`]) and jigsaw (not supported).
    pub fn of(v: &Variant) -> Option<Symmetries> {
        let rules = v.rules();
        if rules.is_classic() || rules.contains(Rule::Jigsaw) {
            return None;
        }
        let maps = candidates()
            .into_iter()
            .filter(|map| {
                (0..CELLS).all(|c| {
                    let to = usize::from(map[c]);
                    image(map, v.peers[c]) == v.peers[to]
                        && v.links
                            .iter()
                            .all(|(_, l)| image(map, l.near[c]) == l.near[to])
                })
            })
            .collect();
        // Digits relabel freely without links; with links, `d → 10 − d` when every
        // link's bans are the same read backwards (non-consecutive's are), else not.
        let reversed = |ban: u16| (0..9).fold(0u16, |m, e| m | (ban >> e & 1) << (8 - e));
        let relabel = if v.links.is_empty() {
            Relabel::Any
        } else if v
            .links
            .iter()
            .all(|(_, l)| (1..=9).all(|d| l.ban[10 - d] == reversed(l.ban[d])))
        {
            Relabel::Reverse
        } else {
            Relabel::Identity
        };
        Some(Symmetries { maps, relabel })
    }

    /// Number of geometric maps in the group (relabellings not counted).
    pub fn len(&self) -> usize {
        self.maps.len()
    }

    /// Always false: the identity is in every group.
    pub fn is_empty(&self) -> bool {
        self.maps.is_empty()
    }

    /// Where geometric map `i` sends `grid` (no relabelling).
    pub fn apply(&self, i: usize, grid: &Grid) -> Grid {
        let mut out = [0u8; CELLS];
        for (c, &to) in self.maps[i].iter().enumerate() {
            out[usize::from(to)] = grid.get(c);
        }
        Grid::from_cells(out).expect("cells move, values stay")
    }

    /// `grid` with digits relabelled the way the rules allow: `d → 10 − d` when
    /// `reverse`, which every rule set allows, and nothing else.
    pub fn reverse_digits(grid: &Grid) -> Grid {
        let cells = grid.cells().map(|d| if d == 0 { 0 } else { 10 - d });
        Grid::from_cells(cells).expect("digits stay 1..=9")
    }

    /// The canonical form of `grid` under this group.
    pub fn canonical(&self, grid: &Grid) -> Grid {
        let mut best = [BLANK + 1; CELLS];
        for i in 0..self.maps.len() {
            let img = self.apply(i, grid);
            let labelled = match self.relabel {
                Relabel::Any => [relabel_first_seen(&img), [BLANK + 1; CELLS]],
                Relabel::Identity => [blank_high(&img), [BLANK + 1; CELLS]],
                Relabel::Reverse => [
                    blank_high(&img),
                    blank_high(&Symmetries::reverse_digits(&img)),
                ],
            };
            for l in labelled {
                if l < best {
                    best = l;
                }
            }
        }
        let cells = best.map(|v| if v == BLANK { 0 } else { v });
        Grid::from_cells(cells).expect("labels are 1..=9")
    }
}

/// Cells with blanks as [`BLANK`], for comparing.
fn blank_high(grid: &Grid) -> [u8; CELLS] {
    grid.cells().map(|d| if d == 0 { BLANK } else { d })
}

/// Digits renamed 1, 2, ... in order of first appearance (row-major), blanks high.
fn relabel_first_seen(grid: &Grid) -> [u8; CELLS] {
    let mut name = [0u8; 10];
    let mut next = 1;
    grid.cells().map(|d| {
        if d == 0 {
            return BLANK;
        }
        let n = &mut name[usize::from(d)];
        if *n == 0 {
            *n = next;
            next += 1;
        }
        *n
    })
}

/// The canonical form of `grid` under the symmetries of `v`'s rules: classic rules use
/// [`crate::canon::canonical`]; jigsaw gives `None` (no isomorph check for it).
pub fn canonical(v: &Variant, grid: &Grid) -> Option<Grid> {
    if v.rules().is_classic() {
        return Some(crate::canon::canonical(grid));
    }
    Symmetries::of(v).map(|s| s.canonical(grid))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::Rng;
    use crate::rules::{random_solution, RuleSet};

    #[test]
    fn group_sizes() {
        assert_eq!(candidates().len(), 96);
        let size = |rules: &str| {
            let v = Variant::new(rules.parse().unwrap(), None).unwrap();
            Symmetries::of(&v).map(|s| s.len())
        };
        assert_eq!(size("classic"), None);
        assert_eq!(size("x"), Some(96));
        assert_eq!(size("windoku"), Some(16));
        assert_eq!(size("anti-knight"), Some(8));
        assert_eq!(size("anti-king"), Some(8));
        assert_eq!(size("non-consecutive"), Some(8));
        assert_eq!(size("x,windoku"), Some(16));
    }

    #[test]
    fn every_kept_map_keeps_grids_valid_and_the_form_is_invariant() {
        let sets = [
            "x",
            "windoku",
            "anti-knight",
            "x,anti-king",
            "non-consecutive",
        ];
        for rules in sets {
            let rules: RuleSet = rules.parse().unwrap();
            let v = Variant::new(rules, None).unwrap();
            let sym = Symmetries::of(&v).unwrap();
            let mut rng = Rng::new(4);
            let solution = random_solution(&v, &mut rng).unwrap();
            let mut puzzle = solution;
            for c in 0..CELLS {
                if rng.below(3) != 0 {
                    puzzle.set(c, 0);
                }
            }
            let form = sym.canonical(&puzzle);
            for i in 0..sym.len() {
                let moved = sym.apply(i, &solution);
                assert!(v.is_solution(&moved), "{rules} map {i}");
                assert!(v.is_solution(&Symmetries::reverse_digits(&moved)));
                let moved_puzzle = sym.apply(i, &puzzle);
                assert_eq!(sym.canonical(&moved_puzzle), form, "{rules} map {i}");
            }
        }
    }

    #[test]
    fn non_consecutive_does_not_relabel_freely() {
        let v = Variant::new("non-consecutive".parse().unwrap(), None).unwrap();
        let mut a = Grid::EMPTY;
        a.set(0, 1);
        a.set(1, 3);
        let mut b = Grid::EMPTY;
        b.set(0, 1);
        b.set(1, 4);
        assert_ne!(canonical(&v, &a), canonical(&v, &b));
        // Under x, any relabelling is allowed, so these two are one class.
        let x = Variant::new("x".parse().unwrap(), None).unwrap();
        assert_eq!(canonical(&x, &a), canonical(&x, &b));
        let j = Variant::new(
            "jigsaw".parse().unwrap(),
            Some(&super::super::Regions::boxes()),
        )
        .unwrap();
        assert_eq!(canonical(&j, &a), None);
    }
}
