//! The zstd wrapper: damaged zstd keeps every whole line decoded before the damage,
//! then names the line in a `corrupt zstd data` error (see `bulkdoku_fuzz::compressed`).
#![no_main]

use bulkdoku_fuzz::compressed::{target, Kind};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| target(Kind::Zstd, data));
