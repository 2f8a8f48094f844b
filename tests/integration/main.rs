//! Integration tests through the real `bulkdoku` binary: one test binary, one module
//! per subcommand.

mod util;

mod bench;
mod faults;
mod formats;
mod generate;
mod rate;
mod rate_oracle;
mod report;
mod shards;
mod shell;
mod solve;
mod trust;
mod variants;
mod verify;
