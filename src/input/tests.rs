//! Tests of format detection and every reader, through [`open`] on real files.

use std::io::{Read, Write};
use std::path::Path;

use super::*;
use crate::Grid;

const POJ: &str =
    "103000509002109400000704000300502006060000050700803004000401000009205800804000107";
const LUOGU: &str =
    "800000000003600000070090200050007000000045700000100030001000068008500010090000400";
const LEETCODE: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
const ZERO_ROWS: &str =
    "009008040600000017010040000000000004480603021300000000000090080240000006050700100";

/// A record as the tests compare it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Rec {
    line: u64,
    cells: String,
    error: Option<String>,
    fields: Vec<String>,
}

fn rec(line: u64, cells: &str) -> Rec {
    Rec {
        line,
        cells: cells.to_string(),
        error: None,
        fields: vec![],
    }
}

fn bad(line: u64, cells: &str, error: &str) -> Rec {
    Rec {
        error: Some(error.to_string()),
        ..rec(line, cells)
    }
}

fn write_temp(bytes: &[u8]) -> tempfile::NamedTempFile {
    let mut file = tempfile::NamedTempFile::new().unwrap();
    file.write_all(bytes).unwrap();
    file.flush().unwrap();
    file
}

fn read_all_from(path: &Path, options: &InputOptions) -> anyhow::Result<(InputFormat, Vec<Rec>)> {
    let mut reader = open(Some(path), options)?;
    let mut record = Record::default();
    let mut out = Vec::new();
    while reader.read_record(&mut record)? {
        out.push(Rec {
            line: record.line,
            cells: String::from_utf8_lossy(&record.cells).into_owned(),
            error: record.error.clone(),
            fields: record.fields.clone(),
        });
    }
    // The end is sticky.
    assert!(!reader.read_record(&mut record)?);
    Ok((reader.format(), out))
}

fn read_with(bytes: &[u8], options: &InputOptions) -> anyhow::Result<(InputFormat, Vec<Rec>)> {
    let file = write_temp(bytes);
    read_all_from(file.path(), options)
}

fn read(bytes: &[u8]) -> (InputFormat, Vec<Rec>) {
    read_with(bytes, &InputOptions::default()).unwrap()
}

fn forced(format: InputFormat) -> InputOptions {
    InputOptions {
        format,
        ..InputOptions::default()
    }
}

/// The reason the caller would report for a record: the reader's, else the parser's.
fn reason(r: &Rec) -> Option<String> {
    r.error.clone().or_else(|| {
        Grid::parse_puzzle(r.cells.as_bytes())
            .err()
            .map(|e| e.to_string())
    })
}

/// 9 lines of 9 characters from an 81-character puzzle, `sep` between the cells.
fn rows(puzzle: &str, sep: &str) -> String {
    let mut s = String::new();
    for row in puzzle.as_bytes().chunks(9) {
        let cells: Vec<String> = row.iter().map(|&b| (b as char).to_string()).collect();
        s.push_str(&cells.join(sep));
        s.push('\n');
    }
    s
}

/// LeetCode's literal for an 81-character puzzle.
fn board(puzzle: &str) -> String {
    let rows: Vec<String> = puzzle
        .as_bytes()
        .chunks(9)
        .map(|row| {
            let cells: Vec<String> = row.iter().map(|&b| format!("\"{}\"", b as char)).collect();
            format!("[{}]", cells.join(","))
        })
        .collect();
    format!("[{}]", rows.join(",\n"))
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    enc.write_all(bytes).unwrap();
    enc.finish().unwrap()
}

// ---- lines ----

#[test]
fn lines_comments_blanks_crlf_bom_and_trailing_fields() {
    let text = format!(
        "\u{feff}# a comment\n\n{POJ}\r\n  {LUOGU} ED=11.9/1.2/1.2\r\n\
         {ZERO_ROWS}\t7\n   \n# another\n{POJ},x\n{POJ};x\n{POJ}:1:{LUOGU}\n{POJ}|x\n\
         {}\n{}",
        LUOGU.replace('0', "."),
        LUOGU.replace('0', "_"),
    );
    let (format, got) = read(text.as_bytes());
    assert_eq!(format, InputFormat::Lines);
    let want = vec![
        rec(3, POJ),
        rec(4, LUOGU),
        rec(5, ZERO_ROWS),
        rec(8, POJ),
        rec(9, POJ),
        rec(10, POJ),
        rec(11, POJ),
        rec(12, &LUOGU.replace('0', ".")),
        rec(13, &LUOGU.replace('0', "_")),
    ];
    assert_eq!(got, want);
    assert!(got.iter().all(|r| reason(r).is_none()));
}

#[test]
fn lines_malformed_records_keep_their_line_and_lose_nothing() {
    let short = &POJ[..80];
    let with_x = format!("{}x{}", &POJ[..11], &POJ[12..]);
    let text = format!("{POJ}\n{short}\n{with_x}\nhello world\n{LUOGU}\n{POJ}0\n{LUOGU}");
    let (_, got) = read(text.as_bytes());
    let lines: Vec<u64> = got.iter().map(|r| r.line).collect();
    assert_eq!(lines, [1, 2, 3, 4, 5, 6, 7]);
    let reasons: Vec<Option<String>> = got.iter().map(reason).collect();
    assert_eq!(
        reasons,
        [
            None,
            Some("80 cells, expected 81".into()),
            Some("bad character 'x' at cell 12".into()),
            Some("bad character 'h' at cell 1".into()),
            None,
            Some("82 cells, expected 81".into()),
            None,
        ]
    );
    assert_eq!(got[3].cells, "hello");
}

#[test]
fn lines_overlong_line_is_one_bad_record_and_reading_goes_on() {
    let mut text = vec![b'1'; 200_000];
    text.push(b'\n');
    text.extend_from_slice(POJ.as_bytes());
    let (_, got) = read(&text);
    assert_eq!(got.len(), 2);
    assert_eq!(got[0].line, 1);
    assert!(got[0]
        .error
        .as_deref()
        .unwrap()
        .contains("line longer than"));
    assert_eq!(got[1], rec(2, POJ));
}

