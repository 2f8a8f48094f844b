//! `bulkdoku verify`: prove a dataset clean, or list exactly what is wrong with it.
//!
//! The checks are the library's ([`bulkdoku::verify`]): per record on the dataset
//! driver's workers, then in input order through a [`Ledger`]; this command writes
//! the findings (CSV, JSON Lines or Parquet: [`output::FindingSink`]) and the summary.

use std::collections::BTreeMap;
use std::io::Write as _;
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use bulkdoku::dataset::{check_inputs, Driver, Item, Source};
use bulkdoku::dedup::FirstSeen;
use bulkdoku::grid::CELLS;
use bulkdoku::input::InputOptions;
use bulkdoku::output::file::{check_target, Output};
use bulkdoku::output::{self, FindingRow, FindingSink, OutputFormat};
use bulkdoku::resume::{Checkpoint, RunRecord};
use bulkdoku::rules::Rule;
use bulkdoku::units::{human_rate, rate};
use bulkdoku::verify::{Checked, Checks, Claims, Columns, Finding, Kind, Ledger, Scratch};

use crate::cli::{
    self, FindingsFormatArg, InputArgs, OutputArgs, ParquetArgs, ProgressArgs, RulesArgs,
    ThreadArgs,
};
use crate::cmd::{open_output, Ending, Opened};
use crate::progress::Bar;
use crate::signals::Signals;

const EXAMPLES: &str = "\
Examples:
  bulkdoku verify puzzles.txt                    findings as CSV on stdout
  bulkdoku verify train.csv --isomorphs --minimal -o findings.csv
  bulkdoku verify data.csv --solution-column answer --summary summary.json
  bulkdoku verify --all puzzles.txt              a row for every puzzle, `ok` when clean
  bulkdoku verify --all data.csv -o findings.parquet   typed columns for dataframes

Exit codes: 0 clean; 1 something was found; 2 an unreadable file, broken CSV, or bad
arguments.";

/// Arguments of `bulkdoku verify`.
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

    /// Report puzzles equivalent to an earlier one under the Sudoku symmetries (under
    /// variant rules: the symmetries that keep the rules).
    #[arg(long)]
    pub isomorphs: bool,

    /// Report puzzles with a given that can be removed keeping a unique solution.
    #[arg(long)]
    pub minimal: bool,

    /// Also write an `ok` row for every puzzle without findings.
    #[arg(long)]
    pub all: bool,

    /// The solution column of a CSV input (default: `solutions`, `solution` or `answer`).
    #[arg(long, value_name = "NAME")]
    pub solution_column: Option<String>,

    /// Findings format [default: by -o's extension (.parquet, .jsonl, .ndjson), else csv].
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub output_format: Option<FindingsFormatArg>,

    /// Leave out the CSV header row (to concatenate the outputs of shards); JSON Lines
    /// and Parquet have no header row, and ignore it.
    #[arg(long)]
    pub no_header: bool,

    /// Continue the interrupted run that wrote -o FILE: keep its findings up to its
    /// last checkpoint, skip the records done, append the rest (same inputs and
    /// options required).
    #[arg(long)]
    pub resume: bool,

    #[command(flatten)]
    pub parquet: ParquetArgs,

    /// Also write the summary as JSON to FILE.
    #[arg(long, value_name = "FILE")]
    pub summary: Option<PathBuf>,
}

/// The summary `--summary` writes.
#[derive(Debug, serde::Serialize)]
struct SummaryJson {
    puzzles: u64,
    kinds: BTreeMap<&'static str, u64>,
    puzzles_with_findings: u64,
    duplicate_groups: u64,
    isomorph_groups: u64,
    seconds: f64,
    threads: usize,
    /// False when the run was interrupted before the end of its input.
    complete: bool,
}

/// The state of the sequential drain.
struct Drain {
    sink: Box<dyn FindingSink>,
    with_file: bool,
    all: bool,
    solution_column: Option<String>,
    columns: Vec<Columns>,
    ledger: Ledger,
    findings: Vec<Finding>,
}

