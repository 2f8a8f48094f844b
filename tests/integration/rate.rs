//! `bulkdoku rate`: one row per record in input order with `solve`'s statuses, ratings
//! only for unique puzzles, every input format, the typed outputs, `--resume`.
//!
//! The checks here hold whatever the ratings are (a unique puzzle is rated with
//! well-formed figures, or its row says why not); the numbers themselves are held
//! against serate's in `rate_oracle`.

use std::path::Path;

use serde_json::Value;

use crate::trust::{big_input, finish, signal, spawn, untimed, wait_for_bytes};
use crate::util::{assert_exit, stderr, stdout, Table, Workdir};

/// The columns of `rate`'s output, in order.
const COLUMNS: [&str; 11] = [
    "file",
    "line",
    "puzzle",
    "status",
    "er",
    "ep",
    "ed",
    "er_technique",
    "steps",
    "time_ns",
    "error",
];

/// A unique puzzle (the solver tests' 17-clue one).
const UNIQUE: &str =
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";
const EMPTY: &str =
    ".................................................................................";
/// No conflict among the givens, but r1c9 has no digit left: no solution.
const UNSOLVABLE: &str =
    "12345678.........9...............................................................";
/// Two 5s in row 1.
const CONFLICT: &str =
    "55...............................................................................";

/// A rating as serate prints it (`7.2`), in tenths.
pub(crate) fn tenths(text: &str) -> Option<u32> {
    let (whole, tenth) = text.split_once('.')?;
    if tenth.len() != 1 || whole.is_empty() {
        return None;
    }
    Some(whole.parse::<u32>().ok()? * 10 + tenth.parse::<u32>().ok()?)
}

/// Check one CSV row's rating columns: a unique puzzle is rated (ER, EP, ED with one
/// decimal, EP and ED at most ER, a technique, a step count) or says why not; any
/// other row has none.
#[track_caller]
fn check_rating_columns(table: &Table, row: &[String]) {
    let get = |name: &str| row[table.col(name)].as_str();
    let ratings = ["er", "ep", "ed", "er_technique", "steps"];
    if get("status") == "unique" && get("error").is_empty() {
        let [er, ep, ed] =
            ["er", "ep", "ed"].map(|c| tenths(get(c)).unwrap_or_else(|| panic!("{c} {row:?}")));
        assert!((10..=200).contains(&er), "{row:?}");
        assert!(ep <= er && ed <= er, "EP and ED never above ER: {row:?}");
        assert!(!get("er_technique").is_empty(), "{row:?}");
        assert!(get("steps").parse::<u32>().unwrap() >= 1, "{row:?}");
    } else {
        for c in ratings {
            assert_eq!(get(c), "", "{c} of a row without a rating: {row:?}");
        }
        if get("status") == "unique" {
            assert!(get("error").starts_with("not rated"), "{row:?}");
        }
    }
    get("time_ns").parse::<u64>().expect("time_ns");
}

#[test]
fn one_row_per_record_in_order_with_solve_statuses_and_ratings_only_when_unique() {
    let dir = Workdir::new();
    let input = [UNIQUE, EMPTY, "12.4", UNSOLVABLE, CONFLICT, UNIQUE].join("\n") + "\n";
    dir.create("p.txt", &input);
    let out = dir.run(&["rate", "-q", "p.txt"]);
    assert_exit(&out, 0);
    let table = Table::parse(&stdout(&out));
    assert_eq!(table.headers, COLUMNS);
    assert_eq!(table.column("line"), ["1", "2", "3", "4", "5", "6"]);
    assert_eq!(
        table.column("status"),
        [
            "unique",
            "multiple",
            "invalid",
            "unsolvable",
            "invalid",
            "unique"
        ]
    );
    assert_eq!(table.column("file"), ["p.txt"; 6]);
    // Valid puzzles normalised; an invalid record's text as found.
    assert_eq!(table.column("puzzle")[..3], [UNIQUE, EMPTY, "12.4"]);
    let errors = table.column("error");
    assert!(errors[2].contains("4 cells, expected 81"), "{errors:?}");
    assert!(errors[4].contains('5'), "the conflict named: {errors:?}");
    for row in &table.rows {
        check_rating_columns(&table, row);
    }
    // The same puzzle, the same rating (or the same reason).
    let (first, last) = (&table.rows[0], &table.rows[5]);
    let rating = |r: &Vec<String>| r[4..9].to_vec();
    assert_eq!(rating(first), rating(last));
    assert_eq!(first[10], last[10]);
    // The summary counts them.
    assert!(stderr(&out).is_empty(), "-q: {}", stderr(&out));
    let loud = dir.run(&["rate", "p.txt", "-o", "r.csv"]);
    assert_exit(&loud, 0);
    let err = stderr(&loud);
    assert!(
        err.contains("6 puzzles: 2 unique, 1 multiple, 1 unsolvable, 2 invalid"),
        "{err}"
    );
}

