//! Reading a run: the CSV or Parquet that `bulkdoku solve` writes, found by column
//! name.
//!
//! Only the columns a report needs are read (`status`, `clues`, `guesses`, `time_ns`,
//! `line`, and `file` and `puzzle` when present), so extra or reordered columns are fine.
//! Anything that does not parse is an error naming the run file and its CSV line, or
//! for Parquet its row. A Parquet run is known by its first bytes (`PAR1`), whatever
//! its name, so that runs of both formats can be mixed (`report --baseline`). Parquet
//! written by other tools is read too when its columns are integers and strings (a run
//! loaded into pandas or polars and saved again has signed integers, for one).

use std::io::{BufReader, Read};
use std::path::Path;

use anyhow::{anyhow, bail, Context};

/// A puzzle's verdict as `solve` wrote it: the same type `solve` writes.
pub use crate::row::Status;

/// One puzzle of a run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunRow {
    /// The dataset file the puzzle came from (`file` column; empty when absent).
    pub file: String,
    /// The puzzle's line in its dataset (`line` column).
    pub line: u64,
    /// The puzzle as written (`puzzle` column; empty when absent).
    pub puzzle: String,
    /// The verdict.
    pub status: Status,
    /// Givens, when the puzzle was valid.
    pub clues: Option<u32>,
    /// Guesses the search made, when it ran.
    pub guesses: Option<u64>,
    /// Solve time in nanoseconds, when the search ran.
    pub time_ns: Option<u64>,
}

impl RunRow {
    /// The solve time of a row that was searched (not invalid), if any.
    pub fn timed(&self) -> Option<u64> {
        if self.status == Status::Invalid {
            None
        } else {
            self.time_ns
        }
    }
}

/// Columns a run must have.
const REQUIRED: [&str; 5] = ["line", "status", "clues", "guesses", "time_ns"];

/// The first bytes of a Parquet file.
const PARQUET_MAGIC: &[u8; 4] = b"PAR1";

/// Read the run file at `path` (`-` for standard input), CSV or Parquet.
pub fn read_run_file(path: &Path) -> anyhow::Result<Vec<RunRow>> {
    let name = path.display().to_string();
    if path.as_os_str() == "-" {
        let mut stdin = std::io::stdin().lock();
        let mut start = Vec::with_capacity(PARQUET_MAGIC.len());
        (&mut stdin)
            .take(PARQUET_MAGIC.len() as u64)
            .read_to_end(&mut start)
            .context("<stdin>: cannot read")?;
        if start == PARQUET_MAGIC {
            // A Parquet file is read from its end (the footer): held in memory whole.
            let mut all = start;
            stdin
                .read_to_end(&mut all)
                .context("<stdin>: cannot read")?;
            #[cfg(feature = "parquet")]
            let all = bytes::Bytes::from(all);
            return read_parquet_run(all, "<stdin>");
        }
        return read_run(std::io::Cursor::new(start).chain(stdin), "<stdin>");
    }
    let mut file = std::fs::File::open(path).with_context(|| format!("{name}: cannot open"))?;
    let mut start = Vec::with_capacity(PARQUET_MAGIC.len());
    (&mut file)
        .take(PARQUET_MAGIC.len() as u64)
        .read_to_end(&mut start)
        .with_context(|| format!("{name}: cannot read"))?;
    let named_parquet = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("parquet"));
    if start == PARQUET_MAGIC || named_parquet {
        return read_parquet_run(file, &name);
    }
    read_run(
        BufReader::new(std::io::Cursor::new(start).chain(file)),
        &name,
    )
}

