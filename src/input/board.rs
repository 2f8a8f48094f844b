//! The board-literal reader: LeetCode 37's `[["5","3",".",...],...]`, possibly over
//! many lines, several boards one after another or inside an outer list, text around
//! them (`Input: board =`) ignored.
//!
//! A small streaming tokenizer tracks nested lists: a list of scalars is a row, a list
//! of rows is a board (one record), a list of boards is a container. Broken nesting is
//! repaired where the intent is plain (a row not closed before the next `[`, a board not
//! closed before the next board), so one broken board does not swallow the following
//! ones; the broken board itself becomes a record with an error. A board longer than
//! [`MAX_RECORD`] keeps no more cells (it becomes an invalid record), so a huge one
//! cannot exhaust memory. Text outside the lists is skipped when it is a label
//! (`Input: board =`); a line with a puzzle's worth of cell characters outside any list
//! is data that is not a board, and becomes an invalid record of its own.

use std::collections::VecDeque;
use std::io::BufRead;

use super::source::{self, Stream};
use super::InputFormat;
use super::{Record, RecordReader, MAX_RECORD};

/// Nesting kept at most (board, rows, and two levels of containers); deeper brackets
/// are counted, not kept, so that a pathological input cannot exhaust memory.
const MAX_DEPTH: usize = 8;

/// Bytes of one scalar kept at most (a cell is one character).
const MAX_SCALAR: usize = 16;

/// Cell characters outside any list from which a line is data, not a label.
const STRAY_CELLS: usize = 9;

/// Bytes of a stray line's text kept for its record.
const STRAY_KEPT: usize = 160;

/// Reads board literals.
pub(crate) struct BoardReader {
    stream: Stream,
    parser: Parser,
    eof: bool,
}

impl BoardReader {
    pub(crate) fn new(stream: Stream) -> Self {
        BoardReader {
            stream,
            parser: Parser::default(),
            eof: false,
        }
    }

    /// Scan one buffer's worth of input, stopping early once a board is complete.
    fn scan(&mut self) -> anyhow::Result<()> {
        let line = self.parser.line;
        let buf = self
            .stream
            .reader
            .fill_buf()
            .map_err(|e| source::read_error(&self.stream.name, line, e))?;
        if buf.is_empty() {
            self.parser.finish();
            self.eof = true;
            return Ok(());
        }
        let mut used = buf.len();
        for (i, &byte) in buf.iter().enumerate() {
            self.parser.byte(byte);
            if !self.parser.ready.is_empty() {
                used = i + 1;
                break;
            }
        }
        self.stream.reader.consume(used);
        Ok(())
    }
}

impl RecordReader for BoardReader {
    fn read_record(&mut self, record: &mut Record) -> anyhow::Result<bool> {
        record.fields.clear();
        record.rules.clear();
        record.regions.clear();
        while self.parser.ready.is_empty() && !self.eof {
            self.scan()?;
        }
        match self.parser.ready.pop_front() {
            Some(board) => {
                record.line = board.line;
                record.cells = board.cells;
                record.error = board.error;
                Ok(true)
            }
            None => {
                record.cells.clear();
                record.error = None;
                Ok(false)
            }
        }
    }

    fn bytes_read(&self) -> u64 {
        self.stream.bytes.bytes_read()
    }

    fn total_bytes(&self) -> Option<u64> {
        self.stream.bytes.total_bytes()
    }

    fn format(&self) -> InputFormat {
        InputFormat::Board
    }
}

/// A completed board.
#[derive(Debug)]
struct Board {
    line: u64,
    cells: Vec<u8>,
    error: Option<String>,
}

