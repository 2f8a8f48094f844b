//! Parquet outputs that survive `kill -9`: the sink's checkpoints (a footer for its
//! closed row groups) saved in the run record as row groups close, and a resumed run's
//! rows written again from the file they were moved aside to.
//!
//! The order keeps every crash recoverable: the data is synced before a checkpoint
//! naming it is saved; the file aside is removed only after a checkpoint of the new
//! file is saved (until then the record says the rows are aside).

use std::fs::{File, OpenOptions};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::Context;
use bulkdoku::output::parquet_resume::replay_solve_parquet;
use bulkdoku::output::{recover_parquet, Kept, ParquetCheckpoint, SolveSink};
use bulkdoku::resume::RunRecord;
use bulkdoku::row::{SolveRow, SolvedRow};

use crate::cmd::Opened;

/// Rows written between two looks at the sink's latest checkpoint.
const LOOK_EVERY: u32 = 1024;

/// A sink that saves its inner sink's Parquet checkpoints in the run record.
pub struct Checkpointing {
    inner: Box<dyn SolveSink>,
    /// The run record and the output it sits beside (none for standard output, or
    /// without a record).
    record: Option<(RunRecord, PathBuf)>,
    /// The `.partial` file, to sync before a checkpoint naming its bytes is saved.
    data: Option<File>,
    /// The file aside, removed once the new file has a checkpoint of its own.
    aside: Option<PathBuf>,
    /// The last checkpoint saved.
    saved: Option<Arc<ParquetCheckpoint>>,
    rows: u32,
}

impl Checkpointing {
    /// Wrap `inner`, the sink over `opened`'s output.
    pub fn new(inner: Box<dyn SolveSink>, opened: &Opened) -> anyhow::Result<Checkpointing> {
        let record = match (&opened.record, &opened.path) {
            (Some(record), Some(path)) => Some((record.clone(), path.clone())),
            _ => None,
        };
        Ok(Checkpointing {
            inner,
            record,
            data: opened.output.partial_handle()?,
            aside: opened.aside.clone(),
            saved: None,
            rows: 0,
        })
    }

    /// The last checkpoint saved in the run record.
    pub fn saved(&self) -> Option<Arc<ParquetCheckpoint>> {
        self.saved.clone()
    }

    /// Save the inner sink's latest checkpoint if it is new.
    fn look(&mut self) -> io::Result<()> {
        let Some((record, path)) = &mut self.record else {
            return Ok(());
        };
        let Some(latest) = self.inner.checkpoint() else {
            return Ok(());
        };
        if self.saved.as_ref().is_some_and(|s| Arc::ptr_eq(s, &latest)) {
            return Ok(());
        }
        if let Some(data) = &self.data {
            data.sync_data()?;
        }
        record.parquet = Some((*latest).clone());
        record.aside = false;
        record.save(path).map_err(io::Error::other)?;
        self.saved = Some(latest);
        if let Some(aside) = self.aside.take() {
            std::fs::remove_file(&aside)?;
        }
        Ok(())
    }

    fn counted(&mut self) -> io::Result<()> {
        self.rows += 1;
        if self.rows >= LOOK_EVERY {
            self.rows = 0;
            self.look()?;
        }
        Ok(())
    }
}

impl SolveSink for Checkpointing {
    fn write(&mut self, row: &SolveRow<'_>, kept: Kept<'_>) -> io::Result<()> {
        self.inner.write(row, kept)?;
        self.counted()
    }

    fn write_solved(&mut self, row: &SolvedRow<'_>, kept: Kept<'_>) -> io::Result<()> {
        self.inner.write_solved(row, kept)?;
        self.counted()
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()?;
        self.look()
    }

    fn finish(&mut self) -> io::Result<()> {
        self.inner.finish()?;
        self.look()
    }

    fn checkpoint(&self) -> Option<Arc<ParquetCheckpoint>> {
        self.inner.checkpoint()
    }
}

/// Write the whole records of an interrupted Parquet run, moved aside to `aside`, into
/// `sink` (the new output's): the file is first cut back to the last checkpoint of the
/// run `resumed` and given its footer. Returns the records done (to skip).
pub fn replay_aside(
    aside: &Path,
    resumed: Option<&RunRecord>,
    sink: &mut dyn SolveSink,
    all_solutions: bool,
) -> anyhow::Result<u64> {
    let Some(checkpoint) = resumed.and_then(|r| r.parquet.as_ref()) else {
        // Killed before its first row group was written: nothing to keep.
        return Ok(0);
    };
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .open(aside)
        .with_context(|| format!("cannot open {}", aside.display()))?;
    recover_parquet(&mut file, checkpoint).with_context(|| {
        format!(
            "cannot recover the row groups of {} up to its last checkpoint",
            aside.display()
        )
    })?;
    drop(file);
    Ok(replay_solve_parquet(aside, sink, all_solutions)?.records)
}

/// How much of a Parquet `.partial` file is whole, for a run that stops: cut back to
/// its last saved checkpoint and given that checkpoint's footer (a readable file of
/// the whole row groups); nothing without a checkpoint.
pub fn parquet_rows_done(
    file: &mut File,
    saved: Option<&ParquetCheckpoint>,
) -> anyhow::Result<(u64, u64)> {
    let Some(checkpoint) = saved else {
        return Ok((0, 0));
    };
    recover_parquet(file, checkpoint)?;
    Ok((checkpoint.rows, file.metadata()?.len()))
}
