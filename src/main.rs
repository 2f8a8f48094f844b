//! The `bulkdoku` binary: parse arguments, run the subcommand, map errors to exit codes.

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = bulkdoku::cli::Cli::parse();
    match bulkdoku::cmd::run(cli) {
        Ok(code) => code,
        Err(err) if bulkdoku::cmd::is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("bulkdoku: {err:#}");
            ExitCode::from(2)
        }
    }
}
