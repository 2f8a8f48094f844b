//! `bulkdoku man`: manual pages in roff, generated from the same clap definitions as
//! the parser (`cli.rs`): `bulkdoku(1)` on standard output, which lists the
//! subcommands; `bulkdoku-COMMAND(1)` for one of them; or every page into a directory.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::CommandFactory;

use crate::cli::Cli;

const EXAMPLES: &str = "\
Examples:
  bulkdoku man | man -l -                          read the page now
  bulkdoku man solve | man -l -                    the page of `bulkdoku solve`
  bulkdoku man --dir ~/.local/share/man/man1       install every page (then `man bulkdoku`)";

/// Arguments of `bulkdoku man`.
#[derive(Debug, clap::Args)]
#[command(after_help = EXAMPLES)]
pub struct Args {
    /// The subcommand whose page to write (`bulkdoku-COMMAND(1)`) instead of
    /// `bulkdoku(1)`.
    #[arg(value_name = "COMMAND", conflicts_with = "dir")]
    pub command: Option<String>,

    /// Write every page (`bulkdoku.1` and one per subcommand) into DIR instead.
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

/// Write the page asked for to standard output, or every page to `--dir`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    // Built, so that subcommands carry their display names (`bulkdoku-solve`); no
    // `help` subcommand, which has no page of its own.
    let mut command = Cli::command().disable_help_subcommand(true);
    command.build();
    let pages: Vec<&clap::Command> = command
        .get_subcommands()
        .filter(|c| !c.is_hide_set())
        .collect();
    if let Some(dir) = &args.dir {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
        for page in std::iter::once(&command).chain(pages) {
            let man = clap_mangen::Man::new(page.clone());
            let path = dir.join(man.get_filename());
            std::fs::write(&path, render(man)?)
                .with_context(|| format!("cannot write {}", path.display()))?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    let page = match &args.command {
        None => &command,
        Some(name) => match pages.iter().find(|c| c.get_name() == name) {
            Some(page) => *page,
            None => {
                let names: Vec<&str> = pages.iter().map(|c| c.get_name()).collect();
                anyhow::bail!("no subcommand `{name}`: the pages are {}", names.join(", "));
            }
        },
    };
    let mut out = std::io::stdout().lock();
    out.write_all(&render(clap_mangen::Man::new(page.clone()))?)?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// The page in roff, its non-ASCII characters (the help's `×`, `—`) written as groff's
/// `\[uXXXX]` escapes: `groff` reads its input as Latin-1 unless run through
/// `preconv`, and `man` does not always do that.
fn render(man: clap_mangen::Man) -> anyhow::Result<Vec<u8>> {
    let mut roff = Vec::new();
    man.render(&mut roff)?;
    let text = String::from_utf8(roff).context("the page is not UTF-8")?;
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_ascii() {
            out.push(c);
        } else {
            out.push_str(&format!("\\[u{:04X}]", u32::from(c)));
        }
    }
    Ok(out.into_bytes())
}
