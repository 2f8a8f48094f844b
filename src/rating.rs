//! Rating datasets: one record ([`RateWorker::rate`]: decide its status with the
//! solver, as `solve` does, then rate a unique puzzle with [`crate::rate::Rater`]), and
//! whole datasets into a [`RateSink`] ([`rate_dataset`]: what `bulkdoku rate` runs).
//!
//! The rater only sees puzzles the solver found to have exactly one solution; every
//! other record keeps `solve`'s verdict (`multiple`, `unsolvable`, `invalid`) and gets
//! no rating. The rater works on classic Sudoku: a record under other rules (a CSV
//! `rules` or `regions` column) is solved under its rules, and its row says why it was
//! not rated.

use std::ops::ControlFlow;

use crate::clock::Clock;
use crate::dataset::{Driver, Summary};
use crate::grid::Grid;
use crate::input::Record;
use crate::output::{Kept, RateRow, RateSink};
use crate::rate::{Rater, Rating};
use crate::row::Status;
use crate::solving::{SolveOptions, Solved, Tally, Worker};
use crate::stop::StopFlag;

/// What came of one record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Rated {
    /// A valid puzzle: the solver's verdict and, for a unique one, the rating.
    Valid {
        /// The puzzle.
        puzzle: Grid,
        /// The solver's verdict (`unique`, `multiple` or `unsolvable`).
        status: Status,
        /// The rating of a unique puzzle; why there is none, otherwise (`Ok(None)` for
        /// a puzzle that is not unique: nothing to rate).
        rating: Result<Option<Rating>, String>,
        /// Time spent on the record (solving and rating), in [`Clock`] ticks.
        ticks: u64,
    },
    /// Not a puzzle; the reason.
    Invalid(String),
    /// Its search was given up on a stop request (see [`Solved::Cut`]): no row.
    Cut,
}

/// A worker's reusable state: the solver that decides the status, and the rater.
#[derive(Debug, Default)]
pub struct RateWorker {
    solver: Worker,
    rater: Rater,
}

impl RateWorker {
    /// A worker with empty buffers.
    pub fn new() -> RateWorker {
        RateWorker::default()
    }

    /// A worker whose solver gives up once `stop` is set ([`Rated::Cut`]; the rater
    /// itself, whose work on one puzzle is bounded, runs to its end).
    pub fn with_stop(stop: StopFlag) -> RateWorker {
        RateWorker {
            solver: Worker::with_stop(stop),
            rater: Rater::default(),
        }
    }

    /// Solve `record` (up to two solutions, under its rules), then rate it if it is a
    /// unique classic puzzle; the whole is timed with `clock`.
    pub fn rate(&mut self, record: &Record, clock: &Clock) -> Rated {
        let start = clock.ticks();
        let options = SolveOptions::default();
        let (puzzle, solutions, rules) = match self.solver.solve(record, &options, clock) {
            Solved::Invalid(reason) => return Rated::Invalid(reason),
            Solved::Cut => return Rated::Cut,
            Solved::Valid {
                puzzle,
                solutions,
                rules,
                ..
            } => (puzzle, solutions, rules),
        };
        let status = Status::from_count(solutions, false);
        let rating = if status != Status::Unique {
            Ok(None)
        } else if !rules.is_classic() {
            Err(format!(
                "not rated: the rater rates classic Sudoku, not {rules}"
            ))
        } else {
            // Any reason the engine gives (no technique applies, ...) is the row's error.
            self.rater
                .rate(&puzzle, false)
                .map(Some)
                .map_err(|e| format!("not rated: {e}"))
        };
        Rated::Valid {
            puzzle,
            status,
            rating,
            ticks: clock.ticks().saturating_sub(start),
        }
    }
}

/// What a run of [`rate_dataset`] did.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct RateReport {
    /// Records, time and threads.
    pub summary: Summary,
    /// Totals by status, and the time per valid record (solving and rating).
    pub tally: Tally,
    /// Records rated, by ER in tenths (index 72 = ER 7.2).
    pub by_er: Vec<u64>,
    /// Unique puzzles the rater could not rate.
    pub unrated: u64,
}

impl RateReport {
    /// Puzzles rated.
    pub fn rated(&self) -> u64 {
        self.by_er.iter().sum()
    }
}

