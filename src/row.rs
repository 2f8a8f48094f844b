//! The output row schemas, in one place: column names, the row types (serde), and how a
//! row is written into a CSV writer without allocating.
//!
//! `solve` writes one [`SolveRow`] per input record (per solution with
//! `--all-solutions`), followed by any `--keep` columns copied from the input. Other
//! tools (e.g. `report`) read these rows back with the same type.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

use crate::grid::{Grid, CELLS};

/// The columns of `bulkdoku solve` output, in order (before any `--keep` columns).
pub const SOLVE_COLUMNS: [&str; 10] = [
    "file",
    "line",
    "puzzle",
    "status",
    "solutions",
    "clues",
    "guesses",
    "time_ns",
    "solution",
    "error",
];

/// The verdict on one record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Exactly one solution (uniqueness checked).
    Unique,
    /// Two or more solutions.
    Multiple,
    /// A solution was found; uniqueness not checked (`--first`).
    Solved,
    /// No solution.
    Unsolvable,
    /// The record is not a valid puzzle (see the `error` column).
    Invalid,
}

impl Status {
    /// Every status, in the order summaries list them.
    pub const ALL: [Status; 5] = [
        Status::Unique,
        Status::Multiple,
        Status::Solved,
        Status::Unsolvable,
        Status::Invalid,
    ];

    /// The name written in the `status` column.
    pub const fn as_str(self) -> &'static str {
        match self {
            Status::Unique => "unique",
            Status::Multiple => "multiple",
            Status::Solved => "solved",
            Status::Unsolvable => "unsolvable",
            Status::Invalid => "invalid",
        }
    }

    /// The status named `text`, as written in the `status` column.
    pub fn parse(text: &str) -> Option<Status> {
        Status::ALL.into_iter().find(|s| s.as_str() == text)
    }

    /// True when the search found at least one solution.
    pub fn has_solution(self) -> bool {
        matches!(self, Status::Unique | Status::Multiple | Status::Solved)
    }

    /// The status of a search that found `solutions` solutions; `first_only` when the
    /// search stopped at the first one (so uniqueness is unknown).
    pub fn from_count(solutions: u64, first_only: bool) -> Status {
        match (solutions, first_only) {
            (0, _) => Status::Unsolvable,
            (_, true) => Status::Solved,
            (1, false) => Status::Unique,
            _ => Status::Multiple,
        }
    }
}

impl std::fmt::Display for Status {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One row of `bulkdoku solve` output (columns [`SOLVE_COLUMNS`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SolveRow<'a> {
    /// The input's display name (`-` for standard input).
    #[serde(borrow)]
    pub file: Cow<'a, str>,
    /// 1-based line where the record starts in its file.
    pub line: u64,
    /// The puzzle, normalised to 81 characters with `.` blanks; for an invalid record,
    /// the text as found.
    #[serde(borrow)]
    pub puzzle: Cow<'a, str>,
    /// The verdict.
    pub status: Status,
    /// Solutions found, capped at the limit.
    pub solutions: u64,
    /// Givens in the puzzle (0 for an invalid record).
    pub clues: u64,
    /// Branch decisions the solver made.
    pub guesses: u64,
    /// Time spent in the solver for this puzzle, in nanoseconds.
    pub time_ns: u64,
    /// 81 digits, or empty when there is no solution.
    #[serde(borrow)]
    pub solution: Cow<'a, str>,
    /// Why the record is invalid; empty otherwise.
    #[serde(borrow)]
    pub error: Cow<'a, str>,
}

impl SolveRow<'_> {
    /// Append this row as one CSV line (fields quoted only where CSV needs it), then
    /// the `extra` fields (the `--keep` columns). Numbers are formatted on the stack: no
    /// allocation per row. Numbers, the status and normalised grids never need quoting
    /// and are copied as they are; only free text (file names, an invalid record's raw
    /// text, error messages, kept columns) is checked.
    pub fn write_csv<S: AsRef<[u8]>>(&self, out: &mut Vec<u8>, extra: impl IntoIterator<Item = S>) {
        RowBytes::appending_to(out, |rows| self.write_csv_rows(rows, extra));
    }

    /// [`Self::write_csv`] into gathered rows.
    pub fn write_csv_rows<S: AsRef<[u8]>>(
        &self,
        rows: &mut RowBytes,
        extra: impl IntoIterator<Item = S>,
    ) {
        let puzzle = if self.status == Status::Invalid {
            Text::Free(self.puzzle.as_bytes())
        } else {
            Text::Plain(self.puzzle.as_bytes())
        };
        let fields = Fields {
            file: Text::Free(self.file.as_bytes()),
            line: self.line,
            puzzle,
            status: self.status,
            counts: [self.solutions, self.clues, self.guesses, self.time_ns],
            solution: Text::Plain(self.solution.as_bytes()),
            error: self.error.as_bytes(),
        };
        fields.write_csv(rows, extra);
    }
}

/// The row of a valid puzzle as `solve` has it in hand: grids as [`Grid`]s, not text
/// yet. Written, it is byte for byte the [`SolveRow`] it stands for ([`Self::to_row`]),
/// without the detour through text: the grids are rendered straight into the output
/// line, with no `str` to build and check for each of them, and the clues are counted
/// here. This is the hot path of `solve`'s output, once per puzzle.
#[derive(Debug, Clone, Copy)]
pub struct SolvedRow<'a> {
    /// The input's display name (`-` for standard input).
    pub file: &'a str,
    /// 1-based line where the record starts in its file.
    pub line: u64,
    /// The puzzle.
    pub puzzle: &'a Grid,
    /// The verdict (never [`Status::Invalid`]: an invalid record has no grid).
    pub status: Status,
    /// Solutions found, capped at the limit.
    pub solutions: u64,
    /// Branch decisions the solver made.
    pub guesses: u64,
    /// Time spent in the solver for this puzzle, in nanoseconds.
    pub time_ns: u64,
    /// The solution written in this row, if any.
    pub solution: Option<&'a Grid>,
}

