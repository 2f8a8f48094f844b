//! Command-line definitions (clap derive): one `Args` struct per subcommand lives in its
//! `cmd/*.rs` file; the argument groups they share are here, with the one place where
//! flags become the library's plain option types.

use std::path::PathBuf;

use bulkdoku::input::{self, InputOptions};
use bulkdoku::rules::{Rule, RuleSet};
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
    /// Rate every puzzle on Sudoku Explainer's scale (ER, EP, ED), one row per puzzle.
    Rate(crate::cmd::rate::Args),
    /// Check a dataset: uniqueness, conflicts, its solution column, duplicates.
    Verify(crate::cmd::verify::Args),
    /// Summarise `solve` timings (percentiles, histogram, slowest puzzles) or `rate`
    /// ratings (ER distribution, hardest techniques, slowest to rate).
    Report(crate::cmd::report::Args),
    /// Benchmark the solver on datasets, single thread and all threads.
    Bench(crate::cmd::bench::Args),
    /// Generate random puzzles with a unique solution.
    Generate(crate::cmd::generate::Args),
    /// Write the completion script of a shell (bash, zsh, fish, powershell, elvish).
    Completions(crate::cmd::completions::Args),
    /// Write the manual page (roff) to standard output, or every page into a directory.
    Man(crate::cmd::man::Args),
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

    /// Add N to every line number: for a piece of a larger file cut with `split -l`,
    /// the lines before it, so that its rows name the lines of the whole file.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub line_offset: u64,

    /// The jigsaw regions column of a CSV input (default: `regions`, when present).
    #[arg(long, value_name = "NAME")]
    pub regions_column: Option<String>,
}

impl InputArgs {
    /// The inputs in order: `None` for standard input (no file, or `-`).
    pub fn inputs(&self) -> Vec<Option<PathBuf>> {
        input::inputs(&self.files)
    }

    /// The reading options these flags ask for, for records read under `rules` by
    /// default (with `jigsaw`, a line's second field is its regions).
    pub fn options(&self, rules: RuleSet) -> InputOptions {
        let mut options = InputOptions::new()
            .format(self.format.into())
            .line_offset(self.line_offset)
            .regions_field(rules.contains(Rule::Jigsaw));
        if let Some(name) = &self.column {
            options = options.column(name.clone());
        }
        if let Some(name) = &self.regions_column {
            options = options.regions_column(name.clone());
        }
        options
    }
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

impl From<InputFormat> for input::InputFormat {
    fn from(format: InputFormat) -> input::InputFormat {
        match format {
            InputFormat::Auto => input::InputFormat::Auto,
            InputFormat::Lines => input::InputFormat::Lines,
            InputFormat::Csv => input::InputFormat::Csv,
            InputFormat::Grid => input::InputFormat::Grid,
            InputFormat::Board => input::InputFormat::Board,
        }
    }
}

/// The variant rules puzzles are played under.
#[derive(Debug, Clone, Copy, Args)]
pub struct RulesArgs {
    /// Rules, comma-separated: classic (default) or any of the known rules (x,
    /// windoku, ...). A CSV `rules` column overrides them per row.
    #[arg(long, value_name = "RULES", default_value = "classic", value_parser = parse_rules,
          help = rules_help(false), long_help = rules_help(true))]
    pub rules: RuleSet,
}

/// `--rules`' help, from the rules' own definitions: the names (short help), or each
/// name with what the rule says (long help).
fn rules_help(long: bool) -> String {
    use bulkdoku::rules::Rule;
    if !long {
        return format!(
            "Rules, comma-separated: {}. A CSV `rules` column overrides them per row",
            bulkdoku::rules::known_rules()
        );
    }
    let mut help = String::from(
        "Rules, comma-separated (a CSV `rules` column overrides them per row):\n  classic: \
         rows, columns and boxes hold every digit once (the default; always on)",
    );
    for rule in Rule::ALL {
        help.push_str(&format!("\n  {}: {}", rule.name(), rule.def().summary()));
    }
    help
}

/// A rule list, or the usage error that names the known rules.
fn parse_rules(text: &str) -> Result<RuleSet, String> {
    text.parse()
        .map_err(|e: bulkdoku::rules::RuleSetError| e.to_string())
}

/// How many threads to use.
#[derive(Debug, Clone, Copy, Args)]
pub struct ThreadArgs {
    /// Worker threads (default: all cores; at most 1024).
    #[arg(short = 'j', long, value_name = "N",
          value_parser = clap::value_parser!(u16).range(1..=bulkdoku::pipeline::MAX_THREADS as i64))]
    pub threads: Option<u16>,
}

impl ThreadArgs {
    /// The threads asked for; `None` for one per core.
    pub fn get(&self) -> Option<usize> {
        self.threads.map(usize::from)
    }
}

/// Where results go.
#[derive(Debug, Clone, Args)]
pub struct OutputArgs {
    /// Write results to FILE instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// How rows go out, for the commands that write one row per record (`solve`, `rate`).
#[derive(Debug, Clone, Copy, Args)]
pub struct RowsArgs {
    /// Output format [default: by -o's extension (.parquet, .jsonl, .ndjson), else csv].
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub output_format: Option<OutputFormatArg>,

    /// Leave out the CSV header row (to concatenate the outputs of shards); JSON Lines
    /// and Parquet have no header row, and ignore it.
    #[arg(long)]
    pub no_header: bool,

    /// Continue the interrupted run that wrote -o FILE: keep its whole rows, skip the
    /// records done, append the rest (same inputs and options required).
    #[arg(long)]
    pub resume: bool,

