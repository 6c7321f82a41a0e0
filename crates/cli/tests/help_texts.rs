//! The help texts and the README say what is true: every `pnacl SUBCOMMAND --option` they
//! name exists, each subcommand's `--json` help is its own, and `run` names the files it
//! cannot run (C source, ELF, LLVM bitcode and IR) with the command that takes them.

use pnacl_testutil::{pnacl_command, workspace_root};
use std::collections::BTreeMap;

fn stdout_of(args: &[&str]) -> String {
    let o = pnacl_command().args(args).output().expect("run pnacl");
    assert!(o.status.success(), "pnacl {args:?}: {}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).expect("UTF-8 help")
}

/// The subcommands `pnacl --help` lists (without `help`).
fn subcommands() -> Vec<String> {
    let help = stdout_of(&["--help"]);
    let list: Vec<String> = help
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .filter(|c| c != "help")
        .collect();
    assert!(list.len() >= 14, "too few subcommands in pnacl --help: {list:?}");
    list
}

/// Each subcommand's `--help`.
fn helps() -> BTreeMap<String, String> {
    subcommands().into_iter().map(|c| (c.clone(), stdout_of(&[&c, "--help"]))).collect()
}

/// The description of option `--name` in a `--help` text: the lines after it, up to the next
/// option.
fn option_help(help: &str, name: &str) -> Option<String> {
    let mut lines = help.lines().skip_while(|l| !l.trim_start().starts_with(name) && !l.contains(&format!(", {name}")));
    lines.next()?;
    Some(lines.take_while(|l| !l.trim_start().starts_with('-')).collect::<Vec<_>>().join(" "))
}

/// `run`'s options that take a value (the word after them is not FILE).
const RUN_VALUE_OPTIONS: &[&str] = &["--env", "--dir", "--max-memory"];

/// The `--options` named after `pnacl SUB` in `text` (up to the end of the command: a
/// backtick, a pipe, `&&`, `;` or the end of the line), by subcommand.
fn named_options(text: &str, known: &[String]) -> Vec<(String, String, String)> {
    let mut found = Vec::new();
    for line in text.lines() {
        let mut rest = line;
        while let Some(at) = rest.find("pnacl ") {
            // `pnacl-finalize` and the like are other tools.
            let before_ok =
                at == 0 || !rest.as_bytes()[at - 1].is_ascii_alphanumeric() && rest.as_bytes()[at - 1] != b'-';
            rest = &rest[at + "pnacl ".len()..];
            if !before_ok {
                continue;
            }
            let end = rest.find(['`', '|', ';', ')']).unwrap_or(rest.len()).min(rest.find("&&").unwrap_or(rest.len()));
            let mut words = rest[..end].split_whitespace();
            let Some(sub) = words.next().filter(|w| known.iter().any(|k| k == w)) else { continue };
            let mut value_next = false;
            for w in words {
                // `run`'s options end at FILE: what follows goes to the guest.
                if sub == "run" && !w.starts_with('-') && !std::mem::take(&mut value_next) {
                    break;
                }
                value_next = RUN_VALUE_OPTIONS.contains(&w);
                if let Some(opt) =
                    w.strip_prefix("--").filter(|o| !o.is_empty() && o.as_bytes()[0].is_ascii_alphabetic())
                {
                    let opt = opt.split('=').next().unwrap_or(opt).trim_end_matches([',', '.', ':']);
                    found.push((sub.to_string(), format!("--{opt}"), line.trim().to_string()));
                }
            }
        }
    }
    found
}

#[test]
fn every_option_a_help_text_or_the_readme_names_exists() {
    let helps = helps();
    let known: Vec<String> = helps.keys().cloned().collect();
    let readme = std::fs::read_to_string(workspace_root().join("README.md")).expect("README.md");
    let mut sources: Vec<(String, String)> =
        helps.iter().map(|(c, h)| (format!("pnacl {c} --help"), h.clone())).collect();
    sources.push(("pnacl --help".into(), stdout_of(&["--help"])));
    sources.push(("README.md".into(), readme));
    let mut missing = Vec::new();
    let mut checked = 0;
    for (source, text) in &sources {
        for (sub, opt, line) in named_options(text, &known) {
            checked += 1;
            let has = helps[&sub].lines().any(|l| {
                let l = l.trim_start();
                l.starts_with(&opt) && !l[opt.len()..].starts_with(|c: char| c.is_ascii_alphanumeric() || c == '-')
                    || l.contains(&format!(", {opt}"))
                    || l.contains(&format!("[aliases: {}", &opt[2..]))
            });
            if !has {
                missing.push(format!("{source}: `pnacl {sub} {opt}` does not exist: {line}"));
            }
        }
    }
    assert!(checked > 30, "only {checked} options found: the scan is broken");
    for o in RUN_VALUE_OPTIONS {
        let takes_value = helps["run"].lines().any(|l| l.trim_start().starts_with(&format!("{o} <")));
        assert!(takes_value, "pnacl run {o} takes no value: fix RUN_VALUE_OPTIONS");
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

#[test]
fn each_subcommand_says_what_json_does_for_it() {
    let helps = helps();
    let mut texts = BTreeMap::new();
    for (sub, help) in &helps {
        let text = option_help(help, "--json").unwrap_or_else(|| panic!("pnacl {sub} --help has no --json"));
        assert!(text.contains("JSON"), "pnacl {sub}: --json help: {text}");
        texts.insert(sub.clone(), text);
    }
    // Only check writes a report; the others speak of their own output.
    for (sub, text) in &texts {
        if sub != "check" {
            assert!(
                !text.contains("check") && !text.contains("report"),
                "pnacl {sub}: --json help speaks of check: {text}"
            );
        }
    }
    assert!(texts["check"].contains("standard output"), "{}", texts["check"]);
    for (sub, what) in [("dis", "listing"), ("run", "guest"), ("cc", "clang"), ("asm", "column")] {
        assert!(
            texts[sub].contains(what),
            "pnacl {sub}: --json help does not say what happens to the {what}: {}",
            texts[sub]
        );
    }
}

#[test]
fn run_names_files_it_cannot_run() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let c = dir.path().join("hello.c");
    std::fs::write(&c, "#include <stdio.h>\nint main(void) { puts(\"hi\"); return 0; }\n").unwrap();
    let header_only = dir.path().join("prog");
    std::fs::write(&header_only, "#include <stdio.h>\nint main(void) { return 0; }\n").unwrap();
    let bc = dir.path().join("prog.bc");
    std::fs::write(&bc, b"BC\xc0\xde\x35\x14\x00\x00").unwrap();
    let ll = dir.path().join("prog.ll");
    std::fs::write(&ll, "target triple = \"le32-unknown-nacl\"\ndefine i32 @main() {\n  ret i32 0\n}\n").unwrap();
    let elf = std::env::current_exe().expect("the test executable, an ELF file");
    let cases = [
        (c.as_path(), "this is C source", "`pnacl cc "),
        (header_only.as_path(), "this is C source", "`pnacl cc "),
        (bc.as_path(), "this is LLVM bitcode", "`pnacl simplify "),
        (ll.as_path(), "this is LLVM IR text", "`pnacl simplify`"),
        (elf.as_path(), "this is a native ELF file", "`pnacl cc`"),
    ];
    for (file, what, remedy) in cases {
        for sub in ["run", "compile"] {
            let mut cmd = pnacl_command();
            cmd.arg(sub).arg(file);
            if sub == "compile" {
                cmd.arg("-o").arg(dir.path().join("out.pnaclo"));
            }
            let o = cmd.output().expect("run pnacl");
            let err = String::from_utf8_lossy(&o.stderr);
            let status = if sub == "run" { 125 } else { 1 };
            assert_eq!(o.status.code(), Some(status), "pnacl {sub} {}: {err}", file.display());
            assert!(err.contains(what) && err.contains(remedy), "pnacl {sub} {}: {err}", file.display());
            assert!(!err.contains(":1:"), "pnacl {sub} {}: an assembler error: {err}", file.display());
        }
    }
}

/// The packages of the README's `apt-get install` line.
fn readme_packages() -> Vec<String> {
    let readme = std::fs::read_to_string(workspace_root().join("README.md")).expect("README.md");
    let at = readme.find("apt-get install clang-14").expect("the README's apt-get install line");
    let line = readme[at..].split("```").next().unwrap_or("");
    line.split_whitespace().skip(2).filter(|w| *w != "\\").map(str::to_string).collect()
}

/// Every `.rs` file under `dir`.
fn rust_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The string literal arguments after `call` in `text` (`call("a", "b")` gives a, b),
/// each time it is called with literals only.
fn literal_arguments<'t>(text: &'t str, call: &str) -> Vec<Vec<&'t str>> {
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find(call) {
        rest = &rest[at + call.len()..];
        let args = rest.split(')').next().unwrap_or("");
        let literals: Vec<&str> = args.split('"').skip(1).step_by(2).collect();
        found.push(literals);
    }
    found
}

