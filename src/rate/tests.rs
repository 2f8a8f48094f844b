//! Technique tests on hand-made positions, and whole-puzzle agreement with serate.

use super::board::{Board, Cells, HOUSE_MASK};
use super::{aligned, chains, dynamic, fish, links, singles, uniqueness, wings, Rater};
use crate::grid::Grid;

/// A board with every candidate open, then `keep` digits only in the given cells.
fn restrict(b: &mut Board, cell: usize, keep: &[u8]) {
    let mut elim = [0u128; 9];
    for d in 1..=9u8 {
        if !keep.contains(&d) {
            elim[(d - 1) as usize] = 1u128 << cell;
        }
    }
    b.eliminate(&elim);
}

/// Remove digit `d` from every cell of `cells`.
fn remove_digit(b: &mut Board, d: u8, cells: Cells) {
    let mut elim = [0u128; 9];
    elim[(d - 1) as usize] = cells;
    b.eliminate(&elim);
}

fn set(cells: &[usize]) -> Cells {
    cells.iter().fold(0, |m, &c| m | 1u128 << c)
}

#[test]
fn full_house_is_found_before_hidden_singles() {
    let mut values = [0u8; 81];
    for (c, v) in values.iter_mut().enumerate().take(8) {
        *v = c as u8 + 1;
    }
    let b = Board::from_values(&values);
    let h = singles::hidden_single(&b).expect("a full house");
    assert_eq!(
        (h.name, h.difficulty, h.place),
        ("Hidden Single", 10, Some((8, 9)))
    );
}

#[test]
fn naked_pair_clears_its_box_first() {
    let mut b = Board::new();
    restrict(&mut b, 0, &[1, 2]);
    restrict(&mut b, 1, &[1, 2]);
    let h = singles::naked_set(&b, 2).expect("a naked pair");
    assert_eq!((h.name, h.difficulty), ("Naked Pair", 30));
    let rest = HOUSE_MASK[0] & !set(&[0, 1]);
    assert_eq!(h.elim[0], rest);
    assert_eq!(h.elim[1], rest);
    assert!(h.elim[2..].iter().all(|&e| e == 0));
}

#[test]
fn x_wing_on_two_rows() {
    let mut b = Board::new();
    // digit 5 only in columns 2 and 6 of rows 0 and 4
    for row in [0usize, 4] {
        remove_digit(
            &mut b,
            5,
            HOUSE_MASK[9 + row] & !set(&[row * 9 + 2, row * 9 + 6]),
        );
    }
    let h = fish::fish(&b, 2, &mut fish::NoFish::default()).expect("an X-wing");
    assert_eq!((h.name, h.difficulty), ("X-Wing", 32));
    let cover = (HOUSE_MASK[18 + 2] | HOUSE_MASK[18 + 6]) & !(HOUSE_MASK[9] | HOUSE_MASK[9 + 4]);
    assert_eq!(h.elim[4], cover);
    assert!(fish::fish(&b, 4, &mut fish::NoFish::default()).is_none());
}

#[test]
fn xy_wing_removes_z_where_both_pincers_see() {
    let mut b = Board::new();
    restrict(&mut b, 0, &[1, 2]); // pivot r1c1
    restrict(&mut b, 4, &[1, 3]); // r1c5
    restrict(&mut b, 36, &[2, 3]); // r5c1
    let h = wings::xy_wing(&b, false).expect("an XY-wing");
    assert_eq!((h.name, h.difficulty), ("XY-Wing", 42));
    assert_eq!(h.elim[2], set(&[40]));
    assert!(wings::xy_wing(&b, true).is_none());
}

#[test]
fn skyscraper_on_two_columns() {
    let mut b = Board::new();
    remove_digit(&mut b, 1, HOUSE_MASK[18] & !set(&[0, 54]));
    remove_digit(&mut b, 1, HOUSE_MASK[18 + 4] & !set(&[13, 58]));
    let mut buf = Vec::new();
    let h = links::n_links(&b, &mut buf, 2, &mut links::NoChains::default()).expect("a skyscraper");
    assert_eq!((h.name, h.difficulty), ("Skyscraper 011", 40));
    assert_eq!(h.elim[0], set(&[3, 5, 10, 11]));
}

