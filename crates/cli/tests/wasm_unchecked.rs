//! `pnacl wasm` without `--checked` (the suites run with it): a constant offset added to a
//! pointer for one access is folded into the access (crates/wasm/src/function/memory.rs),
//! so a sum that wraps past 4 GiB, which `pnacl run` sends to the null page and traps on,
//! traps under Node too instead of reading the zeros there; a negative offset is not
//! folded. The null page itself reads as zeros (the documented default).

use pnacl_testutil::guest::{Case, Ty, Val, without_backtrace};
use pnacl_testutil::pnacl_command;
use pnacl_testutil::wasm::{node_command, translate};
use std::path::Path;
use std::process::Output;

/// `case` under `pnacl run` and under Node after `pnacl wasm` with no options.
fn both(case: &Case, dir: &Path, name: &str) -> (Output, Output) {
    let path = dir.join(format!("{name}.pnaclasm"));
    std::fs::write(&path, case.module()).unwrap();
    let native = pnacl_command().arg("run").arg(&path).output().expect("run pnacl");
    let launcher = translate(&path, dir, &format!("{name}.wasm-out"), &[]);
    let wasm = node_command(&launcher, &[]).output().expect("run node");
    (native, wasm)
}

#[test]
fn folded_offsets_that_wrap_trap_as_under_run() {
    let dir = tempfile::tempdir().unwrap();
    // (type, offset, pointer): each sum wraps into the null page.
    let cases = [
        ("i32", "32", 0xffff_fff0u32),
        ("i8", "16", 0xffff_fff8),
        ("i32", "65520", 0xffff_0100),
        ("i64", "65520", 0xffff_ffff),
        ("double", "8", 0xffff_fffc),
        ("i32", "-8", 4),
    ];
    for (i, (ty, c, p)) in cases.into_iter().enumerate() {
        let load = format!("%v1 = load {ty}* %v0, align 1;");
        let store = format!("store {ty} %c1, {ty}* %v0, align 1;");
        for (op, access) in [("load", load), ("store", store)] {
            let body = format!("  %b0:\n    %v0 = add i32 %p0, %c0;\n    {access}\n    ret i32 %p0;");
            let zero = if ty == "double" { "0.0" } else { "0" };
            let constants = [("i32", c), (ty, zero)];
            let case = Case::new(&[Ty::I32], Ty::I32, &constants, &body).inputs(vec![vec![Val::i32(p)]]);
            let name = format!("fold{i}_{op}");
            let (native, wasm) = both(&case, dir.path(), &name);
            assert_eq!(
                native.status.code(),
                Some(134),
                "{name}: pnacl run: {}",
                String::from_utf8_lossy(&native.stderr)
            );
            assert_eq!(wasm.status.code(), Some(134), "{name}: node: {}", String::from_utf8_lossy(&wasm.stderr));
            assert_eq!(
                String::from_utf8_lossy(&wasm.stderr),
                String::from_utf8_lossy(&without_backtrace(&native.stderr)),
                "{name}"
            );
        }
    }
}

#[test]
fn the_null_page_reads_as_zeros() {
    let dir = tempfile::tempdir().unwrap();
    // An offset folded into the load: 16 + 8 stays below 64 KiB.
    let body = "  %b0:\n    %v0 = add i32 %p0, %c0;\n    %v1 = load i32* %v0, align 1;\n    ret i32 %v1;";
    let case = Case::new(&[Ty::I32], Ty::I32, &[("i32", "8")], body).inputs(vec![vec![Val::i32(16)]]);
    let (native, wasm) = both(&case, dir.path(), "null");
    assert_eq!(native.status.code(), Some(134), "pnacl run traps there");
    assert_eq!(wasm.status.code(), Some(0), "node: {}", String::from_utf8_lossy(&wasm.stderr));
    assert_eq!(&wasm.stdout[..4], &[0, 0, 0, 0]);
}
