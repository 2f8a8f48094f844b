//! Reports on `bulkdoku rate` output: the ER distribution (each ER, and the four bands
//! the rating is usually split by), the slowest puzzles to rate, and how often each
//! technique was the hardest step.
//!
//! A rate output is read by column name from CSV, JSON Lines or Parquet;
//! [`is_rate_output`] tells one from a `solve` run by its `er` column.

use std::collections::BTreeMap;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::Path;

use anyhow::{anyhow, bail, Context};
use serde::Serialize;

use crate::output::ratings::{float_tenths, parse_tenths, tenths_text};
use crate::row::Status;
use crate::units::{duration, grouped};

/// One row of a rate output, as a report takes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RatedRow {
    /// The dataset file (empty when the output has no `file` column).
    pub file: String,
    /// The record's line.
    pub line: u64,
    /// The puzzle.
    pub puzzle: String,
    /// The verdict.
    pub status: Status,
    /// ER in tenths, when rated.
    pub er: Option<u8>,
    /// The hardest step's technique, when rated.
    pub technique: Option<String>,
    /// Time spent on the record, in nanoseconds.
    pub time_ns: u64,
}

/// Whether the file at `path` (not standard input) is a `rate` output: CSV whose
/// header, JSON Lines whose first object, or Parquet whose schema has an `er` and an
/// `er_technique` column.
pub fn is_rate_output(path: &Path) -> bool {
    let Ok(mut file) = std::fs::File::open(path) else {
        return false;
    };
    let mut magic = [0u8; 4];
    if file.read_exact(&mut magic).is_ok() && &magic == b"PAR1" {
        return parquet_columns(path)
            .is_some_and(|c| c.iter().any(|n| n == "er") && c.iter().any(|n| n == "er_technique"));
    }
    let Ok(file) = std::fs::File::open(path) else {
        return false;
    };
    let mut first = String::new();
    if BufReader::new(file.take(1 << 16))
        .read_line(&mut first)
        .is_err()
    {
        return false;
    }
    let first = first.trim();
    if first.starts_with('{') {
        return first.contains("\"er\":") && first.contains("\"er_technique\":");
    }
    let names: Vec<&str> = first.split(',').collect();
    names.contains(&"er") && names.contains(&"er_technique")
}

/// The column names of the Parquet file at `path`, if it is one.
#[cfg(feature = "parquet")]
fn parquet_columns(path: &Path) -> Option<Vec<String>> {
    let file = std::fs::File::open(path).ok()?;
    let builder =
        parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder::try_new(file).ok()?;
    Some(
        builder
            .schema()
            .fields()
            .iter()
            .map(|f| f.name().clone())
            .collect(),
    )
}

#[cfg(not(feature = "parquet"))]
fn parquet_columns(_path: &Path) -> Option<Vec<String>> {
    None
}

/// Read the rate output at `path`: Parquet when it starts as one, JSON Lines when its
/// first byte is `{`, else CSV.
pub fn read_rate_file(path: &Path) -> anyhow::Result<Vec<RatedRow>> {
    let name = path.display().to_string();
    if parquet_columns(path).is_some() {
        return read_parquet(path, &name);
    }
    let text = std::fs::read_to_string(path).with_context(|| format!("{name}: cannot read"))?;
    if text.trim_start().starts_with('{') {
        read_jsonl(&text, &name)
    } else {
        read_csv(text.as_bytes(), &name)
    }
}

fn status(text: &str, name: &str, at: u64) -> anyhow::Result<Status> {
    Status::parse(text).ok_or_else(|| anyhow!("{name}:{at}: unknown status {text:?}"))
}

