//! pnacl's own files in a site that `pnacl web` serves or writes, or that `pnacl web
//! --polyfill` writes for a page to include by hand: the embed polyfill and the IRT host
//! (`.pnacl/`), the in-browser translator (`.pnacl/translator.wasm`, the
//! `pnacl-translator-web` crate built for wasm32-unknown-unknown by build.rs, with
//! `.pnacl/translator.json` naming its build), and the service worker that makes pages
//! cross-origin isolated on hosts that cannot send the headers (`pnacl-sw.js`, beside
//! `.pnacl/`: a service worker controls only the pages at or below its own folder).

use std::sync::OnceLock;

/// The folder of pnacl's files in a site.
pub(crate) const DIR: &str = ".pnacl";
/// The service worker's file name, in the folder that holds [`DIR`].
pub(crate) const SERVICE_WORKER: &str = "pnacl-sw.js";

/// The in-browser translator: empty when this pnacl was built without Rust's standard
/// library for wasm32-unknown-unknown.
const TRANSLATOR: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/translator.wasm"));

/// Why a polyfill without the translator cannot translate pexes in the browser.
pub(crate) const NO_TRANSLATOR: &str = "this pnacl was built without its in-browser translator (Rust's standard \
                                        library for wasm32-unknown-unknown was missing: rustup target add \
                                        wasm32-unknown-unknown, then build pnacl again)";

/// True if this build has the in-browser translator.
pub(crate) fn has_translator() -> bool {
    !TRANSLATOR.is_empty()
}

/// `translator.json`: the translator's build, by which pages key their cached translations.
fn translator_json() -> &'static str {
    static JSON: OnceLock<String> = OnceLock::new();
    JSON.get_or_init(|| {
        let id = blake3::hash(TRANSLATOR).to_hex();
        format!("{{\"version\":\"{}\",\"id\":\"{}\"}}\n", env!("CARGO_PKG_VERSION"), &id[..32])
    })
}

/// A file of pnacl's folder (`rel` below `.pnacl/`): its content type and bytes.
pub(crate) fn file(rel: &str) -> Option<(&'static str, &'static [u8])> {
    const JS: &str = "text/javascript; charset=utf-8";
    match rel {
        "pnacl-embed.js" => Some((JS, pnacl_wasm::EMBED_SCRIPT.as_bytes())),
        "translator.wasm" if has_translator() => Some(("application/wasm", TRANSLATOR)),
        "translator.json" if has_translator() => Some(("application/json", translator_json().as_bytes())),
        _ => pnacl_wasm::HOST_FILES.iter().find(|(p, _)| *p == rel).map(|(_, text)| (JS, text.as_bytes())),
    }
}

/// The service worker (served at the site's root, beside `.pnacl/`).
pub(crate) fn service_worker() -> &'static [u8] {
    pnacl_wasm::ISOLATION_WORKER.as_bytes()
}

/// Every file of the polyfill, as paths relative to the folder that holds `.pnacl/`.
pub(crate) fn files() -> Vec<(String, &'static [u8])> {
    let mut names: Vec<&str> = vec!["pnacl-embed.js"];
    names.extend(pnacl_wasm::HOST_FILES.iter().map(|(p, _)| *p));
    names.extend(["translator.wasm", "translator.json"]);
    let mut out: Vec<(String, &'static [u8])> =
        names.into_iter().filter_map(|n| file(n).map(|(_, bytes)| (format!("{DIR}/{n}"), bytes))).collect();
    out.push((SERVICE_WORKER.to_string(), service_worker()));
    out
}