#[test]
fn lines_across_buffer_boundaries_in_every_shape() {
    // Far more than the reader's buffer, so that lines of every shape straddle its end
    // and both the in-buffer path and the slow path are taken.
    let shapes = [
        format!("{POJ}\n"),
        format!("{LUOGU}\r\n"),
        format!("{ZERO_ROWS} ED=1.2/1.2/1.2\n"),
        "# comment\n".to_string(),
        "\r\n".to_string(),
        format!("  {POJ}\t9\n"),
        format!("{}\n", &LUOGU[..40]),
    ];
    let mut text = String::new();
    let mut want = Vec::new();
    for i in 0..60_000 {
        // An irregular order, so that each shape meets each other one.
        text.push_str(&shapes[(i * 5 + i / 7) % shapes.len()]);
    }
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let token = t.split([' ', '\t']).next().unwrap();
        want.push(rec(i as u64 + 1, token));
    }
    let (_, got) = read(text.as_bytes());
    assert!(text.len() > 3 << 20);
    assert_eq!(got.len(), want.len());
    assert_eq!(got, want);
}

#[test]
fn lines_reader_reuses_the_record_and_clears_stale_state() {
    let file = write_temp(format!("{POJ}\n{LUOGU}\n").as_bytes());
    let mut reader = open(Some(file.path()), &InputOptions::default()).unwrap();
    let mut record = Record {
        line: 99,
        cells: b"junk".to_vec(),
        fields: vec!["stale".into()],
        error: Some("stale".into()),
        rules: b"x".to_vec(),
        regions: b"stale".to_vec(),
    };
    assert!(reader.read_record(&mut record).unwrap());
    assert_eq!(
        record,
        Record {
            line: 1,
            cells: POJ.as_bytes().to_vec(),
            ..Record::default()
        }
    );
}

#[test]
fn empty_and_comment_only_inputs_have_no_records() {
    for text in ["", "\n\n", "# only a comment\n", "\u{feff}"] {
        let (_, got) = read(text.as_bytes());
        assert!(got.is_empty(), "{text:?}");
    }
}

// ---- detection ----

#[test]
fn detection_picks_each_format() {
    let cases: Vec<(String, InputFormat)> = vec![
        (format!("{POJ}\n"), InputFormat::Lines),
        (format!("# c\n{POJ} rating\n"), InputFormat::Lines),
        (format!("{POJ},{LUOGU}\n"), InputFormat::Lines),
        (
            format!("quizzes,solutions\n{POJ},{LUOGU}\n"),
            InputFormat::Csv,
        ),
        (
            format!("id,puzzle,solution,clues,difficulty\n1,{POJ},{LUOGU},24,1.0\n"),
            InputFormat::Csv,
        ),
        (format!("Puzzle\n{POJ}\n"), InputFormat::Csv),
        (format!("1\n{}", rows(POJ, "")), InputFormat::Grid),
        (rows(LUOGU, " "), InputFormat::Grid),
        (rows(&LUOGU.replace('0', "."), ""), InputFormat::Grid),
        (board(LEETCODE), InputFormat::Board),
        (
            format!("Input: board = {}", board(LEETCODE)),
            InputFormat::Board,
        ),
        // A short malformed first line does not outvote the puzzles after it.
        (format!("12345\n{POJ}\n{LUOGU}\n"), InputFormat::Lines),
    ];
    for (text, want) in cases {
        let (format, _) = read_with(text.as_bytes(), &InputOptions::default())
            .unwrap_or_else(|e| panic!("{text:?}: {e:#}"));
        assert_eq!(format, want, "{text:?}");
    }
}

#[test]
fn column_option_makes_a_header_with_that_name_csv() {
    let text = format!("grid,answer\n{POJ},{LUOGU}\n");
    let options = InputOptions {
        column: Some("answer".into()),
        ..InputOptions::default()
    };
    let (format, got) = read_with(text.as_bytes(), &options).unwrap();
    assert_eq!(format, InputFormat::Csv);
    assert_eq!(got[0].cells, LUOGU);
}

#[test]
fn forced_format_overrides_detection() {
    // A CSV read as lines: its header becomes an invalid record, not an error.
    let text = format!("quizzes,solutions\n{POJ},{LUOGU}\n");
    let (format, got) = read_with(text.as_bytes(), &forced(InputFormat::Lines)).unwrap();
    assert_eq!(format, InputFormat::Lines);
    assert_eq!(got, vec![rec(1, "quizzes"), rec(2, POJ)]);
}

// ---- CSV ----

#[test]
fn csv_kaggle_quizzes_solutions() {
    let text = format!("quizzes,solutions\r\n{POJ},{LUOGU}\r\n{ZERO_ROWS},{POJ}\r\n");
    let file = write_temp(text.as_bytes());
    let mut reader = open(Some(file.path()), &InputOptions::default()).unwrap();
    assert_eq!(
        reader.headers().unwrap(),
        ["quizzes".to_string(), "solutions".to_string()]
    );
    let mut record = Record::default();
    assert!(reader.read_record(&mut record).unwrap());
    assert_eq!(record.line, 2);
    assert_eq!(record.cells, POJ.as_bytes());
    assert_eq!(record.fields, [POJ, LUOGU]);
    assert!(reader.read_record(&mut record).unwrap());
    assert_eq!(record.line, 3);
    assert_eq!(record.fields, [ZERO_ROWS, POJ]);
    assert!(!reader.read_record(&mut record).unwrap());
}

