//! csmith programs that found bugs in `pnacl cc` (issue 28's runs), kept as regression
//! tests: each seed, with its csmith options, optimisation level and clang, is built by
//! `pnacl cc` and run, and must print the checksum and exit as gcc's 32-bit native build
//! does. Why each seed is here is said beside it.

use pnacl_testutil::{llvm_tool, pnacl_command};
use std::path::Path;
use std::process::Command;

/// One seed: csmith's options, `pnacl cc`'s level, the clang version, and what it found.
struct Seed {
    seed: u64,
    csmith: &'static [&'static str],
    opt: &'static str,
    clang: u32,
    found: &'static str,
}

const SEEDS: &[Seed] = &[
    Seed { seed: 100168, csmith: &[], opt: "-O2", clang: 14, found: "llvm.bitreverse.i1 was refused" },
    Seed { seed: 100168, csmith: &[], opt: "-O1", clang: 19, found: "llvm.bitreverse.i1 was refused" },
    Seed {
        seed: 201922,
        csmith: &[],
        opt: "-O2",
        clang: 14,
        found: "icmp ult i80 (a packed bitfield unit) was refused",
    },
    Seed { seed: 201974, csmith: &[], opt: "-O2", clang: 14, found: "an ordered i80 compare was refused" },
    Seed {
        seed: 100041,
        csmith: &[],
        opt: "-O2",
        clang: 19,
        found: "every clang 19 build was refused (the reader's global address types, two memcpy declarations)",
    },
];

fn run_ok(cmd: &mut Command, what: &str) -> std::process::Output {
    let o = cmd.output().unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!(o.status.success(), "{what} failed: {}", String::from_utf8_lossy(&o.stderr));
    o
}

fn check(s: &Seed, dir: &Path) -> Result<(), String> {
    let tag = format!("seed {} {} clang-{} {:?} ({})", s.seed, s.opt, s.clang, s.csmith, s.found);
    let src = dir.join(format!("csmith{}.c", s.seed));
    // In the scratch directory: csmith leaves a platform.info file where it runs.
    let generated =
        run_ok(Command::new("csmith").args(["--seed", &s.seed.to_string()]).args(s.csmith).current_dir(dir), "csmith");
    std::fs::write(&src, &generated.stdout).expect("write the program");
    let native = dir.join(format!("native{}", s.seed));
    run_ok(
        Command::new("gcc")
            .args(["-m32", "-malign-double", "-O1", "-w", "-I/usr/include/csmith"])
            .arg(&src)
            .arg("-o")
            .arg(&native)
            .arg("-lm"),
        "gcc -m32 (needs gcc-multilib)",
    );
    let want = Command::new("timeout").arg("10").arg(&native).output().expect("run the native program");
    assert_eq!(want.status.code(), Some(0), "{tag}: the native build must finish");
    let pexe = dir.join(format!("p{}.pexe", s.seed));
    let built = pnacl_command()
        .args(["cc", s.opt, "-w", "-I/usr/include/csmith", "--clang"])
        .arg(llvm_tool("clang", s.clang))
        .arg(&src)
        .arg("-o")
        .arg(&pexe)
        .output()
        .expect("run pnacl cc");
    if !built.status.success() {
        return Err(format!("{tag}: pnacl cc: {}", String::from_utf8_lossy(&built.stderr)));
    }
    let got = pnacl_command().arg("run").arg(&pexe).output().expect("run pnacl run");
    if got.stdout != want.stdout || got.status.code() != want.status.code() {
        return Err(format!(
            "{tag}: exit {:?}, stdout {:?}; native {:?}",
            got.status.code(),
            String::from_utf8_lossy(&got.stdout),
            String::from_utf8_lossy(&want.stdout)
        ));
    }
    Ok(())
}

#[test]
fn csmith_seeds_that_found_bugs_match_gcc() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let found = Command::new("csmith").arg("--version").current_dir(dir.path()).output().is_ok();
    assert!(found, "`csmith` is not installed: this test needs it (Debian: apt-get install csmith libcsmith-dev)");
    let failures: Vec<String> = SEEDS.iter().filter_map(|s| check(s, dir.path()).err()).collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