#[test]
fn every_input_format_and_kept_columns() {
    let dir = Workdir::new();
    let seeds = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/seeds");
    // Grid blocks, board literals, counted grids: one unique puzzle each.
    for seed in [
        "luogu_p1784.txt",
        "poj2676.txt",
        "leetcode37.txt",
        "backtracking_zero_rows.txt",
    ] {
        let out = dir.run(&["rate", "-q", seeds.join(seed).to_str().unwrap()]);
        assert_exit(&out, 0);
        let table = Table::parse(&stdout(&out));
        assert_eq!(table.rows.len(), 1, "{seed}");
        assert_eq!(table.column("status"), ["unique"], "{seed}");
        check_rating_columns(&table, &table.rows[0]);
    }
    // CSV with a puzzle column found by name, and columns copied through.
    dir.create(
        "p.csv",
        format!("id,quizzes,note\n7,{UNIQUE},\"a, b\"\n8,{EMPTY},c\n"),
    );
    let out = dir.run(&["rate", "-q", "p.csv", "--keep", "id,note"]);
    assert_exit(&out, 0);
    let table = Table::parse(&stdout(&out));
    assert_eq!(table.headers[..11], COLUMNS);
    assert_eq!(table.headers[11..], ["id", "note"]);
    assert_eq!(table.column("id"), ["7", "8"]);
    assert_eq!(table.column("note"), ["a, b", "c"]);
    assert_eq!(table.column("line"), ["2", "3"]);
    // --no-header, for concatenating shards.
    let out = dir.run(&["rate", "-q", "--no-header", "p.csv"]);
    assert_exit(&out, 0);
    let text = stdout(&out);
    assert_eq!(text.lines().count(), 2);
    assert!(text.starts_with("p.csv,2,"), "{text}");
    // A record under other rules is solved under them, and not rated.
    dir.create("x.csv", format!("puzzle,rules\n{UNIQUE},x\n"));
    let out = dir.run(&["rate", "-q", "x.csv"]);
    assert_exit(&out, 0);
    let table = Table::parse(&stdout(&out));
    let row = &table.rows[0];
    assert_eq!(row[table.col("er")], "");
    if row[table.col("status")] == "unique" {
        assert!(row[table.col("error")].contains("classic"), "{row:?}");
    }
}

#[test]
fn order_is_kept_across_files_threads_and_batches() {
    let dir = Workdir::new();
    let puzzles = crate::trust::generated();
    dir.create("a.txt", puzzles[..150].join("\n") + "\n");
    dir.create("b.txt", puzzles[150..300].join("\n") + "\n");
    let out = dir.run(&[
        "rate",
        "-q",
        "-j",
        "2",
        "--batch-size",
        "7",
        "a.txt",
        "b.txt",
    ]);
    assert_exit(&out, 0);
    let table = Table::parse(&stdout(&out));
    assert_eq!(table.rows.len(), 300);
    let want: Vec<(String, String, &str)> = (0..300)
        .map(|i| {
            let (file, line) = if i < 150 {
                ("a.txt", i + 1)
            } else {
                ("b.txt", i - 149)
            };
            (file.to_string(), line.to_string(), puzzles[i].as_str())
        })
        .collect();
    let got: Vec<(String, String, &str)> = table
        .rows
        .iter()
        .map(|r| (r[0].clone(), r[1].clone(), r[2].as_str()))
        .collect();
    assert_eq!(got, want);
    // One thread gives the same rows: a rating is a property of the puzzle.
    let one = dir.run(&["rate", "-q", "-j", "1", "a.txt", "b.txt"]);
    assert_exit(&one, 0);
    assert_eq!(untimed(&stdout(&one)), untimed(&stdout(&out)));
}