#[test]
fn csv_puzzle_column_by_name_with_quotes_multiline_fields_and_comments() {
    let text = format!(
        "\u{feff}id,Puzzle,solution,clues,difficulty\n\
         1,{POJ},{LUOGU},24,0.0\n\
         # a comment line\n\
         \"2\",\"{LUOGU}\",,21,\"two\nlines\"\n\
         3,{ZERO_ROWS},,25,1.5\n"
    );
    let (format, got) = read(text.as_bytes());
    assert_eq!(format, InputFormat::Csv);
    let lines: Vec<u64> = got.iter().map(|r| r.line).collect();
    assert_eq!(lines, [2, 4, 6]);
    let cells: Vec<&str> = got.iter().map(|r| r.cells.as_str()).collect();
    assert_eq!(cells, [POJ, LUOGU, ZERO_ROWS]);
    assert_eq!(got[1].fields, ["2", LUOGU, "", "21", "two\nlines"]);
}

#[test]
fn csv_column_option_picks_the_column_ignoring_case() {
    let text = format!("puzzle,Other\n{POJ},{LUOGU}\n");
    let options = InputOptions::new().format(InputFormat::Csv).column("other");
    let (_, got) = read_with(text.as_bytes(), &options).unwrap();
    assert_eq!(got[0].cells, LUOGU);
}

#[test]
fn csv_without_puzzle_column_is_an_error_naming_file_and_line() {
    let file = write_temp(format!("id,grid\n1,{POJ}\n").as_bytes());
    let err = read_all_from(file.path(), &forced(InputFormat::Csv)).unwrap_err();
    let msg = format!("{err:#}");
    assert!(
        msg.contains(&format!("{}:1: no puzzle column", file.path().display())),
        "{msg}"
    );
    assert!(msg.contains("id, grid"), "{msg}");

    let options = InputOptions::new().format(InputFormat::Csv).column("nope");
    let msg = format!("{:#}", read_all_from(file.path(), &options).unwrap_err());
    assert!(msg.contains("no column named \"nope\""), "{msg}");
}

#[test]
fn csv_broken_row_is_an_error_naming_its_line() {
    let text = format!("quizzes,solutions\n{POJ},{LUOGU}\n\n{POJ}\n{POJ},{LUOGU}\n");
    let file = write_temp(text.as_bytes());
    let mut reader = open(Some(file.path()), &InputOptions::default()).unwrap();
    let mut record = Record::default();
    assert!(reader.read_record(&mut record).unwrap());
    let msg = format!("{:#}", reader.read_record(&mut record).unwrap_err());
    assert!(
        msg.contains(&format!("{}:4: broken CSV", file.path().display())),
        "{msg}"
    );
    assert!(msg.contains("1 fields, expected 2"), "{msg}");
}

#[test]
fn csv_unclosed_quote_is_an_error_not_lost_rows() {
    let cases = [
        // In the puzzle column.
        (format!("id,quizzes\n1,{POJ}\n2,\"{LUOGU}\n3,{POJ}\n"), 1, 3),
        // In a later column: the rows after it would vanish into that field.
        (
            format!("quizzes,solutions\n{POJ},\"x\n{LUOGU},y\n{POJ},z\n"),
            0,
            2,
        ),
    ];
    for (text, good, line) in cases {
        let file = write_temp(text.as_bytes());
        let mut reader = open(Some(file.path()), &InputOptions::default()).unwrap();
        let mut record = Record::default();
        for _ in 0..good {
            assert!(reader.read_record(&mut record).unwrap());
        }
        let msg = format!("{:#}", reader.read_record(&mut record).unwrap_err());
        assert!(msg.contains(&format!(":{line}: broken CSV")), "{msg}");
    }
}

// ---- grid blocks ----

#[test]
fn grid_poj_with_case_count() {
    let text = format!("2\n{}{}", rows(POJ, ""), rows(ZERO_ROWS, ""));
    let (format, got) = read(text.as_bytes());
    assert_eq!(format, InputFormat::Grid);
    assert_eq!(got, vec![rec(2, POJ), rec(11, ZERO_ROWS)]);
}

#[test]
fn grid_luogu_spaces_trailing_spaces_crlf_and_blank_separators() {
    let luogu = rows(LUOGU, " ").replace('\n', " \r\n");
    let dotted = rows(&POJ.replace('0', "."), "");
    let text = format!("\n{luogu}\r\n\n{dotted}\n# c\n{}", rows(ZERO_ROWS, "  "));
    let (_, got) = read(text.as_bytes());
    assert_eq!(
        got,
        vec![
            rec(2, LUOGU),
            rec(13, &POJ.replace('0', ".")),
            rec(24, ZERO_ROWS)
        ]
    );
}

#[test]
fn grid_short_and_ragged_blocks_resynchronise_at_blank_lines() {
    let short: String = rows(POJ, "")
        .lines()
        .take(7)
        .map(|l| format!("{l}\n"))
        .collect();
    let mut ragged: Vec<String> = rows(LUOGU, "").lines().map(String::from).collect();
    ragged[2].pop();
    let ragged = ragged.join("\n");
    let text = format!(
        "{short}\n{ragged}\n\n{}\n{}",
        rows(ZERO_ROWS, ""),
        rows(POJ, " ")
    );
    let (_, got) = read_with(text.as_bytes(), &forced(InputFormat::Grid)).unwrap();
    assert_eq!(got.len(), 4, "{got:?}");
    assert_eq!(got[0], bad(1, &POJ[..63], "grid block: 7 rows, expected 9"));
    assert_eq!(got[1].line, 9);
    assert_eq!(
        got[1].error.as_deref(),
        Some("grid block: row 3 has 8 cells, expected 9")
    );
    assert_eq!(got[2], rec(19, ZERO_ROWS));
    assert_eq!(got[3], rec(29, POJ));
}

#[test]
fn grid_trailing_partial_block_is_reported() {
    let text = format!("{}103000509\n002109400\n", rows(POJ, ""));
    let (_, got) = read(text.as_bytes());
    assert_eq!(
        got,
        vec![
            rec(1, POJ),
            bad(10, "103000509002109400", "grid block: 2 rows, expected 9")
        ]
    );
}

// ---- board literals ----

