//! The vector search: all 27 digit words of a position in vector registers, for the
//! rule sets of the diagonals and the windows (`x`, `windoku`, `x,windoku`),
//! anti-king and non-consecutive (see [`Kind`]).
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
//! 6. Extra houses by fixed per-band masks (under windoku the four windows and the
//!    five houses every windoku solution fills, see
//!    `super::bands::windoku_implied_houses`; each house's part of a band has fixed
//!    cells, as a diagonal's has): a placed cell takes the digit from the rest of the
//!    house (two placed in one band's part are a contradiction); a house without a
//!    place for a digit is a contradiction; a digit whose places in the house all lie
//!    in one row or one box of one band leaves the rest of that row or box (a hidden
//!    single in the house is such a place, which the next round's rule 1 places),
//!    and one whose places in the house all lie in one column, over all bands, leaves
//!    the rest of that column. From the same words as rules 3 to 5, its removals at
//!    the end of the round. A house's removals depend on its own cells' words and
//!    placed cells alone, so a house whose cells are what its last scan saw is
//!    skipped (the words it was last scanned on go with each position, and to the
//!    positions a guess makes from it): on the bench's windoku puzzles 141K -> 170K
//!    puzzles a second. And rule 6 waits for rules 1 to 5: rounds without it run
//!    until they change nothing, then one round with it, and if that changed
//!    anything, the rounds go on (a solution is only taken from a round with it). A
//!    house is then scanned once for what several rounds took from it, and the
//!    guesses stayed the same: on 600 generated x,windoku puzzles (seed 4747,
//!    twenty times over, `solve -j1`) 14.9K -> 17.9K puzzles a second, 45.08 guesses a
//!    puzzle both; on `data/windoku_200.txt` (sixty times over) 122K -> 164K, 4.19
//!    guesses both. Rules 4, 7 and 8 made to wait the same way were slower (x 0.114
//!    -> 0.180 s, anti-king 0.093 -> 0.120 s, non-consecutive 46 -> 68 s on the
//!    `data/` sets of 12,000 puzzles): they cost little a round, and waiting costs
//!    rounds.
//!
//! 7. Anti-king: a placed cell takes its digit from the cells
//!    a king's diagonal step away, in its band by lane-wise shifts and in the edge
//!    rows of the bands above and below ([`Words::band_above`] and
//!    [`Words::band_below`]); and locked candidates through king steps for boxes
//!    within a band (a cell beside a box that sees every place of the digit there
//!    loses it). The branch is the band engine's under anti-king ([`State::busiest`]).
//!    On the bench's 300 puzzles of seed 11: 16.7 guesses a puzzle against the band
//!    engine's 7.0 (which also takes locked candidates through rows, columns and
//!    other bands), 23.2x the rule-table solver against 20.9x. The same through rows
//!    within a band: 17.4 to 16.6 guesses on `data/anti-king_200.txt`, 1.07 of the
//!    time: dropped. Through columns, over all bands ([`king_columns`]: a cell next
//!    to a column that sees every place of the digit there, by its row, a king's
//!    diagonal step or its box, loses it): 17.4 to 9.5 guesses on that file, and on
//!    3,000 generated puzzles (seed 77, ten times over) 18.1 to 9.8 at 0.72 of the
//!    CPU time (`solve -j1`, 9 pairs). (The band engine's locked candidates, limited
//!    to boxes within a band, as here before: 17.7 guesses; to columns alone: 12.3;
//!    boxes over all bands: 9.5; all: 7.4.)
//!
//! 8. Non-consecutive ([`super::non_consecutive_places::vector_rules`]): arc consistency (a
//!    cell whose candidates all lie in `d - 1 ..= d + 1`, a placed one among them,
//!    takes `d` from its orthogonal neighbours), near places (a cell at or next to
//!    every place of `d` in one of its houses loses `d ± 1`) and between (a cell with
//!    at most one place of `d - 1` and `d + 1` together away from it and its
//!    neighbours in one of its houses loses `d`): the box-band engine's rules, there
//!    run digit by digit with tables, here on every word at once by shifts within the
//!    words, moves between bands ([`Words::band_above`], [`Words::two_bands_away`])
//!    and between a band's digits ([`Words::lower_digit`], prefix ORs over the digits
//!    for the arc consistency). The branch is the band engine's under
//!    non-consecutive ([`Extra::WEIGHTED`]). On 200 generated minimal puzzles (seed
//!    7): 4,264 guesses a puzzle against the band engine's 4,297, at half its time
//!    (`solve -j1`).
//!
//! A rule set is an [`Extra`] implementation: whether the diagonals are on (rules 4,
//! the diagonal pairs and the diagonal branch) and its extra houses. X is the one
//! without extra houses, windoku the one without diagonals; each kind is compiled
//! into its own copy of the search, so a rule costs nothing where it is off (the X
//! search compiles to what it was before rule 6). Pointing from the band's rows and
//! boxes into the houses, and claiming and pointing through columns, were tried in
//! rule 6 on the 200 windoku puzzles of `data/`: 4.83 guesses a puzzle to 4.62 and
//! 4.32, but each house's round got dearer by more than the guesses saved; since
//! unchanged houses are skipped, claiming through columns pays (see
//! [`State::column_claims`]).
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
//! with two candidates, preferring cells on a diagonal (and under x,windoku in a
//! window), else on a cell with the fewest. Under windoku and x,windoku, after the
//! diagonal digits, on the cell of fewest candidates whose guesses failed most often
//! so far in the search, then with the most open peers, as the band engine does under
//! windoku ([`State::busiest`]; on the bench's 100 generated puzzles, 5.5 -> 5.2
//! guesses a puzzle under windoku, 53.1 -> 50.7 under x,windoku). Before that, under
//! windoku the first cell with two candidates (preferring window cells: 4.83 guesses
//! a puzzle on `data/`'s 200 windoku puzzles, 5.78 on 300 others; none preferred:
//! 4.46 and 5.55; a digit with two places left in a house first, as under the
//! diagonals: 9.1; under x,windoku, 97.5 on the bench's puzzles).
//!
//! The rules are written once over [`Words`], the 27 words of a position, with two
//! layouts:
//!
//! - [`Packed`]: two vectors of sixteen 32-bit lanes ([`Lanes`]), slot `9b + d`, as
//!   above; on AVX-512 registers ([`avx512`]) or on plain arrays ([`Plain`]), which
//!   compute the same and are the reference the tests compare every vector search with.
//! - [`avx2::Banded`]: four AVX2 registers, one per band for digits 1 to 8 and one for
//!   the ninth digit of each band. A digit's other bands are the same lane of the other
//!   registers (no permutations across a vector), and a band's reductions are shuffles
//!   within its register. Compiled twice: for AVX2 alone, and with AVX-512VL, which
//!   gives 256-bit vectors ternary logic and mask registers.
//!
//! [`Search`] runs the layout the CPU has ([`Vectors`]; `Best` by default). On the
//! 2-core AMD EPYC (Zen 5) this was measured on, one thread, 300 generated minimal X
//! puzzles at limit 2: AVX2 with AVX-512VL 138K puzzles a second, AVX-512 116K, AVX2
//! alone 109K, the box-band engine's scalar search 78K (on 4000 such puzzles: 126K,
//! 106K, 102K and 77K); so `Best` takes AVX2 with VL where the CPU has it (256-bit
//! operations issue at twice the rate of 512-bit ones there), else AVX-512, else
//! AVX2, else the scalar search. (AVX2 alone has no ternary logic, half the
//! registers and no mask registers; counting a row's boxes, XORs where LLVM spelled
//! out complements, one flag for a diagonal's pointing and claims, and rule 1's
//! columns reused by rule 5 took it from 99K to 109K, and the others with it.)

// Loops over the three bands index several per-band arrays at once.
#![allow(clippy::needless_range_loop)]
// Only x86-64 vector searches run this module outside the tests.
#![cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]

use crate::grid::{Grid, CELLS};
use crate::rules::Vectors;
use crate::stop::StopFlag;

use super::bands::{spread, BAND, ROW_BOX};

/// The slots of band 0, one per digit (lanes 0 to 8 of the first vector).
const DIGITS: u16 = 0x1FF;
/// The first cell of each (row, box) segment of a band: bit `9 * row + 3 * box`.
const SEGMENTS: u32 = 0x1249249;
/// The first cell of each row of a band.
const ROW_STARTS: u32 = 1 | 1 << 9 | 1 << 18;

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

/// What a rule set adds to the classic rules in this search: the diagonals (with
/// rules 4 and the diagonal pairs, and the diagonal branch), and extra houses given by
/// fixed per-band masks (rule 6). A rule set of boxes, rows and columns plus houses
/// like these is one implementation of this trait, compiled into its own copy of the
/// search, so that a rule costs nothing where it is off.
pub(crate) trait Extra {
    /// The two diagonals (Sudoku-X).
    const DIAGONALS: bool;
    /// Extra houses, each as its cells per band (the bands' parts use disjoint bit
    /// positions, as rows 0-2 of a band do, so that ORing them counts places).
    const HOUSES: &'static [[u32; 3]];
    /// The cells the branch prefers among cells with two candidates, per band (unless
    /// [`Extra::BUSIEST`]).
    const PREFER: [u32; 3];
    /// Whether the branch takes the cell of fewest candidates whose guesses failed
    /// most often so far, then with the most open peers ([`State::busiest`]), instead
    /// of the first preferred one.
    const BUSIEST: bool;
    /// Each cell's peers under these rules (rows, columns, boxes, the extra houses and,
    /// with them on, the diagonals and the king moves), per band: what
    /// [`State::busiest`] counts.
    const PEERS: [[u32; 3]; CELLS];
    /// Anti-king: a placed cell takes its digit from the cells a king's diagonal move
    /// away (rule 7).
    const KING: bool = false;
    /// Non-consecutive (rule 8, [`super::non_consecutive_places::vector_rules`]).
    const NC: bool = false;
    /// With no two-candidate cell, [`State::busiest`] takes the open cell of fewest
    /// candidates per failure (plus one), and the failure counts fade every
    /// [`FADE_EVERY`] dead positions, as the band engine does under non-consecutive.
    const WEIGHTED: bool = false;
}

/// Each cell's peers: the cells that share its row, column or box, one of `houses`,
/// or (with `diagonals`) a diagonal, per band; not the cell itself.
const fn peers_of(houses: &[[u32; 3]], diagonals: bool) -> [[u32; 3]; CELLS] {
    let mut t = [[0u32; 3]; CELLS];
    let mut c = 0;
    while c < CELLS {
        let (r, k) = (c / 9, c % 9);
        let mut e = 0;
        while e < CELLS {
            let (s, l) = (e / 9, e % 9);
            let mut seen = r == s || k == l || (r / 3 == s / 3 && k / 3 == l / 3);
            if diagonals {
                seen |= (r == k && s == l) || (r + k == 8 && s + l == 8);
            }
            let mut h = 0;
            while h < houses.len() {
                let m = houses[h];
                seen |= m[c / 27] >> (c % 27) & 1 != 0 && m[e / 27] >> (e % 27) & 1 != 0;
                h += 1;
            }
            if seen && e != c {
                t[c][e / 27] |= 1 << (e % 27);
            }
            e += 1;
        }
        c += 1;
    }
    t
}

/// [`peers_of`] with no extra houses nor diagonals, plus the cells a king's diagonal
/// move away.
const fn king_peers() -> [[u32; 3]; CELLS] {
    let mut t = peers_of(&[], false);
    let mut c = 0;
    while c < CELLS {
        let (r, k) = ((c / 9) as i32, (c % 9) as i32);
        let mut m = 0;
        while m < 4 {
            let (s, l) = (
                r + if m < 2 { -1 } else { 1 },
                k + if m % 2 == 0 { -1 } else { 1 },
            );
            if s >= 0 && s < 9 && l >= 0 && l < 9 {
                let e = (s * 9 + l) as usize;
                t[c][e / 27] |= 1 << (e % 27);
            }
            m += 1;
        }
        c += 1;
    }
    t
}

/// The cells of rows `rows` and columns `cols` (0-8), per band.
const fn square(rows: [usize; 3], cols: [usize; 3]) -> [u32; 3] {
    let mut w = [0u32; 3];
    let (mut i, mut j) = (0, 0);
    while i < 3 {
        while j < 3 {
            let r = rows[i];
            w[r / 3] |= 1 << (9 * (r % 3) + cols[j]);
            j += 1;
        }
        j = 0;
        i += 1;
    }
    w
}

/// The four windows, then the five houses every windoku solution fills though no
/// rule names them (see `super::bands::windoku_implied_houses`, which the tests
/// compare these with): rows 1, 5 and 9 with columns 2-4, 6-8 and 1, 5, 9, and
/// columns 1, 5 and 9 with rows 2-4 and 6-8 (here numbered from 0).
const WINDOKU_HOUSES: [[u32; 3]; 9] = {
    let (edges, left, right) = ([0, 4, 8], [1, 2, 3], [5, 6, 7]);
    [
        square(left, left),
        square(left, right),
        square(right, left),
        square(right, right),
        square(edges, left),
        square(edges, right),
        square(left, edges),
        square(right, edges),
        square(edges, edges),
    ]
};

/// The cells of the four windows, per band.
const WINDOW_CELLS: [u32; 3] = {
    let mut w = [0u32; 3];
    let mut h = 0;
    while h < 4 {
        let mut b = 0;
        while b < 3 {
            w[b] |= WINDOKU_HOUSES[h][b];
            b += 1;
        }
        h += 1;
    }
    w
};

/// Sudoku-X: the diagonals.
pub(crate) struct XRules;

impl Extra for XRules {
    const DIAGONALS: bool = true;
    const HOUSES: &'static [[u32; 3]] = &[];
    const PREFER: [u32; 3] = ON_DIAGONALS;
    const BUSIEST: bool = false;
    const PEERS: [[u32; 3]; CELLS] = peers_of(&[], true);
}

