//! Counting the fillings of one band once the other two bands are full.
//!
//! Counting the solutions of a grid with very many (the empty grid, a grid with a few
//! givens) visits each solution at the bottom of the search tree. Most of that tree is
//! the last band: two full bands leave about two hundred ways to fill the third. With
//! the other bands full, the band's boxes need no checking at all: a column holds each
//! digit once, and the two boxes of its stack in the full bands already hold every digit
//! twice, so the third box gets each digit once as soon as its three columns are right.
//! What is left is rows and columns: [`count`] enumerates the fillings of one row, box
//! segment by box segment, and counts the last two rows of each in closed form (paths
//! and cycles of column pairs, see [`Rows::last_two`]).
//!
//! The count-only search steers towards such positions when it counts many solutions:
//! it branches outside one band until the other two are full (see `Search::count_all`
//! in the parent module).

/// The number of ways to fill the open cells of a band whose other two bands are full.
///
/// `cells` are the band's cells (row-major, 0..27), 0 for an open cell;
/// `col_missing[c]` the digits (bit `d` for digit `d + 1`) that column `c` lacks in the
/// whole grid, as many as it has open cells (the digits placed are consistent). The
/// count is exact (not capped): it takes at most a few thousand steps whatever it
/// comes to.
#[inline(always)]
pub(crate) fn count(cells: &[u8; 27], col_missing: &[u16; 9]) -> u64 {
    let open_in = |r: usize| cells[r * 9..r * 9 + 9].iter().filter(|&&v| v == 0).count();
    let row_missing = [0, 1, 2].map(|r| {
        cells[r * 9..r * 9 + 9]
            .iter()
            .filter(|&&v| v != 0)
            .fold(0x1FF, |m, &v| m & !(1u16 << (v - 1)))
    });
    let open = [0, 1, 2].map(|r| open_in(r) > 0);
    let open_cols = [0, 1, 2].map(|r| {
        (0..9)
            .filter(|&c| cells[r * 9 + c] == 0)
            .fold(0u16, |m, c| m | 1 << c)
    });
    let rows = Rows {
        cells,
        row_missing,
        open_cols,
    };
    match open {
        [false, false, false] => 1,
        [true, true, true] => {
            // Enumerate the fillings of the row with the fewest open cells; the other
            // two rows are then counted in closed form.
            let first = (0..3).min_by_key(|&r| open_in(r)).expect("three rows");
            let (a, b) = ((first + 1) % 3, (first + 2) % 3);
            rows.by_first_row(first, a, b, col_missing)
        }
        // One or two open rows; a full row needs nothing, so taking one makes no
        // difference.
        [true, true, false] => rows.last_two(0, 1, col_missing),
        [true, false, _] => rows.last_two(0, 2, col_missing),
        [false, _, _] => rows.last_two(1, 2, col_missing),
    }
}

/// A band's cells and the digits each of its rows lacks.
struct Rows<'a> {
    cells: &'a [u8; 27],
    row_missing: [u16; 3],
    /// The open cells of each row, as a 9-bit column set.
    open_cols: [u16; 3],
}

/// One way to fill the open cells of a row's segment (its three cells in one box): the
/// digits used, and the digit (as a bit) per cell, 0 for a filled cell.
#[derive(Clone, Copy, Default)]
struct Segment {
    used: u16,
    digits: [u16; 3],
}

