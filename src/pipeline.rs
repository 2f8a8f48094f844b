//! Ordered, bounded, parallel map over batches. Generic: knows nothing of Sudoku.
//!
//! Items are read in batches; each batch is mapped across the current rayon pool with
//! `collect_into_vec`, which keeps input order; while one batch is mapped, the previous
//! one is written and the next one read on another worker (one `rayon::join`), so I/O
//! overlaps with work. At most three batches are alive at once, whatever the input size,
//! and their vectors are reused from batch to batch.
//!
//! The first batch is read before anything can overlap it, and reading it is slower
//! than any later one (the input is opened and every item's buffers are allocated and
//! touched for the first time): at 4096 records that was 1.5–2.4 ms of a 90 ms run on
//! two threads with the other worker idle. So batches start small ([`FIRST_BATCH`])
//! and double up to the full size.
//!
//! On a pool of one thread there is nothing to overlap: the join, the parallel
//! iterator's splitting and the rotation of three batches would only add their own cost
//! and a larger working set. There each batch is read, mapped and drained in turn on the
//! calling thread, with one scratch state for the whole run; the items, results and
//! their order are the same.

use rayon::prelude::*;

/// Size of the first batch on a pool of several threads (see the module text).
pub const FIRST_BATCH: usize = 256;

/// Map every item produced by `fill` through `work` in parallel and hand the results to
/// `drain` in input order, batch by batch.
///
/// - `fill(batch, n)` refills `batch` with up to `n` next items, `n` ≤ `batch_size` (it
///   holds an old batch whose allocations may be reused); it leaves it empty at the end
///   of input.
/// - `init` makes per-worker scratch state (e.g. a solver) handed to `work`.
/// - `drain(items, results)` receives each batch with its results, in order.
///
/// The first error from `fill` or `drain` stops the run and is returned; items already
/// drained stay drained.
pub fn ordered_map<I, O, S, E>(
    batch_size: usize,
    mut fill: impl FnMut(&mut Vec<I>, usize) -> Result<(), E> + Send,
    init: impl Fn() -> S + Sync + Send,
    work: impl Fn(&mut S, &I) -> O + Sync + Send,
    mut drain: impl FnMut(&[I], &[O]) -> Result<(), E> + Send,
) -> Result<(), E>
where
    I: Send + Sync,
    O: Send + Sync,
    E: Send,
{
    let batch_size = batch_size.max(1);
    if rayon::current_num_threads() == 1 {
        return ordered_map_in_turn(batch_size, fill, init, work, drain);
    }
    let mut current: Vec<I> = Vec::with_capacity(batch_size);
    let mut results: Vec<O> = Vec::with_capacity(batch_size);
    let mut next: Vec<I> = Vec::with_capacity(batch_size);
    // The batch mapped last round, waiting to be drained.
    let mut done: Vec<I> = Vec::with_capacity(batch_size);
    let mut done_results: Vec<O> = Vec::with_capacity(batch_size);
    let mut size = FIRST_BATCH.min(batch_size);
    fill(&mut current, size)?;
    while !current.is_empty() {
        size = (size * 2).min(batch_size);
        let (io, ()) = rayon::join(
            || {
                if !done.is_empty() {
                    drain(&done, &done_results)?;
                }
                fill(&mut next, size)
            },
            || {
                // Pieces of at most 32 items: rayon does not split a piece once a
                // thread works through it, and with pieces of hundreds of puzzles the
                // batch often ended with one thread idle while the other finished
                // its last piece (~4 % of a two-thread run).
                current
                    .par_iter()
                    .with_max_len(32)
                    .map_init(&init, |scratch, item| work(scratch, item))
                    .collect_into_vec(&mut results);
            },
        );
        io?;
        // Rotate: the mapped batch waits to be drained; the read batch is mapped next;
        // the drained batch's vector is refilled after that.
        std::mem::swap(&mut done, &mut current);
        std::mem::swap(&mut done_results, &mut results);
        std::mem::swap(&mut current, &mut next);
    }
    if !done.is_empty() {
        drain(&done, &done_results)?;
    }
    Ok(())
}

