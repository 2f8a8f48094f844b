//! `solve` rows, `verify` findings and `rate` rows as JSON Lines: one JSON object per row, one row
//! per line, fields in the order of the CSV columns.
//!
//! The types are what a dataframe reader should get without being told: text (file
//! names, puzzles, solutions, kept columns) is a JSON string, so that no reader takes an
//! 81-digit solution for a number; counts are JSON numbers; a missing solution or
//! error is `null`, not an empty string. Strings are escaped by `serde_json`; the
//! puzzle and solution of a valid record are digits and dots, written as they are.
//!
//! As with CSV, rows are gathered in a pending buffer and handed to the output whole,
//! so an interrupted run leaves whole lines only (and `--resume` can drop a torn last
//! line of a killed run).

use std::io::{self, Write};

use super::ratings::{tenths_float, RateRow, RateSink, RATE_COLUMNS};
use super::{FindingRow, FindingSink, Kept, SolveSink, BUFFER};
use crate::grid::{Grid, CELLS};
use crate::row::{SolveRow, SolvedRow, Status, SOLVE_COLUMNS};

/// Bytes of rows gathered before they are handed to the output.
const PENDING: usize = BUFFER;

/// Rows gathered for the output, and how a row is written into them.
struct Lines<W: Write> {
    out: W,
    pending: Vec<u8>,
}

impl<W: Write> Lines<W> {
    fn new(out: W) -> Self {
        Lines {
            out,
            pending: Vec::with_capacity(PENDING + 1024),
        }
    }

    /// `,"name":` (the first field: `{"name":`).
    fn key(&mut self, key: &[u8]) {
        self.pending.extend_from_slice(key);
    }

    fn text(&mut self, text: &str) {
        serde_json::to_writer(&mut self.pending, text).expect("writing into a Vec");
    }

    /// Text or `null` when empty.
    fn text_or_null(&mut self, text: &str) {
        if text.is_empty() {
            self.pending.extend_from_slice(b"null");
        } else {
            self.text(text);
        }
    }

    fn number(&mut self, n: u64) {
        serde_json::to_writer(&mut self.pending, &n).expect("writing into a Vec");
    }

    /// A grid's 81-character line, quoted: digits and dots never need escaping.
    fn grid(&mut self, grid: &Grid) {
        let mut line = [0u8; CELLS];
        grid.write_line(&mut line);
        self.pending.push(b'"');
        self.pending.extend_from_slice(&line);
        self.pending.push(b'"');
    }

    /// End a row; hand the rows over once [`PENDING`] bytes have gathered.
    fn end_row(&mut self) -> io::Result<()> {
        self.pending.extend_from_slice(b"}\n");
        if self.pending.len() >= PENDING {
            self.hand_over()?;
        }
        Ok(())
    }

    fn hand_over(&mut self) -> io::Result<()> {
        self.out.write_all(&self.pending)?;
        self.pending.clear();
        Ok(())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.hand_over()?;
        self.out.flush()
    }
}

/// The keys of `names` as written before their values: `{"first":`, then `,"next":`.
fn keys<'a>(names: impl IntoIterator<Item = &'a str>) -> Vec<Vec<u8>> {
    names
        .into_iter()
        .enumerate()
        .map(|(i, name)| {
            let mut key = vec![if i == 0 { b'{' } else { b',' }];
            serde_json::to_writer(&mut key, name).expect("writing into a Vec");
            key.push(b':');
            key
        })
        .collect()
}

/// Writes `solve` rows as JSON Lines: [`SOLVE_COLUMNS`], then the kept columns.
pub struct SolveJsonl<W: Write> {
    lines: Lines<W>,
    /// The keys of [`SOLVE_COLUMNS`] and then of the kept columns.
    keys: Vec<Vec<u8>>,
}

impl<W: Write> SolveJsonl<W> {
    /// A writer over `out`, with `keep` fields after the fixed ones (their names must
    /// differ from the fixed ones and each other: see [`super::solve_sink`]).
    pub fn new(out: W, keep: &[String]) -> SolveJsonl<W> {
        let names = SOLVE_COLUMNS
            .iter()
            .copied()
            .chain(keep.iter().map(String::as_str));
        SolveJsonl {
            lines: Lines::new(out),
            keys: keys(names),
        }
    }

