//! `bulkdoku generate`: random minimal puzzles with a unique solution, one per line (or
//! as CSV), made by [`bulkdoku::generate`] (classic rules) or [`bulkdoku::rules`]
//! (variant rules) on all cores, in order; with `--er`, only those whose rating lies in
//! a range.

use std::io::Write;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use anyhow::bail;
use bulkdoku::generate::{self, Rng};
use bulkdoku::output::file::Output;
use bulkdoku::output::ratings::tenths_text;
use bulkdoku::pipeline;
use bulkdoku::rate::Rater;
use bulkdoku::rules::{self, grid_exists, Generated, Rule, RuleSet, VariantSolver};
use bulkdoku::solver::Solver;
use clap::ValueEnum;

use crate::cli::{OutputArgs, RulesArgs, ThreadArgs};
use crate::cmd::check_output;
use crate::signals::Signals;

const EXAMPLES: &str = "\
Examples:
  bulkdoku generate -n 1000 --seed 1 -o data/generated_1000.txt
  bulkdoku generate -n 5 --seed 42 | bulkdoku solve
  bulkdoku generate -n 100 --seed 1 --rules x,anti-knight
  bulkdoku generate -n 50 --seed 1 --rules jigsaw --format csv   puzzle,solution,rules,regions
  bulkdoku generate -n 100 --seed 1 --er 7.0..8.0    puzzles whose Sudoku Explainer ER is 7.0 to 8.0";

/// Arguments of `bulkdoku generate`.
#[derive(Debug, clap::Args)]
#[command(after_help = EXAMPLES)]
pub struct Args {
    /// Number of puzzles to generate.
    #[arg(short = 'n', long = "count", value_name = "N", default_value_t = 10)]
    pub count: u64,

    /// Random seed: the same seed gives the same puzzles, on any number of threads.
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,

    #[command(flatten)]
    pub rules: RulesArgs,

    /// Output format: one puzzle per line (`PUZZLE REGIONS` for jigsaw), or CSV with
    /// `puzzle,solution,rules,regions` columns.
    #[arg(long, value_enum, default_value_t = GenerateFormat::Lines)]
    pub format: GenerateFormat,

    #[command(flatten)]
    pub output: OutputArgs,

    #[command(flatten)]
    pub threads: ThreadArgs,

    /// Keep only puzzles whose ER (Sudoku Explainer rating, as `bulkdoku rate` gives
    /// it) lies in MIN..MAX, both included (e.g. `7.0..8.0`, `9..`); classic rules only.
    /// Candidates are made and rated in seed order: the same seed gives the same
    /// puzzles on any number of threads.
    #[arg(long, value_name = "MIN..MAX", value_parser = parse_er_range)]
    pub er: Option<(u8, u8)>,

    /// With --er: give up after this many candidates (the range may be rare or empty).
    #[arg(long, value_name = "N", default_value_t = 1_000_000, requires = "er")]
    pub tries: u64,
}

/// `MIN..MAX` ratings in tenths (`7.0..8.0`, `7..8`; either side may be left out).
fn parse_er_range(text: &str) -> Result<(u8, u8), String> {
    let (lo, hi) = text
        .split_once("..")
        .ok_or_else(|| format!("{text:?}: expected MIN..MAX, e.g. 7.0..8.0"))?;
    let tenths = |t: &str, default: u8| -> Result<u8, String> {
        let t = t.trim();
        if t.is_empty() {
            return Ok(default);
        }
        let v: f64 = t
            .parse()
            .map_err(|_| format!("{t:?} is not a rating such as 7.2"))?;
        let tenths = (v * 10.0).round();
        if !(0.0..=255.0).contains(&tenths) || (v * 10.0 - tenths).abs() > 1e-6 {
            return Err(format!(
                "{t:?}: a rating from 0.0 to 25.5 in tenths, such as 7.2"
            ));
        }
        Ok(tenths as u8)
    };
    let (lo, hi) = (tenths(lo, 0)?, tenths(hi, u8::MAX)?);
    if lo > hi {
        return Err(format!("{text:?}: MIN is above MAX"));
    }
    Ok((lo, hi))
}

/// Output formats of `generate`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum GenerateFormat {
    /// One puzzle per line after a `#` line naming the command.
    Lines,
    /// CSV with a header row: puzzle, solution, rules, regions.
    Csv,
}

