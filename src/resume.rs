//! Resuming interrupted runs: what a run records beside its output, and how much of
//! an output is whole.
//!
//! A run that writes to `OUT` keeps a small JSON file `OUT.resume` beside it for as
//! long as it is unfinished: the command, the options that shape its rows, and a stamp
//! (path, size, modification time) of each input ([`RunRecord`]). `verify`, whose rows
//! are findings rather than one per record, also records checkpoints: records done and
//! bytes written so far, with its totals. A finished run removes the file.
//!
//! `--resume` reads it back, refuses when the inputs or the options differ, keeps the
//! output's whole rows and drops a torn tail (`solve`: rows read back with
//! [`solve_rows_done`] for CSV, [`solve_jsonl_rows_done`] for JSON Lines; `verify`: cut
//! at its last checkpoint), skips the records done and appends the rest. A `solve`
//! Parquet output, whose row groups are indexed by a footer at the end of the file, keeps
//! a checkpoint of its closed row groups in the record ([`RunRecord::parquet`]): the file
//! is cut back to it and written again (see `crate::output::checkpoint`).

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::time::UNIX_EPOCH;

use anyhow::{bail, Context};
use serde::{Deserialize, Serialize};

use crate::output::checkpoint::ParquetCheckpoint;
use crate::output::file::{sibling, write_atomic};
use crate::row::{Status, SOLVE_COLUMNS};

/// The version of the [`RunRecord`] layout.
const VERSION: u32 = 1;

/// What an unfinished run wrote beside its output.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct RunRecord {
    /// Layout version.
    pub version: u32,
    /// The subcommand (`solve`, `verify`).
    pub command: String,
    /// Every option that shapes the rows, by flag name, as text.
    pub options: BTreeMap<String, String>,
    /// The inputs, in order.
    pub inputs: Vec<InputStamp>,
    /// The last checkpoint, for commands that keep them.
    pub checkpoint: Option<Checkpoint>,
    /// The last checkpoint of a Parquet output: its whole row groups and their footer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parquet: Option<ParquetCheckpoint>,
    /// True while the rows of a resumed Parquet output are in `NAME.partial.old`
    /// (being written again into `NAME.partial`): the checkpoint describes that file.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub aside: bool,
}

/// An input as it was when the run started.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InputStamp {
    /// The path as given.
    pub path: PathBuf,
    /// Its size in bytes.
    pub size: u64,
    /// Its modification time, in nanoseconds since the Unix epoch (0 if unknown).
    pub modified_ns: u128,
}

/// How far a run got: records done, and the output's length when they were.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Checkpoint {
    /// Records whose rows are all in the first `bytes` of the output.
    pub records: u64,
    /// Bytes of the output holding those rows.
    pub bytes: u64,
    /// The command's totals at that point.
    pub totals: serde_json::Value,
}

/// The file beside output `out` that records its run.
pub fn record_path(out: &Path) -> PathBuf {
    sibling(out, ".resume")
}

impl RunRecord {
    /// The record of a `command` run with `options` over `inputs`. Standard input
    /// cannot be resumed (it cannot be read again): an error.
    pub fn new(
        command: &str,
        options: BTreeMap<String, String>,
        inputs: &[Option<PathBuf>],
    ) -> anyhow::Result<RunRecord> {
        let mut stamps = Vec::with_capacity(inputs.len());
        for input in inputs {
            let Some(path) = input else {
                bail!("standard input cannot be resumed: name the input files");
            };
            let meta = std::fs::metadata(path)
                .with_context(|| format!("{}: cannot open", path.display()))?;
            let modified_ns = meta
                .modified()
                .ok()
                .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
                .map_or(0, |d| d.as_nanos());
            stamps.push(InputStamp {
                path: path.clone(),
                size: meta.len(),
                modified_ns,
            });
        }
        Ok(RunRecord {
            version: VERSION,
            command: command.to_string(),
            options,
            inputs: stamps,
            checkpoint: None,
            parquet: None,
            aside: false,
        })
    }

