//! Format detection: which reader accounts for a dataset's content, judged from a large
//! sample of its first lines.
//!
//! Each format counts the meaningful (non-blank, non-comment) lines of the sample that
//! it would read as records of its own shape ([`Accounted`]); the format that accounts
//! for the most lines wins. The block formats, whose readers group lines (9-line grids)
//! or read only what is inside brackets (board literals), win only when they account
//! for every meaningful line of the sample: one line that merely looks like another
//! format (a title starting with `[`, a first line `Input: ...`) can no longer switch a
//! whole file of one-puzzle lines to a reader that would skip them. When nothing
//! accounts for anything, the file is read as lines, where every line becomes a record,
//! valid or not: nothing is ever skipped unseen.

use super::InputFormat;
use crate::grid::cell_value;

/// Column names that hold the puzzle in known CSV datasets, in order of preference.
pub(crate) const PUZZLE_COLUMNS: [&str; 3] = ["quizzes", "puzzle", "question"];

/// How many meaningful lines detection looks at, at most. (Fewer when built for
/// fuzzing, so that a fuzz input gets past the sample in a few lines: the logic is the
/// same, and the fuzz targets run many times faster.)
#[cfg(not(fuzzing))]
pub(crate) const SAMPLE_LINES: usize = 1000;
#[cfg(fuzzing)]
pub(crate) const SAMPLE_LINES: usize = 16;

/// What detection decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Detected {
    /// The reader to use.
    pub(crate) format: InputFormat,
    /// For [`InputFormat::Lines`]: the first meaningful line is a CSV-style header
    /// naming the puzzle column (`puzzle`), not a record.
    pub(crate) header: bool,
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

/// Meaningful lines of the sample each format accounts for.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
struct Accounted {
    lines: usize,
    csv: usize,
    grid: usize,
    board: usize,
    /// Meaningful lines in the sample.
    total: usize,
}

/// Detect the format of a text whose first bytes are `head` (BOM already removed);
/// `whole` when `head` is the whole input, else its last line may be cut short and is
/// not judged. `column` is the `--column` name, if any.
pub(crate) fn detect(head: &[u8], whole: bool, column: Option<&str>) -> Detected {
    let complete = match head.iter().rposition(|&b| b == b'\n') {
        Some(end) if !whole => &head[..=end],
        _ => head,
    };
    let sample: Vec<&[u8]> = complete
        .split(|&b| b == b'\n')
        .map(<[u8]>::trim_ascii)
        .filter(|l| !l.is_empty() && l[0] != b'#')
        .take(SAMPLE_LINES)
        .collect();
    let counts = account(&sample, whole, column);
    let lines = Detected {
        format: InputFormat::Lines,
        header: sample.first().is_some_and(|l| is_word_header(l, column)),
    };
    if counts.total == 0 {
        return lines;
    }
    // Block formats only when their structure holds throughout.
    if counts.board == counts.total {
        return detected(InputFormat::Board);
    }
    if counts.grid == counts.total {
        return detected(InputFormat::Grid);
    }
    // Otherwise whichever accounts for more; on a tie CSV, which also accounts for its
    // header row.
    if counts.csv > 0 && counts.csv >= counts.lines {
        detected(InputFormat::Csv)
    } else {
        lines
    }
}

fn detected(format: InputFormat) -> Detected {
    Detected {
        format,
        header: false,
    }
}

/// Count what each format accounts for in the sample's meaningful lines.
fn account(sample: &[&[u8]], whole: bool, column: Option<&str>) -> Accounted {
    let mut counts = Accounted {
        total: sample.len(),
        ..Accounted::default()
    };
    let header = sample.first().filter(|l| is_header(l, column));
    // Lines: every line whose first token is 81 cells (and a one-word header naming
    // the puzzle column, which the lines reader then skips).
    let word_header = sample.first().is_some_and(|l| is_word_header(l, column));
    counts.lines = sample.iter().filter(|l| is_puzzle_line(l)).count() + usize::from(word_header);
    // CSV: a header, then rows with as many fields (or, with a one-column header,
    // puzzles).
    if let Some(header) = header {
        let width = fields(header).count();
        counts.csv = 1 + sample[1..]
            .iter()
            .filter(|l| {
                if width > 1 {
                    fields(l).count() == width
                } else {
                    is_cells(l, 81)
                }
            })
            .count();
    }
    counts.grid = grid_lines(sample);
    counts.board = board_lines(sample, whole);
    counts
}

