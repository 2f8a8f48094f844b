//! Criterion view of the peer comparison: one group per dataset × mode with bulkdoku
//! and the `sudoku` crate side by side (throughput in puzzles), and one group for
//! enumeration from the empty grid (throughput in solutions). Datasets that are absent
//! are skipped with a note on stderr.
//!
//! Keep runs short on a shared machine, e.g.
//! `cargo bench --bench compare -- --warm-up-time 1 --measurement-time 3`.

use std::time::Duration;

use bulkdoku::Solver;
use bulkdoku_peer_bench::{
    data_dir, enumerate_ours, enumerate_peer, load, run_ours, run_peer, Mode, DATASETS,
};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

/// Solutions counted from the empty grid per iteration.
const ENUMERATED: u64 = 100_000;

fn datasets(c: &mut Criterion) {
    for name in DATASETS {
        let data = match load(name) {
            Ok(Some(d)) => d,
            Ok(None) => {
                eprintln!(
                    "compare bench: skipping {name}: not in {}",
                    data_dir().display()
                );
                continue;
            }
            Err(e) => panic!("{e}"),
        };
        for mode in Mode::ALL {
            let mut group = c.benchmark_group(format!("{}/{}", data.label(), mode.label()));
            group.throughput(Throughput::Elements(data.ours.len() as u64));
            group.sample_size(10);
            group.warm_up_time(Duration::from_secs(1));
            group.measurement_time(Duration::from_secs(5));
            let mut solver = Solver::new();
            group.bench_function("bulkdoku", |b| {
                b.iter(|| run_ours(&mut solver, &data.ours, mode))
            });
            group.bench_function("sudoku", |b| b.iter(|| run_peer(&data.peer, mode)));
            group.finish();
        }
    }
}

fn enumeration(c: &mut Criterion) {
    let mut group = c.benchmark_group("empty grid/count");
    group.throughput(Throughput::Elements(ENUMERATED));
    group.sample_size(10);
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(3));
    let mut solver = Solver::new();
    group.bench_function("bulkdoku", |b| {
        b.iter(|| enumerate_ours(&mut solver, ENUMERATED))
    });
    group.bench_function("sudoku", |b| b.iter(|| enumerate_peer(ENUMERATED)));
    group.finish();
}

criterion_group!(benches, datasets, enumeration);
criterion_main!(benches);
