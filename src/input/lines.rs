//! The one-puzzle-per-line reader: the hot path for datasets of millions of puzzles.
//!
//! A line's first token (up to a delimiter) is the puzzle; the rest (ratings,
//! `:count:solution`, ...) is ignored. The line is read straight into the record's
//! reused `cells` buffer and cut down to the token there, so a record costs no
//! allocation and one copy.

use std::io::{self, BufRead};

use super::detect::is_delimiter;
use super::source::Stream;
use super::InputFormat;
use super::{Record, RecordReader};

/// Bytes of a line kept at most ([`super::MAX_RECORD`]); the rest of a longer line is
/// skipped, so that a file without newlines cannot exhaust memory.
pub(crate) const MAX_LINE: usize = super::MAX_RECORD;

/// Reads one puzzle per line.
pub(crate) struct LinesReader {
    stream: Stream,
    line: u64,
    /// The first meaningful line is a header naming the puzzle column: skip it.
    skip_header: bool,
    /// A line's second field is its jigsaw regions (`PUZZLE REGIONS`).
    regions_field: bool,
}

impl LinesReader {
    /// A reader of `stream`; `skip_header` when its first meaningful line is a
    /// CSV-style header (`puzzle`) rather than a record; `regions_field` when a line's
    /// second field holds its jigsaw regions.
    pub(crate) fn new(stream: Stream, skip_header: bool, regions_field: bool) -> Self {
        LinesReader {
            stream,
            line: 0,
            skip_header,
            regions_field,
        }
    }

    /// Make `record` the line held in `record.cells` (read by the slow path), or return
    /// `false` if the line is blank or a comment.
    fn take_slow_line(&self, record: &mut Record, truncated: bool) -> bool {
        let text = &record.cells;
        let Some(start) = text.iter().position(|b| !b.is_ascii_whitespace()) else {
            if truncated {
                // Blanks for as far as it was kept, and then more: not a blank line.
                record.cells.clear();
                record.error = Some(too_long());
                record.line = self.line;
                return true;
            }
            return false;
        };
        if text[start] == b'#' {
            return false;
        }
        let end = start + token_len(&text[start..]);
        if truncated && end == text.len() {
            record.error = Some(too_long());
        }
        if self.regions_field {
            record.regions.clear();
            record
                .regions
                .extend_from_slice(second_field(&record.cells[end..]));
        }
        record.cells.truncate(end);
        record.cells.drain(..start);
        record.line = self.line;
        true
    }
}

impl RecordReader for LinesReader {
    fn read_record(&mut self, record: &mut Record) -> anyhow::Result<bool> {
        let got = self.read_line_record(record)?;
        if got && std::mem::take(&mut self.skip_header) {
            return self.read_line_record(record);
        }
        Ok(got)
    }

    fn bytes_read(&self) -> u64 {
        self.stream.bytes.bytes_read()
    }

    fn total_bytes(&self) -> Option<u64> {
        self.stream.bytes.total_bytes()
    }

    fn format(&self) -> InputFormat {
        InputFormat::Lines
    }
}

impl LinesReader {
    /// The next record, whatever it holds.
    fn read_line_record(&mut self, record: &mut Record) -> anyhow::Result<bool> {
        record.fields.clear();
        record.error = None;
        record.rules.clear();
        record.regions.clear();
        loop {
            // Fast path: the whole line is in the buffer; copy only its first token.
            let buf = match self.stream.reader.fill_buf() {
                Ok(buf) => buf,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(self.stream.read_error(self.line + 1, e)),
            };
            // Fastest path, the common line: 81 cells then `\n`, seen without a search.
            if is_plain_puzzle_line(buf) {
                self.line += 1;
                record.cells.clear();
                record.cells.extend_from_slice(&buf[..PUZZLE]);
                record.line = self.line;
                self.stream.reader.consume(PUZZLE + 1);
                return Ok(true);
            }
            if let Some(newline) = memchr::memchr(b'\n', buf).filter(|&n| n <= MAX_LINE) {
                let line = &buf[..newline];
                match line.first() {
                    Some(b'#') => {
                        self.line += 1;
                        self.stream.reader.consume(newline + 1);
                        continue;
                    }
                    Some(first) if !first.is_ascii_whitespace() => {
                        self.line += 1;
                        let end = token_len(line);
                        record.cells.clear();
                        record.cells.extend_from_slice(&line[..end]);
                        if self.regions_field {
                            record.regions.extend_from_slice(second_field(&line[end..]));
                        }
                        record.line = self.line;
                        self.stream.reader.consume(newline + 1);
                        return Ok(true);
                    }
                    // Blank, or to be trimmed: the slow path sorts it out.
                    _ => {}
                }
            }
            // Slow path: a line across the buffer's end, the last line without a
            // newline, or one that needs trimming.
            let truncated = match read_line(&mut self.stream.reader, &mut record.cells, MAX_LINE) {
                Ok(Some(truncated)) => truncated,
                Ok(None) => {
                    record.cells.clear();
                    return Ok(false);
                }
                Err(e) => return Err(self.stream.read_error(self.line + 1, e)),
            };
            self.line += 1;
            if self.take_slow_line(record, truncated) {
                return Ok(true);
            }
        }
    }
}

