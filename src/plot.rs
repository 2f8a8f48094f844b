//! `report --plot`: the latency picture: a log-scale histogram above the cumulative distribution (the
//! ER histogram for a `rate` output), drawn with `plotters` into an SVG or a PNG chosen by the file's extension.
//!
//! Machines without system fonts (CI) must still draw text, so plotters is built with
//! its pure-Rust `ab_glyph` text backend and the DejaVu Sans font that the `dejavu` crate
//! carries as bytes (Bitstream Vera licence: free to use and redistribute).

use std::path::Path;
use std::sync::OnceLock;

use anyhow::{anyhow, bail};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::{register_font, FontStyle};

use bulkdoku::report::ratings::RateSummary;
use bulkdoku::report::summary::{bound_125, Summary};
use bulkdoku::units::{duration, grouped};
use plotters::coord::combinators::{LogCoord, WithKeyPoints};

/// Picture size in pixels.
const SIZE: (u32, u32) = (1000, 760);
/// The family every text of the picture uses; registered from bundled bytes.
const FONT: &str = "sans-serif";
/// Bins per factor of ten in the picture's histogram.
const BINS_PER_DECADE: u32 = 10;
/// Where the histogram's bars start on its log count axis (below a count of 1).
const BAR_BASE: f64 = 0.5;
/// Most points drawn on the CDF: beyond that the steps are finer than a pixel.
const CDF_POINTS: usize = 2_000;

/// The x-axis title of both panels (the unit matters: times are in microseconds).
pub const X_LABEL: &str = "solve time per puzzle (µs, log scale)";
/// The histogram's y-axis title.
pub const HIST_Y_LABEL: &str = "puzzles (log scale)";
/// The CDF's y-axis title.
pub const CDF_Y_LABEL: &str = "puzzles solved within that time (%)";

fn ensure_font() -> anyhow::Result<()> {
    static REGISTERED: OnceLock<bool> = OnceLock::new();
    let ok = *REGISTERED
        .get_or_init(|| register_font(FONT, FontStyle::Normal, dejavu::sans::regular()).is_ok());
    if ok {
        Ok(())
    } else {
        bail!("the bundled font could not be loaded")
    }
}

/// The picture formats, by file extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Picture {
    Svg,
    Png,
}

/// The picture format `path` asks for: `.svg` or `.png`, else an error (checked before
/// any work).
pub fn check_extension(path: &Path) -> anyhow::Result<()> {
    picture(path).map(|_| ())
}

fn picture(path: &Path) -> anyhow::Result<Picture> {
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    match ext.as_deref() {
        Some("svg") => Ok(Picture::Svg),
        Some("png") => Ok(Picture::Png),
        _ => bail!(
            "{}: unknown picture format: name the file .svg or .png",
            path.display()
        ),
    }
}

/// Draw the latency histogram and CDF of `s` into `path` (`.svg` or `.png`): drawn
/// beside it, then renamed, so that a failed drawing leaves no broken picture.
pub fn draw(s: &Summary, path: &Path) -> anyhow::Result<()> {
    if s.sorted_ns.is_empty() {
        bail!("{}: no timed puzzle to plot", path.display());
    }
    render(path, |root| draw_on(root, s), |root| draw_on(root, s))
}

/// Draw the ER histogram of a `rate` report into `path` (`.svg` or `.png`), as
/// [`draw`] does.
pub fn draw_er(s: &RateSummary, path: &Path) -> anyhow::Result<()> {
    if s.rated == 0 {
        bail!("{}: no rated puzzle to plot", path.display());
    }
    render(path, |root| draw_er_on(root, s), |root| draw_er_on(root, s))
}