/// Windoku: the windows and the five houses they imply.
pub(crate) struct WindokuRules;

impl Extra for WindokuRules {
    const DIAGONALS: bool = false;
    const HOUSES: &'static [[u32; 3]] = &WINDOKU_HOUSES;
    const PREFER: [u32; 3] = [BAND; 3];
    const BUSIEST: bool = true;
    const PEERS: [[u32; 3]; CELLS] = peers_of(&WINDOKU_HOUSES, false);
}

/// Sudoku-X with windoku.
pub(crate) struct XWindokuRules;

impl Extra for XWindokuRules {
    const DIAGONALS: bool = true;
    const HOUSES: &'static [[u32; 3]] = &WINDOKU_HOUSES;
    const PREFER: [u32; 3] = [
        ON_DIAGONALS[0] | WINDOW_CELLS[0],
        ON_DIAGONALS[1] | WINDOW_CELLS[1],
        ON_DIAGONALS[2] | WINDOW_CELLS[2],
    ];
    // After a digit with two places on a diagonal: 100 generated puzzles (the bench's)
    // 53.1 guesses a puzzle with the first preferred cell, 50.7 with this.
    const BUSIEST: bool = true;
    const PEERS: [[u32; 3]; CELLS] = peers_of(&WINDOKU_HOUSES, true);
}

/// Anti-king: no extra house; placed cells take their digit from the cells a king's
/// diagonal move away (rule 7), and the branch is the band engine's under anti-king.
pub(crate) struct AntiKingRules;

impl Extra for AntiKingRules {
    const DIAGONALS: bool = false;
    const HOUSES: &'static [[u32; 3]] = &[];
    const PREFER: [u32; 3] = [BAND; 3];
    const BUSIEST: bool = true;
    const PEERS: [[u32; 3]; CELLS] = king_peers();
    const KING: bool = true;
}

/// Non-consecutive: no extra house; rule 8, and the band engine's branch under
/// non-consecutive.
pub(crate) struct NonConsecutiveRules;

impl Extra for NonConsecutiveRules {
    const DIAGONALS: bool = false;
    const HOUSES: &'static [[u32; 3]] = &[];
    const PREFER: [u32; 3] = [BAND; 3];
    const BUSIEST: bool = true;
    const PEERS: [[u32; 3]; CELLS] = peers_of(&[], false);
    const NC: bool = true;
    const WEIGHTED: bool = true;
}

/// Under [`Extra::WEIGHTED`], every this many dead positions each cell's failure
/// count loses a quarter (as the band engine's).
const FADE_EVERY: u32 = 256;

/// The rule sets this search runs: which [`Extra`] a [`Search`] is compiled with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    X,
    Windoku,
    XWindoku,
    AntiKing,
    NonConsecutive,
}

impl Kind {
    /// The kind of `rules`, if this search runs them.
    pub(crate) fn of(rules: super::RuleSet) -> Option<Kind> {
        let x = super::RuleSet::only(super::Rule::X);
        let w = super::RuleSet::only(super::Rule::Windoku);
        if rules == x {
            Some(Kind::X)
        } else if rules == w {
            Some(Kind::Windoku)
        } else if rules == x.with(super::Rule::Windoku) {
            Some(Kind::XWindoku)
        } else if rules == super::RuleSet::only(super::Rule::AntiKing) {
            Some(Kind::AntiKing)
        } else if rules == super::RuleSet::only(super::Rule::NonConsecutive) {
            Some(Kind::NonConsecutive)
        } else {
            None
        }
    }
}

/// The 27 words of a position in vector registers, laid out one way or another: what
/// the rules need of them. The rules are written once over this trait; each layout
/// implements it ([`Packed`]: the words packed in two vectors of sixteen lanes, as
/// AVX-512 registers or plain arrays; [`avx2::Banded`]: a vector of eight lanes per
/// band and one for the ninth digit, as AVX2 registers).
///
/// A slot is one (band, digit) word; operations on words are slot-wise, and the
/// layouts' empty lanes are no slots (a layout keeps them zero in the position's words;
/// the checks below ignore them).
pub(crate) trait Words: Copy {
    /// One flag per slot.
    type Mask: Copy;
    /// One word per band (a reduction over its nine digits).
    type Band: Copy;

    /// The words, `[band][digit]`.
    fn from_words(w: &[[u32; 9]; 3]) -> Self;
    fn to_words(self) -> [[u32; 9]; 3];
    /// Every slot `x`.
    fn splat(x: u32) -> Self;
    /// Each slot: [`DIAGONALS`]`[h][band]`.
    fn diagonal(h: usize) -> Self;
    /// Each slot: [`DIAGONAL_BOX_REST`]`[h][band]`.
    fn diagonal_box_rest(h: usize) -> Self;
    /// Each slot: `x[band]`.
    fn per_band(x: [u32; 3]) -> Self;
    fn and(self, o: Self) -> Self;
    fn or(self, o: Self) -> Self;
    /// `self & !o`.
    fn andn(self, o: Self) -> Self;
    fn xor(self, o: Self) -> Self;
    /// Each slot minus one (wrapping).
    fn dec(self) -> Self;
    /// Slot-wise sum and difference (wrapping).
    fn add(self, o: Self) -> Self;
    fn sub(self, o: Self) -> Self;
    fn shr<const N: u32>(self) -> Self;
    fn shl<const N: u32>(self) -> Self;
    /// The slots where `self & o` is not zero.
    fn test(self, o: Self) -> Self::Mask;
    /// The slots where `self & o` is zero.
    fn test_zero(self, o: Self) -> Self::Mask;
    /// Both flags.
    fn both(a: Self::Mask, b: Self::Mask) -> Self::Mask;
    /// Either flag.
    fn either(a: Self::Mask, b: Self::Mask) -> Self::Mask;
    /// `x` where `m` is set, else zero.
    fn keep(m: Self::Mask, x: Self) -> Self;
    /// Each slot: whether `m` is set in the same digit's slot of some other band.
    fn any_other(m: Self::Mask) -> Self::Mask;
    /// Each slot: whether `m` is set in the same digit's slots of both other bands.
    fn both_others(m: Self::Mask) -> Self::Mask;
    /// Each slot: the same digit's words in the other two bands, ORed.
    fn other_bands(self) -> Self;
    /// Each slot: the same digit's word in the band above (zero in band 0).
    fn band_above(self) -> Self;
    /// Each slot: the same digit's word in the band below (zero in band 2).
    fn band_below(self) -> Self;
    /// Each slot: the same digit's word two bands away (band 2's in band 0, band 0's
    /// in band 2, zero in band 1).
    #[inline(always)]
    fn two_bands_away(self) -> Self {
        self.band_above()
            .band_above()
            .or(self.band_below().band_below())
    }
    /// Each slot: the word of the digit `K` lower in the same band (zero for the
    /// digits below `K`); `K` is 1 to 8.
    fn lower_digit<const K: usize>(self) -> Self;
    /// Each slot: the word of the digit `K` higher in the same band (zero for the
    /// digits above `8 - K`); `K` is 1 to 8.
    fn higher_digit<const K: usize>(self) -> Self;
    /// Whether some slot is zero.
    fn any_zero(self) -> bool;
    /// Whether some slot is not `x`.
    fn any_ne(self, x: u32) -> bool;
    /// Whether some slot has `self & o` not zero.
    fn any_common(self, o: Self) -> bool;
    /// Whether some slot differs.
    fn differs(self, o: Self) -> bool;
    /// Per band: the cells in at least one of its nine words, and in at least two.
    fn band_counts(self) -> (Self::Band, Self::Band);
    /// Per-band words back in every slot of the band.
    fn band_back(x: Self::Band) -> Self;
    /// Whether some band's word is not zero.
    fn band_any(x: Self::Band) -> bool;
    /// Whether some band's word is not `w`.
    fn band_any_ne(x: Self::Band, w: u32) -> bool;
    /// `a & !b`, band by band.
    fn band_andn(a: Self::Band, b: Self::Band) -> Self::Band;
    /// The digits (bit `d`) whose band-0 slot has `m` set.
    fn band0_digits(m: Self::Mask) -> u16;
    /// The word of digit `d` in band `b` less `clear`, plus `set`.
    fn update(self, b: usize, d: usize, clear: u32, set: u32) -> Self;
}

