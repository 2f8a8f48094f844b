//! Engine tests through the public library API: the seed articles' example puzzles with
//! their printed solutions, property tests against a slow reference counter written
//! here, puzzles with several solutions and with none, parse errors, limit semantics,
//! determinism, thread safety and enumeration from the empty grid.
//!
//! None of these read `../shared/data`; the shared sets are checked in
//! `tests/shared_data.rs`.

use std::collections::HashSet;

use bulkdoku::{count, solutions, solve, Grid, Solver, Uniqueness};
use proptest::prelude::*;

/// Parse a puzzle written as 81 characters, or as nine rows separated by whitespace.
fn grid(text: &str) -> Grid {
    let cells: String = text.split_whitespace().collect();
    Grid::parse_puzzle(cells.as_bytes()).unwrap_or_else(|e| panic!("{text}: {e}"))
}

// ---------------------------------------------------------------------------------------
// The seed articles' examples (copied from ../shared/seeds/ by hand).

/// 000: Luogu P1784, input and the solution the article prints.
const LUOGU_P1784: (&str, &str) = (
    "800000000 003600000 070090200 050007000 000045700 000100030 001000068 008500010 090000400",
    "812753649 943682175 675491283 154237896 369845721 287169534 521974368 438526917 796318452",
);

/// 001: POJ 2676 sample input and sample output.
const POJ_2676: (&str, &str) = (
    "103000509 002109400 000704000 300502006 060000050 700803004 000401000 009205800 804000107",
    "143628579 572139468 986754231 391542786 468917352 725863914 237481695 619275843 854396127",
);

/// 002: LeetCode 37, example 1 input and output.
const LEETCODE_37: (&str, &str) = (
    "53..7.... 6..195... .98....6. 8...6...3 4..8.3..1 7...2...6 .6....28. ...419..5 ....8..79",
    "534678912 672195348 198342567 859761423 426853791 713924856 961537284 287419635 345286179",
);

/// 004: the article's sample; it prints no solution.
const ARTICLE_004: &str =
    "009008040 600000017 010040000 000000004 480603021 300000000 000090080 240000006 050700100";

#[test]
fn seed_examples_give_their_printed_solutions() {
    for (name, (puzzle, printed)) in [
        ("Luogu P1784", LUOGU_P1784),
        ("POJ 2676", POJ_2676),
        ("LeetCode 37", LEETCODE_37),
    ] {
        let puzzle = grid(puzzle);
        let printed = grid(printed);
        // Guard against a transcription slip: the printed grid must solve the puzzle.
        assert!(printed.is_valid_solution(), "{name}: printed grid invalid");
        assert!(
            printed.agrees_with(&puzzle),
            "{name}: printed grid drops givens"
        );
        let outcome = solve(&puzzle, 2);
        assert_eq!(outcome.uniqueness(), Uniqueness::Unique, "{name}");
        assert_eq!(outcome.first, Some(printed), "{name}");
        assert_eq!(solve(&puzzle, 1).first, Some(printed), "{name} at limit 1");
    }
}

#[test]
fn seed_004_is_unique_and_keeps_its_givens() {
    let puzzle = grid(ARTICLE_004);
    assert_eq!(puzzle.clues(), 24);
    let outcome = solve(&puzzle, 2);
    assert_eq!(outcome.uniqueness(), Uniqueness::Unique);
    let first = outcome.first.expect("a unique puzzle has a first solution");
    assert!(first.is_valid_solution());
    assert!(first.agrees_with(&puzzle));
    assert_eq!(reference_count(&puzzle, 2), 1);
    assert!(reference_solutions(&puzzle, 1).contains(&first));
}

// ---------------------------------------------------------------------------------------
// A slow, obviously-correct reference: fill blanks in cell order, trying digits 1..=9,
// checking row, column and box by scanning.

fn allowed(cells: &[u8; 81], cell: usize, digit: u8) -> bool {
    let (row, col) = (cell / 9, cell % 9);
    let (top, left) = (row / 3 * 3, col / 3 * 3);
    (0..9).all(|i| {
        cells[row * 9 + i] != digit
            && cells[i * 9 + col] != digit
            && cells[(top + i / 3) * 9 + left + i % 3] != digit
    })
}