#[test]
fn grouped_link_in_the_middle_of_three_strong_links() {
    let mut b = Board::new();
    // Digit 1 in row 1 only at r1c1 and r1c5; in box 5 only on the cross r4c5, r6c5
    // (column) and r5c4, r5c6 (row), a grouped link both of whose ends are groups; in
    // column 9 only at r5c9 and r9c9. r1c5 sees the column group, the row group sees
    // r5c9: r1c1 = 1 or r9c9 = 1, so r9c1 (seeing both, outside the chain's houses and
    // its weak links' column 5 and row 5) is not 1.
    remove_digit(&mut b, 1, HOUSE_MASK[9] & !set(&[0, 4]));
    remove_digit(&mut b, 1, HOUSE_MASK[4] & !set(&[31, 49, 39, 41]));
    remove_digit(&mut b, 1, HOUSE_MASK[18 + 8] & !set(&[44, 80]));
    let mut buf = Vec::new();
    let h = links::n_links(&b, &mut buf, 3, &mut links::NoChains::default())
        .expect("three strong links");
    // a row, a box (grouped) and a column: "1" grouped link, then the kinds "102"
    assert_eq!((h.name, h.difficulty), ("Grouped 3 Strong links 1102", 57));
    assert_eq!(h.elim[0], set(&[72]));
    assert!(h.elim[1..].iter().all(|&e| e == 0));
}

#[test]
fn aligned_pair_exclusion_removes_a_digit_no_pair_allows() {
    let mut b = Board::new();
    // r1c5 {1,2} and r1c6 {1,3} see both r1c1 {1,5} and r1c2 {2,3}: r1c1 = 1 would
    // leave r1c2 = 2 (r1c5 empty) or 3 (r1c6 empty).
    restrict(&mut b, 4, &[1, 2]);
    restrict(&mut b, 5, &[1, 3]);
    restrict(&mut b, 0, &[1, 5]);
    restrict(&mut b, 1, &[2, 3]);
    let h = aligned::aligned_exclusion(&b, 2).expect("an aligned pair exclusion");
    assert_eq!((h.name, h.difficulty), ("Aligned Pair Exclusion", 62));
    assert_eq!(h.elim[0], set(&[0]));
    assert!(h.elim[1..].iter().all(|&e| e == 0));
    // with r1c6 {1,4} instead, r1c1 = 1 and r1c2 = 3 is possible: nothing to remove
    let mut b = Board::new();
    restrict(&mut b, 4, &[1, 2]);
    restrict(&mut b, 5, &[1, 4]);
    restrict(&mut b, 0, &[1, 5]);
    restrict(&mut b, 1, &[2, 3]);
    assert!(aligned::aligned_exclusion(&b, 2).is_none());
}

#[test]
fn aligned_triplet_exclusion_removes_a_digit_no_triplet_allows() {
    let mut b = Board::new();
    // r1c1 {1,3}, r1c2 {2,4}, r1c3 {1,5}, with r1c7 {1,2} and r1c8 {3,4} seeing all
    // three: r1c3 = 1 forces r1c1 = 3, then r1c2 is 4 (r1c8 empty) or 2 (r1c7 empty).
    restrict(&mut b, 0, &[1, 3]);
    restrict(&mut b, 1, &[2, 4]);
    restrict(&mut b, 2, &[1, 5]);
    restrict(&mut b, 6, &[1, 2]);
    restrict(&mut b, 7, &[3, 4]);
    assert!(aligned::aligned_exclusion(&b, 2).is_none());
    let h = aligned::aligned_exclusion(&b, 3).expect("an aligned triplet exclusion");
    assert_eq!((h.name, h.difficulty), ("Aligned Triplet Exclusion", 75));
    assert_eq!(h.elim[0], set(&[2]));
    assert!(h.elim[1..].iter().all(|&e| e == 0));
}

