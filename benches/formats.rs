//! What Parquet (with each codec) and JSON Lines output cost against CSV, end to end:
//! `solve` over about a million puzzles (20 copies of `puzzles2_17_clue`, in a temporary
//! file), the rows into `io::sink()` (as to /dev/null), on all threads, through the
//! library as the CLI runs it.
//!
//! The runs alternate round by round (CSV, Parquet zstd, lz4, snappy, uncompressed,
//! JSON Lines, then the other way round), and the ratios are taken within each round:
//! on a shared machine the load changes from one run to the next, and a ratio of
//! figures measured minutes apart would mix two loads. The medians are printed, with
//! the target (Parquet with lz4 ≤ 1.10 × CSV), and the file sizes of CSV, CSV
//! compressed with zstd at level 3 (as `zstd -3`) and each Parquet codec.
//!
//! Then each writer alone (`writers only`): the same rows, solved once beforehand, fed
//! to each format's sink as fast as it takes them, with no solving beside it. A row
//! rate there is the most solving threads the writer can keep pace with: the rate over
//! the engine's rate per thread.
//!
//! Every run is timed twice: by the wall clock, and by the process's CPU time (all its
//! threads, the Parquet writer's included). With every core solving, the two ratios
//! agree; on a shared machine, where another process takes a core now and then, the
//! CPU ratio is the steadier one.
//!
//! Last, the floor under Parquet's cost (`zstd alone`): the `puzzle` and `solution`
//! columns of the same rows, cut into pages of the writer's size, compressed with zstd
//! at the writer's level and at the fastest levels, on one thread, by CPU time, and set
//! against the CSV run's CPU time. Whatever else the writer does, it cannot cost less
//! than this; when it alone exceeds a tenth of the CSV run, the ≤ 1.10 target is out of
//! reach for zstd-compressed Parquet on those puzzles.
//!
//! Data: `puzzles2_17_clue` (or `BULKDOKU_BENCH_FILE=NAME`, another file of the shared
//! sets) from `../shared/data` beside the crate, or `$BULKDOKU_SHARED_DATA`; without it
//! the bench says so and does nothing. `BULKDOKU_BENCH_COPIES=N` (default 20) and
//! `BULKDOKU_BENCH_ROUNDS=N` (default 7).

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use bulkdoku::dataset::Driver;
use bulkdoku::input::InputOptions;
use bulkdoku::output::{self, parquet, Kept, OutputFormat, ParquetCompression, ParquetOptions};
use bulkdoku::row::{SolvedRow, Status};
use bulkdoku::solving::{solve_dataset, SolveConfig};
use bulkdoku::{Grid, Solver};

/// The dataset, unless `BULKDOKU_BENCH_FILE` names another.
const FILE: &str = "puzzles2_17_clue";
/// The outputs compared: CSV first (the yardstick), Parquet with each codec, JSON Lines.
const FORMATS: [Out; 6] = [
    Out(OutputFormat::Csv, ParquetCompression::Zstd),
    Out(OutputFormat::Parquet, ParquetCompression::Zstd),
    Out(OutputFormat::Parquet, ParquetCompression::Lz4),
    Out(OutputFormat::Parquet, ParquetCompression::Snappy),
    Out(OutputFormat::Parquet, ParquetCompression::None),
    Out(OutputFormat::Jsonl, ParquetCompression::Zstd),
];

/// An output format, with the codec when it is Parquet.
#[derive(Clone, Copy, PartialEq)]
struct Out(OutputFormat, ParquetCompression);

impl std::fmt::Display for Out {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self.0 {
            OutputFormat::Parquet => write!(f, "Parquet-{}", self.1.as_str()),
            format => write!(f, "{format:?}"),
        }
    }
}

impl Out {
    /// A sink of this output over `out`.
    fn sink(self, out: impl Write + Send + 'static) -> Box<dyn output::SolveSink> {
        let parquet = ParquetOptions::default().compression(self.1);
        output::solve_sink_with(self.0, output::buffered(Box::new(out)), &[], true, parquet)
            .expect("a sink")
    }
}

fn data_file(name: &str) -> Option<PathBuf> {
    let beside = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/data")).join(name);
    if beside.is_file() {
        return Some(beside);
    }
    let from_env = PathBuf::from(std::env::var_os("BULKDOKU_SHARED_DATA")?).join(name);
    from_env.is_file().then_some(from_env)
}