    /// Records per parallel batch (tuning and tests; the default suits most inputs).
    #[arg(long, hide = true, value_name = "N", default_value_t = bulkdoku::dataset::BATCH_SIZE)]
    pub batch_size: usize,
}

/// How a Parquet output is laid out; shared by `solve`, `verify` and `rate`.
#[derive(Debug, Clone, Copy, Args)]
pub struct ParquetArgs {
    /// Parquet page compression: zstd (smallest), lz4 or snappy (faster), none
    /// [default: zstd]. Only for Parquet output.
    #[arg(long, value_enum, value_name = "CODEC")]
    pub compression: Option<CompressionArg>,

    /// Rows per Parquet row group (tuning and tests).
    #[arg(long, hide = true, value_name = "N", default_value_t = bulkdoku::output::ROW_GROUP_ROWS,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    pub row_group_rows: usize,
}

impl ParquetArgs {
    /// The Parquet layout these flags ask for, for a run writing `format`: a codec
    /// named for any other format is a usage error rather than a silent no-op.
    pub fn options(
        &self,
        format: bulkdoku::output::OutputFormat,
    ) -> anyhow::Result<bulkdoku::output::ParquetOptions> {
        use bulkdoku::output::{OutputFormat, ParquetOptions};
        if let (Some(codec), false) = (self.compression, format == OutputFormat::Parquet) {
            let name = match format {
                OutputFormat::Csv => "CSV",
                OutputFormat::Jsonl => "JSON Lines",
                OutputFormat::Grid => "grids",
                _ => "a format other than Parquet",
            };
            anyhow::bail!(
                "--compression {} applies to Parquet output only, and this run writes {name}; \
                 write Parquet with -o FILE.parquet or --output-format parquet, or drop \
                 --compression",
                codec
                    .to_possible_value()
                    .expect("no skipped codec")
                    .get_name()
            );
        }
        let mut options = ParquetOptions::default().row_group_rows(self.row_group_rows);
        if let Some(codec) = self.compression {
            options = options.compression(codec.into());
        }
        Ok(options)
    }
}

/// Parquet codecs `--compression` takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CompressionArg {
    /// zstd, level 1: the smallest files.
    Zstd,
    /// LZ4 (`LZ4_RAW`): larger files, the fastest to write.
    Lz4,
    /// Snappy: about LZ4's size and speed.
    Snappy,
    /// No compression.
    None,
}

impl From<CompressionArg> for bulkdoku::output::ParquetCompression {
    fn from(codec: CompressionArg) -> bulkdoku::output::ParquetCompression {
        use bulkdoku::output::ParquetCompression;
        match codec {
            CompressionArg::Zstd => ParquetCompression::Zstd,
            CompressionArg::Lz4 => ParquetCompression::Lz4,
            CompressionArg::Snappy => ParquetCompression::Snappy,
            CompressionArg::None => ParquetCompression::None,
        }
    }
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

/// Output formats of `solve` (`--output-format`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, ValueEnum)]
pub enum OutputFormatArg {
    /// CSV with a header row, one row per record.
    #[default]
    Csv,
    /// Puzzle and solution as boxed 9×9 grids side by side, a header line per record.
    Grid,
    /// JSON Lines: one object per row, typed fields, null for a missing value.
    Jsonl,
    /// Parquet (zstd unless --compression says otherwise): typed columns for pandas,
    /// polars, DuckDB.
    Parquet,
}

impl From<OutputFormatArg> for bulkdoku::output::OutputFormat {
    fn from(format: OutputFormatArg) -> bulkdoku::output::OutputFormat {
        match format {
            OutputFormatArg::Csv => bulkdoku::output::OutputFormat::Csv,
            OutputFormatArg::Grid => bulkdoku::output::OutputFormat::Grid,
            OutputFormatArg::Jsonl => bulkdoku::output::OutputFormat::Jsonl,
            OutputFormatArg::Parquet => bulkdoku::output::OutputFormat::Parquet,
        }
    }
}

/// Output formats of `verify`'s findings (`--output-format`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FindingsFormatArg {
    /// CSV with a header row.
    Csv,
    /// JSON Lines: one object per finding.
    Jsonl,
    /// Parquet (zstd unless --compression says otherwise), typed columns.
    Parquet,
}

impl From<FindingsFormatArg> for bulkdoku::output::OutputFormat {
    fn from(format: FindingsFormatArg) -> bulkdoku::output::OutputFormat {
        match format {
            FindingsFormatArg::Csv => bulkdoku::output::OutputFormat::Csv,
            FindingsFormatArg::Jsonl => bulkdoku::output::OutputFormat::Jsonl,
            FindingsFormatArg::Parquet => bulkdoku::output::OutputFormat::Parquet,
        }
    }
}

/// The output format: `--output-format` when given, else the one `-o FILE`'s extension
/// names (`.parquet`, `.jsonl`, `.ndjson`, `.csv`), else CSV. A binary format is refused
/// on a terminal.
pub fn output_format(
    flag: Option<bulkdoku::output::OutputFormat>,
    output: Option<&std::path::Path>,
) -> anyhow::Result<bulkdoku::output::OutputFormat> {
    use bulkdoku::output::{file::is_stdout, OutputFormat};
    use std::io::IsTerminal;
    let to_stdout = is_stdout(output);
    let format = flag
        .or_else(|| {
            output
                .filter(|_| !to_stdout)
                .and_then(OutputFormat::from_path)
        })
        .unwrap_or_default();
    if format.is_binary() && to_stdout && std::io::stdout().is_terminal() {
        anyhow::bail!(
            "Parquet is binary: not written to a terminal; name a file with -o FILE.parquet \
             or redirect standard output"
        );
    }
    Ok(format)
}
