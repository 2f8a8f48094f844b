//! `bulkdoku completions` and `bulkdoku man`: each shell's script is produced and, where
//! the shell is installed, is valid for it (bash: sourced, it completes `so` to
//! `solve`); the man pages render with groff without warnings and name every
//! subcommand that `--help` lists.
//!
//! A shell or groff that is missing skips its check with a message on standard error;
//! CI installs them and sets `BULKDOKU_REQUIRE_DOC_TOOLS=1`, which turns a skip into a
//! failure.

use std::process::{Command, Stdio};

use crate::util::*;

/// The subcommands `bulkdoku --help` lists (without clap's `help`).
fn subcommands(dir: &Workdir) -> Vec<String> {
    let help = dir.run(&["--help"]);
    assert_exit(&help, 0);
    let text = stdout(&help);
    let list = text
        .split("Commands:\n")
        .nth(1)
        .expect("a Commands section in --help");
    let names: Vec<String> = list
        .lines()
        .take_while(|line| line.starts_with("  "))
        // A name is indented by two spaces; a wrapped description, by more.
        .filter(|line| !line.starts_with("   "))
        .filter_map(|line| line.split_whitespace().next())
        .filter(|&name| name != "help")
        .map(String::from)
        .collect();
    assert!(names.len() >= 5, "too few subcommands in --help: {names:?}");
    names
}

/// True when `tool` can be run; otherwise false, after saying so (or failing, when CI
/// asks for every tool).
fn have(tool: &str) -> bool {
    let found = Command::new(tool)
        .arg("--version")
        .stdin(Stdio::null())
        .output()
        .is_ok_and(|out| out.status.success());
    if !found {
        assert!(
            std::env::var_os("BULKDOKU_REQUIRE_DOC_TOOLS").is_none(),
            "{tool} is not installed, and BULKDOKU_REQUIRE_DOC_TOOLS asks for it"
        );
        eprintln!("skipped: {tool} is not installed");
    }
    found
}

/// `bulkdoku completions SHELL`'s script.
fn script(dir: &Workdir, shell: &str) -> String {
    let out = dir.run(&["completions", shell]);
    assert_exit(&out, 0);
    stdout(&out)
}

#[test]
fn every_shell_gets_a_script_that_knows_every_subcommand_and_codec() {
    let dir = Workdir::new();
    let names = subcommands(&dir);
    // What each shell's script registers itself with.
    for (shell, registers) in [
        ("bash", "complete -F _bulkdoku"),
        ("zsh", "#compdef bulkdoku"),
        ("fish", "complete -c bulkdoku"),
        ("powershell", "Register-ArgumentCompleter"),
        ("elvish", "edit:completion:arg-completer[bulkdoku]"),
    ] {
        let text = script(&dir, shell);
        assert!(text.contains(registers), "{shell}: no `{registers}`");
        for name in &names {
            assert!(text.contains(name.as_str()), "{shell}: no `{name}`");
        }
        for word in ["--compression", "lz4", "snappy"] {
            assert!(text.contains(word), "{shell}: no `{word}`");
        }
    }
    let out = dir.run(&["completions", "tcsh"]);
    assert_exit(&out, 2);
    assert!(stderr(&out).contains("tcsh"), "{}", stderr(&out));
}

