//! How fast the input readers turn a dataset into records, without solving anything.
//!
//! ```text
//! cargo run --release --example read_rate -- FILE [ROUNDS]
//! ```
//!
//! Prints, per round, the detected format, the records read and the rate in records
//! per second of wall time. Speed is measured here and reported, never asserted.

use std::path::PathBuf;
use std::time::Instant;

use bulkdoku::input::{open, InputOptions, Record};

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args_os().skip(1);
    let path = PathBuf::from(
        args.next()
            .ok_or_else(|| anyhow::anyhow!("usage: read_rate FILE [ROUNDS]"))?,
    );
    let rounds: u32 = match args.next() {
        Some(n) => n.to_string_lossy().parse()?,
        None => 3,
    };
    for _ in 0..rounds {
        let start = Instant::now();
        let mut reader = open(Some(&path), &InputOptions::default())?;
        let mut record = Record::default();
        let (mut records, mut cells) = (0u64, 0u64);
        while reader.read_record(&mut record)? {
            records += 1;
            // Touch the record so that the loop cannot be optimised away.
            cells += record.cells.len() as u64;
        }
        let secs = start.elapsed().as_secs_f64();
        println!(
            "{:?}: {records} records ({cells} cells, {} raw bytes) in {secs:.3} s: {:.2} M records/s",
            reader.format(),
            reader.bytes_read(),
            records as f64 / secs / 1e6
        );
    }
    Ok(())
}
