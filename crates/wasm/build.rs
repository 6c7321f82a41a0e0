//! Bundles what Node's guest-thread Workers load (`js/node-worker.cjs`, `js/worker.mjs` and
//! the modules they import) into one CommonJS file, `OUT_DIR/node-worker.bundle.cjs`, with
//! esbuild (Debian's package `esbuild`). A Worker loading ES modules first loads Node's ES
//! module loader and then resolves, reads and links each module on its own: the bundle
//! made a hello world end 6 to 7 ms sooner, of about 95 (Node 20.20). Without esbuild the
//! file only requires `node-worker.cjs`, which loads the modules one by one (Node 20.19 and
//! later), and the build says so; `HOST_BUNDLED` (`PNACL_HOST_BUNDLED`) tells the tests.

use std::path::PathBuf;
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=js");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR")).join("node-worker.bundle.cjs");
    let made = Command::new("esbuild")
        .current_dir("js")
        .args(["node-worker.cjs", "--bundle", "--platform=node", "--format=cjs", "--log-level=warning"])
        // Only a browser program's threads load the PPAPI modules, and Node runs none.
        .arg("--external:./web/ppapi.mjs")
        .arg("--banner:js=// Made by esbuild from node-worker.cjs and the modules it requires (crates/wasm/build.rs).")
        .arg(format!("--outfile={}", out.display()))
        .status();
    match made {
        Ok(status) if status.success() => println!("cargo:rustc-env=PNACL_HOST_BUNDLED=1"),
        other => {
            let why = match other {
                Ok(status) => format!("esbuild failed ({status})"),
                Err(e) => format!("esbuild: {e}"),
            };
            println!(
                "cargo:warning={why}: Node's Workers will load the host's modules one by one, which starts them \
                 more slowly and needs Node 20.19 (apt-get install esbuild, then cargo clean -p pnacl-wasm)"
            );
            std::fs::write(&out, "'use strict';\nrequire('./node-worker.cjs');\n").expect("write OUT_DIR");
            println!("cargo:rustc-env=PNACL_HOST_BUNDLED=0");
        }
    }
}
