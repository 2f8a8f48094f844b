//! `solve` rows, `verify` findings and `rate` rows as Parquet, through the `parquet` crate's Arrow
//! writer (feature `parquet`).
//!
//! The schema is typed so that pandas, polars and DuckDB read it as it is meant:
//! text columns (`file`, `puzzle`, `status`, `solution`, `error`, kept columns) are
//! UTF-8 strings, never numbers however they look; counts (`line`, `solutions`,
//! `clues`, `guesses`, `time_ns`) are unsigned 64-bit integers; a missing solution or
//! error is null. Pages are zstd-compressed unless told otherwise
//! ([`ParquetCompression`]).
//!
//! Rows are gathered into Arrow arrays a batch at a time ([`BATCH_ROWS`]) and handed to
//! the writer, on a thread of its own, which has the batch's columns encoded into the
//! row group in progress side by side on two more threads and
//! writes the row group out when it holds its rows (see
//! [`crate::output::ROW_GROUP_ROWS`]): memory holds a few batches and one row group,
//! whatever the size of the run. Rows keep the order they are written in.
//!
//! The footer, without which no reader opens the file, is written by
//! [`SolveSink::finish`]: at the end of the run, and also when it stops on an interrupt
//! or an input error, so that the file holds whole row groups. A run killed outright
//! leaves a file without a footer; but each time a row group is written out (and the
//! output flushed), the writer thread publishes a [`ParquetCheckpoint`] with a footer
//! for the row groups so far, which the sinks hand out ([`SolveSink::checkpoint`]):
//! with it, [`super::recover_parquet`] makes the file whole again, and
//! [`super::parquet_resume`] carries its rows into a new output.

