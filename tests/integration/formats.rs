//! Dataframe-ready outputs: `solve` rows and `verify` findings as Parquet and JSON
//! Lines, read back (with the `parquet` crate, and field by field with serde_json) and
//! held against the CSV written with the same options; the format chosen by name or
//! flag; interrupts and `--resume`; `report` on Parquet runs, mixed with CSV ones.

use std::fmt::Write as _;

use serde::de::{Deserializer, MapAccess, Visitor};
use serde_json::Value;

use crate::trust::wait_for_bytes;
use crate::trust::{big_input, finish, generated, interrupt_then_resume, signal, spawn};
use crate::util::{assert_exit, stderr, stdout, Table, Workdir};

/// One value of an output row, as a dataframe would hold it.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Cell {
    Text(String),
    Count(u64),
    Null,
}

/// The columns that hold counts in every typed output.
const COUNTS: [&str; 5] = ["line", "solutions", "clues", "guesses", "time_ns"];
/// The text columns that are null rather than empty.
const NULLABLE: [&str; 3] = ["solution", "error", "detail"];

/// A table of typed rows with its column names.
#[derive(Debug, PartialEq, Eq)]
struct Typed {
    columns: Vec<String>,
    rows: Vec<Vec<Cell>>,
}

impl Typed {
    /// The same table without column `name` (the timings, which differ between runs).
    fn without(mut self, name: &str) -> Typed {
        if let Some(i) = self.columns.iter().position(|c| c == name) {
            self.columns.remove(i);
            for row in &mut self.rows {
                row.remove(i);
            }
        }
        self
    }

    fn col(&self, name: &str) -> usize {
        self.columns
            .iter()
            .position(|c| c == name)
            .unwrap_or_else(|| panic!("no column {name} in {:?}", self.columns))
    }

    fn column(&self, name: &str) -> Vec<&Cell> {
        let i = self.col(name);
        self.rows.iter().map(|r| &r[i]).collect()
    }
}

/// CSV output read with the types of the typed formats: the counts as numbers, an
/// empty solution, error or detail as null, anything else as text.
fn csv_typed(text: &str) -> Typed {
    let table = Table::parse(text);
    let rows = table
        .rows
        .iter()
        .map(|row| {
            row.iter()
                .zip(&table.headers)
                .map(|(value, name)| {
                    if COUNTS.contains(&name.as_str()) {
                        Cell::Count(value.parse().expect("a count"))
                    } else if value.is_empty() && NULLABLE.contains(&name.as_str()) {
                        Cell::Null
                    } else {
                        Cell::Text(value.clone())
                    }
                })
                .collect()
        })
        .collect();
    Typed {
        columns: table.headers,
        rows,
    }
}

/// A JSON object's fields in the order written (serde_json's `Value` sorts them).
struct Ordered(Vec<(String, Value)>);

impl<'de> serde::Deserialize<'de> for Ordered {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Ordered, D::Error> {
        struct Fields;
        impl<'de> Visitor<'de> for Fields {
            type Value = Ordered;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Ordered, A::Error> {
                let mut fields = Vec::new();
                while let Some(field) = map.next_entry()? {
                    fields.push(field);
                }
                Ok(Ordered(fields))
            }
        }
        d.deserialize_map(Fields)
    }
}

/// JSON Lines output, each line an object whose fields are the columns in order:
/// strings as text, whole numbers as counts, `null` as null (any other JSON type
/// fails the test). Every line, the last included, ends with a line break.
fn jsonl_typed(text: &str) -> Typed {
    assert!(text.is_empty() || text.ends_with('\n'), "a torn last line");
    let mut columns: Option<Vec<String>> = None;
    let mut rows = Vec::new();
    for line in text.lines() {
        let Ordered(fields) = serde_json::from_str(line).expect("a JSON object per line");
        let names: Vec<String> = fields.iter().map(|(k, _)| k.clone()).collect();
        match &columns {
            Some(c) => assert_eq!(&names, c, "the same fields in every row"),
            None => columns = Some(names),
        }
        let row = fields
            .into_iter()
            .map(|(name, value)| match value {
                Value::String(s) => Cell::Text(s),
                Value::Number(n) => Cell::Count(n.as_u64().expect("a whole number")),
                Value::Null => Cell::Null,
                other => panic!("{name}: unexpected JSON value {other}"),
            })
            .collect();
        rows.push(row);
    }
    Typed {
        columns: columns.unwrap_or_default(),
        rows,
    }
}

/// The output of the run `args` writing `-o out`, as text.
fn run_to(dir: &Workdir, args: &[&str], out: &str, code: i32) -> String {
    let mut all = args.to_vec();
    all.extend(["-q", "-o", out]);
    let done = dir.run(&all);
    assert_exit(&done, code);
    // Lossy: the caller of a Parquet run reads the file itself.
    String::from_utf8_lossy(&std::fs::read(dir.file(out)).unwrap()).into_owned()
}

/// A puzzle with many solutions, one with none, and invalid records of each kind.
const EMPTY: &str =
    ".................................................................................";

fn unsolvable() -> String {
    format!("12345678.........9{}", ".".repeat(63))
}

