//! Issue 17, acceptance: every corpus pexe, thawed to LLVM IR, assembled by today's LLVM
//! and frozen again, gives the pexe back.
//!
//! - Typed pointers: `thaw --typed-pointers` → `llvm-as-14` → `freeze` must give the bytes
//!   of `pnacl rewrite --abbrevs standard` of the original. The one difference allowed is
//!   the order of the module symbol table: pnacl-freeze wrote it in the bucket order of
//!   LLVM's hash table, which depended on the names the table held before (the toolchain's
//!   `-strip` left tombstones of every name it removed; stripped pexes order their dozen
//!   names as a table of 2^9 to 2^16 buckets would) — a history the pexe does not hold. Each
//!   file that differs so is named, and the rest is proved identical
//!   ([`common::Same::VstOrderOnly`]).
//! - Opaque pointers: `thaw` → `llvm-as-19` → `freeze` must give the same (the thawed IR
//!   carries every pointer cast, so pointee types are not needed), and the result must
//!   run: each run case of `RUNS.tsv` (role `test`) gives its stdout and exit status.
//! - The thawed text passes `opt -passes=verify` of LLVM 14 (typed) and LLVM 19 (opaque).

#[path = "common/freeze.rs"]
mod common;

use common::{Same, assemble, compare, pnacl_ok, stem, verify};
use pnacl_testutil::{ManifestEntry, corpus_dir, llvm_tool, pexes, pnacl_command, runs};
use std::path::{Path, PathBuf};

/// `pnacl rewrite --abbrevs standard` of the original: what finalize would have written.
fn standard(e: &ManifestEntry, dir: &Path) -> Result<Vec<u8>, String> {
    let out = dir.join(format!("{}.std.pexe", stem(&e.file)));
    let input = e.path();
    let args = ["rewrite".as_ref(), "--abbrevs".as_ref(), "standard".as_ref(), input.as_os_str(), "-o".as_ref()];
    pnacl_ok("pnacl rewrite --abbrevs standard", args.into_iter().chain([out.as_os_str()]))?;
    std::fs::read(&out).map_err(|e| format!("{}: {e}", out.display()))
}

/// Thaws `e` (typed or opaque pointers), assembles the text with `llvm_as`, verifies it
/// with `opt`, and freezes the bitcode into `out`.
fn thaw_and_freeze(
    e: &ManifestEntry,
    dir: &Path,
    typed: bool,
    llvm_as: &Path,
    opt: &Path,
    out: &Path,
) -> Result<(), String> {
    let base = dir.join(format!("{}.{}", stem(&e.file), if typed { "typed" } else { "opaque" }));
    let (ll, bc) = (base.with_extension("ll"), base.with_extension("bc"));
    let mut c = pnacl_command();
    c.arg("thaw");
    if typed {
        c.arg("--typed-pointers");
    }
    c.arg(e.path()).arg("-o").arg(&ll);
    common::run_ok("pnacl thaw", &mut c)?;
    assemble(llvm_as, &ll, &bc)?;
    verify(opt, &bc)?;
    let mut c = pnacl_command();
    c.arg("freeze").arg(&bc).arg("-o").arg(out);
    common::run_ok("pnacl freeze", &mut c)?;
    // The text is only needed when something fails; the corpus thaws to ~100 MB of it.
    let _ = std::fs::remove_file(&ll);
    Ok(())
}

/// What a round trip of the whole corpus gave.
struct RoundTrip {
    /// Files that came back byte for byte.
    identical: Vec<String>,
    /// Files that differ only in the order of the module symbol table.
    vst_only: Vec<String>,
    /// Each file and its re-frozen pexe (in `_dir`).
    outputs: Vec<(String, PathBuf)>,
    _dir: tempfile::TempDir,
}

/// Round-trips every corpus pexe and compares the result with its standard form; fails
/// unless each is identical or differs only in the symbol table's order.
fn round_trip_all(typed: bool) -> RoundTrip {
    let (llvm_as, opt) = if typed {
        (llvm_tool("llvm-as", 14), llvm_tool("opt", 14))
    } else {
        (llvm_tool("llvm-as", 19), llvm_tool("opt", 19))
    };
    let dir = tempfile::tempdir().expect("a temporary directory");
    let entries = pexes();
    assert!(entries.len() >= 28, "the corpus lists {} pexes", entries.len());
    let (mut identical, mut vst_only, mut failures, mut outputs) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for e in &entries {
        let out = dir.path().join(format!("{}.{}.pexe", stem(&e.file), if typed { "typed" } else { "opaque" }));
        let result = thaw_and_freeze(e, dir.path(), typed, &llvm_as, &opt, &out).and_then(|()| {
            let got = std::fs::read(&out).map_err(|err| format!("{}: {err}", out.display()))?;
            Ok(compare(&got, &standard(e, dir.path())?))
        });
        match result {
            Ok(Same::Identical) => identical.push(e.file.clone()),
            Ok(Same::VstOrderOnly) => {
                println!(
                    "{} ({}): differs from `rewrite --abbrevs standard` only in the order of the module symbol table",
                    e.file,
                    if typed { "typed" } else { "opaque" }
                );
                vst_only.push(e.file.clone());
            }
            Ok(Same::Differs(why)) => failures.push(format!("{}: the frozen pexe differs: {why}", e.file)),
            Err(why) => failures.push(format!("{}: {why}", e.file)),
        }
        outputs.push((e.file.clone(), out));
    }
    println!(
        "{} round trip of {} pexes: {} byte-identical, {} differing only in module symbol-table order",
        if typed { "typed-pointer" } else { "opaque-pointer" },
        entries.len(),
        identical.len(),
        vst_only.len()
    );
    println!("identical: {}", identical.join(", "));
    assert!(
        failures.is_empty(),
        "{} of {} pexes fail the round trip:\n{}",
        failures.len(),
        entries.len(),
        failures.join("\n")
    );
    RoundTrip { identical, vst_only, outputs, _dir: dir }
}