use std::io::{self, Write};
use std::sync::mpsc::{sync_channel, SyncSender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Instant;

use arrow_array::builder::{Float64Builder, StringBuilder, UInt64Builder};
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{DataType, Field, Schema, SchemaRef};
use parquet::arrow::arrow_writer::{compute_leaves, ArrowColumnWriter, ArrowRowGroupWriterFactory};
use parquet::arrow::ArrowWriter;
use parquet::basic::{Compression, Encoding, ZstdLevel};
use parquet::errors::ParquetError;
use parquet::file::metadata::{FileMetaData, ParquetMetaData, ParquetMetaDataWriter};
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::types::{ColumnPath, SchemaDescPtr};
use rayon::prelude::*;

use super::ratings::{tenths_float, RateRow, RateSink, RATE_COLUMNS};
use super::{
    FindingRow, FindingSink, Kept, ParquetCheckpoint, ParquetCompression, ParquetOptions, SolveSink,
};
use crate::grid::{Grid, CELLS};
use crate::row::{SolveRow, SolvedRow, Status, SOLVE_COLUMNS};

/// The `parquet` crate's codec for `compression`: zstd at [`ZSTD_LEVEL`]; LZ4 as
/// `LZ4_RAW`, the framing Parquet specifies (the older `LZ4` codec was written two
/// incompatible ways and is deprecated).
fn codec(compression: ParquetCompression) -> io::Result<Compression> {
    Ok(match compression {
        ParquetCompression::Zstd => {
            Compression::ZSTD(ZstdLevel::try_new(ZSTD_LEVEL).map_err(io_error)?)
        }
        ParquetCompression::Lz4 => Compression::LZ4_RAW,
        ParquetCompression::Snappy => Compression::SNAPPY,
        ParquetCompression::None => Compression::UNCOMPRESSED,
    })
}

/// Rows gathered into Arrow arrays before they go to the writer (at most a row
/// group's): large enough that the writer's cost per call vanishes, small enough that
/// the arrays stay a few MB.
pub const BATCH_ROWS: usize = 1 << 14;

/// Bytes of encoded values per data page, at most (about: the writer checks after every
/// 1024 values). The `parquet` crate's default, 1 MiB, costs a third more time on
/// `solve`'s rows: every page's buffers (the encoded values, then the compressed copy)
/// are allocated afresh, and at that size the allocator maps them from the system and
/// returns them, so each page's memory is page-faulted in again (over 100,000 faults per
/// million rows); at 256 KiB they are reused from the heap, and zstd's input stays in
/// cache. The file is no larger: the pages of the wide columns still hold thousands of
/// rows.
pub const DATA_PAGE_BYTES: usize = 256 * 1024;

/// zstd level: 1, the fastest, already makes the file several times smaller than CSV;
/// higher levels cost more time than the pipeline has to spare.
pub const ZSTD_LEVEL: i32 = 1;

/// The Arrow schema of `solve`'s rows with `keep` columns after the fixed ones.
pub fn solve_schema(keep: &[String]) -> SchemaRef {
    let mut fields: Vec<Field> = SOLVE_COLUMNS
        .iter()
        .map(|&name| match name {
            "line" | "solutions" | "clues" | "guesses" | "time_ns" => {
                Field::new(name, DataType::UInt64, false)
            }
            "solution" | "error" => Field::new(name, DataType::Utf8, true),
            _ => Field::new(name, DataType::Utf8, false),
        })
        .collect();
    fields.extend(keep.iter().map(|k| Field::new(k, DataType::Utf8, false)));
    Arc::new(Schema::new(fields))
}

/// The Arrow schema of `verify`'s findings (`file` only when `with_file`).
pub fn findings_schema(with_file: bool) -> SchemaRef {
    let fields = super::findings::columns(with_file)
        .iter()
        .map(|&name| match name {
            "line" => Field::new(name, DataType::UInt64, false),
            "detail" => Field::new(name, DataType::Utf8, true),
            _ => Field::new(name, DataType::Utf8, false),
        });
    Arc::new(Schema::new(fields.collect::<Vec<_>>()))
}

/// The Arrow schema of `rate`'s rows with `keep` columns after the fixed ones: ratings
/// as nullable 64-bit floats (null where there is no rating), `steps` and the other
/// counts as unsigned 64-bit integers.
pub fn rate_schema(keep: &[String]) -> SchemaRef {
    let mut fields: Vec<Field> = RATE_COLUMNS
        .iter()
        .map(|&name| match name {
            "line" | "time_ns" => Field::new(name, DataType::UInt64, false),
            "steps" => Field::new(name, DataType::UInt64, true),
            "er" | "ep" | "ed" => Field::new(name, DataType::Float64, true),
            "er_technique" | "error" => Field::new(name, DataType::Utf8, true),
            _ => Field::new(name, DataType::Utf8, false),
        })
        .collect();
    fields.extend(keep.iter().map(|k| Field::new(k, DataType::Utf8, false)));
    Arc::new(Schema::new(fields))
}

/// A Parquet error as an I/O error: the one it wraps if it does (so that a closed pipe
/// is still seen as one).
fn io_error(e: ParquetError) -> io::Error {
    match e {
        ParquetError::External(inner) => match inner.downcast::<io::Error>() {
            Ok(e) => *e,
            Err(inner) => io::Error::other(inner),
        },
        e => io::Error::other(e),
    }
}

/// An Arrow writer of one schema into a Parquet file, fed a batch at a time, on a
/// thread of its own.
///
/// Rows come from the pipeline's drain, which runs on one thread at a time: encoding
/// and compressing them there (most of Parquet's cost) would hold up the ordered drain
/// and the workers waiting on it. The drain gathers a batch of Arrow arrays and hands
/// it over; the writer thread has it encoded. At most [`QUEUED_BATCHES`] wait in between,
/// so memory stays bounded.
struct Table {
    /// `None` once finished.
    batches: Option<SyncSender<RecordBatch>>,
    writer: Option<JoinHandle<io::Result<()>>>,
    schema: SchemaRef,
    /// Rows per batch: [`BATCH_ROWS`], or a row group's rows if fewer.
    batch_rows: usize,
    /// Where the writer thread leaves its checkpoints.
    checkpoints: Arc<Checkpoints>,
}

/// The checkpoints the writer thread publishes, one per row group written out.
#[derive(Default)]
struct Checkpoints {
    latest: Mutex<Option<Arc<ParquetCheckpoint>>>,
    /// Every one, in order: tests recover a file at each.
    #[cfg(test)]
    all: Mutex<Vec<Arc<ParquetCheckpoint>>>,
}

impl Checkpoints {
    fn publish(&self, checkpoint: ParquetCheckpoint) {
        let checkpoint = Arc::new(checkpoint);
        #[cfg(test)]
        lock(&self.all).push(checkpoint.clone());
        *lock(&self.latest) = Some(checkpoint);
    }

    fn latest(&self) -> Option<Arc<ParquetCheckpoint>> {
        lock(&self.latest).clone()
    }
}

/// A mutex's value, even if a thread panicked holding it (the value is only ever
/// replaced whole).
fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Batches handed over and not yet taken by the writer thread, at most.
const QUEUED_BATCHES: usize = 2;

impl Table {
    /// A writer of `schema` over `out` with row groups of `row_group_rows` rows, its
    /// pages compressed by `compression`;
    /// `distinct` names the columns whose values are (nearly) all different, with the
    /// encoding of each: they get no dictionary (it would be built, outgrow its limit
    /// and be dropped on every row group) and no page statistics (min and max of
    /// 81-digit strings help no reader).
    fn new<W: Write + Send + 'static>(
        out: W,
        schema: SchemaRef,
        distinct: &[(&str, Encoding)],
        ParquetOptions {
            row_group_rows,
            compression,
        }: ParquetOptions,
    ) -> io::Result<Table> {
        let row_group_rows = row_group_rows.max(1);
        let mut props = WriterProperties::builder()
            .set_compression(codec(compression)?)
            .set_max_row_group_row_count(Some(row_group_rows))
            .set_data_page_size_limit(DATA_PAGE_BYTES)
            .set_created_by(format!("bulkdoku {}", env!("CARGO_PKG_VERSION")));
        for &(name, encoding) in distinct {
            let column = ColumnPath::from(name);
            props = props
                .set_column_dictionary_enabled(column.clone(), false)
                .set_column_statistics_enabled(column.clone(), EnabledStatistics::None)
                .set_column_encoding(column, encoding);
        }
        let writer =
            ArrowWriter::try_new(out, schema.clone(), Some(props.build())).map_err(io_error)?;
        let (file, columns) = writer.into_serialized_writer().map_err(io_error)?;
        let checkpoints = Arc::new(Checkpoints::default());
        let mut encoder = Encoder {
            descr: Arc::new(file.schema_descr().clone()),
            file,
            columns,
            checkpoints: checkpoints.clone(),
            next_checkpoint: Instant::now(),
            schema: schema.clone(),
            group: None,
            group_rows: 0,
            row_group_rows,
            pool: rayon::ThreadPoolBuilder::new()
                .num_threads(ENCODING_THREADS)
                .thread_name(|i| format!("parquet-encoder-{i}"))
                .build()
                .map_err(io::Error::other)?,
        };
        let (batches, queue) = sync_channel::<RecordBatch>(QUEUED_BATCHES);
        let writer = std::thread::Builder::new()
            .name("parquet-writer".into())
            .spawn(move || -> io::Result<()> {
                // Until the sender is dropped: then the last row group and the footer.
                for batch in queue {
                    encoder.write(&batch)?;
                }
                encoder.finish()
            })?;
        Ok(Table {
            batches: Some(batches),
            writer: Some(writer),
            schema,
            batch_rows: BATCH_ROWS.min(row_group_rows),
            checkpoints,
        })
    }

    /// Hand one batch of `columns` (in schema order) to the writer thread.
    fn write(&mut self, columns: Vec<ArrayRef>) -> io::Result<()> {
        let batch =
            RecordBatch::try_new(self.schema.clone(), columns).map_err(|e| io_error(e.into()))?;
        let sent = match &self.batches {
            Some(batches) => batches.send(batch).is_ok(),
            None => return Err(io::Error::other("the Parquet file is already finished")),
        };
        if sent {
            Ok(())
        } else {
            // The writer thread stopped on an error: that error.
            self.finish()
                .and(Err(io::Error::other("the Parquet writer stopped")))
        }
    }

    /// Write the last row group and the footer, flush the output, and end the writer
    /// thread; its error, if it had one.
    fn finish(&mut self) -> io::Result<()> {
        drop(self.batches.take());
        match self.writer.take().map(JoinHandle::join) {
            None => Ok(()),
            Some(Ok(done)) => done,
            Some(Err(_)) => Err(io::Error::other("the Parquet writer thread panicked")),
        }
    }
}

