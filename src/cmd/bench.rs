//! `bulkdoku bench`: the solver's throughput on whole datasets held in memory, one
//! thread and all threads, in the manner of tdoku's `run_benchmark` table.
//!
//! For each dataset, solution limit and thread count: load the valid puzzles (invalid
//! ones are skipped and counted), warm up, then time samples of whole passes until the
//! time budget is spent. The rate reported is the median of the samples' rates, so a
//! single hiccup (another process, a frequency change) does not move it.

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::bail;
use clap::ValueEnum;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;
use serde::Serialize;

use bulkdoku::input::{self, InputOptions, Record};
use bulkdoku::rules::{record_rules, Rule, RuleSet, Variant, VariantSolver, Variants};
use bulkdoku::{Grid, Solver};

use crate::cli::{InputFormat, OutputArgs, ProgressArgs, ProgressMode, RulesArgs, ThreadArgs};
use crate::cmd::{check_output, with_output};

/// A timed sample repeats passes until it lasts at least this long, so that tiny
/// datasets are not timed at the clock's resolution.
const MIN_SAMPLE: Duration = Duration::from_millis(5);

/// Arguments of `bulkdoku bench`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Datasets to benchmark (any input format `solve` reads).
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<PathBuf>,

    /// Solution limits to run, comma-separated: 1 finds a solution, 2 also proves it
    /// unique.
    #[arg(
        long,
        value_name = "N,...",
        value_delimiter = ',',
        default_value = "1,2"
    )]
    pub limit: Vec<u64>,

    /// Seconds of timed passes per row of the table (after a warm-up of a tenth of it).
    #[arg(long, value_name = "S", default_value_t = 3.0)]
    pub seconds: f64,

    /// Output format of the table.
    #[arg(long, value_enum, default_value_t = BenchFormat::Md)]
    pub format: BenchFormat,

    /// Input format of the datasets; detected from the content when not given.
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = InputFormat::Auto)]
    pub input_format: InputFormat,

    /// The puzzle column of CSV datasets.
    #[arg(long, value_name = "NAME")]
    pub column: Option<String>,

    #[command(flatten)]
    pub rules: RulesArgs,

    /// The "all threads" count (default: all cores); one thread is always measured too.
    #[command(flatten)]
    pub threads: ThreadArgs,

    /// The progress bar on standard error.
    #[command(flatten)]
    pub progress: ProgressArgs,

    /// Where the table goes.
    #[command(flatten)]
    pub output: OutputArgs,
}

/// Formats of the benchmark table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum BenchFormat {
    /// A Markdown table.
    Md,
    /// CSV with a header row.
    Csv,
    /// A JSON list of objects.
    Json,
}

/// One row of the table: one dataset at one limit on one thread count.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BenchRow {
    /// The dataset's path as given.
    pub dataset: String,
    /// Valid puzzles solved per pass.
    pub puzzles: u64,
    /// Records skipped as invalid.
    pub invalid: u64,
    /// Solution limit.
    pub limit: u64,
    /// Worker threads.
    pub threads: usize,
    /// Median over samples of puzzles solved per second (wall clock).
    pub puzzles_per_sec: f64,
    /// Wall-clock microseconds per puzzle at that rate (`1e6 / puzzles_per_sec`).
    pub usec_per_puzzle: f64,
    /// Share of puzzles the solver finished without a guess.
    pub no_guess_pct: f64,
    /// Mean guesses per puzzle.
    pub guesses_per_puzzle: f64,
    /// Timed samples the median was taken over.
    pub samples: usize,
}

/// A dataset's valid puzzles, in memory.
struct Dataset {
    name: String,
    puzzles: Vec<Puzzle>,
    invalid: u64,
}

/// A valid puzzle and, under variant rules, its rule table.
struct Puzzle {
    grid: Grid,
    variant: Option<Arc<Variant>>,
}

fn load(path: &Path, options: &InputOptions, rules: RuleSet) -> anyhow::Result<Dataset> {
    let name = input::display_name(Some(path));
    let mut reader = input::open(Some(path), options)?;
    let mut record = Record::default();
    let (mut puzzles, mut invalid) = (Vec::new(), 0);
    // One table per rule set; jigsaw puzzles each have their own.
    let mut tables: Vec<Arc<Variant>> = Vec::new();
    while reader.read_record(&mut record)? {
        let puzzle = (|| {
            if record.error.is_some() {
                return None;
            }
            let rules = record_rules(&record.rules, &record.regions, rules).ok()?;
            if rules.is_classic() {
                let grid = Grid::parse_puzzle(&record.cells).ok()?;
                return Some(Puzzle {
                    grid,
                    variant: None,
                });
            }
            let grid = Grid::parse(&record.cells).ok()?;
            let table = match tables.iter().find(|t| t.rules() == rules.rules) {
                Some(t) if rules.regions.is_none() => Arc::clone(t),
                _ => {
                    let t = Arc::new(Variants::default().get(&rules).clone());
                    if rules.regions.is_none() {
                        tables.push(Arc::clone(&t));
                    }
                    t
                }
            };
            table.check_givens(&grid).ok()?;
            Some(Puzzle {
                grid,
                variant: Some(table),
            })
        })();
        match puzzle {
            Some(p) => puzzles.push(p),
            None => invalid += 1,
        }
    }
    if puzzles.is_empty() {
        bail!("{name}: no valid puzzle to benchmark ({invalid} invalid records)");
    }
    Ok(Dataset {
        name,
        puzzles,
        invalid,
    })
}

