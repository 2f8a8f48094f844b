//! The output row schemas, in one place: column names, the row types (serde), and how a
//! row is written into a CSV writer without allocating.
//!
//! `solve` writes one [`SolveRow`] per input record (per solution with
//! `--all-solutions`), followed by any `--keep` columns copied from the input. Other
//! tools (e.g. `report`) read these rows back with the same type.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

/// The columns of `bulkdoku solve` output, in order (before any `--keep` columns).
pub const SOLVE_COLUMNS: [&str; 10] = [
    "file",
    "line",
    "puzzle",
    "status",
    "solutions",
    "clues",
    "guesses",
    "time_ns",
    "solution",
    "error",
];

/// The verdict on one record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Exactly one solution (uniqueness checked).
    Unique,
    /// Two or more solutions.
    Multiple,
    /// A solution was found; uniqueness not checked (`--first`).
    Solved,
    /// No solution.
    Unsolvable,
    /// The record is not a valid puzzle (see the `error` column).
    Invalid,
}

impl Status {
    /// Every status, in the order summaries list them.
    pub const ALL: [Status; 5] = [
        Status::Unique,
        Status::Multiple,
        Status::Solved,
        Status::Unsolvable,
        Status::Invalid,
    ];

    /// The name written in the `status` column.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Unique => "unique",
            Status::Multiple => "multiple",
            Status::Solved => "solved",
            Status::Unsolvable => "unsolvable",
            Status::Invalid => "invalid",
        }
    }

    /// The status named `text`, as written in the `status` column.
    pub fn parse(text: &str) -> Option<Status> {
        Status::ALL.into_iter().find(|s| s.as_str() == text)
    }

    /// True when the search found at least one solution.
    pub fn has_solution(self) -> bool {
        matches!(self, Status::Unique | Status::Multiple | Status::Solved)
    }

    /// The status of a search that found `solutions` solutions; `first_only` when the
    /// search stopped at the first one (so uniqueness is unknown).
    pub fn from_count(solutions: u64, first_only: bool) -> Status {
        match (solutions, first_only) {
            (0, _) => Status::Unsolvable,
            (_, true) => Status::Solved,
            (1, false) => Status::Unique,
            _ => Status::Multiple,
        }
    }
}

