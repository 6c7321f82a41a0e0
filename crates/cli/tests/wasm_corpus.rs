//! `pnacl wasm` and Node on the corpus's run cases (`RUNS.tsv`, role `test`): the same
//! standard output and exit status as expected (and as `pnacl run` gives), nothing on
//! standard error. Also: browser pexes translate and are refused at run time (126), a
//! module that is not a module is refused (125), and every corpus pexe translates to a
//! module that validates (`crates/wasm/tests`).

use pnacl_testutil::wasm::{node, node_command, translate};
use pnacl_testutil::{corpus_dir, runs};
use std::collections::HashMap;
use std::path::PathBuf;
use std::process::Command;

#[test]
fn every_test_run_case_gives_its_output_and_status_under_node() {
    run_cases(&[]);
}

/// Node's guest-thread Workers run `node-worker.bundle.cjs`, one CommonJS file that needs
/// no `require()` of ES modules, which Node before 20.19 lacks:
/// `--no-experimental-require-module` makes this Node lack it too.
#[test]
fn every_test_run_case_passes_where_require_cannot_load_es_modules() {
    run_cases(&["--no-experimental-require-module"]);
}

/// Runs every `test` row of RUNS.tsv under Node (with `node_flags` before the launcher).
fn run_cases(node_flags: &[&str]) {
    let cases: Vec<_> = runs().into_iter().filter(|r| r.role == "test").collect();
    assert!(cases.len() >= 17, "RUNS.tsv has {} test rows", cases.len());
    let dir = tempfile::tempdir().expect("temporary directory");
    let mut launchers: HashMap<String, PathBuf> = HashMap::new();
    let mut failures = Vec::new();
    for case in &cases {
        let launcher = launchers.entry(case.file.clone()).or_insert_with(|| {
            let name = case.file.replace(['/', '.'], "_");
            // As `pnacl run` is run: from the corpus folder, FILE as spelled there (the
            // guest's argv[0]).
            let mut c = pnacl_testutil::pnacl_command();
            c.current_dir(corpus_dir());
            let wasm = dir.path().join(format!("{name}.wasm"));
            let out = c.arg("wasm").arg(&case.file).arg("-o").arg(&wasm).output().expect("run pnacl wasm");
            assert!(out.status.success(), "{}: {}", case.file, String::from_utf8_lossy(&out.stderr));
            dir.path().join(format!("{name}.mjs"))
        });
        let mut args: Vec<&str> = vec!["--"];
        args.extend(case.args.iter().map(String::as_str));
        let out = Command::new(node())
            .args(node_flags)
            .arg(launcher.as_path())
            .args(&args)
            .current_dir(corpus_dir())
            .output()
            .expect("run node");
        failures.extend(case.differences(&out));
        if !out.stderr.is_empty() {
            failures.push(format!("{}: unexpected stderr: {}", case.name(), String::from_utf8_lossy(&out.stderr)));
        }
    }
    assert!(failures.is_empty(), "{} of {} run cases failed:\n{}", failures.len(), cases.len(), failures.join("\n"));
}

#[test]
fn browser_pexes_translate_and_are_refused_at_run_time() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let pexe = corpus_dir().join("ppapi/hello_tutorial.pexe");
    let launcher = translate(&pexe, dir.path(), "hello_tutorial", &[]);
    let out = node_command(&launcher, &[]).output().expect("run node");
    assert_eq!(out.status.code(), Some(126), "{}", String::from_utf8_lossy(&out.stderr));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("a browser (PPAPI) application"), "{stderr}");
}

#[test]
fn a_module_that_does_not_load_gives_125() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let launcher = translate(&corpus_dir().join("cli/hello_world.pexe"), dir.path(), "hello", &[]);
    std::fs::write(dir.path().join("hello.wasm"), b"\0asm\x01\0\0\0 not a module").expect("overwrite the module");
    let out = node_command(&launcher, &[]).output().expect("run node");
    assert_eq!(out.status.code(), Some(125), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot load the module"));
}

#[test]
fn arguments_environment_and_files_are_those_given() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let launcher = translate(&corpus_dir().join("cli/printf.pexe"), dir.path(), "printf", &[]);
    // Host options first; the first other argument starts the guest's; `--` is dropped.
    let out = node_command(&launcher, &["--env", "A=1", "x", "--env"]).output().expect("run node");
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    let pexe = corpus_dir().join("cli/printf.pexe");
    assert_eq!(text, format!("arg0 = {}\narg1 = x\narg2 = --env\n", pexe.display()));
    let out = node_command(&launcher, &["--argv0", "p", "--", "--", "y"]).output().expect("run node");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "arg0 = p\narg1 = --\narg2 = y\n");
}
