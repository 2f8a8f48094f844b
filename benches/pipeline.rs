//! End to end against the engine alone, on the same puzzles: how much the pipeline
//! (read → parse → solve → CSV into `io::sink`) costs on top of solving, with one and
//! two threads.
//!
//! Data: `puzzles2_17_clue` from the shared data directory (`../shared/data` beside the
//! crate, or `$BULKDOKU_SHARED_DATA`), 20 copies of it in a temporary file: about a
//! million puzzles, the size the target is set for. On the file alone (49,158 puzzles, a
//! run of 35 ms at two threads) the costs a run has once (the pool, the first batches
//! read before any is solved, the last one solved while the other thread has nothing
//! left) would count as the pipeline's cost per puzzle. Without the file the bench says
//! so and does nothing. `BULKDOKU_BENCH_COPIES=N` sets the copies (default 20),
//! `BULKDOKU_BENCH_PUZZLES=N` uses only the first N puzzles of the file.

use std::hint::black_box;
use std::path::PathBuf;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use rayon::prelude::*;

use bulkdoku::dataset::Driver;
use bulkdoku::input::InputOptions;
use bulkdoku::output::{self, OutputFormat};
use bulkdoku::solving::{solve_dataset, SolveConfig};
use bulkdoku::{Grid, Solver};

const FILE: &str = "puzzles2_17_clue";

fn data_file() -> Option<PathBuf> {
    let beside = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/data")).join(FILE);
    if beside.is_file() {
        return Some(beside);
    }
    let from_env = PathBuf::from(std::env::var_os("BULKDOKU_SHARED_DATA")?).join(FILE);
    from_env.is_file().then_some(from_env)
}

/// The bench's input file (copies of the shared file, or of its first N puzzles, in a
/// temporary file that lives as long as the returned path) and its puzzles parsed for
/// the engine-only runs.
fn load() -> Option<(tempfile::TempPath, Vec<Grid>)> {
    let path = data_file()?;
    let text = std::fs::read_to_string(&path).ok()?;
    let env = |name: &str| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse::<usize>().ok())
    };
    let limit = env("BULKDOKU_BENCH_PUZZLES").unwrap_or(usize::MAX);
    let copies = env("BULKDOKU_BENCH_COPIES").unwrap_or(20).max(1);
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim_end)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .take(limit)
        .collect();
    let once: Vec<Grid> = lines
        .iter()
        .filter_map(|l| Grid::parse_puzzle(&l.as_bytes()[..l.len().min(81)]).ok())
        .collect();
    let grids = once.repeat(copies);
    let mut tmp = std::io::BufWriter::new(tempfile::NamedTempFile::new().ok()?);
    use std::io::Write;
    for _ in 0..copies {
        for l in &lines {
            writeln!(tmp, "{l}").ok()?;
        }
    }
    let tmp = tmp.into_inner().ok()?.into_temp_path();
    Some((tmp, grids))
}

/// What `bulkdoku solve -q -j THREADS FILE` does, through the library: uniqueness,
/// timing, CSV rows into `io::sink`.
fn solve_file(path: &std::path::Path, threads: usize) {
    let driver =
        Driver::new(vec![Some(path.to_path_buf())], InputOptions::new()).threads(Some(threads));
    let mut sink =
        output::solve_sink(OutputFormat::Csv, std::io::sink(), &[], true).expect("a sink");
    black_box(solve_dataset(driver, &SolveConfig::default(), &mut *sink).expect("solve runs"));
}

fn pipeline(c: &mut Criterion) {
    let Some((path, grids)) = load() else {
        eprintln!("pipeline bench: {FILE} not found (set BULKDOKU_SHARED_DATA); skipped");
        return;
    };
    let mut group = c.benchmark_group(FILE);
    group.sample_size(10);
    group.throughput(Throughput::Elements(grids.len() as u64));

    group.bench_function("engine/1", |b| {
        let mut solver = Solver::new();
        b.iter(|| {
            grids
                .iter()
                .map(|g| solver.solve(g, 2).solutions)
                .sum::<u64>()
        })
    });
    let two = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    group.bench_function("engine/2", |b| {
        b.iter(|| {
            two.install(|| {
                grids
                    .par_iter()
                    .map_init(Solver::new, |solver, g| solver.solve(g, 2).solutions)
                    .sum::<u64>()
            })
        })
    });
    for threads in [1, 2] {
        group.bench_function(format!("pipeline/{threads}"), |b| {
            b.iter(|| solve_file(&path, threads))
        });
    }
    group.finish();
}

/// The four runs above again, interleaved round by round, with the ratios taken within
/// each round. On a shared machine the load changes from second to second; criterion
/// measures each function in its own window, so ratios of its figures mix two
/// different loads. Here the four runs of a round are a second apart, and the medians
/// of the per-round ratios are what the targets compare. `BULKDOKU_BENCH_ROUNDS=N`
/// sets the number of rounds (default 15).
fn interleaved(_: &mut Criterion) {
    let Some((path, grids)) = load() else {
        return;
    };
    let rounds: usize = std::env::var("BULKDOKU_BENCH_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(15);
    let two = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let rate = |run: &dyn Fn()| {
        let start = std::time::Instant::now();
        run();
        grids.len() as f64 / start.elapsed().as_secs_f64()
    };
    let engine_1 = || {
        let mut solver = Solver::new();
        black_box(
            grids
                .iter()
                .map(|g| solver.solve(g, 2).solutions)
                .sum::<u64>(),
        );
    };
    let engine_2 = || {
        two.install(|| {
            black_box(
                grids
                    .par_iter()
                    .map_init(Solver::new, |solver, g| solver.solve(g, 2).solutions)
                    .sum::<u64>(),
            )
        });
    };
    let pipeline_1 = || solve_file(&path, 1);
    let pipeline_2 = || solve_file(&path, 2);
    let runs: [&dyn Fn(); 4] = [&engine_1, &engine_2, &pipeline_1, &pipeline_2];
    // rates[run][round]
    let mut rates = vec![Vec::new(); 4];
    for round in 0..rounds {
        // Rotate the order, so that no run always follows the same one.
        for i in 0..4 {
            let which = (round + i) % 4;
            rates[which].push(rate(runs[which]));
        }
    }
    let median = |mut v: Vec<f64>| {
        v.sort_by(|a, b| a.total_cmp(b));
        v[v.len() / 2]
    };
    let ratio =
        |a: usize, b: usize| median((0..rounds).map(|r| rates[a][r] / rates[b][r]).collect());
    println!(
        "\n{FILE} ({} puzzles): {rounds} interleaved rounds, medians (puzzles/s)",
        grids.len()
    );
    for (name, i) in [
        ("engine/1", 0),
        ("engine/2", 1),
        ("pipeline/1", 2),
        ("pipeline/2", 3),
    ] {
        println!("  {name:<12} {:>9.1}K", median(rates[i].clone()) / 1e3);
    }
    println!(
        "  pipeline/1 ÷ engine/1   {:.3}  (target ≥ 0.9)",
        ratio(2, 0)
    );
    println!(
        "  pipeline/2 ÷ pipeline/1 {:.3}  (target ≥ 1.8)",
        ratio(3, 2)
    );
    println!(
        "  engine/2 ÷ engine/1     {:.3}  (the machine's own scaling)",
        ratio(1, 0)
    );
    println!("  pipeline/2 ÷ engine/2   {:.3}", ratio(3, 1));
}

criterion_group!(benches, pipeline, interleaved);
criterion_main!(benches);
