//! `pnacl web --serve` with PPB_FileSystem, PPB_FileRef and PPB_FileIO (nacl_io's html5fs
//! over the browser's origin private file system), in a real browser (Debian's headless
//! chromium, driven by selenium), with every host but 127.0.0.1 unresolvable. What must
//! happen comes from `../shared/corpus/web/WEB.tsv`'s `what_works`:
//!
//! - supernet_api: its page asks for 1 GB of persistent quota and creates the module only
//!   in the grant's callback (its `#statusField` is commented out of the page, so the
//!   embed's existence is the grant's sign). The page's own functions (example.js's
//!   `mkdir`, `fopen`, `fwrite`, `fseek`, `fread`, `fclose`, `stat`, `opendir`, `readdir`,
//!   which read hidden inputs the test adds, the API page's inputs being absent) post
//!   `{cmd, args}` dictionaries; the module answers each on a worker thread of its own,
//!   and the page logs its success line in `#log`. The page is then loaded again in the
//!   same browser profile: the file is still there, with its 16 bytes, and its directory
//!   lists it. Networking refuses cleanly: `getaddrinfo` fails, and `connect` says
//!   "socket() failed: Permission denied." (no TCPSocket interface).
//! - iguana_small: the same grant (10 GB), then "finished DidCreate iguana" and a line
//!   starting "iguana start." in `#log`.
//! - glbench: `#statusField` "SUCCESS", and the console shows the module's lines "Init has
//!   been called for instance", "The mount result is: ..." then 0 (html5fs mounted at
//!   /persistent), "DidChangeView has been called for this instance"; its GL set-up
//!   fails cleanly ("Unable to initialize GL PPAPI!": `PPB_GetInterface` returns NULL for
//!   OpenGLES2) and the module goes on.
//!
//! - A probe module of our own (`tests/data/web_files_probe.c`, built with `pnacl cc`): each
//!   call gives what the PPAPI headers say, bad arguments included ([`PROBE_EXPECTED`]),
//!   and a string var made on the main thread reads the same on a worker thread.
//!
//! No page throws but where listed (the page's own errors, as in Chrome), no module
//! crashes but where listed in [`KNOWN_CRASHES`], nothing connects beyond 127.0.0.1 (the
//! requests that supernet_api's page makes itself to NXT nodes do not resolve).

use pnacl_testutil::browser::{Scripted, Served, Session, build_module, run_scripted};
use std::sync::Mutex;
use std::time::Duration;

/// One browser at a time: the tests of this file would otherwise start four chromiums at
/// once on the machine's cores.
static BROWSER: Mutex<()> = Mutex::new(());

