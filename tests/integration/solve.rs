//! `bulkdoku solve` through the real binary.

use std::io::{BufRead, BufReader, Write};
use std::process::Stdio;

use bulkdoku::Grid;

use crate::util::{assert_exit, stderr, stdout, Table, Workdir};

/// The first seed article's example (POJ 2676) and its solution.
const EASY: &str =
    "103000509002109400000704000300502006060000050700803004000401000009205800804000107";
const EASY_SOLUTION: &str =
    "143628579572139468986754231391542786468917352725863914237481695619275843854396127";
/// A puzzle that takes a backtracking solver many guesses.
const HARD: &str =
    "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9";
/// Another well-known hard one, with its solution.
const INKALA: &str =
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";
const INKALA_SOLUTION: &str =
    "812753649943682175675491283154237896369845721287169534521974368438526917796318452";
/// No conflict among the givens, but r1c9 has no candidate left: no solution.
const UNSOLVABLE: &str =
    "12345678.........9...............................................................";

/// The puzzles of `generate -n count --seed seed`, made by the real binary.
fn generated(dir: &Workdir, count: u32, seed: u32) -> Vec<String> {
    let out = dir.run(&[
        "generate",
        "-n",
        &count.to_string(),
        "--seed",
        &seed.to_string(),
    ]);
    assert_exit(&out, 0);
    stdout(&out)
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(str::to_string)
        .collect()
}

/// Check a solved row: its solution is valid and keeps the puzzle's givens.
#[track_caller]
fn assert_solves(puzzle: &str, solution: &str) {
    let p: Grid = puzzle.parse().expect("puzzle");
    let s = Grid::parse(solution.as_bytes()).expect("81 digits");
    assert!(
        s.is_valid_solution() && s.agrees_with(&p),
        "{solution} does not solve {puzzle}"
    );
}

/// A table's rows as maps, for readable assertions.
fn run_table(dir: &Workdir, args: &[&str]) -> Table {
    let out = dir.run(args);
    assert_exit(&out, 0);
    Table::parse(&stdout(&out))
}

#[test]
fn lines_input_gives_every_column_in_order() {
    let dir = Workdir::new();
    dir.create(
        "p.txt",
        format!("# two puzzles\r\n{EASY}\r\n\r\n{INKALA} ED=11.9/1.2/1.2\n"),
    );
    let t = run_table(&dir, &["solve", "p.txt", "-q"]);
    assert_eq!(
        t.headers,
        [
            "file",
            "line",
            "puzzle",
            "status",
            "solutions",
            "clues",
            "guesses",
            "time_ns",
            "solution",
            "error"
        ]
    );
    assert_eq!(t.rows.len(), 2);
    assert_eq!(t.column("file"), ["p.txt", "p.txt"]);
    assert_eq!(t.column("line"), ["2", "4"]);
    assert_eq!(
        t.column("puzzle"),
        [EASY.replace('0', ".").as_str(), INKALA]
    );
    assert_eq!(t.column("status"), ["unique", "unique"]);
    assert_eq!(t.column("solutions"), ["1", "1"]);
    let clues = |p: &str| {
        p.bytes()
            .filter(|b| b.is_ascii_digit() && *b != b'0')
            .count()
    };
    assert_eq!(
        t.column("clues"),
        [clues(EASY).to_string(), clues(INKALA).to_string()]
    );
    assert_eq!(t.column("solution"), [EASY_SOLUTION, INKALA_SOLUTION]);
    assert_eq!(t.column("error"), ["", ""]);
    for v in t.column("time_ns") {
        assert!(v.parse::<u64>().unwrap() > 0, "time_ns {v}");
    }
    for v in t.column("guesses") {
        v.parse::<u64>().expect("guesses is a number");
    }
}

#[test]
fn csv_input_with_column_and_keep() {
    let dir = Workdir::new();
    dir.create(
        "k.csv",
        format!("id,grid,difficulty\n7,{EASY},1.5\n9,{INKALA},9.9\n"),
    );
    let t = run_table(
        &dir,
        &[
            "solve",
            "k.csv",
            "--column",
            "grid",
            "--keep",
            "id,difficulty",
            "-q",
        ],
    );
    assert_eq!(&t.headers[10..], ["id", "difficulty"]);
    assert_eq!(t.column("id"), ["7", "9"]);
    assert_eq!(t.column("difficulty"), ["1.5", "9.9"]);
    assert_eq!(t.column("line"), ["2", "3"]);
    assert_eq!(t.column("solution"), [EASY_SOLUTION, INKALA_SOLUTION]);

    // Kaggle style: the `quizzes` column is found by name.
    dir.create(
        "kaggle.csv",
        format!("quizzes,solutions\n{EASY},{EASY_SOLUTION}\n"),
    );
    let t = run_table(&dir, &["solve", "kaggle.csv", "-q"]);
    assert_eq!(t.column("solution"), [EASY_SOLUTION]);
    assert_eq!(t.column("status"), ["unique"]);

    // A kept column the input does not have is a clear error.
    let out = dir.run(&["solve", "kaggle.csv", "--keep", "nope", "-q"]);
    assert_exit(&out, 2);
    assert!(stderr(&out).contains("nope"), "{}", stderr(&out));
}

