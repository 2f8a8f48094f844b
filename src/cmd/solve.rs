//! `bulkdoku solve`: solve every record of one or more datasets and write one row per
//! record (per solution with `--all-solutions`), in input order, then a summary on
//! stderr.
//!
//! The work per record runs on the [`dataset`](super::dataset) driver's workers, each
//! with its own reusable [`Solver`]; rows are written by the drain, in order, through
//! [`SolveWriter`].

use std::borrow::Cow;
use std::ops::ControlFlow;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::bail;

use crate::cli::{InputArgs, OutputArgs, ProgressArgs, ThreadArgs};
use crate::clock::{Clock, TickRate};
use crate::cmd::dataset::{Driver, Item, Source, Summary, BATCH_SIZE};
use crate::grid::{Grid, InvalidPuzzle};
use crate::output::{self, human_ns, OutputFormat, SolveWriter};
use crate::progress::{human_rate, rate, Progress};
use crate::record::{SolveRow, SolvedRow, Status};
use crate::solver::Solver;
use crate::stats::Histogram;

const EXAMPLES: &str = "\
Examples:
  bulkdoku solve puzzles.txt -o solved.csv       one row per puzzle, all cores
  bulkdoku solve a.txt b.csv.gz -j 2             several files (see the `file` column)
  zcat big.txt.gz | bulkdoku solve > out.csv     standard input
  bulkdoku solve train.csv --column quizzes --keep id,difficulty
  bulkdoku solve --first hard.txt                fastest: stop at the first solution
  bulkdoku solve --all-solutions --limit 100 x.txt   one row per solution
  bulkdoku solve --output-format grid poj2676.txt    boxed 9x9 grids on the terminal

Exit codes: 0 done (invalid records are rows with status `invalid`); 1 an invalid record
with --strict; 2 an unreadable file, broken CSV, or bad arguments.";

/// Arguments of `bulkdoku solve`.
#[derive(Debug, clap::Args)]
#[command(after_help = EXAMPLES)]
pub struct Args {
    #[command(flatten)]
    pub input: InputArgs,

    #[command(flatten)]
    pub output: OutputArgs,

    #[command(flatten)]
    pub threads: ThreadArgs,

    #[command(flatten)]
    pub progress: ProgressArgs,

    /// Stop at the first solution (fastest; status `solved` instead of `unique`).
    #[arg(long, conflicts_with = "limit")]
    pub first: bool,

    /// Count up to N solutions per puzzle (2 decides uniqueness).
    #[arg(long, value_name = "N", default_value_t = 2,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub limit: u64,

    /// Copy these columns of a CSV input to the output (comma-separated names).
    #[arg(long, value_name = "COLUMNS", value_delimiter = ',')]
    pub keep: Vec<String>,

    /// Stop at the first invalid record with exit code 1.
    #[arg(long)]
    pub strict: bool,

    /// Write one row per solution found (up to --limit) instead of one per puzzle.
    #[arg(long)]
    pub all_solutions: bool,

    /// Output format.
    #[arg(long, value_enum, default_value_t, value_name = "FORMAT")]
    pub output_format: OutputFormat,

    /// Records per parallel batch (tuning and tests; the default suits most inputs).
    #[arg(long, hide = true, value_name = "N", default_value_t = BATCH_SIZE)]
    pub batch_size: usize,
}

/// What the solver made of one record.
#[derive(Debug)]
enum Solved {
    /// A valid puzzle and the search's findings.
    Valid {
        puzzle: Grid,
        solutions: u64,
        guesses: u64,
        /// The solve's time in [`Clock`] ticks (nanoseconds once the drain has the
        /// tick rate).
        ticks: u64,
        first: Option<Grid>,
        /// Every solution found, only with `--all-solutions` (empty otherwise, no
        /// allocation).
        all: Vec<Grid>,
    },
    /// Not a puzzle; the reason.
    Invalid(String),
}

/// The per-record work, shared by every worker.
#[derive(Debug, Clone, Copy)]
struct Work {
    limit: u64,
    all_solutions: bool,
    clock: Clock,
}

