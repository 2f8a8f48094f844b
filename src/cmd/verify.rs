//! `bulkdoku verify`: prove a dataset clean, or list exactly what is wrong with it.
//!
//! Per puzzle, on the [`dataset`](super::dataset) driver's workers (each with its own
//! [`Solver`] and [`Canonicalizer`]): parse (`malformed`), check the givens (`conflict`),
//! solve with a limit of 2 (`unsolvable`, `multiple`), with `--minimal` try removing
//! each given (`not_minimal`), with `--isomorphs` fingerprint the canonical form.
//!
//! In the drain, sequentially and in input order: the solution and clue-count columns
//! (`wrong_solution`, `wrong_clues`), and duplicate / isomorph detection against
//! everything seen before. Only a 128-bit fingerprint per distinct puzzle (and per
//! distinct class with `--isomorphs`) is kept, with the line where it first appeared:
//! a 24-byte entry in hash tables sharded 256 ways (so that growing one never doubles
//! the total), between 29 and 57 bytes per distinct puzzle per table, about 40 on
//! average. 100 million distinct puzzles need about 4 GB, 8 GB with `--isomorphs`.
//! Fingerprint collisions (two different puzzles taken for duplicates) have odds of
//! about `n² / 2¹²⁹` (see [`crate::canon`]).

use std::collections::{BTreeMap, HashMap};
use std::hash::{BuildHasherDefault, Hash, Hasher};
use std::io::Write;
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{bail, Context};

use crate::canon::{fingerprint, Canonicalizer};
use crate::cli::{InputArgs, OutputArgs, ProgressArgs, ThreadArgs};
use crate::cmd::dataset::{Driver, Item, Source};
use crate::grid::{cell_name, Grid, CELLS};
use crate::output;
use crate::progress::{human_rate, rate, Progress};
use crate::solver::Solver;

const EXAMPLES: &str = "\
Examples:
  bulkdoku verify puzzles.txt                    findings as CSV on stdout
  bulkdoku verify train.csv --isomorphs --minimal -o findings.csv
  bulkdoku verify data.csv --solution-column answer --summary summary.json
  bulkdoku verify --all puzzles.txt              a row for every puzzle, `ok` when clean

Exit codes: 0 clean; 1 something was found; 2 an unreadable file, broken CSV, or bad
arguments.";

/// Arguments of `bulkdoku verify`.
#[derive(Debug, clap::Args)]
#[command(after_help = EXAMPLES)]
pub struct Args {
    #[command(flatten)]
    pub input: InputArgs,

    #[command(flatten)]
    pub output: OutputArgs,

    #[command(flatten)]
    pub threads: ThreadArgs,

    #[command(flatten)]
    pub progress: ProgressArgs,

    /// Report puzzles equivalent to an earlier one under the Sudoku symmetries.
    #[arg(long)]
    pub isomorphs: bool,

    /// Report puzzles with a given that can be removed keeping a unique solution.
    #[arg(long)]
    pub minimal: bool,

    /// Also write an `ok` row for every puzzle without findings.
    #[arg(long)]
    pub all: bool,

    /// The solution column of a CSV input (default: `solutions`, `solution` or `answer`).
    #[arg(long, value_name = "NAME")]
    pub solution_column: Option<String>,

    /// Also write the summary as JSON to FILE.
    #[arg(long, value_name = "FILE")]
    pub summary: Option<PathBuf>,
}

/// What can be wrong with a puzzle, in the order a puzzle's rows are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
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
type Finding = (Kind, String);

/// What the workers found out about one record.
#[derive(Debug, Default)]
struct Checked {
    /// The puzzle, when its cells could be read.
    grid: Option<Grid>,
    /// Fingerprint of the puzzle (computed here to keep the sequential drain light).
    key: u128,
    /// Its unique solution, when it has one.
    solution: Option<Grid>,
    /// Fingerprint of its canonical form (`--isomorphs`, conflict-free puzzles).
    class: Option<u128>,
    /// Findings made on the workers.
    findings: Vec<Finding>,
}

/// The per-record checks run on the workers.
#[derive(Debug, Clone, Copy)]
struct Checks {
    isomorphs: bool,
    minimal: bool,
}

impl Checks {
    fn run(&self, (solver, canon): &mut (Solver, Canonicalizer), item: &Item) -> Checked {
        let record = &item.record;
        let mut out = Checked::default();
        if let Some(reason) = &record.error {
            out.findings.push((Kind::Malformed, reason.clone()));
            return out;
        }
        let grid = match Grid::parse(&record.cells) {
            Ok(g) => g,
            Err(e) => {
                out.findings.push((Kind::Malformed, e.to_string()));
                return out;
            }
        };
        out.grid = Some(grid);
        out.key = fingerprint(&grid);
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
                out.findings.push((
                    Kind::NotMinimal,
                    format!(
                        "each of these givens can be removed keeping a unique solution: {}",
                        names.join(" ")
                    ),
                ));
            }
        }
        out
    }
}

