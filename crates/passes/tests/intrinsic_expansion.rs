//! `nacl-expand-modern-intrinsics` on the programs of
//! `pnacl_testutil::intrinsic_programs`: every integer intrinsic family at every width of
//! `WIDTHS` (`i1`, odd widths, PNaCl's own), element-wise on vectors, the vector
//! reductions and `llvm.is.fpclass`, each on exhaustive or 20,000 edge-shaped operands.
//! Each program runs under LLVM 19's `lli` (LLVM 14's computes odd-width funnel shifts
//! wrongly) before and after the pass: the printed hashes, one per intrinsic, must be the
//! same, and no intrinsic but PNaCl's own may be left.

mod common;

use pnacl_llvm::print::{PrintOptions, print};
use pnacl_testutil::intrinsic_programs::{Program, programs};
use pnacl_testutil::llvm_tool;
use std::process::Command;

/// `lli-19` on `text`: its standard output.
fn run(text: &str) -> Result<String, String> {
    let mut cmd = Command::new(llvm_tool("lli", 19));
    cmd.arg("-");
    common::run_tool(cmd, text.as_bytes()).map(|out| String::from_utf8_lossy(&out).into_owned())
}

/// PNaCl's own intrinsics, which may stay.
fn pnacl_has(name: &str) -> bool {
    ["llvm.ctpop.i32", "llvm.ctpop.i64", "llvm.ctlz.i32", "llvm.ctlz.i64", "llvm.cttz.i32", "llvm.cttz.i64"]
        .contains(&name)
        || ["llvm.bswap.i16", "llvm.bswap.i32", "llvm.bswap.i64"].contains(&name)
}

fn check(p: &Program) -> Result<usize, String> {
    let mut cmd = Command::new(llvm_tool("llvm-as", 19));
    cmd.args(["-o", "-", "-"]);
    let bitcode = common::run_tool(cmd, p.text.as_bytes())?;
    let mut m = pnacl_llvm::read(&bitcode).map_err(|e| format!("pnacl_llvm::read: {e}"))?;
    let pass = pnacl_passes::lookup("nacl-expand-modern-intrinsics").expect("the pass exists");
    common::run(&mut m, &[pass])?;
    let left: Vec<&str> = m
        .functions
        .iter()
        .filter(|f| f.props.name.starts_with("llvm.") && !pnacl_has(&f.props.name))
        .map(|f| f.props.name.as_str())
        .filter(|n| p.calls.iter().any(|c| c == n))
        .collect();
    let after = print(&m, &PrintOptions { opaque_pointers: true });
    // A declaration may stay unused; a call may not.
    if let Some(dir) = std::env::var_os("PNACL_IR_DUMP") {
        let dir = std::path::Path::new(&dir);
        std::fs::write(dir.join(format!("{}.before.ll", p.name)), &p.text).expect("writable dump directory");
        std::fs::write(dir.join(format!("{}.after.ll", p.name)), &after).expect("writable dump directory");
    }
    for name in &left {
        if after.lines().any(|l| l.contains(" call ") && l.contains(&format!("@{name}("))) {
            return Err(format!("{name} is still called after the pass"));
        }
    }
    let want = run(&p.text).map_err(|e| format!("running the original: {e}"))?;
    let got = run(&after).map_err(|e| format!("running the expansion: {e}\n{after}"))?;
    let lines = want.lines().count();
    if lines != p.calls.len() {
        return Err(format!("the original printed {lines} hashes for {} intrinsics", p.calls.len()));
    }
    if got != want {
        let differ: Vec<String> = want
            .lines()
            .zip(got.lines())
            .filter(|(a, b)| a != b)
            .map(|(a, _)| {
                let k: usize = a.split(' ').next().and_then(|k| k.parse().ok()).unwrap_or(usize::MAX);
                p.calls.get(k).cloned().unwrap_or_else(|| a.to_string())
            })
            .collect();
        return Err(format!("results differ for {}", differ.join(", ")));
    }
    Ok(lines)
}

#[test]
fn expansions_compute_what_the_intrinsics_compute() {
    let programs = programs();
    let mut failures = Vec::new();
    let mut checked = 0;
    for p in &programs {
        match check(p) {
            Ok(n) => checked += n,
            Err(e) => failures.push(format!("{}: {e}", p.name)),
        }
    }
    println!("{} programs, {checked} intrinsic calls compared under lli", programs.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