impl Drain {
    /// Note in the run record that `done` records are verified, with the findings
    /// written so far and the totals (flushing the findings first).
    fn checkpoint(&mut self, opened: &mut Opened, done: u64) -> anyhow::Result<()> {
        let (Some(record), Some(path)) = (&mut opened.record, &opened.path) else {
            return Ok(());
        };
        self.sink.flush()?;
        // The findings the checkpoint counts are on the disk before it is.
        opened.output.sync()?;
        record.checkpoint = Some(Checkpoint {
            records: done,
            bytes: opened.output.len()?,
            totals: serde_json::to_value(self.ledger.tally())?,
        });
        record.save(path)
    }

    fn record(
        &mut self,
        sources: &[Arc<Source>],
        item: &Item,
        checked: &Checked,
    ) -> anyhow::Result<()> {
        while self.columns.len() < sources.len() {
            let source = &sources[self.columns.len()];
            self.columns.push(Columns::find(
                &source.name,
                source.headers.as_deref(),
                self.solution_column.as_deref(),
            )?);
        }
        let columns = self.columns[item.file];
        let field =
            |i: Option<usize>| i.and_then(|i| item.record.fields.get(i).map(String::as_str));
        let claims = Claims {
            solution: field(columns.solution),
            clues: field(columns.clues),
        };
        let with_file = self.with_file;
        self.ledger.record(
            item.file,
            item.record.line,
            checked,
            claims,
            |first| where_(sources, first, with_file),
            &mut self.findings,
        );
        if self.findings.is_empty() {
            if self.all {
                self.write(sources, item, checked, Kind::Ok, "")?;
            }
            return Ok(());
        }
        let findings = std::mem::take(&mut self.findings);
        for (kind, detail) in &findings {
            self.write(sources, item, checked, *kind, detail)?;
        }
        self.findings = findings;
        Ok(())
    }

    fn write(
        &mut self,
        sources: &[Arc<Source>],
        item: &Item,
        checked: &Checked,
        kind: Kind,
        detail: &str,
    ) -> std::io::Result<()> {
        let mut line = [0u8; CELLS];
        let puzzle: &[u8] = match &checked.grid {
            Some(g) => {
                g.write_line(&mut line);
                &line
            }
            None => &item.record.cells,
        };
        self.sink.write(&FindingRow {
            file: &sources[item.file].name,
            line: item.record.line,
            puzzle,
            kind,
            detail,
        })
    }
}

/// "line N", or "line N of FILE" when several inputs are read.
fn where_(sources: &[Arc<Source>], first: FirstSeen, with_file: bool) -> String {
    match sources.get(first.file()).filter(|_| with_file) {
        Some(source) => format!("line {} of {}", first.line(), source.name),
        None => format!("line {}", first.line()),
    }
}

/// How often `verify` notes a checkpoint for `--resume`, at most.
const CHECKPOINT_EVERY: Duration = Duration::from_secs(1);

