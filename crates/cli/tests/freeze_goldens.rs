//! Issue 17, acceptance: Google's own golden-listing tests of pnacl-freeze
//! (`../shared/conformance/freeze-goldens`), run through `pnacl freeze`, `pnacl rewrite` and
//! `pnacl dis` by the shared runner `freeze_goldens.py`, must all pass.

use pnacl_testutil::{conformance_dir, llvm_tool, pnacl_binary};
use std::process::Command;

#[test]
fn googles_freeze_goldens_all_pass() {
    let dir = conformance_dir();
    let goldens = dir.join("freeze-goldens");
    let count = std::fs::read_dir(&goldens)
        .unwrap_or_else(|e| panic!("{}: {e}", goldens.display()))
        .filter(|e| e.as_ref().is_ok_and(|e| e.path().extension().is_some_and(|x| x == "ll")))
        .count();
    assert_eq!(count, 18, "{} should hold Google's 18 tests", goldens.display());
    // The runner needs both; fail here, clearly, if either is missing.
    let llvm_as = llvm_tool("llvm-as", 14);
    llvm_tool("FileCheck", 14);
    let work = tempfile::tempdir().expect("a temporary directory");
    let out = Command::new("python3")
        .arg(dir.join("freeze_goldens.py"))
        .arg(pnacl_binary())
        .arg(&goldens)
        .arg(work.path())
        .arg("-v")
        .arg("--llvm-as")
        .arg(&llvm_as)
        .env("XDG_CACHE_HOME", work.path().join("cache"))
        .output()
        .expect("python3 is needed to run freeze_goldens.py");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let summary = stdout.lines().find(|l| l.starts_with("freeze-goldens=")).unwrap_or("(no summary line)");
    println!("{summary}");
    let failed: Vec<&str> = stdout.lines().filter(|l| l.starts_with("FAIL")).collect();
    assert!(
        summary.split_whitespace().next() == Some("freeze-goldens=18/18") && out.status.success(),
        "{summary}; failing tests:\n{}\n--- runner output\n{stdout}\n--- stderr\n{stderr}",
        failed.join("\n")
    );
}
