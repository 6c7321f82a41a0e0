//! The JavaScript host, embedded: `pnacl wasm` writes these files into a `pnacl-host`
//! folder beside the module, and a small launcher ([`launcher`]) that runs the module with
//! them under Node, and with `--html` a page ([`page`]) that runs it in a browser.
//! `js/README.md` describes the host.

/// The folder, beside the module, that the host's files go to.
pub const HOST_DIR: &str = "pnacl-host";

/// Whether `node-worker.bundle.cjs` is the bundle esbuild makes (`build.rs`), rather than
/// the file that only requires `node-worker.cjs` when esbuild was missing.
pub const HOST_BUNDLED: bool = matches!(env!("PNACL_HOST_BUNDLED").as_bytes(), b"1");

/// The host's files: (path relative to [`HOST_DIR`], contents).
pub const HOST_FILES: &[(&str, &str)] = &[
    ("browser.mjs", include_str!("../js/browser.mjs")),
    ("errno.mjs", include_str!("../js/errno.mjs")),
    ("files.mjs", include_str!("../js/files.mjs")),
    ("gather.mjs", include_str!("../js/gather.mjs")),
    ("guest.mjs", include_str!("../js/guest.mjs")),
    ("meta.mjs", include_str!("../js/meta.mjs")),
    ("node.mjs", include_str!("../js/node.mjs")),
    ("node-spawn.mjs", include_str!("../js/node-spawn.mjs")),
    ("node-worker.cjs", include_str!("../js/node-worker.cjs")),
    ("node-worker.bundle.cjs", include_str!(concat!(env!("OUT_DIR"), "/node-worker.bundle.cjs"))),
    ("page.mjs", include_str!("../js/page.mjs")),
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
    ("web/channel.mjs", include_str!("../js/web/channel.mjs")),
    ("web/core.mjs", include_str!("../js/web/core.mjs")),
    ("web/embed.mjs", include_str!("../js/web/embed.mjs")),
    ("web/events.mjs", include_str!("../js/web/events.mjs")),
    ("web/files.mjs", include_str!("../js/web/files.mjs")),
    ("web/fileserver.mjs", include_str!("../js/web/fileserver.mjs")),
    ("web/graphics.mjs", include_str!("../js/web/graphics.mjs")),
    ("web/heap.mjs", include_str!("../js/web/heap.mjs")),
    ("web/input.mjs", include_str!("../js/web/input.mjs")),
    ("web/instance.mjs", include_str!("../js/web/instance.mjs")),
    ("web/loaders.mjs", include_str!("../js/web/loaders.mjs")),
    ("web/pagecall.mjs", include_str!("../js/web/pagecall.mjs")),
    ("web/plugin.mjs", include_str!("../js/web/plugin.mjs")),
    ("web/ppapi.mjs", include_str!("../js/web/ppapi.mjs")),
    ("web/sharedvars.mjs", include_str!("../js/web/sharedvars.mjs")),
    ("web/sockets.mjs", include_str!("../js/web/sockets.mjs")),
    ("web/surface.mjs", include_str!("../js/web/surface.mjs")),
    ("web/translate.mjs", include_str!("../js/web/translate.mjs")),
    ("web/translator-worker.mjs", include_str!("../js/web/translator-worker.mjs")),
    ("web/urlinfos.mjs", include_str!("../js/web/urlinfos.mjs")),
    ("web/urlloader.mjs", include_str!("../js/web/urlloader.mjs")),
    ("web/vars.mjs", include_str!("../js/web/vars.mjs")),
    ("web/websocket.mjs", include_str!("../js/web/websocket.mjs")),
];

/// The embed polyfill's entry, `pnacl-embed.js`, beside the host's files: `pnacl web`
/// adds `<script src=".../pnacl-embed.js">` (a classic script, so that it runs before the
/// page's own) to a site's pages.
pub const EMBED_SCRIPT: &str = include_str!("../js/web/pnacl-embed.js");