impl SolvedRow<'_> {
    /// Append this row as one CSV line, then the `extra` fields: the same bytes as
    /// [`SolveRow::write_csv`] of [`Self::to_row`].
    pub fn write_csv<S: AsRef<[u8]>>(&self, out: &mut Vec<u8>, extra: impl IntoIterator<Item = S>) {
        RowBytes::appending_to(out, |rows| {
            self.fields(Text::Free(self.file.as_bytes()))
                .write_csv(rows, extra)
        });
    }

    /// Like [`Self::write_csv`], with the `file` column given as it is written:
    /// `self.file` already made a CSV field by [`push_field`]. A writer makes it once
    /// per input instead of checking the same name for quoting on every row.
    /// Written into gathered rows, the hot path.
    pub fn write_csv_with_file<S: AsRef<[u8]>>(
        &self,
        rows: &mut RowBytes,
        file_field: &[u8],
        extra: impl IntoIterator<Item = S>,
    ) {
        self.fields(Text::Plain(file_field)).write_csv(rows, extra);
    }

    #[inline]
    fn fields<'f>(&'f self, file: Text<'f>) -> Fields<'f> {
        Fields {
            file,
            line: self.line,
            puzzle: Text::Grid(self.puzzle),
            status: self.status,
            counts: [
                self.solutions,
                self.puzzle.clues() as u64,
                self.guesses,
                self.time_ns,
            ],
            solution: self.solution.map_or(Text::Plain(b""), Text::Grid),
            error: b"",
        }
    }

    /// The same row as a [`SolveRow`] (for the other output formats), its grids as
    /// text.
    pub fn to_row(&self) -> SolveRow<'_> {
        SolveRow {
            file: Cow::Borrowed(self.file),
            line: self.line,
            puzzle: Cow::Owned(self.puzzle.to_line()),
            status: self.status,
            solutions: self.solutions,
            clues: self.puzzle.clues() as u64,
            guesses: self.guesses,
            time_ns: self.time_ns,
            solution: Cow::Owned(self.solution.map(Grid::to_line).unwrap_or_default()),
            error: Cow::Borrowed(""),
        }
    }
}

