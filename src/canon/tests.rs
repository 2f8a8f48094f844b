//! Properties of the canonical form: invariance under every generator, idempotence,
//! equivalence, exactness against brute force, and no false isomorphs.

// Grid coordinates read best as index loops here.
#![allow(clippy::needless_range_loop)]

use super::*;
use crate::solver::count;
use proptest::prelude::*;

const P17: &str =
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

/// SplitMix64: a small deterministic generator, seeded by proptest.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        mix_a(self.0)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i + 1));
        }
    }
}

/// A random complete grid: a few random consistent givens, then the solver's first
/// solution.
fn random_solution(rng: &mut Rng) -> Grid {
    loop {
        let mut g = Grid::EMPTY;
        for _ in 0..12 {
            let (cell, digit) = (rng.below(81), rng.below(9) as u8 + 1);
            let old = g.get(cell);
            g.set(cell, digit);
            if g.check_givens().is_err() {
                g.set(cell, old);
            }
        }
        if let Some(solution) = crate::solve(&g, 1).first {
            return solution;
        }
    }
}

/// `clues` random cells of a random solution: few clues give several solutions.
fn random_puzzle(rng: &mut Rng, clues: usize) -> Grid {
    let solution = random_solution(rng);
    let mut cells: Vec<usize> = (0..81).collect();
    rng.shuffle(&mut cells);
    let mut g = Grid::EMPTY;
    for &cell in &cells[..clues] {
        g.set(cell, solution.get(cell));
    }
    g
}

/// A puzzle with non-trivial automorphisms: givens of the pattern grid
/// `(3(r mod 3) + r/3 + c) mod 9 + 1` on a cell set repeated in every band (cycling
/// bands then shifts every digit by one) and, optionally, in every stack.
fn symmetric_puzzle(rng: &mut Rng, per_box: usize, every_stack: bool) -> Grid {
    let pattern = |r: usize, c: usize| ((3 * (r % 3) + r / 3 + c) % 9 + 1) as u8;
    let mut g = Grid::EMPTY;
    let width = if every_stack { 3 } else { 9 };
    let stacks = if every_stack { 3 } else { 1 };
    let mut cells: Vec<usize> = (0..3 * width).collect();
    rng.shuffle(&mut cells);
    for &i in &cells[..per_box.min(cells.len())] {
        let (r, c) = (i / width, i % width);
        for band in 0..3 {
            for stack in 0..stacks {
                let (r2, c2) = (band * 3 + r, stack * 3 + c);
                g.set(r2 * 9 + c2, pattern(r2, c2));
            }
        }
    }
    g
}

/// Apply a row order, a column order, a transposition and a digit relabelling.
fn transform(
    g: &Grid,
    rows: &[usize; 9],
    cols: &[usize; 9],
    transpose: bool,
    digits: &[u8; 10],
) -> Grid {
    let mut out = [0u8; 81];
    for r in 0..9 {
        for c in 0..9 {
            let (sr, sc) = (rows[r], cols[c]);
            let (sr, sc) = if transpose { (sc, sr) } else { (sr, sc) };
            out[r * 9 + c] = digits[g.get(sr * 9 + sc) as usize];
        }
    }
    Grid::from_cells(out).unwrap()
}

const ID: [usize; 9] = [0, 1, 2, 3, 4, 5, 6, 7, 8];
const ID_DIGITS: [u8; 10] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];

/// A random row (or column) order allowed by the band structure.
fn random_order(rng: &mut Rng) -> [usize; 9] {
    let mut bands = [0, 1, 2];
    rng.shuffle(&mut bands);
    let mut order = [0; 9];
    for (b, &band) in bands.iter().enumerate() {
        let mut within = [0, 1, 2];
        rng.shuffle(&mut within);
        for i in 0..3 {
            order[b * 3 + i] = band * 3 + within[i];
        }
    }
    order
}

fn random_digits(rng: &mut Rng) -> [u8; 10] {
    let mut digits = ID_DIGITS;
    rng.shuffle(&mut digits[1..]);
    digits
}

