//! The one commit path of every output: standard output, or a file that is never left
//! half-written under its final name, written by one run at a time, and made durable
//! before it is given that name.
//!
//! A file output `NAME` is written as follows:
//!
//! 1. **Lock.** The run takes an exclusive lock on `NAME.lock` ([`OutputLock`]) before it
//!    touches anything: a second run on the same output refuses at once, naming the
//!    holder's process id. The kernel releases the lock when the process ends, however it
//!    ends, so a killed run leaves no stale lock (at most an unlocked, harmless file).
//! 2. **Write aside.** Rows go to `NAME.partial`; `NAME` keeps what it held.
//! 3. **Commit** ([`Output::finish`], only for a run that completed): the data is flushed
//!    to the disk (`fsync`), `NAME.partial` is renamed over `NAME` (atomic), and the
//!    directory is flushed so that the rename itself survives a power loss — the order
//!    git and SQLite use.
//! 4. **Or keep** ([`Output::keep_partial`], for a run that was interrupted or failed: a
//!    full disk, an I/O error, a bad input): the final name is not touched; `NAME.partial`
//!    is cut back to its whole rows and flushed, and `--resume` continues from it.
//!
//! A path that names something other than a regular file (`/dev/null`, a named pipe,
//! `/dev/stdout`) is written in place: there is nothing to keep whole or to sync there,
//! and renaming a file over a device would replace the device.
//!
//! The disk operations of a commit go through [`CommitOps`], a seam that tests replace
//! to see the order of the syncs and the rename.

use std::fmt;
use std::fs::{File, OpenOptions, TryLockError};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{bail, Context};

/// The disk operations of a commit. [`Disk`] does them; tests record them.
pub trait CommitOps: Send + Sync + fmt::Debug {
    /// Flush a file's data and metadata to the disk (`fsync`).
    fn sync_file(&self, file: &File, path: &Path) -> io::Result<()>;
    /// Rename `from` to `to`, replacing `to`.
    fn rename(&self, from: &Path, to: &Path) -> io::Result<()>;
    /// Flush a directory's entries to the disk, so that a rename in it is durable.
    fn sync_dir(&self, dir: &Path) -> io::Result<()>;
    /// The writer of the file at `path` (tests wrap it to inject write errors).
    fn writer(&self, file: File, path: &Path) -> Box<dyn Write + Send> {
        let _ = path;
        Box::new(file)
    }
}

thread_local! {
    /// The disk operations of outputs opened on this thread, when not [`Disk`].
    static OPS: std::cell::RefCell<Option<Arc<dyn CommitOps>>> =
        const { std::cell::RefCell::new(None) };
}

/// The disk operations for an output opened now on this thread.
fn current_ops() -> Arc<dyn CommitOps> {
    OPS.with(|ops| ops.borrow().clone())
        .unwrap_or_else(|| Arc::new(Disk))
}

/// Run `f` with `ops` as the disk operations of every output and run record opened on
/// this thread during it: the seam through which tests inject write errors into a
/// whole command and observe the syncs and renames of its commit.
pub fn with_ops<T>(ops: Arc<dyn CommitOps>, f: impl FnOnce() -> T) -> T {
    struct Restore(Option<Arc<dyn CommitOps>>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let previous = self.0.take();
            OPS.with(|ops| *ops.borrow_mut() = previous);
        }
    }
    let _restore = Restore(OPS.with(|o| o.borrow_mut().replace(ops)));
    f()
}

/// The real disk.
#[derive(Debug, Clone, Copy, Default)]
pub struct Disk;

impl CommitOps for Disk {
    fn sync_file(&self, file: &File, _path: &Path) -> io::Result<()> {
        file.sync_all()
    }

    fn rename(&self, from: &Path, to: &Path) -> io::Result<()> {
        std::fs::rename(from, to)
    }

    fn sync_dir(&self, dir: &Path) -> io::Result<()> {
        #[cfg(unix)]
        {
            File::open(dir)?.sync_all()
        }
        #[cfg(not(unix))]
        {
            // Directories cannot be opened as files here; the rename is as durable as
            // the platform makes it.
            let _ = dir;
            Ok(())
        }
    }
}

/// The directory holding `path` (`.` for a bare file name).
fn dir_of(path: &Path) -> &Path {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    }
}