/// One text field of a row, by what writing it takes.
#[derive(Clone, Copy)]
enum Text<'a> {
    /// Free text: quoted if it needs to be.
    Free(&'a [u8]),
    /// Text known never to need quoting (a normalised grid line, or empty).
    Plain(&'a [u8]),
    /// A grid, written as its 81-character line.
    Grid(&'a Grid),
}

/// The columns of [`SOLVE_COLUMNS`] ready to be written: the one place that lays a
/// row out, for [`SolveRow`] and [`SolvedRow`] alike.
struct Fields<'a> {
    file: Text<'a>,
    line: u64,
    puzzle: Text<'a>,
    status: Status,
    /// `solutions`, `clues`, `guesses`, `time_ns`.
    counts: [u64; 4],
    solution: Text<'a>,
    error: &'a [u8],
}

impl Fields<'_> {
    #[inline]
    fn write_csv<S: AsRef<[u8]>>(&self, rows: &mut RowBytes, extra: impl IntoIterator<Item = S>) {
        // Room for every column at once (numbers and the status at their longest,
        // free text with every byte a doubled quote), then no check per piece.
        let room = 5 * NUMBER
            + STATUS
            + 2 * CELLS
            + 9
            + self.file.most()
            + self.puzzle.most()
            + self.solution.most()
            + Text::Free(self.error).most();
        let mut row = rows.cursor(room);
        row.text(self.file);
        row.byte(b',');
        row.number(self.line);
        row.byte(b',');
        row.text(self.puzzle);
        row.byte(b',');
        row.status(self.status);
        for n in self.counts {
            row.byte(b',');
            row.number(n);
        }
        row.byte(b',');
        row.text(self.solution);
        row.byte(b',');
        row.text(Text::Free(self.error));
        let at = row.at;
        rows.used = at;
        for field in extra {
            let field = Text::Free(field.as_ref());
            let mut row = rows.cursor(1 + field.most());
            row.byte(b',');
            row.text(field);
            rows.used = row.at;
        }
        rows.cursor(1).byte(b'\n');
        rows.used += 1;
    }
}

impl Text<'_> {
    /// The most bytes the text can take written: a grid's cells, or every byte of free
    /// text a quote (doubled) between two quotes.
    #[inline(always)]
    fn most(&self) -> usize {
        match self {
            Text::Grid(_) => CELLS,
            Text::Plain(text) => text.len(),
            Text::Free(text) => 2 * text.len() + 2,
        }
    }
}

/// Digits of the longest `u64`.
const NUMBER: usize = 20;

/// Bytes of the longest status name, padded (see [`STATUS_NAMES`]).
const STATUS: usize = 10;

/// The least a [`RowBytes`] grows by when a row needs more room than it has.
const ROW_BUF: usize = 256;

/// Rows of text being gathered for an output, each written in place.
///
/// `solve` writes a row per puzzle. Through a `Vec`, each of a row's twenty-odd pieces
/// would cost a capacity check and a length update, and each piece of variable length
/// a call to `memcpy` for a few bytes; gathering the pieces in a stack buffer instead
/// costs zero-filling that buffer for every row and copying it over. Here the bytes
/// past the rows gathered so far are kept, initialised, from earlier rows (a `Vec`
/// whose length is the high-water mark, and a count of the bytes in use). A row makes
/// room for all its columns once, then a cursor writes them: stores into a slice
/// at a position held in a register, fixed-size copies, and digits written in place,
/// two per division; nothing is zero-filled or copied again.
#[derive(Debug, Clone, Default)]
pub struct RowBytes {
    /// Initialised bytes: the rows in `..used`, leftovers of earlier rows after it.
    buf: Vec<u8>,
    used: usize,
}

impl RowBytes {
    /// Empty, with room for `n` bytes of rows before it grows.
    pub fn with_capacity(n: usize) -> RowBytes {
        RowBytes {
            buf: vec![0; n],
            used: 0,
        }
    }

    /// The rows gathered.
    pub fn as_slice(&self) -> &[u8] {
        &self.buf[..self.used]
    }

    /// Bytes of rows gathered.
    pub fn len(&self) -> usize {
        self.used
    }

    /// True when no row is gathered.
    pub fn is_empty(&self) -> bool {
        self.used == 0
    }

    /// Forget the rows gathered (their bytes stay, to be written over).
    pub fn clear(&mut self) {
        self.used = 0;
    }

    /// Append `bytes` as they are (e.g. a row another writer made).
    pub fn extend_from_slice(&mut self, bytes: &[u8]) {
        let mut at = self.cursor(bytes.len());
        at.copy(bytes);
        self.used = at.at;
    }

