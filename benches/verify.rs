//! Verify benches: canonical-form throughput (the cost of `--isomorphs`) and fingerprint
//! throughput on the shared 17-clue dataset. Skipped, with a note, when the shared data
//! is absent.

use std::path::PathBuf;

use bulkdoku::canon::{fingerprint, Canonicalizer};
use bulkdoku::Grid;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

/// The shared data directory: `BULKDOKU_SHARED_DATA`, else `../shared/data` beside the
/// crate.
fn shared_data() -> PathBuf {
    std::env::var_os("BULKDOKU_SHARED_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/data").into())
}

/// The puzzles of a one-per-line dataset (comments and bad lines skipped).
fn load(name: &str) -> Option<Vec<Grid>> {
    let text = std::fs::read_to_string(shared_data().join(name)).ok()?;
    Some(
        text.lines()
            .filter(|l| !l.starts_with('#'))
            .filter_map(|l| Grid::parse(l.trim_end().get(..81)?.as_bytes()).ok())
            .collect(),
    )
}

fn canon(c: &mut Criterion) {
    let Some(puzzles) = load("puzzles2_17_clue") else {
        eprintln!("verify bench: shared data not found; set BULKDOKU_SHARED_DATA");
        return;
    };
    let mut group = c.benchmark_group("canon");
    group.sample_size(10);
    group.throughput(Throughput::Elements(puzzles.len() as u64));
    group.bench_function("canonical/puzzles2_17_clue", |b| {
        let mut canon = Canonicalizer::new();
        b.iter(|| {
            puzzles
                .iter()
                .map(|p| canon.canonical(p).cells()[80] as u64)
                .sum::<u64>()
        })
    });
    group.bench_function("fingerprint/puzzles2_17_clue", |b| {
        b.iter(|| puzzles.iter().fold(0u128, |acc, p| acc ^ fingerprint(p)))
    });
    group.finish();
}

criterion_group!(benches, canon);
criterion_main!(benches);
