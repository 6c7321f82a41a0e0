//! PPB_URLLoader, PPB_URLRequestInfo and PPB_URLResponseInfo over `fetch`, in a real
//! browser (Debian's headless chromium, driven by selenium) through `pnacl web --serve`,
//! with every host but 127.0.0.1 unresolvable.
//!
//! - url_loader (`../shared/corpus/web/url_loader`, which has no page: the test makes one
//!   in a temporary site, with the corpus's manifest and module copied beside it): the
//!   module GETs https://test.shhnjk.com/secret.html cross-origin with credentials and,
//!   had it got anything, would send it to https://attack.shhnjk.com/. With no network
//!   it reports "URLLoaderHandler::ReportResult(Err)" on its stdout and nothing else
//!   happens: no crash, no uncaught exception, the attack URL is never requested, and
//!   the only request beyond 127.0.0.1 is the refused secret.html.
//! - A small module (`data/web/url_fetch.c`, built here with `pnacl cc`) GETs a
//!   same-origin file of 100,000 bytes in 1000-byte reads and posts its status code,
//!   URL, byte count, FNV-1a hash, download progress and content type, which must match
//!   the file; a cross-origin Open without allow_cross_origin_requests is refused at once
//!   with PP_ERROR_NOACCESS.
//! - Another module (`data/web/url_stream.c`), on a worker thread with its own
//!   PPB_MessageLoop: a completion callback there before the thread has a loop is refused
//!   with PP_ERROR_NO_MESSAGE_LOOP; with the loop, Open's and FinishStreamingToFile's
//!   callbacks run on that thread. It streams the 100,000-byte file, then one of 4 MiB (many
//!   chunks), to a file
//!   (PP_URLREQUESTPROPERTY_STREAMTOFILE), reads the file GetBodyAsFileRef gives with
//!   PPB_FileIO, whose length and hash must be the file's; then it POSTs "head:" and two
//!   slices of a file it wrote (AppendFileToBody, one of them to the end) to the test's
//!   HTTP server (`data/web/hash_server.py`, another port of 127.0.0.1), whose answer, the
//!   body's length and hash, must be those of the bytes the test expects; a file expected
//!   unchanged since a time it does not have fails the Open with PP_ERROR_FAILED. A request
//!   the main thread made opens on the worker, and a third thread reads the response info.

use pnacl_testutil::browser::{Scripted, Served, TestServer, build_module, run_scripted};
use std::path::Path;
use std::time::Duration;

/// Records the page's console (where the module's stdout goes) and its messages.
const RECORDER: &str = r#"<script>
window.logged = [];
for (const level of ['log', 'info', 'warn', 'error']) {
  const original = console[level].bind(console);
  console[level] = (...args) => { window.logged.push(args.map(String).join(' ')); original(...args); };
}
window.got = [];
</script>"#;

const URL_LOADER_WATCH: &str = r"
const el = document.querySelector('embed');
if (el && el.lastError) return {error: el.lastError, logged: window.logged};
const done = window.logged.some((l) => l.includes('URLLoaderHandler::ReportResult'));
if (done && !window.doneAt) window.doneAt = performance.now();
// A second more, for anything the module would do after reporting.
if (window.doneAt && performance.now() > window.doneAt + 1000) return {error: '', logged: window.logged};
if (performance.now() > 60000) return {error: 'no report after 60 s', logged: window.logged};
return null;
";

const FETCH_WATCH: &str = r"
const el = document.querySelector('embed');
if (el && el.lastError) return {error: el.lastError, got: window.got};
if (!window.listening) {
  window.listening = true;
  el.addEventListener('message', (e) => window.got.push(String(e.data)));
}
if (window.got.length >= 2) return {error: '', got: window.got};
if (performance.now() > 60000) return {error: 'no answer after 60 s', got: window.got};
return null;
";

fn page(nmf: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html><head>{RECORDER}</head><body>\n<embed type=\"application/x-pnacl\" src=\"{nmf}\" \
         width=\"0\" height=\"0\">\n</body></html>\n"
    )
}

