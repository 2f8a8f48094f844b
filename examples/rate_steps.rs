//! The rating path of each puzzle given on the command line (or one per line on standard
//! input): every step's difficulty, technique and what it placed or removed, in the
//! form `r1c2` for cells. For comparing a path with another rater's step by step.
//!
//! ```text
//! cargo run --release --example rate_steps -- PUZZLE...
//! ```
//!
//! With `BOARD_AT=N` in the environment, also prints the candidates before step N.

use std::io::BufRead;

use bulkdoku::Grid;

fn cell(c: u8) -> String {
    format!("r{}c{}", c / 9 + 1, c % 9 + 1)
}

/// Candidates of each cell (bit d-1), given digits' peers cleared.
fn candidates(grid: &Grid) -> [u16; 81] {
    let mut cand = [0x1ffu16; 81];
    for (c, &v) in grid.cells().iter().enumerate() {
        if v != 0 {
            place(&mut cand, c, v);
        }
    }
    cand
}

fn place(cand: &mut [u16; 81], c: usize, v: u8) {
    cand[c] = 0;
    for (p, m) in cand.iter_mut().enumerate() {
        if p / 9 == c / 9 || p % 9 == c % 9 || (p / 27 == c / 27 && p % 9 / 3 == c % 9 / 3) {
            *m &= !(1 << (v - 1));
        }
    }
}

fn print_board(cand: &[u16; 81]) {
    for r in 0..9 {
        let row: Vec<String> = (0..9)
            .map(|c| {
                let m = cand[r * 9 + c];
                let s: String = (1..=9u8)
                    .filter(|d| m >> (d - 1) & 1 != 0)
                    .map(|d| (b'0' + d) as char)
                    .collect();
                format!("{:>9}", if s.is_empty() { "-".to_string() } else { s })
            })
            .collect();
        println!("    {}", row.join(" "));
    }
}

fn main() -> anyhow::Result<()> {
    let board_at: Option<usize> = std::env::var("BOARD_AT").ok().and_then(|v| v.parse().ok());
    let mut puzzles: Vec<String> = std::env::args().skip(1).collect();
    if puzzles.is_empty() {
        for line in std::io::stdin().lock().lines() {
            puzzles.push(line?);
        }
    }
    for p in puzzles.iter().filter(|p| !p.trim().is_empty()) {
        let grid =
            Grid::parse_puzzle(p.trim().as_bytes()).map_err(|e| anyhow::anyhow!("{p}: {e}"))?;
        println!("{}", p.trim());
        match bulkdoku::rate::rate(&grid) {
            Ok(r) => {
                let mut cand = candidates(&grid);
                for (i, s) in r.steps.iter().enumerate() {
                    if board_at == Some(i + 1) {
                        print_board(&cand);
                    }
                    for &(c, d) in &s.removed {
                        cand[c as usize] &= !(1 << (d - 1));
                    }
                    for &(c, d) in &s.placed {
                        place(&mut cand, c as usize, d);
                    }
                    let placed: Vec<String> = s
                        .placed
                        .iter()
                        .map(|&(c, d)| format!("{}={d}", cell(c)))
                        .collect();
                    let removed: Vec<String> = s
                        .removed
                        .iter()
                        .map(|&(c, d)| format!("{}<>{d}", cell(c)))
                        .collect();
                    println!(
                        "{:3} {}.{} {}: {}{}",
                        i + 1,
                        s.difficulty / 10,
                        s.difficulty % 10,
                        s.technique,
                        placed.join(" "),
                        removed.join(" ")
                    );
                }
                println!(
                    "ER {}.{} EP {}.{} ED {}.{} ({})",
                    r.er / 10,
                    r.er % 10,
                    r.ep / 10,
                    r.ep % 10,
                    r.ed / 10,
                    r.ed % 10,
                    r.er_technique
                );
            }
            Err(e) => println!("error: {e}"),
        }
    }
    Ok(())
}
