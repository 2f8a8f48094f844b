//! A stop request that long searches watch.
//!
//! A single record's search can run for minutes (counting the solutions of an empty
//! grid up to a large limit), so a signal that only stopped the reading of records
//! would leave the user waiting for it. Each engine's guess loop therefore looks at a
//! [`StopFlag`] once per guess, a relaxed load that costs nothing next to a guess, and
//! gives up when it is set. A search given up that way has found too little to say
//! anything about its puzzle: its [`crate::Outcome::cut`] says so, and the caller must
//! not report its counts as a verdict.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// The flag a search gives up on (e.g. the one [`crate::dataset::Driver::stop_flag`]
/// watches, set by a signal handler). The default is never set.
#[derive(Debug, Clone, Default)]
pub struct StopFlag(Option<Arc<AtomicBool>>);

impl StopFlag {
    /// Give up once `flag` is set.
    pub fn new(flag: Arc<AtomicBool>) -> StopFlag {
        StopFlag(Some(flag))
    }

    /// A flag that is never set: searches run to their end.
    pub fn never() -> StopFlag {
        StopFlag(None)
    }

    /// True once a stop was asked for.
    #[inline(always)]
    pub fn is_set(&self) -> bool {
        match &self.0 {
            Some(flag) => flag.load(Ordering::Relaxed),
            None => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{EngineChoice, Regions, RuleSet, Variant, VariantSolver, Vectors};
    use crate::{Grid, Solver};

    /// More solutions than any search here could find in a test run: each search
    /// below would go on for hours without the flag.
    const ENDLESS: u64 = u64::MAX;

    /// A flag, and a [`StopFlag`] on it.
    fn new_flag() -> (Arc<AtomicBool>, StopFlag) {
        let flag = Arc::new(AtomicBool::new(false));
        (Arc::clone(&flag), StopFlag::new(flag))
    }

    /// The variant engines, each with the rule set that runs it: the generic engine
    /// (classic and jigsaw rules), the box-band engine's scalar search, and what
    /// `Auto` picks for x and anti-king (the vector search where the CPU has it) and
    /// for non-consecutive (the box-band engine).
    fn variant_engines() -> Vec<(String, Variant, VariantSolver)> {
        let rules = |text: &str| text.parse::<RuleSet>().unwrap();
        let jigsaw = Variant::new(rules("jigsaw"), Some(&Regions::boxes())).unwrap();
        let mut engines = vec![
            (
                "generic classic".to_string(),
                Variant::new(RuleSet::CLASSIC, None).unwrap(),
                VariantSolver::with_engine(EngineChoice::Generic),
            ),
            ("generic jigsaw".to_string(), jigsaw, VariantSolver::new()),
            (
                "bands x".to_string(),
                Variant::new(rules("x"), None).unwrap(),
                VariantSolver::with_engine(EngineChoice::Bands).with_vectors(Vectors::Scalar),
            ),
        ];
        for name in ["x", "anti-king", "non-consecutive", "windoku"] {
            let v = Variant::new(rules(name), None).unwrap();
            engines.push((format!("auto {name}"), v, VariantSolver::new()));
        }
        engines
    }

    #[test]
    fn a_set_flag_stops_every_engine_before_its_first_guess() {
        let (flag, stop) = new_flag();
        flag.store(true, Ordering::Relaxed);
        let mut solver = Solver::new();
        solver.set_stop(stop.clone());
        for outcome in [
            solver.solve(&Grid::EMPTY, ENDLESS),
            solver.solve(&Grid::EMPTY, 2),
            solver.count(&Grid::EMPTY, ENDLESS),
            solver.for_each_solution(&Grid::EMPTY, ENDLESS, |_| {}),
        ] {
            assert!(outcome.cut, "{outcome:?}");
            assert_eq!((outcome.solutions, outcome.guesses), (0, 0));
        }
        let mut all = crate::solutions(&Grid::EMPTY).stop_on(stop.clone());
        assert_eq!(all.next(), None);
        assert!(all.cut());

        for (name, v, mut solver) in variant_engines() {
            solver.set_stop(stop.clone());
            let outcome = solver.count(&v, &Grid::EMPTY, ENDLESS);
            assert!(outcome.cut, "{name}: {outcome:?}");
            assert_eq!((outcome.solutions, outcome.guesses), (0, 0), "{name}");
        }
    }

    #[test]
    fn a_flag_set_during_a_search_ends_it_within_a_few_solutions() {
        // The flag is set once the search has found its third solution: it then gives
        // up at its next guess, having found at most one more solution per branch
        // saved (fewer than 81), where it would otherwise go on for billions.
        let most = 3 + 81;
        let mut solver = Solver::new();
        let (flag, stop) = new_flag();
        solver.set_stop(stop);
        let mut seen = 0;
        let outcome = solver.for_each_solution(&Grid::EMPTY, ENDLESS, |_| {
            seen += 1;
            flag.store(seen >= 3, Ordering::Relaxed);
        });
        assert!(
            outcome.cut && (3..most).contains(&outcome.solutions),
            "{outcome:?}"
        );

        let (flag, stop) = new_flag();
        let mut all = crate::solutions(&Grid::EMPTY).stop_on(stop);
        let taken = all
            .by_ref()
            .inspect(|_| flag.store(true, Ordering::Relaxed))
            .count();
        assert!(all.cut() && (1..most as usize).contains(&taken), "{taken}");

        for (name, v, mut solver) in variant_engines() {
            let (flag, stop) = new_flag();
            solver.set_stop(stop);
            let mut seen = 0;
            let outcome = solver.for_each_solution(&v, &Grid::EMPTY, ENDLESS, |_| {
                seen += 1;
                flag.store(seen >= 3, Ordering::Relaxed);
            });
            assert!(
                outcome.cut && (3..most).contains(&outcome.solutions),
                "{name}: {outcome:?}"
            );
        }
    }

    #[test]
    fn a_cut_search_is_no_verdict_and_an_unset_flag_changes_nothing() {
        use crate::input::Record;
        use crate::solving::{SolveOptions, Solved, Worker};
        let clock = crate::clock::Clock::start();
        let record = |cells: &str| Record {
            cells: cells.as_bytes().to_vec(),
            ..Record::default()
        };
        let empty = record(&".".repeat(81));
        let (flag, stop) = new_flag();
        let mut worker = Worker::with_stop(stop);
        let options = SolveOptions::default().limit(ENDLESS);
        let puzzle =
            "103000509002109400000704000300502006060000050700803004000401000009205800804000107";
        // Unset, the flag changes no verdict.
        let solved = worker.solve(&record(puzzle), &options, &clock);
        assert!(
            matches!(solved, Solved::Valid { solutions: 1, .. }),
            "{solved:?}"
        );
        flag.store(true, Ordering::Relaxed);
        for rules in [RuleSet::CLASSIC, "non-consecutive".parse().unwrap()] {
            let options = options.rules(rules);
            assert_eq!(
                worker.solve(&empty, &options, &clock),
                Solved::Cut,
                "{rules}"
            );
        }
    }
}
