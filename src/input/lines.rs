//! The one-puzzle-per-line reader: the hot path for datasets of millions of puzzles.
//!
//! A line's first token (up to a delimiter) is the puzzle; the rest (ratings,
//! `:count:solution`, ...) is ignored. The line is read straight into the record's
//! reused `cells` buffer and cut down to the token there, so a record costs no
//! allocation and one copy.

use std::io::{self, BufRead};

use super::detect::is_delimiter;
use super::source::Stream;
use super::{Record, RecordReader};
use crate::cli::InputFormat;

/// Bytes of a line kept at most; the rest of a longer line is skipped, so that a file
/// without newlines cannot exhaust memory.
pub(crate) const MAX_LINE: usize = 64 * 1024;

/// Reads one puzzle per line.
pub(crate) struct LinesReader {
    stream: Stream,
    line: u64,
}

impl LinesReader {
    pub(crate) fn new(stream: Stream) -> Self {
        LinesReader { stream, line: 0 }
    }
}

impl RecordReader for LinesReader {
    fn read_record(&mut self, record: &mut Record) -> anyhow::Result<bool> {
        record.fields.clear();
        record.error = None;
        loop {
            let truncated = match read_line(&mut self.stream.reader, &mut record.cells, MAX_LINE) {
                Ok(Some(truncated)) => truncated,
                Ok(None) => {
                    record.cells.clear();
                    return Ok(false);
                }
                Err(e) => return Err(self.stream.read_error(self.line + 1, e)),
            };
            self.line += 1;
            let text = &record.cells;
            let start = text
                .iter()
                .position(|b| !b.is_ascii_whitespace())
                .unwrap_or(text.len());
            if start == text.len() || text[start] == b'#' {
                continue;
            }
            let end = text[start..]
                .iter()
                .position(|&b| is_delimiter(b) || b == b'\r')
                .map_or(text.len(), |n| start + n);
            if truncated && end == text.len() {
                record.error = Some(format!(
                    "line longer than {MAX_LINE} bytes, expected 81 cells"
                ));
            }
            record.cells.truncate(end);
            if start > 0 {
                record.cells.drain(..start);
            }
            record.line = self.line;
            return Ok(true);
        }
    }

    fn bytes_read(&self) -> u64 {
        self.stream.progress.bytes_read()
    }

    fn total_bytes(&self) -> Option<u64> {
        self.stream.progress.total_bytes()
    }

    fn format(&self) -> InputFormat {
        InputFormat::Lines
    }
}

/// Read one line, without its `\n`, into `buf` (cleared first), keeping at most `cap`
/// bytes of it. Returns `None` at the end of input, else whether the line was cut.
pub(crate) fn read_line(
    reader: &mut impl BufRead,
    buf: &mut Vec<u8>,
    cap: usize,
) -> io::Result<Option<bool>> {
    buf.clear();
    let mut any = false;
    let mut truncated = false;
    loop {
        let available = match reader.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            return Ok(any.then_some(truncated));
        }
        any = true;
        let (chunk, used, done) = match memchr::memchr(b'\n', available) {
            Some(i) => (&available[..i], i + 1, true),
            None => (available, available.len(), false),
        };
        let room = cap.saturating_sub(buf.len());
        if chunk.len() > room {
            truncated = true;
            buf.extend_from_slice(&chunk[..room]);
        } else {
            buf.extend_from_slice(chunk);
        }
        reader.consume(used);
        if done {
            return Ok(Some(truncated));
        }
    }
}
