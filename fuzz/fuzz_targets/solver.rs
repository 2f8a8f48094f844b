//! The solver on arbitrary 81-cell grids, conflicting givens included: counts up to 3
//! equal the brute-force reference's (`bulkdoku_fuzz::reference`, independent of the
//! engine); every solution returned is a valid complete grid that keeps every given,
//! and none repeats; `solve`, `count`, `for_each_solution` and `solutions` agree; a
//! search that ends before the limit finds the reference's very set; `solve` with limit
//! 1 finds a solution iff there is one.
//!
//! Grids come two ways: a valid solution transformed (digits relabelled, rows and
//! columns permuted within bands and stacks, bands and stacks permuted, transposed),
//! up to 20 cells blanked and a few cells overwritten with any digit; or the input's
//! own 81 cells, where the reference's work is bounded and a grid it cannot finish is
//! skipped.
#![no_main]

use std::cell::RefCell;
use std::collections::HashSet;

use arbitrary::{Result, Unstructured};
use bulkdoku::{count, solutions, solve, Grid, Solver};
use bulkdoku_fuzz::reference::{self, solution};
use bulkdoku_fuzz::{ensure, fail};
use libfuzzer_sys::fuzz_target;

/// Steps the reference may take on a grid made of raw input.
const BUDGET: u64 = 50_000;

/// Solutions counted at most: enough to tell none, one, two and "several".
const LIMIT: u64 = 3;

/// A permutation of 0..9 that keeps groups of three together.
fn grouped(u: &mut Unstructured) -> Result<[usize; 9]> {
    let mut groups = [0, 1, 2];
    let mut map = [0; 9];
    shuffle(u, &mut groups)?;
    for (g, &group) in groups.iter().enumerate() {
        let mut inner = [0, 1, 2];
        shuffle(u, &mut inner)?;
        for i in 0..3 {
            map[g * 3 + i] = group * 3 + inner[i];
        }
    }
    Ok(map)
}

fn shuffle<T>(u: &mut Unstructured, items: &mut [T]) -> Result<()> {
    for i in (1..items.len()).rev() {
        let j = u.int_in_range(0..=i)?;
        items.swap(i, j);
    }
    Ok(())
}

/// A grid from the input, and whether the reference's work on it must be bounded.
fn grid(u: &mut Unstructured) -> Result<([u8; 81], bool)> {
    if u.ratio(1, 4)? {
        let mut cells = [0u8; 81];
        for c in cells.iter_mut() {
            *c = u.int_in_range(0..=9)?;
        }
        return Ok((cells, true));
    }
    let base = solution(u.int_in_range(0..=2)?);
    let mut digits = [1u8, 2, 3, 4, 5, 6, 7, 8, 9];
    shuffle(u, &mut digits)?;
    let (rows, cols) = (grouped(u)?, grouped(u)?);
    let transpose: bool = u.arbitrary()?;
    let mut cells = [0u8; 81];
    for r in 0..9 {
        for c in 0..9 {
            let (sr, sc) = if transpose { (c, r) } else { (r, c) };
            cells[r * 9 + c] = digits[usize::from(base[rows[sr] * 9 + cols[sc]]) - 1];
        }
    }
    for _ in 0..u.int_in_range(0..=20)? {
        cells[u.int_in_range(0..=80)?] = 0;
    }
    for _ in 0..u.int_in_range(0..=3)? {
        cells[u.int_in_range(0..=80)?] = u.int_in_range(0..=9)?;
    }
    Ok((cells, false))
}

thread_local! {
    /// One solver for every input, as bulk solving reuses one: a search must not
    /// depend on what the last one left behind.
    static SOLVER: RefCell<Solver> = RefCell::new(Solver::new());
}

fn check(cells: &[u8; 81], bounded: bool) -> std::result::Result<(), String> {
    let puzzle = Grid::from_cells(*cells).ok_or("cells above 9")?;
    let budget = if bounded { BUDGET } else { 20 * BUDGET };
    let Some(reference) = reference::solutions(cells, LIMIT as usize, budget) else {
        return Ok(());
    };
    let want = reference.len() as u64;
    SOLVER.with(|solver| {
        let mut solver = solver.borrow_mut();
        let mut seen = Vec::new();
        let outcome = solver.for_each_solution(&puzzle, LIMIT, |g| seen.push(*g));
        ensure!(
            outcome.solutions == want && seen.len() as u64 == want,
            "for_each_solution: {} solutions ({} seen), reference {want}",
            outcome.solutions,
            seen.len()
        );
        ensure!(
            outcome.first == seen.first().copied(),
            "first is not the first seen"
        );
        for g in &seen {
            ensure!(g.is_valid_solution(), "invalid solution {g}");
            ensure!(g.agrees_with(&puzzle), "solution {g} drops a given");
        }
        let distinct: HashSet<Grid> = seen.iter().copied().collect();
        ensure!(distinct.len() == seen.len(), "a solution repeats");
        if want < LIMIT {
            // Both searches ran to the end: the same set.
            let reference: HashSet<Grid> = reference
                .iter()
                .map(|c| Grid::from_cells(*c).expect("digits"))
                .collect();
            ensure!(distinct == reference, "solution sets differ");
        }
        let iterated: Vec<Grid> = solutions(&puzzle).take(LIMIT as usize).collect();
        ensure!(iterated == seen, "the iterator and the callback differ");
        for limit in 1..=LIMIT {
            let capped = want.min(limit);
            for (what, outcome) in [
                ("solve", solver.solve(&puzzle, limit)),
                ("count", solver.count(&puzzle, limit)),
                ("free solve", solve(&puzzle, limit)),
                ("free count", count(&puzzle, limit)),
            ] {
                ensure!(
                    outcome.solutions == capped,
                    "{what} at limit {limit}: {}, reference {want}",
                    outcome.solutions
                );
                if what.ends_with("solve") {
                    ensure!(
                        outcome.first.is_some() == (want > 0),
                        "{what} at limit {limit}: first {:?}, reference {want}",
                        outcome.first
                    );
                    if let Some(first) = outcome.first {
                        ensure!(
                            first.is_valid_solution() && first.agrees_with(&puzzle),
                            "{what}: bad first solution {first}"
                        );
                    }
                }
            }
        }
        ensure!(
            solver.solve(&puzzle, 0).solutions == 0 && solver.count(&puzzle, 0).solutions == 0,
            "limit 0 found something"
        );
        Ok(())
    })
}

fuzz_target!(|data: &[u8]| {
    let Ok((cells, bounded)) = grid(&mut Unstructured::new(data)) else {
        return;
    };
    if let Err(e) = check(&cells, bounded) {
        let line: String = cells.iter().map(|&v| (b'0' + v) as char).collect();
        fail("solver", line.as_bytes(), &e);
    }
});