impl Drop for Table {
    /// A sink dropped unfinished (an error elsewhere) still ends its thread, which then
    /// writes the footer: its rows make a whole file, as on an interrupt.
    fn drop(&mut self) {
        let _ = self.finish();
    }
}

/// Row groups up to which every one is checkpointed (some 67 million rows at
/// [`crate::output::ROW_GROUP_ROWS`]); see `Encoder::checkpoint`. Fewer in tests, for
/// them to go past it fast.
pub(crate) const CHECKPOINT_ALL_UP_TO: usize = if cfg!(test) { 16 } else { 256 };

/// Past [`CHECKPOINT_ALL_UP_TO`] row groups, the time between two checkpoints is at
/// least this many times the time the first of them took to build: checkpoints take
/// at most about 2 % of the writer thread's time.
const CHECKPOINT_SHARE: u32 = 50;

/// Threads that encode and compress the columns of a batch side by side. A row's cost
/// in Parquet is nearly all in its two 81-character columns, `puzzle` and `solution`,
/// each compressed on its own: two threads take both at once, and more would find
/// little left to share. With one thread for them all, the writer could keep pace with
/// about three solving threads on 17-clue puzzles; with two, with about six.
const ENCODING_THREADS: usize = 2;

/// The writer thread's state: the file, and the row group in progress as one column
/// writer per column, fed the batches' columns side by side on a pool of its own (not
/// the solving pool, whose threads may be waiting for this one to take a batch).
struct Encoder<W: Write + Send> {
    file: SerializedFileWriter<W>,
    /// The file's Parquet schema, for the checkpoints' footers.
    descr: SchemaDescPtr,
    checkpoints: Arc<Checkpoints>,
    /// When the next checkpoint is due, past [`CHECKPOINT_ALL_UP_TO`] row groups.
    next_checkpoint: Instant,
    columns: ArrowRowGroupWriterFactory,
    schema: SchemaRef,
    /// The row group in progress, `None` between row groups.
    group: Option<Vec<ArrowColumnWriter>>,
    /// Rows in the row group in progress.
    group_rows: usize,
    row_group_rows: usize,
    pool: rayon::ThreadPool,
}

