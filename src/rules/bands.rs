//! The box-band engine: for rule sets that keep the 3×3 boxes (everything but jigsaw).
//!
//! Candidates are kept per digit and band (three rows): `cand[digit * 3 + band]` is a
//! 27-bit word, bit `row * 9 + column` with `row` 0..3 inside the band, so global cell
//! `c` is bit `c % 27` of band `c / 27`. In this layout the classic rules of one digit
//! in one band are a few table lookups instead of loops over houses:
//!
//! - A digit sits once in each row and once in each box of a band, so the band's rows
//!   and boxes are matched by one of six permutations. Which (row, box) *segments* some
//!   permutation can use is pointing and claiming in one step; the segments all of
//!   them use hold the digit for certain, and a forced segment whose box has a single
//!   column left is a placed cell.
//! - A box whose stack offers a single column claims that column from the other two
//!   bands, which also carries every placed digit down its column.
//! - A column that only one band can supply makes that band's box use it
//!   ([`OWN_COLUMN_KEEP`]): hidden singles in columns come out of this.
//!
//! The idea is the classic engine's (`crate::solver`), and so is the slot layout, with
//! its table of each slot's bands and the tables of the first two rules
//! (`SLOT_TABLES`), which are shared; as there, settling takes the changed slots from
//! marks set by whatever changed them. The rest of the code and tables is written for
//! this module, and extended with what the variant rules add:
//!
//! - *Extra peers* (diagonal and window mates, knight and king neighbours): each placed
//!   cell takes its digit from them once (`xdone` remembers which cells did); the
//!   king and knight neighbours, and under the diagonals alone the diagonal mates,
//!   are taken in settling instead, by shifts and masks (see [`State::settle`]);
//!   non-consecutive takes the digit's neighbours out of `digit ± 1`, and more generally
//!   every cell whose candidates all lie in `d - 1 ..= d + 1` takes `d` from its orthogonal
//!   neighbours.
//! - *Extra houses* (diagonals, windows): hidden singles, empty houses, locked
//!   candidates (a cell that sees both places left for a digit in the house loses it;
//!   in a window, also all three places when three are left), and pointing into them
//!   (a row, column or box whose places of a digit all lie in an extra house takes the
//!   digit from the rest of that house; for the windows by [`window_pointing`], on
//!   row words with fixed masks), scanned only for digits whose words changed
//!   since their last scan, and of their houses only those that lost a cell since
//!   then and have one open place, or two or three, found for all the houses
//!   without a branch per house. Under windoku the engine also scans the five houses
//!   every windoku solution fills though no rule names them
//!   ([`windoku_implied_houses`]; 6.3 guesses a puzzle to 4.4 on 100 generated
//!   windoku puzzles, 72 to 64 on x,windoku); givens are never checked against
//!   them. When the diagonals are the only extra houses,
//!   [`State::diagonals`] does this with fixed masks (a diagonal's part of a band lies
//!   in one box), and also claims: a digit whose places on a diagonal all lie in one
//!   box leaves the rest of that box.
//! - Under king rules without knight rules, locked candidates through the extra peers
//!   for rows, columns and boxes: a cell that sees every place left for a digit in a
//!   row, column or box (two or three places; some of them by a king's move) loses
//!   the digit. Here and in the extra houses, the cells that see every place are the
//!   common part of the places' peer sets, taken by [`seen_by_all`] without a loop
//!   per place.
//! - Under knight rules, once the rest stalls, each digit keeps only the cells on one
//!   of its whole placements still open ([`super::placements`]: one cell a row,
//!   column, box and extra house, no two peers), which finds all the locked
//!   candidates above find and more; the lists live in [`Work`]'s frames.
//! - Under non-consecutive, what every place left for a digit `d` in a row, column or
//!   box implies: a cell that is one of the places or next to it, for every place,
//!   cannot hold `d ± 1` (two places side by side both lose `d ± 1`; two places one
//!   cell apart take `d ± 1` from the cell between). All 27 houses at once, by tables
//!   ([`State::near_places`]). And for the two digits around a digit, together: a
//!   cell that has at most one of their places in a house outside itself and its
//!   neighbours loses the digit between them ([`super::non_consecutive_places`]). With
//!   anti-king as well, a cell's orthogonal neighbours all differ, so a cell whose
//!   neighbours offer fewer digits outside `d - 1 ..= d + 1` than there are of them
//!   loses `d` ([`super::non_consecutive_places::crowded`]; half the guesses on
//!   anti-king,anti-knight,non-consecutive puzzles).
//! - Branching: the first cell with two candidates, preferring cells with extra peers;
//!   under diagonals, a digit with two places left in an extra house first; with extra
//!   peers or non-consecutive, but without diagonals or with knight or king moves, the
//!   cell of fewest candidates whose guesses failed most often so far in the search,
//!   then with the most open peers (under non-consecutive without the diagonals,
//!   among cells of three candidates or more, the fewest candidates per failure, the
//!   failure counts fading; see [`State::branch`] and [`State::busiest_cell`] for the
//!   measurements behind this).
//!
//! The rule sets are compiled separately (const generics over which kinds of rules are
//! on), so that no rule costs a branch in the hot loop of a rule set without it.

// Loops over the three bands index several per-band arrays at once (a digit's words,
// a mask's words, the open cells); an iterator over one of them reads worse.
#![allow(clippy::needless_range_loop)]

use crate::grid::{Grid, CELLS};
use crate::solver::{changed_slots, segment_map_bmi2, SLOT_BANDS, SLOT_TABLES};

use super::placements::{whole_placements, Filtered, Frames};
use super::table::{HouseKind, Variant};
use super::Vectors;
use crate::stop::StopFlag;

/// The 27 cells of a band.
pub(super) const BAND: u32 = (1 << 27) - 1;

/// A set of columns spread over the three rows of a band.
pub(super) const fn spread(cols: u32) -> u32 {
    cols | cols << 9 | cols << 18
}

/// The columns a band word has candidates in.
#[inline(always)]
fn fold(word: u32) -> u32 {
    (word | word >> 9 | word >> 18) & 0x1FF
}

/// For the columns only this band can supply a digit: what the digit keeps in this
/// band (the box of such a column uses it, so the box's other columns go; two such
/// columns in one stack leave the box nothing).
static OWN_COLUMN_KEEP: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut only = 0;
    while only < 512 {
        let mut keep = 0;
        let mut j = 0;
        while j < 3 {
            let c3 = (only >> (3 * j)) & 7;
            let k = if c3 == 0 {
                7
            } else if c3 & (c3 - 1) == 0 {
                c3
            } else {
                0
            };
            keep |= k << (3 * j);
            j += 1;
        }
        t[only] = spread(keep as u32);
        only += 1;
    }
    t
};

/// For each cell of a band: its row and box in the band (itself included).
pub(super) static ROW_BOX: [u32; 27] = {
    let mut t = [0u32; 27];
    let mut i = 0;
    while i < 27 {
        let (r, j) = (i / 9, (i % 9) / 3);
        t[i] = 0x1FF << (9 * r) | spread(7 << (3 * j));
        i += 1;
    }
    t
};

/// `x` without its lowest set bit.
#[inline(always)]
fn clear_lowest(x: u32) -> u32 {
    x & x.wrapping_sub(1)
}

/// The places of `w` (three band words) in row, column or box `house` (numbered as
/// [`Tables::classic`]), as nine bits: bit `k` for the house's `k`-th cell in
/// increasing order (a row's columns, a column's rows, a box's three rows of three).
#[inline(always)]
fn places_pattern(house: usize, w: [u32; 3]) -> usize {
    let bits = if house < 9 {
        w[house / 3] >> (9 * (house % 3)) & 0x1FF
    } else if house < 18 {
        let column = |b: usize| {
            let x = w[b] >> (house - 9);
            x & 1 | x >> 8 & 2 | x >> 16 & 4
        };
        column(0) | column(1) << 3 | column(2) << 6
    } else {
        let x = w[(house - 18) / 3] >> (3 * ((house - 18) % 3));
        x & 7 | x >> 6 & 0o70 | x >> 12 & 0o700
    };
    bits as usize
}

/// The rows, columns and boxes (bit `i` for house `i` of [`Variant`]: rows 0-8,
/// columns 9-17, boxes 18-26) that hold a cell of `cells` (three band words).
#[inline(always)]
fn changed_houses(cells: [u32; 3]) -> u32 {
    let mut m = fold(cells[0] | cells[1] | cells[2]) << 9;
    for (b, &w) in cells.iter().enumerate() {
        let rows = u32::from(w & 0x1FF != 0)
            | u32::from(w >> 9 & 0x1FF != 0) << 1
            | u32::from(w >> 18 != 0) << 2;
        let f = fold(w);
        let boxes =
            u32::from(f & 7 != 0) | u32::from(f & 0x38 != 0) << 1 | u32::from(f & 0x1C0 != 0) << 2;
        m |= rows << (3 * b) | boxes << (18 + 3 * b);
    }
    m
}

/// The cells that see each of two to four places (band words, at least two and at
/// most four cells): the common part of their peer sets. The places are taken as
/// cell numbers from one 81-bit mask, a missing third or fourth equal to the one before,
/// without a loop or branch per band or place: those loops, their branches taken or
/// not as the places fall, were the largest part of the locked-candidates scans.
#[inline(always)]
fn seen_by_all(all_peers: &[[u32; 3]; CELLS], p: [u32; 3]) -> [u32; 3] {
    let all = u128::from(p[0]) | u128::from(p[1]) << 27 | u128::from(p[2]) << 54;
    debug_assert!((2..=4).contains(&all.count_ones()));
    let a = all.trailing_zeros() as usize;
    let rest = all & all.wrapping_sub(1);
    let b = rest.trailing_zeros() as usize;
    let rest = rest & rest.wrapping_sub(1);
    let c = if rest != 0 {
        rest.trailing_zeros() as usize
    } else {
        b
    };
    let rest = rest & rest.wrapping_sub(1);
    let d = if rest != 0 {
        rest.trailing_zeros() as usize
    } else {
        c
    };
    let (pa, pb, pc, pd) = (&all_peers[a], &all_peers[b], &all_peers[c], &all_peers[d]);
    std::array::from_fn(|i| pa[i] & pb[i] & pc[i] & pd[i])
}

/// An 81-bit cell mask as three band words.
pub(super) fn split(mask: u128) -> [u32; 3] {
    std::array::from_fn(|b| (mask >> (27 * b)) as u32 & BAND)
}

/// Seven rows' worth of one column (bit `9 * row + column`), for [`move_reach`].
const fn column7(c: u32) -> u64 {
    let mut m = 0u64;
    let mut r = 0;
    while r < 7 {
        m |= 1 << (9 * r + c);
        r += 1;
    }
    m
}

/// The cells a king's diagonal move (`MV` bit 0; its other moves stay in a row or
/// column) or a knight's move (bit 1) away from a cell
/// of `p` (a band word): in the band itself, in the band above (its rows 1 and 2) and
/// in the band below (its rows 0 and 1), as band words. By shifts of the band put in
/// the middle of seven rows (two above, two below), without a loop per cell; the
/// caller drops the parts above the first band and below the last.
#[inline(always)]
fn move_reach<const MV: u8>(p: u32) -> [u32; 3] {
    let x = u64::from(p) << 18;
    // The cells that may move one or two columns right or left.
    let (r1, l1) = (x & !column7(8), x & !column7(0));
    let (r2, l2) = (r1 & !column7(7), l1 & !column7(1));
    let mut n = 0u64;
    if MV & 1 != 0 {
        n |= r1 << 10 | l1 << 8 | r1 >> 8 | l1 >> 10;
    }
    if MV & 2 != 0 {
        n |= r2 << 11 | l2 << 7 | r2 >> 7 | l2 >> 11;
        n |= r1 << 19 | l1 << 17 | r1 >> 17 | l1 >> 19;
    }
    [
        (n >> 18) as u32 & BAND,
        (n as u32 & 0x3FFFF) << 9,
        (n >> 45) as u32 & 0x3FFFF,
    ]
}

/// [`move_reach`] of cells `p` of band `band` for the moves `mv` (bit 0 king, bit 1
/// knight), as the three bands' words.
fn move_cells(mv: u8, band: usize, p: u32) -> [u32; 3] {
    let [own, up, down] = match mv {
        1 => move_reach::<1>(p),
        2 => move_reach::<2>(p),
        3 => move_reach::<3>(p),
        _ => [0; 3],
    };
    let mut m = [0u32; 3];
    m[band] = own;
    if band > 0 {
        m[band - 1] = up;
    }
    if band < 2 {
        m[band + 1] = down;
    }
    m
}

/// The cells of the main diagonal (r1c1-r9c9) in each band: row `r` of band `b` meets
/// it in column `3b + r`, bit `10r + 3b`. The three bands use disjoint bits.
const MAIN: [u32; 3] = [0x100401, 0x100401 << 3, 0x100401 << 6];
/// The cells of the anti-diagonal (r1c9-r9c1) in each band: bit `8r + 8 - 3b`.
const ANTI: [u32; 3] = [0x1010100, 0x1010100 >> 3, 0x1010100 >> 6];
/// The diagonal's part of a band lies in one box of the band; that box's other six
/// cells.
const MAIN_REST: [u32; 3] = [
    spread(7) & !MAIN[0],
    spread(7 << 3) & !MAIN[1],
    spread(7 << 6) & !MAIN[2],
];
const ANTI_REST: [u32; 3] = [
    spread(7 << 6) & !ANTI[0],
    spread(7 << 3) & !ANTI[1],
    spread(7) & !ANTI[2],
];
/// The boxes the diagonals cross, per band: only changes there matter to
/// [`State::diagonals`].
const DIAG_BOXES: [u32; 3] = [
    MAIN[0] | ANTI[0] | MAIN_REST[0] | ANTI_REST[0],
    MAIN[1] | ANTI[1] | MAIN_REST[1] | ANTI_REST[1],
    MAIN[2] | ANTI[2] | MAIN_REST[2] | ANTI_REST[2],
];

/// For a slot's band, and which diagonals (bit 0 main, bit 1 anti) have the slot's
/// digit placed in that band: what the digit keeps in the slot's other two bands (in
/// the order of [`SLOT_BANDS`]): the diagonals' parts there go.
static DIAG_KEEP: [[[u32; 2]; 4]; 3] = {
    let mut t = [[[BAND; 2]; 4]; 3];
    let mut band = 0;
    while band < 3 {
        let mut on = 0;
        while on < 4 {
            let mut i = 0;
            while i < 2 {
                let other = (band + 1 + i) % 3;
                let mut gone = 0;
                if on & 1 != 0 {
                    gone |= MAIN[other];
                }
                if on & 2 != 0 {
                    gone |= ANTI[other];
                }
                t[band][on][i] = BAND & !gone;
                i += 1;
            }
            on += 1;
        }
        band += 1;
    }
    t
};

/// For each bit of a band word, the band whose part of the main (`[0]`) or
/// anti-diagonal (`[1]`) uses it; 3 for bits on neither.
const DIAG_BAND: [[u8; 27]; 2] = {
    let mut t = [[3u8; 27]; 2];
    let mut b = 0;
    while b < 3 {
        let mut i = 0;
        while i < 27 {
            if MAIN[b] >> i & 1 != 0 {
                t[0][i] = b as u8;
            }
            if ANTI[b] >> i & 1 != 0 {
                t[1][i] = b as u8;
            }
            i += 1;
        }
        b += 1;
    }
    t
};