#[test]
fn json_lines_are_typed_with_nulls_and_match_the_csv() {
    let dir = Workdir::new();
    let input = [UNIQUE, EMPTY, "12.4"].join("\n") + "\n";
    dir.create("p.txt", &input);
    assert_exit(&dir.run(&["rate", "-q", "p.txt", "-o", "r.jsonl"]), 0);
    assert_exit(&dir.run(&["rate", "-q", "p.txt", "-o", "r.csv"]), 0);
    let text = std::fs::read_to_string(dir.file("r.jsonl")).unwrap();
    let csv = Table::parse(&std::fs::read_to_string(dir.file("r.csv")).unwrap());
    let rows: Vec<serde_json::Map<String, Value>> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 3);
    for line in text.lines() {
        // Fields in column order (the map above sorts them by name).
        let at: Vec<usize> = COLUMNS
            .iter()
            .map(|c| line.find(&format!("\"{c}\":")).expect(c))
            .collect();
        assert!(at.windows(2).all(|w| w[0] < w[1]), "{line}");
    }
    for (row, want) in rows.iter().zip(&csv.rows) {
        assert_eq!(row.len(), COLUMNS.len());
        assert!(row["line"].is_u64() && row["time_ns"].is_u64());
        for (i, name) in COLUMNS.iter().enumerate() {
            let value = &row[*name];
            match (*name, value) {
                ("time_ns", _) => {}
                (_, Value::Null) => assert_eq!(want[i], "", "{name}"),
                ("line" | "steps", Value::Number(n)) => assert_eq!(n.to_string(), want[i]),
                // One decimal, as in CSV: 7.2 is written 7.2.
                ("er" | "ep" | "ed", Value::Number(n)) => {
                    assert_eq!(format!("{:.1}", n.as_f64().unwrap()), want[i]);
                    assert_eq!(
                        n.to_string().trim_end_matches(".0"),
                        want[i].trim_end_matches(".0")
                    );
                }
                (_, Value::String(s)) => assert_eq!(s, &want[i], "{name}"),
                other => panic!("unexpected {other:?}"),
            }
        }
    }
    assert_eq!(rows[1]["status"], "multiple");
    assert_eq!(rows[2]["status"], "invalid");
    for column in ["er", "ep", "ed", "er_technique", "steps"] {
        assert_eq!(rows[1][column], Value::Null);
        assert_eq!(rows[2][column], Value::Null);
    }
    assert_eq!(rows[1]["error"], Value::Null);
    assert!(rows[2]["error"].is_string());
}

#[cfg(feature = "parquet")]
#[test]
fn parquet_columns_are_typed_with_nulls_and_match_the_csv() {
    // The default codec (zstd) and each one `--compression` names: the same rows.
    for codec in [None, Some("lz4"), Some("snappy"), Some("none")] {
        rate_parquet_matches_the_csv(codec);
    }
}

