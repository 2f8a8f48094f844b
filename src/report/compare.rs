//! Two runs of one dataset, puzzle by puzzle: how much faster or slower is this run?
//!
//! Puzzles are paired by dataset file and line; when no pair matches that way (the runs
//! named their files differently) and each run read a single file, by line alone; else
//! by the puzzle text (the n-th copy of a puzzle pairs with the n-th copy). A pair whose
//! puzzle texts differ is not the same puzzle and is left unpaired.
//!
//! The speed ratio of a puzzle is baseline time / this time: above 1 this run is faster.

use std::collections::{HashMap, HashSet};

use serde::Serialize;

use super::run::RunRow;

/// What a comparison with a baseline found.
#[derive(Debug, Clone, Serialize)]
pub struct Comparison {
    /// The baseline run files.
    pub baseline: Vec<String>,
    /// How puzzles were paired: `file+line`, `line` or `puzzle`.
    pub paired_by: &'static str,
    /// Timed puzzles paired with a timed baseline puzzle.
    pub paired: u64,
    /// Timed puzzles of this run left without a partner.
    pub unpaired: u64,
    /// Summed baseline time of the paired puzzles.
    pub baseline_total_ns: u64,
    /// Summed time of the paired puzzles in this run.
    pub total_ns: u64,
    /// `baseline_total_ns / total_ns`: above 1 this run is faster overall.
    pub overall_ratio: f64,
    /// Distribution of the per-puzzle ratio (nearest-rank percentiles).
    pub ratio: RatioStats,
    /// The puzzles that slowed down most (smallest ratio first).
    pub most_slower: Vec<PairedPuzzle>,
}

/// Percentiles of the per-puzzle speed ratio (0 when nothing was paired).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct RatioStats {
    /// Smallest ratio (the puzzle that slowed down most).
    pub min: f64,
    /// 10th percentile.
    pub p10: f64,
    /// Median.
    pub p50: f64,
    /// 90th percentile.
    pub p90: f64,
    /// Largest ratio.
    pub max: f64,
}

/// One puzzle of both runs.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PairedPuzzle {
    /// Its dataset file in this run.
    pub file: String,
    /// Its line in this run.
    pub line: u64,
    /// The puzzle.
    pub puzzle: String,
    /// Baseline time.
    pub baseline_ns: u64,
    /// Time in this run.
    pub time_ns: u64,
    /// `baseline_ns / time_ns`.
    pub ratio: f64,
}

/// A time as a ratio operand: a 0 ns reading counts as 1 ns so no ratio is infinite.
fn ns(t: u64) -> f64 {
    t.max(1) as f64
}

impl Comparison {
    /// Compare `this` run with `base` (from `baseline_files`), keeping the `top` puzzles
    /// that slowed down most.
    pub fn new(
        this: &[RunRow],
        base: &[RunRow],
        baseline_files: Vec<String>,
        top: usize,
    ) -> Comparison {
        let (paired_by, pairs) = pair(this, base);
        let mut paired: Vec<PairedPuzzle> = pairs
            .into_iter()
            .map(|(a, b)| {
                let (t, bt) = (a.time_ns.unwrap_or(0), b.time_ns.unwrap_or(0));
                PairedPuzzle {
                    file: a.file.clone(),
                    line: a.line,
                    puzzle: a.puzzle.clone(),
                    baseline_ns: bt,
                    time_ns: t,
                    ratio: ns(bt) / ns(t),
                }
            })
            .collect();
        let timed = this.iter().filter(|r| r.timed().is_some()).count() as u64;
        let total_ns: u64 = paired.iter().map(|p| p.time_ns).sum();
        let baseline_total_ns: u64 = paired.iter().map(|p| p.baseline_ns).sum();
        // Stable: equal ratios keep input order.
        paired.sort_by(|a, b| a.ratio.total_cmp(&b.ratio));
        let ratios: Vec<f64> = paired.iter().map(|p| p.ratio).collect();
        let rank = |p: f64| nearest_rank_f64(&ratios, p);
        Comparison {
            baseline: baseline_files,
            paired_by,
            paired: paired.len() as u64,
            unpaired: timed - paired.len() as u64,
            baseline_total_ns,
            total_ns,
            overall_ratio: if paired.is_empty() {
                0.0
            } else {
                ns(baseline_total_ns) / ns(total_ns)
            },
            ratio: RatioStats {
                min: rank(0.0),
                p10: rank(10.0),
                p50: rank(50.0),
                p90: rank(90.0),
                max: rank(100.0),
            },
            most_slower: paired.into_iter().take(top).collect(),
        }
    }
}

