//! `bulkdoku.solve`: each text through the library's [`solve_record`], in parallel on
//! the library's ordered pipeline, into Arrow columns with the CLI's meanings.

use std::sync::{Arc, OnceLock};

use arrow_array::builder::StringBuilder;
use arrow_array::{ArrayRef, Int64Array, RecordBatch};
use arrow_schema::{ArrowError, DataType, Field, Schema, SchemaRef};
use bulkdoku::clock::{Clock, TickRate};
use bulkdoku::grid::{Grid, CELLS};
use bulkdoku::row::Status;
use bulkdoku::solving::{SolveOptions, Solved, Worker};

use crate::run::{in_order, Beside, Slot};
use crate::texts::Texts;

/// The error of a record whose search was given up on a stop request (`Solved::Cut`,
/// `Rated::Cut`): never, as the workers here have no stop flag.
pub(crate) const CUT: &str = "the search was stopped before it ended";

/// The columns of `solve`'s table: the CLI's `solve` columns without `file` and
/// `line` (a row's place is its position: one row per input, in input order), with the
/// CLI's `rules` and `regions` columns after them when `variant`.
pub fn schema(variant: bool) -> SchemaRef {
    let text = |name, nullable| Field::new(name, DataType::Utf8, nullable);
    let count = |name| Field::new(name, DataType::Int64, false);
    let mut fields = vec![
        // Null only where the input was missing.
        text("puzzle", true),
        text("status", false),
        count("solutions"),
        count("clues"),
        count("guesses"),
        count("time_ns"),
        // Null where the CLI writes an empty field: no solution, no error.
        text("solution", true),
        text("error", true),
    ];
    if variant {
        // Every row's rules; its regions, null where it gives none.
        fields.extend([text("rules", false), text("regions", true)]);
    }
    Arc::new(Schema::new(fields))
}

