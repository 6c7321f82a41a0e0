//! `pnacl web --serve` with PPB_Graphics2D and PPB_ImageData, in a real browser (Debian's
//! headless chromium, driven by selenium), with every host but 127.0.0.1 unresolvable.
//! What must happen comes from `../shared/corpus/web/WEB.tsv`'s `what_works`:
//!
//! - path_tracer: `#statusField` becomes "RUNNING"; the module's background thread
//!   path-traces a scene and its main thread paints it (ReplaceContents, then Flush, again
//!   from each Flush's callback) into a 512x384 Graphics2D, posting the pass counter,
//!   which the page shows in `#iterationCount`. Checked: the canvas in the embed's place is
//!   512x384; the counter rises; the image is not blank (many colours; the sky at the top
//!   is bluer than the brown ground at the bottom); and it gets less noisy (the mean
//!   difference between horizontally adjacent pixels falls between an early pass and a
//!   later one).
//!
//! No page throws, no module crashes, nothing connects beyond 127.0.0.1 (the page's
//! Google Fonts stylesheet does not resolve). The screenshot goes to the target
//! directory's `web-screenshots/`.

use pnacl_testutil::browser::{Scripted, Served, run_scripted};
use std::path::PathBuf;
use std::time::Duration;

/// path_tracer: measures the canvas when the first pass shows and again four passes later.
const PATH_TRACER: &str = r"
const el = document.querySelector('#listener embed');
const status = document.getElementById('statusField').textContent;
if (el && el.lastError) return {status, error: el.lastError};
const canvas = document.querySelector('#listener canvas');
const count = Number(document.getElementById('iterationCount').textContent);
const measure = () => {
  const w = canvas.width, h = canvas.height;
  const d = canvas.getContext('2d').getImageData(0, 0, w, h).data;
  let diff = 0;
  const colours = new Set();
  for (let y = 0; y < h; y++) {
    for (let x = 0; x + 1 < w; x++) {
      const k = (y * w + x) * 4;
      diff += Math.abs(d[k] - d[k + 4]) + Math.abs(d[k + 1] - d[k + 5]) + Math.abs(d[k + 2] - d[k + 6]);
      if ((x & 3) === 0 && (y & 3) === 0) colours.add((d[k] << 16) | (d[k + 1] << 8) | d[k + 2]);
    }
  }
  const band = (y0, y1) => {
    const sum = [0, 0, 0];
    for (let y = y0; y < y1; y++) for (let x = 0; x < w; x++) for (let c = 0; c < 3; c++) sum[c] += d[(y * w + x) * 4 + c];
    return sum.map((s) => Math.round(s / ((y1 - y0) * w)));
  };
  return {count, noise: diff / (w * h), colours: colours.size, top: band(0, Math.floor(h / 8)),
    bottom: band(Math.floor(h * 5 / 8), Math.floor(h * 6 / 8))};
};
if (canvas && count >= 1 && !window.pnaclFirst) {
  // The counter may show a pass before the display frame that draws it.
  const m = measure();
  if (m.colours > 500) window.pnaclFirst = m;
}
if (window.pnaclFirst && count >= window.pnaclFirst.count + 4) {
  return {status, width: canvas.width, height: canvas.height, first: window.pnaclFirst, last: measure(),
    seconds: performance.now() / 1000, error: ''};
}
if (performance.now() > 150000 || (!el?.pnaclState && performance.now() > 30000)) {
  return {status, count, canvas: !!canvas, error: `no result after 150 s: the module is ${el?.pnaclState}`};
}
return null;
";

#[test]
fn path_tracer_paints_a_converging_image() {
    let web = pnacl_testutil::browser::web_corpus();
    let shots = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("web-screenshots");
    std::fs::create_dir_all(&shots).expect("screenshot directory");
    let server = Served::web(&web.join("path_tracer"));
    let pages = [Scripted {
        url: format!("{}index.html", server.url),
        until: PATH_TRACER.into(),
        screenshot: Some(shots.join("path_tracer.png")),
    }];
    let session = run_scripted(&pages, 1, Duration::from_secs(180));
    let page = &session.pages[0];
    session.print(&["path_tracer"]);
    assert!(page.error.is_none(), "{}: {:?} (the page: {:?})", page.url, page.error, page.value);
    let v = page.value.clone().expect("a value");
    assert_eq!(v["error"], "", "path_tracer: {v}");
    assert_eq!(v["status"], "RUNNING", "path_tracer: {v}");
    assert_eq!((v["width"].as_i64(), v["height"].as_i64()), (Some(512), Some(384)), "path_tracer: {v}");
    let (first, last) = (&v["first"], &v["last"]);
    assert!(last["count"].as_i64() > first["count"].as_i64(), "path_tracer: the pass counter does not rise: {v}");
    assert!(last["colours"].as_i64() > Some(500), "path_tracer: the image is nearly blank: {v}");
    let channel = |band: &str, c: usize| last[band][c].as_i64().unwrap_or(0);
    assert!(channel("top", 2) > channel("top", 0), "path_tracer: the sky at the top is not blue-grey: {v}");
    assert!(channel("bottom", 0) > channel("bottom", 2), "path_tracer: the ground is not brown: {v}");
    let noise = |m: &serde_json::Value| m["noise"].as_f64().unwrap_or(0.0);
    assert!(noise(last) < noise(first), "path_tracer: the image does not get less noisy: {v}");

    session.assert_no_exceptions_or_ends();
    let offsite: Vec<String> =
        session.offsite().into_iter().filter(|o| !o.contains("http://fonts.googleapis.com/css?family=")).collect();
    assert!(offsite.is_empty(), "the browser went beyond 127.0.0.1: {offsite:#?}");
    let log = server.log();
    assert!(log.iter().any(|l| l.contains(".pexe.wasm 200")), "no translation was served: {log:#?}");
    server.stop();
}