/// Read a rate output in CSV; `name` for error messages.
pub fn read_csv<R: Read>(reader: R, name: &str) -> anyhow::Result<Vec<RatedRow>> {
    let mut csv = csv::Reader::from_reader(reader);
    let headers = csv
        .headers()
        .map_err(|e| anyhow!("{name}:1: cannot read the header row: {e}"))?
        .clone();
    let find = |c: &str| headers.iter().position(|h| h == c);
    let need = |c: &str| {
        find(c).ok_or_else(|| anyhow!("{name}:1: not a `bulkdoku rate` output: no `{c}` column"))
    };
    let (line_i, status_i, er_i, tech_i, time_i) = (
        need("line")?,
        need("status")?,
        need("er")?,
        need("er_technique")?,
        need("time_ns")?,
    );
    let (file_i, puzzle_i) = (find("file"), find("puzzle"));
    let mut rows = Vec::new();
    for record in csv.records() {
        let record = record.map_err(|e| anyhow!("{name}: {e}"))?;
        let at = record.position().map_or(0, |p| p.line());
        let field = |i: usize| record.get(i).unwrap_or("").trim();
        let whole = |i: usize, col: &str| -> anyhow::Result<u64> {
            field(i).parse().map_err(|_| {
                anyhow!(
                    "{name}:{at}: column `{col}`: {:?} is not a whole number",
                    field(i)
                )
            })
        };
        let er = match field(er_i) {
            "" => None,
            text => Some(parse_tenths(text).ok_or_else(|| {
                anyhow!("{name}:{at}: column `er`: {text:?} is not a rating such as 7.2")
            })?),
        };
        rows.push(RatedRow {
            file: file_i.map(field).unwrap_or_default().to_string(),
            line: whole(line_i, "line")?,
            puzzle: puzzle_i.map(field).unwrap_or_default().to_string(),
            status: status(field(status_i), name, at)?,
            er,
            technique: Some(field(tech_i).to_string()).filter(|t| !t.is_empty()),
            time_ns: whole(time_i, "time_ns")?,
        });
    }
    Ok(rows)
}

/// Read a rate output in JSON Lines; `name` for error messages.
pub fn read_jsonl(text: &str, name: &str) -> anyhow::Result<Vec<RatedRow>> {
    #[derive(serde::Deserialize)]
    struct Row {
        #[serde(default)]
        file: String,
        line: u64,
        #[serde(default)]
        puzzle: String,
        status: String,
        er: Option<f64>,
        er_technique: Option<String>,
        time_ns: u64,
    }
    let mut rows = Vec::new();
    for (i, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let at = i as u64 + 1;
        let row: Row = serde_json::from_str(line)
            .map_err(|e| anyhow!("{name}:{at}: not a `bulkdoku rate` row: {e}"))?;
        let er = row
            .er
            .map(|v| float_tenths(v).ok_or_else(|| anyhow!("{name}:{at}: column `er`: {v}")))
            .transpose()?;
        rows.push(RatedRow {
            file: row.file,
            line: row.line,
            puzzle: row.puzzle,
            status: status(&row.status, name, at)?,
            er,
            technique: row.er_technique,
            time_ns: row.time_ns,
        });
    }
    Ok(rows)
}

/// Read a rate output in Parquet (as `rate -o FILE.parquet` writes it: ratings as
/// floats); `name` for error messages, with the 1-based row.
#[cfg(feature = "parquet")]
fn read_parquet(path: &Path, name: &str) -> anyhow::Result<Vec<RatedRow>> {
    use super::run::arrow_read::{counts, texts};
    use arrow_array::cast::AsArray;
    use arrow_array::types::Float64Type;
    use arrow_array::Array;
    use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

    let file = std::fs::File::open(path).with_context(|| format!("{name}: cannot open"))?;
    let reader = ParquetRecordBatchReaderBuilder::try_new(file)
        .and_then(|b| b.build())
        .map_err(|e| anyhow!("{name}: not a readable Parquet file: {e}"))?;
    let mut rows = Vec::new();
    for batch in reader {
        let batch = batch.map_err(|e| anyhow!("{name}: {e}"))?;
        let column = |c: &str| {
            batch
                .column_by_name(c)
                .ok_or_else(|| anyhow!("{name}: not a `bulkdoku rate` output: no `{c}` column"))
        };
        let text = |c: &str| -> anyhow::Result<Vec<Option<&str>>> {
            texts(column(c)?.as_ref()).map_err(|e| anyhow!("{name}: column `{c}`: {e}"))
        };
        let whole = |c: &str| -> anyhow::Result<Vec<Option<u64>>> {
            counts(column(c)?.as_ref()).map_err(|e| anyhow!("{name}: column `{c}`: {e}"))
        };
        let er = column("er")?;
        let er = er.as_primitive_opt::<Float64Type>().ok_or_else(|| {
            anyhow!(
                "{name}: column `er`: expected floats, found {}",
                er.data_type()
            )
        })?;
        let (file, puzzle, status, tech) = (
            text("file")?,
            text("puzzle")?,
            text("status")?,
            text("er_technique")?,
        );
        let (line, time_ns) = (whole("line")?, whole("time_ns")?);
        for i in 0..batch.num_rows() {
            let at = rows.len() as u64 + 1;
            let er = (!er.is_null(i))
                .then(|| {
                    float_tenths(er.value(i))
                        .ok_or_else(|| anyhow!("{name}: row {at}: column `er`: {}", er.value(i)))
                })
                .transpose()?;
            rows.push(RatedRow {
                file: file[i].unwrap_or("").to_string(),
                line: line[i].ok_or_else(|| anyhow!("{name}: row {at}: column `line` is null"))?,
                puzzle: puzzle[i].unwrap_or("").to_string(),
                status: Status::parse(status[i].unwrap_or(""))
                    .ok_or_else(|| anyhow!("{name}: row {at}: unknown status {:?}", status[i]))?,
                er,
                technique: tech[i].map(str::to_string),
                time_ns: time_ns[i].unwrap_or(0),
            });
        }
    }
    Ok(rows)
}

