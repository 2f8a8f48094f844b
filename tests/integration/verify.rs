//! `bulkdoku verify` through the real binary: planted defects of every kind are found
//! on the right line, clean sets are clean, isomorphs are caught without false
//! positives, the summary and exit codes are right.

use std::collections::BTreeSet;

use bulkdoku::{solve, Grid};

use crate::util::{assert_exit, stderr, stdout, Table, Workdir};

/// The project's own minimal unique puzzles (`data/README.md`).
fn generated() -> Vec<Grid> {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/data/generated_1000.txt"
    ))
    .expect("data/generated_1000.txt");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.trim().parse().expect("81-cell puzzle"))
        .collect()
}

fn solution(p: &Grid) -> Grid {
    solve(p, 1).first.expect("solvable")
}

/// Rows/columns reordered (band-wise), transposed and digits relabelled: an isomorph.
fn transformed(p: &Grid, k: usize) -> Grid {
    let rows = [[5, 3, 4, 0, 2, 1, 8, 6, 7], [2, 1, 0, 6, 8, 7, 4, 3, 5]][k % 2];
    let cols = [[1, 2, 0, 7, 6, 8, 3, 5, 4], [8, 7, 6, 5, 4, 3, 2, 1, 0]][k % 2];
    let digits = [0, 3, 7, 9, 1, 2, 8, 4, 6, 5];
    let mut out = [0u8; 81];
    for r in 0..9 {
        for c in 0..9 {
            let (sr, sc) = if k.is_multiple_of(3) {
                (cols[c], rows[r])
            } else {
                (rows[r], cols[c])
            };
            out[r * 9 + c] = digits[p.get(sr * 9 + sc) as usize];
        }
    }
    Grid::from_cells(out).unwrap()
}

/// The (line, kind) pairs of a verify output.
fn findings(table: &Table) -> BTreeSet<(u64, String)> {
    let (line, kind) = (table.col("line"), table.col("kind"));
    table
        .rows
        .iter()
        .map(|r| (r[line].parse().unwrap(), r[kind].clone()))
        .collect()
}

fn detail<'t>(table: &'t Table, line: u64, kind: &str) -> &'t str {
    let (l, k, d) = (table.col("line"), table.col("kind"), table.col("detail"));
    table
        .rows
        .iter()
        .find(|r| r[l] == line.to_string() && r[k] == kind)
        .map(|r| r[d].as_str())
        .unwrap_or_else(|| panic!("no {kind} on line {line}"))
}