/// [`parquet_columns_are_typed_with_nulls_and_match_the_csv`] for one codec: every
/// column chunk compressed by it (zstd when `None`).
#[cfg(feature = "parquet")]
fn rate_parquet_matches_the_csv(codec: Option<&str>) {
    use arrow_array::cast::AsArray;
    use arrow_array::types::{Float64Type, UInt64Type};
    use arrow_array::{Array, RecordBatch};
    use arrow_schema::DataType;
    use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

    let dir = Workdir::new();
    let input = [UNIQUE, EMPTY, "12.4", UNIQUE].join("\n") + "\n";
    dir.create("p.txt", &input);
    let mut args = vec!["rate", "-q", "p.txt", "-o", "r.parquet"];
    args.extend(codec.iter().flat_map(|c| ["--compression", c]));
    assert_exit(&dir.run(&args), 0);
    assert_exit(&dir.run(&["rate", "-q", "p.txt", "-o", "r.csv"]), 0);
    let csv = Table::parse(&std::fs::read_to_string(dir.file("r.csv")).unwrap());
    let file = std::fs::File::open(dir.file("r.parquet")).unwrap();
    let builder = ParquetRecordBatchReaderBuilder::try_new(file).unwrap();
    let schema = builder.schema().clone();
    for group in builder.metadata().row_groups() {
        for chunk in group.columns() {
            let found = crate::util::codec_name(chunk.compression());
            assert_eq!(found, codec.unwrap_or("zstd"), "{}", chunk.column_path());
        }
    }
    let names: Vec<&str> = schema.fields().iter().map(|f| f.name().as_str()).collect();
    assert_eq!(names, COLUMNS);
    for field in schema.fields() {
        let (ty, nullable) = match field.name().as_str() {
            "line" | "time_ns" => (DataType::UInt64, false),
            "steps" => (DataType::UInt64, true),
            "er" | "ep" | "ed" => (DataType::Float64, true),
            "er_technique" | "error" => (DataType::Utf8, true),
            _ => (DataType::Utf8, false),
        };
        assert_eq!(field.data_type(), &ty, "{}", field.name());
        assert_eq!(field.is_nullable(), nullable, "{}", field.name());
    }
    let batches: Vec<RecordBatch> = builder.build().unwrap().collect::<Result<_, _>>().unwrap();
    let mut got: Vec<Vec<String>> = Vec::new();
    for batch in &batches {
        for i in 0..batch.num_rows() {
            let row = batch
                .columns()
                .iter()
                .map(|c| {
                    if c.is_null(i) {
                        return String::new();
                    }
                    match c.data_type() {
                        DataType::Utf8 => c.as_string::<i32>().value(i).to_string(),
                        DataType::UInt64 => c.as_primitive::<UInt64Type>().value(i).to_string(),
                        DataType::Float64 => {
                            format!("{:.1}", c.as_primitive::<Float64Type>().value(i))
                        }
                        other => panic!("{other}"),
                    }
                })
                .collect();
            got.push(row);
        }
    }
    let time = 9;
    let strip = |rows: &[Vec<String>]| -> Vec<Vec<String>> {
        rows.iter()
            .map(|r| {
                let mut r = r.clone();
                r.remove(time);
                r
            })
            .collect()
    };
    assert_eq!(strip(&got), strip(&csv.rows));
    // Nulls, not empty strings, where there is nothing.
    let batch = &batches[0];
    assert!(batch.column(4).is_null(1) && batch.column(4).is_null(2));
    assert!(batch.column(7).is_null(1) && batch.column(8).is_null(2));
    assert!(batch.column(10).is_null(1) && !batch.column(10).is_null(2));
}

#[test]
fn grids_and_parquet_resume_are_refused_before_any_output() {
    let dir = Workdir::new();
    dir.create("p.txt", format!("{UNIQUE}\n"));
    let out = dir.run(&["rate", "-q", "p.txt", "--output-format", "grid"]);
    assert_exit(&out, 2);
    assert!(stderr(&out).contains("not grids"), "{}", stderr(&out));
    let out = dir.run(&["rate", "-q", "p.txt", "-o", "r.parquet", "--resume"]);
    assert_exit(&out, 2);
    assert!(!dir.file("r.parquet").exists());
    let out = dir.run(&["rate", "-q", "p.txt", "-o", "p.txt"]);
    assert_exit(&out, 2);
    let out = dir.run(&["rate", "-q", "missing.txt", "-o", "r.csv"]);
    assert_exit(&out, 2);
    assert!(!dir.file("r.csv").exists());
}

