//! One module per subcommand, each exposing `Args` and `run`, and the output setup
//! that `solve` and `verify` share: checks before any output is touched, the output
//! file and its run record, resuming, and what an interrupted or failed run leaves.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context};
use bulkdoku::dataset::InputChanged;
use bulkdoku::output::file::{check_target, is_stdout, partial_path, Output};
use bulkdoku::resume::{record_path, RunRecord};

use crate::cli::{Cli, Command};

pub mod bench;
pub mod checkpointing;
pub mod completions;
pub mod generate;
pub mod man;
pub mod rate;
pub mod report;
pub mod solve;
pub mod verify;

#[cfg(test)]
mod faults;

/// Run the chosen subcommand; the exit code on success, an error for exit code 2.
pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Solve(args) => solve::run(args),
        Command::Verify(args) => verify::run(args),
        Command::Rate(args) => rate::run(args),
        Command::Report(args) => report::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Generate(args) => generate::run(args),
        Command::Completions(args) => completions::run(args),
        Command::Man(args) => man::run(args),
    }
}

/// True when the error comes from writing into a closed pipe (`| head`): not a failure.
pub fn is_broken_pipe(err: &anyhow::Error) -> bool {
    every_cause(err).into_iter().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
            || cause
                .downcast_ref::<csv::Error>()
                .is_some_and(|e| matches!(e.kind(), csv::ErrorKind::Io(io) if io.kind() == std::io::ErrorKind::BrokenPipe))
    })
}

/// An output opened for a dataset run, with what `--resume` found.
pub struct Opened {
    /// Where the rows go.
    pub output: Output,
    /// The output's path (`None` for standard output).
    pub path: Option<PathBuf>,
    /// The run record kept beside a file output while the run is unfinished.
    pub record: Option<RunRecord>,
    /// Records an interrupted run already did (to skip).
    pub skip: u64,
    /// The record of the interrupted run being resumed.
    pub resumed: Option<RunRecord>,
    /// Where the rows of the resumed run wait to be written again (Parquet), if they do.
    pub aside: Option<PathBuf>,
}

/// Open the output of a dataset run, after the inputs and arguments were checked:
/// standard output, or a file (written beside its final name, see [`Output`]) with
/// the run record `now` kept beside it. With `resume`, continue the interrupted run
/// that left `path`: refuse when its inputs or options differ from `now`'s, keep the
/// whole part of its output (`whole` says how many records and bytes of it are
/// whole), and skip those records.
pub fn open_output(
    path: Option<&Path>,
    inputs: &[Option<PathBuf>],
    now: impl FnOnce() -> anyhow::Result<RunRecord>,
    resume: bool,
    whole: impl FnOnce(&mut File, &RunRecord) -> anyhow::Result<(u64, u64)>,
) -> anyhow::Result<Opened> {
    open_output_with(
        path,
        inputs,
        now,
        resume,
        Continue::InPlace(Box::new(whole)),
    )
}

/// Finds how many records of an interrupted run's output are whole, and the bytes
/// they take.
pub type WholeFn<'a> = Box<dyn FnOnce(&mut File, &RunRecord) -> anyhow::Result<(u64, u64)> + 'a>;

/// How an interrupted run's output is continued.
pub enum Continue<'a> {
    /// Cut to its whole rows in place and appended to (CSV, JSON Lines, findings):
    /// the function says how many records and bytes of it are whole.
    InPlace(WholeFn<'a>),
    /// Moved aside and written again into a new file (Parquet): the caller replays
    /// [`Opened::aside`] and sets the records to skip.
    Aside,
}

