//! The command line every subcommand shares, through the real binary: one error format
//! (`pnacl SUBCOMMAND: FILE: message`, `Error(B:b)` for bitcode, `FILE:LINE:COL` and a caret
//! for text), `--json` and `--color`, the exit statuses, `run`'s arguments after FILE, and
//! the examples that end every `--help`.

use pnacl_testutil::{corpus_dir, pnacl_command};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Output;

fn example(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples").join(name)
}

fn pnacl(args: &[OsString]) -> Output {
    pnacl_command().args(args).output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Every subcommand that reads a file: its arguments with `IN` for the input.
const READERS: [&[&str]; 12] = [
    &["analyze", "IN"],
    &["asm", "IN", "-o", "out"],
    &["check", "IN"],
    &["compile", "IN", "-o", "out"],
    &["compress", "IN", "-o", "out"],
    &["dis", "IN"],
    &["finalize", "IN", "-o", "out"],
    &["freeze", "IN", "-o", "out"],
    &["rewrite", "IN", "-o", "out"],
    &["run", "IN"],
    &["simplify", "IN", "-o", "out"],
    &["thaw", "IN", "-o", "out"],
];

fn with_input(args: &[&str], input: &Path, dir: &Path) -> Vec<OsString> {
    args.iter()
        .map(|&a| match a {
            "IN" => input.as_os_str().to_owned(),
            "out" => dir.join("out").into_os_string(),
            a => a.into(),
        })
        .collect()
}

/// `run` ends with the guest's status when it runs, so its own failures are 125.
fn bad_input_status(subcommand: &str) -> i32 {
    if subcommand == "run" { 125 } else { 1 }
}

#[test]
fn a_missing_input_is_reported_alike_by_every_subcommand() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.file");
    for args in READERS {
        let o = pnacl(&with_input(args, &missing, dir.path()));
        assert_eq!(o.status.code(), Some(bad_input_status(args[0])), "{args:?}");
        assert_eq!(
            text(&o.stderr),
            format!("pnacl {}: {}: No such file or directory (os error 2)\n", args[0], missing.display()),
            "{args:?}"
        );
        assert!(o.stdout.is_empty(), "{args:?}");
        // --json: the same, as one JSON object on one line.
        let mut json = vec![OsString::from("--json")];
        json.extend(with_input(args, &missing, dir.path()));
        let o = pnacl(&json);
        assert_eq!(o.status.code(), Some(bad_input_status(args[0])), "{args:?}");
        if args[0] == "check" {
            // `check --json` reports on standard output, unreadable files included.
            let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
            assert_eq!((&v[0]["unreadable"], &v[0]["file"]), (&true.into(), &missing.display().to_string().into()));
            assert!(o.stderr.is_empty());
            continue;
        }
        let stderr = text(&o.stderr);
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        let v: serde_json::Value = serde_json::from_str(&stderr).unwrap();
        assert_eq!(v["command"], args[0]);
        assert_eq!(v["severity"], "error");
        assert_eq!(v["file"], missing.display().to_string());
        assert_eq!(v["message"], "No such file or directory (os error 2)");
    }
}

/// A pexe cut short: every subcommand reading bitcode names the bit position.
#[test]
fn bitcode_errors_name_the_bit_position() {
    let dir = tempfile::tempdir().unwrap();
    let pexe = dir.path().join("f.pexe");
    let o = pnacl(&["asm".into(), example("factorial.pnaclasm").into(), "-o".into(), pexe.clone().into()]);
    assert!(o.status.success());
    let bytes = std::fs::read(&pexe).unwrap();
    let cut = dir.path().join("cut.pexe");
    std::fs::write(&cut, &bytes[..bytes.len() - 12]).unwrap();
    for args in
        READERS.iter().filter(|a| ["analyze", "check", "compile", "compress", "rewrite", "run", "thaw"].contains(&a[0]))
    {
        let o = pnacl(&with_input(args, &cut, dir.path()));
        assert_eq!(o.status.code(), Some(bad_input_status(args[0])), "{args:?}");
        let stderr = text(&o.stderr);
        let prefix = format!("pnacl {}: {}: Error(", args[0], cut.display());
        assert!(stderr.starts_with(&prefix), "{args:?}: {stderr}");
        let mut json = vec![OsString::from("--json")];
        json.extend(with_input(args, &cut, dir.path()));
        let o = pnacl(&json);
        let v: serde_json::Value = match args[0] {
            "check" => serde_json::from_slice::<serde_json::Value>(&o.stdout).unwrap()[0].clone(),
            _ => serde_json::from_slice(&o.stderr).unwrap(),
        };
        let position = v["position"].as_str().unwrap_or_default();
        assert!(stderr.starts_with(&format!("{prefix}{position}): ")), "{args:?}: {v} / {stderr}");
        assert_eq!(v["bit"].as_u64().map(|b| format!("{}:{}", b / 8, b % 8)).as_deref(), Some(position));
    }
}

