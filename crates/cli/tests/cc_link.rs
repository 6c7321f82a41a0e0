//! `pnacl cc` on programs of several C files (`tests/c/link/CASE/*.c`, with the options of
//! `tests/c/link/CASE/flags` if there is one): each case built in every order of its files,
//! at -O0 and -O2, run, and compared with gcc's 32-bit build of the same files in the same
//! order (an order matters to a linker: of two weak definitions the first wins).
//!
//! The cases are what linking C gets wrong when done by name rather than as LLVM's linker
//! does it: struct types of the same name with other bodies in two files (`%struct.anon`
//! in every file clang compiles), a struct passed by value to a function of another file,
//! opaque and recursive structs, common symbols of several sizes and alignments, weak and
//! strong definitions, declarations whose type differs from the definition's, constructors
//! in several files, static symbols named as external ones, aliases.

#[path = "common/multifile.rs"]
mod multifile;

use multifile::{difference, native, parallel, permutations, pnacl_cc, require_compilers, run_pexe, threads};
use pnacl_testutil::workspace_root;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Command;

/// Cases that fail today, by directory name, with the reason. Such a case that passes in
/// every order is itself a failure (remove it from this list).
const KNOWN_FAILURES: &[(&str, &str)] = &[(
    "constructors",
    "at -O2 clang's GlobalOpt evaluates main.c's constructor (it only stores to globals) into \
     the initializers of that file, so its effect comes before the other files' constructors \
     whatever the link order; at -O0 every order matches gcc (newlib's start-up runs them)",
)];

/// One case: its name, its C files (sorted) and options.
struct Case {
    name: String,
    files: Vec<PathBuf>,
    flags: Vec<String>,
}

fn cases() -> Vec<Case> {
    let root = workspace_root().join("tests/c/link");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap_or_else(|e| panic!("{}: {e}", root.display()))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    dirs.into_iter()
        .map(|dir| {
            let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
                .expect("case directory")
                .map(|e| e.expect("directory entry").path())
                .filter(|p| p.extension().is_some_and(|e| e == "c"))
                .collect();
            files.sort();
            let flags = std::fs::read_to_string(dir.join("flags"))
                .map(|s| s.split_whitespace().map(String::from).collect())
                .unwrap_or_default();
            Case { name: dir.file_name().expect("name").to_string_lossy().into_owned(), files, flags }
        })
        .collect()
}

/// Builds `files` in this order natively and with pnacl cc at -O0 and -O2; every difference.
fn check_order(case: &Case, files: &[PathBuf]) -> Vec<String> {
    let dir = tempfile::tempdir().expect("temporary directory");
    let order = multifile::names(files);
    let exe = dir.path().join("native");
    if let Err(e) = native(files, &case.flags, &exe) {
        return vec![format!("{} [{order}]: {e}", case.name)];
    }
    let want = Command::new(&exe).output().expect("run the native program");
    let mut problems = Vec::new();
    for opt in ["-O0", "-O2"] {
        let pexe = dir.path().join(format!("p{opt}.pexe"));
        let what = format!("{} [{order}] {opt}", case.name);
        let outcome = pnacl_cc(files, opt, &case.flags, &pexe).and_then(|()| run_pexe(&pexe));
        match outcome {
            Err(e) => problems.push(format!("{what}: {e}")),
            Ok(got) => problems.extend(difference(&what, &got, &want)),
        }
    }
    problems
}

#[test]
fn multi_file_programs_match_gcc_in_every_order() {
    require_compilers();
    let cases = cases();
    assert!(cases.len() >= 10, "expected the cases of tests/c/link, found {}", cases.len());
    for (name, _) in KNOWN_FAILURES {
        assert!(cases.iter().any(|c| c.name == *name), "known failure {name} names no case");
    }
    let runs: Vec<(usize, Vec<PathBuf>)> = cases
        .iter()
        .enumerate()
        .flat_map(|(k, c)| {
            assert!(c.files.len() >= 2, "{}: a case has at least two files", c.name);
            permutations(c.files.len()).into_iter().map(move |p| (k, p.iter().map(|&i| c.files[i].clone()).collect()))
        })
        .collect();
    let results = parallel(&runs, threads(), |(k, files)| (*k, check_order(&cases[*k], files)));
    let mut by_case: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    for (k, problems) in results {
        by_case.entry(cases[k].name.as_str()).or_default().extend(problems);
    }
    let mut report = Vec::new();
    for (name, problems) in &by_case {
        let known = KNOWN_FAILURES.iter().find(|k| k.0 == *name);
        match (problems.is_empty(), known) {
            (false, None) => report.push(problems.join("\n")),
            (true, Some(_)) => report.push(format!("{name} passes now: remove it from KNOWN_FAILURES")),
            _ => {}
        }
    }
    assert!(report.is_empty(), "{}", report.join("\n"));
}
