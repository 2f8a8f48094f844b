//! Where results go and in what shape.
//!
//! - [`SolveSink`]: the one trait every format of `solve`'s rows implements:
//!   [`csv`](mod@csv) (the default, [`crate::row::SOLVE_COLUMNS`]), [`grid`] (boxed 9×9
//!   pictures for reading on a terminal), and the typed formats that dataframe readers
//!   take as they are: [`jsonl`] (JSON Lines) and `parquet` (feature `parquet`).
//!   [`write_solved`] turns what the solver made of a record into its row(s), the same
//!   way for every format.
//! - [`FindingSink`]: the same for `verify`'s findings ([`findings`]), in CSV, JSON Lines
//!   or Parquet.
//! - [`RateSink`]: the same for `rate`'s rows ([`ratings`]), in CSV, JSON Lines or
//!   Parquet.
//! - [`file::Output`]: the one opener of an output, a file (never left half-written
//!   under its final name) or standard output.
//! - [`checkpoint`]: what a Parquet output can be recovered to after its run was
//!   killed ([`ParquetCheckpoint`], [`recover_parquet`]), and `parquet_resume`: its
//!   rows carried into a new output to continue the run.
//!
//! Sinks are `Send` because the pipeline drains batches on whichever worker is free:
//! standard output is therefore taken through `io::Stdout` behind a large buffer (its
//! lock is held for one buffer flush at a time) rather than a `StdoutLock`, which may not
//! cross threads.

use std::borrow::Cow;
use std::io::{self, BufWriter, Write};
use std::path::Path;
use std::sync::Arc;

use crate::clock::TickRate;
use crate::row::{SolveRow, SolvedRow, Status};
use crate::solving::Solved;

pub mod checkpoint;
pub mod csv;
pub mod file;
pub mod findings;
pub mod grid;
pub mod jsonl;
#[cfg(feature = "parquet")]
pub mod parquet;
#[cfg(feature = "parquet")]
pub mod parquet_resume;
pub mod ratings;

pub use checkpoint::{recover_parquet, ParquetCheckpoint};
pub use findings::{findings_sink, FindingRow, FindingSink};
pub use ratings::{rate_sink, RateRow, RateSink};

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
    /// JSON Lines: one object per row, numbers as numbers, a missing solution or error
    /// as `null`.
    Jsonl,
    /// Parquet, typed columns: strings, unsigned 64-bit counts, nulls for a missing
    /// solution or error; zstd-compressed unless [`ParquetOptions`] say otherwise.
    /// Needs the `parquet` feature.
    Parquet,
}

impl OutputFormat {
    /// The format a file name asks for by its extension: `.parquet`, `.jsonl` or
    /// `.ndjson`, `.csv`; `None` for any other name (the caller's default applies).
    pub fn from_path(path: &Path) -> Option<OutputFormat> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "parquet" => Some(OutputFormat::Parquet),
            "jsonl" | "ndjson" => Some(OutputFormat::Jsonl),
            "csv" => Some(OutputFormat::Csv),
            _ => None,
        }
    }

    /// Whether the format is binary (Parquet): not for a terminal.
    pub fn is_binary(self) -> bool {
        self == OutputFormat::Parquet
    }
}

/// Rows per Parquet row group unless told otherwise: few enough that the row group
/// being built stays small in memory (tens of MB), enough for readers to scan fast.
pub const ROW_GROUP_ROWS: usize = 1 << 18;

/// How the pages of a Parquet output are compressed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParquetCompression {
    /// zstd at level 1 (the default): the smallest files; costs the most time.
    #[default]
    Zstd,
    /// LZ4 (Parquet's `LZ4_RAW`): larger files, written and read fastest.
    Lz4,
    /// Snappy: about LZ4's size and speed, read by every Parquet reader.
    Snappy,
    /// Uncompressed.
    None,
}

impl ParquetCompression {
    /// Every codec, in the order `--compression` lists them.
    pub const ALL: [ParquetCompression; 4] = [
        ParquetCompression::Zstd,
        ParquetCompression::Lz4,
        ParquetCompression::Snappy,
        ParquetCompression::None,
    ];

    /// The codec's name as `--compression` takes it.
    pub fn as_str(self) -> &'static str {
        match self {
            ParquetCompression::Zstd => "zstd",
            ParquetCompression::Lz4 => "lz4",
            ParquetCompression::Snappy => "snappy",
            ParquetCompression::None => "none",
        }
    }
}

/// How a Parquet output is laid out: rows per row group and the codec of its pages.
/// Other formats ignore it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ParquetOptions {
    /// Rows per row group (at least 1); [`ROW_GROUP_ROWS`] by default.
    pub row_group_rows: usize,
    /// The pages' codec; zstd by default.
    pub compression: ParquetCompression,
}

impl Default for ParquetOptions {
    fn default() -> ParquetOptions {
        ParquetOptions {
            row_group_rows: ROW_GROUP_ROWS,
            compression: ParquetCompression::default(),
        }
    }
}

impl ParquetOptions {
    /// These options with row groups of `rows` rows.
    pub fn row_group_rows(mut self, rows: usize) -> ParquetOptions {
        self.row_group_rows = rows;
        self
    }

    /// These options with pages compressed by `compression`.
    pub fn compression(mut self, compression: ParquetCompression) -> ParquetOptions {
        self.compression = compression;
        self
    }
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

