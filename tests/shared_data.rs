//! Checks over the shared benchmark datasets (`../shared/data`, or the directory named by
//! `BULKDOKU_SHARED_DATA`). Every test here is `#[ignore]`d so that `cargo test` runs
//! without the data; CI runs them with
//! `cargo test --release --test shared_data -- --ignored`, and a missing file FAILS.

use std::path::PathBuf;

use bulkdoku::{Grid, Solver, Uniqueness};
use rayon::prelude::*;

fn data_dir() -> PathBuf {
    std::env::var_os("BULKDOKU_SHARED_DATA").map_or_else(
        || PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/data")),
        PathBuf::from,
    )
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
    let path = data_dir().join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "shared dataset {name} is required by this test but cannot be read at {}: {e} \
             (set BULKDOKU_SHARED_DATA to the directory holding the shared data)",
            path.display()
        )
    });
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
