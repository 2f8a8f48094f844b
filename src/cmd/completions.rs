//! `bulkdoku completions SHELL`: the shell's completion script, generated from the
//! same clap definitions as the parser (`cli.rs`), so it never lists a flag the
//! binary lacks.

use std::io::Write;
use std::process::ExitCode;

use clap::CommandFactory;
use clap_complete::Shell;

use crate::cli::Cli;

const EXAMPLES: &str = "\
Examples:
  bulkdoku completions bash > ~/.local/share/bash-completion/completions/bulkdoku
  bulkdoku completions zsh > ~/.zfunc/_bulkdoku      (with fpath+=~/.zfunc in .zshrc)
  bulkdoku completions fish > ~/.config/fish/completions/bulkdoku.fish
  bulkdoku completions powershell >> $PROFILE
  bulkdoku completions elvish >> ~/.config/elvish/rc.elv";

/// Arguments of `bulkdoku completions`.
#[derive(Debug, clap::Args)]
#[command(after_help = EXAMPLES)]
pub struct Args {
    /// The shell to write the completion script for.
    #[arg(value_enum, value_name = "SHELL")]
    pub shell: Shell,
}

/// Write the completion script to standard output.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let mut command = Cli::command();
    let name = command.get_name().to_string();
    let mut out = std::io::stdout().lock();
    clap_complete::generate(args.shell, &mut command, name, &mut out);
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
