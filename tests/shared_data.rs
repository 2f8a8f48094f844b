//! Checks over the shared benchmark datasets (`../shared/data`, or the directory named by
//! `BULKDOKU_SHARED_DATA`). Every test here is `#[ignore]`d so that `cargo test` runs
//! without the data; CI runs them with
//! `cargo test --release --test shared_data -- --ignored`, and a missing file FAILS.
//!
//! The `verify_*` tests run `bulkdoku verify` (the real binary) over whole datasets.
//! Their helpers are prefixed `verify_` so that this part stands on its own beside the
//! other helpers' tests in this file.

use std::path::PathBuf;
use std::process::Command;

use bulkdoku::input::InputFormat;
use bulkdoku::input::{open, InputOptions, Record};
use bulkdoku::{Grid, Solver, Uniqueness};
use rayon::prelude::*;

fn data_dir() -> PathBuf {
    std::env::var_os("BULKDOKU_SHARED_DATA").map_or_else(
        || PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/data")),
        PathBuf::from,
    )
}

/// The path and text of a shared dataset; fails the test when it cannot be read.
fn read(name: &str) -> (PathBuf, String) {
    let path = data_dir().join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "shared dataset {name} is required by this test but cannot be read at {}: {e} \
             (set BULKDOKU_SHARED_DATA to the directory holding the shared data)",
            path.display()
        )
    });
    (path, text)
}

/// One puzzle and the 1-based line it came from.
struct Puzzle {
    line: usize,
    grid: Grid,
}

/// Read a dataset: CR trimmed, `#` comments and blank lines skipped, the first 81
/// characters of a line are the puzzle. Panics (fails the test) when the file is missing
/// or a line is not a valid puzzle.
fn load(name: &str) -> Vec<Puzzle> {
    let (path, text) = read(name);
    let mut puzzles = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim_end_matches('\r');
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let cells = line.get(..81).unwrap_or(line);
        let grid = Grid::parse_puzzle(cells.as_bytes())
            .unwrap_or_else(|e| panic!("{}:{}: {e}", path.display(), i + 1));
        puzzles.push(Puzzle { line: i + 1, grid });
    }
    puzzles
}

/// Solve every puzzle at limit 2 on all cores; return a description of each puzzle that
/// does not have the expected verdict or whose first solution is not a valid grid keeping
/// the givens.
fn failures(puzzles: &[Puzzle], expected: Uniqueness) -> Vec<String> {
    puzzles
        .par_iter()
        .map_init(Solver::new, |solver, p| {
            let outcome = solver.solve(&p.grid, 2);
            let verdict = outcome.uniqueness();
            if verdict != expected {
                return Some(format!(
                    "line {}: {} is {verdict:?}, expected {expected:?}",
                    p.line, p.grid
                ));
            }
            match outcome.first {
                Some(first) if first.is_valid_solution() && first.agrees_with(&p.grid) => None,
                Some(first) => Some(format!(
                    "line {}: first solution {first} of {} is invalid or drops givens",
                    p.line, p.grid
                )),
                None => Some(format!(
                    "line {}: {} kept no first solution",
                    p.line, p.grid
                )),
            }
        })
        .flatten()
        .collect()
}

fn check_all(name: &str, expected_puzzles: usize, expected: Uniqueness) {
    let puzzles = load(name);
    // The documented size of each set: a shorter read would mean lines were skipped.
    assert_eq!(puzzles.len(), expected_puzzles, "{name}: puzzle count");
    let bad = failures(&puzzles, expected);
    assert!(
        bad.is_empty(),
        "{name}: {} of {} puzzles failed; first ones:\n{}",
        bad.len(),
        puzzles.len(),
        bad.iter().take(10).cloned().collect::<Vec<_>>().join("\n")
    );
}

#[test]
#[ignore = "needs ../shared/data; CI runs it with --ignored"]
fn seventeen_clue_puzzles_are_all_unique() {
    check_all("puzzles2_17_clue", 49_158, Uniqueness::Unique);
}

