//! `bulkdoku generate` (being written).

use std::process::ExitCode;

/// Arguments of `bulkdoku generate`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Run `bulkdoku generate`.
pub fn run(_args: Args) -> anyhow::Result<ExitCode> {
    anyhow::bail!("`generate` is not built yet")
}
