//! End to end against the engine alone, on the same puzzles: how much the pipeline
//! (read → parse → solve → CSV into `io::sink`) costs on top of solving, with one and
//! two threads.
//!
//! Data: `puzzles2_17_clue` from the shared data directory (`../shared/data` beside the
//! crate, or `$BULKDOKU_SHARED_DATA`). Without it the bench says so and does nothing.
//! `BULKDOKU_BENCH_PUZZLES=N` uses only the first N puzzles (default: all).

use std::path::PathBuf;

use clap::Parser;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use rayon::prelude::*;

use bulkdoku::cli::{Cli, Command};
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

/// The bench's input file (the shared file, or its first N puzzles in a temp file) and
/// its puzzles parsed for the engine-only runs.
fn load() -> Option<(PathBuf, Vec<Grid>, Option<tempfile::TempPath>)> {
    let path = data_file()?;
    let text = std::fs::read_to_string(&path).ok()?;
    let limit = std::env::var("BULKDOKU_BENCH_PUZZLES")
        .ok()
        .and_then(|v| v.parse::<usize>().ok());
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim_end)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .take(limit.unwrap_or(usize::MAX))
        .collect();
    let grids: Vec<Grid> = lines
        .iter()
        .filter_map(|l| Grid::parse_puzzle(&l.as_bytes()[..l.len().min(81)]).ok())
        .collect();
    if limit.is_none() {
        return Some((path, grids, None));
    }
    let mut tmp = tempfile::NamedTempFile::new().ok()?;
    use std::io::Write;
    for l in &lines {
        writeln!(tmp, "{l}").ok()?;
    }
    let tmp = tmp.into_temp_path();
    Some((tmp.to_path_buf(), grids, Some(tmp)))
}

fn solve_args(path: &std::path::Path, threads: usize) -> bulkdoku::cmd::solve::Args {
    let cli = Cli::parse_from([
        "bulkdoku",
        "solve",
        "-q",
        "-j",
        &threads.to_string(),
        path.to_str().expect("utf-8 path"),
    ]);
    match cli.command {
        Command::Solve(args) => args,
        _ => unreachable!("parsed a solve command"),
    }
}

fn pipeline(c: &mut Criterion) {
    let Some((path, grids, _keep_alive)) = load() else {
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
        let args = solve_args(&path, threads);
        group.bench_function(format!("pipeline/{threads}"), |b| {
            b.iter(|| bulkdoku::cmd::solve::run_to(&args, std::io::sink()).expect("solve runs"))
        });
    }
    group.finish();
}

criterion_group!(benches, pipeline);
criterion_main!(benches);
