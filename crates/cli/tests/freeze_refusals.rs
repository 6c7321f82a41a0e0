//! Issue 17, acceptance: what `pnacl freeze` and `pnacl finalize` refuse, and how.
//!
//! - `freeze` refuses what the PNaCl writer cannot express (struct types, GEPs, an `i7`,
//!   varargs in a call, other calling conventions, illegal casts and instructions, inline
//!   assembly, non-i8 allocas, unflattened global initializers, aliases, alignments above
//!   2**29), naming the function, the instruction as LLVM IR and the reason; it exits with
//!   status 1 (bad input) and writes nothing, leaving an existing output file as it was. The reasons are checked
//!   by the words of pnacl-freeze's own messages where freeze-facts.md §1.3 gives them.
//! - `finalize` refuses a module that breaks the PNaCl ABI with the diagnostics `pnacl
//!   check` gives for it, status 3, and writes nothing; `--no-verify` writes it.

#[path = "common/freeze.rs"]
mod common;

use common::{assemble, pnacl};
use pnacl_testutil::llvm_tool;
use std::path::{Path, PathBuf};
use std::process::Command;

/// One module `freeze` must refuse.
struct Refusal {
    /// Test name (and file name).
    name: &'static str,
    /// LLVM IR text, without the target lines (see [`version`] for the assembler).
    ir: &'static str,
    /// The function (`function @NAME`) or other construct the message names.
    names: &'static str,
    /// The instruction, as LLVM prints it (the line of `ir` that holds it), if any.
    instruction: Option<&'static str>,
    /// Words of the reason.
    reason: &'static str,
}

