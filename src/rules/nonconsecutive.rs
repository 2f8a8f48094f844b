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
//!
//! With anti-king as well, the orthogonal neighbours of a cell: [`crowded`].

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

/// The 27 cells of a band.
const BAND: u32 = (1 << 27) - 1;
/// Cells with a left neighbour (column > 0) and with a right one (column < 8), in
/// every row of a band.
const HAS_LEFT: u32 = BAND & !(1 | 1 << 9 | 1 << 18);
const HAS_RIGHT: u32 = BAND & !(1 << 8 | 1 << 17 | 1 << 26);
/// Per band: the cells with a neighbour above (row > 0) and below (row < 8).
const HAS_UP: [u32; 3] = [BAND & !0x1FF, BAND, BAND];
const HAS_DOWN: [u32; 3] = [BAND, BAND, BAND & !(0x1FF << 18)];

/// Under non-consecutive and anti-king together: a cell holding `d` has orthogonal
/// neighbours that all hold different digits (left and right share a row, up and down
/// a column, and a horizontal and a vertical neighbour are a king's move apart), none
/// of them `d - 1`, `d` or `d + 1`. So a cell whose neighbours (two in a corner of the
/// grid, three on an edge, four inside) offer fewer digits outside `d - 1 ..= d + 1`
/// together than there are neighbours cannot hold `d`. (Hall's condition on the whole
/// neighbourhood; one neighbour with no such digit is the arc consistency of
/// [`super::bands`].) On 30 generated anti-king,anti-knight,non-consecutive puzzles it
/// halves the guesses (77.5 a puzzle to 39.2). Under non-consecutive alone two
/// neighbours may hold the same digit (diagonal ones in different boxes); the same
/// count over the pairs and the box neighbours that must differ there cut the guesses
/// by a tenth on `data/non-consecutive_100.txt` and cost as much time as they saved.
///
/// `cand[d * 3 + band]`: each digit's band words. Returns, per digit, the cells that
/// cannot hold it (placed ones too: the caller keeps those).
#[inline(always)]
pub(super) fn crowded(cand: &[u32; 27]) -> [[u32; 3]; 9] {
    let mut out = [[0u32; 3]; 9];
    for b in 0..3 {
        let (left, right, up, down) = (HAS_LEFT, HAS_RIGHT, HAS_UP[b], HAS_DOWN[b]);
        // The cells with three neighbours or more, and with four.
        let three = (left & right & (up | down)) | (up & down & (left | right));
        let four = left & right & up & down;
        // Per digit: the cells with a neighbour that may hold it.
        let offered: [u32; 9] = std::array::from_fn(|e| {
            let w = &cand[e * 3..e * 3 + 3];
            let above = if b > 0 { w[b - 1] >> 18 } else { 0 };
            let below = if b < 2 { (w[b + 1] & 0x1FF) << 18 } else { 0 };
            ((w[b] << 1) & left)
                | ((w[b] >> 1) & right)
                | ((w[b] << 9) & BAND)
                | above
                | (w[b] >> 9)
                | below
        });
        for (d, o) in out.iter_mut().enumerate() {
            // Cells offered at least one, two, three, four digits outside d - 1..=d + 1.
            let (mut one, mut two, mut three_plus, mut four_plus) = (0u32, 0u32, 0u32, 0u32);
            for (e, &x) in offered.iter().enumerate() {
                if e.abs_diff(d) <= 1 {
                    continue;
                }
                four_plus |= three_plus & x;
                three_plus |= two & x;
                two |= one & x;
                one |= x;
            }
            o[b] = (BAND & !two) | (three & !three_plus) | (four & !four_plus);
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

    /// `crowded` against its definition written out cell by cell (the digits outside
    /// `d - 1 ..= d + 1` that some orthogonal neighbour may hold, fewer than the
    /// neighbours), on random candidate sets from sparse to dense.
    #[test]
    fn crowded_names_the_cells_the_definition_names() {
        let mut rng = Rng::new(17);
        let mut named = 0;
        for round in 0..1500 {
            let mut cand = [0u32; 27];
            let density = 1 + round % 15;
            for c in 0..81 {
                for d in 0..9 {
                    if rng.below(16) < density {
                        cand[d * 3 + c / 27] |= 1 << (c % 27);
                    }
                }
            }
            let has = |c: usize, e: usize| cand[e * 3 + c / 27] >> (c % 27) & 1 != 0;
            let got = crowded(&cand);
            for c in 0..81usize {
                let (r, col) = (c / 9, c % 9);
                let neighbours: Vec<usize> = (0..81)
                    .filter(|&x| r.abs_diff(x / 9) + col.abs_diff(x % 9) == 1)
                    .collect();
                for (d, g) in got.iter().enumerate() {
                    let offered = (0..9usize)
                        .filter(|&e| e.abs_diff(d) > 1 && neighbours.iter().any(|&x| has(x, e)))
                        .count();
                    let want = offered < neighbours.len();
                    assert_eq!(
                        g[c / 27] >> (c % 27) & 1 != 0,
                        want,
                        "cell {c} digit {d} {cand:x?}"
                    );
                    named += usize::from(want);
                }
            }
        }
        assert!(named > 1000, "{named}");
    }
}
