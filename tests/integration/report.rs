//! `bulkdoku report` through the real binary, on a small run whose figures are worked
//! out by hand below.

use serde_json::Value;

use crate::util::{assert_exit, stderr, stdout, Workdir};

const HEADER: &str = "file,line,puzzle,status,solutions,clues,guesses,time_ns,solution,error";
const BASE: &str =
    "003020600900305001001806400008102900700000008006708200002609500800203009005010300";

/// A puzzle text that is different on every line.
fn puzzle(line: u64) -> String {
    format!("{line:02}{}", &BASE[2..])
}

/// (line, status, clues, guesses, time_ns) of the hand-made run; line 7 is invalid.
const ROWS: [(u64, &str, u32, u64, u64); 10] = [
    (1, "unique", 30, 0, 1_500),
    (2, "unique", 30, 0, 800),
    (3, "unique", 25, 2, 12_000),
    (4, "multiple", 25, 1, 3_000),
    (5, "unique", 30, 0, 900),
    (6, "unsolvable", 17, 0, 400),
    (8, "unique", 25, 5, 45_000),
    (9, "unique", 30, 0, 700),
    (10, "unique", 25, 1, 2_500),
    (11, "unique", 30, 0, 1_200),
];

/// The run as `solve` writes it, with the time of each line mapped by `time`.
fn run_csv(time: impl Fn(u64, u64) -> u64) -> String {
    let mut text = format!("{HEADER}\n");
    for (line, status, clues, guesses, t) in ROWS {
        if line == 8 {
            text.push_str("data.txt,7,12345,invalid,,,,,,\"line 7: 5 cells, expected 81\"\n");
        }
        let solutions = match status {
            "unique" => "1",
            "multiple" => "2",
            _ => "0",
        };
        text.push_str(&format!(
            "data.txt,{line},{},{status},{solutions},{clues},{guesses},{},,\n",
            puzzle(line),
            time(line, t)
        ));
    }
    text
}

fn json(out: &std::process::Output) -> Value {
    serde_json::from_str(&stdout(out)).expect("report --format json is JSON")
}

// The hand computation, for every test below.
//
// Timed rows (all but the invalid line 7): 10 of them. Sorted times:
//   400, 700, 800, 900, 1200, 1500, 2500, 3000, 12000, 45000
// Sum = 68,000 ns, mean = 6,800 ns; puzzles/s = 10 / 68e-6 s = 147,058.8...
// Nearest rank ⌈p/100 · 10⌉: p50 → rank 5 = 1,200; p90 → rank 9 = 12,000;
//   p99 → rank ⌈9.9⌉ = 10 = 45,000; p99.9 → rank 10 = 45,000.
// Statuses: unique 8 (lines 1,2,3,5,8,9,10,11), multiple 1, unsolvable 1, invalid 1: 11.
// Solved (unique + multiple) = 9, of which guesses == 0: lines 1,2,5,9,11 = 5 → 55.6 %.
// Guesses: 2+1+5+1 = 9 over 10 timed puzzles = 0.9 per puzzle.
// 1-2-5 histogram: [200,500) 400 → 1; [500,1000) 700,800,900 → 3; [1000,2000) 1200,1500
//   → 2; [2000,5000) 2500,3000 → 2; [5000,10000) → 0; [10000,20000) 12000 → 1;
//   [20000,50000) 45000 → 1.
// By clues: 17 → 1 puzzle (400), no solved one; 25 → lines 3,4,8,10: 12000+3000+45000+
//   2500 = 62,500 / 4 = 15,625 mean, sorted 2500,3000,.. median rank 2 = 3,000, guesses
//   9/4 = 2.25, 0 % without guessing; 30 → lines 1,2,5,9,11: 5,100 / 5 = 1,020 mean,
//   sorted 700,800,900,.. median rank 3 = 900, 100 % without guessing.
// Slowest 3: line 8 (45,000), line 3 (12,000), line 4 (3,000).