/// Which kinds of rules a rule set adds. The first three are const parameters of the
/// engine: `HOUSES`: diagonals or windows. `PEERS`: any extra peers (houses, knight,
/// king). `NC`: non-consecutive. The last two are checked at run time, where they
/// cost one predictable branch per propagation round or per guess.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Kinds {
    houses: bool,
    peers: bool,
    nc: bool,
    /// Knight or king neighbours: locked candidates through them
    /// ([`State::house_places`]) pay for themselves (on anti-knight puzzles they cut
    /// the guesses by three quarters; on x and windoku puzzles they cost more than
    /// they save, so they stay off there).
    moves: bool,
    /// The diagonals: branch on two-place digits of the extra houses first.
    diagonals: bool,
    /// Non-consecutive with anti-king: a cell's orthogonal neighbours hold different
    /// digits ([`State::crowded`]).
    crowded: bool,
    /// Anti-knight: locked candidates through the extra peers look at four places
    /// too ([`State::locked_peers`]).
    knight: bool,
    /// Extra peers or non-consecutive, without the diagonals or with knight or king
    /// moves: branch on the cell of fewest candidates, most failed guesses and most
    /// open peers
    /// ([`State::busiest_cell`]; under the diagonals, when no diagonal offers a
    /// two-place digit).
    busiest: bool,
    /// Non-consecutive without the diagonals: among cells of three candidates or
    /// more, the fewest candidates per failed guess, and the failure counts fade
    /// (see [`State::busiest_cell`] and [`FADE_EVERY`]).
    weighted: bool,
    /// The diagonals are the only extra houses: [`State::diagonals`] does their work
    /// with masks instead of [`State::extra_houses`].
    x_only: bool,
    /// The diagonals are the only rule beyond the classic ones: settling takes a
    /// placed digit from its diagonals ([`State::settle`]).
    x_alone: bool,
    /// The windows: pointing into them is [`window_pointing`]'s, on row words,
    /// instead of entries of [`Tables::inter`].
    windows: bool,
    /// Knight moves: after the other inferences stall, each digit's candidates
    /// keep only the cells on one of its whole placements still open
    /// ([`super::placements`]). That finds everything the locked candidates through
    /// the moves find (they look at one digit too), so they are left out.
    placements: bool,
    /// The locked candidates through knight or king moves run
    /// ([`State::house_places`]): under `moves` without `placements`.
    locked: bool,
    /// King moves (bit 0) and knight moves (bit 1) of the rule set: settling takes a
    /// placed digit from the cells they reach, by shifts ([`move_cells`],
    /// [`State::settle`]), and [`Tables::xpeers`] leaves them out ([`State::place_extra`]
    /// has nothing to do for peers without diagonals or windows). 0 without them.
    settle_moves: u8,
}

impl Kinds {
    /// The most places of a digit in a row, column or box that the locked candidates
    /// through knight and king moves look at ([`State::locked_peers`]): four under
    /// anti-knight, else three.
    fn locked_most(&self) -> u32 {
        if self.knight {
            LOCKED_MAX
        } else {
            3
        }
    }
}

/// The band tables of one rule set (boxes kept), built once per rule set.
#[derive(Clone)]
pub(crate) struct Tables {
    /// Each cell's peers beyond its row, column and box, per band, but for those
    /// settling takes ([`Kinds::settle_moves`]).
    xpeers: [[u32; 3]; CELLS],
    /// The extra houses (diagonals, windows, disjoint groups, ...), per band. The bands'
    /// parts of one house may share bit positions (a disjoint group's do), so places
    /// are counted band by band, never on the parts `OR`ed.
    houses: Vec<[u32; 3]>,
    /// The extra houses (bit `i` for `houses[i]`) where locked candidates also look
    /// at three places left, not only two: the windows.
    wide: u32,
    /// Cells with extra peers (in [`Tables::xpeers`]) or neighbours, per band: only
    /// their placements need extra work.
    xcells: [u32; 3],
    /// Where an extra house meets a row, column or box in two cells or more: the rest
    /// of the row, column or box, the shared cells, and the rest of the extra house.
    /// A digit whose places in the row, column or box are all shared leaves the rest
    /// of the extra house (pointing, with the extra house as the line).
    inter: Vec<[[u32; 3]; 3]>,
    /// The rows, columns and boxes, per band.
    classic: [[u32; 3]; 27],
    /// Under knight or king moves, for [`State::locked_peers`]: per row, column and
    /// box (as [`Tables::classic`]), and per pattern of a digit's places there (a
    /// row's nine bits; a column's nine rows; a box's three rows of three), the cells that see every place, per band, where the
    /// pattern has two places up to the most that scan looks at (else none). One
    /// lookup instead of finding the places and ANDing their peers.
    locked: Vec<[[u32; 3]; 512]>,
    /// For each bit of a band word on the main (`[0]`) or anti-diagonal (`[1]`): the
    /// peers of that cell, per band (see [`State::diagonals`]).
    diag_peers: Box<[[[u32; 3]; 27]; 2]>,
    kinds: Kinds,
    /// Settling takes a slot's row/box map by one PEXT: set only when the CPU has a
    /// fast BMI2 PEXT (`crate::solver::bmi2`), and read only in the search compiled
    /// with BMI2.
    pext: bool,
}

impl Tables {
    /// The tables of `v`, which must keep the boxes (no jigsaw).
    pub(crate) fn new(v: &Variant) -> Tables {
        Tables::build(v, true)
    }

    /// The tables of `v`; with `settle`, settling takes the king and knight moves
    /// ([`Kinds::settle_moves`]), else they are peers for [`State::place_extra`] like
    /// the others (what the tests compare the engine's propagation with).
    fn build(v: &Variant, settle: bool) -> Tables {
        debug_assert!(v.regions().is_none());
        let classic: [u128; CELLS] = std::array::from_fn(|cell| {
            v.houses[..27]
                .iter()
                .filter(|&&h| h >> cell & 1 != 0)
                .fold(0, |m, &h| m | h)
        });
        // Settling takes the king and knight moves (checked cell by cell against the
        // rule table: peers they are); the extra peers left to `State::place_extra`
        // are the others (diagonal and window mates).
        let shape = v.shape;
        let mv = u8::from(shape.king) | u8::from(shape.knight) << 1;
        let moves_of = |cell: usize| {
            let m = move_cells(mv, cell / 27, 1 << (cell % 27));
            u128::from(m[0]) | u128::from(m[1]) << 27 | u128::from(m[2]) << 54
        };
        let settle_moves =
            if settle && mv != 0 && (0..CELLS).all(|c| moves_of(c) & !v.peers[c] == 0) {
                mv
            } else {
                0
            };
        let mut xcells = [0u32; 3];
        let mut any_peers = false;
        let nc = shape.consecutive;
        let xpeers = std::array::from_fn(|cell| {
            let x = v.peers[cell] & !classic[cell];
            any_peers |= x != 0;
            let x = if settle_moves != 0 {
                x & !moves_of(cell)
            } else {
                x
            };
            if x != 0 || nc {
                xcells[cell / 27] |= 1 << (cell % 27);
            }
            split(x)
        });
        let mut houses: Vec<[u32; 3]> = v.houses[27..v.n_houses]
            .iter()
            .map(|&h| {
                let w = split(h);
                debug_assert_eq!(w.iter().map(|b| b.count_ones()).sum::<u32>(), 9);
                w
            })
            .collect();
        let mut wide = v
            .houses()
            .skip(27)
            .enumerate()
            .filter(|(_, (_, kind))| matches!(kind, HouseKind::Window(_)))
            .fold(0, |m, (i, _)| m | 1 << i);
        if shape.windows {
            for h in windoku_implied_houses() {
                let w = split(h);
                debug_assert_eq!((w[0] | w[1] | w[2]).count_ones(), 9, "disjoint bits");
                wide |= 1 << houses.len();
                houses.push(w);
            }
        }
        let mut inter = Vec::new();
        // The windows' pointing is `window_pointing`'s.
        for (h, _) in v
            .houses()
            .skip(27)
            .filter(|(_, kind)| !matches!(kind, HouseKind::Window(_)))
        {
            for &u in &v.houses[..27] {
                let i = h & u;
                if i.count_ones() >= 2 && u & !h != 0 {
                    inter.push([split(u & !i), split(i), split(h & !i)]);
                }
            }
        }
        // The tuned paths key on the rules' shapes (see `rule.rs`); whatever a rule
        // adds beyond its shape (houses, peers) runs on the generic paths
        // (`houses`, `peers`).
        let moves = shape.knight || shape.king;
        // Exactly Sudoku-X: the diagonals and nothing else (no other house, peer or
        // link).
        let only_diagonals = shape
            == (super::Shape {
                diagonals: true,
                ..super::Shape::default()
            })
            && v.n_houses == 29
            && v.links.is_empty()
            && (0..CELLS).all(|c| {
                let mates = (0..v.n_houses)
                    .filter(|&h| v.houses[h] >> c & 1 != 0)
                    .fold(0u128, |m, h| m | v.houses[h]);
                v.peers[c] == mates & !(1u128 << c)
            });
        let kinds = Kinds {
            houses: !houses.is_empty(),
            peers: any_peers,
            nc,
            moves,
            diagonals: shape.diagonals,
            crowded: nc && shape.king,
            knight: shape.knight,
            busiest: (any_peers || nc) && (!shape.diagonals || moves),
            weighted: nc && !shape.diagonals,
            x_only: shape.diagonals && !shape.windows,
            x_alone: only_diagonals,
            windows: shape.windows,
            placements: shape.knight,
            locked: moves && !shape.knight,
            settle_moves,
        };
        let locked = if moves {
            let most = kinds.locked_most();
            v.houses[..27]
                .iter()
                .map(|&house| {
                    // The house's cells in increasing order: a pattern's bits.
                    let cells: Vec<usize> = super::table::cells(house).collect();
                    std::array::from_fn(|pattern: usize| {
                        if !(2..=most).contains(&pattern.count_ones()) {
                            return [0; 3];
                        }
                        let seen = (0..9)
                            .filter(|k| pattern >> k & 1 != 0)
                            .fold(!0u128, |m, k| m & v.peers[cells[k]]);
                        split(seen)
                    })
                })
                .collect()
        } else {
            Vec::new()
        };
        Tables {
            xpeers,
            houses,
            wide,
            xcells,
            inter,
            classic: std::array::from_fn(|h| split(v.houses[h])),
            locked,
            diag_peers: Box::new(std::array::from_fn(|h| {
                std::array::from_fn(|i| {
                    let band = DIAG_BAND[h][i];
                    if band < 3 {
                        split(v.peers[usize::from(band) * 27 + i])
                    } else {
                        [0; 3]
                    }
                })
            })),
            kinds,
            pext: false,
        }
    }
}

/// The five houses every windoku solution fills with each digit once, though no rule
/// names them: rows 1, 5 and 9 meet columns 2-4, columns 6-8, and columns 1, 5 and 9;
/// columns 1, 5 and 9 meet rows 2-4 and rows 6-8. (Columns 2-4 hold each digit three
/// times, the two windows in them twice, so rows 1, 5 and 9 there once; likewise for
/// the rest.) The engine scans them as extra houses (hidden singles, empty houses,
/// locked candidates): windoku puzzles need fewer guesses. They are no rule: givens
/// are checked against the rule table, which does not have them, so a puzzle's status
/// never depends on them (a puzzle that breaks one has no solution either way).
pub(crate) fn windoku_implied_houses() -> [u128; 5] {
    let square = |rows: &[usize], cols: &[usize]| {
        rows.iter()
            .flat_map(|&r| cols.iter().map(move |&c| 1u128 << (9 * r + c)))
            .fold(0, |m, b| m | b)
    };
    let (edges, left, right) = ([0, 4, 8], [1, 2, 3], [5, 6, 7]);
    [
        square(&edges, &left),
        square(&edges, &right),
        square(&left, &edges),
        square(&right, &edges),
        square(&edges, &edges),
    ]
}

/// A found contradiction.
struct Dead;

/// A search position of the band engine; `Copy`, so that a branch is one copy.
#[derive(Clone, Copy)]
pub(crate) struct State {
    /// `cand[digit * 3 + band]`: the band's cells that may hold the digit (placed ones
    /// included).
    cand: [u32; 27],
    /// Each word as last settled: a word equal to it has nothing new.
    seen: [u32; 27],
    /// Each word as of the last extra-house scan, after its pointing (under diagonals
    /// alone, its part in the boxes the diagonals cross); all cells at the start.
    hseen: [u32; 27],
    /// Each word as of the last scan of rows, columns and boxes for cells that see
    /// every place of a digit through an extra peer.
    lseen: [u32; 27],
    /// Open cells per band.
    unsolved: [u32; 3],
    /// Open cells with two candidates, as of the last naked-single pass.
    pairs: [u32; 3],
    /// Placed cells whose extra peers have lost the digit.
    xdone: [u32; 3],
    /// The slots (bit `k`) that may differ from `seen`: whatever changes a word marks
    /// its slot, so settling need not compare all 27 words to find them (extra bits
    /// cost a settle, never a wrong result).
    dirty: u32,
    /// The cell (`band * 27 + cell`) of the guess that made this position (either
    /// side), 255 at the root: a dead position counts against it.
    last: u8,
    /// Under [`Kinds::placements`], the level of [`Frames`] with this position's
    /// placement lists (or a position's before it, a superset).
    plevel: u16,
}

impl State {
    /// The position of `grid`'s givens, not yet propagated; `None` when two givens
    /// share a row or box of one band (the rest is found by propagation).
    #[inline(always)]
    fn start<const MV: u8>(grid: &Grid) -> Option<State> {
        let mut s = State {
            cand: [BAND; 27],
            seen: [u32::MAX; 27],
            hseen: [BAND; 27],
            lseen: [0; 27],
            unsolved: [BAND; 3],
            pairs: [0; 3],
            xdone: [0; 3],
            dirty: (1 << 27) - 1,
            last: 255,
            plevel: 0,
        };
        // The givens per digit (index 0: the empty cells) and band, then each slot's
        // word at once: no branch per cell, which mispredicted often.
        let mut given = [[0u32; 3]; 10];
        for (cell, &digit) in grid.cells().iter().enumerate() {
            given[usize::from(digit)][cell / 27] |= 1 << (cell % 27);
        }
        let mut bad = false;
        // Each digit's givens also leave their columns and, with `MV`, the cells a
        // move away, here at once: settling would take them one slot after another,
        // each settled slot marking the next (under anti-king a fifth of the
        // settling was the start's).
        let mut far = [[0u32; 3]; 9];
        for (d, f) in far.iter_mut().enumerate() {
            let g = &given[d + 1];
            *f = [spread(fold(g[0] | g[1] | g[2])); 3];
            if MV != 0 {
                for band in 0..3 {
                    let [own, up, down] = move_reach::<MV>(g[band]);
                    f[band] |= own;
                    if band > 0 {
                        f[band - 1] |= up;
                    }
                    if band < 2 {
                        f[band + 1] |= down;
                    }
                }
            }
        }
        for band in 0..3 {
            let filled = BAND & !given[0][band];
            s.unsolved[band] = given[0][band];
            for d in 0..9 {
                let g = given[d + 1][band];
                let mut peers = far[d][band];
                for r in 0..3 {
                    let row = g >> (9 * r) & 0x1FF;
                    bad |= clear_lowest(row) != 0;
                    peers |= (0x1FF << (9 * r)) & u32::from(row != 0).wrapping_neg();
                    let boxed = g & spread(7 << (3 * r));
                    bad |= clear_lowest(boxed) != 0;
                    peers |= spread(7 << (3 * r)) & u32::from(boxed != 0).wrapping_neg();
                }
                s.cand[d * 3 + band] = (BAND & !peers & !filled) | g;
            }
        }
        if bad {
            return None;
        }
        Some(s)
    }

    /// Put the digit of slot `k` in cell `i` of its band: it leaves the cell's row and
    /// box. The rest (other digits, column, extra peers) follows in propagation, since
    /// the cell is found placed when the slot settles.
    #[inline(always)]
    fn assign(&mut self, k: usize, i: usize) {
        self.cand[k] = (self.cand[k] & !ROW_BOX[i]) | 1 << i;
        self.dirty |= 1 << k;
    }

