//! Lookup tables for the band representation, built at compile time.
//!
//! A *band* is three rows of the grid. For one digit, its candidates in one band are a
//! 27-bit mask: bit `row * 9 + col` (`row` 0..3 within the band). A *segment* is the
//! three cells where one row of the band meets one box.

/// All 27 cells of a band.
pub const BAND: u32 = (1 << 27) - 1;

/// For the 9 bits of one row of a band: which of its three boxes still have a cell
/// (bit `j` for box `j`).
pub static SEGMENTS: [u8; 512] = segments();

/// For a 9-bit "row `r` has a candidate in box `j`" map (bit `r * 3 + j`), the cells of
/// every segment that some consistent placement of the digit can use.
///
/// Within one band a digit sits once in each row and once in each box, so its rows and
/// boxes are matched by one of six permutations. A segment survives only if a permutation
/// that uses it has candidates in all three of its segments; `0` means no permutation
/// fits, so the digit cannot be placed in this band at all. This one lookup performs
/// pointing and claiming (locked candidates) for the band.
pub static CONSISTENT: [u32; 512] = consistent();

/// For each cell of a band, the other cells of the band that see it (same row, same box,
/// or same column).
pub static BAND_PEERS: [u32; 27] = band_peers();

/// For each column, its three cells in a band.
pub static COLUMN: [u32; 9] = column();

const PERMUTATIONS: [[usize; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

const fn segments() -> [u8; 512] {
    let mut t = [0u8; 512];
    let mut x = 0;
    while x < 512 {
        let mut j = 0;
        while j < 3 {
            if (x >> (3 * j)) & 7 != 0 {
                t[x] |= 1 << j;
            }
            j += 1;
        }
        x += 1;
    }
    t
}

const fn consistent() -> [u32; 512] {
    let mut t = [0u32; 512];
    let mut map = 0;
    while map < 512 {
        let mut p = 0;
        while p < 6 {
            let perm = PERMUTATIONS[p];
            let mut fits = true;
            let mut cells = 0u32;
            let mut row = 0;
            while row < 3 {
                let j = perm[row];
                if (map >> (row * 3 + j)) & 1 == 0 {
                    fits = false;
                }
                cells |= 7 << (row * 9 + j * 3);
                row += 1;
            }
            if fits {
                t[map] |= cells;
            }
            p += 1;
        }
        map += 1;
    }
    t
}

const fn band_peers() -> [u32; 27] {
    let mut t = [0u32; 27];
    let mut cell = 0;
    while cell < 27 {
        let (row, col) = (cell / 9, cell % 9);
        let mut other = 0;
        while other < 27 {
            let (r2, c2) = (other / 9, other % 9);
            if other != cell && (r2 == row || c2 == col || c2 / 3 == col / 3) {
                t[cell] |= 1 << other;
            }
            other += 1;
        }
        cell += 1;
    }
    t
}

const fn column() -> [u32; 9] {
    let mut t = [0u32; 9];
    let mut col = 0;
    while col < 9 {
        t[col] = (1 << col) | (1 << (col + 9)) | (1 << (col + 18));
        col += 1;
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_band_keeps_everything_and_empty_row_kills_it() {
        assert_eq!(CONSISTENT[0x1FF], BAND);
        // Row 2 has no candidate at all: no placement fits.
        assert_eq!(CONSISTENT[0b000_111_111], 0);
    }

    #[test]
    fn a_box_owned_by_one_row_claims_that_row() {
        // Box 0 only in row 0; rows 1 and 2 may use boxes 1 and 2.
        let map = 0b110_110_111;
        let cells = CONSISTENT[map];
        // Row 0 must take box 0: its other segments are gone.
        assert_eq!(cells & 0x1FF, 0b000_000_111);
        assert_eq!((cells >> 9) & 0x1FF, 0b111_111_000);
    }

    #[test]
    fn band_peers_are_row_and_box() {
        // 8 in the row and 6 more in the box; the column's other two cells in the band
        // lie in the box already.
        for cell in 0..27 {
            assert_eq!(BAND_PEERS[cell].count_ones(), 8 + 6);
            assert_eq!(BAND_PEERS[cell] & (1 << cell), 0);
        }
    }
}