/// Puzzles generated per parallel batch.
const BATCH: usize = 256;

/// Run `bulkdoku generate`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    check_output(args.output.output.as_deref(), &[])?;
    let rules = args.rules.rules;
    if grid_exists(rules) == Some(false) {
        bail!("--rules {rules}: no complete grid satisfies these rules together; no puzzle can be made");
    }
    if args.er.is_some() && !rules.is_classic() {
        bail!("--er rates classic Sudoku; it does not go with --rules {rules}");
    }
    let pool = pipeline::thread_pool(args.threads.get())?;
    // SIGINT and SIGTERM stop the making: the puzzles made so far are written, in
    // order, and kept in `.partial`; the output's name is left as it was.
    let signals = Signals::install();
    let stop = signals.flag();
    let path = args.output.output.as_deref();
    let output = Output::create(path)?;
    let mut out = bulkdoku::output::buffered(output.writer()?);
    let made = write_puzzles(&args, &pool, &mut out, &stop)?;
    out.flush()?;
    drop(out);
    if let (Made::Cut(n), Some(code)) = (made, signals.exit_code()) {
        // What they are: the seed's first ones (in the ER range, with `--er`).
        let which = match args.er {
            Some((lo, hi)) => format!(
                "the first {n} puzzles of the seed with ER in {}..{}",
                tenths_text(lo),
                tenths_text(hi)
            ),
            None => format!("the first {n} puzzles of the seed"),
        };
        match output.keep_partial(|file| Ok(((), file.metadata()?.len())))? {
            Some((partial, ())) => crate::say!(
                "bulkdoku: interrupted: {} is unchanged; {which} are in {}",
                path.map_or_else(String::new, |p| p.display().to_string()),
                partial.display()
            ),
            None => crate::say!("bulkdoku: interrupted after {which}"),
        }
        return Ok(code);
    }
    output.finish()?;
    Ok(ExitCode::SUCCESS)
}

/// How the making ended.
#[derive(Clone, Copy)]
enum Made {
    /// Every puzzle asked for was written.
    All,
    /// A signal stopped it after this many puzzles were written.
    Cut(u64),
}

/// The `#` line naming the command, then the puzzles, one per line; or CSV.
fn write_puzzles(
    args: &Args,
    pool: &rayon::ThreadPool,
    out: &mut (dyn Write + Send),
    stop: &AtomicBool,
) -> anyhow::Result<Made> {
    let rules = args.rules.rules;
    let command = if let Some((lo, hi)) = args.er {
        format!(
            "bulkdoku generate -n {} --seed {} --er {}..{}",
            args.count,
            args.seed,
            tenths_text(lo),
            tenths_text(hi)
        )
    } else if rules.is_classic() {
        format!("bulkdoku generate -n {} --seed {}", args.count, args.seed)
    } else {
        format!(
            "bulkdoku generate -n {} --seed {} --rules {rules}",
            args.count, args.seed
        )
    };
    match args.format {
        // The classic header as it always was, so that old files are made again
        // byte for byte.
        GenerateFormat::Lines if rules.is_classic() => writeln!(
            out,
            "# {command}: random puzzles with a unique solution, one per line"
        )?,
        GenerateFormat::Lines => {
            let shape = if rules.contains(Rule::Jigsaw) {
                "PUZZLE REGIONS"
            } else {
                "one puzzle"
            };
            writeln!(
                out,
                "# {command}: random puzzles unique and minimal under the rules {rules}; {shape} per line"
            )?;
        }
        GenerateFormat::Csv => writeln!(out, "puzzle,solution,rules,regions")?,
    }
    if let Some(range) = args.er {
        return write_rated(args, range, pool, out, stop);
    }
    let mut next = 0u64;
    let mut written = 0u64;
    let mut cut = false;
    let seed = args.seed;
    let total = args.count;
    let format = args.format;
    pool.install(|| {
        pipeline::ordered_map(
            BATCH,
            |batch: &mut Vec<u64>| -> anyhow::Result<()> {
                batch.clear();
                if next < total && stop.load(Ordering::Relaxed) {
                    // No more batches: those under way are still written.
                    cut = true;
                    return Ok(());
                }
                while batch.len() < BATCH && next < total {
                    batch.push(next);
                    next += 1;
                }
                Ok(())
            },
            || (Solver::new(), VariantSolver::new()),
            |(solver, variant_solver), &index| {
                let mut rng = Rng::for_puzzle(seed, index);
                if rules.is_classic() {
                    let puzzle = generate::generate_one(solver, &mut rng);
                    // The solution is written only in CSV.
                    let solution = match format {
                        GenerateFormat::Csv => solver.solve(&puzzle, 1).first.unwrap_or(puzzle),
                        GenerateFormat::Lines => puzzle,
                    };
                    return Ok(Generated {
                        puzzle,
                        solution,
                        regions: None,
                    });
                }
                rules::generate_one(rules, variant_solver, &mut rng).map_err(|e| e.to_string())
            },
            |_, made: &[Result<Generated, String>]| {
                for one in made {
                    let one = one.as_ref().map_err(|e| anyhow::anyhow!("{e}"))?;
                    write_one(out, one, rules, format)?;
                    written += 1;
                }
                Ok(())
            },
        )
    })?;
    Ok(if cut { Made::Cut(written) } else { Made::All })
}

