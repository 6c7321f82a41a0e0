//! Issue 28, part 1: the type table's order where counts tie or nearly tie, and which
//! writer's rule applies (see `pnacl_convert::freeze::types` for the rule).
//!
//! - The SDK pair: `llvm/part2_unstripped.bc` (Pepper 49, LLVM 3.7) finalizes with the
//!   type order of the pexe that SDK shipped, which lists `i32 ()` before
//!   `i32 (i32, i32, i32, i32)` (the SDKs' writer counted nothing for elided casts).
//! - A module of stores through `inttoptr` casts, as in Google's store test (two functions
//!   `void (i32)`, a constant stored through a cast for each of 13 types), assembled by
//!   today's `llvm-as`: pnacl-freeze numbered `i32` 0 and `void` 1 (the last writer counts
//!   the `i32` each cast stands for). No load, GEP or call is there to date the bitcode.
//! - Programs built by `pnacl cc`, thawed and frozen again, give the same pexe byte for
//!   byte, with typed and opaque pointers: the pexe keeps no cast, so the writer `cc` uses
//!   must not count them.

#[path = "common/freeze.rs"]
mod common;

use common::{assemble, pnacl_ok};
use pnacl_testutil::{llvm_tool, pnacl_command, workspace_root};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The type table of the pexe at `path`, as PNaClAsm spellings.
fn types(path: &Path) -> Vec<String> {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    // The ABI is not this file's concern (the store test stores with alignment 1).
    let options = pnacl_bitcode::ReadOptions { defer_abi: true, ..pnacl_bitcode::ReadOptions::default() };
    let m = pnacl_bitcode::read_with(&bytes, options, &mut pnacl_bitcode::NoListener)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    m.types.iter().map(ToString::to_string).collect()
}

fn position(table: &[String], t: &str) -> usize {
    table.iter().position(|x| x == t).unwrap_or_else(|| panic!("no type {t} in {table:?}"))
}

#[test]
fn the_sdk_pair_orders_tied_function_types_as_the_sdk_did() {
    let input = pnacl_testutil::corpus_dir().join("llvm/part2_unstripped.bc");
    assert!(input.is_file(), "{} is missing", input.display());
    let dir = tempfile::tempdir().expect("a temporary directory");
    let pexe = dir.path().join("part2.pexe");
    pnacl_ok("pnacl finalize", ["finalize".as_ref(), input.as_os_str(), "-o".as_ref(), pexe.as_os_str()])
        .unwrap_or_else(|e| panic!("{e}"));
    let table = types(&pexe);
    let (none, four) = (position(&table, "i32 ()"), position(&table, "i32 (i32, i32, i32, i32)"));
    assert!(none < four, "the SDK's pexe lists i32 () first: {table:?}");
    assert_eq!(four, none + 1, "the two are adjacent in the SDK's pexe: {table:?}");
}

/// Two functions storing a constant of each of 13 types through its own `inttoptr`.
fn store_module() -> String {
    let types = [
        ("i8", "1"),
        ("i16", "1"),
        ("i32", "1"),
        ("i64", "1"),
        ("float", "1.0"),
        ("double", "1.0"),
        ("<16 x i8>", "undef"),
        ("<8 x i16>", "undef"),
        ("<4 x i32>", "undef"),
        ("<4 x float>", "undef"),
        ("<16 x i1>", "undef"),
        ("<8 x i1>", "undef"),
        ("<4 x i1>", "undef"),
    ];
    let mut text = String::new();
    for f in ["Good", "Bad"] {
        writeln!(text, "define void @{f}(i32 %p0) {{").unwrap();
        for (k, (t, v)) in types.iter().enumerate() {
            writeln!(text, "  %a{k} = inttoptr i32 %p0 to {t}*\n  store {t} {v}, {t}* %a{k}, align 1").unwrap();
        }
        text.push_str("  ret void\n}\n\n");
    }
    text
}

