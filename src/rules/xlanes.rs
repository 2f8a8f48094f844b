//! The Sudoku-X engine with a band's nine digit words as the lanes of one vector.
//!
//! The words are those of the box-band engine ([`super::bands`]): the cells of a band
//! (three rows) that may hold a digit, bit `row * 9 + column`. Here band `b` is one
//! vector whose lane `d` is digit `d`'s word (lanes 9 to 15 stay empty), so the whole
//! position is three vectors, and every rule runs on all 27 words at once: rules
//! within a band are lane-wise, rules of one digit across the bands are lane-wise
//! between the three vectors, and rules across the digits of a band (a placed cell
//! leaves the other digits, naked singles) are reductions over the lanes.
//!
//! The band engine settles one word at a time, each from the words the ones before it
//! left (on x puzzles about 23 words a search position, each a chain of dependent
//! table lookups: its time is mostly waiting). Here a propagation round applies every
//! rule to every word from the position the round starts with, in this order:
//!
//! 1. Rows and boxes of each word: which (row, box) segments some matching of the
//!    band's rows to its boxes can use (the rest of the word goes), and which all of
//!    them use; a forced segment in a box with one column left is a placed cell. A
//!    box with one column left takes that column from the digit's other two bands,
//!    and a digit placed on a diagonal takes the diagonal's parts there.
//! 2. A placed cell leaves the band's other digits.
//! 3. Naked singles: a cell with one candidate leaves its digit's row (rule 1 of the
//!    next round places it: the row has one segment left, which is forced, and its
//!    box keeps one cell). A cell placed for two digits is a contradiction.
//! 4. The diagonals: pointing (a box on a diagonal whose places of a digit all lie on
//!    it takes the digit from the diagonal's parts in the other bands), claiming (a
//!    diagonal whose places all lie in one box takes the digit from the rest of that
//!    box; for a hidden single on the diagonal that leaves the box one cell, which
//!    rule 1 places), and a digit with two places left on a diagonal leaves the two
//!    cells that see both (in the row of each place and the column of the other).
//! 5. A column that only one band can supply a digit claims that band's box.
//!
//! Rounds repeat until one changes nothing; an empty word, cell, column or diagonal is
//! a contradiction. Every rule is a deduction from the position the round starts
//! with, so applying them all at once is sound; a position whose every cell has one
//! candidate and which a whole round leaves unchanged is a solution (each digit then
//! fills three cells of each band matched to rows and boxes, its boxes' columns are
//! taken from the other bands, and its diagonal cells from the other bands' parts).
//!
//! The search branches as the band engine does under the diagonals: on a digit with
//! two places left on a diagonal (both placements are tried), else on the first cell
//! with two candidates, preferring cells on a diagonal, else on a cell with the fewest.
//!
//! The rules are written once over [`Lanes`], a vector of sixteen 32-bit lanes, with
//! two implementations: AVX-512 registers, which the search uses on CPUs that have
//! AVX-512F, and plain arrays, which compute the same and serve as the reference the
//! tests compare the AVX-512 search with.

// Loops over the three bands index several per-band arrays at once.
#![allow(clippy::needless_range_loop)]
// Only AVX-512 runs the search outside the tests.
#![cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]

use crate::grid::{Grid, CELLS};

/// The 27 cells of a band.
const BAND: u32 = (1 << 27) - 1;
/// The lanes that hold digits.
const DIGITS: u16 = 0x1FF;
/// The first cell of each (row, box) segment of a band: bit `9 * row + 3 * box`.
const SEGMENTS: u32 = 0x1249249;
/// The segments of the first box in each row.
const BOX0: u32 = 1 | 1 << 9 | 1 << 18;
/// The segments of the last box in each row.
const BOX2: u32 = BOX0 << 6;
/// The three rows of a band.
const ROWS: [u32; 3] = [0x1FF, 0x1FF << 9, 0x1FF << 18];

