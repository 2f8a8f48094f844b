//! Real faults through the real binary: a disk that fills up (a small tmpfs mounted by
//! the test), two runs on one output, an input that grows while it is read. (A run
//! killed with SIGKILL and resumed is in `trust` and `formats`; write errors at many
//! cut points, through the commit path's seam, are unit tests of the binary.)

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::trust::{big_input, finish, spawn, untimed, wait_for_bytes};
use crate::util::{assert_exit, stderr, Workdir};

/// A tmpfs mounted at a directory for as long as it lives.
struct Tmpfs {
    dir: PathBuf,
}

impl Tmpfs {
    /// Mount a tmpfs of `size` (`mount -o size=`) at `dir`; `None`, with the reason
    /// printed, where mounting is not permitted (not root, or in a container that
    /// forbids it).
    fn mount(dir: &Path, size: &str) -> Option<Tmpfs> {
        std::fs::create_dir_all(dir).unwrap();
        let out = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(dir)
            .output();
        match out {
            Ok(out) if out.status.success() => Some(Tmpfs {
                dir: dir.to_path_buf(),
            }),
            Ok(out) => {
                println!(
                    "SKIPPED: the full-disk test needs to mount a tmpfs, which is not \
                     permitted here: {}",
                    String::from_utf8_lossy(&out.stderr).trim()
                );
                None
            }
            Err(e) => {
                println!("SKIPPED: the full-disk test cannot run `mount`: {e}");
                None
            }
        }
    }

    /// Give the filesystem room (`mount -o remount,size=`).
    fn grow(&self, size: &str) {
        let ok = Command::new("mount")
            .args(["-o", &format!("remount,size={size}")])
            .arg(&self.dir)
            .status()
            .unwrap()
            .success();
        assert!(ok, "remount failed");
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.dir).status();
    }
}

/// The rows of `path` as text without the `time_ns` column, in any output format.
fn rows(path: &Path) -> Vec<String> {
    let name = path.to_string_lossy();
    if name.ends_with(".parquet") {
        return parquet_rows(path);
    }
    let text = std::fs::read_to_string(path).unwrap();
    if name.ends_with(".jsonl") {
        return text
            .lines()
            .map(|l| {
                let mut v: serde_json::Value = serde_json::from_str(l).expect("whole JSON");
                v.as_object_mut().unwrap().remove("time_ns");
                v.to_string()
            })
            .collect();
    }
    if text.starts_with("file,") {
        return untimed(&text).into_iter().map(|r| r.join(",")).collect();
    }
    text.lines().map(str::to_string).collect()
}

/// The rows of a Parquet file as text, without `time_ns`.
fn parquet_rows(path: &Path) -> Vec<String> {
    use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
    let file = std::fs::File::open(path).unwrap();
    let reader = ParquetRecordBatchReaderBuilder::try_new(file)
        .expect("a readable Parquet file")
        .build()
        .unwrap();
    let mut rows = Vec::new();
    for batch in reader {
        let batch = batch.unwrap();
        let keep: Vec<usize> = (0..batch.num_columns())
            .filter(|&c| batch.schema().field(c).name() != "time_ns")
            .collect();
        let batch = batch.project(&keep).unwrap();
        for i in 0..batch.num_rows() {
            let cells: Vec<String> = batch
                .columns()
                .iter()
                .map(|c| arrow_cast_display(c.as_ref(), i))
                .collect();
            rows.push(cells.join(","));
        }
    }
    rows
}

/// One cell of an Arrow column as text.
fn arrow_cast_display(column: &dyn arrow_array::Array, i: usize) -> String {
    use arrow_array::cast::AsArray;
    use arrow_array::types::UInt64Type;
    if column.is_null(i) {
        return "null".into();
    }
    match column.data_type() {
        arrow_schema::DataType::UInt64 => column.as_primitive::<UInt64Type>().value(i).to_string(),
        _ => column.as_string::<i32>().value(i).to_string(),
    }
}

/// Whether the rows in `partial` are whole: every line of a text output parses,
/// a Parquet output is empty or readable.
fn assert_whole(partial: &Path) {
    let name = partial.to_string_lossy().replace(".partial", "");
    let bytes = std::fs::read(partial).unwrap();
    if name.ends_with(".parquet") {
        if !bytes.is_empty() {
            parquet_rows(partial);
        }
        return;
    }
    assert!(
        bytes.is_empty() || bytes.ends_with(b"\n"),
        "{name}: .partial ends inside a row"
    );
    if name.ends_with(".jsonl") {
        for line in String::from_utf8(bytes).unwrap().lines() {
            serde_json::from_str::<serde_json::Value>(line).expect("whole JSON lines");
        }
    }
}

