//! The board-literal format (`[["5","3",...],...]`). Its reader repairs broken nesting,
//! so no exact model is attempted; the check states what must hold whatever the
//! nesting: records in line order, bounded, each starting on a line with a `[` or
//! being a line of data found outside any list; and, where no quote can hide a bracket,
//! every line with a puzzle's worth of cell characters outside the lists is a record.

use bulkdoku::input::MAX_RECORD;

use crate::grid::ordered;
use crate::text::{is_meaningful, Text};
use crate::{ensure, Rec};

/// Error of a line of data outside any list.
pub const OUTSIDE: &str = "text outside a board literal";

/// Cell characters outside the lists from which a line is data, not a label.
const STRAY_CELLS: usize = 9;

/// Bytes of a stray line kept in its record.
const STRAY_KEPT: usize = 160;

/// Cell characters of each line outside every bracket, counting `[` and `]` only (no
/// quotes), the depth carried from line to line; only lines `keep` selects are read.
/// Also whether any of them holds a `[`.
pub fn outside_cells(text: &Text, keep: impl Fn(&[u8]) -> bool) -> (Vec<(usize, usize)>, bool) {
    let mut depth = 0usize;
    let mut brackets = false;
    let mut out = Vec::new();
    for (n, line) in text.lines() {
        if !keep(line) {
            continue;
        }
        let mut cells = 0;
        for &b in line {
            match b {
                b'[' => {
                    depth += 1;
                    brackets = true;
                }
                b']' => depth = depth.saturating_sub(1),
                _ if depth == 0 && (b.is_ascii_digit() || b == b'.') => cells += 1,
                _ => {}
            }
        }
        out.push((n, cells));
    }
    (out, brackets)
}

/// Whether `small` is a subsequence of `big`.
fn subsequence(small: &[u8], big: &[u8]) -> bool {
    let mut it = big.iter();
    small.iter().all(|b| it.any(|c| c == b))
}

pub fn check(text: &Text, got: &[Rec]) -> Result<(), String> {
    // Two literals on one line are two records of that line: the order is by line,
    // not strictly.
    ordered(text, got, false)?;
    let mut last_stray = 0;
    for r in got {
        let line = text.line(r.line as usize);
        ensure!(
            r.cells.len() <= MAX_RECORD,
            "record at line {} holds {} bytes",
            r.line,
            r.cells.len()
        );
        ensure!(
            r.fields.is_empty() && r.rules.is_empty() && r.regions.is_empty(),
            "line {}: fields, rules or regions",
            r.line
        );
        if r.error.as_deref() == Some(OUTSIDE) {
            ensure!(r.line != last_stray, "two stray records at line {}", r.line);
            last_stray = r.line;
            ensure!(
                r.cells.len() <= STRAY_KEPT && !r.cells.is_empty(),
                "stray record at line {} of {} bytes",
                r.line,
                r.cells.len()
            );
            ensure!(
                subsequence(&r.cells, line),
                "stray record at line {}: {:?} is not from the line",
                r.line,
                String::from_utf8_lossy(&r.cells)
            );
            let cells = line
                .iter()
                .filter(|b| b.is_ascii_digit() || **b == b'.')
                .count();
            ensure!(
                cells >= STRAY_CELLS,
                "stray record at line {} with {cells} cells",
                r.line
            );
        } else {
            // A board at its `[`; or a container's own cells or rows, beside its boards,
            // at the line of the first of them (a `[` or a scalar's end; its error the
            // first problem found in them, else BESIDE).
            ensure!(
                line.contains(&b'[')
                    || line
                        .iter()
                        .any(|&b| !b.is_ascii_whitespace() && b != b',' && b != b']'),
                "record at line {}, which holds neither a '[' nor a cell",
                r.line
            );
        }
    }
    // Without quotes the reader is never deeper in lists than a plain count of
    // brackets says (its repairs only close lists early): a line that count puts
    // outside the lists with a puzzle's worth of cells is data it must not skip.
    if !text.norm.iter().any(|&b| b == b'"' || b == b'\'') {
        let (lines, _) = outside_cells(text, |_| true);
        for (n, cells) in lines {
            if cells >= STRAY_CELLS {
                ensure!(
                    got.iter()
                        .any(|r| r.line == n as u64 && r.error.as_deref() == Some(OUTSIDE)),
                    "line {n} holds {cells} cells outside any list and is no record"
                );
            }
        }
    }
    Ok(())
}

/// Whether detection may call `text` board literals: some `[`, and no meaningful line
/// with a puzzle's worth of cells outside the brackets.
pub fn structure_throughout(text: &Text) -> bool {
    let (lines, brackets) = outside_cells(text, is_meaningful);
    brackets && lines.iter().all(|&(_, cells)| cells < STRAY_CELLS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stray_lines_must_be_records() {
        let text = Text::new(b"[[1]]\n123456789\n");
        let board = Rec {
            line: 1,
            cells: b"1".to_vec(),
            error: Some("board literal: 1 rows, expected 9".into()),
            ..Rec::default()
        };
        assert!(check(&text, std::slice::from_ref(&board)).is_err());
        let stray = Rec {
            line: 2,
            cells: b"123456789".to_vec(),
            error: Some(OUTSIDE.into()),
            ..Rec::default()
        };
        check(&text, &[board, stray]).unwrap();
        assert!(structure_throughout(&Text::new(
            b"Input: [[1]]\n# 123456789\n"
        )));
        assert!(!structure_throughout(&Text::new(b"[[1]] 123456789\n")));
    }
}