/// Guesses made and puzzles finished without a guess in one pass.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct PassCounts {
    guesses: u64,
    no_guess: u64,
}

impl PassCounts {
    fn add(self, other: PassCounts) -> PassCounts {
        PassCounts {
            guesses: self.guesses + other.guesses,
            no_guess: self.no_guess + other.no_guess,
        }
    }
}

/// The engines of one worker: classic and variant.
type Engines = (Solver, VariantSolver);

fn solve_one((solver, variant_solver): &mut Engines, puzzle: &Puzzle, limit: u64) -> PassCounts {
    let outcome = match &puzzle.variant {
        None => solver.solve(&puzzle.grid, limit),
        Some(v) => variant_solver.solve(v, &puzzle.grid, limit),
    };
    // The solution is never looked at: keep the optimiser from skipping its making.
    std::hint::black_box(&outcome.first);
    PassCounts {
        guesses: outcome.guesses,
        no_guess: outcome.solved_without_guessing() as u64,
    }
}

/// Solve every puzzle once, on the current thread or across `pool`'s workers with one
/// solver per worker.
fn pass(puzzles: &[Puzzle], limit: u64, pool: Option<&rayon::ThreadPool>) -> PassCounts {
    let engines = || (Solver::new(), VariantSolver::new());
    match pool {
        None => {
            let mut engines = engines();
            puzzles.iter().fold(PassCounts::default(), |acc, p| {
                acc.add(solve_one(&mut engines, p, limit))
            })
        }
        Some(pool) => pool.install(|| {
            puzzles
                .par_iter()
                .map_init(engines, |engines, p| solve_one(engines, p, limit))
                .reduce(PassCounts::default, PassCounts::add)
        }),
    }
}

/// Median of unsorted values (mean of the middle two for an even count).
fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    match n {
        0 => 0.0,
        _ if n % 2 == 1 => values[n / 2],
        _ => (values[n / 2 - 1] + values[n / 2]) / 2.0,
    }
}

/// Measure one row: warm up, then time samples for `budget`. `tick` is told the share of
/// the row done (0..=1) now and then.
fn measure(
    data: &Dataset,
    limit: u64,
    threads: usize,
    pool: Option<&rayon::ThreadPool>,
    budget: Duration,
    tick: &dyn Fn(f64),
) -> BenchRow {
    let n = data.puzzles.len() as u64;
    let warm_up = budget / 10;
    let total = warm_up + budget;
    // Warm-up: caches, branch predictors, the pool's threads; it also finds how many
    // passes make a sample of at least MIN_SAMPLE.
    let start = Instant::now();
    let mut passes = 0u32;
    let counts = pass(&data.puzzles, limit, pool);
    passes += 1;
    while start.elapsed() < warm_up {
        pass(&data.puzzles, limit, pool);
        passes += 1;
    }
    let per_pass = start.elapsed() / passes;
    let reps = if per_pass >= MIN_SAMPLE {
        1
    } else {
        (MIN_SAMPLE.as_nanos() / per_pass.as_nanos().max(1)) as u32 + 1
    };
    tick(start.elapsed().as_secs_f64() / total.as_secs_f64());

    let mut rates = Vec::new();
    let timed = Instant::now();
    while rates.is_empty() || timed.elapsed() < budget {
        let t0 = Instant::now();
        for _ in 0..reps {
            pass(&data.puzzles, limit, pool);
        }
        let secs = t0.elapsed().as_secs_f64().max(1e-9);
        rates.push(reps as f64 * n as f64 / secs);
        tick((warm_up + timed.elapsed()).as_secs_f64() / total.as_secs_f64());
    }
    let samples = rates.len();
    let rate = median(&mut rates);
    BenchRow {
        dataset: data.name.clone(),
        puzzles: n,
        invalid: data.invalid,
        limit,
        threads,
        puzzles_per_sec: rate,
        usec_per_puzzle: 1e6 / rate,
        no_guess_pct: 100.0 * counts.no_guess as f64 / n as f64,
        guesses_per_puzzle: counts.guesses as f64 / n as f64,
        samples,
    }
}

fn progress_bar(args: &ProgressArgs, rows: u64) -> ProgressBar {
    if args.quiet || args.progress == ProgressMode::Never {
        return ProgressBar::hidden();
    }
    // indicatif's stderr target draws only on a terminal, which is what `auto` asks;
    // `always` off a terminal is not honoured here (the bar is for people watching).
    let bar = ProgressBar::with_draw_target(Some(rows * 1000), ProgressDrawTarget::stderr());
    let style = ProgressStyle::with_template("[{elapsed_precise}] [{bar:30}] {msg} (ETA {eta})")
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> ");
    bar.set_style(style);
    bar
}