#[test]
#[ignore = "needs ../shared/data; CI runs it with --ignored"]
fn forum_hardest_puzzles_are_all_unique() {
    check_all(
        "puzzles5_forum_hardest_1905_11+",
        48_765,
        Uniqueness::Unique,
    );
}

#[test]
#[ignore = "needs ../shared/data; CI runs it with --ignored"]
fn serg_benchmark_puzzles_all_have_several_solutions() {
    check_all("puzzles7_serg_benchmark", 10_000, Uniqueness::Multiple);
}

/// The input reader yields every puzzle of each shared dataset, at the line where a plain
/// reading of the file finds it, all valid: comment headers, CRLF line ends and the
/// trailing fields of these files are handled as the line format says.
#[test]
#[ignore = "needs ../shared/data"]
fn input_reader_reads_every_shared_dataset_exactly() {
    let datasets = [
        ("puzzles2_17_clue", 49_158),
        ("puzzles5_forum_hardest_1905_11+", 48_765),
        ("puzzles7_serg_benchmark", 10_000),
    ];
    for (name, count) in datasets {
        let (path, text) = read(name);
        // The plain reading: non-comment, non-blank lines, their first 81 characters.
        let expected: Vec<(u64, &str)> = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i as u64 + 1, l.trim_end_matches('\r')))
            .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
            .map(|(i, l)| (i, &l[..81]))
            .collect();
        assert_eq!(expected.len(), count, "{name}: the file changed");

        let mut reader = open(Some(&path), &InputOptions::default()).unwrap();
        assert_eq!(reader.format(), InputFormat::Lines, "{name}");
        assert_eq!(reader.total_bytes(), Some(text.len() as u64), "{name}");
        let mut record = Record::default();
        let mut got = 0;
        while reader.read_record(&mut record).unwrap() {
            let (line, cells) = expected[got];
            assert_eq!(record.line, line, "{name}: record {got}");
            assert_eq!(record.cells, cells.as_bytes(), "{name}: line {line}");
            assert_eq!(record.error, None, "{name}: line {line}");
            Grid::parse_puzzle(&record.cells)
                .unwrap_or_else(|e| panic!("{name}: line {line}: {e}"));
            got += 1;
        }
        assert_eq!(got, count, "{name}");
        assert_eq!(reader.bytes_read(), text.len() as u64, "{name}");
    }
}

/// `bulkdoku solve` (the real binary, 2 threads) gives one row per puzzle of each shared
/// dataset, in file order, every solution valid and agreeing with its puzzle; the
/// 17-clue puzzles are all unique and the serg benchmark's all have several solutions.
#[test]
#[ignore = "needs ../shared/data"]
fn solve_gives_one_checked_row_per_shared_puzzle() {
    let datasets = [
        ("puzzles2_17_clue", 49_158, Some("unique")),
        ("puzzles5_forum_hardest_1905_11+", 48_765, None),
        ("puzzles7_serg_benchmark", 10_000, Some("multiple")),
    ];
    for (name, count, all_status) in datasets {
        let path = data_dir().join(name);
        assert!(path.is_file(), "{} is missing", path.display());
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_bulkdoku"))
            .args(["solve", "-q", "-j", "2"])
            .arg(&path)
            .output()
            .expect("run bulkdoku");
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let mut reader = csv::Reader::from_reader(out.stdout.as_slice());
        let headers = reader.headers().unwrap().clone();
        let col = |n: &str| headers.iter().position(|h| h == n).unwrap();
        let (line, puzzle, status, solution) =
            (col("line"), col("puzzle"), col("status"), col("solution"));
        let mut rows = 0;
        let mut last_line = 0u64;
        for row in reader.records() {
            let row = row.unwrap();
            rows += 1;
            let l: u64 = row[line].parse().unwrap();
            assert!(l > last_line, "{name}: line {l} after {last_line}");
            last_line = l;
            assert_ne!(&row[status], "invalid", "{name}:{l}");
            if let Some(s) = all_status {
                assert_eq!(&row[status], s, "{name}:{l}");
            }
            let p = Grid::parse_puzzle(row[puzzle].as_bytes()).unwrap();
            let s = Grid::parse(row[solution].as_bytes()).unwrap();
            assert!(s.is_valid_solution() && s.agrees_with(&p), "{name}:{l}");
        }
        assert_eq!(rows, count, "{name}");
    }
}