#[test]
fn url_loader_reports_its_error_and_leaks_nothing() {
    let web = pnacl_testutil::browser::web_corpus();
    let dir = tempfile::tempdir().expect("temporary directory");
    for file in ["url_loader.nmf", "url_loader.pexe"] {
        std::fs::copy(web.join("url_loader").join(file), dir.path().join(file)).expect("copy the app");
    }
    std::fs::write(dir.path().join("index.html"), page("url_loader.nmf")).expect("write the page");
    let server = Served::web(dir.path());
    let pages =
        [Scripted { url: format!("{}index.html", server.url), until: URL_LOADER_WATCH.into(), screenshot: None }];
    let session = run_scripted(&pages, 1, Duration::from_secs(90));
    session.print(&["url_loader"]);
    let v = session.result(0, "url_loader");
    let logged: Vec<&str> = v["logged"].as_array().expect("lines").iter().filter_map(|l| l.as_str()).collect();
    assert!(
        logged.iter().any(|l| l.contains("URLLoaderHandler::ReportResult(Err)")),
        "url_loader did not report its error: {logged:#?}"
    );
    assert!(!logged.iter().any(|l| l.contains("ReportResult(Ok)")), "url_loader reported success: {logged:#?}");
    session.assert_no_exceptions_or_ends();
    assert!(
        !session.requests.iter().any(|r| r.url.contains("attack.shhnjk.com")),
        "the attack URL was requested: {:#?}",
        session.requests.iter().map(|r| &r.url).collect::<Vec<_>>()
    );
    // The one request beyond 127.0.0.1: the refused cross-origin GET of secret.html.
    let offsite: Vec<String> = session
        .offsite()
        .into_iter()
        .filter(|o| !o.ends_with(" requested https://test.shhnjk.com/secret.html"))
        .collect();
    assert!(offsite.is_empty(), "the browser went beyond 127.0.0.1: {offsite:#?}");
    server.stop();
}

/// FNV-1a, 32 bits.
fn fnv1a(bytes: &[u8]) -> u32 {
    bytes.iter().fold(2_166_136_261u32, |h, &b| (h ^ u32::from(b)).wrapping_mul(16_777_619))
}

