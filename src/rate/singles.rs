//! Singles and the "direct" techniques that end in a single: full house, hidden and
//! naked singles, direct pointing/claiming and direct hidden pairs/triplets.
//!
//! Scan orders follow Sudoku Explainer's (boxes, then columns, then rows; digits
//! ascending), because the first hint found is the one applied and the path, hence
//! the rating, can depend on it.

use super::board::{bits, Board, Cells, HOUSES};
use super::hint::Hint;
use super::memory::NoHint;

/// Houses in Sudoku Explainer's region order: boxes, columns, rows.
pub const SE_ORDER: [usize; 27] = {
    let mut o = [0usize; 27];
    let mut i = 0;
    while i < 9 {
        o[i] = i;
        o[9 + i] = 18 + i;
        o[18 + i] = 9 + i;
        i += 1;
    }
    o
};

/// Full house (1.0), then hidden single in a box (1.2) or a line (1.5).
pub fn hidden_single(b: &Board) -> Option<Hint> {
    use super::board::HOUSE_MASK;
    for &h in &SE_ORDER {
        if b.empty_count(h) != 1 {
            continue;
        }
        let cell = (b.empty & HOUSE_MASK[h]).trailing_zeros() as usize;
        let m = b.cand[cell];
        if m != 0 {
            return Some(Hint::placing(
                "Hidden Single",
                10,
                cell,
                m.trailing_zeros() as u8 + 1,
            ));
        }
    }
    // The digits with one place in a house, from its nine cells' candidates in one pass
    // (placed cells have none). A house with one empty cell has none here: the pass
    // above took its cell's lowest candidate, or the cell has no candidate.
    for &h in &SE_ORDER {
        let (mut once, mut twice) = (0u16, 0u16);
        for &c in &HOUSES[h] {
            let m = b.cand[c as usize];
            twice |= once & m;
            once |= m;
        }
        let single = once & !twice;
        if single != 0 {
            let di = single.trailing_zeros() as usize;
            let cell = (b.digit[di] & HOUSE_MASK[h]).trailing_zeros() as usize;
            let diff = if h < 9 { 12 } else { 15 };
            return Some(Hint::placing("Hidden Single", diff, cell, di as u8 + 1));
        }
    }
    None
}

/// Naked single (2.3), cells in reading order.
pub fn naked_single(b: &Board) -> Option<Hint> {
    for c in 0..81 {
        let m = b.cand[c];
        if m != 0 && m & (m - 1) == 0 {
            return Some(Hint::placing(
                "Naked Single",
                23,
                c,
                m.trailing_zeros() as u8 + 1,
            ));
        }
    }
    None
}

/// The (house type 1, house type 2) pairs Sudoku Explainer's intersections scan, in
/// its order: box-column, box-row, column-box, row-box. Type bases: box 0, row 9, col 18.
pub(super) const LOCK_PAIRS: [(usize, usize); 4] = [(0, 18), (0, 9), (18, 0), (9, 0)];

fn crosses(h1: usize, h2: usize) -> bool {
    super::board::HOUSE_MASK[h1] & super::board::HOUSE_MASK[h2] != 0
}

/// For direct and plain locking (index `direct as usize`), each digit's positions on
/// the last position where the scan ran to the end without a hint (locking reads only
/// its digit's positions): while they stay the same, the digit has none and is
/// skipped.
#[derive(Debug, Clone, Default)]
pub struct NoLocking(NoHint<Cells, 2>);

impl NoLocking {
    /// Whether digit `d` (0-based) of positions `dm` is remembered as having no
    /// (direct, if `direct`) locking.
    #[cfg(test)]
    pub fn remembers(&self, direct: bool, d: usize, dm: Cells) -> bool {
        self.0.knows(direct as usize, d, dm)
    }
}