const REFUSALS: &[Refusal] = &[
    Refusal {
        name: "getelementptr",
        ir: "define i32 @getit(i32* %p) {\n  %q = getelementptr i32, i32* %p, i32 3\n  %v = load i32, i32* %q, align 1\n  \
             ret i32 %v\n}\n",
        names: "function @getit",
        instruction: Some("%q = getelementptr i32, i32* %p, i32 3"),
        reason: "NaCl Illegal instruction",
    },
    Refusal {
        name: "getelementptr_opaque",
        ir: "define i32 @getit(ptr %p) {\n  %q = getelementptr inbounds i32, ptr %p, i32 3\n  %v = load i32, ptr %q, \
             align 1\n  ret i32 %v\n}\n",
        names: "function @getit",
        instruction: Some("%q = getelementptr inbounds i32, ptr %p, i32 3"),
        reason: "NaCl Illegal instruction",
    },
    Refusal {
        name: "struct_load",
        ir: "define i32 @sum(i32 %a) {\n  %p = inttoptr i32 %a to { i32, i32 }*\n  %s = load { i32, i32 }, { i32, i32 }* \
             %p, align 1\n  %x = extractvalue { i32, i32 } %s, 0\n  ret i32 %x\n}\n",
        names: "function @sum",
        instruction: Some("%s = load { i32, i32 }, { i32, i32 }* %p, align 1"),
        reason: "Struct types are not supported in PNaCl bitcode",
    },
    Refusal {
        name: "struct_parameter",
        ir: "%pair = type { i32, i32 }\n\ndefine i32 @first(%pair %s) {\n  %a = extractvalue %pair %s, 0\n  ret i32 \
             %a\n}\n",
        names: "function @first",
        instruction: None,
        reason: "Struct types are not supported in PNaCl bitcode",
    },
    Refusal {
        name: "i7",
        ir: "define i32 @odd(i32 %x) {\n  %t = trunc i32 %x to i7\n  %z = zext i7 %t to i32\n  ret i32 %z\n}\n",
        names: "function @odd",
        instruction: Some("%t = trunc i32 %x to i7"),
        reason: "i7",
    },
    Refusal {
        name: "varargs_call",
        ir: "@fmt = internal constant [4 x i8] c\"%d\\0A\\00\"\n\ndeclare i32 @printf(i8*, ...)\n\ndefine i32 \
             @caller(i32 %x) {\n  %p = bitcast [4 x i8]* @fmt to i8*\n  %r = call i32 (i8*, ...) @printf(i8* %p, \
             i32 %x)\n  ret i32 %r\n}\n",
        names: "function @caller",
        instruction: Some("%r = call i32 (i8*, ...) @printf(i8* %p, i32 %x)"),
        reason: "vararg",
    },
    Refusal {
        name: "calling_convention",
        ir: "define fastcc i32 @quick(i32 %a) {\n  ret i32 %a\n}\n",
        names: "function @quick",
        instruction: None,
        reason: "Calling convention not supported by PNaCL bitcode",
    },
    Refusal {
        name: "ptrtoint_i64",
        ir: "define i64 @wide(i32 %a) {\n  %p = inttoptr i32 %a to i8*\n  %w = ptrtoint i8* %p to i64\n  ret i64 \
             %w\n}\n",
        names: "function @wide",
        instruction: Some("%w = ptrtoint i8* %p to i64"),
        reason: "NaCl Illegal cast",
    },
    Refusal {
        name: "shufflevector",
        ir: "define <4 x i32> @swap(<4 x i32> %v) {\n  %s = shufflevector <4 x i32> %v, <4 x i32> undef, <4 x i32> \
             <i32 1, i32 0, i32 3, i32 2>\n  ret <4 x i32> %s\n}\n",
        names: "function @swap",
        instruction: Some("%s = shufflevector <4 x i32> %v, <4 x i32> undef, <4 x i32> <i32 1, i32 0, i32 3, i32 2>"),
        reason: "NaCl Illegal instruction",
    },
    Refusal {
        name: "atomicrmw",
        ir: "define i32 @bump(i32 %a) {\n  %p = inttoptr i32 %a to i32*\n  %old = atomicrmw add i32* %p, i32 1 \
             seq_cst, align 4\n  ret i32 %old\n}\n",
        names: "function @bump",
        instruction: Some("%old = atomicrmw add i32* %p, i32 1 seq_cst, align 4"),
        reason: "NaCl Illegal instruction",
    },
    Refusal {
        name: "inline_asm",
        ir: "define void @barrier(i32 %a) {\n  call void asm sideeffect \"\", \"~{memory}\"()\n  ret void\n}\n",
        names: "function @barrier",
        instruction: Some("call void asm sideeffect \"\", \"~{memory}\"()"),
        reason: "NaCl Illegal inline assembly",
    },
    Refusal {
        name: "alloca_i32",
        ir: "define void @frame(i32 %a) {\n  %slot = alloca i32, i32 2, align 4\n  ret void\n}\n",
        names: "function @frame",
        instruction: Some("%slot = alloca i32, i32 2, align 4"),
        reason: "Type of alloca instruction is not i8",
    },
    Refusal {
        name: "global_initializer",
        ir: "@answer = internal global i32 42, align 4\n\ndefine void @_start(i32 %a) {\n  ret void\n}\n",
        names: "global @answer",
        instruction: None,
        reason: "Global i32 initializer not constant",
    },
    // Today's LLVM allows alignments up to 2**32; PNaCl's readers refuse more than 2**29.
    Refusal {
        name: "load_align_2_pow_30_opaque",
        ir: "define i32 @big(i32 %a) {\n  %p = inttoptr i32 %a to ptr\n  %v = load i32, ptr %p, align 1073741824\n  \
             ret i32 %v\n}\n",
        names: "function @big",
        instruction: Some("%v = load i32, ptr %p, align 1073741824"),
        reason: "Alignment can't be greater than 2**29. Found: 2**30",
    },
    Refusal {
        name: "global_align_2_pow_30_opaque",
        ir: "@big = internal global [4 x i8] zeroinitializer, align 1073741824\n\ndefine void @_start(i32 %a) {\n  \
             ret void\n}\n",
        names: "global @big",
        instruction: None,
        reason: "Alignment can't be greater than 2**29. Found: 2**30",
    },
    Refusal {
        name: "alias",
        ir: "@_start = alias void (i32), void (i32)* @impl\n\ndefine internal void @impl(i32 %a) {\n  ret void\n}\n",
        names: "alias @_start",
        instruction: None,
        reason: "alias",
    },
];

/// The LLVM version whose `llvm-as` reads test `name`'s IR: 19 for the opaque-pointer
/// tests (named `*_opaque`), else 14.
fn version(name: &str) -> u32 {
    if name.ends_with("_opaque") { 19 } else { 14 }
}

/// Writes `ir` as `NAME.ll` in `dir` and assembles it (see [`version`]).
fn bitcode(dir: &Path, name: &str, ir: &str) -> PathBuf {
    let ll = dir.join(format!("{name}.ll"));
    let bc = dir.join(format!("{name}.bc"));
    let header = "target datalayout = \"e-p:32:32-i64:64\"\ntarget triple = \"le32-unknown-nacl\"\n\n";
    std::fs::write(&ll, format!("{header}{ir}")).expect("write the test input");
    assemble(&llvm_tool("llvm-as", version(name)), &ll, &bc).unwrap_or_else(|e| panic!("{name}: {e}"));
    bc
}

