//! `bulkdoku rate` held against serate's ratings in `tests/data/serate_ratings.csv`
//! (made by `scripts/serate_ratings.sh`): the file itself is checked here, and the
//! agreement per ER band by [`ratings_agree_with_serate`], which needs the rating
//! engine.

use std::collections::BTreeMap;

use crate::rate::tenths;
use crate::util::{assert_exit, stdout, Table, Workdir};

// ---- serate's ratings -----------------------------------------------------------------

/// One puzzle of `tests/data/serate_ratings.csv`: serate's ER, EP and ED in tenths.
#[derive(Debug, Clone)]
struct Oracle {
    puzzle: String,
    source: String,
    er: u32,
    ep: u32,
    ed: u32,
    technique: String,
}

/// The ratings file: `#` comment lines (command line, version, provenance), then CSV
/// with the columns `puzzle,er,ep,ed,er_technique,source`.
fn oracle() -> Vec<Oracle> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/serate_ratings.csv");
    let text = std::fs::read_to_string(path).expect("tests/data/serate_ratings.csv");
    let body: String = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| format!("{l}\n"))
        .collect();
    let table = Table::parse(&body);
    assert_eq!(
        table.headers,
        ["puzzle", "er", "ep", "ed", "er_technique", "source"]
    );
    table
        .rows
        .iter()
        .map(|r| {
            let t = |s: &str| tenths(s).unwrap_or_else(|| panic!("a rating: {r:?}"));
            Oracle {
                puzzle: r[0].clone(),
                er: t(&r[1]),
                ep: t(&r[2]),
                ed: t(&r[3]),
                technique: r[4].clone(),
                source: r[5].clone(),
            }
        })
        .collect()
}

/// The ER bands the issue reports agreement by.
const BANDS: [(&str, u32, u32); 4] = [
    ("<= 4.0", 0, 40),
    ("4.1-6.5", 41, 65),
    ("6.6-9.0", 66, 90),
    ("> 9.0", 91, 255),
];

fn band(er: u32) -> usize {
    BANDS
        .iter()
        .position(|&(_, lo, hi)| (lo..=hi).contains(&er))
        .expect("a band")
}

/// The committed ratings file is what the issue asks for: at least 2,000 valid,
/// distinct, unique puzzles spanning ER 1.2 to 11+, each band of the scale present,
/// with the command line and version that made them in its header; EP and ED never
/// above ER.
#[test]
fn the_serate_ratings_file_spans_the_scale() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/serate_ratings.csv");
    let text = std::fs::read_to_string(path).unwrap();
    let header: Vec<&str> = text.lines().take_while(|l| l.starts_with('#')).collect();
    let header = header.join("\n");
    assert!(header.contains("diuf.sudoku.test.serate"), "{header}");
    assert!(
        header.contains("--format=\"%g,%r,%p,%d,%e,%R\""),
        "{header}"
    );
    assert!(header.contains("362854e"), "the version: {header}");
    let rows = oracle();
    assert!(rows.len() >= 2000, "{} puzzles", rows.len());
    let distinct: std::collections::HashSet<&str> =
        rows.iter().map(|r| r.puzzle.as_str()).collect();
    assert_eq!(distinct.len(), rows.len(), "no puzzle twice");
    let mut per_band = [0usize; 4];
    for r in &rows {
        assert_eq!(r.puzzle.len(), 81, "{r:?}");
        assert!(r
            .puzzle
            .bytes()
            .all(|b| b == b'.' || (b'1'..=b'9').contains(&b)));
        assert!(r.ep <= r.er && r.ed <= r.er && r.er <= 200, "{r:?}");
        assert!(!r.technique.is_empty() && !r.source.is_empty());
        per_band[band(r.er)] += 1;
    }
    // The band above 9.0 is thin: serate takes minutes of a core on each of those.
    assert!(
        per_band[..3].iter().all(|&n| n >= 200),
        "per band: {per_band:?}"
    );
    assert!(per_band[3] >= 1, "per band: {per_band:?}");
    assert_eq!(rows.iter().map(|r| r.er).min(), Some(12));
    assert!(rows.iter().any(|r| r.er >= 110), "none at 11+");
    // Every puzzle is unique (serate rates only those): `solve` agrees.
    let dir = Workdir::new();
    let input: String = rows.iter().map(|r| format!("{}\n", r.puzzle)).collect();
    dir.create("p.txt", input);
    let out = dir.run(&["solve", "-q", "p.txt"]);
    assert_exit(&out, 0);
    let table = Table::parse(&stdout(&out));
    assert!(table.column("status").iter().all(|s| *s == "unique"));
}

