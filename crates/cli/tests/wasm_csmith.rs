//! csmith's random programs through `pnacl cc -O2`, `pnacl wasm` and Node, against the
//! same programs built by gcc for the 32-bit x86 ABI: the same output (csmith's checksum)
//! and exit status. The seeds are fixed ([`SEEDS`]).

#[path = "common/multifile.rs"]
mod multifile;

use multifile::{difference, native, output_within, parallel, pnacl_cc, require, require_compilers, threads};
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

/// The first 60 csmith seeds whose programs end within a second natively (csmith 2.3.0;
/// seeds 20, 22 and 60 run for many seconds there, and are left out for that reason alone,
/// before pnacl is involved).
const SEEDS: [u64; 60] = [
    1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 21, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33,
    34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 61, 62, 63,
];

/// Seeds that fail today, with the reason.
const KNOWN: &[(u64, &str)] = &[];

/// Longer than any of these programs takes natively on a loaded machine (they take under
/// a second), and than Node takes to run the translation.
const LIMIT: Duration = Duration::from_secs(60);

/// Builds and runs one seed both ways; the differences.
fn check(seed: u64, include: &str) -> Result<(), String> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let src = dir.path().join(format!("csmith{seed}.c"));
    // In the scratch directory: csmith leaves a platform.info file where it runs.
    let generated = Command::new("csmith").args(["--seed", &seed.to_string()]).current_dir(dir.path()).output();
    let generated = generated.map_err(|e| format!("cannot run csmith: {e}"))?;
    if !generated.status.success() {
        return Err(format!("csmith --seed {seed} failed"));
    }
    std::fs::write(&src, &generated.stdout).map_err(|e| e.to_string())?;
    let flags = [include.to_string()];
    let exe = dir.path().join("native");
    native(std::slice::from_ref(&src), &flags, &exe)?;
    let want = output_within(Command::new(&exe), LIMIT)
        .ok_or_else(|| format!("seed {seed}: the native program ran over {LIMIT:?} (csmith changed?)"))?;
    let pexe = dir.path().join("p.pexe");
    pnacl_cc(std::slice::from_ref(&src), "-O2", &flags, &pexe)?;
    let wasm = dir.path().join("p.wasm");
    let t = pnacl_testutil::pnacl_command().arg("wasm").arg(&pexe).arg("-o").arg(&wasm).output();
    let t = t.map_err(|e| format!("cannot run pnacl: {e}"))?;
    if !t.status.success() {
        return Err(format!("pnacl wasm: {}", String::from_utf8_lossy(&t.stderr)));
    }
    let mut node = Command::new(pnacl_testutil::wasm::node());
    node.arg(dir.path().join("p.mjs"));
    let got = output_within(node, LIMIT).ok_or_else(|| format!("node ran over {LIMIT:?}"))?;
    match difference("pnacl cc -O2, pnacl wasm, node", &got, &want) {
        Some(d) => Err(d),
        None => Ok(()),
    }
}

#[test]
fn csmith_programs_under_node_match_gcc() {
    require("csmith", "csmith libcsmith-dev");
    require_compilers();
    pnacl_testutil::wasm::node();
    let include = Path::new("/usr/include/csmith");
    assert!(include.join("csmith.h").is_file(), "csmith.h is missing (Debian: apt-get install libcsmith-dev)");
    let include = format!("-I{}", include.display());
    let started = Instant::now();
    let results = parallel(&SEEDS, threads(), |&seed| (seed, check(seed, &include)));
    let mut report = Vec::new();
    for (seed, result) in &results {
        match (result, KNOWN.iter().find(|k| k.0 == *seed)) {
            (Err(e), None) => report.push(format!("seed {seed}: {e}")),
            (Ok(()), Some(_)) => report.push(format!("seed {seed} passes now: remove it from KNOWN")),
            _ => {}
        }
    }
    let passed = results.iter().filter(|r| r.1.is_ok()).count();
    eprintln!(
        "csmith under node: {passed} of {} seeds match gcc, {:.1} s",
        SEEDS.len(),
        started.elapsed().as_secs_f64()
    );
    assert!(report.is_empty(), "{}", report.join("\n"));
}
