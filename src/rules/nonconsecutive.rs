//! Non-consecutive: what the places of the two digits next to a digit imply.
//!
//! Under non-consecutive, a cell holding `d` has neither `d - 1` nor `d + 1` next to it
//! (orthogonally). In every row, column and box, `d - 1` and `d + 1` take two different
//! cells. So if all the places left for `d - 1` and `d + 1` together in a house, but
//! for at most one, lie in a cell `c` or next to it, one of the two digits will sit in
//! `c` or next to it, and `c` cannot hold `d`. (With every place in `c` or next to it,
//! this is what [`super::bands`]' near-places rule finds for each digit alone; the new
//! case is one place allowed outside, which two digits cannot both use.)
//!
//! Band words as in [`super::bands`]: bit `row * 9 + column` of band `row / 3`, rows
//! 0..3 within the band. Only cells inside the house are judged.

/// A cell and its orthogonal neighbours within a row (`in_box` false: bit per column)
/// or within a 3×3 box (`in_box` true: bit `3 * row + column`).
const fn closed_neighbourhood(c: u32, in_box: bool) -> u32 {
    if !in_box {
        return ((7u32 << c) >> 1) & 0x1FF;
    }
    let (r, col) = (c / 3, c % 3);
    let mut closed = 1u32 << c;
    if r > 0 {
        closed |= 1 << (c - 3);
    }
    if r < 2 {
        closed |= 1 << (c + 3);
    }
    if col > 0 {
        closed |= 1 << (c - 1);
    }
    if col < 2 {
        closed |= 1 << (c + 1);
    }
    closed
}

/// For each set of places `p` (9 bits) in a row or a box, from `first` up (entries
/// below stay empty): the cells `c` of the house with at most `outside` of the places
/// outside `c` and its orthogonal neighbours.
pub(super) const fn near_table(in_box: bool, outside: u32, first: usize) -> [u16; 512] {
    let mut t = [0u16; 512];
    let mut p = first;
    while p < 512 {
        let mut c = 0;
        while c < 9 {
            if (p as u32 & !closed_neighbourhood(c, in_box)).count_ones() <= outside {
                t[p] |= 1 << c;
            }
            c += 1;
        }
        p += 1;
    }
    t
}

/// For the places of two digits in a row (9 bits, one per column): the cells of the
/// row with at most one place outside themselves and their two neighbours.
static ROW_NEAR_BUT_ONE: [u16; 512] = near_table(false, 1, 0);

/// For the places of two digits in a 3×3 box (bit `3 * row + column`): the cells of
/// the box with at most one place outside themselves and their orthogonal neighbours.
static BOX_NEAR_BUT_ONE: [u16; 512] = near_table(true, 1, 0);

/// The cells (three band words) that cannot hold `d`, given `around`: the places left
/// for `d - 1` and for `d + 1`, together (both digits exist: `d` is 2..=8). A cell is
/// named when, in its row, column or box, at most one of those places lies outside
/// the cell and its orthogonal neighbours.
#[inline(always)]
pub(super) fn between(around: [u32; 3]) -> [u32; 3] {
    let rows: [u32; 9] = std::array::from_fn(|j| (around[j / 3] >> (9 * (j % 3))) & 0x1FF);
    // Per column, places among rows 0..=j: at least one, at least two; and the same
    // among rows j..=8.
    let (mut up1, mut up2, mut down1, mut down2) = ([0u32; 9], [0u32; 9], [0u32; 9], [0u32; 9]);
    let (mut one, mut two) = (0, 0);
    for j in 0..9 {
        two |= one & rows[j];
        one |= rows[j];
        up1[j] = one;
        up2[j] = two;
    }
    let (mut one, mut two) = (0, 0);
    for j in (0..9).rev() {
        two |= one & rows[j];
        one |= rows[j];
        down1[j] = one;
        down2[j] = two;
    }
    let mut out = [0u32; 3];
    for j in 0..9 {
        // Columns: places two rows or more away, above and below.
        let (a1, a2) = if j >= 2 {
            (up1[j - 2], up2[j - 2])
        } else {
            (0, 0)
        };
        let (b1, b2) = if j + 2 < 9 {
            (down1[j + 2], down2[j + 2])
        } else {
            (0, 0)
        };
        let far_two = a2 | b2 | (a1 & b1);
        let m = u32::from(ROW_NEAR_BUT_ONE[rows[j] as usize]) | (0x1FF & !far_two);
        out[j / 3] |= m << (9 * (j % 3));
    }
    for b in 0..3 {
        for j in 0..3 {
            let x = around[b] >> (3 * j);
            let pattern = (x & 7) | ((x >> 9) & 7) << 3 | ((x >> 18) & 7) << 6;
            let m = u32::from(BOX_NEAR_BUT_ONE[pattern as usize]);
            out[b] |= ((m & 7) | ((m >> 3) & 7) << 9 | ((m >> 6) & 7) << 18) << (3 * j);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::Rng;

    /// The cells of `house` (rows 0-8, columns 9-17, boxes 18-26), as cell numbers.
    fn house(h: usize) -> Vec<usize> {
        (0..81)
            .filter(|&c| {
                let (r, col) = (c / 9, c % 9);
                match h {
                    0..=8 => r == h,
                    9..=17 => col == h - 9,
                    _ => (r / 3) * 3 + col / 3 == h - 18,
                }
            })
            .collect()
    }

    /// `between` against its definition written out cell by cell, on random place
    /// sets from sparse to dense.
    #[test]
    fn between_names_the_cells_the_definition_names() {
        let mut rng = Rng::new(5);
        let mut named = 0;
        for round in 0..3000 {
            let mut places = [0u32; 3];
            let density = 1 + round % 8;
            for c in 0..81 {
                if rng.below(16) < density {
                    places[c / 27] |= 1 << (c % 27);
                }
            }
            let has = |c: usize| places[c / 27] >> (c % 27) & 1 != 0;
            let near = |a: usize, b: usize| {
                let (ra, ca, rb, cb) = (a / 9, a % 9, b / 9, b % 9);
                ra.abs_diff(rb) + ca.abs_diff(cb) <= 1
            };
            let got = between(places);
            for c in 0..81 {
                let want = (0..27).any(|h| {
                    let cells = house(h);
                    cells.contains(&c)
                        && cells.iter().filter(|&&x| has(x) && !near(c, x)).count() <= 1
                });
                assert_eq!(
                    got[c / 27] >> (c % 27) & 1 != 0,
                    want,
                    "cell {c} {places:x?}"
                );
                named += usize::from(want);
            }
        }
        assert!(named > 0);
    }
}