#[test]
fn board_single_multiline_literal() {
    let (format, got) = read(board(LEETCODE).as_bytes());
    assert_eq!(format, InputFormat::Board);
    assert_eq!(got, vec![rec(1, LEETCODE)]);
}

#[test]
fn board_several_in_outer_list_or_separated_with_prefix_text() {
    let one_line = board(POJ).replace('\n', "");
    let text = format!(
        "Input: board = {}\nOutput: nothing here\n{one_line},\n\n[{},\n{}]\n",
        board(LEETCODE),
        board(LUOGU),
        board(ZERO_ROWS)
    );
    let (format, got) = read(text.as_bytes());
    assert_eq!(format, InputFormat::Board);
    assert_eq!(
        got,
        vec![
            rec(1, LEETCODE),
            rec(11, POJ),
            rec(13, LUOGU),
            rec(22, ZERO_ROWS)
        ]
    );
}

#[test]
fn board_unquoted_and_single_quoted_cells() {
    let text = board(LEETCODE).replace('"', "'");
    let (_, got) = read_with(text.as_bytes(), &forced(InputFormat::Board)).unwrap();
    assert_eq!(got, vec![rec(1, LEETCODE)]);
    let text = board(POJ).replace('"', "");
    let (_, got) = read_with(text.as_bytes(), &forced(InputFormat::Board)).unwrap();
    assert_eq!(got, vec![rec(1, POJ)]);
}

#[test]
fn board_malformed_boards_are_records_with_reasons_and_the_next_survive() {
    // Row 3 lacks a cell.
    let short_row = board(LEETCODE).replacen("\"8\",", "", 1);
    // Only 8 rows.
    let eight_rows = {
        let b = board(POJ);
        let cut = b.rfind(",\n").unwrap();
        format!("{}]", &b[..cut])
    };
    // A cell of two characters.
    let wide = board(LUOGU).replacen("\"8\"", "\"88\"", 1);
    // Row 2 never closed: the repair closes it at the next `[`.
    let unclosed_row = board(ZERO_ROWS).replacen("\"7\"],", "\"7\",", 1);
    // A board never closed before the next one.
    let unclosed_board = board(POJ).trim_end_matches(']').to_string() + "]";
    let text = [
        short_row,
        eight_rows,
        wide,
        unclosed_row,
        unclosed_board,
        board(LEETCODE),
    ]
    .join("\n");
    let (_, got) = read_with(text.as_bytes(), &forced(InputFormat::Board)).unwrap();
    let summary: Vec<(u64, Option<String>)> =
        got.iter().map(|r| (r.line, r.error.clone())).collect();
    assert_eq!(
        summary,
        vec![
            (
                1,
                Some("board literal: row 3 has 8 cells, expected 9".into())
            ),
            (10, Some("board literal: 8 rows, expected 9".into())),
            (
                18,
                Some("board literal: row 1, column 1: \"88\" is not one cell".into())
            ),
            (27, Some("board literal: a row is not closed".into())),
            (
                36,
                Some("board literal: not closed before the next board".into())
            ),
            (45, None),
        ]
    );
    assert_eq!(got[5].cells, LEETCODE);
    // The repaired row keeps its cells.
    assert_eq!(got[3].cells, ZERO_ROWS);
}

#[test]
fn board_cut_at_end_of_input_is_a_record() {
    let text = board(LEETCODE);
    // Cut after a row, and inside a string.
    let after_row = text.find("],\n").unwrap() + 2;
    let in_string = text.find("\"9\"").unwrap() + 1;
    for (cut, reason) in [
        (
            after_row,
            "board literal: '[' not closed at the end of input",
        ),
        (in_string, "board literal: a string is not closed"),
    ] {
        let (_, got) = read_with(&text.as_bytes()[..cut], &forced(InputFormat::Board)).unwrap();
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].line, 1);
        assert_eq!(got[0].error.as_deref(), Some(reason));
    }
}

#[test]
fn board_pathological_nesting_does_not_blow_up() {
    let text = format!(
        "{}{}\n{}",
        "[".repeat(100_000),
        "]".repeat(100_000),
        board(POJ)
    );
    let (_, got) = read_with(text.as_bytes(), &forced(InputFormat::Board)).unwrap();
    assert_eq!(got.last(), Some(&rec(2, POJ)));
}

// ---- compression, progress, errors ----

#[test]
fn gzip_input_of_every_format() {
    let inputs = [
        (
            format!("# c\n{POJ}\n{LUOGU} x\n"),
            vec![rec(2, POJ), rec(3, LUOGU)],
        ),
        (format!("1\n{}", rows(POJ, "")), vec![rec(2, POJ)]),
        (board(LEETCODE), vec![rec(1, LEETCODE)]),
    ];
    for (text, want) in inputs {
        let (_, got) = read(&gzip(text.as_bytes()));
        assert_eq!(got, want, "{text:?}");
    }
    let (format, got) = read(&gzip(format!("quizzes\n{POJ}\n").as_bytes()));
    assert_eq!(format, InputFormat::Csv);
    assert_eq!(got[0].cells, POJ);
}

#[test]
fn gzip_concatenated_members_are_all_read() {
    let mut bytes = gzip(format!("{POJ}\n").as_bytes());
    bytes.extend(gzip(format!("{LUOGU}\n").as_bytes()));
    let (_, got) = read(&bytes);
    assert_eq!(got, vec![rec(1, POJ), rec(2, LUOGU)]);
}

#[test]
fn zstd_input_single_and_multiple_frames_and_skippable_frames() {
    let one = include_bytes!("../../tests/fixtures/two_puzzles.txt.zst");
    let (_, got) = read(one);
    let want = vec![rec(2, POJ), rec(3, LUOGU)];
    assert_eq!(got, want);

    let two = include_bytes!("../../tests/fixtures/three_puzzles_two_frames.txt.zst");
    let (_, got) = read(two);
    let mut want3 = want.clone();
    want3.push(rec(4, ZERO_ROWS));
    assert_eq!(got, want3);

    // A skippable frame (magic 0x184D2A5?, a length, that many bytes) before the data.
    let mut skippable = vec![0x53, 0x2A, 0x4D, 0x18, 3, 0, 0, 0, b'a', b'b', b'c'];
    skippable.extend_from_slice(one);
    let (_, got) = read(&skippable);
    assert_eq!(got, want);
}

