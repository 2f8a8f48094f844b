//! The Sudoku-X engine with all 27 digit words of a position in two vectors.
//!
//! The words are those of the box-band engine ([`super::bands`]): the cells of a band
//! (three rows) that may hold a digit, bit `row * 9 + column`. Here the word of digit
//! `d` in band `b` is slot `9b + d` of two vectors of sixteen 32-bit lanes (slots 27
//! to 31 stay empty), and every rule runs on all 27 words at once: rules within a word
//! are lane-wise; a digit's other two bands are slots 9 and 18 further on (mod 27),
//! brought to each slot by a permutation (or, for one bit a slot, by rotating a
//! 27-bit slot mask in a general register); rules across a band's nine digits (a
//! placed cell leaves the other digits, naked singles) are reductions over its slots:
//! three permutations gather each band's slots `j`, `j + 3`, `j + 6` into lanes
//! `3b + j`, three more those lanes into lane `b`, and one brings lane `b` back to the
//! band's slots. (A vector per band, lane `d` for digit `d`, left 7 of 16 lanes
//! empty and made a round a fifth more instructions; it ran at about the same speed
//! with its shorter dependency chains, 91K against 93K puzzles a second.)
//!
//! The band engine settles one word at a time, each from the words the ones before it
//! left (on x puzzles about 23 words a search position, each a chain of dependent
//! table lookups: its time is mostly waiting). Here a propagation round applies the
//! rules to every word from the position the round starts with:
//!
//! 1. Rows and boxes of each word: which (row, box) segments some matching of the
//!    band's rows to its boxes can use (the rest of the word goes), and which all of
//!    them use; a forced segment in a box with one column left is a placed cell. A
//!    box with one column left takes that column from the digit's other two bands,
//!    and a digit placed on a diagonal takes the diagonal's parts there.
//! 2. A placed cell leaves the band's other digits.
//! 3. Naked singles: a cell with one candidate leaves its digit's row (rule 1 of the
//!    next round places it: the row has one segment left, which is forced, and its
//!    box keeps one cell). A cell placed for two digits is a contradiction. Rule 2
//!    changes no other cell's count, so the cells are counted before it, and the two
//!    run side by side.
//! 4. The diagonals: pointing (a box on a diagonal whose places of a digit all lie on
//!    it takes the digit from the diagonal's parts in the other bands) and claiming (a
//!    diagonal whose places all lie in one box takes the digit from the rest of that
//!    box; for a hidden single on the diagonal that leaves the box one cell, which
//!    rule 1 places).
//! 5. A column that only one band can supply a digit claims that band's box.
//!
//! Rules 3 to 5 read the words rule 1 left (less the columns claimed from other
//! bands), and what rules 2, 4 and 5 and rule 1's diagonal claims take goes at the
//! end of the round, so that they run side by side: a round's cost is its longest
//! chain of dependent instructions as much as its instruction count (rules 4 and 5
//! after rule 3: 95K puzzles a second; beside it: 102K; and the diagonal claims at
//! the end too: 106K).
//!
//! Rounds repeat until one changes nothing; an empty word, cell or column is a
//! contradiction. Then one more rule, which seldom finds anything: a digit with two
//! places left on a diagonal leaves the two cells that see both (in the row of each
//! place and the column of the other); if it does, the rounds go on. (In every round
//! it cost a sixth of the round for the same guesses.)
//!
//! Every rule is a deduction from the position it starts with, so applying them all
//! at once is sound; a position whose every cell has one candidate and which a whole
//! round leaves unchanged is a solution (each digit then fills three cells of each
//! band matched to rows and boxes, its boxes' columns are taken from the other bands,
//! and its diagonal cells from the other bands' parts).
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
/// The slots of band 0, one per digit (lanes 0 to 8 of the first vector).
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