    /// Take `cells` from slot `k`, marking it if anything went.
    #[inline(always)]
    fn remove(&mut self, k: usize, cells: u32) {
        let word = self.cand[k];
        self.cand[k] = word & !cells;
        self.dirty |= u32::from(word & cells != 0) << k;
    }

    /// The digits (bit `d`) a cell of a band may hold.
    #[inline(always)]
    fn digits_at(&self, band: usize, i: usize) -> u32 {
        let mut digits = 0;
        for d in 0..9 {
            digits |= ((self.cand[d * 3 + band] >> i) & 1) << d;
        }
        digits
    }

    #[inline(always)]
    fn is_solved(&self) -> bool {
        self.unsolved[0] | self.unsolved[1] | self.unsolved[2] == 0
    }

    /// The grid of a solved position.
    fn grid(&self) -> Grid {
        let mut cells = [0u8; CELLS];
        for (k, &word) in self.cand.iter().enumerate() {
            let mut m = word;
            while m != 0 {
                cells[(k % 3) * 27 + m.trailing_zeros() as usize] = (k / 3) as u8 + 1;
                m &= m - 1;
            }
        }
        Grid::from_cells(cells).expect("digits are 1..=9")
    }

    /// Settle one slot: row/box matching, the column claims on the other bands, and
    /// the cells it newly places leave the other digits. Returns the other slots it
    /// changed.
    ///
    /// The tables are the classic engine's ([`SLOT_TABLES`]: the same rules, their
    /// entries side by side so that the placed cells are two parallel lookups), and
    /// with `pext` the row/box map is one PEXT.
    ///
    /// With `X` (the diagonals are the only rule beyond the classic ones), a digit
    /// placed on a diagonal also leaves the diagonal's parts in the other two bands
    /// here, with the column claims on them, instead of in a pass over the placed
    /// cells afterwards ([`State::place_extra`], whose branches mispredict often);
    /// the diagonal's part in this band lies in the placed cell's box.
    ///
    /// With `MV` ([`Kinds::settle_moves`]: king moves, bit 0, knight moves, bit 1), a
    /// placed digit leaves the cells a move away the same way, by shifts: in the other bands with the column claims, in this band from
    /// the slot's own word, which then counts as changed (the moves leave the box).
    #[inline(always)]
    fn settle<const X: bool, const MV: u8>(&mut self, k: usize, pext: bool) -> Result<u32, Dead> {
        let st = &SLOT_TABLES;
        let a = self.cand[k];
        let map = if pext {
            segment_map_bmi2(a)
        } else {
            usize::from(st.segments[(a & 0x1FF) as usize])
                | usize::from(st.segments[((a >> 9) & 0x1FF) as usize]) << 3
                | usize::from(st.segments[(a >> 18) as usize]) << 6
        };
        let [consistent, forced_cells] = st.by_map[map];
        let a = a & consistent;
        if a == 0 {
            return Err(Dead);
        }
        self.seen[k] = a;
        let cols = fold(a) as usize;
        let [keep, one_column_cells] = st.by_columns[cols];
        let (band, b1, b2) = SLOT_BANDS[k];
        let band = usize::from(band);
        let placed = forced_cells & one_column_cells & a;
        // The same digit's other two bands.
        let (b1, b2) = (usize::from(b1), usize::from(b2));
        let (mut keep1, mut keep2) = (keep, keep);
        if X {
            // A table lookup, not selects: the compiler made branches of those.
            let on =
                usize::from(placed & MAIN[band] != 0) | usize::from(placed & ANTI[band] != 0) << 1;
            let [x1, x2] = DIAG_KEEP[band][on];
            keep1 &= x1;
            keep2 &= x2;
        }
        let mut own = 0;
        if MV != 0 {
            // `b1` is the band below (none below the last band), `b2` the band above.
            let [o, up, down] = move_reach::<MV>(placed);
            own = o;
            keep1 &= !(down & u32::from(band < 2).wrapping_neg());
            keep2 &= !(up & u32::from(band > 0).wrapping_neg());
        }
        let (c1, c2) = (self.cand[b1], self.cand[b2]);
        self.cand[b1] = c1 & keep1;
        self.cand[b2] = c2 & keep2;
        let marks = u32::from(c1 & !keep1 != 0) << b1 | u32::from(c2 & !keep2 != 0) << b2;
        // Newly placed cells leave the other digits (nine masked stores, the slot's
        // own restored). Most settles place nothing new: the branch that skips the
        // stores then costs less than making them (non-consecutive 0.96 and
        // anti-knight 0.88 of the CPU time of solve -j1 on data/ sets, same output).
        let mut band_marks = 0;
        if placed & self.unsolved[band] != 0 {
            self.unsolved[band] &= !placed;
            for d in 0..9 {
                let word = self.cand[d * 3 + band];
                self.cand[d * 3 + band] = word & !placed;
                band_marks |= u32::from(word & placed != 0) << (3 * d);
            }
        }
        self.cand[k] = a & !own;
        Ok((marks | band_marks << band) & !(1 << k) | u32::from(a & own != 0) << k)
    }

    /// Settle every changed slot until none changes; returns the slots settled. The changed slots are the
    /// marked ones (`dirty`), not found by comparing every word with `seen`: that
    /// scan of 27 words, once or twice per propagation round, was a third of the
    /// instructions on x puzzles.
    #[inline(always)]
    fn settle_all<const X: bool, const MV: u8>(&mut self, pext: bool) -> Result<u32, Dead> {
        let mut changed = std::mem::take(&mut self.dirty);
        let mut settled = changed;
        debug_assert_eq!(
            changed_slots(&self.cand, &self.seen) & !changed,
            0,
            "a changed slot not marked"
        );
        while changed != 0 {
            let mut snapshot = changed;
            changed = 0;
            while snapshot != 0 {
                let k = snapshot.trailing_zeros() as usize;
                snapshot &= snapshot - 1;
                changed = (changed & !(1 << k)) | self.settle::<X, MV>(k, pext)?;
            }
            settled |= changed;
        }
        Ok(settled)
    }

    /// Place every open cell with one candidate; note the cells with two. `Ok(true)`
    /// if any was placed.
    #[inline(always)]
    fn naked_singles(&mut self) -> Result<bool, Dead> {
        let mut found = false;
        for band in 0..3 {
            let (mut one, mut two, mut three) = (0, 0, 0);
            for d in 0..9 {
                let c = self.cand[d * 3 + band];
                three |= two & c;
                two |= one & c;
                one |= c;
            }
            if one != BAND {
                return Err(Dead);
            }
            let open = self.unsolved[band];
            self.pairs[band] = two & !three & open;
            let singles = open & !two;
            if singles != 0 {
                found = true;
                self.unsolved[band] &= !singles;
                for d in 0..9 {
                    let k = d * 3 + band;
                    let mut hit = self.cand[k] & singles;
                    while hit != 0 {
                        self.assign(k, hit.trailing_zeros() as usize);
                        hit &= hit - 1;
                    }
                }
            }
        }
        Ok(found)
    }

    /// A column that only one band can supply a digit claims that band's box, for
    /// the digits with a slot in `slots` (bit `k` for slot `k`; a digit none of whose
    /// words changed since its last claim has nothing new). `Ok(true)` if anything
    /// went.
    #[inline(always)]
    fn claim_columns(&mut self, slots: u32) -> Result<bool, Dead> {
        let mut changed = false;
        // Bit `3 * d` for each digit `d` with a slot in `slots`.
        let mut digits = (slots | slots >> 1 | slots >> 2) & 0x1249249;
        while digits != 0 {
            let k = digits.trailing_zeros() as usize;
            digits &= digits - 1;
            let (a0, a1, a2) = (self.cand[k], self.cand[k + 1], self.cand[k + 2]);
            let (p0, p1, p2) = (fold(a0), fold(a1), fold(a2));
            if p0 | p1 | p2 != 0x1FF {
                return Err(Dead);
            }
            let n0 = a0 & OWN_COLUMN_KEEP[(p0 & !(p1 | p2)) as usize];
            let n1 = a1 & OWN_COLUMN_KEEP[(p1 & !(p0 | p2)) as usize];
            let n2 = a2 & OWN_COLUMN_KEEP[(p2 & !(p0 | p1)) as usize];
            let marks = u32::from(n0 != a0) | u32::from(n1 != a1) << 1 | u32::from(n2 != a2) << 2;
            changed |= marks != 0;
            self.dirty |= marks << k;
            self.cand[k] = n0;
            self.cand[k + 1] = n1;
            self.cand[k + 2] = n2;
        }
        Ok(changed)
    }

    /// Newly placed cells take their digit from their extra peers (with `PEERS`; under
    /// non-consecutive alone there are none) and, under non-consecutive, the
    /// neighbouring digits from their neighbours (by shifts of each digit's new cells,
    /// not cell by cell: that loop was an eighth of the time on non-consecutive
    /// puzzles). True if any cell was new.
    #[inline(always)]
    fn place_extra<const PEERS: bool, const NC: bool>(&mut self, t: &Tables) -> bool {
        let new: [u32; 3] =
            std::array::from_fn(|b| !self.unsolved[b] & !self.xdone[b] & t.xcells[b] & BAND);
        if new == [0; 3] {
            return false;
        }
        for b in 0..3 {
            self.xdone[b] |= new[b];
        }
        for d in 0..9 {
            let placed: [u32; 3] = std::array::from_fn(|b| self.cand[d * 3 + b] & new[b]);
            if placed == [0; 3] {
                continue;
            }
            if PEERS {
                for (band, &p) in placed.iter().enumerate() {
                    let mut m = p;
                    while m != 0 {
                        let x = &t.xpeers[band * 27 + m.trailing_zeros() as usize];
                        m &= m - 1;
                        for b in 0..3 {
                            self.remove(d * 3 + b, x[b]);
                        }
                    }
                }
            }
            if NC {
                let near = orth_neighbours(placed);
                for b in 0..3 {
                    if d > 0 {
                        self.remove((d - 1) * 3 + b, near[b]);
                    }
                    if d < 8 {
                        self.remove((d + 1) * 3 + b, near[b]);
                    }
                }
            }
        }
        true
    }

    /// Hidden singles, empty houses and locked candidates in the extra houses, for
    /// digits whose words changed since their last scan. `Ok(true)` if anything
    /// changed.
    #[inline(always)]
    fn extra_houses(&mut self, t: &Tables, all_peers: &[[u32; 3]; CELLS]) -> Result<bool, Dead> {
        let mut changed = false;
        for d in 0..9 {
            let k = d * 3;
            let w = [self.cand[k], self.cand[k + 1], self.cand[k + 2]];
            let old = [self.hseen[k], self.hseen[k + 1], self.hseen[k + 2]];
            if w == old {
                continue;
            }
            // Pointing into the extra house: a row, column or box whose places all
            // lie in the extra house.
            // A digit placed in all four windows has nothing to point at there.
            if t.kinds.windows
                && (w[0] & WINDOW_CELLS[0] & self.unsolved[0])
                    | (w[1] & WINDOW_CELLS[1] & self.unsolved[1])
                    | (w[2] & WINDOW_CELLS[2] & self.unsolved[2])
                    != 0
            {
                let gone = window_pointing(w);
                for b in 0..3 {
                    self.remove(k + b, gone[b]);
                }
                changed |= w[0] & gone[0] | w[1] & gone[1] | w[2] & gone[2] != 0;
            }
            for [rest, shared, away] in &t.inter {
                let c = [self.cand[k], self.cand[k + 1], self.cand[k + 2]];
                if (c[0] & rest[0]) | (c[1] & rest[1]) | (c[2] & rest[2]) == 0
                    && (c[0] & shared[0]) | (c[1] & shared[1]) | (c[2] & shared[2]) != 0
                {
                    for b in 0..3 {
                        let gone = c[b] & away[b];
                        if gone != 0 {
                            self.cand[k + b] &= !gone;
                            self.dirty |= 1 << (k + b);
                            changed = true;
                        }
                    }
                }
            }
            // The words after pointing, and the cells gone since the last scan. A house
            // none of whose cells went has nothing new (its single place was placed
            // then, its locked candidates went then); of the others, only those with
            // one open place, or two (three in a window or implied house) and none
            // placed, have something to do. Those are found for all the houses first,
            // without a branch per house: scanning them one by one, a branch or two
            // each taken or not as the places fell, was a third of the time on
            // windoku puzzles.
            let w = [self.cand[k], self.cand[k + 1], self.cand[k + 2]];
            let gone = [old[0] & !w[0], old[1] & !w[1], old[2] & !w[2]];
            let (mut todo, mut empty) = (0u32, false);
            for (i, h) in t.houses.iter().enumerate() {
                let p = [w[0] & h[0], w[1] & h[1], w[2] & h[2]];
                let n = p[0].count_ones() + p[1].count_ones() + p[2].count_ones();
                let placed = (p[0] & !self.unsolved[0])
                    | (p[1] & !self.unsolved[1])
                    | (p[2] & !self.unsolved[2]);
                let new = (gone[0] & h[0]) | (gone[1] & h[1]) | (gone[2] & h[2]);
                let most = 2 + (t.wide >> i & 1);
                empty |= n == 0;
                // `&`, not `&&`: no branch.
                let act = (new != 0) & (placed == 0) & (n >= 1) & (n <= most);
                todo |= u32::from(act) << i;
            }
            if empty {
                return Err(Dead);
            }
            while todo != 0 {
                let i = todo.trailing_zeros() as usize;
                todo &= todo - 1;
                let h = &t.houses[i];
                // The words as they are now: a house before this one may have taken
                // cells of this one.
                let c = [self.cand[k], self.cand[k + 1], self.cand[k + 2]];
                let p = [c[0] & h[0], c[1] & h[1], c[2] & h[2]];
                // Counted band by band: the bands' parts of a house may use the same
                // bit positions (the disjoint groups do).
                let n = p[0].count_ones() + p[1].count_ones() + p[2].count_ones();
                if n == 0 {
                    return Err(Dead);
                }
                if n == 1 {
                    let x = p[0] | p[1] | p[2];
                    let band = if p[0] != 0 {
                        0
                    } else if p[1] != 0 {
                        1
                    } else {
                        2
                    };
                    self.assign(k + band, x.trailing_zeros() as usize);
                    changed = true;
                    continue;
                }
                // Two places: what sees both loses the digit. Three as well in the
                // windows: on windoku puzzles that cuts the guesses from 7.9 to 6.7
                // a puzzle, and on x,windoku from 92 to 79; in the diagonals it found
                // less and cost more than it saved on x puzzles. (A house that lost a
                // place to one before it in this loop still has two or three.)
                let seen = seen_by_all(all_peers, p);
                for b in 0..3 {
                    // Open cells only: a placed cell never loses its own digit here.
                    let gone = self.cand[k + b] & seen[b] & self.unsolved[b];
                    if gone != 0 {
                        self.cand[k + b] &= !gone;
                        self.dirty |= 1 << (k + b);
                        changed = true;
                    }
                }
            }
            // The words before the houses' scan: what it took counts as a change at
            // the next scan, for the houses it took cells from.
            self.hseen[k] = w[0];
            self.hseen[k + 1] = w[1];
            self.hseen[k + 2] = w[2];
        }
        Ok(changed)
    }
}

