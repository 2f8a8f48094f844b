//! The variant engines on grids under variant rules: counts up to 3 equal those of the
//! independent reference (`bulkdoku_fuzz::variant_reference`, written from the rules'
//! definitions); every solution keeps every rule and every given, and none repeats; a
//! search that ends before the limit finds the reference's very set; `solve` and
//! `count` agree with it at every limit; and so do the engine choices: `Auto` (what
//! bulk solving runs), `Generic`, and `Bands` (the box-band engine; the generic engine
//! for jigsaw) once with its scalar search and once for each kind of vectors the CPU
//! has for the vector search it hands x, windoku, x,windoku, anti-king and
//! non-consecutive to (AVX2, AVX2 with AVX-512VL, AVX-512).
//!
//! `Auto` and `Bands` run the box-band engine on every rule set that keeps the boxes
//! (but those with disjoint groups, which run the generic engine), so
//! every inference it makes is checked against the reference here: under
//! non-consecutive, what the places left for a digit in a row, column or box imply for
//! `d ± 1`, what the places left for `d - 1` and `d + 1` together imply for `d`, and
//! arc consistency between neighbours (in the band engine's scalar search and, for
//! non-consecutive alone, in the vector search); under knight or king moves, locked
//! candidates through them (up to three places); the extra houses' singles and locked
//! candidates. The generic engine (`Generic`, and jigsaw) is checked the same way, and
//! its inference alone too (`generic_candidates`: singles, locked candidates, the law
//! of leftovers under jigsaw, no guess) keeps every digit of the reference's solutions.
//!
//! Grids come two ways:
//! - a grid of the reference's table (one per rule set that has a grid, jigsaw layouts
//!   included) moved by one of the eight symmetries of the square, which keep the
//!   boxes, the diagonals (as a pair), the windows, the disjoint groups, knight and
//!   king moves and adjacency (a jigsaw layout moves with the grid), its digits relabelled (under
//!   non-consecutive only by `d -> 10 - d`, which keeps differences), up to 24 cells
//!   blanked and a few overwritten with any digit;
//! - sparse raw cells under any of the 64 rule sets that keep the boxes (those with no
//!   grid at all among them), where the reference's work is bounded and a grid it
//!   cannot finish is skipped.
#![no_main]

use std::cell::RefCell;
use std::collections::HashSet;

use arbitrary::{Result, Unstructured};
use bulkdoku::rules::{
    generic_candidates, EngineChoice, Regions, RuleSet, Variant, VariantSolver, Vectors,
};
use bulkdoku::Grid;
use bulkdoku_fuzz::variant_reference::{self as reference, Rules, GRIDS};
use bulkdoku_fuzz::{ensure, fail};
use libfuzzer_sys::fuzz_target;

/// Steps the reference may take on raw cells, and on a table grid.
const RAW_BUDGET: u64 = 20_000;
const TABLE_BUDGET: u64 = 400_000;

/// Solutions counted at most: enough to tell none, one, two and "several".
const LIMIT: u64 = 3;

/// One puzzle: its rules, its regions (`None`: the boxes), its cells, and whether the
/// reference's work must be bounded tightly.
struct Case {
    rules: Rules,
    regions: Option<reference::Regions>,
    cells: [u8; 81],
    raw: bool,
}

/// Cell `(r, c)` moved by symmetry `s` of the square (0..8).
fn moved(s: u8, cell: usize) -> usize {
    let (r, c) = (cell / 9, cell % 9);
    let (r, c) = match s {
        0 => (r, c),
        1 => (c, r),
        2 => (r, 8 - c),
        3 => (8 - r, c),
        4 => (8 - r, 8 - c),
        5 => (c, 8 - r),
        6 => (8 - c, r),
        _ => (8 - c, 8 - r),
    };
    r * 9 + c
}

fn case(u: &mut Unstructured) -> Result<Case> {
    if u.ratio(1, 4)? {
        let rules = Rules::from_bits(u.int_in_range(0..=63)?);
        let mut cells = [0u8; 81];
        for c in cells.iter_mut() {
            if u.ratio(1, 8)? {
                *c = u.int_in_range(1..=9)?;
            }
        }
        return Ok(Case {
            rules,
            regions: None,
            cells,
            raw: true,
        });
    }
    let &(bits, layout, text) = u.choose(GRIDS)?;
    let rules = Rules::from_bits(bits);
    let base = reference::grid_cells(text);
    let symmetry = u.int_in_range(0..=7)?;
    let mut digits = [0u8, 1, 2, 3, 4, 5, 6, 7, 8, 9];
    if rules.non_consecutive {
        if u.arbitrary()? {
            for (d, v) in digits.iter_mut().enumerate().skip(1) {
                *v = 10 - d as u8;
            }
        }
    } else {
        for i in (2..=9).rev() {
            let j = u.int_in_range(1..=i)?;
            digits.swap(i, j);
        }
    }
    let mut cells = [0u8; 81];
    let mut regions = layout.map(|_| [0u8; 81]);
    let layout = layout.map(reference::layout);
    for cell in 0..81 {
        let to = moved(symmetry, cell);
        cells[to] = digits[usize::from(base[cell])];
        if let (Some(out), Some(from)) = (regions.as_mut(), layout.as_ref()) {
            out[to] = from[cell];
        }
    }
    for _ in 0..u.int_in_range(0..=24)? {
        cells[u.int_in_range(0..=80)?] = 0;
    }
    for _ in 0..u.int_in_range(0..=2)? {
        cells[u.int_in_range(0..=80)?] = u.int_in_range(0..=9)?;
    }
    Ok(Case {
        rules,
        regions,
        cells,
        raw: false,
    })
}

