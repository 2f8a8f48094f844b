//! `Grid::parse`, `Grid::parse_puzzle` and `FromStr` on any bytes: never a panic;
//! exactly 81 cell characters are accepted; an error names the first bad cell (1-based,
//! with its character) or else the length; a grid prints back as its input with every
//! blank made `.`; a conflict names the earliest cell that repeats a digit of a house
//! and the first cell before it with that digit.
#![no_main]

use bulkdoku::grid::{houses_of, ParseError};
use bulkdoku::{Grid, InvalidPuzzle};
use bulkdoku_fuzz::text::is_cell;
use bulkdoku_fuzz::{ensure, fail};
use libfuzzer_sys::fuzz_target;

/// The value a cell character stands for.
fn value(b: u8) -> u8 {
    if (b'1'..=b'9').contains(&b) {
        b - b'0'
    } else {
        0
    }
}

fn check(data: &[u8]) -> Result<(), String> {
    let parsed = Grid::parse(data);
    let bad = data.iter().take(81).position(|&b| !is_cell(b));
    match (&parsed, bad) {
        (Err(ParseError::BadChar { ch, cell }), Some(i)) => {
            ensure!(*cell == i + 1, "bad cell {cell}, expected {}", i + 1);
            let b = data[i];
            // The character at the bad byte: itself when ASCII, else the UTF-8
            // character starting there, or U+FFFD when none does.
            let want_ok = if b.is_ascii() {
                *ch == b as char
            } else {
                *ch == char::REPLACEMENT_CHARACTER
                    || data[i..].starts_with(ch.encode_utf8(&mut [0; 4]).as_bytes())
            };
            ensure!(want_ok, "bad character {ch:?} for byte {b:#x}");
            let msg = parsed.as_ref().unwrap_err().to_string();
            ensure!(msg.contains(&format!("at cell {}", i + 1)), "message {msg}");
        }
        (Err(ParseError::Length { found }), None) => {
            ensure!(data.len() != 81 && *found == data.len(), "length {found}");
            ensure!(
                parsed.as_ref().unwrap_err().to_string()
                    == format!("{} cells, expected 81", data.len()),
                "length message"
            );
        }
        (Ok(grid), None) => {
            ensure!(data.len() == 81, "{} bytes parsed", data.len());
            let want: String = data
                .iter()
                .map(|&b| if value(b) == 0 { '.' } else { b as char })
                .collect();
            ensure!(
                grid.to_line() == want,
                "prints {} for {want}",
                grid.to_line()
            );
            ensure!(grid.to_string() == want, "displays differently");
            for (i, &b) in data.iter().enumerate() {
                ensure!(grid.get(i) == value(b), "cell {i}");
            }
            ensure!(Grid::parse(want.as_bytes()) == Ok(*grid), "round trip");
            ensure!(
                grid.clues() == data.iter().filter(|&&b| value(b) != 0).count(),
                "clues"
            );
        }
        (got, bad) => return Err(format!("parse {got:?}, first bad byte {bad:?}")),
    }
    // parse_puzzle: the same parse, then the first conflict in cell order.
    let puzzle = Grid::parse_puzzle(data);
    match (&parsed, &puzzle) {
        (Err(e), Err(InvalidPuzzle::Parse(p))) => ensure!(e == p, "parse errors differ"),
        (Ok(grid), result) => {
            let cells = grid.cells();
            // The earliest cell repeating a digit of one of its houses, and in the
            // first such house (row, column, box), the first cell with that digit.
            let conflict = (0..81).find_map(|second| {
                let digit = cells[second];
                if digit == 0 {
                    return None;
                }
                houses_of(second)
                    .iter()
                    .find_map(|&h| {
                        (0..second).find(|&c| cells[c] == digit && houses_of(c).contains(&h))
                    })
                    .map(|first| (first, second, digit))
            });
            match (result, conflict) {
                (Ok(g), None) => ensure!(g == grid, "parse_puzzle differs"),
                (Err(InvalidPuzzle::Conflict(c)), Some((first, second, digit))) => ensure!(
                    (c.first, c.second, c.digit) == (first, second, digit),
                    "conflict {c:?}, expected {first} {second} {digit}"
                ),
                (r, c) => return Err(format!("parse_puzzle {r:?}, conflict {c:?}")),
            }
            ensure!(
                grid.check_givens().is_ok() == conflict.is_none(),
                "check_givens"
            );
        }
        (p, q) => return Err(format!("parse {p:?}, parse_puzzle {q:?}")),
    }
    if let Ok(s) = std::str::from_utf8(data) {
        ensure!(
            s.parse::<Grid>() == puzzle,
            "FromStr differs from parse_puzzle"
        );
    }
    Ok(())
}

fuzz_target!(|data: &[u8]| {
    if let Err(e) = check(data) {
        fail("grid_parse", data, &e);
    }
});