impl Rows<'_> {
    /// The number of ways to fill the band: each filling of row `row`, with rows `a`
    /// and `b` counted by [`Rows::last_two`].
    #[inline(always)]
    fn by_first_row(&self, row: usize, a: usize, b: usize, col_missing: &[u16; 9]) -> u64 {
        let missing = self.row_missing[row];
        let mut options = [[Segment::default(); 27]; 3];
        let mut counts = [0usize; 3];
        for box_ in 0..3 {
            let mut add = |seg: Segment| {
                options[box_][counts[box_]] = seg;
                counts[box_] += 1;
            };
            let free = |j: usize| {
                let c = box_ * 3 + j;
                if self.cells[row * 9 + c] == 0 {
                    col_missing[c] & missing
                } else {
                    // A filled cell: a single pass that uses no digit.
                    1 << 15
                }
            };
            // Masking with `0x1FF` drops the filled-cell marker.
            for x in bits(free(0)) {
                for y in bits(free(1) & !(x & 0x1FF)) {
                    for z in bits(free(2) & !((x | y) & 0x1FF)) {
                        add(Segment {
                            used: (x | y | z) & 0x1FF,
                            digits: [x & 0x1FF, y & 0x1FF, z & 0x1FF],
                        });
                    }
                }
            }
        }
        // The third box's options by the digits they use, so that the two boxes before
        // it name the one set it must use.
        let mut first_by_used = [u8::MAX; 512];
        let mut next = [u8::MAX; 27];
        for i in (0..counts[2]).rev() {
            let used = options[2][i].used as usize;
            next[i] = first_by_used[used];
            first_by_used[used] = i as u8;
        }
        let mut total = 0;
        for s0 in &options[0][..counts[0]] {
            for s1 in &options[1][..counts[1]] {
                if s0.used & s1.used != 0 {
                    continue;
                }
                let need = missing & !(s0.used | s1.used);
                let mut i = first_by_used[need as usize];
                while i != u8::MAX {
                    let s2 = &options[2][i as usize];
                    let mut rest = *col_missing;
                    for (j, d) in s0
                        .digits
                        .iter()
                        .chain(&s1.digits)
                        .chain(&s2.digits)
                        .enumerate()
                    {
                        rest[j] &= !d;
                    }
                    total += self.last_two(a, b, &rest);
                    i = next[i as usize];
                }
            }
        }
        total
    }

    /// The number of ways to fill rows `a` and `b` when the band's third row is full,
    /// given the digits each column still lacks (`rest`).
    ///
    /// A column with one open cell is forced. A column with two open cells holds two
    /// digits, one per row: an edge between them. Every digit that both rows lack
    /// lies on two edges, one that only one row lacks on one (an end), so the edges
    /// form paths and cycles. Choosing one edge's direction settles its whole path or cycle: a
    /// cycle can go either way (two fillings), a path fits only if its ends are lacked
    /// by different rows (one filling), or else none.
    #[inline(always)]
    fn last_two(&self, a: usize, b: usize, rest: &[u16; 9]) -> u64 {
        let (mut need_a, mut need_b) = (self.row_missing[a], self.row_missing[b]);
        let (open_a, open_b) = (self.open_cols[a], self.open_cols[b]);
        // Columns with one open cell: their one digit goes to that cell's row.
        for (only, need) in [
            (open_a & !open_b, &mut need_a),
            (open_b & !open_a, &mut need_b),
        ] {
            let mut cols = only;
            while cols != 0 {
                let digit = rest[cols.trailing_zeros() as usize];
                cols &= cols - 1;
                debug_assert!(digit.count_ones() == 1, "one open cell, one digit");
                if digit & *need == 0 {
                    return 0;
                }
                *need &= !digit;
            }
        }
        // Columns with two: their two digits are an edge. For each digit, the XOR of
        // its edges' columns (with at most two edges, one column gives the other) and
        // one of them; and how many edges touch it: one, two, three or more.
        let mut xor = [0u8; 9];
        let mut some = [0u8; 9];
        let (mut one, mut two, mut three) = (0u16, 0u16, 0u16);
        let mut cols = open_a & open_b;
        while cols != 0 {
            let c = cols.trailing_zeros() as usize;
            cols &= cols - 1;
            let digits = rest[c];
            let low = digits & digits.wrapping_neg();
            let high = digits & !low;
            debug_assert!(digits.count_ones() == 2, "two open cells, two digits");
            three |= two & digits;
            two |= one & digits;
            one |= digits;
            let (x, y) = (
                low.trailing_zeros() as usize,
                high.trailing_zeros() as usize,
            );
            xor[x] ^= c as u8;
            xor[y] ^= c as u8;
            some[x] = c as u8;
            some[y] = c as u8;
        }
        let (both, ends) = (need_a & need_b, need_a ^ need_b);
        if three != 0 || two != both || one & !two != ends {
            return 0;
        }
        // Walk from `start` (first along column `some[start]`) until a digit in `stop`:
        // that digit, and every digit passed (both ends included).
        let walk = |start: usize, stop: u16| {
            let (mut digit, mut col) = (start, some[start] as usize);
            let mut passed = 1 << start;
            loop {
                digit = (rest[col] & !(1 << digit)).trailing_zeros() as usize;
                passed |= 1 << digit;
                if stop & 1 << digit != 0 {
                    return (digit, passed);
                }
                col = (xor[digit] ^ col as u8) as usize;
            }
        };
        // Paths: walk from each end not yet reached to the other end; it fits when one
        // end is lacked by row `a` and the other by row `b`.
        let mut unseen = one;
        let mut starts = ends;
        while starts != 0 {
            let start = starts.trailing_zeros() as usize;
            let (end, passed) = walk(start, ends);
            if (need_a >> start ^ need_a >> end) & 1 == 0 {
                return 0;
            }
            unseen &= !passed;
            starts &= !passed;
        }
        // What is left is cycles, each either way round.
        let mut cycles = 0;
        while unseen != 0 {
            let start = unseen.trailing_zeros() as usize;
            unseen &= !walk(start, 1 << start).1;
            cycles += 1;
        }
        1 << cycles
    }
}

