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
    /// The first bytes (a filler) are handed out in reads as large as the caller's,
    /// ending where they end: small reads there would test nothing new and cost time.
    fast: usize,
}

impl Chunked {
    pub fn new(data: Vec<u8>, chunk: usize) -> Chunked {
        Chunked {
            data,
            at: 0,
            chunk: chunk.max(1),
            fast: 0,
        }
    }

    /// Like [`Chunked::new`], with the first `fast` bytes in large reads.
    pub fn after(data: Vec<u8>, chunk: usize, fast: usize) -> Chunked {
        Chunked {
            fast,
            ..Chunked::new(data, chunk)
        }
    }
}

impl Read for Chunked {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let chunk = if self.at < self.fast {
            self.fast - self.at
        } else {
            self.chunk
        };
        let n = (self.data.len() - self.at).min(chunk).min(buf.len());
        buf[..n].copy_from_slice(&self.data[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// A record as the checks compare it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Rec {
    pub line: u64,
    pub cells: Vec<u8>,
    pub fields: Vec<String>,
    pub error: Option<String>,
    /// The record's `rules` and `regions` columns (CSV only; empty otherwise).
    pub rules: Vec<u8>,
    pub regions: Vec<u8>,
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

/// Read `source` with `options` until the end or the first error. Checks what holds
/// for every reader: the format is never `Auto`, the end is sticky, and a reader ends:
/// it returns no more records than the decoded input has bytes (`decoded`), plus one.
pub fn read_all(
    source: Chunked,
    decoded: usize,
    options: &InputOptions,
) -> Result<Outcome, String> {
    let limit = decoded + 1;
    let mut reader = match open_reader(source, NAME, options) {
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
        rules: b"stale".to_vec(),
        regions: b"stale".to_vec(),
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
                    rules: record.rules.clone(),
                    regions: record.regions.clone(),
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

impl Outcome {
    /// A short account of what the reader did, for a failure's message.
    pub fn describe(&self) -> String {
        match self {
            Outcome::Refused(msg) => format!("refused: {msg}"),
            Outcome::Read {
                format,
                records,
                error,
                ..
            } => {
                let mut out = format!("read as {format}, {} records:", records.len());
                for r in records.iter().take(12) {
                    let cells = String::from_utf8_lossy(&r.cells[..r.cells.len().min(24)]);
                    out.push_str(&format!("\n  line {} {cells:?} {:?}", r.line, r.error));
                }
                if records.len() > 12 {
                    out.push_str("\n  ...");
                }
                out.push_str(&format!("\n  then {error:?}"));
                out
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What opening and reading a one-line input costs (FINDING F9), for every format:
    /// `cargo test --release open_cost -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn open_cost() {
        let inputs: [(&[u8], InputFormat); 4] = [
            (b"123\n", InputFormat::Lines),
            (b"id,puzzle\n1,123\n", InputFormat::Csv),
            (b"123456789\n", InputFormat::Grid),
            (b"[[\"1\"]]\n", InputFormat::Board),
        ];
        for (text, format) in inputs {
            let opts = forced(format);
            let runs = 20_000;
            let start = std::time::Instant::now();
            for _ in 0..runs {
                read_all(Chunked::new(text.to_vec(), usize::MAX), text.len(), &opts).unwrap();
            }
            println!("{format}: {:?} per input", start.elapsed() / runs);
        }
    }
}
