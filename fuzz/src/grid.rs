//! The grid-block format (9 lines of 9 cells, an optional case count first). The check
//! assigns every meaningful line to the record whose span holds it (the last record
//! starting at or before it) and then demands of each record what the format says: a
//! block is 1 to 9 consecutive rows (comments may sit between them, a blank line may
//! not), holds exactly their cells, ends early only at a blank line, a line that is
//! not a row or the end, and carries the error its shape calls for; a line that is not
//! a row is a record of its own. Nothing else may be left over but the case count.

use bulkdoku::input::MAX_RECORD;

use crate::lines::is_record_line;
use crate::text::{is_cell, is_meaningful, Text};
use crate::{ensure, Rec};

/// Error of a line that is not a grid row.
pub const NOT_A_ROW: &str = "not a grid row: expected 9 cells";

/// A case count: a short decimal number (shorter than a row, no leading zero).
pub fn is_count(t: &[u8]) -> bool {
    !t.is_empty()
        && t.len() < 9
        && t.iter().all(u8::is_ascii_digit)
        && (t.len() == 1 || t[0] != b'0')
}

/// Cells and blanks only: a row, if perhaps a ragged one.
pub fn is_row_like(t: &[u8]) -> bool {
    t.iter().all(|&b| b.is_ascii_whitespace() || is_cell(b))
}

/// Exactly nine cells, blanks between them allowed: what detection calls a grid row.
pub fn is_grid_row(t: &[u8]) -> bool {
    is_row_like(t) && t.iter().filter(|&&b| is_cell(b)).count() == 9
}

/// Records come in strictly increasing line order, each on a line of the input.
pub fn ordered(text: &Text, got: &[Rec], strictly: bool) -> Result<(), String> {
    let mut last = 0;
    for r in got {
        ensure!(
            r.line >= 1 && r.line <= text.len() as u64,
            "record at line {} of {}",
            r.line,
            text.len()
        );
        ensure!(
            r.line > last || (!strictly && r.line == last),
            "record at line {} after one at line {last}",
            r.line
        );
        last = r.line;
    }
    Ok(())
}