/// `rate -o r.EXT`, interrupted (SIGINT) or killed once it wrote some rows, then
/// resumed, writes the rows of one uninterrupted run.
#[cfg(unix)]
fn interrupted_rate_resumes_to_the_rows_of_an_uninterrupted_run(ext: &str) {
    let dir = Workdir::new();
    // Few copies: with the rating engine a puzzle takes far longer than a solve.
    big_input(&dir, "big.txt", 3);
    let whole = format!("whole.{ext}");
    assert_exit(&dir.run(&["rate", "-q", "big.txt", "-o", &whole]), 0);
    let want = std::fs::read_to_string(dir.file(&whole)).unwrap();
    let out = format!("r.{ext}");
    for how in ["INT", "KILL"] {
        let _ = std::fs::remove_file(dir.file(&out));
        let args = [
            "rate",
            "-q",
            "-j",
            "1",
            "--batch-size",
            "16",
            "big.txt",
            "-o",
            &out,
        ];
        let child = spawn(&dir, &args, None);
        wait_for_bytes(&dir.file(&out), 20_000);
        signal(&child, how);
        finish(child);
        assert!(
            dir.file(&format!("{out}.resume")).exists(),
            "{how}: the run record is kept"
        );
        // Resumed on all cores (the thread count shapes no row).
        let mut resumed = vec!["rate", "big.txt", "-o", &out, "--resume"];
        resumed.extend(["--batch-size", "16"]);
        let done = dir.run(&resumed);
        assert_exit(&done, 0);
        assert!(stderr(&done).contains("resumed after"), "{}", stderr(&done));
        assert!(!dir.file(&format!("{out}.resume")).exists());
        let got = std::fs::read_to_string(dir.file(&out)).unwrap();
        match ext {
            "csv" => assert!(untimed(&got) == untimed(&want), "{how}: the rows differ"),
            _ => {
                let rows = |text: &str| -> Vec<Value> {
                    text.lines()
                        .map(|l| {
                            let mut v: Value = serde_json::from_str(l).unwrap();
                            v.as_object_mut().unwrap().remove("time_ns");
                            v
                        })
                        .collect()
                };
                assert!(rows(&got) == rows(&want), "{how}: the rows differ");
            }
        }
    }
}

#[cfg(unix)]
#[test]
fn an_interrupted_rate_resumes_csv() {
    interrupted_rate_resumes_to_the_rows_of_an_uninterrupted_run("csv");
}

#[cfg(unix)]
#[test]
fn an_interrupted_rate_resumes_json_lines() {
    interrupted_rate_resumes_to_the_rows_of_an_uninterrupted_run("jsonl");
}

