//! The candidate grid ("pencilmarks") the techniques read, and the cell/house tables.
//!
//! Candidates are kept twice: a 9-bit mask per cell (bit `d - 1` for digit `d`) for the
//! cell-centred techniques, and an 81-bit cell set per digit (`u128`) for the
//! digit-centred ones (fish, chains). [`Board::eliminate`] and [`Board::place`] keep
//! both in step.

/// A set of cells: bit `c` for cell `c` (0..81, row-major).
pub type Cells = u128;

/// The 27 houses: 0..9 boxes, 9..18 rows, 18..27 columns; cells in reading order.
pub const HOUSES: [[u8; 9]; 27] = houses();

/// Each house as a cell set.
pub const HOUSE_MASK: [Cells; 27] = house_masks();

/// Each cell's box, row and column (house numbers, as in [`HOUSES`]).
pub const CELL_HOUSES: [[u8; 3]; 81] = cell_houses();

/// The 20 peers of each cell as a cell set.
pub const PEERS: [Cells; 81] = peers();

/// All 81 cells.
pub const ALL: Cells = (1u128 << 81) - 1;

const fn houses() -> [[u8; 9]; 27] {
    let mut h = [[0u8; 9]; 27];
    let mut i = 0;
    while i < 9 {
        let mut j = 0;
        while j < 9 {
            let (br, bc) = ((i / 3) * 3, (i % 3) * 3);
            h[i][j] = ((br + j / 3) * 9 + bc + j % 3) as u8;
            h[9 + i][j] = (i * 9 + j) as u8;
            h[18 + i][j] = (j * 9 + i) as u8;
            j += 1;
        }
        i += 1;
    }
    h
}

const fn house_masks() -> [Cells; 27] {
    let h = houses();
    let mut m = [0u128; 27];
    let mut i = 0;
    while i < 27 {
        let mut j = 0;
        while j < 9 {
            m[i] |= 1u128 << h[i][j];
            j += 1;
        }
        i += 1;
    }
    m
}

const fn cell_houses() -> [[u8; 3]; 81] {
    let mut r = [[0u8; 3]; 81];
    let mut c = 0;
    while c < 81 {
        let (row, col) = (c / 9, c % 9);
        r[c] = [
            ((row / 3) * 3 + col / 3) as u8,
            (9 + row) as u8,
            (18 + col) as u8,
        ];
        c += 1;
    }
    r
}

const fn peers() -> [Cells; 81] {
    let m = house_masks();
    let ch = cell_houses();
    let mut p = [0u128; 81];
    let mut c = 0;
    while c < 81 {
        p[c] = (m[ch[c][0] as usize] | m[ch[c][1] as usize] | m[ch[c][2] as usize]) & !(1u128 << c);
        c += 1;
    }
    p
}

/// Iterate the cells of a set in increasing order.
#[inline]
pub fn cells(mut set: Cells) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if set == 0 {
            None
        } else {
            let c = set.trailing_zeros() as usize;
            set &= set - 1;
            Some(c)
        }
    })
}

/// Iterate the set bits of a small mask in increasing order.
#[inline]
pub fn bits(mut m: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            let b = m.trailing_zeros() as usize;
            m &= m - 1;
            Some(b)
        }
    })
}

/// The pencilmark grid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Board {
    /// Candidates of each cell, bit `d - 1` for digit `d`; 0 for a placed cell.
    pub cand: [u16; 81],
    /// The placed digit of each cell (0 = empty).
    pub value: [u8; 81],
    /// Cells holding each digit (index `d - 1`) as a candidate.
    pub digit: [Cells; 9],
    /// Empty cells.
    pub empty: Cells,
}

impl Default for Board {
    fn default() -> Self {
        Board::new()
    }
}

impl Board {
    /// An empty board, every candidate open.
    pub fn new() -> Board {
        Board {
            cand: [0x1ff; 81],
            value: [0; 81],
            digit: [ALL; 9],
            empty: ALL,
        }
    }

    /// The board of a puzzle: givens placed, their peers' candidates removed.
    pub fn from_values(values: &[u8; 81]) -> Board {
        let mut b = Board::new();
        for (c, &v) in values.iter().enumerate() {
            if v != 0 {
                b.place(c, v);
            }
        }
        b
    }

    /// Place digit `d` (1..=9) in `cell`, removing it from the cell's peers.
    pub fn place(&mut self, cell: usize, d: u8) {
        let bit = 1u128 << cell;
        self.value[cell] = d;
        self.cand[cell] = 0;
        self.empty &= !bit;
        for k in 0..9 {
            self.digit[k] &= !bit;
        }
        let di = (d - 1) as usize;
        for p in cells(self.digit[di] & PEERS[cell]) {
            self.cand[p] &= !(1 << di);
        }
        self.digit[di] &= !PEERS[cell];
    }

    /// Remove the candidates of `elim` (one cell set per digit).
    pub fn eliminate(&mut self, elim: &[Cells; 9]) {
        for (di, &set) in elim.iter().enumerate() {
            let set = set & self.digit[di];
            for c in cells(set) {
                self.cand[c] &= !(1 << di);
            }
            self.digit[di] &= !set;
        }
    }

    /// Whether every cell is placed.
    pub fn solved(&self) -> bool {
        self.empty == 0
    }

    /// Number of empty cells in house `h`.
    #[inline]
    pub fn empty_count(&self, h: usize) -> u32 {
        (self.empty & HOUSE_MASK[h]).count_ones()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_consistent() {
        for c in 0..81 {
            assert_eq!(PEERS[c].count_ones(), 20);
            for &h in &cell_houses()[c] {
                assert!(HOUSE_MASK[h as usize] & (1u128 << c) != 0);
            }
        }
        assert_eq!(HOUSES[1][0], 3);
        assert_eq!(HOUSES[3][0], 27);
        assert_eq!(HOUSES[18 + 2][3], 29);
    }

    #[test]
    fn placing_removes_peer_candidates() {
        let mut b = Board::new();
        b.place(0, 5);
        assert_eq!(b.cand[1] & (1 << 4), 0);
        assert_eq!(b.cand[80] & (1 << 4), 1 << 4);
        assert_eq!(b.digit[4] & PEERS[0], 0);
        assert_eq!(b.digit[4] & HOUSE_MASK[9], 0);
        assert_eq!(b.empty_count(9), 8);
    }
}
