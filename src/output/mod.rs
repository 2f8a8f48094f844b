//! Where results go and in what shape.
//!
//! - [`SolveSink`]: the one trait every format of `solve`'s rows implements:
//!   [`csv`](mod@csv) (the default, [`crate::row::SOLVE_COLUMNS`]) and [`grid`] (boxed 9×9
//!   pictures for reading on a terminal). [`write_solved`] turns what the solver made of a
//!   record into its row(s), the same way for every format.
//! - [`file::Output`]: the one opener of an output, a file (never left half-written
//!   under its final name) or standard output.
//!
//! Sinks are `Send` because the pipeline drains batches on whichever worker is free:
//! standard output is therefore taken through `io::Stdout` behind a large buffer (its
//! lock is held for one buffer flush at a time) rather than a `StdoutLock`, which may not
//! cross threads.

use std::borrow::Cow;
use std::io::{self, BufWriter, Write};

use crate::clock::TickRate;
use crate::row::{SolveRow, SolvedRow, Status};
use crate::solving::Solved;

pub mod csv;
pub mod file;
pub mod grid;

/// Buffer size of the output sink: large enough that a flush is rare.
const BUFFER: usize = 256 * 1024;

/// A buffered byte sink over an output's writer.
pub type Sink = BufWriter<Box<dyn Write + Send>>;

/// A [`Sink`] over `writer` with a buffer large enough that a flush is rare.
pub fn buffered(writer: Box<dyn Write + Send>) -> Sink {
    BufWriter::with_capacity(BUFFER, writer)
}

/// Output formats of `solve`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum OutputFormat {
    /// CSV with a header row, one row per record.
    #[default]
    Csv,
    /// Puzzle and solution as boxed 9×9 grids side by side, a header line per record.
    Grid,
}

/// The columns of one row after the fixed ones: its rules and regions (when the run
/// writes them, see [`VARIANT_COLUMNS`]), then the copied-through (`--keep`) columns,
/// a record's CSV fields at the kept positions.
#[derive(Debug, Clone, Copy, Default)]
pub struct Kept<'a> {
    variant: Option<(&'a str, &'a str)>,
    fields: &'a [String],
    positions: &'a [usize],
}

/// The names of the variant columns, written after the fixed ones when a run may hold
/// records under rules other than classic.
pub const VARIANT_COLUMNS: [&str; 2] = ["rules", "regions"];

impl<'a> Kept<'a> {
    /// The fields at `positions` of `fields` (empty text where a row is short).
    pub fn new(fields: &'a [String], positions: &'a [usize]) -> Kept<'a> {
        Kept {
            variant: None,
            fields,
            positions,
        }
    }

    /// These columns, after the record's `rules` and `regions`.
    pub fn with_variant(mut self, rules: &'a str, regions: &'a str) -> Kept<'a> {
        self.variant = Some((rules, regions));
        self
    }

    /// The record's rules and regions, when the run writes them.
    pub fn variant(&self) -> Option<(&'a str, &'a str)> {
        self.variant
    }

    /// The values, in column order.
    pub fn iter(&self) -> impl Iterator<Item = &'a str> + Clone + 'a {
        let fields = self.fields;
        self.variant
            .into_iter()
            .flat_map(|(rules, regions)| [rules, regions])
            .chain(
                self.positions
                    .iter()
                    .map(move |&i| fields.get(i).map_or("", String::as_str)),
            )
    }
}

/// A writer of `solve`'s rows in one format.
pub trait SolveSink: Send {
    /// Write one row, then its kept columns.
    fn write(&mut self, row: &SolveRow<'_>, kept: Kept<'_>) -> io::Result<()>;

    /// Write the row of a valid puzzle; formats that can render grids straight into
    /// their output override this to skip the detour through text.
    fn write_solved(&mut self, row: &SolvedRow<'_>, kept: Kept<'_>) -> io::Result<()> {
        self.write(&row.to_row(), kept)
    }

    /// Hand everything written so far to the underlying output and flush it.
    fn flush(&mut self) -> io::Result<()>;
}

/// A sink of `format` over `out`, with `keep` column names after the fixed columns
/// (CSV only: other formats refuse them), and a header row unless `header` is false
/// (to concatenate the outputs of shards).
pub fn solve_sink<W: Write + Send + 'static>(
    format: OutputFormat,
    out: W,
    keep: &[String],
    header: bool,
) -> anyhow::Result<Box<dyn SolveSink>> {
    Ok(match format {
        OutputFormat::Csv => Box::new(csv::SolveCsv::new(out, keep, header)),
        OutputFormat::Grid => {
            // The variant columns are shown in the pictures; kept columns are not.
            if keep.iter().any(|k| !VARIANT_COLUMNS.contains(&k.as_str())) {
                anyhow::bail!("--keep applies to CSV output only");
            }
            Box::new(grid::SolveGrid::new(out))
        }
    })
}

/// What [`write_solved`] wrote for a record, for the caller's totals.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Written {
    /// The record's status.
    pub status: Status,
    /// The search time in nanoseconds (`None` for an invalid record).
    pub time_ns: Option<u64>,
}

/// Where a record came from, as its rows name it.
#[derive(Debug, Clone, Copy)]
pub struct Origin<'a> {
    /// The input's display name.
    pub file: &'a str,
    /// The 1-based line where the record starts.
    pub line: u64,
    /// The record's cells as found (written as the puzzle of an invalid record).
    pub cells: &'a [u8],
}

/// Write the row(s) of one record: one row, or with every solution kept (see
/// [`crate::solving::SolveOptions::all_solutions`]) one per solution. `first_only`
/// when the search stopped at the first solution (statuses say `solved`); `rate`
/// turns the search's ticks into nanoseconds.
pub fn write_solved(
    sink: &mut dyn SolveSink,
    origin: Origin<'_>,
    solved: &Solved,
    first_only: bool,
    rate: TickRate,
    kept: Kept<'_>,
) -> io::Result<Written> {
    match solved {
        Solved::Invalid(reason) => {
            let row = SolveRow {
                file: Cow::Borrowed(origin.file),
                line: origin.line,
                puzzle: String::from_utf8_lossy(origin.cells),
                status: Status::Invalid,
                solutions: 0,
                clues: 0,
                guesses: 0,
                time_ns: 0,
                solution: Cow::Borrowed(""),
                error: Cow::Borrowed(reason),
            };
            sink.write(&row, kept)?;
            Ok(Written {
                status: Status::Invalid,
                time_ns: None,
            })
        }
        Solved::Valid {
            puzzle,
            solutions,
            guesses,
            ticks,
            first,
            all,
            ..
        } => {
            let status = Status::from_count(*solutions, first_only);
            let time_ns = rate.ns(*ticks);
            let row = SolvedRow {
                file: origin.file,
                line: origin.line,
                puzzle,
                status,
                solutions: *solutions,
                guesses: *guesses,
                time_ns,
                solution: first.as_ref(),
            };
            if all.is_empty() {
                sink.write_solved(&row, kept)?;
            }
            for solution in all {
                let one = SolvedRow {
                    solution: Some(solution),
                    ..row
                };
                sink.write_solved(&one, kept)?;
            }
            Ok(Written {
                status,
                time_ns: Some(time_ns),
            })
        }
    }
}
