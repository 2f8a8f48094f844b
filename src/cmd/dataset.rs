//! The shared dataset driver of the commands that process every record of datasets
//! (`solve`, `verify`): open the inputs in order, read records in batches, map each
//! batch in parallel with [`pipeline::ordered_map`] on a pool of `-j` threads, update the
//! progress bar once per batch, and hand each batch with its results to the command's
//! drain closure, in input order.
//!
//! The per-record work and the writer are the command's: the driver knows records, not
//! what is done with them. Memory stays bounded by [`pipeline::WINDOW`] batches whatever
//! the input size, and record buffers are reused from batch to batch.
//!
//! ```no_run
//! use std::ops::ControlFlow;
//! use bulkdoku::cmd::dataset::{self, Driver};
//! # fn demo(input: &bulkdoku::cli::InputArgs) -> anyhow::Result<()> {
//! let driver = Driver::new(input, None, bulkdoku::progress::Progress::hidden());
//! let summary = driver.run(
//!     || bulkdoku::Solver::new(),                         // per-worker state
//!     |solver, item| item.record.cells.len(),              // per-record work
//!     |sources, items, results| {                          // in input order
//!         for (item, len) in items.iter().zip(results) {
//!             println!("{}:{} {len}", sources[item.file].name, item.record.line);
//!         }
//!         Ok(ControlFlow::Continue(()))
//!     },
//! )?;
//! eprintln!("{} records", summary.records);
//! # Ok(()) }
//! ```

use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::Context;

use crate::cli::{InputArgs, InputFormat};
use crate::input::{self, InputOptions, Record, RecordReader};
use crate::pipeline;
use crate::progress::Progress;

/// Records per batch: each batch is one task on the pool and one call of the drain.
/// Small, so that the last tasks of the input leave little idle time and the
/// [`pipeline::WINDOW`] of live batches stays a few MiB (12,288 records); big enough
/// that a task (~0.7 ms of 17-clue puzzles) dwarfs its own cost. One thread gives the
/// same rate with batches of 256, 1024 or 4096 (30 alternating runs).
pub const BATCH_SIZE: usize = 256;

/// One record with the index of the input it came from (into the `sources` slice the
/// drain receives).
#[derive(Debug, Clone, Default)]
pub struct Item {
    /// Index of its input, in command-line order.
    pub file: usize,
    /// The record as read.
    pub record: Record,
}

/// An input that has been opened.
#[derive(Debug, Clone)]
pub struct Source {
    /// Display name: the path as given, or `-` for standard input.
    pub name: String,
    /// The CSV header row, for CSV inputs.
    pub headers: Option<Vec<String>>,
    /// The format detected (or forced).
    pub format: InputFormat,
}

/// What a run did.
#[derive(Debug, Clone, Copy)]
pub struct Summary {
    /// Records handed to the drain.
    pub records: u64,
    /// Wall time of the run.
    pub elapsed: Duration,
    /// Worker threads used.
    pub threads: usize,
    /// True when the drain stopped the run early ([`ControlFlow::Break`]).
    pub stopped: bool,
}

/// Everything a run needs besides the per-record work: inputs, threads, progress.
#[derive(Debug)]
pub struct Driver {
    inputs: Vec<Option<PathBuf>>,
    options: InputOptions,
    threads: Option<usize>,
    batch_size: usize,
    progress: Progress,
}

/// Why the pipeline stopped before the end of input.
enum Halt {
    /// The drain asked to stop.
    Stopped,
    /// An error (unreadable input, broken CSV, failed write...).
    Failed(anyhow::Error),
}

impl From<anyhow::Error> for Halt {
    fn from(err: anyhow::Error) -> Halt {
        Halt::Failed(err)
    }
}

impl Driver {
    /// A driver over the inputs of `input` (none or `-` = standard input), with
    /// `threads` workers (`None` = all cores) and the given progress display.
    pub fn new(input: &InputArgs, threads: Option<usize>, progress: Progress) -> Driver {
        Driver {
            inputs: input::inputs(&input.files),
            options: InputOptions {
                format: input.format,
                column: input.column.clone(),
            },
            threads,
            batch_size: BATCH_SIZE,
            progress,
        }
    }

    /// Use batches of `n` records instead of [`BATCH_SIZE`].
    pub fn batch_size(mut self, n: usize) -> Driver {
        self.batch_size = n.max(1);
        self
    }

    /// Total size in bytes of all inputs when every one is a regular file (for the
    /// progress bar's ETA); `None` when any is standard input or a pipe.
    pub fn total_bytes(input: &InputArgs) -> Option<u64> {
        input::inputs(&input.files)
            .iter()
            .map(|p| {
                let meta = std::fs::metadata(p.as_deref()?).ok()?;
                meta.is_file().then_some(meta.len())
            })
            .sum()
    }

