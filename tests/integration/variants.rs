//! Variant rules through the real binary: `--rules` on `solve`, `verify`, `generate`
//! and `bench`, the per-row `rules` and `regions` CSV columns, jigsaw regions in line
//! files, and every error the rules can give.
//!
//! Every solution the binary writes is checked here against the rules by [`Rules`], a
//! small checker written from the rule definitions alone (pairs of cells, no houses or
//! masks shared with the library), so that a test cannot pass on the engine's word.

use std::collections::BTreeSet;

use crate::util::{assert_exit, stderr, stdout, Table, Workdir};

/// A region layout used by the library's own rule tests (connected regions, none of
/// them a box): region `3` holds r1c6 and r2c9, which share no box.
const REGIONS: &str =
    "111223333111223343112225543166525443776525844776555844776688884776889999766899999";

/// The rules of a puzzle, as an independent checker.
#[derive(Debug, Clone)]
struct Rules {
    x: bool,
    windoku: bool,
    knight: bool,
    king: bool,
    non_consecutive: bool,
    /// The region symbol of every cell (the boxes when not jigsaw).
    region: Vec<u8>,
}

impl Rules {
    /// `rules` as a comma-separated list; `regions` exactly when it includes jigsaw.
    fn new(rules: &str, regions: Option<&str>) -> Rules {
        let names: Vec<&str> = rules.split(',').map(str::trim).collect();
        let has = |n: &str| names.contains(&n);
        assert_eq!(
            has("jigsaw"),
            regions.is_some(),
            "{rules}: regions iff jigsaw"
        );
        let region = match regions {
            Some(r) => r.bytes().map(|b| b.to_ascii_uppercase()).collect(),
            None => (0..81)
                .map(|c| b'1' + (c / 27 * 3 + c % 9 / 3) as u8)
                .collect(),
        };
        Rules {
            x: has("x"),
            windoku: has("windoku"),
            knight: has("anti-knight"),
            king: has("anti-king"),
            non_consecutive: has("non-consecutive"),
            region,
        }
    }

    fn window(cell: usize) -> Option<usize> {
        let (r, c) = (cell / 9, cell % 9);
        let band = |i: usize| match i {
            1..=3 => Some(0),
            5..=7 => Some(1),
            _ => None,
        };
        Some(band(r)? * 2 + band(c)?)
    }

    /// True when cells `a` and `b` (distinct) may not hold the same digit.
    fn same_digit_forbidden(&self, a: usize, b: usize) -> bool {
        let (ra, ca, rb, cb) = (a / 9, a % 9, b / 9, b % 9);
        let (dr, dc) = (ra.abs_diff(rb), ca.abs_diff(cb));
        ra == rb
            || ca == cb
            || self.region[a] == self.region[b]
            || (self.x && ra == ca && rb == cb)
            || (self.x && ra + ca == 8 && rb + cb == 8)
            || (self.windoku && Rules::window(a).is_some() && Rules::window(a) == Rules::window(b))
            || (self.knight && ((dr, dc) == (1, 2) || (dr, dc) == (2, 1)))
            || (self.king && dr <= 1 && dc <= 1)
    }

    /// The first pair of filled cells that break a rule.
    fn broken_pair(&self, cells: &[u8]) -> Option<(usize, usize)> {
        for a in 0..81 {
            for b in a + 1..81 {
                let (x, y) = (cells[a], cells[b]);
                if x == 0 || y == 0 {
                    continue;
                }
                let adjacent = (a / 9 == b / 9 && b == a + 1) || b == a + 9;
                if (x == y && self.same_digit_forbidden(a, b))
                    || (self.non_consecutive && adjacent && x.abs_diff(y) == 1)
                {
                    return Some((a, b));
                }
            }
        }
        None
    }

    /// True when `solution` is complete, breaks no rule and keeps `puzzle`'s givens.
    fn solves(&self, solution: &str, puzzle: &str) -> bool {
        let s = digits(solution);
        let p = digits(puzzle);
        s.len() == 81
            && s.iter().all(|&d| (1..=9).contains(&d))
            && p.iter().zip(&s).all(|(&g, &d)| g == 0 || g == d)
            && self.broken_pair(&s).is_none()
    }
}

/// The 81 cells of a puzzle line, blanks as 0.
fn digits(line: &str) -> Vec<u8> {
    line.bytes()
        .map(|b| if b.is_ascii_digit() { b - b'0' } else { 0 })
        .collect()
}

/// `line` with cell `cell` set to `digit` (0 for a blank `.`).
fn with_cell(line: &str, cell: usize, digit: u8) -> String {
    let mut bytes = line.as_bytes().to_vec();
    bytes[cell] = if digit == 0 { b'.' } else { b'0' + digit };
    String::from_utf8(bytes).unwrap()
}

/// A puzzle of the givens (row, column, digit), 1-based.
fn givens(cells: &[(usize, usize, u8)]) -> String {
    let mut line = ".".repeat(81);
    for &(r, c, d) in cells {
        line = with_cell(&line, (r - 1) * 9 + c - 1, d);
    }
    line
}

/// Hand-checked puzzles, one per rule (those of `tests/rules.rs`, whose solutions the
/// reference solver there proves unique): unique under their rules.
struct Example {
    rules: &'static str,
    regions: Option<&'static str>,
    puzzle: &'static str,
    solution: &'static str,
}

const EXAMPLES: [Example; 7] = [
    Example {
        rules: "x",
        regions: None,
        puzzle: "......4..3.......68..5.6.........2............83.1..9.23....1....1...5.4......6..",
        solution:
            "926831457354972816817546932179653248542789361683214795235467189761398524498125673",
    },
    Example {
        rules: "windoku",
        regions: None,
        puzzle: ".....14........816..75.......2.1......9........1.29...............4...6......3...",
        solution:
            "926831457534972816817546932382614579479358621651729384768295143193487265245163798",
    },
    Example {
        rules: "anti-knight",
        regions: None,
        puzzle: "...........8..4..9................8.........5.924.5...1.3.........16.....4......6",
        solution:
            "926831457738654129451927863517392684384716295692485731163249578875163942249578316",
    },
    Example {
        rules: "anti-king",
        regions: None,
        puzzle: "..68.......7...3..45..7..6....1...9..4.....3.......17....9..........39.52...8..1.",
        solution:
            "926831457817546329453279861378164592145792638692358174534917286781623945269485713",
    },
    Example {
        rules: "non-consecutive",
        regions: None,
        puzzle: "......2..................4..........5...4..................8...6.........4.......",
        solution:
            "481936257259471683736825941174693528528147396963582714315268479692714835847359162",
    },
    Example {
        rules: "jigsaw",
        regions: Some(REGIONS),
        puzzle: "3....6.........5.96....2..8......7..7..65...........3.....1.............18...3...",
        solution:
            "395786124218367549679142358456821793732659481821475936543918672967234815184593267",
    },
    Example {
        rules: "x,anti-knight",
        regions: None,
        puzzle: "....................9..8......4...2.........7.......................5...6...3....",
        solution:
            "185293764273564198469178253396417825824359617517826439951782346732645981648931572",
    },
];

impl Example {
    fn checker(&self) -> Rules {
        Rules::new(self.rules, self.regions)
    }

    /// The puzzle as a line of a line file: `PUZZLE REGIONS` for jigsaw.
    fn line(&self, puzzle: &str) -> String {
        match self.regions {
            Some(r) => format!("{puzzle} {r}\n"),
            None => format!("{puzzle}\n"),
        }
    }
}

/// `bulkdoku solve -q ARGS FILE` on `text` written to FILE: exit 0 and the CSV rows.
#[track_caller]
fn solve(wd: &Workdir, text: &str, args: &[&str]) -> Table {
    wd.create("in.txt", text);
    let mut all = vec!["solve", "-q", "-j", "2"];
    all.extend_from_slice(args);
    all.push("in.txt");
    let out = wd.run(&all);
    assert_exit(&out, 0);
    Table::parse(&stdout(&out))
}

