//! What a Nishio run reaches, without its chains: the candidate states a run of
//! `dynamic` without cell links (Nishio forcing chains) reaches, found with
//! bitboards and no parent lists, to tell which runs the producer needs in full.
//!
//! A dynamic run follows implications one state at a time and keeps, for each state,
//! the parents it was first reached from; that bookkeeping is most of its cost. A
//! Nishio run concludes something only when it meets a contradiction, which few do
//! (on ER 8.6-9.0 puzzles the producer finds one on about one position in fifty). The
//! *set* a run reaches does not depend on the order it follows things in: its rules
//! only add states, and each rule's premise only grows as states are added, except
//! that a house whose last places all go stops implying its last place, which can
//! only happen on the way to a contradiction. So:
//!
//! - a run that meets no contradiction reaches exactly the least fixed point of its
//!   rules, which [`Reach::follow`] computes a round at a time over 81-bit cell sets;
//! - a run meets a contradiction exactly when that fixed point holds a candidate both
//!   on and off, or empties a house of a digit it held at least twice: the second
//!   last place of such a house to go implies the last one, which also goes.
//!
//! The rules, as the runs apply them on their working grid (the position less every
//! "off" state followed so far): an "on" candidate turns its digit off in the cell's
//! peers; an "off" candidate turns on the only place left for its digit in a house of
//! its cell that held the digit at least twice. (With the cell links of the other
//! dynamic chains the same holds, but there most runs are needed in full anyway, and
//! the fixed point cost more than it saved.)

use super::board::{bits, cells, Board, Cells, HOUSE_MASK, PEERS};
use super::chains::{cell_of, digit_of, is_on, State};

/// The three houses of each cell as a 27-bit set (box, row, column bits).
const CELL_HOUSES: [u32; 81] = {
    let mut t = [0u32; 81];
    let mut c = 0;
    while c < 81 {
        let (r, k) = (c / 9, c % 9);
        t[c] = 1 << ((r / 3) * 3 + k / 3) | 1 << (9 + r) | 1 << (18 + k);
        c += 1;
    }
    t
};

/// The houses of a position that hold each digit at least twice (only those imply
/// their last place).
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Houses {
    multi: [u32; 9],
}

impl Houses {
    pub(super) fn new(b: &Board) -> Houses {
        let mut multi = [0u32; 9];
        for (d, m) in multi.iter_mut().enumerate() {
            for h in 0..27 {
                if (b.digit[d] & HOUSE_MASK[h]).count_ones() >= 2 {
                    *m |= 1 << h;
                }
            }
        }
        Houses { multi }
    }
}

/// The states one Nishio run reaches: all of one digit, since without cell links
/// a run never leaves the digit it starts from.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Reach {
    /// The digit (index).
    digit: usize,
    /// Cells where the digit is reached "on".
    on: Cells,
    /// Cells where the digit is reached "off".
    off: Cells,
    /// Whether the run meets a contradiction (then `on` and `off` are only what was
    /// found before it was seen).
    pub(super) contradiction: bool,
}

impl Reach {
    /// Whether state `s` is reached.
    #[cfg(test)]
    pub(super) fn has(&self, s: State) -> bool {
        let set = if is_on(s) { self.on } else { self.off };
        digit_of(s) == self.digit && set >> cell_of(s) & 1 != 0
    }

    /// The states a Nishio run from `source` on `b` reaches (`houses`: `b`'s).
    pub(super) fn follow(&mut self, b: &Board, houses: &Houses, source: State) {
        let d = digit_of(source);
        let multi = houses.multi[d];
        let source_cell = 1u128 << cell_of(source);
        // the digit's places on the working grid
        let mut places = b.digit[d];
        self.digit = d;
        self.on = 0;
        self.off = 0;
        self.contradiction = false;
        let (mut new_on, mut new_off) = if is_on(source) {
            (source_cell, 0)
        } else {
            (0, source_cell)
        };
        while new_on | new_off != 0 {
            self.on |= new_on;
            self.off |= new_off;
            if self.on & self.off != 0 {
                self.contradiction = true;
                return;
            }
            // the working grid loses what went off
            places &= !new_off;
            let mut add_off = 0u128;
            for c in cells(new_on) {
                add_off |= PEERS[c];
            }
            let mut touched = 0u32;
            for c in cells(new_off) {
                touched |= CELL_HOUSES[c];
            }
            let mut add_on = 0u128;
            for h in bits(touched & multi) {
                let left = places & HOUSE_MASK[h];
                if left & left.wrapping_sub(1) == 0 {
                    if left == 0 {
                        self.contradiction = true;
                        return;
                    }
                    add_on |= left;
                }
            }
            new_on = add_on & !self.on;
            new_off = add_off & places & !self.off;
        }
    }
}
