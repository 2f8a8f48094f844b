//! The CSV reader: a header row, the puzzle found in a column chosen by name, every
//! field kept for columns copied through (`--keep`) or checked (a `solution` column).
//!
//! Broken CSV (a row with the wrong number of fields, unreadable bytes) is an error
//! naming the file and the line: a dataset cut in the middle of a row should stop the
//! run rather than be read as garbage.

use std::collections::VecDeque;
use std::io::{self, Read};

use anyhow::Context;

use super::detect::PUZZLE_COLUMNS;
use super::source::{Buffered, ByteCount, Stream};
use super::InputFormat;
use super::{Record, RecordReader, MAX_RECORD};

/// Reads a CSV file with a header row.
pub(crate) struct CsvReader {
    reader: ::csv::Reader<LineIndex<Buffered>>,
    name: String,
    bytes: ByteCount,
    headers: Vec<String>,
    column: usize,
    /// The `rules` column and the regions column, when the header has them.
    rules: Option<usize>,
    regions: Option<usize>,
    row: ::csv::ByteRecord,
}

impl CsvReader {
    /// Read the header and find the puzzle column: `options.column` if given (exact
    /// name, else ignoring case), else the first of [`PUZZLE_COLUMNS`]; and the
    /// variant columns, `rules` and `regions` (or `options.regions_column`).
    pub(crate) fn new(stream: Stream, options: &super::InputOptions) -> anyhow::Result<Self> {
        let column = options.column.as_deref();
        let Stream {
            name,
            reader,
            bytes,
        } = stream;
        let mut reader = ::csv::ReaderBuilder::new()
            .has_headers(true)
            .flexible(false)
            .trim(::csv::Trim::All)
            .comment(Some(b'#'))
            .from_reader(LineIndex::new(reader));
        let header = match reader.byte_headers() {
            Ok(header) => header.clone(),
            Err(e) => return Err(csv_error(&name, reader.get_mut(), e)),
        };
        let after_header = reader.position().byte();
        reader.get_mut().set_record_start(after_header);
        let headers: Vec<String> = header
            .iter()
            .map(|f| String::from_utf8_lossy(f).into_owned())
            .collect();
        let line = reader
            .get_mut()
            .line_at(header.position().map_or(0, ::csv::Position::byte));
        let find = |wanted: &str| {
            headers
                .iter()
                .position(|h| h == wanted)
                .or_else(|| headers.iter().position(|h| h.eq_ignore_ascii_case(wanted)))
        };
        let found = match column {
            Some(wanted) => find(wanted).with_context(|| {
                format!(
                    "{name}:{line}: no column named {wanted:?} (columns: {})",
                    headers.join(", ")
                )
            })?,
            None => PUZZLE_COLUMNS
                .iter()
                .find_map(|c| find(c))
                .with_context(|| {
                    format!(
                        "{name}:{line}: no puzzle column: expected one named {} \
                     (or name it with --column); columns: {}",
                        PUZZLE_COLUMNS.join(", "),
                        headers.join(", ")
                    )
                })?,
        };
        let regions = match &options.regions_column {
            Some(wanted) => Some(find(wanted).with_context(|| {
                format!(
                    "{name}:{line}: --regions-column: no column named {wanted:?} (columns: {})",
                    headers.join(", ")
                )
            })?),
            None => find("regions"),
        };
        let rules = find("rules");
        Ok(CsvReader {
            reader,
            name,
            bytes,
            headers,
            column: found,
            rules,
            regions,
            row: ::csv::ByteRecord::new(),
        })
    }
}

/// A CSV error as a message naming the file and the line.
fn csv_error<R: Read>(name: &str, index: &mut LineIndex<R>, err: ::csv::Error) -> anyhow::Error {
    if let ::csv::ErrorKind::Io(e) = err.kind() {
        if e.get_ref().is_some_and(|e| e.is::<TooLong>()) {
            // The record that never ends starts where its content does.
            let line = index.line_at(index.content_start);
            return anyhow::anyhow!(
                "{name}:{line}: broken CSV: the record starting here runs over {MAX_RECORD} \
                 bytes (a quote opened here and never closed?)"
            );
        }
    }
    let line = err.position().map(|p| index.line_at(p.byte()));
    let message = match err.kind() {
        ::csv::ErrorKind::UnequalLengths {
            expected_len, len, ..
        } => format!("broken CSV: {len} fields, expected {expected_len} as in the header"),
        ::csv::ErrorKind::Io(e) => format!("cannot read: {e}"),
        _ => format!("broken CSV: {err}"),
    };
    match line {
        Some(line) => anyhow::anyhow!("{name}:{line}: {message}"),
        None => anyhow::anyhow!("{name}: {message}"),
    }
}

