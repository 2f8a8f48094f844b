//! `compare`: bulkdoku's engine against the `sudoku` crate, side by side, single thread.
//!
//! For each shared dataset and mode it runs interleaved passes (ours, peer, ours, peer,
//! ...), so that drift in machine load hits both sides alike, takes the median pass of
//! each side and prints a Markdown table with the ratio. Before timing it cross-checks
//! both engines' solution counts on every puzzle and reports any disagreement loudly.
//!
//! Usage: `cargo run --release --bin compare -- [--passes K] [--dataset NAME] [--quick]`

use std::process::ExitCode;
use std::time::{Duration, Instant};

use bulkdoku::Solver;
use bulkdoku_peer_bench::{
    cross_check, data_dir, enumerate_ours, enumerate_peer, load, run_ours, run_peer, short_label,
    Mode, DATASETS, ENUMERATION_SOLUTIONS, QUICK_PUZZLES,
};

struct Args {
    passes: usize,
    dataset: Option<String>,
    quick: bool,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        passes: 7,
        dataset: None,
        quick: false,
    };
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--passes" => {
                let v = it.next().ok_or("--passes needs a number")?;
                args.passes = v
                    .parse()
                    .ok()
                    .filter(|&k| k > 0)
                    .ok_or_else(|| format!("--passes: {v:?} is not a positive number"))?;
            }
            "--dataset" => args.dataset = Some(it.next().ok_or("--dataset needs a name")?),
            "--quick" => args.quick = true,
            "-h" | "--help" => {
                println!("usage: compare [--passes K] [--dataset NAME] [--quick]");
                std::process::exit(0);
            }
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    Ok(args)
}

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

/// Run `ours` and `peer` alternately `passes` times each; median seconds of each.
///
/// Which of the two goes first swaps from pass to pass: on the shared machine the
/// second of two back-to-back runs was measurably slower at times (up to ~15 % in
/// A/B runs of two identical engines), which a fixed order would charge to one side.
fn interleaved(
    passes: usize,
    mut ours: impl FnMut() -> u64,
    mut peer: impl FnMut() -> u64,
) -> (f64, f64) {
    let (mut t_ours, mut t_peer) = (Vec::new(), Vec::new());
    let time = |run: &mut dyn FnMut() -> u64, times: &mut Vec<Duration>| {
        let start = Instant::now();
        std::hint::black_box(run());
        times.push(start.elapsed());
    };
    for pass in 0..passes {
        if pass % 2 == 0 {
            time(&mut ours, &mut t_ours);
            time(&mut peer, &mut t_peer);
        } else {
            time(&mut peer, &mut t_peer);
            time(&mut ours, &mut t_ours);
        }
    }
    (median(t_ours).as_secs_f64(), median(t_peer).as_secs_f64())
}

fn rate(n: usize, secs: f64) -> String {
    let r = n as f64 / secs;
    if r >= 1e6 {
        format!("{:.2}M", r / 1e6)
    } else if r >= 1e3 {
        format!("{:.1}K", r / 1e3)
    } else {
        format!("{r:.0}")
    }
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("compare: {e}");
            return ExitCode::from(2);
        }
    };
    let mut rows = Vec::new();
    let mut mismatched = 0usize;
    let mut matched = 0usize;
    for name in DATASETS {
        if let Some(filter) = &args.dataset {
            if name != filter && short_label(name) != filter {
                continue;
            }
        }
        matched += 1;
        let mut data = match load(name) {
            Ok(Some(d)) => d,
            Ok(None) => {
                eprintln!("compare: skipping {name}: not in {}", data_dir().display());
                continue;
            }
            Err(e) => {
                eprintln!("compare: {e}");
                return ExitCode::FAILURE;
            }
        };
        if args.quick {
            data.truncate(QUICK_PUZZLES);
        }
        let n = data.ours.len();
        eprintln!("compare: {}: {n} puzzles, cross-checking", data.label());
        let mismatches = cross_check(&data);
        for m in mismatches.iter().take(20) {
            eprintln!(
                "MISMATCH {} puzzle #{} {}: {}",
                data.label(),
                m.index + 1,
                m.puzzle,
                m.reason
            );
        }
        if !mismatches.is_empty() {
            eprintln!(
                "MISMATCH {}: {} puzzle(s) disagree between bulkdoku and sudoku",
                data.label(),
                mismatches.len()
            );
            mismatched += mismatches.len();
        }
        let mut solver = Solver::new();
        for mode in Mode::ALL {
            eprintln!(
                "compare: {} {}: {} passes each",
                data.label(),
                mode.label(),
                args.passes
            );
            let (ours, peer) = interleaved(
                args.passes,
                || run_ours(&mut solver, &data.ours, mode),
                || run_peer(&data.peer, mode),
            );
            rows.push(format!(
                "| {} | {} | {} | {} | {:.2}× |",
                data.label(),
                mode.label(),
                rate(n, ours),
                rate(n, peer),
                peer / ours
            ));
        }
    }
    if let (Some(filter), 0) = (&args.dataset, matched) {
        eprintln!("compare: no dataset is named {filter:?}; known: {DATASETS:?}");
        return ExitCode::FAILURE;
    }

    let limit = if args.quick {
        ENUMERATION_SOLUTIONS / 10
    } else {
        ENUMERATION_SOLUTIONS
    };
    eprintln!("compare: enumeration from the empty grid, {limit} solutions per pass");
    let mut solver = Solver::new();
    let (found_ours, found_peer) = (enumerate_ours(&mut solver, limit), enumerate_peer(limit));
    if found_ours != limit || found_peer != limit {
        eprintln!(
            "MISMATCH enumeration: asked for {limit}, bulkdoku counted {found_ours}, sudoku {found_peer}"
        );
        mismatched += 1;
    }
    let (ours, peer) = interleaved(
        args.passes,
        || enumerate_ours(&mut solver, limit),
        || enumerate_peer(limit),
    );
    rows.push(format!(
        "| empty grid | count {limit} (solutions/s) | {} | {} | {:.2}× |",
        rate(limit as usize, ours),
        rate(limit as usize, peer),
        peer / ours
    ));

    println!(
        "Single thread, median of {} interleaved passes{}; ratio = ours / peer.\n",
        args.passes,
        if args.quick {
            format!(", first {QUICK_PUZZLES} puzzles per dataset")
        } else {
            String::new()
        }
    );
    println!("| dataset | mode | ours (puzzles/s) | peer `sudoku` 0.8 (puzzles/s) | ratio |");
    println!("|--|--|--:|--:|--:|");
    for row in rows {
        println!("{row}");
    }
    if mismatched > 0 {
        eprintln!("compare: {mismatched} MISMATCH(ES) between bulkdoku and sudoku, see above");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
