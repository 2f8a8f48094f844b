//! Rule sets with few complete grids: every grid listed once, puzzles answered by
//! looking them up.
//!
//! Some rule sets allow very few complete grids: anti-king, anti-knight and
//! non-consecutive together allow 72 (the "miracle" grids), and their minimal puzzles
//! have one to three givens, so the search starts from a nearly empty grid and guesses
//! dozens of times per puzzle, every puzzle over again. For such a rule set the
//! box-band engine enumerates the empty grid once ([`Catalog::build`]): if it finds at
//! most [`MOST`] grids within [`BUDGET`] guesses, the list is complete, and a puzzle's
//! solutions are exactly the listed grids that agree with its givens. Which grids those
//! are is an intersection of bit sets, one per (cell, digit): the grids with that digit
//! there. No rule set is named here: whether a catalog exists follows from the
//! enumeration alone, so a new rule (or combination) that allows few grids gets one
//! too, and one that allows many costs a bounded enumeration once per process (at most
//! [`BUDGET`] guesses: 0.3 to 3 ms measured on the rule sets of `data/`).

use std::sync::{Arc, Mutex};

use crate::grid::{Grid, CELLS};

use super::{bands, RuleSet};

/// The most grids a catalog lists.
pub(crate) const MOST: usize = 512;

/// The most guesses the enumeration may take (the 72 grids of
/// anti-king,anti-knight,non-consecutive take 529).
pub(crate) const BUDGET: u64 = 2048;

/// Every complete grid of a rule set, with, per cell and digit, the set of grids that
/// hold the digit there.
#[derive(Clone)]
pub(crate) struct Catalog {
    grids: Vec<Grid>,
    /// 64-bit words per bit set.
    words: usize,
    /// `holding[(cell * 9 + digit - 1) * words ..][..words]`: the grids with `digit`
    /// in `cell`.
    holding: Vec<u64>,
}

impl Catalog {
    /// The catalog of `engine`'s rules, if they allow at most [`MOST`] grids and the
    /// engine finds them all within [`BUDGET`] guesses.
    pub(crate) fn build(engine: &mut bands::Engine) -> Option<Catalog> {
        let grids = engine.enumerate(&Grid::EMPTY, MOST, BUDGET)?;
        Some(Catalog::of(grids))
    }

