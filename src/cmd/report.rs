//! `bulkdoku report`: read `solve` runs, summarise their timings, write the summary in
//! the chosen format, and optionally plot it and compare it with a baseline run; or,
//! on `rate` outputs, the ER distribution, hardest techniques and slowest puzzles.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::ValueEnum;

use bulkdoku::report::ratings::{self, RateSummary};
use bulkdoku::report::{format, run, Comparison, RunRow, Summary};

use crate::cli::OutputArgs;
use crate::cmd::{check_output, with_output};
use crate::plot;
use bulkdoku::output::file::check_target;

/// Arguments of `bulkdoku report`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Run files written by `bulkdoku solve` (`-` for standard input), or outputs of
    /// `bulkdoku rate`; several files are summarised together.
    #[arg(value_name = "RUN.csv", required = true)]
    pub runs: Vec<PathBuf>,

    /// Output format.
    #[arg(long, value_enum, default_value_t = ReportFormat::Text)]
    pub format: ReportFormat,

    /// How many of the slowest puzzles to list.
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub top: usize,

    /// Also draw the latency histogram and CDF (for `rate` outputs: the ER histogram)
    /// into FILE (`.svg` or `.png`).
    #[arg(long, value_name = "FILE")]
    pub plot: Option<PathBuf>,

    /// Compare puzzle by puzzle with another run of the same dataset.
    #[arg(long, value_name = "OTHER.csv")]
    pub baseline: Option<PathBuf>,

    /// Where the report goes.
    #[command(flatten)]
    pub output: OutputArgs,
}

/// Report formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ReportFormat {
    /// Aligned text for the terminal.
    Text,
    /// Markdown tables.
    Md,
    /// One JSON object.
    Json,
}

fn read_runs(paths: &[PathBuf]) -> anyhow::Result<(Vec<String>, Vec<RunRow>)> {
    let mut names = Vec::with_capacity(paths.len());
    let mut rows = Vec::new();
    for path in paths {
        rows.extend(run::read_run_file(path)?);
        names.push(path.display().to_string());
    }
    Ok((names, rows))
}

/// Run `bulkdoku report`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let inputs: Vec<Option<PathBuf>> = args
        .runs
        .iter()
        .chain(&args.baseline)
        .map(|p| Some(p.clone()))
        .collect();
    check_output(args.output.output.as_deref(), &inputs)?;
    if let Some(path) = &args.plot {
        check_target(path, "--plot", &inputs)?;
        plot::check_extension(path)?;
    }
    let paths: Vec<&std::path::Path> = args.runs.iter().map(|p| p.as_path()).collect();
    if ratings::check_all_rated(&paths)? {
        return rate_report(&args);
    }
    let (names, rows) = read_runs(&args.runs)?;
    let mut summary = Summary::new(names, &rows, args.top);
    if let Some(base_path) = &args.baseline {
        let (base_names, base_rows) = read_runs(std::slice::from_ref(base_path))?;
        summary.baseline = Some(Comparison::new(&rows, &base_rows, base_names, args.top));
    }
    if let Some(path) = &args.plot {
        plot::draw(&summary, path)?;
    }

    with_output(args.output.output.as_deref(), |out| {
        match args.format {
            ReportFormat::Text => format::write_text(&summary, out)?,
            ReportFormat::Md => format::write_markdown(&summary, out)?,
            ReportFormat::Json => format::write_json(&summary, out)?,
        }
        Ok(())
    })?;
    Ok(ExitCode::SUCCESS)
}

/// The report on `rate` outputs: the ER distribution, the hardest techniques, the
/// slowest puzzles to rate.
fn rate_report(args: &Args) -> anyhow::Result<ExitCode> {
    if args.baseline.is_some() {
        anyhow::bail!("--baseline compares `solve` runs; it does not apply to `rate` outputs");
    }
    let mut rows = Vec::new();
    for path in &args.runs {
        rows.extend(ratings::read_rate_file(path)?);
    }
    let names = args.runs.iter().map(|p| p.display().to_string()).collect();
    let summary = RateSummary::new(names, &rows, args.top);
    if let Some(path) = &args.plot {
        plot::draw_er(&summary, path)?;
    }
    with_output(args.output.output.as_deref(), |out| {
        match args.format {
            ReportFormat::Text => ratings::write_text(&summary, out)?,
            ReportFormat::Md => ratings::write_markdown(&summary, out)?,
            ReportFormat::Json => ratings::write_json(&summary, out)?,
        }
        Ok(())
    })?;
    Ok(ExitCode::SUCCESS)
}