#[test]
fn unique_rectangle_type_3_with_a_hidden_pair() {
    let mut b = Board::new();
    // A rectangle on 1 and 2: r1c1, r1c4 {1,2}, r2c1 {1,2,3}, r2c4 {1,2,4}. In row 2,
    // 1 and 2 lie only in r2c1, r2c4 and r2c7; one of r2c1, r2c4 holds 3 or 4, so 1
    // and 2 fill r2c7 and the other: r2c7 keeps only 1 and 2 (4.5, a pair).
    restrict(&mut b, 0, &[1, 2]);
    restrict(&mut b, 3, &[1, 2]);
    restrict(&mut b, 9, &[1, 2, 3]);
    restrict(&mut b, 12, &[1, 2, 4]);
    for d in [1, 2] {
        remove_digit(&mut b, d, HOUSE_MASK[10] & !set(&[9, 12, 15]));
    }
    let h = uniqueness::unique_loops(&b).expect("a unique rectangle");
    assert_eq!((h.name, h.difficulty), ("Unique Rectangle type 3", 45));
    for di in 0..9 {
        let want = if di < 2 { 0 } else { set(&[15]) };
        assert_eq!(h.elim[di], want, "digit {}", di + 1);
    }
}

/// The puzzles of the serate ratings file with serate's ER, in file order.
fn serate_rows() -> impl Iterator<Item = (&'static str, f64)> {
    let file = include_str!("../../tests/data/serate_ratings.csv");
    file.lines()
        .filter(|l| !l.starts_with('#'))
        .skip(1)
        .map(|line| {
            let mut f = line.split(',');
            let (puzzle, er) = (f.next().unwrap(), f.next().unwrap());
            (puzzle, er.parse().unwrap())
        })
}

/// Every step of every rated puzzle in the serate file between ER 4.5 and 8.5 keeps
/// the solution: no removed candidate is the solution's digit, every placement is.
#[test]
fn no_step_removes_the_solutions_digit() {
    let mut rater = Rater::new();
    let mut checked = 0;
    for (puzzle, er) in serate_rows() {
        if !(4.5..=8.5).contains(&er) {
            continue;
        }
        let grid = Grid::parse(puzzle.as_bytes()).unwrap();
        let solution = crate::solve(&grid, 2).first.unwrap();
        let sol = solution.cells();
        let r = rater.rate(&grid, true).unwrap();
        for s in &r.steps {
            for &(c, d) in &s.removed {
                assert_ne!(
                    sol[c as usize],
                    d,
                    "{puzzle}: {} removes r{}c{}<>{d}",
                    s.technique,
                    c / 9 + 1,
                    c % 9 + 1
                );
            }
            for &(c, d) in &s.placed {
                assert_eq!(
                    sol[c as usize], d,
                    "{puzzle}: {} places a wrong digit",
                    s.technique
                );
            }
        }
        checked += 1;
    }
    assert!(checked > 300, "{checked} puzzles checked");
}

#[test]
fn unique_rectangle_type_1_clears_the_pair_from_the_fourth_cell() {
    let mut b = Board::new();
    // r1c1, r1c4, r2c1 hold only 1 and 2; r2c4 holds 1, 2 and 3
    for c in [0, 3, 9] {
        restrict(&mut b, c, &[1, 2]);
    }
    restrict(&mut b, 12, &[1, 2, 3]);
    let h = uniqueness::unique_loops(&b).expect("a unique rectangle");
    assert_eq!((h.name, h.difficulty), ("Unique Rectangle type 1", 45));
    assert_eq!((h.elim[0], h.elim[1]), (set(&[12]), set(&[12])));
    assert!(h.elim[2..].iter().all(|&e| e == 0));
}