/// The cells of the main diagonal in each band (bit `10 * row + 3 * band`) and of the
/// anti-diagonal (bit `8 * row + 8 - 3 * band`); each band's part lies in one box.
const DIAGONALS: [[u32; 3]; 2] = [
    [0x100401, 0x100401 << 3, 0x100401 << 6],
    [0x1010100, 0x1010100 >> 3, 0x1010100 >> 6],
];
/// The other six cells of the box a diagonal crosses in each band.
const DIAGONAL_BOX_REST: [[u32; 3]; 2] = [
    [
        spread(7) & !DIAGONALS[0][0],
        spread(7 << 3) & !DIAGONALS[0][1],
        spread(7 << 6) & !DIAGONALS[0][2],
    ],
    [
        spread(7 << 6) & !DIAGONALS[1][0],
        spread(7 << 3) & !DIAGONALS[1][1],
        spread(7) & !DIAGONALS[1][2],
    ],
];
/// The cells on either diagonal, per band (where the branch prefers two-candidate
/// cells).
const ON_DIAGONALS: [u32; 3] = [
    DIAGONALS[0][0] | DIAGONALS[1][0],
    DIAGONALS[0][1] | DIAGONALS[1][1],
    DIAGONALS[0][2] | DIAGONALS[1][2],
];

/// A set of columns spread over the three rows of a band.
const fn spread(cols: u32) -> u32 {
    cols | cols << 9 | cols << 18
}

/// For each cell of a band: its row and box in the band (itself included).
const ROW_BOX: [u32; 27] = {
    let mut t = [0u32; 27];
    let mut i = 0;
    while i < 27 {
        let (r, j) = (i / 9, (i % 9) / 3);
        t[i] = 0x1FF << (9 * r) | spread(7 << (3 * j));
        i += 1;
    }
    t
};

/// Sixteen 32-bit lanes; lane `d` of band `b`'s vector is digit `d`'s word there.
/// Lane masks are `u16`, bit `i` for lane `i`.
pub(crate) trait Lanes: Copy {
    /// Every lane `x`.
    fn splat(x: u32) -> Self;
    fn and(self, o: Self) -> Self;
    fn or(self, o: Self) -> Self;
    /// `self & !o`.
    fn andn(self, o: Self) -> Self;
    /// Each lane minus one (wrapping).
    fn dec(self) -> Self;
    fn shr<const N: u32>(self) -> Self;
    fn shl<const N: u32>(self) -> Self;
    /// The lanes where `self & o` is not zero.
    fn test(self, o: Self) -> u16;
    /// The lanes where `self & o` is zero.
    fn test_zero(self, o: Self) -> u16;
    /// The lanes where `self` and `o` differ.
    fn ne(self, o: Self) -> u16;
    /// Lane `i` of `a` where bit `i` of `m` is set, else of `b`.
    fn select(m: u16, a: Self, b: Self) -> Self;
    /// Every lane: the OR of all lanes.
    fn or_all(self) -> Self;
    /// Every lane: the bits set in at least one lane, and in at least two.
    fn counts(self) -> (Self, Self);
    fn to_array(self) -> [u32; 16];
    fn from_array(a: [u32; 16]) -> Self;
}

/// [`Lanes`] as a plain array: the reference implementation.
#[cfg(test)]
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Plain([u32; 16]);

#[cfg(test)]
impl Plain {
    #[inline(always)]
    fn map(self, f: impl Fn(u32) -> u32) -> Plain {
        Plain(self.0.map(f))
    }

    #[inline(always)]
    fn zip(self, o: Plain, f: impl Fn(u32, u32) -> u32) -> Plain {
        Plain(std::array::from_fn(|i| f(self.0[i], o.0[i])))
    }

    #[inline(always)]
    fn mask(self, o: Plain, f: impl Fn(u32, u32) -> bool) -> u16 {
        (0..16).fold(0, |m, i| m | u16::from(f(self.0[i], o.0[i])) << i)
    }
}

