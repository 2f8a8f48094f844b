//! Running a dataset through the library's readers.

use std::io::{self, Read};

use bulkdoku::input::{open_reader, InputFormat, InputOptions, Record};

/// The name every fuzzed input is opened under: errors must say `fuzz:LINE: ...`.
pub const NAME: &str = "fuzz";

/// A byte source that hands out at most `chunk` bytes per read, as a pipe may.
pub struct Chunked {
    data: Vec<u8>,
    at: usize,
    chunk: usize,
}

impl Chunked {
    pub fn new(data: Vec<u8>, chunk: usize) -> Chunked {
        Chunked {
            data,
            at: 0,
            chunk: chunk.max(1),
        }
    }
}

impl Read for Chunked {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = (self.data.len() - self.at).min(self.chunk).min(buf.len());
        buf[..n].copy_from_slice(&self.data[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// A record as the checks compare it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rec {
    pub line: u64,
    pub cells: Vec<u8>,
    pub fields: Vec<String>,
    pub error: Option<String>,
}

/// Everything a reader made of a dataset.
#[derive(Debug, Clone)]
pub enum Outcome {
    /// `open_reader` refused the input.
    Refused(String),
    /// The reader opened: its format, CSV headers, the records it returned, and the
    /// error that ended the reading, if one did.
    Read {
        format: InputFormat,
        headers: Option<Vec<String>>,
        records: Vec<Rec>,
        error: Option<String>,
    },
}

/// Read `bytes` (handed out `chunk` bytes at a time) with `options` until the end or
/// the first error. Checks what holds for every reader: the format is never `Auto`,
/// the end is sticky, and a reader ends: it returns no more records than the decoded
/// input has bytes (`decoded`), plus one.
pub fn read_all(
    bytes: Vec<u8>,
    decoded: usize,
    chunk: usize,
    options: &InputOptions,
) -> Result<Outcome, String> {
    let limit = decoded + 1;
    let mut reader = match open_reader(Chunked::new(bytes, chunk), NAME, options) {
        Ok(reader) => reader,
        Err(e) => return Ok(Outcome::Refused(format!("{e:#}"))),
    };
    let format = reader.format();
    crate::ensure!(format != InputFormat::Auto, "a reader reports format Auto");
    // A stale record, so that a reader that leaves a field from before shows it.
    let mut record = Record {
        line: u64::MAX,
        cells: b"stale".to_vec(),
        fields: vec!["stale".into()],
        error: Some("stale".into()),
    };
    let mut records = Vec::new();
    let error = loop {
        match reader.read_record(&mut record) {
            Ok(true) => {
                records.push(Rec {
                    line: record.line,
                    cells: record.cells.clone(),
                    fields: record.fields.clone(),
                    error: record.error.clone(),
                });
                crate::ensure!(
                    records.len() <= limit,
                    "more records than the {} bytes of input",
                    limit - 1
                );
            }
            Ok(false) => {
                crate::ensure!(
                    matches!(reader.read_record(&mut record), Ok(false)),
                    "the end is not sticky"
                );
                break None;
            }
            Err(e) => break Some(format!("{e:#}")),
        }
    };
    Ok(Outcome::Read {
        format,
        headers: reader.headers().map(<[String]>::to_vec),
        records,
        error,
    })
}

/// Options that force `format`.
pub fn forced(format: InputFormat) -> InputOptions {
    InputOptions::new().format(format)
}