impl State {
    /// The two diagonals when they are the only extra houses, with masks, for the
    /// digits whose words changed in the boxes the diagonals cross since their last
    /// scan (`hseen` holds those parts; changes elsewhere cannot matter here).
    ///
    /// - Pointing: a box on a diagonal whose places of the digit all lie on it takes
    ///   the digit from the rest of the diagonal (a diagonal's part of a band lies in
    ///   one box, so that is the diagonal's part in the other two bands).
    /// - Claiming: a diagonal whose places of the digit all lie in one box takes the
    ///   digit from the rest of that box.
    /// - Hidden singles, empty diagonals, and a digit with two places left in a
    ///   diagonal: what sees both loses it.
    ///
    /// `Ok(true)` if anything changed.
    #[inline(always)]
    fn diagonals(&mut self, t: &Tables) -> Result<bool, Dead> {
        let u = self.unsolved;
        let open = [
            (u[0] & MAIN[0]) | (u[1] & MAIN[1]) | (u[2] & MAIN[2]),
            (u[0] & ANTI[0]) | (u[1] & ANTI[1]) | (u[2] & ANTI[2]),
        ];
        let mut changed = false;
        // The digits to scan, found without a branch per digit (which digits changed
        // is close to random, so such branches mispredict often).
        let mut todo = 0u32;
        for d in 0..9 {
            let k = d * 3;
            let diff = (self.cand[k] & DIAG_BOXES[0]) ^ self.hseen[k]
                | (self.cand[k + 1] & DIAG_BOXES[1]) ^ self.hseen[k + 1]
                | (self.cand[k + 2] & DIAG_BOXES[2]) ^ self.hseen[k + 2];
            todo |= u32::from(diff != 0) << d;
        }
        while todo != 0 {
            let d = todo.trailing_zeros() as usize;
            todo &= todo - 1;
            let k = d * 3;
            let w = [self.cand[k], self.cand[k + 1], self.cand[k + 2]];
            let all = |m: u32| m.wrapping_neg();
            // Boxes whose places lie on the diagonal (rest empty).
            let zm = [
                all(u32::from(w[0] & MAIN_REST[0] == 0)),
                all(u32::from(w[1] & MAIN_REST[1] == 0)),
                all(u32::from(w[2] & MAIN_REST[2] == 0)),
            ];
            let za = [
                all(u32::from(w[0] & ANTI_REST[0] == 0)),
                all(u32::from(w[1] & ANTI_REST[1] == 0)),
                all(u32::from(w[2] & ANTI_REST[2] == 0)),
            ];
            let pm = [w[0] & MAIN[0], w[1] & MAIN[1], w[2] & MAIN[2]];
            let pa = [w[0] & ANTI[0], w[1] & ANTI[1], w[2] & ANTI[2]];
            let mut n = [0; 3];
            for b in 0..3 {
                let (b1, b2) = ((b + 1) % 3, (b + 2) % 3);
                // Diagonals whose places all lie in this band's box.
                let cm = all(u32::from(pm[b1] | pm[b2] == 0));
                let ca = all(u32::from(pa[b1] | pa[b2] == 0));
                let gone = ((zm[b1] | zm[b2]) & MAIN[b])
                    | ((za[b1] | za[b2]) & ANTI[b])
                    | (cm & MAIN_REST[b])
                    | (ca & ANTI_REST[b]);
                n[b] = w[b] & !(gone & u[b]);
            }
            for (h, diag) in [MAIN, ANTI].iter().enumerate() {
                let x = (n[0] & diag[0]) | (n[1] & diag[1]) | (n[2] & diag[2]);
                if x == 0 {
                    return Err(Dead);
                }
                // Without branches, which mispredict often here: masks that are all
                // ones when the case holds. Nothing when the digit is placed on this
                // diagonal already.
                let active = all(u32::from(x & open[h] == x));
                let p = x.trailing_zeros() as usize;
                let rest = clear_lowest(x);
                // The second place (32 & 31, cell 0, when there is none: unused then).
                let q = (rest.trailing_zeros() & 31) as usize;
                let single = active & all(u32::from(rest == 0));
                let pair = active & all(u32::from(rest != 0 && clear_lowest(rest) == 0));
                let (sp, sq) = (&t.diag_peers[h][p], &t.diag_peers[h][q]);
                for b in 0..3 {
                    // A single place: placed (it is in one band's part only).
                    let cell = n[b] & diag[b] & single;
                    let rowbox = ROW_BOX[p] & all(u32::from(cell != 0));
                    // Two places: what sees both loses the digit.
                    n[b] = (n[b] & !(rowbox | (sp[b] & sq[b] & u[b] & pair))) | cell;
                }
            }
            let marks = u32::from(n[0] != w[0])
                | u32::from(n[1] != w[1]) << 1
                | u32::from(n[2] != w[2]) << 2;
            changed |= marks != 0;
            self.dirty |= marks << k;
            self.cand[k] = n[0];
            self.cand[k + 1] = n[1];
            self.cand[k + 2] = n[2];
            self.hseen[k] = n[0] & DIAG_BOXES[0];
            self.hseen[k + 1] = n[1] & DIAG_BOXES[1];
            self.hseen[k + 2] = n[2] & DIAG_BOXES[2];
        }
        Ok(changed)
    }

    /// Non-consecutive, what every place of digit `d` left in a row, column or box
    /// implies, for all 27 houses at once: a cell that is a place or next to it, for
    /// every place of `d` in some house, holds `d` or sits next to it, so cannot hold
    /// `d ± 1`. `true` if anything went.
    #[inline(always)]
    fn near_places(&mut self, d: usize) -> bool {
        let k = d * 3;
        let w = [self.cand[k], self.cand[k + 1], self.cand[k + 2]];
        // The nine rows of the digit, 9 bits each.
        let rows: [u32; 9] = std::array::from_fn(|j| (w[j / 3] >> (9 * (j % 3))) & 0x1FF);
        let mut up = [0u32; 9];
        let mut down = [0u32; 9];
        let mut acc = 0;
        for j in 0..9 {
            acc |= rows[j];
            up[j] = acc;
        }
        acc = 0;
        for j in (0..9).rev() {
            acc |= rows[j];
            down[j] = acc;
        }
        let mut near = [0u32; 3];
        for j in 0..9 {
            // Columns: no place two rows or more above, none two rows or more below.
            let above = if j >= 2 { up[j - 2] } else { 0 };
            let below = if j + 2 < 9 { down[j + 2] } else { 0 };
            let m = u32::from(ROW_NEAR[rows[j] as usize]) | (up[8] & !above & !below);
            near[j / 3] |= m << (9 * (j % 3));
        }
        for b in 0..3 {
            for j in 0..3 {
                let x = w[b] >> (3 * j);
                let pattern = (x & 7) | ((x >> 9) & 7) << 3 | ((x >> 18) & 7) << 6;
                let m = u32::from(BOX_NEAR[pattern as usize]);
                near[b] |= ((m & 7) | ((m >> 3) & 7) << 9 | ((m >> 6) & 7) << 18) << (3 * j);
            }
        }
        let mut changed = false;
        for e in [d.wrapping_sub(1), d + 1] {
            if e >= 9 {
                continue;
            }
            for b in 0..3 {
                let gone = self.cand[e * 3 + b] & near[b] & self.unsolved[b];
                if gone != 0 {
                    self.cand[e * 3 + b] &= !gone;
                    self.dirty |= 1 << (e * 3 + b);
                    changed = true;
                }
            }
        }
        changed
    }

    /// Non-consecutive, for each digit `mid` of `mids` (bit `mid`, 1..=7; the rule of
    /// [`super::non_consecutive_places`], whose `d - 1` and `d + 1` are `mid ± 1`): a cell with
    /// at most one place of the two digits around `mid` outside itself and its
    /// neighbours in a row, column or box loses `mid`. [`State::house_places`] asks
    /// for the digits next to those whose places changed, each digit once however
    /// many of its two neighbours changed. `true` if anything went.
    #[inline(always)]
    fn between_digits(&mut self, mut mids: u32) -> bool {
        let mut changed = false;
        while mids != 0 {
            let mid = mids.trailing_zeros() as usize;
            mids &= mids - 1;
            let (lo, hi) = ((mid - 1) * 3, (mid + 1) * 3);
            let gone = super::non_consecutive_places::between(std::array::from_fn(|b| {
                self.cand[lo + b] | self.cand[hi + b]
            }));
            for b in 0..3 {
                let g = self.cand[mid * 3 + b] & gone[b] & self.unsolved[b];
                changed |= g != 0;
                self.remove(mid * 3 + b, g);
            }
        }
        changed
    }

    /// What every place left for a digit in a house implies (the digit will be in one
    /// of them). `true` if anything went. Only digits whose words changed since their
    /// last scan are scanned.
    ///
    /// - `MOVES` (knight or king neighbours): [`State::locked_peers`].
    /// - `NC` (non-consecutive): [`State::near_places`].
    #[inline(always)]
    fn house_places<const MOVES: bool, const NC: bool>(&mut self, t: &Tables) -> bool {
        let mut changed = false;
        // The digits between two changed digits' places, for `between_digits`.
        let mut mids = 0u32;
        // The digits whose words changed since their last scan, found for all nine
        // at once, without a branch per digit (about half of them changed, as they
        // fell, a branch that mispredicted often). Under non-consecutive a scan
        // changes the next digit's words, so each digit is looked at in turn there.
        let mut todo = if NC { (1 << 9) - 1 } else { 0u32 };
        if !NC {
            for d in 0..9 {
                let k = d * 3;
                let diff = (self.cand[k] ^ self.lseen[k])
                    | (self.cand[k + 1] ^ self.lseen[k + 1])
                    | (self.cand[k + 2] ^ self.lseen[k + 2]);
                todo |= u32::from(diff != 0) << d;
            }
        }
        while todo != 0 {
            let d = todo.trailing_zeros() as usize;
            todo &= todo - 1;
            let k = d * 3;
            if NC
                && self.cand[k] == self.lseen[k]
                && self.cand[k + 1] == self.lseen[k + 1]
                && self.cand[k + 2] == self.lseen[k + 2]
            {
                continue;
            }
            if NC {
                changed |= self.near_places(d);
                mids |= around(d);
            }
            // The words as this scan starts: what the scan itself removes counts as
            // a change next time.
            let start = [self.cand[k], self.cand[k + 1], self.cand[k + 2]];
            if MOVES {
                // Four places or three as a constant each: the counts in
                // `houses_with_two_to` then need no fifth one under anti-king.
                changed |= if t.kinds.knight {
                    self.locked_peers(k, t, LOCKED_MAX)
                } else {
                    self.locked_peers(k, t, 3)
                };
            }
            self.lseen[k] = start[0];
            self.lseen[k + 1] = start[1];
            self.lseen[k + 2] = start[2];
        }
        // After the scans: a removal here counts as a change at the next call.
        if NC {
            changed |= self.between_digits(mids);
        }
        changed
    }

    /// Locked candidates through the extra peers, for the digit of slots `k..k + 3`:
    /// when it has two or three places left in a row, column or box (four under
    /// anti-knight), a cell that sees all of them (some by a diagonal, window,
    /// knight's or king's move) loses the digit. `true` if anything went. Three places
    /// as well as two: on the anti-knight set (`data/anti-knight_200.txt`) 124 guesses
    /// a puzzle for 190, on x,anti-knight 720 for 1,202, on anti-king 8.8 for 13.1.
    /// Four as well, under anti-knight: 82.7 to 79.9 on the anti-knight set,
    /// x,anti-knight (`data/x_anti-knight_100.txt`) 573 to 493, 30 generated
    /// anti-king,anti-knight,non-consecutive puzzles 39.2 to 27.7 (on anti-knight
    /// alone the bench's own rate stayed the same within noise); under anti-king alone (7.4 to 7.1 on `data/anti-king_200.txt`) it stays
    /// at three (two only, with the moves taken in settling: 9.97 guesses a puzzle
    /// for 7.37 and 1.15 of the CPU time, `solve -j1` on that file 100 times over).
    /// The cells that see every place are one lookup in [`Tables::locked`] by the
    /// house's pattern of places: finding the places, counting them and ANDing their
    /// peers was about a third of the time on anti-knight puzzles (with the table,
    /// `solve -j1` on that set ten times over takes 0.90 of the CPU time).
    #[inline(always)]
    fn locked_peers(&mut self, k: usize, t: &Tables, most: u32) -> bool {
        let mut changed = false;
        // Only the houses with a cell changed since the last scan began (`lseen`):
        // one whose places are as they were then has nothing new, since the cells
        // that see them all went then, and candidates only ever go. A removal in
        // this scan counts as a change for the next one.
        // And of those, only the ones with two to `most` places, found for all 27
        // houses at once (the loop below, over every changed house, was the largest
        // part of the time on anti-knight puzzles).
        let mut todo =
            changed_houses([
                self.cand[k] ^ self.lseen[k],
                self.cand[k + 1] ^ self.lseen[k + 1],
                self.cand[k + 2] ^ self.lseen[k + 2],
            ]) & houses_with_two_to([self.cand[k], self.cand[k + 1], self.cand[k + 2]], most);
        while todo != 0 {
            let house = todo.trailing_zeros() as usize;
            todo &= todo - 1;
            let w = [self.cand[k], self.cand[k + 1], self.cand[k + 2]];
            // (A house with a placed cell has it for its only place by now: the
            // cheaper steps, settling first, have found nothing more.) By the entry of
            // the house's pattern of places (none outside two to `most` places).
            let seen = t.locked[house][places_pattern(house, w)];
            for b in 0..3 {
                let gone = w[b] & seen[b] & self.unsolved[b];
                if gone != 0 {
                    self.cand[k + b] &= !gone;
                    self.dirty |= 1 << (k + b);
                    changed = true;
                }
            }
        }
        changed
    }
}

/// The rows, columns and boxes (bit `i` for house `i` of [`Variant`]: rows 0-8,
/// columns 9-17, boxes 18-26) that hold two to `most` (3 or 4) cells of `w` (three
/// band words).
#[inline(always)]
fn houses_with_two_to(w: [u32; 3], most: u32) -> u32 {
    debug_assert!((3..=4).contains(&most));
    let two_to_most = |x: u32| u32::from((2..=most).contains(&x.count_ones()));
    let (mut rows, mut boxes) = (0u32, 0u32);
    // Per column: at least one, two, three, four, five places, over the nine rows.
    let (mut one, mut two, mut three, mut four, mut five) = (0u32, 0u32, 0u32, 0u32, 0u32);
    for (b, &word) in w.iter().enumerate() {
        for j in 0..3 {
            let row = word >> (9 * j) & 0x1FF;
            rows |= two_to_most(row) << (3 * b + j);
            boxes |= two_to_most(word & spread(7 << (3 * j))) << (3 * b + j);
            five |= four & row;
            four |= three & row;
            three |= two & row;
            two |= one & row;
            one |= row;
        }
    }
    let too_many = if most == 3 { four } else { five };
    rows | (two & !too_many) << 9 | boxes << 18
}

/// The window columns (one 9-bit row's worth) of the two window stacks: columns 2-4
/// and 6-8.
const WINDOW_COLUMNS: [u32; 2] = [0b1110, 0b1110 << 4];
/// The first row of the two window rows: rows 2-4 and 6-8.
const WINDOW_ROWS: [usize; 2] = [1, 5];
/// The cells of the four windows, per band.
const WINDOW_CELLS: [u32; 3] = {
    let cols = WINDOW_COLUMNS[0] | WINDOW_COLUMNS[1];
    [cols << 9 | cols << 18, cols | cols << 18, cols | cols << 9]
};

/// A box that meets a window in two cells or more, for [`window_pointing`]: its band,
/// its cells outside the window and inside it (band words), and the window rows (bit
/// `i` for the window's row `i`) and columns (9 bits) it shares with the window.
#[derive(Clone, Copy)]
struct WindowBox {
    band: usize,
    out: u32,
    shared: u32,
    rows: u32,
    cols: u32,
}

