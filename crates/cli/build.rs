//! Rebuilds the `pnacl` binary when the C library's files change (`libc.rs` embeds them
//! with include_dir!/include_str!, which cargo does not track by itself), and builds the
//! in-browser translator that `pnacl web` ships: the `pnacl-translator-web` crate for
//! `wasm32-unknown-unknown`, by a second cargo in its own target directory (as
//! substrate's wasm-builder does), embedded from `OUT_DIR/translator.wasm`.

use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=../../libc");
    build_translator();
}

/// The crates the translator is made of (their sources decide whether to rebuild it).
const TRANSLATOR_CRATES: &[&str] = &["translator-web", "wasm", "bitcode", "bitstream", "verify"];
const TARGET: &str = "wasm32-unknown-unknown";

/// Builds the translator module, or, where Rust has no standard library for
/// wasm32-unknown-unknown, embeds nothing and says how to get it (`pnacl web` then
/// refuses in-browser translation with the same advice).
fn build_translator() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("crates/");
    for name in TRANSLATOR_CRATES {
        println!("cargo:rerun-if-changed={}", crates.join(name).display());
    }
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR")).join("translator.wasm");
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    // Adding the target (rustup target add) changes this folder: the build then runs again.
    if let Some(sysroot) =
        Command::new(&rustc).args(["--print", "sysroot"]).output().ok().filter(|o| o.status.success())
    {
        println!("cargo:rerun-if-changed={}/lib/rustlib", String::from_utf8_lossy(&sysroot.stdout).trim());
    }
    let installed = Command::new(rustc)
        .args(["--print", "target-libdir", "--target", TARGET])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .is_some_and(|o| Path::new(String::from_utf8_lossy(&o.stdout).trim()).is_dir());
    if !installed {
        println!(
            "cargo:warning=no standard library for {TARGET}: pnacl web is built without its in-browser \
             translator (rustup target add {TARGET}, then build again)"
        );
        std::fs::write(&out, b"").expect("write OUT_DIR/translator.wasm");
        return;
    }
    // OUT_DIR is TARGET_DIR/PROFILE/build/pnacl-HASH/out; the translator gets its own
    // target directory beside the profiles, so that the two cargos never share a lock.
    let target_dir = out.ancestors().nth(5).expect("the target directory").join("translator-web");
    let workspace = crates.parent().expect("the workspace");
    let status = Command::new(cargo)
        .current_dir(workspace)
        .args(["build", "--release", "-p", "pnacl-translator-web", "--target", TARGET, "--target-dir"])
        .arg(&target_dir)
        // wasm32-unknown-unknown has no unwinding; names and line tables only add size.
        .args(["--config", "profile.release.panic=\"abort\"", "--config", "profile.release.debug=false"])
        .args(["--config", "profile.release.strip=true"])
        // The outer build's flags are for the host, not for this target; and under `cargo
        // clippy` the module is still built, not linted (clippy-driver would lint it).
        .env_remove("RUSTC_WORKSPACE_WRAPPER")
        .env_remove("CLIPPY_ARGS")
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_TARGET_DIR")
        .env_remove("CARGO_BUILD_TARGET")
        .status()
        .expect("run cargo for the in-browser translator");
    assert!(status.success(), "building the in-browser translator (pnacl-translator-web for {TARGET}) failed");
    let built = target_dir.join(TARGET).join("release").join("pnacl_translator_web.wasm");
    std::fs::copy(&built, &out).expect("copy the in-browser translator to OUT_DIR");
}