#[test]
fn wxyz_wing_removes_z_seen_by_all_its_copies() {
    let mut b = Board::new();
    // An almost locked set in row 1: r1c1 {1,2}, r1c2 {1,3}, r1c3 {1,2,4} (four digits
    // in three cells), and the bivalue r1c5 {3,4}. Both 3 and 4 sit in set cells that
    // see r1c5 (a double link), so each digit of the pattern leaves the cells that see
    // all its copies: for 4 (r1c3 and r1c5), the rest of row 1.
    restrict(&mut b, 0, &[1, 2]);
    restrict(&mut b, 1, &[1, 3]);
    restrict(&mut b, 2, &[1, 2, 4]);
    restrict(&mut b, 4, &[3, 4]);
    let h = wings::als_wing(&b, 3, &mut wings::NoWings::default()).expect("a WXYZ-wing");
    // doubly linked (removing other digits too), at most 3 candidates a cell, 7 in all
    assert_eq!(h.name, "WXYZ-Wing 237");
    assert_eq!(h.difficulty, 56);
    assert_eq!(h.elim[3], HOUSE_MASK[9] & !set(&[0, 1, 2, 4]));
}

/// Puzzles from `data/generated_1000.txt` and `../shared/data/puzzles2_17_clue`, each
/// with the ER, EP and ED (tenths) serate gave, one of each hardest technique we have:
/// `java -cp BUILD diuf.sudoku.test.serate --threads=1 --format="%g,%r,%p,%d,%e,%R"
/// --input=FILE` (Sukaku Explainer commit 362854e, default options).
const SERATE: &[(&str, u8, u8, u8)] = &[
    (
        "....92..336....57..5........3....1.79..1...5.5.47....27.............1.6...19.3...",
        15,
        12,
        12,
    ), // Hidden Single
    (
        "..5.........7...3..7.1.5......8.4.7...2......96...781........63..6.92..4.9.....2.",
        17,
        12,
        12,
    ), // Direct Pointing
    (
        ".3....1......9..8....7...39..6.........8...1.3.9.764....2..5...6534.....41..6...8",
        20,
        12,
        12,
    ), // Direct Hidden Pair
    (
        ".1....7...4567...9........6..1...39.9.2.3...13...2.......74.....3...8.6.8..29....",
        23,
        12,
        12,
    ), // Naked Single
    (
        "..............1..2.34....5.........6......34.5.7..8.......4....2......899..7.....",
        25,
        15,
        15,
    ), // Direct Hidden Triplet
    (
        ".4.3..1..9....1..31.....57921...43.8......7..8......51.....6..5..51.8..7..94.....",
        26,
        12,
        12,
    ), // Pointing
    (
        "...68...163............96.7.......328..7.5...1.5....8.2..56.....6..9......1..2..4",
        28,
        12,
        12,
    ), // Claiming
    (
        "......8....6.9.1....8.....97......2..2...6..5.31..7.4.....4.....4..7..3..7.53...1",
        30,
        12,
        12,
    ), // Naked Pair
    (
        ".8.....6.7....19.....6..2.......9.1..7.8.......4....3...5.97....28.6.5...1..3..9.",
        32,
        12,
        12,
    ), // X-Wing
    (
        "....5.........2..693..6.....5....7..8..4...251.9...........6..7.1.2.3.5.67.1...42",
        34,
        12,
        12,
    ), // Hidden Pair
    (
        "..5.278....1....4............3.....9....954.3.9...1.7.7....6.2..481....6.3.75....",
        40,
        12,
        12,
    ), // Skyscraper
    (
        "6.9.1...3.8...4...4...9..62.........71...6.2...8.31..5.635...9..........2..7.9...",
        41,
        12,
        12,
    ), // 2-String Kite
    (
        "3.7...9..2..6.7.......4.26......1.......9.38...12.64..5....4.1........9...3.8.5.4",
        42,
        12,
        12,
    ), // XY-Wing
    (
        "394..1.7...6...........9..25......2...7.....19...8....4..7.513.7.....9..8..3...5.",
        44,
        12,
        12,
    ), // XYZ-Wing
];