/// The service worker that makes a site's pages cross-origin isolated where the host
/// cannot send the headers (`pnacl-sw.js`, beside the polyfill's folder).
pub const ISOLATION_WORKER: &str = include_str!("../js/web/pnacl-sw.js");

/// The launcher `APP.mjs` of module `APP.wasm` (`wasm_name`), translated from the pexe
/// named `pexe` (the guest's `argv[0]`, as `pnacl run` would give it): `node APP.mjs
/// [OPTIONS] [--] [ARGS...]` runs the program.
pub fn launcher(wasm_name: &str, pexe: &str) -> String {
    let one_line = |s: &str| s.replace(['\n', '\r'], " ");
    format!(
        "// Runs {} (translated by pnacl wasm from {}) under Node:\n\
         //   node THIS.mjs [--dir HOST[::GUEST]]... [--env KEY=VALUE]... [--inherit-env] [--max-memory SIZE] [--] [ARGS...]\n\
         // The main guest thread's Worker starts first of all: it takes the longest to start.\n\
         import {{ spawnWorker }} from './{HOST_DIR}/node-spawn.mjs';\n\n\
         const mainWorker = spawnWorker(true);\n\
         const {{ main }} = await import('./{HOST_DIR}/node.mjs');\n\
         await main({{ wasm: new URL(`./${{encodeURIComponent({})}}`, import.meta.url), argv0: {}, mainWorker }});\n",
        one_line(wasm_name),
        one_line(pexe),
        crate::meta::json_string(wasm_name),
        crate::meta::json_string(pexe),
    )
}

/// Text for HTML (element content and quoted attribute values).
pub fn html_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The page `APP.html` of module `APP.wasm` (`wasm_name`, in the same folder), translated
/// from the pexe named `pexe` (the guest's `argv[0]`): it runs the program in Workers,
/// with the arguments of its query string (`?arg=a&arg=b`), shows its standard output and
/// error in `<pre id="stdout">` and `<pre id="stderr">`, and sets `<body
/// data-exit-status="N">` when it ends (see `js/page.mjs`).
pub fn page(wasm_name: &str, pexe: &str) -> String {
    format!(
        "<!doctype html>\n\
         <html lang=\"en\">\n\
         <head>\n\
         <meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{title}</title>\n\
         <link rel=\"icon\" href=\"data:,\">\n\
         <style>pre {{ white-space: pre-wrap; overflow-wrap: anywhere; margin: 0 }} #stderr {{ color: #b00020 }}</style>\n\
         <script type=\"module\" src=\"{HOST_DIR}/page.mjs\"></script>\n\
         </head>\n\
         <!-- Translated by pnacl wasm. Arguments: ?arg=a&arg=b; environment: &env=KEY=VALUE. Standard input is\n     \
         empty; the program has no files. Serve this folder with `pnacl serve` (threads need its headers). -->\n\
         <body data-pnacl-module=\"{module}\" data-pnacl-argv0=\"{argv0}\">\n\
         <pre id=\"stdout\"></pre>\n\
         <pre id=\"stderr\"></pre>\n\
         <noscript>This page runs a program translated to WebAssembly: it needs JavaScript.</noscript>\n\
         </body>\n\
         </html>\n",
        title = html_escape(pexe),
        module = html_escape(wasm_name),
        argv0 = html_escape(pexe),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    /// Every module of `js/` is embedded: one left out would be a 404 in a page.
    #[test]
    fn every_module_of_the_host_is_embedded() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("js");
        let mut stack = vec![root.clone()];
        let mut missing = Vec::new();
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).expect("js/") {
                let path = entry.expect("an entry").path();
                if path.is_dir() {
                    stack.push(path);
                } else if path.extension().is_some_and(|e| e == "mjs") {
                    let rel = path.strip_prefix(&root).expect("below js/").to_string_lossy().replace('\\', "/");
                    if !HOST_FILES.iter().any(|(p, _)| *p == rel) {
                        missing.push(rel);
                    }
                }
            }
        }
        assert!(missing.is_empty(), "not in HOST_FILES: {missing:?}");
    }
}
