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
pub const CONSISTENT: [u32; 512] = consistent();

/// For a 9-bit row/box map (as for [`CONSISTENT`]), the segments that every consistent
/// placement uses: the digit is certainly in them. `0` when no placement fits.
pub const FORCED: [u16; 512] = forced();

/// For a 9-bit map of the columns a digit can use in a band, the segments (bit
/// `row * 3 + box`) of every box whose stack offers a single column: there a forced
/// segment is a single cell.
pub const ONE_COLUMN_SEGMENTS: [u16; 512] = one_column_segments();

/// For a 9-bit map of the columns a digit can use in a band, what the same digit keeps
/// in the other two bands: a stack with a single column here claims that column, since
/// the digit's box in this band must use it.
pub const OTHER_BANDS_KEEP: [u32; 512] = other_bands_keep();

/// For a 9-bit map of columns where only this band can hold a digit, what the digit
/// keeps in this band: in each stack with such a column, the box must use it, so the
/// box's other columns go (claiming, seen from the columns).
pub static OWN_COLUMNS_KEEP: [u32; 512] = own_columns_keep();

/// For a 9-bit "row `r` may meet box `j`" map (bit `r * 3 + j`), as for [`CONSISTENT`],
/// the bits that some consistent placement uses, in the same 9-bit layout; `0` when no
/// placement fits. The same matching reads for a digit in a stack: bands for rows,
/// the stack's three columns for boxes.
pub static CONSISTENT_MAP: [u16; 512] = consistent_map();

/// For a 9-bit row/box map (as for [`CONSISTENT`]), which of the six placements
/// ([`PLACEMENT_SEGMENTS`]) fit: bit `p` for placement `p`.
pub static PLACEMENTS: [u8; 512] = placements();

/// For a 9-bit row/box map, how many of the six placements fit (the number of bits of
/// [`PLACEMENTS`]; a table, since the baseline x86-64 has no population count).
pub static PLACEMENT_COUNT: [u8; 512] = placement_count();

/// The segments (bit `row * 3 + box`) of each of the six ways to match a band's rows
/// with its boxes.
pub static PLACEMENT_SEGMENTS: [u16; 6] = placement_segments();

/// The cells of a 9-bit set of segments (bit `row * 3 + box`).
pub static SEGMENT_CELLS: [u32; 512] = segment_cells();

/// For each cell of a band, the other cells of the band that see it (same row, same box,
/// or same column).
pub static BAND_PEERS: [u32; 27] = band_peers();

/// For each column, its three cells in a band.
pub static COLUMN: [u32; 9] = column();

/// The tables that settling a slot reads, side by side in one static: the code
/// addresses every one of them from a single base (a table of its own each needs its
/// address loaded first, from the global offset table), the two entries read per
/// index share a cache line, and the placed cells take one lookup less. The tables
/// it is built from are constants, for that and for the tests.
#[repr(C)]
pub struct SlotTables {
    /// [`SEGMENTS`].
    pub segments: [u8; 512],
    /// Per row/box map: [`CONSISTENT`], and the cells of the [`FORCED`] segments.
    pub by_map: [[u32; 2]; 512],
    /// Per column map: [`OTHER_BANDS_KEEP`], and the cells of the
    /// [`ONE_COLUMN_SEGMENTS`].
    pub by_columns: [[u32; 2]; 512],
}

/// See [`SlotTables`].
pub static SLOT_TABLES: SlotTables = slot_tables();

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

const fn consistent_map() -> [u16; 512] {
    let mut t = [0u16; 512];
    let mut map = 0;
    while map < 512 {
        let mut p = 0;
        while p < 6 {
            let perm = PERMUTATIONS[p];
            let mut segs = 0u16;
            let mut fits = true;
            let mut row = 0;
            while row < 3 {
                let bit = row * 3 + perm[row];
                if (map >> bit) & 1 == 0 {
                    fits = false;
                }
                segs |= 1 << bit;
                row += 1;
            }
            if fits {
                t[map] |= segs;
            }
            p += 1;
        }
        map += 1;
    }
    t
}

const fn placement_segments() -> [u16; 6] {
    let mut t = [0u16; 6];
    let mut p = 0;
    while p < 6 {
        let mut row = 0;
        while row < 3 {
            t[p] |= 1 << (row * 3 + PERMUTATIONS[p][row]);
            row += 1;
        }
        p += 1;
    }
    t
}

const fn placements() -> [u8; 512] {
    let segs = placement_segments();
    let mut t = [0u8; 512];
    let mut map = 0;
    while map < 512 {
        let mut p = 0;
        while p < 6 {
            if map as u16 & segs[p] == segs[p] {
                t[map] |= 1 << p;
            }
            p += 1;
        }
        map += 1;
    }
    t
}

