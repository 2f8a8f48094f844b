//! Solving datasets: one record ([`solve_record`]: parse its cells, search under a
//! solution limit, time the search, say what came of it), and whole datasets into a
//! [`SolveSink`] ([`solve_dataset`]: what `bulkdoku solve` runs).

use std::borrow::Cow;
use std::ops::ControlFlow;
use std::sync::atomic::Ordering;
use std::sync::Arc;

use anyhow::bail;

use crate::clock::Clock;
use crate::dataset::{Driver, Source, Summary};
use crate::grid::{Grid, InvalidPuzzle};
use crate::input::Record;
use crate::output::{self, Kept, Origin, SolveSink, Written};
use crate::row::{SolvedRow, Status};
use crate::rules::{record_rules, RuleSet, VariantSolver, Variants};
use crate::solver::{Outcome, Solver};
use crate::stats::Histogram;
use crate::stop::StopFlag;

/// How to solve each record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct SolveOptions {
    /// Solutions to look for at most: 1 finds one, 2 decides uniqueness, more count.
    pub limit: u64,
    /// Keep every solution found (up to `limit`), not only the first.
    pub all_solutions: bool,
    /// The rules of records that do not give their own (see [`record_rules`]).
    pub rules: RuleSet,
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            limit: 2,
            all_solutions: false,
            rules: RuleSet::CLASSIC,
        }
    }
}

impl SolveOptions {
    /// Look for at most `limit` solutions (at least 1).
    pub fn limit(mut self, limit: u64) -> SolveOptions {
        self.limit = limit.max(1);
        self
    }

    /// Keep every solution found, not only the first.
    pub fn all_solutions(mut self, all: bool) -> SolveOptions {
        self.all_solutions = all;
        self
    }

    /// Solve records that do not give their own rules under `rules`.
    pub fn rules(mut self, rules: RuleSet) -> SolveOptions {
        self.rules = rules;
        self
    }

    /// True when the search stops at the first solution, so that uniqueness is not
    /// known (statuses say `solved`, not `unique`).
    pub fn first_only(&self) -> bool {
        self.limit == 1
    }
}

/// Solutions a worker keeps in hand with [`SolveOptions::all_solutions`]. A puzzle
/// with more is only counted on the worker, and its solutions are enumerated again
/// while its rows are written ([`solve_dataset`]), one at a time: memory stays flat
/// whatever the limit.
pub const KEPT_SOLUTIONS: usize = 4;

/// What the solver made of one record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Solved {
    /// A valid puzzle and the search's findings.
    Valid {
        /// The puzzle.
        puzzle: Grid,
        /// Solutions found, capped at the limit.
        solutions: u64,
        /// Branch decisions the search made.
        guesses: u64,
        /// The search's time in [`Clock`] ticks (see [`Clock::rate`] for nanoseconds).
        ticks: u64,
        /// The first solution, if any.
        first: Option<Grid>,
        /// With [`SolveOptions::all_solutions`], every solution found when there are
        /// at most [`KEPT_SOLUTIONS`] of them (empty otherwise, without allocating: the
        /// writer enumerates them again).
        all: Vec<Grid>,
        /// The rules it was solved under.
        rules: RuleSet,
    },
    /// Not a puzzle; the reason (e.g. `80 cells, expected 81`).
    Invalid(String),
    /// The search was given up on a stop request ([`crate::stop`]): nothing is known
    /// of the puzzle. It has no row; a resumed run solves it again.
    Cut,
}

impl Solved {
    /// What a search of `puzzle` under `rules` found.
    fn found(puzzle: Grid, outcome: Outcome, ticks: u64, all: Vec<Grid>, rules: RuleSet) -> Solved {
        Solved::Valid {
            puzzle,
            solutions: outcome.solutions,
            guesses: outcome.guesses,
            ticks,
            first: outcome.first,
            all,
            rules,
        }
    }
}

/// How to solve a dataset and write its rows.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct SolveConfig {
    /// How to solve each record.
    pub options: SolveOptions,
    /// CSV input columns to copy to each row, after the fixed columns.
    pub keep: Vec<String>,
    /// Stop at the first invalid record, before writing its row.
    pub strict: bool,
    /// Write each record's rules and regions ([`output::VARIANT_COLUMNS`]) after the
    /// fixed columns (the sink must have been made with those names first).
    pub variant_columns: bool,
}

impl SolveConfig {
    /// Solve each record with `options`.
    pub fn options(mut self, options: SolveOptions) -> SolveConfig {
        self.options = options;
        self
    }

    /// Copy the CSV input columns `names` to each row.
    pub fn keep(mut self, names: Vec<String>) -> SolveConfig {
        self.keep = names;
        self
    }

