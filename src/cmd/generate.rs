//! `bulkdoku generate`: random minimal puzzles with a unique solution, one per line,
//! made by [`bulkdoku::generate`] on all cores, in order.

use std::io::Write;
use std::process::ExitCode;

use bulkdoku::generate::{generate_one, Rng};
use bulkdoku::grid::{Grid, CELLS};
use bulkdoku::pipeline;
use bulkdoku::solver::Solver;

use crate::cli::{OutputArgs, ThreadArgs};
use crate::cmd::{check_output, with_output};

const EXAMPLES: &str = "\
Examples:
  bulkdoku generate -n 1000 --seed 1 -o data/generated_1000.txt
  bulkdoku generate -n 5 --seed 42 | bulkdoku solve";

/// Arguments of `bulkdoku generate`.
#[derive(Debug, clap::Args)]
#[command(after_help = EXAMPLES)]
pub struct Args {
    /// Number of puzzles to generate.
    #[arg(short = 'n', long = "count", value_name = "N", default_value_t = 10)]
    pub count: u64,

    /// Random seed: the same seed gives the same puzzles, on any number of threads.
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,

    #[command(flatten)]
    pub output: OutputArgs,

    #[command(flatten)]
    pub threads: ThreadArgs,
}

/// Puzzles generated per parallel batch.
const BATCH: usize = 256;

/// Run `bulkdoku generate`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    check_output(args.output.output.as_deref(), &[])?;
    let pool = pipeline::thread_pool(args.threads.get())?;
    with_output(args.output.output.as_deref(), |out| {
        write_puzzles(&args, &pool, out)
    })?;
    Ok(ExitCode::SUCCESS)
}

/// The `#` line naming the command, then the puzzles, one per line.
fn write_puzzles(
    args: &Args,
    pool: &rayon::ThreadPool,
    out: &mut (dyn Write + Send),
) -> anyhow::Result<()> {
    writeln!(
        out,
        "# bulkdoku generate -n {} --seed {}: random puzzles with a unique solution, one per line",
        args.count, args.seed
    )?;
    let mut next = 0u64;
    let seed = args.seed;
    let total = args.count;
    pool.install(|| {
        pipeline::ordered_map(
            BATCH,
            |batch: &mut Vec<u64>| -> anyhow::Result<()> {
                batch.clear();
                while batch.len() < BATCH && next < total {
                    batch.push(next);
                    next += 1;
                }
                Ok(())
            },
            Solver::new,
            |solver, &index| generate_one(solver, &mut Rng::for_puzzle(seed, index)),
            |_, puzzles: &[Grid]| {
                let mut line = [0u8; CELLS];
                for puzzle in puzzles {
                    puzzle.write_line(&mut line);
                    out.write_all(&line)?;
                    out.write_all(b"\n")?;
                }
                Ok(())
            },
        )
    })
}
