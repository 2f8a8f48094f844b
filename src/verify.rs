//! Verifying one record of a dataset, and a dataset as a whole: the checks behind
//! `bulkdoku verify`, for any caller.
//!
//! Two steps, as the pipeline runs them:
//! - [`Checks::check`], per record on any worker (each with its own [`Scratch`]):
//!   parse (`malformed`), check the givens (`conflict`), solve with a limit of 2
//!   (`unsolvable`, `multiple`), with `minimal` try removing each given
//!   (`not_minimal`), with `isomorphs` fingerprint the canonical form;
//! - [`Ledger::record`], sequentially and in input order: the solution and clue-count
//!   columns (`wrong_solution`, `wrong_clues`), and duplicates and isomorphs against
//!   everything seen before ([`crate::dedup`]), counted in a [`Tally`].

use anyhow::{bail, Context};

use crate::canon::{fingerprint, Canonicalizer};
use crate::dedup::{FirstSeen, Seen};
use crate::grid::{cell_name, Grid, CELLS};
use crate::input::Record;
use crate::rules::{
    canonical, record_rules, RecordRules, RuleSet, Variant, VariantSolver, Variants,
};
use crate::solver::Solver;

/// What can be wrong with a puzzle, in the order a puzzle's rows are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// Not 81 valid cells.
    Malformed,
    /// Two givens repeat a digit in a house.
    Conflict,
    /// No solution.
    Unsolvable,
    /// More than one solution.
    Multiple,
    /// The solution column is not a valid grid, disagrees with a given, or is not the
    /// unique solution.
    WrongSolution,
    /// The clue-count column does not match the puzzle.
    WrongClues,
    /// The same puzzle appeared earlier.
    Duplicate,
    /// An equivalent puzzle appeared earlier (`--isomorphs`).
    Isomorph,
    /// Some given can be removed keeping a unique solution (`--minimal`).
    NotMinimal,
    /// Nothing found (`--all` rows only).
    Ok,
}

impl Kind {
    /// Every kind, in output order.
    pub const ALL: [Kind; 10] = [
        Kind::Malformed,
        Kind::Conflict,
        Kind::Unsolvable,
        Kind::Multiple,
        Kind::WrongSolution,
        Kind::WrongClues,
        Kind::Duplicate,
        Kind::Isomorph,
        Kind::NotMinimal,
        Kind::Ok,
    ];

    /// The name written in the `kind` column.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Malformed => "malformed",
            Kind::Conflict => "conflict",
            Kind::Unsolvable => "unsolvable",
            Kind::Multiple => "multiple",
            Kind::WrongSolution => "wrong_solution",
            Kind::WrongClues => "wrong_clues",
            Kind::Duplicate => "duplicate",
            Kind::Isomorph => "isomorph",
            Kind::NotMinimal => "not_minimal",
            Kind::Ok => "ok",
        }
    }
}

/// One finding: its kind and a human-readable detail.
pub type Finding = (Kind, String);

impl std::fmt::Display for Kind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What the per-record checks found out about one record.
#[derive(Debug, Default, Clone)]
#[non_exhaustive]
pub struct Checked {
    /// The puzzle, when its cells could be read.
    pub grid: Option<Grid>,
    /// Fingerprint of the puzzle (computed on the worker to keep the sequential
    /// [`Ledger`] light).
    pub key: u128,
    /// Its unique solution, when it has one.
    pub solution: Option<Grid>,
    /// Fingerprint of its canonical form (`isomorphs`, conflict-free puzzles).
    pub class: Option<u128>,
    /// Findings made by the per-record checks.
    pub findings: Vec<Finding>,
    /// Its variant rules (`None`: classic).
    pub rules: Option<RecordRules>,
}

/// Reusable per-worker state of the checks.
#[derive(Default)]
pub struct Scratch {
    solver: Solver,
    canon: Canonicalizer,
    variant_solver: VariantSolver,
    variants: Variants,
}

