//! `pnacl wasm --html` pages in a real browser: Debian's headless chromium, driven by
//! selenium, through `pnacl serve` (port 0). Every `test` row of the corpus's `RUNS.tsv`
//! (threads and setjmp included) gives the expected standard output and
//! `data-exit-status`, with nothing on standard error; the page shows both streams as the
//! program wrote them; a trap gives 134 and `pnacl run`'s one-line message; a browser
//! (PPAPI) pexe 126; a module that is not there 125; no page logs an error to the console
//! (but the browser's note of that module's 404). One browser session opens every page,
//! four at a time, with every host but 127.0.0.1 unresolvable, and its NetLog shows that
//! nothing left 127.0.0.1.

use pnacl_testutil::browser::{Served, run_pages};
use pnacl_testutil::{corpus_dir, runs, workspace_root};
use std::collections::BTreeMap;
use std::path::Path;
use std::time::{Duration, Instant};

/// `pnacl wasm --html INPUT -o DIR/NAME.wasm`, run from `cwd` (INPUT as spelled there is
/// the guest's `argv[0]`).
fn translate(cwd: &Path, input: &str, dir: &Path, name: &str) {
    let out = pnacl_testutil::pnacl_command()
        .current_dir(cwd)
        .args(["wasm", "--html", input, "-o"])
        .arg(dir.join(format!("{name}.wasm")))
        .output()
        .expect("run pnacl wasm");
    assert!(out.status.success(), "pnacl wasm --html {input}: {}", String::from_utf8_lossy(&out.stderr));
}

/// A query-string value.
fn encode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// What a page is expected to do besides a RUNS.tsv row: its status and standard error.
struct Other {
    page: String,
    status: i32,
    stderr: &'static str,
}

#[test]
fn pages_give_the_output_and_status_of_every_test_run_case() {
    pnacl_testutil::browser::require();
    let started = Instant::now();
    let dir = tempfile::tempdir().expect("temporary directory");
    let cases: Vec<_> = runs().into_iter().filter(|r| r.role == "test").collect();
    assert!(cases.len() >= 17, "RUNS.tsv has {} test rows", cases.len());
    let mut names = BTreeMap::new();
    for case in &cases {
        names.entry(case.file.clone()).or_insert_with(|| case.file.replace(['/', '.'], "_"));
    }
    for (file, name) in &names {
        translate(&corpus_dir(), file, dir.path(), name);
    }
    translate(&workspace_root(), "examples/divide.pnaclasm", dir.path(), "divide");
    translate(&corpus_dir(), "ppapi/hello_tutorial.pexe", dir.path(), "hello_tutorial");
    translate(&corpus_dir(), "cli/hello_world.pexe", dir.path(), "gone");
    std::fs::remove_file(dir.path().join("gone.wasm")).expect("remove a module");
    let translated = started.elapsed();

    let served = Served::start(dir.path());
    let mut urls: Vec<String> = cases
        .iter()
        .map(|c| {
            let query: Vec<String> = c.args.iter().map(|a| format!("arg={}", encode(a))).collect();
            format!("{}{}.html?{}", served.url, names[&c.file], query.join("&"))
        })
        .collect();
    let others = [
        Other {
            page: "divide.html".into(),
            status: 134,
            stderr: "pnacl: trap: integer divide by zero in function divide\n",
        },
        Other { page: "divide.html?arg=x".into(), status: 100, stderr: "" },
        Other {
            page: "hello_tutorial.html".into(),
            status: 126,
            stderr: "pnacl: ppapi/hello_tutorial.pexe: a browser (PPAPI) application: it uses the \
                     nacl-irt-ppapihook interface. This page runs command-line pexes only.\n",
        },
        Other {
            page: "gone.html".into(),
            status: 125,
            stderr: "pnacl: gone.wasm: cannot load the module: HTTP status 404\n",
        },
        Other { page: "gone.html?env=NOEQUALS".into(), status: 2, stderr: "pnacl: env=NOEQUALS: expected KEY=VALUE\n" },
    ];
    urls.extend(others.iter().map(|o| format!("{}{}", served.url, o.page)));
    let session = run_pages(&urls, 4, Duration::from_secs(120));
    let log = served.log();
    assert_eq!(served.stop(), Some(libc::SIGINT), "pnacl serve should end by the Ctrl-C it was sent");

    let mut failures = Vec::new();
    for (page, case) in session.pages.iter().zip(&cases) {
        let name = format!("{} ({})", case.name(), page.url);
        if let Some(e) = &page.error {
            failures.push(format!("{name}: {e}; shown stderr: {}", page.shown_stderr));
            continue;
        }
        if page.status != Some(case.expected_exit) {
            failures.push(format!(
                "{name}: data-exit-status {:?}, expected {}; stderr: {}",
                page.status,
                case.expected_exit,
                String::from_utf8_lossy(&page.stderr)
            ));
        }
        if let Err(e) = case.check_stdout(&page.stdout) {
            failures.push(format!("{name}: {e}"));
        }
        if !page.stderr.is_empty() {
            failures.push(format!("{name}: unexpected stderr: {}", String::from_utf8_lossy(&page.stderr)));
        }
        if page.shown_stdout != String::from_utf8_lossy(&page.stdout) {
            failures.push(format!("{name}: <pre id=\"stdout\"> shows other text than the program wrote"));
        }
    }
    for (page, other) in session.pages[cases.len()..].iter().zip(&others) {
        let stderr = String::from_utf8_lossy(&page.stderr);
        if page.status != Some(other.status) || stderr != other.stderr || page.shown_stderr != stderr {
            failures.push(format!(
                "{}: data-exit-status {:?}, expected {}; stderr {stderr:?}, expected {:?}; shown {:?}; {:?}",
                other.page, page.status, other.status, other.stderr, page.shown_stderr, page.error
            ));
        }
    }
    // The one console message: the browser's note of the missing module's 404.
    for m in &session.console {
        if !m.contains("/gone.wasm - Failed to load resource") {
            failures.push(format!("console: {m}"));
        }
    }
    let offsite = session.offsite();
    assert!(offsite.is_empty(), "requests beyond 127.0.0.1:\n{}", offsite.join("\n"));
    assert!(
        session.requests.iter().any(|r| r.url.ends_with("/pnacl-host/worker.mjs")),
        "the NetLog should list the pages' requests, Workers' included"
    );
    assert!(log.iter().any(|l| l.starts_with("GET /cli_thread_pexe.wasm 200")), "the server's log: {log:?}");
    let slowest = session.pages.iter().map(|p| p.seconds).fold(0.0, f64::max);
    eprintln!(
        "{} pages in {:.1} s of browser session (slowest page {slowest:.2} s); translation {:.1} s; test {:.1} s",
        session.pages.len(),
        session.seconds,
        translated.as_secs_f64(),
        started.elapsed().as_secs_f64()
    );
    assert!(failures.is_empty(), "{} of {} pages failed:\n{}", failures.len(), urls.len(), failures.join("\n"));
}