    /// Append one CSV field, quoted when it needs to be (see [`push_field`]).
    pub fn push_field(&mut self, field: &[u8]) {
        let text = Text::Free(field);
        let mut at = self.cursor(text.most());
        at.text(text);
        self.used = at.at;
    }

    /// A cursor at the end of the rows, with room for `n` bytes after it. What it
    /// writes counts once `used` is set to its position.
    #[inline(always)]
    fn cursor(&mut self, n: usize) -> Cursor<'_> {
        if self.used + n > self.buf.len() {
            self.grow(n);
        }
        Cursor {
            buf: &mut self.buf[..],
            at: self.used,
        }
    }

    /// Room for `n` more bytes, by at least [`ROW_BUF`] (not by doubling: a vector lent
    /// by [`SolveRow::write_csv`] is grown for each row, and its `Vec` already grows
    /// its allocation geometrically).
    #[cold]
    fn grow(&mut self, n: usize) {
        self.buf.resize(self.used + n.max(ROW_BUF), 0);
    }

    /// Run `write` on a [`RowBytes`] over `out` (its bytes, as rows gathered), so that
    /// rows can be appended to a plain vector.
    fn appending_to(out: &mut Vec<u8>, write: impl FnOnce(&mut RowBytes)) {
        let mut rows = RowBytes {
            used: out.len(),
            buf: std::mem::take(out),
        };
        write(&mut rows);
        rows.buf.truncate(rows.used);
        *out = rows.buf;
    }
}

/// Where the next byte of a row goes, in a slice with room made for the whole row (by
/// [`RowBytes::cursor`]). Held in locals, so that each store is not followed by
/// reloading the position and the buffer from memory, as it would be through
/// `&mut RowBytes` (a byte store may alias anything).
struct Cursor<'b> {
    buf: &'b mut [u8],
    at: usize,
}

impl Cursor<'_> {
    #[inline(always)]
    fn byte(&mut self, b: u8) {
        self.buf[self.at] = b;
        self.at += 1;
    }

    #[inline(always)]
    fn copy(&mut self, bytes: &[u8]) {
        self.buf[self.at..self.at + bytes.len()].copy_from_slice(bytes);
        self.at += bytes.len();
    }

    /// The decimal text of `v`, its digits made from the end, two per division,
    /// straight into place (the count of digits is known first).
    #[inline(always)]
    fn number(&mut self, mut v: u64) {
        let digits = v.checked_ilog10().map_or(1, |d| d as usize + 1);
        let out = &mut self.buf[self.at..self.at + digits];
        let mut i = digits;
        while v >= 100 {
            let pair = 2 * (v % 100) as usize;
            v /= 100;
            i -= 2;
            out[i..i + 2].copy_from_slice(&DIGIT_PAIRS[pair..pair + 2]);
        }
        if v >= 10 {
            let pair = 2 * v as usize;
            out[..2].copy_from_slice(&DIGIT_PAIRS[pair..pair + 2]);
        } else {
            out[0] = b'0' + v as u8;
        }
        self.at += digits;
    }

    /// The name of `status`, copied at a fixed size from [`STATUS_NAMES`] (room for
    /// [`STATUS`] bytes).
    #[inline(always)]
    fn status(&mut self, status: Status) {
        let (name, len) = &STATUS_NAMES[status as usize];
        self.buf[self.at..self.at + STATUS].copy_from_slice(name);
        self.at += len;
    }

    #[inline(always)]
    fn text(&mut self, text: Text<'_>) {
        match text {
            Text::Grid(grid) => {
                let line: &mut [u8; CELLS] = (&mut self.buf[self.at..self.at + CELLS])
                    .try_into()
                    .expect("a slice of CELLS bytes");
                grid.write_line(line);
                self.at += CELLS;
            }
            Text::Plain(text) | Text::Free(text) if text.is_empty() => {}
            Text::Plain(text) => self.copy(text),
            Text::Free(text) if needs_quotes(text) => {
                self.byte(b'"');
                for &b in text {
                    if b == b'"' {
                        self.byte(b'"');
                    }
                    self.byte(b);
                }
                self.byte(b'"');
            }
            Text::Free(text) => self.copy(text),
        }
    }
}