pub fn check(text: &Text, got: &[Rec]) -> Result<(), String> {
    ordered(text, got, true)?;
    // A line as the reader keeps it: at most MAX_RECORD bytes, trimmed.
    let seen = |n: usize| {
        let l = text.line(n);
        l[..l.len().min(MAX_RECORD)].trim_ascii()
    };
    // A line longer than that is no row, whatever it holds: unless a comment, it is a
    // record of its own, without cells.
    let long = |n: usize| text.line(n).len() > MAX_RECORD;
    let meaningful: Vec<usize> = (1..=text.len())
        .filter(|&n| is_record_line(text.line(n)))
        .collect();
    let count_line = meaningful
        .first()
        .copied()
        .filter(|&n| !long(n) && is_count(seen(n)));
    let mut members: Vec<Vec<usize>> = vec![Vec::new(); got.len()];
    for &n in &meaningful {
        if Some(n) == count_line {
            ensure!(
                got.iter().all(|r| r.line != n as u64),
                "the case count on line {n} is a record"
            );
            continue;
        }
        let r = got.partition_point(|r| r.line <= n as u64);
        ensure!(r > 0, "line {n} comes before any record");
        members[r - 1].push(n);
    }
    for (r, m) in got.iter().zip(&members) {
        ensure!(
            m.first() == Some(&(r.line as usize)),
            "record at line {} does not start at a meaningful line",
            r.line
        );
        ensure!(
            r.fields.is_empty() && r.rules.is_empty() && r.regions.is_empty(),
            "line {}: fields, rules or regions",
            r.line
        );
        if r.error.as_deref() == Some(NOT_A_ROW) {
            let n = m[0];
            ensure!(
                m.len() == 1,
                "line {n}: a lone line holds {} lines",
                m.len()
            );
            if long(n) {
                ensure!(r.cells.is_empty(), "line {n}: a line too long has cells");
                continue;
            }
            ensure!(!is_row_like(seen(n)), "line {n}: a row called not a row");
            ensure!(r.cells == seen(n), "line {n}: cells are not the line");
            continue;
        }
        ensure!(
            m.iter().all(|&n| !long(n)),
            "block at line {} holds a line longer than {MAX_RECORD} bytes",
            r.line
        );
        ensure!(m.len() <= 9, "block at line {} of {} rows", r.line, m.len());
        let last = *m.last().unwrap();
        for n in m[0]..=last {
            ensure!(
                !text.line(n).trim_ascii().is_empty(),
                "block at line {} runs over the blank line {n}",
                r.line
            );
        }
        let mut cells = Vec::new();
        let mut ragged = None;
        for (i, &n) in m.iter().enumerate() {
            let t = seen(n);
            ensure!(
                is_row_like(t),
                "block at line {}: line {n} is no row",
                r.line
            );
            let width = t.iter().filter(|b| !b.is_ascii_whitespace()).count();
            cells.extend(t.iter().filter(|b| !b.is_ascii_whitespace()));
            if width != 9 && ragged.is_none() {
                ragged = Some((i + 1, width));
            }
        }
        ensure!(
            r.cells == cells,
            "block at line {}: cells {:?}, expected {:?}",
            r.line,
            String::from_utf8_lossy(&r.cells),
            String::from_utf8_lossy(&cells)
        );
        ensure!(r.cells.len() <= 9 * MAX_RECORD, "block too long");
        let want = if m.len() < 9 {
            // A short block ends at a blank line, a line that is no row, or the end.
            let next = (last + 1..=text.len()).find(|&n| seen(n).first() != Some(&b'#'));
            if let Some(n) = next {
                let t = seen(n);
                ensure!(
                    long(n) || t.is_empty() || !is_row_like(t),
                    "block at line {} ends after {} rows before row line {n}",
                    r.line,
                    m.len()
                );
            }
            Some(format!("grid block: {} rows, expected 9", m.len()))
        } else {
            ragged
                .map(|(row, width)| format!("grid block: row {row} has {width} cells, expected 9"))
        };
        ensure!(
            r.error == want,
            "block at line {}: error {:?}, expected {want:?}",
            r.line,
            r.error
        );
    }
    Ok(())
}

/// Whether detection may call `text` grid blocks: every meaningful line is a 9-cell
/// row, but for a case count first.
pub fn structure_throughout(text: &Text) -> bool {
    let mut rows: Vec<&[u8]> = text
        .lines()
        .filter(|(_, l)| is_meaningful(l))
        .map(|(_, l)| l.trim_ascii())
        .collect();
    if rows.first().is_some_and(|l| is_count(l)) {
        rows.remove(0);
    }
    !rows.is_empty() && rows.iter().all(|l| is_grid_row(l))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(line: u64, cells: &str, error: Option<&str>) -> Rec {
        Rec {
            line,
            cells: cells.as_bytes().to_vec(),
            error: error.map(String::from),
            ..Rec::default()
        }
    }

    #[test]
    fn blocks_counts_and_lone_lines() {
        let text = Text::new(b"2\n123456789\n#c\n1 2 3\n\nnote\n");
        let got = [
            rec(2, "123456789123", Some("grid block: 2 rows, expected 9")),
            rec(6, "note", Some(NOT_A_ROW)),
        ];
        check(&text, &got).unwrap();
        // A block that stops before a row is wrong.
        let text = Text::new(b"123\n456\n");
        let got = [
            rec(1, "123", Some("grid block: 1 rows, expected 9")),
            rec(2, "456", Some("grid block: 1 rows, expected 9")),
        ];
        assert!(check(&text, &got).is_err());
        assert!(structure_throughout(&Text::new(b"1\n123456789\n")));
        assert!(!structure_throughout(&Text::new(b"1\n")));
    }
}
