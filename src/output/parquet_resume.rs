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

/// Write the findings of `recovered`, a `verify` output in Parquet (made whole by
/// [`super::recover_parquet`]), into `sink`, in order: all of them, or the first
/// `rows` if given; how many, and the record the last one was about.
///
/// A record's findings may straddle the last row group, and a record with no finding
/// has no row: which records are done cannot be read from the file. The caller, which
/// knows how many findings the run had written after each record, passes the findings
/// of the records done when the checkpoint was taken as `rows`.
pub fn replay_findings_parquet(
    recovered: &Path,
    sink: &mut dyn FindingSink,
    rows: Option<u64>,
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
    let mut left = rows.unwrap_or(u64::MAX);
    for batch in read(builder, &name)? {
        if left == 0 {
            break;
        }
        let batch = batch.with_context(|| format!("cannot read {name}"))?;
        let n = (batch.num_rows() as u64).min(left) as usize;
        left -= n as u64;
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
        for i in 0..n {
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
        if let Some(i) = n.checked_sub(1) {
            let file = file.map_or(String::new(), |f| f.value(i).to_string());
            done.last = Some((file, line.value(i)));
        }
        done.rows += n as u64;
    }
    if let Some(rows) = rows.filter(|&rows| rows > done.rows) {
        bail!("{name} holds {} findings, fewer than {rows}", done.rows);
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Parquet options with row groups of `rows` rows.
    fn opts(rows: usize) -> crate::output::ParquetOptions {
        crate::output::ParquetOptions::default().row_group_rows(rows)
    }
    use crate::output::parquet::{FindingsParquet, SolveParquet};
    use crate::output::{recover_parquet, ParquetCheckpoint};
    use parquet::file::reader::{FileReader, SerializedFileReader};
    use std::path::PathBuf;
    use std::sync::Arc;

    /// Rows per row group in these tests: small, so that a few dozen rows make many.
    const GROUP: usize = 7;

    /// One record's rows, with their kept `id` column.
    type Record = Vec<(SolveRow<'static>, Vec<String>)>;

    /// `n` records of every status; with `all_solutions`, one row per solution of a
    /// record with several (2 to 4), so that records straddle row groups.
    fn records(n: u64, all_solutions: bool) -> Vec<Record> {
        (0..n)
            .map(|r| {
                let digits = |seed: u64| -> String {
                    (0..81u64)
                        .map(|i| char::from(b'1' + ((seed * 7 + i * 13) % 9) as u8))
                        .collect()
                };
                let puzzle: String = digits(r)
                    .chars()
                    .enumerate()
                    .map(|(i, c)| {
                        if (i as u64 + r).is_multiple_of(3) {
                            c
                        } else {
                            '.'
                        }
                    })
                    .collect();
                let row = SolveRow {
                    file: Cow::Owned(if r < n / 2 { "a.txt" } else { "b.txt" }.into()),
                    line: r + 1,
                    puzzle: Cow::Owned(puzzle),
                    status: Status::Unique,
                    solutions: 1,
                    clues: 27,
                    guesses: r % 4,
                    time_ns: 1000 + r * 37,
                    solution: Cow::Owned(digits(r + 100)),
                    error: Cow::Borrowed(""),
                };
                let kept = vec![format!("id{r}")];
                let rows = match r % 5 {
                    0 => vec![SolveRow {
                        puzzle: Cow::Owned(format!("{r}2345")),
                        status: Status::Invalid,
                        solutions: 0,
                        clues: 0,
                        guesses: 0,
                        time_ns: 0,
                        solution: Cow::Borrowed(""),
                        error: Cow::Borrowed("5 cells, expected 81"),
                        ..row
                    }],
                    1 => vec![SolveRow {
                        status: Status::Unsolvable,
                        solutions: 0,
                        solution: Cow::Borrowed(""),
                        ..row
                    }],
                    2 => {
                        let found = 3 + r % 3;
                        let multiple = SolveRow {
                            status: Status::Multiple,
                            solutions: found,
                            ..row
                        };
                        let shown = if all_solutions { found } else { 1 };
                        (0..shown)
                            .map(|s| SolveRow {
                                solution: Cow::Owned(digits(r + 200 + s)),
                                ..multiple.clone()
                            })
                            .collect()
                    }
                    _ => vec![row],
                };
                rows.into_iter().map(|row| (row, kept.clone())).collect()
            })
            .collect()
    }

    fn write_rows<'a>(sink: &mut dyn SolveSink, records: impl IntoIterator<Item = &'a Record>) {
        for record in records {
            for (row, kept) in record {
                sink.write(row, Kept::new(kept, &[0])).unwrap();
            }
        }
    }

    fn solve_sink(path: &Path) -> SolveParquet {
        SolveParquet::new(File::create(path).unwrap(), &["id".into()], opts(GROUP)).unwrap()
    }

    /// An uninterrupted run of `records` into `path`: its checkpoints.
    fn write_whole(path: &Path, records: &[Record]) -> Vec<Arc<ParquetCheckpoint>> {
        let mut sink = solve_sink(path);
        write_rows(&mut sink, records);
        sink.finish().unwrap();
        sink.all_checkpoints()
    }

    /// A Parquet file's rows as text (`∅` for null), and its row groups' sizes.
    fn read_back(path: &Path) -> (Vec<Vec<String>>, Vec<i64>) {
        let builder = open(path).unwrap();
        let groups = builder
            .metadata()
            .row_groups()
            .iter()
            .map(|g| g.num_rows())
            .collect();
        let mut rows = Vec::new();
        for batch in builder.build().unwrap() {
            let batch = batch.unwrap();
            for i in 0..batch.num_rows() {
                let row = batch
                    .columns()
                    .iter()
                    .map(|column| {
                        if column.is_null(i) {
                            "∅".to_string()
                        } else if let Some(c) = column.as_any().downcast_ref::<UInt64Array>() {
                            c.value(i).to_string()
                        } else {
                            let c = column.as_any().downcast_ref::<StringArray>().unwrap();
                            c.value(i).to_string()
                        }
                    })
                    .collect();
                rows.push(row);
            }
        }
        (rows, groups)
    }

    /// Row groups of `GROUP` rows, the last one short, for `rows` rows.
    fn groups_of(rows: u64) -> Vec<i64> {
        let mut groups = vec![GROUP as i64; rows as usize / GROUP];
        if !(rows as usize).is_multiple_of(GROUP) {
            groups.push((rows as usize % GROUP) as i64);
        }
        groups
    }

    /// `bytes` as a new file `name` in `dir`, recovered at `cp`.
    fn recovered(dir: &Path, name: &str, bytes: &[u8], cp: &ParquetCheckpoint) -> PathBuf {
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        let mut file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(&path)
            .unwrap();
        recover_parquet(&mut file, cp).unwrap();
        path
    }

    /// The records of `records` whose rows all fit in the first `rows` rows: their
    /// number and rows.
    fn whole_records(records: &[Record], rows: u64) -> Replayed {
        let mut done = Replayed {
            records: 0,
            rows: 0,
        };
        for record in records {
            let n = record.len() as u64;
            if done.rows + n > rows {
                break;
            }
            done.records += 1;
            done.rows += n;
        }
        done
    }

    #[test]
    fn every_checkpoint_recovers_its_row_groups_wherever_the_file_is_cut() {
        let dir = tempfile::tempdir().unwrap();
        for all_solutions in [false, true] {
            let records = records(40, all_solutions);
            let total: u64 = records.iter().map(|r| r.len() as u64).sum();
            let path = dir.path().join("whole.parquet");
            let checkpoints = write_whole(&path, &records);
            let bytes = std::fs::read(&path).unwrap();
            let (want, want_groups) = read_back(&path);
            assert_eq!(want.len() as u64, total);
            assert_eq!(want_groups, groups_of(total));
            let whole_meta = SerializedFileReader::new(File::open(&path).unwrap())
                .unwrap()
                .metadata()
                .file_metadata()
                .clone();
            // One checkpoint per row group, each past the one before.
            assert_eq!(checkpoints.len(), want_groups.len());
            for (k, cp) in checkpoints.iter().enumerate() {
                assert_eq!(cp.row_groups, k as u64 + 1);
                assert_eq!(cp.rows, want_groups[..=k].iter().sum::<i64>() as u64);
                assert!(cp.bytes < bytes.len() as u64);
            }
            for (k, cp) in checkpoints.iter().enumerate() {
                let (start, end) = (cp.bytes as usize, bytes.len());
                // For one of them, cuts all through the next row group: every byte
                // near its ends and every 29th between; for all, a spread of cuts to
                // the finished file's end (its footer included).
                let mut cuts: Vec<usize> = (0..=8).map(|j| start + (end - start) * j / 8).collect();
                cuts.extend([start + 1, end - 1]);
                if k == checkpoints.len() / 2 {
                    let next = checkpoints[k + 1].bytes as usize;
                    cuts.extend((start..=next).filter(|&c| {
                        c - start <= 64 || next - c <= 64 || (c - start).is_multiple_of(29)
                    }));
                }
                for cut in cuts {
                    let path = recovered(dir.path(), "cut.parquet", &bytes[..cut], cp);
                    let (rows, groups) = read_back(&path);
                    let at = format!("all_solutions {all_solutions}, checkpoint {k}, cut at {cut}");
                    assert_eq!(rows, want[..cp.rows as usize], "{at}");
                    assert_eq!(groups, groups_of(cp.rows), "{at}");
                }
                let meta =
                    SerializedFileReader::new(File::open(dir.path().join("cut.parquet")).unwrap())
                        .unwrap()
                        .metadata()
                        .file_metadata()
                        .clone();
                assert_eq!(meta.num_rows(), cp.rows as i64);
                assert_eq!(meta.created_by(), whole_meta.created_by());
                assert_eq!(meta.key_value_metadata(), whole_meta.key_value_metadata());
                assert_eq!(meta.schema(), whole_meta.schema());
            }
        }
    }

    #[test]
    fn a_recovered_run_replayed_and_continued_equals_an_uninterrupted_one() {
        let dir = tempfile::tempdir().unwrap();
        for all_solutions in [false, true] {
            let records = records(40, all_solutions);
            let path = dir.path().join("whole.parquet");
            let checkpoints = write_whole(&path, &records);
            let bytes = std::fs::read(&path).unwrap();
            let want = read_back(&path);
            let mut straddled = 0;
            for (k, cp) in checkpoints.iter().enumerate() {
                // Torn inside the next row group (or the footer, for the last).
                let cut = (cp.bytes as usize + bytes.len()) / 2;
                let old = recovered(dir.path(), "old.parquet", &bytes[..cut], cp);
                let new = dir.path().join("new.parquet");
                let mut sink = solve_sink(&new);
                let done = replay_solve_parquet(&old, &mut sink, all_solutions).unwrap();
                let at = format!("all_solutions {all_solutions}, checkpoint {k}");
                assert_eq!(done, whole_records(&records, cp.rows), "{at}");
                straddled += usize::from(done.rows < cp.rows);
                write_rows(&mut sink, &records[done.records as usize..]);
                sink.finish().unwrap();
                assert_eq!(read_back(&new), want, "{at}");
            }
            // With every solution written, some records were cut by a checkpoint and
            // dropped whole; without, never.
            if all_solutions {
                assert!(straddled > 0);
            } else {
                assert_eq!(straddled, 0);
            }
        }
    }

    #[test]
    fn past_many_row_groups_checkpoints_are_paced_and_still_recover() {
        let dir = tempfile::tempdir().unwrap();
        let all = crate::output::parquet::CHECKPOINT_ALL_UP_TO;
        let records = records(all as u64 + 24, false);
        let path = dir.path().join("whole.parquet");
        let mut sink =
            SolveParquet::new(File::create(&path).unwrap(), &["id".into()], opts(1)).unwrap();
        write_rows(&mut sink, &records);
        sink.finish().unwrap();
        let checkpoints = sink.all_checkpoints();
        // Every one of the first row groups, then some.
        let counts: Vec<u64> = checkpoints.iter().map(|cp| cp.row_groups).collect();
        assert_eq!(counts[..all], (1..=all as u64).collect::<Vec<u64>>());
        assert!(counts.windows(2).all(|w| w[0] < w[1]) && counts.len() <= records.len());
        let (want, _) = read_back(&path);
        let bytes = std::fs::read(&path).unwrap();
        let last = checkpoints.last().unwrap();
        let old = recovered(dir.path(), "old.parquet", &bytes, last);
        let (rows, groups) = read_back(&old);
        assert_eq!(rows, want[..last.rows as usize]);
        assert_eq!(groups, vec![1; last.rows as usize]);
    }

    #[test]
    fn a_killed_writer_leaves_a_file_its_checkpoint_recovers() {
        let dir = tempfile::tempdir().unwrap();
        let records = records(30, true);
        let path = dir.path().join("out.parquet.partial");
        let mut sink = solve_sink(&path);
        write_rows(&mut sink, &records);
        let total: u64 = records.iter().map(|r| r.len() as u64).sum();
        let closed = total / GROUP as u64 * GROUP as u64;
        assert!(closed < total, "the last row group must be in progress");
        // Wait for the writer thread to close every full row group, then drop the
        // sink without its thread ending or the footer being written, as SIGKILL
        // would.
        let waited = std::time::Instant::now();
        let cp = loop {
            match sink.checkpoint() {
                Some(cp) if cp.rows == closed => break cp,
                _ if waited.elapsed().as_secs() > 60 => panic!("no checkpoint at {closed} rows"),
                _ => std::thread::sleep(std::time::Duration::from_millis(2)),
            }
        };
        std::mem::forget(sink);
        assert!(
            open(&path).is_err(),
            "a file without its footer is unreadable"
        );

        let mut file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(&path)
            .unwrap();
        recover_parquet(&mut file, &cp).unwrap();
        drop(file);
        let whole = dir.path().join("whole.parquet");
        write_whole(&whole, &records);
        let (want, _) = read_back(&whole);
        let (rows, groups) = read_back(&path);
        assert_eq!(rows, want[..closed as usize]);
        assert_eq!(groups, groups_of(closed));

        // Through its JSON form, as the `.resume` record keeps it.
        let cp: ParquetCheckpoint =
            serde_json::from_str(&serde_json::to_string(&*cp).unwrap()).unwrap();
        let old = recovered(
            dir.path(),
            "again.parquet",
            &std::fs::read(&path).unwrap(),
            &cp,
        );
        let new = dir.path().join("new.parquet");
        let mut sink = solve_sink(&new);
        let done = replay_solve_parquet(&old, &mut sink, true).unwrap();
        assert_eq!(done, whole_records(&records, closed));
        write_rows(&mut sink, &records[done.records as usize..]);
        sink.finish().unwrap();
        assert_eq!(read_back(&new), read_back(&whole));
    }

    #[test]
    fn replay_refuses_a_file_that_is_not_a_solve_output() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("findings.parquet");
        let mut findings =
            FindingsParquet::new(File::create(&path).unwrap(), true, opts(GROUP)).unwrap();
        findings.finish().unwrap();
        let mut sink = solve_sink(&dir.path().join("new.parquet"));
        let err = replay_solve_parquet(&path, &mut sink, false).unwrap_err();
        assert!(
            format!("{err:#}").contains("not a `bulkdoku solve` output"),
            "{err:#}"
        );
        std::fs::write(&path, "file,line\n").unwrap();
        let err = replay_solve_parquet(&path, &mut sink, false).unwrap_err();
        assert!(
            format!("{err:#}").contains("not a readable Parquet file"),
            "{err:#}"
        );
    }

    /// `n` findings of several kinds, over records 1, 1, 2, 3, 3, 3, ...
    fn findings(n: u64) -> Vec<(u64, String, Kind, String)> {
        (0..n)
            .map(|i| {
                let line = i / 2 + 1;
                let kind = Kind::ALL[(i % Kind::ALL.len() as u64) as usize];
                let detail = if kind == Kind::Ok {
                    String::new()
                } else {
                    format!("detail {i}")
                };
                (line, format!("{line:0>81}"), kind, detail)
            })
            .collect()
    }

    fn write_findings<'a>(
        sink: &mut dyn FindingSink,
        rows: impl IntoIterator<Item = &'a (u64, String, Kind, String)>,
    ) {
        for (line, puzzle, kind, detail) in rows {
            let file = if *line < 5 { "a.txt" } else { "b.txt" };
            let row = FindingRow {
                file,
                line: *line,
                puzzle: puzzle.as_bytes(),
                kind: *kind,
                detail,
            };
            sink.write(&row).unwrap();
        }
    }

    #[test]
    fn recovered_findings_replayed_and_continued_equal_an_uninterrupted_run() {
        let dir = tempfile::tempdir().unwrap();
        let rows = findings(30);
        for with_file in [true, false] {
            let sink = |path: &Path| {
                FindingsParquet::new(File::create(path).unwrap(), with_file, opts(GROUP)).unwrap()
            };
            let path = dir.path().join("whole.parquet");
            let mut whole = sink(&path);
            write_findings(&mut whole, &rows);
            whole.finish().unwrap();
            let checkpoints = whole.all_checkpoints();
            assert_eq!(checkpoints.len(), 30usize.div_ceil(GROUP));
            let bytes = std::fs::read(&path).unwrap();
            let want = read_back(&path);
            let limits = checkpoints
                .iter()
                .flat_map(|cp| [(cp, None), (cp, Some(cp.rows - 1))]);
            for (cp, limit) in limits {
                let cut = (cp.bytes as usize + bytes.len()) / 2;
                let old = recovered(dir.path(), "old.parquet", &bytes[..cut], cp);
                let new = dir.path().join("new.parquet");
                let mut resumed = sink(&new);
                let done = replay_findings_parquet(&old, &mut resumed, limit).unwrap();
                let replayed = limit.unwrap_or(cp.rows);
                assert_eq!(done.rows, replayed);
                let (line, _, _, _) = &rows[replayed as usize - 1];
                let file = match (with_file, *line < 5) {
                    (false, _) => "",
                    (true, true) => "a.txt",
                    (true, false) => "b.txt",
                };
                assert_eq!(done.last, Some((file.to_string(), *line)));
                write_findings(&mut resumed, &rows[replayed as usize..]);
                resumed.finish().unwrap();
                assert_eq!(
                    read_back(&new),
                    want,
                    "with_file {with_file}, {replayed} rows"
                );
                let more = Some(cp.rows + 1);
                let mut sink = sink(&dir.path().join("more.parquet"));
                let err = replay_findings_parquet(&old, &mut sink, more).unwrap_err();
                assert!(err.to_string().contains("fewer than"), "{err}");
            }
        }
    }

    /// pyarrow (Arrow's C++ reader, as pandas and polars' users have it) reads a
    /// recovered file as the `parquet` crate does. Runs with the Python named by
    /// `BULKDOKU_TEST_PYTHON` (python/ci.sh sets it to its virtualenv's: there the
    /// check is required), else with `python3` when that has pyarrow.
    #[test]
    fn pyarrow_reads_a_recovered_file() {
        let required = std::env::var("BULKDOKU_TEST_PYTHON").ok();
        let python = required.clone().unwrap_or_else(|| "python3".into());
        let has_pyarrow = std::process::Command::new(&python)
            .args(["-c", "import pyarrow.parquet"])
            .output()
            .is_ok_and(|out| out.status.success());
        if !has_pyarrow {
            assert!(required.is_none(), "{python} cannot import pyarrow");
            eprintln!(
                "pyarrow_reads_a_recovered_file: not checked here, {python} has no pyarrow \
                 (python/ci.sh runs it with pyarrow)"
            );
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let records = records(30, true);
        let path = dir.path().join("whole.parquet");
        let checkpoints = write_whole(&path, &records);
        let bytes = std::fs::read(&path).unwrap();
        let cp = &checkpoints[checkpoints.len() / 2];
        let cut = (cp.bytes + checkpoints[checkpoints.len() / 2 + 1].bytes) as usize / 2;
        let old = recovered(dir.path(), "old.parquet", &bytes[..cut], cp);
        const SCRIPT: &str = r#"
import json, sys
import pyarrow.parquet as pq
meta = pq.ParquetFile(sys.argv[1]).metadata
rows = [["\u2205" if v is None else str(v) for v in row.values()]
        for row in pq.read_table(sys.argv[1]).to_pylist()]
groups = [meta.row_group(i).num_rows for i in range(meta.num_row_groups)]
print(json.dumps({"rows": rows, "groups": groups}))
"#;
        let out = std::process::Command::new(&python)
            .args(["-c", SCRIPT])
            .arg(&old)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "pyarrow failed: {stderr}");
        #[derive(serde::Deserialize)]
        struct Read {
            rows: Vec<Vec<String>>,
            groups: Vec<i64>,
        }
        let read: Read = serde_json::from_slice(&out.stdout).unwrap();
        let (rows, groups) = read_back(&old);
        assert_eq!(rows.len() as u64, cp.rows);
        assert_eq!(read.rows, rows);
        assert_eq!(read.groups, groups);
    }
}
