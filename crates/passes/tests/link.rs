//! The linker against LLVM's own: the multi-file C programs of `tests/c/link` (the cases
//! `pnacl cc` is tested on), compiled by clang-14 at -O0 and -O2, linked in every order of
//! their files by `pnacl_passes::link` and by `llvm-link-14`. pnacl's result must be IR
//! that `opt-14 -passes=verify` accepts (every use of a symbol whose declared type differs
//! from its definition's goes through a cast, every `byval(T)` matches its parameter), its
//! appending arrays (`llvm.global_ctors`, `llvm.used`) must list what llvm-link's list in
//! the same order, and run by lli-14 it must print what llvm-link's result prints.
//!
//! Both LLVM 14's typed pointers (clang-14, checked with LLVM 14's tools) and LLVM 19's
//! opaque pointers (clang-19, LLVM 19's tools) are linked.
//!
//! The C is compiled for the host, not for le32: lli runs it on the host, and le32 IR
//! carries le32's layout in constants (`&a[1]` folded to a byte offset), which a 64-bit
//! host does not share. The linker does not depend on the target.

mod common;

use pnacl_llvm::print::{PrintOptions, print};
use pnacl_testutil::{llvm_tool, workspace_root};
use std::path::{Path, PathBuf};
use std::process::Command;

/// One case directory's C files (sorted) and options.
fn cases() -> Vec<(String, Vec<PathBuf>, Vec<String>)> {
    let root = workspace_root().join("tests/c/link");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap_or_else(|e| panic!("{}: {e}", root.display()))
        .map(|e| e.expect("entry").path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    dirs.into_iter()
        .map(|dir| {
            let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
                .expect("case directory")
                .map(|e| e.expect("entry").path())
                .filter(|p| p.extension().is_some_and(|e| e == "c"))
                .collect();
            files.sort();
            let flags = std::fs::read_to_string(dir.join("flags"))
                .map(|s| s.split_whitespace().map(String::from).collect())
                .unwrap_or_default();
            (dir.file_name().expect("name").to_string_lossy().into_owned(), files, flags)
        })
        .collect()
}

/// clang-`llvm`'s bitcode of `src` for the host (without the vectorizers, as `pnacl cc`).
fn compile(llvm: u32, src: &Path, opt: &str, flags: &[String], out: &Path) -> Result<(), String> {
    let o = Command::new(llvm_tool("clang", llvm))
        .args(["-emit-llvm", "-c", "-w", "-fno-vectorize", "-fno-slp-vectorize", opt])
        .args(flags)
        .arg(src)
        .arg("-o")
        .arg(out)
        .output()
        .map_err(|e| format!("clang-{llvm}: {e}"))?;
    if !o.status.success() {
        return Err(format!("clang-{llvm} {}: {}", src.display(), String::from_utf8_lossy(&o.stderr)));
    }
    Ok(())
}

/// The symbols an appending array's initializer names, in order (empty without one).
fn appended(text: &str, array: &str) -> Vec<String> {
    let Some(line) = text.lines().find(|l| l.starts_with(&format!("{array} = "))) else { return Vec::new() };
    let init = &line[line.find("] [").map_or(line.len(), |at| at + 2)..];
    init.split('@')
        .skip(1)
        .map(|s| s.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '.').collect())
        .collect()
}

/// Runs `text`'s `@main` with lli-14 (a host module, target lines kept); its exit status
/// and output. MCJIT runs constructors in the order `llvm.global_ctors` lists them, as a
/// loader does; lli-14's default JIT does not keep that order among equal priorities.
fn execute(llvm: u32, text: &str) -> Result<(Option<i32>, Vec<u8>), String> {
    let mut cmd = Command::new(llvm_tool("lli", llvm));
    cmd.args(["--jit-kind=mcjit", "-"]);
    let out = common::run_tool_output(cmd, text.as_bytes())?;
    if !out.stderr.is_empty() {
        return Err(format!("lli-{llvm}: {}", String::from_utf8_lossy(&out.stderr)));
    }
    Ok((out.status.code(), out.stdout))
}