/// Rate every record `driver` reads and write its row to `sink`, in input order,
/// with the CSV input columns `keep` after the fixed ones (the names the sink was made
/// with). The sink is finished at the end, also when an input fails: the rows of the
/// records before the failure are written, then the error is returned.
pub fn rate_dataset(
    driver: Driver,
    keep: &[String],
    sink: &mut dyn RateSink,
) -> anyhow::Result<RateReport> {
    let clock = Clock::start();
    let mut keep = crate::solving::Keep::new(keep);
    let mut tally = Tally::default();
    let mut by_er = vec![0u64; 256];
    let mut unrated = 0u64;
    let mut text = [0u8; crate::grid::CELLS];
    let stop = driver
        .stop()
        .cloned()
        .map_or_else(StopFlag::never, StopFlag::new);
    let summary = driver.run(
        || RateWorker::with_stop(stop.clone()),
        |worker, item| worker.rate(&item.record, &clock),
        |sources, items, results| {
            let rate = clock.rate();
            for (item, rated) in items.iter().zip(results) {
                let source = &sources[item.file];
                let record = &item.record;
                let positions = keep.positions(sources, item.file)?;
                let kept = Kept::new(&record.fields, positions);
                let raw;
                let row = match rated {
                    // A stop cut its search: the output ends with the record before.
                    Rated::Cut => return Ok(ControlFlow::Break(())),
                    Rated::Invalid(reason) => {
                        raw = String::from_utf8_lossy(&record.cells);
                        RateRow {
                            file: &source.name,
                            line: record.line,
                            puzzle: &raw,
                            status: Status::Invalid,
                            rating: None,
                            time_ns: 0,
                            error: reason,
                        }
                    }
                    Rated::Valid {
                        puzzle,
                        status,
                        rating,
                        ticks,
                    } => {
                        puzzle.write_line(&mut text);
                        let time_ns = rate.ns(*ticks);
                        tally.times.record(time_ns);
                        match rating {
                            Ok(Some(r)) => by_er[usize::from(r.er)] += 1,
                            Ok(None) => {}
                            Err(_) => unrated += 1,
                        }
                        RateRow {
                            file: &source.name,
                            line: record.line,
                            puzzle: std::str::from_utf8(&text).expect("a grid line is ASCII"),
                            status: *status,
                            rating: rating.as_ref().ok().and_then(Option::as_ref),
                            time_ns,
                            error: rating.as_ref().err().map_or("", String::as_str),
                        }
                    }
                };
                tally.by_status[row.status as usize] += 1;
                sink.write(&row, kept)?;
            }
            sink.flush()?;
            Ok(ControlFlow::Continue(()))
        },
    );
    let flushed = sink.finish();
    let summary = summary?;
    flushed?;
    Ok(RateReport {
        summary,
        tally,
        by_er,
        unrated,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(cells: &str) -> Record {
        Record {
            line: 1,
            cells: cells.as_bytes().to_vec(),
            ..Record::default()
        }
    }

    #[test]
    fn only_unique_classic_puzzles_go_to_the_rater() {
        let clock = Clock::start();
        let mut worker = RateWorker::new();
        let unique =
            "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";
        match worker.rate(&record(unique), &clock) {
            Rated::Valid { status, rating, .. } => {
                assert_eq!(status, Status::Unique);
                // Rated, or a reason why not: never "nothing to rate".
                assert!(!matches!(rating, Ok(None)));
            }
            other => panic!("{other:?}"),
        }
        let multiple = ".".repeat(81);
        match worker.rate(&record(&multiple), &clock) {
            Rated::Valid { status, rating, .. } => {
                assert_eq!((status, rating), (Status::Multiple, Ok(None)))
            }
            other => panic!("{other:?}"),
        }
        let mut conflict = multiple.clone().into_bytes();
        conflict[0] = b'5';
        conflict[1] = b'5';
        let conflict = String::from_utf8(conflict).unwrap();
        assert!(matches!(
            worker.rate(&record(&conflict), &clock),
            Rated::Invalid(_)
        ));
        assert!(matches!(
            worker.rate(&record("12"), &clock),
            Rated::Invalid(_)
        ));
        // Givens without conflict that leave r1c9 no digit: no solution.
        let unsolvable = format!("12345678.........9{}", ".".repeat(63));
        match worker.rate(&record(&unsolvable), &clock) {
            Rated::Valid { status, rating, .. } => {
                assert_eq!((status, rating), (Status::Unsolvable, Ok(None)))
            }
            other => panic!("{other:?}"),
        }
    }
}