/// The single row of a one-record solve: (status, solutions, solution, error).
fn only_row(table: &Table) -> (String, String, String, String) {
    assert_eq!(table.rows.len(), 1, "{table:?}");
    let get = |name: &str| table.column(name)[0].to_string();
    (
        get("status"),
        get("solutions"),
        get("solution"),
        get("error"),
    )
}

// ---------------------------------------------------------------------------------
// Hand-checked examples per rule: unique, several solutions, no solution, conflicts.

#[test]
fn each_example_is_unique_under_its_rules_and_only_there() {
    let wd = Workdir::new();
    for ex in &EXAMPLES {
        let table = solve(&wd, &ex.line(ex.puzzle), &["--rules", ex.rules]);
        let (status, solutions, solution, error) = only_row(&table);
        assert_eq!(
            (status.as_str(), solutions.as_str(), error.as_str()),
            ("unique", "1", ""),
            "{}",
            ex.rules
        );
        assert_eq!(solution, ex.solution, "{}", ex.rules);
        assert!(ex.checker().solves(&solution, ex.puzzle), "{}", ex.rules);
        assert_eq!(table.column("rules"), [ex.rules], "{}", ex.rules);
        assert_eq!(
            table.column("regions"),
            [ex.regions.unwrap_or("")],
            "{}",
            ex.rules
        );
        // The added rule matters: without it the puzzle has several solutions.
        if ex.regions.is_none() {
            let table = solve(&wd, &ex.line(ex.puzzle), &[]);
            let (status, ..) = only_row(&table);
            assert_eq!(status, "multiple", "{} under classic rules", ex.rules);
            assert!(!table.headers.contains(&"rules".to_string()));
        }
    }
}

#[test]
fn an_example_less_a_given_has_several_solutions_all_valid() {
    let wd = Workdir::new();
    for ex in &EXAMPLES {
        let first = ex.puzzle.bytes().position(|b| b != b'.').unwrap();
        let puzzle = with_cell(ex.puzzle, first, 0);
        let table = solve(
            &wd,
            &ex.line(&puzzle),
            &["--rules", ex.rules, "--all-solutions", "--limit", "20"],
        );
        assert!(table.rows.len() >= 2, "{}: {table:?}", ex.rules);
        let solutions: BTreeSet<&str> = table.column("solution").into_iter().collect();
        assert_eq!(solutions.len(), table.rows.len(), "{}: distinct", ex.rules);
        for s in &solutions {
            assert!(ex.checker().solves(s, &puzzle), "{}: {s}", ex.rules);
        }
        for status in table.column("status") {
            assert_eq!(status, "multiple", "{}", ex.rules);
        }
        let n = table.rows.len().to_string();
        assert!(table.column("solutions").iter().all(|&s| s == n));
        // Counting alone (no --all-solutions) finds as many.
        let (status, count, solution, _) = only_row(&solve(
            &wd,
            &ex.line(&puzzle),
            &["--rules", ex.rules, "--limit", "20"],
        ));
        assert_eq!((status.as_str(), count), ("multiple", n), "{}", ex.rules);
        assert!(ex.checker().solves(&solution, &puzzle));
    }
}

#[test]
fn an_example_with_a_wrong_given_has_no_solution() {
    let wd = Workdir::new();
    for ex in &EXAMPLES {
        let rules = ex.checker();
        // A blank set to a digit other than the solution's, breaking no rule with the
        // givens: since the puzzle is unique, nothing solves it any more.
        let puzzle = (0..81)
            .filter(|&c| ex.puzzle.as_bytes()[c] == b'.')
            .flat_map(|c| (1..=9).map(move |d| (c, d)))
            .filter(|&(c, d)| ex.solution.as_bytes()[c] - b'0' != d)
            .map(|(c, d)| with_cell(ex.puzzle, c, d))
            .find(|p| rules.broken_pair(&digits(p)).is_none())
            .unwrap();
        let table = solve(&wd, &ex.line(&puzzle), &["--rules", ex.rules]);
        let (status, solutions, solution, error) = only_row(&table);
        assert_eq!(
            (status.as_str(), solutions.as_str(), solution.as_str()),
            ("unsolvable", "0", ""),
            "{}: {error}",
            ex.rules
        );
    }
}

/// (rules, regions, givens, the error that names them).
type ConflictCase = (
    &'static str,
    Option<&'static str>,
    &'static [(usize, usize, u8)],
    &'static str,
);

const CONFLICTS: [ConflictCase; 9] = [
    (
        "x",
        None,
        &[(1, 1, 7), (5, 5, 7)],
        "givens conflict on the main diagonal: r1c1 and r5c5 are both 7",
    ),
    (
        "x",
        None,
        &[(3, 7, 1), (7, 3, 1)],
        "givens conflict on the anti-diagonal: r3c7 and r7c3 are both 1",
    ),
    (
        "windoku",
        None,
        &[(6, 6, 9), (8, 8, 9)],
        "givens conflict in the window at r6c6: r6c6 and r8c8 are both 9",
    ),
    (
        "anti-knight",
        None,
        &[(1, 1, 4), (2, 3, 4)],
        "anti-knight: r1c1 and r2c3 are both 4",
    ),
    (
        "anti-king",
        None,
        &[(3, 3, 2), (4, 4, 2)],
        "anti-king: r3c3 and r4c4 are both 2",
    ),
    (
        "non-consecutive",
        None,
        &[(4, 4, 5), (4, 5, 6)],
        "non-consecutive: r4c4 is 5 and r4c5 is 6",
    ),
    (
        "jigsaw",
        Some(REGIONS),
        &[(1, 6, 8), (2, 9, 8)],
        "givens conflict in region '3': r1c6 and r2c9 are both 8",
    ),
    (
        "jigsaw",
        Some(REGIONS),
        &[(1, 6, 8), (9, 6, 8)],
        "givens conflict: r1c6 and r9c6 are both 8",
    ),
    (
        "x,anti-king,non-consecutive",
        None,
        &[(2, 2, 3), (2, 3, 4)],
        "non-consecutive: r2c2 is 3 and r2c3 is 4",
    ),
];

#[test]
fn givens_that_break_a_rule_are_invalid_with_cells_and_rule_named() {
    let wd = Workdir::new();
    for (rules, regions, cells, message) in CONFLICTS {
        let puzzle = givens(cells);
        // The checker agrees that the givens break the rules.
        assert!(Rules::new(rules, regions)
            .broken_pair(&digits(&puzzle))
            .is_some());
        let line = match regions {
            Some(r) => format!("{puzzle} {r}\n"),
            None => format!("{puzzle}\n"),
        };
        let table = solve(&wd, &line, &["--rules", rules]);
        let (status, _, solution, error) = only_row(&table);
        assert_eq!(
            (status.as_str(), solution.as_str(), error.as_str()),
            ("invalid", "", message),
            "{rules}"
        );
        // verify names the same conflict.
        wd.create("in.txt", &line);
        let out = wd.run(&["verify", "-q", "--rules", rules, "in.txt"]);
        assert_exit(&out, 1);
        let found = Table::parse(&stdout(&out));
        assert_eq!(found.column("kind"), ["conflict"], "{rules}");
        assert_eq!(found.column("detail"), [message], "{rules}");
    }
    // The same givens are fine under classic rules (the added rule is what they break),
    // except the classic column conflict.
    let table = solve(&wd, &format!("{}\n", givens(&[(1, 1, 4), (2, 3, 4)])), &[]);
    assert_eq!(only_row(&table).0, "invalid");
    let table = solve(&wd, &format!("{}\n", givens(&[(1, 1, 7), (5, 5, 7)])), &[]);
    assert_eq!(only_row(&table).0, "multiple");
    // Under jigsaw, r1c6 and r2c5 share a box but no region: no conflict.
    let line = format!("{} {REGIONS}\n", givens(&[(1, 6, 8), (2, 5, 8)]));
    let table = solve(&wd, &line, &["--rules", "jigsaw", "--first"]);
    let (status, _, solution, _) = only_row(&table);
    assert_eq!(status, "solved");
    assert!(Rules::new("jigsaw", Some(REGIONS)).solves(&solution, &givens(&[(1, 6, 8), (2, 5, 8)])));
}

