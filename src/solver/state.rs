//! The candidate state of one position and its propagation.
//!
//! Candidates are kept per digit and band: `cand[digit * 3 + band]` is a 27-bit mask of
//! the band's cells where the digit may still go (see [`super::tables`]). In this layout
//! a digit's whole situation in a band is one word, so the reasoning about it is a few
//! table lookups instead of loops over houses:
//!
//! - its rows and boxes must be matched one to one: [`CONSISTENT`] removes segments no
//!   matching can use (pointing and claiming in one step), [`FORCED`] names the segments
//!   every matching uses;
//! - a box whose stack offers a single column claims that column from the other bands
//!   ([`OTHER_BANDS_KEEP`]), which also carries every placed digit down its column;
//! - a forced segment with a single column is a placed digit: the other digits leave
//!   that cell.
//!
//! Besides these, cells with one candidate left (naked singles) are placed, and cells
//! with two are remembered for branching. A slot is re-examined only when its word
//! differs from the one last examined (`seen`), which makes the fixpoint cheap.
//!
//! The layout follows the idea of the JCZSolve family of solvers (candidates per digit
//! and band, row/box tables); the code and tables here are our own.

use super::tables::{
    BAND, BAND_PEERS, COLUMN, CONSISTENT, FORCED, ONE_COLUMN_SEGMENTS, OTHER_BANDS_KEEP,
    OWN_COLUMNS_KEEP, SEGMENTS, SEGMENT_CELLS,
};
use crate::grid::{Grid, CELLS};

/// Slot index of a digit (0-based) in a band.
#[inline(always)]
fn slot(digit: usize, band: usize) -> usize {
    digit * 3 + band
}

/// The same digit's slots in the other two bands.
#[inline(always)]
fn other_bands(k: usize) -> (usize, usize) {
    match k % 3 {
        0 => (k + 1, k + 2),
        1 => (k - 1, k + 1),
        _ => (k - 2, k - 1),
    }
}

/// The columns a band word has candidates in (9 bits).
#[inline(always)]
fn fold_columns(word: u32) -> u32 {
    (word | word >> 9 | word >> 18) & 0x1FF
}

/// A 9-bit column set spread over the three rows of a band.
#[inline(always)]
fn spread_columns(cols: u32) -> u32 {
    cols | cols << 9 | cols << 18
}

/// For each digit (index `digit - 1`), the cells (bit `cell`, 0..81) that hold it.
///
/// On x86-64 sixteen cells are compared at a time (SSE2 is part of the baseline); this
/// is the bulk of setting up a position, which every puzzle pays once.
#[inline(always)]
fn cells_by_digit(cells: &[u8; CELLS]) -> [u128; 9] {
    let mut by_digit = [0u128; 9];
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{
            _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_set1_epi8,
        };
        // SAFETY: SSE2 is always present on x86-64, and every load reads 16 bytes
        // inside the 81 (the last at 64..80; cell 80 is read on its own).
        let chunks =
            [0, 16, 32, 48, 64].map(|at| unsafe { _mm_loadu_si128(cells.as_ptr().add(at).cast()) });
        for (digit, out) in by_digit.iter_mut().enumerate() {
            let value = digit as u8 + 1;
            let splat = unsafe { _mm_set1_epi8(value as i8) };
            let mut m = u128::from(cells[80] == value) << 80;
            for (i, &chunk) in chunks.iter().enumerate() {
                let hits = unsafe { _mm_movemask_epi8(_mm_cmpeq_epi8(chunk, splat)) };
                m |= u128::from(hits as u16) << (16 * i);
            }
            *out = m;
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    for (cell, &v) in cells.iter().enumerate() {
        if v != 0 {
            by_digit[v as usize - 1] |= 1 << cell;
        }
    }
    by_digit
}

/// Candidate state; `Copy`, so that a branch is one memcpy.
#[derive(Clone, Copy, Debug)]
pub(crate) struct State {
    cand: [u32; 27],
    /// Each slot's word as last examined; a slot is examined again when it differs.
    seen: [u32; 27],
    unsolved_cells: [u32; 3],
    /// Digits (bit `digit`) settled since the last column claiming: only they can claim
    /// anything new.
    claim_digits: u32,
    /// Open cells with exactly two candidates, as of the last naked-single pass.
    pairs: [u32; 3],
}

/// A found contradiction: this position has no solution.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Dead;

/// A cell chosen for branching: its band, its cell within the band, its digits (bit d).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Branch {
    pub band: usize,
    pub cell: usize,
    pub digits: u32,
}

