//! The one-puzzle-per-line format: a model of exactly what the reader returns.

use bulkdoku::input::MAX_RECORD;

use crate::text::{is_meaningful, Text};
use crate::{ensure, Rec};

/// What the lines reader must return for a line: its first token after leading
/// blanks, up to a space, tab, `,` `;` `:` `|` or the CR of a CRLF. A line longer than
/// `MAX_RECORD` bytes keeps only that many bytes (blanks and all); if its token runs to
/// that cut, the record says the line is too long.
pub fn expected(line: &[u8]) -> (Vec<u8>, bool) {
    let (kept, cut) = if line.len() > MAX_RECORD {
        (&line[..MAX_RECORD], true)
    } else {
        (line, false)
    };
    let start = kept
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(kept.len());
    let token = &kept[start..];
    let end = token
        .iter()
        .position(|&b| matches!(b, b' ' | b'\t' | b',' | b';' | b':' | b'|' | b'\r'))
        .unwrap_or(token.len());
    (token[..end].to_vec(), cut && end == token.len())
}

/// Whether a line is a record of the lines reader (and a meaningful line of the grid
/// reader). A line is judged by the `MAX_RECORD` bytes the reader keeps of it: a
/// comment if they start with `#` after blanks; a record if they hold anything else,
/// or if they are all blanks and the line goes on past them (a line that long is no
/// blank line, whatever follows: FINDING F6, fixed).
pub fn is_record_line(line: &[u8]) -> bool {
    let kept = &line[..line.len().min(MAX_RECORD)];
    is_meaningful(kept) || (line.len() > MAX_RECORD && kept.trim_ascii().is_empty())
}

/// The records of `text` read as lines: one per meaningful line, in order, numbered by
/// line. `skip_first` drops the first (a one-word header).
pub fn model(text: &Text, skip_first: bool) -> Vec<Rec> {
    let mut out: Vec<Rec> = text
        .lines()
        .filter(|(_, l)| is_record_line(l))
        .map(|(n, l)| {
            let (cells, long) = expected(l);
            Rec {
                line: n as u64,
                cells,
                error: long.then(String::new),
                ..Rec::default()
            }
        })
        .collect();
    if skip_first && !out.is_empty() {
        out.remove(0);
    }
    out
}

/// Whether a line is the one-word header that detection takes as a header over lines
/// (`puzzle`, any case, perhaps quoted): the reader then skips it.
pub fn is_word_header(line: &[u8]) -> bool {
    let t = line.trim_ascii();
    if t.contains(&b',') {
        return false;
    }
    let t = t
        .strip_prefix(b"\"")
        .and_then(|t| t.strip_suffix(b"\""))
        .unwrap_or(t);
    ["quizzes", "puzzle", "question"]
        .iter()
        .any(|c| t.eq_ignore_ascii_case(c.as_bytes()))
}

/// Check the records of a lines reader against the model. With `header_allowed`
/// (format detection) the first meaningful line may be missing when it is a one-word
/// header.
pub fn check(text: &Text, got: &[Rec], header_allowed: bool) -> Result<(), String> {
    let mut want = model(text, false);
    if header_allowed && want.len() == got.len() + 1 {
        let first = text.line(want[0].line as usize);
        ensure!(
            is_word_header(first),
            "line {} is missing and is no header: {:?}",
            want[0].line,
            String::from_utf8_lossy(first)
        );
        want.remove(0);
    }
    ensure!(
        got.len() == want.len(),
        "{} records for {} meaningful lines: lines {:?}",
        got.len(),
        want.len(),
        got.iter().map(|r| r.line).collect::<Vec<_>>()
    );
    for (g, w) in got.iter().zip(&want) {
        ensure!(
            g.line == w.line && g.cells == w.cells,
            "record at line {} {:?}, expected line {} {:?}",
            g.line,
            String::from_utf8_lossy(&g.cells),
            w.line,
            String::from_utf8_lossy(&w.cells)
        );
        ensure!(
            g.fields.is_empty() && g.rules.is_empty() && g.regions.is_empty(),
            "line {}: fields {:?}, rules {:?}, regions {:?}",
            g.line,
            g.fields,
            g.rules,
            g.regions
        );
        // The only reason the lines reader itself gives: a line cut at MAX_RECORD.
        match (&g.error, &w.error) {
            (None, None) => {}
            (Some(e), Some(_)) if e.contains("line longer than") => {}
            (e, _) => return Err(format!("line {}: error {e:?}", g.line)),
        }
        ensure!(
            g.cells.len() <= MAX_RECORD,
            "line {}: cells too long",
            g.line
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens() {
        assert_eq!(expected(b"  12 3").0, b"12");
        assert_eq!(expected(b"12\r").0, b"12");
        assert_eq!(expected(b"a|b").0, b"a");
        assert_eq!(expected(b"\x0ca\x0c").0, b"a\x0c");
        let text = Text::new(b"# c\n\n x\r\npuzzle\r9");
        let m = model(&text, false);
        let lines: Vec<u64> = m.iter().map(|r| r.line).collect();
        assert_eq!(lines, [3, 4, 5]);
        // A line of blanks longer than the cap is a record (an empty one, too long).
        let mut long = vec![b' '; MAX_RECORD + 1];
        long.extend_from_slice(b"\n# c\n");
        let m = model(&Text::new(&long), false);
        assert_eq!(m.len(), 1);
        assert!(m[0].cells.is_empty() && m[0].error.is_some());
        assert!(is_word_header(b" \"Puzzle\" "));
        assert!(!is_word_header(b"puzzle,x"));
    }
}