/// Sixteen 32-bit lanes (a position is two of them, see the module docs).
/// Lane masks are `u16`, bit `i` for lane `i`.
pub(crate) trait Lanes: Copy {
    /// Every lane `x`.
    fn splat(x: u32) -> Self;
    fn and(self, o: Self) -> Self;
    fn or(self, o: Self) -> Self;
    /// `self & !o`.
    fn andn(self, o: Self) -> Self;
    fn xor(self, o: Self) -> Self;
    /// Each lane minus one (wrapping).
    fn dec(self) -> Self;
    /// Lane-wise sum and difference (wrapping).
    fn add(self, o: Self) -> Self;
    fn sub(self, o: Self) -> Self;
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
    fn xor(self, o: Self) -> Self {
        self.zip(o, |a, b| a ^ b)
    }
    #[inline(always)]
    fn dec(self) -> Self {
        self.map(|a| a.wrapping_sub(1))
    }
    #[inline(always)]
    fn add(self, o: Self) -> Self {
        self.zip(o, u32::wrapping_add)
    }
    #[inline(always)]
    fn sub(self, o: Self) -> Self {
        self.zip(o, u32::wrapping_sub)
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

/// `$run`: [`run`] on the words `$words`, compiled for the CPU features `$features`,
/// with [`State::branch`] out of line as `$branch`, compiled for them too (see [`run`]).
/// Both are `unsafe`: the CPU must have the features.
#[cfg(target_arch = "x86_64")]
macro_rules! compiled_search {
    ($(#[$doc:meta])* $run:ident, $branch:ident, $words:ty, $features:literal) => {
        $(#[$doc])*
        ///
        /// # Safety
        ///
        /// The CPU must have the features this is compiled for.
        #[target_feature(enable = $features)]
        pub(crate) unsafe fn $run<R: super::Extra>(
            grid: &crate::grid::Grid,
            stack: &mut super::Stack<$words>,
            limit: u64,
            found: &mut dyn FnMut(crate::grid::Grid),
        ) -> (u64, u64) {
            // SAFETY: the branch function needs what this function needs.
            super::run::<_, R>(grid, stack, limit, found, |s, f| unsafe { $branch::<R>(s, f) })
        }

        /// [`super::State::branch`], out of line (see [`super::run`]).
        ///
        /// # Safety
        ///
        /// As the search it serves.
        #[target_feature(enable = $features)]
        #[inline(never)]
        unsafe fn $branch<R: super::Extra>(
            s: &super::State<$words>,
            failures: &[u32; crate::grid::CELLS],
        ) -> super::Branch {
            s.branch::<R>(failures)
        }
    };
}
#[cfg(target_arch = "x86_64")]
use compiled_search;

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
        fn xor(self, o: Self) -> Self {
            unsafe { Avx512(_mm512_xor_si512(self.0, o.0)) }
        }
        #[inline(always)]
        fn dec(self) -> Self {
            unsafe { Avx512(_mm512_sub_epi32(self.0, _mm512_set1_epi32(1))) }
        }
        #[inline(always)]
        fn add(self, o: Self) -> Self {
            unsafe { Avx512(_mm512_add_epi32(self.0, o.0)) }
        }
        #[inline(always)]
        fn sub(self, o: Self) -> Self {
            unsafe { Avx512(_mm512_sub_epi32(self.0, o.0)) }
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

    super::compiled_search! {
        /// [`super::run`] on AVX-512 registers, compiled with AVX-512F and the bit
        /// instructions of the band engine's fast search. The CPU must have them
        /// ([`available`]).
        run, branch, super::Packed<Avx512>, "avx512f,popcnt,bmi1,bmi2,lzcnt"
    }
}

/// The slots: slot `k = 9 * band + digit` is lane `k % 16` of vector `k / 16`; slots
/// 27 to 31 (lanes 11 to 15 of the second vector) stay empty.
const SLOTS: usize = 27;
/// The lanes of the second vector that hold slots.
const HIGH: u16 = 0x7FF;
/// All 27 slots, as a mask (bit `k` for slot `k`).
const ALL: u32 = (1 << SLOTS) - 1;

/// The 27 words packed in two vectors of sixteen lanes: slot `9 * band + digit` is
/// lane `k % 16` of vector `k / 16` (27 of 32 lanes used). A digit's other bands are
/// slots 9 and 18 further on (mod 27), brought to each slot by a two-vector
/// permutation, or, for a flag a slot, by rotating a 27-bit slot mask in a general
/// register; reductions over a band's nine digits are three permutations that gather
/// each band's slots `j`, `j + 3`, `j + 6` into lanes `3b + j`, three more those lanes
/// into lane `b`, and one back to the band's slots. (A vector per band, lane `d` for
/// digit `d`, left 7 of 16 lanes empty and made a round a fifth more instructions on
/// AVX-512; it ran at about the same speed with its shorter dependency chains, 91K
/// against 93K puzzles a second.)
#[derive(Clone, Copy)]
pub(crate) struct Packed<L>([L; 2]);

impl<L: Lanes> Packed<L> {
    #[inline(always)]
    fn zip(self, o: Self, f: impl Fn(L, L) -> L) -> Self {
        Packed([f(self.0[0], o.0[0]), f(self.0[1], o.0[1])])
    }

    #[inline(always)]
    fn map(self, f: impl Fn(L) -> L) -> Self {
        Packed([f(self.0[0]), f(self.0[1])])
    }
}

/// A slot mask (bit `k` for slot `k`) as the two vectors' lane masks.
#[inline(always)]
fn split(m: u32) -> [u16; 2] {
    [m as u16, (m >> 16) as u16]
}

impl<L: Lanes> Words for Packed<L> {
    /// The two vectors' lane masks.
    type Mask = [u16; 2];
    /// Lanes 0 to 2.
    type Band = L;

    #[inline(always)]
    fn from_words(w: &[[u32; 9]; 3]) -> Self {
        let mut v = [[0u32; 16]; 2];
        for b in 0..3 {
            for d in 0..9 {
                let k = 9 * b + d;
                v[k / 16][k % 16] = w[b][d];
            }
        }
        Packed(v.map(L::from_array))
    }
    #[inline(always)]
    fn to_words(self) -> [[u32; 9]; 3] {
        let w = self.0.map(L::to_array);
        std::array::from_fn(|b| std::array::from_fn(|d| w[(9 * b + d) / 16][(9 * b + d) % 16]))
    }
    #[inline(always)]
    fn splat(x: u32) -> Self {
        Packed([L::splat(x); 2])
    }
    #[inline(always)]
    fn diagonal(h: usize) -> Self {
        Packed(load(&C.diagonal[h]))
    }
    #[inline(always)]
    fn diagonal_box_rest(h: usize) -> Self {
        Packed(load(&C.box_rest[h]))
    }
    #[inline(always)]
    fn per_band(x: [u32; 3]) -> Self {
        Packed(load(&per_slot(x)))
    }
    #[inline(always)]
    fn and(self, o: Self) -> Self {
        self.zip(o, L::and)
    }
    #[inline(always)]
    fn or(self, o: Self) -> Self {
        self.zip(o, L::or)
    }
    #[inline(always)]
    fn andn(self, o: Self) -> Self {
        self.zip(o, L::andn)
    }
    #[inline(always)]
    fn xor(self, o: Self) -> Self {
        self.zip(o, L::xor)
    }
    #[inline(always)]
    fn dec(self) -> Self {
        self.map(L::dec)
    }
    #[inline(always)]
    fn add(self, o: Self) -> Self {
        self.zip(o, L::add)
    }
    #[inline(always)]
    fn sub(self, o: Self) -> Self {
        self.zip(o, L::sub)
    }
    #[inline(always)]
    fn shr<const N: u32>(self) -> Self {
        self.map(L::shr::<N>)
    }
    #[inline(always)]
    fn shl<const N: u32>(self) -> Self {
        self.map(L::shl::<N>)
    }
    #[inline(always)]
    fn test(self, o: Self) -> [u16; 2] {
        [self.0[0].test(o.0[0]), self.0[1].test(o.0[1])]
    }
    #[inline(always)]
    fn test_zero(self, o: Self) -> [u16; 2] {
        [self.0[0].test_zero(o.0[0]), self.0[1].test_zero(o.0[1])]
    }
    #[inline(always)]
    fn both(a: [u16; 2], b: [u16; 2]) -> [u16; 2] {
        [a[0] & b[0], a[1] & b[1]]
    }
    #[inline(always)]
    fn either(a: [u16; 2], b: [u16; 2]) -> [u16; 2] {
        [a[0] | b[0], a[1] | b[1]]
    }
    #[inline(always)]
    fn keep(m: [u16; 2], x: Self) -> Self {
        let zero = L::splat(0);
        Packed([L::select(m[0], x.0[0], zero), L::select(m[1], x.0[1], zero)])
    }
    #[inline(always)]
    fn any_other(m: [u16; 2]) -> [u16; 2] {
        let s = slots(m[0], m[1]);
        split(rotate9(s) | rotate18(s))
    }
    #[inline(always)]
    fn both_others(m: [u16; 2]) -> [u16; 2] {
        let s = slots(m[0], m[1]);
        split(rotate9(s) & rotate18(s))
    }
    #[inline(always)]
    fn other_bands(self) -> Self {
        let (a, b) = (gather(self.0, &C.other9), gather(self.0, &C.other18));
        Packed([a[0].or(b[0]), a[1].or(b[1])])
    }
    #[inline(always)]
    fn band_above(self) -> Self {
        // Slot 18 further on (mod 27) is the band above, band 2's for band 0.
        let a = gather(self.0, &C.other18);
        let [m0, m1] = load::<L>(&C.not_band[0]);
        Packed([a[0].and(m0), a[1].and(m1)])
    }
    #[inline(always)]
    fn band_below(self) -> Self {
        let b = gather(self.0, &C.other9);
        let [m0, m1] = load::<L>(&C.not_band[2]);
        Packed([b[0].and(m0), b[1].and(m1)])
    }
    #[inline(always)]
    fn lower_digit<const K: usize>(self) -> Self {
        // The slots without such a digit take an empty slot, which is not zero in
        // every value (a splat's): cleared.
        let [a, b] = gather(self.0, &C.lower[K]);
        let [m0, m1] = load::<L>(&C.lower_kept[K]);
        Packed([a.and(m0), b.and(m1)])
    }
    #[inline(always)]
    fn higher_digit<const K: usize>(self) -> Self {
        let [a, b] = gather(self.0, &C.higher[K]);
        let [m0, m1] = load::<L>(&C.higher_kept[K]);
        Packed([a.and(m0), b.and(m1)])
    }
    #[inline(always)]
    fn any_zero(self) -> bool {
        let [a, b] = self.0;
        a.test(a) != 0xFFFF || b.test(b) & HIGH != HIGH
    }
    #[inline(always)]
    fn any_ne(self, x: u32) -> bool {
        let x = L::splat(x);
        self.0[0].ne(x) != 0 || self.0[1].ne(x) & HIGH != 0
    }
    #[inline(always)]
    fn any_common(self, o: Self) -> bool {
        self.0[0].test(o.0[0]) | self.0[1].test(o.0[1]) & HIGH != 0
    }
    #[inline(always)]
    fn differs(self, o: Self) -> bool {
        self.0[0].ne(o.0[0]) | self.0[1].ne(o.0[1]) != 0
    }
    #[inline(always)]
    fn band_counts(self) -> (L, L) {
        band_counts(self.0)
    }
    #[inline(always)]
    fn band_back(x: L) -> Self {
        let [i0, i1] = load::<L>(&C.back);
        Packed([x.permute(i0), x.permute(i1)])
    }
    #[inline(always)]
    fn band_any(x: L) -> bool {
        x.test(x) & 7 != 0
    }
    #[inline(always)]
    fn band_any_ne(x: L, w: u32) -> bool {
        x.ne(L::splat(w)) & 7 != 0
    }
    #[inline(always)]
    fn band_andn(a: L, b: L) -> L {
        a.andn(b)
    }
    #[inline(always)]
    fn band0_digits(m: [u16; 2]) -> u16 {
        m[0] & DIGITS
    }
    #[inline(always)]
    fn update(self, b: usize, d: usize, clear: u32, set: u32) -> Self {
        let k = 9 * b + d;
        let mut v = self.0;
        let w = v[k / 16];
        let changed = w.andn(L::splat(clear)).or(L::splat(set));
        v[k / 16] = L::select(1 << (k % 16), changed, w);
        Packed(v)
    }
}

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

/// The same band's slot of the digit `k` lower (`higher` false) or higher: digit
/// `d - k` or `d + k`; an empty slot where there is none.
const fn other_digit(k: usize, higher: bool) -> [u32; 32] {
    let mut t = [SLOTS as u32; 32];
    let mut s = 0;
    while s < SLOTS {
        let d = s % 9;
        if higher && d + k < 9 {
            t[s] = (s + k) as u32;
        } else if !higher && d >= k {
            t[s] = (s - k) as u32;
        }
        s += 1;
    }
    t
}

/// [`other_digit`] for `k` = 0 to 8: the indexes (`kept` false), or every bit in the
/// slots that have such a digit (`kept` true).
const fn other_digits(higher: bool, kept: bool) -> [[[u32; 16]; 2]; 9] {
    let mut t = [[[0u32; 16]; 2]; 9];
    let mut k = 0;
    while k < 9 {
        let mut f = other_digit(k, higher);
        if kept {
            let mut s = 0;
            while s < 32 {
                f[s] = if f[s] == SLOTS as u32 { 0 } else { !0 };
                s += 1;
            }
        }
        t[k] = indexes(f);
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
    /// Every bit in the slots of all bands but band `b`.
    not_band: [[[u32; 16]; 2]; 3],
    /// [`other_digit`], lower and higher, and the slots that have such a digit.
    lower: [[[u32; 16]; 2]; 9],
    higher: [[[u32; 16]; 2]; 9],
    lower_kept: [[[u32; 16]; 2]; 9],
    higher_kept: [[[u32; 16]; 2]; 9],
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
    not_band: [
        per_slot([0, !0, !0]),
        per_slot([!0, 0, !0]),
        per_slot([!0, !0, 0]),
    ],
    lower: other_digits(false, false),
    higher: other_digits(true, false),
    lower_kept: other_digits(false, true),
    higher_kept: other_digits(true, true),
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

/// Per band (lanes 0 to 2): the cells in at least one of its nine words, and in at
/// least two.
#[inline(always)]
fn band_counts<L: Lanes>(x: [L; 2]) -> (L, L) {
    let a = gather(x, &C.step[0])[0];
    let b = gather(x, &C.step[1])[0];
    let c = gather(x, &C.step[2])[0];
    let one1 = a.or(b).or(c);
    let l: [L; 3] = std::array::from_fn(|s| L::from_array(C.last[s][0]));
    let o = [one1.permute(l[0]), one1.permute(l[1]), one1.permute(l[2])];
    let one = o[0].or(o[1]).or(o[2]);
    let two1 = a.and(b).or(b.and(c)).or(a.and(c));
    let t = [two1.permute(l[0]), two1.permute(l[1]), two1.permute(l[2])];
    let two = t[0]
        .or(t[1])
        .or(t[2])
        .or(o[0].and(o[1]).or(o[1].and(o[2])).or(o[0].and(o[2])));
    (one, two)
}

/// [`Words`] as four AVX2 registers, a band's words side by side.
#[cfg(target_arch = "x86_64")]
pub(crate) mod avx2 {
    use std::arch::x86_64::*;

    use super::{Words, DIAGONALS, DIAGONAL_BOX_REST};

    /// The words by band: register `b` < 3 holds band `b`'s digits 0 to 7 (lane `d`
    /// for digit `d`), register 3 the ninth digit's word of band `b` in lane `b`
    /// (lanes 3 to 7 are no slots). A digit's other bands are then the same lane of
    /// the other registers (or, for the ninth digit, a shuffle within 128 bits), and a
    /// band's reductions over its digits are three steps of shuffles within a register
    /// and a broadcast of the ninth digit's lane.
    ///
    /// Values are made only in code that runs on CPUs with AVX2 ([`available`]: the
    /// searches below are the only way in), which is what makes the `unsafe` blocks
    /// of this module sound.
    #[derive(Clone, Copy)]
    pub(crate) struct Banded([__m256i; 4]);

    /// A flag per slot: lanes all ones or zero, read as the flag, or as its complement
    /// when `neg` (AVX2 compares say "equal", so a "not zero" test leaves its
    /// complement and the operations on flags follow De Morgan; `neg` is known where
    /// the search is compiled, so the choice costs nothing when it runs).
    #[derive(Clone, Copy)]
    pub(crate) struct Mask {
        v: [__m256i; 4],
        neg: bool,
    }

    /// True when the CPU has what the AVX2 searches are compiled for (the bit
    /// instructions too, which every AVX2 CPU has).
    pub(crate) fn available() -> bool {
        std::arch::is_x86_feature_detected!("avx2") && crate::solver::fast_bits()
    }

    /// True when the CPU has what [`run_vl`] is compiled for.
    pub(crate) fn available_vl() -> bool {
        available()
            && std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512vl")
    }

    // SAFETY (every `unsafe` block from here to the searches): the intrinsics need AVX2
    // and run only on CPUs that have it (see [`Banded`]); the loads and stores are of
    // whole registers through `transmute` between same-sized plain types.

    /// Lanes 0 to 2 (the ninth digit's slots in register 3).
    #[inline(always)]
    fn nine() -> __m256i {
        unsafe { _mm256_setr_epi32(-1, -1, -1, 0, 0, 0, 0, 0) }
    }

    /// Per band: `x[b]` in every lane of register `b`, and in lane `b` of register 3.
    #[inline(always)]
    fn per_band(x: [u32; 3]) -> Banded {
        let x = x.map(|w| w as i32);
        unsafe {
            Banded([
                _mm256_set1_epi32(x[0]),
                _mm256_set1_epi32(x[1]),
                _mm256_set1_epi32(x[2]),
                _mm256_setr_epi32(x[0], x[1], x[2], 0, 0, 0, 0, 0),
            ])
        }
    }

    /// `[f(0), f(1), f(2), f(3)]` for an expression `f(i)` of `i` (written out: a
    /// closure would be compiled without AVX2, its intrinsics left as calls).
    macro_rules! four {
        ($i:ident => $e:expr) => {
            [
                {
                    let $i = 0;
                    $e
                },
                {
                    let $i = 1;
                    $e
                },
                {
                    let $i = 2;
                    $e
                },
                {
                    let $i = 3;
                    $e
                },
            ]
        };
    }

    impl Banded {
        /// The OR of the four registers, register 3's non-slot lanes dropped.
        #[inline(always)]
        fn fold(self) -> __m256i {
            let [a, b, c, r] = self.0;
            unsafe {
                _mm256_or_si256(
                    _mm256_or_si256(a, b),
                    _mm256_or_si256(c, _mm256_and_si256(r, nine())),
                )
            }
        }
    }

    /// Whether some lane of `x` is not zero.
    #[inline(always)]
    fn nonzero(x: __m256i) -> bool {
        unsafe { _mm256_testz_si256(x, x) == 0 }
    }

    /// `x | y` if `or`, else `x & y`.
    #[inline(always)]
    fn or_and(or: bool, x: __m256i, y: __m256i) -> __m256i {
        unsafe {
            if or {
                _mm256_or_si256(x, y)
            } else {
                _mm256_and_si256(x, y)
            }
        }
    }

    /// Lane `b` of each 128 bits: lane `(b + 1) % 3` (lane 3 stays).
    #[inline(always)]
    fn next_band(x: __m256i) -> __m256i {
        unsafe { _mm256_shuffle_epi32::<0b11_00_10_01>(x) }
    }

    /// Lane `b` of each 128 bits: lane `(b + 2) % 3` (lane 3 stays).
    #[inline(always)]
    fn after_next_band(x: __m256i) -> __m256i {
        unsafe { _mm256_shuffle_epi32::<0b11_01_00_10>(x) }
    }

    /// Each slot: the same digit's slots in the other two bands, ORed if `or`, else
    /// ANDed.
    #[inline(always)]
    fn others(or: bool, x: [__m256i; 4]) -> [__m256i; 4] {
        let [a, b, c, r] = x;
        [
            or_and(or, b, c),
            or_and(or, c, a),
            or_and(or, a, b),
            or_and(or, next_band(r), after_next_band(r)),
        ]
    }

    /// One step of a reduction: (at least one, at least two) of `(one, two)` and the
    /// same for `(o, t)`.
    #[inline(always)]
    fn merge(one: __m256i, two: __m256i, o: __m256i, t: __m256i) -> (__m256i, __m256i) {
        unsafe {
            let both = _mm256_and_si256(one, o);
            (
                _mm256_or_si256(one, o),
                _mm256_or_si256(_mm256_or_si256(two, t), both),
            )
        }
    }

    /// Both halves of a reduction step within 128 bits: lane `i` with lane `i ^ 1`
    /// (`IMM` = `0b10_11_00_01`) or `i ^ 2` (`0b01_00_11_10`).
    #[inline(always)]
    fn merge_within<const IMM: i32>(one: __m256i, two: __m256i) -> (__m256i, __m256i) {
        unsafe {
            merge(
                one,
                two,
                _mm256_shuffle_epi32::<IMM>(one),
                _mm256_shuffle_epi32::<IMM>(two),
            )
        }
    }

    /// A band's register for [`Words::higher_digit`]: lane `d` takes lane `from[d]` of
    /// `x` where `keep`, the ninth digit's word of `band` (lane `band` of `r`) where
    /// `ninth`, else zero.
    #[inline(always)]
    fn higher_lanes(
        x: __m256i,
        from: __m256i,
        keep: __m256i,
        ninth: __m256i,
        r: __m256i,
        band: i32,
    ) -> __m256i {
        unsafe {
            _mm256_or_si256(
                _mm256_and_si256(keep, _mm256_permutevar8x32_epi32(x, from)),
                _mm256_and_si256(
                    ninth,
                    _mm256_permutevar8x32_epi32(r, _mm256_set1_epi32(band)),
                ),
            )
        }
    }

    impl Words for Banded {
        type Mask = Mask;
        /// Bands 0 and 1 in the low and high 128 bits of the first register, band 2
        /// in every lane of the second.
        type Band = [__m256i; 2];

        #[inline(always)]
        fn from_words(w: &[[u32; 9]; 3]) -> Self {
            let mut a = [[0u32; 8]; 4];
            for b in 0..3 {
                a[b].copy_from_slice(&w[b][..8]);
                a[3][b] = w[b][8];
            }
            unsafe { Banded(std::mem::transmute::<[[u32; 8]; 4], [__m256i; 4]>(a)) }
        }
        #[inline(always)]
        fn to_words(self) -> [[u32; 9]; 3] {
            let a = unsafe { std::mem::transmute::<[__m256i; 4], [[u32; 8]; 4]>(self.0) };
            std::array::from_fn(|b| std::array::from_fn(|d| if d < 8 { a[b][d] } else { a[3][b] }))
        }
        #[inline(always)]
        fn splat(x: u32) -> Self {
            unsafe { Banded([_mm256_set1_epi32(x as i32); 4]) }
        }
        #[inline(always)]
        fn diagonal(h: usize) -> Self {
            per_band(DIAGONALS[h])
        }
        #[inline(always)]
        fn diagonal_box_rest(h: usize) -> Self {
            per_band(DIAGONAL_BOX_REST[h])
        }
        #[inline(always)]
        fn per_band(x: [u32; 3]) -> Self {
            per_band(x)
        }
        #[inline(always)]
        fn and(self, o: Self) -> Self {
            Banded(four!(i => unsafe { _mm256_and_si256(self.0[i], o.0[i]) }))
        }
        #[inline(always)]
        fn or(self, o: Self) -> Self {
            Banded(four!(i => unsafe { _mm256_or_si256(self.0[i], o.0[i]) }))
        }
        #[inline(always)]
        fn andn(self, o: Self) -> Self {
            Banded(four!(i => unsafe { _mm256_andnot_si256(o.0[i], self.0[i]) }))
        }
        #[inline(always)]
        fn xor(self, o: Self) -> Self {
            Banded(four!(i => unsafe { _mm256_xor_si256(self.0[i], o.0[i]) }))
        }
        #[inline(always)]
        fn dec(self) -> Self {
            let one = unsafe { _mm256_set1_epi32(1) };
            Banded(four!(i => unsafe { _mm256_sub_epi32(self.0[i], one) }))
        }
        #[inline(always)]
        fn add(self, o: Self) -> Self {
            Banded(four!(i => unsafe { _mm256_add_epi32(self.0[i], o.0[i]) }))
        }
        #[inline(always)]
        fn sub(self, o: Self) -> Self {
            Banded(four!(i => unsafe { _mm256_sub_epi32(self.0[i], o.0[i]) }))
        }
        #[inline(always)]
        fn shr<const N: u32>(self) -> Self {
            let n = unsafe { _mm_cvtsi32_si128(N as i32) };
            Banded(four!(i => unsafe { _mm256_srl_epi32(self.0[i], n) }))
        }
        #[inline(always)]
        fn shl<const N: u32>(self) -> Self {
            let n = unsafe { _mm_cvtsi32_si128(N as i32) };
            Banded(four!(i => unsafe { _mm256_sll_epi32(self.0[i], n) }))
        }
        #[inline(always)]
        fn test(self, o: Self) -> Mask {
            Mask {
                neg: true,
                ..self.test_zero(o)
            }
        }
        #[inline(always)]
        fn test_zero(self, o: Self) -> Mask {
            let zero = unsafe { _mm256_setzero_si256() };
            Mask {
                v: four!(i => unsafe {
                    _mm256_cmpeq_epi32(_mm256_and_si256(self.0[i], o.0[i]), zero)
                }),
                neg: false,
            }
        }
        #[inline(always)]
        fn both(a: Mask, b: Mask) -> Mask {
            Mask {
                v: four!(i => unsafe {
                    match (a.neg, b.neg) {
                        (false, false) => _mm256_and_si256(a.v[i], b.v[i]),
                        (false, true) => _mm256_andnot_si256(b.v[i], a.v[i]),
                        (true, false) => _mm256_andnot_si256(a.v[i], b.v[i]),
                        (true, true) => _mm256_or_si256(a.v[i], b.v[i]),
                    }
                }),
                neg: a.neg && b.neg,
            }
        }
        #[inline(always)]
        fn either(a: Mask, b: Mask) -> Mask {
            // Neither complement, for complements.
            Mask {
                v: four!(i => unsafe {
                    match (a.neg, b.neg) {
                        (false, false) => _mm256_or_si256(a.v[i], b.v[i]),
                        (false, true) => _mm256_andnot_si256(a.v[i], b.v[i]),
                        (true, false) => _mm256_andnot_si256(b.v[i], a.v[i]),
                        (true, true) => _mm256_and_si256(a.v[i], b.v[i]),
                    }
                }),
                neg: a.neg || b.neg,
            }
        }
        #[inline(always)]
        fn keep(m: Mask, x: Self) -> Self {
            Banded(four!(i => unsafe {
                if m.neg {
                    _mm256_andnot_si256(m.v[i], x.0[i])
                } else {
                    _mm256_and_si256(m.v[i], x.0[i])
                }
            }))
        }
        #[inline(always)]
        fn any_other(m: Mask) -> Mask {
            // Some of two flags: neither complement, for complements.
            Mask {
                v: others(!m.neg, m.v),
                neg: m.neg,
            }
        }
        #[inline(always)]
        fn both_others(m: Mask) -> Mask {
            Mask {
                v: others(m.neg, m.v),
                neg: m.neg,
            }
        }
        #[inline(always)]
        fn other_bands(self) -> Self {
            Banded(others(true, self.0))
        }
        #[inline(always)]
        fn band_above(self) -> Self {
            let [a, b, _, r] = self.0;
            unsafe {
                // Register 3: lane `b` takes lane `b - 1` (lane 0 zero).
                let r = _mm256_and_si256(_mm256_slli_si256::<4>(r), nine());
                Banded([_mm256_setzero_si256(), a, b, r])
            }
        }
        #[inline(always)]
        fn band_below(self) -> Self {
            let [_, b, c, r] = self.0;
            unsafe {
                // Register 3: lane `b` takes lane `b + 1` (lane 2 zero).
                let r = _mm256_and_si256(
                    _mm256_srli_si256::<4>(r),
                    _mm256_setr_epi32(-1, -1, 0, 0, 0, 0, 0, 0),
                );
                Banded([b, c, _mm256_setzero_si256(), r])
            }
        }
        #[inline(always)]
        fn two_bands_away(self) -> Self {
            let [a, _, c, r] = self.0;
            unsafe {
                // Register 3: lane 0 takes lane 2 and lane 2 lane 0 (lane 1 zero).
                let r = _mm256_and_si256(
                    _mm256_shuffle_epi32::<0b11_00_01_10>(r),
                    _mm256_setr_epi32(-1, 0, -1, 0, 0, 0, 0, 0),
                );
                Banded([c, _mm256_setzero_si256(), a, r])
            }
        }
        #[inline(always)]
        fn lower_digit<const K: usize>(self) -> Self {
            let [a, b, c, _] = self.0;
            unsafe {
                let lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
                let k = _mm256_set1_epi32(K as i32);
                // Lane `d` takes lane `d - K` (the low three bits of a negative
                // index pick some lane; those lanes are cleared).
                let from = _mm256_sub_epi32(lane, k);
                let keep = _mm256_cmpgt_epi32(k, lane);
                // The ninth digit's lane `b`: digit `8 - K` of band `b` (lane `8 - K`
                // of register `b`).
                let at = _mm256_set1_epi32(8 - K as i32);
                let ninth = _mm256_blend_epi32::<0b100>(
                    _mm256_blend_epi32::<0b010>(
                        _mm256_permutevar8x32_epi32(a, at),
                        _mm256_permutevar8x32_epi32(b, at),
                    ),
                    _mm256_permutevar8x32_epi32(c, at),
                );
                Banded([
                    _mm256_andnot_si256(keep, _mm256_permutevar8x32_epi32(a, from)),
                    _mm256_andnot_si256(keep, _mm256_permutevar8x32_epi32(b, from)),
                    _mm256_andnot_si256(keep, _mm256_permutevar8x32_epi32(c, from)),
                    _mm256_and_si256(ninth, nine()),
                ])
            }
        }
        #[inline(always)]
        fn higher_digit<const K: usize>(self) -> Self {
            let [a, b, c, r] = self.0;
            unsafe {
                let lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
                let last = _mm256_set1_epi32(8 - K as i32);
                // Lane `d` takes lane `d + K` below lane 8 - K, the ninth digit's
                // word at lane 8 - K, and nothing above.
                let from = _mm256_add_epi32(lane, _mm256_set1_epi32(K as i32));
                let keep = _mm256_cmpgt_epi32(last, lane);
                let ninth = _mm256_cmpeq_epi32(last, lane);
                Banded([
                    higher_lanes(a, from, keep, ninth, r, 0),
                    higher_lanes(b, from, keep, ninth, r, 1),
                    higher_lanes(c, from, keep, ninth, r, 2),
                    _mm256_setzero_si256(),
                ])
            }
        }
        #[inline(always)]
        fn any_zero(self) -> bool {
            // The least of each lane over the registers (register 3's non-slots ones).
            unsafe {
                let [a, b, c, r] = self.0;
                let r = _mm256_or_si256(r, _mm256_xor_si256(nine(), _mm256_set1_epi32(-1)));
                let least = _mm256_min_epu32(_mm256_min_epu32(a, b), _mm256_min_epu32(c, r));
                nonzero(_mm256_cmpeq_epi32(least, _mm256_setzero_si256()))
            }
        }
        #[inline(always)]
        fn any_ne(self, x: u32) -> bool {
            let x = unsafe { _mm256_set1_epi32(x as i32) };
            nonzero(Banded(four!(i => unsafe { _mm256_xor_si256(self.0[i], x) })).fold())
        }
        #[inline(always)]
        fn any_common(self, o: Self) -> bool {
            nonzero(self.and(o).fold())
        }
        #[inline(always)]
        fn differs(self, o: Self) -> bool {
            nonzero(Banded(four!(i => unsafe { _mm256_xor_si256(self.0[i], o.0[i]) })).fold())
        }
        #[inline(always)]
        fn band_counts(self) -> ([__m256i; 2], [__m256i; 2]) {
            let [b0, b1, b2, r] = self.0;
            unsafe {
                // The halves of bands 0 and 1 into one register (band 0's in the low
                // 128 bits), band 2's halves into each other.
                let (x, y) = (
                    _mm256_permute2x128_si256::<0x20>(b0, b1),
                    _mm256_permute2x128_si256::<0x31>(b0, b1),
                );
                let z = _mm256_permute2x128_si256::<0x01>(b2, b2);
                let (o01, t01) = (_mm256_or_si256(x, y), _mm256_and_si256(x, y));
                let (o2, t2) = (_mm256_or_si256(b2, z), _mm256_and_si256(b2, z));
                // Then within 128 bits: lanes i and i ^ 1, then i and i ^ 2.
                let (o01, t01) = merge_within::<0b10_11_00_01>(o01, t01);
                let (o2, t2) = merge_within::<0b10_11_00_01>(o2, t2);
                let (o01, t01) = merge_within::<0b01_00_11_10>(o01, t01);
                let (o2, t2) = merge_within::<0b01_00_11_10>(o2, t2);
                // And the ninth digit.
                let n01 = _mm256_permutevar8x32_epi32(r, _mm256_setr_epi32(0, 0, 0, 0, 1, 1, 1, 1));
                let n2 = _mm256_permutevar8x32_epi32(r, _mm256_set1_epi32(2));
                let (o01, t01) = merge(o01, t01, n01, _mm256_setzero_si256());
                let (o2, t2) = merge(o2, t2, n2, _mm256_setzero_si256());
                ([o01, o2], [t01, t2])
            }
        }
        #[inline(always)]
        fn band_back(x: [__m256i; 2]) -> Self {
            let [x01, x2] = x;
            unsafe {
                let r = _mm256_permutevar8x32_epi32(x01, _mm256_setr_epi32(0, 4, 0, 0, 0, 0, 0, 0));
                let r = _mm256_blend_epi32::<0b100>(r, x2);
                Banded([
                    _mm256_permute2x128_si256::<0x00>(x01, x01),
                    _mm256_permute2x128_si256::<0x11>(x01, x01),
                    x2,
                    _mm256_and_si256(r, nine()),
                ])
            }
        }
        #[inline(always)]
        fn band_any(x: [__m256i; 2]) -> bool {
            unsafe { nonzero(_mm256_or_si256(x[0], x[1])) }
        }
        #[inline(always)]
        fn band_any_ne(x: [__m256i; 2], w: u32) -> bool {
            unsafe {
                let w = _mm256_set1_epi32(w as i32);
                nonzero(_mm256_or_si256(
                    _mm256_xor_si256(x[0], w),
                    _mm256_xor_si256(x[1], w),
                ))
            }
        }
        #[inline(always)]
        fn band_andn(a: [__m256i; 2], b: [__m256i; 2]) -> [__m256i; 2] {
            unsafe {
                [
                    _mm256_andnot_si256(b[0], a[0]),
                    _mm256_andnot_si256(b[1], a[1]),
                ]
            }
        }
        #[inline(always)]
        fn band0_digits(m: Mask) -> u16 {
            let (lo, hi) = unsafe {
                (
                    _mm256_movemask_ps(_mm256_castsi256_ps(m.v[0])) as u16,
                    _mm256_movemask_ps(_mm256_castsi256_ps(m.v[3])) as u16 & 1,
                )
            };
            let bits = lo | hi << 8;
            if m.neg {
                !bits & 0x1FF
            } else {
                bits
            }
        }
        #[inline(always)]
        fn update(self, b: usize, d: usize, clear: u32, set: u32) -> Self {
            let (reg, lane) = if d < 8 { (b, d) } else { (3, b) };
            let mut v = self.0;
            unsafe {
                let w = v[reg];
                let at = _mm256_cmpeq_epi32(
                    _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7),
                    _mm256_set1_epi32(lane as i32),
                );
                let changed = _mm256_or_si256(
                    _mm256_andnot_si256(_mm256_set1_epi32(clear as i32), w),
                    _mm256_set1_epi32(set as i32),
                );
                v[reg] = _mm256_blendv_epi8(w, changed, at);
            }
            Banded(v)
        }
    }

    super::compiled_search! {
        /// [`super::run`] on AVX2 registers, compiled with AVX2 and the bit
        /// instructions. The CPU must have them ([`available`]).
        run, branch, Banded, "avx2,popcnt,bmi1,bmi2,lzcnt"
    }

    super::compiled_search! {
        /// [`run`] compiled with AVX-512VL as well: the same 256-bit code, in which the
        /// compiler may fuse logic into ternary-logic instructions and compare into mask
        /// registers. The CPU must have them ([`available_vl`]).
        run_vl, branch_vl, Banded, "avx2,avx512f,avx512vl,popcnt,bmi1,bmi2,lzcnt"
    }
}

/// The columns a word has cells in.
#[inline(always)]
fn fold<W: Words>(x: W) -> W {
    x.or(x.shr::<9>()).or(x.shr::<18>()).and(W::splat(0x1FF))
}

/// A column set on every row of a band.
#[inline(always)]
pub(super) fn spread_lanes<W: Words>(c: W) -> W {
    c.or(c.shl::<9>()).or(c.shl::<18>())
}

/// Bits of `a` where `m` is set, of `b` elsewhere (one ternary-logic instruction).
#[inline(always)]
fn pick<W: Words>(m: u32, a: W, b: W) -> W {
    let m = W::splat(m);
    a.and(m).or(b.andn(m))
}

/// Column sets (nine bits): each column to the next in its stack (and stray bits
/// above the nine).
#[inline(always)]
fn columns_up1<W: Words>(x: W) -> W {
    pick(0o111, x.shr::<2>(), x.shl::<1>())
}

/// Column sets: each column to the one after next in its stack (stray bits above).
#[inline(always)]
fn columns_up2<W: Words>(x: W) -> W {
    pick(0o444, x.shl::<2>(), x.shr::<1>())
}

/// The rows of a band that `x` has cells in, whole.
#[inline(always)]
fn row_fill<W: Words>(x: W) -> W {
    // A row's low eight bits plus 0xFF reach its ninth bit when one is set (and never
    // carry out of the row): then the ninth bit says whether the row has a cell, and
    // that bit less its row's first, plus itself, is the whole row.
    let low = W::splat(0xFF * (1 | 1 << 9 | 1 << 18));
    let top = x
        .and(low)
        .add(low)
        .or(x)
        .and(W::splat(0x100 * (1 | 1 << 9 | 1 << 18)));
    top.sub(top.shr::<8>()).or(top)
}

/// Rule 1 on every word of a band: the word left by row/box matching, its placed
/// cells, its columns, and those it takes from its digit's other bands (the columns
/// alone in their box).
#[inline(always)]
fn rows_and_boxes<W: Words>(a: W) -> (W, W, W, W) {
    let s = a.or(a.shr::<1>()).or(a.shr::<2>()).and(W::splat(SEGMENTS));
    let r0 = s.and(W::splat(0o111));
    // Rows 1 and 2 with their three boxes twice (bits 0 to 8 and 9 to 17), so that
    // shifting right by 3 or 6 rotates the boxes (stray bits go with r0's mask).
    let (s9, s18) = (s.shr::<9>(), s.shr::<18>());
    let (r1, r2) = (pick(0x1FF, s9, s), pick(0x1FF, s18, s9));
    // The matchings that send row 0 to box j, row 1 to j + 1 and row 2 to j + 2
    // (bit j of e1), and row 1 to j - 1, row 2 to j - 2 (e2).
    let e1 = r0.and(r1.shr::<3>()).and(r2.shr::<6>());
    let e2 = r0.and(r1.shr::<6>()).and(r2.shr::<3>());
    // The boxes each row can take: with the matchings twice (bits 0 to 8 and 9 to
    // 17), row 1's boxes are e1 shifted up 3 and e2 up 6, row 2's e1 up 15 and e2
    // up 12, each kept to its row's segments.
    let (d1, d2) = (e1.or(e1.shl::<9>()), e2.or(e2.shl::<9>()));
    let c1 = d1.shl::<3>().or(d2.shl::<6>()).and(W::splat(0o111 << 9));
    let c2 = d1.shl::<15>().or(d2.shl::<12>()).and(W::splat(0o111 << 18));
    let c = e1.or(e2).or(c1).or(c2);
    let a = a.and(c.or(c.shl::<1>()).or(c.shl::<2>()));
    // A row with one box left: that segment is forced. Each row's count of boxes in
    // its first two bits (the segment bits are three apart, so a row's sum of three
    // carries at most into the bit after its first), and the rows counting one whole
    // (`a` is in the row's boxes already).
    let n = c.add(c.shr::<3>()).add(c.shr::<6>());
    let one = n.andn(n.shr::<1>()).and(W::splat(ROW_STARTS));
    let forced = one.shl::<9>().sub(one);
    let cols = fold(a);
    let single = cols.andn(columns_up1(cols)).andn(columns_up2(cols));
    (a, a.and(forced).and(spread_lanes(single)), cols, single)
}

/// The cells a king's diagonal move away from the cells of `p` (each slot: the
/// placed cells of a word): in the word's band by shifts of one row and one column
/// (a row is 9 bits), and from the neighbouring bands' edge rows (its row 0 from the
/// band above's row 2, its row 2 from the band below's row 0).
#[inline(always)]
fn king_moves<W: Words>(p: W) -> W {
    const COL0: u32 = 1 | 1 << 9 | 1 << 18;
    const COL8: u32 = COL0 << 8;
    // The cells that may move one column right, and one column left.
    let (r1, l1) = (p.andn(W::splat(COL8)), p.andn(W::splat(COL0)));
    let own = r1
        .shl::<10>()
        .or(l1.shl::<8>())
        .or(r1.shr::<8>())
        .or(l1.shr::<10>())
        .and(W::splat(BAND));
    // Row 2 to the band below's row 0 (bits 18 + c to c + 1 and c - 1; the other rows
    // shift out), row 0 to the band above's row 2 (bits c to 18 + c + 1 and 18 + c - 1).
    let down = r1.shr::<17>().or(l1.shr::<19>());
    let (r0, l0) = (r1.and(W::splat(0x1FF)), l1.and(W::splat(0x1FF)));
    let up = r0.shl::<19>().or(l0.shl::<17>());
    own.or(down.band_above()).or(up.band_below())
}

/// Locked candidates through king moves, boxes within a band: a cell in the column
/// next to a box (columns 2, 3, 5 and 6, beside boxes 1, 0, 2 and 1) that sees every
/// place of the digit in that box loses it. It sees the box's places in its own row,
/// and those in the box's column next to it (the edge column) in its row and the rows
/// above and below (a king's diagonal step): so the places off the edge column must
/// lie in its row, and those on it must not be two rows away. From each slot's word
/// `w`, as that slot's removals.
#[inline(always)]
fn king_locked<W: Words>(w: W) -> W {
    const COL0: u32 = 1 | 1 << 9 | 1 << 18;
    let (c36, c25) = (
        W::splat(COL0 << 3 | COL0 << 6),
        W::splat(COL0 << 2 | COL0 << 5),
    );
    // At each target cell (columns 3 and 6: the box on the left; 2 and 5: on the
    // right): whether its row has places off the edge column (`t`), and on it (`e`).
    // The shifts that cross a row land in masked-out columns.
    let t = w
        .shl::<3>()
        .or(w.shl::<2>())
        .and(c36)
        .or(w.shr::<2>().or(w.shr::<3>()).and(c25));
    let e = w.shl::<1>().and(c36).or(w.shr::<1>().and(c25));
    // A target fails when another row has places off the edge column, or the row two
    // away has one on it.
    let bad = t
        .shl::<9>()
        .or(t.shr::<9>())
        .or(t.shl::<18>())
        .or(t.shr::<18>())
        .or(e.shl::<18>())
        .or(e.shr::<18>());
    c36.or(c25).andn(bad)
}

/// Locked candidates through king moves, columns across the bands: a cell next to a
/// column (one column left or right of it) that sees every place of the digit in that
/// column, over all three bands, loses it. A cell sees the column's places in its own
/// row and the rows above and below (a row or a king's diagonal step), and those in
/// its own box. So for a cell in row `r` of its band, the column's places in the
/// other bands must lie in the row next to it across the band's edge (the band
/// above's last row for `r = 0`, the band below's first for `r = 2`), and those in its
/// own band, when the column is in another stack, in rows `r - 1 ..= r + 1`; in its
/// own stack they are in its box. From each slot's word `w` (all three bands' words
/// in their slots), as that slot's removals; vacuously true for a column without a
/// place (a dead word).
#[inline(always)]
fn king_columns<W: Words>(w: W) -> W {
    let nine = W::splat(0x1FF);
    let f = fold(w);
    // Columns with places in rows 0-1 and in rows 1-2 of each slot's band.
    let top = w.or(w.shr::<9>()).and(nine);
    let bottom = w.shr::<9>().or(w.shr::<18>()).and(nine);
    // The band above: all its columns, and those of its rows 0-1; the band below: all,
    // and those of its rows 1-2 (one move each, two words packed).
    let above = f.or(top.shl::<9>()).band_above();
    let below = f.or(bottom.shl::<9>()).band_below();
    let far = f.two_bands_away();
    let (above_all, above_top) = (above.and(nine), above.shr::<9>());
    let (below_all, below_bottom) = (below.and(nine), below.shr::<9>());
    // The columns whose places a cell of row 0, 1 or 2 next to them cannot all see
    // from another band.
    let bad = [
        above_top.or(below_all).or(far),
        above_all.or(below_all).or(far),
        above_all.or(below_bottom).or(far),
    ];
    // In another stack, also those with a place in its band two rows away.
    let own = [w.shr::<18>(), W::splat(0), w.and(nine)];
    // Columns 2, 5 and 8 (to the column on their right) and 0, 3 and 6 (to the left)
    // lead to another stack.
    let (right_cross, left_cross) = (W::splat(0o444), W::splat(0o111));
    let mut gone = W::splat(0);
    macro_rules! row {
        ($r:literal) => {{
            let ok = nine.andn(bad[$r]);
            let cross = ok.andn(own[$r]);
            let right = ok.andn(right_cross).or(cross.and(right_cross)).shl::<1>();
            let left = ok.andn(left_cross).or(cross.and(left_cross)).shr::<1>();
            gone = gone.or(right.or(left).and(nine).shl::<{ 9 * $r }>());
        }};
    }
    row!(0);
    row!(1);
    row!(2);
    gone
}

/// A found contradiction.
struct Dead;

/// A digit in a cell: (band, cell in the band, digit).
type Place = (usize, usize, usize);

/// What to branch on ([`State::branch`]).
type Branch = (Place, Option<Place>);

/// A position on the search's stack and the cell (0-80) of the guess that made it
/// (for the failure counts of [`State::busiest`]).
pub(crate) type Entry<W> = (State<W>, u8);

/// The search's stack: positions to come back to, and for rule sets with extra houses
/// what their houses were last scanned on (see [`State::propagate`]).
#[derive(Clone)]
pub(crate) struct Stack<W> {
    entries: Vec<Entry<W>>,
    seen: Vec<(W, W)>,
    /// Looked at before each guess: once set, the search gives up.
    stop: StopFlag,
}

impl<W> Stack<W> {
    fn new() -> Stack<W> {
        Stack {
            entries: Vec::with_capacity(81),
            seen: Vec::with_capacity(81),
            stop: StopFlag::never(),
        }
    }
}

/// A search position: every (band, digit) word, laid out by `W`.
#[derive(Clone, Copy)]
pub(crate) struct State<W> {
    v: W,
}

impl<W: Words> State<W> {
    /// The position of `grid`'s givens, not yet propagated; `None` when two givens
    /// share a row or box of one band (the rest is found by propagation).
    #[inline(always)]
    fn start(grid: &Grid) -> Option<State<W>> {
        let mut given = [[0u32; 3]; 10];
        for (cell, &digit) in grid.cells().iter().enumerate() {
            given[usize::from(digit)][cell / 27] |= 1 << (cell % 27);
        }
        let mut bad = false;
        let mut w = [[0u32; 9]; 3];
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
                w[band][d] = (BAND & !peers & !filled) | g;
            }
        }
        if bad {
            return None;
        }
        Some(State {
            v: W::from_words(&w),
        })
    }

    /// The words, `[band][digit]`.
    #[inline(always)]
    fn words(&self) -> [[u32; 9]; 3] {
        self.v.to_words()
    }

    /// Put digit `d` in cell `i` of band `b`: it leaves the cell's row and box there.
    #[inline(always)]
    fn assign(&mut self, b: usize, i: usize, d: usize) {
        self.v = self.v.update(b, d, ROW_BOX[i], 1 << i);
    }

    /// Take digit `d` from cell `i` of band `b`.
    #[inline(always)]
    fn forbid(&mut self, b: usize, i: usize, d: usize) {
        self.v = self.v.update(b, d, 1 << i, 0);
    }

    /// One round of rules 1 to 5 (see the module docs), except the diagonal pairs, and
    /// of rule 6 if `houses`. `Ok(true)` if anything changed; `solved` is set when
    /// every cell had one candidate after the naked singles.
    #[inline(always)]
    fn round<R: Extra>(
        &mut self,
        solved: &mut bool,
        seen: &mut (W, W),
        houses: bool,
    ) -> Result<bool, Dead> {
        let old = self.v;
        // 1. Rows and boxes, word by word.
        let (a, placed, cols, single) = rows_and_boxes(old);
        if a.any_zero() {
            return Err(Dead);
        }
        // Columns claimed by the digit's other bands go now; its diagonals where it
        // is placed in another band at the end of the round (rules 3 to 5 read the
        // words from here, so that they run side by side: the round's longest chain
        // of dependent instructions is its cost as much as its instruction count).
        let taken = single.other_bands();
        let mut n = a.andn(spread_lanes(taken));
        let n1 = n;
        // 3. Naked singles (counted before rule 2, which changes no other cell's
        // count, so that the two run side by side): the cell leaves its digit's row
        // (the next round's rule 1 places it). An empty cell, or a cell placed for two
        // digits, is a contradiction.
        let (one, two) = n.band_counts();
        let (placed_any, placed_twice) = placed.band_counts();
        if W::band_any_ne(one, BAND) || W::band_any(placed_twice) {
            return Err(Dead);
        }
        *solved = !W::band_any(W::band_andn(two, placed_any));
        // 2. Placed cells leave the band's other digits.
        let any = W::band_back(placed_any);
        let x = n.andn(W::band_back(two));
        // (`any` holds `placed`, and a row `x` has cells in holds them: the XORs
        // are the differences.)
        n = n.andn(any.xor(placed)).andn(row_fill(x).xor(x));
        // 4. The diagonals, from the words rule 3 starts with: pointing and claiming
        // (which also places a hidden single: its box keeps it alone, and rule 1 does
        // the rest). Pointing and rule 1's diagonal claims both take a diagonal's
        // parts, the first where another band has the digit's box on the diagonal
        // only, the second where another band has it placed on the diagonal: one
        // flag for both, spread to the other bands once.
        let mut gone = W::splat(0);
        for h in 0..if R::DIAGONALS { 2 } else { 0 } {
            let diag = W::diagonal(h);
            let rest = W::diagonal_box_rest(h);
            let points = W::either(n1.test_zero(rest), placed.test(diag));
            let pointing = W::keep(W::any_other(points), diag);
            let claiming = W::keep(W::both_others(n1.test_zero(diag)), rest);
            gone = gone.or(pointing).or(claiming);
        }
        // 6. Extra houses by fixed masks, from the same words. A house's removals
        // depend on its cells' words and placed cells alone: where those are what the
        // last scan saw (`seen`), they went then, and the scan is skipped.
        if houses && !R::HOUSES.is_empty() {
            let changed = n1.xor(seen.0).or(placed.xor(seen.1));
            for &m in R::HOUSES {
                let m = W::per_band(m);
                if changed.any_common(m) {
                    gone = gone.or(Self::house(m, placed, n1)?);
                }
            }
            *seen = (n1, placed);
        }
        // 7. Anti-king: a placed cell takes its digit from the cells a king's diagonal
        // move away, in its band and in the next row of the bands above and below;
        // locked candidates through king moves for boxes and columns.
        if R::KING {
            gone = gone
                .or(king_moves(placed))
                .or(king_locked(n1))
                .or(king_columns(n1));
        }
        // 8. Non-consecutive, from the same words.
        if R::NC {
            gone = gone.or(super::non_consecutive_places::vector_rules(n1));
        }
        n = n.andn(gone);
        // 5. Columns only one band can supply, from the same words (their columns:
        // rule 1's less those taken).
        let cols = cols.andn(taken);
        let others = cols.other_bands();
        if cols.or(others).any_ne(0x1FF) {
            return Err(Dead);
        }
        let own = cols.andn(others);
        let mates = columns_up1(own).or(columns_up2(own));
        if own.any_common(mates) {
            return Err(Dead);
        }
        // The columns of stacks without an own column and the own columns stay,
        // that is all but the mates (an own column is no mate of another).
        n = n.andn(spread_lanes(mates.and(W::splat(0x1FF))));
        self.v = n;
        Ok(n.differs(old))
    }

    /// Rule 6 for one extra house `m` (each slot its band's part): what goes, from
    /// rule 1's placed cells and the words `n1`. A cell placed in the house takes the
    /// digit from the rest of it (two placed in one band's part are a contradiction);
    /// a house without a place for a digit is a contradiction; a digit whose places
    /// in the house all lie in one row or one box of one band leaves the rest of that
    /// row or box (claiming; a hidden single in the house is a place alone in its row
    /// there, which the next round's rule 1 places).
    #[inline(always)]
    fn house(m: W, placed: W, n1: W) -> Result<W, Dead> {
        let p = placed.and(m);
        if p.any_common(p.dec()) {
            return Err(Dead);
        }
        let f = p.test(p);
        let peers = W::keep(W::any_other(f), m).or(W::keep(f, m.andn(placed)));
        let c = n1.and(m);
        let all = c.or(c.other_bands());
        if all.any_zero() {
            return Err(Dead);
        }
        let col_claims = Self::column_claims(m, all);
        let alone = W::both_others(c.test_zero(c));
        let rows = row_fill(c);
        let starts = rows.and(W::splat(ROW_STARTS));
        let one_row = starts.test_zero(starts.dec());
        let cols = fold(c);
        let stacks = cols
            .or(cols.shr::<1>())
            .or(cols.shr::<2>())
            .and(W::splat(0o111));
        let one_box = stacks.test_zero(stacks.dec());
        let boxes = spread_lanes(stacks.or(stacks.shl::<1>()).or(stacks.shl::<2>()));
        let claims = W::keep(W::both(alone, one_row), rows.andn(m))
            .or(W::keep(W::both(alone, one_box), boxes.andn(m)));
        Ok(peers.or(claims).or(col_claims))
    }

    /// Claiming through columns, for extra house `m` (each slot its band's part) and
    /// `all`, each slot the digit's places in the house in every band (their parts use
    /// disjoint bit positions): a digit whose places in the house all lie in one column
    /// leaves the rest of that column, in every band. (On the bench's 100 generated
    /// puzzles, 5.2 -> 4.8 guesses a puzzle under windoku, 50.7 -> 45.4 under
    /// x,windoku.)
    #[inline(always)]
    fn column_claims(m: W, all: W) -> W {
        let cols = fold(all);
        let one = cols.test_zero(cols.dec());
        W::keep(one, spread_lanes(cols).andn(m))
    }

    /// A digit's places on diagonal `h`: in its own band, and in every band.
    #[inline(always)]
    fn diagonal_places(&self, h: usize) -> (W, W) {
        let parts = self.v.and(W::diagonal(h));
        (parts, parts.or(parts.other_bands()))
    }

    /// The slots of the digits with two places left in `x` (their places on a
    /// diagonal).
    #[inline(always)]
    fn two_places(x: W) -> W::Mask {
        let rest = x.and(x.dec());
        W::both(rest.test(rest), rest.test_zero(rest.dec()))
    }

    /// Two places left on a diagonal: the cells in the row of one and the column of
    /// the other go. Run when the rounds stall (it seldom finds anything, and costs a
    /// sixth of a round). `Ok(true)` if anything went.
    #[inline(always)]
    fn diagonal_pairs(&mut self) -> Result<bool, Dead> {
        let old = self.v;
        for h in 0..2 {
            let (parts, x) = self.diagonal_places(h);
            if x.any_zero() {
                return Err(Dead);
            }
            let cols = spread_lanes(fold(x));
            let seen = row_fill(parts).and(cols).andn(parts);
            self.v = self.v.andn(W::keep(Self::two_places(x), seen));
        }
        Ok(self.v.differs(old))
    }

    /// Propagate until nothing changes. `Ok(true)` when solved. Rule 6 runs when the
    /// other rules have stalled (see the module docs).
    ///
    /// `seen` is the words and placed cells the extra houses were last scanned on (the
    /// removals of a house's scan on them are gone from the words): zero when there was
    /// none (a house with no candidate in any word has cells without one, which rule 3
    /// finds), or after a propagation, what it left, valid for the position and for
    /// positions made from it by guesses.
    #[inline(always)]
    fn propagate<R: Extra>(&mut self, seen: &mut (W, W)) -> Result<bool, Dead> {
        let mut solved = false;
        loop {
            while self.round::<R>(&mut solved, seen, R::HOUSES.is_empty())? {}
            if !R::HOUSES.is_empty() && self.round::<R>(&mut solved, seen, true)? {
                continue;
            }
            if solved || !(R::DIAGONALS && self.diagonal_pairs()?) {
                return Ok(solved);
            }
        }
    }

    /// What to branch on: (band, cell, digit) first, and the other side, a second
    /// placement or (`None`) "not that digit there".
    #[inline(always)]
    fn branch<R: Extra>(&self, failures: &[u32; CELLS]) -> Branch {
        // A digit with two places on a diagonal: the first, main diagonal first (the
        // band-0 slots hold each digit's places on the whole diagonal).
        let two = if R::DIAGONALS {
            [
                W::band0_digits(Self::two_places(self.diagonal_places(0).1)),
                W::band0_digits(Self::two_places(self.diagonal_places(1).1)),
            ]
        } else {
            [0; 2]
        };
        let hits = two[0] | two[1];
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
        let (mut pairs, mut open) = ([0u32; 3], [0u32; 3]);
        for b in 0..3 {
            let (mut one, mut two, mut three) = (0, 0, 0);
            for d in 0..9 {
                three |= two & w[b][d];
                two |= one & w[b][d];
                one |= w[b][d];
            }
            pairs[b] = two & !three;
            open[b] = two;
        }
        let digits = |b: usize, i: usize| (0..9).filter(move |&d| w[b][d] >> i & 1 != 0);
        if R::BUSIEST {
            let (b, i) = Self::busiest::<R>(&w, pairs, open, failures);
            let mut ds = digits(b, i);
            let d = ds.next().expect("a candidate");
            // With two candidates, the other side is the second placed at once.
            let other = (pairs[b] >> i & 1 != 0).then(|| (b, i, ds.next().expect("two")));
            return ((b, i, d), other);
        }
        let cell = (0..3)
            .find(|&b| pairs[b] & R::PREFER[b] != 0)
            .map(|b| (b, (pairs[b] & R::PREFER[b]).trailing_zeros() as usize))
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

    /// The open cell (more than one candidate) with the fewest candidates; among
    /// those, the one whose guesses failed most often so far in this search
    /// (`failures`, per cell: a position that propagation found dead counts against the
    /// cell of the guess that made it), then the one with the most open peers
    /// ([`Extra::PEERS`]), then the first. As the band engine branches under windoku.
    #[inline(always)]
    fn busiest<R: Extra>(
        w: &[[u32; 9]; 3],
        pairs: [u32; 3],
        open: [u32; 3],
        failures: &[u32; CELLS],
    ) -> (usize, usize) {
        let any_pair = pairs[0] | pairs[1] | pairs[2] != 0;
        // (candidates, failures, open peers, band, cell)
        let mut best = (u32::MAX, 0, 0, 0, 0);
        for b in 0..3 {
            let mut cells = if any_pair { pairs[b] } else { open[b] };
            while cells != 0 {
                let i = cells.trailing_zeros() as usize;
                cells &= cells - 1;
                let n = if any_pair {
                    2
                } else {
                    (0..9).map(|d| w[b][d] >> i & 1).sum()
                };
                let failed = failures[b * 27 + i];
                if R::WEIGHTED && !any_pair && best.0 != u32::MAX {
                    // Fewer candidates per failure (plus one) first: n / (failed + 1)
                    // against the best one's, without division.
                    let this = u64::from(n) * u64::from(best.1 + 1);
                    let that = u64::from(best.0) * u64::from(failed + 1);
                    if this != that {
                        if this < that {
                            let p = &R::PEERS[b * 27 + i];
                            let peers = (p[0] & open[0]).count_ones()
                                + (p[1] & open[1]).count_ones()
                                + (p[2] & open[2]).count_ones();
                            best = (n, failed, peers, b, i);
                        }
                        continue;
                    }
                }
                if n > best.0 || (n == best.0 && failed < best.1) {
                    continue;
                }
                let p = &R::PEERS[b * 27 + i];
                let peers = (p[0] & open[0]).count_ones()
                    + (p[1] & open[1]).count_ones()
                    + (p[2] & open[2]).count_ones();
                if n < best.0 || failed > best.1 || peers > best.2 {
                    best = (n, failed, peers, b, i);
                }
            }
        }
        (best.3, best.4)
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

/// The search: depth first, the other branch of each guess on `stack`, given up before
/// a guess once the stack's stop flag is set. Returns (solutions found up to `limit`,
/// guesses made). `branch` is [`State::branch`], which
/// the vector searches compile out of line: the loop of rounds is then compiled on
/// its own (inlined, the branch's code changed how the rounds' registers were
/// allocated, and cost the AVX-512 search 8 %).
#[inline(always)]
pub(crate) fn run<W: Words, R: Extra>(
    grid: &Grid,
    stack: &mut Stack<W>,
    limit: u64,
    found: &mut dyn FnMut(Grid),
    branch: impl Fn(&State<W>, &[u32; CELLS]) -> Branch,
) -> (u64, u64) {
    stack.entries.clear();
    stack.seen.clear();
    let (mut solutions, mut guesses) = (0, 0);
    let Some(mut cur) = State::<W>::start(grid) else {
        return (0, 0);
    };
    let mut seen = (W::splat(0), W::splat(0));
    // The cell of the guess that made `cur` (none for the start), and per cell the
    // positions found dead after a guess there (see [`State::busiest`]).
    let mut last = CELLS as u8;
    let mut failures = [0u32; CELLS];
    let mut failed = 0u32;
    loop {
        match cur.propagate::<R>(&mut seen) {
            Ok(true) => {
                found(cur.grid());
                solutions += 1;
                if solutions >= limit {
                    break;
                }
            }
            Ok(false) if stack.stop.is_set() => break,
            Ok(false) => {
                let ((b, i, d), other) = branch(&cur, &failures);
                let mut next = cur;
                match other {
                    Some((b2, i2, d2)) => next.assign(b2, i2, d2),
                    None => next.forbid(b, i, d),
                }
                last = (b * 27 + i) as u8;
                stack.entries.push((next, last));
                if !R::HOUSES.is_empty() {
                    stack.seen.push(seen);
                }
                cur.assign(b, i, d);
                guesses += 1;
                continue;
            }
            Err(Dead) => {
                if R::BUSIEST {
                    if let Some(f) = failures.get_mut(usize::from(last)) {
                        *f += 1;
                        failed += 1;
                        if R::WEIGHTED && failed.is_multiple_of(FADE_EVERY) {
                            for f in failures.iter_mut() {
                                *f -= *f / 4;
                            }
                        }
                    }
                }
            }
        }
        match stack.entries.pop() {
            Some((next, from)) => (cur, last) = (next, from),
            None => break,
        }
        if !R::HOUSES.is_empty() {
            seen = stack.seen.pop().expect("pushed with the position");
        }
    }
    (solutions, guesses)
}

/// This module's search on the vector instructions of the CPU, with its stack.
#[derive(Clone)]
pub(crate) enum Search {
    #[cfg(target_arch = "x86_64")]
    Avx512(Stack<Packed<avx512::Avx512>>),
    #[cfg(target_arch = "x86_64")]
    Avx2Vl(Stack<avx2::Banded>),
    #[cfg(target_arch = "x86_64")]
    Avx2(Stack<avx2::Banded>),
}

impl Search {
    /// The search on `v` if the CPU has it, else on the next of [`Vectors`] it has;
    /// `None` when that is [`Vectors::Scalar`] (the box-band engine's own search).
    pub(crate) fn new(v: Vectors) -> Option<Search> {
        #[cfg(target_arch = "x86_64")]
        {
            let order = [
                Vectors::Avx2Vl,
                Vectors::Avx512,
                Vectors::Avx2,
                Vectors::Scalar,
            ];
            let want = if v == Vectors::Best { BEST } else { v };
            let from = order.iter().position(|&o| o == want).unwrap_or(0);
            for o in &order[from..] {
                match o {
                    Vectors::Avx512 if avx512::available() => {
                        return Some(Search::Avx512(Stack::new()))
                    }
                    Vectors::Avx2Vl if avx2::available_vl() => {
                        return Some(Search::Avx2Vl(Stack::new()))
                    }
                    Vectors::Avx2 if avx2::available() => return Some(Search::Avx2(Stack::new())),
                    _ => {}
                }
            }
        }
        let _ = v;
        None
    }

    /// Make its searches give up once `stop` is set.
    pub(crate) fn set_stop(&mut self, stop: StopFlag) {
        // Elsewhere there is no variant: nothing reads the flag.
        #[cfg(not(target_arch = "x86_64"))]
        let _ = stop;
        match *self {
            #[cfg(target_arch = "x86_64")]
            Search::Avx512(ref mut stack) => stack.stop = stop,
            #[cfg(target_arch = "x86_64")]
            Search::Avx2Vl(ref mut stack) | Search::Avx2(ref mut stack) => stack.stop = stop,
        }
    }

    /// Whether the CPU has what `v` needs.
    pub(crate) fn available(v: Vectors) -> bool {
        match v {
            Vectors::Best | Vectors::Scalar => true,
            #[cfg(target_arch = "x86_64")]
            Vectors::Avx512 => avx512::available(),
            #[cfg(target_arch = "x86_64")]
            Vectors::Avx2Vl => avx2::available_vl(),
            #[cfg(target_arch = "x86_64")]
            Vectors::Avx2 => avx2::available(),
            #[cfg(not(target_arch = "x86_64"))]
            _ => false,
        }
    }

    /// Search `grid` under the rules of `kind` (see [`run`]).
    pub(crate) fn run(
        &mut self,
        kind: Kind,
        grid: &Grid,
        limit: u64,
        found: &mut dyn FnMut(Grid),
    ) -> (u64, u64) {
        // Elsewhere there is no variant: nothing reads the arguments.
        #[cfg(not(target_arch = "x86_64"))]
        let _ = (kind, grid, limit, found);
        // `$f::<R>` for the rules of `kind`.
        #[cfg(target_arch = "x86_64")]
        macro_rules! by_kind {
            ($m:ident :: $f:ident, $stack:expr) => {
                match kind {
                    Kind::X => $m::$f::<XRules>(grid, $stack, limit, found),
                    Kind::Windoku => $m::$f::<WindokuRules>(grid, $stack, limit, found),
                    Kind::XWindoku => $m::$f::<XWindokuRules>(grid, $stack, limit, found),
                    Kind::AntiKing => $m::$f::<AntiKingRules>(grid, $stack, limit, found),
                    Kind::NonConsecutive => {
                        $m::$f::<NonConsecutiveRules>(grid, $stack, limit, found)
                    }
                }
            };
        }
        // SAFETY: each variant is made only when the CPU has what its search is
        // compiled for (`new`).
        match *self {
            #[cfg(target_arch = "x86_64")]
            Search::Avx512(ref mut stack) => unsafe { by_kind!(avx512::run, stack) },
            #[cfg(target_arch = "x86_64")]
            Search::Avx2Vl(ref mut stack) => unsafe { by_kind!(avx2::run_vl, stack) },
            #[cfg(target_arch = "x86_64")]
            Search::Avx2(ref mut stack) => unsafe { by_kind!(avx2::run, stack) },
        }
    }
}

/// What [`Vectors::Best`] asks for (the best the CPU has of it and after it).
const BEST: Vectors = Vectors::Avx2Vl;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::Rng;
    use crate::rules::generate::random_solution;
    use crate::rules::{generate_one, HouseKind, Rule, RuleSet, Variant, VariantSolver};

    const KINDS: [(Kind, &str); 5] = [
        (Kind::X, "x"),
        (Kind::Windoku, "windoku"),
        (Kind::XWindoku, "x,windoku"),
        (Kind::AntiKing, "anti-king"),
        (Kind::NonConsecutive, "non-consecutive"),
    ];

    /// Puzzles of `rules`: generated minimal ones (one solution, the search's usual
    /// work) and random grids with 30 to 69 cells blanked (up to many solutions).
    fn puzzles(rules: &str) -> (Variant, Vec<Grid>) {
        let rules: RuleSet = rules.parse().unwrap();
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

    /// The search on plain arrays under the rules of `kind`: the reference.
    fn plain(
        kind: Kind,
        g: &Grid,
        stack: &mut Stack<Packed<Plain>>,
        limit: u64,
        found: &mut dyn FnMut(Grid),
    ) -> (u64, u64) {
        match kind {
            Kind::X => run::<_, XRules>(g, stack, limit, found, State::branch::<XRules>),
            Kind::Windoku => {
                run::<_, WindokuRules>(g, stack, limit, found, |s, f| s.branch::<WindokuRules>(f))
            }
            Kind::XWindoku => {
                run::<_, XWindokuRules>(g, stack, limit, found, |s, f| s.branch::<XWindokuRules>(f))
            }
            Kind::AntiKing => {
                run::<_, AntiKingRules>(g, stack, limit, found, |s, f| s.branch::<AntiKingRules>(f))
            }
            Kind::NonConsecutive => {
                run::<_, NonConsecutiveRules>(g, stack, limit, found, |s, f| {
                    s.branch::<NonConsecutiveRules>(f)
                })
            }
        }
    }

    /// `search` makes the same guesses and finds the same solutions, in the same order,
    /// as the search on plain arrays, on every puzzle of [`puzzles`] of every kind.
    fn agrees_with_plain_lanes(
        mut search: impl FnMut(Kind, &Grid, &mut dyn FnMut(Grid)) -> (u64, u64),
    ) {
        for (i, (kind, rules)) in KINDS.into_iter().enumerate() {
            for (v, g, by_plain, b) in by_plain_lanes(i) {
                let mut a = Vec::new();
                let by_vectors = search(kind, g, &mut |s| a.push(s));
                assert_eq!(by_vectors, *by_plain, "{rules} {g}");
                assert_eq!(a, *b, "{rules} {g}");
                assert!(!a.is_empty() && a.iter().all(|s| v.solves(s, g)), "{g}");
            }
        }
    }

    /// A puzzle of [`puzzles`], with its rules, what the search on plain arrays returns
    /// at limit 50 and the solutions it finds.
    type PlainRun = (Variant, Grid, (u64, u64), Vec<Grid>);

    /// The plain search's runs on the puzzles of `KINDS[i]`, made once for all the
    /// vector choices compared with them (the non-consecutive ones take thousands of
    /// guesses a puzzle).
    fn by_plain_lanes(i: usize) -> &'static [PlainRun] {
        static RUNS: [std::sync::OnceLock<Vec<PlainRun>>; KINDS.len()] =
            [const { std::sync::OnceLock::new() }; KINDS.len()];
        RUNS[i].get_or_init(|| {
            let (kind, rules) = KINDS[i];
            let (v, grids) = puzzles(rules);
            let mut stack = Stack::new();
            grids
                .into_iter()
                .map(|g| {
                    let mut b = Vec::new();
                    let n = plain(kind, &g, &mut stack, 50, &mut |s| b.push(s));
                    (v.clone(), g, n, b)
                })
                .collect()
        })
    }

    /// Every choice of vectors runs the search the CPU has (or none, for the scalar
    /// one): the very one asked for where the CPU has it, else a fallback; and each
    /// finds the same as the plain search. On a CPU without some kinds, those are not
    /// compared (they print so).
    #[test]
    fn choices_fall_back() {
        for v in [
            Vectors::Best,
            Vectors::Avx512,
            Vectors::Avx2Vl,
            Vectors::Avx2,
            Vectors::Scalar,
        ] {
            let search = Search::new(v);
            assert_eq!(
                search.is_none(),
                v == Vectors::Scalar
                    || !cfg!(target_arch = "x86_64")
                    || !Search::available(Vectors::Avx2)
            );
            #[cfg(target_arch = "x86_64")]
            if v != Vectors::Best && v != Vectors::Scalar {
                let own = matches!(
                    (v, &search),
                    (Vectors::Avx512, Some(Search::Avx512(_)))
                        | (Vectors::Avx2Vl, Some(Search::Avx2Vl(_)))
                        | (Vectors::Avx2, Some(Search::Avx2(_)))
                );
                assert_eq!(own, Search::available(v), "{v:?}");
                if !own {
                    eprintln!("no {v:?} here: not compared");
                }
            }
            if let Some(mut search) = search {
                agrees_with_plain_lanes(|k, g, f| search.run(k, g, 50, f));
            }
        }
    }

    /// The search finds the same solutions as the band engine (in its own order):
    /// every one when there are fewer than the limit, else as many.
    #[test]
    fn finds_what_the_band_engine_finds() {
        for (kind, rules) in KINDS {
            let (v, grids) = puzzles(rules);
            let mut bands = super::super::bands::Engine::new(&v, Vectors::Scalar);
            let mut stack = Stack::new();
            for g in &grids {
                let (mut a, mut b) = (Vec::new(), Vec::new());
                let (n, _) = plain(kind, g, &mut stack, 200, &mut |s| a.push(s));
                let (m, _) = bands.search(g, 200, &mut |s| b.push(s));
                assert_eq!(n, m, "{rules} {g}");
                assert!(a.iter().all(|s| v.solves(s, g)), "{g}");
                if n < 200 {
                    a.sort_by_key(|s| *s.cells());
                    b.sort_by_key(|s| *s.cells());
                    assert_eq!(a, b, "{rules} {g}");
                }
            }
        }
    }

    /// The kinds are the rule sets they name, and no other.
    #[test]
    fn kinds_are_their_rule_sets() {
        for rules in RuleSet::all_combinations() {
            let want = KINDS
                .iter()
                .find(|(_, r)| r.parse::<RuleSet>().unwrap() == rules)
                .map(|&(k, _)| k);
            assert_eq!(Kind::of(rules), want, "{rules}");
        }
    }

    /// The windoku houses are the rule table's four windows and the band engine's
    /// five implied houses, in that order.
    #[test]
    fn windoku_houses_are_the_windows_and_the_implied_ones() {
        let v = Variant::new(RuleSet::only(Rule::Windoku), None).unwrap();
        let mut want: Vec<u128> = v
            .houses()
            .filter(|(_, k)| matches!(k, HouseKind::Window(_)))
            .map(|(h, _)| h)
            .collect();
        assert_eq!(want.len(), 4);
        want.extend(super::super::bands::windoku_implied_houses());
        let got: Vec<u128> = WINDOKU_HOUSES
            .iter()
            .map(|w| (0..3).fold(0, |m, b| m | u128::from(w[b]) << (27 * b)))
            .collect();
        assert_eq!(got, want);
    }

    /// Propagation under the rules of `R`, on random positions (not puzzles: random
    /// candidates around a known solution, so that each rule meets places it would
    /// not meet in a search), never removes a candidate of the solution nor finds the
    /// position dead, and when it says solved the position is that solution; and it
    /// removes candidates on most positions, so the check is not idle.
    /// A random solution of `v` and its band words with each other candidate added
    /// when `rng.below(out_of) <= at_most`: a random position the solution lies in.
    fn around_solution(
        v: &Variant,
        rng: &mut Rng,
        out_of: u64,
        at_most: u64,
    ) -> (Grid, [[u32; 9]; 3]) {
        let sol = random_solution(v, rng).unwrap();
        let mut w = [[0u32; 9]; 3];
        for c in 0..CELLS {
            w[c / 27][usize::from(sol.get(c)) - 1] |= 1 << (c % 27);
        }
        for b in 0..3 {
            for d in 0..9 {
                for i in 0..27 {
                    if rng.below(out_of) <= at_most {
                        w[b][d] |= 1 << i;
                    }
                }
            }
        }
        (sol, w)
    }

    fn propagation_keeps_the_solution<R: Extra>(rules: &str) {
        let v = Variant::new(rules.parse().unwrap(), None).unwrap();
        let mut rng = Rng::new(23);
        let (mut removed, mut solved) = (0, 0);
        let rounds = 600u64;
        for round in 0..rounds {
            // Each other candidate kept with chance (1 + round % 8) in 10.
            let (sol, w) = around_solution(&v, &mut rng, 10, round % 8);
            let mut s = State {
                v: Packed::<Plain>::from_words(&w),
            };
            let done = s.propagate::<R>(&mut (Packed::splat(0), Packed::splat(0)));
            assert!(done.is_ok(), "{rules}: dead around {sol}");
            let after = s.words();
            for c in 0..CELLS {
                let d = usize::from(sol.get(c)) - 1;
                assert!(after[c / 27][d] >> (c % 27) & 1 != 0, "{rules}: lost {sol}");
            }
            if after != w {
                removed += 1;
            }
            if matches!(done, Ok(true)) {
                assert_eq!(s.grid(), sol, "{rules}");
                solved += 1;
            }
        }
        assert!(removed > rounds / 2, "{rules}: {removed}");
        assert!(solved > 0 && solved < rounds, "{rules}: {solved}");
    }

    #[test]
    fn propagation_keeps_the_solution_on_random_positions() {
        propagation_keeps_the_solution::<XRules>("x");
        propagation_keeps_the_solution::<WindokuRules>("windoku");
        propagation_keeps_the_solution::<XWindokuRules>("x,windoku");
        propagation_keeps_the_solution::<AntiKingRules>("anti-king");
        propagation_keeps_the_solution::<NonConsecutiveRules>("non-consecutive");
    }

    /// Claiming through columns removes, on random positions around a windoku
    /// solution, exactly what its definition says (cell by cell: a digit whose places
    /// in a house all lie in one column leaves that column's other cells), never a
    /// candidate of the solution, and something on many positions.
    #[test]
    fn column_claims_remove_what_their_definition_says() {
        let v = Variant::new(RuleSet::only(Rule::Windoku), None).unwrap();
        let mut rng = Rng::new(37);
        let mut claimed = 0;
        for round in 0..1000u64 {
            let (sol, w) = around_solution(&v, &mut rng, 20, round % 10);
            let x = Packed::<Plain>::from_words(&w);
            for &m in &WINDOKU_HOUSES {
                let c = x.and(Packed::<Plain>::per_band(m));
                let all = c.or(c.other_bands());
                let got = State::<Packed<Plain>>::column_claims(Packed::<Plain>::per_band(m), all)
                    .to_words();
                let inside = |cell: usize| m[cell / 27] >> (cell % 27) & 1 != 0;
                for d in 0..9 {
                    let has = |cell: usize| w[cell / 27][d] >> (cell % 27) & 1 != 0;
                    let cols: Vec<usize> = (0..CELLS)
                        .filter(|&cell| inside(cell) && has(cell))
                        .map(|cell| cell % 9)
                        .collect();
                    let col = cols.first().filter(|&&k| cols.iter().all(|&j| j == k));
                    for cell in 0..CELLS {
                        let want = col.is_some_and(|&k| cell % 9 == k && !inside(cell));
                        let gone = got[cell / 27][d] >> (cell % 27) & 1 != 0;
                        assert_eq!(gone, want, "{sol} digit {} cell {cell}", d + 1);
                        if gone && has(cell) {
                            assert_ne!(usize::from(sol.get(cell)), d + 1, "lost {sol}");
                            claimed += 1;
                        }
                    }
                }
            }
        }
        assert!(claimed > 500, "{claimed}");
    }

    /// `rule` on the words `w` on every layout this CPU has: the words of the plain
    /// layout, after checking that the vector layouts give the same.
    macro_rules! on_every_layout {
        ($rule:ident, $w:expr) => {{
            let w = &$w;
            let plain = $rule(Packed::<Plain>::from_words(w)).to_words();
            #[cfg(target_arch = "x86_64")]
            {
                if avx512::available() {
                    let got = $rule(Packed::<avx512::Avx512>::from_words(w)).to_words();
                    assert_eq!(got, plain, "{w:?}");
                }
                if avx2::available() {
                    let got = $rule(avx2::Banded::from_words(w)).to_words();
                    assert_eq!(got, plain, "{w:?}");
                }
            }
            plain
        }};
    }

    /// Runs `check` on `rounds` random word sets drawn from `Rng::new(seed)`, and adds
    /// up what it counts. The sets grow denser and sparser in a cycle of `levels`
    /// rounds (a bit is set with chance `round % levels + 1` in `scale`), so that the
    /// rules under test meet both nearly empty and nearly full digits.
    fn on_random_words(
        seed: u64,
        rounds: u64,
        scale: u64,
        levels: u64,
        mut check: impl FnMut([[u32; 9]; 3]) -> usize,
    ) -> usize {
        let mut rng = Rng::new(seed);
        let mut found = 0;
        for round in 0..rounds {
            let mut w = [[0u32; 9]; 3];
            for word in w.iter_mut().flatten() {
                for i in 0..27 {
                    if rng.below(scale) <= round % levels {
                        *word |= 1 << i;
                    }
                }
            }
            found += check(w);
        }
        found
    }

    /// Rule 7's king moves, on random words, are cell by cell the cells a king's
    /// diagonal step away from a cell of the same digit's words (over all bands), on
    /// every layout this CPU has (and on plain arrays).
    #[test]
    fn king_moves_are_the_diagonal_steps() {
        fn want(w: &[[u32; 9]; 3]) -> [[u32; 9]; 3] {
            let mut g = [[0u32; 9]; 3];
            for d in 0..9 {
                for c in 0..CELLS {
                    if w[c / 27][d] >> (c % 27) & 1 == 0 {
                        continue;
                    }
                    let (r, k) = ((c / 9) as i32, (c % 9) as i32);
                    for (dr, dk) in [(-1, -1), (-1, 1), (1, -1), (1, 1)] {
                        let (s, l) = (r + dr, k + dk);
                        if (0..9).contains(&s) && (0..9).contains(&l) {
                            let e = (s * 9 + l) as usize;
                            g[e / 27][d] |= 1 << (e % 27);
                        }
                    }
                }
            }
            g
        }
        let found = on_random_words(41, 500, 30, 6, |w| {
            let want = want(&w);
            assert_eq!(on_every_layout!(king_moves, w), want, "{w:?}");
            want.iter().flatten().filter(|&&x| x != 0).count()
        });
        assert!(found > 1000, "{found}");
    }

    /// Whether cells `x` and `y` (0-80) see each other under anti-king: a row, column,
    /// box or a king's step.
    fn king_sees(x: usize, y: usize) -> bool {
        let (r, k, s, l) = (x / 9, x % 9, y / 9, y % 9);
        x != y
            && (r == s
                || k == l
                || (r / 3 == s / 3 && k / 3 == l / 3)
                || (r.abs_diff(s) == 1 && k.abs_diff(l) == 1))
    }

    /// The box-locked king rule, on random words, removes cell by cell what its
    /// definition says: a cell in a column next to a box of its band (not in it) loses
    /// the digit when it sees every place of the digit in that box (vacuously when
    /// there is none: such a word is dead).
    #[test]
    fn king_locked_is_its_definition() {
        let found = on_random_words(43, 400, 20, 8, |w| {
            let mut found = 0;
            let got = king_locked(Packed::<Plain>::from_words(&w)).to_words();
            for b in 0..3 {
                for d in 0..9 {
                    let places = |h: usize| {
                        (0..27).filter(move |&i| w[b][d] >> i & 1 != 0 && i % 9 / 3 == h)
                    };
                    for i in 0..27 {
                        let want = (0..3).any(|h| {
                            let k = i % 9;
                            let next = (k + 1 == 3 * h) || (k == 3 * h + 3);
                            next && places(h).all(|p| king_sees(27 * b + i, 27 * b + p))
                        });
                        assert_eq!(got[b][d] >> i & 1 != 0, want, "{w:?} {b} {d} {i}");
                        found += usize::from(want && w[b][d] >> i & 1 != 0);
                    }
                }
            }
            found
        });
        assert!(found > 1000, "{found}");
    }

    /// The column-locked king rule, on random words, removes cell by cell what its
    /// definition says: a cell in a column next to column `c` loses the digit when it
    /// sees every place of the digit in column `c`, over all three bands (vacuously
    /// when there is none: such a word is dead), on every layout this CPU has.
    #[test]
    fn king_columns_is_its_definition() {
        let found = on_random_words(47, 400, 20, 8, |w| {
            let mut found = 0;
            let plain = on_every_layout!(king_columns, w);
            for d in 0..9 {
                let places = |c: usize| {
                    (0..CELLS).filter(move |&p| p % 9 == c && w[p / 27][d] >> (p % 27) & 1 != 0)
                };
                for t in 0..CELLS {
                    let k = t % 9;
                    let want = (0..9usize)
                        .any(|c| c.abs_diff(k) == 1 && places(c).all(|p| king_sees(t, p)));
                    assert_eq!(plain[t / 27][d] >> (t % 27) & 1 != 0, want, "{w:?} {d} {t}");
                    found += usize::from(want && w[t / 27][d] >> (t % 27) & 1 != 0);
                }
            }
            found
        });
        assert!(found > 1000, "{found}");
    }

    /// Each extra-house rule (peers of a placed cell, empty houses, claiming) finds
    /// something on random positions around a solution, and never removes a
    /// candidate of it: rule 6 alone, from words that rule 1 has already reduced.
    #[test]
    fn house_rule_removes_only_what_windoku_forbids() {
        let v = Variant::new(RuleSet::only(Rule::Windoku), None).unwrap();
        let mut rng = Rng::new(31);
        let mut gone_cells = 0u32;
        for round in 0..2000u64 {
            let (sol, w) = around_solution(&v, &mut rng, 12, round % 6);
            let x = Packed::<Plain>::from_words(&w);
            let (a, placed, _, _) = rows_and_boxes(x);
            for &m in &WINDOKU_HOUSES {
                let gone = State::<Packed<Plain>>::house(Packed::<Plain>::per_band(m), placed, a)
                    .unwrap_or_else(|_| panic!("dead around {sol}"))
                    .to_words();
                for c in 0..CELLS {
                    let d = usize::from(sol.get(c)) - 1;
                    assert_eq!(gone[c / 27][d] >> (c % 27) & 1, 0, "lost {sol}");
                }
                gone_cells += gone.iter().flatten().map(|g| g.count_ones()).sum::<u32>();
            }
        }
        assert!(gone_cells > 1000, "{gone_cells}");
    }
}
