//! The embed polyfill alone, added by hand to an old page, with no server-side step: the
//! page translates its pexe itself with pnacl's translator built as WebAssembly
//! (`pnacl web --polyfill DIR` writes `.pnacl/` and `pnacl-sw.js`), as Chrome's in-browser
//! PNaCl translator did, and keeps the translation in the browser's Cache Storage.
//!
//! - hello_tutorial's original page (copied to a scratch site at test time, with one
//!   `<script>` tag added after `<head>`), served by `pnacl serve`: "success", then "C++
//!   program online."; reloaded, the module comes from Cache Storage. No `.pexe.wasm` is
//!   ever asked for; the pexe is.
//! - The same site on a host without the cross-origin isolation headers (`pnacl serve
//!   --not-isolated`): pnacl-sw.js makes the page isolated (one reload), and the module
//!   runs.
//! - Outside the browser: the translator module, run by node, gives every corpus pexe
//!   (web and command-line) the very bytes `pnacl wasm` writes, and refuses what is not a
//!   pexe with a message.

use pnacl_testutil::browser::{Scripted, Served, run_scripted};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// hello_tutorial, loaded twice: waits for the greeting, notes how the module was had,
/// reloads, and waits for the greeting again.
const HELLO_TWICE: &str = r"
const status = document.getElementById('statusField')?.textContent;
const lines = [...document.querySelectorAll('#message-log p')].map((p) => p.textContent);
const el = document.getElementById('pnacl_stuffs');
if (!el) return null;
if (el.lastError) return {status, lines, error: el.lastError, isolated: crossOriginIsolated};
const loads = JSON.parse(sessionStorage.getItem('pnaclTestLoads') ?? '[]');
if (status === 'success' && lines.includes('C++ program online.') && !window.pnaclTestCounted) {
  window.pnaclTestCounted = true;
  loads.push({translation: el.pnaclTranslation, isolated: crossOriginIsolated, seconds: performance.now() / 1000});
  sessionStorage.setItem('pnaclTestLoads', JSON.stringify(loads));
  if (loads.length === 1) {
    location.reload();
    return null;
  }
  return {status, loads, error: ''};
}
if (performance.now() > 90000) return {status, lines, error: `no result after 90 s: the module is ${el.pnaclState}`};
return null;
";

/// hello_tutorial's site with the polyfill's tag added by hand, and the polyfill written
/// by `pnacl web --polyfill` beside the page.
fn hand_made_site(scratch: &Path) -> PathBuf {
    let corpus = pnacl_testutil::browser::web_corpus().join("hello_tutorial");
    let site = scratch.join("site");
    pnacl_testutil::copy_dir(&corpus, &site);
    let page = std::fs::read_to_string(site.join("index.html")).expect("hello_tutorial's index.html");
    let at = page.find("<head>").expect("a <head> tag") + "<head>".len();
    let page = format!("{}<script src=\".pnacl/pnacl-embed.js\"></script>{}", &page[..at], &page[at..]);
    std::fs::write(site.join("index.html"), page).expect("write the page");
    let out = pnacl_testutil::pnacl_command().args(["web", "--polyfill"]).arg(&site).output().expect("run pnacl web");
    assert!(out.status.success(), "pnacl web --polyfill: {}", String::from_utf8_lossy(&out.stderr));
    for f in [".pnacl/pnacl-embed.js", ".pnacl/translator.wasm", ".pnacl/translator.json", "pnacl-sw.js"] {
        assert!(site.join(f).is_file(), "pnacl web --polyfill did not write {f}");
    }
    site
}

/// Runs the page on `server`; returns the two loads' records.
fn two_loads(server: &Served, what: &str) -> Vec<serde_json::Value> {
    let pages = [Scripted { url: format!("{}index.html", server.url), until: HELLO_TWICE.into(), screenshot: None }];
    let session = run_scripted(&pages, 1, Duration::from_secs(120));
    session.print(&[what]);
    let v = session.result(0, what);
    let thrown: Vec<&String> = session.console.iter().filter(|l| l.contains("Uncaught")).collect();
    assert!(thrown.is_empty(), "{what}: exceptions in the page: {thrown:#?}");
    let offsite: Vec<String> =
        session.offsite().into_iter().filter(|o| !o.contains("http://fonts.googleapis.com/css?family=")).collect();
    assert!(offsite.is_empty(), "{what}: the browser went beyond 127.0.0.1: {offsite:#?}");
    v["loads"].as_array().expect("the loads").clone()
}

#[test]
fn a_page_with_the_polyfill_added_by_hand_translates_its_pexe_and_caches_it() {
    let scratch = tempfile::tempdir().expect("scratch folder");
    let site = hand_made_site(scratch.path());
    let server = Served::start(&site);
    let loads = two_loads(&server, "hello_tutorial (polyfill by hand)");
    let (first, second) = (&loads[0]["translation"], &loads[1]["translation"]);
    eprintln!("first load: {first}\nsecond load: {second}");
    assert_eq!(first["cached"], false, "the first load was not translated in the page: {loads:?}");
    assert_eq!(second["cached"], true, "the second load did not come from Cache Storage: {loads:?}");
    assert_eq!(first["wasmBytes"], second["wasmBytes"], "{loads:?}");
    let log = server.log();
    let count = |needle: &str| log.iter().filter(|l| l.contains(needle)).count();
    assert_eq!(count(".pexe.wasm"), 0, "a server-side translation was asked for: {log:#?}");
    assert_eq!(count("hello_tutorial.pexe 200"), 2, "the pexe was not fetched on each load: {log:#?}");
    assert_eq!(count("/.pnacl/translator.wasm 200"), 1, "the translator is fetched only to translate: {log:#?}");
    server.stop();

    // The translation is `pnacl wasm`'s, byte for byte (the ahead-of-time one).
    let pexe = site.join("hello_tutorial.pexe");
    let ahead = scratch.path().join("ahead/hello.wasm");
    let out = pnacl_testutil::pnacl_command().arg("wasm").arg(&pexe).arg("-o").arg(&ahead).output().expect("pnacl");
    assert!(out.status.success(), "pnacl wasm: {}", String::from_utf8_lossy(&out.stderr));
    let size = std::fs::metadata(&ahead).expect("the module").len();
    assert_eq!(first["wasmBytes"].as_u64(), Some(size), "{loads:?}");
}

