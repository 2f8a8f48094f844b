//! The gzip wrapper: damaged gzip keeps every whole line decoded before the damage,
//! then names the line in a `corrupt gzip data` error (see `bulkdoku_fuzz::compressed`).
#![no_main]

use bulkdoku_fuzz::compressed::{target, Kind};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| target(Kind::Gzip, data));