/// The three boxes that meet each window (rows `WINDOW_ROWS[w / 2]`, columns
/// `WINDOW_COLUMNS[w % 2]`) in two cells or more; the fourth meets it in one.
const WINDOW_BOXES: [[WindowBox; 3]; 4] = {
    let none = WindowBox {
        band: 0,
        out: 0,
        shared: 0,
        rows: 0,
        cols: 0,
    };
    let mut t = [[none; 3]; 4];
    let mut w = 0;
    while w < 4 {
        let (top, cols) = (WINDOW_ROWS[w / 2], WINDOW_COLUMNS[w % 2]);
        let mut n = 0;
        let mut band = top / 3;
        // The bands of the window's first and last rows.
        let last_row = top + 2;
        while band <= last_row / 3 {
            let mut rows = 0u32;
            let mut i = 0;
            while i < 3 {
                if (top + i) / 3 == band {
                    rows |= 1 << i;
                }
                i += 1;
            }
            let mut stack = cols.trailing_zeros() / 3;
            while stack <= (31 - cols.leading_zeros()) / 3 {
                let box_cols = 7 << (3 * stack);
                let shared_cols = box_cols & cols;
                if shared_cols.count_ones() * rows.count_ones() >= 2 {
                    let mut shared = 0;
                    let mut i = 0;
                    while i < 3 {
                        if rows >> i & 1 != 0 {
                            shared |= shared_cols << (9 * ((top + i) % 3));
                        }
                        i += 1;
                    }
                    t[w][n] = WindowBox {
                        band,
                        out: spread(box_cols) & !shared,
                        shared,
                        rows,
                        cols: shared_cols,
                    };
                    n += 1;
                }
                stack += 1;
            }
            band += 1;
        }
        assert!(n == 3);
        w += 1;
    }
    t
};

/// Pointing into the four windows for one digit's words (`w`, one per band): a row,
/// column or box whose places of the digit all lie in one window takes the digit from
/// the rest of that window. Returns the cells that go, per band.
///
/// Each such row, column or box leaves the digit a rectangle of the window (some of
/// its rows, some of its columns), so the window keeps the rectangle where they
/// intersect: a few operations on fixed masks per window, without a branch. (The same
/// rule by a list of (house, window) intersections, a test and a branch each, was a
/// third of the time on windoku puzzles; written with loops over rows and boxes that
/// the compiler did not fold, no less.) Only the boxes that meet a window in two cells
/// or more count: a box whose places all lie in the one cell it shares with a window
/// has the digit placed there, and the window mates lose it as peers.
#[inline(always)]
fn window_pointing(w: [u32; 3]) -> [u32; 3] {
    let rows: [u32; 9] = std::array::from_fn(|j| (w[j / 3] >> (9 * (j % 3))) & 0x1FF);
    let all = |c: bool| u32::from(c).wrapping_neg();
    let every = rows[0] | rows[4] | rows[8];
    let mut gone = [0u32; 9];
    for (h, top) in WINDOW_ROWS.into_iter().enumerate() {
        let inside = rows[top] | rows[top + 1] | rows[top + 2];
        // The rows outside this window row range (rows 0, 4, 8 and the other range).
        let other = 6 - top;
        let outside = every | rows[other] | rows[other + 1] | rows[other + 2];
        for (v, cols) in WINDOW_COLUMNS.into_iter().enumerate() {
            // The rectangle the digit may still use: window rows (bit `i`) and columns.
            let (mut keep_rows, mut keep_cols) = (7u32, cols);
            for i in 0..3 {
                let r = rows[top + i];
                let q = all(r != 0 && r & !cols == 0);
                keep_rows &= (1 << i) | !q;
            }
            let only = cols & inside & !outside;
            // One such column keeps the digit there; two leave the window nothing.
            keep_cols &= (only & all(clear_lowest(only) == 0)) | all(only == 0);
            for x in &WINDOW_BOXES[2 * h + v] {
                let c = w[x.band];
                let q = all(c & x.out == 0 && c & x.shared != 0);
                keep_rows &= x.rows | !q;
                keep_cols &= x.cols | !q;
            }
            for i in 0..3 {
                gone[top + i] |= cols & !(keep_cols & all(keep_rows >> i & 1 != 0));
            }
        }
    }
    std::array::from_fn(|b| gone[3 * b] | gone[3 * b + 1] << 9 | gone[3 * b + 2] << 18)
}

/// For the places of a digit in a row (9 bits, one per column, at least one): the
/// cells of the row that are a place or next to one, for every place (`c` with every
/// place in `c - 1 ..= c + 1`).
static ROW_NEAR: [u16; 512] = super::non_consecutive_places::near_table(false, 0, 1);

/// For the places of a digit in a 3×3 box (bit `3 * row + column`, at least one): the
/// cells of the box that are a place or orthogonally next to one, for every place.
static BOX_NEAR: [u16; 512] = super::non_consecutive_places::near_table(true, 0, 1);

/// The most places of a digit in a row, column or box that [`State::locked_peers`]
/// looks at (under anti-knight; three otherwise).
const LOCKED_MAX: u32 = 4;

/// The digits next to `d` that lie between two digits (1..=7), as a mask (bit `d`):
/// those [`State::between_digits`] judges again when `d`'s places changed.
#[inline(always)]
fn around(d: usize) -> u32 {
    ((1u32 << d) << 1 | (1u32 << d) >> 1) & 0xFE
}

/// The cells orthogonally next to a cell of `m` (three band words; `m`'s own cells
/// only where they neighbour each other).
#[inline(always)]
fn orth_neighbours(m: [u32; 3]) -> [u32; 3] {
    std::array::from_fn(|b| {
        let x = m[b];
        let mut n = ((x << 1) & !COL0) | ((x >> 1) & !COL8) | (x << 9) | (x >> 9);
        if b > 0 {
            n |= m[b - 1] >> 18;
        }
        if b < 2 {
            n |= (m[b + 1] & 0x1FF) << 18;
        }
        n & BAND
    })
}

/// Column 0 and column 8 of every row of a band.
const COL0: u32 = spread(1);
const COL8: u32 = spread(1 << 8);

impl State {
    /// Non-consecutive: a cell whose candidates all lie in `{d - 1, d, d + 1}` takes
    /// `d` from its orthogonal neighbours (whatever it holds, `d` next to it is either
    /// consecutive or, in the same row or column, a repeat): cells left with
    /// `{d - 1, d + 1}` or `{d, d + 1}`, say; arc consistency of the ban between
    /// neighbours. Open cells only: a placed cell has done this when it was placed
    /// ([`State::place_extra`] takes `d ± 1` from its neighbours, its row and column
    /// take `d`), and this step runs only once no placed cell is left undone. Then
    /// most digits have no such cell and skip the neighbour masks: `solve -j1` on 200
    /// generated minimal puzzles 0.973 of the CPU time (5 pairs, same guesses; 0.998 in
    /// session 10, before the other removals got cheaper). True if anything went.
    #[inline(always)]
    fn non_consecutive(&mut self) -> bool {
        let mut changed = false;
        // near[d][b]: open cells whose candidates are all in {d - 1, d, d + 1}.
        let mut near = [[0u32; 3]; 9];
        for b in 0..3 {
            let mut pre = [0u32; 10];
            let mut suf = [0u32; 11];
            for d in 0..9 {
                pre[d + 1] = pre[d] | self.cand[d * 3 + b];
            }
            for d in (0..9).rev() {
                suf[d] = suf[d + 1] | self.cand[d * 3 + b];
            }
            for d in 0..9 {
                let below = if d >= 1 { pre[d - 1] } else { 0 };
                let above = suf[(d + 2).min(10)];
                near[d][b] = self.unsolved[b] & !(below | above);
            }
        }
        for (d, m) in near.iter().enumerate() {
            if m[0] | m[1] | m[2] == 0 {
                continue;
            }
            let near = orth_neighbours(*m);
            for b in 0..3 {
                let k = d * 3 + b;
                let gone = self.cand[k] & near[b] & self.unsolved[b];
                if gone != 0 {
                    self.cand[k] &= !gone;
                    self.dirty |= 1 << k;
                    changed = true;
                }
            }
        }
        changed
    }

    /// Non-consecutive with anti-king: a cell whose orthogonal neighbours offer fewer
    /// digits outside `d - 1 ..= d + 1` than there are neighbours loses `d`
    /// ([`super::non_consecutive_places::crowded`]). True if anything went.
    #[inline(always)]
    fn crowded(&mut self) -> bool {
        let gone = super::non_consecutive_places::crowded(&self.cand);
        let mut changed = false;
        for (d, g) in gone.iter().enumerate() {
            for b in 0..3 {
                let x = self.cand[d * 3 + b] & g[b] & self.unsolved[b];
                changed |= x != 0;
                self.remove(d * 3 + b, x);
            }
        }
        changed
    }

    /// Propagate until nothing more follows without guessing; `false` on a
    /// contradiction.
    #[inline(always)]
    fn propagate<
        const HOUSES: bool,
        const PEERS: bool,
        const NC: bool,
        const X: bool,
        const MV: u8,
    >(
        &mut self,
        t: &Tables,
        all_peers: &[[u32; 3]; CELLS],
    ) -> Result<(), Dead> {
        // The slots settled since the last claim through columns: every change of
        // a word is marked and settled before the claim looks (the position comes
        // to this with the guess's words marked, the rest claimed before).
        let mut touched = 0u32;
        loop {
            touched |= self.settle_all::<X, MV>(t.pext)?;
            let extra = (PEERS || NC) && self.place_extra::<PEERS, NC>(t);
            if self.naked_singles()? | extra {
                continue;
            }
            if self.is_solved() {
                return Ok(());
            }
            if NC && self.non_consecutive() {
                continue;
            }
            if HOUSES {
                let more = if t.kinds.x_only {
                    self.diagonals(t)?
                } else {
                    self.extra_houses(t, all_peers)?
                };
                if more {
                    continue;
                }
            }
            let claimed = self.claim_columns(touched)?;
            touched = 0;
            if claimed {
                continue;
            }
            let scan = if NC {
                if t.kinds.locked {
                    self.house_places::<true, true>(t)
                } else {
                    self.house_places::<false, true>(t)
                }
            } else {
                t.kinds.locked && self.house_places::<true, false>(t)
            };
            if scan {
                continue;
            }
            // Last: it looks at every cell, and what the cheaper steps find first
            // often leaves it nothing.
            if NC && t.kinds.crowded && self.crowded() {
                continue;
            }
            return Ok(());
        }
    }

    /// What to branch on (band, cell in band, digit): "the digit there" first, "not
    /// there" on the stack. Under diagonals, the first place of a digit that has two
    /// places left in an extra house; else the first open cell with two candidates
    /// that has extra peers (a diagonal, window, knight or king neighbour), else the
    /// first such cell anywhere, else the first cell with the fewest candidates (under
    /// non-consecutive with knight or king moves, the first place of a digit with
    /// fewer places in a row, column or box, if any). Measured on generated puzzles: the diagonal two-place branch cuts the guesses
    /// on x puzzles by half (and slightly on x,windoku), but raises them on windoku
    /// alone, hence only under diagonals; preferring cells with extra peers cuts them
    /// on x and windoku and changes nothing where every cell has extra peers. Under
    /// extra peers or non-consecutive, without diagonals or with knight or king moves,
    /// the cell is [`State::busiest_cell`] instead of the first one.
    #[inline(always)]
    fn branch(&self, t: &Tables, all_peers: &[[u32; 3]; CELLS], failures: &[u32; CELLS]) -> Branch {
        if t.kinds.x_only {
            if let Some(branch) = self.branch_diagonals() {
                return branch;
            }
        } else if t.kinds.diagonals {
            for d in 0..9 {
                let k = d * 3;
                for h in &t.houses {
                    let open = [
                        self.cand[k] & h[0] & self.unsolved[0],
                        self.cand[k + 1] & h[1] & self.unsolved[1],
                        self.cand[k + 2] & h[2] & self.unsolved[2],
                    ];
                    let placed = (self.cand[k] & h[0] & !self.unsolved[0])
                        | (self.cand[k + 1] & h[1] & !self.unsolved[1])
                        | (self.cand[k + 2] & h[2] & !self.unsolved[2]);
                    // Counted band by band: the bands' parts of an extra house may
                    // use the same bit positions (the disjoint groups do).
                    let n = open[0].count_ones() + open[1].count_ones() + open[2].count_ones();
                    if placed == 0 && n == 2 {
                        let b = if open[0] != 0 {
                            0
                        } else if open[1] != 0 {
                            1
                        } else {
                            2
                        };
                        let rest = clear_lowest(open[b]);
                        let b2 = if rest != 0 {
                            b
                        } else if b < 2 && open[b + 1] != 0 {
                            b + 1
                        } else {
                            2
                        };
                        let i2 = if rest != 0 { rest } else { open[b2] };
                        return Branch {
                            band: b,
                            cell: open[b].trailing_zeros() as usize,
                            digit: d,
                            other: Some((k + b2, i2.trailing_zeros() as usize)),
                        };
                    }
                }
            }
        }
        let (b, i) = self.branch_cell(t, all_peers, failures);
        if t.kinds.nc && t.kinds.moves && self.pairs == [0; 3] {
            // Under non-consecutive with knight or king moves, with no cell of two
            // candidates, a digit with fewer places in a house than the cell has
            // candidates: on 30 generated anti-king,anti-knight,non-consecutive puzzles
            // 77.5 guesses a puzzle for 154.5. Under non-consecutive alone it cut them
            // too (7,675 to 6,507 on the minimal puzzles), until the branch cell took
            // the failures into account ([`State::busiest_cell`]): since then it
            // raises them (`data/non-consecutive_100.txt`: 5,059 with it, 4,599
            // without) and costs time. On anti-knight puzzles it raised them (190 to
            // 216).
            let n = self.digits_at(b, i).count_ones();
            if let Some((hb, hi, hd, hn)) = self.fewest_places(t) {
                if hn < n {
                    // With two places, the other side is the digit in the second.
                    let other = (hn == 2).then(|| self.second_place(t, hb, hi, hd));
                    return Branch {
                        band: hb,
                        cell: hi,
                        digit: hd,
                        other,
                    };
                }
            }
        }
        let digits = self.digits_at(b, i);
        let d = digits.trailing_zeros() as usize;
        let rest = clear_lowest(digits);
        Branch {
            band: b,
            cell: i,
            digit: d,
            other: (clear_lowest(rest) == 0).then(|| (rest.trailing_zeros() as usize * 3 + b, i)),
        }
    }

    /// [`State::branch`]'s first choice when the diagonals are the only extra houses:
    /// the first digit, in the main diagonal before the anti-diagonal, that has two
    /// places left in a diagonal where it is not placed. The digits and diagonals
    /// are all tested, into a mask, instead of by a branch each (which mispredicted
    /// often).
    #[inline(always)]
    fn branch_diagonals(&self) -> Option<Branch> {
        let u = self.unsolved;
        let open = [
            (u[0] & MAIN[0]) | (u[1] & MAIN[1]) | (u[2] & MAIN[2]),
            (u[0] & ANTI[0]) | (u[1] & ANTI[1]) | (u[2] & ANTI[2]),
        ];
        let on = |d: usize, diag: &[u32; 3]| {
            let k = d * 3;
            (self.cand[k] & diag[0]) | (self.cand[k + 1] & diag[1]) | (self.cand[k + 2] & diag[2])
        };
        let mut hits = 0u32;
        for d in 0..9 {
            for (h, diag) in [MAIN, ANTI].iter().enumerate() {
                let x = on(d, diag);
                hits |= u32::from(x & !open[h] == 0 && x.count_ones() == 2) << (2 * d + h);
            }
        }
        if hits == 0 {
            return None;
        }
        let (d, h) = (
            hits.trailing_zeros() as usize / 2,
            hits.trailing_zeros() as usize % 2,
        );
        let diag = [MAIN, ANTI][h];
        let k = d * 3;
        // The places in band order (the bands' parts use disjoint bits).
        let parts = [
            self.cand[k] & diag[0],
            self.cand[k + 1] & diag[1],
            self.cand[k + 2] & diag[2],
        ];
        let b = if parts[0] != 0 {
            0
        } else if parts[1] != 0 {
            1
        } else {
            2
        };
        let first = parts[b].trailing_zeros() as usize;
        let x = on(d, &diag) & !(1 << first);
        let second = x.trailing_zeros() as usize;
        Some(Branch {
            band: b,
            cell: first,
            digit: d,
            other: Some((k + usize::from(DIAG_BAND[h][second]), second)),
        })
    }