/// `puzzle` as 9 lines of 9 cells, optionally space-separated with trailing spaces.
fn nine_lines(puzzle: &str, spaced: bool) -> String {
    let mut s = String::new();
    for row in puzzle.as_bytes().chunks(9) {
        if spaced {
            for &b in row {
                s.push(b as char);
                s.push(' ');
            }
        } else {
            s.push_str(std::str::from_utf8(row).unwrap());
        }
        s.push('\n');
    }
    s
}

#[test]
fn nine_line_grids_with_and_without_count_line() {
    let dir = Workdir::new();
    // POJ 2676: a case count, then 9 lines of 9 digits per case.
    dir.create(
        "poj.txt",
        format!("2\n{}{}", nine_lines(EASY, false), nine_lines(EASY, false)),
    );
    let t = run_table(&dir, &["solve", "poj.txt", "-q"]);
    assert_eq!(t.column("line"), ["2", "11"]);
    assert_eq!(t.column("solution"), [EASY_SOLUTION, EASY_SOLUTION]);

    // Space-separated digits with trailing spaces, blocks apart by a blank line.
    dir.create(
        "spaced.txt",
        format!(
            "{}\n{}",
            nine_lines(EASY, true),
            nine_lines(&INKALA.replace('.', "0"), true)
        ),
    );
    let t = run_table(&dir, &["solve", "spaced.txt", "-q", "--format", "grid"]);
    assert_eq!(t.column("line"), ["1", "11"]);
    assert_eq!(t.column("solution"), [EASY_SOLUTION, INKALA_SOLUTION]);
}

#[test]
fn board_literal_input() {
    let dir = Workdir::new();
    let rows: Vec<String> = INKALA
        .as_bytes()
        .chunks(9)
        .map(|row| {
            let cells: Vec<String> = row.iter().map(|&b| format!("\"{}\"", b as char)).collect();
            format!("[{}]", cells.join(","))
        })
        .collect();
    dir.create("board.txt", format!("[{}]\n", rows.join(",")));
    let t = run_table(&dir, &["solve", "board.txt", "-q"]);
    assert_eq!(t.column("puzzle"), [INKALA]);
    assert_eq!(t.column("status"), ["unique"]);
    assert_eq!(t.column("solution"), [INKALA_SOLUTION]);
}

#[test]
fn stdin_and_several_files() {
    let dir = Workdir::new();
    let out = dir.run_with_stdin(&["solve", "-q"], format!("{INKALA}\n"));
    assert_exit(&out, 0);
    let t = Table::parse(&stdout(&out));
    assert_eq!(t.column("file"), ["-"]);
    assert_eq!(t.column("solution"), [INKALA_SOLUTION]);

    dir.create("a.txt", format!("{EASY}\n{INKALA}\n"));
    dir.create("b.txt", format!("{INKALA}\n"));
    let out = dir.run_with_stdin(&["solve", "a.txt", "-", "b.txt", "-q"], format!("{EASY}\n"));
    assert_exit(&out, 0);
    let t = Table::parse(&stdout(&out));
    assert_eq!(t.column("file"), ["a.txt", "a.txt", "-", "b.txt"]);
    assert_eq!(t.column("line"), ["1", "2", "1", "1"]);
    assert_eq!(
        t.column("solution"),
        [
            EASY_SOLUTION,
            INKALA_SOLUTION,
            EASY_SOLUTION,
            INKALA_SOLUTION
        ]
    );
}

