//! Guesses and speed of the variant engine on a file of puzzles of one rule set: the
//! figures the inference work is judged by (fewer guesses, not only cheaper nodes).
//!
//! ```text
//! cargo run --release --example variant_stats -- RULES FILE [auto|generic] [MAX]
//! ```
//!
//! Lines are `PUZZLE [REGIONS]` (`#` lines skipped), as `bulkdoku generate` writes them;
//! every puzzle is solved with limit 2 and must have one solution. Prints the median,
//! mean and largest guesses per puzzle, and puzzles per second of one thread.

use std::time::Instant;

use bulkdoku::rules::{EngineChoice, Regions, RuleSet, Variant, VariantSolver};
use bulkdoku::Grid;

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: variant_stats RULES FILE [auto|generic] [MAX]";
    let rules: RuleSet = args
        .first()
        .ok_or_else(|| anyhow::anyhow!(usage))?
        .parse()?;
    let path = args.get(1).ok_or_else(|| anyhow::anyhow!(usage))?;
    let choice = match args.get(2).map(String::as_str) {
        None | Some("auto") => EngineChoice::Auto,
        Some("generic") => EngineChoice::Generic,
        Some(other) => anyhow::bail!("unknown engine {other:?}: {usage}"),
    };
    let max: usize = args.get(3).map_or(Ok(usize::MAX), |m| m.parse())?;
    let text = std::fs::read_to_string(path)?;
    let mut puzzles = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim_end();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut fields = line.split_whitespace();
        let grid = Grid::parse(fields.next().unwrap_or("").as_bytes())
            .map_err(|e| anyhow::anyhow!("line {}: {e}", i + 1))?;
        let regions = match fields.next() {
            Some(r) => Some(
                Regions::parse(r.as_bytes()).map_err(|e| anyhow::anyhow!("line {}: {e}", i + 1))?,
            ),
            None => None,
        };
        let v = Variant::new(rules, regions.as_ref())?;
        v.check_givens(&grid)
            .map_err(|e| anyhow::anyhow!("line {}: {e}", i + 1))?;
        puzzles.push((v, grid));
        if puzzles.len() >= max {
            break;
        }
    }
    let mut solver = VariantSolver::with_engine(choice);
    let mut guesses = Vec::with_capacity(puzzles.len());
    let start = Instant::now();
    for (v, g) in &puzzles {
        let out = solver.solve(v, g, 2);
        anyhow::ensure!(out.solutions == 1, "{g}: {} solutions", out.solutions);
        guesses.push(out.guesses);
    }
    let secs = start.elapsed().as_secs_f64();
    let n = puzzles.len();
    let total: u64 = guesses.iter().sum();
    guesses.sort_unstable();
    println!(
        "{rules}: {n} puzzles, guesses median {} mean {:.1} max {}, {:.0} puzzles/s",
        guesses[n / 2],
        total as f64 / n as f64,
        guesses[n - 1],
        n as f64 / secs
    );
    Ok(())
}
