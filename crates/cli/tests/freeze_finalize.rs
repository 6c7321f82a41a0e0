//! Issue 17, acceptance: `pnacl finalize` as the SDK's pnacl-finalize (strip names,
//! metadata, debug information, module flags and attributes, then freeze, then check).
//!
//! The SDK's real `.bc`/`.pexe` pairs are kept back, so these are the closest honest checks:
//! - every unstripped `cli/` corpus pexe, thawed (typed pointers) and assembled by
//!   `llvm-as-14`, finalizes into the original with every name but `_start`'s and the
//!   intrinsics' removed (the expected side made with the PNaCl reader and writer: the
//!   original module, symbol table filtered, standard abbreviations). As in the round trip,
//!   the order of the module symbol table may differ (it came from a hash table's history);
//!   such files are named and the rest is proved identical;
//! - an SDK-style leftover written here, with debug information (`!dbg` attachments,
//!   `llvm.dbg.value` calls, a compile unit, subprograms, variables), module flags,
//!   `llvm.ident` and attributes, finalizes into a pexe that passes `pnacl check` and equals
//!   `freeze` of the same module written without any of it;
//! - the one real SDK leftover of the corpus, `llvm/part2_unstripped.bc` (LLVM 3.x, debug
//!   information), finalizes into a clean pexe with only `_start` and intrinsic names, which
//!   thaw → llvm-as-14 → finalize gives back (up to the symbol table's order).

#[path = "common/freeze.rs"]
mod common;

use common::{Same, assemble, compare, pnacl, pnacl_ok, stem};
use pnacl_bitcode::{Abbrevs, ReadOptions};
use pnacl_testutil::{llvm_tool, pexes};
use std::path::Path;

/// The pexe `original` as finalize would have written it from its unstripped module:
/// names other than `_start` and the intrinsics' dropped, standard abbreviations.
fn stripped(original: &[u8]) -> Vec<u8> {
    let options = ReadOptions { no_layout: true, ..ReadOptions::default() };
    let mut m = pnacl_bitcode::read_parallel(original, options).expect("the corpus pexe reads");
    let kept: Vec<_> = m
        .symtab
        .take()
        .unwrap_or_default()
        .into_iter()
        .filter(|s| s.name == b"_start" || s.name.starts_with(b"llvm."))
        .collect();
    assert!(kept.iter().any(|s| s.name == b"_start"), "the pexe names no _start");
    m.symtab = (!kept.is_empty()).then_some(kept);
    pnacl_bitcode::write(&m, Abbrevs::Standard).expect("write the stripped module")
}

#[test]
fn finalize_of_thawed_cli_pexes_gives_them_back_stripped() {
    let llvm_as = llvm_tool("llvm-as", 14);
    let dir = tempfile::tempdir().expect("a temporary directory");
    let cli: Vec<_> = pexes().into_iter().filter(|e| e.kind == "cli").collect();
    assert!(cli.len() >= 14, "the corpus lists {} cli pexes", cli.len());
    let (mut identical, mut vst_only, mut failures) = (Vec::new(), Vec::new(), Vec::new());
    for e in &cli {
        let base = dir.path().join(stem(&e.file));
        let (ll, bc, out) = (base.with_extension("ll"), base.with_extension("bc"), base.with_extension("pexe"));
        let input = e.path();
        let result = pnacl_ok(
            "pnacl thaw",
            ["thaw".as_ref(), "--typed-pointers".as_ref(), input.as_os_str(), "-o".as_ref(), ll.as_os_str()],
        )
        .and_then(|_| assemble(&llvm_as, &ll, &bc))
        .and_then(|()| {
            pnacl_ok("pnacl finalize", ["finalize".as_ref(), bc.as_os_str(), "-o".as_ref(), out.as_os_str()])
        })
        .and_then(|_| {
            let got = std::fs::read(&out).map_err(|err| format!("{}: {err}", out.display()))?;
            let original = std::fs::read(&input).map_err(|err| format!("{}: {err}", input.display()))?;
            Ok(compare(&got, &stripped(&original)))
        });
        match result {
            Ok(Same::Identical) => identical.push(e.file.clone()),
            Ok(Same::VstOrderOnly) => {
                println!(
                    "{}: finalize differs from the stripped original only in the order of the module symbol table",
                    e.file
                );
                vst_only.push(e.file.clone());
            }
            Ok(Same::Differs(why)) => failures.push(format!("{}: the finalized pexe differs: {why}", e.file)),
            Err(why) => failures.push(format!("{}: {why}", e.file)),
        }
    }
    println!(
        "finalize of {} thawed cli pexes: {} byte-identical to the stripped original, {} differing only in module \
         symbol-table order",
        cli.len(),
        identical.len(),
        vst_only.len()
    );
    println!("identical: {}", identical.join(", "));
    assert!(failures.is_empty(), "{} of {} cli pexes fail:\n{}", failures.len(), cli.len(), failures.join("\n"));
}