/// A disk that fills up mid-run: exit 2 with the reason, the final name keeps
/// yesterday's file, the whole rows stay in `.partial` beside the run record; once
/// there is room, `--resume` completes the run, equal to an uninterrupted one.
#[cfg(unix)]
#[test]
fn a_full_disk_keeps_yesterdays_output_and_resumes_once_there_is_room() {
    let dir = Workdir::new();
    big_input(&dir, "big.txt", 40);
    let mnt = dir.file("small-disk");
    let Some(disk) = Tmpfs::mount(&mnt, "256k") else {
        return;
    };
    let cases: [(&str, &[&str]); 4] = [
        ("out.csv", &["solve"]),
        ("out.jsonl", &["solve"]),
        ("out.parquet", &["solve", "--row-group-rows", "2000"]),
        ("found.csv", &["verify", "--all"]),
    ];
    for (name, command) in cases {
        disk.grow("256k");
        let out = mnt.join(name);
        let clean = dir.file(&format!("clean-{name}"));
        let mut args: Vec<&str> = command.to_vec();
        args.extend(["-q", "-j", "1", "big.txt", "-o"]);
        let clean_args = [&args[..], &[clean.to_str().unwrap()]].concat();
        let code = dir.run(&clean_args).status.code();
        assert!(matches!(code, Some(0 | 1)), "{name}: the clean run");

        std::fs::write(&out, "yesterday\n").unwrap();
        let run_args = [&args[..], &[out.to_str().unwrap()]].concat();
        let failed = dir.run(&run_args);
        assert_exit(&failed, 2);
        let err = stderr(&failed);
        assert!(err.contains("No space left on device"), "{name}: {err}");
        assert!(
            err.contains("is unchanged") && err.contains("--resume"),
            "{name}: {err}"
        );
        assert_eq!(
            std::fs::read_to_string(&out).unwrap(),
            "yesterday\n",
            "{name}: a full disk replaced yesterday's output"
        );
        let partial = mnt.join(format!("{name}.partial"));
        assert_whole(&partial);
        assert!(mnt.join(format!("{name}.resume")).exists(), "{name}");

        disk.grow("64m");
        let resumed = dir.run(&[&run_args[..], &["--resume"]].concat());
        assert!(
            matches!(resumed.status.code(), Some(0 | 1)),
            "{name}: {}",
            stderr(&resumed)
        );
        assert!(
            rows(&out) == rows(&clean),
            "{name}: the resumed rows differ"
        );
        for left in [".partial", ".resume", ".lock", ".partial.old"] {
            assert!(
                !mnt.join(format!("{name}{left}")).exists(),
                "{name}{left} is left"
            );
        }
        for entry in std::fs::read_dir(&mnt).unwrap() {
            std::fs::remove_file(entry.unwrap().path()).unwrap();
        }
    }
}

/// Two runs on one output: the second refuses at once, naming the first's process;
/// the first's result is intact.
#[cfg(unix)]
#[test]
fn a_second_run_on_the_same_output_refuses_at_once() {
    let dir = Workdir::new();
    big_input(&dir, "big.txt", 100);
    let args = ["solve", "-q", "-j", "1", "big.txt", "-o", "same.csv"];
    let first = spawn(&dir, &args, None);
    wait_for_bytes(&dir.file("same.csv"), 100_000);
    let second = dir.run(&args);
    assert_exit(&second, 2);
    let err = stderr(&second);
    assert!(
        err.contains("another bulkdoku run") && err.contains(&format!("process {}", first.id())),
        "{err}"
    );
    let resume = dir.run(&[&args[..], &["--resume"]].concat());
    assert_exit(&resume, 2);
    let (code, err, _) = finish(first);
    assert_eq!(code, Some(0), "{err}");
    let clean = dir.run(&["solve", "-q", "big.txt", "-o", "clean.csv"]);
    assert_exit(&clean, 0);
    assert!(rows(&dir.file("same.csv")) == rows(&dir.file("clean.csv")));
    assert!(!dir.file("same.csv.lock").exists());
}

/// An input that grows while it is read: reported by name, exit 3, and the output is
/// not committed.
#[cfg(unix)]
#[test]
fn an_input_appended_to_during_a_run_is_reported() {
    let dir = Workdir::new();
    let input = big_input(&dir, "big.txt", 100);
    let child = spawn(
        &dir,
        &["solve", "-q", "-j", "1", "big.txt", "-o", "out.csv"],
        None,
    );
    wait_for_bytes(&dir.file("out.csv"), 10_000);
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(&input)
        .unwrap();
    writeln!(f, "{}", crate::trust::generated()[0]).unwrap();
    drop(f);
    let (code, err, _) = finish(child);
    assert_eq!(code, Some(3), "{err}");
    assert!(err.contains("big.txt: file changed as we read it"), "{err}");
    assert!(err.contains("out.csv is unchanged"), "{err}");
    assert!(!dir.file("out.csv").exists());
}