/// Every solution up to `limit`, in the reference's own order.
fn reference_solutions(puzzle: &Grid, limit: usize) -> Vec<Grid> {
    fn fill(cells: &mut [u8; 81], from: usize, limit: usize, out: &mut Vec<Grid>) {
        let Some(cell) = (from..81).find(|&c| cells[c] == 0) else {
            out.push(Grid::from_cells(*cells).expect("digits only"));
            return;
        };
        for digit in 1..=9 {
            if out.len() >= limit {
                return;
            }
            if allowed(cells, cell, digit) {
                cells[cell] = digit;
                fill(cells, cell + 1, limit, out);
                cells[cell] = 0;
            }
        }
    }
    let mut out = Vec::new();
    if limit > 0 && puzzle.check_givens().is_ok() {
        fill(&mut { *puzzle.cells() }, 0, limit, &mut out);
    }
    out
}

fn reference_count(puzzle: &Grid, limit: usize) -> u64 {
    reference_solutions(puzzle, limit).len() as u64
}

// ---------------------------------------------------------------------------------------
// Random complete grids: a known solution under random validity-preserving transforms
// (digit relabelling, band and row-in-band permutations, stack and column-in-stack
// permutations, transposition).

fn base_solutions() -> Vec<[u8; 81]> {
    [LUOGU_P1784.1, POJ_2676.1, LEETCODE_37.1]
        .iter()
        .map(|s| *grid(s).cells())
        .collect()
}

fn perm(n: usize) -> impl Strategy<Value = Vec<usize>> {
    Just((0..n).collect::<Vec<_>>()).prop_shuffle()
}

/// An index map 0..9 → 0..9 that permutes the three groups and the three inside each.
fn grouped_perm() -> impl Strategy<Value = [usize; 9]> {
    (perm(3), perm(3), perm(3), perm(3)).prop_map(|(groups, a, b, c)| {
        let inner = [a, b, c];
        let mut map = [0; 9];
        for (i, slot) in map.iter_mut().enumerate() {
            *slot = groups[i / 3] * 3 + inner[i / 3][i % 3];
        }
        map
    })
}

fn complete_grid() -> impl Strategy<Value = Grid> {
    (
        prop::sample::select(base_solutions()),
        perm(9),
        grouped_perm(),
        grouped_perm(),
        any::<bool>(),
    )
        .prop_map(|(base, digits, rows, cols, transpose)| {
            let mut cells = [0u8; 81];
            for r in 0..9 {
                for c in 0..9 {
                    let (sr, sc) = if transpose { (c, r) } else { (r, c) };
                    let v = base[rows[sr] * 9 + cols[sc]];
                    cells[r * 9 + c] = digits[v as usize - 1] as u8 + 1;
                }
            }
            Grid::from_cells(cells).expect("digits only")
        })
}

/// A complete grid and the same grid with up to 50 cells blanked.
fn puzzle_from_grid() -> impl Strategy<Value = (Grid, Grid)> {
    puzzle_with_blanks(0..=50)
}

/// A complete grid and the same grid with a number of cells in `blanks` blanked.
fn puzzle_with_blanks(
    blanks: std::ops::RangeInclusive<usize>,
) -> impl Strategy<Value = (Grid, Grid)> {
    (
        complete_grid(),
        prop::sample::subsequence((0..81).collect::<Vec<usize>>(), blanks),
    )
        .prop_map(|(full, blanks)| {
            let mut puzzle = full;
            for cell in blanks {
                puzzle.set(cell, 0);
            }
            (full, puzzle)
        })
}