/// An SDK-style leftover (what pnacl-ld left for pnacl-finalize): ABI-simplified, with
/// names, debug information as clang of the 3.x SDKs attached it (in today's syntax, which
/// `llvm-as-14` reads), module flags, `llvm.ident` and attributes.
const LEFTOVER_WITH_DEBUG_INFO: &str = r#"
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

@counter = internal global [4 x i8] zeroinitializer, align 4, !dbg !20
@message = internal constant [6 x i8] c"hello\00", align 1
@table = internal global <{ i32, [4 x i8] }> <{ i32 ptrtoint ([6 x i8]* @message to i32), [4 x i8] c"\01\02\03\04" }>, align 4

define internal i32 @square(i32 %x) #0 !dbg !10 {
entry:
  call void @llvm.dbg.value(metadata i32 %x, metadata !14, metadata !DIExpression()), !dbg !15
  %y = mul i32 %x, %x, !dbg !16
  call void @llvm.dbg.value(metadata i32 %y, metadata !22, metadata !DIExpression()), !dbg !16
  ret i32 %y, !dbg !16
}

define void @_start(i32 %args) #1 !dbg !17 {
entry:
  %p = inttoptr i32 %args to i32*, !dbg !18
  %argc = load i32, i32* %p, align 1, !dbg !18
  %sq = call i32 @square(i32 %argc) #3, !dbg !18
  %g = bitcast [4 x i8]* @counter to i32*
  store i32 %sq, i32* %g, align 1, !dbg !19
  %tp = call i8* @llvm.nacl.read.tp(), !dbg !19
  %t = ptrtoint i8* %tp to i32
  %c = icmp eq i32 %t, %sq, !dbg !19
  br i1 %c, label %done, label %fail, !dbg !19

fail:
  call void @llvm.trap() #4, !dbg !19
  unreachable

done:
  ret void, !dbg !19
}

declare void @llvm.dbg.value(metadata, metadata, metadata) #2
declare i8* @llvm.nacl.read.tp() #0
declare void @llvm.trap() #4

attributes #0 = { nounwind readnone }
attributes #1 = { nounwind "frame-pointer"="none" "less-precise-fpmad"="false" }
attributes #2 = { nounwind readnone speculatable willreturn }
attributes #3 = { nounwind }
attributes #4 = { noreturn nounwind }

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4, !5}
!llvm.ident = !{!6}

!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "clang version 3.7.0 (PNaCl)", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug, enums: !2, globals: !21)
!1 = !DIFile(filename: "leftover.c", directory: "/sdk/build")
!2 = !{}
!3 = !{i32 2, !"Dwarf Version", i32 4}
!4 = !{i32 2, !"Debug Info Version", i32 3}
!5 = !{i32 1, !"PIC Level", i32 2}
!6 = !{!"clang version 3.7.0 (PNaCl)"}
!7 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!8 = !DISubroutineType(types: !9)
!9 = !{!7, !7}
!10 = distinct !DISubprogram(name: "square", scope: !1, file: !1, line: 3, type: !8, scopeLine: 3, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !13)
!13 = !{!14, !22}
!14 = !DILocalVariable(name: "x", arg: 1, scope: !10, file: !1, line: 3, type: !7)
!15 = !DILocation(line: 3, column: 16, scope: !10)
!16 = !DILocation(line: 4, column: 12, scope: !10)
!17 = distinct !DISubprogram(name: "_start", scope: !1, file: !1, line: 7, type: !8, scopeLine: 7, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !2)
!18 = !DILocation(line: 8, column: 3, scope: !17)
!19 = !DILocation(line: 9, column: 3, scope: !17)
!20 = !DIGlobalVariableExpression(var: !23, expr: !DIExpression())
!21 = !{!20}
!22 = !DILocalVariable(name: "y", scope: !10, file: !1, line: 4, type: !7)
!23 = distinct !DIGlobalVariable(name: "counter", scope: !0, file: !1, line: 1, type: !7, isLocal: true, isDefinition: true)
"#;

