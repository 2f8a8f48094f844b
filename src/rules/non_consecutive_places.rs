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
//!
//! The same rules on the vector search's words: [`vector_rules`].

use super::bands::spread;
use super::xlanes::{spread_lanes, Words};

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

// In the vector search ([`super::xlanes`]): the same rules on all 27 (band, digit)
// words at once, from the words a round starts with, by shifts within each word and
// the [`Words`] moves between bands and digits. Every rule is a deduction from the
// words it reads, so the removals of all of them go together at the end of a round.

/// The cells in columns 0, 3 and 6 (a box's first column), 1, 4 and 7, and 2, 5 and 8.
const BOX_COL: [u32; 3] = [spread(0o111), spread(0o222), spread(0o444)];

/// Per cell, how many of some places it counts: at least one (`one`) and at least two
/// (`two`), as two words.
#[derive(Clone, Copy)]
struct Count<W> {
    one: W,
    two: W,
}

impl<W: Words> Count<W> {
    /// The places of `x`, one per cell.
    #[inline(always)]
    fn of(x: W) -> Self {
        Count {
            one: x,
            two: W::splat(0),
        }
    }

    /// The counts of two disjoint sets of places, added.
    #[inline(always)]
    fn plus(self, o: Self) -> Self {
        Count {
            one: self.one.or(o.one),
            two: self.two.or(o.two).or(self.one.and(o.one)),
        }
    }

    /// Each count `N` bits up, kept to `m`.
    #[inline(always)]
    fn up<const N: u32>(self, m: u32) -> Self {
        let m = W::splat(m);
        Count {
            one: self.one.shl::<N>().and(m),
            two: self.two.shl::<N>().and(m),
        }
    }

    /// Each count `N` bits down, kept to `m`.
    #[inline(always)]
    fn down<const N: u32>(self, m: u32) -> Self {
        let m = W::splat(m);
        Count {
            one: self.one.shr::<N>().and(m),
            two: self.two.shr::<N>().and(m),
        }
    }

    /// Nine-bit column counts in every row of a band.
    #[inline(always)]
    fn spread(self) -> Self {
        Count {
            one: spread_lanes(self.one),
            two: spread_lanes(self.two),
        }
    }
}

/// The places of the three rows of `x` counted per column (nine bits).
#[inline(always)]
fn by_column<W: Words>(x: W) -> Count<W> {
    let row = W::splat(0x1FF);
    let (r0, r1, r2) = (x.and(row), x.shr::<9>().and(row), x.shr::<18>().and(row));
    Count::of(r0).plus(Count::of(r1)).plus(Count::of(r2))
}

/// Per cell, the places of `x` in its row two or more columns away.
#[inline(always)]
fn far_in_row<W: Words>(x: W) -> Count<W> {
    // Places at the cell's column or before it, and at it or after it: windows of one
    // column doubled four times (each the last window and the one before it, which
    // are disjoint), kept within the row.
    let mut left = Count::of(x);
    left = left.plus(left.up::<1>(spread(0x1FE)));
    left = left.plus(left.up::<2>(spread(0x1FC)));
    left = left.plus(left.up::<4>(spread(0x1F0)));
    left = left.plus(left.up::<8>(spread(0x100)));
    let mut right = Count::of(x);
    right = right.plus(right.down::<1>(spread(0x0FF)));
    right = right.plus(right.down::<2>(spread(0x07F)));
    right = right.plus(right.down::<4>(spread(0x01F)));
    right = right.plus(right.down::<8>(spread(0x001)));
    // Those two columns before the cell and two after it.
    left.up::<2>(spread(0x1FC))
        .plus(right.down::<2>(spread(0x07F)))
}