/// The detail of a `multiple` finding: where two of the solutions differ.
fn multiple_detail(two: &[Grid; 2]) -> String {
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
fn removable_givens(solver: &mut Solver, grid: &Grid) -> Vec<usize> {
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

/// Check a solution-column value against the puzzle (and its unique solution).
fn solution_finding(value: &str, grid: &Grid, unique: Option<&Grid>) -> Option<String> {
    let value = value.trim();
    let given = match Grid::parse(value.as_bytes()) {
        Ok(g) => g,
        Err(e) => return Some(format!("not a complete valid grid: {e}")),
    };
    if !given.is_complete() {
        let blanks = given.cells().iter().filter(|&&v| v == 0).count();
        return Some(format!("not a complete valid grid: {blanks} blank cells"));
    }
    if let Err(conflict) = given.check_givens() {
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

/// A 128-bit fingerprint as a map key: 8-byte aligned (so an entry with its `u64` value
/// is 24 bytes, not 32), hashed by its low word (it is already a good hash).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Fp([u64; 2]);

impl From<u128> for Fp {
    fn from(v: u128) -> Fp {
        Fp([v as u64, (v >> 64) as u64])
    }
}

impl Hash for Fp {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.0[0]);
    }
}

/// A hasher that passes a `u64` through: the keys are fingerprints already.
#[derive(Default)]
struct PassThrough(u64);

impl Hasher for PassThrough {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        // Not used by `Fp`; a plain fold keeps any other key working.
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ b as u64).wrapping_mul(0x100_0000_01b3);
        }
    }

    fn write_u64(&mut self, v: u64) {
        self.0 = v;
    }
}

/// Where a fingerprint was first seen, packed in a `u64`: bit 63 set once a repeat was
/// seen (to count groups), 15 bits of input index, 48 bits of line.
#[derive(Debug, Clone, Copy)]
struct FirstSeen(u64);

const REPEATED: u64 = 1 << 63;
const LINE_BITS: u32 = 48;

impl FirstSeen {
    fn new(file: usize, line: u64) -> FirstSeen {
        let file = (file as u64).min(0x7fff);
        FirstSeen((file << LINE_BITS) | line.min((1 << LINE_BITS) - 1))
    }

    fn file(self) -> usize {
        ((self.0 & !REPEATED) >> LINE_BITS) as usize
    }

    fn line(self) -> u64 {
        self.0 & ((1 << LINE_BITS) - 1)
    }
}

/// One shard of [`Seen`].
type Shard = HashMap<Fp, FirstSeen, BuildHasherDefault<PassThrough>>;

/// Number of shards of [`Seen`]: each grows on its own, so the moment of a resize,
/// when a table's old and new bucket arrays are both alive, costs 1/256 of the total
/// instead of doubling it.
const SHARDS: usize = 256;

/// First occurrences by fingerprint: 24-byte entries in hash tables kept between 7/16
/// and 7/8 full (plus one control byte per bucket), so 29 to 57 bytes per distinct key.
struct Seen {
    shards: Vec<Shard>,
}

impl Default for Seen {
    fn default() -> Seen {
        // Empty maps do not allocate.
        Seen {
            shards: (0..SHARDS).map(|_| Shard::default()).collect(),
        }
    }
}

impl Seen {
    /// Record `key` first seen at (`file`, `line`); if it was seen before, return where,
    /// and whether this is the first repeat of it (a new group).
    fn see(&mut self, key: u128, file: usize, line: u64) -> Option<(FirstSeen, bool)> {
        // The top byte picks the shard; the map hashes the low word: independent bits.
        let shard = &mut self.shards[(key >> 120) as usize % SHARDS];
        match shard.entry(Fp::from(key)) {
            std::collections::hash_map::Entry::Vacant(v) => {
                v.insert(FirstSeen::new(file, line));
                None
            }
            std::collections::hash_map::Entry::Occupied(mut o) => {
                let first = *o.get();
                let new_group = first.0 & REPEATED == 0;
                o.get_mut().0 |= REPEATED;
                Some((first, new_group))
            }
        }
    }
}

/// Column positions of one input's solution and clue-count columns.
#[derive(Debug, Clone, Copy, Default)]
struct Columns {
    solution: Option<usize>,
    clues: Option<usize>,
}