#[cfg(test)]
impl Lanes for Plain {
    #[inline(always)]
    fn splat(x: u32) -> Self {
        Plain([x; 16])
    }
    #[inline(always)]
    fn and(self, o: Self) -> Self {
        self.zip(o, |a, b| a & b)
    }
    #[inline(always)]
    fn or(self, o: Self) -> Self {
        self.zip(o, |a, b| a | b)
    }
    #[inline(always)]
    fn andn(self, o: Self) -> Self {
        self.zip(o, |a, b| a & !b)
    }
    #[inline(always)]
    fn dec(self) -> Self {
        self.map(|a| a.wrapping_sub(1))
    }
    #[inline(always)]
    fn shr<const N: u32>(self) -> Self {
        self.map(|a| a >> N)
    }
    #[inline(always)]
    fn shl<const N: u32>(self) -> Self {
        self.map(|a| a << N)
    }
    #[inline(always)]
    fn test(self, o: Self) -> u16 {
        self.mask(o, |a, b| a & b != 0)
    }
    #[inline(always)]
    fn test_zero(self, o: Self) -> u16 {
        self.mask(o, |a, b| a & b == 0)
    }
    #[inline(always)]
    fn ne(self, o: Self) -> u16 {
        self.mask(o, |a, b| a != b)
    }
    #[inline(always)]
    fn select(m: u16, a: Self, b: Self) -> Self {
        Plain(std::array::from_fn(|i| {
            if m >> i & 1 != 0 {
                a.0[i]
            } else {
                b.0[i]
            }
        }))
    }
    #[inline(always)]
    fn or_all(self) -> Self {
        Plain::splat(self.0.iter().fold(0, |m, &a| m | a))
    }
    #[inline(always)]
    fn counts(self) -> (Self, Self) {
        let (mut one, mut two) = (0, 0);
        for a in self.0 {
            two |= one & a;
            one |= a;
        }
        (Plain::splat(one), Plain::splat(two))
    }
    #[inline(always)]
    fn to_array(self) -> [u32; 16] {
        self.0
    }
    #[inline(always)]
    fn from_array(a: [u32; 16]) -> Self {
        Plain(a)
    }
}

/// [`Lanes`] as an AVX-512 register.
#[cfg(target_arch = "x86_64")]
pub(crate) mod avx512 {
    use std::arch::x86_64::*;

    use super::Lanes;

    /// An AVX-512 register. Values are made only in code that runs on CPUs with
    /// AVX-512F ([`available`]), which is what makes the `unsafe` blocks below sound.
    #[derive(Clone, Copy)]
    pub(crate) struct Avx512(__m512i);

    /// True when the CPU has what the AVX-512 search is compiled for.
    pub(crate) fn available() -> bool {
        std::arch::is_x86_feature_detected!("avx512f")
            && crate::solver::fast_bits()
            && crate::solver::bmi2()
    }

    impl Lanes for Avx512 {
        #[inline(always)]
        fn splat(x: u32) -> Self {
            // SAFETY (here and below): see the type's docs.
            unsafe { Avx512(_mm512_set1_epi32(x as i32)) }
        }
        #[inline(always)]
        fn and(self, o: Self) -> Self {
            unsafe { Avx512(_mm512_and_si512(self.0, o.0)) }
        }
        #[inline(always)]
        fn or(self, o: Self) -> Self {
            unsafe { Avx512(_mm512_or_si512(self.0, o.0)) }
        }
        #[inline(always)]
        fn andn(self, o: Self) -> Self {
            unsafe { Avx512(_mm512_andnot_si512(o.0, self.0)) }
        }
        #[inline(always)]
        fn dec(self) -> Self {
            unsafe { Avx512(_mm512_sub_epi32(self.0, _mm512_set1_epi32(1))) }
        }
        #[inline(always)]
        fn shr<const N: u32>(self) -> Self {
            unsafe { Avx512(_mm512_srli_epi32::<N>(self.0)) }
        }
        #[inline(always)]
        fn shl<const N: u32>(self) -> Self {
            unsafe { Avx512(_mm512_slli_epi32::<N>(self.0)) }
        }
        #[inline(always)]
        fn test(self, o: Self) -> u16 {
            unsafe { _mm512_test_epi32_mask(self.0, o.0) }
        }
        #[inline(always)]
        fn test_zero(self, o: Self) -> u16 {
            unsafe { _mm512_testn_epi32_mask(self.0, o.0) }
        }
        #[inline(always)]
        fn ne(self, o: Self) -> u16 {
            unsafe { _mm512_cmpneq_epi32_mask(self.0, o.0) }
        }
        #[inline(always)]
        fn select(m: u16, a: Self, b: Self) -> Self {
            unsafe { Avx512(_mm512_mask_blend_epi32(m, b.0, a.0)) }
        }
        #[inline(always)]
        fn or_all(self) -> Self {
            unsafe {
                // Lanes 0 to 2 take lanes 3 to 8, lane 0 lanes 1 and 2; lanes 9 to 15
                // are empty.
                let x = self.0;
                let x = _mm512_ternarylogic_epi32::<0xFE>(
                    x,
                    _mm512_alignr_epi32::<3>(x, x),
                    _mm512_alignr_epi32::<6>(x, x),
                );
                let x = _mm512_ternarylogic_epi32::<0xFE>(
                    x,
                    _mm512_alignr_epi32::<1>(x, x),
                    _mm512_alignr_epi32::<2>(x, x),
                );
                Avx512(_mm512_broadcastd_epi32(_mm512_castsi512_si128(x)))
            }
        }
        #[inline(always)]
        fn counts(self) -> (Self, Self) {
            unsafe {
                // As `or_all`, three lanes at a time: OR and majority.
                let x = self.0;
                let (x3, x6) = (
                    _mm512_alignr_epi32::<3>(x, x),
                    _mm512_alignr_epi32::<6>(x, x),
                );
                let one = _mm512_ternarylogic_epi32::<0xFE>(x, x3, x6);
                let two = _mm512_ternarylogic_epi32::<0xE8>(x, x3, x6);
                let (o1, o2) = (
                    _mm512_alignr_epi32::<1>(one, one),
                    _mm512_alignr_epi32::<2>(one, one),
                );
                let (t1, t2) = (
                    _mm512_alignr_epi32::<1>(two, two),
                    _mm512_alignr_epi32::<2>(two, two),
                );
                let two = _mm512_or_si512(
                    _mm512_ternarylogic_epi32::<0xFE>(two, t1, t2),
                    _mm512_ternarylogic_epi32::<0xE8>(one, o1, o2),
                );
                let one = _mm512_ternarylogic_epi32::<0xFE>(one, o1, o2);
                (
                    Avx512(_mm512_broadcastd_epi32(_mm512_castsi512_si128(one))),
                    Avx512(_mm512_broadcastd_epi32(_mm512_castsi512_si128(two))),
                )
            }
        }
        #[inline(always)]
        fn to_array(self) -> [u32; 16] {
            unsafe { std::mem::transmute::<__m512i, [u32; 16]>(self.0) }
        }
        #[inline(always)]
        fn from_array(a: [u32; 16]) -> Self {
            unsafe { Avx512(std::mem::transmute::<[u32; 16], __m512i>(a)) }
        }
    }

