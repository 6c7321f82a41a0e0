//! Computed goto at the scale of a real program: Lua in its default build (the corpus's
//! sources, whose `lvm.c` dispatches through the jump table of `ljumptab.h`) goes through
//! every simplification pass at -O0 and -O2 (`pnacl cc --emit-llvm`). The result must hold
//! no `indirectbr` or `blockaddress`, dispatch through one switch per `goto *` with a case
//! for each label of the table (counted in `ljumptab.h`), and pass `opt-19 -passes=verify`.
//! `cc_corpus` runs that build's scripts against gcc, and
//! `tests/c/programs/computed_goto.c` runs smaller such code.

use pnacl_testutil::{corpus_dir, llvm_tool, pnacl_command};
use std::path::PathBuf;
use std::process::Command;

/// The number of cases of each switch whose default is the expansion's `unreachable` block.
fn dispatch_switches(ir: &str) -> Vec<usize> {
    let mut counts = Vec::new();
    let mut current: Option<usize> = None;
    for line in ir.lines() {
        let l = line.trim();
        if l.starts_with("switch ") && l.contains("label %indirectbr_default [") {
            current = Some(0);
        } else if let Some(c) = current.as_mut() {
            if l == "]" {
                counts.push(*c);
                current = None;
            } else {
                *c += 1;
            }
        }
    }
    counts
}

#[test]
fn luas_jump_table_dispatch_goes_through_every_pass() {
    let lua = corpus_dir().join("c/lua");
    let table = std::fs::read_to_string(lua.join("ljumptab.h")).expect("ljumptab.h");
    let mut labels: Vec<&str> = table
        .split("&&L_OP_")
        .skip(1)
        .map(|r| r.split(|c: char| !c.is_ascii_alphanumeric() && c != '_').next().unwrap_or(""))
        .collect();
    labels.sort_unstable();
    labels.dedup();
    assert!(labels.len() > 80, "ljumptab.h lists only {} labels", labels.len());
    let dir = tempfile::tempdir().expect("temporary directory");
    let sources: Vec<PathBuf> = std::fs::read_dir(&lua)
        .expect("lua sources")
        .map(|e| e.expect("entry").path())
        .filter(|p| {
            p.extension().is_some_and(|e| e == "c")
                && !matches!(p.file_name().and_then(|n| n.to_str()), Some("onelua.c" | "ltests.c"))
        })
        .collect();
    assert!(sources.len() >= 30, "lua: {} sources", sources.len());
    for opt in ["-O0", "-O2"] {
        let ll = dir.path().join(format!("lua{opt}.ll"));
        let o = pnacl_command()
            .args(["cc", opt, "-std=c99", "-DLUA_USE_POSIX", "--emit-llvm", "-o"])
            .arg(&ll)
            .args(&sources)
            .output()
            .expect("run pnacl cc");
        assert!(o.status.success(), "pnacl cc {opt}: {}", String::from_utf8_lossy(&o.stderr));
        let ir = std::fs::read_to_string(&ll).expect("the simplified module");
        assert!(ir.contains("@luaV_execute("), "{opt}: luaV_execute is gone");
        assert!(!ir.contains("indirectbr ") && !ir.contains("blockaddress"), "{opt}: computed goto is left");
        let switches = dispatch_switches(&ir);
        assert!(!switches.is_empty(), "{opt}: no dispatch switch");
        assert!(switches.iter().all(|&n| n == labels.len()), "{opt}: cases {switches:?}, labels {}", labels.len());
        let verify = Command::new(llvm_tool("opt", 19))
            .args(["-passes=verify", "-disable-output"])
            .arg(&ll)
            .output()
            .expect("run opt-19");
        assert!(verify.status.success(), "{opt}: opt-19 refuses it: {}", String::from_utf8_lossy(&verify.stderr));
    }
}
