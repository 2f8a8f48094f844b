//! The candidate state of one position and its propagation.
//!
//! Candidates are kept per digit and band: `cand[digit * 3 + band]` is a 27-bit mask of
//! the band's cells where the digit may still go (see [`super::tables`]). This layout
//! lets one table lookup settle a digit's rows against its boxes inside a band, and lets
//! a placed digit clear its column in the other bands with one mask.
//!
//! A solved cell keeps exactly its own digit's bit; `unsolved_cells` says which cells are
//! still open and `unsolved_rows` which (digit, row) pairs still wait for their place.

use super::tables::{BAND, BAND_PEERS, COLUMN, CONSISTENT, SEGMENTS};
use crate::grid::{Grid, CELLS};

/// Slot index of a digit (0-based) in a band.
#[inline(always)]
fn slot(digit: usize, band: usize) -> usize {
    digit * 3 + band
}

/// Candidate state; small and `Copy` so that a guess is one memcpy.
#[derive(Clone, Copy, Debug)]
pub(crate) struct State {
    cand: [u32; 27],
    unsolved_cells: [u32; 3],
    /// Per band, bit `digit * 3 + row`: the digit is not yet placed in that row.
    unsolved_rows: [u32; 3],
    /// Slots whose candidates changed since they were last examined.
    dirty: u32,
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
    pub fn from_grid(grid: &Grid) -> Result<State, Dead> {
        let mut s = State {
            cand: [BAND; 27],
            unsolved_cells: [BAND; 3],
            unsolved_rows: [BAND; 3],
            dirty: (1 << 27) - 1,
        };
        for (i, &v) in grid.cells().iter().enumerate() {
            if v != 0 {
                s.place(v as usize - 1, i / 27, i % 27)?;
            }
        }
        s.dirty = (1 << 27) - 1;
        Ok(s)
    }

    /// True when every cell holds a digit.
    #[inline]
    pub fn is_solved(&self) -> bool {
        (self.unsolved_cells[0] | self.unsolved_cells[1] | self.unsolved_cells[2]) == 0
    }

    /// Read the digits of a solved (or partly solved) state; open cells read as 0.
    pub fn to_grid(&self) -> Grid {
        let mut cells = [0u8; CELLS];
        for band in 0..3 {
            let solved = !self.unsolved_cells[band] & BAND;
            for digit in 0..9 {
                let mut m = self.cand[slot(digit, band)] & solved;
                while m != 0 {
                    cells[band * 27 + m.trailing_zeros() as usize] = digit as u8 + 1;
                    m &= m - 1;
                }
            }
        }
        Grid::from_cells(cells).expect("digits are 1..=9")
    }

    /// Remove `mask` from a slot, remembering the slot if anything went.
    #[inline(always)]
    fn clear(&mut self, k: usize, mask: u32) {
        let old = self.cand[k];
        let new = old & !mask;
        self.cand[k] = new;
        self.dirty |= ((old != new) as u32) << k;
    }

    /// Put `digit` in `cell` of `band` and remove what it excludes.
    pub fn place(&mut self, digit: usize, band: usize, cell: usize) -> Result<(), Dead> {
        let bit = 1u32 << cell;
        let k = slot(digit, band);
        if self.cand[k] & bit == 0 {
            return Err(Dead);
        }
        for other in 0..9 {
            if other != digit {
                self.clear(slot(other, band), bit);
            }
        }
        self.clear(k, BAND_PEERS[cell]);
        let col = COLUMN[cell % 9];
        for other in 0..3 {
            if other != band {
                self.clear(slot(digit, other), col);
            }
        }
        self.unsolved_cells[band] &= !bit;
        self.unsolved_rows[band] &= !(1 << (digit * 3 + cell / 9));
        Ok(())
    }

    /// Remove one candidate (the other side of a guess) and mark its slot for review.
    pub fn forbid(&mut self, digit: usize, band: usize, cell: usize) {
        self.clear(slot(digit, band), 1 << cell);
    }

    /// Propagate until nothing more follows without guessing.
    pub fn propagate(&mut self) -> Result<(), Dead> {
        loop {
            while self.dirty != 0 {
                let k = self.dirty.trailing_zeros() as usize;
                self.dirty &= self.dirty - 1;
                self.settle_slot(k)?;
            }
            if !self.naked_singles()? && !self.column_singles()? {
                return Ok(());
            }
        }
    }

