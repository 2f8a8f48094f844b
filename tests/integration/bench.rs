//! `bulkdoku bench` through the real binary, on tiny datasets and short time budgets.

use serde_json::Value;

use crate::util::{assert_exit, stderr, stdout, Table, Workdir};

/// Two valid puzzles (an easy one and Arto Inkala's "hardest") and one invalid line.
const TINY: &str = "\
003020600900305001001806400008102900700000008006708200002609500800203009005010300
800000000003600000070090200050007000000045700000100030001000068008500010090000400
12345
";

#[test]
fn json_has_one_row_per_dataset_limit_and_thread_count() {
    let wd = Workdir::new();
    wd.create("a.txt", TINY);
    wd.create("b.txt", &TINY[..82]);
    let out = wd.run(&[
        "bench",
        "a.txt",
        "b.txt",
        "--seconds",
        "0.2",
        "-j",
        "2",
        "--format",
        "json",
    ]);
    assert_exit(&out, 0);
    let rows: Vec<Value> = serde_json::from_str(&stdout(&out)).expect("a JSON list");
    // 2 datasets × limits 1,2 (the default) × 1 and 2 threads, in that order.
    let keys: Vec<(String, u64, u64)> = rows
        .iter()
        .map(|r| {
            (
                r["dataset"].as_str().unwrap().to_string(),
                r["limit"].as_u64().unwrap(),
                r["threads"].as_u64().unwrap(),
            )
        })
        .collect();
    let mut expected = Vec::new();
    for dataset in ["a.txt", "b.txt"] {
        for limit in [1, 2] {
            for threads in [1, 2] {
                expected.push((dataset.to_string(), limit, threads));
            }
        }
    }
    assert_eq!(keys, expected);
    for r in &rows {
        let rate = r["puzzles_per_sec"].as_f64().unwrap();
        let usec = r["usec_per_puzzle"].as_f64().unwrap();
        assert!(rate > 0.0 && rate.is_finite(), "{r}");
        assert!((usec * rate - 1e6).abs() < 1e-3, "{r}");
        let no_guess = r["no_guess_pct"].as_f64().unwrap();
        assert!((0.0..=100.0).contains(&no_guess), "{r}");
        assert!(r["guesses_per_puzzle"].as_f64().unwrap() >= 0.0, "{r}");
        assert!(r["samples"].as_u64().unwrap() >= 1, "{r}");
    }
    // a.txt: 2 valid puzzles, the 3rd line skipped; b.txt: the easy one alone, which
    // falls to singles: 100 % without guessing, 0 guesses.
    assert_eq!(
        (rows[0]["puzzles"].as_u64(), rows[0]["invalid"].as_u64()),
        (Some(2), Some(1))
    );
    assert_eq!(rows[4]["puzzles"], 1);
    assert_eq!(rows[4]["no_guess_pct"], 100.0);
    assert_eq!(rows[4]["guesses_per_puzzle"], 0.0);
    // Inkala's puzzle needs guesses, the same on every thread count.
    assert!(rows[0]["guesses_per_puzzle"].as_f64().unwrap() > 0.0);
    assert_eq!(rows[0]["guesses_per_puzzle"], rows[1]["guesses_per_puzzle"]);
}

#[test]
fn markdown_and_csv_tables() {
    let wd = Workdir::new();
    wd.create("a.txt", TINY);
    let out = wd.run(&[
        "bench",
        "a.txt",
        "--seconds",
        "0.1",
        "--limit",
        "2",
        "-j",
        "2",
    ]);
    assert_exit(&out, 0);
    let md = stdout(&out);
    let lines: Vec<&str> = md.lines().collect();
    assert_eq!(lines.len(), 4, "{md}");
    assert!(lines[0].starts_with("| dataset | puzzles | limit | threads | puzzles/s |"));
    assert!(lines[2].starts_with("| a.txt | 2 | 2 | 1 |"), "{md}");
    assert!(lines[3].starts_with("| a.txt | 2 | 2 | 2 |"), "{md}");

    let out = wd.run(&[
        "bench",
        "a.txt",
        "--seconds",
        "0.1",
        "--limit",
        "1",
        "-j",
        "1",
        "--format",
        "csv",
    ]);
    assert_exit(&out, 0);
    let table = Table::parse(&stdout(&out));
    // -j 1: one thread is all threads, so one row.
    assert_eq!(table.rows.len(), 1);
    assert_eq!(table.column("threads"), ["1"]);
    assert_eq!(table.column("limit"), ["1"]);
    let rate: f64 = table.column("puzzles_per_sec")[0].parse().unwrap();
    assert!(rate > 0.0);
}

#[test]
fn bad_arguments_and_empty_datasets_exit_2() {
    let wd = Workdir::new();
    wd.create("bad.txt", "12345\n");
    let out = wd.run(&["bench", "bad.txt", "--seconds", "0.1"]);
    assert_exit(&out, 2);
    assert!(stderr(&out).contains("bad.txt"), "{}", stderr(&out));

    wd.create("a.txt", TINY);
    let out = wd.run(&["bench", "a.txt", "--seconds", "0"]);
    assert_exit(&out, 2);
    assert!(stderr(&out).contains("--seconds"), "{}", stderr(&out));
    let out = wd.run(&["bench", "a.txt", "--limit", "0"]);
    assert_exit(&out, 2);
    assert!(stderr(&out).contains("--limit"), "{}", stderr(&out));
}