/// [`ordered_map`] on one thread: read, map and drain each batch in turn.
fn ordered_map_in_turn<I, O, S, E>(
    batch_size: usize,
    mut fill: impl FnMut(&mut Vec<I>, usize) -> Result<(), E>,
    init: impl Fn() -> S,
    work: impl Fn(&mut S, &I) -> O,
    mut drain: impl FnMut(&[I], &[O]) -> Result<(), E>,
) -> Result<(), E> {
    let mut items: Vec<I> = Vec::with_capacity(batch_size);
    let mut results: Vec<O> = Vec::with_capacity(batch_size);
    let mut scratch = init();
    loop {
        fill(&mut items, batch_size)?;
        if items.is_empty() {
            return Ok(());
        }
        results.clear();
        results.extend(items.iter().map(|item| work(&mut scratch, item)));
        drain(&items, &results)?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn squares(total: usize, batch: usize, threads: usize) -> Vec<(usize, usize)> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let mut next = 0;
        let mut seen = Vec::new();
        pool.install(|| {
            ordered_map(
                batch,
                |b: &mut Vec<usize>, n| -> Result<(), ()> {
                    assert!(n <= batch);
                    b.clear();
                    while b.len() < n && next < total {
                        b.push(next);
                        next += 1;
                    }
                    Ok(())
                },
                || (),
                |_, &i| {
                    // Uneven work so that later items often finish first.
                    if i % 7 == 0 {
                        std::thread::sleep(std::time::Duration::from_micros(200));
                    }
                    i * i
                },
                |items, results| {
                    assert_eq!(items.len(), results.len());
                    seen.extend(items.iter().copied().zip(results.iter().copied()));
                    Ok(())
                },
            )
        })
        .unwrap();
        seen
    }

    #[test]
    fn keeps_order_and_loses_nothing() {
        for (total, batch, threads) in [
            (0, 4, 2),
            (1, 4, 1),
            (1000, 7, 1),
            (1000, 7, 2),
            (1000, 1000, 3),
        ] {
            let seen = squares(total, batch, threads);
            let expected: Vec<_> = (0..total).map(|i| (i, i * i)).collect();
            assert_eq!(seen, expected, "total {total} batch {batch}");
        }
    }

    /// The sizes `fill` is asked for, on a pool of `threads`, reading `total` items.
    fn fill_sizes(total: usize, batch: usize, threads: usize) -> Vec<usize> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let mut asked = Vec::new();
        let mut left = total;
        pool.install(|| {
            ordered_map(
                batch,
                |b: &mut Vec<u8>, n| -> Result<(), ()> {
                    asked.push(n);
                    b.clear();
                    let take = n.min(left);
                    b.resize(take, 0);
                    left -= take;
                    Ok(())
                },
                || (),
                |_, _| (),
                |_, _| Ok(()),
            )
        })
        .unwrap();
        asked
    }

    #[test]
    fn batches_start_small_on_several_threads() {
        // Doubling from FIRST_BATCH up to the full size; the last ask finds nothing.
        let f = FIRST_BATCH;
        let full_batches = (10_000 - 3 * f).div_ceil(4 * f);
        let mut expected = vec![f, 2 * f];
        expected.resize(2 + full_batches + 1, 4 * f);
        assert_eq!(fill_sizes(10_000, 4 * f, 2), expected);
        // A batch size below the first size is used from the start.
        assert_eq!(fill_sizes(5, 3, 2), [3, 3, 3]);
        // One thread has nothing to overlap: full batches throughout.
        assert_eq!(fill_sizes(10_000, 4 * f, 1), vec![4 * f; 11]);
    }

    #[test]
    fn drain_error_stops_the_run() {
        let mut calls = 0;
        let mut n = 0;
        let r = ordered_map(
            2,
            |b: &mut Vec<u32>, _| -> Result<(), &str> {
                b.clear();
                if n < 100 {
                    b.extend([n, n + 1]);
                    n += 2;
                }
                Ok(())
            },
            || (),
            |_, &i| i,
            |_, _| {
                calls += 1;
                Err("closed")
            },
        );
        assert_eq!(r, Err("closed"));
        assert_eq!(calls, 1);
    }
}
