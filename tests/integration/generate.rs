//! `bulkdoku generate` through the real binary.

use bulkdoku::{Grid, Solver};

use crate::util::{assert_exit, stdout, Workdir};

fn generate(dir: &Workdir, args: &[&str]) -> String {
    let mut all = vec!["generate"];
    all.extend_from_slice(args);
    let out = dir.run(&all);
    assert_exit(&out, 0);
    stdout(&out)
}

#[test]
fn every_puzzle_is_unique_and_minimal_with_a_header() {
    let dir = Workdir::new();
    let text = generate(&dir, &["-n", "60", "--seed", "11"]);
    let mut lines = text.lines();
    let header = lines.next().unwrap();
    assert!(
        header.starts_with("# bulkdoku generate -n 60 --seed 11"),
        "{header}"
    );
    let puzzles: Vec<&str> = lines.collect();
    assert_eq!(puzzles.len(), 60);
    let mut solver = Solver::new();
    for p in &puzzles {
        assert_eq!(p.len(), 81);
        let g: Grid = p.parse().expect("a valid puzzle");
        assert_eq!(solver.count(&g, 2).solutions, 1, "{p} is not unique");
        assert!(g.clues() >= 17 && g.clues() < 40, "{p}");
    }
    let mut distinct = puzzles.clone();
    distinct.sort_unstable();
    distinct.dedup();
    assert_eq!(distinct.len(), puzzles.len(), "puzzles repeat");
}

#[test]
fn same_seed_same_output_whatever_the_threads() {
    let dir = Workdir::new();
    let a = generate(&dir, &["-n", "40", "--seed", "3", "-j", "1"]);
    let b = generate(&dir, &["-n", "40", "--seed", "3", "-j", "2"]);
    assert_eq!(a, b);
    let c = generate(&dir, &["-n", "40", "--seed", "4"]);
    assert_ne!(a.lines().nth(1), c.lines().nth(1));
    // The first puzzles do not depend on how many are asked for.
    let d = generate(&dir, &["-n", "10", "--seed", "3"]);
    assert_eq!(
        a.lines().skip(1).take(10).collect::<Vec<_>>(),
        d.lines().skip(1).collect::<Vec<_>>()
    );
}

#[test]
fn output_file_solves_with_solve() {
    let dir = Workdir::new();
    let out = dir.run(&["generate", "-n", "25", "--seed", "1", "-o", "g.txt"]);
    assert_exit(&out, 0);
    assert_eq!(stdout(&out), "");
    let out = dir.run(&["solve", "g.txt", "-q"]);
    assert_exit(&out, 0);
    let t = crate::util::Table::parse(&stdout(&out));
    assert_eq!(t.rows.len(), 25);
    assert!(t.column("status").iter().all(|&s| s == "unique"));
}

/// SIGTERM stops a long run at the next batch: exit 143, the output's name left as
/// it was, no lock left, and the puzzles made so far whole and in order in `.partial`
/// (the first ones of the seed, as a shorter run makes them), named on stderr.
#[cfg(unix)]
#[test]
fn a_signal_keeps_the_puzzles_made_so_far() {
    use crate::trust::{finish, signal, spawn, wait_for_bytes};

    let dir = Workdir::new();
    let args = [
        "generate",
        "-n",
        "100000000",
        "--seed",
        "5",
        "-o",
        "big.txt",
    ];
    let child = spawn(&dir, &args, None);
    // Past the header: some batches written.
    wait_for_bytes(&dir.file("big.txt"), 100_000);
    signal(&child, "TERM");
    let (code, err, _) = finish(child);
    assert_eq!(code, Some(143), "{err}");
    assert!(
        !dir.file("big.txt").exists(),
        "the output's name was written"
    );
    assert!(!dir.file("big.txt.lock").exists(), "the lock was left");
    let text = std::fs::read_to_string(dir.file("big.txt.partial")).unwrap();
    assert!(text.ends_with('\n'), "a torn last line");
    let kept: Vec<&str> = text.lines().skip(1).collect();
    assert!(kept.len() >= 1000, "{} puzzles", kept.len());
    assert!(
        err.contains(&format!("the first {} puzzles", kept.len())),
        "{err}"
    );
    let n = kept.len().to_string();
    let again = generate(&dir, &["-n", &n, "--seed", "5"]);
    assert_eq!(again.lines().skip(1).collect::<Vec<_>>(), kept);
}
