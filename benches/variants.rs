//! Variant engine benches: puzzles per second at limit 2 on generated puzzles of each
//! rule set, against two yardsticks on the same Sudoku-X puzzles, and the generic
//! engine against the band engine on classic puzzles (the cost of generality).
//!
//! - `baseline`: a plain rule-table solver written here as an independent reviewer
//!   would, for every rule set (its houses, knight and king moves, the non-consecutive
//!   ban on placing): a candidate mask per cell, houses as cell lists, naked and hidden singles
//!   over all houses swept to a fixed point, branching on the cell with the fewest
//!   candidates by recursion on copies. No bitboards, no band tricks. It is the
//!   yardstick of the speed target, so it is written to be reasonable, not slow.
//! - `seed`: the seed article's backtracking algorithm (occupancy tables
//!   `rule[kind][index][digit]`, cells in reading order, digits in order), with a
//!   fourth table for the two diagonals as the article suggests. Slow on purpose of
//!   its design; it runs on a few puzzles under a time cap.
//!
//! Rates are per second of the bench thread's CPU time where Linux tells it (one core:
//! time the thread waits for a core on a shared machine does not count), else of wall
//! time.
//!
//! Puzzles are generated in the setup with fixed seeds (`BULKDOKU_BENCH_PUZZLES=N` per
//! rule set, default 300; `BULKDOKU_BENCH_SEED=S`, default 2024, draws another sample),
//! so the bench needs no data files;
//! `BULKDOKU_BENCH_SETS="non-consecutive;anti-knight"` limits the rule sets to those
//! named (`;` between them, as a set's own name has commas; `x` is always made).
//! `BULKDOKU_BENCH_FILES="anti-king=PATH;jigsaw=PATH"` takes a rule set's puzzles from a
//! file instead (a held-out set, say), and runs that set whatever `BULKDOKU_BENCH_SETS`
//! says: one puzzle a line in its first 81 characters, under `jigsaw` the regions as the
//! line's second field (81 symbols after a space, tab, `,` or `;`), blank lines and lines
//! starting with `#` skipped, every puzzle with exactly one solution (the bench checks
//! it). `BULKDOKU_BENCH_X_FILE=PATH` is `BULKDOKU_BENCH_FILES="x=PATH"`: the x rows and
//! the yardsticks' side of them. After criterion's figures
//! an interleaved pass prints side-by-side ratios: the runs of a round follow each
//! other, their order rotates, and the medians over rounds (`BULKDOKU_BENCH_ROUNDS`,
//! default 11) are reported, as `benches/pipeline.rs` does.

use std::hint::black_box;
use std::time::{Duration, Instant};

use bulkdoku::generate::Rng;
use bulkdoku::rules::{
    generate_one, EngineChoice, Regions, Rule, RuleSet, Variant, VariantSolver, Vectors,
};
use bulkdoku::{Grid, Solver};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

/// Generated puzzles per rule set.
fn puzzles_per_set() -> usize {
    std::env::var("BULKDOKU_BENCH_PUZZLES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300)
}

/// Rule sets with a rate of their own.
const SETS: [&str; 10] = [
    "x",
    "windoku",
    "anti-knight",
    "anti-king",
    "non-consecutive",
    "jigsaw",
    "disjoint",
    "x,windoku",
    "x,anti-knight",
    "anti-king,anti-knight,non-consecutive",
];

/// Puzzles of one rule set, each with its rule table (jigsaw layouts differ).
struct Set {
    name: &'static str,
    puzzles: Vec<(Variant, Grid)>,
}

/// Every rule set's puzzles, generated once per bench run. Non-consecutive alone gets
/// a tenth of the count: its generation takes about a second a puzzle (the minimal
/// puzzles have 3 to 7 clues, and each of the 81 uniqueness checks on the way is a
/// search of thousands of guesses). With knight and king moves as well it is quick.
fn all_sets() -> &'static [Set] {
    static SETS_MADE: std::sync::OnceLock<Vec<Set>> = std::sync::OnceLock::new();
    SETS_MADE.get_or_init(|| {
        let n = puzzles_per_set();
        let only = std::env::var("BULKDOKU_BENCH_SETS").ok();
        let files = bench_files();
        SETS.iter()
            .filter(|&&name| {
                name == "x"
                    || files.iter().any(|(set, _)| set == name)
                    || only
                        .as_deref()
                        .is_none_or(|o| o.split(';').any(|s| s == name))
            })
            .map(|&name| {
                if let Some((_, path)) = files.iter().find(|(set, _)| set == name) {
                    return file_set(name, path);
                }
                let count = if name == "non-consecutive" {
                    (n / 10).max(5)
                } else {
                    n
                };
                generate_set(name, count)
            })
            .collect()
    })
}