#[cfg(not(feature = "parquet"))]
fn read_parquet(_path: &Path, name: &str) -> anyhow::Result<Vec<RatedRow>> {
    Err(crate::output::no_parquet().context(format!("{name}: a Parquet rate output")))
}

/// The ER bands the rating is usually reported by, in tenths (inclusive).
pub const BANDS: [(&str, u8, u8); 4] = [
    ("<= 4.0", 0, 40),
    ("4.1-6.5", 41, 65),
    ("6.6-9.0", 66, 90),
    ("> 9.0", 91, 255),
];

/// A summary of one or more rate outputs.
#[derive(Debug, Clone, Serialize)]
pub struct RateSummary {
    /// The outputs summarised.
    pub runs: Vec<String>,
    /// Records.
    pub puzzles: u64,
    /// Records per status (`unique`, `multiple`, `unsolvable`, `invalid`).
    pub statuses: BTreeMap<String, u64>,
    /// Puzzles rated.
    pub rated: u64,
    /// Unique puzzles not rated (their `error` says why).
    pub unrated: u64,
    /// Median, 90th percentile and highest ER of the rated puzzles.
    pub er_p50: Option<String>,
    /// 90th percentile ER.
    pub er_p90: Option<String>,
    /// Highest ER.
    pub er_max: Option<String>,
    /// Puzzles per ER, lowest ER first.
    pub by_er: Vec<ErCount>,
    /// Puzzles per band of [`BANDS`].
    pub bands: Vec<ErCount>,
    /// How often each technique was the hardest step, most frequent first.
    pub techniques: Vec<TechniqueCount>,
    /// The slowest records to rate, slowest first.
    pub slowest: Vec<SlowRated>,
    /// Time spent on all valid records, in nanoseconds.
    pub total_time_ns: u64,
}

/// Puzzles of one ER (or band).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ErCount {
    /// The ER as printed (`7.2`), or the band's name.
    pub er: String,
    /// Puzzles.
    pub count: u64,
    /// Percent of the rated puzzles.
    pub pct: f64,
    /// Percent of the rated puzzles at this ER or below.
    pub cum_pct: f64,
}

/// One technique as the hardest step.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TechniqueCount {
    /// The technique's name.
    pub technique: String,
    /// Puzzles whose hardest step it was.
    pub count: u64,
    /// Lowest and highest ER it gave.
    pub er_min: String,
    /// Highest ER it gave.
    pub er_max: String,
}

/// A slow record.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SlowRated {
    /// Its file.
    pub file: String,
    /// Its line.
    pub line: u64,
    /// The puzzle.
    pub puzzle: String,
    /// Its ER, when rated.
    pub er: Option<String>,
    /// Its hardest technique, when rated.
    pub technique: Option<String>,
    /// Time spent on it, in nanoseconds.
    pub time_ns: u64,
}