/// An open `[`.
#[derive(Debug, Default)]
struct Frame {
    /// Line of the `[`.
    line: u64,
    /// Cells of its scalars, or of its rows once they closed.
    cells: Vec<u8>,
    /// Scalars directly inside it.
    scalars: usize,
    /// Widths of the rows closed inside it (the first few): non-empty for a board.
    widths: Vec<usize>,
    /// Rows closed inside it beyond those in `widths`.
    more_rows: usize,
    /// A board closed inside it: it is a container.
    has_boards: bool,
    /// Line where its first scalar or first row starts (0 before it has any).
    content_line: u64,
    /// The first problem found inside it.
    error: Option<String>,
}

impl Frame {
    fn is_fresh(&self) -> bool {
        self.scalars == 0 && self.widths.is_empty() && !self.has_boards
    }

    fn note(&mut self, error: impl FnOnce() -> String) {
        if self.error.is_none() {
            self.error = Some(error());
        }
    }
}

/// Where the tokenizer is.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
enum Lex {
    #[default]
    Normal,
    /// Inside a quoted string opened by `quote`.
    Str { quote: u8, escape: bool },
    /// Inside an unquoted scalar (`5`, `.`).
    Bare,
}

/// The tokenizer and nesting state, fed one byte at a time.
#[derive(Debug)]
struct Parser {
    line: u64,
    lex: Lex,
    token: Vec<u8>,
    /// Length of the current scalar, including bytes beyond [`MAX_SCALAR`].
    token_len: usize,
    /// Line where the current scalar starts.
    token_line: u64,
    stack: Vec<Frame>,
    /// Brackets opened beyond [`MAX_DEPTH`], still open.
    excess: usize,
    ready: VecDeque<Board>,
    /// The current line's text outside any list (its first [`STRAY_KEPT`] bytes from
    /// the first non-blank one) and the cell characters in it.
    outside: Vec<u8>,
    outside_cells: usize,
}

impl Default for Parser {
    fn default() -> Self {
        Parser {
            line: 1,
            lex: Lex::Normal,
            token: Vec::with_capacity(MAX_SCALAR),
            token_len: 0,
            token_line: 1,
            stack: Vec::with_capacity(MAX_DEPTH),
            excess: 0,
            ready: VecDeque::new(),
            outside: Vec::with_capacity(STRAY_KEPT),
            outside_cells: 0,
        }
    }
}

impl Parser {
    fn byte(&mut self, byte: u8) {
        match self.lex {
            Lex::Str { quote, escape } => {
                if escape {
                    self.lex = Lex::Str {
                        quote,
                        escape: false,
                    };
                    self.push_token(byte);
                } else if byte == b'\\' {
                    self.lex = Lex::Str {
                        quote,
                        escape: true,
                    };
                } else if byte == quote {
                    self.lex = Lex::Normal;
                    self.scalar();
                } else {
                    self.push_token(byte);
                }
            }
            Lex::Bare if is_bare(byte) => self.push_token(byte),
            Lex::Bare => {
                self.lex = Lex::Normal;
                self.scalar();
                self.normal(byte);
            }
            Lex::Normal => self.normal(byte),
        }
        if byte == b'\n' {
            self.end_line();
            self.line += 1;
        }
    }

    /// A line ended: if it held data outside any list, that is a record of its own.
    fn end_line(&mut self) {
        if self.outside_cells >= STRAY_CELLS {
            let text = self.outside.trim_ascii().to_vec();
            self.ready.push_back(Board {
                line: self.line,
                cells: text,
                error: Some("text outside a board literal".to_string()),
            });
        }
        self.outside.clear();
        self.outside_cells = 0;
    }

    fn normal(&mut self, byte: u8) {
        match byte {
            b'[' => self.open(),
            b']' => self.close(None),
            // Outside any list, text (`Input: board =`) is not ours to read; but it is
            // watched, in case it is data (see `end_line`).
            _ if self.stack.is_empty() => {
                // Kept from the first non-blank byte: a line that opens with a long
                // run of blanks still shows its data in the record.
                let leading_blank = self.outside.is_empty() && byte.is_ascii_whitespace();
                if self.outside.len() < STRAY_KEPT && byte != b'\r' && !leading_blank {
                    self.outside.push(byte);
                }
                if byte.is_ascii_digit() || byte == b'.' {
                    self.outside_cells += 1;
                }
            }
            b'"' | b'\'' => {
                self.start_token();
                self.lex = Lex::Str {
                    quote: byte,
                    escape: false,
                };
            }
            _ if is_bare(byte) => {
                self.start_token();
                self.push_token(byte);
                self.lex = Lex::Bare;
            }
            _ => {}
        }
    }

