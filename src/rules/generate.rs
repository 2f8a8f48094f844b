//! Random puzzles under any rule set: minimal, and unique under the rules.
//!
//! As for classic puzzles ([`crate::generate`]), a puzzle is a random complete grid
//! with its cells blanked in random order, each blank kept only while the puzzle still
//! has exactly one solution under the rules; the result is minimal under the rules.
//!
//! The complete grid comes from a randomised search with the generic engine (random
//! branch cell among the most constrained, random digit order), not from the plain
//! cell-by-cell filling of the classic generator: rules like `anti-king` with
//! `non-consecutive` leave so few grids that plain backtracking wanders for a long time.
//! The search runs with a node budget that doubles after each fruitless attempt, so
//! an unlucky attempt cannot hang it, and a search that ends within its budget without
//! a grid has proved that the rules allow none ([`GenerateError::NoGrid`]).
//!
//! Jigsaw puzzles get a random connected layout each ([`Regions::random`]). Some
//! layouts (more so with other rules on top) allow no grid, or none that is found
//! quickly; such a layout is dropped for the next one, up to [`JIGSAW_LAYOUTS`].

use crate::generate::Rng;
use crate::grid::{Grid, CELLS};

use super::engine::{State, VariantSolver};
use super::regions::Regions;
use super::table::Variant;
use super::{Rule, RuleSet};

/// Region layouts tried for one jigsaw puzzle before giving up.
pub const JIGSAW_LAYOUTS: usize = 200;

/// Search nodes [`random_solution`] spends on one jigsaw layout before giving up.
pub const JIGSAW_SEARCH_CAP: u64 = 2_000_000;

/// Search nodes spent on one jigsaw layout before it is dropped.
const LAYOUT_BUDGET: u64 = 20_000;

/// Search nodes of the first attempt at a random grid; each further attempt doubles it.
const FIRST_BUDGET: u64 = 1_000;

/// A generated puzzle, its solution and (for jigsaw) its regions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Generated {
    /// The puzzle: unique and minimal under the rules.
    pub puzzle: Grid,
    /// Its solution.
    pub solution: Grid,
    /// The region layout, for jigsaw.
    pub regions: Option<Regions>,
}

/// Why no puzzle could be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GenerateError {
    /// The rules allow no complete grid at all.
    #[error("no grid satisfies the rules {rules}")]
    NoGrid {
        /// The rules.
        rules: RuleSet,
    },
    /// A search of [`JIGSAW_SEARCH_CAP`] nodes found no grid on a jigsaw layout
    /// (there may be none).
    #[error("no grid found on this jigsaw layout under the rules {rules} (search capped)")]
    GaveUp {
        /// The rules.
        rules: RuleSet,
    },
    /// No random jigsaw layout tried allowed a grid under the rules.
    #[error("no grid found for {layouts} random jigsaw layouts under the rules {rules}")]
    NoLayout {
        /// The rules.
        rules: RuleSet,
        /// Layouts tried.
        layouts: usize,
    },
}

/// Result of one budgeted attempt.
enum Attempt {
    Found(Grid),
    /// The whole tree was searched: there is no grid.
    Exhausted,
    OutOfBudget,
}

/// The smallest rule sets (without jigsaw) that allow no complete grid at all. A rule
/// set without jigsaw has a grid exactly when it contains none of these: adding rules
/// never makes a grid possible, and the other 34 of the 64 combinations have grids
/// (`disjoint` adds no set here: every set that has grids keeps them with it).
/// A new rule adds its own minimal sets here (the test below names any it misses).
///
/// Found by exhaustive search with the engine (from the empty grid, with the first row
/// fixed to 1–9 where digits may be relabelled) and checked again by the test
/// `grid_existence_table_matches_exhaustive_search` in `tests/rules.rs`.
pub const NO_GRID: [&[Rule]; 6] = [
    &[Rule::X, Rule::Windoku, Rule::AntiKnight],
    &[Rule::X, Rule::AntiKnight, Rule::AntiKing],
    &[Rule::Windoku, Rule::AntiKnight, Rule::AntiKing],
    &[Rule::Windoku, Rule::NonConsecutive],
    &[Rule::X, Rule::AntiKnight, Rule::NonConsecutive],
    &[Rule::X, Rule::AntiKing, Rule::NonConsecutive],
];