/// Nearest-rank percentile of sorted ratios (0 when empty).
fn nearest_rank_f64(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil().max(1.0) as usize;
    sorted[rank.min(sorted.len()) - 1]
}

type Pairs<'a> = Vec<(&'a RunRow, &'a RunRow)>;

/// Pair the timed rows of `this` with timed rows of `base`, in `this` order.
fn pair<'a>(this: &'a [RunRow], base: &'a [RunRow]) -> (&'static str, Pairs<'a>) {
    let timed = |rows: &'a [RunRow]| rows.iter().filter(|r| r.timed().is_some());
    let same_puzzle =
        |a: &RunRow, b: &RunRow| a.puzzle.is_empty() || b.puzzle.is_empty() || a.puzzle == b.puzzle;

    let by_file_line: HashMap<(&str, u64), &RunRow> = timed(base)
        .map(|r| ((r.file.as_str(), r.line), r))
        .collect();
    let pairs: Pairs = timed(this)
        .filter_map(|a| {
            by_file_line
                .get(&(a.file.as_str(), a.line))
                .map(|&b| (a, b))
        })
        .filter(|(a, b)| same_puzzle(a, b))
        .collect();
    if !pairs.is_empty() {
        return ("file+line", pairs);
    }

    let files = |rows: &'a [RunRow]| rows.iter().map(|r| r.file.as_str()).collect::<HashSet<_>>();
    if files(this).len() <= 1 && files(base).len() <= 1 {
        let by_line: HashMap<u64, &RunRow> = timed(base).map(|r| (r.line, r)).collect();
        let pairs: Pairs = timed(this)
            .filter_map(|a| by_line.get(&a.line).map(|&b| (a, b)))
            .filter(|(a, b)| same_puzzle(a, b))
            .collect();
        if !pairs.is_empty() {
            return ("line", pairs);
        }
    }

    // By puzzle text: queues of the baseline's copies of each puzzle, in order.
    let mut copies: HashMap<&str, std::collections::VecDeque<&RunRow>> = HashMap::new();
    for r in timed(base).filter(|r| !r.puzzle.is_empty()) {
        copies.entry(r.puzzle.as_str()).or_default().push_back(r);
    }
    let pairs = timed(this)
        .filter_map(|a| {
            copies
                .get_mut(a.puzzle.as_str())
                .and_then(|q| q.pop_front())
                .map(|b| (a, b))
        })
        .collect();
    ("puzzle", pairs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::run::Status;

    fn row(file: &str, line: u64, puzzle: &str, t: u64) -> RunRow {
        RunRow {
            file: file.into(),
            line,
            puzzle: puzzle.into(),
            status: Status::Unique,
            clues: Some(30),
            guesses: Some(0),
            time_ns: Some(t),
        }
    }

    #[test]
    fn pairs_by_file_and_line() {
        let this = [row("a", 1, "x", 100), row("a", 2, "y", 400)];
        let base = [row("a", 2, "y", 200), row("a", 1, "x", 300)];
        let c = Comparison::new(&this, &base, vec![], 5);
        assert_eq!((c.paired_by, c.paired, c.unpaired), ("file+line", 2, 0));
        // (300 + 200) / (100 + 400) = 1.0; per puzzle 3.0 and 0.5.
        assert_eq!(c.overall_ratio, 1.0);
        assert_eq!((c.ratio.min, c.ratio.max), (0.5, 3.0));
        assert_eq!(c.most_slower[0].line, 2);
    }

    #[test]
    fn falls_back_to_line_then_puzzle() {
        let this = [row("/abs/a", 1, "x", 100)];
        let base = [row("a", 1, "x", 200)];
        assert_eq!(Comparison::new(&this, &base, vec![], 5).paired_by, "line");

        let this = [row("a", 1, "x", 100), row("b", 1, "y", 100)];
        let base = [row("c", 7, "y", 300), row("c", 9, "x", 200)];
        let c = Comparison::new(&this, &base, vec![], 5);
        assert_eq!((c.paired_by, c.paired), ("puzzle", 2));
        assert_eq!(c.overall_ratio, 2.5);
    }

    #[test]
    fn different_puzzles_on_one_line_are_not_paired() {
        let this = [row("a", 1, "x", 100)];
        let base = [row("a", 1, "z", 200)];
        let c = Comparison::new(&this, &base, vec![], 5);
        assert_eq!((c.paired, c.unpaired), (0, 1));
    }
}