    /// Read every record of every input, map it with `work` in parallel (`init` makes
    /// each worker's reusable state, e.g. a solver), and give each batch to `drain` with
    /// its results, in input order, together with the inputs opened so far (`sources`,
    /// indexed by [`Item::file`]).
    ///
    /// The drain returns [`ControlFlow::Break`] to stop early (e.g. `--strict`); the
    /// summary then says `stopped`. An unreadable input, broken CSV or a failed drain
    /// is an error; a broken pipe comes back as the `io::Error` it is (see
    /// [`crate::cmd::is_broken_pipe`]).
    pub fn run<O, S>(
        self,
        init: impl Fn() -> S + Sync + Send,
        work: impl Fn(&mut S, &Item) -> O + Sync + Send,
        mut drain: impl FnMut(&[Arc<Source>], &[Item], &[O]) -> anyhow::Result<ControlFlow<()>> + Send,
    ) -> anyhow::Result<Summary>
    where
        O: Send + Sync,
        S: Send,
    {
        let start = Instant::now();
        let pool = {
            let mut builder = rayon::ThreadPoolBuilder::new();
            if let Some(n) = self.threads.filter(|&n| n > 0) {
                builder = builder.num_threads(n);
            }
            builder.build().context("cannot start worker threads")?
        };
        let threads = pool.current_num_threads();

        // Inputs opened so far: written by the reader, read by the drain (which may run
        // on another worker at the same time), hence the lock; taken once per batch.
        let sources: Mutex<Vec<Arc<Source>>> = Mutex::new(Vec::new());
        // Bytes consumed, as of the last batch read, for the progress bar.
        let bytes_done = AtomicU64::new(0);

        let mut reader = Reader {
            inputs: &self.inputs,
            options: &self.options,
            next_input: 0,
            current: None,
            bytes_before: 0,
            failed: None,
        };
        let batch_size = self.batch_size;
        let fill = |batch: &mut Vec<Item>| -> Result<(), Halt> {
            let n = reader.fill(batch, batch_size, &sources);
            batch.truncate(n);
            bytes_done.store(reader.bytes_read(), Ordering::Relaxed);
            Ok(())
        };

        let mut records = 0u64;
        let mut seen: Vec<Arc<Source>> = Vec::new();
        let progress = &self.progress;
        let drain = |items: &[Item], results: &[O]| -> Result<(), Halt> {
            if items.last().is_some_and(|last| last.file >= seen.len()) {
                seen.clone_from(&sources.lock().unwrap_or_else(|e| e.into_inner()));
            }
            let flow = drain(&seen, items, results)?;
            records += items.len() as u64;
            progress.update(records, bytes_done.load(Ordering::Relaxed));
            match flow {
                ControlFlow::Continue(()) => Ok(()),
                ControlFlow::Break(()) => Err(Halt::Stopped),
            }
        };

        let outcome = pool.install(|| pipeline::ordered_map(batch_size, fill, init, work, drain));
        self.progress.finish();
        let stopped = match outcome {
            Ok(()) => false,
            Err(Halt::Stopped) => true,
            Err(Halt::Failed(err)) => return Err(err),
        };
        if let Some(err) = reader.failed {
            return Err(err);
        }
        Ok(Summary {
            records,
            elapsed: start.elapsed(),
            threads,
            stopped,
        })
    }
}

/// Reads records from the inputs one after another.
struct Reader<'a> {
    inputs: &'a [Option<PathBuf>],
    options: &'a InputOptions,
    /// Index of the next input to open.
    next_input: usize,
    /// The open input and its index.
    current: Option<(usize, Box<dyn RecordReader>)>,
    /// Bytes consumed by the inputs already finished.
    bytes_before: u64,
    /// The error that ended the input early, if any.
    failed: Option<anyhow::Error>,
}