/// Everything the engine reports for `puzzle` at `limit`, checked against the reference
/// and against each other.
fn check_against_reference(puzzle: &Grid, limit: u64) -> Result<Vec<Grid>, TestCaseError> {
    let mut solver = Solver::new();
    let mut seen = Vec::new();
    let outcome = solver.for_each_solution(puzzle, limit, |g| seen.push(*g));
    for g in &seen {
        prop_assert!(g.is_valid_solution(), "invalid solution {g} of {puzzle}");
        prop_assert!(
            g.agrees_with(puzzle),
            "solution {g} drops givens of {puzzle}"
        );
    }
    let distinct: HashSet<Grid> = seen.iter().copied().collect();
    prop_assert_eq!(
        distinct.len(),
        seen.len(),
        "repeated solutions of {}",
        puzzle
    );
    prop_assert_eq!(outcome.solutions, seen.len() as u64);
    prop_assert_eq!(outcome.first, seen.first().copied());

    let reference = reference_solutions(puzzle, limit as usize);
    prop_assert_eq!(seen.len(), reference.len(), "count differs for {}", puzzle);
    if seen.len() < limit as usize {
        // The search ran to the end: both found all solutions, as sets.
        let reference: HashSet<Grid> = reference.into_iter().collect();
        prop_assert_eq!(&distinct, &reference, "solution sets differ for {}", puzzle);
    }

    let iterated: Vec<Grid> = solutions(puzzle).take(limit as usize).collect();
    prop_assert_eq!(
        &iterated,
        &seen,
        "iterator and callback differ for {}",
        puzzle
    );
    let solved = solve(puzzle, limit);
    prop_assert_eq!(solved.solutions, outcome.solutions);
    prop_assert_eq!(solved.first, outcome.first);
    prop_assert_eq!(count(puzzle, limit).solutions, outcome.solutions);

    // Both search modes, forced: light (cell branches) and heavy (triad rules and
    // placement branches), which the default picks by how open a puzzle is at its
    // first guess. They may find solutions in another order, never other solutions.
    for heavy_from in [0, u32::MAX] {
        let mut solver = Solver::new();
        solver.set_heavy_from(heavy_from);
        let mut found = Vec::new();
        let forced = solver.for_each_solution(puzzle, limit, |g| found.push(*g));
        prop_assert_eq!(forced.solutions, found.len() as u64);
        prop_assert_eq!(
            found.len(),
            seen.len(),
            "mode {} count for {}",
            heavy_from,
            puzzle
        );
        let found_set: HashSet<Grid> = found.iter().copied().collect();
        prop_assert_eq!(
            found_set.len(),
            found.len(),
            "mode {} repeats for {}",
            heavy_from,
            puzzle
        );
        for g in &found {
            prop_assert!(g.is_valid_solution() && g.agrees_with(puzzle));
        }
        if found.len() < limit as usize {
            prop_assert_eq!(
                &found_set,
                &distinct,
                "mode {} set for {}",
                heavy_from,
                puzzle
            );
        }
        let solved = solver.solve(puzzle, limit);
        prop_assert_eq!(solved.solutions, outcome.solutions);
        prop_assert_eq!(solved.first, forced.first);
        prop_assert_eq!(solver.count(puzzle, limit).solutions, outcome.solutions);
    }
    Ok(seen)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_puzzles_agree_with_the_reference(
        (full, puzzle) in puzzle_from_grid(),
        limit in 1u64..=20,
    ) {
        prop_assert!(full.is_valid_solution(), "generator made an invalid grid {}", full);
        let seen = check_against_reference(&puzzle, limit)?;
        // The grid the puzzle came from is a solution, so there is at least one, and a
        // search that ran to the end must have found it.
        prop_assert!(!seen.is_empty());
        if (seen.len() as u64) < limit {
            prop_assert!(seen.contains(&full), "{} not among the solutions of {}", full, puzzle);
        }
    }

    #[test]
    fn sparse_puzzles_agree_with_the_reference(
        (full, puzzle) in puzzle_with_blanks(51..=58),
        limit in 1u64..=20,
    ) {
        // Past 50 blanks most puzzles have several solutions: this exercises counting
        // and enumeration rather than uniqueness.
        let seen = check_against_reference(&puzzle, limit)?;
        prop_assert!(!seen.is_empty());
        if (seen.len() as u64) < limit {
            prop_assert!(seen.contains(&full), "{} not among the solutions of {}", full, puzzle);
        }
    }

    #[test]
    fn puzzles_with_a_wrong_given_agree_with_the_reference(
        (full, mut puzzle) in puzzle_from_grid(),
        pick in any::<prop::sample::Index>(),
        limit in 1u64..=20,
    ) {
        // Fill one blank with a digit that differs from the source grid's but conflicts
        // with no given: the result often has no solution at all.
        let choices: Vec<(usize, u8)> = (0..81)
            .filter(|&c| puzzle.get(c) == 0)
            .flat_map(|c| (1..=9).map(move |d| (c, d)))
            .filter(|&(c, d)| d != full.get(c) && allowed(puzzle.cells(), c, d))
            .collect();
        prop_assume!(!choices.is_empty());
        let (cell, wrong) = choices[pick.index(choices.len())];
        puzzle.set(cell, wrong);
        prop_assert!(puzzle.check_givens().is_ok());
        let seen = check_against_reference(&puzzle, limit)?;
        prop_assert!(seen.iter().all(|g| g.get(cell) == wrong));
        prop_assert!(!seen.contains(&full));
    }
}

