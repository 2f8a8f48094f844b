//! Write errors injected into whole commands, through the commit path's seam
//! ([`with_ops`]): for every output kind, for many cut points and for both a full disk
//! (ENOSPC) and an I/O error (EIO), the final name keeps what it held, the `.partial`
//! file ends on a whole row, and `--resume` then completes the run, equal to a clean
//! run apart from `time_ns`.

use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use bulkdoku::output::file::{partial_path, with_ops, CommitOps, Disk, Output};
use bulkdoku::resume::{grid_records_done, record_path, solve_jsonl_rows_done, solve_rows_done};
use clap::Parser;

use crate::cli::Cli;

/// Disk operations whose writers of files named `*{suffix}` fail once `budget` bytes
/// were written through them, with OS error `errno`.
#[derive(Debug)]
struct Faulty {
    suffix: &'static str,
    budget: Arc<AtomicU64>,
    errno: i32,
}

impl CommitOps for Faulty {
    fn sync_file(&self, file: &File, path: &Path) -> io::Result<()> {
        Disk.sync_file(file, path)
    }

    fn rename(&self, from: &Path, to: &Path) -> io::Result<()> {
        Disk.rename(from, to)
    }

    fn sync_dir(&self, dir: &Path) -> io::Result<()> {
        Disk.sync_dir(dir)
    }

    fn writer(&self, file: File, path: &Path) -> Box<dyn Write + Send> {
        if path.to_string_lossy().ends_with(self.suffix) {
            Box::new(FailAfter {
                file,
                budget: Arc::clone(&self.budget),
                errno: self.errno,
            })
        } else {
            Box::new(file)
        }
    }
}

/// A file writer that writes what its budget allows, then fails.
struct FailAfter {
    file: File,
    budget: Arc<AtomicU64>,
    errno: i32,
}

impl Write for FailAfter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let left = self.budget.load(Ordering::SeqCst);
        if left == 0 && !buf.is_empty() {
            return Err(io::Error::from_raw_os_error(self.errno));
        }
        let n = buf.len().min(left as usize);
        let n = self.file.write(&buf[..n])?;
        self.budget.fetch_sub(n as u64, Ordering::SeqCst);
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file.flush()
    }
}

/// Run the binary's command line `args` (after `bulkdoku`), with `ops` if given.
fn run(args: &[&str], ops: Option<Arc<dyn CommitOps>>) -> anyhow::Result<u8> {
    let mut argv = vec!["bulkdoku"];
    argv.extend(args);
    let cli = Cli::try_parse_from(argv)?;
    let code = match ops {
        Some(ops) => with_ops(ops, || crate::cmd::run(cli))?,
        None => crate::cmd::run(cli)?,
    };
    // ExitCode has no accessor: compare with the codes a run may end with.
    Ok(if code == std::process::ExitCode::SUCCESS {
        0
    } else {
        1
    })
}

/// A dataset of `n` puzzles from the project's generated set, with a few invalid lines
/// and repeats among them (so that `verify` has findings to write).
fn dataset(dir: &Path, n: usize) -> PathBuf {
    let text = std::fs::read_to_string("data/generated_1000.txt").expect("data/ is shipped");
    let mut lines: Vec<&str> = text.lines().filter(|l| l.len() == 81).take(n).collect();
    let repeats: Vec<&str> = lines.iter().step_by(7).copied().collect();
    lines.extend(repeats);
    lines.insert(3, "12345");
    let at = lines.len().min(40);
    lines.insert(
        at,
        "11.............................................................................",
    );
    let path = dir.join("in.txt");
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    path
}

/// The rows of a Parquet file as text, without `time_ns`.
fn parquet_rows_without_time(path: &Path) -> Vec<String> {
    use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
    let file = File::open(path).unwrap();
    let reader = ParquetRecordBatchReaderBuilder::try_new(file)
        .expect("a readable Parquet file")
        .build()
        .unwrap();
    let mut rows = Vec::new();
    for batch in reader {
        let batch = batch.unwrap();
        let schema = batch.schema();
        for i in 0..batch.num_rows() {
            let mut row = Vec::new();
            for (field, column) in schema.fields().iter().zip(batch.columns()) {
                if field.name() != "time_ns" {
                    let cell = arrow_array_cell(column.as_ref(), i);
                    row.push(format!("{}={cell}", field.name()));
                }
            }
            rows.push(row.join(","));
        }
    }
    rows
}

/// One cell of an Arrow column as text.
fn arrow_array_cell(column: &dyn arrow_array::Array, i: usize) -> String {
    use arrow_array::cast::AsArray;
    use arrow_array::types::UInt64Type;
    if column.is_null(i) {
        return "null".to_string();
    }
    match column.data_type() {
        arrow_schema::DataType::UInt64 => column.as_primitive::<UInt64Type>().value(i).to_string(),
        _ => column.as_string::<i32>().value(i).to_string(),
    }
}

