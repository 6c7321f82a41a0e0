//! Computed goto at the scale of a real program: Lua's virtual machine (`lvm.c` of the
//! corpus, in its default build, whose dispatch is the jump table of `ljumptab.h`) goes
//! through every simplification pass, with its static table of label addresses, at -O0 and
//! -O2. The whole of Lua needs headers pnacl's C library does not have yet (`<locale.h>`,
//! `<signal.h>`: part 2 of issue 29 brings newlib), so this compiles `lvm.c` alone, with
//! `sig_atomic_t` (all `lstate.h` takes from `<signal.h>`) from a header of the test's
//! own, and links it to a `_start` that calls `luaV_execute` so that nothing is dead. The
//! result must hold no `indirectbr` or `blockaddress`, dispatch through one switch per
//! `goto *` with a case for each label of the table (counted in `ljumptab.h`), and pass
//! `opt-19 -passes=verify`. `tests/c/programs/computed_goto.c` runs such code against gcc.

use pnacl_testutil::{corpus_dir, llvm_tool, pnacl_command, workspace_root};
use std::path::Path;
use std::process::Command;

fn clang(src: &Path, opt: &str, include: &Path, out: &Path) {
    let o = Command::new(llvm_tool("clang", 14))
        .args(["-target", "le32-unknown-nacl", "-emit-llvm", "-c", opt, "-w", "-ffreestanding", "-nostdinc"])
        .arg("-isystem")
        .arg(workspace_root().join("libc/include"))
        .arg("-isystem")
        .arg(include)
        .arg(src)
        .arg("-o")
        .arg(out)
        .output()
        .expect("run clang-14");
    assert!(o.status.success(), "clang-14 {opt} {}: {}", src.display(), String::from_utf8_lossy(&o.stderr));
}

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
    std::fs::write(dir.path().join("signal.h"), "typedef int sig_atomic_t;\n").unwrap();
    let start = dir.path().join("start.c");
    std::fs::write(
        &start,
        "struct lua_State; struct CallInfo;\nvoid luaV_execute(struct lua_State *L, struct CallInfo *ci);\n\
         void _start(unsigned *info) { luaV_execute(0, 0); }\n",
    )
    .unwrap();
    let start_bc = dir.path().join("start.bc");
    clang(&start, "-O2", dir.path(), &start_bc);
    for opt in ["-O0", "-O2"] {
        let vm = dir.path().join(format!("lvm{opt}.bc"));
        clang(&lua.join("lvm.c"), opt, dir.path(), &vm);
        let ll = dir.path().join(format!("lvm{opt}.ll"));
        let o = pnacl_command()
            .args(["simplify", "--emit-llvm", "-o"])
            .arg(&ll)
            .arg(&vm)
            .arg(&start_bc)
            .output()
            .expect("run pnacl simplify");
        assert!(o.status.success(), "pnacl simplify {opt}: {}", String::from_utf8_lossy(&o.stderr));
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
