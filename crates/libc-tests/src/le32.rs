//! The le32 build: every source compiled to LLVM bitcode by clang-14 with the flags of
//! `libc/clang-flags.txt`, and what the bitcode uses of LLVM: its intrinsics and its
//! undefined symbols once linked.

use crate::{clang_flags, find_tool, include_dir, product_name, run, sources};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

/// clang-14, from the PATH or LLVM 14's directory.
pub fn clang() -> Result<PathBuf, String> {
    find_tool(&["clang-14", "/usr/lib/llvm-14/bin/clang"], "clang-14")
}

/// An LLVM 14 tool (`llvm-dis`, `llvm-link`, ...).
pub fn llvm_tool(name: &str) -> Result<PathBuf, String> {
    let versioned = format!("{name}-14");
    let in_dir = format!("/usr/lib/llvm-14/bin/{name}");
    find_tool(&[versioned.as_str(), in_dir.as_str()], "llvm-14")
}

/// Compiles every source to `work/NAME.bc`; returns the bitcode files.
pub fn compile(work: &Path) -> Result<Vec<PathBuf>, String> {
    let clang = clang()?;
    std::fs::create_dir_all(work).map_err(|e| format!("{}: {e}", work.display()))?;
    let mut out = Vec::new();
    for source in sources() {
        let bc = work.join(product_name(&source, "bc"));
        let output = run(Command::new(&clang)
            .args(clang_flags())
            .arg("-isystem")
            .arg(include_dir())
            .args(["-Wall", "-Wextra"])
            .arg(&source)
            .arg("-o")
            .arg(&bc))?;
        if !output.stderr.is_empty() {
            return Err(format!(
                "{} compiles with warnings:\n{}",
                source.display(),
                String::from_utf8_lossy(&output.stderr)
            ));
        }
        out.push(bc);
    }
    Ok(out)
}

/// The textual IR of a bitcode file.
pub fn disassemble(bc: &Path) -> Result<String, String> {
    let dis = llvm_tool("llvm-dis")?;
    let out = run(Command::new(dis).arg(bc).arg("-o").arg("-"))?;
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// The `llvm.*` functions a module's IR calls or declares.
pub fn intrinsics(ir: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for (i, _) in ir.match_indices("@llvm.") {
        let name: String =
            ir[i + 1..].chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '.' || *c == '_').collect();
        let name = name.trim_end_matches('.').to_string();
        // Global metadata names such as @llvm.used are not functions.
        if ir[i + 1 + name.len()..].starts_with('(') {
            out.insert(name);
        }
    }
    out
}

/// Links the bitcode files into one module and returns its undefined symbols.
pub fn undefined_after_link(bcs: &[PathBuf], work: &Path) -> Result<BTreeSet<String>, String> {
    let link = llvm_tool("llvm-link")?;
    let nm = llvm_tool("llvm-nm")?;
    let linked = work.join("libc-linked.bc");
    run(Command::new(link).args(bcs).arg("-o").arg(&linked))?;
    let out = run(Command::new(nm).arg("--undefined-only").arg(&linked))?;
    Ok(String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.split_whitespace().last().map(String::from))
        .collect())
}