#[test]
fn chain_length_penalty_steps_as_sudoku_explainers() {
    // +0.1 each time the length (nodes - 2) passes 4, 6, 8, 12, 16, 24, 32, ...
    let steps: Vec<u8> = [6, 7, 8, 9, 10, 11, 14, 15, 18, 19, 26, 27, 34, 35]
        .iter()
        .map(|&n| chains::length_difficulty(n))
        .collect();
    assert_eq!(steps, [0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7]);
}

#[test]
fn ratings_equal_serates() {
    let mut rater = Rater::new();
    for &(puzzle, er, ep, ed) in SERATE {
        let grid = Grid::parse(puzzle.as_bytes()).unwrap();
        let r = rater
            .rate(&grid, false)
            .unwrap_or_else(|e| panic!("{puzzle}: {e}"));
        assert_eq!(
            (r.er, r.ep, r.ed),
            (er, ep, ed),
            "{puzzle} ({})",
            r.er_technique
        );
    }
}

#[test]
fn steps_replay_to_the_solution() {
    let (puzzle, er, _, _) = SERATE[12];
    let grid = Grid::parse(puzzle.as_bytes()).unwrap();
    let r = super::rate(&grid).unwrap();
    assert_eq!(r.steps.len() as u32, r.step_count);
    assert_eq!(r.steps.iter().map(|s| s.difficulty).max(), Some(er));
    let mut cells = *grid.cells();
    for s in &r.steps {
        for &(c, d) in &s.placed {
            assert_eq!(cells[c as usize], 0);
            cells[c as usize] = d;
        }
    }
    let solved = Grid::from_cells(cells).unwrap();
    assert!(solved.is_valid_solution() && solved.agrees_with(&grid));
}

/// Runs `search` on one position with a fresh memory, then with `kept`, and asserts
/// that both find the same (`what` says which search where). Returns whether it found
/// something and what `skips` counts on the kept memory as it was before the search
/// (the digits it let the search skip).
fn same_as_fresh<M: Clone + Default, R: PartialEq + std::fmt::Debug>(
    kept: &mut M,
    mut search: impl FnMut(&mut M) -> Option<R>,
    skips: impl Fn(&M) -> usize,
    what: String,
) -> (usize, usize) {
    let before = kept.clone();
    let fresh = search(&mut M::default());
    let with = search(kept);
    assert_eq!(fresh, with, "{what}");
    (usize::from(fresh.is_some()), skips(&before))
}

/// The memories of boards without a hint (strong-link chains, fish and locking: per digit; ALS
/// wings: the last board) change nothing: along the rating paths of puzzles of the serate
/// file (ER 4.5 to 8.5), at every position, the search with one memory kept across
/// all positions and puzzles finds what a search without memory finds, and the chains'
/// and the fish's memories do skip digits.
#[test]
fn memories_of_searches_find_what_a_fresh_search_finds() {
    let mut rater = Rater::new();
    let mut kept_fish = fish::NoFish::default();
    let mut kept_locking = singles::NoLocking::default();
    let (mut locking_found, mut locking_skipped) = (0, 0);
    let (mut fish_found, mut fish_skipped) = (0, 0);
    let (mut buf, mut kept) = (Vec::new(), links::NoChains::default());
    let mut kept_wings = wings::NoWings::default();
    let (mut positions, mut found, mut skipped, mut wings_found) = (0, 0, 0, 0);
    for (puzzle, er) in serate_rows().step_by(5) {
        if !(4.5..=8.5).contains(&er) {
            continue;
        }
        let grid = Grid::parse(puzzle.as_bytes()).unwrap();
        let r = rater.rate(&grid, true).unwrap();
        let mut b = Board::from_values(grid.cells());
        for s in &r.steps {
            for k in 3..=6 {
                let (hit, _) = same_as_fresh(
                    &mut kept_wings,
                    |m| wings::als_wing(&b, k, m),
                    |_| 0,
                    format!("{puzzle}: {k}-cell wing after {positions} positions"),
                );
                wings_found += hit;
            }
            for direct in [true, false] {
                let (hit, skips) = same_as_fresh(
                    &mut kept_locking,
                    |m| singles::locking(&b, direct, m),
                    |before| {
                        (0..9)
                            .filter(|&d| before.remembers(direct, d, b.digit[d]))
                            .count()
                    },
                    format!("{puzzle}: locking ({direct}) after {positions} positions"),
                );
                locking_found += hit;
                locking_skipped += skips;
            }
            for degree in 2..=4 {
                let (hit, skips) = same_as_fresh(
                    &mut kept_fish,
                    |m| fish::fish(&b, degree, m),
                    |before| (0..9).filter(|&d| before.remembers(degree, d, &b)).count(),
                    format!("{puzzle}: fish of {degree} after {positions} positions"),
                );
                fish_found += hit;
                fish_skipped += skips;
            }
            for n in 2..=4 {
                let (hit, skips) = same_as_fresh(
                    &mut kept,
                    |m| links::n_links(&b, &mut buf, n, m),
                    |before| {
                        (0..9)
                            .filter(|&d| before.remembers(n, d, b.digit[d]))
                            .count()
                    },
                    format!("{puzzle}: {n} links after {positions} positions"),
                );
                found += hit;
                skipped += skips;
            }
            positions += 1;
            apply_step(&mut b, s);
        }
    }
    assert!(positions > 1000, "{positions} positions");
    assert!(found > 10, "{found} chains found");
    assert!(skipped > positions, "{skipped} digit searches skipped");
    assert!(wings_found > 10, "{wings_found} wings found");
    assert!(fish_found > 10, "{fish_found} fish found");
    assert!(locking_found > 10, "{locking_found} lockings found");
    assert!(
        locking_skipped > positions,
        "{locking_skipped} digit locking scans skipped"
    );
    assert!(
        fish_skipped > positions,
        "{fish_skipped} digit fish scans skipped"
    );
}