/// Per cell, the places of `x` in its column two or more rows away (`x` each slot's
/// word; the digit's other bands come from the neighbouring slots).
#[inline(always)]
fn far_in_column<W: Words>(x: W) -> Count<W> {
    let band = W::splat(BAND);
    let row = W::splat(0x1FF);
    // In the band: row 0 for row 2 and row 2 for row 0.
    let own = Count::of(x.shl::<18>().or(x.shr::<18>()).and(band));
    let (above, below) = (x.band_above(), x.band_below());
    // The band above: its rows 0 and 1 for every row, its row 2 for rows 1 and 2.
    let a01 = by_column(above.and(W::splat(0x3FFFF)));
    let a2 = above.shr::<18>();
    // The band below: its rows 1 and 2 for every row, its row 0 for rows 0 and 1.
    let b12 = by_column(below.andn(row));
    let b0 = below.and(row);
    // Two bands away: every row.
    let two = by_column(x.two_bands_away());
    own.plus(a01.plus(b12).plus(two).spread())
        .plus(Count::of(a2.shl::<9>().or(a2.shl::<18>())))
        .plus(Count::of(b0.or(b0.shl::<9>())))
}

/// Per cell, the places of `y` in its row of its box, in the other two columns there.
#[inline(always)]
fn box_row_others<W: Words>(y: W) -> Count<W> {
    let [c0, c1, c2] = BOX_COL.map(W::splat);
    let one = y
        .shl::<1>()
        .and(c1.or(c2))
        .or(y.shr::<1>().and(c0.or(c1)))
        .or(y.shl::<2>().and(c2))
        .or(y.shr::<2>().and(c0));
    let two = y
        .shr::<1>()
        .and(y.shr::<2>())
        .and(c0)
        .or(y.shl::<1>().and(y.shr::<1>()).and(c1))
        .or(y.shl::<1>().and(y.shl::<2>()).and(c2));
    Count { one, two }
}

/// Per cell, the places of `x` in its box that are not the cell or orthogonally next
/// to it: two columns away in its row, in another column of a row next to it, and
/// anywhere in the row two away.
#[inline(always)]
fn far_in_box<W: Words>(x: W) -> Count<W> {
    let band = W::splat(BAND);
    let [c0, _, c2] = BOX_COL.map(W::splat);
    let beside = x.shl::<2>().and(c2).or(x.shr::<2>().and(c0));
    // Row 0 for row 2 and row 2 for row 0 (one each), all three columns.
    let two_away = x.shl::<18>().or(x.shr::<18>()).and(band);
    let far_row = box_row_others(two_away).plus(Count::of(two_away));
    Count::of(beside)
        .plus(box_row_others(x.shl::<9>().and(band)))
        .plus(box_row_others(x.shr::<9>()))
        .plus(far_row)
}

/// The cells orthogonally next to a cell of `m`, in each slot's band (the rows next to
/// a band from the bands above and below).
#[inline(always)]
fn orthogonal<W: Words>(m: W) -> W {
    m.shl::<1>()
        .and(W::splat(spread(0x1FE)))
        .or(m.shr::<1>().and(W::splat(spread(0x0FF))))
        .or(m.shl::<9>().and(W::splat(BAND)))
        .or(m.shr::<9>())
        .or(m.band_above().shr::<18>())
        .or(m.band_below().and(W::splat(0x1FF)).shl::<18>())
}

