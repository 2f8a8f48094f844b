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
    // Builds in this tree use POPCNT (.cargo/config.toml): say so rather than die of
    // an illegal instruction on a processor without it.
    // (`is_x86_feature_detected!` answers from the build flags: ask the processor.)
    #[cfg(all(target_arch = "x86_64", target_feature = "popcnt"))]
    #[allow(unused_unsafe)]
    // SAFETY: every x86-64 processor has CPUID; leaf 1, ECX bit 23 is POPCNT.
    if unsafe { std::arch::x86_64::__cpuid(1) }.ecx >> 23 & 1 == 0 {
        say!(
            "bulkdoku: this build uses the POPCNT instruction, which this processor lacks; \
             build again with RUSTFLAGS=\"-C target-cpu=x86-64\" (see .cargo/config.toml)"
        );
        return ExitCode::from(2);
    }
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