    /// The record left beside output `out`, if any.
    pub fn load(out: &Path) -> anyhow::Result<Option<RunRecord>> {
        let path = record_path(out);
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
        };
        let record: RunRecord = serde_json::from_str(&text)
            .with_context(|| format!("{}: not a bulkdoku run record", path.display()))?;
        Ok(Some(record))
    }

    /// Write the record beside output `out`, atomically and durably (a crash leaves
    /// the old one or the new one, never half of one), through the commit path's
    /// [`write_atomic`].
    pub fn save(&self, out: &Path) -> anyhow::Result<()> {
        let text = serde_json::to_string_pretty(self)? + "\n";
        write_atomic(&record_path(out), text.as_bytes())
    }

    /// Remove the record beside output `out` (the run finished).
    pub fn remove(out: &Path) -> anyhow::Result<()> {
        match std::fs::remove_file(record_path(out)) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                Err(e).with_context(|| format!("cannot remove {}", record_path(out).display()))
            }
            _ => Ok(()),
        }
    }

    /// Why a run recorded as `self` cannot be continued as `now`, if it cannot: a
    /// different command, input or option.
    pub fn mismatch(&self, now: &RunRecord) -> Option<String> {
        if self.version != now.version || self.command != now.command {
            return Some(format!(
                "it was left by `bulkdoku {}`, not `bulkdoku {}`",
                self.command, now.command
            ));
        }
        let names = |r: &RunRecord| -> Vec<String> {
            r.inputs
                .iter()
                .map(|i| i.path.display().to_string())
                .collect()
        };
        if names(self) != names(now) {
            return Some(format!(
                "the inputs differ: {} then, {} now",
                names(self).join(" "),
                names(now).join(" ")
            ));
        }
        if let Some((then, now)) = self.inputs.iter().zip(&now.inputs).find(|(a, b)| a != b) {
            return Some(format!(
                "{} changed since (size {} then, {} now; modified {} then, {} now)",
                now.path.display(),
                then.size,
                now.size,
                then.modified_ns,
                now.modified_ns
            ));
        }
        let keys: std::collections::BTreeSet<&String> =
            self.options.keys().chain(now.options.keys()).collect();
        for key in keys {
            let (a, b) = (self.options.get(key), now.options.get(key));
            if a != b {
                let show =
                    |v: Option<&String>| v.map_or("(none)".to_string(), |v| format!("{v:?}"));
                return Some(format!("{key} differs: {} then, {} now", show(a), show(b)));
            }
        }
        None
    }
}

/// How much of a `solve` CSV output is whole: the records whose rows are all there,
/// and the bytes those rows take (from the start of the file). A torn last row, and
/// the rows of a record cut short (`all_solutions`: fewer rows than its solutions), are
/// left out. `header` when the output starts with its header row.
pub fn solve_rows_done(
    file: &mut File,
    header: bool,
    all_solutions: bool,
) -> anyhow::Result<(u64, u64)> {
    let len = file.seek(SeekFrom::End(0))?;
    if len == 0 {
        return Ok((0, 0));
    }
    file.seek(SeekFrom::Start(len - 1))?;
    let mut last = [0u8];
    file.read_exact(&mut last)?;
    let ends_whole = last[0] == b'\n';
    file.seek(SeekFrom::Start(0))?;
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(BufReader::new(&mut *file));
    let mut row = csv::StringRecord::new();
    let column = |name: &str| SOLVE_COLUMNS.iter().position(|c| *c == name);
    let (file_i, line_i, status_i, solutions_i) = (
        column("file").unwrap_or(0),
        column("line").unwrap_or(1),
        column("status").unwrap_or(3),
        column("solutions").unwrap_or(4),
    );
    let mut whole = Whole::new(all_solutions);
    let mut first = header;
    // A torn row may not parse: where reading fails, the whole rows end.
    while let Ok(true) = reader.read_record(&mut row) {
        let end = reader.position().byte();
        if end == len && !ends_whole {
            break; // the last row, cut short
        }
        if std::mem::take(&mut first) {
            if row.get(0) != Some("file") {
                bail!("not the output of `bulkdoku solve`: its first row is not the header");
            }
            whole.bytes = end;
            continue;
        }
        if row.len() < SOLVE_COLUMNS.len() {
            break;
        }
        let solved = Status::parse(&row[status_i]).is_some_and(Status::has_solution);
        let solutions = row[solutions_i].parse::<u64>().unwrap_or(1);
        whole.row(&row[file_i], &row[line_i], solved, solutions, end);
    }
    Ok((whole.records, whole.bytes))
}

/// How much of a `solve` output in grid pictures is whole: the records whose
/// pictures are all there, and the bytes they take. Each record's picture ends with a
/// blank line, and none holds one inside (error texts are written with their control
/// characters escaped). Grid pictures cannot be resumed; this is what a failed run
/// keeps.
pub fn grid_records_done(file: &mut File) -> anyhow::Result<(u64, u64)> {
    file.seek(SeekFrom::Start(0))?;
    let mut reader = BufReader::new(&mut *file);
    let (mut records, mut bytes, mut at, mut last) = (0u64, 0u64, 0u64, 0u8);
    loop {
        let buf = reader.fill_buf()?;
        if buf.is_empty() {
            break;
        }
        for &b in buf {
            at += 1;
            if b == b'\n' && last == b'\n' {
                records += 1;
                bytes = at;
            }
            last = b;
        }
        let n = buf.len();
        reader.consume(n);
    }
    Ok((records, bytes))
}