impl Work {
    fn run(&self, solver: &mut Solver, item: &Item) -> Solved {
        let record = &item.record;
        if let Some(reason) = &record.error {
            return Solved::Invalid(reason.clone());
        }
        // Conflicting givens are looked for only when the search finds no solution: the
        // solver never completes a grid whose givens conflict (a solution is a valid
        // grid that keeps every given), and skipping the check on solvable puzzles
        // saves ~5 % of the pipeline's time per puzzle.
        let puzzle = match Grid::parse(&record.cells) {
            Ok(g) => g,
            Err(e) => return Solved::Invalid(e.to_string()),
        };
        let mut all = Vec::new();
        let start = self.clock.ticks();
        let outcome = if self.all_solutions {
            solver.for_each_solution(&puzzle, self.limit, |g| all.push(*g))
        } else {
            solver.solve(&puzzle, self.limit)
        };
        let ticks = self.clock.ticks().saturating_sub(start);
        if outcome.solutions == 0 {
            if let Err(conflict) = puzzle.check_givens() {
                return Solved::Invalid(InvalidPuzzle::from(conflict).to_string());
            }
        }
        Solved::Valid {
            puzzle,
            solutions: outcome.solutions,
            guesses: outcome.guesses,
            ticks,
            first: outcome.first,
            all,
        }
    }
}

/// Totals for the summary.
#[derive(Debug)]
struct Tally {
    /// The search stopped at the first solution (`--first` or `--limit 1`): statuses
    /// say `solved`, not `unique` or `multiple`.
    first_only: bool,
    by_status: [u64; Status::ALL.len()],
    times: Histogram,
}

impl Tally {
    fn new(first_only: bool) -> Tally {
        Tally {
            first_only,
            by_status: [0; Status::ALL.len()],
            times: Histogram::default(),
        }
    }

    fn count(&mut self, status: Status) {
        let i = Status::ALL.iter().position(|&s| s == status).unwrap_or(0);
        self.by_status[i] += 1;
    }
}

/// Where the `--keep` columns are in each input's fields.
struct Keep {
    names: Vec<String>,
    /// Per input index: the field index of each kept column.
    positions: Vec<Option<Vec<usize>>>,
}