impl RecordReader for CsvReader {
    fn read_record(&mut self, record: &mut Record) -> anyhow::Result<bool> {
        record.cells.clear();
        record.error = None;
        let more = match self.reader.read_byte_record(&mut self.row) {
            Ok(more) => more,
            Err(e) => return Err(csv_error(&self.name, self.reader.get_mut(), e)),
        };
        if !more {
            record.fields.clear();
            return Ok(false);
        }
        let start = self.row.position().map_or(0, ::csv::Position::byte);
        record.line = self.reader.get_mut().line_at(start);
        let end = self.reader.position().byte();
        self.reader.get_mut().set_record_start(end);
        // The `csv` crate reads a quote that is never closed as one field running to
        // the end of the file, rows and all. A puzzle never spans lines, and a quoted
        // multi-line field that holds commas is far more likely such a swallowed run of
        // rows than real text: both stop the run rather than silently lose rows.
        if memchr::memchr(b'\n', self.row.as_slice()).is_some() {
            let swallowed = self.row[self.column].contains(&b'\n')
                || self
                    .row
                    .iter()
                    .any(|f| f.contains(&b'\n') && f.contains(&b','));
            if swallowed {
                anyhow::bail!(
                    "{}:{}: broken CSV: a quoted field runs over several lines \
                     (a quote not closed?)",
                    self.name,
                    record.line
                );
            }
        }
        record.cells.extend_from_slice(&self.row[self.column]);
        for (column, into) in [
            (self.rules, &mut record.rules),
            (self.regions, &mut record.regions),
        ] {
            into.clear();
            if let Some(i) = column {
                into.extend_from_slice(&self.row[i]);
            }
        }
        // Reuse the field strings' allocations from the previous row.
        record.fields.truncate(self.row.len());
        for (i, field) in self.row.iter().enumerate() {
            let text = String::from_utf8_lossy(field);
            match record.fields.get_mut(i) {
                Some(s) => {
                    s.clear();
                    s.push_str(&text);
                }
                None => record.fields.push(text.into_owned()),
            }
        }
        Ok(true)
    }

    fn headers(&self) -> Option<&[String]> {
        Some(&self.headers)
    }

    fn bytes_read(&self) -> u64 {
        self.bytes.bytes_read()
    }

    fn total_bytes(&self) -> Option<u64> {
        self.bytes.total_bytes()
    }

    fn format(&self) -> InputFormat {
        InputFormat::Csv
    }
}

/// Maps the byte offsets the `csv` crate reports to 1-based line numbers.
///
/// The crate's own `Position::line` does not count skipped comment and blank lines,
/// and a record's reported start is where the previous record ended (before the line
/// terminator and any skipped lines). So this wrapper notes where each line starts and
/// whether `csv` skips it; a record's line is then the first line starting at or after
/// the reported offset that is not skipped. Lines behind the reader's position are
/// dropped, so memory stays bounded by the `csv` reader's read-ahead.
struct LineIndex<R> {
    inner: R,
    /// Offset of the next byte to be read.
    offset: u64,
    /// Complete lines not yet behind the reader: (start offset, skipped by `csv`).
    lines: VecDeque<(u64, bool)>,
    /// Lines dropped from the front of `lines`.
    dropped: u64,
    /// The line being read: its start, length so far and first byte.
    current_start: u64,
    current_len: u64,
    current_first: u8,
    /// Where the record being read starts (where the last one ended).
    record_start: u64,
    /// Where its content starts: past the blank and comment lines after
    /// `record_start`. Reading more than [`MAX_RECORD`] bytes (and the `csv` reader's
    /// read-ahead) past it is [`TooLong`].
    content_start: u64,
    /// The input ended (and a missing last line end was supplied).
    ended: bool,
    /// The last byte read was a line end (or nothing was read).
    at_line_start: bool,
    /// Bytes of a UTF-8 BOM matched at the very start so far, until `bom_done`. `csv`
    /// drops a BOM there (one more than the stream drops), so those bytes are not
    /// part of the first line: a line holding only them is blank to `csv`.
    bom_matched: u8,
    bom_done: bool,
}

const BOM: &[u8; 3] = b"\xEF\xBB\xBF";

/// A CSV record that runs over [`MAX_RECORD`] bytes: a quote never closed reads the
/// rest of the file into one field.
#[derive(Debug)]
struct TooLong;

impl std::fmt::Display for TooLong {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "a CSV record longer than {MAX_RECORD} bytes")
    }
}

impl std::error::Error for TooLong {}

/// How far the `csv` reader may read ahead of the record it parses: its buffer (8 KiB),
/// with room to spare. (Smaller when built for fuzzing, as [`MAX_RECORD`] is.)
#[cfg(not(fuzzing))]
const READ_AHEAD: u64 = 64 * 1024;
#[cfg(fuzzing)]
const READ_AHEAD: u64 = 16 * 1024;