/// Every order of `n` items.
fn permutations(n: usize) -> Vec<Vec<usize>> {
    if n == 0 {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    for rest in permutations(n - 1) {
        for at in 0..=rest.len() {
            let mut p = rest.clone();
            p.insert(at, n - 1);
            out.push(p);
        }
    }
    out
}

/// Links `bitcode` (LLVM `llvm`'s) in this order both ways and compares; what went wrong,
/// if anything.
fn check(llvm: u32, bitcode: &[PathBuf], dir: &Path) -> Result<(), String> {
    let modules = bitcode
        .iter()
        .map(|p| pnacl_llvm::read(&std::fs::read(p).expect("bitcode")).map_err(|e| format!("reading {p:?}: {e}")))
        .collect::<Result<Vec<_>, _>>()?;
    let linked = pnacl_passes::link::link(modules).map_err(|e| format!("pnacl's link: {e}"))?;
    let ours = print(&linked, &PrintOptions { opaque_pointers: linked.opaque_pointers });
    let mut opt = Command::new(llvm_tool("opt", llvm));
    opt.args(["-passes=verify", "-disable-output", "-"]);
    common::run_tool(opt, ours.as_bytes()).map_err(|e| format!("pnacl's linked module is not valid IR: {e}"))?;
    let theirs_bc = dir.join("llvm-linked.bc");
    let o = Command::new(llvm_tool("llvm-link", llvm))
        .args(bitcode)
        .arg("-o")
        .arg(&theirs_bc)
        .output()
        .map_err(|e| format!("llvm-link-{llvm}: {e}"))?;
    if !o.status.success() {
        return Err(format!("llvm-link-{llvm}: {}", String::from_utf8_lossy(&o.stderr)));
    }
    let o = Command::new(llvm_tool("llvm-dis", llvm)).arg(&theirs_bc).arg("-o").arg("-").output().expect("llvm-dis");
    let theirs = String::from_utf8(o.stdout).expect("IR text");
    for array in ["@llvm.global_ctors", "@llvm.used", "@llvm.compiler.used"] {
        let (a, b) = (appended(&ours, array), appended(&theirs, array));
        if a != b {
            return Err(format!("{array} lists {a:?}; llvm-link's lists {b:?}"));
        }
    }
    let want = execute(llvm, &theirs).map_err(|e| format!("running llvm-link's module: {e}"))?;
    let got = execute(llvm, &ours).map_err(|e| format!("running pnacl's module: {e}"))?;
    if got != want {
        return Err(format!(
            "pnacl's linked module gives {:?} {:?}, llvm-link's {:?} {:?}",
            got.0,
            String::from_utf8_lossy(&got.1),
            want.0,
            String::from_utf8_lossy(&want.1)
        ));
    }
    Ok(())
}

#[test]
fn links_as_llvm_link_14_does_in_every_order() {
    links_as_llvm_link_does(14);
}

#[test]
fn links_opaque_pointers_as_llvm_link_19_does_in_every_order() {
    links_as_llvm_link_does(19);
}

fn links_as_llvm_link_does(llvm: u32) {
    let cases = cases();
    assert!(cases.len() >= 10, "expected the cases of tests/c/link, found {}", cases.len());
    let dir = tempfile::tempdir().expect("temporary directory");
    let mut failures = Vec::new();
    let mut checked = 0;
    for (name, files, flags) in &cases {
        for opt in ["-O0", "-O2"] {
            let mut bitcode = Vec::new();
            for f in files {
                let out =
                    dir.path().join(format!("{name}-{opt}-{}.bc", f.file_stem().expect("stem").to_string_lossy()));
                compile(llvm, f, opt, flags, &out).unwrap_or_else(|e| panic!("{e}"));
                bitcode.push(out);
            }
            for order in permutations(files.len()) {
                let ordered: Vec<PathBuf> = order.iter().map(|&i| bitcode[i].clone()).collect();
                let names: Vec<String> =
                    order.iter().map(|&i| files[i].file_name().expect("name").to_string_lossy().into_owned()).collect();
                if let Err(e) = check(llvm, &ordered, dir.path()) {
                    failures.push(format!("{name} {opt} [{}]: {e}", names.join(" ")));
                }
                checked += 1;
            }
        }
    }
    assert!(failures.is_empty(), "{} of {checked} links differ:\n{}", failures.len(), failures.join("\n"));
}
