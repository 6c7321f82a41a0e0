//! `pnacl web --serve` in a real browser (Debian's headless chromium, driven by selenium):
//! apps of `../shared/corpus/web/` run on their original pages, unchanged, through pnacl's
//! embed polyfill, with every host but 127.0.0.1 unresolvable. What each must do comes
//! from `WEB.tsv`'s `what_works`:
//!
//! - hello_tutorial: `#statusField` shows "success", `#message-log` gets "C++ program
//!   online.", and a number typed into `#input-box` and sent comes back as an ArrayBuffer
//!   the page prints as Int32 values (primes; their count comes from an uninitialised
//!   variable in the app, so only their being primes in order is checked).
//! - webpenc: "Click Me!" gives a lossless WebP that the browser decodes to exactly the
//!   canvas's pixels.
//! - astar: "Send To Native" puts `{"array":[0, 2, 4]}` in `#output`.
//! - hello_tutorial again, as the static site `pnacl web -o` writes (translated ahead of
//!   time), served by `pnacl serve`.
//!
//! No page throws, no module crashes, nothing connects beyond 127.0.0.1 (hello_tutorial's
//! page asks for a Google Fonts stylesheet, which does not resolve: the only request to
//! another host). Screenshots go to the target directory's `web-screenshots/`.

use pnacl_testutil::browser::{Scripted, Served, run_scripted};
use std::path::PathBuf;
use std::time::Duration;

/// hello_tutorial: waits for the module's greeting, sends 30, waits for the reply.
const HELLO: &str = r"
const status = document.getElementById('statusField').textContent;
const lines = [...document.querySelectorAll('#message-log p')].map((p) => p.textContent);
const el = document.getElementById('pnacl_stuffs');
if (el.lastError) return {status, lines, error: el.lastError};
if (!window.pnaclTestSent && status === 'success' && lines.includes('C++ program online.')) {
  window.pnaclTestSent = true;
  document.getElementById('input-box').value = '30';
  document.querySelector('button').click();
}
if (window.pnaclTestSent && lines.length >= 2) return {status, lines, error: ''};
if (performance.now() > 60000) return {status, lines, error: `no result after 60 s: the module is ${el.pnaclState}`};
return null;
";

/// webpenc: clicks once the module has loaded, then compares the WebP's pixels with the
/// canvas's.
const WEBPENC: &str = r"
const status = document.getElementById('statusField').textContent;
if (document.getElementById('webpenc').lastError) return {status, error: document.getElementById('webpenc').lastError};
if (!window.pnaclTestSent && status === 'SUCCESS') {
  window.pnaclTestSent = true;
  document.getElementById('pingTest').click();
}
const img = document.querySelector('#input_row img');
if (!img && performance.now() > 60000) return {status, error: `no result after 60 s: the module is ${document.getElementById('webpenc').pnaclState}`};
if (!img) return null;
return img.decode().then(() => {
  const c = document.createElement('canvas');
  c.width = img.naturalWidth;
  c.height = img.naturalHeight;
  const g = c.getContext('2d');
  g.drawImage(img, 0, 0);
  const a = g.getImageData(0, 0, c.width, c.height).data;
  const b = document.getElementById('myCanvas').getContext('2d').getImageData(0, 0, 1920, 1080).data;
  let differing = 0;
  for (let k = 0; k < Math.min(a.length, b.length); k++) if (a[k] !== b[k]) differing++;
  return {status, width: img.naturalWidth, height: img.naturalHeight, webp: img.src.startsWith('data:image/webp;base64,'),
    differing, error: ''};
}, (e) => ({status, error: 'the image does not decode: ' + e}));
";

/// astar: clicks "Send To Native" once the module has loaded.
const ASTAR: &str = r"
const el = document.getElementById('star');
if (el.lastError) return {output: '', error: el.lastError};
if (!window.pnaclTestSent && el.readyState === 4) {
  window.pnaclTestSent = true;
  document.getElementById('sendToNative').click();
}
const output = document.getElementById('output').textContent;
if (!output && performance.now() > 60000) return {output, error: `no result after 60 s: the module is ${el.pnaclState}`};
return output ? {output, error: ''} : null;
";

fn is_prime(n: i64) -> bool {
    n >= 2 && (2..n).take_while(|d| d * d <= n).all(|d| n % d != 0)
}