// ---------------------------------------------------------------------------------
// solve: --first, --limit, --all-solutions, --strict, grid output.

#[test]
fn first_limit_and_all_solutions_work_under_rules() {
    let wd = Workdir::new();
    // An empty grid has many solutions under every rule set with grids.
    let empty = ".".repeat(81);
    for (rules, regions) in [
        ("x", None),
        ("windoku", None),
        ("anti-knight", None),
        ("anti-king", None),
        ("non-consecutive", None),
        ("jigsaw", Some(REGIONS)),
        ("x,anti-knight", None),
        ("windoku,jigsaw", Some(REGIONS)),
    ] {
        let checker = Rules::new(rules, regions);
        let line = match regions {
            Some(r) => format!("{empty} {r}\n"),
            None => format!("{empty}\n"),
        };
        let (status, solutions, solution, _) =
            only_row(&solve(&wd, &line, &["--rules", rules, "--first"]));
        if rules == "windoku,jigsaw" && status == "unsolvable" {
            // A layout may leave no grid with the windows; then there is none to check.
            continue;
        }
        assert_eq!(
            (status.as_str(), solutions.as_str()),
            ("solved", "1"),
            "{rules}"
        );
        assert!(checker.solves(&solution, &empty), "{rules}: {solution}");

        let (status, solutions, solution, _) =
            only_row(&solve(&wd, &line, &["--rules", rules, "--limit", "7"]));
        assert_eq!(
            (status.as_str(), solutions.as_str()),
            ("multiple", "7"),
            "{rules}"
        );
        assert!(checker.solves(&solution, &empty));

        let table = solve(
            &wd,
            &line,
            &["--rules", rules, "--all-solutions", "--limit", "5"],
        );
        let found: BTreeSet<&str> = table.column("solution").into_iter().collect();
        assert_eq!(found.len(), 5, "{rules}");
        assert!(found.iter().all(|s| checker.solves(s, &empty)), "{rules}");
        assert!(table.column("line").iter().all(|&l| l == "1"));
    }
}

#[test]
fn strict_stops_at_the_first_record_that_breaks_a_rule() {
    let wd = Workdir::new();
    let ex = &EXAMPLES[0];
    let bad = givens(&[(1, 1, 7), (5, 5, 7)]);
    let text = format!("{}{bad}\n{}", ex.line(ex.puzzle), ex.line(ex.puzzle));
    wd.create("in.txt", &text);
    let out = wd.run(&["solve", "-q", "--rules", "x", "--strict", "in.txt"]);
    assert_exit(&out, 1);
    assert!(
        stderr(&out)
            .contains("in.txt:2: givens conflict on the main diagonal: r1c1 and r5c5 are both 7"),
        "{}",
        stderr(&out)
    );
    // Without x the same file is fine: no stop.
    let out = wd.run(&["solve", "-q", "--strict", "in.txt"]);
    assert_exit(&out, 0);
    assert_eq!(Table::parse(&stdout(&out)).rows.len(), 3);
}

/// The cell lines of a boxed picture (lines holding digits or dots).
fn cell_lines(picture: &str) -> Vec<&str> {
    picture
        .lines()
        .filter(|l| l.starts_with('|') && l.contains(|c: char| c == '.' || c.is_ascii_digit()))
        .collect()
}

#[test]
fn grid_output_draws_the_jigsaw_regions_and_marks_diagonals_and_windows() {
    let wd = Workdir::new();
    let ex = &EXAMPLES[5];
    assert_eq!(ex.rules, "jigsaw");
    wd.create("in.txt", ex.line(ex.puzzle));
    let out = wd.run(&[
        "solve",
        "-q",
        "--rules",
        "jigsaw",
        "--output-format",
        "grid",
        "in.txt",
    ]);
    assert_exit(&out, 0);
    let text = stdout(&out);
    // Puzzle and solution side by side: each cell line holds both grids' rows.
    let lines = cell_lines(&text);
    assert_eq!(lines.len(), 9, "{text}");
    let region = REGIONS.as_bytes();
    for (row, line) in lines.iter().enumerate() {
        // Each grid is `|` + 9 cells of 3 characters with a border or space between:
        // 37 characters.
        let chars: Vec<char> = line.chars().collect();
        for (grid, expected) in [(0, ex.puzzle), (1, ex.solution)] {
            let start = chars
                .iter()
                .enumerate()
                .filter(|&(_, &c)| c == '|')
                .map(|(i, _)| i)
                .find(|&i| grid == 0 || i > 37)
                .unwrap();
            let cells: Vec<char> = chars[start..start + 37].to_vec();
            for col in 0..9 {
                let shown = cells[col * 4 + 2];
                let want = expected.as_bytes()[row * 9 + col] as char;
                assert_eq!(shown, want, "row {row} col {col}\n{text}");
                if col > 0 {
                    // A wall between two cells exactly when their regions differ.
                    let wall = cells[col * 4] == '|';
                    let differ = region[row * 9 + col - 1] != region[row * 9 + col];
                    assert_eq!(wall, differ, "row {row} col {col}\n{text}");
                }
            }
        }
    }
    // Horizontal walls: under each cell line, `---` below a cell exactly when the
    // region changes between that row and the next.
    let all: Vec<&str> = text.lines().collect();
    for (row, line) in lines.iter().enumerate().take(8) {
        let at = all.iter().position(|l| l == line).unwrap();
        let below = all[at + 1];
        let below: Vec<char> = below.chars().collect();
        for col in 0..9 {
            let differ = region[row * 9 + col] != region[(row + 1) * 9 + col];
            let drawn = !cell_lines(all[at + 1]).is_empty();
            let wall = !drawn && below.get(col * 4 + 2) == Some(&'-');
            assert_eq!(wall, differ, "row {row} col {col}\n{text}");
        }
    }

    assert!(
        text.starts_with("in.txt:1  unique  rules=jigsaw  solutions=1"),
        "{text}"
    );

    // x marks the diagonals, windoku the windows, with a legend; the solution drawn is
    // one the checker accepts.
    let empty = ".".repeat(81);
    wd.create("in.txt", format!("{empty}\n"));
    let out = wd.run(&[
        "solve",
        "-q",
        "--rules",
        "x,windoku",
        "--output-format",
        "grid",
        "--first",
        "in.txt",
    ]);
    assert_exit(&out, 0);
    let text = stdout(&out);
    assert!(
        text.contains("\\ \\ main diagonal, / / anti-diagonal; [ ] windows"),
        "{text}"
    );
    let lines = cell_lines(&text);
    assert_eq!(lines.len(), 9, "{text}");
    assert!(lines[0].starts_with(r"|\.\  .   . |"), "{text}");
    assert!(lines[1].starts_with(r"| .  \.\ [.]|[.]"), "{text}");
    assert!(lines[4].contains(" X.X "), "{text}");
    let solution: String = lines
        .iter()
        .flat_map(|l| l[40..].chars().filter(char::is_ascii_digit))
        .collect();
    assert!(
        Rules::new("x,windoku", None).solves(&solution, &empty),
        "{text}"
    );
}

// ---------------------------------------------------------------------------------
// The rules and regions columns, jigsaw regions in line files.