/// A random element of the whole group applied to `g`.
fn random_transform(rng: &mut Rng, g: &Grid) -> Grid {
    let (rows, cols) = (random_order(rng), random_order(rng));
    let digits = random_digits(rng);
    let transpose = rng.below(2) == 1;
    transform(g, &rows, &cols, transpose, &digits)
}

/// One generator of the group, chosen by `which`, with random parameters.
fn generator(rng: &mut Rng, g: &Grid, which: usize) -> Grid {
    let band = rng.below(3) * 3;
    let (i, j) = (rng.below(3), 1 + rng.below(2));
    let mut in_band = ID;
    in_band.swap(band + i, band + (i + j) % 3);
    let mut bands = ID;
    let (x, y) = (rng.below(3), 1 + rng.below(2));
    for k in 0..3 {
        bands.swap(x * 3 + k, ((x + y) % 3) * 3 + k);
    }
    match which {
        0 => transform(g, &in_band, &ID, false, &ID_DIGITS),
        1 => transform(g, &bands, &ID, false, &ID_DIGITS),
        2 => transform(g, &ID, &in_band, false, &ID_DIGITS),
        3 => transform(g, &ID, &bands, false, &ID_DIGITS),
        4 => transform(g, &ID, &ID, true, &ID_DIGITS),
        _ => transform(g, &ID, &ID, false, &random_digits(rng)),
    }
}

/// The puzzles the properties are checked on: typical clue counts, few clues (several
/// solutions), symmetric ones with automorphisms, and nearly full grids.
fn sample(rng: &mut Rng, kind: usize) -> Grid {
    let n = rng.below(20);
    match kind {
        0 => random_puzzle(rng, 17 + n),
        1 => random_puzzle(rng, n % 12),
        2 => symmetric_puzzle(rng, 1 + n % 6, false),
        3 => symmetric_puzzle(rng, 1 + n % 5, true),
        _ => random_puzzle(rng, 60 + n),
    }
}

/// The smallest relabelled image over all 3.36 million group elements, by brute force.
fn brute_force_min(g: &Grid) -> Grid {
    let mut orders = Vec::new();
    for bands in PERMS3 {
        for a in PERMS3 {
            for b in PERMS3 {
                for c in PERMS3 {
                    let mut order = [0usize; 9];
                    for (i, within) in [a, b, c].iter().enumerate() {
                        for k in 0..3 {
                            order[i * 3 + k] = bands[i] as usize * 3 + within[k] as usize;
                        }
                    }
                    orders.push(order);
                }
            }
        }
    }
    let mut best = [u8::MAX; 81];
    for transpose in [false, true] {
        for rows in &orders {
            for cols in &orders {
                let mut labels = [0u8; 10];
                let mut next = 1;
                let mut image = [0u8; 81];
                let mut smaller = false;
                'cells: for r in 0..9 {
                    for c in 0..9 {
                        let (sr, sc) = if transpose {
                            (cols[c], rows[r])
                        } else {
                            (rows[r], cols[c])
                        };
                        let v = g.get(sr * 9 + sc) as usize;
                        let label = if v == 0 {
                            BLANK
                        } else {
                            if labels[v] == 0 {
                                labels[v] = next;
                                next += 1;
                            }
                            labels[v]
                        };
                        let i = r * 9 + c;
                        image[i] = label;
                        if !smaller {
                            if label > best[i] {
                                break 'cells;
                            }
                            smaller = label < best[i];
                        }
                    }
                }
                if smaller {
                    best = image;
                }
            }
        }
    }
    Grid::from_cells(best.map(|v| if v == BLANK { 0 } else { v })).unwrap()
}

#[test]
fn empty_and_known_puzzles_are_stable() {
    assert_eq!(canonical(&Grid::EMPTY), Grid::EMPTY);
    let p: Grid = P17.parse().unwrap();
    let c = canonical(&p);
    assert_ne!(c, p);
    assert_eq!(c.clues(), p.clues());
    assert_eq!(canonical(&c), c);
}