/// Each status's name, by `Status as usize` (the order of [`Status::ALL`]), padded to a
/// fixed size, and its length.
static STATUS_NAMES: [([u8; STATUS], usize); 5] = {
    let mut t = [([0u8; STATUS], 0); 5];
    let mut i = 0;
    while i < Status::ALL.len() {
        let name = Status::ALL[i].as_str().as_bytes();
        let mut j = 0;
        while j < name.len() {
            t[i].0[j] = name[j];
            j += 1;
        }
        t[i].1 = name.len();
        i += 1;
    }
    t
};

/// Append one CSV field, quoted (with inner quotes doubled) when it holds a comma, a
/// quote or a line break, as the csv crate does by default.
pub fn push_field(out: &mut Vec<u8>, field: &[u8]) {
    RowBytes::appending_to(out, |rows| rows.push_field(field));
}

/// Whether a field holds a comma, a quote or a line break. Every row's file name goes
/// through here, so it is checked 16 bytes at a time (fixed lanes folded with `|`, no
/// early exit: a shape the compiler turns into SIMD compares).
#[inline]
fn needs_quotes(field: &[u8]) -> bool {
    let special = |b: u8| (b == b',') | (b == b'"') | (b == b'\n') | (b == b'\r');
    let mut lanes = [false; 16];
    let mut chunks = field.chunks_exact(16);
    for chunk in &mut chunks {
        for (lane, &b) in lanes.iter_mut().zip(chunk) {
            *lane |= special(b);
        }
    }
    lanes.iter().fold(false, |a, &b| a | b) || chunks.remainder().iter().any(|&b| special(b))
}