/// PNaClAsm that does not assemble: the line, its column and a caret, for `asm`, and for
/// `run` and `compile`, which assemble text too.
#[test]
fn text_errors_point_at_the_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("bad.pnaclasm");
    let source = "module {\n  version 1;\n  types {\n    count 1;\n    @t0 = i33;\n  }\n}\n";
    std::fs::write(&src, source).unwrap();
    let col = source.lines().nth(4).unwrap().find("i33").unwrap() + 1;
    for args in [&["asm", "IN", "-o", "out"][..], &["run", "IN"], &["compile", "IN", "-o", "out"]] {
        let o = pnacl(&with_input(args, &src, dir.path()));
        assert_eq!(o.status.code(), Some(bad_input_status(args[0])), "{args:?}");
        let stderr = text(&o.stderr);
        let lines: Vec<&str> = stderr.lines().collect();
        assert!(lines[0].starts_with(&format!("pnacl {}: {}:5:{col}: ", args[0], src.display())), "{stderr}");
        assert_eq!(lines[1], "    @t0 = i33;");
        assert_eq!(lines[2], format!("{}^", " ".repeat(col - 1)));
        assert_eq!(lines.len(), 3, "{stderr}");
    }
    let o = pnacl(&["--json".into(), "asm".into(), src.clone().into(), "-o".into(), dir.path().join("x").into()]);
    let v: serde_json::Value = serde_json::from_slice(&o.stderr).unwrap();
    assert_eq!((v["line"].as_u64(), v["column"].as_u64()), (Some(5), Some(col as u64)));
    assert_eq!(v["source"], "    @t0 = i33;");
    // --color: the location in bold and the caret in green, only when asked (or on a
    // terminal); never with --color never.
    let colored = |choice: &str| {
        let o = pnacl(&["--color".into(), choice.into(), "asm".into(), src.clone().into(), "-o".into(), "x".into()]);
        text(&o.stderr)
    };
    let always = colored("always");
    assert!(always.starts_with("\x1b[1mpnacl asm: ") && always.contains("\x1b[1;32m^\x1b[0m"), "{always:?}");
    for plain in [colored("never"), colored("auto")] {
        assert!(!plain.contains('\x1b'), "{plain:?}");
    }
}

