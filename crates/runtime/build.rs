//! The build id: a hash of everything that decides what translated code is and how the
//! runtime runs it (the reader's IR, the translator, the runtime, the locked dependency
//! versions). A translation saved by one build is only ever loaded by a build with the
//! same id, so that a changed translator never runs code its predecessor made.

use std::path::{Path, PathBuf};

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

fn main() {
    let here = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let crates = here.parent().expect("the runtime is in crates/").to_path_buf();
    let mut inputs = Vec::new();
    for krate in ["bitcode", "codegen", "runtime"] {
        let src = crates.join(krate).join("src");
        println!("cargo:rerun-if-changed={}", src.display());
        files(&src, &mut inputs);
    }
    let lock = crates.join("../Cargo.lock");
    println!("cargo:rerun-if-changed={}", lock.display());
    inputs.push(lock);
    inputs.sort();
    // FNV-1a, 64 bits, over each file's path (relative) and contents.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |bytes: &[u8]| {
        for &b in bytes {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    };
    for p in &inputs {
        eat(p.strip_prefix(&crates).unwrap_or(p).to_string_lossy().as_bytes());
        eat(&std::fs::read(p).unwrap_or_default());
    }
    println!("cargo:rustc-env=PNACL_BUILD_ID={h:016x}");
}