/// The rule sets named with a file by `BULKDOKU_BENCH_FILES` (and `x` by
/// `BULKDOKU_BENCH_X_FILE`): (set name, path).
fn bench_files() -> Vec<(String, String)> {
    let mut files: Vec<(String, String)> = std::env::var("BULKDOKU_BENCH_FILES")
        .unwrap_or_default()
        .split(';')
        .filter(|s| !s.trim().is_empty())
        .map(|s| {
            let (set, path) = s
                .split_once('=')
                .unwrap_or_else(|| panic!("BULKDOKU_BENCH_FILES: {s:?} is not SET=PATH"));
            let set = set.trim();
            assert!(
                SETS.contains(&set),
                "BULKDOKU_BENCH_FILES: {set:?} is none of the bench's sets {SETS:?}"
            );
            (set.to_string(), path.trim().to_string())
        })
        .collect();
    if let Ok(path) = std::env::var("BULKDOKU_BENCH_X_FILE") {
        files.retain(|(set, _)| set != "x");
        files.push(("x".to_string(), path));
    }
    files
}

/// The puzzles of rule set `name` read from `path` (see the module's notes).
fn file_set(name: &'static str, path: &str) -> Set {
    let rules: RuleSet = name.parse().expect("known rules");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{name} file {path}: {e}"));
    let puzzles: Vec<(Variant, Grid)> = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim_end()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
        .map(|(line, l)| {
            let bytes = l.as_bytes();
            let fail = |why: String| -> ! { panic!("{name} file {path}, line {line}: {why}") };
            let grid =
                Grid::parse(&bytes[..bytes.len().min(81)]).unwrap_or_else(|e| fail(e.to_string()));
            let regions = if rules.contains(Rule::Jigsaw) {
                let rest = l.get(81..).unwrap_or("");
                let field = rest.trim_start_matches([' ', '\t', ',', ';']);
                let field = &field.as_bytes()[..field.len().min(81)];
                Some(Regions::parse(field).unwrap_or_else(|e| fail(e.to_string())))
            } else {
                None
            };
            let v = Variant::new(rules, regions.as_ref()).unwrap_or_else(|e| fail(e.to_string()));
            (v, grid)
        })
        .collect();
    assert!(!puzzles.is_empty(), "{name} file {path}: no puzzles");
    Set { name, puzzles }
}

