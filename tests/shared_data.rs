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
    use bulkdoku::Grid;
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
