//! Writing a [`Summary`]: terminal text, Markdown tables, or JSON.
//!
//! Only presentation lives here; every figure comes computed from [`Summary`].

use std::io::{self, Write};

use super::compare::Comparison;
use super::run::Status;
use super::summary::{Bucket, Summary};
use crate::units::{duration, grouped};

/// Width of the histogram's text bars, in characters.
const BAR_WIDTH: usize = 40;

/// A bound of the 1-2-5 histogram (whole units: `2 µs`, `50 ms`).
fn bound(ns: u64) -> String {
    let (div, unit) = match ns {
        0..1_000 => (1, "ns"),
        1_000..1_000_000 => (1_000, "µs"),
        1_000_000..1_000_000_000 => (1_000_000, "ms"),
        _ => (1_000_000_000, "s"),
    };
    format!("{} {unit}", ns / div)
}

fn pct_text(p: Option<f64>) -> String {
    p.map_or_else(|| "-".to_string(), |p| format!("{p:.1} %"))
}

/// A text bar of `count` scaled so that `max` fills [`BAR_WIDTH`]; a non-zero count
/// always shows at least a sliver.
fn bar(count: u64, max: u64) -> String {
    if count == 0 || max == 0 {
        return String::new();
    }
    let eighths = (count as f64 / max as f64 * (BAR_WIDTH * 8) as f64).round() as usize;
    let eighths = eighths.max(1);
    let mut s = "█".repeat(eighths / 8);
    if !eighths.is_multiple_of(8) {
        s.push([' ', '▏', '▎', '▍', '▌', '▋', '▊', '▉'][eighths % 8]);
    }
    s
}

fn bucket_label(b: &Bucket) -> String {
    format!("{} – {}", bound(b.low_ns), bound(b.high_ns))
}

fn status_counts(s: &Summary) -> Vec<(Status, u64)> {
    Status::ALL
        .into_iter()
        .map(|st| (st, s.by_status.get(st)))
        .filter(|&(_, n)| n > 0)
        .collect()
}

fn place(file: &str, line: u64) -> String {
    if file.is_empty() {
        line.to_string()
    } else {
        format!("{file}:{line}")
    }
}

fn ratio_text(r: f64) -> String {
    format!("{r:.2}×")
}

fn overall_text(c: &Comparison) -> String {
    if c.paired == 0 {
        "no puzzle could be paired".to_string()
    } else if c.overall_ratio >= 1.0 {
        format!("{} faster", ratio_text(c.overall_ratio))
    } else {
        format!("{} slower", ratio_text(1.0 / c.overall_ratio))
    }
}

/// What to say instead of the timing figures when there are none: an empty run, or
/// one whose puzzles were all invalid (never searched, so never timed).
fn nothing_timed(s: &Summary) -> Option<String> {
    match (s.puzzles, s.timed) {
        (0, _) => Some("no puzzles: the run is empty".to_string()),
        (n, 0) => Some(format!("no timed puzzles: all {} are invalid", grouped(n))),
        _ => None,
    }
}