impl std::fmt::Debug for Scratch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Scratch").finish_non_exhaustive()
    }
}

/// The per-record checks, run on the workers.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Checks {
    /// Fingerprint each puzzle's canonical form, for [`Kind::Isomorph`].
    pub isomorphs: bool,
    /// Try removing each given of a unique puzzle, for [`Kind::NotMinimal`].
    pub minimal: bool,
    /// The rules of records that do not give their own.
    pub rules: RuleSet,
}

impl Checks {
    /// Checks with the given extras, under classic rules.
    pub fn new(isomorphs: bool, minimal: bool) -> Checks {
        Checks {
            isomorphs,
            minimal,
            rules: RuleSet::CLASSIC,
        }
    }

    /// Check records that do not give their own rules under `rules`.
    pub fn rules(mut self, rules: RuleSet) -> Checks {
        self.rules = rules;
        self
    }

    /// The rules of `record` (`Ok(None)` for classic), or why they are not rules.
    fn record_rules(&self, record: &Record) -> Result<Option<RecordRules>, String> {
        if record.rules.is_empty() && record.regions.is_empty() && self.rules.is_classic() {
            return Ok(None);
        }
        let rules = record_rules(&record.rules, &record.regions, self.rules)?;
        Ok((!rules.is_classic()).then_some(rules))
    }

    /// What [`Ledger::replay`] needs of a record verified by an earlier, interrupted
    /// run: its grid and fingerprints, without solving it again. Conflicting givens get
    /// no class, as in [`Checks::check`].
    pub fn fingerprints(&self, scratch: &mut Scratch, record: &Record) -> Checked {
        let mut out = Checked::default();
        if record.error.is_some() {
            return out;
        }
        let Ok(rules) = self.record_rules(record) else {
            return out;
        };
        let Ok(grid) = Grid::parse(&record.cells) else {
            return out;
        };
        out.grid = Some(grid);
        out.key = keyed(fingerprint(&grid), &rules);
        out.rules = rules;
        match &rules {
            None => {
                if self.isomorphs && grid.check_givens().is_ok() {
                    out.class = Some(fingerprint(&scratch.canon.canonical(&grid)));
                }
            }
            Some(rules) => {
                let variant = scratch.variants.get(rules);
                if self.isomorphs && variant.check_givens(&grid).is_ok() {
                    out.class =
                        canonical(variant, &grid).map(|c| keyed(fingerprint(&c), &Some(*rules)));
                }
            }
        }
        out
    }

    /// Check one record.
    pub fn check(&self, scratch: &mut Scratch, record: &Record) -> Checked {
        let mut out = Checked::default();
        if let Some(reason) = &record.error {
            out.findings.push((Kind::Malformed, reason.clone()));
            return out;
        }
        let rules = match self.record_rules(record) {
            Ok(rules) => rules,
            Err(reason) => {
                out.findings.push((Kind::Malformed, reason));
                return out;
            }
        };
        let grid = match Grid::parse(&record.cells) {
            Ok(g) => g,
            Err(e) => {
                out.findings.push((Kind::Malformed, e.to_string()));
                return out;
            }
        };
        out.grid = Some(grid);
        out.key = keyed(fingerprint(&grid), &rules);
        out.rules = rules;
        if let Some(rules) = rules {
            self.check_variant(scratch, &rules, grid, &mut out);
            return out;
        }
        let Scratch { solver, canon, .. } = scratch;
        if let Err(conflict) = grid.check_givens() {
            out.findings.push((Kind::Conflict, conflict.to_string()));
            return out;
        }
        let mut found = [Grid::EMPTY; 2];
        let mut n = 0;
        solver.for_each_solution(&grid, 2, |g| {
            found[n] = *g;
            n += 1;
        });
        match n {
            0 => out.findings.push((Kind::Unsolvable, "no solution".into())),
            1 => out.solution = Some(found[0]),
            _ => out.findings.push((Kind::Multiple, multiple_detail(&found))),
        }
        if self.isomorphs {
            out.class = Some(fingerprint(&canon.canonical(&grid)));
        }
        if self.minimal && out.solution.is_some() {
            let removable = removable_givens(solver, &grid);
            if !removable.is_empty() {
                let names: Vec<String> = removable.into_iter().map(cell_name).collect();
                out.findings
                    .push((Kind::NotMinimal, not_minimal_detail(&names)));
            }
        }
        out
    }