    /// [`super::run`] on AVX-512 registers, compiled with AVX-512F and the bit
    /// instructions of the band engine's fast search.
    ///
    /// # Safety
    ///
    /// The CPU must have them ([`available`]).
    #[target_feature(enable = "avx512f,popcnt,bmi1,bmi2,lzcnt")]
    pub(crate) unsafe fn run(
        grid: &crate::grid::Grid,
        stack: &mut Vec<super::State<Avx512>>,
        limit: u64,
        found: &mut dyn FnMut(crate::grid::Grid),
    ) -> (u64, u64) {
        super::run(grid, stack, limit, found)
    }
}

/// The columns a word has cells in.
#[inline(always)]
fn fold<L: Lanes>(x: L) -> L {
    x.or(x.shr::<9>()).or(x.shr::<18>()).and(L::splat(0x1FF))
}

/// A column set on every row of a band.
#[inline(always)]
fn spread_lanes<L: Lanes>(c: L) -> L {
    c.or(c.shl::<9>()).or(c.shl::<18>())
}

/// Segment bits (`0o111`, one per box of a row): box `j` to `j + 1`.
#[inline(always)]
fn boxes_up1<L: Lanes>(x: L) -> L {
    x.shl::<3>().or(x.shr::<6>()).and(L::splat(0o111))
}

/// Segment bits of a row: box `j` to `j + 2`.
#[inline(always)]
fn boxes_up2<L: Lanes>(x: L) -> L {
    x.shl::<6>().or(x.shr::<3>()).and(L::splat(0o111))
}

/// Segment bits of a whole band ([`SEGMENTS`]): box `j` to `j + 1` in each row.
#[inline(always)]
fn segments_up1<L: Lanes>(x: L) -> L {
    x.shl::<3>()
        .and(L::splat(SEGMENTS & !BOX0))
        .or(x.shr::<6>().and(L::splat(BOX0)))
}

/// Segment bits of a whole band: box `j` to `j + 2` in each row.
#[inline(always)]
fn segments_up2<L: Lanes>(x: L) -> L {
    x.shl::<6>()
        .and(L::splat(BOX2))
        .or(x.shr::<3>().and(L::splat(SEGMENTS & !BOX2)))
}

/// Column sets (nine bits): each column to the next in its stack.
#[inline(always)]
fn columns_up1<L: Lanes>(x: L) -> L {
    x.shl::<1>()
        .and(L::splat(0o666))
        .or(x.shr::<2>().and(L::splat(0o111)))
}

