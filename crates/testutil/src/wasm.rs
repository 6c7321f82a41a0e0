//! Running pexes through `pnacl wasm` and Node, for the `wasm_*` suites.
//!
//! [`node`] finds Node (failing with what to install when it is missing). The `wasm_*`
//! test binaries also run every guest program of the `run` suites both ways: see
//! [`crate::guest::run_text`], which compares `pnacl run`'s output and status with
//! Node's whenever the running test binary's name starts with `wasm_`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

/// Programs of the `run` suites that `pnacl wasm` does not run as `pnacl run` does, by
/// name, with the reason; run under `pnacl run` only.
pub const KNOWN_DIFFERENCES: &[(&str, &str)] = &[
    ("const", "wasm cannot make memory read-only: a store to a constant does not trap"),
    ("abi", "pnacl wasm refuses a module that is not ABI-clean when translating (status 3), not when running"),
];

/// Node: `/usr/bin/node`, or `node` on the PATH. Panics with what to install when missing.
pub fn node() -> PathBuf {
    let candidates = std::env::var_os("PATH")
        .iter()
        .flat_map(std::env::split_paths)
        .map(|d| d.join("node"))
        .chain([PathBuf::from("/usr/bin/node")])
        .collect::<Vec<_>>();
    candidates.into_iter().find(|p| p.is_file()).unwrap_or_else(|| {
        panic!("node is not installed: the wasm tests run translated programs under Node 20 (Debian: apt-get install nodejs)")
    })
}

/// True if this test binary runs the `run` suites' programs both ways (its name starts
/// with `wasm_`).
pub fn both_ways() -> bool {
    static BOTH: OnceLock<bool> = OnceLock::new();
    *BOTH.get_or_init(|| {
        std::env::current_exe()
            .ok()
            .and_then(|e| e.file_name().map(|n| n.to_string_lossy().starts_with("wasm_")))
            .unwrap_or(false)
    })
}

/// Translates `input` (a pexe or PNaClAsm text) to `dir/name.wasm` (with `name.mjs` and
/// the host beside it) with `pnacl wasm` and the extra `options`; panics with its stderr
/// if that fails. Returns the launcher's path.
pub fn translate(input: &Path, dir: &Path, name: &str, options: &[&str]) -> PathBuf {
    let wasm = dir.join(format!("{name}.wasm"));
    let out = crate::pnacl_command()
        .arg("wasm")
        .args(options)
        .arg(input)
        .arg("-o")
        .arg(&wasm)
        .output()
        .expect("run pnacl wasm");
    assert!(
        out.status.success(),
        "pnacl wasm {}: status {:?}\n{}",
        input.display(),
        out.status.code(),
        String::from_utf8_lossy(&out.stderr)
    );
    dir.join(format!("{name}.mjs"))
}

/// A command running a launcher under Node with guest arguments `args` (host options go
/// first in `args`, as they would on the command line).
pub fn node_command(launcher: &Path, args: &[&str]) -> Command {
    let mut c = Command::new(node());
    c.arg(launcher).args(args);
    c
}

/// Translates PNaClAsm `text` (already written to `path`) and runs it under Node with
/// `args`: the output of the run.
pub fn run_file(path: &Path, dir: &Path, name: &str, args: &[&str]) -> Output {
    run_file_with(path, dir, name, args, &[])
}

/// [`run_file`] with more `pnacl wasm` options after `--checked`.
pub fn run_file_with(path: &Path, dir: &Path, name: &str, args: &[&str], options: &[&str]) -> Output {
    let mut all = vec!["--checked"];
    all.extend_from_slice(options);
    let launcher = translate(path, dir, &format!("{name}{}.wasm-out", options.concat()), &all);
    let mut full = vec!["--"];
    full.extend_from_slice(args);
    node_command(&launcher, &full).output().expect("run node")
}