/// What non-consecutive takes from the words `x` of a position (each slot's word
/// of (band, digit)), by the rules the box-band engine runs one digit at a time:
///
/// - arc consistency: a cell whose candidates all lie in `d - 1 ..= d + 1` (one placed
///   with `d` or `d ± 1` among them) takes `d` from its orthogonal neighbours;
/// - near places: a cell next to or at every place left for `d` in one of its houses
///   loses `d ± 1` ([`State::near_places`](super::bands));
/// - between: a cell with at most one place of `d - 1` and `d + 1` together outside
///   itself and its neighbours in one of its houses loses `d` ([`between`]).
#[inline(always)]
pub(super) fn vector_rules<W: Words>(x: W) -> W {
    let band = W::splat(BAND);
    // Arc consistency: per slot, the cells with a candidate of a digit two or more
    // below, or two or more above (prefix ORs over the digits).
    let mut low = x.or(x.lower_digit::<1>());
    low = low.or(low.lower_digit::<2>());
    low = low.or(low.lower_digit::<4>());
    low = low.or(low.lower_digit::<8>());
    let mut high = x.or(x.higher_digit::<1>());
    high = high.or(high.higher_digit::<2>());
    high = high.or(high.higher_digit::<4>());
    high = high.or(high.higher_digit::<8>());
    let tight = band.andn(low.lower_digit::<2>().or(high.higher_digit::<2>()));
    let mut gone = orthogonal(tight);
    // Near places.
    let far = far_in_row(x)
        .one
        .and(far_in_column(x).one)
        .and(far_in_box(x).one);
    let near = band.andn(far);
    gone = gone
        .or(near.lower_digit::<1>())
        .or(near.higher_digit::<1>());
    // Between: the places of the digits on either side, for the digits with both.
    let (below, above) = (x.lower_digit::<1>(), x.higher_digit::<1>());
    let around = below.or(above);
    let far2 = far_in_row(around)
        .two
        .and(far_in_column(around).two)
        .and(far_in_box(around).two);
    let both = band.lower_digit::<1>().and(band.higher_digit::<1>());
    gone.or(both.andn(far2))
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

    /// What [`vector_rules`] takes from candidate words `cand` (`[band][digit]`), by
    /// the rules' definitions written out cell by cell: per (band, digit), the cells
    /// that lose the digit.
    #[allow(clippy::needless_range_loop)]
    fn rules_by_definition(cand: &[[u32; 9]; 3]) -> [[u32; 9]; 3] {
        let has = |c: usize, d: usize| cand[c / 27][d] >> (c % 27) & 1 != 0;
        let close = |a: usize, b: usize| {
            let (ra, ca, rb, cb) = (a / 9, a % 9, b / 9, b % 9);
            ra.abs_diff(rb) + ca.abs_diff(cb) <= 1
        };
        let houses_of = |c: usize| (0..27).filter(move |&h| house(h).contains(&c));
        let mut gone = [[0u32; 9]; 3];
        for c in 0..81 {
            for d in 0..9 {
                // Arc consistency: a neighbour with every candidate in d-1..=d+1.
                let tight = (0..81).any(|n| {
                    n != c && close(c, n) && (0..9).all(|e| !has(n, e) || e.abs_diff(d) <= 1)
                });
                // Near places: every place of d - 1 or of d + 1 in some house of c at c
                // or next to it.
                let near = [d.wrapping_sub(1), d + 1].iter().any(|&e| {
                    e < 9
                        && houses_of(c).any(|h| house(h).iter().all(|&x| !has(x, e) || close(c, x)))
                });
                // Between: at most one place of d - 1 and d + 1 together in some house
                // of c away from c and its neighbours.
                let between = (1..8).contains(&d)
                    && houses_of(c).any(|h| {
                        house(h)
                            .iter()
                            .filter(|&&x| (has(x, d - 1) || has(x, d + 1)) && !close(c, x))
                            .count()
                            <= 1
                    });
                if tight || near || between {
                    gone[c / 27][d] |= 1 << (c % 27);
                }
            }
        }
        gone
    }

    /// [`vector_rules`] on every layout of the vector search's words takes what the
    /// rules' definitions take, on random candidate grids from sparse to dense.
    #[test]
    fn vector_rules_take_what_the_definitions_take() {
        use super::super::xlanes::{Packed, Plain};
        let mut rng = Rng::new(23);
        let mut taken = 0;
        for round in 0..400 {
            let density = 4 + round % 13;
            let mut cand = [[0u32; 9]; 3];
            for c in 0..81 {
                for word in &mut cand[c / 27] {
                    if rng.below(16) < density {
                        *word |= 1 << (c % 27);
                    }
                }
            }
            let want = rules_by_definition(&cand);
            let plain = vector_rules(Packed::<Plain>::from_words(&cand)).to_words();
            assert_eq!(plain, want, "plain lanes {cand:x?}");
            #[cfg(target_arch = "x86_64")]
            {
                use super::super::xlanes::{avx2, avx512};
                if avx2::available() {
                    let got = vector_rules(avx2::Banded::from_words(&cand)).to_words();
                    assert_eq!(got, want, "avx2 {cand:x?}");
                }
                if avx512::available() {
                    let got = vector_rules(Packed::<avx512::Avx512>::from_words(&cand)).to_words();
                    assert_eq!(got, want, "avx-512 {cand:x?}");
                }
            }
            taken += want.iter().flatten().map(|w| w.count_ones()).sum::<u32>();
        }
        assert!(taken > 10_000, "{taken}");
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