impl Keep {
    /// The field positions of the kept columns in `sources[file]`.
    fn positions(&mut self, sources: &[Arc<Source>], file: usize) -> anyhow::Result<&[usize]> {
        if self.positions.len() <= file {
            self.positions.resize(file + 1, None);
        }
        if self.positions[file].is_none() {
            let source = &sources[file];
            let Some(headers) = &source.headers else {
                bail!(
                    "{}: --keep needs CSV input with a header row (this input is {:?})",
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

/// Run `bulkdoku solve`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let sink = output::open(args.output.output.as_deref())?;
    run_to(&args, sink)
}

/// Run `bulkdoku solve` writing its rows to `out` instead of `--output` (benchmarks and
/// library callers); the summary and `--strict` message still go to stderr.
pub fn run_to<W: std::io::Write + Send>(args: &Args, out: W) -> anyhow::Result<ExitCode> {
    let limit = if args.first { 1 } else { args.limit };
    // With a limit of one the search stops at the first solution: uniqueness unknown.
    let first_only = limit == 1;
    let clock = Clock::start();
    let work = Work {
        limit,
        all_solutions: args.all_solutions,
        clock,
    };
    let keep_names: Vec<String> = args
        .keep
        .iter()
        .filter(|k| !k.is_empty())
        .cloned()
        .collect();
    if !keep_names.is_empty() && args.output_format == OutputFormat::Grid {
        bail!("--keep applies to CSV output only");
    }

    let mut writer = SolveWriter::new(args.output_format, out, &keep_names)?;
    let mut keep = Keep {
        names: keep_names,
        positions: Vec::new(),
    };

    let progress = Progress::new(
        args.progress.progress,
        args.progress.quiet,
        Driver::total_bytes(&args.input),
    );
    let driver =
        Driver::new(&args.input, args.threads.threads, progress).batch_size(args.batch_size);
    let mut tally = Tally::new(first_only);
    // The first invalid record under --strict: (file, line, reason).
    let mut strict_stop: Option<(String, u64, String)> = None;
    let strict = args.strict;

    let summary = driver.run(
        Solver::new,
        |solver, item| work.run(solver, item),
        |sources, items, results| {
            let rate = clock.rate();
            for (item, solved) in items.iter().zip(results) {
                let source = &sources[item.file];
                if strict {
                    if let Solved::Invalid(reason) = solved {
                        strict_stop = Some((source.name.clone(), item.record.line, reason.clone()));
                        writer.flush()?;
                        return Ok(ControlFlow::Break(()));
                    }
                }
                let kept = if keep.names.is_empty() {
                    &[][..]
                } else {
                    keep.positions(sources, item.file)?
                };
                let fields = &item.record.fields;
                let kept_values = kept
                    .iter()
                    .map(|&i| fields.get(i).map_or("", String::as_str));
                write_rows(
                    &mut writer,
                    &mut tally,
                    rate,
                    source,
                    item,
                    solved,
                    kept_values,
                )?;
            }
            Ok(ControlFlow::Continue(()))
        },
    );
    // Rows written before an input error are kept: flush them, then report it.
    let flushed = writer.flush();
    let summary = summary?;
    flushed?;

    if let Some((file, line, reason)) = strict_stop {
        eprintln!("bulkdoku: {file}:{line}: {reason}");
        return Ok(ExitCode::from(1));
    }
    if !args.progress.quiet {
        eprintln!("{}", summary_text(&summary, &tally));
    }
    Ok(ExitCode::SUCCESS)
}

/// Write the row(s) of one record and count it.
fn write_rows<'k, W: std::io::Write>(
    writer: &mut SolveWriter<W>,
    tally: &mut Tally,
    rate: TickRate,
    source: &Source,
    item: &Item,
    solved: &Solved,
    kept: impl Iterator<Item = &'k str> + Clone,
) -> std::io::Result<()> {
    match solved {
        Solved::Invalid(reason) => {
            tally.count(Status::Invalid);
            let row = SolveRow {
                file: Cow::Borrowed(&source.name),
                line: item.record.line,
                puzzle: String::from_utf8_lossy(&item.record.cells),
                status: Status::Invalid,
                solutions: 0,
                clues: 0,
                guesses: 0,
                time_ns: 0,
                solution: Cow::Borrowed(""),
                error: Cow::Borrowed(reason),
            };
            writer.write(&row, kept)
        }
        Solved::Valid {
            puzzle,
            solutions,
            guesses,
            ticks,
            first,
            all,
        } => {
            let status = Status::from_count(*solutions, tally.first_only);
            let time_ns = rate.ns(*ticks);
            tally.count(status);
            tally.times.record(time_ns);
            let row = SolvedRow {
                file: &source.name,
                line: item.record.line,
                puzzle,
                status,
                solutions: *solutions,
                guesses: *guesses,
                time_ns,
                solution: first.as_ref(),
            };
            if all.is_empty() {
                return writer.write_solved(&row, kept);
            }
            for solution in all {
                let one = SolvedRow {
                    solution: Some(solution),
                    ..row
                };
                writer.write_solved(&one, kept.clone())?;
            }
            Ok(())
        }
    }
}

/// The end-of-run summary for stderr.
fn summary_text(summary: &Summary, tally: &Tally) -> String {
    let shown: &[Status] = if tally.first_only {
        &[Status::Solved, Status::Unsolvable, Status::Invalid]
    } else {
        &[
            Status::Unique,
            Status::Multiple,
            Status::Unsolvable,
            Status::Invalid,
        ]
    };
    let counts: Vec<String> = shown
        .iter()
        .map(|&s| {
            let i = Status::ALL.iter().position(|&x| x == s).unwrap_or(0);
            format!("{} {s}", tally.by_status[i])
        })
        .collect();
    format!(
        "bulkdoku: {} puzzles: {}\n\
         bulkdoku: {:.3} s wall, {} puzzles/s on {} thread{}; solve time per puzzle p50 {}, p99 {}",
        summary.records,
        counts.join(", "),
        summary.elapsed.as_secs_f64(),
        human_rate(rate(summary.records, summary.elapsed)),
        summary.threads,
        if summary.threads == 1 { "" } else { "s" },
        human_ns(tally.times.percentile(50.0)),
        human_ns(tally.times.percentile(99.0)),
    )
}