/// The seed of the generated sets (`BULKDOKU_BENCH_SEED`, default 2024).
fn bench_seed() -> u64 {
    std::env::var("BULKDOKU_BENCH_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2024)
}

fn generate_set(name: &'static str, n: usize) -> Set {
    let rules: RuleSet = name.parse().expect("known rules");
    let mut solver = VariantSolver::new();
    let puzzles = (0..n as u64)
        .map(|i| {
            let made = generate_one(rules, &mut solver, &mut Rng::for_puzzle(bench_seed(), i))
                .expect("these rule sets have grids");
            let v = Variant::new(rules, made.regions.as_ref()).expect("regions with jigsaw");
            (v, made.puzzle)
        })
        .collect();
    Set { name, puzzles }
}

/// Classic puzzles from the classic generator.
fn classic_puzzles(n: usize) -> Vec<Grid> {
    let mut solver = Solver::new();
    (0..n as u64)
        .map(|i| {
            bulkdoku::generate::generate_one(&mut solver, &mut Rng::for_puzzle(bench_seed(), i))
        })
        .collect()
}

// ---------------------------------------------------------------------------------
// The plain rule-table baseline.

/// A plain rule-table solver: houses as lists of cells, a 9-bit candidate mask per
/// cell, singles swept to a fixed point, most-constrained-cell branching. Placing a
/// digit takes it from the cell's peers (house-mates, and knight's or king's move
/// neighbours under those rules) and, under non-consecutive, the digits next to it
/// from the orthogonal neighbours: what each rule says, and nothing inferred beyond.
struct Plain {
    houses: Vec<[u8; 9]>,
    peers: Vec<Vec<u8>>,
    /// Orthogonal neighbours under non-consecutive (else empty lists).
    orth: Vec<Vec<u8>>,
}

#[derive(Clone, Copy)]
struct PlainState {
    cand: [u16; 81],
    value: [u8; 81],
}

/// The cells at these (row, column) offsets from `cell` that are on the grid.
fn plain_moves(cell: usize, offsets: &[(i32, i32)]) -> Vec<u8> {
    let (r, c) = ((cell / 9) as i32, (cell % 9) as i32);
    offsets
        .iter()
        .map(|&(dr, dc)| (r + dr, c + dc))
        .filter(|&(r, c)| (0..9).contains(&r) && (0..9).contains(&c))
        .map(|(r, c)| (r * 9 + c) as u8)
        .collect()
}

impl Plain {
    /// The table of `v`'s rules: its houses (rows, columns, boxes or regions,
    /// diagonals, windows), knight and king moves, orthogonal neighbours.
    fn new(v: &Variant) -> Plain {
        let houses: Vec<[u8; 9]> = v
            .houses()
            .map(|(mask, _)| {
                let cells: Vec<u8> = (0..81u8).filter(|&c| mask >> c & 1 != 0).collect();
                cells.try_into().expect("a house has nine cells")
            })
            .collect();
        let rules = v.rules();
        const KNIGHT: [(i32, i32); 8] = [
            (-2, -1),
            (-2, 1),
            (-1, -2),
            (-1, 2),
            (1, -2),
            (1, 2),
            (2, -1),
            (2, 1),
        ];
        const KING: [(i32, i32); 4] = [(-1, -1), (-1, 1), (1, -1), (1, 1)];
        const ORTH: [(i32, i32); 4] = [(-1, 0), (1, 0), (0, -1), (0, 1)];
        let peers = (0..81u8)
            .map(|cell| {
                let mut p: Vec<u8> = houses
                    .iter()
                    .filter(|h| h.contains(&cell))
                    .flat_map(|h| h.iter().copied())
                    .filter(|&c| c != cell)
                    .collect();
                if rules.contains(Rule::AntiKnight) {
                    p.extend(plain_moves(cell.into(), &KNIGHT));
                }
                if rules.contains(Rule::AntiKing) {
                    // The king's orthogonal moves are row and column peers already.
                    p.extend(plain_moves(cell.into(), &KING));
                }
                p.sort_unstable();
                p.dedup();
                p
            })
            .collect();
        let orth = (0..81)
            .map(|cell| {
                if rules.contains(Rule::NonConsecutive) {
                    plain_moves(cell, &ORTH)
                } else {
                    Vec::new()
                }
            })
            .collect();
        Plain {
            houses,
            peers,
            orth,
        }
    }

    /// Count solutions up to `limit`.
    fn count(&self, grid: &Grid, limit: u64) -> u64 {
        let mut s = PlainState {
            cand: [0x1ff; 81],
            value: [0; 81],
        };
        for cell in 0..81 {
            let d = grid.get(cell);
            if d != 0 && !self.assign(&mut s, cell, d) {
                return 0;
            }
        }
        let mut found = 0;
        self.search(s, limit, &mut found);
        found
    }

    /// Put `d` in `cell` and take it from the peers; `false` if the cell lacks it.
    fn assign(&self, s: &mut PlainState, cell: usize, d: u8) -> bool {
        let bit = 1u16 << (d - 1);
        if s.cand[cell] & bit == 0 {
            return false;
        }
        s.value[cell] = d;
        s.cand[cell] = bit;
        for &p in &self.peers[cell] {
            s.cand[usize::from(p)] &= !bit;
        }
        let near = (bit << 1 | bit >> 1) & 0x1ff;
        for &n in &self.orth[cell] {
            s.cand[usize::from(n)] &= !near;
        }
        true
    }

    /// Naked and hidden singles until nothing changes; `false` on a contradiction.
    fn propagate(&self, s: &mut PlainState) -> bool {
        loop {
            let mut changed = false;
            for cell in 0..81 {
                let c = s.cand[cell];
                if c == 0 {
                    return false;
                }
                if s.value[cell] == 0 && c.count_ones() == 1 {
                    let d = c.trailing_zeros() as u8 + 1;
                    if !self.assign(s, cell, d) {
                        return false;
                    }
                    changed = true;
                }
            }
            for house in &self.houses {
                // Digits seen once or more, twice or more, in this house.
                let (mut once, mut twice) = (0u16, 0u16);
                for &cell in house {
                    let c = s.cand[usize::from(cell)];
                    twice |= once & c;
                    once |= c;
                }
                if once != 0x1ff {
                    return false;
                }
                let mut hidden = once & !twice;
                while hidden != 0 {
                    let bit = hidden & hidden.wrapping_neg();
                    hidden &= hidden - 1;
                    // An earlier single of this sweep may have taken the only place
                    // (one cell the only place of two digits): a contradiction.
                    let Some(&cell) = house.iter().find(|&&c| s.cand[usize::from(c)] & bit != 0)
                    else {
                        return false;
                    };
                    let cell = usize::from(cell);
                    if s.value[cell] == 0 {
                        if !self.assign(s, cell, bit.trailing_zeros() as u8 + 1) {
                            return false;
                        }
                        changed = true;
                    }
                }
            }
            if !changed {
                return true;
            }
        }
    }

    fn search(&self, mut s: PlainState, limit: u64, found: &mut u64) {
        if !self.propagate(&mut s) {
            return;
        }
        let best = (0..81)
            .filter(|&c| s.value[c] == 0)
            .min_by_key(|&c| s.cand[c].count_ones());
        let Some(cell) = best else {
            *found += 1;
            return;
        };
        let mut digits = s.cand[cell];
        while digits != 0 && *found < limit {
            let d = digits.trailing_zeros() as u8 + 1;
            digits &= digits - 1;
            let mut next = s;
            if self.assign(&mut next, cell, d) {
                self.search(next, limit, found);
            }
        }
    }
}

// ---------------------------------------------------------------------------------
// The seed article's algorithm, with diagonals.

/// The seed's solver: `rule[kind][index][digit]` occupancy for rows, columns, boxes
/// and (kind 3) the two diagonals; cells in reading order, digits in order.
struct Seed {
    rule: [[[bool; 9]; 9]; 4],
    sudoku: [[i8; 9]; 9],
    flag: [[bool; 9]; 9],
    found: u64,
    limit: u64,
}

impl Seed {
    fn count(grid: &Grid, limit: u64) -> u64 {
        let mut s = Seed {
            rule: [[[false; 9]; 9]; 4],
            sudoku: [[-1; 9]; 9],
            flag: [[false; 9]; 9],
            found: 0,
            limit,
        };
        for r in 0..9 {
            for c in 0..9 {
                let v = grid.get(r * 9 + c) as i8 - 1;
                s.sudoku[r][c] = v;
                s.flag[r][c] = v == -1;
                if v >= 0 {
                    s.change_rule(r, c, true);
                }
            }
        }
        s.solve(0);
        s.found
    }

    fn diagonals(r: usize, c: usize) -> [Option<usize>; 2] {
        [(r == c).then_some(0), (r + c == 8).then_some(1)]
    }

    fn next_value(&self, r: usize, c: usize, start: i8) -> i8 {
        let b = 3 * (r / 3) + c / 3;
        (start.max(0) as usize..9)
            .find(|&i| {
                !self.rule[0][r][i]
                    && !self.rule[1][c][i]
                    && !self.rule[2][b][i]
                    && Seed::diagonals(r, c)
                        .iter()
                        .flatten()
                        .all(|&d| !self.rule[3][d][i])
            })
            .map_or(-1, |i| i as i8)
    }

    fn change_rule(&mut self, r: usize, c: usize, style: bool) {
        let b = 3 * (r / 3) + c / 3;
        let v = self.sudoku[r][c] as usize;
        self.rule[0][r][v] = style;
        self.rule[1][c][v] = style;
        self.rule[2][b][v] = style;
        for d in Seed::diagonals(r, c).into_iter().flatten() {
            self.rule[3][d][v] = style;
        }
    }

    fn solve(&mut self, mut index: usize) {
        while index < 81 && !self.flag[index / 9][index % 9] {
            index += 1;
        }
        if index == 81 {
            self.found += 1;
            return;
        }
        let (r, c) = (index / 9, index % 9);
        loop {
            let v = self.next_value(r, c, self.sudoku[r][c] + 1);
            self.sudoku[r][c] = v;
            if v == -1 {
                break;
            }
            self.change_rule(r, c, true);
            self.solve(index + 1);
            self.change_rule(r, c, false);
            if self.found >= self.limit {
                // The article prints every solution; counting to a limit stops here.
                self.sudoku[r][c] = -1;
                return;
            }
        }
    }
}

// ---------------------------------------------------------------------------------

/// Seconds of CPU time this thread has run, where the system tells it
/// (`CLOCK_THREAD_CPUTIME_ID`). Not `/proc/thread-self/schedstat`: on some kernels (the
/// bench machine's among them) its figure only moves at scheduler ticks, 4 ms apart,
/// which is the whole time of one pass over the x puzzles.
#[cfg(unix)]
fn thread_cpu_seconds() -> Option<f64> {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec for the duration of the call, and
    // clock_gettime writes nothing else.
    let status = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    (status == 0).then_some(ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9)
}

#[cfg(not(unix))]
fn thread_cpu_seconds() -> Option<f64> {
    None
}

/// The least time a rate is measured over: `run` is repeated until it has taken this
/// long, so that a fast pass is not timed alone against the clock's resolution.
const MIN_SECS: f64 = 0.05;

/// Puzzles per second of `run` over `n` puzzles: per second of the thread's CPU time
/// where the system tells it (so that other work on a shared machine, which takes the
/// core away now and then, does not count against the run), else of wall time. `run`
/// goes as many times as it takes to fill [`MIN_SECS`].
fn rate(n: usize, mut run: impl FnMut()) -> f64 {
    let (start, cpu) = (Instant::now(), thread_cpu_seconds());
    let mut passes = 0;
    loop {
        run();
        passes += 1;
        let secs = match (cpu, thread_cpu_seconds()) {
            (Some(a), Some(b)) if b > a => b - a,
            _ => start.elapsed().as_secs_f64(),
        };
        if secs >= MIN_SECS {
            return (n * passes) as f64 / secs;
        }
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

fn ours(set: &Set, solver: &mut VariantSolver) -> u64 {
    sum_over(&set.puzzles, |(v, g)| solver.solve(v, g, 2).solutions)
}

fn criterion_figures(c: &mut Criterion) {
    let n = puzzles_per_set();
    let x = &all_sets()[0];
    let classic = classic_puzzles(n);
    let classic_rules = Variant::new(RuleSet::CLASSIC, None).unwrap();
    let plain_x = Plain::new(&x.puzzles[0].0);

    let mut group = c.benchmark_group("x limit 2");
    group.throughput(Throughput::Elements(x.puzzles.len() as u64));
    group.sample_size(10);
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(3));
    let mut solver = VariantSolver::new();
    let mut generic = VariantSolver::with_engine(EngineChoice::Generic);
    group.bench_function("VariantSolver::new()", |b| b.iter(|| ours(x, &mut solver)));
    group.bench_function("generic engine", |b| b.iter(|| ours(x, &mut generic)));
    group.bench_function("rule-table baseline", |b| {
        b.iter(|| sum_over(&x.puzzles, |(_, g)| plain_x.count(g, 2)))
    });
    group.finish();

    let mut group = c.benchmark_group("classic limit 2");
    group.throughput(Throughput::Elements(n as u64));
    group.sample_size(10);
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(3));
    let mut band = Solver::new();
    group.bench_function("band engine", |b| {
        b.iter(|| sum_over(&classic, |g| band.solve(g, 2).solutions))
    });
    group.bench_function("generic engine", |b| {
        b.iter(|| sum_over(&classic, |g| generic.solve(&classic_rules, g, 2).solutions))
    });
    group.finish();

    let mut group = c.benchmark_group("variants limit 2");
    group.sample_size(10);
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(2));
    for set in &all_sets()[1..] {
        group.throughput(Throughput::Elements(set.puzzles.len() as u64));
        group.bench_function(set.name, |b| b.iter(|| ours(set, &mut solver)));
    }
    group.finish();
}