    /// Stop at the first invalid record when `strict`.
    pub fn strict(mut self, strict: bool) -> SolveConfig {
        self.strict = strict;
        self
    }

    /// Write each record's rules and regions when `yes`.
    pub fn variant_columns(mut self, yes: bool) -> SolveConfig {
        self.variant_columns = yes;
        self
    }

    /// The names of the columns after the fixed ones: the variant columns if
    /// written, then the kept ones. Make the sink with these.
    pub fn extra_columns(&self) -> Vec<String> {
        let variant = output::VARIANT_COLUMNS
            .iter()
            .filter(|_| self.variant_columns)
            .map(|c| c.to_string());
        variant.chain(self.keep.iter().cloned()).collect()
    }
}

/// An invalid record that stopped a strict run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StrictStop {
    /// The input's display name.
    pub file: String,
    /// The record's line.
    pub line: u64,
    /// Why it is invalid.
    pub reason: String,
}

/// What a run of [`solve_dataset`] did.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct SolveReport {
    /// Records, time and threads.
    pub summary: Summary,
    /// Totals by status and the search times.
    pub tally: Tally,
    /// With [`SolveConfig::strict`], the invalid record that stopped the run.
    pub strict_stop: Option<StrictStop>,
}

/// Solve every record `driver` reads and write its row(s) to `sink`, in input order
/// (the `--keep` names must be those the sink was made with). The sink is finished
/// ([`SolveSink::finish`]) at the end, also when an input fails: the rows of the
/// records before the failure are written, then the error is returned.
pub fn solve_dataset(
    driver: Driver,
    config: &SolveConfig,
    sink: &mut dyn SolveSink,
) -> anyhow::Result<SolveReport> {
    let options = config.options;
    let first_only = options.first_only();
    let clock = Clock::start();
    let mut keep = Keep {
        names: config.keep.clone(),
        positions: Vec::new(),
    };
    let mut tally = Tally::default();
    let mut strict_stop = None;
    let stop = driver.stop().cloned();
    let stopped = || stop.as_ref().is_some_and(|s| s.load(Ordering::Relaxed));
    // What makes every search of the run give up (see `Solved::Cut`).
    let stop_flag = stop.clone().map_or_else(StopFlag::never, StopFlag::new);
    // For the rows of the records whose solutions are enumerated again in the drain.
    let mut again = Worker::with_stop(stop_flag.clone());
    // The `rules` column's text of every rule set, made once.
    let names: std::collections::HashMap<RuleSet, String> = RuleSet::all_combinations()
        .map(|r| (r, r.to_string()))
        .collect();
    let summary = driver.run(
        || Worker::with_stop(stop_flag.clone()),
        |worker, item| worker.solve(&item.record, &options, &clock),
        |sources, items, results| {
            let rate = clock.rate();
            for (item, solved) in items.iter().zip(results) {
                if let Solved::Cut = solved {
                    // A stop cut its search: the output ends with the record before,
                    // and --resume starts from this one.
                    return Ok(ControlFlow::Break(()));
                }
                let source = &sources[item.file];
                let record = &item.record;
                if let (true, Solved::Invalid(reason)) = (config.strict, solved) {
                    strict_stop = Some(StrictStop {
                        file: source.name.clone(),
                        line: record.line,
                        reason: reason.clone(),
                    });
                    return Ok(ControlFlow::Break(()));
                }
                let positions = if keep.names.is_empty() {
                    &[][..]
                } else {
                    keep.positions(sources, item.file)?
                };
                let origin = Origin {
                    file: &source.name,
                    line: record.line,
                    cells: &record.cells,
                };
                let mut kept = Kept::new(&record.fields, positions);
                let (rules, regions);
                if config.variant_columns {
                    regions = String::from_utf8_lossy(record.regions.trim_ascii());
                    rules = match solved {
                        Solved::Valid { rules, .. } => Cow::Borrowed(names[rules].as_str()),
                        Solved::Invalid(_) if record.rules.is_empty() => {
                            Cow::Borrowed(names[&options.rules].as_str())
                        }
                        Solved::Invalid(_) => String::from_utf8_lossy(&record.rules),
                        Solved::Cut => Cow::Borrowed(""),
                    };
                    kept = kept.with_variant(&rules, &regions);
                }
                let written = match solved {
                    Solved::Valid {
                        puzzle,
                        solutions,
                        guesses,
                        ticks,
                        all,
                        rules,
                        ..
                    } if options.all_solutions && all.len() < *solutions as usize => {
                        // Too many to have been kept: enumerated again here, each row
                        // written as it comes.
                        let status = Status::from_count(*solutions, first_only);
                        let time_ns = rate.ns(*ticks);
                        let base = SolvedRow {
                            file: origin.file,
                            line: origin.line,
                            puzzle,
                            status,
                            solutions: *solutions,
                            guesses: *guesses,
                            time_ns,
                            solution: None,
                        };
                        // Whether the rows were cut short: a stop came inside the
                        // record's rows, so no record's rows may follow (this one is
                        // the output's torn tail, which --resume drops, not a hole
                        // among whole records).
                        let cut = std::cell::Cell::new(false);
                        let mut rows = 0u64;
                        let mut write = |g: &Grid| -> std::io::Result<()> {
                            if cut.get() {
                                return Ok(());
                            }
                            let row = SolvedRow {
                                solution: Some(g),
                                ..base
                            };
                            sink.write_solved(&row, kept)?;
                            rows += 1;
                            cut.set(rows < *solutions && stopped());
                            Ok(())
                        };
                        if rules.is_classic() {
                            let all = crate::solver::solutions(puzzle).stop_on(stop_flag.clone());
                            for g in all.take(*solutions as usize) {
                                write(&g)?;
                                if cut.get() {
                                    break;
                                }
                            }
                        } else {
                            let rules = record_rules(&record.rules, &record.regions, *rules)
                                .map_err(|e| anyhow::anyhow!("{e}"))?;
                            let variant = again.variants.get(&rules);
                            let mut failed = None;
                            again.variant_solver.for_each_solution(
                                variant,
                                puzzle,
                                *solutions,
                                |g| {
                                    if failed.is_none() {
                                        failed = write(g).err();
                                    }
                                },
                            );
                            if let Some(e) = failed {
                                return Err(e.into());
                            }
                        }
                        // A stop also cuts the search between two rows.
                        if rows < *solutions && stopped() {
                            cut.set(true);
                        }
                        if cut.get() {
                            return Ok(ControlFlow::Break(()));
                        }
                        Written {
                            status,
                            time_ns: Some(time_ns),
                        }
                    }
                    _ => output::write_solved(sink, origin, solved, first_only, rate, kept)?,
                };
                tally.count(written);
            }
            Ok(ControlFlow::Continue(()))
        },
    );
    // Rows written before an input error are kept: write them out (with Parquet's
    // footer), then report it.
    let flushed = sink.finish();
    let summary = summary?;
    flushed?;
    Ok(SolveReport {
        summary,
        tally,
        strict_stop,
    })
}

