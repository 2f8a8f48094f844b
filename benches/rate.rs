//! Rating bench: Sudoku Explainer ratings (`bulkdoku::rate`) of the project's own
//! generated puzzles (`data/generated_1000.txt`, mostly ER 1.2-4.0 with some chains up
//! to 8.x), one thread. Compare with serate's per-puzzle times on the same file.

use bulkdoku::rate::Rater;
use bulkdoku::Grid;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

fn puzzles() -> Vec<Grid> {
    let text = include_str!("../data/generated_1000.txt");
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| Grid::parse(l.trim_end().get(..81)?.as_bytes()).ok())
        .take(200)
        .collect()
}

fn rate(c: &mut Criterion) {
    let puzzles = puzzles();
    let mut group = c.benchmark_group("rate");
    group.sample_size(10);
    group.throughput(Throughput::Elements(puzzles.len() as u64));
    group.bench_function("generated_1000/first_200", |b| {
        let mut rater = Rater::new();
        b.iter(|| {
            let mut sum = 0u32;
            for p in &puzzles {
                if let Ok(r) = rater.rate(p, false) {
                    sum += u32::from(r.er);
                }
            }
            sum
        })
    });
    group.finish();
}

criterion_group!(benches, rate);
criterion_main!(benches);