/// Write `bytes` to `path` so that a crash leaves either the old file or the new one,
/// whole and on the disk: written to `path.tmp`, synced, renamed over `path`, and the
/// directory synced. For small files (run records).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    write_atomic_with(&*current_ops(), path, bytes)
}

/// [`write_atomic`] through `ops`.
pub fn write_atomic_with(ops: &dyn CommitOps, path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    let tmp = sibling(path, ".tmp");
    let written = (|| {
        let file = File::create(&tmp)?;
        let mut writer = ops.writer(file.try_clone()?, &tmp);
        writer.write_all(bytes)?;
        writer.flush()?;
        ops.sync_file(&file, &tmp)
    })();
    if let Err(e) = written {
        let _ = std::fs::remove_file(&tmp);
        return Err(e).with_context(|| format!("cannot write {}", tmp.display()));
    }
    ops.rename(&tmp, path)
        .with_context(|| format!("cannot rename {} to {}", tmp.display(), path.display()))?;
    ops.sync_dir(dir_of(path))
        .with_context(|| format!("cannot sync the directory of {}", path.display()))
}

/// The lock file beside output `path`.
pub fn lock_path(path: &Path) -> PathBuf {
    sibling(path, ".lock")
}

/// An exclusive lock on an output, held for as long as a run writes it: `flock` on
/// `NAME.lock`, which records the holder's process id. Dropping it removes the file
/// (while still holding the lock) and releases the lock; a killed process's lock is
/// released by the kernel.
#[derive(Debug)]
pub struct OutputLock {
    path: PathBuf,
    _file: File,
}

impl OutputLock {
    /// Take the lock of output `out`, or fail at once (naming the holder's process id)
    /// when another run holds it.
    pub fn acquire(out: &Path) -> anyhow::Result<OutputLock> {
        let path = lock_path(out);
        // A holder that finishes removes the file: a run that opened it just before
        // may then lock a file no longer at the path, and tries again.
        for _ in 0..100 {
            let mut file = OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .open(&path)
                .with_context(|| format!("cannot create the lock file {}", path.display()))?;
            match file.try_lock() {
                Ok(()) => {}
                Err(TryLockError::WouldBlock) => {
                    let mut text = String::new();
                    let _ = file.read_to_string(&mut text);
                    let holder = match text.trim().parse::<u32>() {
                        Ok(pid) => format!("process {pid}"),
                        Err(_) => "a process that has not yet recorded its id".to_string(),
                    };
                    bail!(
                        "{} is being written by another bulkdoku run ({holder}, lock {}): \
                         wait for it to end, or write to another file",
                        out.display(),
                        path.display()
                    );
                }
                Err(TryLockError::Error(e)) => {
                    return Err(e).with_context(|| format!("cannot lock {}", path.display()))
                }
            }
            if !same_open_file(&file, &path) {
                continue;
            }
            // The id is for the message of a run that finds the lock taken; a full
            // disk that refuses these few bytes does not stop the run.
            let _ = file
                .set_len(0)
                .and_then(|()| writeln!(file, "{}", std::process::id()));
            return Ok(OutputLock { path, _file: file });
        }
        bail!("cannot lock {}: it keeps being replaced", path.display())
    }
}

impl Drop for OutputLock {
    fn drop(&mut self) {
        // Removed while locked; the lock goes with the file handle, dropped after.
        let _ = std::fs::remove_file(&self.path);
    }
}

/// Whether the open `file` is the file now at `path`.
fn same_open_file(file: &File, path: &Path) -> bool {
    let (Ok(a), Ok(b)) = (file.metadata(), std::fs::metadata(path)) else {
        return false;
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        a.dev() == b.dev() && a.ino() == b.ino()
    }
    #[cfg(not(unix))]
    {
        let _ = (a, b);
        true
    }
}

/// Where an output goes.
#[derive(Debug)]
pub struct Output {
    target: Target,
    ops: Arc<dyn CommitOps>,
}

#[derive(Debug)]
enum Target {
    Stdout,
    /// A device or pipe named by a path, written in place.
    Special(File),
    File {
        /// The name the output gets when it is finished.
        path: PathBuf,
        /// Where its rows are written until then.
        partial: PathBuf,
        file: File,
        /// Held until the output is committed or kept.
        lock: OutputLock,
    },
}