/// Draw a picture into `path` with `svg` or `png` (the same drawing, for each backend)
/// as its extension says: beside it, then renamed, so that a failed drawing leaves no
/// broken picture.
fn render(
    path: &Path,
    svg: impl for<'b> FnOnce(&DrawingArea<SVGBackend<'b>, Shift>) -> DrawResult<SVGBackend<'b>>,
    png: impl for<'b> FnOnce(&DrawingArea<BitMapBackend<'b>, Shift>) -> DrawResult<BitMapBackend<'b>>,
) -> anyhow::Result<()> {
    let format = picture(path)?;
    ensure_font()?;
    let fail = |e: String| anyhow!("{}: cannot draw the plot: {e}", path.display());
    // Under the output's lock, drawn beside the picture (its extension kept last: the
    // PNG encoder goes by it), then committed in its place.
    let out = bulkdoku::output::file::Output::create(Some(path))?;
    let drawn = {
        let mut name = bulkdoku::output::file::partial_path(path).into_os_string();
        name.push(match format {
            Picture::Svg => ".svg",
            Picture::Png => ".png",
        });
        std::path::PathBuf::from(name)
    };
    let drew = match format {
        Picture::Svg => {
            let root = SVGBackend::new(&drawn, SIZE).into_drawing_area();
            svg(&root)
                .map_err(|e| fail(e.to_string()))
                .and_then(|()| root.present().map_err(|e| fail(e.to_string())))
        }
        Picture::Png => {
            let root = BitMapBackend::new(&drawn, SIZE).into_drawing_area();
            png(&root)
                .map_err(|e| fail(e.to_string()))
                .and_then(|()| root.present().map_err(|e| fail(e.to_string())))
        }
    };
    if let Err(e) = drew {
        let _ = std::fs::remove_file(&drawn);
        let _ = out.keep_partial(|_| Ok(((), 0)));
        let _ = std::fs::remove_file(bulkdoku::output::file::partial_path(path));
        return Err(e);
    }
    out.finish_with(&drawn)?;
    Ok(())
}

/// The ER histogram: puzzles per ER (one bar per tenth), on a linear count axis.
fn draw_er_on<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    s: &RateSummary,
) -> DrawResult<DB> {
    root.fill(&WHITE)?;
    let title = format!(
        "ER distribution: {} ({} puzzles rated)",
        s.runs.join(", "),
        grouped(s.rated)
    );
    let root = root.titled(&title, (FONT, 22))?;
    let bars: Vec<(f64, u64)> = s
        .by_er
        .iter()
        .filter_map(|b| Some((b.er.parse::<f64>().ok()?, b.count)))
        .collect();
    let hi = bars.iter().map(|b| b.0).fold(1.0, f64::max).ceil() + 0.5;
    let ymax = bars.iter().map(|b| b.1).max().unwrap_or(1) as f64 * 1.1;
    let mut chart = ChartBuilder::on(&root)
        .margin(16)
        .margin_right(36)
        .x_label_area_size(48)
        .y_label_area_size(80)
        .build_cartesian_2d(0.5..hi, 0.0..ymax)?;
    chart
        .configure_mesh()
        .x_desc("ER (Sudoku Explainer rating)")
        .y_desc("puzzles")
        .axis_desc_style((FONT, 16))
        .label_style((FONT, 13))
        .x_label_formatter(&|v| format!("{v:.1}"))
        .y_label_formatter(&|v| grouped(v.round() as u64))
        .disable_x_mesh()
        .draw()?;
    let fill = RGBColor(70, 120, 190);
    chart.draw_series(bars.iter().map(|&(er, n)| {
        Rectangle::new(
            [(er - 0.045, 0.0), (er + 0.045, n as f64)],
            fill.mix(0.8).filled(),
        )
    }))?;
    Ok(())
}

