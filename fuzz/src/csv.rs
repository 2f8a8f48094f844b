//! The CSV format: a tokenizer of our own (RFC 4180 as the `csv` crate reads it: `,`
//! between fields, `"` quotes with `""` inside, a record ends at CR, LF or CRLF, blank
//! lines and `#` lines at a record's start are skipped, fields trimmed), and from its
//! records exactly what the reader must return, down to the line each record starts on
//! and the line each error names.

use bulkdoku::input::MAX_RECORD;

use crate::text::{named_line, Text};
use crate::{ensure, Rec};

/// A record as the tokenizer finds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// The line its first byte is on.
    pub line: u64,
    /// Its fields, trimmed of ASCII blanks.
    pub fields: Vec<Vec<u8>>,
    /// Offset in the text of its first byte.
    pub start: usize,
    /// Offset in the text just past its last byte (its line end included).
    pub end: usize,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    StartRecord,
    StartField,
    InField,
    Quoted,
    /// A `"` inside a quoted field: a second one is a literal quote, anything else
    /// ends the quoting.
    QuoteInQuoted,
    Comment,
    /// After a CR that ended a record: an LF here belongs to it.
    AfterCr,
}

/// Split `text` into records.
pub fn rows(text: &Text) -> Vec<Row> {
    let mut out = Vec::new();
    let mut state = State::StartRecord;
    let mut fields: Vec<Vec<u8>> = Vec::new();
    let mut field = Vec::new();
    // The line and offset where the record being read starts.
    let mut start = (0u64, 0usize);
    let end_record =
        |fields: &mut Vec<Vec<u8>>, field: &mut Vec<u8>, out: &mut Vec<Row>, (line, start), end| {
            fields.push(std::mem::take(field));
            let fields = std::mem::take(fields)
                .into_iter()
                .map(|f| f.trim_ascii().to_vec())
                .collect();
            out.push(Row {
                line,
                fields,
                start,
                end,
            });
        };
    // The `csv` crate drops a BOM at the start of what it reads: a second one, after
    // the one the stream dropped.
    let skip = if text.norm.starts_with(b"\xEF\xBB\xBF") {
        3
    } else {
        0
    };
    for (i, &b) in text.norm.iter().enumerate().skip(skip) {
        let term = b == b'\r' || b == b'\n';
        if state == State::AfterCr {
            state = State::StartRecord;
            if b == b'\n' {
                continue;
            }
        }
        match state {
            State::StartRecord => {
                if term {
                    continue;
                }
                if b == b'#' {
                    state = State::Comment;
                    start = (text.line_of(i) as u64, i);
                    continue;
                }
                start = (text.line_of(i) as u64, i);
                state = State::StartField;
            }
            State::Comment => {
                if b == b'\n' {
                    state = State::StartRecord;
                }
                continue;
            }
            _ => {}
        }
        state = match (state, b) {
            (State::StartField, b'"') => State::Quoted,
            (State::Quoted, b'"') => State::QuoteInQuoted,
            (State::Quoted, _) => {
                field.push(b);
                State::Quoted
            }
            (State::QuoteInQuoted, b'"') => {
                field.push(b);
                State::Quoted
            }
            (_, b',') => {
                fields.push(std::mem::take(&mut field));
                State::StartField
            }
            (_, b'\r' | b'\n') => {
                end_record(&mut fields, &mut field, &mut out, start, i + 1);
                if b == b'\r' {
                    State::AfterCr
                } else {
                    State::StartRecord
                }
            }
            _ => {
                field.push(b);
                State::InField
            }
        };
    }
    if matches!(
        state,
        State::StartField | State::InField | State::Quoted | State::QuoteInQuoted
    ) {
        end_record(&mut fields, &mut field, &mut out, start, text.norm.len());
    }
    out
}

/// The column a header names `wanted`: the first named exactly so, else ignoring case.
fn find(header: &[String], wanted: &str) -> Option<usize> {
    header
        .iter()
        .position(|h| h == wanted)
        .or_else(|| header.iter().position(|h| h.eq_ignore_ascii_case(wanted)))
}

/// The puzzle column of a header: the first named `quizzes`, else `puzzle`, else
/// `question`, each matched exactly before ignoring case.
pub fn puzzle_column(header: &[String]) -> Option<usize> {
    ["quizzes", "puzzle", "question"]
        .iter()
        .find_map(|c| find(header, c))
}

/// The line a "record too long" error names: the line `row` starts on (its content,
/// past the blank and comment lines before it).
fn too_long_line(row: &Row, msg: &str) -> Result<(), String> {
    let line = named_line(msg).ok_or_else(|| format!("error names no line: {msg}"))?;
    ensure!(
        line == row.line,
        "{msg}: expected line {}, where the record starts",
        row.line
    );
    Ok(())
}

/// Whether `msg` is the reader's "record too long" error. Judged by the reason that
/// follows `name:line: `, not by a substring: other errors quote header names, which
/// may hold any text, that one included (found by the detect target).
fn runs_over(msg: &str) -> bool {
    named_line(msg).is_some_and(|_| {
        msg.split_once(": ").is_some_and(|(_, reason)| {
            reason.starts_with("broken CSV: the record starting here runs over")
        })
    })
}

fn lossy(f: &[u8]) -> String {
    String::from_utf8_lossy(f).into_owned()
}

