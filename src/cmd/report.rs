//! `bulkdoku report` (being written).

use std::process::ExitCode;

/// Arguments of `bulkdoku report`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Run `bulkdoku report`.
pub fn run(_args: Args) -> anyhow::Result<ExitCode> {
    anyhow::bail!("`report` is not built yet")
}
