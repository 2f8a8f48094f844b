//! `rate`'s rows: one per record, in CSV, JSON Lines or Parquet, behind one trait as
//! `solve`'s rows and `verify`'s findings are.
//!
//! Columns ([`RATE_COLUMNS`]): `file, line, puzzle, status, er, ep, ed, er_technique,
//! steps, time_ns, error`, then any kept (`--keep`) columns. `status` is `solve`'s
//! verdict (the same solver decides it); the ratings are there only for a `unique`
//! puzzle that the rater rated, and empty (CSV) or null (JSON Lines, Parquet)
//! otherwise. CSV prints a rating as Sudoku Explainer does, with one decimal (`7.2`);
//! JSON Lines and Parquet hold it as a number (a 64-bit float in Parquet, the nearest
//! one to the tenths, which every reader prints back as the same one decimal).

use std::borrow::Cow;
use std::io::{self, Write};

use serde::{Deserialize, Serialize};

use super::{Kept, OutputFormat};
use crate::rate::Rating;
use crate::row::{push_field, Status};

/// The columns of `bulkdoku rate` output, in order (before any `--keep` columns).
pub const RATE_COLUMNS: [&str; 11] = [
    "file",
    "line",
    "puzzle",
    "status",
    "er",
    "ep",
    "ed",
    "er_technique",
    "steps",
    "time_ns",
    "error",
];

/// One row of `bulkdoku rate` output, as written.
#[derive(Debug, Clone, Copy)]
pub struct RateRow<'a> {
    /// The input's display name (`-` for standard input).
    pub file: &'a str,
    /// 1-based line where the record starts in its file.
    pub line: u64,
    /// The puzzle, normalised to 81 characters with `.` blanks; for an invalid record,
    /// the text as found.
    pub puzzle: &'a str,
    /// The solver's verdict.
    pub status: Status,
    /// The rating, for a unique puzzle the rater rated.
    pub rating: Option<&'a Rating>,
    /// Time spent on the record (solving and rating), in nanoseconds; 0 when invalid.
    pub time_ns: u64,
    /// Why the record is invalid or was not rated; empty otherwise.
    pub error: &'a str,
}

/// One row of `bulkdoku rate` output read back (by `report`, tests), from CSV or JSON
/// Lines: ratings as the numbers written (see [`RatedRecord::tenths`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RatedRecord<'a> {
    /// The input's display name.
    #[serde(borrow)]
    pub file: Cow<'a, str>,
    /// The record's line.
    pub line: u64,
    /// The puzzle.
    #[serde(borrow)]
    pub puzzle: Cow<'a, str>,
    /// The verdict.
    pub status: Status,
    /// ER.
    pub er: Option<f64>,
    /// EP.
    pub ep: Option<f64>,
    /// ED.
    pub ed: Option<f64>,
    /// The technique of the hardest step.
    pub er_technique: Option<String>,
    /// Steps on the rating path.
    pub steps: Option<u32>,
    /// Time spent on the record, in nanoseconds.
    pub time_ns: u64,
    /// Why the record is invalid or was not rated.
    pub error: Option<String>,
}

impl RatedRecord<'_> {
    /// ER, EP and ED in tenths, when the row has them all.
    pub fn tenths(&self) -> Option<[u8; 3]> {
        let t = |v: Option<f64>| v.and_then(float_tenths);
        Some([t(self.er)?, t(self.ep)?, t(self.ed)?])
    }
}

/// A rating read as a number (`7.2`) in tenths, when it is one (0.0 to 25.5).
pub fn float_tenths(value: f64) -> Option<u8> {
    let tenths = (value * 10.0).round();
    (0.0..=255.0).contains(&tenths).then_some(tenths as u8)
}

/// A rating in tenths as Sudoku Explainer prints it: one decimal (`72` is `7.2`).
pub fn tenths_text(tenths: u8) -> String {
    format!("{}.{}", tenths / 10, tenths % 10)
}

/// A rating printed with one decimal (`7.2`, as in CSV) back in tenths; `None` for
/// anything else.
pub fn parse_tenths(text: &str) -> Option<u8> {
    let (whole, tenth) = text.trim().split_once('.')?;
    if tenth.len() != 1 || whole.is_empty() {
        return None;
    }
    let whole: u8 = whole.parse().ok()?;
    let tenth: u8 = tenth.parse().ok()?;
    whole.checked_mul(10)?.checked_add(tenth)
}