thread_local! {
    /// One solver per engine choice for every input, as bulk solving reuses one: a
    /// search must not depend on what the last one (under other rules) left behind.
    /// The box-band engine comes once per kind of vectors this CPU has for its
    /// Sudoku-X search (`Auto` runs the best of them).
    static SOLVERS: RefCell<Vec<(&'static str, VariantSolver)>> = RefCell::new({
        let mut solvers = vec![
            ("auto", VariantSolver::with_engine(EngineChoice::Auto)),
            ("generic", VariantSolver::with_engine(EngineChoice::Generic)),
        ];
        for (name, vectors) in [
            ("bands", Vectors::Scalar),
            ("bands+avx2", Vectors::Avx2),
            ("bands+avx2vl", Vectors::Avx2Vl),
            ("bands+avx512", Vectors::Avx512),
        ] {
            if vectors.available() {
                let solver = VariantSolver::with_engine(EngineChoice::Bands).with_vectors(vectors);
                solvers.push((name, solver));
            }
        }
        solvers
    });
}

fn check(case: &Case) -> std::result::Result<(), String> {
    let regions_text: Option<String> = case
        .regions
        .map(|r| r.iter().map(|&id| char::from(b'1' + id)).collect());
    let rule_set: RuleSet = case
        .rules
        .names(case.regions.is_some())
        .parse()
        .map_err(|e| format!("rule names: {e}"))?;
    let regions = match &regions_text {
        Some(text) => Some(Regions::parse(text.as_bytes()).map_err(|e| format!("regions: {e}"))?),
        None => None,
    };
    let v = Variant::new(rule_set, regions.as_ref()).map_err(|e| format!("variant: {e}"))?;
    let puzzle = Grid::from_cells(case.cells).ok_or("cells above 9")?;
    let house_regions = case.regions.unwrap_or_else(reference::boxes);
    let budget = if case.raw { RAW_BUDGET } else { TABLE_BUDGET };
    let Some(reference) = reference::solutions(
        &case.rules,
        &house_regions,
        &case.cells,
        LIMIT as usize,
        budget,
    ) else {
        return Ok(());
    };
    let want = reference.len() as u64;
    let reference: HashSet<Grid> = reference
        .iter()
        .map(|c| Grid::from_cells(*c).expect("digits"))
        .collect();
    ensure!(
        (v.check_givens(&puzzle).is_ok())
            == reference::givens_ok(&case.rules, &house_regions, &case.cells),
        "check_givens: {:?}, the reference's givens_ok disagrees",
        v.check_givens(&puzzle)
    );
    // A solution by the reference's rules that keeps every given.
    let valid = |g: &Grid| -> std::result::Result<(), String> {
        let cells: [u8; 81] = std::array::from_fn(|c| g.get(c));
        ensure!(
            reference::is_solution(&case.rules, &house_regions, &cells),
            "{g} breaks a rule"
        );
        ensure!(g.agrees_with(&puzzle), "solution {g} drops a given");
        Ok(())
    };
    // The generic engine's inference alone (no guess): every digit of every solution
    // stays a candidate, and a contradiction means no solution. Below the limit the
    // reference's set is complete; at it, the solutions it found must survive.
    match generic_candidates(&v, &puzzle) {
        None => ensure!(want == 0, "inference: a contradiction, reference {want}"),
        Some(candidates) => {
            for g in &reference {
                for (cell, &mask) in candidates.iter().enumerate() {
                    ensure!(
                        mask >> (g.get(cell) - 1) & 1 != 0,
                        "inference: cell {cell} lost {}, which solution {g} has",
                        g.get(cell)
                    );
                }
            }
        }
    }
    SOLVERS.with(|solvers| {
        let mut solvers = solvers.borrow_mut();
        for (name, solver) in solvers.iter_mut() {
            let mut seen = Vec::new();
            let outcome = solver.for_each_solution(&v, &puzzle, LIMIT, |g| seen.push(*g));
            ensure!(
                outcome.solutions == want && seen.len() as u64 == want,
                "{name}: {} solutions ({} seen), reference {want}",
                outcome.solutions,
                seen.len()
            );
            ensure!(
                outcome.first == seen.first().copied(),
                "{name}: first is not the first seen"
            );
            for g in &seen {
                valid(g).map_err(|e| format!("{name}: {e}"))?;
            }
            let distinct: HashSet<Grid> = seen.iter().copied().collect();
            ensure!(distinct.len() == seen.len(), "{name}: a solution repeats");
            if want < LIMIT {
                ensure!(distinct == reference, "{name}: solution sets differ");
            }
            for limit in 0..=LIMIT {
                let capped = want.min(limit);
                let solved = solver.solve(&v, &puzzle, limit);
                let counted = solver.count(&v, &puzzle, limit);
                ensure!(
                    solved.solutions == capped && counted.solutions == capped,
                    "{name} at limit {limit}: solve {}, count {}, reference {want}",
                    solved.solutions,
                    counted.solutions
                );
                ensure!(
                    solved.first.is_some() == (capped > 0),
                    "{name} at limit {limit}: first {:?}, reference {want}",
                    solved.first
                );
                if let Some(first) = solved.first {
                    valid(&first).map_err(|e| format!("{name} at limit {limit}: {e}"))?;
                }
            }
        }
        Ok(())
    })
}

fuzz_target!(|data: &[u8]| {
    let Ok(case) = case(&mut Unstructured::new(data)) else {
        return;
    };
    if let Err(e) = check(&case) {
        let mut text: String = case.cells.iter().map(|&v| char::from(b'0' + v)).collect();
        text.push(' ');
        text.push_str(&case.rules.names(case.regions.is_some()));
        if let Some(r) = case.regions {
            text.push(' ');
            text.extend(r.iter().map(|&id| char::from(b'1' + id)));
        }
        fail("variants", text.as_bytes(), &e);
    }
});