#[test]
fn order_is_kept_with_threads_and_uneven_difficulty() {
    let dir = Workdir::new();
    let easy = generated(&dir, 300, 5);
    // Hard puzzles every few records, so that later easy ones finish first.
    let mut puzzles = Vec::new();
    for (i, p) in easy.iter().enumerate() {
        puzzles.push(p.clone());
        if i % 13 == 0 {
            puzzles.push(if i % 2 == 0 { HARD } else { INKALA }.to_string());
        }
    }
    dir.create("mix.txt", puzzles.join("\n"));
    for threads in ["2", "4"] {
        for batch in ["7", "64", "4096"] {
            let t = run_table(
                &dir,
                &[
                    "solve",
                    "mix.txt",
                    "-j",
                    threads,
                    "--batch-size",
                    batch,
                    "-q",
                ],
            );
            assert_eq!(t.rows.len(), puzzles.len());
            let lines: Vec<String> = (1..=puzzles.len()).map(|n| n.to_string()).collect();
            assert_eq!(t.column("line"), lines, "-j {threads} batch {batch}");
            assert_eq!(t.column("puzzle"), puzzles, "-j {threads} batch {batch}");
            for (p, s) in puzzles.iter().zip(t.column("solution")) {
                assert_solves(p, s);
            }
            assert!(t.column("status").iter().all(|&s| s == "unique"));
        }
    }
}

#[test]
fn invalid_records_become_rows_and_exit_zero() {
    let dir = Workdir::new();
    let short = &EASY[..80];
    let bad_char = format!("{}x{}", &EASY[..11], &EASY[12..]);
    let conflict = format!("7...7{}", &".".repeat(76));
    dir.create(
        "bad.txt",
        format!("{EASY}\n{short}\n{bad_char}\n{conflict}\n{INKALA}\n"),
    );
    let out = dir.run(&["solve", "bad.txt"]);
    assert_exit(&out, 0);
    let t = Table::parse(&stdout(&out));
    assert_eq!(t.column("line"), ["1", "2", "3", "4", "5"]);
    assert_eq!(
        t.column("status"),
        ["unique", "invalid", "invalid", "invalid", "unique"]
    );
    assert_eq!(
        t.column("error"),
        [
            "",
            "80 cells, expected 81",
            "bad character 'x' at cell 12",
            "givens conflict: r1c1 and r1c5 are both 7",
            ""
        ]
    );
    // Invalid records keep the text as found.
    assert_eq!(t.column("puzzle")[1], short);
    assert_eq!(t.column("solution")[1], "");
    // The summary counts them.
    let err = stderr(&out);
    assert!(
        err.contains("2 unique") && err.contains("3 invalid"),
        "{err}"
    );
    assert!(err.contains("p50") && err.contains("p99"), "{err}");
}

#[test]
fn strict_stops_at_the_first_invalid_record() {
    let dir = Workdir::new();
    let conflict = format!("7...7{}", &".".repeat(76));
    dir.create("s.txt", format!("{EASY}\n{INKALA}\n{conflict}\n{EASY}\n"));
    let out = dir.run(&["solve", "s.txt", "--strict"]);
    assert_exit(&out, 1);
    assert_eq!(
        stderr(&out).trim_end(),
        "bulkdoku: s.txt:3: givens conflict: r1c1 and r1c5 are both 7"
    );
    // The rows before it are written, none after.
    let t = Table::parse(&stdout(&out));
    assert_eq!(t.column("line"), ["1", "2"]);
}

#[test]
fn closed_pipe_is_success_without_noise() {
    let dir = Workdir::new();
    let input = format!("{EASY}\n").repeat(100_000);
    dir.create("many.txt", input);
    let mut child = dir
        .command(&["solve", "many.txt", "-j", "2"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
    for _ in 0..5 {
        lines.next().expect("a line").expect("text");
    }
    drop(lines);
    let out = child.wait_with_output().expect("wait");
    assert_exit(&out, 0);
    assert_eq!(stderr(&out), "");
}

#[test]
fn gzip_input() {
    let dir = Workdir::new();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(format!("{EASY}\n{INKALA}\n").as_bytes())
        .unwrap();
    dir.create("p.txt.gz", gz.finish().unwrap());
    let t = run_table(&dir, &["solve", "p.txt.gz", "-q"]);
    assert_eq!(t.column("solution"), [EASY_SOLUTION, INKALA_SOLUTION]);
    assert_eq!(t.column("line"), ["1", "2"]);
}

#[test]
fn grid_output_draws_boxes() {
    let dir = Workdir::new();
    dir.create("p.txt", format!("{INKALA}\n{}\n", &EASY[..80]));
    let out = dir.run(&["solve", "p.txt", "--output-format", "grid", "-q"]);
    assert_exit(&out, 0);
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].starts_with("p.txt:1  unique  solutions=1 clues=21"),
        "{text}"
    );
    assert_eq!(
        lines[1],
        "+-------+-------+-------+   +-------+-------+-------+"
    );
    assert_eq!(
        lines[2],
        "| 8 . . | . . . | . . . |   | 8 1 2 | 7 5 3 | 6 4 9 |"
    );
    assert_eq!(
        lines[13],
        "+-------+-------+-------+   +-------+-------+-------+"
    );
    assert!(
        text.contains("p.txt:2  invalid  80 cells, expected 81"),
        "{text}"
    );
}