/// The bits of a mask, lowest first.
fn bits(mut m: u16) -> impl Iterator<Item = u16> {
    std::iter::from_fn(move || {
        (m != 0).then(|| {
            let bit = m & m.wrapping_neg();
            m &= m - 1;
            bit
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const FULL: &str =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

    /// `full` with the cells of `band` marked `.` in `pattern` opened: the band's cells
    /// and its columns' missing digits, and the same as a grid.
    fn open_band(full: &str, band: usize, pattern: &[u8]) -> ([u8; 27], [u16; 9], crate::Grid) {
        let mut grid: Vec<u8> = full.bytes().map(|b| b - b'0').collect();
        for (i, &p) in pattern.iter().enumerate() {
            if p == b'.' {
                grid[band * 27 + i] = 0;
            }
        }
        let cells: [u8; 27] = grid[band * 27..band * 27 + 27].try_into().unwrap();
        let col_missing = std::array::from_fn(|c| {
            (0..9)
                .map(|r| grid[r * 9 + c])
                .filter(|&v| v != 0)
                .fold(0x1FF, |m, v| m & !(1u16 << (v - 1)))
        });
        let text: Vec<u8> = grid
            .iter()
            .map(|&v| if v == 0 { b'.' } else { b'0' + v })
            .collect();
        (cells, col_missing, crate::Grid::parse(&text).unwrap())
    }

    fn check(full: &str, band: usize, pattern: &[u8]) {
        let (cells, col_missing, grid) = open_band(full, band, pattern);
        let expected = crate::solutions(&grid).count() as u64;
        assert!(expected >= 1);
        let shown = String::from_utf8_lossy(pattern);
        assert_eq!(
            count(&cells, &col_missing),
            expected,
            "band {band}: {shown}"
        );
    }

    #[test]
    fn counts_agree_with_the_general_search() {
        // `.` opens a cell of the band; `x` keeps the digit of FULL.
        for (band, pattern) in [
            (2, "..........................."),
            (0, "..........................."),
            (1, "x.........................."),
            (2, "x.x.x.xx........x......x..."),
            (2, "xxxxxxxxx.........xxxxxxxxx"),
            (1, "xxxxxxxxx.................."),
            (0, "..x..x..x..x..x..x..x..x..x"),
            (1, "xxxxxxxxxxxxxxxxxxxxxxxxxxx"),
            (1, "xxxx.xxxxxxxxxxxxxxxxxxxxxx"),
        ] {
            check(FULL, band, pattern.as_bytes());
        }
    }

    #[test]
    fn random_openings_agree_with_the_general_search() {
        // A second grid: FULL with its digits relabelled and rows 1 and 2 swapped.
        let relabelled: String = FULL
            .bytes()
            .map(|b| char::from(b'1' + (b - b'0') % 9))
            .collect();
        let swapped = format!(
            "{}{}{}",
            &relabelled[9..18],
            &relabelled[..9],
            &relabelled[18..]
        );
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        for full in [FULL, swapped.as_str()] {
            for _ in 0..60 {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let band = (seed % 3) as usize;
                // Open each cell with probability 3/4.
                let pattern: Vec<u8> = (0..27)
                    .map(|i| {
                        if (seed >> (i * 2 + 8)) & 3 != 0 {
                            b'.'
                        } else {
                            b'x'
                        }
                    })
                    .collect();
                check(full, band, &pattern);
            }
        }
    }

    #[test]
    fn a_digit_forced_twice_into_one_row_has_no_filling() {
        // Row 1 of the band open in columns 2 and 3 only, each lacking the same digit.
        let (cells, mut col_missing, _) = open_band(FULL, 2, b"x..xxxxxxxxxxxxxxxxxxxxxxxx");
        col_missing[1] = col_missing[2];
        assert_eq!(count(&cells, &col_missing), 0);
        // Unchanged, the one filling.
        let (cells, col_missing, _) = open_band(FULL, 2, b"x..xxxxxxxxxxxxxxxxxxxxxxxx");
        assert_eq!(count(&cells, &col_missing), 1);
    }
}
