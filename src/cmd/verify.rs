//! `bulkdoku verify` (being written).

use std::process::ExitCode;

/// Arguments of `bulkdoku verify`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Run `bulkdoku verify`.
pub fn run(_args: Args) -> anyhow::Result<ExitCode> {
    anyhow::bail!("`verify` is not built yet")
}
