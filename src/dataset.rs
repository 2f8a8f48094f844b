//! Datasets as streams of records: open the inputs in order, read records in batches,
//! map each batch in parallel with [`pipeline::ordered_map`] on a pool of worker threads,
//! tell a [`Progress`] once per batch, and hand each batch with its results to a drain
//! closure, in input order. Used by `solve` and `verify`, and by any library caller that
//! processes whole files.
//!
//! The per-record work and the writer are the caller's: the driver knows records, not
//! what is done with them. Memory stays bounded by [`pipeline::WINDOW`] batches whatever
//! the input size, and record buffers are reused from batch to batch.
//!
//! ```no_run
//! use std::ops::ControlFlow;
//! use bulkdoku::dataset::Driver;
//! use bulkdoku::input::InputOptions;
//! # fn main() -> anyhow::Result<()> {
//! let inputs = vec![Some("puzzles.txt".into())];
//! let summary = Driver::new(inputs, InputOptions::new()).threads(Some(2)).run(
//!     bulkdoku::Solver::new,                               // per-worker state
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
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::input::{self, InputFormat, InputOptions, Record, RecordReader};
use crate::pipeline;

/// Records per batch: each batch is one task on the pool and one call of the drain.
/// Small, so that the last tasks of the input leave little idle time and the
/// [`pipeline::WINDOW`] of live batches stays a few MiB (12,288 records); big enough
/// that a task (~0.7 ms of 17-clue puzzles) dwarfs its own cost. One thread gives the
/// same rate with batches of 256, 1024 or 4096 (30 alternating runs).
pub const BATCH_SIZE: usize = 256;

/// One record with the index of the input it came from (into the `sources` slice the
/// drain receives) and its place among all records of the run.
#[derive(Debug, Clone, Default)]
pub struct Item {
    /// Index of its input, in command-line order.
    pub file: usize,
    /// 0-based number of the record among all records of all inputs.
    pub index: u64,
    /// The record as read.
    pub record: Record,
}

/// Told how a run advances, once per batch: a progress bar, a log line, a counter.
pub trait Progress: Send + Sync {
    /// `records` handed to the drain so far, and `bytes` of the (compressed) inputs
    /// consumed so far (see [`Driver::total_bytes`] for the whole).
    fn update(&self, records: u64, bytes: u64);

    /// The run is over (called once, also when it failed).
    fn finish(&self) {}
}

