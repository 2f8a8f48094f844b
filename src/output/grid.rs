//! `solve` rows as pictures for the terminal: per record a header line (`file:line
//! status solutions=… clues=… guesses=… time=…`), then the puzzle and its solution as
//! boxed 9×9 grids side by side, then a blank line. An invalid record shows its reason
//! and its text as found, with control characters escaped so that a damaged file cannot
//! drive the terminal.

use std::fmt::Write as _;
use std::io::{self, Write};

use super::{Kept, SolveSink};
use crate::grid::{Grid, CELLS};
use crate::row::SolveRow;
use crate::rules::{record_rules, RuleSet, Variants};
use crate::units::duration;

/// Writes `solve` rows as boxed grids.
pub struct SolveGrid<W: Write> {
    out: W,
}

impl<W: Write> SolveGrid<W> {
    /// A writer over `out`.
    pub fn new(out: W) -> SolveGrid<W> {
        SolveGrid { out }
    }

    /// The output (for tests).
    #[cfg(test)]
    pub(crate) fn into_inner(self) -> W {
        self.out
    }
}

impl<W: Write + Send> SolveSink for SolveGrid<W> {
    fn write(&mut self, row: &SolveRow<'_>, kept: Kept<'_>) -> io::Result<()> {
        // One record's picture is built whole and written at once, so that an
        // interrupted run never ends inside a picture.
        let text = picture(row, kept.variant());
        self.out.write_all(text.as_bytes())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// The picture of one row; `variant` its rules and regions, when the run has them:
/// then its grids show the regions' borders and mark diagonal and window cells.
fn picture(row: &SolveRow<'_>, variant: Option<(&str, &str)>) -> String {
    let mut s = String::with_capacity(1024);
    let _ = write!(
        s,
        "{}:{}  {}",
        escape_controls(&row.file),
        row.line,
        row.status
    );
    let table = variant.and_then(|(rules, regions)| {
        let rules = record_rules(rules.as_bytes(), regions.as_bytes(), RuleSet::CLASSIC).ok()?;
        (!rules.is_classic()).then(|| Variants::default().get(&rules).clone())
    });
    if let Some(table) = &table {
        let _ = write!(s, "  rules={}", table.rules());
    }
    let boxed = |g: &Grid| match &table {
        Some(table) => table.to_boxed(g),
        None => g.to_boxed(),
    };
    if !row.error.is_empty() {
        let _ = writeln!(s, "  {}", escape_controls(&row.error));
        let _ = writeln!(s, "  {}", escape_controls(&row.puzzle));
        s.push('\n');
        return s;
    }
    let _ = writeln!(
        s,
        "  solutions={} clues={} guesses={} time={}",
        row.solutions,
        row.clues,
        row.guesses,
        duration(row.time_ns as f64)
    );
    match (line_grid(&row.puzzle), line_grid(&row.solution)) {
        (Some(p), Some(sol)) => {
            let (p, sol) = (boxed(&p), boxed(&sol));
            for (a, b) in p.lines().zip(sol.lines()) {
                // A legend under the grids is said once.
                if a.starts_with(['+', '|']) {
                    let _ = writeln!(s, "{a}   {b}");
                } else {
                    let _ = writeln!(s, "{a}");
                }
            }
        }
        (Some(p), None) => s.push_str(&boxed(&p)),
        _ => {
            let _ = writeln!(s, "  {}", escape_controls(&row.puzzle));
        }
    }
    s.push('\n');
    s
}

/// The grid of an 81-character line, if it is one.
fn line_grid(line: &str) -> Option<Grid> {
    (line.len() == CELLS)
        .then(|| Grid::parse(line.as_bytes()).ok())
        .flatten()
}

/// `text` with every control character (and DEL) written as an escape (`\u{1b}`,
/// `\r`, `\t`, ...), so that it prints as one inert line.
pub fn escape_controls(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(char::is_control) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::row::Status;

    const PUZZLE: &str =
        "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";

    fn row(puzzle: &str, solution: &str, status: Status, error: &str) -> SolveRow<'static> {
        SolveRow {
            file: "x.txt".into(),
            line: 3,
            puzzle: puzzle.to_string().into(),
            status,
            solutions: 1,
            clues: 21,
            guesses: 5,
            time_ns: 12_345,
            solution: solution.to_string().into(),
            error: error.to_string().into(),
        }
    }

    #[test]
    fn puzzle_and_solution_side_by_side() {
        let solution = crate::solve(&PUZZLE.parse().unwrap(), 1)
            .first
            .unwrap()
            .to_line();
        let mut w = SolveGrid::new(Vec::new());
        w.write(&row(PUZZLE, &solution, Status::Unique, ""), Kept::default())
            .unwrap();
        w.write(
            &row("12x", "", Status::Invalid, "3 cells, expected 81"),
            Kept::default(),
        )
        .unwrap();
        let text = String::from_utf8(w.into_inner()).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[0],
            "x.txt:3  unique  solutions=1 clues=21 guesses=5 time=12.3 µs"
        );
        assert_eq!(
            lines[1],
            "+-------+-------+-------+   +-------+-------+-------+"
        );
        assert_eq!(
            lines[2],
            "| 8 . . | . . . | . . . |   | 8 1 2 | 7 5 3 | 6 4 9 |"
        );
        assert_eq!(lines[14], "");
        assert_eq!(lines[15], "x.txt:3  invalid  3 cells, expected 81");
        assert_eq!(lines[16], "  12x");
    }

    #[test]
    fn control_characters_of_invalid_records_are_escaped() {
        let mut w = SolveGrid::new(Vec::new());
        let raw = "\u{1b}[2J12\r3\u{7}";
        w.write(
            &row(
                raw,
                "",
                Status::Invalid,
                "bad character '\\u{1b}' at cell 1",
            ),
            Kept::default(),
        )
        .unwrap();
        let text = String::from_utf8(w.into_inner()).unwrap();
        assert!(!text.contains('\u{1b}') && !text.contains('\r') && !text.contains('\u{7}'));
        assert!(text.contains(r"\u{1b}[2J12\r3\u{7}"), "{text}");
    }
}