#[test]
fn non_file_sources_plain_and_compressed_like_stdin() {
    let text = format!("# c\n{POJ}\n{LUOGU}\n");
    let zstd = include_bytes!("../../tests/fixtures/two_puzzles.txt.zst").to_vec();
    for bytes in [text.clone().into_bytes(), gzip(text.as_bytes()), zstd] {
        let size = bytes.len() as u64;
        // A reader that hands out a few bytes at a time, as a pipe may.
        let trickle = Trickle(std::io::Cursor::new(bytes));
        let mut reader = open_reader(trickle, "-", &InputOptions::default()).unwrap();
        assert_eq!(reader.total_bytes(), None);
        let mut record = Record::default();
        let mut got = Vec::new();
        while reader.read_record(&mut record).unwrap() {
            got.push((
                record.line,
                String::from_utf8(record.cells.clone()).unwrap(),
            ));
        }
        assert_eq!(got, [(2, POJ.to_string()), (3, LUOGU.to_string())]);
        assert_eq!(reader.bytes_read(), size);
    }
}

/// A reader that returns at most 7 bytes per read.
struct Trickle<R>(R);

impl<R: std::io::Read> std::io::Read for Trickle<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = buf.len().min(7);
        self.0.read(&mut buf[..n])
    }
}

/// Every record the file holds whole before an error, and the error's text.
fn read_until_error(path: &Path) -> (Vec<Rec>, String) {
    let mut reader = open(Some(path), &InputOptions::default()).unwrap();
    let mut record = Record::default();
    let mut got = Vec::new();
    loop {
        match reader.read_record(&mut record) {
            Ok(true) => got.push(rec(
                record.line,
                std::str::from_utf8(&record.cells).unwrap(),
            )),
            Ok(false) => return (got, String::new()),
            Err(e) => return (got, format!("{e:#}")),
        }
    }
}

/// Lines of distinct text, so that a record's line shows it is the right one.
fn numbered_puzzles(n: usize) -> String {
    (0..n).map(|i| format!("{}{i:08}\n", &POJ[..73])).collect()
}

#[test]
fn damaged_gzip_and_zstd_keep_every_record_before_the_damage() {
    let text = numbered_puzzles(60_000);
    let zstd = zstd::encode_all(text.as_bytes(), 3).unwrap();
    for (format, bytes) in [("gzip", gzip(text.as_bytes())), ("zstd", zstd)] {
        for cut in [bytes.len() / 2, bytes.len() - 3] {
            let file = write_temp(&bytes[..cut]);
            let (got, msg) = read_until_error(file.path());
            let name = file.path().display().to_string();
            // What the reference decoder makes of the same bytes, whole lines only.
            let mut decoded = Vec::new();
            let _ = match format {
                "gzip" => {
                    flate2::read::MultiGzDecoder::new(&bytes[..cut]).read_to_end(&mut decoded)
                }
                _ => zstd::stream::read::Decoder::new(&bytes[..cut])
                    .unwrap()
                    .read_to_end(&mut decoded),
            };
            let whole = decoded.iter().filter(|&&b| b == b'\n').count();
            assert!(
                whole > 0,
                "{format} at {cut}: the reference decodes nothing"
            );
            assert_eq!(got.len(), whole, "{format} cut at {cut} of {}", bytes.len());
            for (i, r) in got.iter().enumerate() {
                assert_eq!(r.line, i as u64 + 1);
                assert_eq!(r.cells, format!("{}{i:08}", &POJ[..73]));
            }
            let want = format!("{name}:{}: corrupt {format} data", whole + 1);
            assert!(msg.starts_with(&want), "{msg:?} should start with {want:?}");
        }
    }
}

#[test]
fn unsupported_compression_is_a_clear_error() {
    let file = write_temp(b"\xFD7zXZ\x00\x00\x04rest");
    let err = read_all_from(file.path(), &InputOptions::default()).unwrap_err();
    assert!(format!("{err:#}").contains("xz-compressed input is not supported"));
}

#[test]
fn missing_file_is_an_error_naming_it() {
    let err = open(
        Some(Path::new("/nonexistent/puzzles.txt")),
        &InputOptions::default(),
    )
    .err()
    .unwrap();
    assert!(format!("{err:#}").contains("/nonexistent/puzzles.txt"));
}

#[test]
fn progress_counts_raw_bytes_up_to_the_file_size() {
    let text = format!("{POJ}\n").repeat(50_000);
    for bytes in [text.clone().into_bytes(), gzip(text.as_bytes())] {
        let file = write_temp(&bytes);
        let mut reader = open(Some(file.path()), &InputOptions::default()).unwrap();
        assert_eq!(reader.total_bytes(), Some(bytes.len() as u64));
        let mut record = Record::default();
        let mut n = 0;
        while reader.read_record(&mut record).unwrap() {
            n += 1;
            assert!(reader.bytes_read() <= bytes.len() as u64);
        }
        assert_eq!(n, 50_000);
        assert_eq!(reader.bytes_read(), bytes.len() as u64);
    }
}

#[test]
fn inputs_and_display_names() {
    assert_eq!(inputs(&[]), vec![None]);
    let files = [PathBuf::from("a.txt"), PathBuf::from("-")];
    assert_eq!(inputs(&files), vec![Some(PathBuf::from("a.txt")), None]);
    assert_eq!(display_name(None), "-");
    assert_eq!(display_name(Some(Path::new("a.txt"))), "a.txt");
}

// ---- the seed articles' examples ----