/// [`open_output`], continuing a resumed output as `how` says.
pub fn open_output_with(
    path: Option<&Path>,
    inputs: &[Option<PathBuf>],
    now: impl FnOnce() -> anyhow::Result<RunRecord>,
    resume: bool,
    how: Continue<'_>,
) -> anyhow::Result<Opened> {
    let file = path.filter(|_| !is_stdout(path));
    let Some(path) = file else {
        if resume {
            bail!("--resume needs an output file (-o FILE) to continue");
        }
        return Ok(Opened {
            output: Output::create(None)?,
            path: None,
            record: None,
            skip: 0,
            resumed: None,
            aside: None,
        });
    };
    check_target(path, "-o", inputs)?;
    // Standard input cannot be read again: without named inputs there is no record.
    let now = if inputs.iter().all(Option::is_some) || resume {
        Some(now()?)
    } else {
        None
    };
    let mut opened = Opened {
        output: Output::create(None)?,
        path: Some(path.to_path_buf()),
        record: now,
        skip: 0,
        resumed: None,
        aside: None,
    };
    let previous = if resume { RunRecord::load(path)? } else { None };
    match previous {
        Some(previous) => {
            let now = opened.record.as_ref().expect("made above with --resume");
            if let Some(why) = previous.mismatch(now) {
                bail!("cannot resume {}: {why}", path.display());
            }
            match how {
                Continue::InPlace(whole) => {
                    let mut done = (0, 0);
                    let output = Output::resume(path, |file| {
                        done = whole(file, &previous)?;
                        Ok(done.1)
                    })?;
                    opened.output = match output {
                        Some(output) => output,
                        None => Output::create(Some(path))?,
                    };
                    opened.skip = done.0;
                }
                Continue::Aside => {
                    // The record says where the rows are before anything else moves.
                    let mut noted = previous.clone();
                    noted.aside = true;
                    let aside = Output::resume_aside(path, previous.aside, |_| noted.save(path))?;
                    opened.output = match aside {
                        Some((output, old)) => {
                            opened.aside = Some(old);
                            output
                        }
                        None => Output::create(Some(path))?,
                    };
                }
            }
            opened.resumed = Some(previous);
        }
        None => {
            if resume && (path.exists() || partial_path(path).exists()) {
                bail!(
                    "cannot resume {}: it was not left by an interrupted bulkdoku run \
                     (there is no {}); remove it, or run without --resume",
                    path.display(),
                    record_path(path).display()
                );
            }
            opened.output = Output::create(Some(path))?;
        }
    }
    if let Some(record) = &mut opened.record {
        if let Some(resumed) = &opened.resumed {
            record.checkpoint = resumed.checkpoint.clone();
            // Until the rows aside are written again and checkpointed anew, the
            // checkpoint describes the file aside.
            if opened.aside.is_some() {
                record.parquet = resumed.parquet.clone();
                record.aside = true;
            }
        }
        record.save(path)?;
    }
    Ok(opened)
}

/// How a run ended, for [`Opened::end`].
#[derive(Debug)]
pub enum Ending {
    /// Every record was done: the output is committed under its final name.
    Complete,
    /// A signal stopped the run: its whole rows stay in `.partial` for `--resume`.
    Interrupted,
    /// An error stopped the run (writing, reading an input, an input that changed):
    /// its whole rows stay in `.partial`, and the error is returned with what was
    /// kept and how to continue.
    Failed(anyhow::Error),
}

impl Opened {
    /// End the run that `run` reports: failed when it is an error, interrupted when
    /// `interrupted` says so, else complete (see [`Opened::end`]). Returns the report and
    /// the records kept by an interrupted run.
    pub fn end_run<R>(
        self,
        run: anyhow::Result<R>,
        interrupted: impl FnOnce(&R) -> bool,
        whole: impl FnOnce(&mut File) -> anyhow::Result<(u64, u64)>,
    ) -> anyhow::Result<(R, Option<u64>)> {
        match run {
            Err(err) => {
                self.end(Ending::Failed(err), whole)?;
                unreachable!("a failed run ends in an error");
            }
            Ok(report) if interrupted(&report) => {
                let kept = self.end(Ending::Interrupted, whole)?;
                Ok((report, kept))
            }
            Ok(report) => {
                self.end(Ending::Complete, whole)?;
                Ok((report, None))
            }
        }
    }

