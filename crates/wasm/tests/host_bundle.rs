//! `node-worker.bundle.cjs`, the file Node's guest-thread Workers run, is the one CommonJS
//! file esbuild makes when pnacl is built (`build.rs`): every module a Worker loads is in
//! it, and it requires none. (`wasm_corpus` runs every case with it, also on a Node that
//! cannot require ES modules.)

#[test]
fn node_workers_run_one_bundled_file() {
    // (A constant, so not an assert!, which clippy refuses for constants.)
    if !pnacl_wasm::HOST_BUNDLED {
        panic!(
            "esbuild was missing when pnacl-wasm was built, so Node's Workers load the host's modules one by one \
             (apt-get install esbuild, then cargo clean -p pnacl-wasm and build again)"
        );
    }
    let (_, bundle) =
        pnacl_wasm::HOST_FILES.iter().find(|(p, _)| *p == "node-worker.bundle.cjs").expect("the bundle is embedded");
    // esbuild heads each module's code with a comment naming it.
    for module in ["worker.mjs", "guest.mjs", "platform.mjs", "irt/fdio.mjs", "irt/threads.mjs", "node-worker.cjs"] {
        assert!(bundle.contains(&format!("\n// {module}\n")), "{module} is not in the bundle");
    }
    assert!(!bundle.contains("require(\"./"), "the bundle still requires a file of the host");
}