#[test]
fn seed_files_read_to_their_puzzles() {
    let seeds = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/data/seeds"));
    let cases = [
        ("luogu_p1784.txt", InputFormat::Grid, LUOGU, 1),
        ("poj2676.txt", InputFormat::Grid, POJ, 2),
        ("leetcode37.txt", InputFormat::Board, LEETCODE, 1),
        (
            "backtracking_zero_rows.txt",
            InputFormat::Grid,
            ZERO_ROWS,
            1,
        ),
    ];
    let mut names: Vec<String> = std::fs::read_dir(seeds)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".txt"))
        .collect();
    names.sort();
    let mut expected: Vec<String> = cases.iter().map(|c| c.0.to_string()).collect();
    expected.sort();
    assert_eq!(names, expected, "every seed file has a case here");
    for (name, format, puzzle, line) in cases {
        let (got_format, got) = read_all_from(&seeds.join(name), &InputOptions::default()).unwrap();
        assert_eq!(got_format, format, "{name}");
        assert_eq!(got, vec![rec(line, puzzle)], "{name}");
        let grid = Grid::parse_puzzle(got[0].cells.as_bytes()).unwrap();
        assert_eq!(grid, puzzle.parse::<Grid>().unwrap(), "{name}");
    }
}

// ---- nothing is skipped unseen, and no record is unbounded ----

/// Every meaningful line of `text` ends up in some record: the lines the records start
/// at, and, for the one-puzzle-per-line reader, one record per line.
#[test]
fn odd_lines_in_a_file_of_puzzles_are_invalid_records_not_a_format_switch() {
    let puzzles = format!("{POJ}\n{LUOGU}\n").repeat(20);
    for odd in [
        "[Hardest puzzles of the forum, 2024]".to_string(),
        format!("{ZERO_ROWS} [[see the notes]]"),
        "Input: the forum's hardest".to_string(),
        "1".to_string(),
    ] {
        let text = format!("{odd}\n{puzzles}");
        let (format, got) = read(text.as_bytes());
        assert_eq!(format, InputFormat::Lines, "{odd}");
        assert_eq!(got.len(), 41, "{odd}");
        let lines: Vec<u64> = got.iter().map(|r| r.line).collect();
        assert_eq!(lines, (1..=41).collect::<Vec<u64>>(), "{odd}");
        assert_eq!(got[1], rec(2, POJ));
    }
}

#[test]
fn a_one_word_header_over_rated_lines_is_skipped_and_the_lines_read() {
    let text = format!("puzzle\n{POJ} ED=11.9/1.2/1.2\n{LUOGU} ED=10.1/1.2/1.2\n");
    let (format, got) = read(text.as_bytes());
    assert_eq!(format, InputFormat::Lines);
    assert_eq!(got, vec![rec(2, POJ), rec(3, LUOGU)]);
}

#[test]
fn lone_cr_line_ends_split_records() {
    let text = format!("{POJ}\r{LUOGU}\r{ZERO_ROWS}\r");
    let (_, got) = read(text.as_bytes());
    assert_eq!(got, vec![rec(1, POJ), rec(2, LUOGU), rec(3, ZERO_ROWS)]);
    let csv = format!("quizzes,solutions\r{POJ},\r{LUOGU},\r");
    let (format, got) = read(csv.as_bytes());
    assert_eq!(format, InputFormat::Csv);
    assert_eq!(got.len(), 2);
}

#[test]
fn grid_lines_that_are_not_rows_are_records_of_their_own() {
    let text = format!(
        "Sudoku, chapter 1\n{}{}A note in the middle\n{}",
        rows(POJ, " "),
        &rows(LUOGU, "")[..30],
        rows(ZERO_ROWS, "")
    );
    let (_, got) = read_with(text.as_bytes(), &forced(InputFormat::Grid)).unwrap();
    let summary: Vec<(u64, Option<&str>)> =
        got.iter().map(|r| (r.line, r.error.as_deref())).collect();
    assert_eq!(
        summary,
        vec![
            (1, Some("not a grid row: expected 9 cells")),
            (2, None),
            (11, Some("grid block: 3 rows, expected 9")),
            (14, Some("not a grid row: expected 9 cells")),
            (15, None),
        ]
    );
    assert_eq!(got[0].cells, "Sudoku, chapter 1");
    assert_eq!(got[4].cells, ZERO_ROWS);
}

#[test]
fn board_data_outside_any_list_is_an_invalid_record() {
    let text = format!(
        "Example 1:\nInput: board = {}\n{POJ}\nOutput: {}\n",
        board(LEETCODE),
        board(POJ)
    );
    let (format, got) = read_with(text.as_bytes(), &forced(InputFormat::Board)).unwrap();
    assert_eq!(format, InputFormat::Board);
    let summary: Vec<(u64, Option<&str>)> =
        got.iter().map(|r| (r.line, r.error.as_deref())).collect();
    assert_eq!(
        summary,
        vec![
            (2, None),
            (11, Some("text outside a board literal")),
            (12, None)
        ]
    );
    assert_eq!(got[1].cells, POJ);
}

/// Fuzzing found it: after the BOM the stream drops, `csv` drops a second one; a first
/// line holding only that BOM is blank to it, and the header's line (named by errors)
/// is the one after, whatever the read sizes.
#[test]
fn a_csv_header_after_a_line_of_only_a_bom_is_named_at_its_own_line() {
    let opts = forced(InputFormat::Csv);
    let text = "\u{feff}\u{feff}\n\n\u{feff}\u{feff}id\n1\n";
    let whole = format!(
        "{:#}",
        read_with(text.as_bytes(), &opts).expect_err("no puzzle column")
    );
    assert!(whole.contains(":3: no puzzle column"), "{whole}");
    // Reads that end inside the BOM.
    let source = ByteByByte(std::io::Cursor::new(text.as_bytes().to_vec()));
    let by_byte = format!(
        "{:#}",
        open_reader(source, "pipe", &opts).err().expect("refused")
    );
    assert!(by_byte.contains("pipe:3: no puzzle column"), "{by_byte}");
    // A first line that only starts like a BOM is a line of its own.
    let text = "\u{feff}\u{fe}\npuzzle\n";
    let err = format!(
        "{:#}",
        read_with(text.as_bytes(), &opts).expect_err("no column")
    );
    assert!(err.contains(":1: no puzzle column"), "{err}");
}

