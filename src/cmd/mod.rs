//! One module per subcommand, each exposing `Args` and `run`.

use std::process::ExitCode;

use crate::cli::{Cli, Command};

pub mod bench;
pub mod generate;
pub mod report;
pub mod solve;
pub mod verify;

/// Run the chosen subcommand; the exit code on success, an error for exit code 2.
pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Solve(args) => solve::run(args),
        Command::Verify(args) => verify::run(args),
        Command::Report(args) => report::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Generate(args) => generate::run(args),
    }
}

/// True when the error comes from writing into a closed pipe (`| head`): not a failure.
pub fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
            || cause
                .downcast_ref::<csv::Error>()
                .is_some_and(|e| matches!(e.kind(), csv::ErrorKind::Io(io) if io.kind() == std::io::ErrorKind::BrokenPipe))
    })
}