/// A rating in tenths as a float (Parquet, JSON): the nearest `f64` to `tenths / 10`.
pub fn tenths_float(tenths: u8) -> f64 {
    f64::from(tenths) / 10.0
}

/// A writer of `rate`'s rows in one format.
pub trait RateSink: Send {
    /// Write one row, then its kept columns.
    fn write(&mut self, row: &RateRow<'_>, kept: Kept<'_>) -> io::Result<()>;

    /// Hand the whole rows written so far to the output and flush it (Parquet: the
    /// whole row groups).
    fn flush(&mut self) -> io::Result<()>;

    /// End the output (Parquet: last row group and footer). Called once, last.
    fn finish(&mut self) -> io::Result<()> {
        self.flush()
    }
}

/// Check, before any output is opened, that [`rate_sink`] can make a sink of `format`
/// with `keep` columns: no grids; JSON Lines and Parquet need the kept names to be new
/// ones; Parquet needs the `parquet` feature.
pub fn check_rate_sink(format: OutputFormat, keep: &[String]) -> anyhow::Result<()> {
    match format {
        OutputFormat::Csv => Ok(()),
        OutputFormat::Grid => anyhow::bail!("ratings are written as CSV, JSON Lines or Parquet"),
        OutputFormat::Jsonl => super::check_names(&RATE_COLUMNS, keep),
        #[cfg(feature = "parquet")]
        OutputFormat::Parquet => super::check_names(&RATE_COLUMNS, keep),
        #[cfg(not(feature = "parquet"))]
        OutputFormat::Parquet => Err(super::no_parquet()),
    }
}

/// A sink of `format` over `out`, with `keep` column names after the fixed ones, a CSV
/// header row unless not `header`, Parquet laid out as `parquet` says.
pub fn rate_sink<W: Write + Send + 'static>(
    format: OutputFormat,
    out: W,
    keep: &[String],
    header: bool,
    parquet: super::ParquetOptions,
) -> anyhow::Result<Box<dyn RateSink>> {
    check_rate_sink(format, keep)?;
    Ok(match format {
        OutputFormat::Csv => Box::new(RateCsv::new(out, keep, header)?),
        OutputFormat::Jsonl => Box::new(super::jsonl::RateJsonl::new(out, keep)),
        #[cfg(feature = "parquet")]
        OutputFormat::Parquet => Box::new(super::parquet::RateParquet::new(out, keep, parquet)?),
        _ => {
            let _ = parquet;
            unreachable!("refused by check_rate_sink")
        }
    })
}

/// Rows as CSV. Each row is made whole in a buffer and then written, so that the
/// output only ever holds whole rows (see `--resume`).
pub struct RateCsv<W: Write> {
    out: W,
    row: Vec<u8>,
}

impl<W: Write> RateCsv<W> {
    /// A writer over `out`, its header row (with `keep` names after the fixed ones)
    /// written unless not `header`.
    pub fn new(mut out: W, keep: &[String], header: bool) -> io::Result<RateCsv<W>> {
        let mut row = Vec::with_capacity(256);
        if header {
            let names = RATE_COLUMNS
                .iter()
                .copied()
                .chain(keep.iter().map(String::as_str));
            for (i, name) in names.enumerate() {
                if i > 0 {
                    row.push(b',');
                }
                push_field(&mut row, name.as_bytes());
            }
            row.push(b'\n');
            out.write_all(&row)?;
        }
        Ok(RateCsv { out, row })
    }

    /// The output (for tests).
    #[cfg(test)]
    pub(crate) fn into_inner(self) -> W {
        self.out
    }
}

