//! The one parallel loop of every function: texts in batches through the library's
//! ordered pipeline ([`ordered_map`]) on a pool of `threads` workers
//! ([`thread_pool`]), results handed to a drain in input order, as in the CLI.

use std::fmt::Display;

use bulkdoku::dataset::BATCH_SIZE;
use bulkdoku::input::Record;
use bulkdoku::pipeline::{ordered_map, thread_pool};

use crate::texts::Texts;

/// One text as a record for the library's per-record functions.
#[derive(Debug, Default)]
pub struct Slot {
    /// The text, trimmed of ASCII white space as the CLI's CSV reader trims fields,
    /// in `cells`; empty for a missing value, which the library then reports as it
    /// reports an empty CSV field (`0 cells, expected 81`).
    pub record: Record,
    /// The input value was missing (`None`, null): its `puzzle` is null too.
    pub missing: bool,
}

/// Per-puzzle texts beside the puzzles: each record's own rules (as a CSV `rules`
/// column gives them) and jigsaw regions, as long as the puzzles when given.
#[derive(Clone, Copy, Default)]
pub struct Beside<'a> {
    /// Each puzzle's rules, e.g. `x,anti-knight`; a missing value means the default.
    pub rules: Option<&'a Texts>,
    /// Each puzzle's 81-character region string.
    pub regions: Option<&'a Texts>,
}

/// Map `work` over `texts` on a new pool of `threads` workers (one per core when
/// `None`), each worker with a state from `init`, and hand each batch of slots with
/// its results to `drain` in input order.
///
/// A pool per call, not one kept for the process: a process that forks (Spark's
/// Python workers, `multiprocessing`) would inherit a pool whose threads did not
/// survive the fork. Starting a few threads costs tens of microseconds.
pub fn in_order<O, S, E>(
    texts: &Texts,
    beside: Beside<'_>,
    threads: Option<usize>,
    init: impl Fn() -> S + Sync + Send,
    work: impl Fn(&mut S, &Slot) -> O + Sync + Send,
    drain: impl FnMut(&[Slot], &[O]) -> Result<(), E> + Send,
) -> Result<(), String>
where
    O: Send + Sync,
    S: Send,
    E: Display + Send,
{
    let pool = thread_pool(threads).map_err(|e| e.to_string())?;
    let mut values = texts.iter();
    let mut rules = beside.rules.map(|t| t.iter());
    let mut regions = beside.regions.map(|t| t.iter());
    let copy = |to: &mut Vec<u8>, value: Option<Option<&str>>| {
        to.clear();
        if let Some(Some(text)) = value {
            to.extend_from_slice(text.trim_ascii().as_bytes());
        }
    };
    let fill = |batch: &mut Vec<Slot>| -> Result<(), E> {
        // The batch's slots (and their buffers) are reused from batch to batch.
        let mut n = 0;
        while n < BATCH_SIZE {
            let Some(value) = values.next() else { break };
            if n == batch.len() {
                batch.push(Slot::default());
            }
            let slot = &mut batch[n];
            slot.record.cells.clear();
            slot.missing = value.is_none();
            if let Some(text) = value {
                slot.record
                    .cells
                    .extend_from_slice(text.trim_ascii().as_bytes());
            }
            copy(
                &mut slot.record.rules,
                rules.as_mut().map(|r| r.next().flatten()),
            );
            copy(
                &mut slot.record.regions,
                regions.as_mut().map(|r| r.next().flatten()),
            );
            n += 1;
        }
        batch.truncate(n);
        Ok(())
    };
    pool.install(|| ordered_map(BATCH_SIZE, fill, init, work, drain))
        .map_err(|e| e.to_string())
}