    /// The checks of a puzzle under variant rules, the same as for classic ones.
    fn check_variant(
        &self,
        scratch: &mut Scratch,
        rules: &RecordRules,
        grid: Grid,
        out: &mut Checked,
    ) {
        let Scratch {
            variant_solver: solver,
            variants,
            ..
        } = scratch;
        let variant = variants.get(rules);
        if let Err(conflict) = variant.check_givens(&grid) {
            out.findings.push((Kind::Conflict, conflict.to_string()));
            return;
        }
        let mut found = [Grid::EMPTY; 2];
        let mut n = 0;
        solver.for_each_solution(variant, &grid, 2, |g| {
            found[n] = *g;
            n += 1;
        });
        match n {
            0 => out.findings.push((Kind::Unsolvable, "no solution".into())),
            1 => out.solution = Some(found[0]),
            _ => out.findings.push((Kind::Multiple, multiple_detail(&found))),
        }
        if self.isomorphs {
            out.class = canonical(variant, &grid).map(|c| keyed(fingerprint(&c), &Some(*rules)));
        }
        if self.minimal && out.solution.is_some() {
            let mut without = grid;
            let mut names = Vec::new();
            for cell in (0..CELLS).filter(|&c| grid.get(c) != 0) {
                without.set(cell, 0);
                if solver.count(variant, &without, 2).solutions == 1 {
                    names.push(cell_name(cell));
                }
                without.set(cell, grid.get(cell));
            }
            if !names.is_empty() {
                out.findings
                    .push((Kind::NotMinimal, not_minimal_detail(&names)));
            }
        }
    }
}

/// The detail of a `not_minimal` finding.
fn not_minimal_detail(names: &[String]) -> String {
    format!(
        "each of these givens can be removed keeping a unique solution: {}",
        names.join(" ")
    )
}

/// A fingerprint made specific to the rules it was taken under: the same grid under
/// other rules (or other jigsaw regions) is another puzzle. Classic keys are the
/// plain fingerprints.
fn keyed(key: u128, rules: &Option<RecordRules>) -> u128 {
    let Some(rules) = rules else { return key };
    let mut text = rules.rules.to_string();
    if let Some(regions) = &rules.regions {
        text.push(' ');
        text.push_str(&regions.to_line());
    }
    // FNV-1a over the rule text, widened: a different stream of bits for each
    // rule set and layout, mixed into the fingerprint.
    let mut h: u128 = 0x6c62_272e_07bb_0142_62b8_2175_6295_c58d;
    for b in text.bytes() {
        h = (h ^ u128::from(b)).wrapping_mul(0x0000_0000_0100_0000_0000_0000_0000_013B);
    }
    key ^ h
}

/// The detail of a `multiple` finding: where two of the solutions differ.
pub(crate) fn multiple_detail(two: &[Grid; 2]) -> String {
    let cells: Vec<String> = (0..CELLS)
        .filter(|&i| two[0].get(i) != two[1].get(i))
        .map(cell_name)
        .collect();
    const SHOWN: usize = 12;
    let more = if cells.len() > SHOWN { " ..." } else { "" };
    format!(
        "2 or more solutions; two of them differ at {}{more}",
        cells[..cells.len().min(SHOWN)].join(" ")
    )
}

