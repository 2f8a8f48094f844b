//! One module per subcommand, each exposing `Args` and `run`, and the output setup
//! that `solve` and `verify` share: checks before any output is touched, the output
//! file and its run record, resuming, and what an interrupted or failed run leaves.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::bail;
use bulkdoku::output::file::{check_target, is_stdout, partial_path, Output};
use bulkdoku::resume::{record_path, RunRecord};

use crate::cli::{Cli, Command};

pub mod bench;
pub mod generate;
pub mod rate;
pub mod report;
pub mod solve;
pub mod verify;

/// Run the chosen subcommand; the exit code on success, an error for exit code 2.
pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Solve(args) => solve::run(args),
        Command::Verify(args) => verify::run(args),
        Command::Rate(args) => rate::run(args),
        Command::Report(args) => report::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Generate(args) => generate::run(args),
    }
}

/// True when the error comes from writing into a closed pipe (`| head`): not a failure.
pub fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
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
    };
    let previous = if resume { RunRecord::load(path)? } else { None };
    match previous {
        Some(previous) => {
            let now = opened.record.as_ref().expect("made above with --resume");
            if let Some(why) = previous.mismatch(now) {
                bail!("cannot resume {}: {why}", path.display());
            }
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
        record.checkpoint = opened.resumed.as_ref().and_then(|r| r.checkpoint.clone());
        record.save(path)?;
    }
    Ok(opened)
}

impl Opened {
    /// End the run (its writer flushed): give the output its final name, and forget
    /// the run record when the run is complete. An interrupted run, or one stopped by
    /// an input error, keeps its record, so that `--resume` can continue it; its rows,
    /// all whole, are under the final name meanwhile.
    pub fn finish(self, complete: bool) -> anyhow::Result<()> {
        self.output.finish()?;
        if let (true, Some(path)) = (complete, &self.path) {
            RunRecord::remove(path)?;
        }
        Ok(())
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
