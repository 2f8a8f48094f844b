//! Nested forcing chains: Sudoku Explainer's "Dynamic ... Forcing Chains (+ Forcing
//! Chains)" (9.5), "(+ Multiple Forcing Chains)" (10.0) and "(+ Dynamic Forcing
//! Chains)" (10.5), each plus the length penalty.
//!
//! They are dynamic forcing chains (+) (see `dynamic`) whose runs, when neither the
//! implications nor the basic techniques of level 1 give anything new, also look for
//! chains on the run's working grid: at level 2 every cycle and forcing chain of the
//! static "Forcing Chains & Cycles" producer, at level 3 then the multiple forcing
//! chains, at level 4 instead every plain dynamic forcing chain (contradiction,
//! double, cell and region), which covers both. Each such inner chain's eliminations
//! join the run as "off" states whose parents are the outer position's candidates,
//! missing on the working grid, that the inner chain's "only candidate of the cell"
//! and "only position in the house" links rely on (a dynamic inner chain's through its
//! hidden parents too); and the inner chain's own complexity is added, once, to the
//! complexity of every outer chain that goes through one of them: an inner chain is
//! its targets and the candidates leading to them, so the same chain met by two runs
//! of an outer hint counts once. As with the basic techniques, the first inner
//! producer (in Sudoku Explainer's order) with a result that depends on the run is
//! used, all its hints in order of difficulty, then complexity.

use super::board::Board;
use super::chains::{Chains, Found, Multiple};
use super::dynamic::{Advanced, Dynamic};

/// Buffers of the inner producers.
#[derive(Debug, Default)]
pub struct Inner {
    chains: Chains,
    multiple: Multiple,
    /// The plain dynamic producer of level 4, made when first needed (it holds a run
    /// per candidate).
    dynamic: Option<Box<Dynamic>>,
    found: Vec<Found>,
}

/// The inner producers of nesting `level` (2 to 4) on the working grid `g` of a run
/// from position `base`, once the basic techniques found nothing: the eliminations of
/// the first producer with any that depend on the run go to `adv`. Levels 2 and 3 use
/// "Forcing Chains & Cycles", then (level 3) "Multiple Forcing Chains"; level 4 uses
/// "Dynamic Forcing Chains" alone, which covers both.
pub(super) fn inner(adv: &mut Advanced, base: &Board, g: &Board, level: u8) -> bool {
    let mut found = std::mem::take(&mut adv.inner.found);
    found.clear();
    let any = if level >= 4 {
        let dynamic = adv.inner.dynamic.get_or_insert_with(Box::default);
        dynamic.every_hint(base, g, &mut found);
        record_all(adv, &mut found)
    } else {
        adv.inner.chains.every_hint(base, g, &mut found);
        let mut any = record_all(adv, &mut found);
        if !any && level >= 3 {
            found.clear();
            adv.inner.multiple.every_hint(base, g, &mut found);
            any = record_all(adv, &mut found);
        }
        any
    };
    adv.inner.found = found;
    any
}

/// Record every hint of `found` (sorted by difficulty, then complexity, keeping the
/// scan order otherwise) that depends on the run; whether any did.
fn record_all(adv: &mut Advanced, found: &mut [Found]) -> bool {
    found.sort_by_key(|f| f.rank);
    let mut any = false;
    for f in found.iter() {
        let ps = adv.parents.len();
        adv.parents.extend_from_slice(&f.parents);
        any |= adv.record(&f.elims, ps, f.rank.1, f.chain);
    }
    any
}

#[cfg(test)]
mod tests {
    use super::super::board::{cells, Board};
    use super::super::{driver, Rater};
    use crate::grid::Grid;

