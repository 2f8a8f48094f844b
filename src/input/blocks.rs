//! The grid-block reader: the classic problem-statement format of 9 lines of 9 cells
//! per puzzle (`103000509` as in POJ 2676, or `8 0 0 0 0 0 0 0 0 ` as in Luogu P1784),
//! optionally after a line with the number of cases, blocks optionally separated by
//! blank lines.
//!
//! A block ends after its 9th row or at a blank line, whichever comes first; so a short
//! or ragged block becomes one record with an error and the next block, when blank
//! lines separate them, is read intact.

use super::detect::is_count;
use super::lines::{read_line, MAX_LINE};
use super::source::Stream;
use super::InputFormat;
use super::{Record, RecordReader};

/// Rows in a block.
const ROWS: usize = 9;

/// Reads 9-line grid blocks.
pub(crate) struct GridReader {
    stream: Stream,
    line: u64,
    buf: Vec<u8>,
    /// No meaningful line seen yet: the next one may be the case count.
    at_start: bool,
    /// A line that ended the last block without belonging to it (it is not a row): the
    /// next record, with its line number.
    pending: Option<u64>,
}

impl GridReader {
    pub(crate) fn new(stream: Stream) -> Self {
        GridReader {
            stream,
            line: 0,
            buf: Vec::with_capacity(256),
            at_start: true,
            pending: None,
        }
    }
}

/// Whether a line could be a row of a block, if perhaps a ragged one: cells and blanks
/// only.
fn is_row_like(line: &[u8]) -> bool {
    line.iter()
        .all(|&b| b.is_ascii_whitespace() || crate::grid::cell_value(b).is_some())
}

/// Make `record` the lone line `text` at `line`, which is not a grid row.
fn not_a_row(record: &mut Record, line: u64, text: &[u8]) {
    record.line = line;
    record.cells.clear();
    record.cells.extend_from_slice(text);
    record.error = Some("not a grid row: expected 9 cells".to_string());
}

impl RecordReader for GridReader {
    fn read_record(&mut self, record: &mut Record) -> anyhow::Result<bool> {
        record.cells.clear();
        record.fields.clear();
        record.error = None;
        record.rules.clear();
        record.regions.clear();
        if let Some(line) = self.pending.take() {
            not_a_row(record, line, self.buf.trim_ascii());
            return Ok(true);
        }
        let mut rows = 0;
        // The first row whose width is wrong: (row number, its cell count).
        let mut ragged: Option<(usize, usize)> = None;
        loop {
            let truncated = match read_line(&mut self.stream.reader, &mut self.buf, MAX_LINE) {
                Ok(Some(truncated)) => truncated,
                Ok(None) => break,
                Err(e) => return Err(self.stream.read_error(self.line + 1, e)),
            };
            self.line += 1;
            // A comment however long (as in the lines reader): judged by what is kept.
            if self.buf.trim_ascii().first() == Some(&b'#') {
                continue;
            }
            if truncated {
                // Too long to be a row, whatever it holds: a record of its own; and a
                // meaningful line, after which no case count can come.
                self.at_start = false;
                if rows > 0 {
                    self.pending = Some(self.line);
                    self.buf.clear();
                    break;
                }
                not_a_row(record, self.line, b"");
                return Ok(true);
            }
            let text = self.buf.trim_ascii();
            if text.is_empty() {
                if rows > 0 {
                    break;
                }
                continue;
            }
            if std::mem::take(&mut self.at_start) && is_count(text) {
                continue;
            }
            if !is_row_like(text) {
                if rows == 0 {
                    not_a_row(record, self.line, text);
                    return Ok(true);
                }
                // The block ends here; this line is the next record (`buf` keeps it).
                self.pending = Some(self.line);
                break;
            }
            if rows == 0 {
                record.line = self.line;
            }
            rows += 1;
            let before = record.cells.len();
            record
                .cells
                .extend(text.iter().copied().filter(|b| !b.is_ascii_whitespace()));
            let width = record.cells.len() - before;
            if width != ROWS && ragged.is_none() {
                ragged = Some((rows, width));
            }
            if rows == ROWS {
                break;
            }
        }
        if rows == 0 {
            return Ok(false);
        }
        if rows < ROWS {
            record.error = Some(format!("grid block: {rows} rows, expected {ROWS}"));
        } else if let Some((row, width)) = ragged {
            record.error = Some(format!(
                "grid block: row {row} has {width} cells, expected {ROWS}"
            ));
        }
        Ok(true)
    }

    fn bytes_read(&self) -> u64 {
        self.stream.bytes.bytes_read()
    }

    fn total_bytes(&self) -> Option<u64> {
        self.stream.bytes.total_bytes()
    }

    fn format(&self) -> InputFormat {
        InputFormat::Grid
    }
}