/// Puzzles whose ER lies in `lo..=hi` (tenths): candidates `0, 1, 2...` of the seed,
/// each generated and rated on the pool, kept in candidate order until there are
/// enough (or `--tries` candidates were made).
fn write_rated(
    args: &Args,
    (lo, hi): (u8, u8),
    pool: &rayon::ThreadPool,
    out: &mut (dyn Write + Send),
    stop: &AtomicBool,
) -> anyhow::Result<Made> {
    let (seed, total, tries, format) = (args.seed, args.count, args.tries, args.format);
    let found = AtomicU64::new(0);
    let mut next = 0u64;
    let mut cut = false;
    pool.install(|| {
        pipeline::ordered_map(
            BATCH,
            |batch: &mut Vec<u64>| -> anyhow::Result<()> {
                batch.clear();
                if stop.load(Ordering::Relaxed) {
                    cut = true;
                    return Ok(());
                }
                while batch.len() < BATCH && next < tries && found.load(Ordering::Relaxed) < total {
                    batch.push(next);
                    next += 1;
                }
                Ok(())
            },
            || (Solver::new(), Rater::new()),
            |(solver, rater), &index| {
                let mut rng = Rng::for_puzzle(seed, index);
                let puzzle = generate::generate_one(solver, &mut rng);
                let er = rater.rate(&puzzle, false).ok()?.er;
                (lo..=hi).contains(&er).then(|| {
                    let solution = match format {
                        GenerateFormat::Csv => solver.solve(&puzzle, 1).first.unwrap_or(puzzle),
                        GenerateFormat::Lines => puzzle,
                    };
                    Generated {
                        puzzle,
                        solution,
                        regions: None,
                    }
                })
            },
            |_, made: &[Option<Generated>]| {
                for one in made.iter().flatten() {
                    if found.load(Ordering::Relaxed) < total {
                        write_one(out, one, RuleSet::CLASSIC, format)?;
                        found.fetch_add(1, Ordering::Relaxed);
                    }
                }
                Ok(())
            },
        )
    })?;
    let found = found.into_inner();
    if cut && found < total {
        return Ok(Made::Cut(found));
    }
    if found < total {
        bail!(
            "found {found} of {total} puzzles with ER in {}..{} among {tries} candidates \
             (--tries); the range may be rare: widen it or raise --tries",
            tenths_text(lo),
            tenths_text(hi)
        );
    }
    Ok(Made::All)
}

/// One generated puzzle in `format`.
fn write_one(
    out: &mut (dyn Write + Send),
    made: &Generated,
    rules: RuleSet,
    format: GenerateFormat,
) -> std::io::Result<()> {
    let regions = made.regions.map(|r| r.to_line()).unwrap_or_default();
    match format {
        GenerateFormat::Lines if regions.is_empty() => writeln!(out, "{}", made.puzzle.to_line()),
        GenerateFormat::Lines => writeln!(out, "{} {regions}", made.puzzle.to_line()),
        // A rule list holds commas: quoted.
        GenerateFormat::Csv => writeln!(
            out,
            "{},{},\"{rules}\",{regions}",
            made.puzzle.to_line(),
            made.solution.to_line(),
        ),
    }
}