#[test]
fn on_a_host_without_the_isolation_headers_the_service_worker_isolates_the_page() {
    let scratch = tempfile::tempdir().expect("scratch folder");
    let site = hand_made_site(scratch.path());
    let server = Served::not_isolated(&site);
    let loads = two_loads(&server, "hello_tutorial (no isolation headers)");
    assert!(loads.iter().all(|l| l["isolated"] == true), "{loads:?}");
    let log = server.log();
    assert!(log.iter().any(|l| l.contains("/pnacl-sw.js 200")), "the service worker was not fetched: {log:#?}");
    // The isolating reload, then the test's own.
    let pages = log.iter().filter(|l| l.contains("/index.html ")).count();
    assert!(pages >= 3, "the page was not reloaded by the service worker: {log:#?}");
    server.stop();
}

/// node: translates each pexe with `.pnacl/translator.wasm` into OUT_DIR/NAME.wasm, and
/// prints a line for each: `PATH\tok` or `PATH\trefused: MESSAGE`.
const NODE_TRANSLATE: &str = r"
import fs from 'node:fs';
import path from 'node:path';
const [translator, outDir, ...pexes] = process.argv.slice(2);
const { instance } = await WebAssembly.instantiate(fs.readFileSync(translator), {});
const t = instance.exports;
for (const pexe of pexes) {
  const bytes = fs.readFileSync(pexe);
  const at = t.pnacl_input(bytes.length);
  new Uint8Array(t.memory.buffer, at, bytes.length).set(bytes);
  const status = t.pnacl_translate();
  const out = new Uint8Array(t.memory.buffer, t.pnacl_output(), t.pnacl_output_len());
  if (status === 0) fs.writeFileSync(path.join(outDir, path.basename(pexe, '.pexe') + '.wasm'), out);
  console.log(`${pexe}\t${status === 0 ? 'ok' : 'refused: ' + new TextDecoder().decode(out)}`);
}
";

#[test]
fn the_translator_module_gives_what_pnacl_wasm_gives() {
    let scratch = tempfile::tempdir().expect("scratch folder");
    let out = pnacl_testutil::pnacl_command().args(["web", "--polyfill"]).arg(scratch.path()).output().expect("pnacl");
    assert!(out.status.success(), "pnacl web --polyfill: {}", String::from_utf8_lossy(&out.stderr));
    let corpus = pnacl_testutil::corpus_dir();
    let mut pexes: Vec<PathBuf> = Vec::new();
    for dir in ["ppapi", "cli"] {
        for entry in
            std::fs::read_dir(corpus.join(dir)).unwrap_or_else(|e| panic!("{}: {e}", corpus.join(dir).display()))
        {
            let path = entry.expect("an entry").path();
            if path.extension().is_some_and(|e| e == "pexe") {
                pexes.push(path);
            }
        }
    }
    pexes.sort();
    assert!(pexes.len() >= 20, "expected the corpus's pexes in {}: {pexes:?}", corpus.display());
    let not_a_pexe = scratch.path().join("not.pexe");
    std::fs::write(&not_a_pexe, b"BC\xc0\xde not a pexe").expect("write");
    let script = scratch.path().join("translate.mjs");
    std::fs::write(&script, NODE_TRANSLATE).expect("write");
    let in_page = scratch.path().join("in-page");
    std::fs::create_dir_all(&in_page).expect("create a folder");
    let node = Command::new("node")
        .arg(&script)
        .arg(scratch.path().join(".pnacl/translator.wasm"))
        .arg(&in_page)
        .args(&pexes)
        .arg(&not_a_pexe)
        .output()
        .expect("node is missing: the wasm tests need it (Debian: apt-get install nodejs)");
    assert!(node.status.success(), "node: {}", String::from_utf8_lossy(&node.stderr));
    let lines: Vec<String> = String::from_utf8_lossy(&node.stdout).lines().map(String::from).collect();
    assert_eq!(lines.len(), pexes.len() + 1, "{lines:#?}");
    let mut translated = 0;
    for (pexe, line) in pexes.iter().zip(&lines) {
        let verdict = line.split('\t').nth(1).unwrap_or_default();
        let name = PathBuf::from(pexe.file_name().expect("a name")).with_extension("wasm");
        let wasm = scratch.path().join("ahead").join(&name);
        let out = pnacl_testutil::pnacl_command().arg("wasm").arg(pexe).arg("-o").arg(&wasm).output().expect("pnacl");
        if out.status.success() {
            assert_eq!(verdict, "ok", "{}: pnacl wasm translates it", pexe.display());
            let same = std::fs::read(&wasm).expect("pnacl wasm's module")
                == std::fs::read(in_page.join(&name)).expect("the in-page module");
            assert!(same, "{}: the in-browser translation differs from pnacl wasm's", pexe.display());
            translated += 1;
        } else {
            assert!(
                verdict.starts_with("refused: "),
                "{}: pnacl wasm refuses it, the translator module gives {verdict}",
                pexe.display()
            );
        }
    }
    assert!(translated >= 20, "only {translated} pexes translated");
    let last = lines.last().expect("the refusal");
    assert!(last.ends_with("\trefused: not a pexe (no PEXE magic)"), "{last}");
}
