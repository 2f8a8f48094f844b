//! The `bulkdoku` binary: parse arguments, run the subcommand, map errors to exit codes.
//!
//! Everything here is the command-line layer (clap, the progress bar, plots); the work
//! is the `bulkdoku` library's.

use std::process::ExitCode;

use clap::Parser;

mod cli;
mod cmd;
mod plot;
mod progress;

fn main() -> ExitCode {
    let cli = cli::Cli::parse();
    match cmd::run(cli) {
        Ok(code) => code,
        Err(err) if cmd::is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("bulkdoku: {err:#}");
            ExitCode::from(2)
        }
    }
}