/// Column sets: each column to the one after next in its stack.
#[inline(always)]
fn columns_up2<L: Lanes>(x: L) -> L {
    x.shl::<2>()
        .and(L::splat(0o444))
        .or(x.shr::<1>().and(L::splat(0o333)))
}

/// The rows of a band that `x` has cells in, whole.
#[inline(always)]
fn row_fill<L: Lanes>(x: L) -> L {
    let zero = L::splat(0);
    let r0 = L::select(x.test(L::splat(ROWS[0])), L::splat(ROWS[0]), zero);
    let r1 = L::select(x.test(L::splat(ROWS[1])), L::splat(ROWS[1]), zero);
    let r2 = L::select(x.test(L::splat(ROWS[2])), L::splat(ROWS[2]), zero);
    r0.or(r1).or(r2)
}

/// Rule 1 on every word of a band: the word left by row/box matching, its placed
/// cells, and the columns it takes from its digit's other bands (on every row).
#[inline(always)]
fn rows_and_boxes<L: Lanes>(a: L) -> (L, L, L) {
    let s = a.or(a.shr::<1>()).or(a.shr::<2>()).and(L::splat(SEGMENTS));
    let m = L::splat(0o111);
    let (r0, r1, r2) = (s.and(m), s.shr::<9>().and(m), s.shr::<18>());
    // The matchings that send row 0 to box j, row 1 to j + 1 and row 2 to j + 2
    // (bit j of e1), and row 1 to j - 1, row 2 to j - 2 (e2).
    let e1 = r0.and(boxes_up2(r1)).and(boxes_up1(r2));
    let e2 = r0.and(boxes_up1(r1)).and(boxes_up2(r2));
    // The boxes each row can take.
    let c0 = e1.or(e2);
    let c1 = boxes_up1(e1).or(boxes_up2(e2));
    let c2 = boxes_up2(e1).or(boxes_up1(e2));
    let c = c0.or(c1.shl::<9>()).or(c2.shl::<18>());
    let a = a.and(c.or(c.shl::<1>()).or(c.shl::<2>()));
    // A row with one box left: that segment is forced.
    let forced = c.andn(segments_up1(c)).andn(segments_up2(c));
    let forced = forced.or(forced.shl::<1>()).or(forced.shl::<2>());
    let cols = fold(a);
    let single = cols.andn(columns_up1(cols)).andn(columns_up2(cols));
    let claimed = spread_lanes(single);
    (a, a.and(forced).and(claimed), claimed)
}

/// A found contradiction.
struct Dead;

/// A digit in a cell: (band, cell in the band, digit).
type Place = (usize, usize, usize);

/// A search position: band `b`'s words in `v[b]`.
#[derive(Clone, Copy)]
pub(crate) struct State<L> {
    v: [L; 3],
}

impl<L: Lanes> State<L> {
    /// The position of `grid`'s givens, not yet propagated; `None` when two givens
    /// share a row or box of one band (the rest is found by propagation).
    #[inline(always)]
    fn start(grid: &Grid) -> Option<State<L>> {
        let mut given = [[0u32; 3]; 10];
        for (cell, &digit) in grid.cells().iter().enumerate() {
            given[usize::from(digit)][cell / 27] |= 1 << (cell % 27);
        }
        let mut bad = false;
        let mut v = [[0u32; 16]; 3];
        for band in 0..3 {
            let filled = BAND & !given[0][band];
            for d in 0..9 {
                let g = given[d + 1][band];
                let mut peers = 0;
                for r in 0..3 {
                    let row = g >> (9 * r) & 0x1FF;
                    bad |= row & row.wrapping_sub(1) != 0;
                    peers |= (0x1FF << (9 * r)) & u32::from(row != 0).wrapping_neg();
                    let boxed = g & spread(7 << (3 * r));
                    bad |= boxed & boxed.wrapping_sub(1) != 0;
                    peers |= spread(7 << (3 * r)) & u32::from(boxed != 0).wrapping_neg();
                }
                v[band][d] = (BAND & !peers & !filled) | g;
            }
        }
        if bad {
            return None;
        }
        Some(State {
            v: v.map(L::from_array),
        })
    }