    /// Walk serate's paths in `tests/data/serate_steps.txt` and
    /// `serate_steps_level4.txt` (forum-hardest puzzles; made by
    /// `scripts/serate_steps.sh`) with our driver, step by step. Below the nested
    /// levels every step must have serate's difficulty; where it has another technique
    /// name (shape suffix included) or places or removes something else (another hint
    /// of the same rank), serate's step is applied and counted, and at most one step
    /// in twenty may. Every step of nesting level 2, 3 or 4 must have serate's
    /// technique and difficulty too (those that do not are listed first, serate's step
    /// applied, and the walk goes on).
    #[test]
    fn paths_follow_serate_through_nesting_levels_two_to_four() {
        let text = [
            include_str!("../../tests/data/serate_steps.txt"),
            include_str!("../../tests/data/serate_steps_level4.txt"),
        ]
        .concat();
        let (mut b, mut sol) = (Board::new(), [0u8; 81]);
        let mut producers = driver::Producers::default();
        let (mut puzzles, mut compared, mut nested) = (0, 0, [0; 3]);
        let (mut ties, mut off) = (Vec::new(), [Vec::new(), Vec::new(), Vec::new()]);
        for line in text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
        {
            if let Some(p) = line.strip_prefix("PUZZLE ") {
                let grid = Grid::parse(p.as_bytes()).unwrap();
                sol = *crate::solver::solve(&grid, 1).first.unwrap().cells();
                b = Board::from_values(grid.cells());
                puzzles += 1;
                continue;
            }
            let f: Vec<&str> = line.split('\t').collect();
            assert_eq!(f.len(), 4, "{line}");
            let difficulty = (f[1].parse::<f64>().unwrap() * 10.0).round() as u8;
            let (mut placed, mut removed) = (Vec::new(), Vec::new());
            let mut words = f[3].split_whitespace();
            while let Some(w) = words.next() {
                if w == "place" {
                    let (c, d) = words.next().unwrap().split_once('=').unwrap();
                    placed.push((c.parse::<u8>().unwrap(), d.parse::<u8>().unwrap()));
                } else {
                    let (c, d) = w.split_once('.').unwrap();
                    removed.push((c.parse::<u8>().unwrap(), d.parse::<u8>().unwrap()));
                }
            }
            let h = producers
                .next_hint(&b)
                .unwrap_or_else(|| panic!("no step where serate has {line}"));
            let ours = super::super::step_of(&h, &b);
            let technique = f[2];
            compared += 1;
            let level = if f[2].ends_with("(+ Forcing Chains)") {
                2
            } else if f[2].contains("(+ Multiple") {
                3
            } else if f[2].ends_with("(+ Dynamic Forcing Chains)") {
                4
            } else {
                0
            };
            if level > 0 {
                nested[level - 2] += 1;
            }
            if level > 0 && (ours.technique, ours.difficulty) != (technique, difficulty) {
                // counted (the walk fails at the end), and serate's step taken
                off[level - 2].push(format!(
                    "puzzle {puzzles} step {}: {} {} for serate's {}",
                    f[0], ours.technique, ours.difficulty, f[1]
                ));
                apply(&mut b, &placed, &removed, &sol);
                continue;
            }
            assert_eq!(
                ours.difficulty, difficulty,
                "puzzle {puzzles}, serate step {line}"
            );
            let same = ours.technique == technique
                && ours.placed == placed
                && (removed.is_empty() || ours.removed == removed);
            if same {
                h.apply(&mut b);
            } else {
                // another hint of the same difficulty (a pattern of another shape, or
                // the same technique elsewhere): serate's is taken
                ties.push(format!(
                    "puzzle {puzzles} step {}: {} (ours {})",
                    f[0], f[2], ours.technique
                ));
                apply(&mut b, &placed, &removed, &sol);
            }
        }
        println!(
            "{puzzles} puzzles: {compared} steps compared; of nested levels 2 to 4: {nested:?} \
             ({:?} of these with another technique or difficulty: {off:?}); {} with another \
             hint of the same rank: {ties:?}",
            off.each_ref().map(Vec::len),
            ties.len()
        );
        assert!(
            puzzles >= 3 && nested[0] >= 20 && nested[1] >= 5 && nested[2] >= 15,
            "{puzzles} puzzles, {nested:?} steps of levels 2 to 4"
        );
        // the nested levels follow serate on every step
        assert!(
            off.iter().all(Vec::is_empty),
            "of {nested:?} steps of levels 2 to 4, these are off: {off:?}"
        );
        // Sudoku Explainer breaks a tie between hints of the same difficulty by their
        // complexity and then its scan order; ours follows that on nearly every step
        assert!(
            ties.len() * 20 <= compared,
            "{} ties in {compared}",
            ties.len()
        );
    }

    /// Apply a step of serate's log to `b`, checking it keeps the solution `sol`.
    fn apply(b: &mut Board, placed: &[(u8, u8)], removed: &[(u8, u8)], sol: &[u8; 81]) {
        let mut elim = [0u128; 9];
        for &(c, d) in removed {
            assert_ne!(sol[c as usize], d, "serate's step removes the solution");
            elim[d as usize - 1] |= 1u128 << c;
        }
        b.eliminate(&elim);
        for &(c, d) in placed {
            assert_eq!(sol[c as usize], d, "serate's step places a wrong digit");
            b.place(c as usize, d);
        }
    }

    /// Forum-hardest line 5001 (../shared/data/puzzles5_forum_hardest_1905_11+).
    const FORUM_5001: &str =
        "98.7..6..5...8......6..45..7...3.....3.9.......5..24....1....65.....1.24......1..";

    /// serate's path on forum line 5001 (`--after="%r %s"`): after seven dynamic (+)
    /// steps, its 8th to 11th steps are nested contradiction chains at 10.4, 10.5, 10.6
    /// and 10.6, removing r9c6.5, r4c4.8, r9c3.4 and r8c4.6. Ours remove the same
    /// candidates in the same order with the first nested level, at the same
    /// difficulties. (The 8th was one tenth above serate's while the run's pointing
    /// and claiming scanned rows before columns: another contradiction came first.)
    #[test]
    fn first_nested_steps_follow_serate() {
        let serate: [(u8, usize, usize, u8); 4] = [
            (104, 9, 6, 5),
            (105, 4, 4, 8),
            (106, 9, 3, 4),
            (106, 8, 4, 6),
        ];
        let grid = Grid::parse(FORUM_5001.as_bytes()).unwrap();
        let sol = *crate::solver::solve(&grid, 1).first.unwrap().cells();
        let mut b = Board::from_values(grid.cells());
        let mut producers = driver::Producers::default();
        for step in 1..=7 {
            let h = producers.next_hint(&b).expect("a step");
            assert!(h.name.ends_with("Chains (+)"), "step {step}: {}", h.name);
            h.apply(&mut b);
        }
        for (k, (diff, row, col, d)) in serate.into_iter().enumerate() {
            let h = producers.next_hint(&b).expect("a step");
            let mut removed = Vec::new();
            for (di, &set) in h.elim.iter().enumerate() {
                for c in cells(set & b.digit[di]) {
                    assert_ne!(sol[c] as usize, di + 1, "{}", h.name);
                    removed.push((c / 9 + 1, c % 9 + 1, di as u8 + 1));
                }
            }
            assert_eq!(
                (h.name, removed),
                (
                    "Dynamic Contradiction Forcing Chains (+ Forcing Chains)",
                    vec![(row, col, d)]
                ),
                "step {}",
                k + 8
            );
            assert_eq!(h.difficulty, diff, "step {}", k + 8);
            h.apply(&mut b);
        }
        // the rater rates the whole path, nested steps included
        let rating = Rater::new().rate(&grid, false).expect("rated");
        assert!(rating.er >= 106, "{rating:?}");
    }
}