/// `mix.txt`: generated puzzles with, among them, multiple-solution, unsolvable and
/// invalid records (too short, a bad character, conflicting givens, non-ASCII text).
fn mixed_input(dir: &Workdir) {
    let puzzles = generated();
    let mut lines: Vec<String> = puzzles[..60].to_vec();
    let bad_char = format!("{}x{}", &puzzles[0][..10], &puzzles[0][11..]);
    let specials = [
        EMPTY.to_string(),
        unsolvable(),
        "12345".to_string(),
        bad_char,
        format!("7...7{}", ".".repeat(76)),
        "puzzle, \"quoted\" é".to_string(),
    ];
    for (i, s) in specials.into_iter().enumerate() {
        lines.insert(5 + 7 * i, s);
    }
    dir.create("mix.txt", lines.join("\n") + "\n");
    dir.create("other.txt", puzzles[100..130].join("\n") + "\n");
    // A CSV input with columns to keep: digits with leading zeros (text, not a number),
    // quotes, commas, non-ASCII, empty values.
    let mut csv = String::from("id,quizzes,note\n");
    for (i, p) in puzzles[200..240].iter().enumerate() {
        let note = match i % 4 {
            0 => "",
            1 => "\"a, \"\"b\"\" é\"",
            _ => "plain",
        };
        let _ = writeln!(csv, "{:06},{p},{note}", i * 37);
    }
    let _ = writeln!(csv, "999999,{EMPTY},multi");
    dir.create("keep.csv", csv);
    // Variant rules per record: jigsaw puzzles with their regions (81 digits, which
    // look like a number as much as a solution does), then classic and X records.
    let done = dir.run(&[
        "generate", "-n", "12", "--seed", "7", "--rules", "jigsaw", "--format", "csv",
    ]);
    assert_exit(&done, 0);
    let mut csv = stdout(&done);
    for (i, p) in puzzles[300..306].iter().enumerate() {
        let rules = ["classic", "x", ""][i % 3];
        let _ = writeln!(csv, "{p},,{rules},");
    }
    let _ = writeln!(csv, "{EMPTY},,x,");
    let _ = writeln!(csv, "12345,,x,");
    dir.create("variants.csv", csv);
}

#[test]
fn jsonl_rows_are_the_csv_rows_typed_in_every_mode() {
    let dir = Workdir::new();
    mixed_input(&dir);
    for args in solve_modes() {
        let csv = csv_typed(&run_to(&dir, &args, "out.csv", 0));
        let jsonl = jsonl_typed(&run_to(&dir, &args, "out.jsonl", 0));
        assert_eq!(jsonl.columns, csv.columns, "{args:?}");
        check_times(&jsonl);
        assert_eq!(jsonl.without("time_ns"), csv.without("time_ns"), "{args:?}");
    }
}

/// `solve` modes held against CSV: one row per puzzle, --first, every solution (more
/// than the worker keeps, so enumerated again while written), several inputs, kept
/// columns.
fn solve_modes() -> Vec<Vec<&'static str>> {
    vec![
        vec!["solve", "mix.txt"],
        vec!["solve", "--first", "mix.txt"],
        vec!["solve", "--all-solutions", "--limit", "6", "mix.txt"],
        vec!["solve", "-j", "1", "mix.txt", "other.txt"],
        vec!["solve", "keep.csv", "--keep", "note,id", "--all-solutions"],
        // Variant rules: the rows gain `rules` and `regions` columns.
        vec!["solve", "--rules", "x", "mix.txt"],
        vec![
            "solve",
            "--rules",
            "x",
            "--all-solutions",
            "--limit",
            "6",
            "mix.txt",
        ],
        vec!["solve", "variants.csv", "--column", "puzzle"],
        vec![
            "solve",
            "variants.csv",
            "--column",
            "puzzle",
            "--all-solutions",
            "--limit",
            "3",
        ],
    ]
}

/// The modes of [`solve_modes`] under variant rules write each record's rules and
/// regions, as strings, after the fixed columns: the same in every format.
#[test]
fn variant_rules_and_regions_are_columns_of_every_format() {
    let dir = Workdir::new();
    mixed_input(&dir);
    let args = ["solve", "variants.csv", "--column", "puzzle"];
    let jsonl = jsonl_typed(&run_to(&dir, &args, "v.jsonl", 0));
    let csv = csv_typed(&run_to(&dir, &args, "v.csv", 0));
    let n = SOLVE_COLUMN_COUNT;
    assert_eq!(jsonl.columns[n..], ["rules", "regions"]);
    let jsonl = jsonl.without("time_ns");
    assert_eq!(jsonl, csv.without("time_ns"));
    let rules = jsonl.column("rules");
    let regions = jsonl.column("regions");
    assert_eq!(rules.len(), 20);
    for (rule, region) in rules.iter().zip(&regions).take(12) {
        assert_eq!(**rule, Cell::Text("jigsaw".into()));
        let Cell::Text(r) = region else {
            panic!("regions as text: {region:?}")
        };
        assert_eq!(r.len(), 81, "{r}");
        assert!(r.bytes().all(|b| b.is_ascii_digit()), "{r}");
    }
    let tail: Vec<&Cell> = rules[12..].to_vec();
    let text = |s: &str| Cell::Text(s.into());
    assert_eq!(
        tail,
        [
            &text("classic"),
            &text("x"),
            &text("classic"),
            &text("classic"),
            &text("x"),
            &text("classic"),
            &text("x"),
            &text("x"),
        ]
    );
    assert!(regions[12..].iter().all(|r| **r == text("")));
    // Classic runs have no such columns.
    let plain = jsonl_typed(&run_to(&dir, &["solve", "other.txt"], "p.jsonl", 0));
    assert_eq!(plain.columns.len(), n);
    // A kept column of one of those names would be a second column of that name.
    for out in ["k.jsonl", "k.parquet"] {
        let done = dir.run(&[
            "solve",
            "variants.csv",
            "--column",
            "puzzle",
            "--keep",
            "rules",
            "-o",
            out,
        ]);
        assert_exit(&done, 2);
        assert!(
            stderr(&done).contains("`rules` column of its own"),
            "{}",
            stderr(&done)
        );
        assert!(!dir.file(out).exists());
    }
}

