//! Format detection and streaming readers: dataset bytes in, [`Record`]s out.
//!
//! Every reader yields one [`Record`] per puzzle in file order, with the 1-based line
//! where it starts. A record whose cells are malformed is still yielded (its `cells`
//! hold what was found, its `error` what the reader found wrong, if anything), so that
//! the caller can report it and lose nothing; only unreadable files and broken CSV are
//! errors.
//!
//! [`open`] undoes gzip or zstd compression (recognised by magic bytes, on files and
//! standard input alike), drops a UTF-8 BOM and detects the format from the first
//! lines (or takes [`InputOptions::format`]). The formats, one reader module each:
//!
//! | format | example | a record's `line` |
//! |---|---|---|
//! | [`InputFormat::Lines`] | 81 cells (`1030005090...107`), optionally ` ED=11.9/1.2/1.2` | its line |
//! | [`InputFormat::Csv`] | `id,puzzle,solution,clues,difficulty` then rows | where its row starts |
//! | [`InputFormat::Grid`] | an optional case count, then 9 lines `103000509` or `8 0 0 0 0 0 0 0 0` | its first row |
//! | [`InputFormat::Board`] | `[["5","3",".",...],...]`, several boards, an `Input: board =` prefix | its `[` |
//!
//! Lines: the puzzle is the line's first token, up to a space, tab, `,` `;` `:` or
//! `|`; `#` comment lines and blank lines are skipped; LF and CRLF. CSV: the puzzle
//! column is `--column` or the first of `quizzes`, `puzzle`, `question` (any case).
//! Grid and board records hold their cells row after row.

use std::fmt;
use std::path::{Path, PathBuf};

mod blocks;
mod board;
mod csv;
mod detect;
mod lines;
mod source;

#[cfg(test)]
mod tests;

/// The most bytes one record may take in any format (a line, a CSV row, a grid row, a
/// board literal): a puzzle needs 81 cells, so anything far longer is damage (a file
/// without newlines, a quote never closed), and reading it whole could exhaust memory.
/// Longer records become invalid records (or, for CSV, an error naming the line where
/// the record starts).
#[cfg(not(fuzzing))]
pub const MAX_RECORD: usize = 64 * 1024;
/// Built for fuzzing (`cargo fuzz`, `--cfg fuzzing`), the cap is smaller, so that fuzz
/// inputs cross it without being large.
#[cfg(fuzzing)]
pub const MAX_RECORD: usize = 4 * 1024;

/// The dataset formats bulkdoku reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum InputFormat {
    /// Detect from the content.
    #[default]
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

impl InputFormat {
    /// The format's name, as `--format` spells it.
    pub fn as_str(self) -> &'static str {
        match self {
            InputFormat::Auto => "auto",
            InputFormat::Lines => "lines",
            InputFormat::Csv => "csv",
            InputFormat::Grid => "grid",
            InputFormat::Board => "board",
        }
    }
}

impl fmt::Display for InputFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One puzzle as read from a dataset.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Record {
    /// 1-based line of its file where the record starts.
    pub line: u64,
    /// The puzzle's cell characters as found (81 of them when well-formed), e.g.
    /// `"53..7...."`; blanks are not normalised here.
    pub cells: Vec<u8>,
    /// For CSV input, every field of the row (the header is [`RecordReader::headers`]);
    /// empty for other formats.
    pub fields: Vec<String>,
    /// A reason the reader itself found the record malformed (e.g. `"grid block: 7 rows,
    /// expected 9"`). When set, the caller reports it as the invalid reason; when `None`,
    /// the caller parses `cells` with [`crate::Grid::parse_puzzle`].
    pub error: Option<String>,
    /// The record's own variant rules (a CSV `rules` column, e.g. `x,anti-knight`), as
    /// found; empty when the input gives none.
    pub rules: Vec<u8>,
    /// The record's jigsaw regions (a CSV `regions` column, or the second field of a
    /// line with [`InputOptions::regions_field`]), as found; empty when none.
    pub regions: Vec<u8>,
}

/// What to read and how.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct InputOptions {
    /// Forced format, or [`InputFormat::Auto`].
    pub format: InputFormat,
    /// Puzzle column name for CSV input.
    pub column: Option<String>,
    /// Added to every record's line: the first line of a piece cut from a larger file
    /// (`split -l`), less one, so that its rows name the lines of the whole file.
    pub line_offset: u64,
    /// The CSV column of the jigsaw regions (default: `regions`, when there is one).
    pub regions_column: Option<String>,
    /// In one-puzzle-per-line input, a line's second field (after a delimiter) is its
    /// jigsaw regions: `PUZZLE REGIONS`.
    pub regions_field: bool,
}

impl InputOptions {
    /// Options that detect the format and find the puzzle column by its usual names.
    pub fn new() -> InputOptions {
        InputOptions::default()
    }

