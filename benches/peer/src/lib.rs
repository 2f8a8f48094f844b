//! Shared pieces of the peer comparison: locating and reading the shared datasets, and
//! the measured work of each side (bulkdoku's engine, the `sudoku` crate, and tdoku run
//! as a separate program, see [`tdoku`]) per mode.
//!
//! The `compare` binary and the criterion bench both call these functions, so the two
//! report the same measurement in two presentations.

pub mod tdoku;

use std::hint::black_box;
use std::path::PathBuf;

use bulkdoku::{Grid, Solver};
use sudoku::Sudoku;

/// The shared datasets, by file name, in the order reports list them.
pub const DATASETS: [&str; 3] = [
    "puzzles2_17_clue",
    "puzzles5_forum_hardest_1905_11+",
    "puzzles7_serg_benchmark",
];

/// How many puzzles of each dataset `--quick` keeps.
pub const QUICK_PUZZLES: usize = 2_000;

/// Solutions counted from the empty grid per enumeration run.
pub const ENUMERATION_SOLUTIONS: u64 = 1_000_000;

/// Where the shared datasets live: `BULKDOKU_SHARED_DATA` if set, else `../shared/data`
/// beside the bulkdoku repository (this crate sits two levels inside it).
pub fn data_dir() -> PathBuf {
    match std::env::var_os("BULKDOKU_SHARED_DATA") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/data")),
    }
}

/// One dataset, read into both sides' puzzle types.
pub struct Dataset {
    /// File name, e.g. `puzzles2_17_clue`.
    pub name: String,
    /// The puzzles as bulkdoku grids.
    pub ours: Vec<Grid>,
    /// The same puzzles as `sudoku` crate boards.
    pub peer: Vec<Sudoku>,
}

impl Dataset {
    /// A short label for tables: the file name without the `puzzlesN_` prefix.
    pub fn label(&self) -> &str {
        short_label(&self.name)
    }

    /// Keep only the first `n` puzzles.
    pub fn truncate(&mut self, n: usize) {
        self.ours.truncate(n);
        self.peer.truncate(n);
    }
}

/// `puzzles2_17_clue` → `17_clue`.
pub fn short_label(name: &str) -> &str {
    match name.strip_prefix("puzzles") {
        Some(rest) => rest.split_once('_').map_or(rest, |(_, tail)| tail),
        None => name,
    }
}

/// Read one dataset file: `#` comments and blank lines skipped, CR trimmed, the first
/// 81 characters of each line are the puzzle. Returns `Ok(None)` when the file is absent.
pub fn load(name: &str) -> Result<Option<Dataset>, String> {
    let path = data_dir().join(name);
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("{}: {e}", path.display())),
    };
    let mut ours = Vec::new();
    let mut peer = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim_end_matches('\r');
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let cells = line.get(..81).unwrap_or(line);
        let grid = Grid::parse_puzzle(cells.as_bytes())
            .map_err(|e| format!("{}:{}: {e}", path.display(), i + 1))?;
        // Hand the peer the very same cells, so both sides solve identical inputs.
        let board = Sudoku::from_bytes(*grid.cells())
            .map_err(|_| format!("{}:{}: rejected by the sudoku crate", path.display(), i + 1))?;
        ours.push(grid);
        peer.push(board);
    }
    Ok(Some(Dataset {
        name: name.to_string(),
        ours,
        peer,
    }))
}

/// The two measured modes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Find one solution.
    First,
    /// Count to two, keeping the first solution (the uniqueness check).
    Unique,
}

impl Mode {
    /// Both modes, in report order.
    pub const ALL: [Mode; 2] = [Mode::First, Mode::Unique];

    /// Label for tables and bench ids.
    pub fn label(self) -> &'static str {
        match self {
            Mode::First => "limit 1",
            Mode::Unique => "limit 2",
        }
    }

    /// The solution limit this mode passes to the engines.
    pub fn limit(self) -> u64 {
        match self {
            Mode::First => 1,
            Mode::Unique => 2,
        }
    }
}