#[test]
fn matches_brute_force_minimum() {
    // One puzzle of each kind: brute force costs a fraction of a second per puzzle in
    // release builds, much more in debug builds.
    let mut rng = Rng(7);
    let mut puzzles: Vec<Grid> = vec![P17.parse().unwrap()];
    puzzles.extend((0..5).map(|kind| sample(&mut rng, kind)));
    if cfg!(debug_assertions) {
        puzzles.truncate(1);
    }
    let mut canon = Canonicalizer::new();
    for p in &puzzles {
        assert_eq!(
            canon.canonical(p),
            brute_force_min(p),
            "puzzle {}",
            p.to_line()
        );
    }
}

#[test]
fn distinct_random_puzzles_have_distinct_forms() {
    let mut rng = Rng(11);
    let mut canon = Canonicalizer::new();
    let mut puzzles = std::collections::HashSet::new();
    let mut forms = std::collections::HashSet::new();
    let mut prints = std::collections::HashSet::new();
    for _ in 0..3000 {
        let clues = 22 + rng.below(10);
        let p = random_puzzle(&mut rng, clues);
        if puzzles.insert(p) {
            let c = canon.canonical(&p);
            assert!(forms.insert(c), "false isomorph: {}", p.to_line());
            assert!(prints.insert(fingerprint(&c)));
        }
    }
    assert!(forms.len() > 2900);
}

#[test]
fn transformed_copies_are_all_recognised() {
    let mut rng = Rng(13);
    let mut canon = Canonicalizer::new();
    for kind in (0..5).cycle().take(500) {
        let p = sample(&mut rng, kind);
        let q = random_transform(&mut rng, &p);
        assert_eq!(
            fingerprint(&canon.canonical(&p)),
            fingerprint(&canon.canonical(&q)),
            "{} vs {}",
            p.to_line(),
            q.to_line()
        );
    }
}

#[test]
fn fingerprints_separate_nearby_grids() {
    let p: Grid = P17.parse().unwrap();
    let mut seen = std::collections::HashSet::new();
    seen.insert(fingerprint(&p));
    for cell in 0..81 {
        for v in 0..=9 {
            let mut q = *p.cells();
            if q[cell] == v {
                continue;
            }
            q[cell] = v;
            assert!(seen.insert(fingerprint(&Grid::from_cells(q).unwrap())));
        }
    }
    assert_eq!(seen.len(), 1 + 81 * 9);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn invariant_under_every_generator(seed: u64, kind in 0usize..5, which in 0usize..6) {
        let mut rng = Rng(seed);
        let p = sample(&mut rng, kind);
        let q = generator(&mut rng, &p, which);
        prop_assert_eq!(canonical(&p), canonical(&q), "{} vs {}", p.to_line(), q.to_line());
    }

    #[test]
    fn invariant_under_random_group_elements(seed: u64, kind in 0usize..5) {
        let mut rng = Rng(seed);
        let p = sample(&mut rng, kind);
        let q = random_transform(&mut rng, &p);
        prop_assert_eq!(canonical(&p), canonical(&q), "{} vs {}", p.to_line(), q.to_line());
    }

    #[test]
    fn canonical_form_is_idempotent_and_equivalent(seed: u64, kind in 0usize..5) {
        let mut rng = Rng(seed);
        let p = sample(&mut rng, kind);
        let c = canonical(&p);
        prop_assert_eq!(canonical(&c), c);
        prop_assert_eq!(c.clues(), p.clues());
        prop_assert!(c.check_givens().is_ok());
        // Equivalent puzzles have as many solutions (capped alike).
        prop_assert_eq!(count(&c, 50).solutions, count(&p, 50).solutions);
        // Relabelling keeps the multiset of digit frequencies.
        let freq = |g: &Grid| {
            let mut f = [0usize; 10];
            for &v in g.cells() {
                f[v as usize] += 1;
            }
            let mut f = f[1..].to_vec();
            f.sort_unstable();
            f
        };
        prop_assert_eq!(freq(&c), freq(&p));
    }
}
