//! The grid-block reader, forced: every meaningful line but a leading case count is in
//! exactly one record, blocks hold their rows' cells and the errors their shapes call
//! for (see `bulkdoku_fuzz::grid`).
#![no_main]

use bulkdoku::input::InputFormat;
use bulkdoku_fuzz::text::{repeat_line, SAMPLE_LINES};
use bulkdoku_fuzz::{grid, plain_target, records_without_error};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    plain_target(
        "grid",
        data,
        InputFormat::Grid,
        // Whole blocks, so that the fuzzed text starts a block of its own.
        |_| repeat_line(b"123456789\n", SAMPLE_LINES.div_ceil(9) * 9),
        |text, outcome| grid::check(text, records_without_error(outcome)?),
    );
});