impl RateSummary {
    /// Summarise `rows` (of the outputs `runs`), listing the `top` slowest.
    pub fn new(runs: Vec<String>, rows: &[RatedRow], top: usize) -> RateSummary {
        let mut statuses = BTreeMap::new();
        let mut per_er = [0u64; 256];
        let mut techniques: BTreeMap<&str, (u64, u8, u8)> = BTreeMap::new();
        let mut unrated = 0;
        let mut total_time_ns = 0u64;
        for row in rows {
            *statuses.entry(row.status.to_string()).or_insert(0) += 1;
            if row.status != Status::Invalid {
                total_time_ns = total_time_ns.saturating_add(row.time_ns);
            }
            match row.er {
                Some(er) => {
                    per_er[usize::from(er)] += 1;
                    let t = row.technique.as_deref().unwrap_or("");
                    let e = techniques.entry(t).or_insert((0, er, er));
                    e.0 += 1;
                    e.1 = e.1.min(er);
                    e.2 = e.2.max(er);
                }
                None if row.status == Status::Unique => unrated += 1,
                None => {}
            }
        }
        let rated: u64 = per_er.iter().sum();
        let pct = |n: u64| 100.0 * n as f64 / rated.max(1) as f64;
        let mut seen = 0;
        let by_er = (0..=255u8)
            .filter(|&er| per_er[usize::from(er)] > 0)
            .map(|er| {
                let count = per_er[usize::from(er)];
                seen += count;
                ErCount {
                    er: tenths_text(er),
                    count,
                    pct: pct(count),
                    cum_pct: pct(seen),
                }
            })
            .collect();
        let mut seen = 0;
        let bands = BANDS
            .iter()
            .map(|&(name, lo, hi)| {
                let count: u64 = per_er[usize::from(lo)..=usize::from(hi)].iter().sum();
                seen += count;
                ErCount {
                    er: name.to_string(),
                    count,
                    pct: pct(count),
                    cum_pct: pct(seen),
                }
            })
            .collect();
        // The ER at rank `q` (1-based) among the rated puzzles, lowest first.
        let at_rank = |q: u64| {
            let mut seen = 0;
            (0..=255u8).find(|&er| {
                seen += per_er[usize::from(er)];
                seen >= q
            })
        };
        let quantile = |p: f64| {
            (rated > 0)
                .then(|| at_rank(((p * rated as f64).ceil() as u64).max(1)))
                .flatten()
                .map(tenths_text)
        };
        let mut techniques: Vec<TechniqueCount> = techniques
            .into_iter()
            .map(|(t, (count, lo, hi))| TechniqueCount {
                technique: t.to_string(),
                count,
                er_min: tenths_text(lo),
                er_max: tenths_text(hi),
            })
            .collect();
        techniques.sort_by(|a, b| b.count.cmp(&a.count).then(a.technique.cmp(&b.technique)));
        let mut timed: Vec<&RatedRow> = rows
            .iter()
            .filter(|r| r.status != Status::Invalid)
            .collect();
        timed.sort_by_key(|r| std::cmp::Reverse(r.time_ns));
        let slowest = timed
            .into_iter()
            .take(top)
            .map(|r| SlowRated {
                file: r.file.clone(),
                line: r.line,
                puzzle: r.puzzle.clone(),
                er: r.er.map(tenths_text),
                technique: r.technique.clone(),
                time_ns: r.time_ns,
            })
            .collect();
        RateSummary {
            runs,
            puzzles: rows.len() as u64,
            statuses,
            rated,
            unrated,
            er_p50: quantile(0.5),
            er_p90: quantile(0.9),
            er_max: (0..=255u8)
                .rev()
                .find(|&er| per_er[usize::from(er)] > 0)
                .map(tenths_text),
            by_er,
            bands,
            techniques,
            slowest,
            total_time_ns,
        }
    }
}

fn bar(count: u64, max: u64, width: usize) -> String {
    let n = if max == 0 {
        0
    } else {
        ((count as f64 / max as f64) * width as f64).ceil() as usize
    };
    "#".repeat(n)
}