/// The second field of a line, given what follows its first token: after the
/// delimiters, up to the next one (or a CR).
fn second_field(rest: &[u8]) -> &[u8] {
    let start = rest
        .iter()
        .position(|&b| !ends_token(b))
        .unwrap_or(rest.len());
    let rest = &rest[start..];
    &rest[..rest
        .iter()
        .position(|&b| ends_token(b))
        .unwrap_or(rest.len())]
}

/// The reason of a record cut at [`MAX_LINE`].
fn too_long() -> String {
    format!("line longer than {MAX_LINE} bytes, expected 81 cells")
}

/// Cells of a well-formed puzzle line.
const PUZZLE: usize = 81;

/// Whether `buf` starts with a line of exactly 81 bytes that is all one token: its
/// first byte neither blank nor `#`, no delimiter, `\r` or `\n` among them, and a `\n`
/// right after. Such a line's record is its 81 bytes, as the general path would find
/// it; this one needs no search for the newline and looks at each byte once, in fixed
/// 16-byte lanes folded with `|` (a shape the compiler turns into SIMD compares).
#[inline]
fn is_plain_puzzle_line(buf: &[u8]) -> bool {
    let Some((line, rest)) = buf.split_first_chunk::<PUZZLE>() else {
        return false;
    };
    if rest.first() != Some(&b'\n') {
        return false;
    }
    // The common alphabet first: bytes `-` to `9` (digits, `.`, `-`, `/`), none of them
    // blank, `#`, a delimiter or a line end. One range test a byte instead of a compare
    // per delimiter: this runs on every line of a puzzle file.
    let common = |b: u8| b.wrapping_sub(b'-') <= b'9' - b'-';
    let mut odd = [0u8; 16];
    for chunk in line[..80].chunks_exact(16) {
        for (lane, &b) in odd.iter_mut().zip(chunk) {
            *lane |= u8::from(!common(b));
        }
    }
    if odd.iter().fold(0, |a, &b| a | b) == 0 && common(line[80]) {
        return true;
    }
    if line[0].is_ascii_whitespace() || line[0] == b'#' {
        return false;
    }
    let stop = |b: u8| ends_token(b) | (b == b'\n');
    let mut lanes = [0u8; 16];
    for chunk in line[..80].chunks_exact(16) {
        for (lane, &b) in lanes.iter_mut().zip(chunk) {
            *lane |= u8::from(stop(b));
        }
    }
    lanes.iter().fold(0, |a, &b| a | b) == 0 && !stop(line[80])
}

/// Whether `byte` ends a line's first token: a delimiter, or the `\r` of a CRLF.
#[inline]
fn ends_token(byte: u8) -> bool {
    is_delimiter(byte) | (byte == b'\r')
}

/// Length of the first token of `line` (which starts with a non-blank).
#[inline]
fn token_len(line: &[u8]) -> usize {
    // The common case, an 81-cell puzzle then the end or a delimiter, checked without
    // an early exit so that the compiler can check many bytes at once.
    if line.len() >= 81 && line.get(81).is_none_or(|&b| ends_token(b)) && !any_ends_token(line) {
        return 81;
    }
    line.iter()
        .position(|&b| ends_token(b))
        .unwrap_or(line.len())
}

/// Whether any of the first 81 bytes of `line` ends a token. Written as fixed 16-byte
/// lanes folded with `|`, a shape the compiler turns into SIMD compares.
#[inline]
fn any_ends_token(line: &[u8]) -> bool {
    let mut lanes = [0u8; 16];
    for chunk in line[..80].chunks_exact(16) {
        for (lane, &b) in lanes.iter_mut().zip(chunk) {
            *lane |= u8::from(ends_token(b));
        }
    }
    lanes.iter().fold(0, |a, &b| a | b) != 0 || ends_token(line[80])
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_puzzle_lines_are_exactly_81_token_bytes_then_a_newline() {
        let cells =
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
        let plain = format!("{cells}\n");
        assert!(is_plain_puzzle_line(plain.as_bytes()));
        assert!(is_plain_puzzle_line(format!("{plain}next").as_bytes()));
        // Anything else is left to the general path.
        for other in [
            cells.to_string(),                               // no newline yet
            format!("{cells}\r\n"),                          // CRLF
            format!("{cells} rating\n"),                     // more after the cells
            format!("{cells}5\n"),                           // 82 cells
            format!(" {}\n", &cells[1..]),                   // leading blank
            format!("#{}\n", &cells[1..]),                   // comment
            format!("{},{}\n", &cells[..40], &cells[41..]),  // delimiter inside
            format!("{}\n{}\n", &cells[..40], &cells[41..]), // two lines
        ] {
            assert!(!is_plain_puzzle_line(other.as_bytes()), "{other:?}");
        }
        // Every byte, first, inside and last, against the definition: not blank or
        // `#` at the start, no delimiter, CR or LF anywhere.
        for byte in 0..=255u8 {
            for at in [0, 5, 40, 80] {
                let mut line = plain.clone().into_bytes();
                line[at] = byte;
                let plain_by_definition = !(at == 0
                    && (byte.is_ascii_whitespace() || byte == b'#'))
                    && !ends_token(byte)
                    && byte != b'\n';
                assert_eq!(
                    is_plain_puzzle_line(&line),
                    plain_by_definition,
                    "byte {byte} at {at}"
                );
            }
        }
    }
}