/// The givens of a uniquely solvable `grid` whose removal keeps the solution unique.
pub(crate) fn removable_givens(solver: &mut Solver, grid: &Grid) -> Vec<usize> {
    let mut without = *grid;
    let mut removable = Vec::new();
    for cell in 0..CELLS {
        let digit = grid.get(cell);
        if digit == 0 {
            continue;
        }
        without.set(cell, 0);
        // The original solution still solves it: unique iff no second one exists.
        if solver.count(&without, 2).solutions == 1 {
            removable.push(cell);
        }
        without.set(cell, digit);
    }
    removable
}

/// Check a solution-column value against the puzzle (and its unique solution), under
/// `variant`'s rules when it is not classic.
fn solution_finding(
    value: &str,
    grid: &Grid,
    unique: Option<&Grid>,
    variant: Option<&Variant>,
) -> Option<String> {
    let value = value.trim();
    let given = match Grid::parse(value.as_bytes()) {
        Ok(g) => g,
        Err(e) => return Some(format!("not a complete valid grid: {e}")),
    };
    if !given.is_complete() {
        let blanks = given.cells().iter().filter(|&&v| v == 0).count();
        return Some(format!("not a complete valid grid: {blanks} blank cells"));
    }
    if let Some(variant) = variant {
        if let Err(conflict) = variant.check_givens(&given) {
            return Some(format!("not a complete valid grid: {conflict}"));
        }
    } else if let Err(conflict) = given.check_givens() {
        let c = conflict;
        return Some(format!(
            "not a complete valid grid: {} and {} are both {}",
            cell_name(c.first),
            cell_name(c.second),
            c.digit
        ));
    }
    if let Some(cell) = (0..CELLS).find(|&i| grid.get(i) != 0 && grid.get(i) != given.get(i)) {
        return Some(format!(
            "disagrees with the given at {}: {} in the solution, {} in the puzzle",
            cell_name(cell),
            given.get(cell),
            grid.get(cell)
        ));
    }
    let unique = unique?;
    let differ: Vec<usize> = (0..CELLS)
        .filter(|&i| unique.get(i) != given.get(i))
        .collect();
    let &first = differ.first()?;
    Some(format!(
        "differs from the unique solution in {} cells, first {}: {} instead of {}",
        differ.len(),
        cell_name(first),
        given.get(first),
        unique.get(first)
    ))
}

/// Column positions of one input's solution and clue-count columns.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Columns {
    /// The solution column (`solutions`, `solution`, `answer`, or the one named).
    pub solution: Option<usize>,
    /// The clue-count column (`clues`).
    pub clues: Option<usize>,
}

impl Columns {
    /// Find the columns in the `headers` of input `name` (`None` when it is not CSV):
    /// the solution column named `solution_column`, else the first of `solutions`,
    /// `solution`, `answer`. Naming a column that is not there is an error.
    pub fn find(
        name: &str,
        headers: Option<&[String]>,
        solution_column: Option<&str>,
    ) -> anyhow::Result<Columns> {
        let Some(headers) = headers else {
            if let Some(column) = solution_column {
                bail!("{name}: --solution-column {column:?} needs CSV input with a header row");
            }
            return Ok(Columns::default());
        };
        let find = |name: &str| headers.iter().position(|h| h.trim() == name);
        let solution = match solution_column {
            Some(column) => Some(find(column).with_context(|| {
                format!(
                    "{name}: --solution-column: no column {column:?} (columns: {})",
                    headers.join(",")
                )
            })?),
            None => ["solutions", "solution", "answer"]
                .iter()
                .find_map(|name| find(name)),
        };
        Ok(Columns {
            solution,
            clues: find("clues"),
        })
    }
}

/// Totals over the records verified so far.
#[derive(Debug, Default, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[non_exhaustive]
pub struct Tally {
    /// Findings per kind, by `Kind as usize` (`Ok` counts the clean records).
    pub by_kind: [u64; Kind::ALL.len()],
    /// Records with at least one finding.
    pub puzzles_with_findings: u64,
    /// Distinct puzzles that appeared more than once.
    pub duplicate_groups: u64,
    /// Distinct classes that appeared more than once (with `isomorphs`).
    pub isomorph_groups: u64,
}