// ---------------------------------------------------------------------------------------
// Several solutions, and none.

/// A puzzle with exactly two solutions: `full` with an unavoidable rectangle blanked
/// (four cells in two rows, two columns and two boxes holding a b / b a).
fn unavoidable_rectangle(full: &Grid) -> Option<(Grid, Grid)> {
    let v = |r: usize, c: usize| full.get(r * 9 + c);
    for r1 in 0..9 {
        for r2 in r1 + 1..9 {
            for c1 in 0..9 {
                for c2 in c1 + 1..9 {
                    let two_boxes = (r1 / 3 == r2 / 3) != (c1 / 3 == c2 / 3);
                    if two_boxes && v(r1, c1) == v(r2, c2) && v(r1, c2) == v(r2, c1) {
                        let mut puzzle = *full;
                        let mut swapped = *full;
                        for (r, c, other) in
                            [(r1, c1, c2), (r1, c2, c1), (r2, c1, c2), (r2, c2, c1)]
                        {
                            puzzle.set(r * 9 + c, 0);
                            swapped.set(r * 9 + c, v(r, other));
                        }
                        return Some((puzzle, swapped));
                    }
                }
            }
        }
    }
    None
}

#[test]
fn unavoidable_rectangle_gives_exactly_two_solutions() {
    let mut found = 0;
    for base in base_solutions() {
        let full = Grid::from_cells(base).unwrap();
        let Some((puzzle, swapped)) = unavoidable_rectangle(&full) else {
            continue;
        };
        found += 1;
        assert!(swapped.is_valid_solution());
        let outcome = solve(&puzzle, 10);
        assert_eq!(outcome.solutions, 2, "{puzzle}");
        assert_eq!(outcome.uniqueness(), Uniqueness::Multiple);
        let all: HashSet<Grid> = solutions(&puzzle).collect();
        assert_eq!(all, HashSet::from([full, swapped]));
    }
    assert!(found > 0, "no base solution has an unavoidable rectangle");
}

#[test]
fn a_blanked_band_has_as_many_solutions_as_the_reference_finds() {
    // Blank the whole top band of a solution: many completions, counted exhaustively.
    let mut puzzle = grid(POJ_2676.1);
    for cell in 0..27 {
        puzzle.set(cell, 0);
    }
    let expected = reference_count(&puzzle, 100_000);
    assert!(expected > 2, "a blank band should have several completions");
    assert_eq!(count(&puzzle, u64::MAX).solutions, expected);
    let all: HashSet<Grid> = solutions(&puzzle).collect();
    assert_eq!(all.len() as u64, expected);
    assert!(all
        .iter()
        .all(|g| g.is_valid_solution() && g.agrees_with(&puzzle)));
}

