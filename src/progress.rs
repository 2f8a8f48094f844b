//! The progress bar on standard error: its modes, draw target and what it shows.
//!
//! It is drawn on stderr so that `solve x.txt > out.csv` still shows it, and it is
//! hidden when stderr is not a terminal unless `--progress always` asks for it (then it
//! is drawn with plain ANSI escapes, e.g. into a CI log). When the total size of the
//! inputs is known it shows a bar over their bytes with an ETA; on standard input it
//! shows a spinner. Either way it shows the records done and their rate. Callers update
//! it once per batch, never per record: indicatif rate-limits drawing, but not calls.

use std::io::{IsTerminal, Write};
use std::time::Instant;

use bulkdoku::units::{human_rate, rate};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle, TermLike};

use crate::cli::ProgressMode;

/// A progress display for a run over records (possibly hidden).
#[derive(Debug)]
pub struct Bar {
    bar: Option<ProgressBar>,
    start: Instant,
    total_bytes: Option<u64>,
}

impl Bar {
    /// A display for a run over `total_bytes` of input (`None` when unknown, e.g. stdin).
    ///
    /// `quiet` or [`ProgressMode::Never`] hide it; [`ProgressMode::Auto`] shows it only
    /// when stderr is a terminal.
    pub fn new(mode: ProgressMode, quiet: bool, total_bytes: Option<u64>) -> Bar {
        let stderr_is_terminal = std::io::stderr().is_terminal();
        let target = match mode {
            _ if quiet => None,
            ProgressMode::Never => None,
            ProgressMode::Auto if !stderr_is_terminal => None,
            // indicatif's own stderr target hides itself off a terminal; `always` means
            // always, so draw through a plain stderr writer then.
            ProgressMode::Always if !stderr_is_terminal => {
                Some(ProgressDrawTarget::term_like(Box::new(PlainStderr)))
            }
            _ => Some(ProgressDrawTarget::stderr()),
        };
        let bar = target.map(|target| match total_bytes {
            Some(total) => {
                let style = ProgressStyle::with_template(
                    "{spinner} [{elapsed_precise}] [{bar:30}] {percent:>3}% {msg} (ETA {eta})",
                )
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("=> ");
                ProgressBar::with_draw_target(Some(total), target).with_style(style)
            }
            None => {
                let style = ProgressStyle::with_template("{spinner} [{elapsed_precise}] {msg}")
                    .unwrap_or_else(|_| ProgressStyle::default_spinner());
                ProgressBar::with_draw_target(None, target).with_style(style)
            }
        });
        Bar {
            bar,
            start: Instant::now(),
            total_bytes,
        }
    }

    /// True when nothing is drawn.
    #[cfg(test)]
    fn is_hidden(&self) -> bool {
        self.bar.is_none()
    }
}

impl bulkdoku::dataset::Progress for Bar {
    /// Report `records` done so far and `bytes` of input consumed so far.
    fn update(&self, records: u64, bytes: u64) {
        let Some(bar) = &self.bar else { return };
        if self.total_bytes.is_some() {
            bar.set_position(bytes);
        } else {
            bar.tick();
        }
        bar.set_message(format!(
            "{records} puzzles, {}/s",
            human_rate(rate(records, self.start.elapsed()))
        ));
    }

    /// Remove the bar from the screen (also done on drop).
    fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

impl Drop for Bar {
    fn drop(&mut self) {
        // Clear on every way out, errors and broken pipes included, so that a
        // half-drawn bar never stays above the next shell prompt.
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// stderr as a terminal-like target for `--progress always` when it is not a terminal.
#[derive(Debug)]
struct PlainStderr;

impl PlainStderr {
    fn put(&self, s: &str) -> std::io::Result<()> {
        std::io::stderr().write_all(s.as_bytes())
    }
}

impl TermLike for PlainStderr {
    fn width(&self) -> u16 {
        100
    }
    fn move_cursor_up(&self, n: usize) -> std::io::Result<()> {
        if n > 0 {
            self.put(&format!("\x1b[{n}A"))?;
        }
        Ok(())
    }
    fn move_cursor_down(&self, n: usize) -> std::io::Result<()> {
        if n > 0 {
            self.put(&format!("\x1b[{n}B"))?;
        }
        Ok(())
    }
    fn move_cursor_right(&self, n: usize) -> std::io::Result<()> {
        if n > 0 {
            self.put(&format!("\x1b[{n}C"))?;
        }
        Ok(())
    }
    fn move_cursor_left(&self, n: usize) -> std::io::Result<()> {
        if n > 0 {
            self.put(&format!("\x1b[{n}D"))?;
        }
        Ok(())
    }
    fn write_line(&self, s: &str) -> std::io::Result<()> {
        self.put(s)?;
        self.put("\n")
    }
    fn write_str(&self, s: &str) -> std::io::Result<()> {
        self.put(s)
    }
    fn clear_line(&self) -> std::io::Result<()> {
        self.put("\r\x1b[2K")
    }
    fn flush(&self) -> std::io::Result<()> {
        std::io::stderr().flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn never_and_quiet_hide_the_bar() {
        use bulkdoku::dataset::Progress;
        assert!(Bar::new(ProgressMode::Never, false, Some(10)).is_hidden());
        assert!(Bar::new(ProgressMode::Always, true, None).is_hidden());
        assert!(!Bar::new(ProgressMode::Always, false, Some(10)).is_hidden());
        // Updating a hidden bar is a no-op, not an error.
        Bar::new(ProgressMode::Never, true, None).update(3, 4);
    }
}