/// Check what a CSV reader returned (`refused`: `open_reader`'s error; else `headers`,
/// `got` and the error that ended reading) against the tokenizer's records.
pub fn check(
    text: &Text,
    refused: Option<&str>,
    headers: Option<&[String]>,
    got: &[Rec],
    error: Option<&str>,
) -> Result<(), String> {
    let rows = rows(text);
    let header: Vec<String> = rows
        .first()
        .map_or_else(Vec::new, |r| r.fields.iter().map(|f| lossy(f)).collect());
    if let Some(msg) = refused.filter(|m| runs_over(m)) {
        // The header itself never ends (a quote left open): refused at its line, when
        // it runs over MAX_RECORD bytes.
        let first = rows.first().ok_or("no header, yet one too long")?;
        ensure!(
            first.end > MAX_RECORD,
            "header at line {} of {} bytes refused: {msg}",
            first.line,
            first.end
        );
        return too_long_line(first, msg);
    }
    let Some(column) = puzzle_column(&header) else {
        let msg = refused.ok_or("no puzzle column, yet the reader opened")?;
        ensure!(
            msg.contains("no puzzle column"),
            "refused for another reason: {msg}"
        );
        // With no record at all, any line will do; with a header, its own.
        let line = named_line(msg).ok_or_else(|| format!("error names no line: {msg}"))?;
        if let Some(first) = rows.first() {
            ensure!(line == first.line, "header on line {}: {msg}", first.line);
        }
        return Ok(());
    };
    if let Some(msg) = refused {
        return Err(format!("refused with a puzzle column {column}: {msg}"));
    }
    ensure!(
        headers == Some(&header[..]),
        "headers {headers:?}, expected {header:?}"
    );
    let mut want_error = None;
    let mut want = Vec::new();
    for row in &rows[1..] {
        if row.fields.len() != header.len() {
            want_error = Some((
                row.line,
                format!(
                    "broken CSV: {} fields, expected {} as in the header",
                    row.fields.len(),
                    header.len()
                ),
            ));
            break;
        }
        // A field holding a line end is a quote left open swallowing rows: in the
        // puzzle column, or together with a comma (a swallowed row).
        let swallowed = row.fields[column].contains(&b'\n')
            || row
                .fields
                .iter()
                .any(|f| f.contains(&b'\n') && f.contains(&b','));
        if swallowed {
            want_error = Some((
                row.line,
                "broken CSV: a quoted field runs over several lines".to_string(),
            ));
            break;
        }
        let field = |c: Option<usize>| c.map_or_else(Vec::new, |c| row.fields[c].clone());
        want.push(Rec {
            line: row.line,
            cells: row.fields[column].clone(),
            fields: row.fields.iter().map(|f| lossy(f)).collect(),
            error: None,
            rules: field(find(&header, "rules")),
            regions: field(find(&header, "regions")),
        });
    }
    let lines = |r: &[Rec]| r.iter().map(|r| r.line).collect::<Vec<_>>();
    if let Some(msg) = error.filter(|m| runs_over(m)) {
        // The reader gives up on a record once it has read `MAX_RECORD` and its read-
        // ahead past the record's start (blank and comment lines before it skipped): a
        // quote never closed. It may do so only for a record longer than `MAX_RECORD`.
        let k = got.len();
        ensure!(
            k <= want.len() && got == &want[..k],
            "records at lines {:?} before a record too long, expected {:?}",
            lines(got),
            lines(&want)
        );
        let next = rows
            .get(k + 1)
            .ok_or_else(|| format!("no record after line {:?}, yet {msg}", lines(got).last()))?;
        ensure!(
            next.end - next.start > MAX_RECORD,
            "a record of {} bytes at line {} is too long: {msg}",
            next.end - next.start,
            next.line
        );
        return too_long_line(next, msg);
    }
    ensure!(
        got == want,
        "records at lines {:?}, expected {:?}; first difference: {:?}",
        lines(got),
        lines(&want),
        got.iter().zip(&want).find(|(g, w)| g != w)
    );
    match (error, want_error) {
        (None, None) => Ok(()),
        (Some(msg), Some((line, what))) => {
            ensure!(
                named_line(msg) == Some(line) && msg.contains(&what),
                "error {msg:?}, expected line {line}: {what}"
            );
            Ok(())
        }
        (got, want) => Err(format!("error {got:?}, expected {want:?}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summary(text: &[u8]) -> Vec<(u64, Vec<String>)> {
        rows(&Text::new(text))
            .into_iter()
            .map(|r| (r.line, r.fields.iter().map(|f| lossy(f)).collect()))
            .collect()
    }

    #[test]
    fn only_the_reason_marks_a_record_too_long() {
        assert!(runs_over(
            "fuzz:3: broken CSV: the record starting here runs over 65536 bytes"
        ));
        // A header name quoted in another error is not that error.
        assert!(!runs_over(
            "fuzz:1: no puzzle column: expected one named puzzle; columns: the record starting here runs over"
        ));
        assert!(!runs_over("broken CSV: the record starting here runs over"));
    }

    #[test]
    fn quotes_comments_blank_lines_and_line_ends() {
        let got = summary(b"a, b\r\n\r\n# c\n\"x\ny\",\"q\"\"\"\n #d,e\n\"p\"q,\n");
        assert_eq!(
            got,
            [
                (1, vec!["a".to_string(), "b".into()]),
                (4, vec!["x\ny".into(), "q\"".into()]),
                (6, vec!["#d".into(), "e".into()]),
                (7, vec!["pq".into(), "".into()]),
            ]
        );
        assert_eq!(
            summary(b"a,\"open\nb\n"),
            [(1, vec!["a".into(), "open\nb".into()])]
        );
        assert_eq!(
            summary(b"a\rb"),
            [(1, vec!["a".into()]), (2, vec!["b".into()])]
        );
    }
}