    /// Put digit `d` in cell `i` of band `b`: it leaves the cell's row and box there.
    #[inline(always)]
    fn assign(&mut self, b: usize, i: usize, d: usize) {
        let v = self.v[b];
        let placed = v.andn(L::splat(ROW_BOX[i])).or(L::splat(1 << i));
        self.v[b] = L::select(1 << d, placed, v);
    }

    /// Take digit `d` from cell `i` of band `b`.
    #[inline(always)]
    fn forbid(&mut self, b: usize, i: usize, d: usize) {
        let v = self.v[b];
        self.v[b] = L::select(1 << d, v.andn(L::splat(1 << i)), v);
    }

    /// One round of the rules (see the module docs). `Ok(true)` if anything changed;
    /// `solved` is set when every cell had one candidate after the naked singles.
    #[inline(always)]
    fn round(&mut self, solved: &mut bool) -> Result<bool, Dead> {
        let zero = L::splat(0);
        let old = self.v;
        // 1. Rows and boxes.
        let mut n = [zero; 3];
        let mut placed = [zero; 3];
        let mut claimed = [zero; 3];
        for b in 0..3 {
            let (a, p, c) = rows_and_boxes(old[b]);
            if a.test(a) & DIGITS != DIGITS {
                return Err(Dead);
            }
            n[b] = a;
            placed[b] = p;
            claimed[b] = c;
        }
        // Placed on a diagonal, per diagonal and band.
        let on: [[u16; 3]; 2] = std::array::from_fn(|h| {
            std::array::from_fn(|b| placed[b].test(L::splat(DIAGONALS[h][b])))
        });
        let mut any_placed = [zero; 3];
        for b in 0..3 {
            let (b1, b2) = ((b + 1) % 3, (b + 2) % 3);
            let main = L::select(on[0][b1] | on[0][b2], L::splat(DIAGONALS[0][b]), zero);
            let anti = L::select(on[1][b1] | on[1][b2], L::splat(DIAGONALS[1][b]), zero);
            // 2. Placed cells leave the band's other digits.
            any_placed[b] = placed[b].or_all();
            let others = any_placed[b].andn(placed[b]);
            n[b] = n[b]
                .andn(claimed[b1].or(claimed[b2]))
                .andn(main.or(anti))
                .andn(others);
        }
        // 3. Naked singles: the cell leaves its digit's row (the next round's rule 1
        // places it). A cell placed for two digits kept both: a contradiction.
        let mut all_single = true;
        for b in 0..3 {
            let (one, two) = n[b].counts();
            if one.ne(L::splat(BAND)) & 1 != 0 || any_placed[b].test(two) & 1 != 0 {
                return Err(Dead);
            }
            all_single &= two.test(two) & 1 == 0;
            let x = n[b].andn(two);
            n[b] = n[b].andn(row_fill(x).andn(x));
        }
        // 4. The diagonals: pointing and claiming (which also places a hidden single:
        // its box keeps it alone, and rule 1 does the rest),
        let rest_empty: [[u16; 3]; 2] = std::array::from_fn(|h| {
            std::array::from_fn(|b| n[b].test_zero(L::splat(DIAGONAL_BOX_REST[h][b])))
        });
        let parts_empty: [[u16; 3]; 2] = std::array::from_fn(|h| {
            std::array::from_fn(|b| n[b].test_zero(L::splat(DIAGONALS[h][b])))
        });
        for b in 0..3 {
            let (b1, b2) = ((b + 1) % 3, (b + 2) % 3);
            let mut gone = zero;
            for h in 0..2 {
                let pointing = rest_empty[h][b1] | rest_empty[h][b2];
                let claiming = parts_empty[h][b1] & parts_empty[h][b2];
                gone = gone
                    .or(L::select(pointing, L::splat(DIAGONALS[h][b]), zero))
                    .or(L::select(claiming, L::splat(DIAGONAL_BOX_REST[h][b]), zero));
            }
            n[b] = n[b].andn(gone);
        }
        // then two places left: the cells in the row of one and the column of the
        // other go.
        for diag in &DIAGONALS {
            let parts: [L; 3] = std::array::from_fn(|b| n[b].and(L::splat(diag[b])));
            let x = parts[0].or(parts[1]).or(parts[2]);
            if x.test(x) & DIGITS != DIGITS {
                return Err(Dead);
            }
            let rest = x.and(x.dec());
            let pair = rest.test(rest) & rest.test_zero(rest.dec());
            let cols = spread_lanes(fold(x));
            for b in 0..3 {
                let p = parts[b];
                let seen = L::select(pair, row_fill(p).and(cols).andn(p), zero);
                n[b] = n[b].andn(seen);
            }
        }
        // 5. Columns only one band can supply.
        let cols: [L; 3] = std::array::from_fn(|b| fold(n[b]));
        if cols[0].or(cols[1]).or(cols[2]).ne(L::splat(0x1FF)) & DIGITS != 0 {
            return Err(Dead);
        }
        for b in 0..3 {
            let (b1, b2) = ((b + 1) % 3, (b + 2) % 3);
            let own = cols[b].andn(cols[b1].or(cols[b2]));
            let others = columns_up1(own).or(columns_up2(own));
            if own.test(others) & DIGITS != 0 {
                return Err(Dead);
            }
            let keep = own.or(L::splat(0x1FF).andn(own.or(others)));
            n[b] = n[b].and(spread_lanes(keep));
        }
        let changed = n[0].ne(old[0]) | n[1].ne(old[1]) | n[2].ne(old[2]);
        self.v = n;
        *solved = all_single;
        Ok(changed != 0)
    }

