//! Continuing an interrupted Parquet output: its recovered rows carried into a new
//! one (feature `parquet`).
//!
//! A Parquet file cannot be appended to: its footer, at the end, indexes every row
//! group. A run that was killed is therefore continued into a new file. Its old file,
//! made whole by [`super::recover_parquet`] at its last [`super::ParquetCheckpoint`],
//! is read back a batch at a time (memory stays flat), its rows written into the new
//! output's sink, and the run goes on from the first record they do not hold:
//!
//! - [`replay_solve_parquet`] writes the rows of the records whose rows are all there
//!   (with every solution kept, a record's rows may straddle the last row group) and
//!   says how many records and rows that is;
//! - [`replay_findings_parquet`] writes every finding and says which record the last
//!   one was about.
//!
//! The new output, finished, equals an uninterrupted run's output apart from the
//! `time_ns` of the records solved again; its row groups fall where the
//! uninterrupted run's fall (every `row_group_rows` rows from the first), since the
//! rows reach the new sink in the same order and number.

use std::borrow::Cow;
use std::fs::File;
use std::path::Path;

use anyhow::{bail, Context};
use arrow_array::{Array, RecordBatch, StringArray, UInt64Array};
use arrow_schema::{DataType, SchemaRef};
use parquet::arrow::arrow_reader::{ParquetRecordBatchReader, ParquetRecordBatchReaderBuilder};
use parquet::arrow::ProjectionMask;

use super::{FindingRow, FindingSink, Kept, SolveSink};
use crate::resume::Whole;
use crate::row::{SolveRow, Status, SOLVE_COLUMNS};
use crate::verify::Kind;

/// Rows read back at a time.
const READ_ROWS: usize = 8192;

/// What a recovered output held, as far as it was carried into the new one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Replayed {
    /// Records whose rows were all there, and were written: the run goes on from the
    /// next one.
    pub records: u64,
    /// Rows written.
    pub rows: u64,
}

/// Write the rows of the whole records of `recovered`, a `solve` output in Parquet
/// (made whole by [`super::recover_parquet`]), into `sink`, in order; the records and
/// rows written. `all_solutions` as the run had it: a record with a solution then has
/// a row per solution found (its `solutions`), and a record missing some of its rows
/// at the end is left out. The kept columns are written in the file's order.
pub fn replay_solve_parquet(
    recovered: &Path,
    sink: &mut dyn SolveSink,
    all_solutions: bool,
) -> anyhow::Result<Replayed> {
    let name = recovered.display();
    // First the key columns alone: which rows belong to whole records.
    let builder = open(recovered)?;
    let kept = check_solve_schema(builder.schema())
        .with_context(|| format!("{name}: not a `bulkdoku solve` output"))?;
    let index = |column: &str| {
        SOLVE_COLUMNS
            .iter()
            .position(|c| *c == column)
            .expect("a solve column")
    };
    let (file_i, line_i, status_i, solutions_i, solution_i, error_i) = (
        index("file"),
        index("line"),
        index("status"),
        index("solutions"),
        index("solution"),
        index("error"),
    );
    let keys = [file_i, line_i, status_i, solutions_i];
    let mask = ProjectionMask::roots(builder.parquet_schema(), keys);
    let mut whole = Whole::new(all_solutions);
    let mut row = 0u64;
    for batch in read(builder.with_projection(mask), &name)? {
        let batch = batch.with_context(|| format!("cannot read {name}"))?;
        // The projected columns come in the file's order, as `keys` are.
        let (file, line, status, solutions) = (
            strings(&batch, 0)?,
            counts(&batch, 1)?,
            strings(&batch, 2)?,
            counts(&batch, 3)?,
        );
        for i in 0..batch.num_rows() {
            row += 1;
            let status = status_of(status.value(i))?;
            let line = line.value(i).to_string();
            let solved = status.has_solution();
            whole.row(file.value(i), &line, solved, solutions.value(i), row);
        }
    }
    let done = Replayed {
        records: whole.records,
        rows: whole.bytes,
    };

    // Then every column of those rows, into the sink.
    let builder = open(recovered)?;
    let positions: Vec<usize> = (0..kept).collect();
    let mut fields = vec![String::new(); kept];
    let mut left = done.rows;
    for batch in read(builder, &name)? {
        if left == 0 {
            break;
        }
        let batch = batch.with_context(|| format!("cannot read {name}"))?;
        let text = |i: usize| strings(&batch, i);
        let (file, puzzle, status, solution, error) = (
            text(file_i)?,
            text(index("puzzle"))?,
            text(status_i)?,
            text(solution_i)?,
            text(error_i)?,
        );
        let [line, solutions, clues, guesses, time_ns] =
            ["line", "solutions", "clues", "guesses", "time_ns"].map(|c| counts(&batch, index(c)));
        let (line, solutions, clues, guesses, time_ns) =
            (line?, solutions?, clues?, guesses?, time_ns?);
        let extra = (SOLVE_COLUMNS.len()..batch.num_columns())
            .map(|i| strings(&batch, i))
            .collect::<anyhow::Result<Vec<_>>>()?;
        let n = (batch.num_rows() as u64).min(left) as usize;
        for i in 0..n {
            for (field, column) in fields.iter_mut().zip(&extra) {
                field.clear();
                field.push_str(column.value(i));
            }
            let row = SolveRow {
                file: Cow::Borrowed(file.value(i)),
                line: line.value(i),
                puzzle: Cow::Borrowed(puzzle.value(i)),
                status: status_of(status.value(i))?,
                solutions: solutions.value(i),
                clues: clues.value(i),
                guesses: guesses.value(i),
                time_ns: time_ns.value(i),
                solution: Cow::Borrowed(nullable(solution, i)),
                error: Cow::Borrowed(nullable(error, i)),
            };
            sink.write(&row, Kept::new(&fields, &positions))?;
        }
        left -= n as u64;
    }
    if left != 0 {
        bail!("{name} ended {left} rows early while it was read again");
    }
    Ok(done)
}