    fn start_token(&mut self) {
        self.token_line = self.line;
        self.token.clear();
        self.token_len = 0;
    }

    fn push_token(&mut self, byte: u8) {
        if self.token.len() < MAX_SCALAR {
            self.token.push(byte);
        }
        self.token_len += 1;
    }

    /// A scalar ended: it is a cell of the innermost list.
    fn scalar(&mut self) {
        if self.excess > 0 {
            return;
        }
        let depth = self.stack.len();
        let row = match depth {
            2.. => self.stack[depth - 2].widths.len() + 1,
            _ => 1,
        };
        let Some(top) = self.stack.last_mut() else {
            return;
        };
        top.scalars += 1;
        if top.content_line == 0 {
            // Where the scalar starts: a string never closed ends past the last line.
            top.content_line = self.token_line;
        }
        if top.cells.len() + self.token.len().max(1) > MAX_RECORD {
            top.note(|| format!("board literal longer than {MAX_RECORD} bytes"));
        } else if self.token_len == 1 {
            top.cells.push(self.token[0]);
        } else {
            let column = top.scalars;
            let token = &self.token;
            let len = self.token_len;
            top.note(|| {
                let shown = String::from_utf8_lossy(token);
                let more = if len > token.len() { "..." } else { "" };
                format!(
                    "board literal: row {row}, column {column}: \"{shown}{more}\" is not one cell"
                )
            });
            top.cells
                .extend_from_slice(if token.is_empty() { b"?" } else { token });
        }
        if !top.widths.is_empty() {
            top.note(|| "board literal: a cell outside any row".to_string());
        }
    }

    fn open(&mut self) {
        if self.excess > 0 || self.stack.len() >= MAX_DEPTH {
            self.excess += 1;
            if let Some(top) = self.stack.last_mut() {
                top.note(|| "board literal: lists nested too deep".to_string());
            }
            return;
        }
        // A `[` inside a list of scalars: that row was never closed.
        if let Some(top) = self.stack.last() {
            if top.scalars > 0 && top.widths.is_empty() && !top.has_boards {
                self.close(Some("board literal: a row is not closed"));
            }
        }
        // `[[` inside a board: a new board starts, the one around it was never closed.
        let depth = self.stack.len();
        if depth >= 2
            && self.stack[depth - 1].is_fresh()
            && !self.stack[depth - 2].widths.is_empty()
        {
            let mut unclosed = self.stack.remove(depth - 2);
            unclosed.note(|| "board literal: not closed before the next board".to_string());
            self.emit(unclosed);
            if let Some(parent) = depth.checked_sub(3).and_then(|i| self.stack.get_mut(i)) {
                parent.has_boards = true;
            }
        }
        self.stack.push(Frame {
            line: self.line,
            ..Frame::default()
        });
    }