/// No progress display.
impl Progress for () {
    fn update(&self, _records: u64, _bytes: u64) {}
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
#[non_exhaustive]
pub struct Summary {
    /// Records handed to the drain.
    pub records: u64,
    /// Wall time of the run.
    pub elapsed: Duration,
    /// Worker threads used.
    pub threads: usize,
    /// True when the drain stopped the run early ([`ControlFlow::Break`]).
    pub stopped: bool,
    /// True when the stop flag ([`Driver::stop_flag`]) ended the reading early: the
    /// records read before it were all mapped, and drained unless the drain stopped at
    /// a record whose work the flag cut short (as `solve`'s does, see
    /// [`crate::solving::Solved::Cut`]).
    pub interrupted: bool,
}

/// Everything a run needs besides the per-record work: inputs, threads, progress.
pub struct Driver {
    inputs: Vec<Option<PathBuf>>,
    options: InputOptions,
    threads: Option<usize>,
    batch_size: usize,
    progress: Box<dyn Progress>,
    stop: Option<Arc<AtomicBool>>,
    skip: u64,
    take: Option<u64>,
}

impl std::fmt::Debug for Driver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Driver")
            .field("inputs", &self.inputs)
            .field("options", &self.options)
            .field("threads", &self.threads)
            .field("batch_size", &self.batch_size)
            .finish_non_exhaustive()
    }
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
    /// A driver over `inputs` in order (`None` = standard input), read with `options`,
    /// on all cores, without progress display.
    pub fn new(inputs: Vec<Option<PathBuf>>, options: InputOptions) -> Driver {
        Driver {
            inputs,
            options,
            threads: None,
            batch_size: BATCH_SIZE,
            progress: Box::new(()),
            stop: None,
            skip: 0,
            take: None,
        }
    }

    /// Read the first `n` records without handing them to the work or the drain
    /// (they were done by an earlier, interrupted run).
    pub fn skip(mut self, n: u64) -> Driver {
        self.skip = n;
        self
    }

    /// Read no more than the first `n` records.
    pub fn take(mut self, n: u64) -> Driver {
        self.take = Some(n);
        self
    }

    /// The stop flag, if one was given.
    pub fn stop(&self) -> Option<&Arc<AtomicBool>> {
        self.stop.as_ref()
    }

    /// Use `threads` workers (`None` or 0: one per core; see [`pipeline::thread_pool`]).
    pub fn threads(mut self, threads: Option<usize>) -> Driver {
        self.threads = threads;
        self
    }

    /// Use batches of `n` records instead of [`BATCH_SIZE`].
    pub fn batch_size(mut self, n: usize) -> Driver {
        self.batch_size = n.max(1);
        self
    }

    /// Tell `progress` how the run advances.
    pub fn progress(mut self, progress: impl Progress + 'static) -> Driver {
        self.progress = Box::new(progress);
        self
    }

    /// Stop reading once `flag` is set (e.g. by a signal handler): the records already
    /// read are still mapped and drained, so the output ends on a whole record, and the
    /// summary says [`Summary::interrupted`]. The work may watch the flag too, to cut a
    /// long record short ([`crate::stop`]); its drain then stops at the first record cut
    /// ([`ControlFlow::Break`]), so that no row says more than was found.
    pub fn stop_flag(mut self, flag: Arc<AtomicBool>) -> Driver {
        self.stop = Some(flag);
        self
    }

    /// Total size in bytes of all `inputs` when every one is a regular file (for a
    /// progress bar's ETA); `None` when any is standard input or a pipe.
    pub fn total_bytes(inputs: &[Option<PathBuf>]) -> Option<u64> {
        inputs
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
    /// `is_broken_pipe` in the binary).
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
        let pool = pipeline::thread_pool(self.threads)?;
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
            next_index: 0,
            skip: self.skip,
            take: self.take.unwrap_or(u64::MAX),
            current: None,
            stamp: None,
            bytes_before: 0,
            failed: None,
        };
        let batch_size = self.batch_size;
        let stop = self.stop.as_deref();
        let mut interrupted = false;
        let fill = |batch: &mut Vec<Item>| -> Result<(), Halt> {
            if stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
                interrupted = true;
                batch.clear();
                return Ok(());
            }
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
        let interrupted = interrupted || stop.is_some_and(|s| s.load(Ordering::Relaxed));
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
            interrupted,
        })
    }
}

/// Open every input that is a file (not standard input, which cannot be read twice)
/// and detect its format, to check the inputs before any work or output: a missing
/// file, an unknown compression, CSV without a puzzle column, `--column` on input that
/// is not CSV are errors here. Returns the sources found, by input (`None` for
/// standard input).
pub fn check_inputs(
    inputs: &[Option<PathBuf>],
    options: &InputOptions,
) -> anyhow::Result<Vec<Option<Source>>> {
    inputs
        .iter()
        .map(|path| {
            let Some(path) = path else { return Ok(None) };
            let reader = open(Some(path), options)?;
            Ok(Some(Source {
                name: input::display_name(Some(path)),
                headers: reader.headers().map(<[String]>::to_vec),
                format: reader.format(),
            }))
        })
        .collect()
}

/// Reads records from the inputs one after another.
/// A regular file's size and modification time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileStamp {
    /// Size in bytes.
    pub size: u64,
    /// Modification time, if the platform has one.
    pub modified: Option<std::time::SystemTime>,
}

impl FileStamp {
    /// The stamp of `path` if it is a regular file.
    pub fn of(path: &Path) -> Option<FileStamp> {
        let meta = std::fs::metadata(path).ok()?;
        meta.is_file().then(|| FileStamp {
            size: meta.len(),
            modified: meta.modified().ok(),
        })
    }
}

/// An input file that changed while it was read (it grew, shrank or was rewritten):
/// the records read may be a mixture of its old and new contents. Checked when the
/// file has been read to its end, as GNU tar does; the binary exits with code 3.
#[derive(Debug, Clone, thiserror::Error)]
#[error("{name}: file changed as we read it ({})", describe_change(.then, .now.as_ref()))]
pub struct InputChanged {
    /// The input's display name.
    pub name: String,
    /// Its stamp when it was opened.
    pub then: FileStamp,
    /// Its stamp when its end was read (`None`: gone, or no longer a regular file).
    pub now: Option<FileStamp>,
}

fn describe_change(then: &FileStamp, now: Option<&FileStamp>) -> String {
    match now {
        None => "it is gone or no longer a regular file".to_string(),
        Some(now) if now.size != then.size => {
            format!("{} bytes when opened, {} at the end", then.size, now.size)
        }
        Some(_) => "its modification time changed".to_string(),
    }
}

