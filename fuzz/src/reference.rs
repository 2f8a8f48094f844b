//! A slow, obviously correct solution counter, independent of the engine: fill the
//! blanks in cell order with digits 1..=9, checking row, column and box by scanning.
//! Its work is bounded, so that a fuzz input cannot make it run for long.

/// Three complete grids (the solutions the seed articles print), from which the solver
/// target derives others by transformations that keep a grid valid.
pub const SOLUTIONS: [&str; 3] = [
    "812753649943682175675491283154237896369845721287169534521974368438526917796318452",
    "143628579572139468986754231391542786468917352725863914237481695619275843854396127",
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179",
];

/// The cells of `SOLUTIONS[i]`.
pub fn solution(i: usize) -> [u8; 81] {
    let mut cells = [0u8; 81];
    for (c, b) in cells.iter_mut().zip(SOLUTIONS[i].bytes()) {
        *c = b - b'0';
    }
    cells
}

/// Whether `digit` may go in `cell` given the other cells.
pub fn allowed(cells: &[u8; 81], cell: usize, digit: u8) -> bool {
    let (row, col) = (cell / 9, cell % 9);
    let (top, left) = (row / 3 * 3, col / 3 * 3);
    (0..9).all(|i| {
        let peers = [row * 9 + i, i * 9 + col, (top + i / 3) * 9 + left + i % 3];
        peers.iter().all(|&p| p == cell || cells[p] != digit)
    })
}

/// Whether no two givens share a digit in a row, column or box.
pub fn givens_ok(cells: &[u8; 81]) -> bool {
    (0..81).all(|c| cells[c] == 0 || allowed(cells, c, cells[c]))
}

/// Every solution up to `limit`, or `None` when that takes more than `budget` steps.
pub fn solutions(cells: &[u8; 81], limit: usize, budget: u64) -> Option<Vec<[u8; 81]>> {
    fn fill(
        cells: &mut [u8; 81],
        from: usize,
        limit: usize,
        budget: &mut u64,
        out: &mut Vec<[u8; 81]>,
    ) -> bool {
        let Some(cell) = (from..81).find(|&c| cells[c] == 0) else {
            out.push(*cells);
            return true;
        };
        for digit in 1..=9 {
            if out.len() >= limit {
                return true;
            }
            if *budget == 0 {
                return false;
            }
            *budget -= 1;
            if allowed(cells, cell, digit) {
                cells[cell] = digit;
                let finished = fill(cells, cell + 1, limit, budget, out);
                cells[cell] = 0;
                if !finished {
                    return false;
                }
            }
        }
        true
    }
    let mut out = Vec::new();
    if limit == 0 || !givens_ok(cells) {
        return Some(out);
    }
    let mut budget = budget;
    fill(&mut cells.clone(), 0, limit, &mut budget, &mut out).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_solutions_are_valid_and_counting_works() {
        for i in 0..3 {
            let full = solution(i);
            assert!(givens_ok(&full));
            assert_eq!(solutions(&full, 3, 1000).unwrap(), vec![full]);
            let mut puzzle = full;
            // An unavoidable set needs more: blank one cell, one solution.
            puzzle[40] = 0;
            assert_eq!(solutions(&puzzle, 3, 1000).unwrap().len(), 1);
        }
        let mut bad = [0u8; 81];
        bad[0] = 5;
        bad[1] = 5;
        assert_eq!(solutions(&bad, 3, 10).unwrap().len(), 0);
        assert_eq!(solutions(&[0u8; 81], 3, 10), None);
    }
}