impl<W: Write + Send> Encoder<W> {
    /// Encode `batch` into the row groups, each closed and written out as it fills.
    fn write(&mut self, batch: &RecordBatch) -> io::Result<()> {
        let mut done = 0;
        while done < batch.num_rows() {
            let rows = (batch.num_rows() - done).min(self.row_group_rows - self.group_rows);
            let part = batch.slice(done, rows);
            let leaves = self
                .schema
                .fields()
                .iter()
                .zip(part.columns())
                .map(|(field, column)| compute_leaves(field, column))
                .collect::<Result<Vec<_>, _>>()
                .map_err(io_error)?;
            if self.group.is_none() {
                let index = self.file.flushed_row_groups().len();
                let writers = self.columns.create_column_writers(index);
                self.group = Some(writers.map_err(io_error)?);
            }
            let writers = self.group.as_mut().expect("a row group in progress");
            self.pool
                .install(|| {
                    writers
                        .par_iter_mut()
                        .zip(leaves)
                        .try_for_each(|(writer, leaves)| {
                            leaves.iter().try_for_each(|leaf| writer.write(leaf))
                        })
                })
                .map_err(io_error)?;
            self.group_rows += rows;
            done += rows;
            if self.group_rows == self.row_group_rows {
                self.close_group()?;
            }
        }
        Ok(())
    }

    /// Close the row group in progress, if any (its last pages compressed side by
    /// side), write it out, and publish a checkpoint.
    fn close_group(&mut self) -> io::Result<()> {
        let Some(writers) = self.group.take() else {
            return Ok(());
        };
        let chunks = self
            .pool
            .install(|| {
                writers
                    .into_par_iter()
                    .map(ArrowColumnWriter::close)
                    .collect::<Result<Vec<_>, _>>()
            })
            .map_err(io_error)?;
        let mut group = self.file.next_row_group().map_err(io_error)?;
        for chunk in chunks {
            chunk.append_to_row_group(&mut group).map_err(io_error)?;
        }
        group.close().map_err(io_error)?;
        self.group_rows = 0;
        self.checkpoint()
    }