/// Blank `rects` disjoint unavoidable rectangles of `solution` (four cells in two rows,
/// two columns and two boxes holding a b / b a): each doubles the solutions.
fn blank_rectangles(solution: &Grid, rects: usize) -> Grid {
    let mut puzzle = *solution;
    let mut used = [false; 81];
    let mut done = 0;
    'search: for r1 in 0..9 {
        for r2 in r1 + 1..(r1 / 3 + 1) * 3 {
            for c1 in 0..9 {
                for c2 in c1 + 1..9 {
                    if c1 / 3 == c2 / 3 {
                        continue;
                    }
                    let cells = [r1 * 9 + c1, r1 * 9 + c2, r2 * 9 + c1, r2 * 9 + c2];
                    let v = cells.map(|c| solution.get(c));
                    if v[0] == v[3] && v[1] == v[2] && cells.iter().all(|&c| !used[c]) {
                        for c in cells {
                            puzzle.set(c, 0);
                            used[c] = true;
                        }
                        done += 1;
                        if done == rects {
                            break 'search;
                        }
                    }
                }
            }
        }
    }
    assert_eq!(done, rects, "not enough rectangles in {solution}");
    puzzle
}

#[test]
fn all_solutions_gives_one_row_per_solution() {
    let dir = Workdir::new();
    let solution = Grid::parse(INKALA_SOLUTION.as_bytes()).unwrap();
    let puzzle = blank_rectangles(&solution, 2);
    let k = bulkdoku::count(&puzzle, 100).solutions;
    assert!(k >= 2, "the blanked puzzle should have several solutions");
    dir.create(
        "multi.txt",
        format!("{}\n{INKALA}\n{UNSOLVABLE}\n", puzzle.to_line()),
    );
    let t = run_table(
        &dir,
        &[
            "solve",
            "multi.txt",
            "--all-solutions",
            "--limit",
            "100",
            "-q",
        ],
    );
    let k = k as usize;
    assert_eq!(t.rows.len(), k + 2);
    let lines = t.column("line");
    assert!(lines[..k].iter().all(|&l| l == "1"));
    assert_eq!(&lines[k..], ["2", "3"]);
    let mut seen: Vec<&str> = t.column("solution")[..k].to_vec();
    for s in &seen {
        assert_solves(&puzzle.to_line(), s);
    }
    seen.sort_unstable();
    seen.dedup();
    assert_eq!(seen.len(), k, "solutions are distinct");
    assert!(t.column("status")[..k].iter().all(|&s| s == "multiple"));
    assert!(t.column("solutions")[..k]
        .iter()
        .all(|&s| s == k.to_string()));
    assert_eq!(t.column("solution")[k], INKALA_SOLUTION);
    // A record without a solution still has its row.
    assert_eq!(t.column("status")[k + 1], "unsolvable");
    assert_eq!(t.column("solution")[k + 1], "");

    // --limit caps the rows of one record.
    let t = run_table(
        &dir,
        &[
            "solve",
            "multi.txt",
            "--all-solutions",
            "--limit",
            "2",
            "-q",
        ],
    );
    assert_eq!(t.column("line"), ["1", "1", "2", "3"]);
}

#[test]
fn first_and_limit_statuses() {
    let dir = Workdir::new();
    let solution = Grid::parse(INKALA_SOLUTION.as_bytes()).unwrap();
    let multi = blank_rectangles(&solution, 1).to_line();
    dir.create(
        "st.txt",
        format!("{INKALA}\n{multi}\n{UNSOLVABLE}\n{}\n", &EASY[..10]),
    );
    let t = run_table(&dir, &["solve", "st.txt", "-q"]);
    assert_eq!(
        t.column("status"),
        ["unique", "multiple", "unsolvable", "invalid"]
    );
    assert_eq!(t.column("solutions"), ["1", "2", "0", "0"]);

    let t = run_table(&dir, &["solve", "st.txt", "--first", "-q"]);
    assert_eq!(
        t.column("status"),
        ["solved", "solved", "unsolvable", "invalid"]
    );
    assert_eq!(t.column("solutions"), ["1", "1", "0", "0"]);
    assert_solves(&multi, t.column("solution")[1]);
}