/// The fixed columns of `solve`'s rows.
const SOLVE_COLUMN_COUNT: usize = 10;

/// Every searched row has a time, every invalid row 0.
#[track_caller]
fn check_times(typed: &Typed) {
    let status = typed.col("status");
    let time = typed.col("time_ns");
    assert!(typed.rows.iter().any(|r| r[time] != Cell::Count(0)));
    for row in &typed.rows {
        if row[status] == Cell::Text("invalid".into()) {
            assert_eq!(row[time], Cell::Count(0));
        }
        assert!(matches!(row[time], Cell::Count(_)));
    }
}

#[test]
fn verify_findings_in_jsonl_are_the_csv_findings_typed() {
    let dir = Workdir::new();
    mixed_input(&dir);
    for args in [
        vec!["verify", "--all", "mix.txt"],
        vec!["verify", "mix.txt", "other.txt", "mix.txt"],
    ] {
        let csv = csv_typed(&run_to(&dir, &args, "f.csv", 1));
        let jsonl = jsonl_typed(&run_to(&dir, &args, "f.jsonl", 1));
        assert_eq!(jsonl, csv, "{args:?}");
        assert_eq!(jsonl.columns.contains(&"file".to_string()), args.len() > 3);
    }
}

#[test]
fn the_format_comes_from_the_flag_then_the_extension() {
    let dir = Workdir::new();
    mixed_input(&dir);
    let ndjson = run_to(&dir, &["solve", "other.txt"], "x.ndjson", 0);
    assert_eq!(jsonl_typed(&ndjson).rows.len(), 30);
    // --no-header means nothing to JSON Lines: same rows.
    let bare = run_to(&dir, &["solve", "--no-header", "other.txt"], "y.jsonl", 0);
    assert_eq!(
        jsonl_typed(&bare).without("time_ns"),
        jsonl_typed(&ndjson).without("time_ns")
    );
    // The flag wins over the name.
    let csv = run_to(
        &dir,
        &["solve", "other.txt", "--output-format", "csv"],
        "z.parquet",
        0,
    );
    assert!(csv.starts_with("file,line,puzzle,"), "{csv}");
    let out = dir.run(&["solve", "-q", "other.txt", "--output-format", "jsonl"]);
    assert_exit(&out, 0);
    assert_eq!(jsonl_typed(&stdout(&out)).rows.len(), 30);

    // A kept column named like a fixed one cannot be a second field of that name:
    // refused before any output is touched.
    dir.create("clash.csv", format!("quizzes,status\n{EMPTY},new\n"));
    for out in ["k.jsonl", "k.parquet"] {
        let done = dir.run(&["solve", "clash.csv", "--keep", "status", "-o", out]);
        assert_exit(&done, 2);
        assert!(
            stderr(&done).contains("`status` column"),
            "{}",
            stderr(&done)
        );
        assert!(!dir.file(out).exists());
        assert!(!dir.file(&format!("{out}.partial")).exists());
    }
    // verify has no grid format.
    let done = dir.run(&["verify", "mix.txt", "--output-format", "grid"]);
    assert_exit(&done, 2);
}

// ---- JSON Lines: interrupts and resume --------------------------------------------------

/// `big.txt` (generated puzzles, copies times) with an empty grid every 50 lines.
#[cfg(unix)]
fn big_with_multiples(dir: &Workdir, copies: usize) {
    let path = big_input(dir, "plain.txt", copies);
    let text = std::fs::read_to_string(path).unwrap();
    let mut out = String::with_capacity(text.len() * 2);
    for (i, line) in text.lines().enumerate() {
        if i % 50 == 0 {
            out.push_str(EMPTY);
            out.push('\n');
        }
        out.push_str(line);
        out.push('\n');
    }
    dir.create("big.txt", out);
}