/// Records whose rows are all there, counted row by row (also for Parquet, in
/// `crate::output::parquet_resume`, where `end` counts rows rather than bytes).
pub(crate) struct Whole {
    all_solutions: bool,
    /// Records whole so far.
    pub(crate) records: u64,
    /// Bytes from the start of the file to the end of the last whole record.
    pub(crate) bytes: u64,
    /// The record being read: its (file, line), rows so far, rows it needs.
    group: Option<((String, String), u64, u64)>,
}

impl Whole {
    pub(crate) fn new(all_solutions: bool) -> Whole {
        Whole {
            all_solutions,
            records: 0,
            bytes: 0,
            group: None,
        }
    }

    /// A row of the record at `file`:`line`, ending at byte `end`. With every solution
    /// written, a `solved` record has a row per solution found (`solutions`); any other
    /// record has one row.
    pub(crate) fn row(&mut self, file: &str, line: &str, solved: bool, solutions: u64, end: u64) {
        let key = (file.to_string(), line.to_string());
        let needs = if self.all_solutions && solved {
            solutions.max(1)
        } else {
            1
        };
        let (rows, needs) = match self.group.take() {
            Some((k, rows, needs)) if k == key => (rows + 1, needs),
            _ => (1, needs),
        };
        if rows == needs {
            self.records += 1;
            self.bytes = end;
        } else {
            self.group = Some((key, rows, needs));
        }
    }
}

/// The fields of a JSON Lines row that say which record it belongs to and how many rows
/// the record has.
#[derive(Deserialize)]
struct JsonRow {
    file: String,
    line: u64,
    status: Status,
    /// Absent from `rate`'s rows, which are one per record.
    #[serde(default)]
    solutions: u64,
}