    /// True when there are no columns after the fixed ones.
    pub fn is_empty(&self) -> bool {
        self.variant.is_none() && self.positions.is_empty()
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

    /// Hand the whole rows written so far to the underlying output and flush it.
    /// Parquet hands over rows a row group at a time, so its rows may stay in memory
    /// until a row group is full or [`SolveSink::finish`] is called.
    fn flush(&mut self) -> io::Result<()>;

    /// End the output: everything written goes out, and a format with a trailer
    /// writes it (Parquet: its last row group and footer, without which no reader can
    /// open the file). Called once, after the last row; nothing may be written after.
    fn finish(&mut self) -> io::Result<()> {
        self.flush()
    }

    /// The latest checkpoint of a Parquet output: its row groups closed and written to
    /// the output so far, with a footer for them (see [`checkpoint`]); `None` before the
    /// first row group is closed, and for every other format (their rows are whole
    /// where they end). Cheap: a clone of an `Arc`.
    fn checkpoint(&self) -> Option<Arc<ParquetCheckpoint>> {
        None
    }
}

/// A sink of `format` over `out`, with `keep` column names after the fixed columns
/// (not for grids), and a CSV header row unless `header` is false (to concatenate the
/// outputs of shards; JSON Lines and Parquet have no header row). Parquet is written
/// with the default [`ParquetOptions`].
pub fn solve_sink<W: Write + Send + 'static>(
    format: OutputFormat,
    out: W,
    keep: &[String],
    header: bool,
) -> anyhow::Result<Box<dyn SolveSink>> {
    solve_sink_with(format, out, keep, header, ParquetOptions::default())
}

/// [`solve_sink`] with a Parquet output laid out as `parquet` says.
pub fn solve_sink_with<W: Write + Send + 'static>(
    format: OutputFormat,
    out: W,
    keep: &[String],
    header: bool,
    parquet: ParquetOptions,
) -> anyhow::Result<Box<dyn SolveSink>> {
    check_solve_sink(format, keep)?;
    Ok(match format {
        OutputFormat::Csv => Box::new(csv::SolveCsv::new(out, keep, header)),
        OutputFormat::Grid => Box::new(grid::SolveGrid::new(out)),
        OutputFormat::Jsonl => Box::new(jsonl::SolveJsonl::new(out, keep)),
        OutputFormat::Parquet => parquet_sink(out, keep, parquet)?,
    })
}

/// Check, before any output is opened, that [`solve_sink`] can make a sink of `format`
/// with `keep` columns: grids have no columns to keep; JSON Lines and Parquet need the
/// kept names to be new ones; Parquet needs the `parquet` feature.
pub fn check_solve_sink(format: OutputFormat, keep: &[String]) -> anyhow::Result<()> {
    match format {
        OutputFormat::Csv => {}
        OutputFormat::Grid => {
            // The variant columns are shown in the pictures; kept columns are not.
            if keep.iter().any(|k| !VARIANT_COLUMNS.contains(&k.as_str())) {
                anyhow::bail!("--keep does not apply to grid output");
            }
        }
        OutputFormat::Jsonl => check_names(&crate::row::SOLVE_COLUMNS, keep)?,
        OutputFormat::Parquet => {
            #[cfg(not(feature = "parquet"))]
            return Err(no_parquet());
            #[cfg(feature = "parquet")]
            check_names(&crate::row::SOLVE_COLUMNS, keep)?
        }
    }
    Ok(())
}

#[cfg(feature = "parquet")]
fn parquet_sink<W: Write + Send + 'static>(
    out: W,
    keep: &[String],
    options: ParquetOptions,
) -> anyhow::Result<Box<dyn SolveSink>> {
    Ok(Box::new(parquet::SolveParquet::new(out, keep, options)?))
}

#[cfg(not(feature = "parquet"))]
fn parquet_sink<W: Write + Send + 'static>(
    _out: W,
    _keep: &[String],
    _options: ParquetOptions,
) -> anyhow::Result<Box<dyn SolveSink>> {
    Err(no_parquet())
}

/// The error of a build without the `parquet` feature asked for Parquet.
#[cfg(not(feature = "parquet"))]
pub(crate) fn no_parquet() -> anyhow::Error {
    anyhow::anyhow!(
        "this bulkdoku was built without Parquet support (cargo feature `parquet`); \
         write CSV or JSON Lines (.jsonl) instead"
    )
}

/// Check that the `keep` names can be columns beside `fixed` in a format that names
/// its fields (JSON Lines, Parquet): none is a fixed column's name or given twice, or
/// an object would have two fields of one name (CSV allows that; JSON readers keep
/// one of them, Arrow readers refuse the file).
fn check_names(fixed: &[&str], keep: &[String]) -> anyhow::Result<()> {
    for (i, name) in keep.iter().enumerate() {
        if fixed.contains(&name.as_str()) {
            anyhow::bail!(
                "--keep {name}: the output has a `{name}` column of its own; \
                 JSON Lines and Parquet cannot hold two columns of one name"
            );
        }
        if keep[..i].contains(name) {
            if VARIANT_COLUMNS.contains(&name.as_str()) {
                anyhow::bail!(
                    "--keep {name}: the output has a `{name}` column of its own (each \
                     record's rules and regions, written under variant rules); JSON Lines \
                     and Parquet cannot hold two columns of one name"
                );
            }
            anyhow::bail!("--keep names `{name}` twice");
        }
    }
    Ok(())
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
#[inline]
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
        Solved::Cut => Err(io::Error::other(
            "internal error: a record whose search was cut has no row",
        )),
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