/// The file beside `path` that holds its rows until the run finishes.
pub fn partial_path(path: &Path) -> PathBuf {
    sibling(path, ".partial")
}

/// Where [`Output::resume_aside`] moves an interrupted run's rows while they are
/// written again.
pub fn aside_path(path: &Path) -> PathBuf {
    sibling(path, ".partial.old")
}

/// `path` with `suffix` appended to its file name.
pub(crate) fn sibling(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(suffix);
    path.with_file_name(name)
}

/// Whether `path` means standard output (`None` or `-`).
pub fn is_stdout(path: Option<&Path>) -> bool {
    path.is_none_or(|p| p.as_os_str() == "-")
}

impl Output {
    /// Standard output when `path` is `None` or `-`, else a new, empty
    /// `path.partial` (replacing any left there), under the output's lock, that becomes
    /// `path` at [`Output::finish`].
    pub fn create(path: Option<&Path>) -> anyhow::Result<Output> {
        Output::create_with(path, current_ops())
    }

    /// [`Output::create`] with the disk operations of `ops`.
    pub fn create_with(path: Option<&Path>, ops: Arc<dyn CommitOps>) -> anyhow::Result<Output> {
        let Some(path) = path.filter(|_| !is_stdout(path)) else {
            return Ok(Output {
                target: Target::Stdout,
                ops,
            });
        };
        if is_special(path) {
            let file = OpenOptions::new()
                .write(true)
                .open(path)
                .with_context(|| format!("cannot open {}", path.display()))?;
            return Ok(Output {
                target: Target::Special(file),
                ops,
            });
        }
        check_writable_dir(path)?;
        let lock = OutputLock::acquire(path)?;
        let partial = partial_path(path);
        let file = File::create(&partial)
            .with_context(|| format!("cannot create {}", partial.display()))?;
        Ok(Output {
            target: Target::File {
                path: path.to_path_buf(),
                partial,
                file,
                lock,
            },
            ops,
        })
    }

    /// The output of an interrupted run at `path`, to be continued, under the
    /// output's lock: the rows so far (in `path.partial`, or in `path` where an older
    /// run renamed them there), cut to their first `keep(rows)` bytes, where `keep` is
    /// given the file to read. `Ok(None)` when there is no such output.
    pub fn resume(
        path: &Path,
        keep: impl FnOnce(&mut File) -> anyhow::Result<u64>,
    ) -> anyhow::Result<Option<Output>> {
        if is_special(path) {
            bail!("{}: not a regular file: nothing to resume", path.display());
        }
        let lock = OutputLock::acquire(path)?;
        let partial = partial_path(path);
        let from = if partial.exists() {
            partial.clone()
        } else if path.exists() {
            // Left by a version that renamed the rows of a stopped run into place;
            // take them back out of the final name while more are written, so that a
            // second interruption cannot leave a torn file there.
            std::fs::rename(path, &partial).with_context(|| {
                format!("cannot rename {} to {}", path.display(), partial.display())
            })?;
            partial.clone()
        } else {
            return Ok(None);
        };
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .open(&from)
            .with_context(|| format!("cannot open {}", from.display()))?;
        let len = keep(&mut file)?;
        file.set_len(len)
            .with_context(|| format!("cannot cut {} to its whole rows", from.display()))?;
        file.seek(SeekFrom::Start(len))?;
        Ok(Some(Output {
            target: Target::File {
                path: path.to_path_buf(),
                partial,
                file,
                lock,
            },
            ops: current_ops(),
        }))
    }

