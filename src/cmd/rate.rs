//! `bulkdoku rate`: rate every record of one or more datasets on Sudoku Explainer's
//! scale (ER, EP, ED) and write one row per record, in input order, then a summary on
//! stderr.
//!
//! The work is the library's [`rate_dataset`]; this command opens the inputs and the
//! output as `solve` does (same formats, `--resume`, `--no-header`, progress bar and
//! signals) and prints the summary.

use std::collections::BTreeMap;
use std::process::ExitCode;

use anyhow::bail;
use bulkdoku::dataset::{check_inputs, Driver};
use bulkdoku::output::ratings::{check_rate_sink, tenths_text};
use bulkdoku::output::{self, rate_sink, OutputFormat};
use bulkdoku::rating::{rate_dataset, RateReport};
use bulkdoku::resume::{solve_jsonl_rows_done, solve_rows_done, RunRecord};
use bulkdoku::row::Status;
use bulkdoku::rules::RuleSet;
use bulkdoku::solving::check_keep;
use bulkdoku::units::{duration, human_rate, rate};

use crate::cli::{self, InputArgs, OutputArgs, ParquetArgs, ProgressArgs, RowsArgs, ThreadArgs};
use crate::cmd::open_output;
use crate::progress::Bar;
use crate::signals::Signals;

const EXAMPLES: &str = "\
Examples:
  bulkdoku rate puzzles.txt -o rated.csv         one row per puzzle, all cores
  bulkdoku rate a.txt b.csv.gz -j 2              several files (see the `file` column)
  bulkdoku rate puzzles.txt -o rated.parquet     typed columns (ratings as floats, nulls)
  bulkdoku rate p.txt -o r.parquet --compression lz4   a faster codec than zstd
  bulkdoku rate big.txt -o rated.jsonl --resume  continue an interrupted run
  bulkdoku report rated.csv --plot er.svg        the ER distribution of a rated dataset

Columns: file, line, puzzle, status, er, ep, ed, er_technique, steps, time_ns, error.
`status` is solve's verdict; only `unique` puzzles are rated (ER, EP and ED printed with
one decimal, as Sudoku Explainer's serate prints them); other rows have no ratings.

Exit codes: 0 done (invalid records are rows with status `invalid`); 2 an unreadable file,
broken CSV, or bad arguments; 130 / 143 stopped by SIGINT / SIGTERM (a search under way
is cut; the rows of the records done before it are written whole; --resume continues).";

/// Arguments of `bulkdoku rate`.
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

    /// Copy these columns of a CSV input to the output (comma-separated names).
    #[arg(long, value_name = "COLUMNS", value_delimiter = ',')]
    pub keep: Vec<String>,

    #[command(flatten)]
    pub rows: RowsArgs,

    #[command(flatten)]
    pub parquet: ParquetArgs,
}