/// CPU time of this process so far (all threads), in seconds, where the system tells it.
#[cfg(unix)]
fn process_cpu_seconds() -> Option<f64> {
    cpu_clock(libc::CLOCK_PROCESS_CPUTIME_ID)
}

/// CPU time of this thread so far, in seconds, where the system tells it.
#[cfg(unix)]
fn thread_cpu_seconds() -> Option<f64> {
    cpu_clock(libc::CLOCK_THREAD_CPUTIME_ID)
}

#[cfg(unix)]
fn cpu_clock(clock: libc::clockid_t) -> Option<f64> {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec for the duration of the call, and
    // clock_gettime writes nothing else.
    let status = unsafe { libc::clock_gettime(clock, &mut ts) };
    (status == 0).then_some(ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9)
}

#[cfg(not(unix))]
fn process_cpu_seconds() -> Option<f64> {
    None
}

#[cfg(not(unix))]
fn thread_cpu_seconds() -> Option<f64> {
    None
}

fn env_number(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// `bulkdoku solve INPUT --output-format FORMAT [--compression CODEC]` into `out`; the
/// records solved.
fn solve(input: &Path, format: Out, out: impl Write + Send + 'static) -> u64 {
    let driver = Driver::new(vec![Some(input.to_path_buf())], InputOptions::new());
    let mut sink = format.sink(out);
    let report = solve_dataset(driver, &SolveConfig::default(), &mut *sink).expect("solve runs");
    report.summary.records
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

fn main() {
    let name = std::env::var("BULKDOKU_BENCH_FILE").unwrap_or_else(|_| FILE.to_string());
    let Some(source) = data_file(&name) else {
        eprintln!("formats bench: {name} not found (set BULKDOKU_SHARED_DATA); skipped");
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
        let path = dir.path().join(format!("out.{format}"));
        records = solve(&input, format, File::create(&path).expect("an output file"));
        sizes.push((format.to_string(), std::fs::metadata(&path).unwrap().len()));
        if format.0 == OutputFormat::Csv {
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

    // Times: rounds of one run per format, the order reversed every other round; each
    // run by the wall clock and by the process's CPU time.
    let mut secs = vec![Vec::new(); FORMATS.len()];
    let mut cpu = vec![Vec::new(); FORMATS.len()];
    for round in 0..rounds {
        let mut order: Vec<usize> = (0..FORMATS.len()).collect();
        if round % 2 == 1 {
            order.reverse();
        }
        for i in order {
            let (start, cpu_start) = (Instant::now(), process_cpu_seconds());
            solve(&input, FORMATS[i], std::io::sink());
            secs[i].push(start.elapsed().as_secs_f64());
            if let (Some(a), Some(b)) = (cpu_start, process_cpu_seconds()) {
                cpu[i].push(b - a);
            }
        }
    }
    let ratio = |i: usize| median((0..rounds).map(|r| secs[i][r] / secs[0][r]).collect());
    let cpu_ratio = |i: usize| {
        (cpu[i].len() == rounds)
            .then(|| median((0..rounds).map(|r| cpu[i][r] / cpu[0][r]).collect()))
    };

    println!("\nformats bench: {records} puzzles ({copies} × {name}), {rounds} alternating rounds, rows into io::sink");
    for (i, format) in FORMATS.iter().enumerate() {
        println!(
            "  {:<15} median {:>7.3} s  (runs: {})",
            format.to_string(),
            median(secs[i].clone()),
            secs[i]
                .iter()
                .map(|s| format!("{s:.2}"))
                .collect::<Vec<_>>()
                .join(" ")
        );
    }
    if cpu[0].len() == rounds {
        let medians: Vec<String> = FORMATS
            .iter()
            .zip(&cpu)
            .map(|(format, cpu)| format!("{format} {:.3} s", median(cpu.clone())))
            .collect();
        println!("  CPU time (all threads, medians): {}", medians.join(", "));
    }
    let by_cpu = |i: usize| cpu_ratio(i).map_or(String::new(), |r| format!(", by CPU time {r:.3}"));
    println!("  ÷ CSV, medians of per-round ratios (target for Parquet-lz4 ≤ 1.10):");
    for (i, format) in FORMATS.iter().enumerate().skip(1) {
        println!(
            "    {:<15} {:.3}{}",
            format.to_string(),
            ratio(i),
            by_cpu(i)
        );
    }
    println!("  sizes:");
    for (name, bytes) in &sizes {
        println!(
            "    {name:<15} {:>12} bytes  {:>7.1} MB",
            bytes,
            *bytes as f64 / 1e6
        );
    }

    let solved = solve_once(&text);
    writers_only(&solved, copies, rounds);
    let csv_cpu = (cpu[0].len() == rounds).then(|| median(cpu[0].clone()));
    zstd_alone(&solved, copies, rounds, csv_cpu);
}

/// Every puzzle of `text` with its first solution and the guesses it took.
fn solve_once(text: &[u8]) -> Vec<(Grid, Grid, u64)> {
    let mut solver = Solver::new();
    String::from_utf8_lossy(text)
        .lines()
        .filter_map(|l| Grid::parse_puzzle(l.trim_end().as_bytes()).ok())
        .filter_map(|g| {
            let outcome = solver.solve(&g, 2);
            Some((g, outcome.first?, outcome.guesses))
        })
        .collect()
}

/// The floor under Parquet's cost: the `puzzle` and `solution` columns of `copies` ×
/// the rows, as the writer's pages hold them (values back to back, pages of
/// [`parquet::DATA_PAGE_BYTES`]), compressed page by page with zstd on this thread;
/// CPU time (median of `rounds`) and size per level, against `csv_cpu`, the CSV run's
/// CPU time.
fn zstd_alone(solved: &[(Grid, Grid, u64)], copies: usize, rounds: usize, csv_cpu: Option<f64>) {
    let mut columns = [Vec::new(), Vec::new()];
    let mut line = [0u8; 81];
    for (puzzle, solution, _) in solved.iter().cycle().take(solved.len() * copies) {
        for (column, grid) in columns.iter_mut().zip([puzzle, solution]) {
            grid.write_line(&mut line);
            column.extend_from_slice(&line);
        }
    }
    let bytes: usize = columns.iter().map(Vec::len).sum();
    println!(
        "  zstd alone on the puzzle and solution columns ({:.1} MB, pages of {} KiB, one thread), median of {rounds}:",
        bytes as f64 / 1e6,
        parquet::DATA_PAGE_BYTES / 1024
    );
    let mut out = Vec::with_capacity(zstd::zstd_safe::compress_bound(parquet::DATA_PAGE_BYTES));
    for level in [parquet::ZSTD_LEVEL, -1, -7] {
        let mut compressor = zstd::bulk::Compressor::new(level).expect("a zstd level");
        let mut secs = Vec::new();
        let mut size = 0;
        for _ in 0..rounds {
            size = 0;
            let start = (Instant::now(), thread_cpu_seconds());
            for page in columns
                .iter()
                .flat_map(|c| c.chunks(parquet::DATA_PAGE_BYTES))
            {
                out.clear();
                compressor
                    .compress_to_buffer(page, &mut out)
                    .expect("room for a page");
                size += out.len();
            }
            secs.push(match (start.1, thread_cpu_seconds()) {
                (Some(a), Some(b)) => b - a,
                _ => start.0.elapsed().as_secs_f64(),
            });
        }
        let s = median(secs);
        let share = csv_cpu.map_or(String::new(), |c| {
            format!(", {:.1} % of the CSV run's CPU time", 100.0 * s / c)
        });
        println!(
            "    level {level:>2}: {s:.3} s ({:.0} MB/s), {:.1} MB ({:.2}×){share}",
            bytes as f64 / s / 1e6,
            size as f64 / 1e6,
            bytes as f64 / size as f64
        );
    }
}

/// Every row of `copies` × the file (`solved`), written by each format's sink into
/// `io::sink()` alone, `rounds` times; the median rates.
fn writers_only(solved: &[(Grid, Grid, u64)], copies: usize, rounds: usize) {
    let rows = solved.len() * copies;
    println!("  writers only ({rows} rows, no solving), median of {rounds}:");
    for format in FORMATS {
        let mut secs = Vec::new();
        for _ in 0..rounds {
            let start = Instant::now();
            let mut sink = format.sink(std::io::sink());
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
            "    {:<15} {:>7.3} s  {:>6.2}M rows/s",
            format.to_string(),
            s,
            rows as f64 / s / 1e6
        );
    }
}