    /// Propagate until a round changes nothing. `Ok(true)` when solved.
    #[inline(always)]
    fn propagate(&mut self) -> Result<bool, Dead> {
        let mut solved = false;
        while self.round(&mut solved)? {}
        Ok(solved)
    }

    /// What to branch on: (band, cell, digit) first, and the other side, a second
    /// placement or (`None`) "not that digit there".
    #[inline(always)]
    fn branch(&self) -> (Place, Option<Place>) {
        let w = self.v.map(L::to_array);
        // A digit with two places on a diagonal: the first, main diagonal first.
        let mut hits = 0u32;
        for d in 0..9 {
            for (h, diag) in DIAGONALS.iter().enumerate() {
                let x = (w[0][d] & diag[0]) | (w[1][d] & diag[1]) | (w[2][d] & diag[2]);
                hits |= u32::from(x.count_ones() == 2) << (2 * d + h);
            }
        }
        if hits != 0 {
            let (d, h) = (
                hits.trailing_zeros() as usize / 2,
                hits.trailing_zeros() as usize % 2,
            );
            // The two places in band order (the bands' parts use disjoint bits).
            let mut places = [(0, 0, d); 2];
            let mut n = 0;
            for b in 0..3 {
                let mut part = w[b][d] & DIAGONALS[h][b];
                while part != 0 {
                    places[n] = (b, part.trailing_zeros() as usize, d);
                    n += 1;
                    part &= part - 1;
                }
            }
            return (places[0], Some(places[1]));
        }
        // Cells with two candidates, on a diagonal first.
        let mut pairs = [0u32; 3];
        for b in 0..3 {
            let (mut one, mut two, mut three) = (0, 0, 0);
            for d in 0..9 {
                three |= two & w[b][d];
                two |= one & w[b][d];
                one |= w[b][d];
            }
            pairs[b] = two & !three;
        }
        let digits = |b: usize, i: usize| (0..9).filter(move |&d| w[b][d] >> i & 1 != 0);
        let cell = (0..3)
            .find(|&b| pairs[b] & ON_DIAGONALS[b] != 0)
            .map(|b| (b, (pairs[b] & ON_DIAGONALS[b]).trailing_zeros() as usize))
            .or_else(|| {
                (0..3)
                    .find(|&b| pairs[b] != 0)
                    .map(|b| (b, pairs[b].trailing_zeros() as usize))
            });
        if let Some((b, i)) = cell {
            let mut ds = digits(b, i);
            let (d, e) = (ds.next().expect("two"), ds.next().expect("two"));
            return ((b, i, d), Some((b, i, e)));
        }
        // Else the first cell with the fewest candidates (more than one).
        let mut best = (10, (0, 0));
        for b in 0..3 {
            for i in 0..27 {
                let n = digits(b, i).count();
                if n > 1 && n < best.0 {
                    best = (n, (b, i));
                }
            }
        }
        let (b, i) = best.1;
        let d = digits(b, i).next().expect("a candidate");
        ((b, i, d), None)
    }

    /// The grid of a solved position.
    fn grid(&self) -> Grid {
        let mut cells = [0u8; CELLS];
        for (b, v) in self.v.iter().enumerate() {
            let w = v.to_array();
            for d in 0..9 {
                let mut m = w[d];
                while m != 0 {
                    cells[b * 27 + m.trailing_zeros() as usize] = d as u8 + 1;
                    m &= m - 1;
                }
            }
        }
        Grid::from_cells(cells).expect("digits are 1..=9")
    }
}

