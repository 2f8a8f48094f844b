//! tdoku as a peer: its whole-file driver run as a separate program, one timed pass per
//! call, on exactly the puzzles the other engines get.
//!
//! tdoku is C++ (BSD-2-Clause, in `../shared/peers/tdoku/`), built by that folder's
//! `build.sh` into `target/tdoku/` of the bulkdoku checkout. Nothing of it is linked
//! into this crate: `compare` writes the puzzles it loaded to a file, and each pass runs
//! `tdoku_file_bench -m LIMIT -s 0 FILE`, which parses the file before its timer starts,
//! warms up, times one whole pass and prints `pps=...`. Our side is timed on puzzles
//! parsed beforehand too, so parsing is outside the timer on both sides; at limit 2 both
//! count to two.
//!
//! Guesses come from `tdoku_guesses.cc` beside this crate (our driver, compiled with
//! tdoku's source from the shared folder), built on first use next to the benchmark
//! binary.

use std::path::{Path, PathBuf};
use std::process::Command;

use bulkdoku::Grid;

/// The bulkdoku checkout this crate sits in.
fn repo_root() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

/// tdoku's benchmark driver: `BULKDOKU_TDOKU` if set, else `target/tdoku/tdoku_file_bench`
/// in the bulkdoku checkout (where `../shared/peers/tdoku/build.sh target/tdoku` puts it).
pub fn bench_binary() -> PathBuf {
    match std::env::var_os("BULKDOKU_TDOKU") {
        Some(path) => PathBuf::from(path),
        None => repo_root().join("target/tdoku/tdoku_file_bench"),
    }
}

/// The shared folder with tdoku's sources: `BULKDOKU_TDOKU_SRC` if set, else
/// `../shared/peers/tdoku` beside the checkout.
fn source_dir() -> PathBuf {
    match std::env::var_os("BULKDOKU_TDOKU_SRC") {
        Some(path) => PathBuf::from(path),
        None => repo_root().join("../shared/peers/tdoku"),
    }
}

/// Write puzzles one per line (81 characters, `.` for blanks) for tdoku to read.
pub fn write_puzzles(path: &Path, puzzles: &[Grid]) -> std::io::Result<()> {
    let mut text = String::with_capacity(puzzles.len() * 82);
    for grid in puzzles {
        for &v in grid.cells() {
            text.push(if v == 0 { '.' } else { char::from(b'0' + v) });
        }
        text.push('\n');
    }
    std::fs::write(path, text)
}

/// One timed whole-file pass of tdoku at `limit` over `file` (which holds `n` puzzles):
/// the seconds its own timer measured. Errors name what went wrong.
pub fn run_pass(binary: &Path, file: &Path, n: usize, limit: u64) -> Result<f64, String> {
    let out = Command::new(binary)
        .args(["-m", &limit.to_string(), "-s", "0"])
        .arg(file)
        .output()
        .map_err(|e| format!("{}: {e}", binary.display()))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        return Err(format!(
            "{} exited with {}: {}",
            binary.display(),
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    let field = |name: &str| {
        stdout
            .split_whitespace()
            .find_map(|f| f.strip_prefix(name))
            .and_then(|v| v.parse::<f64>().ok())
    };
    let (Some(pps), Some(count), Some(passes)) = (field("pps="), field("n="), field("passes="))
    else {
        return Err(format!("unexpected tdoku output: {stdout:?}"));
    };
    if count as usize != n {
        return Err(format!("tdoku read {count} puzzles, expected {n}"));
    }
    // pps = n × passes / seconds.
    Ok(n as f64 * passes / pps)
}

/// Build the guess-counting driver next to `binary` unless it is there and newer than
/// its source; its path, or why it cannot be had (no compiler, no tdoku source).
pub fn guesses_binary(binary: &Path) -> Result<PathBuf, String> {
    let src = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/tdoku_guesses.cc"));
    let tdoku = source_dir();
    let out = binary.parent().map_or_else(
        || PathBuf::from("tdoku_guesses"),
        |d| d.join("tdoku_guesses"),
    );
    let modified = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
    if let (Some(built), Some(source)) = (modified(&out), modified(&src)) {
        if built >= source {
            return Ok(out);
        }
    }
    let solver = tdoku.join("src/solver_dpll_triad_simd.cc");
    if !solver.is_file() {
        return Err(format!("no tdoku source at {}", solver.display()));
    }
    let mut last_error = String::from("no C++ compiler (clang++ or g++) found");
    for cxx in ["clang++", "g++"] {
        let status = Command::new(cxx)
            .args(["-O2", "-march=native", "-std=c++17", "-w", "-I"])
            .arg(tdoku.join("src"))
            .arg(&src)
            .arg(tdoku.join("src/util.cc"))
            .arg("-o")
            .arg(&out)
            .status();
        match status {
            Ok(s) if s.success() => return Ok(out),
            Ok(s) => last_error = format!("{cxx} failed ({s}) building {}", out.display()),
            Err(_) => {}
        }
    }
    Err(last_error)
}

/// tdoku's guesses per puzzle at `limit` on `file` (`n` puzzles).
pub fn guesses_per_puzzle(
    guesses: &Path,
    file: &Path,
    n: usize,
    limit: u64,
) -> Result<f64, String> {
    let out = Command::new(guesses)
        .arg(limit.to_string())
        .arg(file)
        .output()
        .map_err(|e| format!("{}: {e}", guesses.display()))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    let field = |name: &str| {
        stdout
            .split_whitespace()
            .find_map(|f| f.strip_prefix(name))
            .and_then(|v| v.parse::<f64>().ok())
    };
    match (field("n="), field("guesses=")) {
        (Some(count), Some(total)) if count as usize == n => Ok(total / n as f64),
        _ => Err(format!("unexpected tdoku_guesses output: {stdout:?}")),
    }
}