/// Fuzzing found it: a stray line whose first kept bytes were all blanks (form feeds)
/// became a record with no text at all.
#[test]
fn stray_board_data_after_a_long_run_of_blanks_keeps_its_text() {
    for blank in [" ", "\t", "\x0c"] {
        let text = format!("{}{POJ}\n{}", blank.repeat(5000), board(POJ));
        let (_, got) = read_with(text.as_bytes(), &forced(InputFormat::Board)).unwrap();
        assert_eq!(got.len(), 2, "{blank:?}");
        assert_eq!(got[0].line, 1);
        assert_eq!(
            got[0].error.as_deref(),
            Some("text outside a board literal")
        );
        assert_eq!(got[0].cells, POJ, "{blank:?}");
        assert_eq!(got[1], rec(2, POJ));
    }
}

#[test]
fn a_huge_board_literal_is_one_invalid_record_of_bounded_size() {
    let row = format!("[{}],", ["\"1\""; 9].join(","));
    let text = format!("[{}{}]\n{}", row.repeat(20_000), row, board(POJ));
    let (_, got) = read_with(text.as_bytes(), &forced(InputFormat::Board)).unwrap();
    assert_eq!(got.len(), 2);
    assert!(got[0].cells.len() <= MAX_RECORD, "{}", got[0].cells.len());
    let error = got[0].error.as_deref().unwrap();
    assert!(error.contains("longer than 65536 bytes"), "{error}");
    assert_eq!(got[1], rec(2, POJ));
}

#[test]
fn an_unclosed_csv_quote_stops_at_the_cap_naming_the_line_it_opened() {
    let mut text = format!("id,quizzes\n1,{POJ}\n2,\"{LUOGU}\n");
    for i in 0..10_000 {
        text.push_str(&format!("{},{POJ}\n", i + 3));
    }
    let file = write_temp(text.as_bytes());
    let (got, msg) = read_until_error(file.path());
    assert_eq!(got, vec![rec(2, POJ)]);
    let name = file.path().display().to_string();
    assert!(
        msg.starts_with(&format!(
            "{name}:3: broken CSV: the record starting here runs over"
        )),
        "{msg}"
    );
    assert!(msg.contains("quote"), "{msg}");
}

#[test]
fn column_on_input_that_is_not_csv_is_an_error() {
    let file = write_temp(format!("{POJ}\n").as_bytes());
    let err = read_all_from(file.path(), &InputOptions::new().column("puzzle")).unwrap_err();
    let msg = format!("{err:#}");
    assert!(msg.contains("--column \"puzzle\" needs CSV input"), "{msg}");
    assert!(msg.contains("read as lines"), "{msg}");
}

// ---- what fuzzing found (fuzz/FINDINGS.md) ----

#[test]
fn damage_near_the_start_keeps_the_records_before_it() {
    let text = format!("{POJ}\n{LUOGU}\n{ZERO_ROWS}\n");
    let gz = gzip(text.as_bytes());
    // With a checksum after the data: cut one byte short, the data is whole.
    let zst = {
        let mut e = zstd::stream::Encoder::new(Vec::new(), 3).unwrap();
        e.include_checksum(true).unwrap();
        e.write_all(text.as_bytes()).unwrap();
        e.finish().unwrap()
    };
    for (format, cut) in [
        ("gzip", &gz[..gz.len() - 8]),
        ("zstd", &zst[..zst.len() - 1]),
    ] {
        let file = write_temp(cut);
        let (got, msg) = read_until_error(file.path());
        assert_eq!(
            got,
            vec![rec(1, POJ), rec(2, LUOGU), rec(3, ZERO_ROWS)],
            "{format}"
        );
        let name = file.path().display().to_string();
        assert!(
            msg.starts_with(&format!("{name}:4: corrupt {format} data")),
            "{msg}"
        );
    }
}

#[test]
fn a_zstd_frame_shorter_than_it_says_is_corrupt() {
    let file = write_temp(&[0x28, 0xb5, 0x2f, 0xfd, 0x20, 0x01, 0x01, 0x00, 0x00]);
    let (got, msg) = read_until_error(file.path());
    assert!(got.is_empty());
    assert!(msg.contains("corrupt zstd data"), "{msg:?}");
}

#[test]
fn a_line_of_blanks_longer_than_the_cap_is_a_record() {
    let mut text = vec![b' '; MAX_RECORD];
    text.extend_from_slice(format!("{POJ}\n{POJ}\n").as_bytes());
    let (_, got) = read_with(&text, &forced(InputFormat::Lines)).unwrap();
    assert_eq!(got.len(), 2);
    assert_eq!(got[0].line, 1);
    assert!(got[0].error.as_deref().unwrap().contains("longer than"));
    assert_eq!(got[1], rec(2, POJ));
    let (_, got) = read_with(&text, &forced(InputFormat::Grid)).unwrap();
    assert_eq!(got[0].line, 1);
    assert!(got[0].error.is_some());
}