/// Run `bulkdoku bench`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let inputs: Vec<Option<PathBuf>> = args.files.iter().map(|p| Some(p.clone())).collect();
    check_output(args.output.output.as_deref(), &inputs)?;
    if !(args.seconds.is_finite() && args.seconds > 0.0) {
        bail!(
            "--seconds must be a positive number of seconds, not {}",
            args.seconds
        );
    }
    if args.limit.is_empty() || args.limit.contains(&0) {
        bail!("--limit takes solution limits of 1 or more, e.g. `--limit 1,2`");
    }
    let pool = bulkdoku::pipeline::thread_pool(args.threads.get())?;
    let all = pool.current_num_threads();
    let mut thread_counts = vec![1];
    if all > 1 {
        thread_counts.push(all);
    }
    let pool = (all > 1).then_some(pool);
    let mut options = InputOptions::new()
        .format(args.input_format.into())
        .regions_field(args.rules.rules.contains(Rule::Jigsaw));
    if let Some(name) = &args.column {
        options = options.column(name.clone());
    }
    let budget = Duration::from_secs_f64(args.seconds);
    let total_rows = (args.files.len() * args.limit.len() * thread_counts.len()) as u64;
    let bar = progress_bar(&args.progress, total_rows);

    let mut rows = Vec::with_capacity(total_rows as usize);
    for path in &args.files {
        bar.set_message(format!("loading {}", path.display()));
        let data = load(path, &options, args.rules.rules)?;
        if data.invalid > 0 && !args.progress.quiet {
            bar.suspend(|| {
                crate::say!(
                    "bulkdoku: {}: {} invalid record{} skipped",
                    data.name,
                    data.invalid,
                    if data.invalid == 1 { "" } else { "s" }
                )
            });
        }
        for &limit in &args.limit {
            for &threads in &thread_counts {
                let done = rows.len() as u64;
                bar.set_message(format!(
                    "{}: limit {limit}, {threads} thread{}",
                    data.name,
                    if threads == 1 { "" } else { "s" }
                ));
                let row_pool = if threads == 1 { None } else { pool.as_ref() };
                let tick = |share: f64| {
                    bar.set_position(done * 1000 + (share.min(1.0) * 1000.0) as u64);
                };
                rows.push(measure(&data, limit, threads, row_pool, budget, &tick));
            }
        }
    }
    bar.finish_and_clear();

    with_output(args.output.output.as_deref(), |out| {
        match args.format {
            BenchFormat::Md => write_markdown(&rows, out)?,
            BenchFormat::Csv => write_csv(&rows, out)?,
            BenchFormat::Json => {
                serde_json::to_writer_pretty(&mut *out, &rows)?;
                writeln!(out)?;
            }
        }
        Ok(())
    })?;
    Ok(ExitCode::SUCCESS)
}

fn write_markdown(rows: &[BenchRow], out: &mut dyn Write) -> io::Result<()> {
    writeln!(
        out,
        "| dataset | puzzles | limit | threads | puzzles/s | µs/puzzle | no guess % | guesses/puzzle |"
    )?;
    writeln!(
        out,
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
    )?;
    for r in rows {
        writeln!(
            out,
            "| {} | {} | {} | {} | {} | {:.2} | {:.1} | {:.2} |",
            r.dataset,
            r.puzzles,
            r.limit,
            r.threads,
            bulkdoku::units::grouped(r.puzzles_per_sec.round() as u64),
            r.usec_per_puzzle,
            r.no_guess_pct,
            r.guesses_per_puzzle
        )?;
    }
    Ok(())
}

fn write_csv(rows: &[BenchRow], out: &mut dyn Write) -> anyhow::Result<()> {
    let mut csv = csv::Writer::from_writer(out);
    for r in rows {
        csv.serialize(r)?;
    }
    csv.flush()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_of_odd_and_even_counts() {
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&mut [4.0, 1.0, 3.0, 2.0]), 2.5);
        assert_eq!(median(&mut []), 0.0);
    }

    #[test]
    fn one_thread_and_a_pool_count_the_same() {
        let puzzles: Vec<Puzzle> = [
            "003020600900305001001806400008102900700000008006708200002609500800203009005010300",
            "800000000003600000070090200050007000000045700000100030001000068008500010090000400",
        ]
        .iter()
        .map(|p| Puzzle {
            grid: p.parse().unwrap(),
            variant: None,
        })
        .collect();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        for limit in [1, 2] {
            assert_eq!(
                pass(&puzzles, limit, None),
                pass(&puzzles, limit, Some(&pool))
            );
        }
        // The first puzzle falls to singles alone, the second (Arto Inkala's) needs guesses.
        assert_eq!(pass(&puzzles[..1], 2, None).no_guess, 1);
        assert!(pass(&puzzles[1..], 2, None).guesses > 0);
    }
}