impl std::fmt::Display for Status {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One row of `bulkdoku solve` output (columns [`SOLVE_COLUMNS`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SolveRow<'a> {
    /// The input's display name (`-` for standard input).
    #[serde(borrow)]
    pub file: Cow<'a, str>,
    /// 1-based line where the record starts in its file.
    pub line: u64,
    /// The puzzle, normalised to 81 characters with `.` blanks; for an invalid record,
    /// the text as found.
    #[serde(borrow)]
    pub puzzle: Cow<'a, str>,
    /// The verdict.
    pub status: Status,
    /// Solutions found, capped at the limit.
    pub solutions: u64,
    /// Givens in the puzzle (0 for an invalid record).
    pub clues: u64,
    /// Branch decisions the solver made.
    pub guesses: u64,
    /// Time spent in the solver for this puzzle, in nanoseconds.
    pub time_ns: u64,
    /// 81 digits, or empty when there is no solution.
    #[serde(borrow)]
    pub solution: Cow<'a, str>,
    /// Why the record is invalid; empty otherwise.
    #[serde(borrow)]
    pub error: Cow<'a, str>,
}

impl SolveRow<'_> {
    /// Write this row's fields, then `extra` fields (the `--keep` columns), and end the
    /// record. Numbers are formatted on the stack: no allocation per row.
    /// Append this row as one CSV line (fields quoted only where CSV needs it), then
    /// the `extra` fields. The hot path of `solve`'s output: numbers, the status and
    /// normalised grids never need quoting and are copied as they are; only free text
    /// (file names, an invalid record's raw text, error messages, kept columns) is
    /// checked.
    pub fn write_csv<S: AsRef<[u8]>>(&self, out: &mut Vec<u8>, extra: impl IntoIterator<Item = S>) {
        let mut num = NumBuf::default();
        push_field(out, self.file.as_bytes());
        out.push(b',');
        out.extend_from_slice(num.format(self.line));
        out.push(b',');
        if self.status == Status::Invalid {
            push_field(out, self.puzzle.as_bytes());
        } else {
            out.extend_from_slice(self.puzzle.as_bytes());
        }
        out.push(b',');
        out.extend_from_slice(self.status.as_str().as_bytes());
        for n in [self.solutions, self.clues, self.guesses, self.time_ns] {
            out.push(b',');
            out.extend_from_slice(num.format(n));
        }
        out.push(b',');
        out.extend_from_slice(self.solution.as_bytes());
        out.push(b',');
        push_field(out, self.error.as_bytes());
        for field in extra {
            out.push(b',');
            push_field(out, field.as_ref());
        }
        out.push(b'\n');
    }
}

/// Append one CSV field, quoted (with inner quotes doubled) when it holds a comma, a
/// quote or a line break, as the csv crate does by default.
pub fn push_field(out: &mut Vec<u8>, field: &[u8]) {
    if field
        .iter()
        .any(|&b| matches!(b, b',' | b'"' | b'\n' | b'\r'))
    {
        out.push(b'"');
        for &b in field {
            if b == b'"' {
                out.push(b'"');
            }
            out.push(b);
        }
        out.push(b'"');
    } else {
        out.extend_from_slice(field);
    }
}

/// A stack buffer for formatting integers.
#[derive(Default)]
struct NumBuf {
    buf: [u8; 20],
}

impl NumBuf {
    fn format(&mut self, mut v: u64) -> &[u8] {
        let mut i = self.buf.len();
        loop {
            i -= 1;
            self.buf[i] = b'0' + (v % 10) as u8;
            v /= 10;
            if v == 0 {
                return &self.buf[i..];
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row() -> SolveRow<'static> {
        SolveRow {
            file: "a, b.txt".into(),
            line: 18_446_744_073_709_551_615,
            puzzle: "1.3".into(),
            status: Status::Invalid,
            solutions: 0,
            clues: 10,
            guesses: 1234,
            time_ns: 0,
            solution: "".into(),
            error: "3 cells, expected 81".into(),
        }
    }

    #[test]
    fn hand_written_rows_match_serde_and_the_column_list() {
        let mut by_serde = csv::Writer::from_writer(Vec::new());
        by_serde.serialize(row()).unwrap();
        let by_serde = String::from_utf8(by_serde.into_inner().unwrap()).unwrap();

        let mut by_hand = format!("{}\n", SOLVE_COLUMNS.join(",")).into_bytes();
        row().write_csv(&mut by_hand, None::<&str>);
        let by_hand = String::from_utf8(by_hand).unwrap();
        assert_eq!(by_hand, by_serde);
        assert!(by_hand.contains("\"a, b.txt\",18446744073709551615,1.3,invalid,0,10,1234,0,,"));
    }

    #[test]
    fn rows_read_back() {
        let mut text = format!("{},id\n", SOLVE_COLUMNS.join(",")).into_bytes();
        row().write_csv(&mut text, ["x7"]);
        // Free text with quotes, commas and line breaks survives the round trip.
        let awkward = SolveRow {
            puzzle: "\"1,\n2\"".into(),
            error: "bad character '\"' at cell 1, \r\nand more".into(),
            ..row()
        };
        awkward.write_csv(&mut text, ["say \"hi\", twice"]);
        let mut rdr = csv::Reader::from_reader(text.as_slice());
        let headers = rdr.headers().unwrap().clone();
        let mut records = rdr.records();
        let rec = records.next().unwrap().unwrap();
        assert_eq!(&rec[10], "x7");
        let back: SolveRow = rec.deserialize(Some(&headers)).unwrap();
        assert_eq!(back, row());
        let rec = records.next().unwrap().unwrap();
        assert_eq!(&rec[10], "say \"hi\", twice");
        let back: SolveRow = rec.deserialize(Some(&headers)).unwrap();
        assert_eq!(back, awkward);
        assert!(records.next().is_none());
    }

    #[test]
    fn statuses_from_counts() {
        assert_eq!(Status::from_count(0, false), Status::Unsolvable);
        assert_eq!(Status::from_count(1, false), Status::Unique);
        assert_eq!(Status::from_count(2, false), Status::Multiple);
        assert_eq!(Status::from_count(0, true), Status::Unsolvable);
        assert_eq!(Status::from_count(1, true), Status::Solved);
        for s in Status::ALL {
            assert_eq!(serde_json::to_string(&s).unwrap(), format!("\"{s}\""));
        }
    }
}
