//! Command-line definitions (clap derive): one `Args` struct per subcommand lives in its
//! `cmd/*.rs` file; the argument groups they share are here.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

/// Solve, verify and time Sudoku puzzle datasets in bulk, on all cores.
#[derive(Debug, Parser)]
#[command(name = "bulkdoku", version, about, long_about = None)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Solve every puzzle of one or more datasets and write one CSV row per puzzle.
    Solve(crate::cmd::solve::Args),
    /// Check a dataset: uniqueness, conflicts, its solution column, duplicates.
    Verify(crate::cmd::verify::Args),
    /// Summarise timings from `solve` output: percentiles, histogram, slowest puzzles.
    Report(crate::cmd::report::Args),
    /// Benchmark the solver on datasets, single thread and all threads.
    Bench(crate::cmd::bench::Args),
    /// Generate random puzzles with a unique solution.
    Generate(crate::cmd::generate::Args),
}

/// Where puzzles come from; shared by every command that reads datasets.
#[derive(Debug, Clone, Args)]
pub struct InputArgs {
    /// Dataset files, read in order; none or `-` reads standard input.
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,

    /// Input format; detected from the content when not given.
    #[arg(long, value_enum, default_value_t = InputFormat::Auto)]
    pub format: InputFormat,

    /// The puzzle column of a CSV input (default: `quizzes`, `puzzle` or `question`).
    #[arg(long, value_name = "NAME")]
    pub column: Option<String>,
}

/// Input formats `--format` can force.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum InputFormat {
    /// Detect from the content.
    Auto,
    /// One puzzle of 81 cells per line, anything after a delimiter ignored.
    Lines,
    /// CSV with a header row; the puzzle column is found by name.
    Csv,
    /// 9 lines of 9 cells per puzzle (optionally space-separated, optionally a leading
    /// case count).
    Grid,
    /// `[["5","3",".",...],...]` board literals.
    Board,
}

/// How many threads to use.
#[derive(Debug, Clone, Copy, Args)]
pub struct ThreadArgs {
    /// Worker threads (default: all cores).
    #[arg(short = 'j', long, value_name = "N")]
    pub threads: Option<usize>,
}

/// Where results go.
#[derive(Debug, Clone, Args)]
pub struct OutputArgs {
    /// Write results to FILE instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// Progress display on standard error.
#[derive(Debug, Clone, Copy, Args)]
pub struct ProgressArgs {
    /// Show a progress bar: `auto` shows it when standard error is a terminal.
    #[arg(long, value_enum, default_value_t = ProgressMode::Auto, value_name = "WHEN")]
    pub progress: ProgressMode,

    /// Quiet: no progress bar and no summary.
    #[arg(short, long)]
    pub quiet: bool,
}

/// When to draw the progress bar.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ProgressMode {
    /// When standard error is a terminal.
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}
