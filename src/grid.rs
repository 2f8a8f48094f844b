//! The puzzle/solution type: parsing 81 cells, printing, and validating givens.
//!
//! A [`Grid`] is 81 cells in row-major order, each `0` (blank) or a digit `1..=9`.
//! Parsing accepts the blank spellings found in public datasets (`.` `0` `_` `-` `*`)
//! and reports the first bad cell by position and character, so a caller can turn it
//! into an error row that names the reason.

use std::fmt;

/// Number of cells in a grid.
pub const CELLS: usize = 81;

/// A 9×9 Sudoku grid: 81 cells, row-major, `0` for a blank, `1..=9` for a digit.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Grid {
    cells: [u8; CELLS],
}

/// Why 81 characters could not be read as a puzzle.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// The record does not have exactly 81 cells.
    #[error("{found} cells, expected 81")]
    Length {
        /// How many cells were found.
        found: usize,
    },
    /// A character that is neither a digit nor a blank.
    #[error("bad character {ch:?} at cell {cell}")]
    BadChar {
        /// The offending character.
        ch: char,
        /// 1-based cell number (1..=81).
        cell: usize,
    },
}

/// Two givens that share a house and a digit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("givens conflict: {} and {} are both {digit}", cell_name(*.first), cell_name(*.second))]
pub struct Conflict {
    /// 0-based index of the earlier cell.
    pub first: usize,
    /// 0-based index of the later cell.
    pub second: usize,
    /// The repeated digit.
    pub digit: u8,
}