const fn placement_count() -> [u8; 512] {
    let p = placements();
    let mut t = [0u8; 512];
    let mut map = 0;
    while map < 512 {
        t[map] = p[map].count_ones() as u8;
        map += 1;
    }
    t
}

const fn forced() -> [u16; 512] {
    let mut t = [0u16; 512];
    let mut map = 0;
    while map < 512 {
        let mut all = 0x1FFu16;
        let mut any = false;
        let mut p = 0;
        while p < 6 {
            let perm = PERMUTATIONS[p];
            let mut segs = 0u16;
            let mut fits = true;
            let mut row = 0;
            while row < 3 {
                let bit = row * 3 + perm[row];
                if (map >> bit) & 1 == 0 {
                    fits = false;
                }
                segs |= 1 << bit;
                row += 1;
            }
            if fits {
                all &= segs;
                any = true;
            }
            p += 1;
        }
        t[map] = if any { all } else { 0 };
        map += 1;
    }
    t
}

const fn one_column_segments() -> [u16; 512] {
    let mut t = [0u16; 512];
    let mut cols = 0;
    while cols < 512 {
        let mut stack = 0;
        while stack < 3 {
            let here = (cols >> (3 * stack)) & 7;
            if here != 0 && here & (here - 1) == 0 {
                t[cols] |= (1 | 1 << 3 | 1 << 6) << stack;
            }
            stack += 1;
        }
        cols += 1;
    }
    t
}

const fn other_bands_keep() -> [u32; 512] {
    let columns = column();
    let mut t = [0u32; 512];
    let mut cols = 0;
    while cols < 512 {
        let mut keep = BAND;
        let mut stack = 0;
        while stack < 3 {
            let here = (cols >> (3 * stack)) & 7;
            if here != 0 && here & (here - 1) == 0 {
                let col = 3 * stack + (here as u32).trailing_zeros() as usize;
                keep &= !columns[col];
            }
            stack += 1;
        }
        t[cols] = keep;
        cols += 1;
    }
    t
}

const fn own_columns_keep() -> [u32; 512] {
    let columns = column();
    let mut t = [0u32; 512];
    let mut own = 0;
    while own < 512 {
        let mut keep = BAND;
        let mut stack = 0;
        while stack < 3 {
            let here = (own >> (3 * stack)) & 7;
            if here != 0 {
                let mut c = 0;
                while c < 3 {
                    if (here >> c) & 1 == 0 {
                        keep &= !columns[3 * stack + c];
                    }
                    c += 1;
                }
            }
            stack += 1;
        }
        t[own] = keep;
        own += 1;
    }
    t
}

const fn segment_cells() -> [u32; 512] {
    let mut t = [0u32; 512];
    let mut segs = 0;
    while segs < 512 {
        let mut bit = 0;
        while bit < 9 {
            if (segs >> bit) & 1 != 0 {
                t[segs] |= 7 << ((bit / 3) * 9 + (bit % 3) * 3);
            }
            bit += 1;
        }
        segs += 1;
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

const fn slot_tables() -> SlotTables {
    let (consistent, forced) = (CONSISTENT, FORCED);
    let (keep, one_column) = (OTHER_BANDS_KEEP, ONE_COLUMN_SEGMENTS);
    let cells = segment_cells();
    let mut t = SlotTables {
        segments: segments(),
        by_map: [[0; 2]; 512],
        by_columns: [[0; 2]; 512],
    };
    let mut i = 0;
    while i < 512 {
        t.by_map[i] = [consistent[i], cells[forced[i] as usize]];
        t.by_columns[i] = [keep[i], cells[one_column[i] as usize]];
        i += 1;
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
    fn forced_segments_and_claimed_columns() {
        // Everything possible: nothing forced.
        assert_eq!(FORCED[0x1FF], 0);
        // Box 0 only in row 0 forces that segment.
        assert_eq!(FORCED[0b110_110_111] & 1, 1);
        // A stack with one column claims it from the other bands.
        let cols = 0b111_111_010; // stack 0 offers only column 1
        assert_eq!(ONE_COLUMN_SEGMENTS[cols], 0b001_001_001);
        assert_eq!(OTHER_BANDS_KEEP[cols], BAND & !COLUMN[1]);
        assert_eq!(SEGMENT_CELLS[0b100_000_001], 0b111 | 0b111 << 24);
    }

    #[test]
    fn band_peers_are_row_and_box() {
        // 8 in the row and 6 more in the box; the column's other two cells in the band
        // lie in the box already.
        for (cell, peers) in BAND_PEERS.iter().enumerate() {
            assert_eq!(peers.count_ones(), 8 + 6);
            assert_eq!(peers & (1 << cell), 0);
        }
    }
}
