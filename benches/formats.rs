//! What Parquet and JSON Lines output cost against CSV, end to end: `solve` over about
//! a million puzzles (20 copies of `puzzles2_17_clue`, in a temporary file), the rows
//! into `io::sink()` (as to /dev/null), on all threads, through the library as the CLI
//! runs it.
//!
//! The runs alternate round by round (CSV, Parquet, JSON Lines, then the other way
//! round), and the ratios are taken within each round: on a shared machine the load
//! changes from one run to the next, and a ratio of figures measured minutes apart
//! would mix two loads. The medians are printed, with the target (Parquet ≤ 1.10 ×
//! CSV), and the file sizes of CSV, CSV compressed with zstd at level 3 (as `zstd -3`)
//! and Parquet.
//!
//! Then each writer alone (`writers only`): the same rows, solved once beforehand, fed
//! to each format's sink as fast as it takes them, with no solving beside it. A row
//! rate there is the most solving threads the writer can keep pace with: the rate over
//! the engine's rate per thread.
//!
//! Data: `puzzles2_17_clue` from `../shared/data` beside the crate, or
//! `$BULKDOKU_SHARED_DATA`; without it the bench says so and does nothing.
//! `BULKDOKU_BENCH_COPIES=N` (default 20) and `BULKDOKU_BENCH_ROUNDS=N` (default 7).

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use bulkdoku::dataset::Driver;
use bulkdoku::input::InputOptions;
use bulkdoku::output::{self, Kept, OutputFormat};
use bulkdoku::row::{SolvedRow, Status};
use bulkdoku::solving::{solve_dataset, SolveConfig};
use bulkdoku::{Grid, Solver};

const FILE: &str = "puzzles2_17_clue";
const FORMATS: [OutputFormat; 3] = [
    OutputFormat::Csv,
    OutputFormat::Parquet,
    OutputFormat::Jsonl,
];

fn data_file() -> Option<PathBuf> {
    let beside = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/data")).join(FILE);
    if beside.is_file() {
        return Some(beside);
    }
    let from_env = PathBuf::from(std::env::var_os("BULKDOKU_SHARED_DATA")?).join(FILE);
    from_env.is_file().then_some(from_env)
}

fn env_number(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// `bulkdoku solve INPUT --output-format FORMAT` into `out`; the records solved.
fn solve(input: &Path, format: OutputFormat, out: impl Write + Send + 'static) -> u64 {
    let driver = Driver::new(vec![Some(input.to_path_buf())], InputOptions::new());
    let mut sink =
        output::solve_sink(format, output::buffered(Box::new(out)), &[], true).expect("a sink");
    let report = solve_dataset(driver, &SolveConfig::default(), &mut *sink).expect("solve runs");
    report.summary.records
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

fn main() {
    let Some(source) = data_file() else {
        eprintln!("formats bench: {FILE} not found (set BULKDOKU_SHARED_DATA); skipped");
        return;
    };
    let copies = env_number("BULKDOKU_BENCH_COPIES", 20);
    let rounds = env_number("BULKDOKU_BENCH_ROUNDS", 7).max(1);
    let dir = tempfile::tempdir().expect("a temporary directory");
    let input = dir.path().join("input.txt");
    let text = std::fs::read(&source).expect("the shared data");
    {
        let mut f = BufWriter::new(File::create(&input).expect("the input file"));
        for _ in 0..copies {
            f.write_all(&text).expect("the input file");
        }
    }

    // Sizes: each format once into a file.
    let mut sizes = Vec::new();
    let mut records = 0;
    for format in FORMATS {
        let path = dir.path().join(format!("out.{format:?}"));
        records = solve(&input, format, File::create(&path).expect("an output file"));
        sizes.push((
            format!("{format:?}"),
            std::fs::metadata(&path).unwrap().len(),
        ));
        if format == OutputFormat::Csv {
            let zst = dir.path().join("out.csv.zst");
            zstd::stream::copy_encode(File::open(&path).unwrap(), File::create(&zst).unwrap(), 3)
                .expect("zstd");
            sizes.push((
                "Csv.zst (-3)".into(),
                std::fs::metadata(&zst).unwrap().len(),
            ));
        }
        std::fs::remove_file(&path).unwrap();
    }

    // Times: rounds of one run per format, the order reversed every other round.
    let mut secs = vec![Vec::new(); FORMATS.len()];
    for round in 0..rounds {
        let mut order: Vec<usize> = (0..FORMATS.len()).collect();
        if round % 2 == 1 {
            order.reverse();
        }
        for i in order {
            let start = Instant::now();
            solve(&input, FORMATS[i], std::io::sink());
            secs[i].push(start.elapsed().as_secs_f64());
        }
    }
    let ratio = |i: usize| median((0..rounds).map(|r| secs[i][r] / secs[0][r]).collect());

    println!("\nformats bench: {records} puzzles ({copies} × {FILE}), {rounds} alternating rounds, rows into io::sink");
    for (i, format) in FORMATS.iter().enumerate() {
        println!(
            "  {:<8} median {:>7.3} s  (runs: {})",
            format!("{format:?}"),
            median(secs[i].clone()),
            secs[i]
                .iter()
                .map(|s| format!("{s:.2}"))
                .collect::<Vec<_>>()
                .join(" ")
        );
    }
    println!(
        "  Parquet ÷ CSV  {:.3}  (median of per-round ratios; target ≤ 1.10)",
        ratio(1)
    );
    println!("  JSONL ÷ CSV    {:.3}", ratio(2));
    println!("  sizes:");
    for (name, bytes) in &sizes {
        println!(
            "    {name:<13} {:>12} bytes  {:>7.1} MB",
            bytes,
            *bytes as f64 / 1e6
        );
    }

    writers_only(&text, copies, rounds);
}

/// Every row of `copies` × the file, solved once, written by each format's sink into
/// `io::sink()` alone, `rounds` times; the median rates.
fn writers_only(text: &[u8], copies: usize, rounds: usize) {
    let mut solver = Solver::new();
    let solved: Vec<(Grid, Grid, u64)> = String::from_utf8_lossy(text)
        .lines()
        .filter_map(|l| Grid::parse_puzzle(l.trim_end().as_bytes()).ok())
        .filter_map(|g| {
            let outcome = solver.solve(&g, 2);
            Some((g, outcome.first?, outcome.guesses))
        })
        .collect();
    let rows = solved.len() * copies;
    println!("  writers only ({rows} rows, no solving), median of {rounds}:");
    for format in FORMATS {
        let mut secs = Vec::new();
        for _ in 0..rounds {
            let start = Instant::now();
            let mut sink = output::solve_sink(
                format,
                output::buffered(Box::new(std::io::sink())),
                &[],
                true,
            )
            .expect("a sink");
            for (line, (puzzle, solution, guesses)) in solved.iter().cycle().take(rows).enumerate()
            {
                let row = SolvedRow {
                    file: "input.txt",
                    line: line as u64 + 1,
                    puzzle,
                    status: Status::Unique,
                    solutions: 1,
                    guesses: *guesses,
                    time_ns: 1000 + line as u64 % 5000,
                    solution: Some(solution),
                };
                sink.write_solved(&row, Kept::new(&[], &[]))
                    .expect("a row written");
            }
            sink.finish().expect("the sink finished");
            secs.push(start.elapsed().as_secs_f64());
        }
        let s = median(secs);
        println!(
            "    {:<8} {:>7.3} s  {:>6.2}M rows/s",
            format!("{format:?}"),
            s,
            rows as f64 / s / 1e6
        );
    }
}
