//! Trust: no input or output is lost silently, interrupted runs stop on a whole row and
//! resume, no input takes unbounded resources. One group of tests per class of defect
//! found by trying the release binary as a new user would.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::util::{assert_exit, stderr, stdout, Table, Workdir};

/// The puzzles of `data/generated_1000.txt`, one per line.
pub(crate) fn generated() -> Vec<String> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/generated_1000.txt");
    std::fs::read_to_string(path)
        .expect("data/generated_1000.txt")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(str::to_string)
        .collect()
}

/// `copies` copies of the generated puzzles, one per line, as a file in `dir`.
pub(crate) fn big_input(dir: &Workdir, name: &str, copies: usize) -> PathBuf {
    let text = generated().join("\n") + "\n";
    let mut f = std::fs::File::create(dir.file(name)).unwrap();
    for _ in 0..copies {
        f.write_all(text.as_bytes()).unwrap();
    }
    dir.file(name)
}

/// The rows of `solve` output without the `time_ns` column.
pub(crate) fn untimed(text: &str) -> Vec<Vec<String>> {
    let table = Table::parse(text);
    let t = table.col("time_ns");
    table
        .rows
        .into_iter()
        .map(|mut r| {
            r.remove(t);
            r
        })
        .collect()
}

/// Run in the background with standard output to `out` (a file in `dir`) or piped.
pub(crate) fn spawn(dir: &Workdir, args: &[&str], stdout_to: Option<&str>) -> Child {
    let mut cmd = dir.command(args);
    cmd.stdin(Stdio::null()).stderr(Stdio::piped());
    match stdout_to {
        Some(name) => cmd.stdout(std::fs::File::create(dir.file(name)).unwrap()),
        None => cmd.stdout(Stdio::piped()),
    };
    cmd.spawn().expect("spawn bulkdoku")
}