#[cfg(unix)]
#[test]
fn an_interrupted_jsonl_solve_resumes_to_the_rows_of_an_uninterrupted_run() {
    let dir = Workdir::new();
    big_with_multiples(&dir, 100);
    // Every solution of the empty grids: a record's rows may be cut among themselves.
    let args = [
        "solve",
        "-j",
        "1",
        "--all-solutions",
        "--limit",
        "7",
        "big.txt",
    ];
    let want = jsonl_typed(&run_to(&dir, &args, "whole.jsonl", 0)).without("time_ns");
    for how in ["INT", "KILL"] {
        let _ = std::fs::remove_file(dir.file("r.jsonl"));
        let mut full = args.to_vec();
        full.extend(["-o", "r.jsonl"]);
        interrupt_then_resume(&dir, &full, "r.jsonl", how, 3_000_000);
        let got = jsonl_typed(&std::fs::read_to_string(dir.file("r.jsonl")).unwrap());
        let got = got.without("time_ns");
        assert_eq!(got.rows.len(), want.rows.len(), "{how}");
        assert!(got == want, "{how}: the rows differ");
    }
}

#[cfg(unix)]
#[test]
fn jsonl_resume_drops_a_torn_last_line() {
    let dir = Workdir::new();
    big_input(&dir, "big.txt", 100);
    let want = jsonl_typed(&run_to(&dir, &["solve", "big.txt"], "whole.jsonl", 0));
    let child = spawn(
        &dir,
        &["solve", "-q", "-j", "1", "big.txt", "-o", "t.jsonl"],
        None,
    );
    wait_for_bytes(&dir.file("t.jsonl"), 1_000_000);
    signal(&child, "TERM");
    let (code, err, _) = finish(child);
    assert_eq!(code, Some(143), "{err}");
    // The final name is never given an interrupted run's rows: they wait in .partial.
    assert!(!dir.file("t.jsonl").exists());
    let text = std::fs::read(dir.file("t.jsonl.partial")).unwrap();
    assert!(
        text.ends_with(b"\n"),
        "an interrupted run ends on a whole line"
    );
    jsonl_typed(std::str::from_utf8(&text).unwrap());
    // Tear the last line, as a copy cut short would.
    std::fs::write(dir.file("t.jsonl.partial"), &text[..text.len() - 40]).unwrap();
    let out = dir.run(&["solve", "-q", "big.txt", "-o", "t.jsonl", "--resume"]);
    assert_exit(&out, 0);
    let got = jsonl_typed(&std::fs::read_to_string(dir.file("t.jsonl")).unwrap());
    assert!(
        got.without("time_ns") == want.without("time_ns"),
        "the rows differ"
    );
}

#[cfg(unix)]
#[test]
fn an_interrupted_jsonl_verify_resumes_to_the_findings_of_an_uninterrupted_run() {
    crate::trust::verify_resumes_to_the_findings_of_an_uninterrupted_run("jsonl");
}

#[cfg(feature = "parquet")]
mod parquet_outputs {
    //! The same for Parquet, read back with the `parquet` crate.

    use std::path::Path;
    use std::sync::Arc;

    use arrow_array::cast::AsArray;
    use arrow_array::types::UInt64Type;
    use arrow_array::RecordBatch;
    use arrow_schema::{DataType, SchemaRef};
    use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
    use parquet::basic::{LogicalType, Type as PhysicalType};
    use parquet::file::metadata::ParquetMetaData;

    use super::*;

    /// A Parquet output read back whole.
    struct Parquet {
        schema: SchemaRef,
        meta: Arc<ParquetMetaData>,
        typed: Typed,
    }

    fn read_parquet(path: &Path) -> Parquet {
        let file = std::fs::File::open(path).unwrap();
        read_parquet_from(file)
    }