impl Reader<'_> {
    /// Fill `batch` (reusing its items) with up to `max` records; returns how many.
    ///
    /// An error (unreadable input, broken CSV) ends the input: it is kept in
    /// `self.failed` and the records read before it are still returned, so that their
    /// rows are written before the run reports the error.
    fn fill(
        &mut self,
        batch: &mut Vec<Item>,
        max: usize,
        sources: &Mutex<Vec<Arc<Source>>>,
    ) -> usize {
        if self.failed.is_some() {
            return 0;
        }
        let mut n = 0;
        if let Err(err) = self.fill_until_error(batch, max, sources, &mut n) {
            self.failed = Some(err);
        }
        n
    }

    fn fill_until_error(
        &mut self,
        batch: &mut Vec<Item>,
        max: usize,
        sources: &Mutex<Vec<Arc<Source>>>,
        n: &mut usize,
    ) -> anyhow::Result<()> {
        while *n < max {
            let (index, reader) = match &mut self.current {
                Some((index, reader)) => (*index, reader),
                None => {
                    let Some(path) = self.inputs.get(self.next_input) else {
                        break;
                    };
                    let reader = open(path.as_deref(), self.options)?;
                    let source = Source {
                        name: input::display_name(path.as_deref()),
                        headers: reader.headers().map(<[String]>::to_vec),
                        format: reader.format(),
                    };
                    sources
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .push(Arc::new(source));
                    let index = self.next_input;
                    self.next_input += 1;
                    let (i, r) = self.current.insert((index, reader));
                    (*i, r)
                }
            };
            if *n == batch.len() {
                batch.push(Item::default());
            }
            let item = &mut batch[*n];
            let got = reader
                .read_record(&mut item.record)
                .map_err(|err| name_error(err, self.inputs[index].as_deref()))?;
            if got {
                item.file = index;
                *n += 1;
            } else {
                self.bytes_before += reader.bytes_read();
                self.current = None;
            }
        }
        Ok(())
    }

    /// Bytes consumed by all inputs so far.
    fn bytes_read(&self) -> u64 {
        self.bytes_before + self.current.as_ref().map_or(0, |(_, r)| r.bytes_read())
    }
}

/// Open one input, its errors naming it.
fn open(path: Option<&Path>, options: &InputOptions) -> anyhow::Result<Box<dyn RecordReader>> {
    input::open(path, options).map_err(|err| name_error(err, path))
}

/// Make sure an input's error names the input (the readers usually do already; saying
/// it twice would only be noise).
fn name_error(err: anyhow::Error, path: Option<&Path>) -> anyhow::Error {
    let name = input::display_name(path);
    if format!("{err:#}").contains(&name) {
        err
    } else {
        err.context(name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const P: &str =
        "103000509002109400000704000300502006060000050700803004000401000009205800804000107";

    fn input_args(dir: &tempfile::TempDir, files: &[(&str, usize)]) -> InputArgs {
        let mut paths = Vec::new();
        for &(name, n) in files {
            let path = dir.path().join(name);
            std::fs::write(&path, format!("{P}\n").repeat(n)).unwrap();
            paths.push(path);
        }
        InputArgs {
            files: paths,
            format: InputFormat::Auto,
            column: None,
        }
    }

    #[test]
    fn every_record_of_every_file_in_order_in_small_batches() {
        let dir = tempfile::tempdir().unwrap();
        let args = input_args(&dir, &[("a.txt", 5), ("empty.txt", 0), ("b.txt", 4)]);
        let mut seen = Vec::new();
        let summary = Driver::new(&args, Some(2), Progress::hidden())
            .batch_size(3)
            .run(
                || 0u32,
                |calls, item| {
                    *calls += 1;
                    item.record.cells.len()
                },
                |sources, items, results| {
                    for (item, &len) in items.iter().zip(results) {
                        let name = sources[item.file].name.rsplit('/').next().unwrap();
                        seen.push((name.to_string(), item.record.line, len));
                    }
                    Ok(ControlFlow::Continue(()))
                },
            )
            .unwrap();
        let expected: Vec<(String, u64, usize)> = (1..=5)
            .map(|l| ("a.txt".to_string(), l, 81))
            .chain((1..=4).map(|l| ("b.txt".to_string(), l, 81)))
            .collect();
        assert_eq!(seen, expected);
        assert_eq!(
            (summary.records, summary.threads, summary.stopped),
            (9, 2, false)
        );
    }

    #[test]
    fn break_stops_the_run_and_errors_name_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let args = input_args(&dir, &[("a.txt", 50)]);
        let mut batches = 0;
        let summary = Driver::new(&args, Some(1), Progress::hidden())
            .batch_size(4)
            .run(
                || (),
                |_, _| (),
                |_, items, _| {
                    batches += 1;
                    assert_eq!(items.len(), 4);
                    Ok(ControlFlow::Break(()))
                },
            )
            .unwrap();
        assert_eq!((batches, summary.records, summary.stopped), (1, 4, true));

        let mut args = args;
        args.files.push(dir.path().join("missing.txt"));
        let err = Driver::new(&args, Some(1), Progress::hidden())
            .run(
                || (),
                |_, _| (),
                |_, _, _: &[()]| Ok(ControlFlow::Continue(())),
            )
            .unwrap_err();
        assert!(format!("{err:#}").contains("missing.txt"), "{err:#}");
    }
}