/// Pointing (2.6) and claiming (2.8); with `direct`, only those whose eliminations
/// leave a hidden single in a third house (direct pointing 1.7, direct claiming 1.9),
/// which is then placed. Digits remembered in `none` are skipped (a digit without
/// any leaves the first hint of the scan).
pub fn locking(b: &Board, direct: bool, none: &mut NoLocking) -> Option<Hint> {
    use super::board::{CELL_HOUSES, HOUSE_MASK};
    let (none, form) = (&mut none.0, direct as usize);
    for &(t1, t2) in &LOCK_PAIRS {
        for d in 1..=9u8 {
            let dm = b.digit[(d - 1) as usize];
            if none.knows(form, (d - 1) as usize, dm) {
                continue;
            }
            for i1 in 0..9 {
                let r1 = t1 + i1;
                let p1 = dm & HOUSE_MASK[r1];
                if p1.count_ones() < 2 {
                    continue;
                }
                // The one house of the other kind that holds all of them, if any
                // (two cells share at most one): the house of the first.
                let first = p1.trailing_zeros() as usize;
                let r2 = usize::from(CELL_HOUSES[first][t2 / 9]);
                if p1 & !HOUSE_MASK[r2] != 0 {
                    continue;
                }
                let removed = dm & HOUSE_MASK[r2] & !HOUSE_MASK[r1];
                if removed == 0 {
                    continue;
                }
                if !direct {
                    let (name, diff) = if t1 == 0 {
                        ("Pointing", 26)
                    } else {
                        ("Claiming", 28)
                    };
                    let mut h = Hint::new(name, diff);
                    h.elim[(d - 1) as usize] = removed;
                    return Some(h);
                }
                for i3 in 0..9 {
                    let r3 = t1 + i3;
                    if i3 == i1 || !crosses(r3, r2) {
                        continue;
                    }
                    let p3 = dm & HOUSE_MASK[r3];
                    if p3.count_ones() < 2 {
                        continue;
                    }
                    let rest = p3 & !HOUSE_MASK[r2];
                    if rest.count_ones() == 1 {
                        let (name, diff) = if t1 == 0 {
                            ("Direct Pointing", 17)
                        } else {
                            ("Direct Claiming", 19)
                        };
                        // Sudoku Explainer's direct hints only place the
                        // single; the pointing's eliminations stay on the grid.
                        let cell = rest.trailing_zeros() as usize;
                        return Some(Hint::placing(name, diff, cell, d));
                    }
                }
            }
        }
    }
    none.remember_all(form, b.digit);
    None
}

/// The `k`-subsets of the bits of `mask` (nine bits), in increasing numeric order:
/// [`combos`] restricted to `mask`, without walking the combinations that leave it
/// (the next subset of as many positions of `mask`, by Gosper's rule, each position
/// then put on its bit of `mask`, which keeps the order).
pub fn subsets_of(mask: u32, k: u32) -> impl Iterator<Item = u32> {
    let n = mask.count_ones();
    let end = 1u32 << n;
    let mut x = if k == 0 || k > n {
        end
    } else {
        (1u32 << k) - 1
    };
    std::iter::from_fn(move || {
        if x >= end {
            return None;
        }
        let (mut m, mut pos, mut set) = (mask, x, 0u32);
        while pos != 0 {
            if pos & 1 != 0 {
                set |= m & m.wrapping_neg();
            }
            pos >>= 1;
            m &= m - 1;
        }
        let low = x & x.wrapping_neg();
        let r = x + low;
        x = (((r ^ x) >> 2) / low) | r;
        Some(set)
    })
}

/// The k-subsets of 0..9 as bit masks, in increasing numeric order (Sudoku
/// Explainer's enumeration order).
pub fn combos(k: u32) -> impl Iterator<Item = u32> {
    COMBOS[k as usize].iter().copied()
}

const fn subsets<const N: usize>(k: u32) -> [u32; N] {
    let mut out = [0u32; N];
    let (mut m, mut i) = (0u32, 0);
    while m < 512 {
        if m.count_ones() == k {
            out[i] = m;
            i += 1;
        }
        m += 1;
    }
    out
}