#[test]
fn a_same_origin_get_returns_the_files_bytes() {
    pnacl_testutil::browser::require();
    let dir = tempfile::tempdir().expect("temporary directory");
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/web");
    build_module(&data.join("url_fetch.c"), dir.path(), "fetch");
    std::fs::write(dir.path().join("index.html"), page("fetch.nmf")).expect("write the page");
    // 100,000 bytes of a simple generator: every byte value, in no simple order.
    let body: Vec<u8> = (0u32..100_000).map(|k| (k.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
    std::fs::write(dir.path().join("data.bin"), &body).expect("write the file");
    let server = Served::web(dir.path());
    let pages = [Scripted { url: format!("{}index.html", server.url), until: FETCH_WATCH.into(), screenshot: None }];
    let session = run_scripted(&pages, 1, Duration::from_secs(90));
    session.print(&["url_fetch"]);
    let v = session.result(0, "url_fetch");
    let got: Vec<&str> = v["got"].as_array().expect("messages").iter().filter_map(|l| l.as_str()).collect();
    let expected = format!(
        "status=200 url={}data.bin bytes=100000 fnv={:08x} progress=100000/100000 type=application/octet-stream \
         result=0",
        server.url,
        fnv1a(&body)
    );
    // PP_ERROR_NOACCESS is -7.
    assert_eq!(got, [expected.as_str(), "cross=-7"], "url_fetch");
    session.assert_no_exceptions_or_ends();
    assert!(session.offsite().is_empty(), "the browser went beyond 127.0.0.1: {:#?}", session.offsite());
    server.stop();
}

const STREAM_WATCH: &str = r"
const el = document.querySelector('embed');
if (el && el.lastError) return {error: el.lastError, got: window.got};
if (!window.listening) {
  window.listening = true;
  el.addEventListener('message', (e) => window.got.push(String(e.data)));
}
if (window.got.includes('done')) return {error: '', got: window.got};
if (performance.now() > 60000) return {error: 'no answer after 60 s', got: window.got};
return null;
";

#[test]
fn a_thread_streams_a_body_to_a_file_and_posts_a_files_bytes() {
    pnacl_testutil::browser::require();
    let dir = tempfile::tempdir().expect("temporary directory");
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/web");
    build_module(&data.join("url_stream.c"), dir.path(), "stream");
    let hash_server = TestServer::start(&data.join("hash_server.py"), &["0".as_ref()]);
    let port = hash_server.port;
    std::fs::write(
        dir.path().join("index.html"),
        format!(
            "<!DOCTYPE html>\n<html><head>{RECORDER}</head><body>\n<embed type=\"application/x-pnacl\" \
             src=\"stream.nmf\" upload=\"http://127.0.0.1:{port}/hash\" width=\"0\" height=\"0\">\n</body></html>\n"
        ),
    )
    .expect("write the page");
    let body: Vec<u8> = (0u32..100_000).map(|k| (k.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
    std::fs::write(dir.path().join("data.bin"), &body).expect("write the file");
    // A larger file, which comes in many chunks, each written at its place.
    let big: Vec<u8> = (0u32..4 << 20).map(|k| (k.wrapping_mul(2_246_822_519) >> 17) as u8).collect();
    std::fs::write(dir.path().join("big.bin"), &big).expect("write the large file");
    let server = Served::web(dir.path());
    let pages = [Scripted { url: format!("{}index.html", server.url), until: STREAM_WATCH.into(), screenshot: None }];
    let session = run_scripted(&pages, 1, Duration::from_secs(90));
    session.print(&["url_stream"]);
    let v = session.result(0, "url_stream");
    let got: Vec<&str> = v["got"].as_array().expect("messages").iter().filter_map(|l| l.as_str()).collect();
    // What the module wrote to /upload.bin, and the body it POSTs.
    let file: Vec<u8> = (0u32..50_000).map(|k| ((k * 7 + 3) ^ (k >> 8)) as u8).collect();
    let mut posted = b"head:".to_vec();
    posted.extend_from_slice(&file[1000..21_000]);
    posted.extend_from_slice(&file[45_000..]);
    // pp_errors.h: PP_OK_COMPLETIONPENDING -1, PP_ERROR_FAILED -2, PP_ERROR_NO_MESSAGE_LOOP -51;
    // PP_FILESYSTEMTYPE_EXTERNAL 1. ReadResponseBody of a body streamed to a file fails.
    let streamed = |name: &str, bytes: &[u8]| {
        format!(
            "stream={name}\nset_stream_to_file=1\nopen=-1\nopen_callback=0\nopen_callback_on_main=0\n\
             finish_callback=0\nrun=0\nprogress={n}\nstatus=200\nread_body=-2\nfile_ref=1\nfile_system_type=1\n\
             file_open=0\nfile_bytes={n}\nfile_fnv={:08x}\n",
            fnv1a(bytes),
            n = bytes.len()
        )
    };
    let expected = format!(
        "no_loop=-51\nattach=0\n{}{}fs_open=0\nupload_file_open=0\nupload_file_write=50000\n\
         append_data=1\nappend_file=1\nappend_rest=1\nappend_not_a_file=0\nappend_bad_offset=0\nupload_open=-1\n\
         upload_open_callback=0\nupload_open_callback_on_main=0\nupload_run=0\nupload_status=200\n\
         upload_reply=len={} fnv={:08x}\nstale_open=-2\nmain_request_is=1\nmain_request_open=0\n\
         other_thread_status=200\n",
        streamed("data.bin", &body),
        streamed("big.bin", &big),
        posted.len(),
        fnv1a(&posted)
    );
    assert_eq!(got, [expected.as_str(), "done"], "url_stream");
    session.assert_no_exceptions_or_ends();
    assert!(session.offsite().is_empty(), "the browser went beyond 127.0.0.1: {:#?}", session.offsite());
    server.stop();
    let heard = hash_server.stop();
    assert_eq!(heard, [format!("POST /hash {}", posted.len())], "the HTTP server's requests");
}