/// [`solve_rows_done`] for a `solve` output in JSON Lines: the records whose rows are
/// all there and the bytes they take. A last line without its line break (a killed
/// run's torn row) is left out; any other line that is not a `solve` row is an error
/// (the file is not such an output, or was changed since).
pub fn solve_jsonl_rows_done(file: &mut File, all_solutions: bool) -> anyhow::Result<(u64, u64)> {
    file.seek(SeekFrom::Start(0))?;
    let mut reader = BufReader::new(&mut *file);
    let mut whole = Whole::new(all_solutions);
    let mut line = Vec::new();
    let (mut end, mut number) = (0u64, 0u64);
    loop {
        line.clear();
        let n = reader.read_until(b'\n', &mut line)?;
        if n == 0 || line.last() != Some(&b'\n') {
            break;
        }
        end += n as u64;
        number += 1;
        let row: JsonRow = serde_json::from_slice(&line).with_context(|| {
            format!("line {number} is not a row of `bulkdoku solve --output-format jsonl`")
        })?;
        let solved = row.status.has_solution();
        whole.row(&row.file, &row.line.to_string(), solved, row.solutions, end);
    }
    Ok((whole.records, whole.bytes))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn file_with(text: &str) -> File {
        let mut f = tempfile::tempfile().unwrap();
        f.write_all(text.as_bytes()).unwrap();
        f
    }

    const HEADER: &str = "file,line,puzzle,status,solutions,clues,guesses,time_ns,solution,error\n";

    #[test]
    fn whole_rows_are_kept_and_a_torn_tail_dropped() {
        let rows =
            "a.txt,1,p,unique,1,20,0,5,s,\na.txt,2,x,invalid,0,0,0,0,,\"3 cells, expected 81\"\n";
        let text = format!("{HEADER}{rows}");
        let whole = solve_rows_done(&mut file_with(&text), true, false).unwrap();
        assert_eq!(whole, (2, text.len() as u64));
        let torn = format!("{text}a.txt,3,p,uni");
        assert_eq!(
            solve_rows_done(&mut file_with(&torn), true, false).unwrap(),
            whole
        );
        let cut_in_quotes = &text[..text.len() - 5];
        let (records, bytes) = solve_rows_done(&mut file_with(cut_in_quotes), true, false).unwrap();
        assert_eq!(
            (records, bytes),
            (1, (HEADER.len() + rows.find('\n').unwrap() + 1) as u64)
        );
        assert_eq!(
            solve_rows_done(&mut file_with(""), true, false).unwrap(),
            (0, 0)
        );
        let bare = solve_rows_done(&mut file_with(rows), false, false).unwrap();
        assert_eq!(bare, (2, rows.len() as u64));
        assert!(solve_rows_done(&mut file_with("x,y\n"), true, false).is_err());
    }

    #[test]
    fn a_record_cut_among_its_solution_rows_is_dropped_whole() {
        let rows = "a.txt,1,p,multiple,3,20,0,5,s1,\n\
                    a.txt,1,p,multiple,3,20,0,5,s2,\n\
                    a.txt,1,p,multiple,3,20,0,5,s3,\n\
                    a.txt,2,p,unsolvable,0,20,0,5,,\n\
                    a.txt,3,p,multiple,2,20,0,5,s1,\n";
        let text = format!("{HEADER}{rows}");
        let (records, bytes) = solve_rows_done(&mut file_with(&text), true, true).unwrap();
        assert_eq!(records, 2);
        assert_eq!(&text[bytes as usize..], "a.txt,3,p,multiple,2,20,0,5,s1,\n");
    }

    #[test]
    fn jsonl_rows_done_keeps_whole_records_and_drops_a_torn_line() {
        let row = |line: u64, status: &str, solutions: u64, solution: &str| {
            format!(
                "{{\"file\":\"a.txt\",\"line\":{line},\"puzzle\":\"p\",\"status\":\"{status}\",\
                 \"solutions\":{solutions},\"clues\":20,\"guesses\":0,\"time_ns\":5,\
                 \"solution\":{solution},\"error\":null}}\n"
            )
        };
        let rows = [
            row(1, "multiple", 3, "\"s1\""),
            row(1, "multiple", 3, "\"s2\""),
            row(1, "multiple", 3, "\"s3\""),
            row(2, "unsolvable", 0, "null"),
            row(3, "multiple", 2, "\"s1\""),
        ];
        let text = rows.concat();
        let (records, bytes) = solve_jsonl_rows_done(&mut file_with(&text), true).unwrap();
        assert_eq!(records, 2);
        assert_eq!(&text[bytes as usize..], rows[4]);
        // One row per record without --all-solutions.
        let (records, bytes) = solve_jsonl_rows_done(&mut file_with(&text), false).unwrap();
        assert_eq!((records, bytes), (5, text.len() as u64));
        // A torn last line is dropped, wherever it was cut.
        for cut in [1, 20, rows[4].len() - 1] {
            let torn = format!("{}{}", rows[..4].concat(), &rows[4][..cut]);
            let done = solve_jsonl_rows_done(&mut file_with(&torn), false).unwrap();
            assert_eq!(done, (4, rows[..4].concat().len() as u64), "cut at {cut}");
        }
        assert_eq!(
            solve_jsonl_rows_done(&mut file_with(""), false).unwrap(),
            (0, 0)
        );
        // A whole line that is not a row is not silently dropped.
        let csv = format!("{HEADER}a.txt,1,p,unique,1,20,0,5,s,\n");
        let err = solve_jsonl_rows_done(&mut file_with(&csv), false).unwrap_err();
        assert!(
            format!("{err:#}").contains("line 1 is not a row"),
            "{err:#}"
        );
    }

    #[test]
    fn records_differ_by_command_inputs_and_options() {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("in.txt");
        std::fs::write(&input, "x\n").unwrap();
        let options = |limit: &str| BTreeMap::from([("--limit".to_string(), limit.to_string())]);
        let inputs = [Some(input.clone())];
        let a = RunRecord::new("solve", options("2"), &inputs).unwrap();
        assert_eq!(a.mismatch(&a.clone()), None);
        let b = RunRecord::new("solve", options("3"), &inputs).unwrap();
        assert_eq!(
            a.mismatch(&b).unwrap(),
            "--limit differs: \"2\" then, \"3\" now"
        );
        let c = RunRecord::new("verify", options("2"), &inputs).unwrap();
        assert!(a.mismatch(&c).unwrap().contains("bulkdoku solve"));
        std::fs::write(&input, "xy\n").unwrap();
        let d = RunRecord::new("solve", options("2"), &inputs).unwrap();
        assert!(a.mismatch(&d).unwrap().contains("changed since"));
        assert!(RunRecord::new("solve", options("2"), &[None]).is_err());

        let out = dir.path().join("out.csv");
        assert_eq!(RunRecord::load(&out).unwrap(), None);
        a.save(&out).unwrap();
        assert_eq!(RunRecord::load(&out).unwrap(), Some(a));
        RunRecord::remove(&out).unwrap();
        assert_eq!(RunRecord::load(&out).unwrap(), None);
    }
}