#[test]
fn a_csv_rules_column_sets_each_rows_rules_over_the_default() {
    let wd = Workdir::new();
    let [x, windoku, knight, king, noncon, jigsaw, x_knight] = &EXAMPLES;
    // (id, puzzle, rules cell, regions cell, the status expected under --rules x)
    let records: [(&str, &str, &str, &str, &str); 12] = [
        ("x", x.puzzle, "x", "", "unique"),
        ("windoku", windoku.puzzle, "windoku", "", "unique"),
        ("knight", knight.puzzle, "anti-knight", "", "unique"),
        ("king", king.puzzle, "Anti-King", "", "unique"),
        ("noncon", noncon.puzzle, "non-consecutive", "", "unique"),
        ("jigsaw", jigsaw.puzzle, "jigsaw", REGIONS, "unique"),
        ("xk", x_knight.puzzle, "anti-knight, x", "", "unique"),
        // An empty rules cell takes --rules (x below): the x example is unique there.
        ("default", x.puzzle, "", "", "unique"),
        // `classic` overrides --rules x: the x example has several classic solutions.
        ("classic", x.puzzle, "classic", "", "multiple"),
        ("unknown", x.puzzle, "x,knight", "", "invalid"),
        ("nojigsaw", x.puzzle, "x", REGIONS, "invalid"),
        ("noregions", jigsaw.puzzle, "jigsaw", "", "invalid"),
    ];
    let mut csv = String::from("id,puzzle,rules,regions\n");
    for (id, puzzle, rules, regions, _) in records {
        csv.push_str(&format!("{id},{puzzle},\"{rules}\",{regions}\n"));
    }
    let expected: Vec<(&str, &str)> = records.iter().map(|r| (r.0, r.4)).collect();
    wd.create("mixed.csv", &csv);
    let out = wd.run(&["solve", "-q", "--rules", "x", "--keep", "id", "mixed.csv"]);
    assert_exit(&out, 0);
    let table = Table::parse(&stdout(&out));
    assert_eq!(
        table.headers,
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
            "error",
            "rules",
            "regions",
            "id"
        ]
    );
    let ids: Vec<&str> = expected.iter().map(|e| e.0).collect();
    assert_eq!(table.column("id"), ids, "one row per record, in order");
    let statuses: Vec<&str> = expected.iter().map(|e| e.1).collect();
    assert_eq!(table.column("status"), statuses);
    assert_eq!(
        table.column("rules"),
        [
            "x",
            "windoku",
            "anti-knight",
            "anti-king",
            "non-consecutive",
            "jigsaw",
            "x,anti-knight",
            "x",
            "classic",
            "x,knight",
            "x",
            "jigsaw"
        ]
    );
    let regions = table.column("regions");
    assert_eq!(regions[5], REGIONS);
    assert!(regions
        .iter()
        .enumerate()
        .all(|(i, r)| *r == if i == 5 || i == 10 { REGIONS } else { "" }));
    // Every solution written is checked under the row's own rules.
    let (sol, rules, puzzle) = (
        table.col("solution"),
        table.col("rules"),
        table.col("puzzle"),
    );
    for row in table
        .rows
        .iter()
        .filter(|r| r[table.col("status")] == "unique")
    {
        let regions = (row[rules] == "jigsaw").then_some(REGIONS);
        assert!(
            Rules::new(&row[rules], regions).solves(&row[sol], &row[puzzle]),
            "{row:?}"
        );
    }
    let by_id = |id: &str| {
        let i = ids.iter().position(|&x| x == id).unwrap();
        table.column("solution")[i]
    };
    assert_eq!(by_id("x"), x.solution);
    assert_eq!(by_id("jigsaw"), jigsaw.solution);
    assert_eq!(by_id("king"), king.solution);
    let errors = table.column("error");
    assert!(
        errors[9].starts_with(
            "rules: unknown rule 'knight': the known rules are classic, x, windoku, \
             anti-knight, anti-king, non-consecutive, jigsaw, disjoint"
        ),
        "{}",
        errors[9]
    );
    assert!(
        errors[10].starts_with("regions given, but the rules (x) have no jigsaw"),
        "{}",
        errors[10]
    );
    assert_eq!(errors[11], "jigsaw without regions");

    // verify reads the same columns: the invalid rows are malformed, the classic one
    // has several solutions, the rest are clean.
    let out = wd.run(&["verify", "-q", "--rules", "x", "mixed.csv"]);
    assert_exit(&out, 1);
    let found = Table::parse(&stdout(&out));
    let lines: Vec<(&str, &str)> = found
        .column("line")
        .into_iter()
        .zip(found.column("kind"))
        .collect();
    // Line 1 is the header: record i is on line i + 2.
    // The default row repeats the x row (same cells, same rules); the classic row has
    // the same cells under other rules, so it is no duplicate.
    assert_eq!(
        lines,
        [
            ("9", "duplicate"),
            ("10", "multiple"),
            ("11", "malformed"),
            ("12", "malformed"),
            ("13", "malformed")
        ]
    );
    assert_eq!(found.column("detail")[0], "same puzzle as line 2");
    assert_eq!(found.column("detail")[4], "jigsaw without regions");
}

#[test]
fn classic_runs_have_no_variant_columns_and_a_rules_column_adds_them() {
    let wd = Workdir::new();
    let ex = &EXAMPLES[0];
    let table = solve(&wd, &ex.line(ex.puzzle), &[]);
    assert!(!table.headers.iter().any(|h| h == "rules" || h == "regions"));
    // A rules column, even all classic, writes them.
    let table = solve(&wd, &format!("puzzle,rules\n{},classic\n", ex.puzzle), &[]);
    assert_eq!(table.column("rules"), ["classic"]);
    assert_eq!(table.column("regions"), [""]);
    assert_eq!(table.column("status"), ["multiple"]);
    // --rules classic is the default, explicitly.
    let table = solve(&wd, &ex.line(ex.puzzle), &["--rules", "classic"]);
    assert!(!table.headers.iter().any(|h| h == "rules"));
}

#[test]
fn regions_column_flag_names_the_regions_column() {
    let wd = Workdir::new();
    let ex = &EXAMPLES[5];
    let csv = format!(
        "layout,quizzes,regions\n{REGIONS},{},not-these\n",
        ex.puzzle
    );
    let table = solve(
        &wd,
        &csv,
        &["--rules", "jigsaw", "--regions-column", "layout"],
    );
    let (status, _, solution, error) = only_row(&table);
    assert_eq!((status.as_str(), error.as_str()), ("unique", ""));
    assert_eq!(solution, ex.solution);
    assert_eq!(table.column("regions"), [REGIONS]);
    // Without the flag the `regions` column is read, and its text is refused.
    let table = solve(&wd, &csv, &["--rules", "jigsaw"]);
    let (status, _, _, error) = only_row(&table);
    assert_eq!(status, "invalid");
    assert!(
        error.starts_with("regions: bad character 'n' at position 1"),
        "{error}"
    );
    // A column that is not there is a usage error before any output.
    wd.create("in.csv", &csv);
    let out = wd.run(&[
        "solve",
        "-q",
        "--rules",
        "jigsaw",
        "--regions-column",
        "shape",
        "in.csv",
    ]);
    assert_exit(&out, 2);
    assert!(
        stderr(&out).contains("--regions-column: no column named \"shape\""),
        "{}",
        stderr(&out)
    );
    assert!(stdout(&out).is_empty());
    // So is the flag on an input without a header row.
    wd.create("in.txt", ex.line(ex.puzzle));
    let out = wd.run(&[
        "solve",
        "-q",
        "--rules",
        "jigsaw",
        "--regions-column",
        "layout",
        "in.txt",
    ]);
    assert_exit(&out, 2);
    assert!(
        stderr(&out).contains("needs CSV input with a header row"),
        "{}",
        stderr(&out)
    );
    // verify takes it too.
    let out = wd.run(&[
        "verify",
        "-q",
        "--rules",
        "jigsaw",
        "--regions-column",
        "layout",
        "--all",
        "in.csv",
    ]);
    assert_exit(&out, 0);
    assert_eq!(Table::parse(&stdout(&out)).column("kind"), ["ok"]);
}

