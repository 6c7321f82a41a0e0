//! The JavaScript host, embedded: `pnacl wasm` writes these files into a `pnacl-host`
//! folder beside the module, and a small launcher ([`launcher`]) that runs the module with
//! them. `js/README.md` describes the host.

/// The folder, beside the module, that the host's files go to.
pub const HOST_DIR: &str = "pnacl-host";

/// The host's files: (path relative to [`HOST_DIR`], contents).
pub const HOST_FILES: &[(&str, &str)] = &[
    ("errno.mjs", include_str!("../js/errno.mjs")),
    ("files.mjs", include_str!("../js/files.mjs")),
    ("guest.mjs", include_str!("../js/guest.mjs")),
    ("meta.mjs", include_str!("../js/meta.mjs")),
    ("node.mjs", include_str!("../js/node.mjs")),
    ("platform.mjs", include_str!("../js/platform.mjs")),
    ("startup.mjs", include_str!("../js/startup.mjs")),
    ("supervisor.mjs", include_str!("../js/supervisor.mjs")),
    ("trap.mjs", include_str!("../js/trap.mjs")),
    ("worker.mjs", include_str!("../js/worker.mjs")),
    ("irt/basic.mjs", include_str!("../js/irt/basic.mjs")),
    ("irt/fdio.mjs", include_str!("../js/irt/fdio.mjs")),
    ("irt/filename.mjs", include_str!("../js/irt/filename.mjs")),
    ("irt/memory.mjs", include_str!("../js/irt/memory.mjs")),
    ("irt/query.mjs", include_str!("../js/irt/query.mjs")),
    ("irt/threads.mjs", include_str!("../js/irt/threads.mjs")),
];

/// The launcher `APP.mjs` of module `APP.wasm` (`wasm_name`), translated from the pexe
/// named `pexe` (the guest's `argv[0]`, as `pnacl run` would give it): `node APP.mjs
/// [OPTIONS] [--] [ARGS...]` runs the program.
pub fn launcher(wasm_name: &str, pexe: &str) -> String {
    let one_line = |s: &str| s.replace(['\n', '\r'], " ");
    format!(
        "// Runs {} (translated by pnacl wasm from {}) under Node:\n\
         //   node THIS.mjs [--dir HOST[::GUEST]]... [--env KEY=VALUE]... [--inherit-env] [--max-memory SIZE] [--] [ARGS...]\n\
         import {{ main }} from './{HOST_DIR}/node.mjs';\n\n\
         await main({{ wasm: new URL(`./${{encodeURIComponent({})}}`, import.meta.url), argv0: {} }});\n",
        one_line(wasm_name),
        one_line(pexe),
        crate::meta::json_string(wasm_name),
        crate::meta::json_string(pexe),
    )
}
