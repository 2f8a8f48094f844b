//! `bulkdoku.generate`: the library's generator, puzzle `i` from its own random
//! stream, so that the output depends on the seed and the count only, never on the
//! threads (the same puzzles as `bulkdoku generate -n N --seed S`).

use std::convert::Infallible;

use bulkdoku::dataset::BATCH_SIZE;
use bulkdoku::generate::{generate_one, Rng};
use bulkdoku::grid::{Grid, CELLS};
use bulkdoku::pipeline::{ordered_map, thread_pool};
use bulkdoku::Solver;

/// `n` puzzles of `seed` made on `threads` workers: their 81-character lines, one
/// after another.
pub fn generate(n: u64, seed: u64, threads: Option<usize>) -> Result<Vec<u8>, String> {
    let pool = thread_pool(threads).map_err(|e| e.to_string())?;
    let mut lines = Vec::with_capacity(usize::try_from(n).unwrap_or(0).saturating_mul(CELLS));
    let mut next = 0u64;
    let done: Result<(), Infallible> = pool.install(|| {
        ordered_map(
            BATCH_SIZE,
            |batch: &mut Vec<u64>| -> Result<(), Infallible> {
                batch.clear();
                let end = next.saturating_add(BATCH_SIZE as u64).min(n);
                batch.extend(next..end);
                next = end;
                Ok(())
            },
            Solver::new,
            |solver, &index| generate_one(solver, &mut Rng::for_puzzle(seed, index)),
            |_, puzzles: &[Grid]| {
                let mut line = [0u8; CELLS];
                for puzzle in puzzles {
                    puzzle.write_line(&mut line);
                    lines.extend_from_slice(&line);
                }
                Ok(())
            },
        )
    });
    match done {
        Ok(()) => Ok(lines),
        Err(never) => match never {},
    }
}