    /// Read every input as `format` instead of detecting it.
    pub fn format(mut self, format: InputFormat) -> InputOptions {
        self.format = format;
        self
    }

    /// Add `offset` to every record's line.
    pub fn line_offset(mut self, offset: u64) -> InputOptions {
        self.line_offset = offset;
        self
    }

    /// Take the jigsaw regions from the CSV column `name`.
    pub fn regions_column(mut self, name: impl Into<String>) -> InputOptions {
        self.regions_column = Some(name.into());
        self
    }

    /// Read a line's second field as its jigsaw regions (one-puzzle-per-line input).
    pub fn regions_field(mut self, yes: bool) -> InputOptions {
        self.regions_field = yes;
        self
    }

    /// Take the puzzle from the CSV column `name`.
    pub fn column(mut self, name: impl Into<String>) -> InputOptions {
        self.column = Some(name.into());
        self
    }
}

/// A streaming reader of records.
pub trait RecordReader: Send {
    /// Read the next record into `record` (reusing its buffers). `Ok(false)` at the end.
    fn read_record(&mut self, record: &mut Record) -> anyhow::Result<bool>;

    /// The CSV header row, when the input is CSV.
    fn headers(&self) -> Option<&[String]> {
        None
    }

    /// Bytes of the (compressed) file consumed so far, for progress; compare with
    /// [`RecordReader::total_bytes`].
    fn bytes_read(&self) -> u64;

    /// Size of the (compressed) input when known: a regular file's size; `None` for
    /// standard input or pipes. With [`RecordReader::bytes_read`] it gives an ETA.
    fn total_bytes(&self) -> Option<u64>;

    /// The format detected (or forced); never [`InputFormat::Auto`].
    fn format(&self) -> InputFormat;
}

/// Open `path` (`None` or `-` for standard input), detect its format and compression,
/// and return a reader of its records.
///
/// Errors name the input: it cannot be opened or read, it is compressed in a format
/// we do not read, or it is CSV without a puzzle column.
pub fn open(path: Option<&Path>, options: &InputOptions) -> anyhow::Result<Box<dyn RecordReader>> {
    let path = path.filter(|p| p.as_os_str() != "-");
    let name = display_name(path);
    let (stream, head) = source::Stream::open(path, &name)?;
    reader_for(stream, &head, options)
}

/// Like [`open`], over bytes from any source (e.g. in memory), named `name` in error
/// messages; compression and format are detected the same way.
/// [`RecordReader::total_bytes`] is `None`.
pub fn open_reader(
    reader: impl std::io::Read + Send + 'static,
    name: &str,
    options: &InputOptions,
) -> anyhow::Result<Box<dyn RecordReader>> {
    let (stream, head) = source::Stream::from_raw(Box::new(reader), None, name, false)?;
    reader_for(stream, &head, options)
}

/// The reader of `options.format`, or of the format `head` shows.
fn reader_for(
    stream: source::Stream,
    head: &source::Head,
    options: &InputOptions,
) -> anyhow::Result<Box<dyn RecordReader>> {
    let detected = match options.format {
        InputFormat::Auto => detect::detect(&head.bytes, head.whole, options.column.as_deref()),
        forced => detect::Detected {
            format: forced,
            header: false,
        },
    };
    if let (Some(column), false) = (&options.regions_column, detected.format == InputFormat::Csv) {
        anyhow::bail!(
            "{}: --regions-column {column:?} needs CSV input with a header row (this input \
             is read as {})",
            stream.name,
            detected.format
        );
    }
    if let (Some(column), false) = (&options.column, detected.format == InputFormat::Csv) {
        anyhow::bail!(
            "{}: --column {column:?} needs CSV input with a header row (this input is read \
             as {}; force CSV with --format csv)",
            stream.name,
            detected.format
        );
    }
    Ok(match detected.format {
        InputFormat::Auto | InputFormat::Lines => Box::new(lines::LinesReader::new(
            stream,
            detected.header,
            options.regions_field,
        )),
        InputFormat::Csv => Box::new(csv::CsvReader::new(stream, options)?),
        InputFormat::Grid => Box::new(blocks::GridReader::new(stream)),
        InputFormat::Board => Box::new(board::BoardReader::new(stream)),
    })
}

/// The display name of an input: its path, or `-` for standard input.
pub fn display_name(path: Option<&Path>) -> String {
    path.map_or_else(|| "-".to_string(), |p| p.display().to_string())
}

/// The list of inputs named on the command line: no file means standard input.
pub fn inputs(files: &[PathBuf]) -> Vec<Option<PathBuf>> {
    if files.is_empty() {
        return vec![None];
    }
    files
        .iter()
        .map(|f| (f.as_os_str() != "-").then(|| f.clone()))
        .collect()
}
