//! `bulkdoku solve`: solve every record of one or more datasets and write one row per
//! record (per solution with `--all-solutions`), in input order, then a summary on
//! stderr.
//!
//! The work is the library's [`solve_dataset`]; this command turns flags into its
//! [`SolveConfig`], opens the output in the chosen format, and prints the summary.

use std::collections::BTreeMap;
use std::process::ExitCode;

use anyhow::bail;
use bulkdoku::dataset::{check_inputs, Driver, Source, Summary};
use bulkdoku::output::file::partial_path;
use bulkdoku::output::{self, OutputFormat};
use bulkdoku::resume::{grid_records_done, solve_jsonl_rows_done, solve_rows_done, RunRecord};
use bulkdoku::row::Status;
use bulkdoku::solving::{check_keep, solve_dataset, SolveConfig, SolveOptions, Tally};
use bulkdoku::units::{duration, human_rate, rate};

use crate::cli::{
    self, InputArgs, OutputArgs, ParquetArgs, ProgressArgs, RowsArgs, RulesArgs, ThreadArgs,
};
use crate::cmd::checkpointing::{parquet_rows_done, replay_aside, Checkpointing};
use crate::cmd::{open_output_with, Continue};
use crate::progress::Bar;
use crate::signals::Signals;

const EXAMPLES: &str = "\
Examples:
  bulkdoku solve puzzles.txt -o solved.csv       one row per puzzle, all cores
  bulkdoku solve a.txt b.csv.gz -j 2             several files (see the `file` column)
  zcat big.txt.gz | bulkdoku solve > out.csv     standard input
  bulkdoku solve train.csv --column quizzes --keep id,difficulty
  bulkdoku solve --first hard.txt                fastest: stop at the first solution
  bulkdoku solve --all-solutions --limit 100 x.txt   one row per solution
  bulkdoku solve --output-format grid poj2676.txt    boxed 9x9 grids on the terminal
  bulkdoku solve puzzles.txt -o solved.parquet   typed columns for pandas, polars, DuckDB
  bulkdoku solve puzzles.txt -o solved.jsonl     JSON Lines (resumable, typed)

Exit codes: 0 done (invalid records are rows with status `invalid`); 1 an invalid record
with --strict; 2 an unreadable file, broken CSV, or bad arguments; 130 / 143 stopped by
SIGINT / SIGTERM (a search under way is cut; the rows of the records done before it
are written whole; --resume continues from it).";

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

    #[command(flatten)]
    pub rules: RulesArgs,

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

    #[command(flatten)]
    pub rows: RowsArgs,

    #[command(flatten)]
    pub parquet: ParquetArgs,
}

