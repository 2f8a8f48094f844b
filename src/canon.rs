//! Canonical forms of puzzles under the Sudoku symmetries, and 128-bit fingerprints.
//!
//! Two puzzles are *equivalent* when one becomes the other by relabelling digits,
//! permuting rows within bands, permuting bands, the same for columns and stacks, and
//! optionally transposing. [`canonical`] maps every puzzle to one representative of its
//! class, so that two puzzles share it exactly when they are equivalent:
//!
//! - The representative is the lexicographically smallest image of the puzzle over the
//!   whole group (2 × 1296 row orders × 1296 column orders), after relabelling the
//!   digits of each image in order of first appearance (row-major). Cells compare as
//!   their label, with a blank *larger* than every digit, so the smallest image packs
//!   givens into its first rows and columns. It depends only on the puzzle's givens, not
//!   on any solution, so it is exact for puzzles with no or several solutions, and for
//!   puzzles with automorphisms.
//! - It is found without visiting the 3.36 million images. Row 0 of an image is
//!   `1, 2, ..` at its given positions, so its best value depends only on how many
//!   givens each stack of the chosen source row holds: the candidates are the source
//!   rows with the best stack-count profile (in either orientation), each with every
//!   column order that realises it. The rows below are then chosen one at a time,
//!   breadth first: for every candidate, every row the band structure allows next, keep
//!   only the (candidate, row) pairs whose relabelled row ties for the smallest. Every
//!   image whose prefix is not minimal is discarded at the row where it falls behind.
//! - Choices that are automorphisms of the puzzle itself (two completely blank rows of
//!   a band, two blank bands, the same for columns and stacks, a puzzle equal to its
//!   transpose) lead to identical futures, so only one of them is followed; this keeps
//!   very sparse puzzles (down to the empty grid) cheap.
//!
//! The search assumes no given repeats a digit in a row (true of every puzzle whose
//! givens pass [`Grid::check_givens`]): callers canonicalise conflict-free puzzles only.
//!
//! [`fingerprint`] hashes a grid's 81 cells to 128 bits with two independent 64-bit
//! mixing chains (different seeds and finalisers). Modelled as a random 128-bit value,
//! the chance that any two of `n` distinct grids share a fingerprint is about
//! `n² / 2¹²⁹`: 1.5·10⁻²³ for 10⁸ grids, 1.5·10⁻²¹ for 10⁹.

use crate::grid::{Grid, CELLS};

/// Label of a blank cell while searching: larger than every digit label (1..=9).
const BLANK: u8 = 10;

