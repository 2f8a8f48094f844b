//! Oracles shared by the fuzz targets: how a fuzz input becomes a dataset, how a
//! dataset is read through the library, and for each reader a model (or the strongest
//! invariant we can state) of what it must return. The models are written from the
//! readers' documented contracts, not from their code, so that a bug in a reader is
//! not copied into the check that should catch it.
//!
//! Every check returns `Err(description)` instead of panicking, so that a target can
//! print the input's text with the failure before it aborts.

pub mod board;
pub mod compressed;
pub mod csv;
pub mod grid;
pub mod input;
pub mod lines;
pub mod reference;
pub mod text;
pub mod variant_reference;

pub use input::{read_all, Chunked, Outcome, Rec, NAME};
pub use text::Text;

/// Fail a check with a formatted message.
#[macro_export]
macro_rules! ensure {
    ($cond:expr, $($fmt:tt)+) => {
        if !$cond {
            return Err(format!($($fmt)+));
        }
    };
}

/// Panic with the failure and the dataset it was found on (libFuzzer then saves the
/// input as a crash).
///
/// With `FUZZ_FAILED` set to a path, the whole dataset is written there too.
pub fn fail(what: &str, text: &[u8], err: &str) -> ! {
    if let Some(path) = std::env::var_os("FUZZ_FAILED") {
        let _ = std::fs::write(path, text);
    }
    let shown = String::from_utf8_lossy(&text[..text.len().min(300)]);
    panic!(
        "{what}: {err}\n--- input ({} bytes) ---\n{shown:?}",
        text.len()
    );
}

use bulkdoku::input::InputFormat;

/// The plain-text reader targets: shape `data` into a dataset (`filler` makes the
/// prefix that pushes the rest past the detection sample), read it with `format`
/// forced, and hand the text and what the reader did to `check`.
pub fn plain_target(
    what: &str,
    data: &[u8],
    format: InputFormat,
    filler: impl Fn(&[u8]) -> Vec<u8>,
    check: impl Fn(&Text, &Outcome) -> Result<(), String>,
) {
    let shaped = text::shape(data, filler);
    // Magic bytes make it compressed data: the compression targets' business.
    if text::has_magic(&shaped.bytes) {
        return;
    }
    let text = Text::new(&shaped.bytes);
    let len = shaped.bytes.len();
    let result = read_all(shaped.source(), len, &input::forced(format)).and_then(|outcome| {
        if let Outcome::Read { format: got, .. } = &outcome {
            ensure!(*got == format, "format {got}, forced {format}");
        }
        check(&text, &outcome).map_err(|e| format!("{e}\n{}", outcome.describe()))
    });
    if let Err(e) = result {
        fail(what, &shaped.bytes, &e);
    }
}

/// The records of a reader that must neither refuse its input nor stop with an error.
pub fn records_without_error(outcome: &Outcome) -> Result<&[Rec], String> {
    match outcome {
        Outcome::Refused(msg) => Err(format!("refused: {msg}")),
        Outcome::Read {
            error: Some(msg), ..
        } => Err(format!("error: {msg}")),
        Outcome::Read { records, .. } => Ok(records),
    }
}
