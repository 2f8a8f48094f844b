//! Checks over the shared benchmark datasets (`../shared/data`, or the directory named by
//! `BULKDOKU_SHARED_DATA`). Every test here is `#[ignore]`d so that `cargo test` runs
//! without the data; CI runs them with
//! `cargo test --release --test shared_data -- --ignored`, and a missing file FAILS.

use std::path::PathBuf;

use bulkdoku::cli::InputFormat;
use bulkdoku::input::{open, InputOptions, Record};
use bulkdoku::Grid;

fn data_dir() -> PathBuf {
    std::env::var_os("BULKDOKU_SHARED_DATA").map_or_else(
        || PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/data")),
        PathBuf::from,
    )
}

/// The input reader yields every puzzle of each shared dataset, at the line where a plain
/// reading of the file finds it, all valid: comment headers, CRLF line ends and the
/// trailing fields of these files are handled as the line format says.
#[test]
#[ignore = "needs ../shared/data"]
fn input_reader_reads_every_shared_dataset_exactly() {
    let datasets = [
        ("puzzles2_17_clue", 49_158),
        ("puzzles5_forum_hardest_1905_11+", 48_765),
        ("puzzles7_serg_benchmark", 10_000),
    ];
    for (name, count) in datasets {
        let path = data_dir().join(name);
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
            panic!(
                "shared dataset {name} is required by this test but cannot be read at {}: {e} \
                 (set BULKDOKU_SHARED_DATA to the directory holding the shared data)",
                path.display()
            )
        });
        // The plain reading: non-comment, non-blank lines, their first 81 characters.
        let expected: Vec<(u64, &str)> = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i as u64 + 1, l.trim_end_matches('\r')))
            .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
            .map(|(i, l)| (i, &l[..81]))
            .collect();
        assert_eq!(expected.len(), count, "{name}: the file changed");

        let mut reader = open(Some(&path), &InputOptions::default()).unwrap();
        assert_eq!(reader.format(), InputFormat::Lines, "{name}");
        assert_eq!(reader.total_bytes(), Some(text.len() as u64), "{name}");
        let mut record = Record::default();
        let mut got = 0;
        while reader.read_record(&mut record).unwrap() {
            let (line, cells) = expected[got];
            assert_eq!(record.line, line, "{name}: record {got}");
            assert_eq!(record.cells, cells.as_bytes(), "{name}: line {line}");
            assert_eq!(record.error, None, "{name}: line {line}");
            Grid::parse_puzzle(&record.cells)
                .unwrap_or_else(|e| panic!("{name}: line {line}: {e}"));
            got += 1;
        }
        assert_eq!(got, count, "{name}");
        assert_eq!(reader.bytes_read(), text.len() as u64, "{name}");
    }
}