/// Aligned exclusion's memory (the last position its scan found nothing on, and the
/// sets whose cells and excluders are as they were there), "Forcing Chains & Cycles"'s
/// memory (under X-links, the sources of digits whose positions are as they were
/// there), the Nishio chains' memory (the same for their runs) and the cell and region
/// forcing chains reading the graph "Forcing Chains & Cycles" built on the same
/// position, with their memory of the last position they found nothing on, change
/// nothing: along the rating paths of puzzles of the serate file
/// (ER 6.2 to 9.0), at every position, they find what fresh searches find.
#[test]
fn aligned_memory_and_shared_graph_find_what_fresh_searches_find() {
    let mut rater = Rater::new();
    let mut kept = aligned::Aligned::default();
    let (mut chains, mut multiple) = (chains::Chains::default(), chains::Multiple::default());
    let mut nishio = dynamic::Dynamic::default();
    let mut nishio_found = 0;
    let (mut positions, mut aligned_found, mut multiple_found, mut cycles_found) = (0, 0, 0, 0);
    for (puzzle, er) in serate_rows().step_by(4) {
        if !(6.2..=9.0).contains(&er) {
            continue;
        }
        let grid = Grid::parse(puzzle.as_bytes()).unwrap();
        let r = rater.rate(&grid, true).unwrap();
        let mut b = Board::from_values(grid.cells());
        for s in &r.steps {
            if singles::naked_single(&b).is_none() && singles::hidden_single(&b).is_none() {
                for degree in [2, 3] {
                    let fresh = aligned::aligned_exclusion(&b, degree);
                    assert_eq!(
                        fresh,
                        kept.hint(&b, degree),
                        "{puzzle}: aligned {degree} after {positions} positions"
                    );
                    aligned_found += usize::from(fresh.is_some());
                }
                if s.difficulty >= 65 {
                    let fresh = chains::Multiple::default()
                        .cell_and_region_chains(&b, &mut chains::Chains::default());
                    // "Forcing Chains & Cycles" with its memory of the last position
                    // it found nothing on, against a fresh search
                    let fresh_cycles = chains::Chains::default().cycles_and_forcing_chains(&b);
                    assert_eq!(
                        fresh_cycles,
                        chains.cycles_and_forcing_chains(&b),
                        "{puzzle}: cycles after {positions} positions"
                    );
                    cycles_found += usize::from(fresh_cycles.is_some());
                    // the Nishio chains with their memory, against fresh ones
                    let fresh_nishio = dynamic::Dynamic::default().hint(&b, dynamic::Kind::Nishio);
                    assert_eq!(
                        fresh_nishio,
                        nishio.hint(&b, dynamic::Kind::Nishio),
                        "{puzzle}: Nishio after {positions} positions"
                    );
                    nishio_found += usize::from(fresh_nishio.is_some());
                    let shared = multiple.cell_and_region_chains(&b, &mut chains);
                    assert_eq!(fresh, shared, "{puzzle}: after {positions} positions");
                    multiple_found += usize::from(fresh.is_some());
                }
                positions += 1;
            }
            apply_step(&mut b, s);
        }
    }
    assert!(positions > 1000, "{positions} positions");
    assert!(
        aligned_found > 5,
        "{aligned_found} aligned exclusions found"
    );
    assert!(
        multiple_found > 10,
        "{multiple_found} cell or region chains found"
    );
    assert!(
        cycles_found > 10,
        "{cycles_found} cycles or forcing chains found"
    );
    assert!(nishio_found > 5, "{nishio_found} Nishio chains found");
    assert!(
        nishio.nishio_skipped > 1000,
        "{} Nishio candidates skipped",
        nishio.nishio_skipped
    );
    // the memories of "Forcing Chains & Cycles" and of the cell and region chains (the
    // last position they found nothing on) did leave sources and groups unsearched
    assert!(
        chains.skipped > 1000,
        "{} chain sources skipped",
        chains.skipped
    );
    assert!(
        multiple.skipped > 1000,
        "{} groups skipped",
        multiple.skipped
    );
}