/// A tick label on the microsecond axis: `0.5`, `20`, `1,000`.
fn tick(us: f64) -> String {
    if us >= 1.0 {
        grouped(us.round() as u64)
    } else {
        let text = format!("{us:.3}");
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// The log-scale time axis from `lo` to `hi` µs, ticked at the 1-2-5 bounds of the
/// histogram so that the ticks line up with the bars (plotters' own log ticks are only
/// the powers of ten).
fn x_axis(lo: f64, hi: f64) -> WithKeyPoints<LogCoord<f64>> {
    let ticks: Vec<f64> = (0..57)
        .map(|i| bound_125(i) as f64 / 1e3)
        .filter(|&t| t >= lo && t <= hi)
        .collect();
    // A narrow run may hold no 1-2-5 bound: label its ends instead.
    let ticks = if ticks.len() < 2 { vec![lo, hi] } else { ticks };
    (lo..hi).log_scale().with_key_points(ticks)
}

fn us(ns: u64) -> f64 {
    // A 0 ns reading would sit at minus infinity on a log axis.
    ns.max(1) as f64 / 1e3
}

type DrawResult<DB> = Result<(), DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

fn draw_on<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, s: &Summary) -> DrawResult<DB> {
    root.fill(&WHITE)?;
    let title = format!(
        "Solve time per puzzle: {} ({} puzzles)",
        s.runs.join(", "),
        grouped(s.timed)
    );
    let root = root.titled(&title, (FONT, 22))?;
    let (upper, lower) = root.split_vertically(SIZE.1 / 2 - 20);

    let bins = fine_bins(&s.sorted_ns);
    let (lo, hi) = (bins[0].0, bins[bins.len() - 1].1);
    let label_font = (FONT, 16);

    // Upper panel: puzzles per bin, on a log count axis so that the few slow puzzles of
    // the tail stay visible next to the thousands of the mode.
    let ymax = bins.iter().map(|b| b.2).max().unwrap_or(1) as f64 * 2.0;
    let mut hist = ChartBuilder::on(&upper)
        .caption(
            format!("Latency histogram ({BINS_PER_DECADE} bins per decade)"),
            (FONT, 18),
        )
        .margin(12)
        .margin_right(36)
        .x_label_area_size(48)
        .y_label_area_size(80)
        .build_cartesian_2d(x_axis(lo, hi), (BAR_BASE..ymax).log_scale())?;
    hist.configure_mesh()
        .x_desc(X_LABEL)
        .y_desc(HIST_Y_LABEL)
        .axis_desc_style(label_font)
        .label_style((FONT, 13))
        .x_label_formatter(&|v| tick(*v))
        .y_label_formatter(&|v| grouped(v.round() as u64))
        .max_light_lines(1)
        .disable_x_mesh()
        .draw()?;
    let fill = RGBColor(70, 120, 190);
    let bars = || bins.iter().filter(|b| b.2 > 0);
    hist.draw_series(
        bars().map(|&(l, h, n)| {
            Rectangle::new([(l, BAR_BASE), (h, n as f64)], fill.mix(0.7).filled())
        }),
    )?;
    hist.draw_series(
        bars()
            .map(|&(l, h, n)| Rectangle::new([(l, BAR_BASE), (h, n as f64)], fill.stroke_width(1))),
    )?;

    // Lower panel: the empirical CDF as a staircase, with the headline percentiles.
    let mut cdf = ChartBuilder::on(&lower)
        .caption("Cumulative distribution", (FONT, 18))
        .margin(12)
        .margin_right(36)
        .x_label_area_size(48)
        .y_label_area_size(80)
        .build_cartesian_2d(x_axis(lo, hi), 0.0..100.0)?;
    cdf.configure_mesh()
        .x_desc(X_LABEL)
        .y_desc(CDF_Y_LABEL)
        .axis_desc_style(label_font)
        .label_style((FONT, 13))
        .x_label_formatter(&|v| tick(*v))
        .y_label_formatter(&|v| format!("{v:.0}"))
        .max_light_lines(1)
        .draw()?;
    cdf.draw_series(LineSeries::new(
        cdf_steps(&s.sorted_ns),
        fill.stroke_width(2),
    ))?;
    let marks = [
        ("p50", s.time_ns.p50, 50.0),
        ("p90", s.time_ns.p90, 90.0),
        ("p99", s.time_ns.p99, 99.0),
    ];
    let mark = RGBColor(200, 60, 40);
    for (name, ns, p) in marks {
        let x = us(ns);
        cdf.draw_series(std::iter::once(PathElement::new(
            vec![(x, 0.0), (x, p)],
            mark.mix(0.6).stroke_width(1),
        )))?;
        cdf.draw_series(std::iter::once(Circle::new((x, p), 3, mark.filled())))?;
        // Labels sit under the curve's knee, staggered so they do not overlap.
        let y = p - 12.0 - (100.0 - p) * 0.3;
        cdf.draw_series(std::iter::once(Text::new(
            format!("{name} {}", duration(ns as f64)),
            (x * 1.08, y),
            (FONT, 13).into_font().color(&mark),
        )))?;
    }
    Ok(())
}

/// Log-spaced bins for the picture, finer than the report's 1-2-5 buckets: bin `k` holds
/// times in `10^(k/BINS_PER_DECADE)` ns up to the next bound. (µs low, µs high, count),
/// from the fastest time's bin to the slowest's.
fn fine_bins(sorted: &[u64]) -> Vec<(f64, f64, u64)> {
    let per = BINS_PER_DECADE as f64;
    let index = |t: u64| ((t.max(1) as f64).log10() * per).floor() as i32;
    let bound = |k: i32| 10f64.powf(k as f64 / per);
    let (first, last) = (index(sorted[0]), index(sorted[sorted.len() - 1]));
    let mut rest = sorted;
    (first..=last)
        .map(|k| {
            // Times are counted by their computed bin index, so float rounding at a bound
            // cannot drop or double-count one.
            let n = rest.partition_point(|&t| index(t) <= k);
            rest = &rest[n..];
            (bound(k) / 1e3, bound(k + 1) / 1e3, n as u64)
        })
        .collect()
}

/// The staircase of the empirical CDF of sorted times, at most about [`CDF_POINTS`]
/// steps: (time in µs, % of puzzles at or below it).
fn cdf_steps(sorted: &[u64]) -> Vec<(f64, f64)> {
    let n = sorted.len();
    let stride = n.div_ceil(CDF_POINTS).max(1);
    let mut points = Vec::with_capacity(2 * (n / stride + 2));
    let mut below = 0.0;
    let mut i = stride.min(n) - 1;
    loop {
        let x = us(sorted[i]);
        let at = 100.0 * (i + 1) as f64 / n as f64;
        points.push((x, below));
        points.push((x, at));
        below = at;
        if i == n - 1 {
            break;
        }
        i = (i + stride).min(n - 1);
    }
    points
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cdf_ends_at_100_percent() {
        let steps = cdf_steps(&[1_000, 2_000, 3_000, 4_000]);
        assert_eq!(steps.first(), Some(&(1.0, 0.0)));
        assert_eq!(steps[1], (1.0, 25.0));
        assert_eq!(steps.last(), Some(&(4.0, 100.0)));
        let many: Vec<u64> = (1..=10_000).collect();
        let steps = cdf_steps(&many);
        assert!(steps.len() <= 2 * CDF_POINTS + 2);
        assert_eq!(steps.last(), Some(&(10.0, 100.0)));
    }

    #[test]
    fn fine_bins_count_every_time_once() {
        // 1 µs → bin 30 [1, 1.26) µs; 1.2 µs too; 10 µs → bin 40; bins 31..=39 empty.
        let bins = fine_bins(&[1_000, 1_200, 10_000]);
        assert_eq!(bins.len(), 11);
        assert_eq!(bins.iter().map(|b| b.2).sum::<u64>(), 3);
        assert_eq!((bins[0].2, bins[10].2), (2, 1));
        assert!((bins[0].0 - 1.0).abs() < 1e-9 && (bins[10].1 - 12.589).abs() < 1e-3);
        assert_eq!(fine_bins(&[0, 0]), [(0.001, 0.001 * 10f64.powf(0.1), 2)]);
    }

    #[test]
    fn ticks_are_plain_numbers() {
        assert_eq!(tick(0.5), "0.5");
        assert_eq!(tick(20.0), "20");
        assert_eq!(tick(1000.0), "1,000");
    }
}