/// Sixteen 32-bit lanes (a position is two of them, see the module docs).
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
    /// Lane `i`: lane `idx[i] % 16` of `self`.
    fn permute(self, idx: Self) -> Self;
    /// Lane `i`: lane `idx[i] % 16` of `a` if `idx[i] % 32 < 16`, else of `b`.
    fn permute2(a: Self, idx: Self, b: Self) -> Self;
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
    fn permute(self, idx: Self) -> Self {
        Plain(idx.0.map(|i| self.0[i as usize % 16]))
    }
    #[inline(always)]
    fn permute2(a: Self, idx: Self, b: Self) -> Self {
        Plain(idx.0.map(|i| {
            let from = if i % 32 < 16 { a } else { b };
            from.0[i as usize % 16]
        }))
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
        fn permute(self, idx: Self) -> Self {
            unsafe { Avx512(_mm512_permutexvar_epi32(idx.0, self.0)) }
        }
        #[inline(always)]
        fn permute2(a: Self, idx: Self, b: Self) -> Self {
            unsafe { Avx512(_mm512_permutex2var_epi32(a.0, idx.0, b.0)) }
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

/// Bits of `a` where `m` is set, of `b` elsewhere (one ternary-logic instruction).
#[inline(always)]
fn pick<L: Lanes>(m: u32, a: L, b: L) -> L {
    let m = L::splat(m);
    a.and(m).or(b.andn(m))
}

/// Segment bits of a whole band ([`SEGMENTS`]): box `j` to `j + 1` in each row (and
/// stray bits off the segment positions, which the callers mask).
#[inline(always)]
fn segments_up1<L: Lanes>(x: L) -> L {
    pick(BOX0, x.shr::<6>(), x.shl::<3>())
}

/// Segment bits of a whole band: box `j` to `j + 2` in each row (and stray bits).
#[inline(always)]
fn segments_up2<L: Lanes>(x: L) -> L {
    pick(BOX2, x.shl::<6>(), x.shr::<3>())
}

/// Column sets (nine bits): each column to the next in its stack (and stray bits
/// above the nine).
#[inline(always)]
fn columns_up1<L: Lanes>(x: L) -> L {
    pick(0o111, x.shr::<2>(), x.shl::<1>())
}

/// Column sets: each column to the one after next in its stack (stray bits above).
#[inline(always)]
fn columns_up2<L: Lanes>(x: L) -> L {
    pick(0o444, x.shl::<2>(), x.shr::<1>())
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
    let r0 = s.and(L::splat(0o111));
    // Rows 1 and 2 with their three boxes twice (bits 0 to 8 and 9 to 17), so that
    // shifting right by 3 or 6 rotates the boxes (stray bits go with r0's mask).
    let (s9, s18) = (s.shr::<9>(), s.shr::<18>());
    let (r1, r2) = (pick(0x1FF, s9, s), pick(0x1FF, s18, s9));
    // The matchings that send row 0 to box j, row 1 to j + 1 and row 2 to j + 2
    // (bit j of e1), and row 1 to j - 1, row 2 to j - 2 (e2).
    let e1 = r0.and(r1.shr::<3>()).and(r2.shr::<6>());
    let e2 = r0.and(r1.shr::<6>()).and(r2.shr::<3>());
    // The boxes each row can take.
    let (d1, d2) = (e1.or(e1.shl::<9>()), e2.or(e2.shl::<9>()));
    let m = L::splat(0o111);
    let c0 = e1.or(e2);
    let c1 = d1.shr::<6>().or(d2.shr::<3>()).and(m);
    let c2 = d1.shr::<3>().or(d2.shr::<6>()).and(m);
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

/// The slots: slot `k = 9 * band + digit` is lane `k % 16` of vector `k / 16`; slots
/// 27 to 31 (lanes 11 to 15 of the second vector) stay empty.
const SLOTS: usize = 27;
/// The lanes of the second vector that hold slots.
const HIGH: u16 = 0x7FF;
/// All 27 slots, as a mask (bit `k` for slot `k`).
const ALL: u32 = (1 << SLOTS) - 1;

/// A per-slot constant: `f(band, digit)` in each slot, zero in the empty ones.
const fn per_slot(f: [u32; 3]) -> [[u32; 16]; 2] {
    let mut t = [[0u32; 16]; 2];
    let mut k = 0;
    while k < SLOTS {
        t[k / 16][k % 16] = f[k / 9];
        k += 1;
    }
    t
}

/// Permutation indexes (for [`Lanes::permute2`] on the two vectors, where index `k`
/// is slot `k`, or [`Lanes::permute`] on one) as a function of the output slot or lane.
const fn indexes(f: [u32; 32]) -> [[u32; 16]; 2] {
    let mut t = [[0u32; 16]; 2];
    let mut k = 0;
    while k < 32 {
        t[k / 16][k % 16] = f[k];
        k += 1;
    }
    t
}

/// The same digit's slot `9 * s` further on (mod 27): its other two bands.
const fn other_band(s: usize) -> [u32; 32] {
    let mut t = [SLOTS as u32; 32];
    let mut k = 0;
    while k < SLOTS {
        t[k] = ((k + 9 * s) % SLOTS) as u32;
        k += 1;
    }
    t
}

/// Reductions over a band's nine digits, first step: lane `3b + j` takes slot
/// `9b + j + 3s` (so `s` = 0, 1, 2 cover the band); lanes 9 to 15 an empty slot.
const fn band_step(s: usize) -> [u32; 32] {
    let mut t = [SLOTS as u32; 32];
    let mut l = 0;
    while l < 9 {
        t[l] = (9 * (l / 3) + l % 3 + 3 * s) as u32;
        l += 1;
    }
    t
}

/// Second step, on one vector: lane `b` takes lane `3b + s`; the rest lane 15 (empty).
const fn band_last(s: usize) -> [u32; 32] {
    let mut t = [15u32; 32];
    let mut b = 0;
    while b < 3 {
        t[b] = (3 * b + s) as u32;
        b += 1;
    }
    t
}

/// Back to the slots: slot `k` takes lane `k / 9` (a band's total); empty slots lane
/// 15.
const fn band_back() -> [u32; 32] {
    let mut t = [15u32; 32];
    let mut k = 0;
    while k < SLOTS {
        t[k] = (k / 9) as u32;
        k += 1;
    }
    t
}

/// The tables of [`indexes`] and [`per_slot`], built once.
struct Constants {
    other9: [[u32; 16]; 2],
    other18: [[u32; 16]; 2],
    step: [[[u32; 16]; 2]; 3],
    last: [[[u32; 16]; 2]; 3],
    back: [[u32; 16]; 2],
    diagonal: [[[u32; 16]; 2]; 2],
    box_rest: [[[u32; 16]; 2]; 2],
}

const C: Constants = Constants {
    other9: indexes(other_band(1)),
    other18: indexes(other_band(2)),
    step: [
        indexes(band_step(0)),
        indexes(band_step(1)),
        indexes(band_step(2)),
    ],
    last: [
        indexes(band_last(0)),
        indexes(band_last(1)),
        indexes(band_last(2)),
    ],
    back: indexes(band_back()),
    diagonal: [per_slot(DIAGONALS[0]), per_slot(DIAGONALS[1])],
    box_rest: [
        per_slot(DIAGONAL_BOX_REST[0]),
        per_slot(DIAGONAL_BOX_REST[1]),
    ],
};

/// Both vectors of a per-slot table.
#[inline(always)]
fn load<L: Lanes>(t: &[[u32; 16]; 2]) -> [L; 2] {
    [L::from_array(t[0]), L::from_array(t[1])]
}

/// A two-vector value with every slot taking slot `idx` of `x`.
#[inline(always)]
fn gather<L: Lanes>(x: [L; 2], idx: &[[u32; 16]; 2]) -> [L; 2] {
    let [i0, i1] = load::<L>(idx);
    [L::permute2(x[0], i0, x[1]), L::permute2(x[0], i1, x[1])]
}

/// The same digit's words in the other two bands, ORed.
#[inline(always)]
fn other_bands<L: Lanes>(x: [L; 2]) -> [L; 2] {
    let (a, b) = (gather(x, &C.other9), gather(x, &C.other18));
    [a[0].or(b[0]), a[1].or(b[1])]
}

/// A slot mask: the same digit's slot 9 further on (mod 27), and 18.
#[inline(always)]
fn rotate9(m: u32) -> u32 {
    (m >> 9 | m << 18) & ALL
}

#[inline(always)]
fn rotate18(m: u32) -> u32 {
    (m >> 18 | m << 9) & ALL
}

/// A slot mask from the two vectors' lane masks.
#[inline(always)]
fn slots(lo: u16, hi: u16) -> u32 {
    u32::from(lo) | u32::from(hi & HIGH) << 16
}

/// `x` where the slot mask `m` is set, else zero.
#[inline(always)]
fn keep<L: Lanes>(m: u32, x: [L; 2]) -> [L; 2] {
    let zero = L::splat(0);
    [
        L::select(m as u16, x[0], zero),
        L::select((m >> 16) as u16, x[1], zero),
    ]
}

/// Per band (lanes 0 to 2): the cells in at least one of its nine words, and (if
/// `two`) in at least two; the first step's lanes are left for [`band_back`].
#[inline(always)]
fn band_counts<L: Lanes>(x: [L; 2], two: bool) -> (L, L) {
    let a = gather(x, &C.step[0])[0];
    let b = gather(x, &C.step[1])[0];
    let c = gather(x, &C.step[2])[0];
    let one1 = a.or(b).or(c);
    let l: [L; 3] = std::array::from_fn(|s| L::from_array(C.last[s][0]));
    let o = [one1.permute(l[0]), one1.permute(l[1]), one1.permute(l[2])];
    let one = o[0].or(o[1]).or(o[2]);
    if !two {
        return (one, L::splat(0));
    }
    let two1 = a.and(b).or(b.and(c)).or(a.and(c));
    let t = [two1.permute(l[0]), two1.permute(l[1]), two1.permute(l[2])];
    let two = t[0]
        .or(t[1])
        .or(t[2])
        .or(o[0].and(o[1]).or(o[1].and(o[2])).or(o[0].and(o[2])));
    (one, two)
}

/// Per-band values (lanes 0 to 2) back in every slot of the band.
#[inline(always)]
fn band_back_lanes<L: Lanes>(x: L) -> [L; 2] {
    let [i0, i1] = load::<L>(&C.back);
    [x.permute(i0), x.permute(i1)]
}

/// A search position: slot `9 * band + digit` holds the digit's word in the band.
#[derive(Clone, Copy)]
pub(crate) struct State<L> {
    v: [L; 2],
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
        let mut v = [[0u32; 16]; 2];
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
                let k = 9 * band + d;
                v[k / 16][k % 16] = (BAND & !peers & !filled) | g;
            }
        }
        if bad {
            return None;
        }
        Some(State {
            v: v.map(L::from_array),
        })
    }

    /// The words, `[band][digit]`.
    #[inline(always)]
    fn words(&self) -> [[u32; 9]; 3] {
        let w = self.v.map(L::to_array);
        std::array::from_fn(|b| std::array::from_fn(|d| w[(9 * b + d) / 16][(9 * b + d) % 16]))
    }

    /// Put digit `d` in cell `i` of band `b`: it leaves the cell's row and box there.
    #[inline(always)]
    fn assign(&mut self, b: usize, i: usize, d: usize) {
        let k = 9 * b + d;
        let v = self.v[k / 16];
        let placed = v.andn(L::splat(ROW_BOX[i])).or(L::splat(1 << i));
        self.v[k / 16] = L::select(1 << (k % 16), placed, v);
    }

    /// Take digit `d` from cell `i` of band `b`.
    #[inline(always)]
    fn forbid(&mut self, b: usize, i: usize, d: usize) {
        let k = 9 * b + d;
        let v = self.v[k / 16];
        self.v[k / 16] = L::select(1 << (k % 16), v.andn(L::splat(1 << i)), v);
    }

    /// One round of rules 1 to 5 (see the module docs), except the diagonal pairs.
    /// `Ok(true)` if anything changed; `solved` is set when every cell had one
    /// candidate after the naked singles.
    #[inline(always)]
    fn round(&mut self, solved: &mut bool) -> Result<bool, Dead> {
        let old = self.v;
        // 1. Rows and boxes, word by word.
        let (a0, p0, c0) = rows_and_boxes(old[0]);
        let (a1, p1, c1) = rows_and_boxes(old[1]);
        if a0.test(a0) != 0xFFFF || a1.test(a1) & HIGH != HIGH {
            return Err(Dead);
        }
        let placed = [p0, p1];
        // Columns claimed by the digit's other bands go now; its diagonals where it
        // is placed in another band at the end of the round (rules 3 to 5 read the
        // words from here, so that they run side by side: the round's longest chain
        // of dependent instructions is its cost as much as its instruction count).
        let taken = other_bands([c0, c1]);
        let mut n = [a0.andn(taken[0]), a1.andn(taken[1])];
        let mut gone = [L::splat(0); 2];
        for h in 0..2 {
            let diag = load::<L>(&C.diagonal[h]);
            let on = slots(placed[0].test(diag[0]), placed[1].test(diag[1]));
            let g = keep(rotate9(on) | rotate18(on), diag);
            gone = [gone[0].or(g[0]), gone[1].or(g[1])];
        }
        let n1 = n;
        // 3. Naked singles (counted before rule 2, which changes no other cell's
        // count, so that the two run side by side): the cell leaves its digit's row
        // (the next round's rule 1 places it). An empty cell, or a cell placed for two
        // digits, is a contradiction.
        let (one, two) = band_counts(n, true);
        let (placed_any, placed_twice) = band_counts(placed, true);
        if one.ne(L::splat(BAND)) & 7 != 0 || placed_twice.test(placed_twice) & 7 != 0 {
            return Err(Dead);
        }
        *solved = two.andn(placed_any).test(two) & 7 == 0;
        // 2. Placed cells leave the band's other digits.
        let any = band_back_lanes(placed_any);
        let two = band_back_lanes(two);
        for r in 0..2 {
            let x = n[r].andn(two[r]);
            n[r] = n[r].andn(any[r].andn(placed[r])).andn(row_fill(x).andn(x));
        }
        // 4. The diagonals, from the words rule 3 starts with: pointing and claiming
        // (which also places a hidden single: its box keeps it alone, and rule 1 does
        // the rest).
        for h in 0..2 {
            let diag = load::<L>(&C.diagonal[h]);
            let rest = load::<L>(&C.box_rest[h]);
            let rest_empty = slots(n1[0].test_zero(rest[0]), n1[1].test_zero(rest[1]));
            let part_empty = slots(n1[0].test_zero(diag[0]), n1[1].test_zero(diag[1]));
            let pointing = keep(rotate9(rest_empty) | rotate18(rest_empty), diag);
            let claiming = keep(rotate9(part_empty) & rotate18(part_empty), rest);
            gone = [
                gone[0].or(pointing[0]).or(claiming[0]),
                gone[1].or(pointing[1]).or(claiming[1]),
            ];
        }
        n = [n[0].andn(gone[0]), n[1].andn(gone[1])];
        // 5. Columns only one band can supply, from the same words.
        let cols = [fold(n1[0]), fold(n1[1])];
        let others = other_bands(cols);
        let nine = L::splat(0x1FF);
        if cols[0].or(others[0]).ne(nine) != 0 || cols[1].or(others[1]).ne(nine) & HIGH != 0 {
            return Err(Dead);
        }
        for r in 0..2 {
            let own = cols[r].andn(others[r]);
            let mates = columns_up1(own).or(columns_up2(own));
            if own.test(mates) != 0 {
                return Err(Dead);
            }
            let kept = own.or(nine.andn(own.or(mates)));
            n[r] = n[r].and(spread_lanes(kept));
        }
        self.v = n;
        Ok(n[0].ne(old[0]) | n[1].ne(old[1]) != 0)
    }

    /// A digit's places on diagonal `h` in every slot of the digit (all bands).
    #[inline(always)]
    fn diagonal_places(&self, h: usize) -> ([L; 2], [L; 2]) {
        let diag = load::<L>(&C.diagonal[h]);
        let parts = [self.v[0].and(diag[0]), self.v[1].and(diag[1])];
        let others = other_bands(parts);
        (parts, [parts[0].or(others[0]), parts[1].or(others[1])])
    }

    /// Two places left on a diagonal: the cells in the row of one and the column of
    /// the other go. Run when the rounds stall (it seldom finds anything, and costs a
    /// sixth of a round). `Ok(true)` if anything went.
    #[inline(always)]
    fn diagonal_pairs(&mut self) -> Result<bool, Dead> {
        let old = self.v;
        for h in 0..2 {
            let (parts, x) = self.diagonal_places(h);
            if x[0].test(x[0]) != 0xFFFF || x[1].test(x[1]) & HIGH != HIGH {
                return Err(Dead);
            }
            for r in 0..2 {
                let rest = x[r].and(x[r].dec());
                let pair = rest.test(rest) & rest.test_zero(rest.dec());
                let cols = spread_lanes(fold(x[r]));
                let seen = row_fill(parts[r]).and(cols).andn(parts[r]);
                self.v[r] = self.v[r].andn(L::select(pair, seen, L::splat(0)));
            }
        }
        Ok(self.v[0].ne(old[0]) | self.v[1].ne(old[1]) != 0)
    }

    /// Propagate until nothing changes. `Ok(true)` when solved.
    #[inline(always)]
    fn propagate(&mut self) -> Result<bool, Dead> {
        let mut solved = false;
        loop {
            while self.round(&mut solved)? {}
            if solved || !self.diagonal_pairs()? {
                return Ok(solved);
            }
        }
    }

    /// What to branch on: (band, cell, digit) first, and the other side, a second
    /// placement or (`None`) "not that digit there".
    #[inline(always)]
    fn branch(&self) -> (Place, Option<Place>) {
        // A digit with two places on a diagonal: the first, main diagonal first (the
        // band-0 slots hold each digit's places on the whole diagonal).
        let two: [u16; 2] = std::array::from_fn(|h| {
            let x = self.diagonal_places(h).1[0];
            let rest = x.and(x.dec());
            rest.test(rest) & rest.test_zero(rest.dec())
        });
        let hits = (two[0] | two[1]) & DIGITS;
        let w = self.words();
        if hits != 0 {
            let d = hits.trailing_zeros() as usize;
            let h = usize::from(two[0] >> d & 1 == 0);
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
        for (b, words) in self.words().iter().enumerate() {
            for (d, &word) in words.iter().enumerate() {
                let mut m = word;
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