    /// The fields after the puzzle, the same for both kinds of row.
    fn rest(
        &mut self,
        status: Status,
        counts: [u64; 4],
        solution: Option<&Grid>,
        solution_text: &str,
        error: &str,
        kept: Kept<'_>,
    ) -> io::Result<()> {
        let (lines, keys) = (&mut self.lines, &self.keys);
        lines.key(&keys[3]);
        lines.pending.push(b'"');
        lines.pending.extend_from_slice(status.as_str().as_bytes());
        lines.pending.push(b'"');
        for (key, n) in keys[4..8].iter().zip(counts) {
            lines.key(key);
            lines.number(n);
        }
        lines.key(&keys[8]);
        match solution {
            Some(grid) => lines.grid(grid),
            None => lines.text_or_null(solution_text),
        }
        lines.key(&keys[9]);
        lines.text_or_null(error);
        for (key, value) in keys[SOLVE_COLUMNS.len()..].iter().zip(kept.iter()) {
            lines.key(key);
            lines.text(value);
        }
        lines.end_row()
    }

    /// The output, once everything was flushed (for tests).
    #[cfg(test)]
    pub(crate) fn into_inner(self) -> W {
        self.lines.out
    }
}

impl<W: Write + Send> SolveSink for SolveJsonl<W> {
    fn write(&mut self, row: &SolveRow<'_>, kept: Kept<'_>) -> io::Result<()> {
        let (lines, keys) = (&mut self.lines, &self.keys);
        lines.key(&keys[0]);
        lines.text(&row.file);
        lines.key(&keys[1]);
        lines.number(row.line);
        lines.key(&keys[2]);
        lines.text(&row.puzzle);
        let counts = [row.solutions, row.clues, row.guesses, row.time_ns];
        self.rest(row.status, counts, None, &row.solution, &row.error, kept)
    }

    fn write_solved(&mut self, row: &SolvedRow<'_>, kept: Kept<'_>) -> io::Result<()> {
        let (lines, keys) = (&mut self.lines, &self.keys);
        lines.key(&keys[0]);
        lines.text(row.file);
        lines.key(&keys[1]);
        lines.number(row.line);
        lines.key(&keys[2]);
        lines.grid(row.puzzle);
        let counts = [
            row.solutions,
            row.puzzle.clues() as u64,
            row.guesses,
            row.time_ns,
        ];
        self.rest(row.status, counts, row.solution, "", "", kept)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.lines.flush()
    }
}

/// Writes `verify` findings as JSON Lines: [`super::findings::FINDING_COLUMNS`]
/// (`file` only when asked for); an empty detail is `null`.
pub struct FindingsJsonl<W: Write> {
    lines: Lines<W>,
    keys: Vec<Vec<u8>>,
    with_file: bool,
}

impl<W: Write> FindingsJsonl<W> {
    /// A writer over `out`; `with_file` writes the `file` field (several inputs).
    pub fn new(out: W, with_file: bool) -> FindingsJsonl<W> {
        let names = super::findings::columns(with_file);
        FindingsJsonl {
            lines: Lines::new(out),
            keys: keys(names.iter().copied()),
            with_file,
        }
    }
}

impl<W: Write + Send> FindingSink for FindingsJsonl<W> {
    fn write(&mut self, row: &FindingRow<'_>) -> io::Result<()> {
        let (lines, mut keys) = (&mut self.lines, self.keys.iter());
        let mut key = || keys.next().expect("a key per field");
        if self.with_file {
            lines.key(key());
            lines.text(row.file);
        }
        lines.key(key());
        lines.number(row.line);
        lines.key(key());
        lines.text(&String::from_utf8_lossy(row.puzzle));
        lines.key(key());
        lines.text(row.kind.as_str());
        lines.key(key());
        lines.text_or_null(row.detail);
        lines.end_row()
    }

    fn flush(&mut self) -> io::Result<()> {
        self.lines.flush()
    }
}