    fn read_parquet_from<R: parquet::file::reader::ChunkReader + 'static>(data: R) -> Parquet {
        let builder = ParquetRecordBatchReaderBuilder::try_new(data).expect("a Parquet file");
        let meta = builder.metadata().clone();
        let schema = builder.schema().clone();
        let batches: Vec<RecordBatch> = builder.build().unwrap().collect::<Result<_, _>>().unwrap();
        let mut rows = Vec::new();
        for batch in &batches {
            for i in 0..batch.num_rows() {
                let row = batch
                    .columns()
                    .iter()
                    .map(|column| {
                        if column.is_null(i) {
                            return Cell::Null;
                        }
                        match column.data_type() {
                            DataType::Utf8 => Cell::Text(column.as_string::<i32>().value(i).into()),
                            DataType::UInt64 => {
                                Cell::Count(column.as_primitive::<UInt64Type>().value(i))
                            }
                            other => panic!("unexpected column type {other}"),
                        }
                    })
                    .collect();
                rows.push(row);
            }
        }
        let columns = schema.fields().iter().map(|f| f.name().clone()).collect();
        Parquet {
            schema,
            meta,
            typed: Typed { columns, rows },
        }
    }

    /// The schema is the one the issue asks for: strings, unsigned 64-bit counts,
    /// nullable solution/error/detail only, also in Parquet's own logical types; every
    /// column chunk zstd-compressed.
    #[track_caller]
    fn check_schema(p: &Parquet) {
        check_schema_codec(p, "zstd");
    }

    /// [`check_schema`] for a file whose every column chunk is compressed by `codec`
    /// (as `--compression` names it).
    #[track_caller]
    fn check_schema_codec(p: &Parquet, codec: &str) {
        for field in p.schema.fields() {
            let name = field.name().as_str();
            let (ty, nullable) = if COUNTS.contains(&name) {
                (DataType::UInt64, false)
            } else {
                (DataType::Utf8, NULLABLE.contains(&name))
            };
            assert_eq!(field.data_type(), &ty, "{name}");
            assert_eq!(field.is_nullable(), nullable, "{name}");
        }
        let descr = p.meta.file_metadata().schema_descr();
        for column in descr.columns() {
            let name = column.name();
            if COUNTS.contains(&name) {
                assert_eq!(column.physical_type(), PhysicalType::INT64, "{name}");
                assert_eq!(
                    column.logical_type_ref(),
                    Some(&LogicalType::integer(64, false)),
                    "{name}"
                );
            } else {
                assert_eq!(column.physical_type(), PhysicalType::BYTE_ARRAY, "{name}");
                assert_eq!(
                    column.logical_type_ref(),
                    Some(&LogicalType::String),
                    "{name}"
                );
            }
        }
        for group in p.meta.row_groups() {
            for chunk in group.columns() {
                let found = crate::util::codec_name(chunk.compression());
                assert_eq!(
                    found,
                    codec,
                    "{}: {:?}",
                    chunk.column_path(),
                    chunk.compression()
                );
            }
        }
    }

    /// Every codec's file reads back to the rows of the CSV run, for `solve` and for
    /// `verify`'s findings; the compressed ones are smaller than the uncompressed one.
    #[test]
    fn every_codec_reads_back_to_the_csv_rows() {
        let dir = Workdir::new();
        mixed_input(&dir);
        let solve = ["solve", "-j", "2", "keep.csv", "--keep", "id"];
        let csv = csv_typed(&run_to(&dir, &solve, "out.csv", 0)).without("time_ns");
        let verify = ["verify", "--all", "mix.txt"];
        let findings = csv_typed(&run_to(&dir, &verify, "f.csv", 1));
        let mut sizes = Vec::new();
        for codec in ["zstd", "lz4", "snappy", "none"] {
            let mut args = solve.to_vec();
            args.extend(["--compression", codec]);
            run_to(&dir, &args, "c.parquet", 0);
            let p = read_parquet(&dir.file("c.parquet"));
            check_schema_codec(&p, codec);
            assert_eq!(p.typed.without("time_ns"), csv, "{codec}");
            sizes.push(std::fs::metadata(dir.file("c.parquet")).unwrap().len());

            let mut args = verify.to_vec();
            args.extend(["--compression", codec]);
            run_to(&dir, &args, "f.parquet", 1);
            let p = read_parquet(&dir.file("f.parquet"));
            check_schema_codec(&p, codec);
            assert_eq!(p.typed, findings, "{codec}");
        }
        let none = sizes[3];
        assert!(sizes[..3].iter().all(|&s| s < none), "{sizes:?}");
    }

    /// Parquet to standard output takes a codec too.
    #[test]
    fn a_codec_applies_to_parquet_on_standard_output() {
        let dir = Workdir::new();
        mixed_input(&dir);
        let out = dir.run(&[
            "solve",
            "-q",
            "other.txt",
            "--output-format",
            "parquet",
            "--compression",
            "snappy",
        ]);
        assert_exit(&out, 0);
        let p = read_parquet_from(bytes::Bytes::from(out.stdout));
        check_schema_codec(&p, "snappy");
        assert_eq!(p.typed.rows.len(), 30);
    }

    #[test]
    fn parquet_rows_are_the_csv_rows_typed_in_every_mode() {
        let dir = Workdir::new();
        mixed_input(&dir);
        for args in solve_modes() {
            let csv = csv_typed(&run_to(&dir, &args, "out.csv", 0));
            run_to(&dir, &args, "out.parquet", 0);
            let p = read_parquet(&dir.file("out.parquet"));
            check_schema(&p);
            assert_eq!(p.typed.columns, csv.columns, "{args:?}");
            check_times(&p.typed);
            // Nulls where there is nothing: no solution without one, no error
            // without an invalid record.
            let (status, solution, error) = (
                p.typed.col("status"),
                p.typed.col("solution"),
                p.typed.col("error"),
            );
            for row in &p.typed.rows {
                let Cell::Text(s) = &row[status] else {
                    panic!("a status")
                };
                let solved = matches!(s.as_str(), "unique" | "multiple" | "solved");
                assert_eq!(row[solution] != Cell::Null, solved, "{row:?}");
                assert_eq!(row[error] != Cell::Null, s == "invalid", "{row:?}");
            }
            if args.contains(&"--keep") {
                // The kept digits stay text, leading zeros and all.
                assert_eq!(p.typed.column("id")[0], &Cell::Text("000000".into()));
            }
            if args.contains(&"--rules") || args.contains(&"variants.csv") {
                let n = SOLVE_COLUMN_COUNT;
                assert_eq!(p.typed.columns[n..], ["rules", "regions"], "{args:?}");
            }
            assert_eq!(
                p.typed.without("time_ns"),
                csv.without("time_ns"),
                "{args:?}"
            );
        }
    }

    #[test]
    fn parquet_row_groups_are_bounded_and_in_input_order() {
        let dir = Workdir::new();
        let puzzles = generated();
        dir.create("g.txt", puzzles.join("\n") + "\n");
        let args = ["solve", "-j", "2", "g.txt", "--row-group-rows", "128"];
        run_to(&dir, &args, "g.parquet", 0);
        let p = read_parquet(&dir.file("g.parquet"));
        let sizes: Vec<i64> = p.meta.row_groups().iter().map(|g| g.num_rows()).collect();
        let mut want = vec![128; puzzles.len() / 128];
        want.push((puzzles.len() % 128) as i64);
        assert_eq!(sizes, want);
        let lines: Vec<&Cell> = p.typed.column("line");
        let want_lines: Vec<Cell> = (1..=puzzles.len() as u64).map(Cell::Count).collect();
        assert_eq!(lines, want_lines.iter().collect::<Vec<_>>());
        let got: Vec<&Cell> = p.typed.column("puzzle");
        let want: Vec<Cell> = puzzles.iter().map(|p| Cell::Text(p.clone())).collect();
        assert_eq!(got, want.iter().collect::<Vec<_>>());
        // The default: one row group for a small run.
        run_to(&dir, &["solve", "g.txt"], "one.parquet", 0);
        assert_eq!(
            read_parquet(&dir.file("one.parquet")).meta.num_row_groups(),
            1
        );
    }

    /// Low-cardinality columns keep min and max per column chunk, so that a reader
    /// skips the row groups a filter rules out: in a clean row group `status` is
    /// `unique` from min to max, and only the row group holding the unsolvable puzzle
    /// reaches past it. The (nearly) all-different columns keep none.
    #[test]
    fn parquet_statistics_let_readers_skip_clean_row_groups() {
        let dir = Workdir::new();
        let mut puzzles: Vec<String> = generated().into_iter().take(300).collect();
        puzzles[200] = unsolvable();
        dir.create("g.txt", puzzles.join("\n") + "\n");
        let args = ["solve", "g.txt", "--row-group-rows", "128"];
        run_to(&dir, &args, "g.parquet", 0);
        let p = read_parquet(&dir.file("g.parquet"));
        let descr = p.meta.file_metadata().schema_descr();
        let index = |name: &str| {
            (0..descr.num_columns())
                .find(|&i| descr.column(i).name() == name)
                .unwrap_or_else(|| panic!("no column {name}"))
        };
        let status = index("status");
        let mut bounds = Vec::new();
        for group in p.meta.row_groups() {
            let stats = group
                .column(status)
                .statistics()
                .expect("status statistics");
            let text = |b: Option<&[u8]>| String::from_utf8(b.expect("a bound").to_vec()).unwrap();
            bounds.push((text(stats.min_bytes_opt()), text(stats.max_bytes_opt())));
            for name in ["puzzle", "solution"] {
                assert!(group.column(index(name)).statistics().is_none(), "{name}");
            }
            for name in ["clues", "guesses"] {
                assert!(group.column(index(name)).statistics().is_some(), "{name}");
            }
        }
        let unique = ("unique".to_string(), "unique".to_string());
        let mixed = ("unique".to_string(), "unsolvable".to_string());
        assert_eq!(bounds, [unique.clone(), mixed, unique]);
    }

    /// Row groups larger than the batches the writer is handed (16,384 rows), and not a
    /// multiple of them: batches are cut at the row groups' ends, and rows keep their
    /// order across the cuts.
    #[test]
    fn parquet_row_groups_cut_batches_at_any_size() {
        let dir = Workdir::new();
        let puzzles = generated();
        let rows = 45_000;
        let lines: Vec<&str> = puzzles
            .iter()
            .map(String::as_str)
            .cycle()
            .take(rows)
            .collect();
        dir.create("many.txt", lines.join("\n") + "\n");
        let args = ["solve", "-j", "2", "many.txt", "--row-group-rows", "20000"];
        run_to(&dir, &args, "many.parquet", 0);
        let p = read_parquet(&dir.file("many.parquet"));
        let sizes: Vec<i64> = p.meta.row_groups().iter().map(|g| g.num_rows()).collect();
        assert_eq!(sizes, [20_000, 20_000, 5_000]);
        let got: Vec<&Cell> = p.typed.column("line");
        let want: Vec<Cell> = (1..=rows as u64).map(Cell::Count).collect();
        assert_eq!(got, want.iter().collect::<Vec<_>>());
        let got: Vec<&Cell> = p.typed.column("puzzle");
        let want: Vec<Cell> = lines.iter().map(|l| Cell::Text(l.to_string())).collect();
        assert_eq!(got, want.iter().collect::<Vec<_>>());
    }

    #[test]
    fn verify_findings_in_parquet_are_the_csv_findings_typed() {
        let dir = Workdir::new();
        mixed_input(&dir);
        for args in [
            vec!["verify", "--all", "mix.txt"],
            vec!["verify", "mix.txt", "other.txt", "mix.txt"],
        ] {
            let csv = csv_typed(&run_to(&dir, &args, "f.csv", 1));
            run_to(&dir, &args, "f.parquet", 1);
            let p = read_parquet(&dir.file("f.parquet"));
            check_schema(&p);
            assert_eq!(p.typed, csv, "{args:?}");
        }
    }

    #[test]
    fn parquet_to_standard_output_is_a_whole_file() {
        let dir = Workdir::new();
        mixed_input(&dir);
        let out = dir.run(&["solve", "-q", "other.txt", "--output-format", "parquet"]);
        assert_exit(&out, 0);
        let p = read_parquet_from(bytes::Bytes::from(out.stdout));
        check_schema(&p);
        assert_eq!(p.typed.rows.len(), 30);
    }

    #[test]
    fn report_reads_parquet_runs_and_mixes_them_with_csv_ones() {
        let dir = Workdir::new();
        mixed_input(&dir);
        let args = [
            "solve",
            "--all-solutions",
            "--limit",
            "3",
            "mix.txt",
            "other.txt",
        ];
        run_to(&dir, &args, "run.parquet", 0);
        // The same rows as CSV, written from the Parquet file: one run, two formats.
        let p = read_parquet(&dir.file("run.parquet"));
        let mut csv = csv::Writer::from_writer(Vec::new());
        csv.write_record(&p.typed.columns).unwrap();
        for row in &p.typed.rows {
            csv.write_record(row.iter().map(|c| match c {
                Cell::Text(s) => s.clone(),
                Cell::Count(n) => n.to_string(),
                Cell::Null => String::new(),
            }))
            .unwrap();
        }
        dir.create("run.csv", csv.into_inner().unwrap());
        let report = |args: &[&str]| -> Value {
            let mut all = vec!["report", "--format", "json"];
            all.extend(args);
            let out = dir.run(&all);
            assert_exit(&out, 0);
            let mut json: Value = serde_json::from_str(&stdout(&out)).unwrap();
            json.as_object_mut().unwrap().remove("runs");
            json
        };
        let from_parquet = report(&["run.parquet"]);
        assert_eq!(from_parquet, report(&["run.csv"]));
        assert_eq!(from_parquet["puzzles"], 66 + 30);
        // Known by its first bytes, whatever its name; from standard input too.
        std::fs::copy(dir.file("run.parquet"), dir.file("run.data")).unwrap();
        assert_eq!(report(&["run.data"]), from_parquet);
        let out = dir
            .command(&["report", "--format", "json", "-"])
            .stdin(std::fs::File::open(dir.file("run.parquet")).unwrap())
            .output()
            .unwrap();
        assert_exit(&out, 0);
        assert_eq!(
            serde_json::from_str::<Value>(&stdout(&out)).unwrap()["puzzles"],
            from_parquet["puzzles"]
        );
        // --baseline mixes the formats: the same times, puzzle by puzzle.
        for (run, base) in [("run.csv", "run.parquet"), ("run.parquet", "run.csv")] {
            let json = report(&[run, "--baseline", base]);
            let baseline = &json["baseline"];
            assert_eq!(baseline["paired"], from_parquet["timed"], "{baseline}");
            assert_eq!(baseline["overall_ratio"], 1.0, "{baseline}");
        }

        // A Parquet file that is not a run, and one without its footer, are errors
        // that say so.
        run_to(&dir, &["verify", "mix.txt"], "f.parquet", 1);
        let out = dir.run(&["report", "f.parquet"]);
        assert_exit(&out, 2);
        assert!(stderr(&out).contains("missing columns"), "{}", stderr(&out));
        let bytes = std::fs::read(dir.file("run.parquet")).unwrap();
        dir.create("torn.parquet", &bytes[..bytes.len() / 2]);
        let out = dir.run(&["report", "torn.parquet"]);
        assert_exit(&out, 2);
        assert!(
            stderr(&out).contains("not a readable Parquet file"),
            "{}",
            stderr(&out)
        );
    }

    // ---- interrupts ------------------------------------------------------------------

    /// Rows of a run over `big_input`: row k is the input's puzzle k on line k + 1.
    #[track_caller]
    fn check_prefix_of_input(p: &Parquet) {
        let puzzles = generated();
        let (line, puzzle) = (p.typed.col("line"), p.typed.col("puzzle"));
        for (k, row) in p.typed.rows.iter().enumerate() {
            assert_eq!(row[line], Cell::Count(k as u64 + 1));
            assert_eq!(row[puzzle], Cell::Text(puzzles[k % puzzles.len()].clone()));
        }
    }

    /// `solve -o r.parquet` stopped by SIGINT, SIGTERM or SIGKILL: the final name keeps
    /// yesterday's file; a stopped run's `.partial` is a readable file of whole row
    /// groups, a killed run's has no footer; `--resume` then finishes the run, equal to
    /// an uninterrupted run apart from `time_ns`, and leaves nothing beside it.
    #[cfg(unix)]
    #[test]
    fn an_interrupted_parquet_solve_keeps_its_rows_aside_and_resumes() {
        let dir = Workdir::new();
        big_input(&dir, "big.txt", 300);
        let base = [
            "solve",
            "-q",
            "-j",
            "1",
            "big.txt",
            "--row-group-rows",
            "5000",
            "-o",
        ];
        let whole = [&base[..], &["whole.parquet"]].concat();
        assert_exit(&dir.run(&whole), 0);
        let want = read_parquet(&dir.file("whole.parquet"))
            .typed
            .without("time_ns");
        let args = [&base[..], &["r.parquet"]].concat();
        for (how, code) in [("INT", Some(130)), ("TERM", Some(143)), ("KILL", None)] {
            dir.create("r.parquet", "yesterday's results\n");
            let child = spawn(&dir, &args, None);
            // The first row groups are out.
            wait_for_bytes(&dir.file("r.parquet"), 100_000);
            signal(&child, how);
            let (got, err, _) = finish(child);
            assert_eq!(got, code, "{how}: {err}");
            assert_eq!(
                std::fs::read_to_string(dir.file("r.parquet")).unwrap(),
                "yesterday's results\n",
                "{how}: the final name was touched"
            );
            assert!(dir.file("r.parquet.resume").exists(), "{how}");
            let partial = std::fs::File::open(dir.file("r.parquet.partial")).unwrap();
            if how == "KILL" {
                // No footer yet: no reader opens it; the run record can mend it.
                assert!(ParquetRecordBatchReaderBuilder::try_new(partial).is_err());
            } else {
                assert!(err.contains("--resume"), "{err}");
                let p = read_parquet(&dir.file("r.parquet.partial"));
                check_schema(&p);
                let rows = p.typed.rows.len();
                assert!((5000..300_000).contains(&rows), "{how}: {rows} rows");
                assert!(p.meta.row_groups().iter().all(|g| g.num_rows() <= 5000));
                check_prefix_of_input(&p);
            }
            let resumed = [&args[..], &["--resume"]].concat();
            let out = dir.run(&resumed);
            assert_exit(&out, 0);
            let p = read_parquet(&dir.file("r.parquet"));
            check_schema(&p);
            assert!(p.meta.row_groups().iter().all(|g| g.num_rows() <= 5000));
            let got = p.typed.without("time_ns");
            assert_eq!(got.rows.len(), want.rows.len(), "{how}");
            assert!(got.rows == want.rows, "{how}: the resumed rows differ");
            for left in [
                "r.parquet.partial",
                "r.parquet.resume",
                "r.parquet.partial.old",
            ] {
                assert!(!dir.file(left).exists(), "{how}: {left} is left");
            }
        }
        // verify still writes Parquet afresh only: it refuses to resume one.
        let out = dir.run(&["verify", "big.txt", "-o", "r.parquet", "--resume"]);
        assert_exit(&out, 2);
    }

    #[cfg(unix)]
    #[test]
    fn sigint_during_parquet_verify_leaves_a_readable_file() {
        let dir = Workdir::new();
        big_input(&dir, "big.txt", 300);
        let child = spawn(
            &dir,
            &[
                "verify",
                "-q",
                "-j",
                "1",
                "--all",
                "big.txt",
                "-o",
                "v.parquet",
                "--row-group-rows",
                "5000",
            ],
            None,
        );
        wait_for_bytes(&dir.file("v.parquet"), 100_000);
        signal(&child, "INT");
        let (code, err, _) = finish(child);
        assert_eq!(code, Some(130), "{err}");
        assert!(
            !dir.file("v.parquet").exists(),
            "an interrupted run's rows stay aside"
        );
        let p = read_parquet(&dir.file("v.parquet.partial"));
        check_schema(&p);
        let rows = p.typed.rows.len();
        assert!((5000..300_000).contains(&rows), "{rows} rows");
        assert!(p.meta.row_groups().iter().all(|g| g.num_rows() <= 5000));
        check_prefix_of_input(&p);
        assert!(!dir.file("v.parquet.resume").exists());
    }
}