/// Lines that belong to 9-line grid blocks: 9-cell rows (optionally space-separated),
/// after an optional case count as the first line. Zero without any row.
fn grid_lines(sample: &[&[u8]]) -> usize {
    let mut lines = sample.iter();
    let mut counted = 0;
    if sample.first().is_some_and(|l| is_count(l)) {
        lines.next();
        counted = 1;
    }
    let rows = lines.filter(|l| is_grid_row(l)).count();
    if rows == 0 {
        0
    } else {
        counted + rows
    }
}

/// Lines that a board-literal reader accounts for: lines inside or opening a bracketed
/// list, and label lines around them (`Input: board =`, `Example 1:`) that hold too
/// few cell characters to be data. A line with a puzzle's worth of cell characters
/// outside any bracket (`<81 cells> [[note]]`) is data the board reader would skip, so
/// it is not accounted. Zero without a list of lists (a board), or when a bracket of a
/// sample that is the whole input is never closed.
fn board_lines(sample: &[&[u8]], whole: bool) -> usize {
    let (mut depth, mut nested, mut counted) = (0usize, false, 0);
    for line in sample {
        let mut outside_cells = 0;
        for &b in *line {
            match b {
                b'[' => {
                    depth += 1;
                    nested |= depth >= 2;
                }
                b']' => depth = depth.saturating_sub(1),
                _ if depth == 0 && (b.is_ascii_digit() || b == b'.') => outside_cells += 1,
                _ => {}
            }
        }
        if outside_cells < 9 {
            counted += 1;
        }
    }
    if nested && !(whole && depth > 0) {
        counted
    } else {
        0
    }
}

/// The comma-separated fields of a line, trimmed and unquoted (detection only: a comma
/// inside double quotes does not split, as in `"x,anti-knight"`, but `""` escapes are
/// left as they are).
fn fields(line: &[u8]) -> impl Iterator<Item = &[u8]> {
    let mut quoted = false;
    line.split(move |&b| {
        if b == b'"' {
            quoted = !quoted;
        }
        b == b',' && !quoted
    })
    .map(|f| {
        let f = f.trim_ascii();
        f.strip_prefix(b"\"")
            .and_then(|f| f.strip_suffix(b"\""))
            .unwrap_or(f)
    })
}

/// Whether `text` is exactly `n` cell characters.
fn is_cells(text: &[u8], n: usize) -> bool {
    text.len() == n && text.iter().all(|&b| cell_value(b).is_some())
}

/// Whether the line's first token (up to a delimiter) is 81 cells.
fn is_puzzle_line(line: &[u8]) -> bool {
    let token_len = line
        .iter()
        .position(|&b| is_delimiter(b))
        .unwrap_or(line.len());
    is_cells(&line[..token_len], 81)
}

/// A case count line: a short decimal number (a row of 9 has 9 characters, and rows
/// often start with `0`, counts don't).
pub(crate) fn is_count(line: &[u8]) -> bool {
    !line.is_empty()
        && line.len() < 9
        && line.iter().all(u8::is_ascii_digit)
        && (line.len() == 1 || line[0] != b'0')
}

/// Whether a line is one row of a grid block: 9 cells, possibly space-separated.
pub(crate) fn is_grid_row(line: &[u8]) -> bool {
    let mut cells = 0;
    for &b in line {
        if b.is_ascii_whitespace() {
            continue;
        }
        if cell_value(b).is_none() {
            return false;
        }
        cells += 1;
    }
    cells == 9
}

/// Whether `line` is a one-column header: the name of a puzzle column alone.
fn is_word_header(line: &[u8], column: Option<&str>) -> bool {
    fields(line).count() == 1 && is_header(line, column)
}