/// Writes `rate` rows as JSON Lines: [`RATE_COLUMNS`], then the kept columns; ratings
/// are numbers (`7.2`), and `null` where a row has none, as are an empty
/// `er_technique`, `steps` and `error`.
pub struct RateJsonl<W: Write> {
    lines: Lines<W>,
    keys: Vec<Vec<u8>>,
}

impl<W: Write> RateJsonl<W> {
    /// A writer over `out`, with `keep` fields after the fixed ones (their names must
    /// differ from the fixed ones and each other: see [`super::rate_sink`]).
    pub fn new(out: W, keep: &[String]) -> RateJsonl<W> {
        let names = RATE_COLUMNS
            .iter()
            .copied()
            .chain(keep.iter().map(String::as_str));
        RateJsonl {
            lines: Lines::new(out),
            keys: keys(names),
        }
    }
}

impl<W: Write + Send> RateSink for RateJsonl<W> {
    fn write(&mut self, row: &RateRow<'_>, kept: Kept<'_>) -> io::Result<()> {
        let (lines, keys) = (&mut self.lines, &self.keys);
        lines.key(&keys[0]);
        lines.text(row.file);
        lines.key(&keys[1]);
        lines.number(row.line);
        lines.key(&keys[2]);
        lines.text(row.puzzle);
        lines.key(&keys[3]);
        lines.text(row.status.as_str());
        let rating = row.rating;
        for (i, value) in [
            rating.map(|r| r.er),
            rating.map(|r| r.ep),
            rating.map(|r| r.ed),
        ]
        .into_iter()
        .enumerate()
        {
            lines.key(&keys[4 + i]);
            match value {
                // One decimal, as serate prints it: the shortest text of the float.
                Some(t) => serde_json::to_writer(&mut lines.pending, &tenths_float(t))
                    .expect("writing into a Vec"),
                None => lines.pending.extend_from_slice(b"null"),
            }
        }
        lines.key(&keys[7]);
        lines.text_or_null(rating.map_or("", |r| r.er_technique));
        lines.key(&keys[8]);
        match rating {
            Some(r) => lines.number(u64::from(r.step_count)),
            None => lines.pending.extend_from_slice(b"null"),
        }
        lines.key(&keys[9]);
        lines.number(row.time_ns);
        lines.key(&keys[10]);
        lines.text_or_null(row.error);
        for (key, value) in keys[RATE_COLUMNS.len()..].iter().zip(kept.iter()) {
            lines.key(key);
            lines.text(value);
        }
        lines.end_row()
    }

