//! `bulkdoku.rate`: each text through the library's [`RateWorker`] (the solver decides
//! the status, the rater rates a unique puzzle), in parallel on the library's ordered
//! pipeline, into Arrow columns with the CLI's meanings.

use std::sync::Arc;

use arrow_array::builder::{Float64Builder, Int64Builder, StringBuilder};
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{ArrowError, DataType, Field, Schema, SchemaRef};
use bulkdoku::clock::TickRate;
use bulkdoku::grid::CELLS;
use bulkdoku::output::ratings::tenths_float;
use bulkdoku::rating::{RateWorker, Rated};
use bulkdoku::row::Status;

use crate::run::{in_order, Beside, Slot};
use crate::solve::{grid_text, process_clock, BATCH_ROWS, BATCH_TEXT_BYTES};
use crate::texts::Texts;

/// The columns of `rate`'s table: the CLI's `rate` columns without `file` and `line`
/// (a row's place is its position: one row per input, in input order). Ratings are
/// floats (`7.2`), null where the CLI writes an empty field.
pub fn schema() -> SchemaRef {
    let text = |name, nullable| Field::new(name, DataType::Utf8, nullable);
    Arc::new(Schema::new(vec![
        // Null only where the input was missing.
        text("puzzle", true),
        text("status", false),
        Field::new("er", DataType::Float64, true),
        Field::new("ep", DataType::Float64, true),
        Field::new("ed", DataType::Float64, true),
        text("er_technique", true),
        Field::new("steps", DataType::Int64, true),
        Field::new("time_ns", DataType::Int64, false),
        text("error", true),
    ]))
}

/// Rate every text of `texts` on `threads` workers (one per core when `None`), into
/// record batches of [`schema`], rows in input order.
pub fn rate(texts: &Texts, threads: Option<usize>) -> Result<Vec<RecordBatch>, String> {
    let clock = *process_clock();
    let mut columns = Columns::new(texts.len().min(BATCH_ROWS));
    let mut batches = Vec::new();
    in_order(
        texts,
        Beside::default(),
        threads,
        RateWorker::new,
        |worker, slot| worker.rate(&slot.record, &clock),
        |slots: &[Slot], results: &[Rated]| {
            let rate = clock.rate();
            for (slot, rated) in slots.iter().zip(results) {
                columns.push(slot, rated, rate);
                if columns.full() {
                    batches.push(columns.finish()?);
                }
            }
            Ok::<(), ArrowError>(())
        },
    )?;
    if columns.rows > 0 {
        batches.push(columns.finish().map_err(|e| e.to_string())?);
    }
    Ok(batches)
}

/// The result columns being built.
struct Columns {
    puzzle: StringBuilder,
    status: StringBuilder,
    /// `er`, `ep`, `ed`.
    ratings: [Float64Builder; 3],
    er_technique: StringBuilder,
    steps: Int64Builder,
    time_ns: Int64Builder,
    error: StringBuilder,
    rows: usize,
}

impl Columns {
    fn new(rows: usize) -> Columns {
        Columns {
            puzzle: StringBuilder::with_capacity(rows, rows * CELLS),
            status: StringBuilder::with_capacity(rows, rows * 6),
            ratings: std::array::from_fn(|_| Float64Builder::with_capacity(rows)),
            er_technique: StringBuilder::new(),
            steps: Int64Builder::with_capacity(rows),
            time_ns: Int64Builder::with_capacity(rows),
            error: StringBuilder::new(),
            rows: 0,
        }
    }

    /// Add the row of one record, as the CLI writes it: an invalid record keeps its
    /// text as found and a zero time; ratings only for a rated unique puzzle.
    fn push(&mut self, slot: &Slot, rated: &Rated, rate: TickRate) {
        let ns = |v: u64| i64::try_from(v).unwrap_or(i64::MAX);
        match rated {
            // The workers here have no stop flag, so no search is cut short; were one,
            // its row would say so rather than be lost.
            Rated::Invalid(_) | Rated::Cut => {
                let reason = match rated {
                    Rated::Invalid(reason) => reason.as_str(),
                    _ => crate::solve::CUT,
                };
                if slot.missing {
                    self.puzzle.append_null();
                } else {
                    self.puzzle
                        .append_value(String::from_utf8_lossy(&slot.record.cells));
                }
                self.status.append_value(Status::Invalid.as_str());
                for b in &mut self.ratings {
                    b.append_null();
                }
                self.er_technique.append_null();
                self.steps.append_null();
                self.time_ns.append_value(0);
                self.error.append_value(reason);
            }
            Rated::Valid {
                puzzle,
                status,
                rating,
                ticks,
            } => {
                self.puzzle.append_value(grid_text(puzzle).as_str());
                self.status.append_value(status.as_str());
                let r = rating.as_ref().ok().and_then(Option::as_ref);
                let values = r.map(|r| [r.er, r.ep, r.ed]);
                for (i, b) in self.ratings.iter_mut().enumerate() {
                    b.append_option(values.map(|v| tenths_float(v[i])));
                }
                self.er_technique.append_option(r.map(|r| r.er_technique));
                self.steps.append_option(r.map(|r| i64::from(r.step_count)));
                self.time_ns.append_value(ns(rate.ns(*ticks)));
                self.error.append_option(rating.as_ref().err());
            }
        }
        self.rows += 1;
    }

    /// Whether the batch is as large as a batch may be.
    fn full(&self) -> bool {
        self.rows >= BATCH_ROWS
            || self.puzzle.values_slice().len() >= BATCH_TEXT_BYTES
            || self.error.values_slice().len() >= BATCH_TEXT_BYTES
    }

    /// The rows so far as a record batch; the builders start again, empty.
    fn finish(&mut self) -> Result<RecordBatch, ArrowError> {
        let [er, ep, ed] = &mut self.ratings;
        let columns: Vec<ArrayRef> = vec![
            Arc::new(self.puzzle.finish()),
            Arc::new(self.status.finish()),
            Arc::new(er.finish()),
            Arc::new(ep.finish()),
            Arc::new(ed.finish()),
            Arc::new(self.er_technique.finish()),
            Arc::new(self.steps.finish()),
            Arc::new(self.time_ns.finish()),
            Arc::new(self.error.finish()),
        ];
        self.rows = 0;
        RecordBatch::try_new(schema(), columns)
    }
}
