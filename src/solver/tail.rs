//! Counting the last few open cells of a position without propagation.
//!
//! Enumeration from a grid with many solutions spends nearly all its time at the bottom
//! of the search tree, where a handful of open cells (an unavoidable rectangle, a few
//! such sets side by side) still allow several fillings. There a full propagation per
//! solution costs far more than the solution is worth. Once a propagated position has
//! at most [`TAIL_CELLS`] open cells, a count-only search with a limit too small for
//! the band counting of `band.rs` hands it to [`count`]: a plain depth-first search
//! over those cells with row, column and box masks, most constrained cell first, which
//! finds each filling in a few dozen instructions.

/// Positions with at most this many open cells are counted here.
pub(crate) const TAIL_CELLS: u32 = 40;

/// Number of digits in a 9-bit set: a lookup is cheaper than `count_ones` on CPUs
/// without a population-count instruction (the default x86-64 target).
static DIGIT_COUNT: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut i = 0;
    while i < 512 {
        t[i] = (i as u32).count_ones() as u8;
        i += 1;
    }
    t
};

/// One open cell: its candidates and its houses.
#[derive(Clone, Copy, Default)]
struct Cell {
    digits: u16,
    row: u8,
    col: u8,
    boxed: u8,
}

/// Count the fillings of the open cells (at most `limit`), given each cell (0..81) and
/// its candidate digits (bit `d` for digit `d + 1`) in the propagated position. Every
/// branch point with two or more digits left adds one to `guesses`.
pub(crate) fn count(
    open: impl IntoIterator<Item = (usize, u32)>,
    limit: u64,
    guesses: &mut u64,
) -> u64 {
    let mut cells = [Cell::default(); TAIL_CELLS as usize];
    let mut n = 0;
    for (cell, digits) in open {
        let (row, col) = (cell / 9, cell % 9);
        cells[n] = Cell {
            digits: digits as u16,
            row: row as u8,
            col: col as u8,
            boxed: (row / 3 * 3 + col / 3) as u8,
        };
        n += 1;
    }
    let cells = &mut cells[..n];
    let mut walk = Walk {
        rows: [0; 9],
        cols: [0; 9],
        boxes: [0; 9],
        found: 0,
        limit,
        guesses: 0,
    };
    walk.fill(cells);
    *guesses += walk.guesses;
    walk.found
}

/// Digits used so far in each house by the fillings under way.
struct Walk {
    rows: [u16; 9],
    cols: [u16; 9],
    boxes: [u16; 9],
    found: u64,
    limit: u64,
    guesses: u64,
}

impl Walk {
    /// Fill `cells` (the open cells, in any order; reordered in place) one by one, the
    /// most constrained first at every level.
    fn fill(&mut self, cells: &mut [Cell]) {
        if cells.is_empty() {
            self.found += 1;
            return;
        }
        // The cell with the fewest digits still free.
        let mut best = 0;
        let mut best_free = 0u16;
        let mut best_n = u32::MAX;
        for (i, c) in cells.iter().enumerate() {
            let free = c.digits
                & !(self.rows[c.row as usize]
                    | self.cols[c.col as usize]
                    | self.boxes[c.boxed as usize]);
            let n = DIGIT_COUNT[free as usize] as u32;
            if n < best_n {
                (best, best_free, best_n) = (i, free, n);
                if n <= 1 {
                    break;
                }
            }
        }
        if best_n == 0 {
            return;
        }
        if best_n > 1 {
            self.guesses += 1;
        }
        cells.swap(0, best);
        let (c, rest) = cells.split_first_mut().expect("not empty");
        let (r, k, b) = (c.row as usize, c.col as usize, c.boxed as usize);
        let mut free = best_free;
        while free != 0 && self.found < self.limit {
            let bit = free & free.wrapping_neg();
            free &= free - 1;
            self.rows[r] |= bit;
            self.cols[k] |= bit;
            self.boxes[b] |= bit;
            self.fill(rest);
            self.rows[r] &= !bit;
            self.cols[k] &= !bit;
            self.boxes[b] &= !bit;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rectangle_has_two_fillings_and_the_limit_holds() {
        // r1c1, r1c4, r2c1, r2c4 each {1, 2}, over two boxes: two fillings.
        let open = [(0, 0b11), (3, 0b11), (9, 0b11), (12, 0b11)];
        let mut guesses = 0;
        assert_eq!(count(open, 10, &mut guesses), 2);
        assert!(guesses >= 1);
        assert_eq!(count(open, 1, &mut guesses), 1);
    }

    #[test]
    fn four_cells_of_one_box_cannot_share_two_digits() {
        let open = [(0, 0b11), (1, 0b11), (9, 0b11), (10, 0b11)];
        assert_eq!(count(open, 10, &mut 0), 0);
    }

    #[test]
    fn conflicting_singles_have_no_filling() {
        // Two cells of one row that can only hold 5.
        let open = [(0, 1 << 4), (8, 1 << 4)];
        assert_eq!(count(open, 10, &mut 0), 0);
        // No open cell: the position itself is the one filling.
        assert_eq!(count([], 10, &mut 0), 1);
    }
}