#[test]
fn jigsaw_line_files_carry_regions_as_a_second_field() {
    let wd = Workdir::new();
    let ex = &EXAMPLES[5];
    // Any delimiter between the fields; letters name regions as well as digits; a
    // comment and a blank line are skipped; lower case reads as upper case.
    let letters: String = REGIONS.bytes().map(|b| (b - b'1' + b'a') as char).collect();
    let text = format!(
        "# jigsaw\n{p} {r}\n{p}\t{r}\n\n{p},{l}\n{p};{L}   trailing words\n",
        p = ex.puzzle,
        r = REGIONS,
        l = letters,
        L = letters.to_uppercase()
    );
    let table = solve(&wd, &text, &["--rules", "jigsaw"]);
    assert_eq!(table.column("line"), ["2", "3", "5", "6"]);
    assert_eq!(
        table.column("status"),
        ["unique"; 4],
        "{:?}",
        table.column("error")
    );
    assert_eq!(table.column("solution"), [ex.solution; 4]);
    assert_eq!(table.column("regions")[1], REGIONS);
    // The same puzzle under another layout (the boxes) is a different puzzle.
    let boxes: String = (0..81)
        .map(|c| (b'1' + (c / 27 * 3 + c % 9 / 3) as u8) as char)
        .collect();
    let table = solve(
        &wd,
        &format!("{} {boxes}\n", ex.puzzle),
        &["--rules", "jigsaw", "--limit", "3"],
    );
    let (status, _, solution, _) = only_row(&table);
    assert_ne!(solution, ex.solution);
    assert_ne!(status, "unique");
    if !solution.is_empty() {
        assert!(Rules::new("jigsaw", Some(&boxes)).solves(&solution, ex.puzzle));
    }
    // Without --rules jigsaw the second field is ignored, as for any line file.
    let table = solve(&wd, &ex.line(ex.puzzle), &[]);
    assert_eq!(only_row(&table).0, "multiple");
}

#[test]
fn bad_region_strings_make_the_record_invalid_with_the_reason() {
    let wd = Workdir::new();
    let ex = &EXAMPLES[5];
    let moved = {
        // One cell of region 3 given to region 4: 3 has 8 cells, 4 has 10.
        let at = REGIONS.find('3').unwrap();
        with_cell(REGIONS, at, 4)
    };
    let cases: [(String, &str); 5] = [
        (
            REGIONS[..80].to_string(),
            "regions: 80 characters, expected 81",
        ),
        (format!("{REGIONS}1"), "regions: 82 characters, expected 81"),
        (moved.replace('3', "C"), "region 'C' has 8 cells"),
        (
            with_cell(REGIONS, 40, 0).replace('.', "x"),
            "regions: bad character 'x' at position 41 (expected 1-9 or A-I)",
        ),
        (String::new(), "jigsaw without regions"),
    ];
    let text: String = cases
        .iter()
        .map(|(r, _)| format!("{} {r}\n", ex.puzzle))
        .chain([ex.line(ex.puzzle)])
        .collect();
    let table = solve(&wd, &text, &["--rules", "jigsaw"]);
    let errors = table.column("error");
    for (i, (_, message)) in cases.iter().enumerate() {
        assert_eq!(errors[i], *message, "case {i}");
        assert_eq!(table.column("status")[i], "invalid");
        assert_eq!(table.column("solution")[i], "");
    }
    // The good record after the bad ones is still solved: one row per record.
    assert_eq!(table.rows.len(), cases.len() + 1);
    assert_eq!(table.column("solution")[cases.len()], ex.solution);
    // verify finds the same reasons, as malformed records.
    wd.create("in.txt", &text);
    let out = wd.run(&["verify", "-q", "--rules", "jigsaw", "in.txt"]);
    assert_exit(&out, 1);
    let found = Table::parse(&stdout(&out));
    assert_eq!(found.column("kind"), ["malformed"; 5]);
    let details: Vec<&str> = cases.iter().map(|c| c.1).collect();
    assert_eq!(found.column("detail"), details);
}

#[test]
fn grid_and_board_inputs_cannot_carry_regions() {
    let wd = Workdir::new();
    let ex = &EXAMPLES[0];
    let grid: String = ex
        .puzzle
        .as_bytes()
        .chunks(9)
        .map(|row| format!("{}\n", String::from_utf8_lossy(row).replace('.', "0")))
        .collect();
    // Other rules apply to them as to any input.
    let table = solve(&wd, &grid, &["--rules", "x"]);
    assert_eq!(only_row(&table).2, ex.solution);
    // Jigsaw has nowhere to find regions: each record says so.
    let table = solve(&wd, &grid, &["--rules", "jigsaw"]);
    let (status, _, _, error) = only_row(&table);
    assert_eq!(
        (status.as_str(), error.as_str()),
        ("invalid", "jigsaw without regions")
    );
}

// ---------------------------------------------------------------------------------
// Usage errors.

#[test]
fn an_unknown_rule_is_a_usage_error_listing_the_known_rules() {
    let wd = Workdir::new();
    let ex = &EXAMPLES[0];
    wd.create("in.txt", ex.line(ex.puzzle));
    let known = "the known rules are classic, x, windoku, anti-knight, anti-king, \
                 non-consecutive, jigsaw, disjoint";
    for args in [
        &["solve", "in.txt"][..],
        &["verify", "in.txt"],
        &["bench", "in.txt", "--seconds", "0.1"],
        &["generate", "-n", "1"],
    ] {
        for (rules, message) in [
            ("x,sudoku-x", "unknown rule 'sudoku-x'"),
            ("x,,windoku", "empty rule name in 'x,,windoku'"),
        ] {
            let mut all = args.to_vec();
            all.extend(["--rules", rules]);
            let out = wd.run(&all);
            assert_exit(&out, 2);
            let err = stderr(&out);
            assert!(
                err.contains(message) && err.contains(known),
                "{args:?}: {err}"
            );
            assert!(stdout(&out).is_empty(), "{args:?}");
        }
    }
}

#[test]
fn rule_sets_without_any_grid_are_refused_by_generate() {
    let wd = Workdir::new();
    // Anti-king with non-consecutive and x leaves no grid.
    let out = wd.run(&[
        "generate",
        "-n",
        "1",
        "--rules",
        "anti-king,non-consecutive,x",
    ]);
    assert_exit(&out, 2);
    assert!(
        stderr(&out).contains("no complete grid satisfies these rules together"),
        "{}",
        stderr(&out)
    );
    assert!(stdout(&out).is_empty());
}

// ---------------------------------------------------------------------------------
// verify under rules.

/// `bulkdoku verify -q ARGS FILE` on `text`: the exit code and the findings.
fn verify(wd: &Workdir, name: &str, text: &str, args: &[&str]) -> (i32, Table) {
    wd.create(name, text);
    let mut all = vec!["verify", "-q", "-j", "2"];
    all.extend_from_slice(args);
    all.push(name);
    let out = wd.run(&all);
    let code = out.status.code().unwrap();
    assert!(code == 0 || code == 1, "{}", stderr(&out));
    (code, Table::parse(&stdout(&out)))
}

/// (line, kind) of every finding.
fn kinds(table: &Table) -> Vec<(String, String)> {
    table
        .column("line")
        .into_iter()
        .zip(table.column("kind"))
        .map(|(l, k)| (l.to_string(), k.to_string()))
        .collect()
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|&(l, k)| (l.to_string(), k.to_string()))
        .collect()
}