#[test]
fn asm_given_bitcode_suggests_dis() {
    let dir = tempfile::tempdir().unwrap();
    let pexe = corpus_dir().join("tiny/start.pexe");
    let o = pnacl(&["asm".into(), pexe.clone().into(), "-o".into(), dir.path().join("x.pexe").into()]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(text(&o.stderr), format!("pnacl asm: {}: this is bitcode; did you mean `pnacl dis`?\n", pexe.display()));
}

/// The exit statuses `pnacl --help` documents, each produced for real.
#[test]
fn exit_statuses_are_distinct_and_documented() {
    let dir = tempfile::tempdir().unwrap();
    let help = text(&pnacl(&["--help".into()]).stdout);
    let section = help.split("Exit statuses:").nth(1).expect("an exit status section in --help");
    for status in ["0", "1", "2", "3", "4", "141", "125", "126", "134"] {
        assert!(section.lines().any(|l| l.split_whitespace().any(|w| w == status)), "{status} undocumented:\n{help}");
    }
    let status = |args: &[&str]| pnacl_command().args(args).current_dir(corpus_dir()).output().unwrap().status.code();
    // Usage errors.
    assert_eq!(status(&["dis"]), Some(2));
    assert_eq!(status(&["no-such-subcommand"]), Some(2));
    assert_eq!(status(&["run", "--max-memory", "2T", "cli/fact.pexe"]), Some(2));
    // Bad input.
    assert_eq!(status(&["dis", "no-such.pexe"]), Some(1));
    // Check violations: `check`, and `compile`, which refuses such a pexe.
    let bad = dir.path().join("bad.pexe");
    let src = dir.path().join("bad.pnaclasm");
    let factorial = std::fs::read_to_string(example("factorial.pnaclasm")).unwrap();
    let broken = factorial.replace("load i32* %v0, align 1", "load i32* %v0, align 8");
    assert_ne!(broken, factorial);
    std::fs::write(&src, broken).unwrap();
    assert_eq!(status(&["asm", src.to_str().unwrap(), "-o", bad.to_str().unwrap()]), Some(0));
    assert_eq!(status(&["check", bad.to_str().unwrap()]), Some(3));
    assert_eq!(status(&["compile", bad.to_str().unwrap(), "-o", dir.path().join("x").to_str().unwrap()]), Some(3));
    // run: the guest's own status, a trap, a browser pexe, a pexe that cannot be loaded.
    assert_eq!(status(&["run", "cli/fact.pexe", "a", "b", "c"]), Some(24));
    assert_eq!(status(&["run", example("divide.pnaclasm").to_str().unwrap()]), Some(134));
    assert_eq!(status(&["run", "ppapi/hello_tutorial.pexe"]), Some(126));
    assert_eq!(status(&["run", bad.to_str().unwrap()]), Some(125));
}

/// Everything after FILE goes to the guest, options included; a `--` right after FILE is
/// dropped; pnacl's own options come before FILE.
#[test]
fn run_passes_everything_after_file_to_the_guest() {
    let run = |args: &[&str]| pnacl_command().arg("run").args(args).current_dir(corpus_dir()).output().unwrap();
    let argv = |o: &Output| text(&o.stdout);
    let o = run(&["cli/printf.pexe", "--stats", "-x", "--", "y"]);
    assert_eq!(argv(&o), "arg0 = cli/printf.pexe\narg1 = --stats\narg2 = -x\narg3 = --\narg4 = y\n");
    assert!(o.stderr.is_empty(), "--stats went to the guest: {}", text(&o.stderr));
    let o = run(&["cli/printf.pexe", "--", "--stats", "y"]);
    assert_eq!(argv(&o), "arg0 = cli/printf.pexe\narg1 = --stats\narg2 = y\n");
    let o = run(&["cli/printf.pexe", "--", "--", "y"]);
    assert_eq!(argv(&o), "arg0 = cli/printf.pexe\narg1 = --\narg2 = y\n");
    let o = run(&["--stats", "cli/printf.pexe", "y"]);
    assert_eq!(argv(&o), "arg0 = cli/printf.pexe\narg1 = y\n");
    assert!(text(&o.stderr).contains("pnacl: stats: "), "{}", text(&o.stderr));
    // argc is what the guest sees: fact exits with argc!.
    assert_eq!(run(&["cli/fact.pexe", "a", "b", "c"]).status.code(), Some(24));
    assert_eq!(run(&["cli/fact.pexe", "--", "a", "b", "c"]).status.code(), Some(24));
}

/// Every subcommand's `--help` ends with examples of its use.
#[test]
fn every_help_ends_with_examples() {
    let help = text(&pnacl(&["help".into()]).stdout);
    let commands: Vec<&str> = help
        .split("Commands:")
        .nth(1)
        .unwrap()
        .lines()
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|&c| c != "help")
        .collect();
    assert!(commands.len() >= 12, "{commands:?}");
    for c in commands {
        let help = text(&pnacl(&[c.into(), "--help".into()]).stdout);
        let examples = help.rsplit("\n\n").next().unwrap();
        let mut lines = examples.lines();
        assert_eq!(lines.next(), Some("Examples:"), "`pnacl {c} --help` does not end with examples:\n{help}");
        let lines: Vec<&str> = lines.collect();
        assert!(
            !lines.is_empty() && lines.iter().all(|l| l.starts_with("  ") && l.contains("pnacl ")),
            "{c}: {examples}"
        );
        assert!(lines.iter().any(|l| l.contains(&format!("pnacl {c} "))), "{c}: {examples}");
    }
}