    fn flush(&mut self) -> io::Result<()> {
        self.lines.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    const PUZZLE: &str =
        "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";

    fn parse(bytes: &[u8]) -> Vec<Value> {
        let text = std::str::from_utf8(bytes).unwrap();
        assert!(text.ends_with('\n'));
        text.lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }

    #[test]
    fn rows_are_typed_objects_in_column_order_with_nulls() {
        let puzzle: Grid = PUZZLE.parse().unwrap();
        let solution = crate::solve(&puzzle, 1).first.unwrap();
        let keep = ["id".to_string(), "note".to_string()];
        let mut w = SolveJsonl::new(Vec::new(), &keep);
        let fields = ["7".to_string(), "a \"quoted\", \u{e9}\n".to_string()];
        let kept = Kept::new(&fields, &[0, 1]);
        let solved = SolvedRow {
            file: "dir/a \"b\".txt",
            line: 3,
            puzzle: &puzzle,
            status: Status::Unique,
            solutions: 1,
            guesses: 12,
            time_ns: u64::MAX,
            solution: Some(&solution),
        };
        w.write_solved(&solved, kept).unwrap();
        // The slow path writes the same bytes.
        w.write(&solved.to_row(), kept).unwrap();
        let invalid = SolveRow {
            file: "x".into(),
            line: 9,
            puzzle: "12\u{fffd}".into(),
            status: Status::Invalid,
            solutions: 0,
            clues: 0,
            guesses: 0,
            time_ns: 0,
            solution: "".into(),
            error: "3 cells, expected 81".into(),
        };
        w.write(&invalid, Kept::new(&[], &[0, 1])).unwrap();
        w.flush().unwrap();
        let bytes = w.into_inner();
        let text = String::from_utf8(bytes.clone()).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], lines[1]);
        let rows = parse(&bytes);
        assert_eq!(
            rows[0],
            json!({
                "file": "dir/a \"b\".txt", "line": 3, "puzzle": PUZZLE, "status": "unique",
                "solutions": 1, "clues": 21, "guesses": 12, "time_ns": u64::MAX,
                "solution": solution.to_line(), "error": null,
                "id": "7", "note": "a \"quoted\", \u{e9}\n"
            })
        );
        // Fields in column order.
        let names: Vec<&String> = rows[0].as_object().unwrap().keys().collect();
        assert_eq!(names.len(), 12);
        assert!(lines[0].starts_with("{\"file\":") && lines[0].contains("\"error\":null,\"id\":"));
        assert_eq!(
            rows[2],
            json!({
                "file": "x", "line": 9, "puzzle": "12\u{fffd}", "status": "invalid",
                "solutions": 0, "clues": 0, "guesses": 0, "time_ns": 0,
                "solution": null, "error": "3 cells, expected 81", "id": "", "note": ""
            })
        );
    }

    #[test]
    fn findings_with_and_without_the_file() {
        for with_file in [false, true] {
            let mut w = FindingsJsonl::new(Vec::new(), with_file);
            let row = FindingRow {
                file: "a.txt",
                line: 4,
                puzzle: b"1\xff2",
                kind: crate::verify::Kind::Malformed,
                detail: "3 cells, expected 81",
            };
            w.write(&row).unwrap();
            w.write(&FindingRow {
                kind: crate::verify::Kind::Ok,
                detail: "",
                ..row
            })
            .unwrap();
            w.finish().unwrap();
            let rows = parse(&w.lines.out);
            let mut first = json!({
                "line": 4, "puzzle": "1\u{fffd}2", "kind": "malformed",
                "detail": "3 cells, expected 81"
            });
            if with_file {
                first["file"] = json!("a.txt");
            }
            assert_eq!(rows[0], first);
            assert_eq!(rows[1]["detail"], Value::Null);
            assert_eq!(rows[1]["kind"], "ok");
        }
    }

    #[test]
    fn rate_rows_are_typed_with_nulls_where_there_is_no_rating() {
        let rating = crate::output::ratings::tests::rating();
        let rows = crate::output::ratings::tests::rows(&rating);
        let mut w = RateJsonl::new(Vec::new(), &["id".to_string()]);
        let fields = ["7".to_string()];
        for row in &rows {
            w.write(row, Kept::new(&fields, &[0])).unwrap();
        }
        w.flush().unwrap();
        let text = String::from_utf8(w.lines.out.clone()).unwrap();
        assert!(text
            .lines()
            .next()
            .unwrap()
            .contains("\"er\":7.2,\"ep\":1.2,\"ed\":0.9,"));
        let rows = parse(&w.lines.out);
        assert_eq!(
            rows[0],
            json!({
                "file": "a, b.txt", "line": 3, "puzzle": PUZZLE, "status": "unique",
                "er": 7.2, "ep": 1.2, "ed": 0.9,
                "er_technique": "Forcing Chain, with \"quotes\"", "steps": 57,
                "time_ns": 1234, "error": null, "id": "7"
            })
        );
        let names: Vec<&String> = rows[0].as_object().unwrap().keys().collect();
        assert_eq!(names.len(), RATE_COLUMNS.len() + 1);
        for (row, status) in [(&rows[1], "unique"), (&rows[2], "invalid")] {
            assert_eq!(row["status"], status);
            for column in ["er", "ep", "ed", "er_technique", "steps"] {
                assert_eq!(row[column], Value::Null, "{column}");
            }
            assert!(row["error"].is_string());
        }
        // And back through the reader of `rate` rows.
        let back: crate::output::ratings::RatedRecord =
            serde_json::from_str(text.lines().next().unwrap()).unwrap();
        assert_eq!(back.tenths(), Some([72, 12, 9]));
    }
}
