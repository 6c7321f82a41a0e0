//! `pnacl cc --clang clang-19`: today's clang (opaque pointers, LLVM 19 bitcode, its own
//! intrinsic spellings) builds the C library and the test programs of `tests/c/programs`,
//! and each program, at `-O0` and `-O2`, prints what gcc's native build prints.
//!
//! Found by issue 28's csmith runs: pnacl's LLVM reader gave a global's address a typed
//! pointer type inside function bodies of an opaque-pointer module (`select` of a global
//! and a `ptr` was refused), and the passes declared `llvm.memcpy.p0i8.p0i8.i32` beside
//! clang 19's `llvm.memcpy.p0.p0.i32`, two declarations of one PNaCl intrinsic.

use pnacl_testutil::{llvm_tool, pnacl_command, workspace_root};
use std::path::PathBuf;
use std::process::Command;

#[test]
fn c_programs_built_with_clang_19_match_gcc() {
    let clang = llvm_tool("clang", 19);
    let programs = workspace_root().join("tests/c/programs");
    let mut sources: Vec<PathBuf> = std::fs::read_dir(&programs)
        .expect("tests/c/programs")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "c"))
        .collect();
    sources.sort();
    assert!(sources.len() >= 10, "expected the test programs in {}", programs.display());
    let dir = tempfile::tempdir().expect("a temporary directory");
    let mut problems = Vec::new();
    for src in &sources {
        let name = src.file_stem().expect("a name").to_string_lossy().into_owned();
        let native = dir.path().join(&name);
        let built = Command::new("gcc")
            .args(["-m32", "-malign-double", "-O1", "-w"])
            .arg(src)
            .arg("-o")
            .arg(&native)
            .arg("-lm")
            .output()
            .expect("run gcc");
        assert!(
            built.status.success(),
            "gcc -m32 {name}: {} (needs gcc-multilib)",
            String::from_utf8_lossy(&built.stderr)
        );
        let want = Command::new(&native).output().expect("run the native program");
        for opt in ["-O0", "-O2"] {
            let pexe = dir.path().join(format!("{name}{opt}.pexe"));
            let cc = pnacl_command()
                .args(["cc", opt, "-w", "--clang"])
                .arg(&clang)
                .arg(src)
                .arg("-o")
                .arg(&pexe)
                .output()
                .expect("run pnacl cc");
            if !cc.status.success() {
                problems.push(format!("{name} {opt}: pnacl cc: {}", String::from_utf8_lossy(&cc.stderr)));
                continue;
            }
            let got = pnacl_command().arg("run").arg(&pexe).output().expect("run pnacl run");
            if got.stdout != want.stdout || got.status.code() != want.status.code() {
                problems.push(format!(
                    "{name} {opt}: exit {:?} (native {:?}), stdout {} bytes (native {}); stderr: {}",
                    got.status.code(),
                    want.status.code(),
                    got.stdout.len(),
                    want.stdout.len(),
                    String::from_utf8_lossy(&got.stderr)
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