/// Whether `rules` allow a complete grid: `Some` for rule sets without jigsaw (see
/// [`NO_GRID`]), `None` with jigsaw, where it depends on the layout.
pub fn grid_exists(rules: RuleSet) -> Option<bool> {
    if rules.contains(Rule::Jigsaw) {
        return None;
    }
    Some(
        !NO_GRID
            .iter()
            .any(|minimal| minimal.iter().all(|&r| rules.contains(r))),
    )
}

/// A random complete grid under `v`'s rules, deterministic per `rng`.
///
/// ```
/// use bulkdoku::generate::Rng;
/// use bulkdoku::rules::{random_solution, Variant};
/// let v = Variant::new("anti-king,non-consecutive".parse().unwrap(), None).unwrap();
/// let grid = random_solution(&v, &mut Rng::new(1)).unwrap();
/// assert!(v.is_solution(&grid));
/// ```
pub fn random_solution(v: &Variant, rng: &mut Rng) -> Result<Grid, GenerateError> {
    if grid_exists(v.rules()) == Some(false) {
        // Searching would prove it again, at great length (seconds to forever).
        return Err(GenerateError::NoGrid { rules: v.rules() });
    }
    let mut stack = Vec::with_capacity(81);
    let mut budget = FIRST_BUDGET;
    let mut spent = 0u64;
    loop {
        match attempt(v, rng, budget, &mut stack) {
            Attempt::Found(grid) => return Ok(grid),
            Attempt::Exhausted => return Err(GenerateError::NoGrid { rules: v.rules() }),
            Attempt::OutOfBudget => {
                spent += budget;
                // Rule sets without jigsaw that pass `grid_exists` find grids within a
                // few budgets; a jigsaw layout may have none and a search that cannot
                // finish, so it gets a cap.
                if v.regions().is_some() && spent >= JIGSAW_SEARCH_CAP {
                    return Err(GenerateError::GaveUp { rules: v.rules() });
                }
                budget = budget.saturating_mul(2);
            }
        }
    }
}

/// One randomised depth-first search for a complete grid, of at most `budget` nodes.
fn attempt(v: &Variant, rng: &mut Rng, budget: u64, stack: &mut Vec<State>) -> Attempt {
    stack.clear();
    let mut cur = State::EMPTY;
    if v.links.is_empty() {
        // Without links digits may be relabelled freely, so the first row may as well
        // be a random permutation: it costs no generality and spares the search 9!
        // equivalent subtrees, which matters for the tight rule sets (x with
        // anti-knight).
        let mut row: [u8; 9] = std::array::from_fn(|i| i as u8);
        rng.shuffle(&mut row);
        for (cell, &d) in row.iter().enumerate() {
            if !cur.place(v, usize::from(d), cell) {
                return Attempt::Exhausted;
            }
        }
    }
    let mut nodes = 0;
    loop {
        nodes += 1;
        if nodes > budget {
            return Attempt::OutOfBudget;
        }
        if cur.propagate(v) {
            if cur.open == 0 {
                let grid = cur.grid();
                debug_assert!(v.is_solution(&grid));
                return Attempt::Found(grid);
            }
            let cell = random_branch_cell(&cur, rng);
            let digits = cur.digits_at(cell);
            let pick = rng.below(u64::from(digits.count_ones())) as usize;
            let d = (0..9).filter(|&d| digits >> d & 1 != 0).nth(pick).unwrap();
            let mut other = cur;
            other.forbid(d, cell);
            stack.push(other);
            let placed = cur.place(v, d, cell);
            debug_assert!(placed);
            continue;
        }
        match stack.pop() {
            Some(next) => cur = next,
            None => return Attempt::Exhausted,
        }
    }
}