/// `report` on `rate` outputs: the ER distribution, bands, techniques and slowest
/// puzzles, in each format, with the ER histogram; refused mixed with `solve` runs.
#[test]
fn report_on_rate_outputs() {
    let dir = Workdir::new();
    // Rows as `rate` writes them, with made-up ratings (the format is what is tested).
    let csv = "file,line,puzzle,status,er,ep,ed,er_technique,steps,time_ns,error\n\
        a.txt,1,p1,unique,7.2,1.2,1.2,Forcing Chain,40,3000,\n\
        a.txt,2,p2,unique,1.5,1.2,1.2,Hidden Single,30,100,\n\
        a.txt,3,p3,multiple,,,,,,50,\n\
        a.txt,4,p4,invalid,,,,,,0,4 cells\n\
        a.txt,5,p5,unique,9.4,7.2,2.0,\"Dynamic, nested\",50,2000,\n";
    dir.create("r.csv", csv);
    let out = dir.run(&["report", "r.csv", "--top", "1", "--plot", "er.svg"]);
    assert_exit(&out, 0);
    let text = stdout(&out);
    assert!(
        text.contains("5 (3 unique, 1 multiple, 0 unsolvable, 1 invalid)"),
        "{text}"
    );
    assert!(
        text.contains("ER             median 7.2, p90 9.4, max 9.4"),
        "{text}"
    );
    assert!(text.contains("> 9.0"), "{text}");
    assert!(text.contains("Dynamic, nested"), "{text}");
    let svg = std::fs::read_to_string(dir.file("er.svg")).unwrap();
    assert!(svg.contains("ER distribution"), "the ER histogram");
    let out = dir.run(&["report", "r.csv", "--format", "json"]);
    assert_exit(&out, 0);
    let json: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(json["rated"], 3);
    assert_eq!(json["bands"][3]["count"], 1);
    assert_eq!(json["slowest"][0]["line"], 1);
    // A real `rate` output, in each format, reads back with its statuses.
    dir.create("p.txt", [UNIQUE, EMPTY, "12"].join("\n") + "\n");
    let mut outputs = vec!["o.csv", "o.jsonl"];
    if cfg!(feature = "parquet") {
        outputs.push("o.parquet");
    }
    for out in outputs {
        assert_exit(&dir.run(&["rate", "-q", "p.txt", "-o", out]), 0);
        let rep = dir.run(&["report", out, "--format", "json"]);
        assert_exit(&rep, 0);
        let json: Value = serde_json::from_str(&stdout(&rep)).unwrap();
        assert_eq!(json["puzzles"], 3, "{out}");
        assert_eq!(json["statuses"]["multiple"], 1, "{out}");
    }
    // Not with `solve` runs, nor with --baseline.
    assert_exit(&dir.run(&["solve", "-q", "p.txt", "-o", "s.csv"]), 0);
    let out = dir.run(&["report", "r.csv", "s.csv"]);
    assert_exit(&out, 2);
    assert!(stderr(&out).contains("together"), "{}", stderr(&out));
    let out = dir.run(&["report", "r.csv", "--baseline", "o.csv"]);
    assert_exit(&out, 2);
}

/// `generate --er MIN..MAX`: puzzles whose rating (by `rate`) lies in the range, the same
/// for a seed on any number of threads; a range not found within `--tries` candidates is
/// an error that says so; bad ranges and variant rules are refused.
#[test]
fn generate_er_keeps_puzzles_rated_in_the_range() {
    let dir = Workdir::new();
    for bad in ["5..1", "7.25..8", "x..2", "7"] {
        let out = dir.run(&["generate", "-n", "2", "--er", bad]);
        assert_exit(&out, 2);
        assert!(stderr(&out).contains("--er"), "{bad}: {}", stderr(&out));
    }
    let out = dir.run(&["generate", "-n", "2", "--er", "1..5", "--rules", "x"]);
    assert_exit(&out, 2);
    for (range, lo, hi) in [("1.0..25.5", 10, 255), ("1.2..2.0", 12, 20)] {
        let args = [
            "generate", "-n", "3", "--seed", "5", "--er", range, "--tries", "300",
        ];
        let out = dir.run(&args);
        if out.status.code() == Some(2) {
            // A rater that rates nothing in the range (no engine): it says so.
            let err = stderr(&out);
            assert!(
                err.contains("of 3 puzzles with ER in") && err.contains("300 candidates"),
                "{err}"
            );
            continue;
        }
        assert_exit(&out, 0);
        let text = stdout(&out);
        assert!(text.starts_with("# bulkdoku generate -n 3 --seed 5 --er "));
        let one = dir.run(&[&args[..], &["-j", "1"]].concat());
        assert_eq!(stdout(&one), text, "the same puzzles on one thread");
        dir.create("g.txt", &text);
        let rated = dir.run(&["rate", "-q", "g.txt"]);
        assert_exit(&rated, 0);
        let table = Table::parse(&stdout(&rated));
        assert_eq!(table.rows.len(), 3);
        for er in table.column("er") {
            let er = tenths(er).expect("rated");
            assert!((lo..=hi).contains(&er), "{range}: {er}");
        }
    }
}