/// `--compression` is for Parquet: asked of any other output it is refused, before
/// anything is written, naming the format the run writes.
#[test]
fn a_codec_for_an_output_that_is_not_parquet_is_refused() {
    let dir = Workdir::new();
    mixed_input(&dir);
    for (args, format) in [
        (vec!["solve", "other.txt", "-o", "x.csv"], "CSV"),
        (vec!["solve", "other.txt", "-o", "x.jsonl"], "JSON Lines"),
        (vec!["solve", "other.txt"], "CSV"),
        (
            vec!["solve", "other.txt", "--output-format", "grid"],
            "grids",
        ),
        (vec!["verify", "other.txt", "-o", "x.csv"], "CSV"),
        (
            vec!["verify", "other.txt", "--output-format", "jsonl"],
            "JSON Lines",
        ),
        (vec!["rate", "other.txt", "-o", "x.csv"], "CSV"),
        (vec!["rate", "other.txt", "-o", "x.jsonl"], "JSON Lines"),
    ] {
        let mut all = args.clone();
        all.extend(["--compression", "lz4"]);
        let out = dir.run(&all);
        assert_exit(&out, 2);
        let err = stderr(&out);
        assert!(
            err.contains("--compression lz4 applies to Parquet output only")
                && err.contains(&format!("this run writes {format};")),
            "{args:?}: {err}"
        );
        assert!(out.stdout.is_empty(), "{args:?}");
        assert!(!dir.file("x.csv").exists() && !dir.file("x.jsonl").exists());
    }
}