/// A random open cell among those with the fewest candidates.
fn random_branch_cell(s: &State, rng: &mut Rng) -> usize {
    let counts: Vec<(usize, u32)> = (0..CELLS)
        .filter(|&c| s.open >> c & 1 != 0)
        .map(|c| (c, s.digits_at(c).count_ones()))
        .collect();
    let fewest = counts.iter().map(|&(_, n)| n).min().expect("an open cell");
    let best: Vec<usize> = counts
        .iter()
        .filter(|&&(_, n)| n == fewest)
        .map(|&(c, _)| c)
        .collect();
    best[rng.below(best.len() as u64) as usize]
}

/// One random puzzle under `rules`, unique and minimal under them; for jigsaw with a
/// random connected layout of its own. Deterministic per `rng`.
///
/// ```
/// use bulkdoku::generate::Rng;
/// use bulkdoku::rules::{generate_one, Variant, VariantSolver};
/// let rules = "x".parse().unwrap();
/// let made = generate_one(rules, &mut VariantSolver::new(), &mut Rng::new(3)).unwrap();
/// let v = Variant::new(rules, None).unwrap();
/// assert_eq!(VariantSolver::new().count(&v, &made.puzzle, 2).solutions, 1);
/// ```
pub fn generate_one(
    rules: RuleSet,
    solver: &mut VariantSolver,
    rng: &mut Rng,
) -> Result<Generated, GenerateError> {
    let (v, solution) = if rules.contains(Rule::Jigsaw) {
        jigsaw_grid(rules, rng)?
    } else {
        let v = Variant::new(rules, None).expect("no jigsaw, no regions");
        let solution = random_solution(&v, rng)?;
        (v, solution)
    };
    let puzzle = minimise(&v, solution, solver, rng);
    Ok(Generated {
        puzzle,
        solution,
        regions: v.regions().copied(),
    })
}

/// A random layout and a random grid on it, trying layouts until one allows a grid.
fn jigsaw_grid(rules: RuleSet, rng: &mut Rng) -> Result<(Variant, Grid), GenerateError> {
    let mut stack = Vec::with_capacity(81);
    for _ in 0..JIGSAW_LAYOUTS {
        let regions = Regions::random(rng);
        let v = Variant::new(rules, Some(&regions)).expect("jigsaw with regions");
        let mut budget = FIRST_BUDGET;
        while budget <= LAYOUT_BUDGET {
            match attempt(&v, rng, budget, &mut stack) {
                Attempt::Found(grid) => return Ok((v, grid)),
                Attempt::Exhausted => break,
                Attempt::OutOfBudget => budget *= 2,
            }
        }
    }
    Err(GenerateError::NoLayout {
        rules,
        layouts: JIGSAW_LAYOUTS,
    })
}

/// Blank the cells of `solution` in random order, keeping each blank only while the
/// puzzle stays unique under the rules.
fn minimise(v: &Variant, solution: Grid, solver: &mut VariantSolver, rng: &mut Rng) -> Grid {
    let mut puzzle = solution;
    let mut order: [u8; CELLS] = std::array::from_fn(|i| i as u8);
    rng.shuffle(&mut order);
    for &cell in &order {
        let cell = usize::from(cell);
        let digit = puzzle.get(cell);
        puzzle.set(cell, 0);
        if solver.count(v, &puzzle, 2).solutions != 1 {
            puzzle.set(cell, digit);
        }
    }
    puzzle
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_grids_follow_the_rules_and_depend_only_on_the_rng() {
        for rules in [
            "classic",
            "x",
            "windoku",
            "anti-knight",
            "anti-king",
            "non-consecutive",
        ] {
            let v = Variant::new(rules.parse().unwrap(), None).unwrap();
            let a = random_solution(&v, &mut Rng::new(11)).unwrap();
            let b = random_solution(&v, &mut Rng::new(11)).unwrap();
            let c = random_solution(&v, &mut Rng::new(12)).unwrap();
            assert!(v.is_solution(&a), "{rules}: {a}");
            assert_eq!(a, b);
            assert_ne!(a, c);
        }
    }
}