impl Columns {
    fn find(source: &Source, solution_column: Option<&str>) -> anyhow::Result<Columns> {
        let Some(headers) = &source.headers else {
            if let Some(name) = solution_column {
                bail!(
                    "{}: --solution-column {name:?} needs CSV input with a header row",
                    source.name
                );
            }
            return Ok(Columns::default());
        };
        let find = |name: &str| headers.iter().position(|h| h.trim() == name);
        let solution = match solution_column {
            Some(name) => Some(find(name).with_context(|| {
                format!(
                    "{}: --solution-column: no column {name:?} (columns: {})",
                    source.name,
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

/// Totals for the summary.
#[derive(Debug, Default)]
struct Tally {
    by_kind: [u64; Kind::ALL.len()],
    puzzles_with_findings: u64,
    duplicate_groups: u64,
    isomorph_groups: u64,
}

impl Tally {
    fn count(&mut self, kind: Kind) {
        self.by_kind[kind as usize] += 1;
    }

    fn get(&self, kind: Kind) -> u64 {
        self.by_kind[kind as usize]
    }
}

/// The summary `--summary` writes.
#[derive(Debug, serde::Serialize)]
struct SummaryJson {
    puzzles: u64,
    kinds: BTreeMap<&'static str, u64>,
    puzzles_with_findings: u64,
    duplicate_groups: u64,
    isomorph_groups: u64,
    seconds: f64,
    threads: usize,
}

/// The state of the sequential drain.
struct Drain<W: Write> {
    writer: csv::Writer<W>,
    with_file: bool,
    all: bool,
    isomorphs: bool,
    solution_column: Option<String>,
    columns: Vec<Columns>,
    puzzles: Seen,
    classes: Seen,
    tally: Tally,
    findings: Vec<Finding>,
}

impl<W: Write> Drain<W> {
    fn record(
        &mut self,
        sources: &[Arc<Source>],
        item: &Item,
        checked: &Checked,
    ) -> anyhow::Result<()> {
        while self.columns.len() < sources.len() {
            let source = &sources[self.columns.len()];
            self.columns
                .push(Columns::find(source, self.solution_column.as_deref())?);
        }
        let line = item.record.line;
        self.findings.clear();
        self.findings.extend(checked.findings.iter().cloned());
        if let Some(grid) = &checked.grid {
            let columns = self.columns[item.file];
            let field = |i: Option<usize>| i.and_then(|i| item.record.fields.get(i));
            // An empty cell gives no value: nothing to check.
            if let Some(value) = field(columns.solution).filter(|v| !v.trim().is_empty()) {
                if let Some(detail) = solution_finding(value, grid, checked.solution.as_ref()) {
                    self.findings.push((Kind::WrongSolution, detail));
                }
            }
            if let Some(value) = field(columns.clues).filter(|v| !v.trim().is_empty()) {
                let clues = grid.clues();
                if value.trim().parse::<usize>().ok() != Some(clues) {
                    self.findings.push((
                        Kind::WrongClues,
                        format!("the clues column says {value:?}, the puzzle has {clues}"),
                    ));
                }
            }
            let earlier = self.puzzles.see(checked.key, item.file, line);
            if let Some((first, new_group)) = earlier {
                self.tally.duplicate_groups += new_group as u64;
                let detail = format!("same puzzle as {}", where_(sources, first, self.with_file));
                self.findings.push((Kind::Duplicate, detail));
            } else if let Some(class) = checked.class.filter(|_| self.isomorphs) {
                // Exact duplicates are already reported; their class is already known.
                if let Some((first, new_group)) = self.classes.see(class, item.file, line) {
                    self.tally.isomorph_groups += new_group as u64;
                    let detail =
                        format!("equivalent to {}", where_(sources, first, self.with_file));
                    self.findings.push((Kind::Isomorph, detail));
                }
            }
        }
        self.findings.sort_by_key(|f| f.0);
        if self.findings.is_empty() {
            self.tally.count(Kind::Ok);
            if self.all {
                self.write(sources, item, checked, Kind::Ok, "")?;
            }
            return Ok(());
        }
        self.tally.puzzles_with_findings += 1;
        let findings = std::mem::take(&mut self.findings);
        for (kind, detail) in &findings {
            self.tally.count(*kind);
            self.write(sources, item, checked, *kind, detail)?;
        }
        self.findings = findings;
        Ok(())
    }

    fn write(
        &mut self,
        sources: &[Arc<Source>],
        item: &Item,
        checked: &Checked,
        kind: Kind,
        detail: &str,
    ) -> csv::Result<()> {
        let mut line = [0u8; CELLS];
        let puzzle: &[u8] = match &checked.grid {
            Some(g) => {
                g.write_line(&mut line);
                &line
            }
            None => &item.record.cells,
        };
        if self.with_file {
            self.writer.write_field(&sources[item.file].name)?;
        }
        self.writer.write_field(item.record.line.to_string())?;
        self.writer.write_field(puzzle)?;
        self.writer.write_field(kind.as_str())?;
        self.writer.write_field(detail)?;
        self.writer.write_record(None::<&[u8]>)
    }
}

/// "line N", or "line N of FILE" when several inputs are read.
fn where_(sources: &[Arc<Source>], first: FirstSeen, with_file: bool) -> String {
    match sources.get(first.file()).filter(|_| with_file) {
        Some(source) => format!("line {} of {}", first.line(), source.name),
        None => format!("line {}", first.line()),
    }
}

/// Run `bulkdoku verify`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let checks = Checks {
        isomorphs: args.isomorphs,
        minimal: args.minimal,
    };
    let with_file = args.input.files.len() > 1;
    let sink = output::open(args.output.output.as_deref())?;
    let mut writer = csv::WriterBuilder::new().from_writer(sink);
    if with_file {
        writer.write_field("file")?;
    }
    writer.write_record(["line", "puzzle", "kind", "detail"])?;
    let mut drain = Drain {
        writer,
        with_file,
        all: args.all,
        isomorphs: args.isomorphs,
        solution_column: args.solution_column.clone(),
        columns: Vec::new(),
        puzzles: Seen::default(),
        classes: Seen::default(),
        tally: Tally::default(),
        findings: Vec::new(),
    };

    let progress = Progress::new(
        args.progress.progress,
        args.progress.quiet,
        Driver::total_bytes(&args.input),
    );
    let driver = Driver::new(&args.input, args.threads.threads, progress);
    let summary = driver.run(
        || (Solver::new(), Canonicalizer::new()),
        |scratch, item| checks.run(scratch, item),
        |sources, items, results| {
            for (item, checked) in items.iter().zip(results) {
                drain.record(sources, item, checked)?;
            }
            Ok(ControlFlow::Continue(()))
        },
    )?;
    drain.writer.flush()?;

    let tally = &drain.tally;
    let shown: Vec<Kind> = Kind::ALL
        .into_iter()
        .filter(|&k| match k {
            Kind::Isomorph => args.isomorphs,
            Kind::NotMinimal => args.minimal,
            _ => true,
        })
        .collect();
    if let Some(path) = &args.summary {
        let json = SummaryJson {
            puzzles: summary.records,
            kinds: shown.iter().map(|&k| (k.as_str(), tally.get(k))).collect(),
            puzzles_with_findings: tally.puzzles_with_findings,
            duplicate_groups: tally.duplicate_groups,
            isomorph_groups: tally.isomorph_groups,
            seconds: summary.elapsed.as_secs_f64(),
            threads: summary.threads,
        };
        let text = serde_json::to_string_pretty(&json)?;
        std::fs::write(path, text + "\n")
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    if !args.progress.quiet {
        let counts: Vec<String> = shown
            .iter()
            .filter(|&&k| k != Kind::Ok)
            .map(|&k| format!("{} {}", tally.get(k), k.as_str()))
            .collect();
        let verdict = if tally.puzzles_with_findings == 0 {
            "clean".to_string()
        } else {
            format!("{} with findings", tally.puzzles_with_findings)
        };
        eprintln!(
            "bulkdoku: verified {} puzzles: {verdict}\n\
             bulkdoku: {}\n\
             bulkdoku: {} duplicate groups{}\n\
             bulkdoku: {:.3} s wall, {} puzzles/s on {} thread{}",
            summary.records,
            counts.join(", "),
            tally.duplicate_groups,
            if args.isomorphs {
                format!(", {} isomorph groups", tally.isomorph_groups)
            } else {
                String::new()
            },
            summary.elapsed.as_secs_f64(),
            human_rate(rate(summary.records, summary.elapsed)),
            summary.threads,
            if summary.threads == 1 { "" } else { "s" },
        );
    }
    Ok(if tally.puzzles_with_findings == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
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
        assert_eq!(solution_finding(&s.to_line(), &p, Some(&s)), None);
        let short = solution_finding("123", &p, Some(&s)).unwrap();
        assert!(short.contains("not a complete valid grid"), "{short}");
        let blank = solution_finding(P17, &p, Some(&s)).unwrap();
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
        let d = solution_finding(&swapped, &p, Some(&s)).unwrap();
        assert!(d.contains("disagrees with the given at r1c1"), "{d}");
    }

    #[test]
    fn first_seen_packs_and_unpacks() {
        let f = FirstSeen::new(3, 123_456_789_012);
        assert_eq!((f.file(), f.line()), (3, 123_456_789_012));
        let f = FirstSeen(f.0 | REPEATED);
        assert_eq!((f.file(), f.line()), (3, 123_456_789_012));
        assert_eq!(std::mem::size_of::<(Fp, FirstSeen)>(), 24);
    }
}
