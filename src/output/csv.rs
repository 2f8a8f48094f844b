//! `solve` rows as CSV: [`crate::row::SOLVE_COLUMNS`], then the kept columns.
//!
//! Rows are built straight into a pending buffer ([`RowBytes`], written in place) and
//! handed to the output once 256 KiB have gathered: handing each row over on its own
//! would copy it a second time (into the `BufWriter`) and cost a `write_all` call per
//! row. At the sink's buffer size, a
//! hand-over goes past its buffer straight to the file (a `BufWriter` does not copy
//! writes at least as large as its capacity), so the rows are not copied again at all.

use std::io::{self, Write};

use super::{Kept, SolveSink, BUFFER};
use crate::row::{push_field, RowBytes, SolveRow, SolvedRow, SOLVE_COLUMNS};

/// Bytes of CSV rows gathered before they are handed to the output.
const PENDING: usize = BUFFER;

/// Writes `solve` rows as CSV.
pub struct SolveCsv<W: Write> {
    /// The (buffered) output.
    out: W,
    /// Rows written but not yet handed to `out`.
    pending: RowBytes,
    /// The file name of the last [`SolvedRow`] and its `file` field as written (quoted
    /// if need be), made once per input rather than once per row.
    file: (String, Vec<u8>),
}

impl<W: Write> SolveCsv<W> {
    /// A writer over `out`; the header row (unless not `header`) is gathered at once
    /// (and handed to `out` with the rows), with `keep` column names after the fixed
    /// ones.
    pub fn new(out: W, keep: &[String], header: bool) -> SolveCsv<W> {
        let mut pending = RowBytes::with_capacity(PENDING + 512);
        if header {
            write_header(&mut pending, keep);
        }
        SolveCsv {
            out,
            pending,
            file: Default::default(),
        }
    }

    /// Hand `pending` over to `out` once it holds [`PENDING`] bytes or more. Only whole
    /// rows are ever pending, so the output always ends on a whole row.
    #[inline]
    fn hand_over_full(&mut self) -> io::Result<()> {
        if self.pending.len() >= PENDING {
            self.out.write_all(self.pending.as_slice())?;
            self.pending.clear();
        }
        Ok(())
    }

    /// The output, once everything was flushed (for tests).
    #[cfg(test)]
    pub(crate) fn into_inner(self) -> W {
        self.out
    }
}

/// The header row: [`SOLVE_COLUMNS`], then the `keep` names.
fn write_header(out: &mut RowBytes, keep: &[String]) {
    let names = SOLVE_COLUMNS
        .iter()
        .copied()
        .chain(keep.iter().map(String::as_str));
    for (i, name) in names.enumerate() {
        if i > 0 {
            out.extend_from_slice(b",");
        }
        out.push_field(name.as_bytes());
    }
    out.extend_from_slice(b"\n");
}

impl<W: Write + Send> SolveSink for SolveCsv<W> {
    fn write(&mut self, row: &SolveRow<'_>, kept: Kept<'_>) -> io::Result<()> {
        row.write_csv_rows(&mut self.pending, kept.iter());
        self.hand_over_full()
    }

    fn write_solved(&mut self, row: &SolvedRow<'_>, kept: Kept<'_>) -> io::Result<()> {
        let (name, field) = &mut self.file;
        if row.file != name.as_str() {
            name.clear();
            name.push_str(row.file);
            field.clear();
            push_field(field, row.file.as_bytes());
        }
        if kept.is_empty() {
            // No kept columns (the common case): no iterator to walk for each row.
            row.write_csv_with_file(&mut self.pending, field, std::iter::empty::<&str>());
        } else {
            row.write_csv_with_file(&mut self.pending, field, kept.iter());
        }
        self.hand_over_full()
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.write_all(self.pending.as_slice())?;
        self.pending.clear();
        self.out.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::row::Status;

    const PUZZLE: &str =
        "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";

    #[test]
    fn header_then_rows_with_kept_columns() {
        let mut w = SolveCsv::new(Vec::new(), &["id".to_string()], true);
        let row = SolveRow {
            file: "x.txt".into(),
            line: 3,
            puzzle: PUZZLE.into(),
            status: Status::Unsolvable,
            solutions: 1,
            clues: 21,
            guesses: 5,
            time_ns: 12_345,
            solution: "".into(),
            error: "".into(),
        };
        let fields = ["a".to_string(), "7".to_string()];
        w.write(&row, Kept::new(&fields, &[1])).unwrap();
        w.flush().unwrap();
        let text = String::from_utf8(w.into_inner()).unwrap();
        let mut lines = text.lines();
        assert_eq!(
            lines.next(),
            Some("file,line,puzzle,status,solutions,clues,guesses,time_ns,solution,error,id")
        );
        assert_eq!(
            lines.next(),
            Some(format!("x.txt,3,{PUZZLE},unsolvable,1,21,5,12345,,,7").as_str())
        );
        assert_eq!(lines.next(), None);

        let mut w = SolveCsv::new(Vec::new(), &[], false);
        w.write(&row, Kept::default()).unwrap();
        w.flush().unwrap();
        let text = String::from_utf8(w.into_inner()).unwrap();
        assert!(
            text.starts_with("x.txt,3,") && text.lines().count() == 1,
            "{text}"
        );
    }
}