/// Rows of a CSV or JSON Lines output with its `time_ns` column (or field) removed.
fn rows_without_time(path: &Path) -> Vec<String> {
    if path.extension().is_some_and(|e| e == "parquet") {
        return parquet_rows_without_time(path);
    }
    let text = std::fs::read_to_string(path).unwrap();
    if path.extension().is_some_and(|e| e == "jsonl") {
        return text
            .lines()
            .map(|l| {
                let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
                v.as_object_mut().unwrap().remove("time_ns");
                v.to_string()
            })
            .collect();
    }
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(text.as_bytes());
    let mut rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    let Some(time) = rows
        .first()
        .and_then(|h| h.iter().position(|c| c == "time_ns"))
    else {
        return rows.iter().map(|r| format!("{r:?}")).collect();
    };
    rows.iter_mut()
        .map(|r| {
            let kept: Vec<&str> = r
                .iter()
                .enumerate()
                .filter(|&(i, _)| i != time)
                .map(|(_, f)| f)
                .collect();
            format!("{kept:?}")
        })
        .collect()
}

/// How many bytes of a `.partial` file of `kind` are whole rows.
fn whole_len(kind: &str, file: &Path) -> u64 {
    let mut f = File::open(file).unwrap();
    match kind {
        "csv" => solve_rows_done(&mut f, true, false).unwrap().1,
        "jsonl" => solve_jsonl_rows_done(&mut f, false).unwrap().1,
        "grid" => grid_records_done(&mut f).unwrap().1,
        // Nothing, or a readable file of the whole row groups.
        "parquet" => {
            let len = f.metadata().unwrap().len();
            if len > 0 {
                parquet_rows_without_time(file);
            }
            len
        }
        // verify's findings: whole lines.
        _ => {
            let bytes = std::fs::read(file).unwrap();
            bytes
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |i| i as u64 + 1)
        }
    }
}

/// For `args` writing `out` (in `dir`), cut by a write error after each of many byte
/// counts: the final name keeps yesterday's content, `.partial` ends on a whole row,
/// and (where the kind resumes) `--resume` completes it equal to a clean run.
fn check_kind(kind: &str, args: &[&str], out: &Path, resumes: bool) {
    // Beside it, its extension kept (it names the format).
    let clean = out.with_file_name(format!(
        "clean-{}",
        out.file_name().unwrap().to_string_lossy()
    ));
    let mut clean_args: Vec<&str> = args.to_vec();
    let clean_name = clean.to_str().unwrap();
    let at = clean_args.iter().position(|a| *a == "-o").unwrap() + 1;
    clean_args[at] = clean_name;
    run(&clean_args, None).unwrap();
    let total = std::fs::metadata(&clean).unwrap().len();
    assert!(total > 1000, "{kind}: the clean output is too small to cut");
    let mut cuts: Vec<u64> = vec![0, 1, 7, 100];
    // Up to 90 %: the time column's width varies from run to run, so a run's output
    // may be a little shorter than the clean one's.
    cuts.extend((1..12).map(|i| total * 9 * i / 120 + i));
    for errno in [libc_enospc(), libc_eio()] {
        for &cut in &cuts {
            std::fs::write(out, "yesterday\n").unwrap();
            let _ = std::fs::remove_file(partial_path(out));
            let _ = std::fs::remove_file(record_path(out));
            let ops = Arc::new(Faulty {
                suffix: ".partial",
                budget: Arc::new(AtomicU64::new(cut)),
                errno,
            });
            let ran = run(args, Some(ops));
            let err = match ran {
                Err(err) => err,
                Ok(code) => panic!(
                    "{kind} cut at {cut}: the run succeeded ({code}); out: {:?}, partial: {:?}",
                    std::fs::read_to_string(out).ok().map(|t| t.len()),
                    std::fs::metadata(partial_path(out)).ok().map(|m| m.len())
                ),
            };
            let message = format!("{err:#}");
            assert!(
                message.contains(&out.display().to_string()) && message.contains("unchanged"),
                "{kind} cut at {cut}: the message names the output: {message}"
            );
            assert_eq!(
                std::fs::read_to_string(out).unwrap(),
                "yesterday\n",
                "{kind} cut at {cut}, errno {errno}: the final name was replaced"
            );
            let partial = partial_path(out);
            let len = std::fs::metadata(&partial).unwrap().len();
            // (Parquet's is mended past the cut: its last checkpoint's footer.)
            assert!(
                len <= cut || kind == "parquet",
                "{kind}: more bytes than were written"
            );
            assert_eq!(
                whole_len(kind, &partial),
                len,
                "{kind} cut at {cut}: .partial does not end on a whole row"
            );
            assert!(
                !bulkdoku::output::file::lock_path(out).exists(),
                "{kind}: the lock file stays"
            );
            if resumes {
                assert!(message.contains("--resume"), "{message}");
                let mut again = args.to_vec();
                again.push("--resume");
                run(&again, None).unwrap();
                let (got, want) = (rows_without_time(out), rows_without_time(&clean));
                let first = got.iter().zip(&want).position(|(a, b)| a != b);
                assert!(
                    got == want,
                    "{kind} cut at {cut}, errno {errno}: the resumed output differs: {} rows, \
                     {} wanted; first difference at {first:?}: {:?} / {:?}",
                    got.len(),
                    want.len(),
                    first.map(|i| &got[i]),
                    first.map(|i| &want[i]),
                );
                assert!(!partial.exists() && !record_path(out).exists());
            }
        }
    }
}