    /// End the run, its writer flushed (or failed): a complete run's output is
    /// committed and its run record forgotten; any other run leaves the final name as
    /// it was and keeps its whole rows in `.partial` beside the run record, so that
    /// `--resume` can continue it. `whole` finds the records whose rows are whole in the
    /// `.partial` file and their length in bytes (the same reading as `--resume`'s).
    /// Returns the number of records kept for an interrupted run; the error, told what
    /// was kept, for a failed one.
    pub fn end(
        self,
        ending: Ending,
        whole: impl FnOnce(&mut File) -> anyhow::Result<(u64, u64)>,
    ) -> anyhow::Result<Option<u64>> {
        let Opened {
            output,
            path,
            record,
            aside,
            ..
        } = self;
        match ending {
            Ending::Complete => {
                output.finish()?;
                if let Some(path) = &path {
                    RunRecord::remove(path)?;
                }
                if let Some(aside) = aside.filter(|a| a.exists()) {
                    std::fs::remove_file(&aside)
                        .with_context(|| format!("cannot remove {}", aside.display()))?;
                }
                Ok(None)
            }
            Ending::Interrupted => Ok(output.keep_partial(whole)?.map(|(_, records)| records)),
            Ending::Failed(err) => {
                let Some(path) = path else {
                    return Err(err);
                };
                let kept = match output.keep_partial(whole) {
                    Ok(kept) => kept,
                    Err(also) => {
                        return Err(err.context(format!(
                            "{} is unchanged; the rows written so far could not be kept                              whole in {}: {also:#}",
                            path.display(),
                            partial_path(&path).display()
                        )))
                    }
                };
                let Some((partial, records)) = kept else {
                    return Err(err);
                };
                let input_changed = err
                    .chain()
                    .any(|c| c.downcast_ref::<InputChanged>().is_some());
                let next = if input_changed {
                    "; run again once the input is settled".to_string()
                } else if record.is_some() {
                    format!(
                        "; to continue once the cause is fixed: {}",
                        resume_command()
                    )
                } else {
                    String::new()
                };
                Err(RunFailed {
                    cause: err,
                    note: format!(
                        "{} is unchanged; the rows of the first {records} records are kept \
                         whole in {}{next}",
                        path.display(),
                        partial.display()
                    ),
                }
                .into())
            }
        }
    }
}

/// A run that failed with its output kept aside: the cause, then what became of the
/// output. Displayed as two lines; [`exit_code`] and [`is_broken_pipe`] look through it.
#[derive(Debug)]
pub struct RunFailed {
    /// What stopped the run.
    pub cause: anyhow::Error,
    /// Where its rows are and how to go on.
    pub note: String,
}

impl std::fmt::Display for RunFailed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:#}\nbulkdoku: {}", self.cause, self.note)
    }
}

impl std::error::Error for RunFailed {}

/// Every error in `err`'s chain, and in the causes of the [`RunFailed`] among them.
fn every_cause<'a>(err: &'a anyhow::Error) -> Vec<&'a (dyn std::error::Error + 'static)> {
    let mut all = Vec::new();
    for cause in err.chain() {
        all.push(cause);
        if let Some(failed) = cause.downcast_ref::<RunFailed>() {
            all.extend(every_cause(&failed.cause));
        }
    }
    all
}

/// The exit code of a run that ended in `err`: 3 when an input changed while it was
/// read, 2 for any other error.
pub fn exit_code(err: &anyhow::Error) -> ExitCode {
    if every_cause(err)
        .iter()
        .any(|c| c.downcast_ref::<InputChanged>().is_some())
    {
        ExitCode::from(3)
    } else {
        ExitCode::from(2)
    }
}

/// This process's command line with `--resume`, quoted for a POSIX shell.
pub fn resume_command() -> String {
    let mut words: Vec<String> = std::env::args_os()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    if let Some(first) = words.first_mut() {
        // The program as the user would type it.
        if let Some(name) = Path::new(first.as_str()).file_name() {
            if name == "bulkdoku" {
                *first = "bulkdoku".to_string();
            }
        }
    }
    if !words.iter().any(|w| w == "--resume") {
        words.push("--resume".to_string());
    }
    words
        .iter()
        .map(|w| shell_word(w))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `word` as one word of a POSIX shell command line.
fn shell_word(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_./=:,+@%".contains(&b));
    if plain {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

/// Check, before any work, that `-o path` can be written and is none of the `inputs`
/// (standard output needs no check).
pub fn check_output(path: Option<&Path>, inputs: &[Option<PathBuf>]) -> anyhow::Result<()> {
    match path.filter(|_| !is_stdout(path)) {
        Some(path) => check_target(path, "-o", inputs),
        None => Ok(()),
    }
}

/// Write what `write` makes to `path` (standard output for `None` or `-`) through the
/// one opener: a file appears under its name only once it is whole.
pub fn with_output(
    path: Option<&Path>,
    write: impl FnOnce(&mut (dyn Write + Send)) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let output = Output::create(path)?;
    let mut out = bulkdoku::output::buffered(output.writer()?);
    write(&mut out)?;
    out.flush()?;
    drop(out);
    output.finish()
}

/// Print a line on standard error. A closed standard error is not an error: there is
/// no one left to tell.
#[macro_export]
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}