    /// The output of an interrupted run at `path`, to be continued by writing its rows
    /// again into a new `.partial` file (Parquet, whose footer must describe every row
    /// group), under the output's lock. The rows so far are moved aside to
    /// `NAME.partial.old` ([`aside_path`]), `moved` is called with that path (to note in
    /// the run record where the rows now are, before anything else changes), and a new
    /// empty `.partial` file is opened. `aside_already` when the run record says a
    /// previous attempt moved them aside (and was itself cut short): they are taken
    /// from there. Returns the output and the file the rows were moved to, or `None`
    /// when there is nothing to continue.
    pub fn resume_aside(
        path: &Path,
        aside_already: bool,
        moved: impl FnOnce(&Path) -> anyhow::Result<()>,
    ) -> anyhow::Result<Option<(Output, PathBuf)>> {
        if is_special(path) {
            bail!("{}: not a regular file: nothing to resume", path.display());
        }
        let lock = OutputLock::acquire(path)?;
        let partial = partial_path(path);
        let old = aside_path(path);
        let rename = |from: &Path| {
            std::fs::rename(from, &old)
                .with_context(|| format!("cannot rename {} to {}", from.display(), old.display()))
        };
        if aside_already && old.exists() {
            // Moved aside by an attempt that was cut short: the rows are there.
        } else if partial.exists() {
            rename(&partial)?;
        } else if old.exists() {
            // Moved aside by an attempt cut short before it could note so.
        } else if path.exists() {
            rename(path)?;
        } else {
            return Ok(None);
        }
        moved(&old)?;
        let file = File::create(&partial)
            .with_context(|| format!("cannot create {}", partial.display()))?;
        Ok(Some((
            Output {
                target: Target::File {
                    path: path.to_path_buf(),
                    partial,
                    file,
                    lock,
                },
                ops: current_ops(),
            },
            old,
        )))
    }

    /// A handle on the `.partial` file, to sync it from where the rows are written
    /// (`None` for standard output and devices).
    pub fn partial_handle(&self) -> io::Result<Option<File>> {
        match &self.target {
            Target::File { file, .. } => file.try_clone().map(Some),
            _ => Ok(None),
        }
    }

    /// A writer of the output (unbuffered: wrap it); for a file, a handle to the
    /// `.partial` file.
    pub fn writer(&self) -> io::Result<Box<dyn Write + Send>> {
        Ok(match &self.target {
            Target::Stdout => Box::new(io::stdout()),
            Target::Special(file) => Box::new(file.try_clone()?),
            Target::File { file, partial, .. } => Box::new(EarlySync::new(
                self.ops.writer(file.try_clone()?, partial),
                file.try_clone()?,
            )),
        })
    }

    /// The file rows are written to until [`Output::finish`] (`None` for standard
    /// output and devices).
    pub fn partial(&self) -> Option<&Path> {
        match &self.target {
            Target::Stdout | Target::Special(_) => None,
            Target::File { partial, .. } => Some(partial),
        }
    }

    /// The final name of a file output (`None` for standard output and devices).
    pub fn path(&self) -> Option<&Path> {
        match &self.target {
            Target::Stdout | Target::Special(_) => None,
            Target::File { path, .. } => Some(path),
        }
    }

    /// Bytes written to the file so far (0 for standard output). Call after flushing
    /// the writer.
    pub fn len(&self) -> io::Result<u64> {
        match &self.target {
            Target::Stdout | Target::Special(_) => Ok(0),
            Target::File { file, .. } => Ok(file.metadata()?.len()),
        }
    }

    /// Whether nothing was written to the file yet (always true for standard output).
    pub fn is_empty(&self) -> io::Result<bool> {
        Ok(self.len()? == 0)
    }

    /// Flush what was written to the `.partial` file to the disk, so that a record
    /// pointing into it (a checkpoint) never points past what survives a crash.
    pub fn sync(&self) -> anyhow::Result<()> {
        if let Target::File { file, partial, .. } = &self.target {
            self.ops
                .sync_file(file, partial)
                .with_context(|| format!("cannot sync {}", partial.display()))?;
        }
        Ok(())
    }

    /// Commit a complete output (after the writer was flushed): the `.partial` file is
    /// synced, renamed over the final name, and the directory synced; then the lock is
    /// released. If any step fails, the final name keeps what it held (or, after the
    /// rename, the whole new output).
    pub fn finish(self) -> anyhow::Result<()> {
        let Output { target, ops } = self;
        if let Target::File {
            path,
            partial,
            file,
            lock,
        } = target
        {
            ops.sync_file(&file, &partial)
                .with_context(|| format!("cannot sync {}", partial.display()))?;
            drop(file);
            ops.rename(&partial, &path).with_context(|| {
                format!("cannot rename {} to {}", partial.display(), path.display())
            })?;
            ops.sync_dir(dir_of(&path))
                .with_context(|| format!("cannot sync the directory of {}", path.display()))?;
            drop(lock);
        }
        Ok(())
    }

