//! PPB_WebSocket in a real browser (Debian's headless chromium, driven by selenium)
//! through `pnacl web --serve`, on pnacl_compress's own page (`../shared/corpus/web`,
//! WEB.tsv rows hello_tutorial_compress and hello_tutorial_decompress): four modules load
//! and `#statusField` shows "SUCCESS"; one second later the page posts
//! "happyk_st.js.lzo" 50 times to the decompress module, which asks for it over
//! `ws://localhost:8081/prj2/websocket/a` and LZO-decompresses the binary reply.
//!
//! - Without a server there: each request gets "happyk_st.js.lzo:ERROR:" back; no crash.
//! - With the test's WebSocket server (`data/web/ws_server.py`) there, answering each
//!   request with an LZO1X file the test makes: each gets "happyk_st.js.lzo:OK:" and the
//!   file's text.
//!
//! And the interface call by call: a small module (`data/web/websocket_api.c`, built here
//! with `pnacl cc`) connects to the test's echo server with callbacks on the main thread,
//! sends a text and a binary message and gets them back, closes with a code and a reason;
//! each step's ready state, URL, close code, reason and cleanness, and the errors of bad
//! calls, must be those `ppb_websocket.h` gives. Then a worker thread of the module does
//! the same with callbacks on its own PPB_MessageLoop, which must run on that thread
//! (PP_ERROR_NO_MESSAGE_LOOP before it has one).
//!
//! No page throws; nothing connects beyond 127.0.0.1 (localhost is 127.0.0.1).

use pnacl_testutil::browser::{Scripted, Served, TestServer, build_module, run_scripted};
use std::path::Path;
use std::time::Duration;

/// The port the decompress module's URL names.
const PORT: u16 = 8081;

/// The two tests take turns: the module of one must not reach the other's server.
static PORT_IN_USE: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Collects the decompress module's messages until 50 have come.
const WATCH: &str = r"
const status = document.getElementById('statusField').textContent;
if (!window.got) {
  window.got = [];
  document.getElementById('listenerDecompress').addEventListener('message', (e) => window.got.push(String(e.data)), true);
}
const el = document.getElementById('hello_tutorial_decompress');
if (el && el.lastError) return {status, error: el.lastError, got: window.got};
if (window.got.length >= 50) return {status, error: '', got: window.got};
if (performance.now() > 60000) return {status, error: `${window.got.length} answers after 60 s`, got: window.got};
return null;
";

fn run(web: &Path) -> (serde_json::Value, pnacl_testutil::browser::Session) {
    let server = Served::web(&web.join("pnacl_compress"));
    let pages = [Scripted { url: format!("{}index.html", server.url), until: WATCH.into(), screenshot: None }];
    let session = run_scripted(&pages, 1, Duration::from_secs(90));
    session.print(&["pnacl_compress"]);
    let v = session.result(0, "pnacl_compress");
    assert_eq!(v["status"], "SUCCESS", "pnacl_compress: {v}");
    session.assert_no_exceptions_or_ends();
    // localhost is 127.0.0.1 in the test's browser, so its WebSocket stays on the machine.
    let offsite: Vec<String> = session
        .offsite()
        .into_iter()
        .filter(|o| !o.ends_with(&format!(" requested ws://localhost:{PORT}/prj2/websocket/a")))
        .collect();
    assert!(offsite.is_empty(), "the browser went beyond 127.0.0.1: {offsite:#?}");
    assert!(
        session.connections.iter().all(|c| c.protocol != "TCP" || c.address.starts_with("127.0.0.1:")),
        "a connection beyond 127.0.0.1"
    );
    server.stop();
    (v, session)
}

#[test]
fn without_a_server_each_request_fails_cleanly() {
    let _turn = PORT_IN_USE.lock().unwrap_or_else(|e| e.into_inner());
    let web = pnacl_testutil::browser::web_corpus();
    let (v, _) = run(&web);
    let got = v["got"].as_array().expect("answers");
    assert!(got.iter().all(|m| m == "happyk_st.js.lzo:ERROR:"), "pnacl_compress: {v}");
}

/// The file the test's server sends: `text` as an LZO1X stream of one literal run (a
/// byte 17 + length, the bytes, then the end marker 17, 0, 0: lzo1x_d.ch's
/// first-literal-run and end-of-stream cases).
fn lzo1x_literal(text: &[u8]) -> Vec<u8> {
    assert!((4..=238).contains(&text.len()), "one literal run holds 4 to 238 bytes");
    let mut out = vec![17 + text.len() as u8];
    out.extend_from_slice(text);
    out.extend_from_slice(&[17, 0, 0]);
    out
}