/// The shared dataset `name`; fails the test when it is missing.
fn verify_dataset(name: &str) -> PathBuf {
    let dir = std::env::var_os("BULKDOKU_SHARED_DATA").map_or_else(
        || PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/data")),
        PathBuf::from,
    );
    let path = dir.join(name);
    assert!(
        path.is_file(),
        "shared dataset {name} is required by this test but is missing at {} \
         (set BULKDOKU_SHARED_DATA to the directory holding the shared data)",
        path.display()
    );
    path
}

/// The `--summary` JSON of a verify run.
#[derive(Debug, serde::Deserialize)]
struct VerifySummary {
    puzzles: u64,
    kinds: std::collections::BTreeMap<String, u64>,
}

/// Run `bulkdoku verify -q ARGS --summary ...` on `inputs`; the exit code, the findings
/// CSV and the summary.
fn verify_run(inputs: &[PathBuf], args: &[&str]) -> (i32, String, VerifySummary) {
    let dir = tempfile::tempdir().unwrap();
    let summary = dir.path().join("summary.json");
    let out = Command::new(env!("CARGO_BIN_EXE_bulkdoku"))
        .arg("verify")
        .arg("-q")
        .args(args)
        .args(inputs)
        .arg("--summary")
        .arg(&summary)
        .output()
        .unwrap();
    let text = std::fs::read_to_string(&summary).unwrap_or_else(|e| {
        panic!(
            "no summary ({e}); stderr: {}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        serde_json::from_str(&text).unwrap(),
    )
}

#[test]
#[ignore = "needs ../shared/data"]
fn verify_17_clue_puzzles_are_unique_minimal_and_pairwise_inequivalent() {
    let path = verify_dataset("puzzles2_17_clue");
    let (code, findings, summary) = verify_run(&[path], &["--isomorphs", "--minimal"]);
    assert_eq!(summary.puzzles, 49_158);
    assert_eq!(summary.kinds["ok"], 49_158, "{summary:?}");
    assert_eq!(findings.lines().count(), 1, "{findings}");
    assert_eq!(code, 0);
}

#[test]
#[ignore = "needs ../shared/data"]
fn verify_serg_benchmark_puzzles_all_have_several_solutions() {
    let path = verify_dataset("puzzles7_serg_benchmark");
    let (code, _, summary) = verify_run(&[path], &[]);
    assert_eq!(summary.puzzles, 10_000);
    assert_eq!(summary.kinds["multiple"], 10_000, "{summary:?}");
    assert_eq!(code, 1);
}

#[test]
#[ignore = "needs ../shared/data"]
fn verify_finds_every_transformed_copy_of_the_17_clue_puzzles() {
    let path = verify_dataset("puzzles2_17_clue");
    let text = std::fs::read_to_string(&path).unwrap();
    let puzzles: Vec<Grid> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.trim_end().get(..81).unwrap().parse().unwrap())
        .collect();
    // Every 5th puzzle, mirrored top to bottom, transposed and with digits rotated.
    let copies: Vec<String> = puzzles
        .iter()
        .step_by(5)
        .map(|p| {
            let mut out = [0u8; 81];
            for r in 0..9 {
                for c in 0..9 {
                    let v = p.get(c * 9 + (8 - r));
                    out[r * 9 + c] = if v == 0 { 0 } else { v % 9 + 1 };
                }
            }
            Grid::from_cells(out).unwrap().to_line()
        })
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let copies_path = dir.path().join("copies.txt");
    std::fs::write(&copies_path, copies.join("\n") + "\n").unwrap();
    let (code, _, summary) = verify_run(&[path, copies_path], &["--isomorphs"]);
    assert_eq!(summary.puzzles, 49_158 + copies.len() as u64);
    assert_eq!(
        summary.kinds["isomorph"],
        copies.len() as u64,
        "{summary:?}"
    );
    assert_eq!(summary.kinds["duplicate"], 0, "{summary:?}");
    assert_eq!(code, 1);
}
