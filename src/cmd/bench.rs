//! `bulkdoku bench` (being written).

use std::process::ExitCode;

/// Arguments of `bulkdoku bench`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Run `bulkdoku bench`.
pub fn run(_args: Args) -> anyhow::Result<ExitCode> {
    anyhow::bail!("`bench` is not built yet")
}