/// Whether `line` reads as a CSV header: a field named like a puzzle column (or the
/// `--column` name), or comma-separated fields whose first one is a name rather than
/// cells (`id,puzzle,...`).
pub(crate) fn is_header(line: &[u8], column: Option<&str>) -> bool {
    let named = |f: &[u8]| {
        column.is_some_and(|c| f.eq_ignore_ascii_case(c.as_bytes()))
            || PUZZLE_COLUMNS
                .iter()
                .any(|c| f.eq_ignore_ascii_case(c.as_bytes()))
    };
    if fields(line).any(named) {
        return true;
    }
    fields(line).count() > 1
        && line.first().is_some_and(u8::is_ascii_alphabetic)
        && fields(line).all(|f| {
            f.iter()
                .all(|&b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b' ' | b'.'))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    const P: &str =
        "103000509002109400000704000300502006060000050700803004000401000009205800804000107";

    fn format_of(text: &str) -> InputFormat {
        detect(text.as_bytes(), true, None).format
    }

    #[test]
    fn one_odd_line_does_not_switch_a_file_of_puzzle_lines() {
        let puzzles = format!("{P}\n").repeat(30);
        for odd in [
            "[Hardest puzzles, 2024 edition]".to_string(),
            format!("{P} [[rated]]"),
            "Input: the forum's hardest".to_string(),
            "1".to_string(),
            format!("{}\n{}", &P[..9], &P[9..18]),
        ] {
            for text in [
                format!("{odd}\n{puzzles}"),
                format!("{puzzles}{odd}\n{puzzles}"),
            ] {
                assert_eq!(format_of(&text), InputFormat::Lines, "{text:.120}");
            }
        }
    }

    #[test]
    fn a_one_word_header_over_rated_lines_is_a_skipped_header_of_lines() {
        let text = format!("puzzle\n{P} ED=11.9/1.2/1.2\n").repeat(1);
        let got = detect(text.as_bytes(), true, None);
        assert_eq!(
            got,
            Detected {
                format: InputFormat::Lines,
                header: true
            }
        );
        // A one-column CSV of bare puzzles reads the same either way; CSV it is.
        assert_eq!(format_of(&format!("puzzle\n{P}\n")), InputFormat::Csv);
    }

    #[test]
    fn block_formats_need_their_structure_throughout() {
        let grid: String = P
            .as_bytes()
            .chunks(9)
            .map(|r| format!("{}\n", std::str::from_utf8(r).unwrap()))
            .collect();
        assert_eq!(format_of(&format!("1\n{grid}")), InputFormat::Grid);
        assert_eq!(format_of(&format!("{grid}\n{grid}")), InputFormat::Grid);
        assert_eq!(format_of(&format!("{grid}{P}\n")), InputFormat::Lines);
        assert_eq!(format_of("12345\n"), InputFormat::Lines);
        let board = "[[\"5\",\"3\",\".\"],\n[\".\",\".\",\".\"]]\n";
        assert_eq!(format_of(board), InputFormat::Board);
        assert_eq!(
            format_of(&format!("Input: board = {board}Output: {board}")),
            InputFormat::Board
        );
        assert_eq!(format_of(&format!("{board}{P}\n")), InputFormat::Lines);
        // A lone bracket is no board.
        assert_eq!(format_of("12\u{1b}[2J34\n"), InputFormat::Lines);
        assert_eq!(format_of("[[\"5\",\"3\"]\n"), InputFormat::Lines);
    }

    #[test]
    fn a_comma_inside_quotes_does_not_split_a_csv_field() {
        // A rule list is quoted in a `rules` column; its comma is no field separator,
        // or rows that start with their puzzle would count as lines and win.
        let text = format!(
            "puzzle,solution,rules,regions\n{}",
            format!("{P},{P},\"x,anti-knight\",\n").repeat(3)
        );
        assert_eq!(format_of(&text), InputFormat::Csv);
        assert_eq!(
            fields(b"a,\"b,c\",d").collect::<Vec<_>>(),
            [&b"a"[..], b"b,c", b"d"]
        );
        assert_eq!(fields(b"a,\"b\"\"c,d\"").count(), 2);
    }

    #[test]
    fn the_cut_last_line_of_a_sample_is_not_judged() {
        // Three puzzles, then the start of a fourth that looks like a grid row.
        let text = format!("{}{}", format!("{P}\n").repeat(3), &P[..9]);
        let cut = detect(text.as_bytes(), false, None);
        assert_eq!(cut.format, InputFormat::Lines);
        assert_eq!(
            super::account(&[&P.as_bytes()[..9]], true, None).grid,
            1,
            "judged whole, that line is a grid row"
        );
    }
}