impl State {
    /// The state of a grid's givens, not yet propagated. `Err` when givens conflict.
    #[inline(always)]
    pub fn from_grid(grid: &Grid) -> Result<State, Dead> {
        let by_digit = cells_by_digit(grid.cells());
        // Givens per slot, and filled cells per band.
        let mut given = [0u32; 27];
        let mut filled = [0u32; 3];
        for (digit, &cells) in by_digit.iter().enumerate() {
            for band in 0..3 {
                let g = (cells >> (27 * band)) as u32 & BAND;
                given[slot(digit, band)] = g;
                filled[band] |= g;
            }
        }
        let mut s = State {
            cand: [0; 27],
            // Never equal to a 27-bit word: every slot gets examined once.
            seen: [u32::MAX; 27],
            unsolved_cells: [BAND & !filled[0], BAND & !filled[1], BAND & !filled[2]],
            claim_digits: 0x1FF,
            pairs: [0; 3],
        };
        for digit in 0..9 {
            let k = slot(digit, 0);
            let columns = [
                fold_columns(given[k]),
                fold_columns(given[k + 1]),
                fold_columns(given[k + 2]),
            ];
            for band in 0..3 {
                let g = given[k + band];
                let mut peers = 0;
                let mut m = g;
                while m != 0 {
                    peers |= BAND_PEERS[m.trailing_zeros() as usize];
                    m &= m - 1;
                }
                let column_givens =
                    spread_columns(columns[(band + 1) % 3] | columns[(band + 2) % 3]);
                if (peers | column_givens) & g != 0 {
                    return Err(Dead);
                }
                s.cand[k + band] = (BAND & !filled[band] & !peers & !column_givens) | g;
            }
        }
        Ok(s)
    }

    /// True when every cell holds a digit.
    #[inline(always)]
    pub fn is_solved(&self) -> bool {
        (self.unsolved_cells[0] | self.unsolved_cells[1] | self.unsolved_cells[2]) == 0
    }

    /// Number of cells without a digit yet.
    #[inline(always)]
    pub fn open_cells(&self) -> u32 {
        self.unsolved_cells.iter().map(|m| m.count_ones()).sum()
    }