/// Holds [`BROWSER`] (a test that failed while holding it leaves it usable).
fn one_browser() -> std::sync::MutexGuard<'static, ()> {
    BROWSER.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Module crashes that are known and why: each must still happen (remove the entry when
/// it is fixed).
const KNOWN_CRASHES: &[(&str, &str, &str)] = &[];

/// Uncaught exceptions that are the pages' own (Chrome threw them too).
const PAGE_ERRORS: &[(&str, &str)] = &[
    (
        "settings.js 45:19 Uncaught TypeError: Cannot read properties of undefined (reading 'sync')",
        "supernet_api's settings.js reads chrome.storage.sync, which only packaged apps have",
    ),
    (
        "Uncaught TypeError: a function cannot be sent to a NaCl module",
        "supernet_api's common.js (retmsg) posts {cmd, args} with a function among the args",
    ),
];

/// Drives supernet_api's file functions: `steps` (defined before this) are
/// `[code, line]` pairs: each code runs once the previous line shows in `#log`.
const SUPERNET: &str = r"
const log = document.getElementById('log');
const text = log ? log.innerText : '';
const el = document.querySelector('embed');
if (el && el.lastError) return {log: text, error: el.lastError};
const t = window.pnaclTest ??= {step: 0, at: performance.now()};
for (const id of ['fopenFilename', 'fopenMode', 'fwriteHandle', 'fwriteData', 'freadHandle', 'freadBytes',
    'fseekHandle', 'fseekOffset', 'fseekWhence', 'fcloseHandle', 'statFilename', 'mkdirDirname', 'mkdirMode',
    'opendirDirname', 'readdirHandle', 'getaddrinfoName', 'getaddrinfoFamily', 'connectHost', 'connectPort']) {
  if (!document.getElementById(id)) {
    const i = document.createElement('input');
    i.id = id;
    i.hidden = true;
    document.body.appendChild(i);
  }
}
const set = (o) => { for (const [k, v] of Object.entries(o)) document.getElementById(k).value = v; };
const handle = (name) => Object.keys(filehandle_map).find((k) => filehandle_map[k] === name);
const dirHandle = (name) => Object.keys(dirhandle_map).find((k) => dirhandle_map[k] === name);
const dir = '/persistent/pnacl_web_files', file = dir + '/hello.txt';
if (!el || el.readyState !== 4) {
  if (performance.now() > 60000) return {log: text, error: `the module did not load in 60 s: ${el?.pnaclState}`};
  return null;
}
if (t.step >= steps.length) return {log: text, embed: true, error: ''};
const [run, expect] = steps[t.step];
if (!t.sent) {
  t.sent = true;
  t.at = performance.now();
  t.before = text.length;
  eval(run);
  return null;
}
if (text.slice(t.before).includes(expect)) {
  t.step++;
  t.sent = false;
  return null;
}
if (el.pnaclState === 'ended') return {log: text, error: `the module ended at step ${t.step} (${run})`};
if (performance.now() - t.at > 20000) return {log: text, error: `step ${t.step} (${run}): no line ${expect} after 20 s`};
return null;
";

/// The first load: a directory, a file written, read back, closed and its size.
const FIRST_LOAD: &str = r#"[
 ["set({mkdirDirname: dir, mkdirMode: '511'}); mkdir();", "Directory /persistent/pnacl_web_files created successfully."],
 ["set({fopenFilename: file, fopenMode: 'w+'}); fopen();", "File /persistent/pnacl_web_files/hello.txt opened successfully."],
 ["set({fwriteHandle: handle(file), fwriteData: 'hello from pnacl'}); fwrite();", "Wrote 16 bytes to file /persistent/pnacl_web_files/hello.txt."],
 ["set({fseekHandle: handle(file), fseekOffset: '0', fseekWhence: '0'}); fseek();", "Seeked to location 0 in file /persistent/pnacl_web_files/hello.txt."],
 ["set({freadHandle: handle(file), freadBytes: '100'}); fread();", "Read \"hello from pnacl\" from file /persistent/pnacl_web_files/hello.txt."],
 ["set({fcloseHandle: handle(file)}); fclose();", "File /persistent/pnacl_web_files/hello.txt closed successfully."],
 ["set({statFilename: file}); stat();", "File /persistent/pnacl_web_files/hello.txt has size 16."],
 ["set({getaddrinfoName: 'example.com', getaddrinfoFamily: 'AF_INET'}); getaddrinfo();", "Error: \"getaddrinfo\" failed"],
 ["set({connectHost: '127.0.0.1', connectPort: '9'}); connect();", "Error: \"connect\" failed"]
]"#;

/// The second load, in the same profile: what the first wrote is still there.
const SECOND_LOAD: &str = r#"[
 ["set({statFilename: file}); stat();", "File /persistent/pnacl_web_files/hello.txt has size 16."],
 ["set({mkdirDirname: dir, mkdirMode: '511'}); mkdir();", "Error: \"mkdir\" failed"],
 ["set({fopenFilename: file, fopenMode: 'r'}); fopen();", "File /persistent/pnacl_web_files/hello.txt opened successfully."],
 ["set({freadHandle: handle(file), freadBytes: '100'}); fread();", "Read \"hello from pnacl\" from file /persistent/pnacl_web_files/hello.txt."],
 ["set({opendirDirname: dir}); opendir();", "Directory /persistent/pnacl_web_files opened successfully."],
 ["set({readdirHandle: dirHandle(dir)}); readdir();", "Read entry (\".\""],
 ["set({readdirHandle: dirHandle(dir)}); readdir();", "Read entry (\"..\""],
 ["set({readdirHandle: dirHandle(dir)}); readdir();", "Read entry (\"hello.txt\""]
]"#;

/// iguana_small: waits for its start-up lines, then a while longer (or for its end).
const IGUANA: &str = r"
const log = document.getElementById('log');
const text = log ? log.innerText : '';
const el = document.querySelector('embed');
if (el && el.lastError && el.pnaclState !== 'ended') return {log: text, error: el.lastError};
// Each line: the page's date ('28th November, 08:47: '), then the module's message.
const lines = text.split('\n').map((l) => l.replace(/^.*?\d\d:\d\d: /, ''));
const ok = lines.includes('finished DidCreate iguana') && lines.some((l) => l.startsWith('iguana start.'));
window.pnaclSeen ??= ok ? performance.now() : undefined;
if (ok && (el.pnaclState === 'ended' || performance.now() - window.pnaclSeen > 20000)) {
  return {log: text, embed: !!el, state: el.pnaclState, error: ''};
}
if (performance.now() > 90000) return {log: text, error: `no start-up lines after 90 s: ${el?.pnaclState}`};
return null;
";