/// The search: depth first, the other branch of each guess on `stack`. Returns
/// (solutions found up to `limit`, guesses made).
#[inline(always)]
pub(crate) fn run<L: Lanes>(
    grid: &Grid,
    stack: &mut Vec<State<L>>,
    limit: u64,
    found: &mut dyn FnMut(Grid),
) -> (u64, u64) {
    stack.clear();
    let (mut solutions, mut guesses) = (0, 0);
    let Some(mut cur) = State::<L>::start(grid) else {
        return (0, 0);
    };
    loop {
        match cur.propagate() {
            Ok(true) => {
                found(cur.grid());
                solutions += 1;
                if solutions >= limit {
                    break;
                }
            }
            Ok(false) => {
                let ((b, i, d), other) = cur.branch();
                let mut next = cur;
                match other {
                    Some((b2, i2, d2)) => next.assign(b2, i2, d2),
                    None => next.forbid(b, i, d),
                }
                stack.push(next);
                cur.assign(b, i, d);
                guesses += 1;
                continue;
            }
            Err(Dead) => {}
        }
        match stack.pop() {
            Some(next) => cur = next,
            None => break,
        }
    }
    (solutions, guesses)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::Rng;
    use crate::rules::generate::random_solution;
    use crate::rules::{generate_one, RuleSet, Variant, VariantSolver};

    /// Sudoku-X puzzles: generated minimal ones (one solution, the search's usual
    /// work) and random grids with 30 to 69 cells blanked (up to many solutions).
    fn puzzles() -> (Variant, Vec<Grid>) {
        let rules: RuleSet = "x".parse().unwrap();
        let v = Variant::new(rules, None).unwrap();
        let mut rng = Rng::new(11);
        let mut solver = VariantSolver::new();
        let mut grids: Vec<Grid> = (0..30)
            .map(|i| {
                generate_one(rules, &mut solver, &mut Rng::for_puzzle(99, i))
                    .unwrap()
                    .puzzle
            })
            .collect();
        for round in 0..40 {
            let mut puzzle = random_solution(&v, &mut rng).unwrap();
            let mut cells: Vec<usize> = (0..CELLS).collect();
            rng.shuffle(&mut cells);
            for &cell in &cells[..30 + round] {
                puzzle.set(cell, 0);
            }
            grids.push(puzzle);
        }
        (v, grids)
    }

    /// The AVX-512 search makes the same guesses and finds the same solutions, in the
    /// same order, as the same search on plain arrays.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn avx512_agrees_with_plain_lanes() {
        if !avx512::available() {
            eprintln!("no AVX-512 here: nothing to compare");
            return;
        }
        let (v, grids) = puzzles();
        let (mut wide, mut plain) = (Vec::new(), Vec::new());
        for g in &grids {
            let (mut a, mut b) = (Vec::new(), Vec::new());
            // SAFETY: checked above.
            let by_wide = unsafe { avx512::run(g, &mut wide, 50, &mut |s| a.push(s)) };
            let by_plain = run::<Plain>(g, &mut plain, 50, &mut |s| b.push(s));
            assert_eq!(by_wide, by_plain, "{g}");
            assert_eq!(a, b, "{g}");
            assert!(!a.is_empty() && a.iter().all(|s| v.solves(s, g)), "{g}");
        }
    }

    /// The search finds the same solutions as the band engine (in its own order):
    /// every one when there are fewer than the limit, else as many.
    #[test]
    fn finds_what_the_band_engine_finds() {
        let (v, grids) = puzzles();
        let mut bands = super::super::bands::Engine::new(&v);
        let mut stack = Vec::new();
        for g in &grids {
            let (mut a, mut b) = (Vec::new(), Vec::new());
            let (n, _) = run::<Plain>(g, &mut stack, 200, &mut |s| a.push(s));
            let (m, _) = bands.search_scalar(g, 200, &mut |s| b.push(s));
            assert_eq!(n, m, "{g}");
            assert!(a.iter().all(|s| v.solves(s, g)), "{g}");
            if n < 200 {
                a.sort_by_key(|s| *s.cells());
                b.sort_by_key(|s| *s.cells());
                assert_eq!(a, b, "{g}");
            }
        }
    }
}