#[test]
fn with_a_server_each_request_is_answered() {
    let _turn = PORT_IN_USE.lock().unwrap_or_else(|e| e.into_inner());
    let web = pnacl_testutil::browser::web_corpus();
    let text = "var happy = 'pnacl web decompressed this over a WebSocket';";
    let dir = tempfile::tempdir().expect("temporary directory");
    let reply = dir.path().join("happyk_st.js.lzo");
    std::fs::write(&reply, lzo1x_literal(text.as_bytes())).expect("write the reply");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/web/ws_server.py");
    let ws = TestServer::start(&script, &[PORT.to_string().as_ref(), reply.as_os_str()]);
    assert_eq!(ws.port, PORT, "the WebSocket server did not start on port {PORT}");
    let (v, _) = run(&web);
    let heard = ws.stop();
    eprintln!("the server heard {} messages, first {:?}", heard.len(), heard.first());
    let got = v["got"].as_array().expect("answers");
    let ok = format!("happyk_st.js.lzo:OK:{text}");
    assert!(got.iter().all(|m| m == &ok), "pnacl_compress: {v}");
}

/// The API page: sends the module the server's URL once it is ready, and collects its lines.
const API_WATCH: &str = r"
const el = document.querySelector('embed');
if (el && el.lastError) return {error: el.lastError, got: window.got};
if (!window.got) {
  window.got = [];
  el.addEventListener('message', (e) => {
    window.got.push(String(e.data));
    if (e.data === 'ready') el.postMessage(`ws://127.0.0.1:${new URLSearchParams(location.search).get('port')}/echo`);
  });
}
if (window.got.some((l) => l.startsWith('thread'))) return {error: '', got: window.got};
if (performance.now() > 30000) return {error: 'no thread line after 30 s', got: window.got};
return null;
";

#[test]
fn the_interface_behaves_as_its_header_says() {
    pnacl_testutil::browser::require();
    let dir = tempfile::tempdir().expect("temporary directory");
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/web");
    build_module(&data.join("websocket_api.c"), dir.path(), "api");
    std::fs::write(
        dir.path().join("index.html"),
        "<!DOCTYPE html>\n<embed type=\"application/x-pnacl\" src=\"api.nmf\" width=\"0\" height=\"0\">\n",
    )
    .expect("write the page");
    let ws = TestServer::start(&data.join("ws_server.py"), &["0".as_ref()]);
    let port = ws.port;
    let server = Served::web(dir.path());
    let url = format!("{}index.html?port={port}", server.url);
    let session =
        run_scripted(&[Scripted { url, until: API_WATCH.into(), screenshot: None }], 1, Duration::from_secs(60));
    session.print(&["websocket_api"]);
    drop(ws);
    let v = session.result(0, "websocket_api");
    let got: Vec<&str> = v["got"].as_array().expect("lines").iter().filter_map(|l| l.as_str()).collect();
    let echo = format!("ws://127.0.0.1:{port}/echo");
    let expected = [
        "ready".to_string(),
        // PP_ERROR_BADARGUMENT (-4) for an http URL; PP_ERROR_FAILED (-2) to send before
        // connecting; PP_ERROR_BADRESOURCE (-5) for a resource that is no socket;
        // PP_ERROR_BADARGUMENT for a pointer outside the guest's memory.
        "bad url=-4 send before connect=-2 bad resource=-5 bad pointer=-4 is=1,0".to_string(),
        // PP_OK_COMPLETIONPENDING, PP_WEBSOCKETREADYSTATE_CONNECTING.
        "connect=-1 state=0".to_string(),
        format!("open result=0 state=1 url={echo}"),
        // A number is neither text nor binary: PP_ERROR_BADARGUMENT.
        "sent 0 0 bad=-4 buffered<=8:1".to_string(),
        "text:hello".to_string(),
        "binary:3:7,8,9".to_string(),
        // Code 999 is not allowed: PP_ERROR_NOACCESS (-7); then CLOSING.
        "bad close code=-7".to_string(),
        "close=-1 state=2".to_string(),
        // Closed cleanly with the code and reason the server echoed; no more messages.
        "closed result=0 code=1000 reason=bye clean=1 state=3 after=-2".to_string(),
        // On a worker thread (each result/on the main thread): a callback before it has a
        // message loop is refused with PP_ERROR_NO_MESSAGE_LOOP (-51); with one, Connect,
        // ReceiveMessage and Close complete later (-1), and their callbacks run on it.
        "thread no_loop=-51/0 attach=0/0 connect=-1/0 open=0/0 send=0/0 receive=-1/0 from a thread=0/0 \
         close=-1/0 closed=0/0 run=0/0"
            .to_string(),
    ];
    assert_eq!(got, expected, "websocket_api");
    assert!(session.offsite().is_empty(), "the browser went beyond 127.0.0.1: {:#?}", session.offsite());
    server.stop();
}