/// The lines `llvm-dis` of LLVM `version` prints for `bc`, trimmed.
fn disassembled(bc: &Path, version: u32) -> Vec<String> {
    let out = Command::new(llvm_tool("llvm-dis", version)).arg(bc).arg("-o").arg("-").output().expect("run llvm-dis");
    assert!(out.status.success(), "llvm-dis: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).lines().map(|l| l.trim().to_string()).collect()
}

#[test]
fn freeze_refuses_what_the_writer_cannot_express() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let mut failures = Vec::new();
    for r in REFUSALS {
        let bc = bitcode(dir.path(), r.name, r.ir);
        let out_path = dir.path().join(format!("{}.pexe", r.name));
        let out = pnacl(["freeze".as_ref(), bc.as_os_str(), "-o".as_ref(), out_path.as_os_str()]);
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        let mut problems = Vec::new();
        if out.status.code() != Some(1) {
            problems.push(format!("exit status {:?}, expected 1 (bad input)", out.status.code()));
        }
        if out_path.exists() {
            problems.push("an output file was written".into());
        }
        let prefix = format!("pnacl freeze: {}: ", bc.display());
        if !stderr.starts_with(&prefix) || stderr.lines().count() != 1 {
            problems.push(format!("not one diagnostic line starting {prefix:?}"));
        }
        let mut wanted = vec![format!("{}: ", r.names), r.reason.to_string()];
        if let Some(inst) = r.instruction {
            wanted.push(format!(": {inst}: "));
            // The instruction as LLVM itself prints it.
            let version = version(r.name);
            if !disassembled(&bc, version).iter().any(|l| l == inst) {
                problems.push(format!("test error: llvm-dis-{version} does not print {inst:?}"));
            }
        }
        for w in &wanted {
            if !stderr.to_lowercase().contains(&w.to_lowercase()) {
                problems.push(format!("the message lacks {w:?}"));
            }
        }
        if !problems.is_empty() {
            failures.push(format!("{}: {}\n  stderr: {}", r.name, problems.join("; "), stderr.trim_end()));
        }
    }
    assert!(failures.is_empty(), "{} of {} refusals wrong:\n{}", failures.len(), REFUSALS.len(), failures.join("\n"));
}

#[test]
fn a_refused_freeze_leaves_an_existing_output_as_it_was() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let bc = bitcode(dir.path(), "gep", REFUSALS[0].ir);
    let out_path = dir.path().join("old.pexe");
    std::fs::write(&out_path, b"the old contents").unwrap();
    let out = pnacl(["freeze".as_ref(), bc.as_os_str(), "-o".as_ref(), out_path.as_os_str()]);
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(std::fs::read(&out_path).unwrap(), b"the old contents");
    let mut left: Vec<String> =
        std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    left.sort();
    assert_eq!(left, ["gep.bc", "gep.ll", "old.pexe"], "no temporary file may stay behind");
}

/// A module `freeze` can write but that breaks the ABI: an `i32` load aligned 4 (PNaCl
/// wants 1) and `i1` arithmetic.
const ABI_BREAKING: &str = "define void @_start(i32 %args) {\n  %p = inttoptr i32 %args to i32*\n  %v = load i32, i32* \
                            %p, align 4\n  %b = trunc i32 %v to i1\n  %c = add i1 %b, %b\n  ret void\n}\n";

#[test]
fn finalize_refuses_an_abi_breaking_module_with_checks_diagnostics() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let bc = bitcode(dir.path(), "abi", ABI_BREAKING);
    let out_path = dir.path().join("abi.pexe");
    let out = pnacl(["finalize".as_ref(), bc.as_os_str(), "-o".as_ref(), out_path.as_os_str()]);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(3), "finalize of an ABI-breaking module: {stderr}");
    assert!(!out_path.exists(), "finalize wrote a pexe that breaks the ABI");
    assert!(stderr.contains("nothing written"), "{stderr}");

    // --no-verify writes it; `pnacl check` then finds the same violations finalize reported.
    let out = pnacl(["finalize".as_ref(), "--no-verify".as_ref(), bc.as_os_str(), "-o".as_ref(), out_path.as_os_str()]);
    assert!(out.status.success(), "finalize --no-verify: {}", String::from_utf8_lossy(&out.stderr));
    assert!(out_path.is_file(), "finalize --no-verify wrote nothing");
    let check = pnacl(["check".as_ref(), out_path.as_os_str()]);
    assert_eq!(check.status.code(), Some(3), "pnacl check of the ABI-breaking pexe");
    let report = format!("{}{}", String::from_utf8_lossy(&check.stdout), String::from_utf8_lossy(&check.stderr));
    let prefix = format!("{}: ", out_path.display());
    let violations: Vec<&str> = report.lines().filter_map(|l| l.strip_prefix(&prefix)).collect();
    assert_eq!(violations.len(), 2, "pnacl check should report the two violations:\n{report}");
    for v in &violations {
        assert!(stderr.contains(v), "finalize's diagnostics lack check's {v:?}:\n{stderr}");
    }
    // The violations, in the spec's terms: the load's alignment and the i1 arithmetic.
    let lower = stderr.to_lowercase();
    assert!(lower.contains("alignment") && lower.contains("i32"), "{stderr}");
    assert!(lower.contains("i1") && lower.contains("add"), "{stderr}");
    assert!(stderr.contains("function _start"), "{stderr}");
}