/// Solve every text of `texts` (under its rules and regions `beside` it, else
/// `options.rules`) with `options` on `threads` workers (one per core when `None`),
/// into record batches of [`schema`], rows in input order; with the variant columns
/// when `variant`.
pub fn solve(
    texts: &Texts,
    beside: Beside<'_>,
    options: SolveOptions,
    variant: bool,
    threads: Option<usize>,
) -> Result<Vec<RecordBatch>, String> {
    let clock = *process_clock();
    let first_only = options.first_only();
    let mut columns = Columns::new(texts.len().min(BATCH_ROWS), variant);
    let default_rules = options.rules.to_string();
    let mut batches = Vec::new();
    in_order(
        texts,
        beside,
        threads,
        Worker::new,
        |worker, slot| worker.solve(&slot.record, &options, &clock),
        |slots: &[Slot], results: &[Solved]| {
            let rate = clock.rate();
            for (slot, solved) in slots.iter().zip(results) {
                columns.push(slot, solved, first_only, rate, &default_rules);
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

/// The clock of every call, started once per process (at import).
///
/// [`Clock::rate`] measures the tick rate over the span since its start and waits until
/// that span is at least 200 µs: a clock per call would make every small call (one
/// Spark batch, one puzzle) wait out those 200 µs, while this one has long passed them.
pub fn process_clock() -> &'static Clock {
    static CLOCK: OnceLock<Clock> = OnceLock::new();
    CLOCK.get_or_init(Clock::start)
}

/// Rows per record batch at most. Results are cut into batches so that no string
/// column nears the 2 GiB that `string`'s 32-bit offsets can address (the type Spark
/// and most readers expect): 2^20 rows hold 85 MiB of grids per grid column.
pub const BATCH_ROWS: usize = 1 << 20;

/// Bytes of free text (an invalid record's text, error messages) per column at which
/// a batch is cut early, far below the 2 GiB limit, whatever the texts' lengths.
pub const BATCH_TEXT_BYTES: usize = 1 << 30;

/// The result columns being built.
struct Columns {
    puzzle: StringBuilder,
    status: StringBuilder,
    solutions: Vec<i64>,
    clues: Vec<i64>,
    guesses: Vec<i64>,
    time_ns: Vec<i64>,
    solution: StringBuilder,
    error: StringBuilder,
    /// The variant columns, when the table has them.
    variant: Option<(StringBuilder, StringBuilder)>,
    rows: usize,
}

impl Columns {
    fn new(rows: usize, variant: bool) -> Columns {
        Columns {
            puzzle: StringBuilder::with_capacity(rows, rows * CELLS),
            status: StringBuilder::with_capacity(rows, rows * 6),
            solutions: Vec::with_capacity(rows),
            clues: Vec::with_capacity(rows),
            guesses: Vec::with_capacity(rows),
            time_ns: Vec::with_capacity(rows),
            solution: StringBuilder::with_capacity(rows, rows * CELLS),
            error: StringBuilder::new(),
            variant: variant.then(|| (StringBuilder::new(), StringBuilder::new())),
            rows: 0,
        }
    }

    /// Add the row of one record, as the CLI writes it (`write_solved`): an invalid
    /// record keeps its text as found and zero counts. A row's rules are those it was
    /// solved under; for an invalid record, its own as given, else `default_rules`.
    fn push(
        &mut self,
        slot: &Slot,
        solved: &Solved,
        first_only: bool,
        rate: TickRate,
        default_rules: &str,
    ) {
        if let Some((rules, regions)) = &mut self.variant {
            let record = &slot.record;
            match solved {
                Solved::Valid { rules: set, .. } => rules.append_value(set.to_string()),
                Solved::Invalid(_) if record.rules.is_empty() => rules.append_value(default_rules),
                Solved::Invalid(_) | Solved::Cut => {
                    rules.append_value(String::from_utf8_lossy(&record.rules))
                }
            }
            match record.regions.is_empty() {
                true => regions.append_null(),
                false => regions.append_value(String::from_utf8_lossy(&record.regions)),
            }
        }
        match solved {
            // The workers here have no stop flag, so no search is cut short; were one,
            // its row would say so rather than be lost.
            Solved::Invalid(_) | Solved::Cut => {
                let reason = match solved {
                    Solved::Invalid(reason) => reason.as_str(),
                    _ => CUT,
                };
                if slot.missing {
                    self.puzzle.append_null();
                } else {
                    self.puzzle
                        .append_value(String::from_utf8_lossy(&slot.record.cells));
                }
                self.status.append_value(Status::Invalid.as_str());
                self.counts([0, 0, 0, 0]);
                self.solution.append_null();
                self.error.append_value(reason);
            }
            Solved::Valid {
                puzzle,
                solutions,
                guesses,
                ticks,
                first,
                ..
            } => {
                self.puzzle.append_value(grid_text(puzzle).as_str());
                let status = Status::from_count(*solutions, first_only);
                self.status.append_value(status.as_str());
                self.counts([*solutions, puzzle.clues() as u64, *guesses, rate.ns(*ticks)]);
                match first {
                    Some(solution) => self.solution.append_value(grid_text(solution).as_str()),
                    None => self.solution.append_null(),
                }
                self.error.append_null();
            }
        }
        self.rows += 1;
    }

    fn counts(&mut self, [solutions, clues, guesses, time_ns]: [u64; 4]) {
        // Counts fit in i64 (the limit is at most i64::MAX; times saturate in 292 years).
        let n = |v: u64| i64::try_from(v).unwrap_or(i64::MAX);
        self.solutions.push(n(solutions));
        self.clues.push(n(clues));
        self.guesses.push(n(guesses));
        self.time_ns.push(n(time_ns));
    }

    /// Whether the batch is as large as a batch may be.
    fn full(&self) -> bool {
        self.rows >= BATCH_ROWS
            || self.puzzle.values_slice().len() >= BATCH_TEXT_BYTES
            || self.error.values_slice().len() >= BATCH_TEXT_BYTES
    }

    /// The rows so far as a record batch; the builders start again, empty.
    fn finish(&mut self) -> Result<RecordBatch, ArrowError> {
        let ints = |v: &mut Vec<i64>| -> ArrayRef { Arc::new(Int64Array::from(std::mem::take(v))) };
        let mut columns: Vec<ArrayRef> = vec![
            Arc::new(self.puzzle.finish()),
            Arc::new(self.status.finish()),
            ints(&mut self.solutions),
            ints(&mut self.clues),
            ints(&mut self.guesses),
            ints(&mut self.time_ns),
            Arc::new(self.solution.finish()),
            Arc::new(self.error.finish()),
        ];
        if let Some((rules, regions)) = &mut self.variant {
            columns.push(Arc::new(rules.finish()));
            columns.push(Arc::new(regions.finish()));
        }
        self.rows = 0;
        RecordBatch::try_new(schema(self.variant.is_some()), columns)
    }
}

/// A grid's 81-character line (`.` for blanks) on the stack.
pub struct GridText([u8; CELLS]);

impl GridText {
    pub fn as_str(&self) -> &str {
        // The line is ASCII digits and dots: always UTF-8.
        std::str::from_utf8(&self.0).unwrap_or_default()
    }
}

pub fn grid_text(grid: &Grid) -> GridText {
    let mut line = [0u8; CELLS];
    grid.write_line(&mut line);
    GridText(line)
}