    /// Commit a file drawn by another writer (a plot) in place of the `.partial` one:
    /// `drawn` is synced and renamed over the final name, the directory synced, and the
    /// (empty) `.partial` file removed. Standard output and devices cannot take a file.
    pub fn finish_with(self, drawn: &Path) -> anyhow::Result<()> {
        let Output { target, ops } = self;
        let Target::File {
            path,
            partial,
            file,
            lock,
        } = target
        else {
            bail!("{}: a picture needs a regular file", drawn.display());
        };
        let done = File::open(drawn).with_context(|| format!("cannot open {}", drawn.display()))?;
        ops.sync_file(&done, drawn)
            .with_context(|| format!("cannot sync {}", drawn.display()))?;
        ops.rename(drawn, &path)
            .with_context(|| format!("cannot rename {} to {}", drawn.display(), path.display()))?;
        drop(file);
        let _ = std::fs::remove_file(&partial);
        ops.sync_dir(dir_of(&path))
            .with_context(|| format!("cannot sync the directory of {}", path.display()))?;
        drop(lock);
        Ok(())
    }

    /// End an output that must not be committed (an interrupted or failed run): the
    /// final name is left as it was; the `.partial` file is cut to the bytes that
    /// `whole` finds whole (it is given the file to read, and may mend it: Parquet
    /// appends the footer of its last checkpoint) and synced. Returns the
    /// `.partial` path and what `whole` returned (`None` for standard output and
    /// devices, which are left as they are).
    pub fn keep_partial<T>(
        self,
        whole: impl FnOnce(&mut File) -> anyhow::Result<(T, u64)>,
    ) -> anyhow::Result<Option<(PathBuf, T)>> {
        let Output { target, ops } = self;
        let Target::File {
            partial,
            file,
            lock,
            ..
        } = target
        else {
            return Ok(None);
        };
        let mut read = OpenOptions::new()
            .read(true)
            .write(true)
            .open(&partial)
            .with_context(|| format!("cannot read {} back", partial.display()))?;
        let (kept, len) = whole(&mut read)?;
        if file.metadata()?.len() != len {
            file.set_len(len)
                .with_context(|| format!("cannot cut {} to its whole rows", partial.display()))?;
        }
        ops.sync_file(&file, &partial)
            .with_context(|| format!("cannot sync {}", partial.display()))?;
        ops.sync_dir(dir_of(&partial))
            .with_context(|| format!("cannot sync the directory of {}", partial.display()))?;
        drop(lock);
        Ok(Some((partial, kept)))
    }
}

/// Bytes written between two early flushes of a file output to the disk.
const EARLY_SYNC_BYTES: u64 = 32 << 20;

/// A file writer that has the disk take the data in the background as it is written
/// (`fdatasync` on a thread of its own every [`EARLY_SYNC_BYTES`]), so that the sync
/// of the commit finds little left to write and the run does not wait for a whole
/// output's worth of disk writes at its end. Errors there are left to that sync.
struct EarlySync {
    inner: Box<dyn Write + Send>,
    since: u64,
    kick: Option<std::sync::mpsc::SyncSender<()>>,
}

impl EarlySync {
    fn new(inner: Box<dyn Write + Send>, file: File) -> EarlySync {
        let (kick, kicked) = std::sync::mpsc::sync_channel::<()>(1);
        let spawned = std::thread::Builder::new()
            .name("bulkdoku-sync".into())
            .spawn(move || {
                for () in kicked {
                    let _ = file.sync_data();
                }
            });
        EarlySync {
            inner,
            since: 0,
            kick: spawned.is_ok().then_some(kick),
        }
    }
}

impl Write for EarlySync {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.since += n as u64;
        if self.since >= EARLY_SYNC_BYTES {
            self.since = 0;
            if let Some(kick) = &self.kick {
                // A sync still running takes this data too: no need to queue another.
                let _ = kick.try_send(());
            }
        }
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// Whether `path` exists and is neither a regular file nor a directory: a device, a
/// named pipe, a socket.
fn is_special(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir())
}

/// Whether `path` is a character device (`/dev/null`, a terminal).
fn is_char_device(path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        std::fs::metadata(path).is_ok_and(|m| m.file_type().is_char_device())
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        false
    }
}