/// A CSV dataset with one planted defect of every kind; returns it with the expected
/// (line, kind) findings under `--isomorphs --minimal`.
fn planted() -> (String, BTreeSet<(u64, String)>) {
    let g = generated();
    let (a, b, c, d, e) = (g[0], g[1], g[2], g[3], g[4]);
    let mut rows: Vec<(String, String, String)> = Vec::new();
    let mut expected = BTreeSet::new();
    let mut add = |puzzle: String, sol: String, clues: String, kind: Option<&str>| {
        rows.push((puzzle, sol, clues));
        // Line 1 is the header.
        let line = rows.len() as u64 + 1;
        if let Some(kind) = kind {
            expected.insert((line, kind.to_string()));
        }
        line
    };
    let full = |p: &Grid| (p.to_line(), solution(p).to_line(), p.clues().to_string());

    let (p, s, n) = full(&a);
    let line_a = add(p, s, n, None);
    add(
        "12345.789".into(),
        String::new(),
        "7".into(),
        Some("malformed"),
    );

    // A conflict: a given repeated in its row.
    let mut conflict = a;
    let (cell, digit) = (0..81)
        .find_map(|i| (a.get(i) != 0).then(|| (i, a.get(i))))
        .unwrap();
    let same_row = (cell / 9 * 9..cell / 9 * 9 + 9)
        .find(|&j| a.get(j) == 0)
        .unwrap();
    conflict.set(same_row, digit);
    add(
        conflict.to_line(),
        String::new(),
        conflict.clues().to_string(),
        Some("conflict"),
    );

    // No solution, no conflict: r1c9 sees 1..8 in its row and 9 in its column.
    let dead = format!("12345678.{}9{}", ".".repeat(8), ".".repeat(63));
    add(dead, String::new(), "9".into(), Some("unsolvable"));

    // A minimal puzzle with a given removed has several solutions.
    let mut multiple = a;
    multiple.set(cell, 0);
    add(
        multiple.to_line(),
        solution(&a).to_line(),
        multiple.clues().to_string(),
        Some("multiple"),
    );

    // A valid grid that contradicts the givens: two digits swapped everywhere.
    let swapped: String = solution(&b)
        .to_line()
        .chars()
        .map(|ch| match ch {
            '1' => '2',
            '2' => '1',
            ch => ch,
        })
        .collect();
    let line_b = add(
        b.to_line(),
        swapped,
        b.clues().to_string(),
        Some("wrong_solution"),
    );

    let (p, s, n) = full(&c);
    add(
        p,
        s,
        (n.parse::<usize>().unwrap() + 1).to_string(),
        Some("wrong_clues"),
    );

    let (p, s, n) = full(&a);
    add(p.replace('.', "0"), s, n, Some("duplicate"));

    let iso = transformed(&b, 0);
    let (p, s, n) = full(&iso);
    add(p, s, n, Some("isomorph"));

    // A redundant given: one more cell of the solution.
    let mut extra = d;
    let blank = (0..81).find(|&i| d.get(i) == 0).unwrap();
    extra.set(blank, solution(&d).get(blank));
    let (p, s, n) = full(&extra);
    add(p, s, n, Some("not_minimal"));

    let (p, s, n) = full(&e);
    add(p, s, n, None);

    let mut csv = String::from("puzzle,solution,clues\n");
    for (p, s, n) in &rows {
        csv.push_str(&format!("{p},{s},{n}\n"));
    }
    assert_eq!((line_a, line_b), (2, 7));
    (csv, expected)
}

#[test]
fn every_planted_defect_is_found_on_its_line() {
    let wd = Workdir::new();
    let (csv, expected) = planted();
    wd.create("planted.csv", &csv);
    let out = wd.run(&["verify", "--isomorphs", "--minimal", "planted.csv"]);
    assert_exit(&out, 1);
    let table = Table::parse(&stdout(&out));
    assert_eq!(table.headers, ["line", "puzzle", "kind", "detail"]);
    assert_eq!(findings(&table), expected, "\n{}", stdout(&out));

    assert!(detail(&table, 3, "malformed").contains("9 cells"));
    assert!(detail(&table, 4, "conflict").contains("r1c"));
    assert!(detail(&table, 7, "wrong_solution").contains("disagrees with the given"));
    assert!(detail(&table, 8, "wrong_clues").contains("the puzzle has"));
    assert_eq!(detail(&table, 9, "duplicate"), "same puzzle as line 2");
    assert_eq!(detail(&table, 10, "isomorph"), "equivalent to line 7");
    assert!(detail(&table, 11, "not_minimal").contains("r"));
    // The duplicate's puzzle column is normalised ('.' blanks, not the input's '0').
    let (l, p) = (table.col("line"), table.col("puzzle"));
    let dup = table.rows.iter().find(|r| r[l] == "9").unwrap();
    assert_eq!(dup[p], generated()[0].to_line());
    assert!(!dup[p].contains('0'));
}

#[test]
fn without_the_options_isomorphs_and_non_minimal_puzzles_pass() {
    let wd = Workdir::new();
    let (csv, mut expected) = planted();
    wd.create("planted.csv", &csv);
    let out = wd.run(&["verify", "planted.csv", "-j", "1"]);
    assert_exit(&out, 1);
    expected.retain(|(_, k)| k != "isomorph" && k != "not_minimal");
    assert_eq!(findings(&Table::parse(&stdout(&out))), expected);
}