struct Reader<'a> {
    inputs: &'a [Option<PathBuf>],
    options: &'a InputOptions,
    /// Index of the next input to open.
    next_input: usize,
    /// [`Item::index`] of the next record.
    next_index: u64,
    /// Records to read without handing them on, and the most to read.
    skip: u64,
    take: u64,
    /// The open input and its index.
    current: Option<(usize, Box<dyn RecordReader>)>,
    /// The open input's size and modification time when it was opened (regular files).
    stamp: Option<FileStamp>,
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
        while *n < max && self.next_index < self.take {
            let (index, reader) = match &mut self.current {
                Some((index, reader)) => (*index, reader),
                None => {
                    let Some(path) = self.inputs.get(self.next_input) else {
                        break;
                    };
                    self.stamp = path.as_deref().and_then(FileStamp::of);
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
                item.record.line += self.options.line_offset;
                item.file = index;
                item.index = self.next_index;
                self.next_index += 1;
                if item.index >= self.skip {
                    *n += 1;
                }
            } else {
                self.bytes_before += reader.bytes_read();
                self.current = None;
                // Read to its end: it must be the file it was when opened.
                if let (Some(then), Some(path)) = (self.stamp.take(), &self.inputs[index]) {
                    let now = FileStamp::of(path);
                    if now.as_ref() != Some(&then) {
                        return Err(InputChanged {
                            name: input::display_name(Some(path)),
                            then,
                            now,
                        }
                        .into());
                    }
                }
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

    fn inputs(dir: &tempfile::TempDir, files: &[(&str, usize)]) -> Vec<Option<PathBuf>> {
        let mut paths = Vec::new();
        for &(name, n) in files {
            let path = dir.path().join(name);
            std::fs::write(&path, format!("{P}\n").repeat(n)).unwrap();
            paths.push(Some(path));
        }
        paths
    }

    #[test]
    fn every_record_of_every_file_in_order_in_small_batches() {
        let dir = tempfile::tempdir().unwrap();
        let args = inputs(&dir, &[("a.txt", 5), ("empty.txt", 0), ("b.txt", 4)]);
        let mut seen = Vec::new();
        let mut indices = Vec::new();
        let summary = Driver::new(args, InputOptions::new())
            .threads(Some(2))
            .batch_size(3)
            .run(
                || 0u32,
                |calls, item| {
                    *calls += 1;
                    item.record.cells.len()
                },
                |sources, items, results| {
                    for (item, &len) in items.iter().zip(results) {
                        indices.push(item.index);
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
        assert_eq!(indices, (0..9).collect::<Vec<u64>>());
        assert_eq!(
            (summary.records, summary.threads, summary.stopped),
            (9, 2, false)
        );
    }

    #[test]
    fn break_stops_the_run_and_errors_name_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let args = inputs(&dir, &[("a.txt", 50)]);
        let mut batches = 0;
        let summary = Driver::new(args.clone(), InputOptions::new())
            .threads(Some(1))
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
        args.push(Some(dir.path().join("missing.txt")));
        let err = Driver::new(args, InputOptions::new())
            .threads(Some(1))
            .run(
                || (),
                |_, _| (),
                |_, _, _: &[()]| Ok(ControlFlow::Continue(())),
            )
            .unwrap_err();
        assert!(format!("{err:#}").contains("missing.txt"), "{err:#}");
    }

    #[test]
    fn the_stop_flag_ends_reading_and_drains_what_was_read() {
        let dir = tempfile::tempdir().unwrap();
        // More records than the pipeline's window can hold, so that reading cannot
        // have finished before the first drain sets the flag.
        let total = 20 * pipeline::WINDOW * 10;
        let args = inputs(&dir, &[("a.txt", total)]);
        let flag = Arc::new(AtomicBool::new(false));
        let mut drained = 0;
        let summary = Driver::new(args, InputOptions::new())
            .threads(Some(2))
            .batch_size(10)
            .stop_flag(Arc::clone(&flag))
            .run(
                || (),
                |_, _| (),
                |_, items, _: &[()]| {
                    drained += items.len();
                    flag.store(true, Ordering::Relaxed);
                    Ok(ControlFlow::Continue(()))
                },
            )
            .unwrap();
        assert!(summary.interrupted && !summary.stopped);
        assert_eq!(summary.records, drained as u64);
        assert_eq!(drained % 10, 0, "whole batches");
        assert!(drained < total, "{drained}");
    }
}