/// Read a run from `reader`; `name` is used in error messages.
pub fn read_run<R: Read>(reader: R, name: &str) -> anyhow::Result<Vec<RunRow>> {
    let mut csv = csv::ReaderBuilder::new()
        .has_headers(true)
        .from_reader(reader);
    let headers = csv
        .headers()
        .map_err(|e| anyhow!("{name}:1: cannot read the header row: {e}"))?
        .clone();
    if headers.is_empty() || (headers.len() == 1 && headers[0].is_empty()) {
        bail!("{name}:1: empty file, expected the header row of a `bulkdoku solve` run");
    }
    let find = |col: &str| headers.iter().position(|h| h == col);
    let missing: Vec<&str> = REQUIRED.into_iter().filter(|c| find(c).is_none()).collect();
    if !missing.is_empty() {
        bail!(
            "{name}:1: not a `bulkdoku solve` run: missing column{} {} (header: {})",
            if missing.len() > 1 { "s" } else { "" },
            missing
                .iter()
                .map(|c| format!("`{c}`"))
                .collect::<Vec<_>>()
                .join(", "),
            headers.iter().collect::<Vec<_>>().join(",")
        );
    }
    let col = |c: &str| find(c).expect("checked above");
    let (line_i, status_i, clues_i, guesses_i, time_i) = (
        col("line"),
        col("status"),
        col("clues"),
        col("guesses"),
        col("time_ns"),
    );
    let (file_i, puzzle_i) = (find("file"), find("puzzle"));

    let mut rows: Vec<RunRow> = Vec::new();
    let mut record = csv::StringRecord::new();
    loop {
        match csv.read_record(&mut record) {
            Ok(true) => {}
            Ok(false) => break,
            Err(e) => {
                let at = e.position().map_or(0, |p| p.line());
                bail!("{name}:{at}: {}", csv_reason(&e));
            }
        }
        let at = record.position().map_or(0, |p| p.line());
        let field = |i: usize| record.get(i).unwrap_or("").trim();
        let status_text = field(status_i);
        let status = Status::parse(status_text).ok_or_else(|| {
            anyhow!(
                "{name}:{at}: column `status`: unknown status {status_text:?} \
                 (expected unique, multiple, solved, unsolvable or invalid)"
            )
        })?;
        let line = number::<u64>(field(line_i), "line", name, at)?;
        let clues = number::<u64>(field(clues_i), "clues", name, at)?;
        let guesses = number::<u64>(field(guesses_i), "guesses", name, at)?;
        let time_ns = number::<u64>(field(time_i), "time_ns", name, at)?;
        let figures = Figures {
            line,
            clues,
            guesses,
            time_ns,
        };
        let file = file_i.map(&field).unwrap_or_default();
        let puzzle = puzzle_i.map(&field).unwrap_or_default();
        push_row(&mut rows, file, puzzle, status, figures)
            .map_err(|e| anyhow!("{name}:{at}: {e}"))?;
    }
    Ok(rows)
}

/// The numbers of one row, `None` where a field is empty (null).
struct Figures {
    line: Option<u64>,
    clues: Option<u64>,
    guesses: Option<u64>,
    time_ns: Option<u64>,
}

/// Check one row's figures and add it to `rows`, unless it is another row of the
/// puzzle before it. The error says what is wrong, for the caller to say where.
fn push_row(
    rows: &mut Vec<RunRow>,
    file: &str,
    puzzle: &str,
    status: Status,
    figures: Figures,
) -> anyhow::Result<()> {
    let line = figures
        .line
        .ok_or_else(|| anyhow!("column `line` is empty"))?;
    let clues = figures
        .clues
        .map(|c| u32::try_from(c).map_err(|_| anyhow!("column `clues`: {c} is too large")))
        .transpose()?;
    if status != Status::Invalid {
        // A searched puzzle must carry its figures, or the report would silently
        // leave it out.
        for (value, col) in [
            (clues.is_some(), "clues"),
            (figures.guesses.is_some(), "guesses"),
            (figures.time_ns.is_some(), "time_ns"),
        ] {
            if !value {
                bail!("column `{col}` is empty for a {status} puzzle");
            }
        }
    }
    // `solve --all-solutions` writes a row per solution, one after another, all
    // with their puzzle's file and line: one puzzle, counted once.
    if rows
        .last()
        .is_some_and(|last| last.line == line && last.file == file)
    {
        return Ok(());
    }
    rows.push(RunRow {
        file: file.to_string(),
        line,
        puzzle: puzzle.to_string(),
        status,
        clues,
        guesses: figures.guesses,
        time_ns: figures.time_ns,
    });
    Ok(())
}

/// A parsed whole number, `None` for an empty field.
fn number<T: std::str::FromStr>(
    text: &str,
    col: &str,
    name: &str,
    at: u64,
) -> anyhow::Result<Option<T>> {
    if text.is_empty() {
        return Ok(None);
    }
    text.parse()
        .map(Some)
        .map_err(|_| anyhow!("{name}:{at}: column `{col}`: {text:?} is not a whole number"))
}