/// glbench: waits for SUCCESS, then for the module's start-up lines on the console.
const GLBENCH: &str = r"
const status = document.getElementById('statusField').textContent;
const el = document.querySelector('embed');
if (el && el.lastError) return {status, error: el.lastError};
window.pnaclSuccess ??= status === 'SUCCESS' ? performance.now() : undefined;
if (window.pnaclSuccess && performance.now() - window.pnaclSuccess > 8000) return {status, state: el.pnaclState, error: ''};
if (performance.now() > 60000) return {status, error: `no SUCCESS after 60 s: ${el?.pnaclState}`};
return null;
";

/// The console's messages (the part after `URL LINE:COL `) that a page's own script logged.
fn page_logs<'a>(session: &'a Session, page: &str) -> Vec<&'a str> {
    session
        .console
        .iter()
        .filter(|l| l.contains(page))
        .map(|l| l.split_once(' ').map_or(l.as_str(), |(_, rest)| rest.split_once(' ').map_or(rest, |(_, m)| m)))
        .collect()
}

/// Checks what every page must: no uncaught exception but the listed ones, no module
/// crash but the listed ones (which must still happen), nothing beyond 127.0.0.1 but the
/// listed requests.
fn check_common(session: &Session, app: &str, offsite_allowed: &[&str]) {
    let thrown: Vec<&String> = session
        .console
        .iter()
        .filter(|l| l.contains("Uncaught") && !PAGE_ERRORS.iter().any(|(e, _)| l.contains(e)))
        .collect();
    assert!(thrown.is_empty(), "{app}: exceptions in the page: {thrown:#?}");
    let ended: Vec<&String> = session.console.iter().filter(|l| l.contains("pnacl: ") && l.contains("ended")).collect();
    match KNOWN_CRASHES.iter().find(|(a, _, _)| *a == app) {
        Some((_, trap, why)) => {
            assert!(
                !ended.is_empty() && session.console.iter().any(|l| l.contains(trap)),
                "{app} is listed as crashing ({why}) but did not crash so: remove it from KNOWN_CRASHES \
                 (module ends: {ended:#?})"
            );
            println!("known failure: {app}: the module crashes: {trap}: {why}");
        }
        None => assert!(ended.is_empty(), "{app}: the module ended: {ended:#?}"),
    }
    let offsite: Vec<String> =
        session.offsite().into_iter().filter(|o| !offsite_allowed.iter().any(|a| o.contains(a))).collect();
    assert!(offsite.is_empty(), "{app}: the browser went beyond 127.0.0.1: {offsite:#?}");
}

#[test]
fn supernet_api_files_persist_across_page_loads() {
    let _browser = one_browser();
    let web = pnacl_testutil::browser::web_corpus();
    let server = Served::web(&web.join("supernet_api"));
    let page = |steps: &str| Scripted {
        url: format!("{}index.html", server.url),
        until: format!("const steps = {steps};\n{SUPERNET}"),
        screenshot: None,
    };
    let session = run_scripted(&[page(FIRST_LOAD), page(SECOND_LOAD)], 1, Duration::from_secs(120));
    session.print(&["supernet_api (first load)", "supernet_api (loaded again)"]);
    for p in &session.pages {
        assert!(p.error.is_none(), "{}: {:?} (the page: {:?})", p.url, p.error, p.value);
        let v = p.value.clone().expect("a value");
        assert_eq!(v["error"], "", "supernet_api: {v}");
        assert_eq!(v["embed"], true, "supernet_api: the module was not created (no storage grant?): {v}");
    }
    // Jay (js/jay*.js) asks public NXT nodes for the time on its own: the page's request.
    check_common(&session, "supernet_api", &[":7876/nxt"]);
    let log = server.log();
    assert!(log.iter().any(|l| l.contains("fileserver.mjs 200")), "no file server was started: {log:#?}");
    server.stop();
}