#[test]
fn unreadable_file_exits_2_with_its_name() {
    let dir = Workdir::new();
    let out = dir.run(&["solve", "missing.txt"]);
    assert_exit(&out, 2);
    let err = stderr(&out);
    assert!(
        err.starts_with("bulkdoku: ") && err.contains("missing.txt"),
        "{err}"
    );
}

#[test]
fn output_file_and_help() {
    let dir = Workdir::new();
    dir.create("p.txt", format!("{EASY}\n"));
    let out = dir.run(&["solve", "p.txt", "-o", "out.csv", "-q"]);
    assert_exit(&out, 0);
    assert_eq!(stdout(&out), "");
    let t = Table::parse(&std::fs::read_to_string(dir.file("out.csv")).unwrap());
    assert_eq!(t.column("solution"), [EASY_SOLUTION]);

    let out = dir.run(&["solve", "--help"]);
    assert_exit(&out, 0);
    let help = stdout(&out);
    for flag in [
        "--output",
        "--threads",
        "--first",
        "--limit",
        "--column",
        "--keep",
        "--strict",
        "--progress",
        "--quiet",
        "--all-solutions",
        "--output-format",
        "--format",
        "Examples:",
    ] {
        assert!(help.contains(flag), "--help lacks {flag}");
    }
}

#[test]
fn progress_shows_on_stderr_only_when_asked_off_a_terminal() {
    let dir = Workdir::new();
    dir.create("p.txt", format!("{EASY}\n").repeat(50));
    // stderr is a pipe here: `auto` hides the bar, the summary stays.
    let out = dir.run(&["solve", "p.txt"]);
    assert_exit(&out, 0);
    let err = stderr(&out);
    assert!(err.starts_with("bulkdoku: 50 puzzles: 50 unique"), "{err}");
    assert!(
        !err.contains("50 puzzles, ") && !err.contains('\r'),
        "{err}"
    );
    // `always` draws it anyway, with the count and rate; stdout stays clean CSV.
    let out = dir.run(&["solve", "p.txt", "--progress", "always"]);
    assert_exit(&out, 0);
    let err = stderr(&out);
    assert!(err.contains("50 puzzles, ") && err.contains("/s"), "{err}");
    assert_eq!(Table::parse(&stdout(&out)).rows.len(), 50);
    // -q: nothing at all.
    let out = dir.run(&["solve", "p.txt", "--progress", "always", "-q"]);
    assert_exit(&out, 0);
    assert_eq!(stderr(&out), "");
}

#[test]
fn broken_csv_exits_2_after_the_rows_before_it() {
    let dir = Workdir::new();
    dir.create(
        "b.csv",
        format!("id,puzzle\n1,{EASY}\n2,{INKALA},extra\n3,{EASY}\n"),
    );
    dir.create("ok.txt", format!("{INKALA}\n"));
    let out = dir.run(&["solve", "ok.txt", "b.csv", "ok.txt"]);
    assert_exit(&out, 2);
    let err = stderr(&out);
    assert!(err.starts_with("bulkdoku: b.csv:3: broken CSV"), "{err}");
    // Nothing before the break is lost; nothing after it is written.
    let t = Table::parse(&stdout(&out));
    assert_eq!(t.column("file"), ["ok.txt", "b.csv"]);
    assert_eq!(t.column("line"), ["1", "2"]);
}

/// `data/solve_check.csv` holds the CLI's verdicts, against which the Python, Spark and
/// Dask tests compare `bulkdoku.solve`. An engine change that finds another first
/// solution of a puzzle with several must regenerate it (data/README.md says how): this
/// test says so here, before the Python suite fails on it.
#[test]
fn the_shipped_verdicts_are_what_the_binary_says() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/solve_check.csv");
    let want = Table::parse(&std::fs::read_to_string(path).expect("data/solve_check.csv"));
    assert!(want.rows.len() > 200, "{} rows", want.rows.len());
    let wd = Workdir::new();
    let out = wd.run(&["solve", "-q", "--column", "puzzle", "--keep", "id", path]);
    assert_exit(&out, 0);
    let got = Table::parse(&stdout(&out));
    assert_eq!(got.column("id"), want.column("id"));
    for column in ["status", "solution", "error"] {
        let (g, w) = (got.column(column), want.column(column));
        for ((id, g), w) in want.column("id").iter().zip(g).zip(w) {
            assert_eq!(
                g, w,
                "row {id}, column {column}: data/solve_check.csv is stale"
            );
        }
    }
}
