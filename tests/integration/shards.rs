//! Pieces of one dataset solved separately (`split -l`, then `--no-header` and
//! `--line-offset`) and concatenated give the rows of a single run, apart from the
//! `file` and `time_ns` columns.

use crate::util::{assert_exit, stdout, Table, Workdir};

/// Lines of a dataset with comments and a bad record, cut every `per` lines.
fn pieces(text: &str, per: usize) -> Vec<String> {
    let lines: Vec<&str> = text.lines().collect();
    lines
        .chunks(per)
        .map(|c| c.iter().map(|l| format!("{l}\n")).collect())
        .collect()
}

/// Rows without the columns that name the input file and the time.
fn comparable(table: &Table) -> Vec<Vec<String>> {
    let drop: Vec<usize> = ["file", "time_ns"]
        .iter()
        .filter_map(|c| table.headers.iter().position(|h| h == c))
        .collect();
    table
        .rows
        .iter()
        .map(|r| {
            r.iter()
                .enumerate()
                .filter(|(i, _)| !drop.contains(i))
                .map(|(_, v)| v.clone())
                .collect()
        })
        .collect()
}

fn dataset(dir: &Workdir) -> String {
    let out = dir.run(&["generate", "-n", "40", "--seed", "5"]);
    assert_exit(&out, 0);
    let mut text = stdout(&out);
    // A bad record, a duplicate and a comment in the middle, so that pieces differ.
    text.push_str("12345\n# a comment\n");
    let first = text.lines().nth(1).unwrap().to_string();
    text.push_str(&first);
    text.push('\n');
    text
}

#[test]
fn solve_pieces_with_offsets_concatenate_to_a_single_run() {
    let dir = Workdir::new();
    let text = dataset(&dir);
    dir.create("all.txt", &text);
    let whole = dir.run(&["solve", "-q", "all.txt"]);
    assert_exit(&whole, 0);
    let whole = Table::parse(&stdout(&whole));

    let per = 7;
    let mut joined = String::new();
    for (i, piece) in pieces(&text, per).iter().enumerate() {
        let name = format!("part{i:02}.txt");
        dir.create(&name, piece);
        let offset = (i * per).to_string();
        let mut args = vec!["solve", "-q", "--line-offset", &offset, &name];
        if i > 0 {
            args.push("--no-header");
        }
        let out = dir.run(&args);
        assert_exit(&out, 0);
        joined.push_str(&stdout(&out));
    }
    let joined = Table::parse(&joined);
    assert_eq!(joined.headers, whole.headers);
    assert_eq!(comparable(&joined), comparable(&whole));
    assert_eq!(whole.rows.len(), 42);
}

#[test]
fn verify_without_header_writes_only_findings() {
    let dir = Workdir::new();
    dir.create("x.txt", "1234567890\n");
    let out = dir.run(&[
        "verify",
        "-q",
        "--no-header",
        "--line-offset",
        "10",
        "x.txt",
    ]);
    assert_exit(&out, 1);
    assert_eq!(
        stdout(&out),
        "11,1234567890,malformed,\"10 cells, expected 81\"\n"
    );
}
