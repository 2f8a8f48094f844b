//! Where results go and in what shape: a buffered sink over a file or standard output,
//! and the row writers (`csv`, or boxed 9×9 `grid` pictures for reading on a terminal).
//!
//! The sink is `Send` because the pipeline drains batches on whichever worker is free:
//! standard output is therefore taken through `io::Stdout` behind a large buffer (its
//! lock is held for one buffer flush at a time) rather than a `StdoutLock`, which may not
//! cross threads.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::Path;

use anyhow::Context;
use clap::ValueEnum;

use crate::grid::{Grid, CELLS};
use crate::record::{push_field, SolveRow, SolvedRow, SOLVE_COLUMNS};

/// Buffer size of the output sink: large enough that a flush is rare.
const BUFFER: usize = 256 * 1024;

/// A buffered byte sink: a file, or standard output.
pub type Sink = BufWriter<Box<dyn Write + Send>>;

/// Open the output: `path`, or standard output when `None` or `-`.
pub fn open(path: Option<&Path>) -> anyhow::Result<Sink> {
    let inner: Box<dyn Write + Send> = match path {
        Some(p) if p.as_os_str() != "-" => {
            Box::new(File::create(p).with_context(|| format!("cannot create {}", p.display()))?)
        }
        _ => Box::new(io::stdout()),
    };
    Ok(BufWriter::with_capacity(BUFFER, inner))
}

/// Output formats of `solve`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, ValueEnum)]
pub enum OutputFormat {
    /// CSV with a header row, one row per record.
    #[default]
    Csv,
    /// Puzzle and solution as boxed 9×9 grids side by side, a header line per record.
    Grid,
}

/// Writes `solve` rows in the chosen format.
pub enum SolveWriter<W: Write> {
    /// CSV rows ([`SOLVE_COLUMNS`] then the `--keep` columns), built straight into
    /// `pending` and handed to `out` once 256 KiB have gathered (and on
    /// [`SolveWriter::flush`]).
    Csv {
        /// The (buffered) sink.
        out: W,
        /// Rows written but not yet handed to `out`.
        pending: Vec<u8>,
        /// The file name of the last [`SolvedRow`] and its `file` field as written
        /// (quoted if need be), made once per input rather than once per row.
        file: (String, Vec<u8>),
    },
    /// Boxed grids.
    Grid(W),
}

impl<W: Write> SolveWriter<W> {
    /// A writer over `out`; for CSV the header row is written at once (gathered with
    /// the rows, like them handed to `out` by [`Self::flush`] at the latest), with
    /// `keep` column names after the fixed ones.
    pub fn new(format: OutputFormat, out: W, keep: &[String]) -> io::Result<SolveWriter<W>> {
        Ok(match format {
            OutputFormat::Csv => {
                let mut row = Vec::with_capacity(PENDING + 512);
                let names = SOLVE_COLUMNS
                    .iter()
                    .copied()
                    .chain(keep.iter().map(|k| k.as_str()));
                for (i, name) in names.enumerate() {
                    if i > 0 {
                        row.push(b',');
                    }
                    push_field(&mut row, name.as_bytes());
                }
                row.push(b'\n');
                SolveWriter::Csv {
                    out,
                    pending: row,
                    file: Default::default(),
                }
            }
            OutputFormat::Grid => SolveWriter::Grid(out),
        })
    }

    /// Write one row; `keep` are the copied-through field values (CSV only).
    pub fn write<S: AsRef<[u8]>>(
        &mut self,
        row: &SolveRow<'_>,
        keep: impl IntoIterator<Item = S>,
    ) -> io::Result<()> {
        match self {
            SolveWriter::Csv { out, pending, .. } => {
                row.write_csv(pending, keep);
                hand_over_full(out, pending)
            }
            SolveWriter::Grid(out) => write_grid_row(out, row),
        }
    }

    /// Write the row of a valid puzzle, its grids rendered straight into the CSV line
    /// (the same output as [`Self::write`] with [`SolvedRow::to_row`]).
    pub fn write_solved<S: AsRef<[u8]>>(
        &mut self,
        row: &SolvedRow<'_>,
        keep: impl IntoIterator<Item = S>,
    ) -> io::Result<()> {
        match self {
            SolveWriter::Csv {
                out,
                pending,
                file: (name, field),
            } => {
                if row.file != name.as_str() {
                    name.clear();
                    name.push_str(row.file);
                    field.clear();
                    push_field(field, row.file.as_bytes());
                }
                row.write_csv_with_file(pending, field, keep);
                hand_over_full(out, pending)
            }
            SolveWriter::Grid(out) => write_grid_row(out, &row.to_row()),
        }
    }