/// Totals over the records of a run.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Tally {
    /// Records per status, by `Status as usize` (the order of [`Status::ALL`]).
    pub by_status: [u64; Status::ALL.len()],
    /// The search times of the valid records, in nanoseconds.
    pub times: Histogram,
}

impl Tally {
    /// Records of `status`.
    pub fn get(&self, status: Status) -> u64 {
        self.by_status[status as usize]
    }

    fn count(&mut self, written: Written) {
        self.by_status[written.status as usize] += 1;
        if let Some(ns) = written.time_ns {
            self.times.record(ns);
        }
    }
}

/// Where the `--keep` columns are in each input's fields (also for `rate`'s rows).
pub(crate) struct Keep {
    names: Vec<String>,
    /// Per input index: the field index of each kept column.
    positions: Vec<Option<Vec<usize>>>,
}

impl Keep {
    /// The columns `names`, their positions not looked up yet.
    pub(crate) fn new(names: &[String]) -> Keep {
        Keep {
            names: names.to_vec(),
            positions: Vec::new(),
        }
    }

    /// The field positions of the kept columns in `sources[file]`.
    pub(crate) fn positions(
        &mut self,
        sources: &[Arc<Source>],
        file: usize,
    ) -> anyhow::Result<&[usize]> {
        if self.names.is_empty() {
            return Ok(&[]);
        }
        if self.positions.len() <= file {
            self.positions.resize(file + 1, None);
        }
        if self.positions[file].is_none() {
            let source = &sources[file];
            let Some(headers) = &source.headers else {
                bail!(
                    "{}: --keep needs CSV input with a header row (this input is read as {})",
                    source.name,
                    source.format
                );
            };
            let mut found = Vec::with_capacity(self.names.len());
            for name in &self.names {
                let Some(i) = headers.iter().position(|h| h == name) else {
                    bail!(
                        "{}: --keep: no column {name:?} (columns: {})",
                        source.name,
                        headers.join(",")
                    );
                };
                found.push(i);
            }
            self.positions[file] = Some(found);
        }
        Ok(self.positions[file].as_deref().unwrap_or(&[]))
    }
}

/// Check that every `keep` column is in `source`, a CSV input (before any work).
pub fn check_keep(source: &Source, keep: &[String]) -> anyhow::Result<()> {
    Keep {
        names: keep.to_vec(),
        positions: Vec::new(),
    }
    .positions(std::slice::from_ref(&Arc::new(source.clone())), 0)
    .map(|_| ())
}