    /// Settle one digit in one band: keep only the segments a consistent row/box matching
    /// can use, and place the digit in every open row left with one cell.
    #[inline]
    fn settle_slot(&mut self, k: usize) -> Result<(), Dead> {
        let (digit, band) = (k / 3, k % 3);
        let mut a = self.cand[k];
        loop {
            let map = SEGMENTS[(a & 0x1FF) as usize] as usize
                | (SEGMENTS[((a >> 9) & 0x1FF) as usize] as usize) << 3
                | (SEGMENTS[(a >> 18) as usize] as usize) << 6;
            a &= CONSISTENT[map];
            if a == 0 {
                return Err(Dead);
            }
            let open_rows = (self.unsolved_rows[band] >> (digit * 3)) & 7;
            let mut singles = 0;
            let mut rows = open_rows;
            while rows != 0 {
                let r = rows.trailing_zeros();
                rows &= rows - 1;
                let x = (a >> (9 * r)) & 0x1FF;
                if x & (x - 1) == 0 {
                    singles |= x << (9 * r);
                }
            }
            if singles == 0 {
                break;
            }
            let mut peers = 0;
            let mut cols = 0;
            let mut placed_rows = 0;
            let mut m = singles;
            while m != 0 {
                let cell = m.trailing_zeros() as usize;
                m &= m - 1;
                peers |= BAND_PEERS[cell];
                cols |= COLUMN[cell % 9];
                placed_rows |= 1 << (digit * 3 + cell / 9);
            }
            if singles & peers != 0 {
                return Err(Dead);
            }
            a &= !peers;
            self.unsolved_cells[band] &= !singles;
            self.unsolved_rows[band] &= !placed_rows;
            for other in 0..9 {
                if other != digit {
                    self.clear(slot(other, band), singles);
                }
            }
            for other in 0..3 {
                if other != band {
                    self.clear(slot(digit, other), cols);
                }
            }
        }
        self.cand[k] = a;
        Ok(())
    }

    /// Count candidates per cell of a band in bit-slices: (at least 1, at least 2, at least 3).
    #[inline(always)]
    fn counts(&self, band: usize) -> (u32, u32, u32) {
        let (mut one, mut two, mut three) = (0, 0, 0);
        for digit in 0..9 {
            let c = self.cand[slot(digit, band)];
            three |= two & c;
            two |= one & c;
            one |= c;
        }
        (one, two, three)
    }

    /// Place every open cell that has one candidate left. `Ok(true)` if any was placed.
    fn naked_singles(&mut self) -> Result<bool, Dead> {
        let mut found = false;
        for band in 0..3 {
            let open = self.unsolved_cells[band];
            if open == 0 {
                continue;
            }
            let (mut one, mut two) = (0, 0);
            for digit in 0..9 {
                let c = self.cand[slot(digit, band)];
                two |= one & c;
                one |= c;
            }
            if open & !one != 0 {
                return Err(Dead);
            }
            let mut singles = open & !two;
            while singles != 0 {
                let cell = singles.trailing_zeros() as usize;
                singles &= singles - 1;
                let bit = 1 << cell;
                let digit = (0..9)
                    .find(|&d| self.cand[slot(d, band)] & bit != 0)
                    .ok_or(Dead)?;
                self.place(digit, band, cell)?;
                found = true;
            }
        }
        Ok(found)
    }

    /// Place every digit that has one cell left in some column. `Ok(true)` if any was.
    fn column_singles(&mut self) -> Result<bool, Dead> {
        let mut found = false;
        for digit in 0..9 {
            let (mut one, mut two) = (0u32, 0u32);
            for band in 0..3 {
                let a = self.cand[slot(digit, band)];
                for row in 0..3 {
                    let x = (a >> (9 * row)) & 0x1FF;
                    two |= one & x;
                    one |= x;
                }
            }
            if one != 0x1FF {
                return Err(Dead);
            }
            let mut cols = !two & 0x1FF;
            while cols != 0 {
                let col = cols.trailing_zeros() as usize;
                cols &= cols - 1;
                for band in 0..3 {
                    let here = self.cand[slot(digit, band)] & COLUMN[col];
                    if here != 0 {
                        let cell = here.trailing_zeros() as usize;
                        if self.unsolved_cells[band] & here != 0 {
                            self.place(digit, band, cell)?;
                            found = true;
                        }
                        break;
                    }
                }
            }
        }
        Ok(found)
    }

    /// The most constrained open cell: a cell with two candidates if there is one, else
    /// the first cell with the fewest. The state must be propagated and not solved.
    pub fn choose_branch(&self) -> Branch {
        for band in 0..3 {
            let open = self.unsolved_cells[band];
            if open == 0 {
                continue;
            }
            let (_, two, three) = self.counts(band);
            let pairs = open & two & !three;
            if pairs != 0 {
                let cell = pairs.trailing_zeros() as usize;
                return Branch {
                    band,
                    cell,
                    digits: self.digits_at(band, cell),
                };
            }
        }
        let mut best: Option<Branch> = None;
        for band in 0..3 {
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

    #[inline]
    fn digits_at(&self, band: usize, cell: usize) -> u32 {
        let mut digits = 0;
        for digit in 0..9 {
            digits |= ((self.cand[slot(digit, band)] >> cell) & 1) << digit;
        }
        digits
    }
}