const C1: [u32; 9] = subsets::<9>(1);
const C2: [u32; 36] = subsets::<36>(2);
const C3: [u32; 84] = subsets::<84>(3);
const C4: [u32; 126] = subsets::<126>(4);
const C5: [u32; 126] = subsets::<126>(5);
const C6: [u32; 84] = subsets::<84>(6);
const COMBOS: [&[u32]; 7] = [&[0], &C1, &C2, &C3, &C4, &C5, &C6];

/// Hidden sets of `degree` digits in one house. With `direct`, only those whose
/// eliminations leave another digit a single position in the house (direct hidden
/// pair 2.0, triplet 2.5; the single is placed); otherwise hidden pair 3.4,
/// triplet 4.0, quad 5.4.
pub fn hidden_set(b: &Board, degree: u32, direct: bool) -> Option<Hint> {
    for &h in &SE_ORDER {
        let empty = b.empty_count(h);
        let big_enough = if direct {
            empty > degree
        } else {
            empty > degree * 2
        };
        if !big_enough {
            continue;
        }
        let mut pos = [0u128; 9];
        let mut usable = 0u32;
        for di in 0..9 {
            pos[di] = b.digit[di] & super::board::HOUSE_MASK[h];
            let n = pos[di].count_ones();
            if n >= 2 && n <= degree {
                usable |= 1 << di;
            }
        }
        if usable.count_ones() < degree {
            continue;
        }
        for set in subsets_of(usable, degree) {
            let mut union = 0u128;
            for di in bits(set) {
                union |= pos[di];
            }
            if union.count_ones() != degree {
                continue;
            }
            // eliminations: the other digits in the set's cells
            let mut hint = Hint::new("", 0);
            for di in 0..9 {
                if set & (1 << di) == 0 {
                    hint.elim[di] = pos[di] & union;
                }
            }
            if !hint.removes_any(b) {
                continue;
            }
            if direct {
                for di in 0..9usize {
                    if set & (1 << di) != 0 || pos[di].count_ones() <= 1 {
                        continue;
                    }
                    let rest = pos[di] & !union;
                    if rest.count_ones() == 1 {
                        // as for direct pointing, only the single is placed
                        let cell = rest.trailing_zeros() as usize;
                        let (name, diff) = if degree == 2 {
                            ("Direct Hidden Pair", 20)
                        } else {
                            ("Direct Hidden Triplet", 25)
                        };
                        return Some(Hint::placing(name, diff, cell, di as u8 + 1));
                    }
                }
            } else {
                (hint.name, hint.difficulty) = match degree {
                    2 => ("Hidden Pair", 34),
                    3 => ("Hidden Triplet", 40),
                    _ => ("Hidden Quad", 54),
                };
                return Some(hint);
            }
        }
    }
    None
}

/// Naked pair (3.0), triplet (3.6), quad (5.0) in one house.
pub fn naked_set(b: &Board, degree: u32) -> Option<Hint> {
    for &h in &SE_ORDER {
        if b.empty_count(h) < degree * 2 {
            continue;
        }
        let mut usable = 0u32;
        for (i, &c) in HOUSES[h].iter().enumerate() {
            let n = b.cand[c as usize].count_ones();
            if n >= 2 && n <= degree {
                usable |= 1 << i;
            }
        }
        if usable.count_ones() < degree {
            continue;
        }
        for set in subsets_of(usable, degree) {
            let mut union = 0u16;
            for i in bits(set) {
                union |= b.cand[HOUSES[h][i] as usize];
            }
            if union.count_ones() != degree {
                continue;
            }
            let mut hint = Hint::new("", 0);
            let mut others = 0u128;
            for (i, &c) in HOUSES[h].iter().enumerate() {
                if set & (1 << i) == 0 {
                    others |= 1u128 << c;
                }
            }
            for di in bits(union as u32) {
                hint.elim[di] = others & b.digit[di];
            }
            if !hint.removes_any(b) {
                continue;
            }
            (hint.name, hint.difficulty) = match degree {
                2 => ("Naked Pair", 30),
                3 => ("Naked Triplet", 36),
                _ => ("Naked Quad", 50),
            };
            return Some(hint);
        }
    }
    None
}