    /// Hand everything written so far to the underlying sink and flush it. Rows reach
    /// the sink only through here or once 256 KiB have gathered: call it
    /// before dropping the writer.
    pub fn flush(&mut self) -> io::Result<()> {
        match self {
            SolveWriter::Csv { out, pending, .. } => {
                out.write_all(pending)?;
                pending.clear();
                out.flush()
            }
            SolveWriter::Grid(out) => out.flush(),
        }
    }
}

/// Bytes of CSV rows a [`SolveWriter`] gathers before it hands them to its sink.
///
/// Rows are written straight into this buffer: handing each row over on its own would
/// copy it a second time (into the `BufWriter`) and cost a `write_all` call per row.
/// At [`BUFFER`] bytes, a hand-over to the [`Sink`] goes past its buffer straight to
/// the file (a `BufWriter` does not copy writes at least as large as its capacity), so
/// the rows are not copied again at all.
const PENDING: usize = BUFFER;

/// Hand `pending` over to `out` once it holds [`PENDING`] bytes or more.
#[inline]
fn hand_over_full(out: &mut impl Write, pending: &mut Vec<u8>) -> io::Result<()> {
    if pending.len() >= PENDING {
        out.write_all(pending)?;
        pending.clear();
    }
    Ok(())
}

/// A record's header line, then the puzzle and its solution side by side as boxed grids
/// (the raw text for an invalid record), then a blank line.
fn write_grid_row(out: &mut impl Write, row: &SolveRow<'_>) -> io::Result<()> {
    write!(out, "{}:{}  {}", row.file, row.line, row.status)?;
    if row.error.is_empty() {
        writeln!(
            out,
            "  solutions={} clues={} guesses={} time={}",
            row.solutions,
            row.clues,
            row.guesses,
            human_ns(row.time_ns)
        )?;
    } else {
        writeln!(out, "  {}", row.error)?;
        writeln!(out, "  {}", row.puzzle)?;
        return writeln!(out);
    }
    let puzzle = line_grid(row.puzzle.as_bytes());
    let solution = line_grid(row.solution.as_bytes());
    match (puzzle, solution) {
        (Some(p), Some(s)) => {
            for (a, b) in p.to_boxed().lines().zip(s.to_boxed().lines()) {
                writeln!(out, "{a}   {b}")?;
            }
        }
        (Some(p), None) => out.write_all(p.to_boxed().as_bytes())?,
        _ => writeln!(out, "  {}", row.puzzle)?,
    }
    writeln!(out)
}

/// The grid of an 81-character line, if it is one.
fn line_grid(line: &[u8]) -> Option<Grid> {
    (line.len() == CELLS)
        .then(|| Grid::parse(line).ok())
        .flatten()
}

/// A duration in nanoseconds with a readable unit, e.g. `12.3 µs`.
pub fn human_ns(ns: u64) -> String {
    let v = ns as f64;
    if ns >= 1_000_000_000 {
        format!("{:.2} s", v / 1e9)
    } else if ns >= 1_000_000 {
        format!("{:.2} ms", v / 1e6)
    } else if ns >= 1_000 {
        format!("{:.1} µs", v / 1e3)
    } else {
        format!("{ns} ns")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::Status;

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
    fn csv_writer_has_header_then_rows_with_keep_columns() {
        let mut w = SolveWriter::new(OutputFormat::Csv, Vec::new(), &["id".to_string()]).unwrap();
        w.write(&row(PUZZLE, "", Status::Unsolvable, ""), ["7"])
            .unwrap();
        w.flush().unwrap();
        let SolveWriter::Csv { out, .. } = w else {
            unreachable!()
        };
        let text = String::from_utf8(out).unwrap();
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
    }

    #[test]
    fn grid_writer_draws_puzzle_and_solution_side_by_side() {
        let solution = crate::solve(&PUZZLE.parse().unwrap(), 1)
            .first
            .unwrap()
            .to_line();
        let mut w = SolveWriter::new(OutputFormat::Grid, Vec::new(), &[]).unwrap();
        w.write(&row(PUZZLE, &solution, Status::Unique, ""), None::<&str>)
            .unwrap();
        w.write(
            &row("12x", "", Status::Invalid, "3 cells, expected 81"),
            None::<&str>,
        )
        .unwrap();
        let SolveWriter::Grid(out) = w else {
            unreachable!()
        };
        let text = String::from_utf8(out).unwrap();
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
    fn durations_pick_a_unit() {
        assert_eq!(human_ns(999), "999 ns");
        assert_eq!(human_ns(1_500), "1.5 µs");
        assert_eq!(human_ns(2_000_000), "2.00 ms");
        assert_eq!(human_ns(3_210_000_000), "3.21 s");
    }
}