impl Tally {
    fn count(&mut self, kind: Kind) {
        self.by_kind[kind as usize] += 1;
    }

    /// Findings of `kind` so far.
    pub fn get(&self, kind: Kind) -> u64 {
        self.by_kind[kind as usize]
    }

    /// Records verified so far.
    pub fn records(&self) -> u64 {
        self.puzzles_with_findings + self.get(Kind::Ok)
    }
}

/// The sequential part of verifying a dataset: what can only be judged against the
/// records before (duplicates, isomorphs) or the record's other columns, in input order.
#[derive(Debug, Default)]
pub struct Ledger {
    isomorphs: bool,
    puzzles: Seen,
    classes: Seen,
    tally: Tally,
    variants: Variants,
}

/// The other columns of a record that [`Ledger::record`] checks.
#[derive(Debug, Clone, Copy, Default)]
pub struct Claims<'a> {
    /// The record's solution column, if any.
    pub solution: Option<&'a str>,
    /// The record's clue-count column, if any.
    pub clues: Option<&'a str>,
}

impl Ledger {
    /// A ledger that also reports isomorphs when `isomorphs` (the records must then be
    /// checked with [`Checks::isomorphs`]).
    pub fn new(isomorphs: bool) -> Ledger {
        Ledger {
            isomorphs,
            ..Ledger::default()
        }
    }