#[test]
fn a_clean_set_has_no_rows_and_exit_0() {
    let wd = Workdir::new();
    let lines: Vec<String> = generated()[..300].iter().map(Grid::to_line).collect();
    wd.create("clean.txt", lines.join("\n") + "\n");
    let out = wd.run(&["verify", "--isomorphs", "--minimal", "clean.txt"]);
    assert_exit(&out, 0);
    let table = Table::parse(&stdout(&out));
    assert_eq!(table.headers, ["line", "puzzle", "kind", "detail"]);
    assert!(table.rows.is_empty(), "{}", stdout(&out));
    assert!(
        stderr(&out).contains("verified 300 puzzles: clean"),
        "{}",
        stderr(&out)
    );

    // --all: one `ok` row per puzzle, in input order.
    let out = wd.run(&["verify", "--all", "-q", "clean.txt"]);
    assert_exit(&out, 0);
    let table = Table::parse(&stdout(&out));
    assert_eq!(table.rows.len(), 300);
    assert!(table.column("kind").iter().all(|&k| k == "ok"));
    let lines: Vec<u64> = table
        .column("line")
        .iter()
        .map(|l| l.parse().unwrap())
        .collect();
    assert_eq!(lines, (1..=300).collect::<Vec<u64>>());
    assert_eq!(stderr(&out), "");
}

