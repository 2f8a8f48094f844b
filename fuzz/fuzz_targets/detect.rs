//! Format detection (`InputFormat::Auto`): whatever format is picked, the records are
//! what that format's check demands, so no meaningful line is lost to a wrong guess;
//! a block format is picked only when the sample has its structure throughout, and a
//! text of nothing but grid rows is read as grids. Inputs with compression magic must
//! fail or read cleanly, with errors that name the input.
#![no_main]

use bulkdoku::input::{InputFormat, InputOptions};
use bulkdoku_fuzz::text::{has_magic, named_line, SAMPLE_LINES};
use bulkdoku_fuzz::{
    board, csv, ensure, fail, grid, lines, read_all, text, Chunked, Outcome, Text,
};
use libfuzzer_sys::fuzz_target;

fn check(bytes: &[u8], chunk: usize) -> Result<(), String> {
    // Compressed input may decode to more than it is: bound the records generously.
    let source = Chunked::new(bytes.to_vec(), chunk);
    let outcome = read_all(source, 1 << 24, &InputOptions::new())?;
    checked(bytes, &outcome).map_err(|e| format!("{e}\n{}", outcome.describe()))
}

fn checked(bytes: &[u8], outcome: &Outcome) -> Result<(), String> {
    if has_magic(bytes) {
        // Compressed (or refused) by its first bytes: only the form of errors is ours.
        let msg = match outcome {
            Outcome::Refused(msg) => Some(msg),
            Outcome::Read { error, .. } => error.as_ref(),
        };
        if let Some(msg) = msg {
            ensure!(
                msg.starts_with("fuzz: ") || named_line(msg).is_some(),
                "error does not name the input: {msg}"
            );
        }
        return Ok(());
    }
    let text = Text::new(bytes);
    let sample = text.sample(SAMPLE_LINES);
    let (format, headers, records, error) = match outcome {
        Outcome::Refused(msg) => {
            // Only CSV without a puzzle column is refused.
            return csv::check(&text, Some(msg), None, &[], None);
        }
        Outcome::Read {
            format,
            headers,
            records,
            error,
        } => (*format, headers, records, error),
    };
    if grid::structure_throughout(&sample) {
        ensure!(
            format == InputFormat::Grid,
            "grid rows throughout read as {format}"
        );
    }
    let no_error = || match error {
        Some(msg) => Err(format!("{format} reader stopped: {msg}")),
        None => Ok(()),
    };
    match format {
        InputFormat::Lines => {
            no_error()?;
            lines::check(&text, records, true)
        }
        InputFormat::Csv => csv::check(&text, None, headers.as_deref(), records, error.as_deref()),
        InputFormat::Grid => {
            no_error()?;
            ensure!(
                grid::structure_throughout(&sample),
                "grid picked for a sample that is not grid rows throughout"
            );
            grid::check(&text, records)
        }
        InputFormat::Board => {
            no_error()?;
            ensure!(
                board::structure_throughout(&sample),
                "board picked for a sample with data outside the lists"
            );
            board::check(&text, records)
        }
        other => Err(format!("format {other}")),
    }
}

fuzz_target!(|data: &[u8]| {
    // No filler here: it would decide the format.
    let shaped = text::shape(data, |_| Vec::new());
    if let Err(e) = check(&shaped.bytes, shaped.chunk) {
        fail("detect", &shaped.bytes, &e);
    }
});