/// Solve every puzzle with bulkdoku at the mode's limit, keeping the first solution.
/// Returns the total of solutions found (so the work cannot be optimised away).
pub fn run_ours(solver: &mut Solver, puzzles: &[Grid], mode: Mode) -> u64 {
    let limit = mode.limit();
    let mut total = 0;
    for grid in puzzles {
        let outcome = solver.solve(black_box(grid), limit);
        total += outcome.solutions;
        black_box(&outcome.first);
    }
    total
}

/// Guesses per puzzle bulkdoku makes at the mode's limit (untimed).
pub fn guesses_ours(solver: &mut Solver, puzzles: &[Grid], mode: Mode) -> f64 {
    let total: u64 = puzzles
        .iter()
        .map(|g| solver.solve(g, mode.limit()).guesses)
        .sum();
    total as f64 / puzzles.len().max(1) as f64
}

/// Solve every puzzle with the `sudoku` crate the same way: limit 1 through
/// `some_solution`, limit 2 through `solutions_up_to_buffer` with room for one solution
/// (counts to two and keeps the first; `solution()` would skip puzzles under 17 clues).
pub fn run_peer(puzzles: &[Sudoku], mode: Mode) -> u64 {
    let mut total = 0;
    match mode {
        Mode::First => {
            for &board in puzzles {
                let solution = black_box(board).some_solution();
                total += u64::from(solution.is_some());
                black_box(&solution);
            }
        }
        Mode::Unique => {
            let mut buf = [[0u8; 81]; 1];
            for &board in puzzles {
                total += black_box(board).solutions_up_to_buffer(&mut buf, 2) as u64;
                black_box(&buf);
            }
        }
    }
    total
}

/// Count `limit` solutions of the empty grid with bulkdoku, materialising none.
pub fn enumerate_ours(solver: &mut Solver, limit: u64) -> u64 {
    solver.count(black_box(&Grid::EMPTY), limit).solutions
}

/// Count `limit` solutions of the empty grid with the `sudoku` crate.
pub fn enumerate_peer(limit: u64) -> u64 {
    let empty = Sudoku::from_bytes([0; 81]).expect("zeros are valid cells");
    black_box(empty).solutions_count_up_to(limit as usize) as u64
}

/// A puzzle on which the two engines disagree.
#[derive(Debug)]
pub struct Mismatch {
    /// 0-based index of the puzzle in the dataset (comments and blanks not counted).
    pub index: usize,
    /// The puzzle.
    pub puzzle: Grid,
    /// What went wrong.
    pub reason: String,
}

/// Solve every puzzle on both sides at limit 2 and compare: solution counts must agree,
/// every first solution must be a valid grid keeping the givens, and for a unique puzzle
/// both first solutions must be the same grid.
pub fn cross_check(data: &Dataset) -> Vec<Mismatch> {
    let mut solver = Solver::new();
    let mut mismatches = Vec::new();
    let mut buf = [[0u8; 81]; 1];
    for (index, (grid, &board)) in data.ours.iter().zip(&data.peer).enumerate() {
        let ours = solver.solve(grid, 2);
        let peer_count = board.solutions_up_to_buffer(&mut buf, 2) as u64;
        let mut fail = |reason: String| {
            mismatches.push(Mismatch {
                index,
                puzzle: *grid,
                reason,
            })
        };
        if ours.solutions != peer_count {
            fail(format!(
                "bulkdoku counts {} solution(s), sudoku counts {peer_count}",
                ours.solutions
            ));
            continue;
        }
        match ours.first {
            Some(first) if !first.is_valid_solution() || !first.agrees_with(grid) => {
                fail(format!("bulkdoku's first solution {first} is invalid"));
            }
            Some(first) if ours.solutions == 1 && first.cells() != &buf[0] => {
                fail(format!(
                    "unique puzzle, different solutions: bulkdoku {first}, sudoku {}",
                    Grid::from_cells(buf[0]).map_or_else(|| "?".into(), |g| g.to_line())
                ));
            }
            None if ours.solutions > 0 => fail("bulkdoku kept no first solution".into()),
            _ => {}
        }
    }
    mismatches
}