    /// Flush the row groups written so far to the output and publish a checkpoint of
    /// them: a footer with the metadata the final one will have (schema, `created_by`,
    /// key-value metadata with the Arrow schema) over exactly these row groups. The
    /// page indexes are left out: they are written at the end, after the last row
    /// group, and readers do without them.
    ///
    /// The footer holds every row group so far (some 0.7 to 1 KB each for `solve`'s
    /// columns), so building it costs more as the file grows: nothing next to
    /// encoding a row group of the default size (0.3 ms in all for a million rows in
    /// four row groups), but with many small row groups the sum grows as their number
    /// squared. Past [`CHECKPOINT_ALL_UP_TO`] row groups a checkpoint is therefore
    /// skipped until [`CHECKPOINT_SHARE`] times the time the last one took has
    /// passed: the latest checkpoint may then lag a few row groups behind.
    fn checkpoint(&mut self) -> io::Result<()> {
        self.file.flush()?;
        let groups = self.file.flushed_row_groups().len();
        if groups > CHECKPOINT_ALL_UP_TO && Instant::now() < self.next_checkpoint {
            return Ok(());
        }
        let started = Instant::now();
        let props = self.file.properties();
        let groups = self.file.flushed_row_groups().to_vec();
        let rows: i64 = groups.iter().map(|g| g.num_rows()).sum();
        let file_meta = FileMetaData::new(
            props.writer_version().as_num(),
            rows,
            Some(props.created_by().to_string()),
            props.key_value_metadata().cloned(),
            self.descr.clone(),
            None,
        );
        let row_groups = groups.len() as u64;
        let meta = ParquetMetaData::new(file_meta, groups);
        let mut footer = Vec::new();
        ParquetMetaDataWriter::new(&mut footer, &meta)
            .with_write_path_in_schema(props.write_path_in_schema())
            .with_preserve_page_index_locations(false)
            .finish()
            .map_err(io_error)?;
        self.checkpoints.publish(ParquetCheckpoint {
            rows: rows as u64,
            row_groups,
            bytes: self.file.bytes_written() as u64,
            footer,
        });
        let took = started.elapsed();
        self.next_checkpoint = Instant::now() + took * CHECKPOINT_SHARE;
        Ok(())
    }

    /// The last row group, the footer, and a flush of the output.
    fn finish(mut self) -> io::Result<()> {
        self.close_group()?;
        self.file.finish().map_err(io_error)?;
        self.file.inner_mut().flush()
    }
}

/// A string column being gathered.
fn strings(rows: usize, bytes_per_row: usize) -> StringBuilder {
    StringBuilder::with_capacity(rows, rows * bytes_per_row)
}

/// A grid's 81-character line in `buf`, as text.
fn grid_text<'b>(grid: &Grid, buf: &'b mut [u8; CELLS]) -> &'b str {
    grid.write_line(buf);
    std::str::from_utf8(buf).expect("a grid line is ASCII")
}

/// The columns of `solve`'s rows being gathered, each with room for a batch.
struct SolveColumns {
    file: StringBuilder,
    line: UInt64Builder,
    puzzle: StringBuilder,
    status: StringBuilder,
    /// `solutions`, `clues`, `guesses`, `time_ns`.
    counts: [UInt64Builder; 4],
    solution: StringBuilder,
    error: StringBuilder,
    kept: Vec<StringBuilder>,
}

impl SolveColumns {
    /// Room for `n` rows and `kept` kept columns.
    fn new(n: usize, kept: usize) -> SolveColumns {
        SolveColumns {
            file: strings(n, 16),
            line: UInt64Builder::with_capacity(n),
            puzzle: strings(n, CELLS),
            status: strings(n, 8),
            counts: std::array::from_fn(|_| UInt64Builder::with_capacity(n)),
            solution: strings(n, CELLS),
            error: strings(n, 0),
            kept: (0..kept).map(|_| strings(n, 8)).collect(),
        }
    }

    /// The arrays, in schema order.
    fn finish(mut self) -> Vec<ArrayRef> {
        let mut columns: Vec<ArrayRef> = vec![
            Arc::new(self.file.finish()),
            Arc::new(self.line.finish()),
            Arc::new(self.puzzle.finish()),
            Arc::new(self.status.finish()),
        ];
        columns.extend(
            self.counts
                .iter_mut()
                .map(|b| Arc::new(b.finish()) as ArrayRef),
        );
        columns.push(Arc::new(self.solution.finish()));
        columns.push(Arc::new(self.error.finish()));
        columns.extend(
            self.kept
                .iter_mut()
                .map(|b| Arc::new(b.finish()) as ArrayRef),
        );
        columns
    }
}