/// The same module as a finalized pexe holds it, written by hand from the PNaCl rules: no
/// debug information, metadata, module flags or attributes, and no names but `_start` and
/// the intrinsics' (`-strip` keeps external names only).
const LEFTOVER_AS_FINALIZED: &str = r#"
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

@0 = internal global [4 x i8] zeroinitializer, align 4
@1 = internal constant [6 x i8] c"hello\00", align 1
@2 = internal global <{ i32, [4 x i8] }> <{ i32 ptrtoint ([6 x i8]* @1 to i32), [4 x i8] c"\01\02\03\04" }>, align 4

define internal i32 @3(i32 %0) {
  %2 = mul i32 %0, %0
  ret i32 %2
}

define void @_start(i32 %0) {
  %2 = inttoptr i32 %0 to i32*
  %3 = load i32, i32* %2, align 1
  %4 = call i32 @3(i32 %3)
  %5 = bitcast [4 x i8]* @0 to i32*
  store i32 %4, i32* %5, align 1
  %6 = call i8* @llvm.nacl.read.tp()
  %7 = ptrtoint i8* %6 to i32
  %8 = icmp eq i32 %7, %4
  br i1 %8, label %10, label %9

9:
  call void @llvm.trap()
  unreachable

10:
  ret void
}

declare i8* @llvm.nacl.read.tp()
declare void @llvm.trap()
"#;

fn write_and_assemble(dir: &Path, name: &str, text: &str) -> std::path::PathBuf {
    let ll = dir.join(format!("{name}.ll"));
    let bc = dir.join(format!("{name}.bc"));
    std::fs::write(&ll, text).expect("write the test input");
    assemble(&llvm_tool("llvm-as", 14), &ll, &bc).unwrap_or_else(|e| panic!("{e}"));
    bc
}

#[test]
fn finalize_strips_debug_info_metadata_flags_attributes_and_names() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let with_debug = write_and_assemble(dir.path(), "leftover", LEFTOVER_WITH_DEBUG_INFO);
    let plain = write_and_assemble(dir.path(), "plain", LEFTOVER_AS_FINALIZED);
    let finalized = dir.path().join("finalized.pexe");
    let frozen = dir.path().join("frozen.pexe");
    pnacl_ok("pnacl finalize", ["finalize".as_ref(), with_debug.as_os_str(), "-o".as_ref(), finalized.as_os_str()])
        .unwrap_or_else(|e| panic!("{e}"));
    pnacl_ok("pnacl freeze", ["freeze".as_ref(), plain.as_os_str(), "-o".as_ref(), frozen.as_os_str()])
        .unwrap_or_else(|e| panic!("{e}"));
    let check = pnacl(["check".as_ref(), finalized.as_os_str()]);
    assert!(
        check.status.success(),
        "pnacl check refuses the finalized pexe:\n{}{}",
        String::from_utf8_lossy(&check.stdout),
        String::from_utf8_lossy(&check.stderr)
    );
    let (got, want) = (std::fs::read(&finalized).unwrap(), std::fs::read(&frozen).unwrap());
    assert!(
        got == want,
        "finalize of the leftover differs from freeze of it without debug info: {:?}",
        compare(&got, &want)
    );
    // What the pexe holds, read back: three names, in the module symbol table only.
    let m = pnacl_bitcode::read(&got).expect("the finalized pexe reads");
    let mut names: Vec<String> =
        m.symtab.iter().flatten().map(|s| String::from_utf8_lossy(&s.name).into_owned()).collect();
    names.sort();
    assert_eq!(names, ["_start", "llvm.nacl.read.tp", "llvm.trap"]);
    assert_eq!(m.functions.len(), 4, "llvm.dbg.value's declaration must be gone");
    assert!(m.functions.iter().filter_map(|f| f.body.as_ref()).all(|b| b.symtab.is_none()), "no local names");
    // The debug information is what finalize strips and freeze does not: freeze alone
    // refuses it (pnacl-freeze crashed on it) and writes nothing.
    let refused = dir.path().join("refused.pexe");
    let out = pnacl(["freeze".as_ref(), with_debug.as_os_str(), "-o".as_ref(), refused.as_os_str()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && !refused.exists(), "freeze wrote a pexe with debug info in it: {stderr}");
    assert!(stderr.contains("llvm.dbg.value") && stderr.contains("metadata"), "{stderr}");
}