/// Every order of three items, as index triples.
const PERMS3: [[u8; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

/// One partial image being extended: a fixed column order, the rows chosen so far and
/// the digit labels handed out so far.
#[derive(Clone, Copy)]
struct Candidate {
    /// 0: the puzzle as given; 1: its transpose.
    orientation: u8,
    /// Image column `c` shows source column `cols[c]`.
    cols: [u8; 9],
    /// Image row `d` shows source row `rows[d]` (valid up to the current depth).
    rows: [u8; 9],
    /// Source rows already used (bit per row).
    used_rows: u16,
    /// Source digit → label (0: not labelled yet).
    labels: [u8; 10],
    /// The label the next new digit gets.
    next_label: u8,
}

/// The puzzle in both orientations, with which rows are completely blank.
struct Sources {
    cells: [[u8; CELLS]; 2],
    /// Per orientation, bit `r` set when source row `r` has no given.
    blank_rows: [u16; 2],
    /// Number of orientations to search: 1 when the puzzle equals its transpose.
    orientations: usize,
}

impl Sources {
    fn new(grid: &Grid) -> Sources {
        let given = grid.cells();
        let mut transposed = [0u8; CELLS];
        for r in 0..9 {
            for c in 0..9 {
                transposed[c * 9 + r] = given[r * 9 + c];
            }
        }
        let cells = [*given, transposed];
        let mut blank_rows = [0u16; 2];
        for (o, blanks) in blank_rows.iter_mut().enumerate() {
            for r in 0..9 {
                if cells[o][r * 9..r * 9 + 9].iter().all(|&v| v == 0) {
                    *blanks |= 1 << r;
                }
            }
        }
        // Transposition maps a symmetric puzzle onto itself: one orientation suffices.
        let orientations = if cells[0] == cells[1] { 1 } else { 2 };
        Sources {
            cells,
            blank_rows,
            orientations,
        }
    }

    fn row(&self, orientation: u8, row: u8) -> &[u8] {
        let start = row as usize * 9;
        &self.cells[orientation as usize][start..start + 9]
    }

    /// Bit `c` set when source column `c` (of this orientation) has no given.
    fn blank_cols(&self, orientation: u8) -> u16 {
        self.blank_rows[1 - orientation as usize]
    }

    /// The rows that may come at image depth `depth` after `rows[..depth]`, skipping
    /// choices that only swap identical (blank) rows or bands.
    fn next_rows(&self, orientation: u8, rows: &[u8; 9], used: u16, depth: usize) -> RowChoices {
        let blank = self.blank_rows[orientation as usize];
        let mut out = RowChoices::default();
        let push_band = |band: u8, out: &mut RowChoices| {
            let mut took_blank = false;
            for r in band * 3..band * 3 + 3 {
                if used & (1 << r) != 0 {
                    continue;
                }
                if blank & (1 << r) != 0 {
                    if took_blank {
                        continue;
                    }
                    took_blank = true;
                }
                out.push(r);
            }
        };
        if depth.is_multiple_of(3) {
            let mut took_blank_band = false;
            for band in 0..3u8 {
                if used & (0b111 << (band * 3)) != 0 {
                    continue;
                }
                if (blank >> (band * 3)) & 0b111 == 0b111 {
                    if took_blank_band {
                        continue;
                    }
                    took_blank_band = true;
                }
                push_band(band, &mut out);
            }
        } else {
            push_band(rows[depth - depth % 3] / 3, &mut out);
        }
        out
    }
}

/// Up to nine source rows, without allocating.
#[derive(Default)]
struct RowChoices {
    rows: [u8; 9],
    len: usize,
}

impl RowChoices {
    fn push(&mut self, row: u8) {
        self.rows[self.len] = row;
        self.len += 1;
    }

    fn as_slice(&self) -> &[u8] {
        &self.rows[..self.len]
    }
}

/// Reusable scratch space for canonical forms; keep one per thread for bulk work.
#[derive(Default)]
pub struct Canonicalizer {
    current: Vec<Candidate>,
    next: Vec<Candidate>,
}

impl Canonicalizer {
    /// A canonicaliser with empty scratch space.
    pub fn new() -> Canonicalizer {
        Canonicalizer::default()
    }

    /// The canonical form of `grid`: the smallest equivalent grid (see the module docs),
    /// with digits numbered 1, 2, .. in order of first appearance.
    pub fn canonical(&mut self, grid: &Grid) -> Grid {
        let sources = Sources::new(grid);
        let mut image = [[BLANK; 9]; 9];
        self.first_row(&sources, &mut image[0]);
        for (depth, best) in image.iter_mut().enumerate().skip(1) {
            self.extend(&sources, depth, best);
        }
        let mut cells = [0u8; CELLS];
        for (cell, &label) in cells.iter_mut().zip(image.iter().flatten()) {
            *cell = if label == BLANK { 0 } else { label };
        }
        Grid::from_cells(cells).expect("labels are 1..=9 or blank")
    }

    /// Choose image row 0: the source rows whose givens can be packed furthest left,
    /// each with every column order that packs them so.
    fn first_row(&mut self, sources: &Sources, best: &mut [u8; 9]) {
        self.current.clear();
        // The profile: givens per stack, sorted descending; larger packs further left.
        let profile = |o: u8, r: u8| {
            let row = sources.row(o, r);
            let mut counts = [0u8; 3];
            for (s, count) in counts.iter_mut().enumerate() {
                *count = row[s * 3..s * 3 + 3].iter().filter(|&&v| v != 0).count() as u8;
            }
            counts.sort_unstable_by(|a, b| b.cmp(a));
            counts
        };
        let mut best_profile = [0u8; 3];
        for o in 0..sources.orientations as u8 {
            for r in 0..9 {
                best_profile = best_profile.max(profile(o, r));
            }
        }
        for o in 0..sources.orientations as u8 {
            let choices = sources.next_rows(o, &[0; 9], 0, 0);
            for &r in choices.as_slice() {
                if profile(o, r) == best_profile {
                    self.push_column_orders(sources, o, r);
                }
            }
        }
        // Row 0 of the image: labels 1.. on the packed givens.
        let mut label = 1;
        for (s, &count) in best_profile.iter().enumerate() {
            for i in 0..3 {
                best[s * 3 + i] = if i < count as usize {
                    label += 1;
                    label - 1
                } else {
                    BLANK
                };
            }
        }
    }

    /// Push a candidate for every column order that packs the givens of source row
    /// `r` left: stacks by given count, descending; in each stack givens first.
    fn push_column_orders(&mut self, sources: &Sources, o: u8, r: u8) {
        let row = sources.row(o, r);
        let blank_cols = sources.blank_cols(o);
        let is_blank = |c: u8| blank_cols & (1 << c) != 0;
        let count = |s: u8| {
            row[s as usize * 3..s as usize * 3 + 3]
                .iter()
                .filter(|&&v| v != 0)
                .count()
        };
        let blank_stack = |s: u8| (blank_cols >> (s * 3)) & 0b111 == 0b111;
        // In-stack orders of each source stack: givens first; completely blank columns
        // (interchangeable) only in ascending order.
        let mut stack_orders: [Vec<[u8; 3]>; 3] = Default::default();
        for (s, orders) in stack_orders.iter_mut().enumerate() {
            let base = s as u8 * 3;
            let k = count(s as u8);
            for perm in PERMS3 {
                let cols = perm.map(|i| base + i);
                let packed = cols.iter().take(k).all(|&c| row[c as usize] != 0);
                let blanks_sorted = (0..3).all(|i| {
                    (i + 1..3)
                        .all(|j| !(is_blank(cols[i]) && is_blank(cols[j])) || cols[i] < cols[j])
                });
                if packed && blanks_sorted {
                    orders.push(cols);
                }
            }
        }
        for stacks in PERMS3 {
            // Stacks by count, descending; two blank stacks only in ascending order.
            let allowed = (0..3).all(|i| {
                (i + 1..3).all(|j| {
                    let (a, b) = (stacks[i], stacks[j]);
                    count(a) > count(b)
                        || (count(a) == count(b) && (!(blank_stack(a) && blank_stack(b)) || a < b))
                })
            });
            if !allowed {
                continue;
            }
            for a in &stack_orders[stacks[0] as usize] {
                for b in &stack_orders[stacks[1] as usize] {
                    for c in &stack_orders[stacks[2] as usize] {
                        let cols = [a[0], a[1], a[2], b[0], b[1], b[2], c[0], c[1], c[2]];
                        let mut labels = [0u8; 10];
                        let mut next_label = 1;
                        for &col in &cols {
                            let v = row[col as usize] as usize;
                            if v != 0 && labels[v] == 0 {
                                labels[v] = next_label;
                                next_label += 1;
                            }
                        }
                        let mut rows = [0u8; 9];
                        rows[0] = r;
                        self.current.push(Candidate {
                            orientation: o,
                            cols,
                            rows,
                            used_rows: 1 << r,
                            labels,
                            next_label,
                        });
                    }
                }
            }
        }
    }

    /// Choose image row `depth` for every candidate, keeping the pairs that tie for the
    /// smallest relabelled row; `best` receives that row.
    fn extend(&mut self, sources: &Sources, depth: usize, best: &mut [u8; 9]) {
        self.next.clear();
        *best = [u8::MAX; 9];
        for cand in &self.current {
            let choices = sources.next_rows(cand.orientation, &cand.rows, cand.used_rows, depth);
            for &r in choices.as_slice() {
                let row = sources.row(cand.orientation, r);
                let mut labels = cand.labels;
                let mut next_label = cand.next_label;
                let mut image = [BLANK; 9];
                // `smaller`: already below `best`; `worse`: above it, abandon the row.
                let mut smaller = false;
                let mut worse = false;
                for (i, &col) in cand.cols.iter().enumerate() {
                    let v = row[col as usize] as usize;
                    let label = if v == 0 {
                        BLANK
                    } else {
                        if labels[v] == 0 {
                            labels[v] = next_label;
                            next_label += 1;
                        }
                        labels[v]
                    };
                    image[i] = label;
                    if !smaller {
                        if label > best[i] {
                            worse = true;
                            break;
                        }
                        smaller = label < best[i];
                    }
                }
                if worse {
                    continue;
                }
                if smaller {
                    *best = image;
                    self.next.clear();
                }
                let mut rows = cand.rows;
                rows[depth] = r;
                self.next.push(Candidate {
                    rows,
                    used_rows: cand.used_rows | (1 << r),
                    labels,
                    next_label,
                    ..*cand
                });
            }
        }
        std::mem::swap(&mut self.current, &mut self.next);
    }
}

/// The canonical form of `grid` (see the module docs). For bulk work, reuse a
/// [`Canonicalizer`] instead.
///
/// ```
/// use bulkdoku::{canon::canonical, Grid};
/// let p: Grid = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
///     .parse()
///     .unwrap();
/// // Swap the first two rows and relabel 4 <-> 8: the same puzzle up to symmetry.
/// let mut q = [0u8; 81];
/// for (i, &v) in p.cells().iter().enumerate() {
///     let (r, c) = (i / 9, i % 9);
///     let r2 = [1, 0, 2, 3, 4, 5, 6, 7, 8][r];
///     q[r2 * 9 + c] = match v { 4 => 8, 8 => 4, v => v };
/// }
/// let q = Grid::from_cells(q).unwrap();
/// assert_ne!(p, q);
/// assert_eq!(canonical(&p), canonical(&q));
/// ```
pub fn canonical(grid: &Grid) -> Grid {
    Canonicalizer::new().canonical(grid)
}

/// First 64-bit lane: the SplitMix64 finaliser.
fn mix_a(mut x: u64) -> u64 {
    x ^= x >> 30;
    x = x.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x ^= x >> 27;
    x = x.wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// Second 64-bit lane: the MurmurHash3 finaliser (different shifts and multipliers).
fn mix_b(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    x ^ (x >> 33)
}

/// A 128-bit fingerprint of a grid's 81 cells (see the module docs for collision odds).
///
/// The cells are packed losslessly, 4 bits each, into six 64-bit words; each word is
/// folded into two chains with different seeds and finalisers, so the halves are
/// independent hashes of the same words.
pub fn fingerprint(grid: &Grid) -> u128 {
    let mut a: u64 = 0x243f_6a88_85a3_08d3;
    let mut b: u64 = 0x1319_8a2e_0370_7344;
    for chunk in grid.cells().chunks(16) {
        let word = chunk.iter().fold(0u64, |w, &v| (w << 4) | v as u64);
        a = mix_a(a ^ word).wrapping_add(0x9e37_79b9_7f4a_7c15);
        b = mix_b(b.rotate_left(29) ^ word).wrapping_add(0xa409_3822_299f_31d0);
    }
    ((mix_a(a) as u128) << 64) | mix_b(b) as u128
}

#[cfg(test)]
mod tests;