#[test]
fn corpus_apps_run_on_their_original_pages() {
    let web = pnacl_testutil::browser::web_corpus();
    let shots = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("web-screenshots");
    std::fs::create_dir_all(&shots).expect("screenshot directory");
    let apps =
        [("hello_tutorial", "index.html", HELLO), ("webpenc", "index.html", WEBPENC), ("astar", "index.html", ASTAR)];
    let mut servers: Vec<Served> = apps.iter().map(|(dir, _, _)| Served::web(&web.join(dir))).collect();
    let out = tempfile::tempdir().expect("temporary directory");
    let status = pnacl_testutil::pnacl_command()
        .arg("web")
        .arg(web.join("hello_tutorial"))
        .arg("-o")
        .arg(out.path().join("hello"))
        .status()
        .expect("run pnacl web -o");
    assert!(status.success(), "pnacl web -o: {status}");
    assert!(out.path().join("hello/hello_tutorial.pexe.wasm").is_file() && out.path().join("hello/_headers").is_file());
    let static_site = Served::start(out.path());
    let mut pages: Vec<Scripted> = apps
        .iter()
        .zip(&servers)
        .map(|((dir, page, until), s)| Scripted {
            url: format!("{}{page}", s.url),
            until: until.to_string(),
            screenshot: Some(shots.join(format!("{dir}.png"))),
        })
        .collect();
    pages.push(Scripted { url: format!("{}hello/index.html", static_site.url), until: HELLO.into(), screenshot: None });
    servers.push(static_site);
    let session = run_scripted(&pages, 2, Duration::from_secs(120));
    let names: Vec<&str> = apps.iter().map(|a| a.0).chain(["hello_tutorial (-o)"]).collect();
    session.print(&names);
    // What each server was asked, to tell a request that never came from one not answered.
    for (s, dir) in servers.iter().zip(&names) {
        eprintln!("{dir}'s server: {}", s.log().join("; "));
    }
    let value = |k: usize| {
        let p = &session.pages[k];
        assert!(p.error.is_none(), "{}: {:?} (the page: {:?})", p.url, p.error, p.value);
        p.value.clone().expect("a value")
    };

    let hello = value(0);
    assert_eq!(hello["error"], "", "hello_tutorial: {hello}");
    assert_eq!(hello["status"], "success", "hello_tutorial: {hello}");
    assert_eq!(hello["lines"][0], "C++ program online.", "hello_tutorial: {hello}");
    let reply = hello["lines"][1].as_str().unwrap_or_default();
    let numbers: Vec<i64> = reply.split(", ").filter_map(|n| n.parse().ok()).collect();
    assert!(
        !numbers.is_empty() && numbers.len() == reply.split(", ").count(),
        "hello_tutorial's reply to 30 is not a list of Int32 values: {reply:?}"
    );
    assert!(
        numbers.iter().all(|&n| is_prime(n) && n <= 30) && numbers.windows(2).all(|w| w[0] < w[1]) && numbers[0] == 2,
        "hello_tutorial's reply to 30 is not the primes from 2 in order: {reply:?}"
    );

    let webp = value(1);
    assert_eq!(webp["error"], "", "webpenc: {webp}");
    assert_eq!(webp["status"], "SUCCESS", "webpenc: {webp}");
    assert_eq!(
        (webp["width"].as_i64(), webp["height"].as_i64(), webp["webp"].as_bool()),
        (Some(1920), Some(1080), Some(true))
    );
    assert_eq!(webp["differing"], 0, "webpenc: the WebP's pixels differ from the canvas's: {webp}");

    let hello_static = value(3);
    assert_eq!(hello_static["error"], "", "hello_tutorial (-o): {hello_static}");
    assert_eq!(hello_static["lines"][0], "C++ program online.", "hello_tutorial (-o): {hello_static}");

    let astar = value(2);
    assert_eq!(astar["error"], "", "astar: {astar}");
    assert_eq!(astar["output"], r#"{"array":[0, 2, 4]}"#, "astar: {astar}");

    session.assert_no_exceptions_or_ends();
    let offsite: Vec<String> = session
        .offsite()
        .into_iter()
        .filter(|o| !o.ends_with("requested http://fonts.googleapis.com/css?family=Ubuntu"))
        .collect();
    assert!(offsite.is_empty(), "the browser went beyond 127.0.0.1: {offsite:#?}");
    for s in servers {
        let log = s.log();
        assert!(log.iter().any(|l| l.contains(".pexe.wasm 200")), "no translation was served: {log:#?}");
        assert!(log.iter().any(|l| l.contains("/.pnacl/pnacl-embed.js 200")), "no polyfill was served: {log:#?}");
        s.stop();
    }
}