/// Terminal text.
pub fn write_text(s: &Summary, out: &mut dyn Write) -> io::Result<()> {
    let t = &s.time_ns;
    writeln!(out, "run            {}", s.runs.join(", "))?;
    if let Some(nothing) = nothing_timed(s) {
        writeln!(out, "{nothing}")?;
        return Ok(());
    }
    let statuses: Vec<String> = status_counts(s)
        .iter()
        .map(|(st, n)| format!("{} {st}", grouped(*n)))
        .collect();
    writeln!(
        out,
        "puzzles        {} ({})",
        grouped(s.puzzles),
        statuses.join(", ")
    )?;
    writeln!(
        out,
        "solve time     {} in total, {} mean, {} puzzles/s of solve time",
        duration(s.total_time_ns as f64),
        duration(t.mean),
        grouped(s.puzzles_per_sec.round() as u64)
    )?;
    writeln!(
        out,
        "no guessing    {} of {} solved puzzles; {:.2} guesses per puzzle",
        pct_text(s.no_guess_pct),
        grouped(s.solved),
        s.guesses_per_puzzle
    )?;

    writeln!(out, "\ntime per puzzle")?;
    for (name, v) in [
        ("min", t.min as f64),
        ("mean", t.mean),
        ("p50", t.p50 as f64),
        ("p90", t.p90 as f64),
        ("p99", t.p99 as f64),
        ("p99.9", t.p999 as f64),
        ("max", t.max as f64),
    ] {
        writeln!(out, "  {name:<6} {:>9}", duration(v))?;
    }

    if !s.histogram.is_empty() {
        writeln!(out, "\nlatency histogram (log scale)")?;
        let max = s.histogram.iter().map(|b| b.count).max().unwrap_or(0);
        let width = s
            .histogram
            .iter()
            .map(|b| bucket_label(b).chars().count())
            .max()
            .unwrap_or(0);
        for b in &s.histogram {
            writeln!(
                out,
                "  {:>width$}  {:>9} {:>6.1} %  {}",
                bucket_label(b),
                grouped(b.count),
                100.0 * b.count as f64 / s.timed as f64,
                bar(b.count, max),
            )?;
        }
    }

    if !s.by_clues.is_empty() {
        writeln!(out, "\nby clue count")?;
        writeln!(
            out,
            "  {:>5} {:>9} {:>10} {:>10} {:>10} {:>9} {:>9}",
            "clues", "puzzles", "mean", "median", "max", "guesses", "no guess"
        )?;
        for c in &s.by_clues {
            writeln!(
                out,
                "  {:>5} {:>9} {:>10} {:>10} {:>10} {:>9.2} {:>9}",
                c.clues,
                grouped(c.puzzles),
                duration(c.mean_time_ns),
                duration(c.p50_time_ns as f64),
                duration(c.max_time_ns as f64),
                c.guesses_per_puzzle,
                pct_text(c.no_guess_pct)
            )?;
        }
    }

    if !s.slowest.is_empty() {
        writeln!(out, "\nslowest {}", s.slowest.len())?;
        let width = s
            .slowest
            .iter()
            .map(|p| place(&p.file, p.line).chars().count())
            .max()
            .unwrap_or(0);
        for (i, p) in s.slowest.iter().enumerate() {
            writeln!(
                out,
                "  {:>3}  {:>10}  {:>7} guesses  {:<width$}  {}",
                i + 1,
                duration(p.time_ns as f64),
                p.guesses,
                place(&p.file, p.line),
                p.puzzle
            )?;
        }
    }

    if let Some(c) = &s.baseline {
        writeln!(
            out,
            "\ncompared with baseline {} ({} puzzles paired by {}, {} unpaired)",
            c.baseline.join(", "),
            grouped(c.paired),
            c.paired_by,
            grouped(c.unpaired)
        )?;
        writeln!(
            out,
            "  overall      {} (baseline {}, this run {}; ratio {:.3})",
            overall_text(c),
            duration(c.baseline_total_ns as f64),
            duration(c.total_ns as f64),
            c.overall_ratio
        )?;
        let r = &c.ratio;
        writeln!(
            out,
            "  per puzzle   baseline time / this time: min {}, p10 {}, p50 {}, p90 {}, max {}",
            ratio_text(r.min),
            ratio_text(r.p10),
            ratio_text(r.p50),
            ratio_text(r.p90),
            ratio_text(r.max)
        )?;
        if !c.most_slower.is_empty() {
            writeln!(out, "  most slower")?;
            let width = c
                .most_slower
                .iter()
                .map(|p| place(&p.file, p.line).chars().count())
                .max()
                .unwrap_or(0);
            for (i, p) in c.most_slower.iter().enumerate() {
                writeln!(
                    out,
                    "  {:>3}  {:>7}  {:>10} -> {:>10}  {:<width$}  {}",
                    i + 1,
                    ratio_text(p.ratio),
                    duration(p.baseline_ns as f64),
                    duration(p.time_ns as f64),
                    place(&p.file, p.line),
                    p.puzzle
                )?;
            }
        }
    }
    Ok(())
}

/// Write one Markdown table row.
fn md_row(out: &mut dyn Write, cells: &[String]) -> io::Result<()> {
    writeln!(out, "| {} |", cells.join(" | "))
}

/// Header and alignment rows; `right` marks right-aligned (numeric) columns.
fn md_head(out: &mut dyn Write, names: &[&str], right: &[bool]) -> io::Result<()> {
    md_row(
        out,
        &names.iter().map(|n| n.to_string()).collect::<Vec<_>>(),
    )?;
    let align: Vec<String> = right
        .iter()
        .map(|&r| if r { "---:" } else { "---" }.to_string())
        .collect();
    md_row(out, &align)
}

fn code(text: &str) -> String {
    if text.is_empty() {
        String::new()
    } else {
        format!("`{text}`")
    }
}

