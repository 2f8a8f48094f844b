//! The analysis: a run's rows in, every figure a report shows out, with no formatting.
//!
//! Percentiles are exact nearest-rank values (the value at rank ⌈p/100 · n⌉ of the
//! sorted times): a run holds one `u64` per puzzle, so sorting them all is cheap and
//! the figures can be checked by hand.

use std::collections::BTreeMap;

use serde::Serialize;

use super::compare::Comparison;
use super::run::{RunRow, Status};
use crate::stats::nearest_rank;

/// Everything a timing report says about a run.
#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    /// The run files read.
    pub runs: Vec<String>,
    /// Rows (puzzles) in the run, every status included.
    pub puzzles: u64,
    /// Rows per status.
    pub by_status: ByStatus,
    /// Puzzles that were searched and timed (every status but `invalid`).
    pub timed: u64,
    /// Sum of the timed puzzles' solve times.
    pub total_time_ns: u64,
    /// Timed puzzles per second of summed solve time (one thread's throughput).
    pub puzzles_per_sec: f64,
    /// Per-puzzle solve time.
    pub time_ns: TimeStats,
    /// Puzzles with at least one solution (`unique`, `multiple`, `solved`).
    pub solved: u64,
    /// Solved puzzles that needed no guess.
    pub solved_without_guessing: u64,
    /// `solved_without_guessing` as a percentage of `solved` (null without solved puzzles).
    pub no_guess_pct: Option<f64>,
    /// Mean guesses per timed puzzle.
    pub guesses_per_puzzle: f64,
    /// Log-scale latency histogram: buckets with 1-2-5 bounds, from the one holding the
    /// fastest puzzle to the one holding the slowest.
    pub histogram: Vec<Bucket>,
    /// Time and guesses per clue count, fewest clues first.
    pub by_clues: Vec<ClueRow>,
    /// The slowest puzzles, slowest first (ties in input order).
    pub slowest: Vec<SlowPuzzle>,
    /// The comparison with a baseline run, when one was given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub baseline: Option<Comparison>,
    /// The timed puzzles' solve times, sorted (for plots; not serialised).
    #[serde(skip)]
    pub sorted_ns: Vec<u64>,
}

/// Rows per status.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct ByStatus {
    /// `unique`.
    pub unique: u64,
    /// `multiple`.
    pub multiple: u64,
    /// `solved` (`--first` runs).
    pub solved: u64,
    /// `unsolvable`.
    pub unsolvable: u64,
    /// `invalid`.
    pub invalid: u64,
}

impl ByStatus {
    /// The count of one status.
    pub fn get(&self, status: Status) -> u64 {
        match status {
            Status::Unique => self.unique,
            Status::Multiple => self.multiple,
            Status::Solved => self.solved,
            Status::Unsolvable => self.unsolvable,
            Status::Invalid => self.invalid,
        }
    }

    fn add(&mut self, status: Status) {
        *match status {
            Status::Unique => &mut self.unique,
            Status::Multiple => &mut self.multiple,
            Status::Solved => &mut self.solved,
            Status::Unsolvable => &mut self.unsolvable,
            Status::Invalid => &mut self.invalid,
        } += 1;
    }
}

/// Per-puzzle time distribution, nanoseconds (all 0 when nothing was timed).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct TimeStats {
    /// Fastest.
    pub min: u64,
    /// Mean.
    pub mean: f64,
    /// Median (nearest rank).
    pub p50: u64,
    /// 90th percentile.
    pub p90: u64,
    /// 99th percentile.
    pub p99: u64,
    /// 99.9th percentile.
    pub p999: u64,
    /// Slowest.
    pub max: u64,
}

impl TimeStats {
    /// The distribution of already sorted times.
    pub fn of_sorted(sorted: &[u64]) -> TimeStats {
        if sorted.is_empty() {
            return TimeStats::default();
        }
        let rank = |p| nearest_rank(sorted, p).unwrap_or(0);
        let sum: u128 = sorted.iter().map(|&t| t as u128).sum();
        TimeStats {
            min: sorted[0],
            mean: sum as f64 / sorted.len() as f64,
            p50: rank(50.0),
            p90: rank(90.0),
            p99: rank(99.0),
            p999: rank(99.9),
            max: sorted[sorted.len() - 1],
        }
    }
}

/// One histogram bucket: times in `low_ns..high_ns`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Bucket {
    /// Inclusive lower bound.
    pub low_ns: u64,
    /// Exclusive upper bound.
    pub high_ns: u64,
    /// Puzzles in the bucket.
    pub count: u64,
}