/// What bash completes `words` (the last one being typed) to, with the script sourced.
fn bash_complete(dir: &Workdir, words: &[&str]) -> Vec<String> {
    let path = dir.create("bulkdoku.bash", script(dir, "bash"));
    // The words go in as positional parameters, so nothing needs quoting.
    let program = r#"
        source "$1"; shift
        COMP_WORDS=("$@")
        COMP_CWORD=$(( $# - 1 ))
        COMP_LINE="$*"
        COMP_POINT=${#COMP_LINE}
        prev=""; [ $# -gt 1 ] && prev=${COMP_WORDS[COMP_CWORD-1]}
        _bulkdoku bulkdoku "${COMP_WORDS[COMP_CWORD]}" "$prev"
        printf '%s\n' "${COMPREPLY[@]}"
    "#;
    let out = Command::new("bash")
        .args(["--norc", "--noprofile", "-c", program, "bash"])
        .arg(&path)
        .args(words)
        .stdin(Stdio::null())
        .output()
        .expect("run bash");
    assert!(
        out.status.success() && out.stderr.is_empty(),
        "bash: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout(&out).lines().map(String::from).collect()
}

#[test]
fn bash_completes_subcommands_flags_and_codecs() {
    if !have("bash") {
        return;
    }
    let dir = Workdir::new();
    let out = Command::new("bash")
        .args(["-n", "-c", &script(&dir, "bash")])
        .output()
        .expect("run bash -n");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(bash_complete(&dir, &["bulkdoku", "so"]), ["solve"]);
    assert_eq!(bash_complete(&dir, &["bulkdoku", "ver"]), ["verify"]);
    assert_eq!(
        bash_complete(&dir, &["bulkdoku", "solve", "--compr"]),
        ["--compression"]
    );
    assert_eq!(
        bash_complete(&dir, &["bulkdoku", "solve", "--compression", ""]),
        ["zstd", "lz4", "snappy", "none"]
    );
}

/// `zsh -n` and `fish -n` (parse only) accept their scripts, where installed.
#[test]
fn zsh_and_fish_scripts_parse() {
    let dir = Workdir::new();
    for shell in ["zsh", "fish"] {
        if !have(shell) {
            continue;
        }
        let path = dir.create(&format!("bulkdoku.{shell}"), script(&dir, shell));
        let out = Command::new(shell)
            .arg("-n")
            .arg(&path)
            .stdin(Stdio::null())
            .output()
            .expect("run the shell");
        assert!(
            out.status.success() && out.stderr.is_empty(),
            "{shell} -n: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// `page` rendered by groff as text, asserting that groff warned of nothing.
fn groff(page: &[u8]) -> String {
    use std::io::Write;
    let mut child = Command::new("groff")
        .args(["-man", "-Tutf8", "-ww"])
        .env("LC_ALL", "C.UTF-8")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run groff");
    child.stdin.take().unwrap().write_all(page).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success() && out.stderr.is_empty(),
        "groff: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Bold and underline are overstrikes (`s\bs`): keep the letters.
    let text = String::from_utf8(out.stdout).unwrap();
    let mut plain = String::with_capacity(text.len());
    for c in text.chars() {
        if c == '\u{8}' {
            plain.pop();
        } else {
            plain.push(c);
        }
    }
    plain
}

#[test]
fn the_man_pages_render_without_warnings_and_name_every_subcommand() {
    if !have("groff") {
        return;
    }
    let dir = Workdir::new();
    let names = subcommands(&dir);
    let top = dir.run(&["man"]);
    assert_exit(&top, 0);
    let text = groff(&top.stdout);
    assert!(text.contains("SYNOPSIS"), "{text}");
    for name in &names {
        assert!(
            text.contains(&format!("bulkdoku-{name}(1)")),
            "no {name}:\n{text}"
        );
        let page = dir.run(&["man", name]);
        assert_exit(&page, 0);
        let text = groff(&page.stdout);
        assert!(
            text.contains(&format!("bulkdoku-{name}")) && text.contains("SYNOPSIS"),
            "{name}:\n{text}"
        );
    }
    // The page of `solve` has its flags, and the help's `×` survives as a character.
    let solve = groff(&dir.run(&["man", "solve"]).stdout);
    assert!(
        solve.contains("--compression") && solve.contains("9×9"),
        "{solve}"
    );

    // --dir writes the same pages as files.
    let out = dir.run(&["man", "--dir", "man1"]);
    assert_exit(&out, 0);
    let mut files: Vec<String> = std::fs::read_dir(dir.file("man1"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    files.sort();
    let mut want: Vec<String> = names.iter().map(|n| format!("bulkdoku-{n}.1")).collect();
    want.push("bulkdoku.1".into());
    want.sort();
    assert_eq!(files, want);
    assert_eq!(
        std::fs::read(dir.file("man1/bulkdoku.1")).unwrap(),
        top.stdout
    );

    let out = dir.run(&["man", "nonesuch"]);
    assert_exit(&out, 2);
    assert!(
        stderr(&out).contains("no subcommand `nonesuch`"),
        "{}",
        stderr(&out)
    );
}