impl<W: Write + Send> RateSink for RateCsv<W> {
    fn write(&mut self, row: &RateRow<'_>, kept: Kept<'_>) -> io::Result<()> {
        use std::io::Write as _;
        let b = &mut self.row;
        b.clear();
        push_field(b, row.file.as_bytes());
        write!(b, ",{},", row.line)?;
        push_field(b, row.puzzle.as_bytes());
        b.push(b',');
        b.extend_from_slice(row.status.as_str().as_bytes());
        match row.rating {
            Some(r) => {
                write!(
                    b,
                    ",{},{},{},",
                    tenths_text(r.er),
                    tenths_text(r.ep),
                    tenths_text(r.ed)
                )?;
                push_field(b, r.er_technique.as_bytes());
                write!(b, ",{}", r.step_count)?;
            }
            None => b.extend_from_slice(b",,,,,"),
        }
        write!(b, ",{},", row.time_ns)?;
        push_field(b, row.error.as_bytes());
        for value in kept.iter() {
            b.push(b',');
            push_field(b, value.as_bytes());
        }
        b.push(b'\n');
        self.out.write_all(b)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::rate::Rating;

    /// A rating made up for writing tests (not a real puzzle's).
    pub(crate) fn rating() -> Rating {
        Rating {
            er: 72,
            ep: 12,
            ed: 9,
            er_technique: "Forcing Chain, with \"quotes\"",
            step_count: 57,
            steps: Vec::new(),
        }
    }

    pub(crate) const PUZZLE: &str =
        "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";

    /// A rated row, a unique one the rater could not rate, and an invalid one.
    pub(crate) fn rows(rating: &Rating) -> [RateRow<'_>; 3] {
        let rated = RateRow {
            file: "a, b.txt",
            line: 3,
            puzzle: PUZZLE,
            status: Status::Unique,
            rating: Some(rating),
            time_ns: 1234,
            error: "",
        };
        [
            rated,
            RateRow {
                rating: None,
                error: "not rated: no technique applies after 3 steps",
                ..rated
            },
            RateRow {
                file: "x",
                line: 9,
                puzzle: "12\"3",
                status: Status::Invalid,
                rating: None,
                time_ns: 0,
                error: "4 cells, expected 81",
            },
        ]
    }

    #[test]
    fn tenths_print_and_parse_as_serate_prints_them() {
        for (tenths, text) in [
            (12, "1.2"),
            (72, "7.2"),
            (100, "10.0"),
            (115, "11.5"),
            (0, "0.0"),
        ] {
            assert_eq!(tenths_text(tenths), text);
            assert_eq!(parse_tenths(text), Some(tenths));
            assert_eq!(format!("{:.1}", tenths_float(tenths)), text);
        }
        for bad in ["", "7", "7.", ".2", "7.25", "x.1", "26.0"] {
            assert_eq!(parse_tenths(bad), None, "{bad}");
        }
    }

    #[test]
    fn csv_rows_with_ratings_empty_fields_and_kept_columns_read_back() {
        let rating = rating();
        let mut w = RateCsv::new(Vec::new(), &["id".to_string()], true).unwrap();
        let fields = ["7, or \"8\"".to_string()];
        for row in rows(&rating) {
            w.write(&row, Kept::new(&fields, &[0])).unwrap();
        }
        w.flush().unwrap();
        let text = String::from_utf8(w.into_inner()).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], format!("{},id", RATE_COLUMNS.join(",")));
        assert_eq!(
            lines[1],
            format!(
                "\"a, b.txt\",3,{PUZZLE},unique,7.2,1.2,0.9,\"Forcing Chain, with \"\"quotes\"\"\",\
                 57,1234,,\"7, or \"\"8\"\"\""
            )
        );
        let mut rdr = csv::Reader::from_reader(text.as_bytes());
        let headers = rdr.headers().unwrap().clone();
        let back: Vec<(RatedRecord, String)> = rdr
            .records()
            .map(|r| {
                let r = r.unwrap();
                let row: RatedRecord = r.deserialize(Some(&headers)).unwrap();
                let row = RatedRecord {
                    file: Cow::Owned(row.file.into_owned()),
                    puzzle: Cow::Owned(row.puzzle.into_owned()),
                    ..row
                };
                (row, r[11].to_string())
            })
            .collect();
        assert_eq!(back.len(), 3);
        assert!(back.iter().all(|(_, id)| id == "7, or \"8\""));
        assert_eq!(back[0].0.tenths(), Some([72, 12, 9]));
        assert_eq!(back[0].0.steps, Some(57));
        assert_eq!(back[0].0.er_technique.as_deref(), Some(rating.er_technique));
        assert_eq!(back[1].0.er, None);
        assert_eq!(
            back[1].0.error.as_deref(),
            Some("not rated: no technique applies after 3 steps")
        );
        assert_eq!(back[2].0.status, Status::Invalid);
        assert_eq!(back[2].0.puzzle, "12\"3");
        assert_eq!(back[2].0.steps, None);
    }

    #[test]
    fn no_header_and_grids_refused() {
        let mut w = RateCsv::new(Vec::new(), &[], false).unwrap();
        w.flush().unwrap();
        assert!(w.into_inner().is_empty());
        assert!(check_rate_sink(OutputFormat::Grid, &[]).is_err());
        assert!(check_rate_sink(OutputFormat::Jsonl, &["er".to_string()]).is_err());
        assert!(check_rate_sink(OutputFormat::Csv, &["er".to_string()]).is_ok());
    }
}