#[test]
fn typed_round_trip_gives_every_corpus_pexe_back() {
    let RoundTrip { identical, vst_only, .. } = round_trip_all(true);
    // The two hand-made pexes have one name each: no order to lose.
    for tiny in ["tiny/start.pexe", "tiny/bitcast.pexe"] {
        assert!(identical.iter().any(|f| f == tiny), "{tiny} should come back byte for byte");
    }
    assert_eq!(identical.len() + vst_only.len(), pexes().len());
}

#[test]
fn opaque_round_trip_gives_every_corpus_pexe_back_and_runs() {
    let trip = round_trip_all(false);
    // Run the re-frozen pexes as the corpus README says run cases run: from a folder laid
    // out as the corpus (the pexe at `cli/NAME.pexe` under it), FILE spelled as RUNS.tsv
    // spells it, so that the guest's argv[0] is the same.
    let run_root = tempfile::tempdir().expect("a temporary directory");
    let cases: Vec<_> = runs().into_iter().filter(|r| r.role == "test").collect();
    assert!(cases.len() >= 17, "RUNS.tsv has {} test rows", cases.len());
    let mut failures = Vec::new();
    for case in &cases {
        let (_, frozen) = trip
            .outputs
            .iter()
            .find(|(f, _)| *f == case.file)
            .unwrap_or_else(|| panic!("run case {} is not a corpus pexe", case.file));
        let place = run_root.path().join(&case.file);
        std::fs::create_dir_all(place.parent().expect("a folder")).expect("create the run folder");
        std::fs::copy(frozen, &place).expect("copy the frozen pexe");
        let out = pnacl_command()
            .current_dir(run_root.path())
            .arg("run")
            .arg(&case.file)
            .arg("--")
            .args(&case.args)
            .output()
            .expect("run pnacl");
        failures.extend(case.differences(&out));
    }
    println!("{} run cases of the opaque-pointer round trip checked", cases.len());
    assert!(failures.is_empty(), "{} of {} run cases failed:\n{}", failures.len(), cases.len(), failures.join("\n"));
}

/// The comparison itself: it must tell a symbol table in another order from every other
/// difference (checked on `cli/fact.pexe` and variations of it made with the library).
#[test]
fn the_comparison_tells_symbol_table_order_from_other_differences() {
    use pnacl_bitcode::{Abbrevs, ReadOptions};
    let path = corpus_dir().join("cli/fact.pexe");
    let original = std::fs::read(&path).expect("read cli/fact.pexe");
    let options = ReadOptions { no_layout: true, ..ReadOptions::default() };
    let m = pnacl_bitcode::read_parallel(&original, options).expect("cli/fact.pexe reads");
    let write = |m: &pnacl_bitcode::Module| pnacl_bitcode::write(m, Abbrevs::Standard).expect("write");
    let standard = write(&m);
    assert_eq!(compare(&standard, &standard), Same::Identical);
    let symtab = m.symtab.clone().expect("cli/fact.pexe has names");
    assert!(symtab.len() >= 3);

    let mut reordered = m.clone();
    reordered.symtab.as_mut().unwrap().reverse();
    assert_ne!(write(&reordered), standard);
    assert_eq!(compare(&write(&reordered), &standard), Same::VstOrderOnly);

    let mut fewer = reordered.clone();
    fewer.symtab.as_mut().unwrap().pop();
    assert!(matches!(compare(&write(&fewer), &standard), Same::Differs(why) if why.contains("different entries")));

    let mut renamed = m.clone();
    renamed.symtab.as_mut().unwrap()[0].name.push(b'x');
    assert!(matches!(compare(&write(&renamed), &standard), Same::Differs(_)));

    let mut other_global = reordered.clone();
    other_global.globals[0].is_const = !other_global.globals[0].is_const;
    assert!(matches!(compare(&write(&other_global), &standard), Same::Differs(why) if why.contains("globals")));

    let mut other_linkage = reordered.clone();
    let f = other_linkage.functions.iter_mut().find(|f| !f.is_proto).expect("a defined function");
    f.linkage = match f.linkage {
        pnacl_bitcode::ir::Linkage::Internal => pnacl_bitcode::ir::Linkage::External,
        _ => pnacl_bitcode::ir::Linkage::Internal,
    };
    assert!(matches!(compare(&write(&other_linkage), &standard), Same::Differs(why) if why.contains("function")));

    // The corpus file keeps its own abbreviations: the same module, not the same encoding.
    if original != standard {
        assert!(matches!(compare(&original, &standard), Same::Differs(why) if why.contains("encoding")));
    }
}