/// Solve one record with `solver`, timing the search with `clock`.
pub fn solve_record(
    solver: &mut Solver,
    record: &Record,
    options: &SolveOptions,
    clock: &Clock,
) -> Solved {
    if let Some(reason) = &record.error {
        return Solved::Invalid(reason.clone());
    }
    // Conflicting givens are looked for only when the search finds no solution: the
    // solver never completes a grid whose givens conflict (a solution is a valid grid
    // that keeps every given), and skipping the check on solvable puzzles saves ~5 %
    // of the pipeline's time per puzzle.
    let puzzle = match Grid::parse(&record.cells) {
        Ok(g) => g,
        Err(e) => return Solved::Invalid(e.to_string()),
    };
    let mut all = Vec::new();
    let start = clock.ticks();
    let mut outcome = if options.all_solutions {
        let kept = options.limit.min(KEPT_SOLUTIONS as u64 + 1);
        solver.for_each_solution(&puzzle, kept, |g| all.push(*g))
    } else {
        solver.solve(&puzzle, options.limit)
    };
    if all.len() > KEPT_SOLUTIONS {
        // Too many to keep: count them (up to the limit); they are enumerated again
        // as their rows are written.
        all = Vec::new();
        outcome = solver.solve(&puzzle, options.limit);
    }
    let ticks = clock.ticks().saturating_sub(start);
    if outcome.cut {
        return Solved::Cut;
    }
    if outcome.solutions == 0 {
        if let Err(conflict) = puzzle.check_givens() {
            return Solved::Invalid(InvalidPuzzle::from(conflict).to_string());
        }
    }
    Solved::found(puzzle, outcome, ticks, all, RuleSet::CLASSIC)
}

/// A worker's reusable state for solving records under any rules: the classic band
/// engine, the variant engine, and the rule tables built so far.
#[derive(Debug, Default)]
pub struct Worker {
    solver: Solver,
    variant_solver: VariantSolver,
    variants: Variants,
}

impl Worker {
    /// A worker with empty stacks and no table yet.
    pub fn new() -> Worker {
        Worker::default()
    }

    /// A worker whose searches give up once `stop` is set ([`Solved::Cut`]).
    pub fn with_stop(stop: StopFlag) -> Worker {
        let mut worker = Worker::default();
        worker.solver.set_stop(stop.clone());
        worker.variant_solver.set_stop(stop);
        worker
    }

    /// Solve one record under its rules (its own, else [`SolveOptions::rules`]): with
    /// the band engine ([`solve_record`]) when they are classic, else with the variant
    /// engine. Every solution found under variant rules is checked against every rule
    /// before it is kept.
    pub fn solve(&mut self, record: &Record, options: &SolveOptions, clock: &Clock) -> Solved {
        if record.rules.is_empty() && record.regions.is_empty() && options.rules.is_classic() {
            return solve_record(&mut self.solver, record, options, clock);
        }
        if let Some(reason) = &record.error {
            return Solved::Invalid(reason.clone());
        }
        let rules = match record_rules(&record.rules, &record.regions, options.rules) {
            Ok(rules) if rules.is_classic() => {
                return solve_record(&mut self.solver, record, options, clock)
            }
            Ok(rules) => rules,
            Err(reason) => return Solved::Invalid(reason),
        };
        let puzzle = match Grid::parse(&record.cells) {
            Ok(g) => g,
            Err(e) => return Solved::Invalid(e.to_string()),
        };
        let variant = self.variants.get(&rules);
        if let Err(conflict) = variant.check_givens(&puzzle) {
            return Solved::Invalid(conflict.to_string());
        }
        let solver = &mut self.variant_solver;
        // The engine's set-up for a rule set met for the first time (tables, the
        // catalog of a rule set with few grids) is not this puzzle's search.
        solver.prepare(variant);
        let mut all = Vec::new();
        let start = clock.ticks();
        let mut outcome = if options.all_solutions {
            let kept = options.limit.min(KEPT_SOLUTIONS as u64 + 1);
            solver.for_each_solution(variant, &puzzle, kept, |g| all.push(*g))
        } else {
            solver.solve(variant, &puzzle, options.limit)
        };
        if all.len() > KEPT_SOLUTIONS {
            all = Vec::new();
            outcome = solver.solve(variant, &puzzle, options.limit);
        }
        let ticks = clock.ticks().saturating_sub(start);
        if outcome.cut {
            return Solved::Cut;
        }
        let broken = all
            .iter()
            .chain(&outcome.first)
            .any(|s| !variant.solves(s, &puzzle));
        if broken {
            // Never write a solution that breaks a rule: that would be an engine bug.
            return Solved::Invalid(format!(
                "internal error: a solution found breaks the rules ({})",
                rules.rules
            ));
        }
        Solved::found(puzzle, outcome, ticks, all, rules.rules)
    }
}
