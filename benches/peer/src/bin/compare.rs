//! `compare`: bulkdoku's engine against tdoku and the `sudoku` crate, side by side,
//! single thread.
//!
//! For each shared dataset and mode it runs interleaved passes (ours, tdoku, sudoku,
//! then the order rotated), so that drift in machine load hits every side alike, takes
//! the median pass of each side and prints a Markdown table with the ratios and the
//! guesses per puzzle. Before timing it cross-checks bulkdoku's and the `sudoku` crate's
//! solution counts on every puzzle and reports any disagreement loudly. tdoku runs as a
//! separate program (see `bulkdoku_peer_bench::tdoku`); when it has not been built, its
//! columns say so and the rest runs as before.
//!
//! Usage: `cargo run --release --bin compare -- [--passes K] [--dataset NAME] [--quick]
//! [--no-tdoku]`

use std::process::ExitCode;
use std::time::{Duration, Instant};

use bulkdoku::Solver;
use bulkdoku_peer_bench::{
    cross_check, data_dir, enumerate_ours, enumerate_peer, guesses_ours, load, run_ours, run_peer,
    short_label, tdoku, Mode, DATASETS, ENUMERATION_SOLUTIONS, QUICK_PUZZLES,
};

struct Args {
    passes: usize,
    dataset: Option<String>,
    quick: bool,
    tdoku: bool,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        passes: 7,
        dataset: None,
        quick: false,
        tdoku: true,
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
            "--no-tdoku" => args.tdoku = false,
            "-h" | "--help" => {
                println!("usage: compare [--passes K] [--dataset NAME] [--quick] [--no-tdoku]");
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

/// One side of a comparison: a pass over the puzzles, returning the seconds it took.
type Side<'a> = Box<dyn FnMut() -> Result<Duration, String> + 'a>;

/// A side timed here, around a call.
fn timed<'a>(mut run: impl FnMut() -> u64 + 'a) -> Side<'a> {
    Box::new(move || {
        let start = Instant::now();
        std::hint::black_box(run());
        Ok(start.elapsed())
    })
}

/// Run every side once per pass, `passes` times; the median seconds of each side.
///
/// The order rotates from pass to pass: on the shared machine the second of two
/// back-to-back runs was measurably slower at times (up to ~15 % in A/B runs of two
/// identical engines), which a fixed order would charge to one side.
fn interleaved(passes: usize, sides: &mut [Side<'_>]) -> Result<Vec<f64>, String> {
    let mut times = vec![Vec::new(); sides.len()];
    for pass in 0..passes {
        for i in 0..sides.len() {
            let side = (pass + i) % sides.len();
            times[side].push(sides[side]()?);
        }
    }
    Ok(times.into_iter().map(|t| median(t).as_secs_f64()).collect())
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
    let tdoku_bin = if args.tdoku {
        let bin = tdoku::bench_binary();
        if bin.is_file() {
            Some(bin)
        } else {
            eprintln!(
                "compare: no tdoku at {} (build it from the bulkdoku checkout with \
                 ../shared/peers/tdoku/build.sh target/tdoku, or set BULKDOKU_TDOKU); \
                 its columns stay empty",
                bin.display()
            );
            None
        }
    } else {
        None
    };
    let tdoku_guesses = tdoku_bin.as_ref().and_then(|bin| {
        tdoku::guesses_binary(bin)
            .map_err(|e| eprintln!("compare: tdoku guesses unavailable: {e}"))
            .ok()
    });
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
        // tdoku reads the very puzzles loaded here, written out once per dataset.
        let tdoku_file = std::env::temp_dir().join(format!(
            "bulkdoku-compare-{}-{}.txt",
            std::process::id(),
            data.label()
        ));
        let use_tdoku = tdoku_bin.is_some()
            && match tdoku::write_puzzles(&tdoku_file, &data.ours) {
                Ok(()) => true,
                Err(e) => {
                    eprintln!("compare: cannot write {}: {e}", tdoku_file.display());
                    false
                }
            };
        let mut solver = Solver::new();
        for mode in Mode::ALL {
            eprintln!(
                "compare: {} {}: {} passes each",
                data.label(),
                mode.label(),
                args.passes
            );
            let mut sides: Vec<Side<'_>> = vec![
                timed(|| run_ours(&mut solver, &data.ours, mode)),
                timed(|| run_peer(&data.peer, mode)),
            ];
            if let (true, Some(bin)) = (use_tdoku, &tdoku_bin) {
                let file = &tdoku_file;
                sides.push(Box::new(move || {
                    tdoku::run_pass(bin, file, n, mode.limit()).map(Duration::from_secs_f64)
                }));
            }
            let secs = match interleaved(args.passes, &mut sides) {
                Ok(secs) => secs,
                Err(e) => {
                    eprintln!("compare: tdoku: {e}");
                    return ExitCode::FAILURE;
                }
            };
            drop(sides);
            let (ours, peer) = (secs[0], secs[1]);
            let guesses = guesses_ours(&mut solver, &data.ours, mode);
            let (td_rate, td_ratio, td_guesses) = match secs.get(2) {
                Some(&td) => {
                    let g = tdoku_guesses
                        .as_ref()
                        .and_then(|g| {
                            tdoku::guesses_per_puzzle(g, &tdoku_file, n, mode.limit())
                                .map_err(|e| eprintln!("compare: {e}"))
                                .ok()
                        })
                        .map_or_else(|| "n/a".to_string(), |g| format!("{g:.2}"));
                    (rate(n, td), format!("{:.2}×", td / ours), g)
                }
                None => ("–".into(), "–".into(), "–".into()),
            };
            rows.push(format!(
                "| {} | {} | {} | {} | {} | {} | {:.2}× | {:.2} | {} |",
                data.label(),
                mode.label(),
                rate(n, ours),
                td_rate,
                rate(n, peer),
                td_ratio,
                peer / ours,
                guesses,
                td_guesses,
            ));
        }
        if use_tdoku {
            let _ = std::fs::remove_file(&tdoku_file);
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
    let secs = interleaved(
        args.passes,
        &mut [
            timed(|| enumerate_ours(&mut solver, limit)),
            timed(|| enumerate_peer(limit)),
        ],
    )
    .expect("timed here: cannot fail");
    let (ours, peer) = (secs[0], secs[1]);
    rows.push(format!(
        "| empty grid | count {limit} (solutions/s) | {} | – | {} | – | {:.2}× | – | – |",
        rate(limit as usize, ours),
        rate(limit as usize, peer),
        peer / ours
    ));

    println!(
        "Single thread, median of {} interleaved passes{}; ratio = ours / peer \
         (rates: puzzles/s; guesses: branch decisions per puzzle).\n",
        args.passes,
        if args.quick {
            format!(", first {QUICK_PUZZLES} puzzles per dataset")
        } else {
            String::new()
        }
    );
    println!(
        "| dataset | mode | ours | tdoku | `sudoku` 0.8 | ours / tdoku | ours / sudoku \
         | guesses ours | guesses tdoku |"
    );
    println!("|--|--|--:|--:|--:|--:|--:|--:|--:|");
    for row in rows {
        println!("{row}");
    }
    if mismatched > 0 {
        eprintln!("compare: {mismatched} MISMATCH(ES) between bulkdoku and sudoku, see above");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
