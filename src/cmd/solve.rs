//! `bulkdoku solve` (being written).

use std::process::ExitCode;

/// Arguments of `bulkdoku solve`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Run `bulkdoku solve`.
pub fn run(_args: Args) -> anyhow::Result<ExitCode> {
    anyhow::bail!("`solve` is not built yet")
}
