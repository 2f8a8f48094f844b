//! The engine alone on a dataset's puzzles, parsed up front: the baseline that
//! `bulkdoku solve -j 1` is compared with (the `engine/1` side of `benches/pipeline.rs`,
//! as a plain program that `valgrind --tool=callgrind` can count instructions of).
//!
//! ```text
//! cargo run --release --example engine_only -- FILE [solve|parse]
//! ```
//!
//! `solve` (the default) solves every puzzle with limit 2 after loading them; `parse`
//! only loads them, so the difference of the two instruction counts is the engine's.

use std::path::PathBuf;
use std::time::Instant;

use bulkdoku::{Grid, Solver};

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args_os().skip(1);
    let path = PathBuf::from(
        args.next()
            .ok_or_else(|| anyhow::anyhow!("usage: engine_only FILE [solve|parse]"))?,
    );
    let solve = match args.next().as_deref().map(|a| a.to_string_lossy()) {
        None => true,
        Some(mode) if mode == "solve" => true,
        Some(mode) if mode == "parse" => false,
        Some(mode) => anyhow::bail!("unknown mode {mode:?}: expected solve or parse"),
    };
    // Parsed as the pipeline bench does: comment and blank lines skipped, the first 81
    // characters of a line are the puzzle.
    let text = std::fs::read_to_string(&path)?;
    let grids: Vec<Grid> = text
        .lines()
        .map(str::trim_end)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .filter_map(|l| Grid::parse_puzzle(&l.as_bytes()[..l.len().min(81)]).ok())
        .collect();
    if !solve {
        println!("{} puzzles parsed", grids.len());
        return Ok(());
    }
    let mut solver = Solver::new();
    let start = Instant::now();
    let solutions: u64 = grids.iter().map(|g| solver.solve(g, 2).solutions).sum();
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{} puzzles, {solutions} solutions in {secs:.3} s: {:.0} puzzles/s",
        grids.len(),
        grids.len() as f64 / secs
    );
    Ok(())
}