/// Any reason a record is not a valid puzzle: unreadable cells or conflicting givens.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InvalidPuzzle {
    /// The cells could not be read.
    #[error(transparent)]
    Parse(#[from] ParseError),
    /// The givens break a rule.
    #[error(transparent)]
    Conflict(#[from] Conflict),
}

/// `r1c1`-style name of a 0-based cell index.
pub fn cell_name(cell: usize) -> String {
    format!("r{}c{}", cell / 9 + 1, cell % 9 + 1)
}

/// Map one input byte to a cell value, or `None` if it is not a cell character.
#[inline]
pub fn cell_value(byte: u8) -> Option<u8> {
    match byte {
        b'1'..=b'9' => Some(byte - b'0'),
        b'.' | b'0' | b'_' | b'-' | b'*' => Some(0),
        _ => None,
    }
}

impl Grid {
    /// The empty grid.
    pub const EMPTY: Grid = Grid { cells: [0; CELLS] };

    /// Build a grid from cell values (`0` blank, `1..=9` digits).
    ///
    /// Returns `None` if any value is above 9.
    pub fn from_cells(cells: [u8; CELLS]) -> Option<Grid> {
        cells.iter().all(|&v| v <= 9).then_some(Grid { cells })
    }

    /// Parse exactly 81 cell characters (digits, or `.` `0` `_` `-` `*` for blanks).
    ///
    /// Does not check givens against each other; see [`Grid::check_givens`] or
    /// [`Grid::parse_puzzle`].
    pub fn parse(text: &[u8]) -> Result<Grid, ParseError> {
        if let Some(grid) = parse_well_formed(text) {
            return Ok(grid);
        }
        // Not the common case: walk the cells again to name the reason.
        let mut cells = [0u8; CELLS];
        for (i, &byte) in text.iter().enumerate().take(CELLS) {
            cells[i] = cell_value(byte).ok_or_else(|| ParseError::BadChar {
                ch: char_at(text, i),
                cell: i + 1,
            })?;
        }
        if text.len() != CELLS {
            return Err(ParseError::Length { found: text.len() });
        }
        Ok(Grid { cells })
    }

    /// Parse and check that no two givens conflict.
    pub fn parse_puzzle(text: &[u8]) -> Result<Grid, InvalidPuzzle> {
        let grid = Grid::parse(text)?;
        grid.check_givens()?;
        Ok(grid)
    }

    /// The cells, row-major, `0` for blanks.
    pub fn cells(&self) -> &[u8; CELLS] {
        &self.cells
    }

    /// The value of one cell (0-based index).
    pub fn get(&self, cell: usize) -> u8 {
        self.cells[cell]
    }

    /// Set one cell (0-based index) to `value` (0..=9).
    ///
    /// # Panics
    /// If `value > 9` or `cell >= 81`.
    pub fn set(&mut self, cell: usize, value: u8) {
        assert!(value <= 9, "cell value {value} out of range");
        self.cells[cell] = value;
    }

    /// Number of givens (non-blank cells).
    pub fn clues(&self) -> usize {
        // Counted in a `u8` (at most 81) without a branch, so that it vectorises: the
        // pipeline counts the clues of every puzzle it writes.
        let n = self.cells.iter().fold(0u8, |n, &v| n + u8::from(v != 0));
        usize::from(n)
    }

    /// True when no cell is blank.
    pub fn is_complete(&self) -> bool {
        self.cells.iter().all(|&v| v != 0)
    }

    /// The first pair of givens that repeat a digit in a row, column or box.
    pub fn check_givens(&self) -> Result<(), Conflict> {
        // seen[house][digit] = 1 + index of the cell that holds it.
        let mut seen = [[0u8; 10]; 27];
        for (cell, &digit) in self.cells.iter().enumerate() {
            if digit == 0 {
                continue;
            }
            for house in houses_of(cell) {
                let slot = &mut seen[house][digit as usize];
                if *slot != 0 {
                    return Err(Conflict {
                        first: *slot as usize - 1,
                        second: cell,
                        digit,
                    });
                }
                *slot = cell as u8 + 1;
            }
        }
        Ok(())
    }

    /// True when the grid is complete and breaks no rule.
    pub fn is_valid_solution(&self) -> bool {
        self.is_complete() && self.check_givens().is_ok()
    }

    /// True when every given of `puzzle` has the same value here.
    pub fn agrees_with(&self, puzzle: &Grid) -> bool {
        self.cells
            .iter()
            .zip(puzzle.cells.iter())
            .all(|(&mine, &given)| given == 0 || mine == given)
    }

    /// Write the 81-character line form (`.` for blanks) into `out`.
    pub fn write_line(&self, out: &mut [u8; CELLS]) {
        for (o, &v) in out.iter_mut().zip(self.cells.iter()) {
            *o = if v == 0 { b'.' } else { b'0' + v };
        }
    }

    /// The 81-character line form (`.` for blanks).
    pub fn to_line(&self) -> String {
        let mut out = [0u8; CELLS];
        self.write_line(&mut out);
        out.iter().map(|&b| b as char).collect()
    }

    /// A boxed 9×9 picture of the grid, as the seed articles print it.
    pub fn to_boxed(&self) -> String {
        let mut s = String::with_capacity(300);
        let rule = "+-------+-------+-------+\n";
        for row in 0..9 {
            if row % 3 == 0 {
                s.push_str(rule);
            }
            for col in 0..9 {
                if col % 3 == 0 {
                    s.push_str("| ");
                }
                let v = self.cells[row * 9 + col];
                s.push(if v == 0 { '.' } else { (b'0' + v) as char });
                s.push(' ');
            }
            s.push_str("|\n");
        }
        s.push_str(rule);
        s
    }
}

/// The common case of [`Grid::parse`]: exactly 81 cell characters, checked and
/// converted without per-byte error bookkeeping; `None` on anything else, for which
/// `Grid::parse` names the reason.
///
/// Every byte goes through the same few compares (a digit is `byte - b'0' <= 9`, the
/// other blank spellings are four equalities) and the verdicts are folded with `|` into
/// fixed 16-byte lanes, with no early exit and no table lookup, so that the compiler
/// checks and converts 16 bytes at a time: this is the pipeline's per-record parse, and
/// the byte-at-a-time table it replaces cost ~6 instructions a cell.
fn parse_well_formed(text: &[u8]) -> Option<Grid> {
    let text: &[u8; CELLS] = text.try_into().ok()?;
    let mut cells = [0u8; CELLS];
    let mut bad = [0u8; 16];
    for (chunk, out) in text.chunks_exact(16).zip(cells.chunks_exact_mut(16)) {
        for ((lane, cell), &byte) in bad.iter_mut().zip(out).zip(chunk) {
            let (value, ok) = cell_lane(byte);
            *cell = value;
            *lane |= u8::from(!ok);
        }
    }
    let (value, ok) = cell_lane(text[CELLS - 1]);
    cells[CELLS - 1] = value;
    let bad = bad.iter().fold(u8::from(!ok), |a, &b| a | b);
    (bad == 0).then_some(Grid { cells })
}

/// One byte of [`parse_well_formed`]: its cell value (0 when it is not a digit) and
/// whether it is a cell character at all, branch-free (agrees with [`cell_value`]).
#[inline(always)]
fn cell_lane(byte: u8) -> (u8, bool) {
    let digit = byte.wrapping_sub(b'0');
    let is_digit = digit <= 9;
    let is_blank = (byte == b'.') | (byte == b'_') | (byte == b'-') | (byte == b'*');
    (if is_digit { digit } else { 0 }, is_digit | is_blank)
}

/// The three houses (row, column, box) of a cell, as indices 0..27.
#[inline]
pub fn houses_of(cell: usize) -> [usize; 3] {
    let (row, col) = (cell / 9, cell % 9);
    [row, 9 + col, 18 + (row / 3) * 3 + col / 3]
}

fn char_at(text: &[u8], i: usize) -> char {
    // Report the whole UTF-8 character when the bad byte starts one.
    std::str::from_utf8(&text[i..text.len().min(i + 4)])
        .ok()
        .or_else(|| {
            (1..4)
                .rev()
                .find_map(|n| std::str::from_utf8(text.get(i..i + n)?).ok())
        })
        .and_then(|s| s.chars().next())
        .unwrap_or(char::REPLACEMENT_CHARACTER)
}

impl fmt::Display for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_line())
    }
}