#[test]
fn transformed_copies_are_all_detected_and_originals_are_not() {
    let wd = Workdir::new();
    let originals = &generated()[..200];
    let mut lines: Vec<String> = originals.iter().map(Grid::to_line).collect();
    lines.extend(
        originals
            .iter()
            .enumerate()
            .map(|(k, p)| transformed(p, k).to_line()),
    );
    wd.create("iso.txt", lines.join("\n") + "\n");
    let out = wd.run(&["verify", "--isomorphs", "iso.txt", "-j", "2"]);
    assert_exit(&out, 1);
    let table = Table::parse(&stdout(&out));
    let expected: BTreeSet<(u64, String)> = (201..=400).map(|l| (l, "isomorph".into())).collect();
    assert_eq!(findings(&table), expected);
    for (row, line) in table.rows.iter().zip(201..) {
        assert_eq!(
            row[table.col("detail")],
            format!("equivalent to line {}", line - 200)
        );
    }
    assert!(
        stderr(&out).contains("200 isomorph groups"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn summary_json_counts_every_kind() {
    let wd = Workdir::new();
    let (csv, expected) = planted();
    wd.create("planted.csv", &csv);
    let out = wd.run(&[
        "verify",
        "--isomorphs",
        "--minimal",
        "planted.csv",
        "--summary",
        "summary.json",
        "-o",
        "findings.csv",
    ]);
    assert_exit(&out, 1);
    assert_eq!(stdout(&out), "");
    let table = Table::parse(&std::fs::read_to_string(wd.file("findings.csv")).unwrap());
    assert_eq!(findings(&table), expected);

    #[derive(serde::Deserialize)]
    struct Summary {
        puzzles: u64,
        kinds: std::collections::BTreeMap<String, u64>,
    }
    let text = std::fs::read_to_string(wd.file("summary.json")).unwrap();
    let summary: Summary = serde_json::from_str(&text).unwrap();
    assert_eq!(summary.puzzles, 11);
    for kind in [
        "malformed",
        "conflict",
        "unsolvable",
        "multiple",
        "wrong_solution",
        "wrong_clues",
        "duplicate",
        "isomorph",
        "not_minimal",
    ] {
        assert_eq!(summary.kinds[kind], 1, "{kind} in {text}");
    }
    assert_eq!(summary.kinds["ok"], 2, "{text}");
    let err = stderr(&out);
    assert!(
        err.contains("verified 11 puzzles: 9 with findings"),
        "{err}"
    );
    assert!(err.contains("1 duplicate groups"), "{err}");
}

#[test]
fn duplicates_across_files_name_the_file() {
    let wd = Workdir::new();
    let g = generated();
    wd.create("a.txt", format!("{}\n{}\n", g[0].to_line(), g[1].to_line()));
    wd.create("b.txt", format!("{}\n{}\n", g[2].to_line(), g[1].to_line()));
    let out = wd.run(&["verify", "a.txt", "b.txt"]);
    assert_exit(&out, 1);
    let table = Table::parse(&stdout(&out));
    assert_eq!(table.headers, ["file", "line", "puzzle", "kind", "detail"]);
    assert_eq!(table.rows.len(), 1, "{}", stdout(&out));
    let row = &table.rows[0];
    assert_eq!(row[..2], ["b.txt", "2"]);
    assert_eq!(row[3..], ["duplicate", "same puzzle as line 2 of a.txt"]);
}

#[test]
fn a_puzzle_can_have_several_findings_and_stdin_works() {
    let wd = Workdir::new();
    let p = generated()[5];
    // The same non-minimal puzzle twice: the copy is both not minimal and a duplicate.
    let mut extra = p;
    let blank = (0..81).find(|&i| p.get(i) == 0).unwrap();
    extra.set(blank, solution(&p).get(blank));
    let input = format!("{0}\n{0}\n", extra.to_line());
    let out = wd.run_with_stdin(&["verify", "--minimal", "-"], input);
    assert_exit(&out, 1);
    let table = Table::parse(&stdout(&out));
    let expected: BTreeSet<(u64, String)> = [
        (1, "not_minimal".to_string()),
        (2, "duplicate".to_string()),
        (2, "not_minimal".to_string()),
    ]
    .into();
    assert_eq!(findings(&table), expected);
    // Rows of one puzzle come in kind order.
    assert_eq!(table.column("kind")[1..], ["duplicate", "not_minimal"]);
}

#[test]
fn usage_and_io_errors_exit_2() {
    let wd = Workdir::new();
    let out = wd.run(&["verify", "missing.txt"]);
    assert_exit(&out, 2);
    assert!(stderr(&out).contains("missing.txt"), "{}", stderr(&out));

    let out = wd.run(&["verify", "--no-such-flag", "x.txt"]);
    assert_exit(&out, 2);

    let (csv, _) = planted();
    wd.create("planted.csv", &csv);
    let out = wd.run(&["verify", "--solution-column", "nope", "planted.csv"]);
    assert_exit(&out, 2);
    assert!(
        stderr(&out).contains("no column \"nope\""),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_named_solution_column_is_used() {
    let wd = Workdir::new();
    let g = generated();
    let right = solution(&g[0]).to_line();
    let wrong = solution(&g[1]).to_line();
    wd.create(
        "named.csv",
        format!(
            "quizzes,answer,check\n{},{right},{right}\n{},{wrong},{wrong}\n",
            g[0].to_line(),
            g[0].to_line()
        ),
    );
    // By default `answer` is the solution column.
    let out = wd.run(&["verify", "-q", "named.csv"]);
    assert_exit(&out, 1);
    let table = Table::parse(&stdout(&out));
    assert_eq!(
        findings(&table),
        [
            (3, "duplicate".to_string()),
            (3, "wrong_solution".to_string())
        ]
        .into()
    );
    let out = wd.run(&["verify", "-q", "named.csv", "--solution-column", "check"]);
    assert_exit(&out, 1);
    assert_eq!(findings(&Table::parse(&stdout(&out))), findings(&table));
}

#[test]
fn empty_solution_and_clue_cells_are_not_checked() {
    let wd = Workdir::new();
    let g = generated();
    wd.create(
        "gaps.csv",
        format!(
            "puzzle,solution,clues\n{},,\n{}, , \n",
            g[0].to_line(),
            g[1].to_line()
        ),
    );
    let out = wd.run(&["verify", "-q", "gaps.csv"]);
    assert_exit(&out, 0);
    assert!(Table::parse(&stdout(&out)).rows.is_empty());
    // The same columns with wrong values are checked.
    wd.create(
        "wrong.csv",
        format!("puzzle,solution,clues\n{},x,1\n", g[0].to_line()),
    );
    let out = wd.run(&["verify", "-q", "wrong.csv"]);
    assert_exit(&out, 1);
    let table = Table::parse(&stdout(&out));
    assert_eq!(
        findings(&table),
        [
            (2, "wrong_solution".to_string()),
            (2, "wrong_clues".to_string())
        ]
        .into()
    );
}