#[test]
fn iguana_small_starts_with_its_files() {
    let _browser = one_browser();
    let web = pnacl_testutil::browser::web_corpus();
    let server = Served::web(&web.join("iguana_small"));
    let pages = [Scripted { url: format!("{}iguana/index.html", server.url), until: IGUANA.into(), screenshot: None }];
    let session = run_scripted(&pages, 1, Duration::from_secs(120));
    session.print(&["iguana_small"]);
    let v = session.result(0, "iguana_small");
    assert_eq!(v["embed"], true, "iguana_small: the module was not created (no storage grant?): {v}");
    let modules = page_logs(&session, "iguana.nmf");
    assert!(modules.iter().any(|l| l.contains("created.(DB/.tmpmarker)")), "iguana_small: no file made: {modules:#?}");
    check_common(&session, "iguana_small", &[]);
    server.stop();
}

#[test]
fn glbench_mounts_html5fs() {
    let _browser = one_browser();
    let web = pnacl_testutil::browser::web_corpus();
    let server = Served::web(&web.join("glbench"));
    let pages = [Scripted {
        url: format!("{}projects/nacl/PNaCL%20Make/index.html", server.url),
        until: GLBENCH.into(),
        screenshot: None,
    }];
    let session = run_scripted(&pages, 1, Duration::from_secs(90));
    session.print(&["glbench"]);
    let v = session.result(0, "glbench");
    assert_eq!(v["status"], "SUCCESS", "glbench: {v}");
    let lines = page_logs(&session, "index.html 19:");
    let wanted = [
        "\"Init has been called for instance\"",
        "\"The mount result is: (0 for succes, -1 for failure)\"",
        "0",
        "\"DidChangeView has been called for this instance\"",
    ];
    let at = lines.iter().position(|l| *l == wanted[0]);
    assert!(
        at.is_some_and(|k| lines[k..].len() >= wanted.len() && lines[k..k + wanted.len()] == wanted),
        "glbench: the console does not show {wanted:?} in order: {lines:#?}"
    );
    let modules = page_logs(&session, "glbench_nacl.nmf");
    assert!(
        modules.iter().any(|l| l.contains("Unable to initialize GL PPAPI!")),
        "glbench: its GL set-up did not fail as expected: {modules:#?}"
    );
    check_common(&session, "glbench", &[]);
    server.stop();
}

/// The probe's page: gathers the module's messages until "done".
const PROBE_PAGE: &str = r#"<!doctype html>
<html><head><meta charset="utf-8"><title>PPAPI file probe</title></head>
<body><embed id="probe" type="application/x-pnacl" src="probe.nmf" width="0" height="0"><pre id="out"></pre>
<script>
window.probeMessages = [];
document.getElementById('probe').addEventListener('message', (e) => {
  window.probeMessages.push(e.data);
  document.getElementById('out').textContent += e.data + '\n';
});
</script></body></html>
"#;

const PROBE: &str = r"
const el = document.getElementById('probe');
if (el.lastError) return {error: el.lastError, messages: window.probeMessages};
if (window.probeMessages.includes('done')) return {error: '', messages: window.probeMessages};
if (performance.now() > 60000) return {error: `no 'done' after 60 s: ${el.pnaclState}`, messages: window.probeMessages};
return null;
";

