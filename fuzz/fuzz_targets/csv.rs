//! The CSV reader, forced: exactly the records, lines, fields and errors our own
//! tokenizer finds (see `bulkdoku_fuzz::csv`).
#![no_main]

use bulkdoku::input::InputFormat;
use bulkdoku_fuzz::text::{repeat_line, SAMPLE_LINES};
use bulkdoku_fuzz::{csv, plain_target, Outcome};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    plain_target(
        "csv",
        data,
        InputFormat::Csv,
        // The fuzzed text's first line as a header, then rows of as many (empty)
        // fields, so that its own lines come after the detection sample. Not for wide
        // headers: a thousand rows of hundreds of fields only cost time.
        |body| {
            let header = body.split(|&b| b == b'\n').next().unwrap_or_default();
            let commas = header.iter().filter(|&&b| b == b',').count();
            if commas > 16 {
                return Vec::new();
            }
            let mut row = vec![b','; commas];
            row.push(b'\n');
            let mut out = header.to_vec();
            out.push(b'\n');
            out.extend(repeat_line(&row, SAMPLE_LINES));
            out
        },
        |text, outcome| match outcome {
            Outcome::Refused(msg) => csv::check(text, Some(msg), None, &[], None),
            Outcome::Read {
                headers,
                records,
                error,
                ..
            } => csv::check(text, None, headers.as_deref(), records, error.as_deref()),
        },
    );
});