    /// Every open cell (0..81) with its candidate digits (bit `d` for digit `d + 1`).
    pub fn open_cell_digits(&self) -> impl Iterator<Item = (usize, u32)> + '_ {
        (0..3).flat_map(move |band| {
            let open = self.unsolved_cells[band];
            let mut m = open;
            std::iter::from_fn(move || {
                (m != 0).then(|| {
                    let cell = m.trailing_zeros() as usize;
                    m &= m - 1;
                    (band * 27 + cell, self.digits_at(band, cell))
                })
            })
        })
    }

    /// The band with the most open cells (the last of equals).
    pub fn most_open_band(&self) -> usize {
        let open = self.unsolved_cells.map(u32::count_ones);
        (0..3).max_by_key(|&b| open[b]).expect("three bands")
    }

    /// True when no cell outside `band` is open.
    #[inline(always)]
    pub fn open_only_in(&self, band: usize) -> bool {
        (0..3).all(|b| b == band || self.unsolved_cells[b] == 0)
    }

    /// The digits placed in `band` (row-major, 0 for an open cell), and the digits
    /// each column lacks in the whole grid (bit `d` for digit `d + 1`).
    #[inline(always)]
    pub fn band_and_columns(&self, band: usize) -> ([u8; 27], [u16; 9]) {
        let mut cells = [0u8; 27];
        let mut col_missing = [0x1FFu16; 9];
        let placed = |b: usize, digit: usize| self.cand[slot(digit, b)] & !self.unsolved_cells[b];
        for digit in 0..9 {
            let mut m = placed(band, digit);
            while m != 0 {
                cells[m.trailing_zeros() as usize] = digit as u8 + 1;
                m &= m - 1;
            }
            let cols = fold_columns(placed(0, digit) | placed(1, digit) | placed(2, digit));
            for (c, missing) in col_missing.iter_mut().enumerate() {
                *missing &= !(((cols >> c) as u16 & 1) << digit);
            }
        }
        (cells, col_missing)
    }

    /// Read the digits of a solved state (every cell has exactly one candidate left).
    pub fn solution_grid(&self) -> Grid {
        // A solved slot holds exactly three cells, one per row of its band: three
        // steps each, with no loop to mispredict. Writes land in a buffer with room for
        // any bit index, so that no step needs a bounds check.
        let mut cells = [0u8; CELLS + 32];
        for (k, &word) in self.cand.iter().enumerate() {
            let (value, base) = (k as u8 / 3 + 1, (k % 3) * 27);
            debug_assert_eq!(word.count_ones(), 3, "a solved slot");
            let mut m = word;
            for _ in 0..3 {
                cells[base + m.trailing_zeros() as usize] = value;
                m &= m.wrapping_sub(1);
            }
        }
        let cells: [u8; CELLS] = cells[..CELLS].try_into().expect("81 cells");
        Grid::from_cells(cells).expect("digits are 1..=9")
    }

    /// Put `digit` in `cell` of `band`: it leaves the cell's row and box. The rest
    /// follows when the slot is examined, which it is made to be: the cell, now alone
    /// in its row and box, is found placed there (the other digits leave it, it stops
    /// being open), and the column follows in the other bands. The caller knows the
    /// candidate is present.
    #[inline(always)]
    pub fn assign(&mut self, digit: usize, band: usize, cell: usize) {
        let k = slot(digit, band);
        self.cand[k] = (self.cand[k] & !BAND_PEERS[cell]) | 1 << cell;
        self.seen[k] = u32::MAX;
    }

    /// Remove one candidate (the other side of a branch).
    #[inline(always)]
    pub fn forbid(&mut self, digit: usize, band: usize, cell: usize) {
        self.cand[slot(digit, band)] &= !(1 << cell);
    }

    /// Propagate until nothing more follows without guessing. Column claiming (the
    /// dearest rule, see [`State::claim_columns`]) runs only when `claim` is set.
    ///
    /// Always inlined, like everything on the search path: the search is compiled once
    /// per instruction set as a whole (see `with_fast_bits` in the parent module).
    #[inline(always)]
    pub fn propagate(&mut self, claim: bool) -> Result<(), Dead> {
        loop {
            self.settle_all()?;
            if self.is_solved() {
                // At the fixpoint of the slot rules every digit holds one cell in each
                // row, box and column of its bands: nothing is left to check.
                return Ok(());
            }
            if !self.naked_singles()? && (!claim || !self.claim_columns()?) {
                return Ok(());
            }
        }
    }

    /// Examine every changed slot until none changes.
    #[inline(always)]
    fn settle_all(&mut self) -> Result<(), Dead> {
        // Unrolled with constant slot numbers, so that every index and neighbour below
        // is known at compile time.
        macro_rules! each_slot {
            ($changed:ident: $($k:literal)*) => {
                $(
                    if self.cand[$k] != self.seen[$k] {
                        $changed = true;
                        self.settle_slot::<$k>()?;
                    }
                )*
            };
        }
        loop {
            let mut changed = false;
            each_slot!(changed: 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26);
            if !changed {
                return Ok(());
            }
        }
    }

    /// Settle one digit in one band (see the module docs for the three rules).
    #[inline(always)]
    fn settle_slot<const K: usize>(&mut self) -> Result<(), Dead> {
        let k = K;
        self.claim_digits |= 1 << (K / 3);
        let a = self.cand[k];
        let map = SEGMENTS[(a & 0x1FF) as usize] as usize
            | (SEGMENTS[((a >> 9) & 0x1FF) as usize] as usize) << 3
            | (SEGMENTS[(a >> 18) as usize] as usize) << 6;
        let a = a & CONSISTENT[map];
        if a == 0 {
            return Err(Dead);
        }
        self.cand[k] = a;
        self.seen[k] = a;
        let cols = fold_columns(a);
        let keep = OTHER_BANDS_KEEP[cols as usize];
        let (b1, b2) = other_bands(k);
        self.cand[b1] &= keep;
        self.cand[b2] &= keep;
        let placed = SEGMENT_CELLS[(FORCED[map] & ONE_COLUMN_SEGMENTS[cols as usize]) as usize] & a;
        // Placed cells leave the other digits. Done whether or not anything is newly
        // placed: eight masked stores cost less than a branch that is hard to predict.
        let band = k % 3;
        self.unsolved_cells[band] &= !placed;
        let mut other = band;
        while other < 27 {
            if other != k {
                self.cand[other] &= !placed;
            }
            other += 3;
        }
        Ok(())
    }

    /// Place every open cell that has one candidate left; remember cells with two.
    /// `Ok(true)` if any was placed.
    #[inline(always)]
    fn naked_singles(&mut self) -> Result<bool, Dead> {
        let mut found = false;
        for band in 0..3 {
            let (mut one, mut two, mut three) = (0, 0, 0);
            for digit in 0..9 {
                let c = self.cand[slot(digit, band)];
                three |= two & c;
                two |= one & c;
                one |= c;
            }
            if one != BAND {
                return Err(Dead);
            }
            let open = self.unsolved_cells[band];
            self.pairs[band] = two & !three & open;
            let singles = open & !two;
            if singles != 0 {
                found = true;
                self.unsolved_cells[band] &= !singles;
                for digit in 0..9 {
                    let k = slot(digit, band);
                    let mut hit = self.cand[k] & singles;
                    if hit != 0 {
                        let mut peers = 0;
                        while hit != 0 {
                            peers |= BAND_PEERS[hit.trailing_zeros() as usize];
                            hit &= hit - 1;
                        }
                        self.cand[k] &= !peers;
                    }
                }
            }
        }
        Ok(found)
    }

    /// For each digit, a column that only one band can still supply claims the digit's
    /// box in that band (its other columns go). `Ok(true)` if anything went.
    #[inline(always)]
    fn claim_columns(&mut self) -> Result<bool, Dead> {
        // Every change reaches `settle_slot` before this runs, so the digits settled
        // since the last call are the only ones with anything new to claim.
        let mut changed = false;
        let mut digits = std::mem::take(&mut self.claim_digits);
        while digits != 0 {
            let digit = digits.trailing_zeros() as usize;
            digits &= digits - 1;
            let k = slot(digit, 0);
            let (a0, a1, a2) = (self.cand[k], self.cand[k + 1], self.cand[k + 2]);
            let (p0, p1, p2) = (fold_columns(a0), fold_columns(a1), fold_columns(a2));
            if p0 | p1 | p2 != 0x1FF {
                return Err(Dead);
            }
            let n0 = a0 & OWN_COLUMNS_KEEP[(p0 & !(p1 | p2)) as usize];
            let n1 = a1 & OWN_COLUMNS_KEEP[(p1 & !(p0 | p2)) as usize];
            let n2 = a2 & OWN_COLUMNS_KEEP[(p2 & !(p0 | p1)) as usize];
            changed |= (n0 != a0) | (n1 != a1) | (n2 != a2);
            self.cand[k] = n0;
            self.cand[k + 1] = n1;
            self.cand[k + 2] = n2;
        }
        Ok(changed)
    }

    /// The cell to branch on. Unless `scored` is false (then the first cell with two
    /// candidates is taken): among the cells with two candidates, the one whose
    /// branches remove the most candidates from its peers (its two digits in its row,
    /// box and column), so that both branches propagate far; this halves the search
    /// tree on hard puzzles compared with taking the first such cell. Without such
    /// cells, the first cell with the fewest candidates. The state must be propagated
    /// and have an open cell outside band `skip` (3 for none); cells of band `skip` are
    /// passed over.
    #[inline(always)]
    pub fn choose_branch(&self, scored: bool, skip: usize) -> Branch {
        if !scored {
            for band in 0..3 {
                if band == skip {
                    continue;
                }
                let pairs = self.pairs[band];
                if pairs != 0 {
                    let cell = pairs.trailing_zeros() as usize;
                    let digits = self.digits_at(band, cell);
                    return Branch { band, cell, digits };
                }
            }
        }
        // Score at most this many pair cells: the first few score nearly as well as all.
        const SCORED: u32 = 8;
        let mut budget = SCORED;
        // The best so far, kept with selects rather than branches: which cell scores
        // best is close to a coin toss, and a mispredicted branch costs more.
        let (mut best_score, mut best) = (
            -1i32,
            Branch {
                band: 0,
                cell: 0,
                digits: 0,
            },
        );
        for band in 0..3 {
            if band == skip {
                continue;
            }
            let (o1, o2) = ((band + 1) % 3, (band + 2) % 3);
            let mut pairs = self.pairs[band];
            while pairs != 0 && budget != 0 {
                let cell = pairs.trailing_zeros() as usize;
                pairs &= pairs - 1;
                budget -= 1;
                let digits = self.digits_at(band, cell);
                let (d1, d2) = (
                    digits.trailing_zeros() as usize,
                    31 - digits.leading_zeros() as usize,
                );
                let column = COLUMN[cell % 9];
                let score = ((self.cand[slot(d1, band)] | self.cand[slot(d2, band)])
                    & BAND_PEERS[cell])
                    .count_ones()
                    + ((self.cand[slot(d1, o1)] | self.cand[slot(d2, o1)]) & column).count_ones()
                    + ((self.cand[slot(d1, o2)] | self.cand[slot(d2, o2)]) & column).count_ones();
                let better = score as i32 > best_score;
                best_score = if better { score as i32 } else { best_score };
                best = if better {
                    Branch { band, cell, digits }
                } else {
                    best
                };
            }
        }
        if best_score >= 0 {
            return best;
        }
        let mut best: Option<Branch> = None;
        for band in 0..3 {
            if band == skip {
                continue;
            }
            let mut open = self.unsolved_cells[band];
            while open != 0 {
                let cell = open.trailing_zeros() as usize;
                open &= open - 1;
                let digits = self.digits_at(band, cell);
                if best.is_none_or(|b| digits.count_ones() < b.digits.count_ones()) {
                    best = Some(Branch { band, cell, digits });
                }
            }
        }
        best.expect("an unsolved state has an open cell")
    }

    #[inline(always)]
    fn digits_at(&self, band: usize, cell: usize) -> u32 {
        let mut digits = 0;
        for digit in 0..9 {
            digits |= ((self.cand[slot(digit, band)] >> cell) & 1) << digit;
        }
        digits
    }
}
