//! Counting the fillings of one band once the other two bands are full.
//!
//! Counting the solutions of a grid with very many (the empty grid, a grid with a few
//! givens) visits each solution at the bottom of the search tree. Most of that tree is
//! the last band: two full bands leave about two hundred ways to fill the third. With
//! the other bands full, the band's boxes need no checking at all: a column holds each
//! digit once, and the two boxes of its stack in the full bands already hold every digit
//! twice, so the third box gets each digit once as soon as its three columns are right.
//! What is left is rows and columns, which [`count`] walks row by row over plain masks,
//! filling the last two open rows a column (two cells) at a time.
//!
//! The count-only search steers towards such positions when it counts many solutions:
//! it branches outside one band until the other two are full (see `count_inline` in the
//! parent module).

/// The number of ways to fill the open cells of a band whose other two bands are full.
///
/// `cells` are the band's cells (row-major, 0..27), 0 for an open cell;
/// `col_missing[c]` the digits (bit `d` for digit `d + 1`) that column `c` lacks in the
/// whole grid. The count is exact (not capped): it takes at most a few thousand steps
/// whatever it comes to.
pub(crate) fn count(cells: &[u8; 27], col_missing: &[u16; 9]) -> u64 {
    let open_in = |r: usize| cells[r * 9..r * 9 + 9].iter().filter(|&&v| v == 0).count();
    let row_missing = [0, 1, 2].map(|r| {
        cells[r * 9..r * 9 + 9]
            .iter()
            .filter(|&&v| v != 0)
            .fold(0x1FF, |m, &v| m & !(1u16 << (v - 1)))
    });
    let open = [0, 1, 2].map(|r| open_in(r) > 0);
    let rows = Rows { cells, row_missing };
    match open {
        [false, false, false] => 1,
        [true, true, true] => {
            // Enumerate the fillings of the row with the fewest open cells; the other
            // two rows are then counted in closed form.
            let first = (0..3).min_by_key(|&r| open_in(r)).expect("three rows");
            let (a, b) = ((first + 1) % 3, (first + 2) % 3);
            let mut total = 0;
            rows.each_row_filling(first, col_missing, |rest| {
                total += rows.last_two(a, b, rest);
            });
            total
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
}

/// One way to fill the open cells of a row's segment (its three cells in one box): the
/// digits used, and the digit (as a bit) per cell, 0 for a filled cell.
#[derive(Clone, Copy, Default)]
struct Segment {
    used: u16,
    digits: [u16; 3],
}

impl Rows<'_> {
    /// Call `each` with the column needs left by every filling of row `row`.
    fn each_row_filling(
        &self,
        row: usize,
        col_missing: &[u16; 9],
        mut each: impl FnMut(&[u16; 9]),
    ) {
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
                    each(&rest);
                    i = next[i as usize];
                }
            }
        }
    }

    /// The number of ways to fill rows `a` and `b` when the band's third row is full,
    /// given the digits each column still lacks (`rest`).
    ///
    /// A column with one open cell is forced. A column with two open cells holds two
    /// digits, one per row: an edge between them. Every digit that both rows lack
    /// lies on two edges, one that both lack on one (an end), so the edges form paths
    /// and cycles. Choosing one edge's direction settles its whole path or cycle: a
    /// cycle can go either way (two fillings), a path fits only if its ends are lacked
    /// by different rows (one filling), or else none.
    fn last_two(&self, a: usize, b: usize, rest: &[u16; 9]) -> u64 {
        let (mut need_a, mut need_b) = (self.row_missing[a], self.row_missing[b]);
        let mut edges = [0u16; 9];
        let mut n = 0;
        for (c, &digits) in rest.iter().enumerate() {
            let (open_a, open_b) = (self.cells[a * 9 + c] == 0, self.cells[b * 9 + c] == 0);
            match (open_a, open_b) {
                (true, true) => {
                    if digits.count_ones() != 2 {
                        return 0;
                    }
                    edges[n] = digits;
                    n += 1;
                }
                (true, false) | (false, true) => {
                    let need = if open_a { &mut need_a } else { &mut need_b };
                    if digits.count_ones() != 1 || digits & *need == 0 {
                        return 0;
                    }
                    *need &= !digits;
                }
                (false, false) => {}
            }
        }
        let edges = &edges[..n];
        // How many edges touch each digit: one, two, three or more.
        let (mut one, mut two, mut three) = (0u16, 0u16, 0u16);
        for &e in edges {
            three |= two & e;
            two |= one & e;
            one |= e;
        }
        let (both, ends) = (need_a & need_b, need_a ^ need_b);
        if three != 0 || two != both || one & !two != ends {
            return 0;
        }
        // Connected sets of digits.
        let mut groups = [0u16; 9];
        let mut g = 0;
        for &e in edges {
            let mut merged = e;
            let mut i = 0;
            while i < g {
                if groups[i] & merged != 0 {
                    merged |= groups[i];
                    g -= 1;
                    groups[i] = groups[g];
                } else {
                    i += 1;
                }
            }
            groups[g] = merged;
            g += 1;
        }
        let mut cycles = 0;
        for &group in &groups[..g] {
            let (ends_a, ends_b) = (group & need_a & !need_b, group & need_b & !need_a);
            match (ends_a.count_ones(), ends_b.count_ones()) {
                (0, 0) => cycles += 1,
                (1, 1) => {}
                _ => return 0,
            }
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
    fn inconsistent_columns_have_no_filling() {
        // Column 1 lacks two digits but has a single open cell in the band.
        let (mut cells, mut col_missing, _) = open_band(FULL, 2, &[b'x'; 27]);
        cells[0] = 0;
        col_missing[0] = 0b11;
        assert_eq!(count(&cells, &col_missing), 0);
        // The same digit lacked by two open cells of one column in a full row's band.
        let (cells, mut col_missing, _) = open_band(FULL, 2, b"x........xxxxxxxxxxxxxxxxxx");
        col_missing[1] = col_missing[2];
        assert_eq!(count(&cells, &col_missing), 0);
    }
}