/// The two-digit numbers `00` to `99`, as text, one after another.
static DIGIT_PAIRS: [u8; 200] = {
    let mut t = [0u8; 200];
    let mut i = 0;
    while i < 100 {
        t[2 * i] = b'0' + (i / 10) as u8;
        t[2 * i + 1] = b'0' + (i % 10) as u8;
        i += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;

    fn row() -> SolveRow<'static> {
        SolveRow {
            file: "a, b.txt".into(),
            line: 18_446_744_073_709_551_615,
            puzzle: "1.3".into(),
            status: Status::Invalid,
            solutions: 0,
            clues: 10,
            guesses: 1234,
            time_ns: 0,
            solution: "".into(),
            error: "3 cells, expected 81".into(),
        }
    }

    #[test]
    fn hand_written_rows_match_serde_and_the_column_list() {
        let mut by_serde = csv::Writer::from_writer(Vec::new());
        by_serde.serialize(row()).unwrap();
        let by_serde = String::from_utf8(by_serde.into_inner().unwrap()).unwrap();

        let mut by_hand = format!("{}\n", SOLVE_COLUMNS.join(",")).into_bytes();
        row().write_csv(&mut by_hand, None::<&str>);
        let by_hand = String::from_utf8(by_hand).unwrap();
        assert_eq!(by_hand, by_serde);
        assert!(by_hand.contains("\"a, b.txt\",18446744073709551615,1.3,invalid,0,10,1234,0,,"));
    }

    #[test]
    fn rows_read_back() {
        let mut text = format!("{},id\n", SOLVE_COLUMNS.join(",")).into_bytes();
        row().write_csv(&mut text, ["x7"]);
        // Free text with quotes, commas and line breaks survives the round trip.
        let awkward = SolveRow {
            puzzle: "\"1,\n2\"".into(),
            error: "bad character '\"' at cell 1, \r\nand more".into(),
            ..row()
        };
        awkward.write_csv(&mut text, ["say \"hi\", twice"]);
        let mut rdr = csv::Reader::from_reader(text.as_slice());
        let headers = rdr.headers().unwrap().clone();
        let mut records = rdr.records();
        let rec = records.next().unwrap().unwrap();
        assert_eq!(&rec[10], "x7");
        let back: SolveRow = rec.deserialize(Some(&headers)).unwrap();
        assert_eq!(back, row());
        let rec = records.next().unwrap().unwrap();
        assert_eq!(&rec[10], "say \"hi\", twice");
        let back: SolveRow = rec.deserialize(Some(&headers)).unwrap();
        assert_eq!(back, awkward);
        assert!(records.next().is_none());
    }

    #[test]
    fn numbers_statuses_and_quoting_match_std_and_csv() {
        let mut values = vec![0, 1, 9, 10, 11, 99, 100, 101, 999, 1000, 12_345, u64::MAX];
        values.extend((0..64).map(|k| 1u64 << k));
        values.extend((1..20).map(|k| 10u64.pow(k) - 1));
        // Numbers and statuses, at the end of the room there is and past it, over
        // bytes left by longer text (which must not show through).
        for start in [0, ROW_BUF - 25, ROW_BUF - 3, ROW_BUF] {
            let mut rows = RowBytes::default();
            let fill = |rows: &mut RowBytes| {
                rows.clear();
                rows.extend_from_slice(&vec![b'9'; start + 40]);
                rows.clear();
                rows.extend_from_slice(&vec![b'-'; start]);
            };
            for v in &values {
                fill(&mut rows);
                let mut at = rows.cursor(NUMBER);
                at.number(*v);
                rows.used = at.at;
                assert_eq!(&rows.as_slice()[start..], v.to_string().as_bytes(), "{v}");
            }
            for (i, status) in Status::ALL.into_iter().enumerate() {
                assert_eq!(status as usize, i);
                fill(&mut rows);
                let mut at = rows.cursor(STATUS);
                at.status(status);
                rows.used = at.at;
                assert_eq!(&rows.as_slice()[start..], status.as_str().as_bytes());
            }
        }
        for text in [
            "",
            "a",
            "a,b",
            "x\"",
            "0123456789abcdef",
            "0123456789abcdef,",
        ] {
            for pad in [0, 15, 16, 17, 40] {
                let field = format!("{}{text}", "p".repeat(pad));
                let mut by_csv = csv::Writer::from_writer(Vec::new());
                // A second field, since csv quotes a lone empty field (`""`).
                by_csv.write_record([field.as_str(), "z"]).unwrap();
                let mut by_hand = Vec::new();
                push_field(&mut by_hand, field.as_bytes());
                by_hand.extend_from_slice(b",z\n");
                assert_eq!(by_hand, by_csv.into_inner().unwrap(), "{field:?}");
            }
        }
    }

    #[test]
    fn solved_rows_write_the_bytes_of_their_solve_rows() {
        let puzzle: Grid =
            "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
                .parse()
                .unwrap();
        let solution = crate::solve(&puzzle, 1).first.unwrap();
        for (file, solution) in [("x.txt", Some(&solution)), ("a, \"b\".txt", None)] {
            let solved = SolvedRow {
                file,
                line: 1_234_567,
                puzzle: &puzzle,
                status: Status::Unique,
                solutions: 1,
                guesses: 56,
                time_ns: 98_765,
                solution,
            };
            let (mut fast, mut text) = (Vec::new(), Vec::new());
            solved.write_csv(&mut fast, ["k1", "k,2"]);
            solved.to_row().write_csv(&mut text, ["k1", "k,2"]);
            let text = String::from_utf8(text).unwrap();
            assert_eq!(String::from_utf8(fast).unwrap(), text);
            let mut field = Vec::new();
            push_field(&mut field, file.as_bytes());
            // Gathered rows, after a longer row whose bytes stay behind the rows.
            let mut given = RowBytes::with_capacity(8);
            given.extend_from_slice(&[b'#'; 600]);
            given.clear();
            solved.write_csv_with_file(&mut given, &field, ["k1", "k,2"]);
            assert_eq!(String::from_utf8(given.as_slice().to_vec()).unwrap(), text);
            solved.write_csv_with_file(&mut given, &field, None::<&str>);
            let (first, second) = given.as_slice().split_at(text.len());
            assert_eq!(first, text.as_bytes());
            assert!(text.as_bytes().starts_with(&second[..second.len() - 1]));
            assert_eq!(second.iter().filter(|&&b| b == b'\n').count(), 1);
        }
    }

    #[test]
    fn statuses_from_counts() {
        assert_eq!(Status::from_count(0, false), Status::Unsolvable);
        assert_eq!(Status::from_count(1, false), Status::Unique);
        assert_eq!(Status::from_count(2, false), Status::Multiple);
        assert_eq!(Status::from_count(0, true), Status::Unsolvable);
        assert_eq!(Status::from_count(1, true), Status::Solved);
        for s in Status::ALL {
            assert_eq!(serde_json::to_string(&s).unwrap(), format!("\"{s}\""));
        }
    }
}