#[test]
fn json_figures_match_the_hand_computation() {
    let wd = Workdir::new();
    wd.create("run.csv", run_csv(|_, t| t));
    let out = wd.run(&["report", "run.csv", "--format", "json", "--top", "3"]);
    assert_exit(&out, 0);
    let v = json(&out);
    assert_eq!(v["puzzles"], 11);
    assert_eq!(v["timed"], 10);
    let by_status = &v["by_status"];
    assert_eq!(
        [
            &by_status["unique"],
            &by_status["multiple"],
            &by_status["unsolvable"],
            &by_status["invalid"],
            &by_status["solved"]
        ],
        [8, 1, 1, 1, 0]
    );
    let t = &v["time_ns"];
    assert_eq!(t["min"], 400);
    assert_eq!(t["mean"], 6_800.0);
    assert_eq!(t["p50"], 1_200);
    assert_eq!(t["p90"], 12_000);
    assert_eq!(t["p99"], 45_000);
    assert_eq!(t["p999"], 45_000);
    assert_eq!(t["max"], 45_000);
    assert_eq!(v["total_time_ns"], 68_000);
    let rate = v["puzzles_per_sec"].as_f64().unwrap();
    assert!((rate - 10.0 / 68e-6).abs() < 1e-6, "{rate}");
    assert_eq!(v["solved"], 9);
    assert_eq!(v["solved_without_guessing"], 5);
    assert!((v["no_guess_pct"].as_f64().unwrap() - 500.0 / 9.0).abs() < 1e-9);
    assert!((v["guesses_per_puzzle"].as_f64().unwrap() - 0.9).abs() < 1e-12);

    let hist: Vec<(u64, u64, u64)> = v["histogram"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            (
                b["low_ns"].as_u64().unwrap(),
                b["high_ns"].as_u64().unwrap(),
                b["count"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        hist,
        [
            (200, 500, 1),
            (500, 1_000, 3),
            (1_000, 2_000, 2),
            (2_000, 5_000, 2),
            (5_000, 10_000, 0),
            (10_000, 20_000, 1),
            (20_000, 50_000, 1)
        ]
    );

    let clues = v["by_clues"].as_array().unwrap();
    let row = |n: u64| clues.iter().find(|c| c["clues"] == n).unwrap();
    assert_eq!(clues.len(), 3);
    assert_eq!(row(17)["puzzles"], 1);
    assert!(row(17)["no_guess_pct"].is_null());
    assert_eq!(row(25)["mean_time_ns"], 15_625.0);
    assert_eq!(row(25)["p50_time_ns"], 3_000);
    assert_eq!(row(25)["guesses_per_puzzle"], 2.25);
    assert_eq!(row(25)["no_guess_pct"], 0.0);
    assert_eq!(row(30)["mean_time_ns"], 1_020.0);
    assert_eq!(row(30)["p50_time_ns"], 900);
    assert_eq!(row(30)["no_guess_pct"], 100.0);

    let slowest = v["slowest"].as_array().unwrap();
    let lines: Vec<u64> = slowest
        .iter()
        .map(|s| s["line"].as_u64().unwrap())
        .collect();
    assert_eq!(lines, [8, 3, 4]);
    assert_eq!(slowest[0]["time_ns"], 45_000);
    assert_eq!(slowest[0]["puzzle"], puzzle(8).as_str());
    assert!(v.get("baseline").is_none());
}

#[test]
fn markdown_has_the_tables() {
    let wd = Workdir::new();
    wd.create("run.csv", run_csv(|_, t| t));
    let out = wd.run(&["report", "run.csv", "--format", "md", "--top", "2"]);
    assert_exit(&out, 0);
    let md = stdout(&out);
    let lines: Vec<&str> = md.lines().collect();
    let has = |row: &str| lines.contains(&row);
    // Status columns in order unique, multiple, unsolvable, invalid; then 68 µs total,
    // 147,059 puzzles/s, 5/9 = 55.6 % without guessing, 0.90 guesses per puzzle.
    assert!(
        has("| 11 | 8 | 1 | 1 | 1 | 68.0 µs | 147,059 | 55.6 % | 0.90 |"),
        "{md}"
    );
    assert!(
        has("| 400 ns | 6.80 µs | 1.20 µs | 12.0 µs | 45.0 µs | 45.0 µs | 45.0 µs |"),
        "{md}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("| 500 ns – 1 µs | 3 | 30.0 % |")),
        "{md}"
    );
    assert!(
        has("| 25 | 4 | 15.6 µs | 3.00 µs | 45.0 µs | 2.25 | 0.0 % |"),
        "{md}"
    );
    assert!(
        has(&format!(
            "| 1 | `data.txt:8` | 45.0 µs | 5 | `{}` |",
            puzzle(8)
        )),
        "{md}"
    );
    assert!(
        has(&format!(
            "| 2 | `data.txt:3` | 12.0 µs | 2 | `{}` |",
            puzzle(3)
        )),
        "{md}"
    );
    // Every table line has the same number of cells as its header.
    for table in md.split("\n\n").filter(|b| b.starts_with('|')) {
        let cells = |l: &str| l.matches(" | ").count();
        let first = table.lines().next().unwrap();
        assert!(table.lines().all(|l| cells(l) == cells(first)), "{table}");
    }
}

#[test]
fn text_shows_percentiles_histogram_and_slowest() {
    let wd = Workdir::new();
    wd.create("run.csv", run_csv(|_, t| t));
    let out = wd.run(&["report", "run.csv"]);
    assert_exit(&out, 0);
    let text = stdout(&out);
    let line = |start: &str| {
        text.lines()
            .find(|l| l.trim_start().starts_with(start))
            .unwrap_or_else(|| panic!("no line {start:?} in\n{text}"))
    };
    assert!(line("puzzles").contains("11 (8 unique, 1 multiple, 1 unsolvable, 1 invalid)"));
    assert!(line("p50").ends_with("1.20 µs"));
    assert!(line("p99.9").ends_with("45.0 µs"));
    assert!(line("no guessing").contains("55.6 % of 9 solved"));
    // The fullest bucket (3 puzzles) has the full 40-character bar.
    assert!(line("500 ns – 1 µs").ends_with(&"█".repeat(40)));
    assert!(line("slowest").ends_with("slowest 10"));
    let first_slow = text
        .split("slowest 10\n")
        .nth(1)
        .unwrap()
        .lines()
        .next()
        .unwrap();
    assert!(first_slow.contains("45.0 µs") && first_slow.contains("data.txt:8"));
}

#[test]
fn report_goes_to_the_output_file_and_reads_stdin() {
    let wd = Workdir::new();
    let out = wd.run_with_stdin(
        &["report", "-", "--format", "json", "-o", "r.json"],
        run_csv(|_, t| t),
    );
    assert_exit(&out, 0);
    assert!(stdout(&out).is_empty());
    let v: Value = serde_json::from_slice(&std::fs::read(wd.file("r.json")).unwrap()).unwrap();
    assert_eq!(v["time_ns"]["p90"], 12_000);
}

#[test]
fn several_runs_are_summarised_together() {
    let wd = Workdir::new();
    wd.create("a.csv", run_csv(|_, t| t));
    wd.create("b.csv", run_csv(|_, t| t));
    let out = wd.run(&["report", "a.csv", "b.csv", "--format", "json"]);
    assert_exit(&out, 0);
    let v = json(&out);
    // Twice the rows: 22 puzzles, 20 timed; the sorted times hold each value twice, so
    // p50 is rank 10 = the 5th distinct value again, 1,200.
    assert_eq!(
        (v["puzzles"].as_u64(), v["timed"].as_u64()),
        (Some(22), Some(20))
    );
    assert_eq!(v["time_ns"]["p50"], 1_200);
    assert_eq!(v["runs"].as_array().unwrap().len(), 2);
}

#[test]
fn svg_plot_has_axes_and_labels() {
    let wd = Workdir::new();
    wd.create("run.csv", run_csv(|_, t| t));
    let out = wd.run(&["report", "run.csv", "--plot", "lat.svg"]);
    assert_exit(&out, 0);
    let svg = std::fs::read_to_string(wd.file("lat.svg")).expect("plot written");
    assert!(svg.starts_with("<svg"), "{}", &svg[..100.min(svg.len())]);
    assert!(svg.trim_end().ends_with("</svg>"));
    for label in [
        "solve time per puzzle (µs, log scale)",
        "puzzles (log scale)",
        "puzzles solved within that time (%)",
        "Latency histogram",
        "Cumulative distribution",
        "p50 1.20 µs",
        "p90 12.0 µs",
    ] {
        assert!(svg.contains(label), "no {label:?} in the SVG");
    }
    // Tick labels at the 1-2-5 bounds, in µs.
    assert!(svg.contains(">\n0.5\n</text>") && svg.contains(">\n20\n</text>"));
    // One bar per non-empty bucket (6 of 7), each drawn filled and outlined, and the CDF.
    assert!(svg.matches("<rect").count() >= 12);
    assert!(svg.contains("<polyline"));
}

#[test]
fn png_plot_decodes() {
    let wd = Workdir::new();
    wd.create("run.csv", run_csv(|_, t| t));
    let out = wd.run(&["report", "run.csv", "--plot", "lat.png"]);
    assert_exit(&out, 0);
    let bytes = std::fs::read(wd.file("lat.png")).expect("plot written");
    assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"));
    let decoder = png::Decoder::new(std::io::Cursor::new(&bytes));
    let mut reader = decoder.read_info().expect("PNG header");
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).expect("PNG data");
    assert_eq!((info.width, info.height), (1000, 760));
    let pixels = &buf[..info.buffer_size()];
    let channels = info.line_size / info.width as usize;
    let colours: std::collections::HashSet<&[u8]> = pixels.chunks(channels).collect();
    // Bars, the curve, the markers and anti-aliased text make many colours; a blank or
    // text-less picture would have a handful.
    assert!(colours.len() > 50, "{} colours", colours.len());
    let dark = pixels
        .chunks(channels)
        .filter(|p| p[..3].iter().all(|&c| c < 80))
        .count();
    assert!(dark > 2_000, "{dark} dark pixels: axes and text missing?");
}

#[test]
fn unknown_plot_format_is_an_error() {
    let wd = Workdir::new();
    wd.create("run.csv", run_csv(|_, t| t));
    let out = wd.run(&["report", "run.csv", "--plot", "lat.gif"]);
    assert_exit(&out, 2);
    assert!(stderr(&out).contains("lat.gif"), "{}", stderr(&out));
}

#[test]
fn baseline_gives_the_known_ratio() {
    let wd = Workdir::new();
    wd.create("new.csv", run_csv(|_, t| t));
    // The baseline took twice as long on every puzzle but line 8, which took 9,000 ns
    // there against 45,000 now: baseline total = 2 · (68,000 − 45,000) + 9,000 = 55,000.
    // Overall ratio 55,000 / 68,000; per puzzle nine ratios of 2 and one of 0.2.
    let base = run_csv(|line, t| if line == 8 { 9_000 } else { 2 * t });
    // Rows in another order: pairing goes by file and line, not by position.
    let mut lines: Vec<&str> = base.lines().collect();
    lines[1..].reverse();
    wd.create("old.csv", lines.join("\n"));
    let out = wd.run(&[
        "report",
        "new.csv",
        "--baseline",
        "old.csv",
        "--format",
        "json",
    ]);
    assert_exit(&out, 0);
    let c = &json(&out)["baseline"];
    assert_eq!(c["paired_by"], "file+line");
    assert_eq!(
        (c["paired"].as_u64(), c["unpaired"].as_u64()),
        (Some(10), Some(0))
    );
    assert_eq!(c["baseline_total_ns"], 55_000);
    assert_eq!(c["total_ns"], 68_000);
    assert_eq!(c["overall_ratio"].as_f64(), Some(55_000.0 / 68_000.0));
    // Sorted ratios 0.2, 2 × 9: min and p10 (rank 1) 0.2, p50 and max 2.
    assert_eq!(c["ratio"]["min"].as_f64(), Some(0.2));
    assert_eq!(c["ratio"]["p10"].as_f64(), Some(0.2));
    assert_eq!(c["ratio"]["p50"].as_f64(), Some(2.0));
    assert_eq!(c["ratio"]["max"].as_f64(), Some(2.0));
    let slower = c["most_slower"].as_array().unwrap();
    assert_eq!(slower[0]["line"], 8);
    assert_eq!(slower[0]["baseline_ns"], 9_000);

    let out = wd.run(&["report", "new.csv", "--baseline", "old.csv"]);
    assert_exit(&out, 0);
    // 68,000 / 55,000 = 1.236...: this run is 1.24× slower overall.
    assert!(stdout(&out).contains("1.24× slower"), "{}", stdout(&out));
}

#[test]
fn missing_columns_exit_2_naming_the_file() {
    let wd = Workdir::new();
    wd.create(
        "bad.csv",
        "file,line,puzzle,status,clues\ndata.txt,1,x,unique,30\n",
    );
    let out = wd.run(&["report", "bad.csv"]);
    assert_exit(&out, 2);
    let err = stderr(&out);
    assert!(err.contains("bad.csv:1:"), "{err}");
    assert!(err.contains("`guesses`, `time_ns`"), "{err}");
}

#[test]
fn unparsable_rows_exit_2_naming_file_and_line() {
    let wd = Workdir::new();
    let good = run_csv(|_, t| t);
    let mut lines: Vec<String> = good.lines().map(str::to_string).collect();
    // CSV line 4 is the third data row (line 3 of the dataset).
    lines[3] = lines[3].replace(",12000,", ",12 ms,");
    wd.create("bad.csv", lines.join("\n"));
    let out = wd.run(&["report", "bad.csv"]);
    assert_exit(&out, 2);
    let err = stderr(&out);
    assert!(err.contains("bad.csv:4: column `time_ns`"), "{err}");

    lines[3] = "data.txt,3,x,unique".to_string();
    wd.create("short.csv", lines.join("\n"));
    let out = wd.run(&["report", "short.csv"]);
    assert_exit(&out, 2);
    assert!(stderr(&out).contains("short.csv:4:"), "{}", stderr(&out));

    // A bad baseline is as bad as a bad run.
    wd.create("good.csv", &good);
    let out = wd.run(&["report", "good.csv", "--baseline", "bad.csv"]);
    assert_exit(&out, 2);
    assert!(stderr(&out).contains("bad.csv:4:"), "{}", stderr(&out));
}

#[test]
fn reads_what_solve_writes() {
    let wd = Workdir::new();
    // Two unique puzzles, one with many solutions (one given), one malformed line.
    let one_given = format!("1{}", ".".repeat(80));
    wd.create(
        "d.txt",
        format!(
            "{BASE}\n800000000003600000070090200050007000000045700000100030001000068008500010090000400\n{one_given}\n12345\n"
        ),
    );
    let out = wd.run(&["solve", "d.txt", "-o", "run.csv", "-q"]);
    assert_exit(&out, 0);
    let out = wd.run(&["report", "run.csv", "--format", "json"]);
    assert_exit(&out, 0);
    let v = json(&out);
    assert_eq!(v["puzzles"], 4);
    let by_status = &v["by_status"];
    assert_eq!(
        [
            &by_status["unique"],
            &by_status["multiple"],
            &by_status["invalid"]
        ],
        [2, 1, 1]
    );
    assert_eq!(v["timed"], 3);
    // The slowest list points back into the dataset by line.
    let lines: Vec<u64> = v["slowest"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["line"].as_u64().unwrap())
        .collect();
    assert_eq!(
        lines
            .iter()
            .copied()
            .collect::<std::collections::BTreeSet<_>>(),
        [1, 2, 3].into()
    );

    // `--first` runs say `solved`.
    let out = wd.run(&["solve", "d.txt", "--first", "-o", "first.csv", "-q"]);
    assert_exit(&out, 0);
    let out = wd.run(&["report", "first.csv", "--format", "json"]);
    assert_exit(&out, 0);
    let v = json(&out);
    assert_eq!(v["by_status"]["solved"], 3);
    assert_eq!(v["solved"], 3);
}