impl<R> LineIndex<R> {
    fn new(inner: R) -> Self {
        LineIndex {
            inner,
            offset: 0,
            lines: VecDeque::new(),
            dropped: 0,
            current_start: 0,
            current_len: 0,
            current_first: 0,
            record_start: 0,
            content_start: 0,
            ended: false,
            at_line_start: true,
            bom_matched: 0,
            bom_done: false,
        }
    }

    /// Whether `csv` skips the current line: blank (or a lone `\r`), or a comment.
    fn current_skipped(&self) -> bool {
        self.current_len == 0
            || (self.current_len == 1 && self.current_first == b'\r')
            || self.current_first == b'#'
    }

    /// Extend the current line by `part` (which holds no newline).
    fn extend(&mut self, part: &[u8]) {
        if self.current_len == 0 {
            if let Some(&first) = part.first() {
                self.current_first = first;
            }
        }
        self.current_len += part.len() as u64;
    }

    /// The record being read starts at byte `at`: the guard against endless records
    /// counts from its first line that is not blank or a comment.
    fn set_record_start(&mut self, at: u64) {
        self.record_start = at;
        self.content_start = at;
        let lines: Vec<(u64, bool)> = self.lines.iter().copied().collect();
        for (i, &(start, skipped)) in lines.iter().enumerate() {
            if start + 1 < self.content_start {
                continue;
            }
            let next = lines.get(i + 1).map_or(self.current_start, |&(s, _)| s);
            if !self.skip_past(start, skipped, next) {
                break;
            }
        }
    }

    /// If the complete line from `start` to `next` is skipped by `csv` and comes right
    /// at the content start (a CRLF may leave that one byte short), move the content
    /// start past it. Returns whether it moved.
    fn skip_past(&mut self, start: u64, skipped: bool, next: u64) -> bool {
        let at_content = start <= self.content_start + 1 && next > self.content_start;
        if skipped && at_content {
            self.content_start = next;
            return true;
        }
        false
    }

    /// The 1-based line of the record `csv` reports as starting at byte `start`.
    fn line_at(&mut self, start: u64) -> u64 {
        while self.lines.front().is_some_and(|&(s, _)| s < start) {
            self.lines.pop_front();
            self.dropped += 1;
        }
        let ahead = self
            .lines
            .iter()
            .position(|&(_, skipped)| !skipped)
            .unwrap_or(self.lines.len());
        self.dropped + ahead as u64 + 1
    }
}

impl<R: Read> Read for LineIndex<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        // A comment line at the content start, however long, is skipped by `csv`
        // without being kept: no record runs on.
        let in_comment = self.current_first == b'#'
            && self.current_len > 0
            && self.current_start <= self.content_start + 1;
        if !in_comment
            && self.offset.saturating_sub(self.content_start) > MAX_RECORD as u64 + READ_AHEAD
        {
            return Err(io::Error::new(io::ErrorKind::InvalidData, TooLong));
        }
        let mut n = if self.ended { 0 } else { self.inner.read(buf)? };
        if n == 0 && !self.ended {
            self.ended = true;
            // The last line without a line end: supply one, so that `csv` treats it as
            // every other line (it reads a final `#` line without one as a record).
            if !self.at_line_start && !buf.is_empty() {
                buf[0] = b'\n';
                n = 1;
            }
        }
        if n == 0 {
            return Ok(0);
        }
        let data = &buf[..n];
        self.at_line_start = data[n - 1] == b'\n';
        let mut from = 0;
        if !self.bom_done {
            // Reads may end inside the BOM: match it a byte at a time.
            while from < n && self.bom_matched < 3 && data[from] == BOM[self.bom_matched as usize] {
                self.bom_matched += 1;
                from += 1;
            }
            if self.bom_matched == 3 {
                self.bom_done = true;
            } else if from < n {
                // Not a BOM after all: the bytes matched are the line's own.
                self.bom_done = true;
                self.extend(&BOM[..self.bom_matched as usize]);
            }
        }
        let past_bom = from;
        for newline in memchr::memchr_iter(b'\n', &data[past_bom..]).map(|i| i + past_bom) {
            self.extend(&data[from..newline]);
            let skipped = self.current_skipped();
            let start = self.current_start;
            self.lines.push_back((start, skipped));
            self.current_start = self.offset + newline as u64 + 1;
            self.skip_past(start, skipped, self.current_start);
            self.current_len = 0;
            self.current_first = 0;
            from = newline + 1;
        }
        self.extend(&data[from..]);
        self.offset += n as u64;
        Ok(n)
    }
}