    /// Close the innermost list; `forced` is the error when it is closed by repair.
    fn close(&mut self, forced: Option<&str>) {
        if self.excess > 0 {
            self.excess -= 1;
            return;
        }
        // A stray `]` outside any list is text, like the rest outside lists.
        let Some(mut frame) = self.stack.pop() else {
            return;
        };
        if let Some(message) = forced {
            frame.note(|| message.to_string());
        }
        if frame.has_boards {
            // A list of boards. Cells or rows of its own, besides them, are data that is
            // no board: a record of its own, not lost (and after the boards before it).
            if frame.scalars > 0 || !frame.widths.is_empty() {
                self.emit(frame);
            }
            if let Some(parent) = self.stack.last_mut() {
                parent.has_boards = true;
            }
        } else if !frame.widths.is_empty() {
            self.emit(frame);
            if let Some(parent) = self.stack.last_mut() {
                parent.has_boards = true;
            }
        } else {
            // A row.
            match self.stack.last_mut() {
                Some(parent) => {
                    if parent.content_line == 0 {
                        parent.content_line = frame.line;
                    }
                    let room = MAX_RECORD.saturating_sub(parent.cells.len());
                    if frame.cells.len() > room {
                        parent.note(|| format!("board literal longer than {MAX_RECORD} bytes"));
                    }
                    parent
                        .cells
                        .extend_from_slice(&frame.cells[..frame.cells.len().min(room)]);
                    if parent.widths.len() < 2 * 9 {
                        parent.widths.push(frame.scalars);
                    } else {
                        parent.more_rows += 1;
                    }
                    if let Some(error) = frame.error {
                        parent.note(|| error);
                    }
                }
                // A flat list of cells at the top: a board written as one list.
                None if frame.scalars > 0 => {
                    if frame.scalars != 81 {
                        let n = frame.scalars;
                        frame.note(|| {
                            format!("board literal: a flat list of {n} cells, expected 81")
                        });
                    }
                    self.ready.push_back(Board {
                        line: frame.line,
                        cells: frame.cells,
                        error: frame.error,
                    });
                }
                None => {}
            }
        }
    }

    /// A board is complete; or a container's own cells or rows beside its boards
    /// (after the last of them, or when it is closed by repair): a record of their own.
    fn emit(&mut self, frame: Frame) {
        self.flush_open();
        if frame.has_boards {
            self.ready.push_back(beside(frame));
            return;
        }
        let rows = frame.widths.len() + frame.more_rows;
        let error = frame.error.or_else(|| {
            if rows != 9 {
                return Some(format!("board literal: {rows} rows, expected 9"));
            }
            let (row, width) = frame.widths.iter().enumerate().find(|&(_, &w)| w != 9)?;
            Some(format!(
                "board literal: row {} has {width} cells, expected 9",
                row + 1
            ))
        });
        self.ready.push_back(Board {
            line: frame.line,
            cells: frame.cells,
            error,
        });
    }

    /// Before a record from inside them: the lists still open around it are
    /// containers, and their own cells or rows so far come before it in the input, so
    /// their record does too (records stay in line order).
    fn flush_open(&mut self) {
        for open in &mut self.stack {
            if open.scalars > 0 || !open.widths.is_empty() {
                let fresh = Frame {
                    line: open.line,
                    has_boards: true,
                    ..Frame::default()
                };
                let own = std::mem::replace(open, fresh);
                self.ready.push_back(beside(own));
            }
        }
    }

    /// End of input: close what is still open, as broken.
    fn finish(&mut self) {
        self.end_line();
        match self.lex {
            Lex::Bare => self.scalar(),
            Lex::Str { .. } => {
                if let Some(top) = self.stack.last_mut() {
                    top.note(|| "board literal: a string is not closed".to_string());
                }
                self.scalar();
            }
            Lex::Normal => {}
        }
        self.lex = Lex::Normal;
        self.excess = 0;
        while !self.stack.is_empty() {
            self.close(Some("board literal: '[' not closed at the end of input"));
        }
    }
}

/// The record of a container's own cells or rows, at the line of the first of them.
fn beside(mut frame: Frame) -> Board {
    frame.note(|| "board literal: cells outside any board".to_string());
    Board {
        line: frame.content_line,
        cells: frame.cells,
        error: frame.error,
    }
}

/// Bytes of an unquoted scalar.
fn is_bare(byte: u8) -> bool {
    !byte.is_ascii_whitespace() && !matches!(byte, b'[' | b']' | b',' | b'"' | b'\'')
}