#[test]
fn a_store_test_numbers_i32_before_void() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let (ll, bc, pexe) = (dir.path().join("store.ll"), dir.path().join("store.bc"), dir.path().join("store.pexe"));
    std::fs::write(&ll, store_module()).expect("write the module");
    for version in [14, 19] {
        assemble(&llvm_tool("llvm-as", version), &ll, &bc).unwrap_or_else(|e| panic!("{e}"));
        pnacl_ok("pnacl freeze", ["freeze".as_ref(), bc.as_os_str(), "-o".as_ref(), pexe.as_os_str()])
            .unwrap_or_else(|e| panic!("{e}"));
        let table = types(&pexe);
        assert_eq!(&table[..2], ["i32", "void"], "llvm-as-{version}: {table:?}");
        // Asked for, the SDKs' writer counts 7 uses of i32 against void's 29.
        let args = ["freeze", "--writer", "2015"].map(std::ffi::OsStr::new);
        pnacl_ok(
            "pnacl freeze --writer 2015",
            args.iter().copied().chain([bc.as_os_str(), "-o".as_ref(), pexe.as_os_str()]),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(types(&pexe)[0], "void", "llvm-as-{version}, writer 2015");
    }
}

/// `pnacl cc OPT src -o pexe`, then thaw (typed or opaque), `llvm-as`, freeze: the bytes
/// must be the same. Returns a description of the difference, if any.
fn cc_thaw_freeze(src: &Path, opt: &str, dir: &Path) -> Vec<String> {
    let stem = src.file_stem().expect("a name").to_string_lossy().into_owned();
    let pexe = dir.join(format!("{stem}{opt}.pexe"));
    let mut cc = pnacl_command();
    cc.arg("cc").arg(opt).arg("-w").arg(src).arg("-o").arg(&pexe);
    common::run_ok("pnacl cc", &mut cc).unwrap_or_else(|e| panic!("{e}"));
    let original = std::fs::read(&pexe).expect("read the pexe");
    let mut problems = Vec::new();
    for (typed, version) in [(true, 14), (false, 19)] {
        let base = dir.join(format!("{stem}{opt}.{version}"));
        let (ll, bc, again) = (base.with_extension("ll"), base.with_extension("bc"), base.with_extension("pexe"));
        let mut thaw = pnacl_command();
        thaw.arg("thaw");
        if typed {
            thaw.arg("--typed-pointers");
        }
        thaw.arg(&pexe).arg("-o").arg(&ll);
        common::run_ok("pnacl thaw", &mut thaw).unwrap_or_else(|e| panic!("{e}"));
        assemble(&llvm_tool("llvm-as", version), &ll, &bc).unwrap_or_else(|e| panic!("{e}"));
        pnacl_ok("pnacl freeze", ["freeze".as_ref(), bc.as_os_str(), "-o".as_ref(), again.as_os_str()])
            .unwrap_or_else(|e| panic!("{e}"));
        if std::fs::read(&again).expect("read the frozen pexe") != original {
            problems.push(format!(
                "{stem} {opt}, llvm-as-{version}: {:?}",
                common::compare(&std::fs::read(&again).unwrap(), &original)
            ));
        }
    }
    problems
}

#[test]
fn pexes_of_pnacl_cc_come_back_from_thaw_and_freeze() {
    llvm_tool("clang", 14);
    let programs = workspace_root().join("tests/c/programs");
    let mut sources: Vec<PathBuf> = std::fs::read_dir(&programs)
        .expect("tests/c/programs")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "c"))
        .collect();
    sources.sort();
    assert!(sources.iter().any(|s| s.ends_with("narrow_locals.c")), "tests/c/programs/narrow_locals.c is missing");
    let dir = tempfile::tempdir().expect("a temporary directory");
    let mut problems = Vec::new();
    for src in &sources {
        for opt in ["-O0", "-O2"] {
            problems.extend(cc_thaw_freeze(src, opt, dir.path()));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