/// Writes `solve` rows as Parquet: [`solve_schema`].
pub struct SolveParquet {
    table: Table,
    /// Made afresh for every batch: a builder that is finished keeps none of its
    /// room, and growing it again row by row (copies, page faults) cost more than
    /// the rows' own values.
    columns: SolveColumns,
    rows: usize,
}

impl SolveParquet {
    /// A writer over `out`, with `keep` columns after the fixed ones (their names must
    /// differ from the fixed ones and each other: see [`super::solve_sink`]), laid out
    /// as `options` says.
    pub fn new<W: Write + Send + 'static>(
        out: W,
        keep: &[String],
        options: ParquetOptions,
    ) -> io::Result<SolveParquet> {
        // How the columns of (nearly) all different values are encoded, for zstd to
        // have less to go through: counts (`line`, `time_ns`) as differences packed to
        // the bits they need rather than 8 bytes each (a few bits a row for `line`,
        // about two bytes for `time_ns`); `solution` (81 digits) as
        // DELTA_LENGTH_BYTE_ARRAY, its lengths apart from its bytes, which zstd
        // compresses 5 % smaller and 10 % faster than the plain length and bytes in
        // turn. `puzzle` stays plain: mostly blanks, it compresses better with the
        // lengths between the values. pandas (pyarrow), polars, DuckDB and Spark read
        // them all.
        let distinct = [
            ("line", Encoding::DELTA_BINARY_PACKED),
            ("puzzle", Encoding::PLAIN),
            ("time_ns", Encoding::DELTA_BINARY_PACKED),
            ("solution", Encoding::DELTA_LENGTH_BYTE_ARRAY),
        ];
        let table = Table::new(out, solve_schema(keep), &distinct, options)?;
        Ok(SolveParquet {
            columns: SolveColumns::new(table.batch_rows, keep.len()),
            rows: 0,
            table,
        })
    }

    /// The fields after the puzzle, the same for both kinds of row; then the batch
    /// goes to the writer if it is full.
    fn rest(
        &mut self,
        status: Status,
        counts: [u64; 4],
        solution: Option<&str>,
        error: &str,
        kept: Kept<'_>,
    ) -> io::Result<()> {
        let c = &mut self.columns;
        c.status.append_value(status.as_str());
        for (builder, n) in c.counts.iter_mut().zip(counts) {
            builder.append_value(n);
        }
        c.solution.append_option(solution.filter(|s| !s.is_empty()));
        c.error.append_option(Some(error).filter(|s| !s.is_empty()));
        for (builder, value) in c.kept.iter_mut().zip(kept.iter()) {
            builder.append_value(value);
        }
        self.rows += 1;
        if self.rows == self.table.batch_rows {
            self.write_batch()?;
        }
        Ok(())
    }

    /// Hand the rows gathered to the writer.
    fn write_batch(&mut self) -> io::Result<()> {
        if self.rows == 0 {
            return Ok(());
        }
        self.rows = 0;
        let fresh = SolveColumns::new(self.table.batch_rows, self.columns.kept.len());
        let full = std::mem::replace(&mut self.columns, fresh);
        self.table.write(full.finish())
    }
}

impl SolveSink for SolveParquet {
    fn write(&mut self, row: &SolveRow<'_>, kept: Kept<'_>) -> io::Result<()> {
        let c = &mut self.columns;
        c.file.append_value(&row.file);
        c.line.append_value(row.line);
        c.puzzle.append_value(&row.puzzle);
        let counts = [row.solutions, row.clues, row.guesses, row.time_ns];
        self.rest(row.status, counts, Some(&row.solution), &row.error, kept)
    }

    fn write_solved(&mut self, row: &SolvedRow<'_>, kept: Kept<'_>) -> io::Result<()> {
        let mut buf = [0u8; CELLS];
        let c = &mut self.columns;
        c.file.append_value(row.file);
        c.line.append_value(row.line);
        c.puzzle.append_value(grid_text(row.puzzle, &mut buf));
        let counts = [
            row.solutions,
            row.puzzle.clues() as u64,
            row.guesses,
            row.time_ns,
        ];
        let solution = row.solution.map(|g| grid_text(g, &mut buf));
        self.rest(row.status, counts, solution, "", kept)
    }