/// What [`replay_findings_parquet`] carried over.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FindingsReplayed {
    /// Findings written.
    pub rows: u64,
    /// The file (empty without a `file` column) and line of the last one's record.
    pub last: Option<(String, u64)>,
}

/// Write every finding of `recovered`, a `verify` output in Parquet (made whole by
/// [`super::recover_parquet`]), into `sink`, in order; how many, and the record the
/// last one was about. A record's findings may straddle the last row group: the
/// caller, which knows how many findings a record has, decides where to go on.
pub fn replay_findings_parquet(
    recovered: &Path,
    sink: &mut dyn FindingSink,
) -> anyhow::Result<FindingsReplayed> {
    let name = recovered.display();
    let builder = open(recovered)?;
    let with_file = check_findings_schema(builder.schema())
        .with_context(|| format!("{name}: not a `bulkdoku verify` output"))?;
    let first = usize::from(with_file);
    let mut done = FindingsReplayed {
        rows: 0,
        last: None,
    };
    for batch in read(builder, &name)? {
        let batch = batch.with_context(|| format!("cannot read {name}"))?;
        let file = if with_file {
            Some(strings(&batch, 0)?)
        } else {
            None
        };
        let (line, puzzle, kind, detail) = (
            counts(&batch, first)?,
            strings(&batch, first + 1)?,
            strings(&batch, first + 2)?,
            strings(&batch, first + 3)?,
        );
        for i in 0..batch.num_rows() {
            let kind_text = kind.value(i);
            let Some(kind) = Kind::ALL.into_iter().find(|k| k.as_str() == kind_text) else {
                bail!("{name}: a finding of unknown kind {kind_text:?}");
            };
            let row = FindingRow {
                file: file.map_or("", |f| f.value(i)),
                line: line.value(i),
                puzzle: puzzle.value(i).as_bytes(),
                kind,
                detail: nullable(detail, i),
            };
            sink.write(&row)?;
        }
        if let Some(i) = batch.num_rows().checked_sub(1) {
            let file = file.map_or(String::new(), |f| f.value(i).to_string());
            done.last = Some((file, line.value(i)));
        }
        done.rows += batch.num_rows() as u64;
    }
    Ok(done)
}

fn open(path: &Path) -> anyhow::Result<ParquetRecordBatchReaderBuilder<File>> {
    let file = File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    ParquetRecordBatchReaderBuilder::try_new(file)
        .with_context(|| format!("{}: not a readable Parquet file", path.display()))
}

fn read(
    builder: ParquetRecordBatchReaderBuilder<File>,
    name: &impl std::fmt::Display,
) -> anyhow::Result<ParquetRecordBatchReader> {
    builder
        .with_batch_size(READ_ROWS)
        .build()
        .with_context(|| format!("cannot read {name}"))
}

/// Check that `schema` starts with `solve`'s columns, typed as written
/// ([`super::parquet::solve_schema`]), followed only by text columns; how many follow.
fn check_solve_schema(schema: &SchemaRef) -> anyhow::Result<usize> {
    let want = super::parquet::solve_schema(&[]);
    let fields = schema.fields();
    if fields.len() < want.fields().len() {
        bail!(
            "it has {} columns, fewer than {}",
            fields.len(),
            want.fields().len()
        );
    }
    for (i, (have, want)) in fields.iter().zip(want.fields()).enumerate() {
        if have.name() != want.name() || have.data_type() != want.data_type() {
            bail!(
                "column {} is `{}` ({}), expected `{}` ({})",
                i + 1,
                have.name(),
                have.data_type(),
                want.name(),
                want.data_type()
            );
        }
    }
    for have in &fields[want.fields().len()..] {
        if have.data_type() != &DataType::Utf8 {
            bail!("kept column {} is not text", have.name());
        }
    }
    Ok(fields.len() - want.fields().len())
}

/// Check that `schema` is `verify`'s findings' ([`super::parquet::findings_schema`]);
/// whether it has the `file` column.
fn check_findings_schema(schema: &SchemaRef) -> anyhow::Result<bool> {
    for with_file in [true, false] {
        let want = super::parquet::findings_schema(with_file);
        let same = schema.fields().len() == want.fields().len()
            && schema
                .fields()
                .iter()
                .zip(want.fields())
                .all(|(a, b)| a.name() == b.name() && a.data_type() == b.data_type());
        if same {
            return Ok(with_file);
        }
    }
    bail!("its columns are not those of the findings")
}

fn strings(batch: &RecordBatch, i: usize) -> anyhow::Result<&StringArray> {
    batch
        .column(i)
        .as_any()
        .downcast_ref::<StringArray>()
        .with_context(|| format!("column {i} is not text"))
}

fn counts(batch: &RecordBatch, i: usize) -> anyhow::Result<&UInt64Array> {
    batch
        .column(i)
        .as_any()
        .downcast_ref::<UInt64Array>()
        .with_context(|| format!("column {i} is not unsigned 64-bit integers"))
}

/// Row `i`'s text, empty where it is null.
fn nullable(column: &StringArray, i: usize) -> &str {
    if column.is_valid(i) {
        column.value(i)
    } else {
        ""
    }
}

fn status_of(text: &str) -> anyhow::Result<Status> {
    Status::parse(text).with_context(|| format!("a row of unknown status {text:?}"))
}