/// A real SDK leftover: `llvm/part2_unstripped.bc` (the Pepper 49 SDK's getting_started
/// part 2, LLVM 3.x bitcode with debug information, which `llvm-dis-14` cannot read). Its
/// shipped pexe is not in the corpus, so: finalize must write a pexe that passes `pnacl
/// check`, names nothing but `_start` and the intrinsics (no `llvm.dbg.*`), is recognised
/// as the browser application it is, and comes back from thaw → llvm-as-14 → finalize.
#[test]
fn finalize_of_an_sdk_unstripped_bc_is_clean_and_stable() {
    let input = pnacl_testutil::corpus_dir().join("llvm/part2_unstripped.bc");
    assert!(input.is_file(), "{} is missing", input.display());
    let dir = tempfile::tempdir().expect("a temporary directory");
    let pexe = dir.path().join("part2.pexe");
    pnacl_ok("pnacl finalize", ["finalize".as_ref(), input.as_os_str(), "-o".as_ref(), pexe.as_os_str()])
        .unwrap_or_else(|e| panic!("{e}"));
    let check = pnacl(["check".as_ref(), pexe.as_os_str()]);
    assert!(check.status.success(), "pnacl check: {}", String::from_utf8_lossy(&check.stderr));
    let bytes = std::fs::read(&pexe).unwrap();
    let m = pnacl_bitcode::read(&bytes).expect("the finalized pexe reads");
    let names: Vec<String> = m.symtab.iter().flatten().map(|s| String::from_utf8_lossy(&s.name).into_owned()).collect();
    assert!(names.iter().any(|n| n == "_start"), "{names:?}");
    for n in &names {
        assert!(
            n == "_start" || (n.starts_with("llvm.") && !n.starts_with("llvm.dbg.")),
            "name {n:?} left in {names:?}"
        );
    }
    let run = pnacl(["run".as_ref(), pexe.as_os_str()]);
    assert_eq!(run.status.code(), Some(126), "a PPAPI pexe: {}", String::from_utf8_lossy(&run.stderr));

    let (ll, bc, again) = (dir.path().join("part2.ll"), dir.path().join("part2.bc"), dir.path().join("again.pexe"));
    pnacl_ok(
        "pnacl thaw",
        ["thaw".as_ref(), "--typed-pointers".as_ref(), pexe.as_os_str(), "-o".as_ref(), ll.as_os_str()],
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assemble(&llvm_tool("llvm-as", 14), &ll, &bc).unwrap_or_else(|e| panic!("{e}"));
    pnacl_ok("pnacl finalize", ["finalize".as_ref(), bc.as_os_str(), "-o".as_ref(), again.as_os_str()])
        .unwrap_or_else(|e| panic!("{e}"));
    let result = compare(&std::fs::read(&again).unwrap(), &bytes);
    println!("part2_unstripped.bc: finalize of its thawed pexe: {result:?}");
    assert!(matches!(result, Same::Identical | Same::VstOrderOnly), "{result:?}");
}