#[test]
fn the_readme_names_every_package_the_tests_need() {
    let listed = readme_packages();
    let ci = std::fs::read_to_string(workspace_root().join(".ci/run")).expect(".ci/run");
    let ci_line = ci.lines().find_map(|l| l.strip_prefix("PACKAGES=\"")).expect("PACKAGES in .ci/run");
    let mut ci_packages: Vec<String> = ci_line.trim_end_matches('"').split_whitespace().map(str::to_string).collect();
    let mut readme_sorted = listed.clone();
    ci_packages.sort();
    readme_sorted.sort();
    assert_eq!(readme_sorted, ci_packages, "the README's packages and .ci/run's differ");
    // What the tests and their helpers ask for when a tool is missing.
    let mut files = Vec::new();
    rust_files(&workspace_root().join("crates"), &mut files);
    let mut wanted: Vec<(String, String)> = Vec::new();
    // This file's own search strings are not requests.
    for f in files.iter().filter(|f| !f.ends_with("tests/help_texts.rs")) {
        let text = std::fs::read_to_string(f).expect("source");
        let name = f.strip_prefix(workspace_root()).unwrap_or(f).display().to_string();
        for args in literal_arguments(&text, "require(") {
            if let [_, packages] = args[..] {
                wanted.extend(packages.split_whitespace().map(|p| (p.to_string(), name.clone())));
            }
        }
        for args in literal_arguments(&text, "find_tool(&[") {
            if let Some(package) = args.last() {
                wanted.push((package.to_string(), name.clone()));
            }
        }
        for args in literal_arguments(&text, "llvm_tool(") {
            if let [tool] = args[..] {
                // llvm_tool("NAME", VERSION): the version follows the name.
                let version = text.split(&format!("llvm_tool(\"{tool}\", ")).nth(1).and_then(|r| r.get(..2));
                if let Some(v) = version.filter(|v| v.bytes().all(|b| b.is_ascii_digit())) {
                    let package = if tool == "FileCheck" { format!("llvm-{v}-tools") } else { format!("llvm-{v}") };
                    wanted.push((package, name.clone()));
                }
            }
        }
        let mut rest = text.as_str();
        while let Some(at) = rest.find("apt-get install ") {
            rest = &rest[at + "apt-get install ".len()..];
            let word: String = rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '-').collect();
            if !word.is_empty() && !rest.starts_with(&format!("{word}{{")) {
                wanted.push((word, name.clone()));
            }
        }
    }
    assert!(wanted.len() > 20, "only {} package requests found: the scan is broken", wanted.len());
    let missing: Vec<String> =
        wanted.iter().filter(|(p, _)| !listed.contains(p)).map(|(p, f)| format!("{p} (asked for by {f})")).collect();
    assert!(missing.is_empty(), "packages the README's prerequisites do not name: {missing:?}");
}
