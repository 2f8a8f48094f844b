//! The `bulkdoku` binary: parse arguments, run the subcommand, map errors to exit codes.
//!
//! Everything here is the command-line layer (clap, the progress bar, plots); the work
//! is the `bulkdoku` library's.

use std::process::ExitCode;

use clap::Parser;

#[macro_use]
mod cmd;
mod cli;
mod plot;
mod progress;
mod signals;

fn main() -> ExitCode {
    let cli = cli::Cli::parse();
    match cmd::run(cli) {
        Ok(code) => code,
        Err(err) if cmd::is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            say!("bulkdoku: {err:#}");
            cmd::exit_code(&err)
        }
    }
}
