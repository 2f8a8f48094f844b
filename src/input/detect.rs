//! Format detection: which reader suits a dataset, judged from its first lines.
//!
//! Each of the first meaningful (non-blank, non-comment) lines is classified on its own
//! and the classes vote; the first line alone decides for the formats whose first line
//! is unmistakable (a board literal, a CSV header).

use super::InputFormat;
use crate::grid::cell_value;

/// Column names that hold the puzzle in known CSV datasets, in order of preference.
pub(crate) const PUZZLE_COLUMNS: [&str; 3] = ["quizzes", "puzzle", "question"];

/// How many meaningful lines detection looks at, at most.
pub(crate) const SAMPLE_LINES: usize = 20;

/// What one line looks like.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shape {
    /// Starts a board literal: `[`, `[[` after some text, or an `Input:` prefix.
    Board,
    /// A CSV header row.
    Header,
    /// 81 cells, then nothing or a delimiter.
    Puzzle,
    /// 9 cells, possibly space-separated: one row of a grid block.
    Row,
    /// A short number, as the case count of POJ 2676.
    Count,
    /// Anything else.
    Other,
}

/// The line-format delimiters that may follow a puzzle's 81 cells.
#[inline]
pub(crate) fn is_delimiter(byte: u8) -> bool {
    // Bitwise `|`, not `matches!`'s branches, so that scans over many bytes vectorise.
    (byte == b' ')
        | (byte == b'\t')
        | (byte == b',')
        | (byte == b';')
        | (byte == b':')
        | (byte == b'|')
}

/// Detect the format of a text whose first bytes are `head` (BOM already removed; the
/// last line may be incomplete). `column` is the `--column` name, if any.
pub(crate) fn detect(head: &[u8], column: Option<&str>) -> InputFormat {
    let mut lines = head
        .split(|&b| b == b'\n')
        .map(<[u8]>::trim_ascii)
        .filter(|l| !l.is_empty() && l[0] != b'#')
        .take(SAMPLE_LINES)
        .map(|l| shape(l, column));
    let Some(first) = lines.next() else {
        return InputFormat::Lines;
    };
    match first {
        Shape::Board => return InputFormat::Board,
        Shape::Header => return InputFormat::Csv,
        _ => {}
    }
    let (mut puzzles, mut rows) = (0, 0);
    for s in std::iter::once(first).chain(lines) {
        match s {
            Shape::Puzzle => puzzles += 1,
            Shape::Row => rows += 1,
            _ => {}
        }
    }
    if rows > puzzles || (puzzles == 0 && first == Shape::Count) {
        InputFormat::Grid
    } else {
        InputFormat::Lines
    }
}

/// Classify one trimmed, non-empty line.
fn shape(line: &[u8], column: Option<&str>) -> Shape {
    if line[0] == b'['
        || starts_with_ignore_case(line, b"input:")
        || memchr::memmem::find(line, b"[[").is_some()
    {
        return Shape::Board;
    }
    if is_header(line, column) {
        return Shape::Header;
    }
    let token_len = line
        .iter()
        .position(|&b| is_delimiter(b))
        .unwrap_or(line.len());
    let token = &line[..token_len];
    if token.len() == 81 && token.iter().all(|&b| cell_value(b).is_some()) {
        return Shape::Puzzle;
    }
    if line.iter().all(u8::is_ascii_digit) && line.len() < 9 && (line.len() == 1 || line[0] != b'0')
    {
        return Shape::Count;
    }
    let mut cells = 0;
    for &b in line {
        if b.is_ascii_whitespace() {
            continue;
        }
        if cell_value(b).is_none() {
            return Shape::Other;
        }
        cells += 1;
    }
    if cells == 9 {
        Shape::Row
    } else {
        Shape::Other
    }
}

/// Whether `line` reads as a CSV header: a field named like a puzzle column (or the
/// `--column` name), or comma-separated fields whose first one is a name rather than
/// cells (`id,puzzle,...`).
fn is_header(line: &[u8], column: Option<&str>) -> bool {
    let fields: Vec<&[u8]> = line
        .split(|&b| b == b',')
        .map(|f| {
            let f = f.trim_ascii();
            f.strip_prefix(b"\"")
                .and_then(|f| f.strip_suffix(b"\""))
                .unwrap_or(f)
        })
        .collect();
    let named = |f: &[u8]| {
        column.is_some_and(|c| f.eq_ignore_ascii_case(c.as_bytes()))
            || PUZZLE_COLUMNS
                .iter()
                .any(|c| f.eq_ignore_ascii_case(c.as_bytes()))
    };
    if fields.iter().any(|f| named(f)) {
        return true;
    }
    fields.len() > 1
        && fields[0].first().is_some_and(u8::is_ascii_alphabetic)
        && fields.iter().all(|f| {
            f.iter()
                .all(|&b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b' ' | b'.'))
        })
}

fn starts_with_ignore_case(line: &[u8], prefix: &[u8]) -> bool {
    line.len() >= prefix.len() && line[..prefix.len()].eq_ignore_ascii_case(prefix)
}