/// Read a Parquet run from `data` (a file, or the bytes of one); `name` is used in
/// error messages, with the 1-based row.
#[cfg(feature = "parquet")]
fn read_parquet_run<R: parquet::file::reader::ChunkReader + 'static>(
    data: R,
    name: &str,
) -> anyhow::Result<Vec<RunRow>> {
    use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
    use parquet::arrow::ProjectionMask;

    let builder = ParquetRecordBatchReaderBuilder::try_new(data)
        .map_err(|e| anyhow!("{name}: not a readable Parquet file: {e}"))?;
    let schema = builder.schema().clone();
    let find = |col: &str| schema.fields().iter().position(|f| f.name() == col);
    let missing: Vec<&str> = REQUIRED.into_iter().filter(|c| find(c).is_none()).collect();
    if !missing.is_empty() {
        bail!(
            "{name}: not a `bulkdoku solve` run: missing column{} {} (columns: {})",
            if missing.len() > 1 { "s" } else { "" },
            missing
                .iter()
                .map(|c| format!("`{c}`"))
                .collect::<Vec<_>>()
                .join(", "),
            schema
                .fields()
                .iter()
                .map(|f| f.name().as_str())
                .collect::<Vec<_>>()
                .join(",")
        );
    }
    // Only the columns a report needs are decoded (not the solutions).
    let wanted = [
        "file", "line", "puzzle", "status", "clues", "guesses", "time_ns",
    ];
    let indices: Vec<usize> = wanted.iter().filter_map(|c| find(c)).collect();
    let mask = ProjectionMask::roots(builder.parquet_schema(), indices);
    let reader = builder
        .with_projection(mask)
        .build()
        .map_err(|e| anyhow!("{name}: {e}"))?;
    let mut rows: Vec<RunRow> = Vec::new();
    let mut at = 0u64; // rows before this batch
    for batch in reader {
        let batch = batch.map_err(|e| anyhow!("{name}: cannot read row {}: {e}", at + 1))?;
        let column = |col: &str| batch.column_by_name(col).map(|c| c.as_ref());
        let texts = |col: &str| -> anyhow::Result<Option<Vec<Option<&str>>>> {
            column(col)
                .map(|a| arrow_read::texts(a).map_err(|e| anyhow!("{name}: column `{col}`: {e}")))
                .transpose()
        };
        let counts = |col: &str| -> anyhow::Result<Vec<Option<u64>>> {
            let a = column(col).expect("a required column");
            arrow_read::counts(a).map_err(|e| anyhow!("{name}: column `{col}`: {e}"))
        };
        let (file, puzzle) = (texts("file")?, texts("puzzle")?);
        let status = texts("status")?.expect("a required column");
        let (line, clues) = (counts("line")?, counts("clues")?);
        let (guesses, time_ns) = (counts("guesses")?, counts("time_ns")?);
        for i in 0..batch.num_rows() {
            let row = at + i as u64 + 1;
            let status_text = status[i].unwrap_or("");
            let status = Status::parse(status_text).ok_or_else(|| {
                anyhow!(
                    "{name}: row {row}: column `status`: unknown status {status_text:?} \
                     (expected unique, multiple, solved, unsolvable or invalid)"
                )
            })?;
            let figures = Figures {
                line: line[i],
                clues: clues[i],
                guesses: guesses[i],
                time_ns: time_ns[i],
            };
            push_row(
                &mut rows,
                file.as_ref().and_then(|c| c[i]).unwrap_or(""),
                puzzle.as_ref().and_then(|c| c[i]).unwrap_or(""),
                status,
                figures,
            )
            .map_err(|e| anyhow!("{name}: row {row}: {e}"))?;
        }
        at += batch.num_rows() as u64;
    }
    Ok(rows)
}

#[cfg(not(feature = "parquet"))]
fn read_parquet_run<R>(_data: R, name: &str) -> anyhow::Result<Vec<RunRow>> {
    Err(crate::output::no_parquet().context(format!("{name}: a Parquet run")))
}

