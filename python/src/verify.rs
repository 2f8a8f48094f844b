//! `bulkdoku.verify`: the library's per-record [`Checks`] in parallel, then its
//! [`Ledger`] in input order (duplicates, isomorphs, the claimed solutions), into one
//! row per finding, as `bulkdoku verify` writes them.

use std::sync::Arc;

use arrow_array::builder::StringBuilder;
use arrow_array::{ArrayRef, Int64Array, RecordBatch};
use arrow_schema::{ArrowError, DataType, Field, Schema, SchemaRef};
use bulkdoku::dedup::FirstSeen;
use bulkdoku::verify::{Checked, Checks, Claims, Finding, Ledger, Scratch};

use crate::run::{in_order, Beside, Slot};
use crate::solve::{grid_text, BATCH_ROWS, BATCH_TEXT_BYTES};
use crate::texts::Texts;

/// The columns of `verify`'s table: the CLI's `line` becomes the 0-based `index` of
/// the puzzle in the input.
pub fn schema() -> SchemaRef {
    Arc::new(Schema::new(vec![
        Field::new("index", DataType::Int64, false),
        // Null only where the input was missing.
        Field::new("puzzle", DataType::Utf8, true),
        Field::new("kind", DataType::Utf8, false),
        Field::new("detail", DataType::Utf8, false),
    ]))
}

/// Verify `texts` (under the rules and regions `beside` them, else `checks.rules`;
/// with their claimed `solutions`, as long as `texts`, if given) on `threads` workers:
/// batches of [`schema`], one row per finding, in input order and by kind within a
/// puzzle.
pub fn verify(
    texts: &Texts,
    beside: Beside<'_>,
    solutions: Option<&Texts>,
    checks: Checks,
    threads: Option<usize>,
) -> Result<Vec<RecordBatch>, String> {
    let mut ledger = Ledger::new(checks.isomorphs);
    let mut claimed = solutions.map(|s| s.iter());
    let mut index = 0u64;
    let mut findings: Vec<Finding> = Vec::new();
    let mut rows = Rows::default();
    let mut batches = Vec::new();
    in_order(
        texts,
        beside,
        threads,
        Scratch::default,
        |scratch, slot| checks.check(scratch, &slot.record),
        |slots: &[Slot], results: &[Checked]| {
            for (slot, checked) in slots.iter().zip(results) {
                let claims = Claims {
                    solution: claimed.as_mut().and_then(|c| c.next().flatten()),
                    clues: None,
                };
                // The first occurrence is named by its index, the column this table
                // has instead of the CLI's `line`.
                let place = |first: FirstSeen| format!("index {}", first.line());
                ledger.record(0, index, checked, claims, place, &mut findings);
                for (kind, detail) in &findings {
                    rows.index.push(index as i64);
                    match (&checked.grid, slot.missing) {
                        (Some(grid), _) => rows.puzzle.append_value(grid_text(grid).as_str()),
                        (None, true) => rows.puzzle.append_null(),
                        (None, false) => rows
                            .puzzle
                            .append_value(String::from_utf8_lossy(&slot.record.cells)),
                    }
                    rows.kind.append_value(kind.as_str());
                    rows.detail.append_value(detail);
                    if rows.full() {
                        batches.push(rows.finish()?);
                    }
                }
                index += 1;
            }
            Ok::<(), ArrowError>(())
        },
    )?;
    if !rows.index.is_empty() {
        batches.push(rows.finish().map_err(|e| e.to_string())?);
    }
    Ok(batches)
}

/// The findings' columns being built.
#[derive(Default)]
struct Rows {
    index: Vec<i64>,
    puzzle: StringBuilder,
    kind: StringBuilder,
    detail: StringBuilder,
}

impl Rows {
    /// Whether the batch is as large as a batch may be (as in `solve`).
    fn full(&self) -> bool {
        self.index.len() >= BATCH_ROWS
            || self.puzzle.values_slice().len() >= BATCH_TEXT_BYTES
            || self.detail.values_slice().len() >= BATCH_TEXT_BYTES
    }

    /// The rows so far as a record batch; the builders start again, empty.
    fn finish(&mut self) -> Result<RecordBatch, ArrowError> {
        let columns: Vec<ArrayRef> = vec![
            Arc::new(Int64Array::from(std::mem::take(&mut self.index))),
            Arc::new(self.puzzle.finish()),
            Arc::new(self.kind.finish()),
            Arc::new(self.detail.finish()),
        ];
        RecordBatch::try_new(schema(), columns)
    }
}
