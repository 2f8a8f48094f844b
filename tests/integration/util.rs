//! A scratch directory per test and a way to run the real binary in it.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// A temporary directory holding a test's input files; the binary runs inside it.
pub struct Workdir {
    dir: tempfile::TempDir,
}

impl Workdir {
    /// A fresh empty directory.
    pub fn new() -> Workdir {
        Workdir {
            dir: tempfile::tempdir().expect("temp dir"),
        }
    }

    /// The directory's path.
    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Path of a file inside the directory.
    pub fn file(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// Write `contents` to `name` inside the directory.
    pub fn create(&self, name: &str, contents: impl AsRef<[u8]>) -> PathBuf {
        let path = self.file(name);
        std::fs::write(&path, contents).expect("write test input");
        path
    }

    /// A `bulkdoku` command running in this directory.
    pub fn command(&self, args: &[&str]) -> Command {
        let mut cmd = Command::new(binary());
        cmd.args(args).current_dir(self.path());
        cmd
    }

    /// Run `bulkdoku args...` with no standard input.
    pub fn run(&self, args: &[&str]) -> Output {
        self.command(args)
            .stdin(Stdio::null())
            .output()
            .expect("run bulkdoku")
    }

    /// Run `bulkdoku args...` feeding `input` on standard input.
    pub fn run_with_stdin(&self, args: &[&str], input: impl AsRef<[u8]>) -> Output {
        use std::io::Write;
        let mut child = self
            .command(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn bulkdoku");
        let mut stdin = child.stdin.take().expect("stdin");
        let input = input.as_ref().to_vec();
        let writer = std::thread::spawn(move || {
            // The binary may stop reading early; a broken pipe here is fine.
            let _ = stdin.write_all(&input);
        });
        let out = child.wait_with_output().expect("wait for bulkdoku");
        writer.join().expect("stdin writer");
        out
    }
}

/// The binary under test: this build's, or the one `BULKDOKU_TEST_BIN` names, so that
/// the suite can be run against an older release to show what it catches there.
pub fn binary() -> PathBuf {
    match std::env::var_os("BULKDOKU_TEST_BIN") {
        Some(path) => PathBuf::from(path),
        None => PathBuf::from(env!("CARGO_BIN_EXE_bulkdoku")),
    }
}

/// Standard output as text.
pub fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Standard error as text.
pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Assert the exit code, showing both streams when it is wrong.
#[track_caller]
pub fn assert_exit(out: &Output, code: i32) {
    assert_eq!(
        out.status.code(),
        Some(code),
        "unexpected exit status\n--- stdout\n{}\n--- stderr\n{}",
        stdout(out),
        stderr(out)
    );
}

/// A CSV document: header and rows, parsed with the csv crate.
#[derive(Debug)]
pub struct Table {
    pub headers: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

impl Table {
    /// Parse CSV text with a header row.
    pub fn parse(text: &str) -> Table {
        let mut reader = csv::Reader::from_reader(text.as_bytes());
        let headers = reader
            .headers()
            .expect("CSV header")
            .iter()
            .map(str::to_string)
            .collect();
        let rows = reader
            .records()
            .map(|r| r.expect("CSV row").iter().map(str::to_string).collect())
            .collect();
        Table { headers, rows }
    }

    /// The index of column `name`.
    #[track_caller]
    pub fn col(&self, name: &str) -> usize {
        self.headers
            .iter()
            .position(|h| h == name)
            .unwrap_or_else(|| panic!("no column {name:?} in {:?}", self.headers))
    }

    /// Every value of column `name`, in row order.
    pub fn column(&self, name: &str) -> Vec<&str> {
        let i = self.col(name);
        self.rows.iter().map(|r| r[i].as_str()).collect()
    }
}

/// A Parquet column chunk's codec as `--compression` names it.
#[cfg(feature = "parquet")]
pub fn codec_name(codec: parquet::basic::Compression) -> &'static str {
    use parquet::basic::Compression;
    match codec {
        Compression::ZSTD(_) => "zstd",
        Compression::LZ4_RAW => "lz4",
        Compression::SNAPPY => "snappy",
        Compression::UNCOMPRESSED => "none",
        _ => "another codec",
    }
}