fn statuses(s: &RateSummary) -> String {
    ["unique", "multiple", "unsolvable", "invalid"]
        .iter()
        .map(|st| format!("{} {st}", grouped(*s.statuses.get(*st).unwrap_or(&0))))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The summary as aligned text.
pub fn write_text(s: &RateSummary, out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "run            {}", s.runs.join(", "))?;
    writeln!(
        out,
        "puzzles        {} ({})",
        grouped(s.puzzles),
        statuses(s)
    )?;
    write!(out, "rated          {}", grouped(s.rated))?;
    if s.unrated > 0 {
        write!(out, "; {} unique puzzles not rated", grouped(s.unrated))?;
    }
    writeln!(out)?;
    if let (Some(p50), Some(p90), Some(max)) = (&s.er_p50, &s.er_p90, &s.er_max) {
        writeln!(out, "ER             median {p50}, p90 {p90}, max {max}")?;
    }
    writeln!(
        out,
        "rate time      {} in total, {} per puzzle",
        duration(s.total_time_ns as f64),
        duration(s.total_time_ns as f64 / (s.puzzles.max(1)) as f64)
    )?;
    if s.rated == 0 {
        return Ok(());
    }
    writeln!(out, "\nER bands")?;
    for b in &s.bands {
        writeln!(out, "  {:<8} {:>9} {:>6.1}%", b.er, grouped(b.count), b.pct)?;
    }
    writeln!(out, "\nER distribution")?;
    let max = s.by_er.iter().map(|b| b.count).max().unwrap_or(0);
    for b in &s.by_er {
        writeln!(
            out,
            "  {:>4} {:>9} {:>6.1}% {:>6.1}%  {}",
            b.er,
            grouped(b.count),
            b.pct,
            b.cum_pct,
            bar(b.count, max, 40)
        )?;
    }
    writeln!(out, "\nhardest technique (puzzles, ER range)")?;
    let width = s
        .techniques
        .iter()
        .map(|t| t.technique.len())
        .max()
        .unwrap_or(0);
    for t in &s.techniques {
        let range = if t.er_min == t.er_max {
            t.er_min.clone()
        } else {
            format!("{}-{}", t.er_min, t.er_max)
        };
        writeln!(
            out,
            "  {:<width$} {:>9}  {range}",
            t.technique,
            grouped(t.count)
        )?;
    }
    if !s.slowest.is_empty() {
        writeln!(out, "\nslowest to rate")?;
        for p in &s.slowest {
            writeln!(
                out,
                "  {:>9}  ER {:>4}  {}:{}  {}  {}",
                duration(p.time_ns as f64),
                p.er.as_deref().unwrap_or("-"),
                p.file,
                p.line,
                p.puzzle,
                p.technique.as_deref().unwrap_or("")
            )?;
        }
    }
    Ok(())
}

/// The summary as Markdown tables.
pub fn write_markdown(s: &RateSummary, out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "# Ratings: {}\n", s.runs.join(", "))?;
    writeln!(
        out,
        "{} puzzles ({}); {} rated{}.\n",
        grouped(s.puzzles),
        statuses(s),
        grouped(s.rated),
        if s.unrated > 0 {
            format!(", {} unique puzzles not rated", grouped(s.unrated))
        } else {
            String::new()
        }
    )?;
    if let (Some(p50), Some(p90), Some(max)) = (&s.er_p50, &s.er_p90, &s.er_max) {
        writeln!(out, "ER median {p50}, p90 {p90}, max {max}.\n")?;
    }
    if s.rated > 0 {
        writeln!(out, "| ER band | puzzles | % |\n|---|--:|--:|")?;
        for b in &s.bands {
            writeln!(out, "| {} | {} | {:.1} |", b.er, b.count, b.pct)?;
        }
        writeln!(
            out,
            "\n| ER | puzzles | % | cumulative % |\n|--:|--:|--:|--:|"
        )?;
        for b in &s.by_er {
            writeln!(
                out,
                "| {} | {} | {:.1} | {:.1} |",
                b.er, b.count, b.pct, b.cum_pct
            )?;
        }
        writeln!(out, "\n| hardest technique | puzzles | ER |\n|---|--:|--:|")?;
        for t in &s.techniques {
            writeln!(
                out,
                "| {} | {} | {}-{} |",
                t.technique, t.count, t.er_min, t.er_max
            )?;
        }
    }
    if !s.slowest.is_empty() {
        writeln!(out, "\n| time | ER | place | puzzle |\n|--:|--:|---|---|")?;
        for p in &s.slowest {
            writeln!(
                out,
                "| {} | {} | {}:{} | `{}` |",
                duration(p.time_ns as f64),
                p.er.as_deref().unwrap_or("-"),
                p.file,
                p.line,
                p.puzzle
            )?;
        }
    }
    Ok(())
}

/// The summary as one JSON object.
pub fn write_json(s: &RateSummary, out: &mut dyn Write) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, s)?;
    writeln!(out)
}