/// Run `bulkdoku solve`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let limit = if args.first { 1 } else { args.limit };
    let rules = args.rules.rules;
    let mut config = SolveConfig::default()
        .options(
            SolveOptions::default()
                .limit(limit)
                .all_solutions(args.all_solutions)
                .rules(rules),
        )
        .keep(
            args.keep
                .iter()
                .filter(|k| !k.is_empty())
                .cloned()
                .collect(),
        )
        .strict(args.strict);
    let format = cli::output_format(
        args.rows.output_format.map(OutputFormat::from),
        args.output.output.as_deref(),
    )?;
    let parquet = args.parquet.options(format)?;
    match format {
        OutputFormat::Grid if args.rows.resume => {
            bail!("--resume continues CSV or JSON Lines output; grid pictures cannot be read back")
        }
        _ => {}
    }

    // Everything is checked before the output is touched.
    let inputs = args.input.inputs();
    let input_options = args.input.options(rules);
    let sources = check_inputs(&inputs, &input_options)?;
    for source in sources.iter().flatten() {
        check_keep(source, &config.keep)?;
    }
    // The rules and regions of each row are written when any may be other than
    // classic: by --rules, or by a rules or regions column of an input.
    config = config
        .variant_columns(!rules.is_classic() || sources.iter().flatten().any(has_variant_columns));
    output::check_solve_sink(format, &config.extra_columns())?;
    let header = !args.rows.no_header;
    let starts_with_header = header;
    let all_solutions = args.all_solutions;
    let continued = match format {
        // Its footer must describe every row group: written again, not appended to.
        OutputFormat::Parquet => Continue::Aside,
        _ => Continue::InPlace(Box::new(
            |file: &mut std::fs::File, _: &RunRecord| match format {
                OutputFormat::Jsonl => solve_jsonl_rows_done(file, all_solutions),
                _ => solve_rows_done(file, header, all_solutions),
            },
        )),
    };
    let mut opened = open_output_with(
        args.output.output.as_deref(),
        &inputs,
        || RunRecord::new("solve", run_options(&args, limit, format), &inputs),
        args.rows.resume,
        continued,
    )?;
    // A resumed output already has its header.
    let header = header && opened.output.is_empty()?;
    let writer = output::buffered(opened.output.writer()?);
    let mut sink =
        output::solve_sink_with(format, writer, &config.extra_columns(), header, parquet)?;
    if let Some(aside) = &opened.aside {
        opened.skip = replay_aside(aside, opened.resumed.as_ref(), &mut *sink, all_solutions)?;
    }
    let mut sink = Checkpointing::new(sink, &opened)?;

    let signals = Signals::install();
    let progress = Bar::new(
        args.progress.progress,
        args.progress.quiet,
        Driver::total_bytes(&inputs),
    );
    let driver = Driver::new(inputs, input_options)
        .threads(args.threads.get())
        .batch_size(args.rows.batch_size)
        .progress(progress)
        .stop_flag(signals.flag())
        .skip(opened.skip);
    let report = solve_dataset(driver, &config, &mut sink);
    let saved = sink.saved();
    drop(sink);
    let path = opened.path.clone();
    let skipped = opened.skip;
    let whole = |file: &mut std::fs::File| match format {
        OutputFormat::Jsonl => solve_jsonl_rows_done(file, all_solutions),
        OutputFormat::Grid => grid_records_done(file),
        // Its last checkpoint saved: the row groups it counts, and their footer.
        OutputFormat::Parquet => parquet_rows_done(file, saved.as_deref()),
        _ => solve_rows_done(file, starts_with_header, all_solutions),
    };
    let (report, kept) = opened.end_run(report, |r| r.summary.interrupted, whole)?;
    if let Some(stop) = report.strict_stop {
        crate::say!("bulkdoku: {}:{}: {}", stop.file, stop.line, stop.reason);
        return Ok(ExitCode::from(1));
    }
    if !args.progress.quiet {
        if skipped > 0 {
            crate::say!("bulkdoku: resumed after {skipped} records done before");
        }
        crate::say!(
            "{}",
            summary_text(&report.summary, &report.tally, config.options.first_only())
        );
    }
    if let Some(code) = signals.exit_code().filter(|_| report.summary.interrupted) {
        if let (Some(path), Some(records)) = (path, kept) {
            crate::say!(
                "bulkdoku: interrupted: {} is unchanged; the rows of the first {records} \
                 records are in {}; to continue: {}",
                path.display(),
                partial_path(&path).display(),
                crate::cmd::resume_command()
            );
        }
        return Ok(code);
    }
    Ok(ExitCode::SUCCESS)
}

/// Whether a CSV input has a column of per-row rules or regions.
pub fn has_variant_columns(source: &Source) -> bool {
    source.headers.as_ref().is_some_and(|headers| {
        headers
            .iter()
            .any(|h| h.eq_ignore_ascii_case("rules") || h.eq_ignore_ascii_case("regions"))
    })
}

/// The options that shape `solve`'s rows, as its run record keeps them.
fn run_options(args: &Args, limit: u64, format: OutputFormat) -> BTreeMap<String, String> {
    let input = &args.input;
    [
        ("--limit", limit.to_string()),
        ("--all-solutions", args.all_solutions.to_string()),
        ("--keep", args.keep.join(",")),
        ("--strict", args.strict.to_string()),
        ("--format", format!("{:?}", input.format)),
        ("--column", input.column.clone().unwrap_or_default()),
        ("--line-offset", input.line_offset.to_string()),
        ("--output-format", format!("{format:?}")),
        ("--no-header", args.rows.no_header.to_string()),
        ("--rules", args.rules.rules.to_string()),
        (
            "--regions-column",
            input.regions_column.clone().unwrap_or_default(),
        ),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect()
}

/// The end-of-run summary for stderr.
fn summary_text(summary: &Summary, tally: &Tally, first_only: bool) -> String {
    let shown: &[Status] = if first_only {
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
        .map(|&s| format!("{} {s}", tally.get(s)))
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
        duration(tally.times.percentile(50.0) as f64),
        duration(tally.times.percentile(99.0) as f64),
    )
}