    /// The record at (`file`, `line`), checked as `checked`, with its other columns:
    /// put its findings into `findings` (cleared first; sorted by kind, empty when the
    /// record is clean) and count them. `place` names where an earlier record was
    /// seen, for the details of duplicates and isomorphs (e.g. `line 3`).
    pub fn record<'a>(
        &mut self,
        file: usize,
        line: u64,
        checked: &Checked,
        claims: Claims<'a>,
        place: impl Fn(FirstSeen) -> String,
        findings: &mut Vec<Finding>,
    ) {
        findings.clear();
        findings.extend(checked.findings.iter().cloned());
        if let Some(grid) = &checked.grid {
            // An empty cell gives no value: nothing to check.
            let given = |v: Option<&'a str>| v.filter(|v| !v.trim().is_empty());
            if let Some(value) = given(claims.solution) {
                let variant = checked.rules.as_ref().map(|r| self.variants.get(r));
                let unique = checked.solution.as_ref();
                if let Some(detail) = solution_finding(value, grid, unique, variant) {
                    findings.push((Kind::WrongSolution, detail));
                }
            }
            if let Some(value) = given(claims.clues) {
                let clues = grid.clues();
                if value.trim().parse::<usize>().ok() != Some(clues) {
                    findings.push((
                        Kind::WrongClues,
                        format!("the clues column says {value:?}, the puzzle has {clues}"),
                    ));
                }
            }
            if let Some((first, new_group)) = self.puzzles.see(checked.key, file, line) {
                self.tally.duplicate_groups += u64::from(new_group);
                findings.push((Kind::Duplicate, format!("same puzzle as {}", place(first))));
            } else if let Some(class) = checked.class.filter(|_| self.isomorphs) {
                // Exact duplicates are already reported; their class is already known.
                if let Some((first, new_group)) = self.classes.see(class, file, line) {
                    self.tally.isomorph_groups += u64::from(new_group);
                    findings.push((Kind::Isomorph, format!("equivalent to {}", place(first))));
                }
            }
        }
        findings.sort_by_key(|f| f.0);
        if findings.is_empty() {
            self.tally.count(Kind::Ok);
        } else {
            self.tally.puzzles_with_findings += 1;
            for (kind, _) in findings.iter() {
                self.tally.count(*kind);
            }
        }
    }

    /// The totals so far.
    pub fn tally(&self) -> &Tally {
        &self.tally
    }

    /// Continue from the totals of an earlier, interrupted run; its records are then
    /// replayed with [`Ledger::replay`].
    pub fn restore(&mut self, tally: Tally) {
        self.tally = tally;
    }

    /// Note a record that an earlier run verified (see [`Checks::fingerprints`]) in
    /// the tables of what was seen, without finding or counting anything again.
    pub fn replay(&mut self, file: usize, line: u64, checked: &Checked) {
        if checked.grid.is_none() {
            return;
        }
        if self.puzzles.see(checked.key, file, line).is_none() {
            if let Some(class) = checked.class.filter(|_| self.isomorphs) {
                self.classes.see(class, file, line);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const P17: &str =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

    #[test]
    fn a_17_clue_puzzle_is_minimal_and_an_extra_given_is_found() {
        let p: Grid = P17.parse().unwrap();
        let mut solver = Solver::new();
        assert!(removable_givens(&mut solver, &p).is_empty());
        let solution = crate::solve(&p, 1).first.unwrap();
        let mut q = p;
        q.set(1, solution.get(1));
        // The added given r1c2 is redundant: removing it gives back the minimal puzzle.
        let removable = removable_givens(&mut solver, &q);
        assert!(removable.contains(&1), "{removable:?}");
    }

    #[test]
    fn solution_column_checks() {
        let p: Grid = P17.parse().unwrap();
        let s = crate::solve(&p, 1).first.unwrap();
        assert_eq!(solution_finding(&s.to_line(), &p, Some(&s), None), None);
        let short = solution_finding("123", &p, Some(&s), None).unwrap();
        assert!(short.contains("not a complete valid grid"), "{short}");
        let blank = solution_finding(P17, &p, Some(&s), None).unwrap();
        assert!(blank.contains("blank cells"), "{blank}");
        // Swapping two digits everywhere keeps a valid grid but breaks the givens.
        let swapped: String = s
            .to_line()
            .chars()
            .map(|c| match c {
                '4' => '8',
                '8' => '4',
                c => c,
            })
            .collect();
        let d = solution_finding(&swapped, &p, Some(&s), None).unwrap();
        assert!(d.contains("disagrees with the given at r1c1"), "{d}");
    }

    #[test]
    fn a_ledger_reports_repeats_and_the_claims_of_other_columns() {
        let checks = Checks::new(true, false);
        let mut scratch = Scratch::default();
        let record = |cells: &str| Record {
            line: 0,
            cells: cells.as_bytes().to_vec(),
            ..Record::default()
        };
        let p = checks.check(&mut scratch, &record(P17));
        assert!(p.findings.is_empty() && p.solution.is_some());
        // The same puzzle with its digits 4 and 8 swapped: an isomorph.
        let q: String = P17
            .chars()
            .map(|c| match c {
                '4' => '8',
                '8' => '4',
                c => c,
            })
            .collect();
        let q = checks.check(&mut scratch, &record(&q));
        let mut ledger = Ledger::new(true);
        let mut found = Vec::new();
        let place = |f: FirstSeen| format!("line {}", f.line());
        ledger.record(0, 1, &p, Claims::default(), place, &mut found);
        assert!(found.is_empty(), "{found:?}");
        let claims = Claims {
            solution: Some(P17),
            clues: Some("18"),
        };
        ledger.record(0, 2, &p, claims, place, &mut found);
        let kinds: Vec<Kind> = found.iter().map(|f| f.0).collect();
        assert_eq!(
            kinds,
            [Kind::WrongSolution, Kind::WrongClues, Kind::Duplicate]
        );
        assert_eq!(found[2].1, "same puzzle as line 1");
        ledger.record(0, 3, &q, Claims::default(), place, &mut found);
        assert_eq!(
            found,
            [(Kind::Isomorph, "equivalent to line 1".to_string())]
        );
        let tally = ledger.tally();
        assert_eq!((tally.records(), tally.get(Kind::Ok)), (3, 1));
        assert_eq!((tally.duplicate_groups, tally.isomorph_groups), (1, 1));
    }
}