#[test]
fn verify_decides_uniqueness_under_the_rules() {
    let wd = Workdir::new();
    for ex in &EXAMPLES {
        let first = ex.puzzle.bytes().position(|b| b != b'.').unwrap();
        let several = with_cell(ex.puzzle, first, 0);
        let text = format!("{}{}", ex.line(ex.puzzle), ex.line(&several));
        let (code, found) = verify(&wd, "in.txt", &text, &["--rules", ex.rules]);
        assert_eq!(code, 1, "{}", ex.rules);
        assert_eq!(kinds(&found), pairs(&[("2", "multiple")]), "{}", ex.rules);
        // The detail names the cells where two solutions differ: those where the first
        // two solutions `solve` lists differ, all of them blanks of the puzzle.
        let detail = found.column("detail")[0];
        let cells = detail
            .strip_prefix("2 or more solutions; two of them differ at ")
            .unwrap_or_else(|| panic!("{}: {detail}", ex.rules));
        let table = solve(
            &wd,
            &ex.line(&several),
            &["--rules", ex.rules, "--all-solutions", "--limit", "2"],
        );
        let two = table.column("solution");
        assert!(two.iter().all(|s| ex.checker().solves(s, &several)));
        let differ: Vec<String> = (0..81)
            .filter(|&c| two[0].as_bytes()[c] != two[1].as_bytes()[c])
            .map(|c| format!("r{}c{}", c / 9 + 1, c % 9 + 1))
            .collect();
        // A long list is cut short with `...`.
        let named: Vec<&str> = cells.split(' ').filter(|&w| w != "...").collect();
        assert_eq!(named, differ[..named.len()], "{}", ex.rules);
        assert!(
            named.len() == differ.len() || cells.ends_with(" ..."),
            "{cells}"
        );
    }
    // Under classic rules the variant puzzles are the ambiguous ones.
    let ex = &EXAMPLES[0];
    let (code, found) = verify(&wd, "in.txt", &ex.line(ex.puzzle), &[]);
    assert_eq!((code, kinds(&found)), (1, pairs(&[("1", "multiple")])));
    let (code, found) = verify(
        &wd,
        "in.txt",
        &ex.line(ex.puzzle),
        &["--rules", "x", "--all"],
    );
    assert_eq!((code, kinds(&found)), (0, pairs(&[("1", "ok")])));
}

#[test]
fn verify_checks_the_solution_column_under_the_rules() {
    let wd = Workdir::new();
    let ex = &EXAMPLES[0];
    // A classic solution of the x puzzle that is not its x solution: it breaks x.
    let table = solve(
        &wd,
        &ex.line(ex.puzzle),
        &["--all-solutions", "--limit", "2"],
    );
    let classic = *table
        .column("solution")
        .iter()
        .find(|&&s| s != ex.solution)
        .unwrap();
    assert!(Rules::new("classic", None).solves(classic, ex.puzzle));
    assert!(!ex.checker().solves(classic, ex.puzzle));
    let csv = format!(
        "puzzle,solution\n{p},{good}\n{p},{classic}\n",
        p = ex.puzzle,
        good = ex.solution
    );
    let (code, found) = verify(&wd, "in.csv", &csv, &["--rules", "x"]);
    assert_eq!(code, 1);
    let found_kinds = kinds(&found);
    assert!(
        found_kinds.contains(&("3".to_string(), "wrong_solution".to_string())),
        "{found:?}"
    );
    assert!(found_kinds.iter().all(|(l, _)| l == "3"), "{found:?}");
    // Under classic rules the classic solution is not wrong, and the x one neither:
    // both solve the puzzle, which has several solutions.
    let (_, found) = verify(&wd, "in.csv", &csv, &[]);
    assert!(
        !found.column("kind").contains(&"wrong_solution"),
        "{found:?}"
    );
}