/// The sum of `f` over `items`, each passed through `black_box`.
fn sum_over<T>(items: &[T], mut f: impl FnMut(&T) -> u64) -> u64 {
    items.iter().map(|t| f(black_box(t))).sum()
}

/// Rates of several runs measured side by side: in each round every run goes once,
/// in an order that rotates from round to round; medians over rounds.
fn interleaved(rounds: usize, runs: &mut [&mut dyn FnMut() -> f64]) -> Vec<Vec<f64>> {
    let mut rates = vec![Vec::new(); runs.len()];
    for round in 0..rounds {
        for i in 0..runs.len() {
            let which = (round + i) % runs.len();
            rates[which].push(runs[which]());
        }
    }
    rates
}

/// The median over rounds of the per-round ratio of run `a` to run `b`.
fn ratio(rates: &[Vec<f64>], a: usize, b: usize) -> f64 {
    median(rates[a].iter().zip(&rates[b]).map(|(x, y)| x / y).collect())
}

/// The side-by-side table: interleaved rounds, per-round ratios, medians.
fn ratio_table(_: &mut Criterion) {
    let n = puzzles_per_set();
    let rounds: usize = std::env::var("BULKDOKU_BENCH_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(11);
    let x = &all_sets()[0];
    let nx = x.puzzles.len();
    let classic = classic_puzzles(n);
    let classic_rules = Variant::new(RuleSet::CLASSIC, None).unwrap();
    let plain_x = Plain::new(&x.puzzles[0].0);
    let mut auto = VariantSolver::new();
    let mut generic = VariantSolver::with_engine(EngineChoice::Generic);
    let mut generic_classic = VariantSolver::with_engine(EngineChoice::Generic);
    let mut band_variant = VariantSolver::with_engine(EngineChoice::Bands);
    let mut band = Solver::new();
    // The Sudoku-X search on each kind of vectors `new()` may pick (what CPUs without
    // the best one get), where this CPU has it.
    let forced = [
        ("AVX-512", Vectors::Avx512),
        ("AVX2 alone", Vectors::Avx2),
        ("no vectors", Vectors::Scalar),
    ];
    let forced: Vec<(&str, VariantSolver)> = forced
        .into_iter()
        .filter(|&(_, v)| v.available())
        .map(|(name, v)| (name, VariantSolver::new().with_vectors(v)))
        .collect();
    let forced_names: Vec<&str> = forced.iter().map(|f| f.0).collect();
    // Sanity: the yardsticks agree with the engines on every puzzle.
    for (v, g) in &x.puzzles {
        assert!(v.rules().contains(Rule::X));
        assert_eq!(plain_x.count(g, 2), 1, "{g}");
        assert_eq!(auto.solve(v, g, 2).solutions, 1, "{g}");
        assert_eq!(generic.solve(v, g, 2).solutions, 1, "{g}");
    }

    let mut forced_runs: Vec<Box<dyn FnMut() -> f64 + '_>> = forced
        .into_iter()
        .map(|(_, mut solver)| -> Box<dyn FnMut() -> f64> {
            Box::new(move || rate(nx, || _ = black_box(ours(x, &mut solver))))
        })
        .collect();
    let base: [&mut dyn FnMut() -> f64; 6] = [
        &mut || rate(nx, || _ = black_box(ours(x, &mut auto))),
        &mut || rate(nx, || _ = black_box(ours(x, &mut generic))),
        &mut || {
            rate(nx, || {
                _ = black_box(sum_over(&x.puzzles, |(_, g)| plain_x.count(g, 2)))
            })
        },
        &mut || {
            rate(n, || {
                _ = black_box(sum_over(&classic, |g| band.solve(g, 2).solutions))
            })
        },
        &mut || {
            rate(n, || {
                _ = black_box(sum_over(&classic, |g| {
                    generic_classic.solve(&classic_rules, g, 2).solutions
                }))
            })
        },
        &mut || {
            rate(n, || {
                _ = black_box(sum_over(&classic, |g| {
                    band_variant.solve(&classic_rules, g, 2).solutions
                }))
            })
        },
    ];
    let mut runs: Vec<&mut dyn FnMut() -> f64> = base.into_iter().collect();
    runs.extend(
        forced_runs
            .iter_mut()
            .map(|r| &mut **r as &mut dyn FnMut() -> f64),
    );
    let rates = interleaved(rounds, &mut runs);
    let med = |i: usize| median(rates[i].clone());
    println!(
        "\nvariants: {n} generated puzzles per set (seed {}), limit 2, one thread, {rounds} \
         interleaved rounds, medians",
        bench_seed()
    );
    for (set, path) in bench_files() {
        println!("  {set}: the puzzles of {path}");
    }
    println!(
        "  x, VariantSolver::new()            {:>10.0} puzzles/s",
        med(0)
    );
    println!(
        "  x, generic engine                  {:>10.0} puzzles/s",
        med(1)
    );
    println!(
        "  x, rule-table baseline             {:>10.0} puzzles/s",
        med(2)
    );
    println!(
        "  classic, classic band engine       {:>10.0} puzzles/s",
        med(3)
    );
    println!(
        "  classic, generic engine            {:>10.0} puzzles/s",
        med(4)
    );
    println!(
        "  classic, variant band engine       {:>10.0} puzzles/s",
        med(5)
    );
    println!(
        "  x: VariantSolver::new() ÷ baseline     {:>8.1}  (target ≥ 20)",
        ratio(&rates, 0, 2)
    );
    println!(
        "  x: generic engine ÷ baseline           {:>8.1}",
        ratio(&rates, 1, 2)
    );
    for (i, name) in forced_names.iter().enumerate() {
        println!(
            "  x: {:<34} {:>8.1}  ({:.0} puzzles/s)",
            format!("{name} ÷ baseline"),
            ratio(&rates, 6 + i, 2),
            med(6 + i)
        );
    }
    println!(
        "  classic: classic band ÷ generic        {:>8.2}  (the cost of generality)",
        ratio(&rates, 3, 4)
    );
    println!(
        "  classic: classic band ÷ variant band   {:>8.2}",
        ratio(&rates, 3, 5)
    );

    // The seed's algorithm: a few puzzles under a time cap, against ours on the same.
    let cap = Duration::from_secs(
        std::env::var("BULKDOKU_BENCH_SEED_SECS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(20),
    );
    let (start, cpu) = (Instant::now(), thread_cpu_seconds());
    let mut done = 0;
    for (_, g) in &x.puzzles {
        assert_eq!(Seed::count(g, 2), 1, "{g}");
        done += 1;
        if start.elapsed() >= cap {
            break;
        }
    }
    let seed_secs = match (cpu, thread_cpu_seconds()) {
        (Some(a), Some(b)) if b > a => b - a,
        _ => start.elapsed().as_secs_f64(),
    };
    let seed_rate = done as f64 / seed_secs;
    let subset = Set {
        name: "x",
        puzzles: x.puzzles[..done].to_vec(),
    };
    let reps = 2000;
    let ours_subset = rate(done * reps, || {
        for _ in 0..reps {
            black_box(ours(&subset, &mut auto));
        }
    });
    println!(
        "  x, seed algorithm + diagonals {:>8.2} puzzles/s on the first {done} puzzles",
        seed_rate
    );
    println!(
        "  x, VariantSolver::new(), same {done}   {:>8.0} puzzles/s; ratio {:.0}",
        ours_subset,
        ours_subset / seed_rate
    );

    println!(
        "  per rule set, puzzles/s, median of {rounds} interleaved rounds (new(): the engine \
         VariantSolver::new() picks; baseline: the plain rule-table solver under the same \
         rules; ratio: median of the rounds' new() ÷ baseline):"
    );
    println!(
        "    {:<40} {:>10} {:>10} {:>7} {:>10} {:>12}",
        "rules", "new()", "baseline", "ratio", "generic", "guesses/puz"
    );
    for set in all_sets() {
        let n = set.puzzles.len();
        // One table per puzzle for jigsaw (each has its layout), else one for all.
        let plains: Vec<Plain> = if set.name.contains("jigsaw") {
            set.puzzles.iter().map(|(v, _)| Plain::new(v)).collect()
        } else {
            vec![Plain::new(&set.puzzles[0].0)]
        };
        let plain = |i: usize| &plains[i.min(plains.len() - 1)];
        for (i, (v, g)) in set.puzzles.iter().enumerate() {
            assert_eq!(plain(i).count(g, 2), 1, "{}: baseline on {g}", set.name);
            assert_eq!(auto.solve(v, g, 2).solutions, 1, "{}: {g}", set.name);
        }
        let baseline = || -> u64 {
            set.puzzles
                .iter()
                .enumerate()
                .map(|(i, (_, g))| plain(i).count(black_box(g), 2))
                .sum()
        };
        let rates = interleaved(
            rounds,
            &mut [
                &mut || rate(n, || _ = black_box(ours(set, &mut auto))),
                &mut || rate(n, || _ = black_box(baseline())),
                &mut || rate(n, || _ = black_box(ours(set, &mut generic))),
            ],
        );
        let guesses: u64 = set
            .puzzles
            .iter()
            .map(|(v, g)| auto.solve(v, g, 2).guesses)
            .sum();
        let clues: usize = set.puzzles.iter().map(|(_, g)| g.clues()).sum();
        println!(
            "    {:<40} {:>10.0} {:>10.0} {:>7.1} {:>10.0} {:>12.1}   ({n} puzzles, {:.1} clues)",
            set.name,
            median(rates[0].clone()),
            median(rates[1].clone()),
            ratio(&rates, 0, 1),
            median(rates[2].clone()),
            guesses as f64 / n as f64,
            clues as f64 / n as f64,
        );
    }
}

criterion_group!(benches, criterion_figures, ratio_table);
criterion_main!(benches);
