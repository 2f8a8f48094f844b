//! Random puzzles with a unique solution, deterministic for a seed.
//!
//! Each puzzle `i` has its own random stream derived from `(seed, i)` ([`Rng::for_puzzle`]),
//! so a caller that makes puzzle `i` from stream `i` gets output that depends only on the
//! seed and the count, never on the number of threads. A puzzle is made in two steps: a
//! random complete grid (filled cell by cell in random digit order), then its cells are
//! blanked in random order, each blank kept only while the puzzle still has exactly one
//! solution. The result is minimal: no given can be removed without losing uniqueness.

use crate::grid::{houses_of, Grid, CELLS};
use crate::solver::Solver;

/// One minimal puzzle with a unique solution.
pub fn generate_one(solver: &mut Solver, rng: &mut Rng) -> Grid {
    let solution = random_solution(rng);
    let mut puzzle = solution;
    let mut order: [u8; CELLS] = std::array::from_fn(|i| i as u8);
    rng.shuffle(&mut order);
    for &cell in &order {
        let cell = cell as usize;
        let digit = puzzle.get(cell);
        puzzle.set(cell, 0);
        if solver.count(&puzzle, 2).solutions != 1 {
            puzzle.set(cell, digit);
        }
    }
    puzzle
}

/// A random complete valid grid, filled cell by cell by a plain backtracking search
/// that tries each cell's digits in a random order. It uses only `rng`, never the
/// solver's own search order, so a seed gives the same grids whatever the engine's
/// heuristics become (the solver only ever answers "unique or not" here).
pub fn random_solution(rng: &mut Rng) -> Grid {
    let mut cells = [0u8; CELLS];
    let mut used = [0u16; 27];
    let filled = fill_from(0, &mut cells, &mut used, rng);
    debug_assert!(filled, "an empty grid always has a completion");
    Grid::from_cells(cells).expect("digits are 1..=9")
}

/// Fill `cells[cell..]` given the digits `used` per house (rows, columns, boxes);
/// `false` when no filling exists, with `cells` and `used` restored.
fn fill_from(cell: usize, cells: &mut [u8; CELLS], used: &mut [u16; 27], rng: &mut Rng) -> bool {
    if cell == CELLS {
        return true;
    }
    let houses = houses_of(cell);
    let taken = used[houses[0]] | used[houses[1]] | used[houses[2]];
    let mut digits: [u8; 9] = std::array::from_fn(|i| i as u8 + 1);
    rng.shuffle(&mut digits);
    for digit in digits {
        let bit = 1u16 << digit;
        if taken & bit != 0 {
            continue;
        }
        cells[cell] = digit;
        houses.iter().for_each(|&h| used[h] |= bit);
        if fill_from(cell + 1, cells, used, rng) {
            return true;
        }
        houses.iter().for_each(|&h| used[h] &= !bit);
    }
    cells[cell] = 0;
    false
}

/// A small seeded PRNG: xoshiro256** seeded through splitmix64 (both public-domain
/// algorithms by Blackman and Vigna). Not for cryptography.
#[derive(Debug, Clone)]
pub struct Rng {
    s: [u64; 4],
}

/// One step of splitmix64: advances `state` and returns a well-mixed value.
fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Rng {
    /// A generator seeded from one number.
    pub fn new(seed: u64) -> Rng {
        let mut state = seed;
        Rng {
            s: std::array::from_fn(|_| splitmix64(&mut state)),
        }
    }

    /// The generator of puzzle `index` under `seed`: independent streams per puzzle so
    /// that the output does not depend on which thread made which puzzle.
    pub fn for_puzzle(seed: u64, index: u64) -> Rng {
        let mut mix = seed;
        let a = splitmix64(&mut mix);
        let mut mix = index ^ a.rotate_left(17);
        Rng::new(splitmix64(&mut mix) ^ a)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let s = &mut self.s;
        let result = s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        result
    }

    /// A uniform value in `0..n` (`n > 0`), without modulo bias (Lemire's method).
    pub fn below(&mut self, n: u64) -> u64 {
        let n = n.max(1);
        loop {
            let m = (self.next_u64() as u128) * (n as u128);
            let low = m as u64;
            if low >= n.wrapping_neg() % n {
                return (m >> 64) as u64;
            }
        }
    }

    /// Shuffle `items` in place (Fisher–Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rng_is_deterministic_and_in_range() {
        let mut a = Rng::new(7);
        let mut b = Rng::new(7);
        let xs: Vec<u64> = (0..100).map(|_| a.next_u64()).collect();
        let ys: Vec<u64> = (0..100).map(|_| b.next_u64()).collect();
        assert_eq!(xs, ys);
        assert_ne!(Rng::new(8).next_u64(), xs[0]);
        assert_ne!(
            Rng::for_puzzle(1, 0).next_u64(),
            Rng::for_puzzle(1, 1).next_u64()
        );
        assert_ne!(
            Rng::for_puzzle(1, 0).next_u64(),
            Rng::for_puzzle(2, 0).next_u64()
        );
        let mut hits = [0u32; 9];
        for _ in 0..9000 {
            hits[a.below(9) as usize] += 1;
        }
        // Every value comes up, none wildly more often than its share (1000).
        assert!(hits.iter().all(|&h| (800..1200).contains(&h)), "{hits:?}");
    }

    #[test]
    fn shuffle_is_a_permutation() {
        let mut v: Vec<u32> = (0..50).collect();
        Rng::new(3).shuffle(&mut v);
        assert_ne!(v, (0..50).collect::<Vec<_>>());
        v.sort_unstable();
        assert_eq!(v, (0..50).collect::<Vec<_>>());
    }

    #[test]
    fn generated_puzzles_are_unique_minimal_and_agree_with_a_valid_solution() {
        let mut solver = Solver::new();
        for index in 0..5 {
            let puzzle = generate_one(&mut solver, &mut Rng::for_puzzle(9, index));
            let outcome = solver.solve(&puzzle, 2);
            assert_eq!(outcome.solutions, 1, "{puzzle}");
            let solution = outcome.first.unwrap();
            assert!(solution.is_valid_solution() && solution.agrees_with(&puzzle));
            // Minimal: removing any given loses uniqueness.
            for cell in (0..CELLS).filter(|&c| puzzle.get(c) != 0) {
                let mut less = puzzle;
                less.set(cell, 0);
                assert_eq!(solver.count(&less, 2).solutions, 2, "{puzzle} cell {cell}");
            }
        }
    }
}