    /// [`Catalog::build`] for `rules` (`engine` runs them), once per process: the
    /// first solver to meet a rule set builds its catalog (or learns it has none), the
    /// others share it, so threads and files that switch rule sets pay once.
    pub(crate) fn shared(rules: RuleSet, engine: &mut bands::Engine) -> Option<Arc<Catalog>> {
        type Built = Vec<(RuleSet, Option<Arc<Catalog>>)>;
        static BUILT: Mutex<Built> = Mutex::new(Vec::new());
        // A panic elsewhere while the lock was held leaves a list that is still
        // right: entries are pushed whole.
        let mut built = BUILT.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, catalog)) = built.iter().find(|(r, _)| *r == rules) {
            return catalog.clone();
        }
        let catalog = Catalog::build(engine).map(Arc::new);
        built.push((rules, catalog.clone()));
        catalog
    }

    /// The catalog of `grids` (complete grids of one rule set).
    fn of(grids: Vec<Grid>) -> Catalog {
        let words = grids.len().div_ceil(64);
        let mut holding = vec![0u64; CELLS * 9 * words];
        for (i, g) in grids.iter().enumerate() {
            for (cell, &digit) in g.cells().iter().enumerate() {
                let slot = (cell * 9 + usize::from(digit) - 1) * words;
                holding[slot + i / 64] |= 1 << (i % 64);
            }
        }
        Catalog {
            grids,
            words,
            holding,
        }
    }

    /// The number of grids listed.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.grids.len()
    }

    /// Hand each listed grid that agrees with `grid`'s givens to `found`, in the
    /// catalog's order, up to `limit`; returns how many were handed.
    pub(crate) fn search(&self, grid: &Grid, limit: u64, found: &mut dyn FnMut(Grid)) -> u64 {
        let (words, n) = (self.words, self.grids.len());
        // Bit `i % 64` of word `i / 64` for each listed grid `i`.
        let mut agree: Vec<u64> = (0..words)
            .map(|w| match n - w * 64 {
                64.. => u64::MAX,
                left => (1 << left) - 1,
            })
            .collect();
        for (cell, &digit) in grid.cells().iter().enumerate() {
            if digit == 0 {
                continue;
            }
            let slot = (cell * 9 + usize::from(digit) - 1) * words;
            let mut any = 0;
            for (a, &h) in agree.iter_mut().zip(&self.holding[slot..slot + words]) {
                *a &= h;
                any |= *a;
            }
            if any == 0 {
                return 0;
            }
        }
        let mut handed = 0;
        for (w, &bits) in agree.iter().enumerate() {
            let mut m = bits;
            while m != 0 && handed < limit {
                found(self.grids[w * 64 + m.trailing_zeros() as usize]);
                handed += 1;
                m &= m - 1;
            }
        }
        handed
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::Rng;
    use crate::rules::{EngineChoice, RuleSet, Variant, VariantSolver, Vectors};

    fn rules(name: &str) -> Variant {
        Variant::new(name.parse::<RuleSet>().unwrap(), None).unwrap()
    }

    /// The catalog of the miracle rules lists as many grids as the generic engine
    /// counts on the empty grid, each a solution, no two alike.
    #[test]
    fn catalog_lists_every_grid_of_a_tight_rule_set() {
        let v = rules("anti-king,anti-knight,non-consecutive");
        let mut engine = bands::Engine::new(&v, Vectors::Scalar);
        let cat = Catalog::build(&mut engine).expect("72 grids within the budget");
        let counted = VariantSolver::with_engine(EngineChoice::Generic)
            .count(&v, &Grid::EMPTY, 1000)
            .solutions;
        assert_eq!(cat.len() as u64, counted);
        assert!(cat.len() > 1);
        let empty = Grid::EMPTY;
        for g in &cat.grids {
            assert!(v.solves(g, &empty), "{g}");
        }
        let mut lines: Vec<String> = cat.grids.iter().map(|g| g.to_line()).collect();
        lines.sort();
        lines.dedup();
        assert_eq!(lines.len(), cat.len());
    }

    /// A rule set no grid satisfies (the generator's table says which) gets an empty
    /// catalog when the enumeration proves it in time, and every lookup finds nothing.
    #[test]
    fn rule_sets_without_grids_find_nothing() {
        let mut empty_catalogs = 0;
        for rules in RuleSet::all_combinations() {
            if rules.contains(crate::rules::Rule::Jigsaw)
                || crate::rules::grid_exists(rules) != Some(false)
            {
                continue;
            }
            let v = Variant::new(rules, None).unwrap();
            let mut engine = bands::Engine::new(&v, Vectors::Scalar);
            let Some(cat) = Catalog::build(&mut engine) else {
                continue;
            };
            assert_eq!(cat.len(), 0, "{rules}");
            let mut one = Grid::EMPTY;
            one.set(40, 5);
            assert_eq!(cat.search(&Grid::EMPTY, 2, &mut |_| {}), 0);
            assert_eq!(cat.search(&one, 2, &mut |_| {}), 0);
            empty_catalogs += 1;
        }
        assert!(empty_catalogs > 3, "{empty_catalogs}");
    }

    /// Rule sets with many grids get none, whatever the enumeration found first; and
    /// an enumeration cut by its budget gives nothing.
    #[test]
    fn loose_rule_sets_and_spent_budgets_have_no_catalog() {
        for name in [
            "x",
            "anti-knight",
            "non-consecutive",
            "anti-king,non-consecutive",
        ] {
            let v = rules(name);
            let mut engine = bands::Engine::new(&v, Vectors::Scalar);
            assert!(Catalog::build(&mut engine).is_none(), "{name}");
        }
        let v = rules("anti-king,anti-knight,non-consecutive");
        let mut engine = bands::Engine::new(&v, Vectors::Scalar);
        assert!(engine.enumerate(&Grid::EMPTY, MOST, 10).is_none());
        assert!(engine.enumerate(&Grid::EMPTY, 10, BUDGET).is_none());
        assert_eq!(
            engine
                .enumerate(&Grid::EMPTY, MOST, BUDGET)
                .map(|g| g.len()),
            Some(72)
        );
    }

    /// On random givens (from a listed grid, some changed to any digit), the catalog
    /// finds the same solutions as the generic engine's search, none missing, none
    /// extra, at limits 1, 2 and unbounded.
    #[test]
    fn lookups_find_what_the_search_finds() {
        let v = rules("anti-king,anti-knight,non-consecutive");
        let mut engine = bands::Engine::new(&v, Vectors::Scalar);
        let cat = Catalog::build(&mut engine).unwrap();
        let mut generic = VariantSolver::with_engine(EngineChoice::Generic);
        let mut rng = Rng::new(27);
        let (mut unique, mut none, mut many) = (0, 0, 0);
        for round in 0..600 {
            let source = cat.grids[rng.below(cat.len() as u64) as usize];
            let mut cells = [0u8; CELLS];
            let givens = 1 + round % 5;
            for _ in 0..givens {
                let c = rng.below(CELLS as u64) as usize;
                cells[c] = if rng.below(4) == 0 {
                    1 + rng.below(9) as u8
                } else {
                    source.get(c)
                };
            }
            let puzzle = Grid::from_cells(cells).unwrap();
            let mut want = Vec::new();
            generic.for_each_solution(&v, &puzzle, u64::MAX, |g| want.push(g.to_line()));
            let mut got = Vec::new();
            let n = cat.search(&puzzle, u64::MAX, &mut |g| got.push(g.to_line()));
            assert_eq!(n as usize, got.len());
            want.sort();
            got.sort();
            assert_eq!(got, want, "{puzzle}");
            for limit in [1, 2] {
                let n = cat.search(&puzzle, limit, &mut |_| {});
                assert_eq!(n, limit.min(want.len() as u64), "{puzzle} limit {limit}");
            }
            match want.len() {
                0 => none += 1,
                1 => unique += 1,
                _ => many += 1,
            }
        }
        assert!(
            unique > 20 && none > 20 && many > 20,
            "{unique} {none} {many}"
        );
    }
}