/// Run `bulkdoku rate`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let keep: Vec<String> = args
        .keep
        .iter()
        .filter(|k| !k.is_empty())
        .cloned()
        .collect();
    let format = cli::output_format(
        args.rows.output_format.map(OutputFormat::from),
        args.output.output.as_deref(),
    )?;
    match format {
        OutputFormat::Grid => bail!("rate writes CSV, JSON Lines or Parquet, not grids"),
        OutputFormat::Parquet if args.rows.resume => bail!(
            "--resume cannot continue a Parquet output (its footer is written last); \
             run again without --resume, or write JSON Lines (-o FILE.jsonl) for runs \
             that may need resuming"
        ),
        _ => {}
    }
    let parquet = args.parquet.options(format)?;

    // Everything is checked before the output is touched.
    let inputs = args.input.inputs();
    let input_options = args.input.options(RuleSet::CLASSIC);
    let sources = check_inputs(&inputs, &input_options)?;
    for source in sources.iter().flatten() {
        check_keep(source, &keep)?;
    }
    check_rate_sink(format, &keep)?;
    let header = !args.rows.no_header;
    let header_written = header;
    let mut opened = open_output(
        args.output.output.as_deref(),
        &inputs,
        || RunRecord::new("rate", run_options(&args, &keep, format), &inputs),
        args.rows.resume,
        // One row per record: the rows whole so far are the records done.
        |file, _| match format {
            OutputFormat::Jsonl => solve_jsonl_rows_done(file, false),
            _ => solve_rows_done(file, header, false),
        },
    )?;
    if let (OutputFormat::Parquet, Some(path)) = (format, &opened.path) {
        // Not resumable: no record for --resume to find.
        RunRecord::remove(path)?;
        opened.record = None;
    }
    // A resumed output already has its header.
    let header = header && opened.output.is_empty()?;
    let writer = output::buffered(opened.output.writer()?);
    let mut sink = rate_sink(format, writer, &keep, header, parquet)?;

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
    let report = rate_dataset(driver, &keep, &mut *sink);
    drop(sink);
    let path = opened.path.clone();
    let skipped = opened.skip;
    // What a run that stops keeps: its whole rows (one per record), cut as --resume
    // cuts them; a Parquet output (not resumed by `rate`) as its footer left it.
    let whole = |file: &mut std::fs::File| match format {
        OutputFormat::Jsonl => solve_jsonl_rows_done(file, false),
        OutputFormat::Parquet => Ok((0, file.metadata()?.len())),
        _ => solve_rows_done(file, header_written, false),
    };
    let (report, kept) = opened.end_run(report, |r| r.summary.interrupted, whole)?;
    if !args.progress.quiet {
        if skipped > 0 {
            crate::say!("bulkdoku: resumed after {skipped} records done before");
        }
        crate::say!("{}", summary_text(&report));
    }
    if let Some(code) = signals.exit_code().filter(|_| report.summary.interrupted) {
        if let (Some(path), Some(_)) = (path, kept) {
            let next = if format == OutputFormat::Parquet {
                "(a whole Parquet file; `rate` cannot resume Parquet)".to_string()
            } else {
                format!("to continue: {}", crate::cmd::resume_command())
            };
            crate::say!(
                "bulkdoku: interrupted: {} is unchanged; the rows done are in {} {next}",
                path.display(),
                bulkdoku::output::file::partial_path(&path).display(),
            );
        }
        return Ok(code);
    }
    Ok(ExitCode::SUCCESS)
}

/// The options that shape `rate`'s rows, as its run record keeps them.
fn run_options(args: &Args, keep: &[String], format: OutputFormat) -> BTreeMap<String, String> {
    let input = &args.input;
    [
        ("--keep", keep.join(",")),
        ("--format", format!("{:?}", input.format)),
        ("--column", input.column.clone().unwrap_or_default()),
        ("--line-offset", input.line_offset.to_string()),
        ("--output-format", format!("{format:?}")),
        ("--no-header", args.rows.no_header.to_string()),
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
fn summary_text(report: &RateReport) -> String {
    let (summary, tally) = (&report.summary, &report.tally);
    let counts: Vec<String> = [
        Status::Unique,
        Status::Multiple,
        Status::Unsolvable,
        Status::Invalid,
    ]
    .iter()
    .map(|&s| format!("{} {s}", tally.get(s)))
    .collect();
    let rated = report.rated();
    let mut text = format!(
        "bulkdoku: {} puzzles: {}; {rated} rated",
        summary.records,
        counts.join(", "),
    );
    if report.unrated > 0 {
        text += &format!(", {} unique not rated (see `error`)", report.unrated);
    }
    if rated > 0 {
        let at = |q: u64| {
            let mut seen = 0;
            report
                .by_er
                .iter()
                .position(|&n| {
                    seen += n;
                    seen >= q
                })
                .map_or(0, |i| i as u8)
        };
        let max = report.by_er.iter().rposition(|&n| n > 0).unwrap_or(0) as u8;
        text += &format!(
            "; ER median {}, max {}",
            tenths_text(at(rated.div_ceil(2))),
            tenths_text(max)
        );
    }
    text += &format!(
        "\nbulkdoku: {:.3} s wall, {} puzzles/s on {} thread{}; time per puzzle p50 {}, p99 {}",
        summary.elapsed.as_secs_f64(),
        human_rate(rate(summary.records, summary.elapsed)),
        summary.threads,
        if summary.threads == 1 { "" } else { "s" },
        duration(tally.times.percentile(50.0) as f64),
        duration(tally.times.percentile(99.0) as f64),
    );
    text
}