/// Time and guesses of the puzzles with one clue count.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct ClueRow {
    /// Givens.
    pub clues: u32,
    /// Timed puzzles with that many givens.
    pub puzzles: u64,
    /// Their mean solve time.
    pub mean_time_ns: f64,
    /// Their median solve time (nearest rank).
    pub p50_time_ns: u64,
    /// Their slowest solve time.
    pub max_time_ns: u64,
    /// Their mean guesses.
    pub guesses_per_puzzle: f64,
    /// Share of their solved puzzles that needed no guess (null without solved ones).
    pub no_guess_pct: Option<f64>,
}

/// One of the slowest puzzles.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SlowPuzzle {
    /// Its dataset file (empty when the run has no `file` column).
    pub file: String,
    /// Its line in the dataset.
    pub line: u64,
    /// The puzzle (empty when the run has no `puzzle` column).
    pub puzzle: String,
    /// Its solve time.
    pub time_ns: u64,
    /// Its guesses.
    pub guesses: u64,
    /// Its verdict.
    pub status: &'static str,
}

impl Summary {
    /// Analyse `rows` (from the run files named in `runs`), keeping the `top` slowest.
    pub fn new(runs: Vec<String>, rows: &[RunRow], top: usize) -> Summary {
        let mut by_status = ByStatus::default();
        let mut sorted_ns = Vec::with_capacity(rows.len());
        let (mut guesses, mut solved, mut no_guess) = (0u64, 0u64, 0u64);
        let mut clue_groups: BTreeMap<u32, ClueAcc> = BTreeMap::new();
        for row in rows {
            by_status.add(row.status);
            let Some(t) = row.timed() else { continue };
            sorted_ns.push(t);
            let g = row.guesses.unwrap_or(0);
            guesses += g;
            let solved_free = row.status.has_solution().then_some(g == 0);
            if let Some(free) = solved_free {
                solved += 1;
                no_guess += free as u64;
            }
            if let Some(clues) = row.clues {
                let acc = clue_groups.entry(clues).or_default();
                acc.times.push(t);
                acc.guesses += g;
                if let Some(free) = solved_free {
                    acc.solved += 1;
                    acc.no_guess += free as u64;
                }
            }
        }
        sorted_ns.sort_unstable();
        let timed = sorted_ns.len() as u64;
        let total_time_ns: u64 = sorted_ns.iter().sum();
        let by_clues = clue_groups
            .into_iter()
            .map(|(clues, mut acc)| {
                acc.times.sort_unstable();
                let stats = TimeStats::of_sorted(&acc.times);
                ClueRow {
                    clues,
                    puzzles: acc.times.len() as u64,
                    mean_time_ns: stats.mean,
                    p50_time_ns: stats.p50,
                    max_time_ns: stats.max,
                    guesses_per_puzzle: acc.guesses as f64 / acc.times.len() as f64,
                    no_guess_pct: pct(acc.no_guess, acc.solved),
                }
            })
            .collect();
        Summary {
            runs,
            puzzles: rows.len() as u64,
            by_status,
            timed,
            total_time_ns,
            puzzles_per_sec: if total_time_ns == 0 {
                0.0
            } else {
                timed as f64 * 1e9 / total_time_ns as f64
            },
            time_ns: TimeStats::of_sorted(&sorted_ns),
            solved,
            solved_without_guessing: no_guess,
            no_guess_pct: pct(no_guess, solved),
            guesses_per_puzzle: if timed == 0 {
                0.0
            } else {
                guesses as f64 / timed as f64
            },
            histogram: histogram(&sorted_ns),
            by_clues,
            slowest: slowest(rows, top),
            baseline: None,
            sorted_ns,
        }
    }
}

#[derive(Default)]
struct ClueAcc {
    times: Vec<u64>,
    guesses: u64,
    solved: u64,
    no_guess: u64,
}

fn pct(part: u64, whole: u64) -> Option<f64> {
    (whole > 0).then(|| 100.0 * part as f64 / whole as f64)
}

/// The `top` slowest timed rows, slowest first; equal times keep input order.
fn slowest(rows: &[RunRow], top: usize) -> Vec<SlowPuzzle> {
    let mut timed: Vec<(u64, &RunRow)> = rows
        .iter()
        .filter_map(|r| r.timed().map(|t| (t, r)))
        .collect();
    // Stable sort: ties stay in input order.
    timed.sort_by_key(|&(t, _)| std::cmp::Reverse(t));
    timed
        .into_iter()
        .take(top)
        .map(|(time_ns, r)| SlowPuzzle {
            file: r.file.clone(),
            line: r.line,
            puzzle: r.puzzle.clone(),
            time_ns,
            guesses: r.guesses.unwrap_or(0),
            status: r.status.as_str(),
        })
        .collect()
}