/// Play step `s` of a rating path on `b`: its removals, then its placements.
pub(super) fn apply_step(b: &mut Board, s: &super::Step) {
    let mut elim = [0u128; 9];
    for &(c, d) in &s.removed {
        elim[usize::from(d) - 1] |= 1u128 << c;
    }
    b.eliminate(&elim);
    for &(c, d) in &s.placed {
        b.place(usize::from(c), d);
    }
}

#[test]
fn subsets_of_a_mask_are_the_combinations_inside_it_in_order() {
    for mask in 0..512u32 {
        for k in 1..=6 {
            let want: Vec<u32> = singles::combos(k).filter(|&s| s & !mask == 0).collect();
            let got: Vec<u32> = singles::subsets_of(mask, k).collect();
            assert_eq!(got, want, "mask {mask:09b}, k {k}");
        }
    }
}

/// A forum-hardest puzzle whose second step needs nesting level 4 ("+ Dynamic Forcing
/// Chains"): rated as serate rates it (`tests/data/serate_steps_level4.txt`: ER 11.5 by
/// "Dynamic Cell Forcing Chains (+ Dynamic Forcing Chains)", ED 11.4, EP 11.5).
#[test]
fn a_puzzle_needing_nesting_level_four_is_rated_as_serate_rates_it() {
    let p = "..34......5...9...6...2.1..2...6...1.4.5...6...6..3.....9...6.7......8.28...7..1.";
    let grid = Grid::parse(p.as_bytes()).unwrap();
    let r = Rater::new().rate(&grid, false).unwrap();
    assert_eq!(
        (r.er, r.ep, r.ed, r.er_technique, r.step_count),
        (
            115,
            115,
            114,
            "Dynamic Cell Forcing Chains (+ Dynamic Forcing Chains)",
            115
        )
    );
}

/// A puzzle past the nesting built says the steps taken and a lower bound of its ER.
#[test]
fn the_stuck_error_names_the_lower_bound_of_the_er() {
    let err = super::RateError::Stuck {
        steps: 1,
        er_at_least: 114,
    };
    assert!(
        err.to_string()
            .starts_with("no technique applies after 1 steps"),
        "{err}"
    );
    assert!(err.to_string().ends_with("ER 11.4 or more"), "{err}");
}