/// Markdown tables, to paste into a README or an issue.
pub fn write_markdown(s: &Summary, out: &mut dyn Write) -> io::Result<()> {
    let t = &s.time_ns;
    if let Some(nothing) = nothing_timed(s) {
        writeln!(out, "{} ({nothing})", s.runs.join(", "))?;
        return Ok(());
    }
    let statuses = status_counts(s);
    let mut names = vec!["puzzles"];
    names.extend(statuses.iter().map(|(st, _)| st.as_str()));
    names.extend([
        "total solve time",
        "puzzles/s",
        "solved without guessing",
        "guesses/puzzle",
    ]);
    md_head(out, &names, &vec![true; names.len()])?;
    let mut cells = vec![grouped(s.puzzles)];
    cells.extend(statuses.iter().map(|(_, n)| grouped(*n)));
    cells.extend([
        duration(s.total_time_ns as f64),
        grouped(s.puzzles_per_sec.round() as u64),
        pct_text(s.no_guess_pct),
        format!("{:.2}", s.guesses_per_puzzle),
    ]);
    md_row(out, &cells)?;

    writeln!(out, "\nTime per puzzle:\n")?;
    md_head(
        out,
        &["min", "mean", "p50", "p90", "p99", "p99.9", "max"],
        &[true; 7],
    )?;
    md_row(
        out,
        &[
            t.min as f64,
            t.mean,
            t.p50 as f64,
            t.p90 as f64,
            t.p99 as f64,
            t.p999 as f64,
            t.max as f64,
        ]
        .map(duration),
    )?;

    if !s.histogram.is_empty() {
        writeln!(out, "\nLatency histogram (log scale):\n")?;
        md_head(
            out,
            &["time", "puzzles", "share", ""],
            &[false, true, true, false],
        )?;
        let max = s.histogram.iter().map(|b| b.count).max().unwrap_or(0);
        for b in &s.histogram {
            md_row(
                out,
                &[
                    bucket_label(b),
                    grouped(b.count),
                    format!("{:.1} %", 100.0 * b.count as f64 / s.timed as f64),
                    bar(b.count, max),
                ],
            )?;
        }
    }

    if !s.by_clues.is_empty() {
        writeln!(out, "\nBy clue count:\n")?;
        md_head(
            out,
            &[
                "clues",
                "puzzles",
                "mean",
                "median",
                "max",
                "guesses/puzzle",
                "no guess",
            ],
            &[true; 7],
        )?;
        for c in &s.by_clues {
            md_row(
                out,
                &[
                    c.clues.to_string(),
                    grouped(c.puzzles),
                    duration(c.mean_time_ns),
                    duration(c.p50_time_ns as f64),
                    duration(c.max_time_ns as f64),
                    format!("{:.2}", c.guesses_per_puzzle),
                    pct_text(c.no_guess_pct),
                ],
            )?;
        }
    }

    if !s.slowest.is_empty() {
        writeln!(out, "\nSlowest puzzles:\n")?;
        md_head(
            out,
            &["#", "line", "time", "guesses", "puzzle"],
            &[true, false, true, true, false],
        )?;
        for (i, p) in s.slowest.iter().enumerate() {
            md_row(
                out,
                &[
                    (i + 1).to_string(),
                    code(&place(&p.file, p.line)),
                    duration(p.time_ns as f64),
                    p.guesses.to_string(),
                    code(&p.puzzle),
                ],
            )?;
        }
    }

    if let Some(c) = &s.baseline {
        writeln!(
            out,
            "\nCompared with baseline {} ({} puzzles paired by {}, {} unpaired; \
             ratio = baseline time / this time, above 1 is faster):\n",
            c.baseline
                .iter()
                .map(|b| code(b))
                .collect::<Vec<_>>()
                .join(", "),
            grouped(c.paired),
            c.paired_by,
            grouped(c.unpaired)
        )?;
        md_head(
            out,
            &[
                "overall",
                "baseline total",
                "this total",
                "min",
                "p10",
                "p50",
                "p90",
                "max",
            ],
            &[true; 8],
        )?;
        let r = &c.ratio;
        md_row(
            out,
            &[
                format!("{:.3} ({})", c.overall_ratio, overall_text(c)),
                duration(c.baseline_total_ns as f64),
                duration(c.total_ns as f64),
                ratio_text(r.min),
                ratio_text(r.p10),
                ratio_text(r.p50),
                ratio_text(r.p90),
                ratio_text(r.max),
            ],
        )?;
        if !c.most_slower.is_empty() {
            writeln!(out, "\nMost slower:\n")?;
            md_head(
                out,
                &["#", "line", "ratio", "baseline", "this run", "puzzle"],
                &[true, false, true, true, true, false],
            )?;
            for (i, p) in c.most_slower.iter().enumerate() {
                md_row(
                    out,
                    &[
                        (i + 1).to_string(),
                        code(&place(&p.file, p.line)),
                        ratio_text(p.ratio),
                        duration(p.baseline_ns as f64),
                        duration(p.time_ns as f64),
                        code(&p.puzzle),
                    ],
                )?;
            }
        }
    }
    Ok(())
}

/// JSON: the [`Summary`] as serialised by serde, pretty-printed.
pub fn write_json(s: &Summary, out: &mut dyn Write) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, s)?;
    writeln!(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn histogram_bounds_are_whole_units() {
        assert_eq!(bound(2_000), "2 µs");
        assert_eq!(bound(500), "500 ns");
    }

    #[test]
    fn bars() {
        assert_eq!(bar(10, 10).chars().count(), BAR_WIDTH);
        assert_eq!(bar(5, 10).chars().count(), BAR_WIDTH / 2);
        assert_eq!(bar(1, 1_000_000), "▏");
        assert_eq!(bar(0, 10), "");
    }
}