    /// Nothing to do: the writer thread writes whole row groups as they fill, and the
    /// rows of the one in progress wait for it (a row group cut short by every flush
    /// would make the file many small ones) or for [`SolveSink::finish`].
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }

    fn finish(&mut self) -> io::Result<()> {
        self.write_batch()?;
        self.table.finish()
    }

    fn checkpoint(&self) -> Option<Arc<ParquetCheckpoint>> {
        self.table.checkpoints.latest()
    }
}

#[cfg(test)]
impl Table {
    /// Every checkpoint published so far, in order.
    pub(crate) fn all_checkpoints(&self) -> Vec<Arc<ParquetCheckpoint>> {
        lock(&self.checkpoints.all).clone()
    }
}

#[cfg(test)]
impl SolveParquet {
    /// Every checkpoint published so far, in order.
    pub(crate) fn all_checkpoints(&self) -> Vec<Arc<ParquetCheckpoint>> {
        self.table.all_checkpoints()
    }
}

#[cfg(test)]
impl FindingsParquet {
    /// Every checkpoint published so far, in order.
    pub(crate) fn all_checkpoints(&self) -> Vec<Arc<ParquetCheckpoint>> {
        self.table.all_checkpoints()
    }
}

/// Writes `verify` findings as Parquet: [`findings_schema`].
pub struct FindingsParquet {
    table: Table,
    with_file: bool,
    file: StringBuilder,
    line: UInt64Builder,
    puzzle: StringBuilder,
    kind: StringBuilder,
    detail: StringBuilder,
    rows: usize,
}

impl FindingsParquet {
    /// A writer over `out` (with the `file` column when `with_file`), laid out as
    /// `options` says.
    pub fn new<W: Write + Send + 'static>(
        out: W,
        with_file: bool,
        options: ParquetOptions,
    ) -> io::Result<FindingsParquet> {
        let table = Table::new(
            out,
            findings_schema(with_file),
            &[
                ("line", Encoding::DELTA_BINARY_PACKED),
                ("puzzle", Encoding::PLAIN),
            ],
            options,
        )?;
        let n = table.batch_rows;
        Ok(FindingsParquet {
            with_file,
            file: strings(if with_file { n } else { 0 }, 16),
            line: UInt64Builder::with_capacity(n),
            puzzle: strings(n, CELLS),
            kind: strings(n, 8),
            detail: strings(n, 32),
            rows: 0,
            table,
        })
    }

    fn write_batch(&mut self) -> io::Result<()> {
        if self.rows == 0 {
            return Ok(());
        }
        self.rows = 0;
        let mut columns: Vec<ArrayRef> = Vec::with_capacity(5);
        if self.with_file {
            columns.push(Arc::new(self.file.finish()));
        }
        columns.push(Arc::new(self.line.finish()));
        columns.push(Arc::new(self.puzzle.finish()));
        columns.push(Arc::new(self.kind.finish()));
        columns.push(Arc::new(self.detail.finish()));
        self.table.write(columns)
    }
}

impl FindingSink for FindingsParquet {
    fn write(&mut self, row: &FindingRow<'_>) -> io::Result<()> {
        if self.with_file {
            self.file.append_value(row.file);
        }
        self.line.append_value(row.line);
        self.puzzle
            .append_value(String::from_utf8_lossy(row.puzzle));
        self.kind.append_value(row.kind.as_str());
        self.detail
            .append_option(Some(row.detail).filter(|d| !d.is_empty()));
        self.rows += 1;
        if self.rows == self.table.batch_rows {
            self.write_batch()?;
        }
        Ok(())
    }

    /// Nothing to do, as for `solve`'s rows.
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }

    fn finish(&mut self) -> io::Result<()> {
        self.write_batch()?;
        self.table.finish()
    }

    fn checkpoint(&self) -> Option<Arc<ParquetCheckpoint>> {
        self.table.checkpoints.latest()
    }
}

/// The columns of `rate`'s rows being gathered.
struct RateColumns {
    file: StringBuilder,
    line: UInt64Builder,
    puzzle: StringBuilder,
    status: StringBuilder,
    /// `er`, `ep`, `ed`.
    ratings: [Float64Builder; 3],
    er_technique: StringBuilder,
    steps: UInt64Builder,
    time_ns: UInt64Builder,
    error: StringBuilder,
    kept: Vec<StringBuilder>,
}