#[test]
fn counting_many_solutions_stops_exactly_at_the_limit() {
    // The bottom band blank and a few cells above it too: thousands of solutions,
    // which the count-only search takes a band at a time.
    for base in [LUOGU_P1784.1, POJ_2676.1, LEETCODE_37.1] {
        let mut puzzle = grid(base);
        for cell in (54..81).chain([3, 14, 22, 30, 40, 47, 52]) {
            puzzle.set(cell, 0);
        }
        let total = reference_count(&puzzle, 1_000_000);
        assert!(total > 100, "{puzzle} has {total} solutions");
        assert_eq!(count(&puzzle, u64::MAX).solutions, total, "{puzzle}");
        for limit in [3, 7, total / 2, total - 1, total, total + 1] {
            assert_eq!(
                count(&puzzle, limit).solutions,
                limit.min(total),
                "limit {limit}: {puzzle}"
            );
        }
    }
}

#[test]
fn a_cell_with_no_candidate_has_no_solution() {
    // r1c1 sees 1..6 in its row, 7 and 8 in its box and 9 in its column, yet no two
    // givens conflict.
    let puzzle = grid(
        "...123456 .78...... ......... 9........ ......... ......... ......... ......... .........",
    );
    assert!(puzzle.check_givens().is_ok());
    for limit in [1, 2, 100] {
        let outcome = solve(&puzzle, limit);
        assert_eq!(outcome.solutions, 0);
        assert_eq!(outcome.first, None);
        assert_eq!(outcome.uniqueness(), Uniqueness::NoSolution);
    }
    assert_eq!(solutions(&puzzle).next(), None);
    assert_eq!(reference_count(&puzzle, 1), 0);
}

#[test]
fn a_digit_with_no_place_in_a_row_has_no_solution() {
    // Every open cell of row 1 sees a 9 (in its column or box); each cell still has
    // candidates, so only the row's hidden-single logic or search finds the dead end.
    let puzzle = grid(
        "12345.... ......9.. ......... .....9... ........9 ......... ......... ......... .........",
    );
    assert!(puzzle.check_givens().is_ok());
    assert_eq!(solve(&puzzle, 2).uniqueness(), Uniqueness::NoSolution);
    assert_eq!(count(&puzzle, 2).solutions, 0);
    assert_eq!(reference_count(&puzzle, 1), 0);
}

// ---------------------------------------------------------------------------------------
// Parse errors.

#[test]
fn bad_puzzles_are_named_errors() {
    let good = ".".repeat(81);
    let mut conflict = good.clone().into_bytes();
    conflict[0] = b'7';
    conflict[4] = b'7';
    assert_eq!(
        Grid::parse_puzzle(&conflict).unwrap_err().to_string(),
        "givens conflict: r1c1 and r1c5 are both 7"
    );
    assert_eq!(
        Grid::parse_puzzle(&good.as_bytes()[..80])
            .unwrap_err()
            .to_string(),
        "80 cells, expected 81"
    );
    assert_eq!(
        Grid::parse_puzzle(format!("{good}1").as_bytes())
            .unwrap_err()
            .to_string(),
        "82 cells, expected 81"
    );
    let mut bad = good.clone().into_bytes();
    bad[11] = b'x';
    assert_eq!(
        Grid::parse_puzzle(&bad).unwrap_err().to_string(),
        "bad character 'x' at cell 12"
    );
    assert_eq!(
        Grid::parse_puzzle(b"").unwrap_err().to_string(),
        "0 cells, expected 81"
    );
    assert!("not a puzzle".parse::<Grid>().is_err());
}

// ---------------------------------------------------------------------------------------
// Limits, determinism, threads, the empty grid.