/// `bulkdoku rate` on every puzzle of the ratings file, held against serate's ER, EP and ED, agreement printed per ER band
/// (run with `--nocapture` to see it); fails below the Must: ER exact on >= 99 %
/// of the puzzles serate rates <= 9.0, EP and ED exact on >= 99 % of all; and below the
/// issue's aim above 9.0: ER exact on >= 95 %, within 0.1 on >= 99 %; and when
/// `er_technique` differs from serate's name on more than 1 % of all.
#[test]
fn ratings_agree_with_serate() {
    let rows = oracle();
    let dir = Workdir::new();
    let input: String = rows.iter().map(|r| format!("{}\n", r.puzzle)).collect();
    dir.create("p.txt", input);
    let out = dir.run(&["rate", "-q", "p.txt"]);
    assert_exit(&out, 0);
    let table = Table::parse(&stdout(&out));
    assert_eq!(table.rows.len(), rows.len());
    // Per band: puzzles, ER exact, ER within 0.1, EP exact, ED exact.
    let mut stats = [[0usize; 5]; 4];
    let mut mismatches: BTreeMap<String, Vec<String>> = BTreeMap::new();
    // The hardest step's technique as serate names it, shape suffix included
    // ("WXYZ-Wing 137"): where another hint of the same difficulty comes first in
    // our scan, the name can differ with the ER the same.
    let mut same_technique = 0;
    let mut other_technique: Vec<String> = Vec::new();
    let (er_i, ep_i, ed_i, t_i) = (
        table.col("er"),
        table.col("ep"),
        table.col("ed"),
        table.col("er_technique"),
    );
    for (want, got) in rows.iter().zip(&table.rows) {
        assert_eq!(got[2], want.puzzle);
        let s = &mut stats[band(want.er)];
        s[0] += 1;
        let (er, ep, ed) = (tenths(&got[er_i]), tenths(&got[ep_i]), tenths(&got[ed_i]));
        s[1] += usize::from(er == Some(want.er));
        s[2] += usize::from(er.is_some_and(|er| er.abs_diff(want.er) <= 1));
        s[3] += usize::from(ep == Some(want.ep));
        s[4] += usize::from(ed == Some(want.ed));
        if got[t_i] == want.technique {
            same_technique += 1;
        } else if er == Some(want.er) {
            other_technique.push(format!("serate {} -> ours {}", want.technique, got[t_i]));
        }
        if er != Some(want.er) {
            let key = format!("serate {} -> ours {}", want.technique, got[t_i]);
            mismatches.entry(key).or_default().push(format!(
                "{} ({}): serate {}.{}, ours {}",
                want.puzzle,
                want.source,
                want.er / 10,
                want.er % 10,
                got[er_i]
            ));
        }
    }
    let pct = |n: usize, of: usize| 100.0 * n as f64 / of.max(1) as f64;
    println!("band      puzzles  ER exact  ER ±0.1  EP exact  ED exact");
    for ((name, ..), s) in BANDS.iter().zip(&stats) {
        println!(
            "{name:<9} {:>7}  {:>7.2}%  {:>6.2}%  {:>7.2}%  {:>7.2}%",
            s[0],
            pct(s[1], s[0]),
            pct(s[2], s[0]),
            pct(s[3], s[0]),
            pct(s[4], s[0])
        );
    }
    println!(
        "er_technique the same on {same_technique} of {}; with the ER the same, another name \
         on {}: {other_technique:?}",
        rows.len(),
        other_technique.len()
    );
    for (kind, list) in &mismatches {
        println!("{} x {kind}; e.g. {}", list.len(), list[0]);
    }
    let sum = |bands: std::ops::Range<usize>, k: usize| -> usize {
        stats[bands].iter().map(|s| s[k]).sum()
    };
    let (upto9, exact9) = (sum(0..3, 0), sum(0..3, 1));
    let (all, ep, ed) = (sum(0..4, 0), sum(0..4, 3), sum(0..4, 4));
    assert!(
        pct(exact9, upto9) >= 99.0,
        "ER exact on {exact9} of {upto9} <= 9.0"
    );
    assert!(pct(ep, all) >= 99.0, "EP exact on {ep} of {all}");
    // Above 9.0 (dynamic and nested forcing chains): the aim
    let above = &stats[3];
    assert!(
        pct(above[1], above[0]) >= 95.0 && pct(above[2], above[0]) >= 99.0,
        "above 9.0: ER exact on {} and within 0.1 on {} of {}",
        above[1],
        above[2],
        above[0]
    );
    assert!(pct(ed, all) >= 99.0, "ED exact on {ed} of {all}");
    assert!(
        pct(same_technique, all) >= 99.0,
        "er_technique the same on {same_technique} of {all}"
    );
}
