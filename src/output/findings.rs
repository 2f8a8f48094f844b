//! `verify`'s findings: one row per finding (and per clean puzzle with `--all`), in
//! CSV, JSON Lines or Parquet, behind one trait as `solve`'s rows are.
//!
//! Columns: `file` (only when several inputs are read, as the CSV always had it),
//! `line`, `puzzle`, `kind`, `detail`. In JSON Lines and Parquet `line` is a number and
//! an empty detail is null.

use std::io::{self, Write};

use super::OutputFormat;
use crate::verify::Kind;

/// Every column of `verify`'s findings, in order; `file` is left out when one input
/// is read.
pub const FINDING_COLUMNS: [&str; 5] = ["file", "line", "puzzle", "kind", "detail"];

/// The columns written: [`FINDING_COLUMNS`], without `file` unless `with_file`.
pub fn columns(with_file: bool) -> &'static [&'static str] {
    if with_file {
        &FINDING_COLUMNS
    } else {
        &FINDING_COLUMNS[1..]
    }
}

/// One finding about one record.
#[derive(Debug, Clone, Copy)]
pub struct FindingRow<'a> {
    /// The input's display name (written only with several inputs).
    pub file: &'a str,
    /// The record's 1-based line.
    pub line: u64,
    /// The puzzle: normalised to 81 characters, or the record's text as found.
    pub puzzle: &'a [u8],
    /// What was found.
    pub kind: Kind,
    /// A human-readable detail (empty for `ok`).
    pub detail: &'a str,
}

/// A writer of `verify`'s findings in one format.
pub trait FindingSink: Send {
    /// Write one finding.
    fn write(&mut self, row: &FindingRow<'_>) -> io::Result<()>;

    /// Hand the whole rows written so far to the output and flush it (Parquet: the
    /// whole row groups).
    fn flush(&mut self) -> io::Result<()>;

    /// End the output (Parquet: last row group and footer). Called once, last.
    fn finish(&mut self) -> io::Result<()> {
        self.flush()
    }

    /// The latest checkpoint of a Parquet output, as
    /// [`SolveSink::checkpoint`](super::SolveSink::checkpoint); `None` for the other
    /// formats.
    fn checkpoint(&self) -> Option<std::sync::Arc<super::ParquetCheckpoint>> {
        None
    }
}

/// A findings sink of `format` over `out`: with the `file` column when `with_file`, a
/// CSV header row when `header`, a Parquet output laid out as `parquet` says.
pub fn findings_sink<W: Write + Send + 'static>(
    format: OutputFormat,
    out: W,
    with_file: bool,
    header: bool,
    parquet: super::ParquetOptions,
) -> anyhow::Result<Box<dyn FindingSink>> {
    Ok(match format {
        OutputFormat::Csv => Box::new(FindingsCsv::new(out, with_file, header)?),
        OutputFormat::Jsonl => Box::new(super::jsonl::FindingsJsonl::new(out, with_file)),
        #[cfg(feature = "parquet")]
        OutputFormat::Parquet => Box::new(super::parquet::FindingsParquet::new(
            out, with_file, parquet,
        )?),
        #[cfg(not(feature = "parquet"))]
        OutputFormat::Parquet => {
            let _ = parquet;
            return Err(super::no_parquet());
        }
        OutputFormat::Grid => anyhow::bail!("findings are written as CSV, JSON Lines or Parquet"),
    })
}

/// Findings as CSV, with the csv crate (quoting as it does).
pub struct FindingsCsv<W: Write> {
    writer: csv::Writer<W>,
    with_file: bool,
}

impl<W: Write> FindingsCsv<W> {
    /// A writer over `out`, its header row written unless not `header`.
    pub fn new(out: W, with_file: bool, header: bool) -> io::Result<FindingsCsv<W>> {
        let mut writer = csv::WriterBuilder::new().from_writer(out);
        if header {
            writer.write_record(columns(with_file)).map_err(io_error)?;
        }
        Ok(FindingsCsv { writer, with_file })
    }
}

impl<W: Write + Send> FindingSink for FindingsCsv<W> {
    fn write(&mut self, row: &FindingRow<'_>) -> io::Result<()> {
        let w = &mut self.writer;
        let mut write = || -> csv::Result<()> {
            if self.with_file {
                w.write_field(row.file)?;
            }
            w.write_field(row.line.to_string())?;
            w.write_field(row.puzzle)?;
            w.write_field(row.kind.as_str())?;
            w.write_field(row.detail)?;
            w.write_record(None::<&[u8]>)
        };
        write().map_err(io_error)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.writer.flush()
    }
}

/// A csv error as the I/O error it wraps, if it does (so that a closed pipe is still
/// seen as one), else as an I/O error of its own.
fn io_error(e: csv::Error) -> io::Error {
    match e.into_kind() {
        csv::ErrorKind::Io(e) => e,
        kind => io::Error::other(format!("{kind:?}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_findings_as_before() {
        let mut w = FindingsCsv::new(Vec::new(), true, true).unwrap();
        for line in [0, 7, 1234567890123] {
            w.write(&FindingRow {
                file: "a, b.txt",
                line,
                puzzle: b"1.3",
                kind: Kind::Malformed,
                detail: "3 cells, expected 81",
            })
            .unwrap();
        }
        w.flush().unwrap();
        let text = String::from_utf8(w.writer.into_inner().unwrap()).unwrap();
        assert_eq!(
            text,
            "file,line,puzzle,kind,detail\n\
             \"a, b.txt\",0,1.3,malformed,\"3 cells, expected 81\"\n\
             \"a, b.txt\",7,1.3,malformed,\"3 cells, expected 81\"\n\
             \"a, b.txt\",1234567890123,1.3,malformed,\"3 cells, expected 81\"\n"
        );
        let mut w = FindingsCsv::new(Vec::new(), false, false).unwrap();
        w.write(&FindingRow {
            file: "a.txt",
            line: 2,
            puzzle: b"x",
            kind: Kind::Ok,
            detail: "",
        })
        .unwrap();
        w.flush().unwrap();
        assert_eq!(w.writer.into_inner().unwrap(), b"2,x,ok,\n");
    }
}