impl fmt::Debug for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Grid({})", self.to_line())
    }
}

impl std::str::FromStr for Grid {
    type Err = InvalidPuzzle;
    fn from_str(s: &str) -> Result<Grid, InvalidPuzzle> {
        Grid::parse_puzzle(s.as_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SEED: &str =
        "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";

    #[test]
    fn parse_round_trips_and_counts_clues() {
        let g: Grid = SEED.parse().unwrap();
        assert_eq!(g.to_line(), SEED);
        assert_eq!(g.clues(), 21);
    }

    #[test]
    fn blank_spellings_are_equivalent() {
        let a = Grid::parse(SEED.as_bytes()).unwrap();
        for blank in [b'0', b'_', b'-', b'*'] {
            let text: Vec<u8> = SEED
                .bytes()
                .map(|b| if b == b'.' { blank } else { b })
                .collect();
            assert_eq!(Grid::parse(&text).unwrap(), a);
        }
    }

    #[test]
    fn bad_length_and_character_are_named() {
        assert_eq!(
            Grid::parse(&SEED.as_bytes()[..80]),
            Err(ParseError::Length { found: 80 })
        );
        let mut bad = SEED.as_bytes().to_vec();
        bad[11] = b'x';
        let err = Grid::parse(&bad).unwrap_err();
        assert_eq!(err.to_string(), "bad character 'x' at cell 12");
        let mut utf = SEED.as_bytes()[..80].to_vec();
        utf.extend_from_slice("é".as_bytes());
        assert_eq!(
            Grid::parse(&utf).unwrap_err(),
            ParseError::BadChar { ch: 'é', cell: 81 }
        );
    }

    #[test]
    fn fast_parse_agrees_with_grid_parse() {
        let good =
            b"1.3_0-5*9..21.94.....7.4...3..5.2..6.6.....5.7..8.3..4...4.1.....92.58..8.4...1.7";
        let parse_fast = parse_well_formed;
        assert_eq!(parse_fast(good), Grid::parse(good).ok());
        assert!(parse_fast(good).is_some());
        for bad in [&good[..80], b"x".as_slice(), &[b'1'; 82]] {
            assert_eq!(parse_fast(bad), None);
        }
        let mut odd = *good;
        for byte in [b'x', b' ', 0xC3, b'0' - 1, b'9' + 1] {
            odd[40] = byte;
            assert_eq!(parse_fast(&odd), None, "byte {byte}");
            assert!(Grid::parse(&odd).is_err());
        }
        // The branch-free lanes and `cell_value` agree on every byte, in the 16-byte
        // lanes and in the last cell.
        for byte in 0..=255u8 {
            let (value, ok) = cell_lane(byte);
            assert_eq!(cell_value(byte), ok.then_some(value), "byte {byte}");
            for cell in [5, CELLS - 1] {
                let mut one = *good;
                one[cell] = byte;
                let parsed = parse_fast(&one).map(|g| g.get(cell));
                assert_eq!(parsed, cell_value(byte), "byte {byte} at cell {cell}");
            }
        }
    }

    #[test]
    fn conflicts_name_both_cells() {
        let mut line = ".".repeat(81).into_bytes();
        line[0] = b'7';
        line[4] = b'7';
        let err = Grid::parse_puzzle(&line).unwrap_err();
        assert_eq!(err.to_string(), "givens conflict: r1c1 and r1c5 are both 7");
        let mut col = ".".repeat(81).into_bytes();
        col[2] = b'3';
        col[74] = b'3';
        assert_eq!(
            Grid::parse_puzzle(&col).unwrap_err().to_string(),
            "givens conflict: r1c3 and r9c3 are both 3"
        );
        let mut boxed = ".".repeat(81).into_bytes();
        boxed[30] = b'5';
        boxed[50] = b'5';
        assert_eq!(
            Grid::parse_puzzle(&boxed).unwrap_err().to_string(),
            "givens conflict: r4c4 and r6c6 are both 5"
        );
    }
}