/// Refuse a mix of rate outputs and `solve` runs.
pub fn check_all_rated(paths: &[&Path]) -> anyhow::Result<bool> {
    let rated: Vec<bool> = paths.iter().map(|p| is_rate_output(p)).collect();
    match (rated.iter().all(|&r| r), rated.iter().any(|&r| r)) {
        (true, _) => Ok(true),
        (false, false) => Ok(false),
        (false, true) => bail!("cannot report `rate` outputs and `solve` runs together"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CSV: &str = "file,line,puzzle,status,er,ep,ed,er_technique,steps,time_ns,error\n\
        a.txt,1,p1,unique,7.2,1.2,1.2,Forcing Chain,40,3000,\n\
        a.txt,2,p2,unique,1.5,1.2,1.2,Hidden Single,30,100,\n\
        a.txt,3,p3,multiple,,,,,,50,\n\
        a.txt,4,p4,invalid,,,,,,0,4 cells\n\
        a.txt,5,p5,unique,7.2,7.2,2.0,Forcing Chain,50,2000,\n\
        a.txt,6,p6,unique,,,,,,900,not rated: stuck\n\
        a.txt,7,p7,unique,10.5,10.5,10.5,\"Dynamic, nested\",80,9000,\n";

    #[test]
    fn distribution_bands_techniques_and_slowest_by_hand() {
        let rows = read_csv(CSV.as_bytes(), "a.csv").unwrap();
        assert_eq!(rows.len(), 7);
        let s = RateSummary::new(vec!["a.csv".into()], &rows, 2);
        assert_eq!((s.puzzles, s.rated, s.unrated), (7, 4, 1));
        assert_eq!(s.statuses["unique"], 5);
        let ers: Vec<(&str, u64)> = s.by_er.iter().map(|b| (b.er.as_str(), b.count)).collect();
        assert_eq!(ers, [("1.5", 1), ("7.2", 2), ("10.5", 1)]);
        assert_eq!(s.by_er[1].cum_pct, 75.0);
        let bands: Vec<u64> = s.bands.iter().map(|b| b.count).collect();
        assert_eq!(bands, [1, 0, 2, 1]);
        assert_eq!(
            (
                s.er_p50.as_deref(),
                s.er_p90.as_deref(),
                s.er_max.as_deref()
            ),
            (Some("7.2"), Some("10.5"), Some("10.5"))
        );
        assert_eq!(s.techniques[0].technique, "Forcing Chain");
        assert_eq!(s.techniques[0].count, 2);
        assert_eq!(s.techniques.len(), 3);
        let slow: Vec<u64> = s.slowest.iter().map(|p| p.line).collect();
        assert_eq!(slow, [7, 1]);
        assert_eq!(s.total_time_ns, 3000 + 100 + 50 + 2000 + 900 + 9000);
        let mut text = Vec::new();
        write_text(&s, &mut text).unwrap();
        let text = String::from_utf8(text).unwrap();
        assert!(
            text.contains("ER             median 7.2, p90 10.5, max 10.5"),
            "{text}"
        );
        assert!(text.contains("Dynamic, nested"), "{text}");
        let mut json = Vec::new();
        write_json(&s, &mut json).unwrap();
        let v: serde_json::Value = serde_json::from_slice(&json).unwrap();
        assert_eq!(v["bands"][2]["count"], 2);
        let mut md = Vec::new();
        write_markdown(&s, &mut md).unwrap();
        assert!(String::from_utf8(md)
            .unwrap()
            .contains("| 7.2 | 2 | 50.0 | 75.0 |"));
    }

    #[test]
    fn json_lines_read_as_csv_does_and_bad_rows_are_named() {
        let jsonl = "{\"file\":\"a.txt\",\"line\":1,\"puzzle\":\"p1\",\"status\":\"unique\",\"er\":7.2,\
            \"ep\":1.2,\"ed\":1.2,\"er_technique\":\"Forcing Chain\",\"steps\":40,\"time_ns\":3000,\"error\":null}\n\
            {\"file\":\"a.txt\",\"line\":3,\"puzzle\":\"p3\",\"status\":\"multiple\",\"er\":null,\
            \"ep\":null,\"ed\":null,\"er_technique\":null,\"steps\":null,\"time_ns\":50,\"error\":null}\n";
        let rows = read_jsonl(jsonl, "a.jsonl").unwrap();
        let from_csv = read_csv(CSV.as_bytes(), "a.csv").unwrap();
        assert_eq!(rows[0], from_csv[0]);
        assert_eq!(rows[1], from_csv[2]);
        let bad = CSV.replace(
            "7.2,1.2,1.2,Forcing Chain,40",
            "7.25,1.2,1.2,Forcing Chain,40",
        );
        let err = read_csv(bad.as_bytes(), "a.csv").unwrap_err().to_string();
        assert!(err.contains("a.csv:2") && err.contains("7.25"), "{err}");
        let err = read_csv("line,status\n".as_bytes(), "s.csv")
            .unwrap_err()
            .to_string();
        assert!(err.contains("no `er` column"), "{err}");
    }
}
