//! Reading a run: the CSV that `bulkdoku solve` writes, found by column name.
//!
//! Only the columns a report needs are read (`status`, `clues`, `guesses`, `time_ns`,
//! `line`, and `file` and `puzzle` when present), so extra or reordered columns are fine.
//! Anything that does not parse is an error naming the run file and its CSV line.

use std::io::Read;
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

/// Read the run file at `path` (`-` for standard input).
pub fn read_run_file(path: &Path) -> anyhow::Result<Vec<RunRow>> {
    let name = path.display().to_string();
    if path.as_os_str() == "-" {
        return read_run(std::io::stdin().lock(), "<stdin>");
    }
    let file = std::fs::File::open(path).with_context(|| format!("{name}: cannot open"))?;
    read_run(std::io::BufReader::new(file), &name)
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
        let line = number::<u64>(field(line_i), "line", name, at)?
            .ok_or_else(|| anyhow!("{name}:{at}: column `line` is empty"))?;
        let clues = number::<u32>(field(clues_i), "clues", name, at)?;
        let guesses = number::<u64>(field(guesses_i), "guesses", name, at)?;
        let time_ns = number::<u64>(field(time_i), "time_ns", name, at)?;
        if status != Status::Invalid {
            // A searched puzzle must carry its figures, or the report would silently
            // leave it out.
            for (value, col) in [
                (clues.is_some(), "clues"),
                (guesses.is_some(), "guesses"),
                (time_ns.is_some(), "time_ns"),
            ] {
                if !value {
                    bail!("{name}:{at}: column `{col}` is empty for a {status} puzzle");
                }
            }
        }
        let file = file_i.map(&field).unwrap_or_default();
        // `solve --all-solutions` writes a row per solution, one after another, all
        // with their puzzle's file and line: one puzzle, counted once.
        if rows
            .last()
            .is_some_and(|last| last.line == line && last.file == file)
        {
            continue;
        }
        rows.push(RunRow {
            file: file.to_string(),
            line,
            puzzle: puzzle_i.map(|i| field(i).to_string()).unwrap_or_default(),
            status,
            clues,
            guesses,
            time_ns,
        });
    }
    Ok(rows)
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
