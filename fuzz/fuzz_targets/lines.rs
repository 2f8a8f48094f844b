//! The lines reader, forced: exactly one record per meaningful line, in order, with its
//! line number and first token (see `bulkdoku_fuzz::lines`).
#![no_main]

use bulkdoku::input::InputFormat;
use bulkdoku_fuzz::text::{repeat_line, SAMPLE_LINES};
use bulkdoku_fuzz::{lines, plain_target, records_without_error};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    plain_target(
        "lines",
        data,
        InputFormat::Lines,
        |_| repeat_line(b"1\n", SAMPLE_LINES),
        |text, outcome| lines::check(text, records_without_error(outcome)?, false),
    );
});