/// Wait until the rows a run writes to `path` (into `path.partial` until it ends, or
/// into `path` itself for a writer that has no such file) come to `bytes` bytes. A
/// `path` left by an earlier run counts only once it changes.
pub(crate) fn wait_for_bytes(path: &Path, bytes: u64) {
    let partial = PathBuf::from(format!("{}.partial", path.display()));
    let stamp = |p: &Path| {
        std::fs::metadata(p)
            .map(|m| (m.len(), m.modified().ok()))
            .ok()
    };
    let earlier = stamp(path);
    let start = Instant::now();
    loop {
        let written = match stamp(path) {
            now if now == earlier => 0,
            now => now.map_or(0, |(len, _)| len),
        };
        let len = stamp(&partial).map_or(0, |(len, _)| len).max(written);
        if len >= bytes {
            return;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "{} never reached {bytes} bytes",
            path.display()
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Send `signal` (`INT`, `TERM`, `KILL`) to the child.
pub(crate) fn signal(child: &Child, signal: &str) {
    let ok = Command::new("kill")
        .args([&format!("-{signal}"), &child.id().to_string()])
        .status()
        .expect("run kill")
        .success();
    assert!(ok, "kill -{signal} failed");
}

/// The exit code of a finished child, with its stderr on failure.
pub(crate) fn finish(child: Child) -> (Option<i32>, String, Vec<u8>) {
    let out = child.wait_with_output().expect("wait");
    (out.status.code(), stderr(&out), out.stdout)
}

/// Assert that CSV text ends on a whole row and every row has `fields` fields.
#[track_caller]
fn assert_whole_csv(text: &[u8], fields: usize) {
    assert!(text.ends_with(b"\n"), "output ends inside a row");
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(text);
    for row in reader.records() {
        let row = row.expect("a CSV row");
        assert_eq!(row.len(), fields, "a torn row: {row:?}");
    }
}

// ---- 1. format detection never swallows a file -------------------------------------

#[test]
fn one_odd_line_does_not_make_a_file_of_puzzles_vanish() {
    let dir = Workdir::new();
    let all = generated();
    let puzzles = &all[..30];
    let body = puzzles.join("\n") + "\n";
    // A line that looks like another format, and whether it is a puzzle itself.
    for (odd, is_puzzle) in [
        ("[Forum hardest, 2024 edition]".to_string(), false),
        ("Input: the hardest puzzles of the forum".to_string(), false),
        (format!("{} [[rated 11.9]]", all[100]), true),
        ("7".to_string(), false),
    ] {
        dir.create("mixed.txt", format!("{odd}\n{body}"));
        let out = dir.run(&["solve", "-q", "mixed.txt"]);
        assert_exit(&out, 0);
        let t = Table::parse(&stdout(&out));
        let lines: Vec<String> = (1..=31).map(|l| l.to_string()).collect();
        assert_eq!(t.column("line"), lines, "{odd}");
        assert_eq!(t.column("puzzle")[1..], puzzles[..], "{odd}");
        assert!(
            t.column("status")[1..].iter().all(|s| *s == "unique"),
            "{odd}"
        );
        let first = if is_puzzle { "unique" } else { "invalid" };
        assert_eq!(t.column("status")[0], first, "{odd}");

        // verify accounts for every line: a line that is not a puzzle is a finding.
        let out = dir.run(&["verify", "mixed.txt"]);
        assert!(
            stderr(&out).contains("verified 31 puzzles"),
            "{}",
            stderr(&out)
        );
        if is_puzzle {
            assert_exit(&out, 0);
        } else {
            assert_exit(&out, 1);
            let t = Table::parse(&stdout(&out));
            assert_eq!(t.column("line"), ["1"], "{odd}");
            assert_eq!(t.column("kind"), ["malformed"], "{odd}");
        }
    }
}

#[test]
fn a_one_word_header_over_rated_lines_is_not_csv() {
    let dir = Workdir::new();
    let puzzles: Vec<String> = generated().into_iter().take(5).collect();
    let text: String = puzzles
        .iter()
        .map(|p| format!("{p} ED=7.1/1.2/1.2\n"))
        .collect();
    dir.create("rated.txt", format!("puzzle\n{text}"));
    let out = dir.run(&["solve", "-q", "rated.txt"]);
    assert_exit(&out, 0);
    let t = Table::parse(&stdout(&out));
    assert_eq!(t.column("puzzle"), puzzles);
    assert_eq!(t.column("status"), ["unique"; 5]);
}

// ---- 2. the output is not destroyed before the run can start ------------------------

#[test]
fn a_missing_input_leaves_yesterdays_output_alone() {
    let dir = Workdir::new();
    dir.create("results.csv", "yesterday's results\n");
    let out = dir.run(&["solve", "missing.txt", "-o", "results.csv"]);
    assert_exit(&out, 2);
    assert!(stderr(&out).contains("missing.txt"), "{}", stderr(&out));
    assert_eq!(
        std::fs::read_to_string(dir.file("results.csv")).unwrap(),
        "yesterday's results\n"
    );
    assert!(!dir.file("results.csv.partial").exists());
}

#[test]
fn an_output_that_is_an_input_is_refused() {
    let dir = Workdir::new();
    let puzzle = &generated()[0];
    dir.create("x.txt", format!("{puzzle}\n"));
    std::fs::create_dir(dir.file("sub")).unwrap();
    for args in [
        vec!["solve", "x.txt", "-o", "x.txt"],
        vec!["solve", "x.txt", "-o", "sub/../x.txt"],
        vec!["verify", "x.txt", "-o", "x.txt"],
        vec!["verify", "x.txt", "--summary", "x.txt"],
        vec!["bench", "x.txt", "-o", "x.txt", "--seconds", "0.01"],
    ] {
        let out = dir.run(&args);
        assert_exit(&out, 2);
        assert!(
            stderr(&out).contains("is also an input"),
            "{}",
            stderr(&out)
        );
        assert_eq!(
            std::fs::read_to_string(dir.file("x.txt")).unwrap(),
            format!("{puzzle}\n"),
            "{args:?}"
        );
    }
}

#[test]
fn summary_and_plot_paths_are_checked_before_the_work() {
    let dir = Workdir::new();
    dir.create("x.txt", format!("{}\n", generated()[0]));
    let out = dir.run(&["verify", "x.txt", "-o", "f.csv", "--summary", "no/s.json"]);
    assert_exit(&out, 2);
    assert!(stderr(&out).contains("--summary"), "{}", stderr(&out));
    assert!(!dir.file("f.csv").exists() && !dir.file("f.csv.partial").exists());

    let out = dir.run(&["solve", "-q", "x.txt", "-o", "run.csv"]);
    assert_exit(&out, 0);
    for plot in ["no/p.svg", "p.gif"] {
        let out = dir.run(&["report", "run.csv", "-o", "r.txt", "--plot", plot]);
        assert_exit(&out, 2);
        assert!(!dir.file("r.txt").exists(), "{plot}");
    }
}

#[cfg(unix)]
#[test]
fn a_killed_run_leaves_the_old_output_whole() {
    let dir = Workdir::new();
    big_input(&dir, "big.txt", 300);
    dir.create("results.csv", "yesterday's results\n");
    let child = spawn(
        &dir,
        &["solve", "-q", "-j", "1", "big.txt", "-o", "results.csv"],
        None,
    );
    wait_for_bytes(&dir.file("results.csv"), 300_000);
    signal(&child, "KILL");
    finish(child);
    assert_eq!(
        std::fs::read_to_string(dir.file("results.csv")).unwrap(),
        "yesterday's results\n"
    );
}

// ---- 3. damaged zstd keeps the good data ---------------------------------------------

#[test]
fn a_truncated_zstd_file_keeps_every_record_before_the_damage() {
    let dir = Workdir::new();
    let puzzles = generated();
    // Lines that differ (a number after the puzzle), so that the data does not
    // compress to almost nothing.
    let text: String = (0..60)
        .flat_map(|copy| {
            puzzles
                .iter()
                .enumerate()
                .map(move |(i, p)| format!("{p} {:08}\n", copy * 7919 + i * 104_729))
        })
        .collect();
    let packed = zstd::encode_all(text.as_bytes(), 3).unwrap();
    let cut = &packed[..packed.len() / 2];
    dir.create("half.txt.zst", cut);
    // What the reference decoder recovers from the same bytes, whole lines only.
    let mut decoded = Vec::new();
    let _ = zstd::stream::read::Decoder::new(cut)
        .unwrap()
        .read_to_end(&mut decoded);
    let whole = decoded.iter().filter(|&&b| b == b'\n').count();
    assert!(whole > 1000, "the cut leaves {whole} lines");

    let out = dir.run(&["solve", "-q", "half.txt.zst", "-o", "out.csv"]);
    assert_exit(&out, 2);
    let err = stderr(&out);
    assert!(
        err.contains(&format!("half.txt.zst:{}: corrupt zstd data", whole + 1)),
        "{err}"
    );
    assert!(!err.contains("Error {") && !err.contains("kind:"), "{err}");
    // A failed run never gives its rows the final name: they are kept in .partial.
    assert!(err.contains("out.csv is unchanged"), "{err}");
    assert!(!dir.file("out.csv").exists());
    let rows = Table::parse(&std::fs::read_to_string(dir.file("out.csv.partial")).unwrap());
    assert_eq!(rows.rows.len(), whole);
    assert_eq!(
        rows.column("line").last().copied(),
        Some(whole.to_string().as_str())
    );
}

// ---- 4. interrupted runs end on a whole row ------------------------------------------

#[cfg(unix)]
#[test]
fn sigint_during_verify_to_a_file_ends_on_a_whole_row() {
    let dir = Workdir::new();
    big_input(&dir, "big.txt", 300);
    let child = spawn(
        &dir,
        &["verify", "-q", "-j", "1", "big.txt", "-o", "f.csv"],
        None,
    );
    wait_for_bytes(&dir.file("f.csv"), 200_000);
    signal(&child, "INT");
    let (code, err, _) = finish(child);
    assert_eq!(code, Some(130), "{err}");
    assert!(
        !dir.file("f.csv").exists(),
        "an interrupted run's rows stay aside"
    );
    let text = std::fs::read(dir.file("f.csv.partial")).unwrap();
    assert_whole_csv(&text, 4);
    assert!(dir.file("f.csv.resume").exists());
}

#[cfg(unix)]
#[test]
fn sigterm_during_grid_output_ends_on_a_whole_picture() {
    let dir = Workdir::new();
    big_input(&dir, "big.txt", 300);
    let args = [
        "solve",
        "-q",
        "-j",
        "1",
        "--output-format",
        "grid",
        "big.txt",
        "-o",
        "g.txt",
    ];
    let child = spawn(&dir, &args, None);
    wait_for_bytes(&dir.file("g.txt"), 1_000_000);
    signal(&child, "TERM");
    let (code, err, _) = finish(child);
    assert_eq!(code, Some(143), "{err}");
    assert!(
        !dir.file("g.txt").exists(),
        "an interrupted run's rows stay aside"
    );
    let text = std::fs::read_to_string(dir.file("g.txt.partial")).unwrap();
    assert!(text.ends_with("+\n\n"), "{:?}", &text[text.len() - 80..]);
    // Every picture: a header line, 13 lines of boxed grids, a blank line.
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len() % 15, 0);
    for picture in lines.chunks(15) {
        assert!(picture[0].starts_with("big.txt:"), "{}", picture[0]);
        assert!(picture[13].starts_with('+') && picture[14].is_empty());
    }
}

#[cfg(unix)]
#[test]
fn sigint_while_writing_to_a_pipe_ends_on_a_whole_row() {
    let dir = Workdir::new();
    big_input(&dir, "big.txt", 300);
    let mut child = spawn(&dir, &["solve", "-q", "-j", "1", "big.txt"], None);
    let mut pipe = child.stdout.take().unwrap();
    let mut text = vec![0u8; 100_000];
    pipe.read_exact(&mut text).unwrap();
    signal(&child, "INT");
    pipe.read_to_end(&mut text).unwrap();
    let (code, err, _) = finish(child);
    assert_eq!(code, Some(130), "{err}");
    assert_whole_csv(&text, 10);
}

/// Records before the long one: exactly the first batch the run reads (the driver's
/// `BATCH_SIZE`), so that the long record opens the second.
#[cfg(unix)]
const BEFORE_LONG: usize = 256;

/// A CSV input, `name` in `dir`: generated puzzles 1 to [`BEFORE_LONG`], an empty
/// grid, then puzzles 257 to 556. Under a large `--limit` the empty grid's search
/// (counting its solutions) is the one long record. The quick records carry a 4 KiB
/// `note` that `--keep note` copies into their rows: the first batch's rows then come
/// to about a MiB, more than the CSV writer gathers before it hands rows to the file,
/// so rows reach the file while the first batch is drained, just before the second
/// (the long record) is read. Returns the input's line of the long record.
#[cfg(unix)]
fn a_long_record_among_quick_ones(dir: &Workdir, name: &str) -> usize {
    let puzzles = generated();
    let note = "n".repeat(4096);
    let mut text = String::from("puzzle,note\n");
    for p in &puzzles[..BEFORE_LONG] {
        text += &format!("{p},{note}\n");
    }
    text += &format!("{},long\n", ".".repeat(81));
    for p in &puzzles[BEFORE_LONG..556] {
        text += &format!("{p},{note}\n");
    }
    dir.create(name, text);
    BEFORE_LONG + 2
}

/// Wait up to `limit` for the child to exit; a child still running then is killed and
/// the test fails, rather than hanging on a run that would go on for years.
#[cfg(unix)]
fn wait_within(mut child: Child, limit: Duration, what: &str) -> (Option<i32>, String) {
    let start = Instant::now();
    loop {
        if child.try_wait().expect("wait").is_some() {
            let (code, err, _) = finish(child);
            return (code, err);
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what}: still running after {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Run `args` (solve with `-j 1`, writing `out`), send SIGTERM once the first rows
/// reach `out.partial`, and check that the run ends with 143 soon after, leaving whole
/// rows of the first records in order (none of the long record at input line `long`
/// or after). Returns the lines of the rows.
///
/// Not timed: on one thread the run reads, solves and drains a batch at a time, so
/// rows in the file mean that the first batch is drained and the second, which opens
/// with the long record, is read a moment later; the signal, sent after the rows were
/// seen, lands during the long search (or, at the very worst, just before the second
/// batch is read, and then the test proves less but cannot fail).
#[cfg(unix)]
fn terminate_during(dir: &Workdir, args: &[&str], out: &str, long: usize) -> Vec<usize> {
    let mut child = spawn(dir, args, None);
    let partial = dir.file(&format!("{out}.partial"));
    let start = Instant::now();
    while std::fs::metadata(&partial).map_or(0, |m| m.len()) == 0 {
        if start.elapsed() > Duration::from_secs(60) || child.try_wait().unwrap().is_some() {
            let _ = child.kill();
            let (code, err, _) = finish(child);
            panic!("no rows in {out}.partial within a minute ({code:?}): {err}");
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    signal(&child, "TERM");
    // Only "it did not hang": the search gives up at its next guess.
    let (code, err) = wait_within(child, Duration::from_secs(20), "after SIGTERM");
    assert_eq!(code, Some(143), "{err}");
    let text = std::fs::read(partial).unwrap();
    assert_whole_csv(&text, 11);
    let rows = Table::parse(std::str::from_utf8(&text).unwrap());
    let lines: Vec<usize> = rows
        .column("line")
        .iter()
        .map(|l| l.parse().unwrap())
        .collect();
    let first: Vec<usize> = (2..lines.len() + 2).collect();
    assert_eq!(lines, first, "the rows of the first records, in order");
    assert!(
        lines.len() + 2 <= long,
        "a row of the cut record or after it: {} rows",
        lines.len()
    );
    lines
}

/// The run the two SIGTERM tests cut: one thread, the quick records' notes kept (see
/// [`a_long_record_among_quick_ones`]), `limit` solutions counted at most, from
/// `in.csv` to `out.csv`.
#[cfg(unix)]
fn long_run_args(limit: &str) -> [&str; 11] {
    [
        "solve", "-q", "-j", "1", "--keep", "note", "--limit", limit, "in.csv", "-o", "out.csv",
    ]
}

#[cfg(unix)]
#[test]
fn sigterm_cuts_a_search_that_would_take_years() {
    let dir = Workdir::new();
    let long = a_long_record_among_quick_ones(&dir, "in.csv");
    // 10^15 solutions of the empty grid: years of counting, so the run ends only if
    // the signal cuts the search.
    let args = long_run_args("1000000000000000");
    let lines = terminate_during(&dir, &args, "out.csv", long);
    // The long record opens the second batch, and nothing before it is cut.
    assert_eq!(lines.len(), BEFORE_LONG);
}

#[cfg(unix)]
#[test]
fn a_record_cut_by_sigterm_is_solved_again_by_resume() {
    let dir = Workdir::new();
    let long = a_long_record_among_quick_ones(&dir, "in.csv");
    // 10^8 solutions of the empty grid: a few seconds of counting (0.7 s for 3 * 10^7
    // with the release build), the signal's margin; --resume then counts them all.
    let args = long_run_args("100000000");
    terminate_during(&dir, &args, "out.csv", long);
    let mut resumed = args.to_vec();
    resumed.push("--resume");
    assert_exit(&dir.run(&resumed), 0);
    let rows = Table::parse(&std::fs::read_to_string(dir.file("out.csv")).unwrap());
    let lines: Vec<String> = rows.column("line").iter().map(|l| l.to_string()).collect();
    let all: Vec<String> = (2..=558).map(|l| l.to_string()).collect();
    assert_eq!(lines, all, "every record once, in order");
    let row = &rows.rows[long - 2];
    assert_eq!(
        (
            row[rows.col("line")].as_str(),
            row[rows.col("status")].as_str(),
            row[rows.col("solutions")].as_str()
        ),
        (long.to_string().as_str(), "multiple", "100000000")
    );
}

// ---- 5. resume -------------------------------------------------------------------------

/// Interrupt `args` (writing `out`) with `how` once it wrote `bytes`, then resume it.
#[cfg(unix)]
pub(crate) fn interrupt_then_resume(
    dir: &Workdir,
    args: &[&str],
    out: &str,
    how: &str,
    bytes: u64,
) {
    let child = spawn(dir, args, None);
    wait_for_bytes(&dir.file(out), bytes);
    signal(&child, how);
    finish(child);
    let mut resumed = args.to_vec();
    resumed.push("--resume");
    let done = dir.run(&resumed);
    assert!(
        matches!(done.status.code(), Some(0 | 1)),
        "resume failed: {}",
        stderr(&done)
    );
    assert!(stderr(&done).contains("resumed") || args[0] == "verify");
    assert!(!dir.file(&format!("{out}.resume")).exists());
    assert!(!dir.file(&format!("{out}.partial")).exists());
}

#[cfg(unix)]
#[test]
fn an_interrupted_solve_resumes_to_the_rows_of_an_uninterrupted_run() {
    let dir = Workdir::new();
    big_input(&dir, "big.txt", 200);
    let whole = dir.run(&["solve", "-q", "big.txt", "-o", "whole.csv"]);
    assert_exit(&whole, 0);
    let want = untimed(&std::fs::read_to_string(dir.file("whole.csv")).unwrap());
    for how in ["INT", "KILL"] {
        let _ = std::fs::remove_file(dir.file("r.csv"));
        let args = ["solve", "-j", "1", "big.txt", "-o", "r.csv"];
        interrupt_then_resume(&dir, &args, "r.csv", how, 2_000_000);
        let got = untimed(&std::fs::read_to_string(dir.file("r.csv")).unwrap());
        assert_eq!(got.len(), want.len(), "{how}");
        assert!(got == want, "{how}: the rows differ");
    }
}

#[cfg(unix)]
#[test]
fn resume_drops_a_torn_tail() {
    let dir = Workdir::new();
    big_input(&dir, "big.txt", 100);
    let whole = dir.run(&["solve", "-q", "big.txt", "-o", "whole.csv"]);
    assert_exit(&whole, 0);
    let child = spawn(
        &dir,
        &["solve", "-q", "-j", "1", "big.txt", "-o", "t.csv"],
        None,
    );
    wait_for_bytes(&dir.file("t.csv"), 1_000_000);
    signal(&child, "TERM");
    finish(child);
    // Tear the last row, as a copy cut short would.
    assert!(
        !dir.file("t.csv").exists(),
        "an interrupted run's rows stay aside"
    );
    let text = std::fs::read(dir.file("t.csv.partial")).unwrap();
    std::fs::write(dir.file("t.csv.partial"), &text[..text.len() - 40]).unwrap();
    let out = dir.run(&["solve", "-q", "big.txt", "-o", "t.csv", "--resume"]);
    assert_exit(&out, 0);
    let want = untimed(&std::fs::read_to_string(dir.file("whole.csv")).unwrap());
    let got = untimed(&std::fs::read_to_string(dir.file("t.csv")).unwrap());
    assert!(got == want, "the rows differ");
}

#[cfg(unix)]
#[test]
fn an_interrupted_verify_resumes_to_the_findings_of_an_uninterrupted_run() {
    verify_resumes_to_the_findings_of_an_uninterrupted_run("csv");
}

/// `verify --isomorphs -o v.EXT`, interrupted (SIGINT) or killed, then resumed, writes
/// what one uninterrupted run writes.
#[cfg(unix)]
pub(crate) fn verify_resumes_to_the_findings_of_an_uninterrupted_run(ext: &str) {
    let dir = Workdir::new();
    big_input(&dir, "big.txt", 150);
    let (whole, out) = (format!("whole.{ext}"), format!("v.{ext}"));
    let args = ["verify", "-q", "--isomorphs", "big.txt", "-o", &whole];
    assert_exit(&dir.run(&args), 1);
    let want = std::fs::read_to_string(dir.file(&whole)).unwrap();
    for how in ["INT", "KILL"] {
        let args = [
            "verify",
            "-q",
            "-j",
            "1",
            "--isomorphs",
            "big.txt",
            "-o",
            &out,
        ];
        interrupt_then_resume(&dir, &args, &out, how, 1_000_000);
        let got = std::fs::read_to_string(dir.file(&out)).unwrap();
        assert!(got == want, "{how}: the findings differ");
    }
}

#[cfg(unix)]
#[test]
fn resume_refuses_other_options_other_inputs_and_no_output_file() {
    let dir = Workdir::new();
    big_input(&dir, "big.txt", 100);
    let child = spawn(
        &dir,
        &["solve", "-q", "-j", "1", "big.txt", "-o", "r.csv"],
        None,
    );
    wait_for_bytes(&dir.file("r.csv"), 500_000);
    signal(&child, "INT");
    finish(child);
    let before = std::fs::read(dir.file("r.csv.partial")).unwrap();
    let out = dir.run(&[
        "solve", "big.txt", "-o", "r.csv", "--resume", "--limit", "3",
    ]);
    assert_exit(&out, 2);
    assert!(stderr(&out).contains("--limit differs"), "{}", stderr(&out));
    big_input(&dir, "other.txt", 1);
    let out = dir.run(&["solve", "other.txt", "-o", "r.csv", "--resume"]);
    assert_exit(&out, 2);
    assert!(stderr(&out).contains("inputs differ"), "{}", stderr(&out));
    assert_eq!(std::fs::read(dir.file("r.csv.partial")).unwrap(), before);
    let out = dir.run(&["solve", "big.txt", "--resume"]);
    assert_exit(&out, 2);
    assert!(stderr(&out).contains("-o FILE"), "{}", stderr(&out));
}

// ---- 6. bounded resources ----------------------------------------------------------------

#[test]
fn an_absurd_thread_count_is_refused_at_once() {
    let dir = Workdir::new();
    dir.create("x.txt", format!("{}\n", generated()[0]));
    let start = Instant::now();
    let out = dir.run(&["solve", "x.txt", "-j", "100000"]);
    assert_exit(&out, 2);
    assert!(stderr(&out).contains("1024"), "{}", stderr(&out));
    assert!(start.elapsed() < Duration::from_secs(20));
}

/// Run `bulkdoku args` with its address space limited to `kib` KiB (`ulimit -v`): a
/// program that holds a whole huge record, or every solution of a batch, cannot run.
#[cfg(unix)]
fn run_within(dir: &Workdir, kib: u64, args: &[&str]) -> std::process::Output {
    let bin = crate::util::binary();
    let script = format!("ulimit -v {kib} && exec \"$0\" \"$@\"");
    Command::new("sh")
        .arg("-c")
        .arg(script)
        .arg(bin)
        .args(args)
        .current_dir(dir.path())
        .stdin(Stdio::null())
        .output()
        .expect("run bulkdoku under ulimit")
}

#[cfg(unix)]
#[test]
fn all_solutions_stream_in_flat_memory() {
    let dir = Workdir::new();
    dir.create("empty.txt", format!("{}\n", ".".repeat(81)));
    let args = [
        "solve",
        "-q",
        "-j",
        "2",
        "--all-solutions",
        "--limit",
        "2000000",
        "empty.txt",
        "-o",
        "all.csv",
    ];
    let out = run_within(&dir, 100_000, &args);
    assert_exit(&out, 0);
    let text = std::fs::read(dir.file("all.csv")).unwrap();
    let rows = text.iter().filter(|&&b| b == b'\n').count();
    assert_eq!(rows, 2_000_001);
}

/// Gzip `text` made by `write` into `name` in `dir` (huge inputs stay small on disk).
fn gzip_file(dir: &Workdir, name: &str, write: impl FnOnce(&mut dyn Write)) {
    let file = std::fs::File::create(dir.file(name)).unwrap();
    let mut gz = flate2::write::GzEncoder::new(file, flate2::Compression::fast());
    write(&mut gz);
    gz.finish().unwrap();
}

#[cfg(unix)]
#[test]
fn an_unclosed_csv_quote_is_an_error_at_its_line_in_bounded_memory() {
    let dir = Workdir::new();
    let p = &generated()[0];
    gzip_file(&dir, "quote.csv.gz", |w| {
        write!(w, "id,quizzes\n1,{p}\n2,\"{p}\n").unwrap();
        for i in 0..2_000_000 {
            writeln!(w, "{},{p}", i + 3).unwrap();
        }
    });
    let out = run_within(
        &dir,
        100_000,
        &["solve", "-q", "quote.csv.gz", "-o", "q.csv"],
    );
    assert_exit(&out, 2);
    let err = stderr(&out);
    assert!(err.contains("quote.csv.gz:3: broken CSV"), "{err}");
    assert!(err.contains("quote"), "{err}");
    // A failed run keeps its rows aside, the final name untouched.
    assert!(!dir.file("q.csv").exists());
    let rows = Table::parse(&std::fs::read_to_string(dir.file("q.csv.partial")).unwrap());
    assert_eq!(rows.column("line"), ["2"]);
}

#[cfg(unix)]
#[test]
fn a_huge_board_literal_is_one_invalid_row_in_bounded_memory() {
    let dir = Workdir::new();
    let p = &generated()[0];
    let row = format!("[{}],", ["\"1\""; 9].join(","));
    gzip_file(&dir, "board.txt.gz", |w| {
        w.write_all(b"[").unwrap();
        for _ in 0..5_000_000 {
            w.write_all(row.as_bytes()).unwrap();
        }
        w.write_all(b"[\"1\"]]\n").unwrap();
        let cells: Vec<String> = p.chars().map(|c| format!("\"{c}\"")).collect();
        let rows: Vec<String> = cells
            .chunks(9)
            .map(|r| format!("[{}]", r.join(",")))
            .collect();
        writeln!(w, "[{}]", rows.join(",")).unwrap();
    });
    let args = [
        "solve",
        "-q",
        "--format",
        "board",
        "board.txt.gz",
        "-o",
        "b.csv",
    ];
    let out = run_within(&dir, 100_000, &args);
    assert_exit(&out, 0);
    let t = Table::parse(&std::fs::read_to_string(dir.file("b.csv")).unwrap());
    assert_eq!(t.column("status"), ["invalid", "unique"]);
    assert!(t.column("error")[0].contains("longer than 65536 bytes"));
    assert!(t.column("puzzle")[0].len() <= 65536);
}

// ---- 7. a closed stderr ------------------------------------------------------------------

#[test]
fn a_closed_stderr_is_no_panic() {
    let dir = Workdir::new();
    big_input(&dir, "x.txt", 1);
    for args in [
        vec!["solve", "x.txt", "-o", "out.csv"],
        vec!["verify", "x.txt", "-o", "v.csv"],
        vec!["solve", "missing.txt"],
    ] {
        let mut child = dir
            .command(&args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stderr.take()); // the reader of stderr is gone
        let status = child.wait().unwrap();
        let want = if args[1] == "missing.txt" { 2 } else { 0 };
        assert_eq!(status.code(), Some(want), "{args:?}");
    }
    let t = Table::parse(&std::fs::read_to_string(dir.file("out.csv")).unwrap());
    assert_eq!(t.rows.len(), 1000);
}

// ---- 8. classic Mac line ends -----------------------------------------------------------

#[test]
fn lone_cr_line_ends_are_line_ends() {
    let dir = Workdir::new();
    let p = generated();
    dir.create("mac.txt", format!("{}\r{}\r{}\r", p[0], p[1], p[2]));
    let out = dir.run(&["solve", "-q", "mac.txt"]);
    assert_exit(&out, 0);
    let t = Table::parse(&stdout(&out));
    assert_eq!(t.column("line"), ["1", "2", "3"]);
    assert_eq!(t.column("status"), ["unique"; 3]);
    let out = dir.run(&["verify", "mac.txt", "--all"]);
    assert_exit(&out, 0);
    assert!(
        stderr(&out).contains("verified 3 puzzles"),
        "{}",
        stderr(&out)
    );
}

// ---- 9. papercuts of the same family -----------------------------------------------------

#[test]
fn column_on_input_that_is_not_csv_is_an_error() {
    let dir = Workdir::new();
    dir.create("x.txt", format!("{}\n", generated()[0]));
    for cmd in ["solve", "verify"] {
        let out = dir.run(&[cmd, "x.txt", "--column", "puzzle"]);
        assert_exit(&out, 2);
        assert!(stderr(&out).contains("--column"), "{}", stderr(&out));
    }
}

#[test]
fn report_dash_is_standard_output_all_solution_rows_count_once_empty_runs_say_so() {
    let dir = Workdir::new();
    dir.create(
        "multi.txt",
        format!("{}\n{}\n", ".".repeat(81), generated()[0]),
    );
    let out = dir.run(&[
        "solve",
        "-q",
        "--all-solutions",
        "--limit",
        "5",
        "multi.txt",
        "-o",
        "run.csv",
    ]);
    assert_exit(&out, 0);
    let out = dir.run(&["report", "run.csv", "-o", "-", "--format", "json"]);
    assert_exit(&out, 0);
    assert!(!dir.file("-").exists());
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(json["puzzles"], 2);

    dir.create(
        "empty.csv",
        "file,line,puzzle,status,solutions,clues,guesses,time_ns,solution,error\n",
    );
    let out = dir.run(&["report", "empty.csv"]);
    assert_exit(&out, 0);
    assert!(stdout(&out).contains("no puzzles"), "{}", stdout(&out));
    assert!(!stdout(&out).contains(" ns"), "{}", stdout(&out));
}

#[test]
fn grid_output_escapes_control_characters() {
    let dir = Workdir::new();
    dir.create("bad.txt", "12\u{1b}[2J34\u{7}\n");
    let out = dir.run(&["solve", "-q", "--output-format", "grid", "bad.txt"]);
    assert_exit(&out, 0);
    let text = stdout(&out);
    assert!(
        !text.contains('\u{1b}') && !text.contains('\u{7}'),
        "{text:?}"
    );
    assert!(text.contains("\\u{1b}[2J34\\u{7}"), "{text}");
}