fn libc_enospc() -> i32 {
    28
}

fn libc_eio() -> i32 {
    5
}

/// The commands run on this thread's seam; one at a time, as the signal handlers and
/// the current directory are the process's.
static SERIAL: Mutex<()> = Mutex::new(());

#[test]
fn write_errors_never_promote_a_partial_output() {
    let _one = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    let input = dataset(dir.path(), 120);
    let input = input.to_str().unwrap();
    for (kind, name, extra, resumes) in [
        ("csv", "out.csv", &[][..], true),
        ("jsonl", "out.jsonl", &[][..], true),
        ("grid", "out.txt", &["--output-format", "grid"][..], false),
        (
            "parquet",
            "out.parquet",
            &["--row-group-rows", "16"][..],
            true,
        ),
    ] {
        let out = dir.path().join(name);
        let out_s = out.to_str().unwrap().to_string();
        let mut args = vec!["solve", "-q", "--batch-size", "16", input, "-o", &out_s];
        args.extend(extra);
        check_kind(kind, &args, &out, resumes);
    }
}

#[test]
fn write_errors_keep_verify_findings_whole() {
    let _one = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    let input = dataset(dir.path(), 300);
    let input = input.to_str().unwrap();
    for (kind, name) in [("findings", "found.csv"), ("findings", "found.jsonl")] {
        let out = dir.path().join(name);
        let out_s = out.to_str().unwrap().to_string();
        let args = vec!["verify", "-q", "--all", input, "-o", &out_s];
        check_kind(kind, &args, &out, true);
    }
}

/// Operations that note, in order, each sync and rename of a commit.
#[derive(Debug, Default)]
struct Recorder {
    events: Mutex<Vec<String>>,
}

impl Recorder {
    fn note(&self, what: &str, path: &Path) {
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        self.events.lock().unwrap().push(format!("{what} {name}"));
    }
}

impl CommitOps for Recorder {
    fn sync_file(&self, file: &File, path: &Path) -> io::Result<()> {
        self.note("sync", path);
        Disk.sync_file(file, path)
    }

    fn rename(&self, from: &Path, to: &Path) -> io::Result<()> {
        self.note("rename", from);
        Disk.rename(from, to)
    }

    fn sync_dir(&self, dir: &Path) -> io::Result<()> {
        self.note("syncdir", dir);
        Disk.sync_dir(dir)
    }
}

#[test]
fn a_whole_run_syncs_its_data_before_the_rename_and_the_directory_after() {
    let _one = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    let input = dataset(dir.path(), 20);
    let out = dir.path().join("out.csv");
    let recorder = Arc::new(Recorder::default());
    let args = [
        "solve",
        "-q",
        input.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ];
    run(&args, Some(recorder.clone())).unwrap();
    let events = recorder.events.lock().unwrap().clone();
    let dir_name = dir
        .path()
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    // The run record first (durable before any row is), then the commit.
    let commit = [
        "sync out.csv.partial".to_string(),
        "rename out.csv.partial".to_string(),
        format!("syncdir {dir_name}"),
    ];
    let at = events
        .iter()
        .position(|e| e == &commit[0])
        .unwrap_or_else(|| panic!("no sync of the data: {events:?}"));
    assert_eq!(events[at..at + 3], commit, "{events:?}");
    let record = [
        "sync out.csv.resume.tmp".to_string(),
        "rename out.csv.resume.tmp".to_string(),
        format!("syncdir {dir_name}"),
    ];
    assert_eq!(
        events[..3],
        record,
        "the run record is written durably first"
    );
    assert!(out.exists() && !partial_path(&out).exists());
}

#[test]
fn a_second_run_on_the_same_output_refuses_and_leaves_the_first_intact() {
    let _one = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    let input = dataset(dir.path(), 20);
    let out = dir.path().join("out.csv");
    // The first run holds the output (its lock and .partial) while the second starts.
    let first = Output::create(Some(&out)).unwrap();
    first.writer().unwrap().write_all(b"first\n").unwrap();
    let args = [
        "solve",
        "-q",
        input.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ];
    let err = run(&args, None).expect_err("the second run refuses");
    let message = format!("{err:#}");
    assert!(
        message.contains("another bulkdoku run")
            && message.contains(&format!("process {}", std::process::id())),
        "{message}"
    );
    let resume = [&args[..], &["--resume"]].concat();
    assert!(run(&resume, None).is_err(), "--resume takes the same lock");
    assert_eq!(
        std::fs::read_to_string(partial_path(&out)).unwrap(),
        "first\n"
    );
    first.finish().unwrap();
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "first\n");
    // Released: the next run goes ahead.
    run(&args, None).unwrap();
    assert!(std::fs::read_to_string(&out).unwrap().starts_with("file,"));
}
