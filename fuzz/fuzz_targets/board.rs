//! The board-literal reader, forced: records in line order and bounded, each at a `[`
//! or a line of data outside the lists, and no such line skipped (see
//! `bulkdoku_fuzz::board`).
#![no_main]

use bulkdoku::input::InputFormat;
use bulkdoku_fuzz::text::{repeat_line, SAMPLE_LINES};
use bulkdoku_fuzz::{board, plain_target, records_without_error};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    plain_target(
        "board",
        data,
        InputFormat::Board,
        |_| repeat_line(b"[[\"1\"]]\n", SAMPLE_LINES),
        |text, outcome| board::check(text, records_without_error(outcome)?),
    );
});
