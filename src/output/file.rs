//! The one opener of every output: standard output, or a file that is never left
//! half-written under its final name.
//!
//! Rows go to `NAME.partial` beside the final `NAME`, which is replaced (renamed over,
//! atomically) only by [`Output::finish`]: when the run is done, or when it stops on an
//! interrupt or an input error with its rows whole. A run killed outright (`kill -9`,
//! power loss) leaves `NAME` as it was and its rows in `NAME.partial`, where `--resume`
//! finds them. Nothing is created or truncated before the caller has checked its inputs
//! and arguments: opening is the last step before the work.
//!
//! A path that names something other than a regular file (`/dev/null`, a named pipe,
//! `/dev/stdout`) is written in place: there is nothing to keep whole there, and
//! renaming a file over a device would replace the device.

use std::fs::{File, OpenOptions};
use std::io::{self, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context};

/// Where an output goes.
#[derive(Debug)]
pub struct Output {
    target: Target,
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
    },
}

/// The file beside `path` that holds its rows until the run finishes.
pub fn partial_path(path: &Path) -> PathBuf {
    sibling(path, ".partial")
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
    /// `path.partial` (replacing any left there) that becomes `path` at
    /// [`Output::finish`].
    pub fn create(path: Option<&Path>) -> anyhow::Result<Output> {
        let Some(path) = path.filter(|_| !is_stdout(path)) else {
            return Ok(Output {
                target: Target::Stdout,
            });
        };
        if is_special(path) {
            let file = OpenOptions::new()
                .write(true)
                .open(path)
                .with_context(|| format!("cannot open {}", path.display()))?;
            return Ok(Output {
                target: Target::Special(file),
            });
        }
        check_writable_dir(path)?;
        let partial = partial_path(path);
        let file = File::create(&partial)
            .with_context(|| format!("cannot create {}", partial.display()))?;
        Ok(Output {
            target: Target::File {
                path: path.to_path_buf(),
                partial,
                file,
            },
        })
    }

    /// The output of an interrupted run at `path`, to be continued: the rows so far
    /// (in `path.partial` if a run was killed before it could rename it, else in
    /// `path`), cut to their first `keep(rows)` bytes, where `keep` is given the file
    /// to read. `Ok(None)` when there is no such output.
    pub fn resume(
        path: &Path,
        keep: impl FnOnce(&mut File) -> anyhow::Result<u64>,
    ) -> anyhow::Result<Option<Output>> {
        if is_special(path) {
            bail!("{}: not a regular file: nothing to resume", path.display());
        }
        let partial = partial_path(path);
        let from = if partial.exists() {
            partial.clone()
        } else if path.exists() {
            // The run stopped cleanly and renamed its rows; take them back out of the
            // final name while more are written, so that a second interruption cannot
            // leave a torn file there.
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
            },
        }))
    }

    /// A writer of the output (unbuffered: wrap it); for a file, a handle to the
    /// `.partial` file.
    pub fn writer(&self) -> io::Result<Box<dyn Write + Send>> {
        Ok(match &self.target {
            Target::Stdout => Box::new(io::stdout()),
            Target::Special(file) | Target::File { file, .. } => Box::new(file.try_clone()?),
        })
    }

    /// The file rows are written to until [`Output::finish`] (`None` for standard
    /// output).
    pub fn partial(&self) -> Option<&Path> {
        match &self.target {
            Target::Stdout | Target::Special(_) => None,
            Target::File { partial, .. } => Some(partial),
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

    /// Give the output its final name (after the writer was flushed): the `.partial`
    /// file replaces the file at the final name.
    pub fn finish(self) -> anyhow::Result<()> {
        if let Target::File { path, partial, .. } = self.target {
            std::fs::rename(&partial, &path).with_context(|| {
                format!("cannot rename {} to {}", partial.display(), path.display())
            })?;
        }
        Ok(())
    }
}

/// Whether `path` exists and is neither a regular file nor a directory: a device, a
/// named pipe, a socket.
fn is_special(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir())
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