impl RateColumns {
    fn new(n: usize, kept: usize) -> RateColumns {
        RateColumns {
            file: strings(n, 16),
            line: UInt64Builder::with_capacity(n),
            puzzle: strings(n, CELLS),
            status: strings(n, 8),
            ratings: std::array::from_fn(|_| Float64Builder::with_capacity(n)),
            er_technique: strings(n, 16),
            steps: UInt64Builder::with_capacity(n),
            time_ns: UInt64Builder::with_capacity(n),
            error: strings(n, 0),
            kept: (0..kept).map(|_| strings(n, 8)).collect(),
        }
    }

    /// The arrays, in schema order.
    fn finish(mut self) -> Vec<ArrayRef> {
        let mut columns: Vec<ArrayRef> = vec![
            Arc::new(self.file.finish()),
            Arc::new(self.line.finish()),
            Arc::new(self.puzzle.finish()),
            Arc::new(self.status.finish()),
        ];
        columns.extend(
            self.ratings
                .iter_mut()
                .map(|b| Arc::new(b.finish()) as ArrayRef),
        );
        columns.push(Arc::new(self.er_technique.finish()));
        columns.push(Arc::new(self.steps.finish()));
        columns.push(Arc::new(self.time_ns.finish()));
        columns.push(Arc::new(self.error.finish()));
        columns.extend(
            self.kept
                .iter_mut()
                .map(|b| Arc::new(b.finish()) as ArrayRef),
        );
        columns
    }
}

/// Writes `rate` rows as Parquet: [`rate_schema`].
pub struct RateParquet {
    table: Table,
    columns: RateColumns,
    rows: usize,
}

impl RateParquet {
    /// A writer over `out`, with `keep` columns after the fixed ones, laid out as
    /// `options` say (codec, rows per row group).
    pub fn new<W: Write + Send + 'static>(
        out: W,
        keep: &[String],
        options: ParquetOptions,
    ) -> io::Result<RateParquet> {
        let distinct = [
            ("line", Encoding::DELTA_BINARY_PACKED),
            ("puzzle", Encoding::PLAIN),
            ("time_ns", Encoding::DELTA_BINARY_PACKED),
        ];
        let table = Table::new(out, rate_schema(keep), &distinct, options)?;
        Ok(RateParquet {
            columns: RateColumns::new(table.batch_rows.min(1024), keep.len()),
            rows: 0,
            table,
        })
    }

    fn write_batch(&mut self) -> io::Result<()> {
        if self.rows == 0 {
            return Ok(());
        }
        self.rows = 0;
        let fresh = RateColumns::new(self.table.batch_rows.min(1024), self.columns.kept.len());
        let full = std::mem::replace(&mut self.columns, fresh);
        self.table.write(full.finish())
    }
}

impl RateSink for RateParquet {
    fn write(&mut self, row: &RateRow<'_>, kept: Kept<'_>) -> io::Result<()> {
        let c = &mut self.columns;
        c.file.append_value(row.file);
        c.line.append_value(row.line);
        c.puzzle.append_value(row.puzzle);
        c.status.append_value(row.status.as_str());
        let rating = row.rating;
        let values = rating.map(|r| [r.er, r.ep, r.ed]);
        for (i, builder) in c.ratings.iter_mut().enumerate() {
            builder.append_option(values.map(|v| tenths_float(v[i])));
        }
        c.er_technique.append_option(rating.map(|r| r.er_technique));
        c.steps
            .append_option(rating.map(|r| u64::from(r.step_count)));
        c.time_ns.append_value(row.time_ns);
        c.error
            .append_option(Some(row.error).filter(|e| !e.is_empty()));
        for (builder, value) in c.kept.iter_mut().zip(kept.iter()) {
            builder.append_value(value);
        }
        self.rows += 1;
        if self.rows == self.table.batch_rows {
            self.write_batch()?;
        }
        Ok(())
    }

    /// Nothing to do, as for `solve`'s rows.
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }

    fn finish(&mut self) -> io::Result<()> {
        self.write_batch()?;
        self.table.finish()
    }
}