/// Run `bulkdoku verify`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let rules = args.rules.rules;
    if args.isomorphs && rules.contains(Rule::Jigsaw) {
        bail!(
            "--isomorphs does not apply to jigsaw puzzles: no symmetry of the grid keeps \
             every region layout, and classic symmetries would be wrong"
        );
    }
    let checks = Checks::new(args.isomorphs, args.minimal).rules(rules);
    let with_file = args.input.files.len() > 1;
    let format = cli::output_format(
        args.output_format.map(OutputFormat::from),
        args.output.output.as_deref(),
    )?;
    let parquet = args.parquet.options(format)?;
    if format == OutputFormat::Parquet && args.resume {
        bail!(
            "--resume cannot continue a Parquet output: a stopped run's file is finished \
             (footer written) and a killed run's has no footer to find its rows by. \
             Run again without --resume, or write JSON Lines (-o FILE.jsonl) for runs \
             that may need resuming"
        );
    }

    // Everything is checked before any output is touched.
    let inputs = args.input.inputs();
    let input_options = args.input.options(rules);
    let sources = check_inputs(&inputs, &input_options)?;
    for source in sources.iter().flatten() {
        Columns::find(
            &source.name,
            source.headers.as_deref(),
            args.solution_column.as_deref(),
        )?;
    }
    if let Some(path) = &args.summary {
        check_target(path, "--summary", &inputs)?;
    }
    let mut opened = open_output(
        args.output.output.as_deref(),
        &inputs,
        || RunRecord::new("verify", run_options(&args, format), &inputs),
        args.resume,
        |file, previous| {
            let Some(checkpoint) = &previous.checkpoint else {
                return Ok((0, 0));
            };
            let len = file.metadata()?.len();
            if len < checkpoint.bytes {
                bail!(
                    "its findings are shorter ({len} bytes) than at its last checkpoint \
                     ({} bytes): they were cut or changed since",
                    checkpoint.bytes
                );
            }
            Ok((checkpoint.records, checkpoint.bytes))
        },
    )?;
    if let (OutputFormat::Parquet, Some(path)) = (format, &opened.path) {
        // Not resumable: no record, and no checkpoints, for --resume to find.
        RunRecord::remove(path)?;
        opened.record = None;
    }
    let mut ledger = Ledger::new(args.isomorphs);
    if let Some(checkpoint) = opened.resumed.as_ref().and_then(|r| r.checkpoint.as_ref()) {
        ledger.restore(serde_json::from_value(checkpoint.totals.clone())?);
        replay(
            &inputs,
            &input_options,
            &args,
            checks,
            opened.skip,
            &mut ledger,
        )?;
    }

    let header = !args.no_header && opened.output.is_empty()?;
    let sink = output::findings_sink(
        format,
        output::buffered(opened.output.writer()?),
        with_file,
        header,
        parquet,
    )?;
    let mut drain = Drain {
        sink,
        with_file,
        all: args.all,
        solution_column: args.solution_column.clone(),
        columns: Vec::new(),
        ledger,
        findings: Vec::new(),
    };

    let signals = Signals::install();
    let progress = Bar::new(
        args.progress.progress,
        args.progress.quiet,
        Driver::total_bytes(&inputs),
    );
    let driver = Driver::new(inputs, input_options)
        .threads(args.threads.get())
        .progress(progress)
        .stop_flag(signals.flag())
        .skip(opened.skip);
    let mut done = opened.skip;
    let mut last_checkpoint = Instant::now();
    let summary = driver.run(
        Scratch::default,
        |scratch, item| checks.check(scratch, &item.record),
        |sources, items, results| {
            for (item, checked) in items.iter().zip(results) {
                drain.record(sources, item, checked)?;
            }
            done += items.len() as u64;
            if last_checkpoint.elapsed() >= CHECKPOINT_EVERY {
                drain.checkpoint(&mut opened, done)?;
                last_checkpoint = Instant::now();
            }
            Ok(ControlFlow::Continue(()))
        },
    );
    // Whatever stopped the run first: an input, or writing the findings.
    let mut failed = None;
    let summary = summary.map_err(|e| failed = Some(e)).ok();
    let flushed = drain.sink.flush();
    let interrupted = summary.as_ref().is_some_and(|s| s.interrupted);
    if let Err(e) = flushed {
        failed.get_or_insert(e.into());
    } else if failed.is_some() || interrupted {
        // A run that stops keeps an exact checkpoint of its whole findings.
        if let Err(e) = drain.checkpoint(&mut opened, done) {
            failed.get_or_insert(e);
        }
    }
    // Parquet's footer: the rows so far make a whole file, also when interrupted.
    if let Err(e) = drain.sink.finish() {
        failed.get_or_insert(e.into());
    }
    drop(drain.sink);
    let path = opened.path.clone();
    let checkpoint = opened.record.as_ref().and_then(|r| r.checkpoint.clone());
    let whole = |file: &mut std::fs::File| -> anyhow::Result<(u64, u64)> {
        match (&checkpoint, format) {
            (_, OutputFormat::Parquet) => Ok((done, file.metadata()?.len())),
            (Some(c), _) => Ok((c.records, c.bytes)),
            // No run record (standard input): the findings up to the last whole line.
            (None, _) => Ok((0, last_line_end(file)?)),
        }
    };
    let complete = failed.is_none() && !interrupted;
    let kept = match failed {
        Some(err) => {
            opened.end(Ending::Failed(err), whole)?;
            unreachable!("a failed run ends in an error");
        }
        None if interrupted => opened.end(Ending::Interrupted, whole)?,
        None => opened.end(Ending::Complete, whole)?,
    };
    let summary = summary.expect("a run that did not fail has a summary");

    let tally = drain.ledger.tally();
    let shown: Vec<Kind> = Kind::ALL
        .into_iter()
        .filter(|&k| match k {
            Kind::Isomorph => args.isomorphs,
            Kind::NotMinimal => args.minimal,
            _ => true,
        })
        .collect();
    let records = tally.records();
    if let Some(path) = &args.summary {
        let json = SummaryJson {
            puzzles: records,
            kinds: shown.iter().map(|&k| (k.as_str(), tally.get(k))).collect(),
            puzzles_with_findings: tally.puzzles_with_findings,
            duplicate_groups: tally.duplicate_groups,
            isomorph_groups: tally.isomorph_groups,
            seconds: summary.elapsed.as_secs_f64(),
            threads: summary.threads,
            complete,
        };
        let text = serde_json::to_string_pretty(&json)?;
        let summary_out = Output::create(Some(path))?;
        summary_out
            .writer()?
            .write_all((text + "\n").as_bytes())
            .with_context(|| format!("cannot write {}", path.display()))?;
        summary_out.finish()?;
    }
    if !args.progress.quiet {
        let counts: Vec<String> = shown
            .iter()
            .filter(|&&k| k != Kind::Ok)
            .map(|&k| format!("{} {}", tally.get(k), k.as_str()))
            .collect();
        let verdict = if !complete {
            "interrupted, NOT verified to the end".to_string()
        } else if tally.puzzles_with_findings == 0 {
            "clean".to_string()
        } else {
            format!("{} with findings", tally.puzzles_with_findings)
        };
        crate::say!(
            "bulkdoku: verified {records} puzzles: {verdict}\n\
             bulkdoku: {}\n\
             bulkdoku: {} duplicate groups{}\n\
             bulkdoku: {:.3} s wall, {} puzzles/s on {} thread{}",
            counts.join(", "),
            tally.duplicate_groups,
            if args.isomorphs {
                format!(", {} isomorph groups", tally.isomorph_groups)
            } else {
                String::new()
            },
            summary.elapsed.as_secs_f64(),
            human_rate(rate(summary.records, summary.elapsed)),
            summary.threads,
            if summary.threads == 1 { "" } else { "s" },
        );
    }
    if let Some(code) = signals.exit_code().filter(|_| summary.interrupted) {
        if let (Some(path), Some(records)) = (path, kept) {
            crate::say!(
                "bulkdoku: interrupted: {} is unchanged; the findings of the first \
                 {records} records are in {}; to continue: {}",
                path.display(),
                bulkdoku::output::file::partial_path(&path).display(),
                crate::cmd::resume_command()
            );
        }
        return Ok(code);
    }
    Ok(if tally.puzzles_with_findings == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// Put the first `n` records, verified by an interrupted run, back into the ledger's
/// tables of what was seen: fingerprints only, no solving, on all threads.
fn replay(
    inputs: &[Option<PathBuf>],
    options: &InputOptions,
    args: &Args,
    checks: Checks,
    n: u64,
    ledger: &mut Ledger,
) -> anyhow::Result<()> {
    Driver::new(inputs.to_vec(), options.clone())
        .threads(args.threads.get())
        .take(n)
        .run(
            Scratch::default,
            |scratch, item| checks.fingerprints(scratch, &item.record),
            |_, items, results| {
                for (item, checked) in items.iter().zip(results) {
                    ledger.replay(item.file, item.record.line, checked);
                }
                Ok(ControlFlow::Continue(()))
            },
        )?;
    Ok(())
}

/// The options that shape `verify`'s rows, as its run record keeps them.
fn run_options(args: &Args, format: OutputFormat) -> BTreeMap<String, String> {
    let input = &args.input;
    [
        ("--isomorphs", args.isomorphs.to_string()),
        ("--minimal", args.minimal.to_string()),
        ("--all", args.all.to_string()),
        (
            "--solution-column",
            args.solution_column.clone().unwrap_or_default(),
        ),
        ("--format", format!("{:?}", input.format)),
        ("--column", input.column.clone().unwrap_or_default()),
        ("--line-offset", input.line_offset.to_string()),
        ("--no-header", args.no_header.to_string()),
        ("--output-format", format!("{format:?}")),
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

/// The length of `file` up to the end of its last whole line.
fn last_line_end(file: &mut std::fs::File) -> anyhow::Result<u64> {
    use std::io::Read;
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes)?;
    Ok(bytes
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i as u64 + 1))
}