/// The `i`-th bound of the 1-2-5 series: 1, 2, 5, 10, 20, 50, ... nanoseconds.
pub fn bound_125(i: u32) -> u64 {
    let mantissa = [1, 2, 5][(i % 3) as usize];
    mantissa * 10u64.saturating_pow(i / 3)
}

/// Index of the largest 1-2-5 bound not above `v` (0 for `v` ≤ 1).
fn bound_index(v: u64) -> u32 {
    let mut i = 0;
    while i < 57 && bound_125(i + 1) <= v {
        i += 1;
    }
    i
}

/// Count sorted times into 1-2-5 buckets from the fastest's bucket to the slowest's.
/// Log-spaced buckets suit solve times, which spread over several decades; the 1-2-5
/// bounds keep the labels round.
pub fn histogram(sorted: &[u64]) -> Vec<Bucket> {
    let (Some(&lo), Some(&hi)) = (sorted.first(), sorted.last()) else {
        return Vec::new();
    };
    let (first, last) = (bound_index(lo), bound_index(hi));
    let mut rest = sorted;
    (first..=last)
        .map(|i| {
            let high_ns = bound_125(i + 1);
            let n = rest.partition_point(|&t| t < high_ns);
            rest = &rest[n..];
            Bucket {
                // The first bucket also holds a 0 ns time, whose bound would be 0.
                low_ns: if i == first {
                    bound_125(i).min(lo)
                } else {
                    bound_125(i)
                },
                high_ns,
                count: n as u64,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(line: u64, status: Status, clues: u32, guesses: u64, t: u64) -> RunRow {
        RunRow {
            file: "d.txt".into(),
            line,
            puzzle: format!("p{line}"),
            status,
            clues: Some(clues),
            guesses: Some(guesses),
            time_ns: Some(t),
        }
    }

    #[test]
    fn bounds_follow_1_2_5() {
        let b: Vec<u64> = (0..7).map(bound_125).collect();
        assert_eq!(b, [1, 2, 5, 10, 20, 50, 100]);
        assert_eq!(bound_index(0), 0);
        assert_eq!(bound_index(1), 0);
        assert_eq!(bound_index(4), 1);
        assert_eq!(bound_index(5), 2);
        assert_eq!(bound_index(1_999), 9);
        assert_eq!(bound_index(2_000), 10);
    }

    #[test]
    fn histogram_buckets_cover_every_time() {
        // 3 ns → [2,5); 7 and 9 → [5,10); 10 → [10,20); 60 → [50,100); [20,50) empty.
        let h = histogram(&[3, 7, 9, 10, 60]);
        let got: Vec<(u64, u64, u64)> = h.iter().map(|b| (b.low_ns, b.high_ns, b.count)).collect();
        assert_eq!(
            got,
            [
                (2, 5, 1),
                (5, 10, 2),
                (10, 20, 1),
                (20, 50, 0),
                (50, 100, 1)
            ]
        );
        assert_eq!(
            histogram(&[0, 0])[0],
            Bucket {
                low_ns: 0,
                high_ns: 2,
                count: 2
            }
        );
        assert!(histogram(&[]).is_empty());
    }

    #[test]
    fn summary_by_hand() {
        let rows = vec![
            row(1, Status::Unique, 30, 0, 400),
            row(2, Status::Unique, 25, 3, 1_000),
            row(3, Status::Multiple, 25, 1, 600),
            row(4, Status::Unsolvable, 30, 0, 200),
            RunRow {
                status: Status::Invalid,
                clues: None,
                guesses: None,
                time_ns: None,
                ..row(5, Status::Invalid, 0, 0, 0)
            },
        ];
        let s = Summary::new(vec!["r.csv".into()], &rows, 2);
        assert_eq!((s.puzzles, s.timed, s.total_time_ns), (5, 4, 2_200));
        assert_eq!(s.by_status.unique, 2);
        assert_eq!(s.by_status.invalid, 1);
        // sorted 200, 400, 600, 1000: p50 rank ⌈2⌉ = 400, p90 rank ⌈3.6⌉ = 1000.
        assert_eq!(
            (s.time_ns.p50, s.time_ns.p90, s.time_ns.max),
            (400, 1_000, 1_000)
        );
        assert_eq!(s.time_ns.mean, 550.0);
        // Solved: lines 1-3, one without guesses.
        assert_eq!((s.solved, s.solved_without_guessing), (3, 1));
        assert_eq!(s.by_clues.len(), 2);
        assert_eq!(s.by_clues[0].clues, 25);
        assert_eq!(s.by_clues[0].mean_time_ns, 800.0);
        assert_eq!(s.by_clues[1].no_guess_pct, Some(100.0));
        let slow: Vec<u64> = s.slowest.iter().map(|p| p.line).collect();
        assert_eq!(slow, [2, 3]);
    }
}
