//! Engine benches: puzzles per second on each shared dataset at limit 1 (find one
//! solution) and limit 2 (count to two, keeping the first), single thread, and solutions
//! per second counted from the empty grid.
//!
//! Datasets come from `$BULKDOKU_SHARED_DATA`, else `../shared/data` beside the
//! repository; absent ones are skipped with a note. Ratios against the `sudoku` crate are
//! measured by the separate crate in `benches/peer/` (kept apart for licence reasons).
//!
//! Keep runs short on a shared machine, e.g.
//! `cargo bench --bench solver -- --warm-up-time 1 --measurement-time 3`.

use std::hint::black_box;
use std::path::PathBuf;
use std::time::Duration;

use bulkdoku::{Grid, Solver};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

const DATASETS: [&str; 3] = [
    "puzzles2_17_clue",
    "puzzles5_forum_hardest_1905_11+",
    "puzzles7_serg_benchmark",
];

/// Solutions counted from the empty grid per iteration.
const ENUMERATED: u64 = 100_000;

fn data_dir() -> PathBuf {
    std::env::var_os("BULKDOKU_SHARED_DATA").map_or_else(
        || PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/data")),
        PathBuf::from,
    )
}

/// The puzzles of one dataset, or `None` if the file is absent. Comment and blank lines
/// are skipped, CR trimmed, the first 81 characters of a line are the puzzle.
fn load(name: &str) -> Option<Vec<Grid>> {
    let path = data_dir().join(name);
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return None,
        Err(e) => panic!("{}: {e}", path.display()),
    };
    let puzzles = text
        .lines()
        .enumerate()
        .map(|(i, line)| (i, line.trim_end_matches('\r')))
        .filter(|(_, line)| !line.is_empty() && !line.starts_with('#'))
        .map(|(i, line)| {
            let cells = line.get(..81).unwrap_or(line);
            Grid::parse_puzzle(cells.as_bytes())
                .unwrap_or_else(|e| panic!("{}:{}: {e}", path.display(), i + 1))
        })
        .collect();
    Some(puzzles)
}

/// Short name for bench ids: `puzzles2_17_clue` → `17_clue`.
fn label(name: &str) -> &str {
    name.strip_prefix("puzzles")
        .and_then(|rest| rest.split_once('_'))
        .map_or(name, |(_, tail)| tail)
}

fn datasets(c: &mut Criterion) {
    for name in DATASETS {
        let Some(puzzles) = load(name) else {
            eprintln!(
                "solver bench: skipping {name}: not in {}",
                data_dir().display()
            );
            continue;
        };
        let mut group = c.benchmark_group(label(name));
        group.throughput(Throughput::Elements(puzzles.len() as u64));
        group.sample_size(10);
        group.warm_up_time(Duration::from_secs(1));
        group.measurement_time(Duration::from_secs(5));
        let mut solver = Solver::new();
        for limit in [1, 2] {
            group.bench_function(format!("limit {limit}"), |b| {
                b.iter(|| {
                    let mut found = 0;
                    for grid in &puzzles {
                        let outcome = solver.solve(black_box(grid), limit);
                        found += outcome.solutions;
                        black_box(&outcome.first);
                    }
                    found
                })
            });
        }
        group.finish();
    }
}

fn enumeration(c: &mut Criterion) {
    let mut group = c.benchmark_group("empty grid");
    group.throughput(Throughput::Elements(ENUMERATED));
    group.sample_size(10);
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(3));
    let mut solver = Solver::new();
    group.bench_function(format!("count {ENUMERATED}"), |b| {
        b.iter(|| solver.count(black_box(&Grid::EMPTY), ENUMERATED).solutions)
    });
    group.finish();
}

criterion_group!(benches, datasets, enumeration);
criterion_main!(benches);