/// Values of Arrow columns as a report takes them, whatever the writer's types.
#[cfg(feature = "parquet")]
pub(crate) mod arrow_read {
    use anyhow::{anyhow, bail};
    use arrow_array::cast::AsArray;
    use arrow_array::types::{
        Int16Type, Int32Type, Int64Type, Int8Type, UInt16Type, UInt32Type, UInt64Type, UInt8Type,
    };
    use arrow_array::Array;
    use arrow_schema::DataType;

    /// The values of a string column (of any of Arrow's string layouts).
    pub fn texts(array: &dyn Array) -> anyhow::Result<Vec<Option<&str>>> {
        Ok(match array.data_type() {
            DataType::Utf8 => array.as_string::<i32>().iter().collect(),
            DataType::LargeUtf8 => array.as_string::<i64>().iter().collect(),
            DataType::Utf8View => array.as_string_view().iter().collect(),
            other => bail!("expected strings, found {other}"),
        })
    }

    /// The values of an integer column, signed or not, of any width; a negative value
    /// is an error.
    pub fn counts(array: &dyn Array) -> anyhow::Result<Vec<Option<u64>>> {
        fn all<T: TryInto<u64> + Copy + std::fmt::Display>(
            values: impl Iterator<Item = Option<T>>,
        ) -> anyhow::Result<Vec<Option<u64>>> {
            values
                .map(|v| {
                    v.map(|n| n.try_into().map_err(|_| anyhow!("{n} is not a count")))
                        .transpose()
                })
                .collect()
        }
        match array.data_type() {
            DataType::UInt64 => all(array.as_primitive::<UInt64Type>().iter()),
            DataType::UInt32 => all(array.as_primitive::<UInt32Type>().iter()),
            DataType::UInt16 => all(array.as_primitive::<UInt16Type>().iter()),
            DataType::UInt8 => all(array.as_primitive::<UInt8Type>().iter()),
            DataType::Int64 => all(array.as_primitive::<Int64Type>().iter()),
            DataType::Int32 => all(array.as_primitive::<Int32Type>().iter()),
            DataType::Int16 => all(array.as_primitive::<Int16Type>().iter()),
            DataType::Int8 => all(array.as_primitive::<Int8Type>().iter()),
            other => bail!("expected whole numbers, found {other}"),
        }
    }
}

/// The reason part of a CSV error, without the position the message already names.
fn csv_reason(e: &csv::Error) -> String {
    match e.kind() {
        csv::ErrorKind::UnequalLengths {
            expected_len, len, ..
        } => format!("row has {len} fields, the header has {expected_len}"),
        csv::ErrorKind::Utf8 { .. } => "not valid UTF-8".to_string(),
        _ => e.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEADER: &str = "file,line,puzzle,status,solutions,clues,guesses,time_ns,solution,error\n";

    #[test]
    fn reads_rows_by_column_name() {
        let text = "time_ns,status,line,clues,guesses,extra\n100,unique,3,25,0,x\n,invalid,4,,,y\n";
        let rows = read_run(text.as_bytes(), "run.csv").unwrap();
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].time_ns, Some(100));
        assert_eq!(rows[0].status, Status::Unique);
        assert_eq!((rows[0].line, rows[0].clues), (3, Some(25)));
        assert_eq!(rows[0].file, "");
        assert_eq!(rows[1].status, Status::Invalid);
        assert_eq!(rows[1].timed(), None);
    }

    #[test]
    fn errors_name_file_and_csv_line() {
        let text =
            format!("{HEADER}a.txt,1,p,unique,1,30,0,100,s,\na.txt,2,p,unique,1,30,0,fast,s,\n");
        let err = read_run(text.as_bytes(), "run.csv")
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("run.csv:3: column `time_ns`"), "{err}");

        let text = format!("{HEADER}a.txt,1,p,maybe,1,30,0,100,s,\n");
        let err = read_run(text.as_bytes(), "run.csv")
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("run.csv:2: column `status`"), "{err}");

        let err = read_run("line,status\n".as_bytes(), "r.csv")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("r.csv:1:") && err.contains("`clues`, `guesses`, `time_ns`"),
            "{err}"
        );
    }

    #[test]
    fn searched_rows_need_their_figures() {
        let text = format!("{HEADER}a.txt,1,p,unique,1,30,,100,s,\n");
        let err = read_run(text.as_bytes(), "run.csv")
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("run.csv:2: column `guesses` is empty"),
            "{err}"
        );
    }
}