#[test]
fn csv_comments_and_blank_lines_are_not_a_record_too_long() {
    let mut text = format!("id,puzzle\n1,{POJ}\n");
    text.push_str(&"# a comment\n".repeat(20_000));
    text.push_str(&"\n".repeat(100_000));
    text.push_str(&format!("2,{LUOGU}\r\n"));
    text.push_str(&"# another\r\n".repeat(20_000));
    text.push_str(&format!("3,{POJ}\n# the end, without a line end"));
    let (_, got) = read_with(text.as_bytes(), &InputOptions::default()).unwrap();
    let lines: Vec<u64> = got.iter().map(|r| r.line).collect();
    assert_eq!(lines, [2, 120_003, 140_004]);
    assert_eq!(got[1].cells, LUOGU);
    // A comment line longer than the guard's limit is still a comment (F13).
    let long_comment = format!("#{}\n", "x".repeat(MAX_RECORD * 3));
    let text = format!("id,puzzle\n1,{POJ}\n{long_comment}2,{LUOGU}\n{long_comment}");
    let (_, got) = read_with(text.as_bytes(), &InputOptions::default()).unwrap();
    let got: Vec<(u64, &str)> = got.iter().map(|r| (r.line, r.cells.as_str())).collect();
    assert_eq!(got, [(2, POJ), (4, LUOGU)]);
    // A last comment line without a line end is a comment, not a record.
    let text = format!("puzzle\n{POJ}\n#abc");
    let (_, got) = read_with(text.as_bytes(), &InputOptions::default()).unwrap();
    let got: Vec<(u64, &str)> = got.iter().map(|r| (r.line, r.cells.as_str())).collect();
    assert_eq!(got, [(2, POJ)]);
}

#[test]
fn board_records_stay_in_line_order_and_cells_beside_boards_are_kept() {
    let opts = forced(InputFormat::Board);
    let (_, got) = read_with(b"[\n[[\"1\"]],\n[\"2\"]\n]\n", &opts).unwrap();
    let lines: Vec<u64> = got.iter().map(|r| r.line).collect();
    assert_eq!(lines, [2, 3]);
    assert_eq!(
        got[1].error.as_deref(),
        Some("board literal: cells outside any board")
    );
    let text = b"[\n[[\"1\"]],\n\"5\",\"6\",\"7\",\"8\",\"9\",\"1\",\"2\",\"3\",\"4\"\n]\n";
    let (_, got) = read_with(text, &opts).unwrap();
    assert_eq!(got.len(), 2);
    assert_eq!((got[1].line, got[1].cells.as_str()), (3, "567891234"));
    // Cells between two boards: a record between theirs.
    let text = b"[\n[[\"1\"]],\n\"5\",\"6\",\n[[\"2\"]]\n]\n";
    let (_, got) = read_with(text, &opts).unwrap();
    let got: Vec<(u64, &str)> = got.iter().map(|r| (r.line, r.cells.as_str())).collect();
    assert_eq!(got, [(2, "1"), (3, "56"), (4, "2")]);
    // Rows of a container closed by repair (a board starts inside it): at their line.
    let text = b"[\n[[\"1\"]],\n[\"5\"],\n[[[\"2\"]]]\n";
    let (_, got) = read_with(text, &opts).unwrap();
    let got: Vec<(u64, &str)> = got.iter().map(|r| (r.line, r.cells.as_str())).collect();
    assert_eq!(got, [(2, "1"), (3, "5"), (4, "2")]);
    // A string never closed, beside a board: at the line where it starts.
    let (_, got) = read_with(b"[[[\"1\"]],\n\"2\n", &opts).unwrap();
    let lines: Vec<u64> = got.iter().map(|r| r.line).collect();
    assert_eq!(lines, [1, 2]);
}

#[test]
fn a_board_record_never_passes_the_cap() {
    let mut text = b"[".to_vec();
    for _ in 0..MAX_RECORD - 1 {
        text.extend_from_slice(b"1,");
    }
    text.extend_from_slice(b"\"1234567890123456\"]");
    let (_, got) = read_with(&text, &forced(InputFormat::Board)).unwrap();
    assert_eq!(got.len(), 1);
    assert!(got[0].cells.len() <= MAX_RECORD, "{}", got[0].cells.len());
}

/// A source that hands out one byte per read, as a slow pipe may.
struct ByteByByte(std::io::Cursor<Vec<u8>>);

impl Read for ByteByByte {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = buf.len().min(1);
        self.0.read(&mut buf[..n])
    }
}

/// The records of `bytes` fed one byte per read, with their fields.
fn read_byte_by_byte(bytes: &[u8], options: &InputOptions) -> Vec<Rec> {
    let source = ByteByByte(std::io::Cursor::new(bytes.to_vec()));
    let mut reader = open_reader(source, "pipe", options).unwrap();
    let mut record = Record::default();
    let mut out = Vec::new();
    while reader.read_record(&mut record).unwrap() {
        out.push(Rec {
            line: record.line,
            cells: String::from_utf8_lossy(&record.cells).into_owned(),
            error: record.error.clone(),
            fields: record.fields.clone(),
        });
    }
    out
}

#[test]
fn a_crlf_in_a_quoted_field_does_not_depend_on_where_reads_end() {
    let text = format!("id,puzzle,note\r\n1,{POJ},\"two\r\nlines\"\r\n2,{LUOGU},\"a\rb\"\r\n");
    let (_, whole) = read_with(text.as_bytes(), &InputOptions::default()).unwrap();
    let by_byte = read_byte_by_byte(text.as_bytes(), &InputOptions::default());
    assert_eq!(whole, by_byte);
    assert_eq!(whole[0].fields[2], "two\r\nlines");
    // A lone CR is a line end wherever it is.
    assert_eq!(whole[1].fields[2], "a\nb");
}

#[test]
fn grid_lines_too_long_are_records_unless_comments() {
    // A long comment is a comment; a long line is a record, after which no case count
    // can come.
    let mut text = b"#".to_vec();
    text.extend(std::iter::repeat_n(b'x', MAX_RECORD + 10));
    text.extend_from_slice(b"\n");
    text.extend(std::iter::repeat_n(b'1', MAX_RECORD + 10));
    text.extend_from_slice(b"\n1030095\n");
    let (_, got) = read_with(&text, &forced(InputFormat::Grid)).unwrap();
    let got: Vec<(u64, &str, Option<&str>)> = got
        .iter()
        .map(|r| (r.line, r.cells.as_str(), r.error.as_deref()))
        .collect();
    assert_eq!(
        got,
        [
            (2, "", Some("not a grid row: expected 9 cells")),
            (3, "1030095", Some("grid block: 1 rows, expected 9")),
        ]
    );
}
