//! The native test build: the library compiled with gcc for the host, every one of its
//! symbols renamed `pnl_NAME` (so that it links next to glibc, the tests' oracle), and
//! linked with the host IRT and the C harness of `libc/test`.
//!
//! The library is compiled exactly as freestanding code, against its own headers
//! (`-ffreestanding -nostdinc`); `-fno-builtin` and `-fno-tree-loop-distribute-patterns`
//! keep gcc from turning its loops into calls to the functions they implement, and
//! `-fno-math-errno` lets `__builtin_sqrt` be the instruction, as it is llvm.sqrt on le32.

use crate::{find_tool, libc_dir, product_name, run, sources};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The gcc flags of the library in the native build.
pub const LIBRARY_FLAGS: &[&str] = &[
    "-O2",
    "-std=c11",
    "-ffreestanding",
    "-nostdinc",
    "-fno-builtin",
    "-fno-stack-protector",
    "-fno-tree-loop-distribute-patterns",
    "-ffp-contract=off",
    "-fno-math-errno",
    "-Wall",
    "-Wextra",
    "-Werror",
];

/// Builds the harness in `work` (created if needed) and returns its path.
pub fn build_harness(work: &Path) -> Result<PathBuf, String> {
    let gcc = find_tool(&["gcc"], "gcc")?;
    let ld = find_tool(&["ld"], "binutils")?;
    let nm = find_tool(&["nm"], "binutils")?;
    let objcopy = find_tool(&["objcopy"], "binutils")?;
    let objects = work.join("obj");
    std::fs::create_dir_all(&objects).map_err(|e| format!("{}: {e}", objects.display()))?;
    let include = libc_dir().join("include");
    let mut object_files = Vec::new();
    for source in sources() {
        let object = objects.join(product_name(&source, "o"));
        run(Command::new(&gcc)
            .args(LIBRARY_FLAGS)
            .arg("-isystem")
            .arg(&include)
            .arg("-c")
            .arg(&source)
            .arg("-o")
            .arg(&object))?;
        object_files.push(object);
    }
    let combined = work.join("libc_all.o");
    run(Command::new(&ld).arg("-r").arg("-o").arg(&combined).args(&object_files))?;
    // Every global symbol, defined or not (main, the TLS template), gets the prefix.
    let listing = run(Command::new(&nm).arg("-g").arg(&combined))?;
    let mut names: Vec<String> = String::from_utf8_lossy(&listing.stdout)
        .lines()
        .filter_map(|l| l.split_whitespace().last().map(String::from))
        .collect();
    names.sort();
    names.dedup();
    let map: String = names.iter().map(|n| format!("{n} pnl_{n}\n")).collect();
    let map_file = work.join("rename.txt");
    std::fs::write(&map_file, map).map_err(|e| format!("{}: {e}", map_file.display()))?;
    let renamed = work.join("libc_pnl.o");
    run(Command::new(&objcopy).arg(format!("--redefine-syms={}", map_file.display())).arg(&combined).arg(&renamed))?;
    let test_dir = libc_dir().join("test");
    let mut harness_sources: Vec<PathBuf> = std::fs::read_dir(&test_dir)
        .map_err(|e| format!("{}: {e}", test_dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "c"))
        .collect();
    harness_sources.sort();
    let harness = work.join("harness");
    run(Command::new(&gcc)
        .args(["-O1", "-std=gnu11", "-Wall", "-Wno-format", "-ffp-contract=off"])
        .arg("-I")
        .arg(&test_dir)
        .args(&harness_sources)
        .arg(&renamed)
        .args(["-lm", "-o"])
        .arg(&harness))?;
    Ok(harness)
}