#[test]
fn verify_finds_duplicates_per_rule_set() {
    let wd = Workdir::new();
    let ex = &EXAMPLES[0];
    let csv = format!(
        "puzzle,rules\n{p},x\n{p},x\n{p},\"x,anti-knight\"\n{p},x\n",
        p = ex.puzzle
    );
    let (code, found) = verify(&wd, "in.csv", &csv, &[]);
    assert_eq!(code, 1);
    let dups: Vec<(String, String)> = kinds(&found)
        .into_iter()
        .filter(|(_, k)| k == "duplicate")
        .collect();
    // Lines 3 and 5 repeat line 2; line 4 is the same cells under other rules: another
    // puzzle.
    assert_eq!(dups, pairs(&[("3", "duplicate"), ("5", "duplicate")]));
    let details: Vec<&str> = found
        .rows
        .iter()
        .filter(|r| r[found.col("kind")] == "duplicate")
        .map(|r| r[found.col("detail")].as_str())
        .collect();
    assert_eq!(details, ["same puzzle as line 2"; 2]);

    // Jigsaw puzzles are the same puzzle only with the same regions. From a rules
    // column (not --rules jigsaw), --isomorphs is not refused but never merges jigsaw
    // puzzles: the transposed puzzle with transposed regions is not reported. The same
    // layout written with other symbols (letters) is the same puzzle.
    let j = &EXAMPLES[5];
    let boxes: String = (0..81)
        .map(|c| (b'1' + (c / 27 * 3 + c % 9 / 3) as u8) as char)
        .collect();
    let transpose = |s: &str| mapped(s, |r, c| (c, r), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    let t_regions: String = (0..81)
        .map(|c| REGIONS.as_bytes()[c % 9 * 9 + c / 9] as char)
        .collect();
    let csv = format!(
        "puzzle,rules,regions\n{p},jigsaw,{REGIONS}\n{p},jigsaw,{REGIONS}\n{p},jigsaw,{boxes}\n{t},jigsaw,{t_regions}\n{p},Jigsaw,{letters}\n",
        p = j.puzzle,
        t = transpose(j.puzzle),
        letters = REGIONS
            .bytes()
            .map(|b| (b - b'1' + b'a') as char)
            .collect::<String>(),
    );
    let (code, found) = verify(&wd, "j.csv", &csv, &["--isomorphs"]);
    assert_eq!(code, 1);
    let found_kinds = kinds(&found);
    let dups: Vec<(String, String)> = found_kinds
        .iter()
        .filter(|(_, k)| k == "duplicate")
        .cloned()
        .collect();
    assert_eq!(dups, pairs(&[("3", "duplicate"), ("6", "duplicate")]));
    assert!(
        found_kinds.iter().all(|(_, k)| k != "isomorph"),
        "{found:?}"
    );
    // The transposed one is unique under its transposed regions, as the original.
    let table = solve(&wd, &csv, &[]);
    assert_eq!(table.column("status")[3], "unique");
    assert_eq!(table.column("solution")[3], transpose(j.solution));
}

#[test]
fn verify_minimal_is_decided_under_the_rules() {
    let wd = Workdir::new();
    for rules in ["x", "anti-king", "jigsaw"] {
        let out = wd.run(&["generate", "-n", "3", "--seed", "11", "--rules", rules]);
        assert_exit(&out, 0);
        let text = stdout(&out);
        let (code, found) = verify(
            &wd,
            "gen.txt",
            &text,
            &["--rules", rules, "--minimal", "--all"],
        );
        assert_eq!(
            (code, found.column("kind")),
            (0, vec!["ok"; 3]),
            "{rules}: {found:?}"
        );
        // One more given (from the solution) makes the first puzzle not minimal; the
        // added cell is among those that can go.
        let first = text.lines().find(|l| !l.starts_with('#')).unwrap();
        let (puzzle, regions) = first.split_at(81);
        let table = solve(&wd, &format!("{first}\n"), &["--rules", rules]);
        let solution = table.column("solution")[0].to_string();
        let blank = puzzle.bytes().position(|b| b == b'.').unwrap();
        let fuller = with_cell(puzzle, blank, solution.as_bytes()[blank] - b'0');
        let (code, found) = verify(
            &wd,
            "more.txt",
            &format!("{fuller}{regions}\n"),
            &["--rules", rules, "--minimal"],
        );
        assert_eq!(
            (code, found.column("kind")),
            (1, vec!["not_minimal"]),
            "{rules}"
        );
        let name = format!("r{}c{}", blank / 9 + 1, blank % 9 + 1);
        let detail = found.column("detail")[0];
        assert!(
            detail.starts_with("each of these givens can be removed keeping a unique solution:")
                && detail.split_whitespace().any(|w| w == name),
            "{rules}: {name} in {detail}"
        );
    }
}

/// `puzzle` under a map of cells: cell `c` of the result is `puzzle[map(c)]`, digits
/// relabelled by `digits`.
fn mapped(puzzle: &str, map: impl Fn(usize, usize) -> (usize, usize), digits: [u8; 10]) -> String {
    let p = puzzle.as_bytes();
    (0..81)
        .map(|c| {
            let (r, k) = map(c / 9, c % 9);
            match p[r * 9 + k] {
                b'.' => '.',
                d => (b'0' + digits[usize::from(d - b'0')]) as char,
            }
        })
        .collect()
}

#[test]
fn verify_isomorphs_keeps_to_the_symmetries_of_the_rules_and_refuses_jigsaw() {
    let wd = Workdir::new();
    let ex = &EXAMPLES[0];
    let relabel = [0, 3, 7, 9, 1, 2, 8, 4, 6, 5];
    let same = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
    // A turn with relabelled digits keeps the diagonals: an x isomorph.
    let turned = mapped(ex.puzzle, |r, c| (8 - c, r), relabel);
    // Swapping two rows of a band (columns kept) moves cells off the diagonals: an
    // isomorph under classic rules, not under x.
    let swapped = mapped(ex.puzzle, |r, c| ([1, 0, 2, 3, 4, 5, 6, 7, 8][r], c), same);
    let text = format!("{}\n{turned}\n{swapped}\n", ex.puzzle);
    let (_, found) = verify(&wd, "in.txt", &text, &["--rules", "x", "--isomorphs"]);
    let iso: Vec<(String, String)> = kinds(&found)
        .into_iter()
        .filter(|(_, k)| k == "isomorph")
        .collect();
    assert_eq!(iso, pairs(&[("2", "isomorph")]), "{found:?}");
    // Both really are solvable under x as the checker sees it, or not: the turned one
    // is unique like the original.
    let table = solve(&wd, &format!("{turned}\n"), &["--rules", "x"]);
    assert_eq!(only_row(&table).0, "unique");
    assert!(ex.checker().solves(&only_row(&table).2, &turned));
    let (_, found) = verify(&wd, "in.txt", &text, &["--isomorphs"]);
    let iso: Vec<(String, String)> = kinds(&found)
        .into_iter()
        .filter(|(_, k)| k == "isomorph")
        .collect();
    assert_eq!(
        iso,
        pairs(&[("2", "isomorph"), ("3", "isomorph")]),
        "classic"
    );

    // Non-consecutive keeps d -> 10 - d but no other relabelling.
    let ex = &EXAMPLES[4];
    let reversed = mapped(ex.puzzle, |r, c| (c, r), [0, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
    let relabelled = mapped(ex.puzzle, |r, c| (r, c), [0, 2, 1, 3, 4, 5, 6, 7, 8, 9]);
    let text = format!("{}\n{reversed}\n{relabelled}\n", ex.puzzle);
    let (_, found) = verify(
        &wd,
        "in.txt",
        &text,
        &["--rules", "non-consecutive", "--isomorphs"],
    );
    let iso: Vec<(String, String)> = kinds(&found)
        .into_iter()
        .filter(|(_, k)| k == "isomorph")
        .collect();
    assert_eq!(iso, pairs(&[("2", "isomorph")]), "{found:?}");

    // Jigsaw: no symmetry keeps every layout; refused before any output.
    let ex = &EXAMPLES[5];
    wd.create("j.txt", ex.line(ex.puzzle));
    let out = wd.run(&["verify", "-q", "--rules", "jigsaw", "--isomorphs", "j.txt"]);
    assert_exit(&out, 2);
    assert!(
        stderr(&out).contains("--isomorphs does not apply to jigsaw puzzles"),
        "{}",
        stderr(&out)
    );
    assert!(stdout(&out).is_empty());
}

// ---------------------------------------------------------------------------------
// generate and bench under rules.

/// True when every region of a layout is orthogonally connected.
fn connected(regions: &str) -> bool {
    let r = regions.as_bytes();
    (0..81).all(|start| {
        // Flood from the first cell of each region; every cell of it must be reached.
        if r[..start].contains(&r[start]) {
            return true;
        }
        let mut seen = vec![start];
        let mut i = 0;
        while i < seen.len() {
            let c = seen[i];
            let (row, col) = (c / 9, c % 9);
            let mut near = Vec::new();
            if row > 0 {
                near.push(c - 9);
            }
            if row < 8 {
                near.push(c + 9);
            }
            if col > 0 {
                near.push(c - 1);
            }
            if col < 8 {
                near.push(c + 1);
            }
            for n in near {
                if r[n] == r[start] && !seen.contains(&n) {
                    seen.push(n);
                }
            }
            i += 1;
        }
        seen.len() == r.iter().filter(|&&b| b == r[start]).count()
    })
}

/// Region strings name 9 regions of 9 cells each.
fn well_formed(regions: &str) -> bool {
    regions.len() == 81
        && regions
            .bytes()
            .all(|b| matches!(b, b'1'..=b'9' | b'A'..=b'I'))
        && regions
            .bytes()
            .collect::<BTreeSet<u8>>()
            .iter()
            .all(|&s| regions.bytes().filter(|&b| b == s).count() == 9)
}

#[test]
fn generate_makes_unique_minimal_puzzles_under_each_rule() {
    let wd = Workdir::new();
    for rules in [
        "x",
        "windoku",
        "anti-knight",
        "anti-king",
        "non-consecutive",
        "jigsaw",
        "x,anti-knight",
    ] {
        let out = wd.run(&[
            "generate", "-n", "4", "--seed", "5", "--rules", rules, "-j", "2",
        ]);
        assert_exit(&out, 0);
        let text = stdout(&out);
        let mut lines = text.lines();
        let header = lines.next().unwrap();
        assert!(
            header.starts_with(&format!(
                "# bulkdoku generate -n 4 --seed 5 --rules {rules}:"
            )),
            "{header}"
        );
        let records: Vec<&str> = lines.collect();
        assert_eq!(records.len(), 4, "{rules}");
        let jigsaw = rules == "jigsaw";
        for record in &records {
            let fields: Vec<&str> = record.split(' ').collect();
            assert_eq!(
                fields.len(),
                if jigsaw { 2 } else { 1 },
                "{rules}: {record}"
            );
            assert_eq!(fields[0].len(), 81);
            if jigsaw {
                assert!(well_formed(fields[1]) && connected(fields[1]), "{record}");
            }
        }
        // Same seed, other thread count: the same puzzles.
        let again = wd.run(&[
            "generate", "-n", "4", "--seed", "5", "--rules", rules, "-j", "1",
        ]);
        assert_eq!(stdout(&again), text, "{rules}: deterministic");

        // Unique under the rules, with solutions the checker accepts, and minimal.
        let table = solve(&wd, &text, &["--rules", rules]);
        assert_eq!(table.column("status"), ["unique"; 4], "{rules}");
        for (record, solution) in records.iter().zip(table.column("solution")) {
            let regions = jigsaw.then(|| &record[82..]);
            assert!(
                Rules::new(rules, regions).solves(solution, &record[..81]),
                "{rules}: {record}"
            );
        }
        let (code, found) = verify(
            &wd,
            "gen.txt",
            &text,
            &["--rules", rules, "--minimal", "--all"],
        );
        assert_eq!((code, found.column("kind")), (0, vec!["ok"; 4]), "{rules}");
        // Not unique under classic rules (or jigsaw alone for jigsaw): the rule is used.
        if !jigsaw {
            let table = solve(&wd, &text, &[]);
            assert!(table.column("status").contains(&"multiple"), "{rules}");
        }
    }
}

#[test]
fn generate_csv_carries_solution_rules_and_regions_that_verify_reads_back() {
    let wd = Workdir::new();
    for rules in ["jigsaw", "windoku,anti-knight"] {
        let out = wd.run(&[
            "generate", "-n", "3", "--seed", "9", "--rules", rules, "--format", "csv",
        ]);
        assert_exit(&out, 0);
        let text = stdout(&out);
        let table = Table::parse(&text);
        assert_eq!(table.headers, ["puzzle", "solution", "rules", "regions"]);
        assert_eq!(table.rows.len(), 3);
        for row in &table.rows {
            assert_eq!(row[2], rules);
            let regions = (rules == "jigsaw").then_some(row[3].as_str());
            if let Some(r) = regions {
                assert!(well_formed(r) && connected(r), "{r}");
            } else {
                assert_eq!(row[3], "");
            }
            assert!(
                Rules::new(rules, regions).solves(&row[1], &row[0]),
                "{row:?}"
            );
        }
        // The rules column alone (no --rules) tells verify and solve what to check.
        let (code, found) = verify(&wd, "gen.csv", &text, &["--minimal", "--all"]);
        assert_eq!((code, found.column("kind")), (0, vec!["ok"; 3]), "{rules}");
        let solved = solve(&wd, &text, &[]);
        assert_eq!(solved.column("status"), ["unique"; 3]);
        assert_eq!(solved.column("solution"), table.column("solution"));
        assert_eq!(solved.column("rules"), [rules; 3]);
    }
}

#[test]
fn bench_solves_under_the_rules_and_skips_what_breaks_them() {
    let wd = Workdir::new();
    let ex = &EXAMPLES[0];
    // Two x puzzles and one whose givens break x (but no classic rule).
    let bad = givens(&[(1, 1, 7), (5, 5, 7)]);
    wd.create("x.txt", format!("{p}\n{p}\n{bad}\n", p = ex.puzzle));
    let counts = |args: &[&str]| {
        let mut all = vec![
            "bench",
            "-q",
            "--seconds",
            "0.1",
            "-j",
            "1",
            "--format",
            "json",
            "--limit",
            "2",
        ];
        all.extend_from_slice(args);
        let out = wd.run(&all);
        assert_exit(&out, 0);
        let rows: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
        let row = &rows[0];
        assert!(row["puzzles_per_sec"].as_f64().unwrap() > 0.0);
        (
            row["puzzles"].as_u64().unwrap(),
            row["invalid"].as_u64().unwrap(),
        )
    };
    assert_eq!(counts(&["--rules", "x", "x.txt"]), (2, 1));
    assert_eq!(counts(&["x.txt"]), (3, 0));
    // Jigsaw regions from a line file's second field, and from a CSV regions column.
    let jig = &EXAMPLES[5];
    wd.create(
        "j.txt",
        format!("{}{}", jig.line(jig.puzzle), jig.line(jig.puzzle)),
    );
    assert_eq!(counts(&["--rules", "jigsaw", "j.txt"]), (2, 0));
    wd.create(
        "j.csv",
        format!(
            "puzzle,rules,regions\n{},jigsaw,{REGIONS}\n{},x,\n",
            jig.puzzle, ex.puzzle
        ),
    );
    assert_eq!(counts(&["j.csv"]), (2, 0));
    // --regions-column names another column, as for solve and verify.
    wd.create(
        "layout.csv",
        format!("puzzle,layout\n{},{REGIONS}\n", jig.puzzle),
    );
    assert_eq!(
        counts(&[
            "--rules",
            "jigsaw",
            "--regions-column",
            "layout",
            "layout.csv"
        ]),
        (1, 0)
    );
    // Without it, the file has no regions: nothing to time.
    let out = wd.run(&[
        "bench",
        "-q",
        "--seconds",
        "0.1",
        "--rules",
        "jigsaw",
        "layout.csv",
    ]);
    assert_exit(&out, 2);
    assert!(stderr(&out).contains("no valid puzzle to benchmark (1 invalid records)"));
    // A file with nothing valid under the rules is an error, as under classic rules.
    wd.create("bad.txt", format!("{bad}\n"));
    let out = wd.run(&["bench", "-q", "--seconds", "0.1", "--rules", "x", "bad.txt"]);
    assert_exit(&out, 2);
    assert!(
        stderr(&out).contains("no valid puzzle to benchmark (1 invalid records)"),
        "{}",
        stderr(&out)
    );
}

// ---------------------------------------------------------------------------------
// The shipped variant sets (`data/README.md`).

#[test]
fn shipped_variant_sets_are_unique_under_their_rules() {
    let data = concat!(env!("CARGO_MANIFEST_DIR"), "/data");
    let readme = std::fs::read_to_string(format!("{data}/README.md")).unwrap();
    let wd = Workdir::new();
    for (file, rules, n) in [
        ("x_200.txt", "x", 200),
        ("windoku_200.txt", "windoku", 200),
        ("anti-knight_200.txt", "anti-knight", 200),
        ("anti-king_200.txt", "anti-king", 200),
        ("non-consecutive_100.txt", "non-consecutive", 100),
        ("jigsaw_200.txt", "jigsaw", 200),
        ("x_anti-knight_100.txt", "x,anti-knight", 100),
        ("x_windoku_200.txt", "x,windoku", 200),
        (
            "anti-knight_anti-king_non-consecutive_100.txt",
            "anti-knight,anti-king,non-consecutive",
            100,
        ),
    ] {
        let path = format!("{data}/{file}");
        let text = std::fs::read_to_string(&path).unwrap();
        // The `#` line names the command that made the file, as the README gives it.
        let command = format!("generate -n {n} --seed 1 --rules {rules}");
        assert!(
            text.starts_with(&format!("# bulkdoku {command}:")),
            "{file}"
        );
        assert!(
            readme.contains(&format!("`$B {command} -o data/{file}`")),
            "{file} in data/README.md"
        );
        let out = wd.run(&["verify", "-q", "--rules", rules, "--all", &path]);
        assert_exit(&out, 0);
        let found = Table::parse(&stdout(&out));
        assert_eq!(found.column("kind"), vec!["ok"; n], "{file}");
    }
    // The CSV jigsaw set: the same puzzles and regions as the line file, its rules in
    // a column, its solutions checked.
    let path = format!("{data}/jigsaw_200.csv");
    let table = Table::parse(&std::fs::read_to_string(&path).unwrap());
    let lines = std::fs::read_to_string(format!("{data}/jigsaw_200.txt")).unwrap();
    let records: Vec<&str> = lines.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(table.rows.len(), records.len());
    for (row, line) in table.rows.iter().zip(&records) {
        assert_eq!(format!("{} {}", row[0], row[3]), *line);
        assert_eq!(row[2], "jigsaw");
        assert!(Rules::new("jigsaw", Some(&row[3])).solves(&row[1], &row[0]));
    }
    let out = wd.run(&["verify", "-q", "--all", &path]);
    assert_exit(&out, 0);
    assert_eq!(Table::parse(&stdout(&out)).column("kind"), vec!["ok"; 200]);
}