    /// The slot and cell of the other place of digit `d` in a row, column or box where
    /// it has two places, one of them cell `i` of band `b`.
    fn second_place(&self, t: &Tables, b: usize, i: usize, d: usize) -> (usize, usize) {
        let k = d * 3;
        let cell = b * 27 + i;
        for h in &t.classic {
            if h[b] >> i & 1 == 0 {
                continue;
            }
            let p = [
                self.cand[k] & h[0],
                self.cand[k + 1] & h[1],
                self.cand[k + 2] & h[2],
            ];
            if p[0].count_ones() + p[1].count_ones() + p[2].count_ones() == 2 {
                for bb in 0..3 {
                    let q = p[bb] & !(u32::from(bb == b) << i);
                    if q != 0 {
                        return (k + bb, q.trailing_zeros() as usize);
                    }
                }
            }
        }
        unreachable!("cell {cell} has a house with two places of digit {d}")
    }

    /// The digit and row, column or box with the fewest places left (two or more, not
    /// placed there): (band, cell, digit, places) of its first place.
    fn fewest_places(&self, t: &Tables) -> Option<(usize, usize, usize, u32)> {
        let mut best: Option<(usize, usize, usize, u32)> = None;
        for d in 0..9 {
            let k = d * 3;
            for h in &t.classic {
                let p = [
                    self.cand[k] & h[0],
                    self.cand[k + 1] & h[1],
                    self.cand[k + 2] & h[2],
                ];
                if p[0] & !self.unsolved[0] | p[1] & !self.unsolved[1] | p[2] & !self.unsolved[2]
                    != 0
                {
                    continue;
                }
                let n = p[0].count_ones() + p[1].count_ones() + p[2].count_ones();
                if n >= 2 && best.is_none_or(|b| n < b.3) {
                    let b = if p[0] != 0 {
                        0
                    } else if p[1] != 0 {
                        1
                    } else {
                        2
                    };
                    best = Some((b, p[b].trailing_zeros() as usize, d, n));
                    if n == 2 {
                        // No house has fewer: the first such is the answer.
                        return best;
                    }
                }
            }
        }
        best
    }

    /// The cell to branch on (see [`State::branch`]).
    #[inline(always)]
    fn branch_cell(
        &self,
        t: &Tables,
        all_peers: &[[u32; 3]; CELLS],
        failures: &[u32; CELLS],
    ) -> (usize, usize) {
        if t.kinds.busiest {
            return self.busiest_cell(all_peers, failures, t.kinds.weighted);
        }
        for b in 0..3 {
            let p = self.pairs[b] & t.xcells[b];
            if p != 0 {
                return (b, p.trailing_zeros() as usize);
            }
        }
        for b in 0..3 {
            if self.pairs[b] != 0 {
                return (b, self.pairs[b].trailing_zeros() as usize);
            }
        }
        let mut best = (10, (0, 0));
        for b in 0..3 {
            let mut open = self.unsolved[b];
            while open != 0 {
                let i = open.trailing_zeros() as usize;
                open &= open - 1;
                let n = self.digits_at(b, i).count_ones();
                if n < best.0 {
                    best = (n, (b, i));
                }
            }
        }
        best.1
    }
}

impl State {
    /// The open cell with the fewest candidates (a cell with two, if any); among
    /// those, the one whose guesses failed most often so far in this search
    /// (`failures`, per cell: a position that propagation found dead counts against
    /// the cell of the guess that made it; the counts last the whole search, as in the
    /// "weighted degree" heuristics of constraint solvers), and then the one with the
    /// most open peers (row, column, box and the extra peers): its choice settles the
    /// most. The failure counts, against the busiest cell alone, on the held-out sets
    /// in `data/` (limit 2): non-consecutive 5,369 to 5,059 guesses a puzzle (4,599
    /// with the fewest-places branch off, see [`State::branch`]), anti-knight 93.1 to
    /// 82.7, x,anti-knight 589 to 574, anti-king 7.8 to 7.5.
    ///
    /// The busiest cell alone, against the first such cell in reading order: guesses per
    /// puzzle on the held-out sets in `data/`: non-consecutive (first 40) 6,366 to
    /// 5,746, anti-knight 120 to 93, anti-king 8.7 to 7.8, windoku 7.4 to 6.9, x,anti-knight
    /// (after the diagonal two-place branch) 682 to 590, and on 30 generated
    /// anti-king,anti-knight,non-consecutive puzzles 79.6 to 76.8. (On x,anti-knight
    /// the busiest cell before the diagonal branch raised them, to 745.)
    ///
    /// With `weighted` ([`Kinds::weighted`]: non-consecutive, no diagonals), when no cell has two
    /// candidates, the cell of fewest candidates per failure (`n / (failed + 1)`, the
    /// "dom/wdeg" of constraint solvers) instead, ties as above, and the counts fade
    /// ([`FADE_EVERY`]). On 200 non-consecutive minimal puzzles (100 generated and
    /// `data/non-consecutive_100.txt`), limit 2: 5,205 guesses a puzzle to 4,724 by the
    /// ratio, 4,439 with the fading as well (about 0.89 of the CPU time). Not under
    /// the other rule sets: on anti-knight it was mixed (`data/anti-knight_200.txt`
    /// 79.9 to 77.0 guesses fading every 64, the bench's 200 generated puzzles 73.0 to
    /// 74.7 fading every 256, its speed the same within noise), on x,anti-knight the
    /// ratio raised them (493 to 576), and anti-king's branch cells nearly always
    /// have two candidates.
    #[inline(always)]
    fn busiest_cell(
        &self,
        all_peers: &[[u32; 3]; CELLS],
        failures: &[u32; CELLS],
        weighted: bool,
    ) -> (usize, usize) {
        let u = self.unsolved;
        let pairs = self.pairs[0] | self.pairs[1] | self.pairs[2] != 0;
        // (candidates, failures, open peers, band, cell)
        let mut best = (u32::MAX, 0, 0, 0, 0);
        for b in 0..3 {
            let mut open = if pairs { self.pairs[b] } else { u[b] };
            while open != 0 {
                let i = open.trailing_zeros() as usize;
                open &= open - 1;
                let n = if pairs {
                    2
                } else {
                    self.digits_at(b, i).count_ones()
                };
                let failed = failures[b * 27 + i];
                if weighted && !pairs && best.0 != u32::MAX {
                    // Fewer candidates per failure (plus one) first: n / (failed + 1)
                    // against the best one's, without division.
                    let this = u64::from(n) * u64::from(best.1 + 1);
                    let that = u64::from(best.0) * u64::from(failed + 1);
                    if this > that {
                        continue;
                    }
                    if this < that {
                        let p = &all_peers[b * 27 + i];
                        let peers = (p[0] & u[0]).count_ones()
                            + (p[1] & u[1]).count_ones()
                            + (p[2] & u[2]).count_ones();
                        best = (n, failed, peers, b, i);
                        continue;
                    }
                }
                if n > best.0 || (n == best.0 && failed < best.1) {
                    continue;
                }
                let p = &all_peers[b * 27 + i];
                let peers = (p[0] & u[0]).count_ones()
                    + (p[1] & u[1]).count_ones()
                    + (p[2] & u[2]).count_ones();
                if n < best.0 || failed > best.1 || peers > best.2 {
                    best = (n, failed, peers, b, i);
                }
            }
        }
        (best.3, best.4)
    }
}

/// Under [`Kinds::weighted`], every this many dead positions each cell's failure
/// count loses a quarter, so that the cells failing lately count most (as the
/// decaying activity of SAT solvers' branching). Guesses a puzzle on 200
/// non-consecutive minimal puzzles (100 generated and `data/non-consecutive_100.txt`)
/// and on 100 others generated with another seed, limit 2, by how often: every 16
/// 4,865 (the first sample), 32 4,578, 64 4,491 and 4,526, 128 4,442 and 4,238, 256
/// 4,439 and 4,230, 512 4,627 and 4,344, never 4,711 and 4,491; losing half every 64
/// 4,669.
const FADE_EVERY: u32 = 256;

/// A guess: `digit` in cell `cell` of band `band` first; the other side is `other`
/// (slot, cell) placed when the choice is two-way, else "not that digit there".
struct Branch {
    band: usize,
    cell: usize,
    digit: usize,
    other: Option<(usize, usize)>,
}

/// What a search works in: its stack and, under [`Kinds::placements`], the digits'
/// open placements.
struct Work<'a> {
    stack: &'a mut Vec<State>,
    frames: Option<&'a mut Frames>,
}

/// When a search gives up before its end: once it has made more than `budget` guesses
/// (the guesses it returns then exceed it), and before a guess once `stop` is set.
#[derive(Clone, Copy)]
struct GiveUp<'a> {
    budget: u64,
    stop: &'a StopFlag,
}

/// The search: depth first, the other branch of each guess on `stack`, until `give_up`
/// says so. Returns (solutions found up to `limit`, guesses made).
#[inline(always)]
fn run<const HOUSES: bool, const PEERS: bool, const NC: bool, const X: bool, const MV: u8>(
    t: &Tables,
    all_peers: &[[u32; 3]; CELLS],
    grid: &Grid,
    w: Work<'_>,
    limit: u64,
    give_up: GiveUp<'_>,
    found: &mut dyn FnMut(Grid),
) -> (u64, u64) {
    let Work { stack, mut frames } = w;
    stack.clear();
    let (mut solutions, mut guesses) = (0, 0);
    let Some(mut cur) = State::start::<MV>(grid) else {
        return (0, 0);
    };
    // Per cell, the positions found dead after a guess there (see
    // `State::busiest_cell`).
    let mut failures = [0u32; CELLS];
    let mut failed = 0u32;
    // The position has no placement lists of its own yet (see `Frames::filter`).
    let mut fresh = true;
    loop {
        let alive = loop {
            if cur
                .propagate::<HOUSES, PEERS, NC, X, MV>(t, all_peers)
                .is_err()
            {
                break false;
            }
            let Some(f) = frames.as_deref_mut() else {
                break true;
            };
            if cur.is_solved() {
                break true;
            }
            let (level, found) = f.filter(&mut cur.cand, cur.plevel, fresh);
            cur.plevel = level;
            fresh = false;
            match found {
                Filtered::Dead => break false,
                Filtered::Removed(0) => break true,
                Filtered::Removed(slots) => cur.dirty |= slots,
            }
        };
        if !alive {
            if let Some(f) = failures.get_mut(usize::from(cur.last)) {
                *f += 1;
                failed += 1;
                if t.kinds.weighted && failed.is_multiple_of(FADE_EVERY) {
                    for f in failures.iter_mut() {
                        *f -= *f / 4;
                    }
                }
            }
        } else {
            if cur.is_solved() {
                found(cur.grid());
                solutions += 1;
                if solutions >= limit {
                    break;
                }
            } else if give_up.stop.is_set() {
                break;
            } else {
                let Branch {
                    band: b,
                    cell: i,
                    digit: d,
                    other: second,
                } = cur.branch(t, all_peers, &failures);
                let mut other = cur;
                match second {
                    // The other side of a two-way choice placed at once: it spares a
                    // round of propagation when the search comes back to it.
                    Some((k, j)) => other.assign(k, j),
                    None => {
                        other.cand[d * 3 + b] &= !(1 << i);
                        other.dirty |= 1 << (d * 3 + b);
                    }
                }
                other.last = (b * 27 + i) as u8;
                stack.push(other);
                cur.assign(d * 3 + b, i);
                cur.last = (b * 27 + i) as u8;
                fresh = true;
                guesses += 1;
                if guesses > give_up.budget {
                    break;
                }
                continue;
            }
        }
        match stack.pop() {
            Some(next) => {
                cur = next;
                fresh = true;
            }
            None => break,
        }
    }
    (solutions, guesses)
}

/// The most whole placements of a digit [`Kinds::placements`] keeps lists of (3,176
/// under anti-knight).
const MOST_PLACEMENTS: usize = 8192;

/// True when the search runs compiled with BMI2 (`crate::solver::fast_bits`) and
/// the CPU's PEXT is fast (`crate::solver::bmi2`): settling may then use PEXT.
fn fast_pext() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        crate::solver::fast_bits() && crate::solver::bmi2()
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Band tables plus every cell's full peer set per band (for locked candidates).
#[derive(Clone)]
pub(crate) struct Engine {
    t: Tables,
    all_peers: Box<[[u32; 3]; CELLS]>,
    stack: Vec<State>,
    /// For the rule sets [`super::xlanes`] runs (x, windoku, x,windoku, anti-king,
    /// non-consecutive), on CPUs with AVX2 or AVX-512: its search, its stack and the
    /// rules.
    lanes: Option<(super::xlanes::Kind, super::xlanes::Search)>,
    /// The most guesses a search of this module may make ([`Engine::enumerate`]);
    /// unbounded otherwise.
    budget: u64,
    /// What makes searches give up (see [`Engine::set_stop`]).
    stop: StopFlag,
    /// Under [`Kinds::placements`], the digits' open whole placements along the
    /// search's path.
    frames: Option<Frames>,
}

impl Engine {
    /// The engine for `v` (boxes kept), with the vector search of `vectors` for the
    /// rule sets that search runs (x, windoku, x,windoku, anti-king).
    pub(crate) fn new(v: &Variant, vectors: Vectors) -> Engine {
        let mut t = Tables {
            pext: fast_pext(),
            ..Tables::new(v)
        };
        let frames = t
            .kinds
            .placements
            .then(|| whole_placements(v, MOST_PLACEMENTS))
            .flatten()
            .map(|all| Frames::new(v, all));
        if frames.is_none() {
            // Too many placements to keep lists of: the locked candidates instead.
            t.kinds.placements = false;
            t.kinds.locked = t.kinds.moves;
        }
        Engine {
            lanes: super::xlanes::Kind::of(v.rules())
                .and_then(|kind| Some((kind, super::xlanes::Search::new(vectors)?))),
            t,
            all_peers: Box::new(std::array::from_fn(|c| split(v.peers[c]))),
            stack: Vec::with_capacity(81),
            budget: u64::MAX,
            stop: StopFlag::never(),
            frames,
        }
    }

    /// Make searches give up once `stop` is set ([`Engine::enumerate`]'s excepted).
    pub(crate) fn set_stop(&mut self, stop: StopFlag) {
        if let Some((_, lanes)) = &mut self.lanes {
            lanes.set_stop(stop.clone());
        }
        self.stop = stop;
    }

    /// Every solution of `grid`, in the order the search finds them, if there are at
    /// most `most` and the search needs at most `budget` guesses to find them all and
    /// show there are no more; `None` otherwise. This module's search, never
    /// [`super::xlanes`]'s.
    pub(crate) fn enumerate(&mut self, grid: &Grid, most: usize, budget: u64) -> Option<Vec<Grid>> {
        let mut all = Vec::new();
        self.budget = budget;
        // Its budget bounds it; a list cut by a stop would pass for the whole one (and
        // a catalog is kept for the rest of the process).
        let stop = std::mem::take(&mut self.stop);
        let (solutions, guesses) = self.search_scalar(grid, most as u64 + 1, &mut |g| all.push(g));
        self.stop = stop;
        self.budget = u64::MAX;
        (solutions <= most as u64 && guesses <= budget).then_some(all)
    }

    /// Search `grid`, handing each solution to `found`, up to `limit`. Returns
    /// (solutions, guesses).
    pub(crate) fn search(
        &mut self,
        grid: &Grid,
        limit: u64,
        found: &mut dyn FnMut(Grid),
    ) -> (u64, u64) {
        if let Some((kind, lanes)) = &mut self.lanes {
            return lanes.run(*kind, grid, limit, found);
        }
        self.search_scalar(grid, limit, found)
    }