/// What the header files say each of the probe's calls gives (`pp_errors.h`: -1
/// COMPLETIONPENDING, -4 BADARGUMENT, -5 BADRESOURCE, -7 NOACCESS, -13 BLOCKS_MAIN_THREAD,
/// -20 FILENOTFOUND, -21 FILEEXISTS, -51 NO_MESSAGE_LOOP); `None`: only "an error".
const PROBE_EXPECTED: &[(&str, Option<i64>)] = &[
    ("fs_external", Some(0)),
    ("fs_is", Some(1)),
    ("fs_type", Some(2)),
    ("fs_open_blocking_on_main", Some(-13)),
    ("fs_open", Some(-1)),
    ("open_callback", Some(0)),
    ("open_callback_on_main", Some(1)),
    ("ref_relative", Some(0)),
    ("ref_dotdot", Some(0)),
    ("ref_bad_pointer", Some(0)),
    ("ref_is", Some(1)),
    ("ref_fs_type", Some(2)),
    ("delete_missing", Some(-20)),
    ("mkdir", Some(0)),
    ("mkdir_again", Some(0)),
    ("mkdir_exclusive", Some(-21)),
    ("mkdir_no_parent", Some(-20)),
    ("mkdir_ancestors", Some(0)),
    ("io_open_missing", Some(-20)),
    ("io_open_truncate_readonly", Some(-4)),
    ("io_open_create", Some(0)),
    ("io_write", Some(5)),
    ("io_read_huge_count", Some(5)),
    ("io_read_bytes_match", Some(1)),
    ("io_read_past_end", Some(0)),
    ("io_read_bad_pointer", Some(-4)),
    ("io_read_negative", Some(-4)),
    ("io_query", Some(0)),
    ("io_query_size", Some(5)),
    ("io_set_length", Some(0)),
    ("ref_query", Some(0)),
    ("ref_query_size", Some(2)),
    ("ref_query_type", Some(0)),
    ("ref_query_bad_pointer", Some(-4)),
    ("io_bad_resource", Some(-5)),
    ("no_message_loop", Some(-51)),
    ("io_open_exclusive_exists", Some(-21)),
    ("io_open_readonly", Some(0)),
    ("io_write_readonly", Some(-7)),
    ("read_to_array", Some(2)),
    ("readdir", Some(0)),
    ("rename_open", None),
    ("rename", Some(0)),
    ("rename_dir", Some(0)),
    ("rename_dir_back", Some(0)),
    ("query_renamed_away", Some(-20)),
    ("delete_nonempty", None),
    ("delete_file", Some(0)),
    ("delete_deep", Some(0)),
    ("delete_x", Some(0)),
    ("delete_dir", Some(0)),
    ("delete_root", None),
    ("tmp_open", Some(0)),
    ("tmp_io_open", Some(0)),
    ("tmp_write", Some(3)),
    ("tmp_fs_type", Some(3)),
    ("tmp_not_persistent", Some(-20)),
    ("rename_across", None),
    ("tmp_delete", Some(0)),
];

/// A module of our own (tests/data/web_files_probe.c, built with `pnacl cc`) calls the
/// three interfaces as a careless or hostile module might: bad paths, bad pointers, a
/// read count far beyond its buffer and the file, unknown resources, the wrong access,
/// blocking on the main thread, a callback on a thread without a message loop.
#[test]
fn file_interfaces_follow_the_headers() {
    let _browser = one_browser();
    let site = tempfile::tempdir().expect("temporary directory");
    let source = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/web_files_probe.c");
    build_module(&source, site.path(), "probe");
    std::fs::write(site.path().join("index.html"), PROBE_PAGE).expect("write the page");
    let server = Served::web(site.path());
    let pages = [Scripted { url: format!("{}index.html", server.url), until: PROBE.into(), screenshot: None }];
    let session = run_scripted(&pages, 1, Duration::from_secs(90));
    session.print(&["probe"]);
    let v = session.result(0, "probe");
    let mut messages: Vec<String> = v["messages"]
        .as_array()
        .expect("messages")
        .iter()
        .map(|m| m.as_str().unwrap_or_default().to_string())
        .collect();
    assert_eq!(messages.len(), 7, "probe: {messages:#?}");
    assert_eq!(messages.remove(0), "made on the main thread", "a string var made on the main thread, read on another");
    assert_eq!((messages[0].as_str(), messages[1].as_str()), ("/probe", "/"), "GetPath, then the root's GetName");
    let mut names = [messages[2].as_str(), messages[3].as_str()];
    names.sort_unstable();
    assert_eq!(names, ["f", "x"], "ReadDirectoryEntries of /probe");
    // The entries' types, in their order: a regular file (0) for f, a directory (1) for x.
    let types = if messages[2] == "f" { "readdir_types=1" } else { "readdir_types=10" };
    assert!(messages[4].lines().any(|l| l == types), "probe: entry types are not {types}: {}", messages[4]);
    let results: std::collections::HashMap<&str, i64> =
        messages[4].lines().filter_map(|l| l.split_once('=').and_then(|(k, v)| Some((k, v.parse().ok()?)))).collect();
    let mut wrong = Vec::new();
    for (name, expected) in PROBE_EXPECTED {
        let got = results.get(name).copied();
        let ok = match expected {
            Some(e) => got == Some(*e),
            None => got.is_some_and(|g| g < 0),
        };
        if !ok {
            wrong.push(format!("{name}: {got:?}, expected {}", expected.map_or("an error".into(), |e| e.to_string())));
        }
    }
    assert!(wrong.is_empty(), "probe: {wrong:#?}\n(all: {results:#?})");
    assert_eq!(results.len(), PROBE_EXPECTED.len() + 1, "probe: unexpected lines: {results:#?}");
    check_common(&session, "probe", &[]);
    server.stop();
}