/// Fail early, naming the path, when `path`'s directory does not exist or `path` is
/// a directory.
fn check_writable_dir(path: &Path) -> anyhow::Result<()> {
    if path.is_dir() {
        bail!("{}: is a directory", path.display());
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    if !dir.is_dir() {
        bail!("{}: no such directory", dir.display());
    }
    Ok(())
}

/// Check, before any work, that a file can later be written at `path` (its
/// directory exists, it is not a directory, it is not one of the `inputs`), without
/// creating or changing anything. `what` names the flag in messages (`--summary`).
pub fn check_target(path: &Path, what: &str, inputs: &[Option<PathBuf>]) -> anyhow::Result<()> {
    check_writable_dir(path).with_context(|| format!("{what} {}", path.display()))?;
    // Writing to a character device (`/dev/null`) overwrites nothing it could be read from.
    if is_char_device(path) {
        return Ok(());
    }
    if let Some(input) = inputs.iter().flatten().find(|i| same_file(i, path)) {
        bail!(
            "{what} {} is also an input ({}): it would be overwritten",
            path.display(),
            input.display()
        );
    }
    Ok(())
}

/// Whether `a` and `b` name the same existing file (through links and `..` alike).
pub fn same_file(a: &Path, b: &Path) -> bool {
    let (Ok(ma), Ok(mb)) = (std::fs::metadata(a), std::fs::metadata(b)) else {
        return false;
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        ma.dev() == mb.dev() && ma.ino() == mb.ino()
    }
    #[cfg(not(unix))]
    {
        let _ = (ma, mb);
        matches!(
            (std::fs::canonicalize(a), std::fs::canonicalize(b)),
            (Ok(x), Ok(y)) if x == y
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_reach_the_final_name_only_when_finished() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.csv");
        std::fs::write(&path, "yesterday\n").unwrap();
        let out = Output::create(Some(&path)).unwrap();
        out.writer().unwrap().write_all(b"today\n").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "yesterday\n");
        assert_eq!(out.len().unwrap(), 6);
        out.finish().unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "today\n");
        assert!(!partial_path(&path).exists());
    }

    #[test]
    fn resume_takes_the_partial_file_or_the_final_one_and_cuts_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.csv");
        assert!(Output::resume(&path, |_| Ok(0)).unwrap().is_none());
        for at_final in [false, true] {
            let from = if at_final {
                path.clone()
            } else {
                partial_path(&path)
            };
            std::fs::write(&from, "a\nb\ntor").unwrap();
            let out = Output::resume(&path, |_| Ok(4)).unwrap().unwrap();
            assert!(!path.exists(), "rows leave the final name while written");
            out.writer().unwrap().write_all(b"c\n").unwrap();
            out.finish().unwrap();
            assert_eq!(std::fs::read_to_string(&path).unwrap(), "a\nb\nc\n");
        }
    }

    #[test]
    fn targets_are_checked_without_touching_them() {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("in.txt");
        std::fs::write(&input, "x\n").unwrap();
        let inputs = [Some(input.clone()), None];
        let err = check_target(&input, "-o", &inputs).unwrap_err();
        assert!(format!("{err:#}").contains("is also an input"), "{err:#}");
        let via_dot = dir.path().join(".").join("in.txt");
        assert!(check_target(&via_dot, "-o", &inputs).is_err());
        let missing_dir = dir.path().join("nope").join("x.csv");
        let err = check_target(&missing_dir, "--summary", &inputs).unwrap_err();
        assert!(format!("{err:#}").contains("no such directory"), "{err:#}");
        assert!(check_target(dir.path(), "-o", &inputs).is_err());
        check_target(&dir.path().join("new.csv"), "-o", &inputs).unwrap();
        assert!(!dir.path().join("new.csv").exists());
        // `/dev/null` as input and output: nothing to overwrite
        #[cfg(unix)]
        check_target(
            Path::new("/dev/null"),
            "-o",
            &[Some(PathBuf::from("/dev/null"))],
        )
        .unwrap();
        assert_eq!(std::fs::read_to_string(&input).unwrap(), "x\n");
    }

    #[cfg(unix)]
    #[test]
    fn devices_are_written_in_place_never_replaced() {
        let null = Path::new("/dev/null");
        let out = Output::create(Some(null)).unwrap();
        out.writer().unwrap().write_all(b"rows\n").unwrap();
        assert!(out.partial().is_none());
        out.finish().unwrap();
        let meta = std::fs::metadata(null).unwrap();
        assert!(!meta.is_file(), "/dev/null was replaced by a file");
        assert!(Output::resume(null, |_| Ok(0)).is_err());
    }
}