    /// [`Engine::search`] with this module's search, never [`super::xlanes`]'s.
    pub(crate) fn search_scalar(
        &mut self,
        grid: &Grid,
        limit: u64,
        found: &mut dyn FnMut(Grid),
    ) -> (u64, u64) {
        #[cfg(target_arch = "x86_64")]
        if crate::solver::fast_bits() {
            // SAFETY: the CPU has the features `search_fast` is compiled for.
            return unsafe { self.search_fast(grid, limit, found) };
        }
        self.search_any(grid, limit, found)
    }

    /// [`Engine::search_any`] compiled with POPCNT, BMI1/2 and LZCNT (as the classic
    /// engine's searches are): counting candidates and finding the lowest set bit are
    /// single instructions there, and the whole search inlines into this function.
    ///
    /// # Safety
    ///
    /// The CPU must have those features (`crate::solver::fast_bits`).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt")]
    unsafe fn search_fast(
        &mut self,
        grid: &Grid,
        limit: u64,
        found: &mut dyn FnMut(Grid),
    ) -> (u64, u64) {
        self.search_any(grid, limit, found)
    }

    /// The search, for the rule kinds of this engine's tables.
    #[inline(always)]
    fn search_any(&mut self, grid: &Grid, limit: u64, found: &mut dyn FnMut(Grid)) -> (u64, u64) {
        let k = self.t.kinds;
        let (t, p) = (&self.t, &*self.all_peers);
        let w = Work {
            stack: &mut self.stack,
            frames: self.frames.as_mut(),
        };
        let give_up = GiveUp {
            budget: self.budget,
            stop: &self.stop,
        };
        if k.x_alone {
            // The diagonals' peers are taken in settling (see `State::settle`).
            return run::<true, false, false, true, 0>(t, p, grid, w, limit, give_up, found);
        }
        // King and knight moves alone as extra peers: settling takes them (no pass
        // over the placed cells for peers).
        // With diagonals or windows, their mates are left to the pass over placed
        // cells (`State::place_extra`).
        match (k.houses, k.settle_moves, k.nc) {
            (false, 1, false) => {
                return run::<false, false, false, false, 1>(t, p, grid, w, limit, give_up, found)
            }
            (false, 2, false) => {
                return run::<false, false, false, false, 2>(t, p, grid, w, limit, give_up, found)
            }
            (false, 3, false) => {
                return run::<false, false, false, false, 3>(t, p, grid, w, limit, give_up, found)
            }
            (false, 1, true) => {
                return run::<false, false, true, false, 1>(t, p, grid, w, limit, give_up, found)
            }
            (false, 2, true) => {
                return run::<false, false, true, false, 2>(t, p, grid, w, limit, give_up, found)
            }
            (false, 3, true) => {
                return run::<false, false, true, false, 3>(t, p, grid, w, limit, give_up, found)
            }
            (true, 1, false) => {
                return run::<true, true, false, false, 1>(t, p, grid, w, limit, give_up, found)
            }
            (true, 2, false) => {
                return run::<true, true, false, false, 2>(t, p, grid, w, limit, give_up, found)
            }
            (true, 3, false) => {
                return run::<true, true, false, false, 3>(t, p, grid, w, limit, give_up, found)
            }
            (true, 1, true) => {
                return run::<true, true, true, false, 1>(t, p, grid, w, limit, give_up, found)
            }
            (true, 2, true) => {
                return run::<true, true, true, false, 2>(t, p, grid, w, limit, give_up, found)
            }
            (true, 3, true) => {
                return run::<true, true, true, false, 3>(t, p, grid, w, limit, give_up, found)
            }
            _ => {}
        }
        match (k.houses, k.peers, k.nc) {
            (false, false, false) => {
                run::<false, false, false, false, 0>(t, p, grid, w, limit, give_up, found)
            }
            (false, false, true) => {
                run::<false, false, true, false, 0>(t, p, grid, w, limit, give_up, found)
            }
            (false, true, false) => {
                run::<false, true, false, false, 0>(t, p, grid, w, limit, give_up, found)
            }
            (false, true, true) => {
                run::<false, true, true, false, 0>(t, p, grid, w, limit, give_up, found)
            }
            (true, _, false) => {
                run::<true, true, false, false, 0>(t, p, grid, w, limit, give_up, found)
            }
            (true, _, true) => {
                run::<true, true, true, false, 0>(t, p, grid, w, limit, give_up, found)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::Rng;
    use crate::rules::generate::random_solution;
    use crate::rules::Rule;
    use crate::rules::{RuleSet, Variant};

    /// What a CPU without fast BMI2 runs (the portable search, the row/box map from
    /// tables) finds the same solutions with the same guesses as the search this CPU
    /// runs (compiled with BMI2, PEXT where it is fast), for every kind of rule set the
    /// engine specialises: diagonals alone, extra houses, peers, non-consecutive.
    #[test]
    fn portable_tables_agree_with_the_search_this_cpu_runs() {
        let mut rng = Rng::new(7);
        for rules in [
            "x",
            "windoku",
            "x,windoku",
            "anti-king",
            "x,anti-knight",
            "non-consecutive",
        ] {
            let rules: RuleSet = rules.parse().unwrap();
            let v = Variant::new(rules, None).unwrap();
            let mut fast = Engine::new(&v, Vectors::Scalar);
            let mut portable = Engine::new(&v, Vectors::Scalar);
            portable.t.pext = false;
            for round in 0..40 {
                let mut puzzle = random_solution(&v, &mut rng).unwrap();
                // From few blanks (one solution) to many (several).
                let blanks = 30 + round;
                let mut cells: Vec<usize> = (0..CELLS).collect();
                rng.shuffle(&mut cells);
                for &cell in &cells[..blanks] {
                    puzzle.set(cell, 0);
                }
                let (mut a, mut b) = (Vec::new(), Vec::new());
                let by_fast = fast.search_scalar(&puzzle, 50, &mut |g| a.push(g));
                let by_portable = portable.search_any(&puzzle, 50, &mut |g| b.push(g));
                assert_eq!(by_fast, by_portable, "{rules} {puzzle}");
                assert_eq!(a, b, "{rules} {puzzle}");
                assert!(!a.is_empty() && a.iter().all(|s| v.solves(s, &puzzle)));
            }
        }
    }
    /// A random position that solution `sol` keeps: `givens` of its cells given, and
    /// each other candidate (one `sol` does not use) dropped with chance `drop` in 8.
    fn position(sol: &Grid, rng: &mut Rng, givens: usize, drop: u64) -> State {
        let mut cells: Vec<usize> = (0..CELLS).collect();
        rng.shuffle(&mut cells);
        let mut puzzle = Grid::EMPTY;
        for &c in &cells[..givens] {
            puzzle.set(c, sol.get(c));
        }
        let mut s = State::start::<0>(&puzzle).expect("a solution's cells never clash");
        for c in 0..CELLS {
            let (b, i) = (c / 27, c % 27);
            for d in 0..9 {
                if usize::from(sol.get(c)) != d + 1 && rng.below(8) < drop {
                    s.remove(d * 3 + b, 1 << i);
                }
            }
        }
        s
    }

    /// With `weighted` and no two-candidate cell, the branch cell is the open cell of
    /// fewest candidates per failure plus one (compared as exact fractions), then of
    /// fewest candidates, then of most open peers, the first such in cell order:
    /// against that order written out, on random positions and failure counts.
    #[test]
    fn weighted_branch_cell_is_the_fewest_candidates_per_failure() {
        let mut rng = Rng::new(23);
        let v = Variant::new("non-consecutive".parse().unwrap(), None).unwrap();
        let engine = Engine::new(&v, Vectors::Scalar);
        let peers = &*engine.all_peers;
        let grids: Vec<Grid> = (0..4)
            .map(|_| random_solution(&v, &mut rng).unwrap())
            .collect();
        let mut differs = 0;
        for round in 0..600u64 {
            let sol = grids[round as usize % grids.len()];
            let s = position(&sol, &mut rng, (round % 30) as usize, 1 + round % 6);
            assert_eq!(s.pairs, [0; 3]);
            let failures: [u32; CELLS] = std::array::from_fn(|_| {
                let f = rng.below(1 + round % 40) as u32;
                f * u32::from(rng.below(3) == 0)
            });
            // (n, failed, open peers, cell) of every open cell.
            let open: Vec<(u64, u64, u32, usize)> = (0..CELLS)
                .filter(|&c| s.unsolved[c / 27] >> (c % 27) & 1 != 0)
                .map(|c| {
                    let n = s.digits_at(c / 27, c % 27).count_ones();
                    let p = &peers[c];
                    let open_peers = (0..3).map(|b| (p[b] & s.unsolved[b]).count_ones()).sum();
                    (u64::from(n), u64::from(failures[c]), open_peers, c)
                })
                .collect();
            if open.is_empty() {
                continue;
            }
            let mut want = open[0];
            for &x in &open[1..] {
                let (this, that) = (x.0 * (want.1 + 1), want.0 * (x.1 + 1));
                let better = this < that
                    || (this == that && (x.0 < want.0 || (x.0 == want.0 && x.2 > want.2)));
                if better {
                    want = x;
                }
            }
            let (b, i) = s.busiest_cell(peers, &failures, true);
            assert_eq!(b * 27 + i, want.3, "round {round}");
            differs += usize::from(s.busiest_cell(peers, &failures, false) != (b, i));
        }
        // The weighting changes the choice often enough that the check is not idle.
        assert!(differs > 50, "{differs}");
    }

    /// True when every cell of `sol` is still a candidate of `s`.
    fn keeps(s: &State, sol: &Grid) -> bool {
        (0..CELLS).all(|c| s.cand[(usize::from(sol.get(c)) - 1) * 3 + c / 27] >> (c % 27) & 1 != 0)
    }

    fn candidates(s: &State) -> u32 {
        s.cand.iter().map(|w| w.count_ones()).sum()
    }

    /// Each inference alone, and the whole propagation, on random positions (not
    /// puzzles: random candidates dropped around a known solution) never removes a
    /// candidate of that solution, which the rules allow; and each removes something
    /// often enough that the check is not idle.
    /// The houses `changed_houses` names are those that hold a cell of the mask, in
    /// the order of the rule table's first 27 houses, on random sparse masks.
    #[test]
    fn changed_houses_are_the_houses_holding_the_cells() {
        let v = Variant::new(RuleSet::CLASSIC, None).unwrap();
        let mut rng = Rng::new(11);
        for _ in 0..2000 {
            let mut mask = 0u128;
            for _ in 0..rng.below(4) {
                mask |= 1 << rng.below(81);
            }
            let want = (0..27).fold(0u32, |m, i| m | u32::from(v.houses[i] & mask != 0) << i);
            assert_eq!(changed_houses(split(mask)), want, "{mask:x}");
        }
    }

    /// `orth_neighbours` names the cells the rule table's orthogonal neighbours name,
    /// on random masks from sparse to dense.
    #[test]
    fn orth_neighbours_are_the_rule_tables() {
        let v = Variant::new("non-consecutive".parse().unwrap(), None).unwrap();
        let mut rng = Rng::new(9);
        for round in 0..3000u64 {
            let mut m = 0u128;
            for c in 0..CELLS {
                if rng.below(16) <= round % 16 {
                    m |= 1 << c;
                }
            }
            let want = (0..CELLS)
                .filter(|&c| m >> c & 1 != 0)
                .fold(0u128, |w, c| w | v.links[0].1.near[c]);
            assert_eq!(orth_neighbours(split(m)), split(want), "{m:x}");
        }
    }

    /// `move_cells` are the cells a king's diagonal step or a knight's jump away, as
    /// the rule table's move masks give them (built cell by cell from row and column
    /// offsets), for every cell and for random sets of cells of a band; and the engine
    /// takes the moves in settling for the rule sets that have them, and only for
    /// those.
    #[test]
    fn move_cells_are_king_and_knight_moves() {
        use crate::rules::{anti_king::KING_MASKS, anti_knight::KNIGHT_MASKS};
        let reach = |mv: u8, cell: usize| {
            // A king's moves along its row or column stay in a house: only the
            // diagonal ones are taken.
            let line = (0..CELLS)
                .filter(|&c| c / 9 == cell / 9 || c % 9 == cell % 9)
                .fold(0u128, |m, c| m | 1 << c);
            let mut m = 0u128;
            if mv & 1 != 0 {
                m |= KING_MASKS[cell] & !line;
            }
            if mv & 2 != 0 {
                m |= KNIGHT_MASKS[cell];
            }
            m
        };
        let mut rng = Rng::new(11);
        for mv in 1..=3u8 {
            for cell in 0..CELLS {
                let got = move_cells(mv, cell / 27, 1 << (cell % 27));
                assert_eq!(got, split(reach(mv, cell)), "moves {mv}, cell {cell}");
            }
            for _ in 0..2000 {
                let band = rng.below(3) as usize;
                let p = rng.below(1 << 27) as u32 & rng.below(1 << 27) as u32;
                let want = (0..27)
                    .filter(|&i| p >> i & 1 != 0)
                    .fold(0u128, |m, i| m | reach(mv, band * 27 + i));
                assert_eq!(move_cells(mv, band, p), split(want), "{mv} {band} {p:x}");
            }
        }
        for (rules, mv) in [
            ("anti-king", 1),
            ("anti-knight", 2),
            ("anti-king,anti-knight", 3),
            ("anti-king,anti-knight,non-consecutive", 3),
            ("anti-knight,non-consecutive", 2),
            ("x,anti-knight", 2),
            ("windoku,anti-king", 1),
            ("x", 0),
            ("non-consecutive", 0),
            ("classic", 0),
        ] {
            let v = Variant::new(rules.parse().unwrap(), None).unwrap();
            assert_eq!(Tables::new(&v).kinds.settle_moves, mv, "{rules}");
        }
    }

    /// Settling the king and knight moves ([`Kinds::settle_moves`]) propagates to the
    /// same position as the pass over the placed cells with the moves as peers does
    /// ([`Tables::build`] without settling), or finds a contradiction when that does:
    /// on random positions of random solutions, some with a solution's digit taken
    /// out (most of those die).
    #[test]
    fn moves_in_settling_propagate_as_the_peer_pass() {
        let mut rng = Rng::new(21);
        let mut all_open = 0;
        for rules in [
            "anti-king",
            "anti-knight",
            "anti-king,anti-knight",
            "anti-king,anti-knight,non-consecutive",
            "x,anti-knight",
            "windoku,anti-king",
        ] {
            let v = Variant::new(rules.parse().unwrap(), None).unwrap();
            let (t, full) = (Tables::new(&v), Tables::build(&v, false));
            assert_eq!(full.kinds.settle_moves, 0);
            let peers: [[u32; 3]; CELLS] = std::array::from_fn(|c| split(v.peers[c]));
            let (mut dead, mut solved, mut open) = (0, 0, 0);
            for round in 0..600u64 {
                let sol = random_solution(&v, &mut rng).unwrap();
                let mut start = position(&sol, &mut rng, 8 + (round % 24) as usize, round % 5);
                let changed = round % 3 == 0;
                if changed {
                    let c = rng.below(CELLS as u64) as usize;
                    start.remove(usize::from(sol.get(c) - 1) * 3 + c / 27, 1 << (c % 27));
                }
                let (mut a, mut b) = (start, start);
                let k = t.kinds;
                let (by_pass, by_settle) = match (k.houses, k.nc, k.settle_moves) {
                    (false, false, 1) => (
                        a.propagate::<false, true, false, false, 0>(&full, &peers),
                        b.propagate::<false, false, false, false, 1>(&t, &peers),
                    ),
                    (false, false, 2) => (
                        a.propagate::<false, true, false, false, 0>(&full, &peers),
                        b.propagate::<false, false, false, false, 2>(&t, &peers),
                    ),
                    (false, false, 3) => (
                        a.propagate::<false, true, false, false, 0>(&full, &peers),
                        b.propagate::<false, false, false, false, 3>(&t, &peers),
                    ),
                    (false, true, 3) => (
                        a.propagate::<false, true, true, false, 0>(&full, &peers),
                        b.propagate::<false, false, true, false, 3>(&t, &peers),
                    ),
                    (true, false, 1) => (
                        a.propagate::<true, true, false, false, 0>(&full, &peers),
                        b.propagate::<true, true, false, false, 1>(&t, &peers),
                    ),
                    (true, false, 2) => (
                        a.propagate::<true, true, false, false, 0>(&full, &peers),
                        b.propagate::<true, true, false, false, 2>(&t, &peers),
                    ),
                    other => panic!("{rules}: {other:?}"),
                };
                assert_eq!(by_pass.is_ok(), by_settle.is_ok(), "{rules}\n{sol}");
                if by_pass.is_err() {
                    dead += 1;
                    continue;
                }
                assert_eq!(a.cand, b.cand, "{rules}\n{sol}");
                assert_eq!(a.unsolved, b.unsolved, "{rules}\n{sol}");
                assert_eq!(a.pairs, b.pairs, "{rules}\n{sol}");
                if a.is_solved() {
                    // With a digit taken out, another solution, if any.
                    if changed {
                        assert!(v.solves(&a.grid(), &Grid::EMPTY), "{rules}\n{sol}");
                    } else {
                        assert_eq!(a.grid(), sol, "{rules}");
                    }
                    solved += 1;
                } else {
                    open += 1;
                }
            }
            assert!(dead > 20 && solved > 20, "{rules}: {dead} {solved} {open}");
            // Under the triple set propagation solves every one of these positions.
            all_open += open;
        }
        assert!(all_open > 100, "{all_open}");
    }

    /// The start position's removals through columns and king or knight moves
    /// (`State::start` with `MV`) change nothing that propagation finds: on random
    /// givens of random solutions, some with a given changed (often a clash in a
    /// column or a move apart), the start with the moves and the start without
    /// propagate to the same words, or both die; and the start's words keep the
    /// solution when no given was changed.
    #[test]
    fn start_with_moves_propagates_as_the_plain_start() {
        fn both<const MV: u8>(
            t: &Tables,
            peers: &[[u32; 3]; CELLS],
            g: &Grid,
            sol: Option<&Grid>,
        ) -> [Option<State>; 2] {
            if let Some(sol) = sol {
                let s = State::start::<MV>(g).expect("a solution's givens never clash");
                assert!(keeps(&s, sol), "start\n{sol}");
            }
            [State::start::<MV>(g), State::start::<0>(g)].map(|s| {
                s.and_then(|mut s| {
                    s.propagate::<false, false, false, false, MV>(t, peers)
                        .ok()?;
                    Some(s)
                })
            })
        }
        let mut rng = Rng::new(27);
        for rules in ["anti-king", "anti-knight", "anti-king,anti-knight"] {
            let v = Variant::new(rules.parse().unwrap(), None).unwrap();
            let t = Tables::new(&v);
            let peers: [[u32; 3]; CELLS] = std::array::from_fn(|c| split(v.peers[c]));
            let (mut dead, mut alive) = (0, 0);
            for round in 0..400u64 {
                let sol = random_solution(&v, &mut rng).unwrap();
                let mut cells = [0u8; CELLS];
                for (c, cell) in cells.iter_mut().enumerate() {
                    if rng.below(81) < 10 + round % 30 {
                        *cell = sol.get(c);
                    }
                }
                let changed = round % 2 == 1;
                if changed {
                    let c = rng.below(CELLS as u64) as usize;
                    cells[c] = 1 + rng.below(9) as u8;
                }
                let grid = Grid::from_cells(cells).unwrap();
                let unchanged = (!changed).then_some(&sol);
                let [a, b] = match t.kinds.settle_moves {
                    1 => both::<1>(&t, &peers, &grid, unchanged),
                    2 => both::<2>(&t, &peers, &grid, unchanged),
                    3 => both::<3>(&t, &peers, &grid, unchanged),
                    other => panic!("{rules}: {other}"),
                };
                assert_eq!(a.is_some(), b.is_some(), "{rules}\n{grid}");
                if let (Some(a), Some(b)) = (a, b) {
                    assert_eq!(a.cand, b.cand, "{rules}\n{grid}");
                    assert_eq!(a.unsolved, b.unsolved, "{rules}\n{grid}");
                    alive += 1;
                } else {
                    dead += 1;
                }
            }
            assert!(
                dead > 20 && alive > 100,
                "{rules}: {dead} dead, {alive} alive"
            );
        }
    }

    /// `houses_with_two_to` names the rule table's rows, columns and boxes with two to
    /// three or four cells of the mask, on random masks from sparse to dense.
    #[test]
    fn houses_with_two_to_most_count_places() {
        let v = Variant::new(RuleSet::CLASSIC, None).unwrap();
        let mut rng = Rng::new(13);
        let mut named = 0;
        for round in 0..3000u64 {
            let mut m = 0u128;
            for c in 0..CELLS {
                if rng.below(32) <= round % 12 {
                    m |= 1 << c;
                }
            }
            for most in [3, 4] {
                let want = (0..27).fold(0u32, |w, i| {
                    w | u32::from((2..=most).contains(&(v.houses[i] & m).count_ones())) << i
                });
                assert_eq!(houses_with_two_to(split(m), most), want, "{m:x} {most}");
                named += want.count_ones();
            }
        }
        assert!(named > 1000, "{named}");
    }

    /// `window_pointing` removes exactly what the rule says, found the slow way from
    /// the rule table's houses: for every window and every row, column or box that
    /// meets it in two cells or more, when the digit's places in that house are all in
    /// the window (and there is one), the rest of the window; on random words from
    /// sparse to full.
    #[test]
    fn window_pointing_is_pointing_into_every_window() {
        let v = Variant::new("windoku".parse().unwrap(), None).unwrap();
        let windows: Vec<u128> = v
            .houses()
            .filter(|(_, k)| matches!(k, HouseKind::Window(_)))
            .map(|(h, _)| h)
            .collect();
        assert_eq!(windows.len(), 4);
        assert_eq!(split(windows.iter().fold(0, |m, &h| m | h)), WINDOW_CELLS);
        let mut rng = Rng::new(5);
        let mut found = 0;
        for round in 0..20_000u64 {
            // Each cell kept with chance (1 + round % 8) in 9.
            let mut m = 0u128;
            for c in 0..CELLS {
                if rng.below(9) <= round % 8 {
                    m |= 1 << c;
                }
            }
            let mut want = 0u128;
            for &h in &windows {
                for &u in &v.houses[..27] {
                    let shared = h & u;
                    if shared.count_ones() >= 2 && m & u != 0 && m & u & !shared == 0 {
                        want |= h & !shared;
                    }
                }
            }
            let got = window_pointing(split(m));
            let got = (0..3).fold(0u128, |g, b| g | u128::from(got[b]) << (27 * b));
            assert_eq!(got, want, "{m:x}");
            found += u32::from(want & m != 0);
        }
        assert!(found > 1000, "{found}");
    }

    /// Every windoku solution (random ones, with other rules too) holds each digit once
    /// in each implied house.
    #[test]
    fn windoku_solutions_fill_the_implied_houses() {
        let mut rng = Rng::new(3);
        for rules in ["windoku", "x,windoku", "windoku,anti-king"] {
            let v = Variant::new(rules.parse().unwrap(), None).unwrap();
            for _ in 0..10 {
                let sol = random_solution(&v, &mut rng).unwrap();
                for h in windoku_implied_houses() {
                    assert_eq!(h.count_ones(), 9);
                    let digits = (0..CELLS)
                        .filter(|&c| h >> c & 1 != 0)
                        .fold(0u32, |m, c| m | 1 << sol.get(c));
                    assert_eq!(digits, 0x3FE, "{rules} {h:x}\n{sol}");
                }
            }
        }
    }

    /// The locked candidates' tables hold, for every row, column and box and every
    /// pattern of places there, the common peers of the places (none outside two to
    /// the scan's most), and `places_pattern` reads a house's pattern from random words.
    #[test]
    fn locked_tables_hold_the_common_peers_of_each_pattern() {
        let mut rng = Rng::new(18);
        for rules in [
            "anti-king",
            "anti-knight",
            "x,anti-knight",
            "windoku,anti-king",
            "anti-king,anti-knight,non-consecutive",
        ] {
            let v = Variant::new(rules.parse().unwrap(), None).unwrap();
            let t = Tables::new(&v);
            let most = t.kinds.locked_most();
            let mut nonempty = 0;
            for house in 0..27 {
                let cells: Vec<usize> = crate::rules::table::cells(v.houses[house]).collect();
                for pattern in 0..512usize {
                    let places: Vec<usize> = (0..9)
                        .filter(|k| pattern >> k & 1 != 0)
                        .map(|k| cells[k])
                        .collect();
                    let want = if (2..=most as usize).contains(&places.len()) {
                        split(places.iter().fold(!0u128, |m, &c| m & v.peers[c]))
                    } else {
                        [0; 3]
                    };
                    assert_eq!(t.locked[house][pattern], want, "{rules}: {places:?}");
                    nonempty += usize::from(want != [0; 3]);
                }
                // The pattern of random words' places in the house.
                for _ in 0..200 {
                    let w: [u32; 3] = std::array::from_fn(|_| rng.next_u64() as u32 & BAND);
                    let all = u128::from(w[0]) | u128::from(w[1]) << 27 | u128::from(w[2]) << 54;
                    let want = (0..9)
                        .filter(|&k| all >> cells[k] & 1 != 0)
                        .fold(0, |m, k| m | 1 << k);
                    assert_eq!(places_pattern(house, w), want, "{rules}: house {house}");
                }
            }
            assert!(
                nonempty > 1000,
                "{rules}: {nonempty} patterns with a common peer"
            );
        }
    }

    /// `seen_by_all` is the common part of the places' peer sets, for two to four
    /// places anywhere on the board, under rules with extra peers and without.
    #[test]
    fn seen_by_all_is_the_common_peers() {
        let mut rng = Rng::new(5);
        for rules in ["classic", "windoku", "anti-king", "x,anti-knight"] {
            let v = Variant::new(rules.parse().unwrap(), None).unwrap();
            let peers: [[u32; 3]; CELLS] = std::array::from_fn(|c| split(v.peers[c]));
            let mut nonempty = 0;
            for n in [2, 3, 4] {
                for _ in 0..2000 {
                    let mut cells: Vec<usize> = (0..CELLS).collect();
                    rng.shuffle(&mut cells);
                    let mut p = [0u32; 3];
                    let mut want = [BAND; 3];
                    for &c in &cells[..n] {
                        p[c / 27] |= 1 << (c % 27);
                        for b in 0..3 {
                            want[b] &= peers[c][b];
                        }
                    }
                    assert_eq!(seen_by_all(&peers, p), want, "{rules}: {:?}", &cells[..n]);
                    nonempty += usize::from(want != [0; 3]);
                }
            }
            assert!(nonempty > 0, "{rules}: no pair or triple had a common peer");
        }
    }

    #[test]
    fn inferences_keep_a_solution_on_random_positions() {
        let mut rng = Rng::new(11);
        for rules in [
            "non-consecutive",
            "anti-king,anti-knight,non-consecutive",
            "anti-king,non-consecutive",
            "anti-knight",
            "anti-king",
            "x,anti-knight",
            "x,non-consecutive",
            "windoku",
            "x,windoku",
            "windoku,anti-king",
        ] {
            let rules: RuleSet = rules.parse().unwrap();
            let v = Variant::new(rules, None).unwrap();
            let engine = Engine::new(&v, Vectors::Scalar);
            // The king and knight moves as peers of the pass over placed cells, as
            // propagation takes them in the calls below (`MV` = 0).
            let full = Tables::build(&v, false);
            let (t, peers) = (&full, &*engine.all_peers);
            let mut removed = [0u32; 7];
            // A few grids (they take a search each), many positions around each.
            let grids: Vec<Grid> = (0..6)
                .map(|_| random_solution(&v, &mut rng).unwrap())
                .collect();
            for round in 0..150 {
                let sol = grids[round as usize % grids.len()];
                let givens = (round % 20) as usize;
                let drop = 1 + round % 7;
                let start = position(&sol, &mut rng, givens, drop);
                if t.kinds.nc {
                    let mut s = start;
                    for d in 0..9 {
                        s.near_places(d);
                    }
                    assert!(keeps(&s, &sol), "{rules} near places\n{sol}");
                    removed[0] += candidates(&start) - candidates(&s);
                    let mut s = start;
                    s.non_consecutive();
                    assert!(keeps(&s, &sol), "{rules} arc consistency\n{sol}");
                    removed[1] += candidates(&start) - candidates(&s);
                    let mut s = start;
                    s.between_digits(0xFE);
                    assert!(keeps(&s, &sol), "{rules} between places\n{sol}");
                    removed[3] += candidates(&start) - candidates(&s);
                    if t.kinds.crowded {
                        let mut s = start;
                        s.crowded();
                        assert!(keeps(&s, &sol), "{rules} crowded neighbours\n{sol}");
                        removed[6] += candidates(&start) - candidates(&s);
                    }
                }
                if t.kinds.windows {
                    let mut s = start;
                    for d in 0..9 {
                        let k = d * 3;
                        let gone = window_pointing([s.cand[k], s.cand[k + 1], s.cand[k + 2]]);
                        for b in 0..3 {
                            s.remove(k + b, gone[b]);
                        }
                    }
                    assert!(keeps(&s, &sol), "{rules} window pointing\n{sol}");
                    removed[4] += candidates(&start) - candidates(&s);
                }
                if t.kinds.houses {
                    // Settled first: the scan takes a single open place for placed.
                    let mut s = start;
                    if s.settle_all::<false, 0>(false).is_ok() {
                        let before = s;
                        let ok = s.extra_houses(t, peers);
                        assert!(ok.is_ok(), "{rules}: extra houses killed a solution\n{sol}");
                        assert!(keeps(&s, &sol), "{rules} extra houses\n{sol}");
                        removed[5] += candidates(&before) - candidates(&s);
                    }
                }
                if t.kinds.moves {
                    let mut s = start;
                    for d in 0..9 {
                        let most = t.kinds.locked_most();
                        s.locked_peers(d * 3, t, most);
                    }
                    assert!(keeps(&s, &sol), "{rules} locked peers\n{sol}");
                    removed[2] += candidates(&start) - candidates(&s);
                }
                let mut s = start;
                let (k, nc) = (t.kinds, t.kinds.nc);
                let ok = match (k.houses, k.peers, nc) {
                    (false, true, false) => s.propagate::<false, true, false, false, 0>(t, peers),
                    (false, _, true) => s.propagate::<false, true, true, false, 0>(t, peers),
                    (true, _, false) => s.propagate::<true, true, false, false, 0>(t, peers),
                    (true, _, true) => s.propagate::<true, true, true, false, 0>(t, peers),
                    _ => unreachable!("every rule set here adds peers"),
                };
                assert!(
                    ok.is_ok(),
                    "{rules}: a position with a solution died\n{sol}"
                );
                assert!(keeps(&s, &sol), "{rules} propagation\n{sol}");
                if s.is_solved() {
                    assert_eq!(s.grid(), sol, "{rules}");
                }
            }
            if rules.contains(Rule::NonConsecutive) {
                assert!(
                    removed[0] > 0 && removed[1] > 0 && removed[3] > 0,
                    "{rules}: {removed:?}"
                );
            }
            if rules.contains(Rule::AntiKnight) {
                assert!(removed[2] > 0, "{rules}: {removed:?}");
            }
            if rules.contains(Rule::NonConsecutive) && rules.contains(Rule::AntiKing) {
                assert!(removed[6] > 0, "{rules}: {removed:?}");
            }
            if rules.contains(Rule::Windoku) {
                assert!(removed[4] > 0 && removed[5] > 0, "{rules}: {removed:?}");
            }
        }
    }
}