#[test]
fn limits_cap_the_count() {
    let (two, _) = unavoidable_rectangle(&grid(LUOGU_P1784.1))
        .or_else(|| unavoidable_rectangle(&grid(POJ_2676.1)))
        .or_else(|| unavoidable_rectangle(&grid(LEETCODE_37.1)))
        .expect("a base solution with an unavoidable rectangle");
    let unique = grid(POJ_2676.0);
    let many = Grid::EMPTY;
    for (puzzle, total) in [(unique, 1u64), (two, 2), (many, u64::MAX)] {
        let zero = solve(&puzzle, 0);
        assert_eq!((zero.solutions, zero.first), (0, None), "limit 0: {puzzle}");
        let mut calls = 0;
        Solver::new().for_each_solution(&puzzle, 0, |_| calls += 1);
        assert_eq!(calls, 0, "limit 0 hands out no solution");
        for limit in [1, 2, 3, 50] {
            let outcome = solve(&puzzle, limit);
            assert_eq!(
                outcome.solutions,
                limit.min(total),
                "limit {limit}: {puzzle}"
            );
            assert!(outcome.first.is_some());
            let counted = count(&puzzle, limit);
            assert_eq!(counted.solutions, outcome.solutions);
        }
    }
    assert_eq!(solve(&many, 2).uniqueness(), Uniqueness::Multiple);
}

#[test]
fn a_full_or_nearly_full_grid_needs_no_guess() {
    let full = grid(LEETCODE_37.1);
    let outcome = solve(&full, 2);
    assert_eq!((outcome.solutions, outcome.first), (1, Some(full)));
    assert!(outcome.solved_without_guessing());
    let mut one_blank = full;
    one_blank.set(40, 0);
    let outcome = solve(&one_blank, 2);
    assert_eq!((outcome.solutions, outcome.first), (1, Some(full)));
    assert!(outcome.solved_without_guessing());
}

fn fixed_puzzles() -> Vec<Grid> {
    let mut puzzles: Vec<Grid> = [LUOGU_P1784.0, POJ_2676.0, LEETCODE_37.0, ARTICLE_004]
        .iter()
        .map(|s| grid(s))
        .collect();
    let mut band = grid(LUOGU_P1784.1);
    for cell in 27..54 {
        band.set(cell, 0);
    }
    puzzles.push(band);
    puzzles.push(Grid::EMPTY);
    puzzles
}

#[test]
fn same_puzzle_same_answer() {
    let mut reused = Solver::new();
    for puzzle in fixed_puzzles() {
        let a = solve(&puzzle, 2);
        let b = Solver::new().solve(&puzzle, 2);
        // A solver that has just worked on other puzzles must not carry anything over.
        reused.solve(&grid(LEETCODE_37.0), 5);
        let c = reused.solve(&puzzle, 2);
        assert_eq!(a, b, "{puzzle}");
        assert_eq!(a, c, "{puzzle} with a reused solver");
        let first_ten: Vec<Grid> = solutions(&puzzle).take(10).collect();
        assert_eq!(first_ten, solutions(&puzzle).take(10).collect::<Vec<_>>());
    }
}

#[test]
fn threads_get_the_same_results() {
    let puzzles = fixed_puzzles();
    let expected: Vec<_> = puzzles.iter().map(|p| solve(p, 2)).collect();
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..4)
            .map(|t| {
                let puzzles = &puzzles;
                scope.spawn(move || {
                    let mut solver = Solver::new();
                    // Each thread walks the list from a different start, many times.
                    (0..50)
                        .flat_map(|round| {
                            (0..puzzles.len()).map(move |i| (i + t + round) % puzzles.len())
                        })
                        .map(|i| (i, solver.solve(&puzzles[i], 2)))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        for handle in handles {
            for (i, outcome) in handle.join().expect("solver thread panicked") {
                assert_eq!(outcome, expected[i], "{}", puzzles[i]);
            }
        }
    });
}

#[test]
fn empty_grid_first_ten_thousand_solutions_are_valid_and_distinct() {
    const N: usize = 10_000;
    let iterated: Vec<Grid> = solutions(&Grid::EMPTY).take(N).collect();
    assert_eq!(iterated.len(), N);
    assert!(iterated.iter().all(Grid::is_valid_solution));
    let distinct: HashSet<Grid> = iterated.iter().copied().collect();
    assert_eq!(distinct.len(), N);

    let mut called = Vec::with_capacity(N);
    let outcome = Solver::new().for_each_solution(&Grid::EMPTY, N as u64, |g| called.push(*g));
    assert_eq!(outcome.solutions, N as u64);
    assert_eq!(called, iterated);
    assert_eq!(count(&Grid::EMPTY, N as u64).solutions, N as u64);
}
