//! Pages in a real browser, for the browser tests: Debian's `chromium`, headless, driven
//! by selenium (`python3-selenium`) through `chromium-driver`, over pages that `pnacl
//! serve` serves on 127.0.0.1.
//!
//! [`Served`] runs `pnacl serve DIR --port 0 --log`; [`run_pages`] opens a list of pages
//! in one browser session, several at a time in tabs, waits for each to set
//! `<body data-exit-status>` (what `pnacl wasm --html`'s pages do) and collects what they
//! wrote ([`Page`]), with what the browser did on the network ([`Session::offsite`]): every
//! host but 127.0.0.1 resolves to nothing, so no request can leave the machine, and the
//! NetLog of the session shows every request and connection the browser made, from pages,
//! Workers and the browser itself. A missing browser, driver or selenium fails the test
//! with the Debian package to install.

use serde_json::Value;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The browser, its driver and the Python that has selenium (Debian's, not a pyenv's).
const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
const PYTHON: &str = "/usr/bin/python3";

/// Fails the test, naming the Debian package, unless the browser, its driver and selenium
/// are installed.
pub fn require() {
    for (path, package) in [(CHROMIUM, "chromium"), (CHROMEDRIVER, "chromium-driver"), (PYTHON, "python3")] {
        assert!(
            Path::new(path).is_file(),
            "{path} is missing: the browser tests need it (Debian: apt-get install {package})"
        );
    }
    let selenium = Command::new(PYTHON).args(["-c", "import selenium"]).output();
    assert!(
        selenium.is_ok_and(|o| o.status.success()),
        "selenium is missing for {PYTHON}: the browser tests drive chromium with it (Debian: apt-get install \
         python3-selenium)"
    );
}

/// The browser apps of `../shared/corpus/web` (with `WEB.tsv`), for a browser test: fails
/// the test, naming what is missing, without the browser, its driver and selenium, or
/// without the corpus.
pub fn web_corpus() -> PathBuf {
    require();
    let web = crate::corpus_dir().join("web");
    assert!(web.join("WEB.tsv").is_file(), "{} is missing: the web corpus is needed", web.display());
    web
}

/// `pnacl serve DIR --port 0 --log`, stopped with Ctrl-C (`SIGINT`) when dropped.
pub struct Served {
    child: Child,
    /// The root's URL (`http://127.0.0.1:PORT/`).
    pub url: String,
    log: Arc<Mutex<Vec<String>>>,
}

impl Served {
    /// Starts serving `dir`.
    pub fn start(dir: &Path) -> Served {
        Served::command(&["serve".as_ref(), "--port".as_ref(), "0".as_ref(), "--log".as_ref(), dir.as_os_str()])
    }

    /// `pnacl serve --not-isolated`: as a static host that cannot send the cross-origin
    /// isolation headers.
    pub fn not_isolated(dir: &Path) -> Served {
        Served::command(&[
            "serve".as_ref(),
            "--not-isolated".as_ref(),
            "--port".as_ref(),
            "0".as_ref(),
            "--log".as_ref(),
            dir.as_os_str(),
        ])
    }

    /// `pnacl web SITE --serve --port 0 --log`: an old NaCl site with pnacl's polyfill.
    pub fn web(site: &Path) -> Served {
        Served::command(&[
            "web".as_ref(),
            site.as_os_str(),
            "--serve".as_ref(),
            "--port".as_ref(),
            "0".as_ref(),
            "--log".as_ref(),
        ])
    }

    /// A pnacl subcommand that serves on a free port and prints its URL first.
    fn command(args: &[&std::ffi::OsStr]) -> Served {
        let mut child = crate::pnacl_command()
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start pnacl serve");
        let mut first = String::new();
        let stdout = child.stdout.take().expect("stdout");
        BufReader::new(stdout).read_line(&mut first).expect("read the URL pnacl serve prints");
        let url = first.trim().to_string();
        assert!(url.starts_with("http://127.0.0.1:") && url.ends_with('/'), "pnacl serve printed {first:?}");
        let log = Arc::new(Mutex::new(Vec::new()));
        let stderr = child.stderr.take().expect("stderr");
        let sink = Arc::clone(&log);
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                sink.lock().expect("log").push(line);
            }
        });
        Served { child, url, log }
    }

    /// The requests served so far (`METHOD URL STATUS`).
    pub fn log(&self) -> Vec<String> {
        self.log.lock().expect("log").clone()
    }

    /// Stops the server with Ctrl-C; returns the signal that ended it, if one did.
    pub fn stop(mut self) -> Option<i32> {
        self.interrupt()
    }

    fn interrupt(&mut self) -> Option<i32> {
        // SAFETY: sends a signal to our own child, which has not been waited for.
        unsafe {
            libc::kill(self.child.id() as libc::pid_t, libc::SIGINT);
        }
        let status = self.child.wait().expect("wait for pnacl serve");
        std::os::unix::process::ExitStatusExt::signal(&status)
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            self.interrupt();
        }
    }
}

/// What a page did.
#[derive(Clone, Debug, Default)]
pub struct Page {
    /// Its URL.
    pub url: String,
    /// `data-exit-status`, once set.
    pub status: Option<i32>,
    /// The bytes of its program's standard output and error.
    pub stdout: Vec<u8>,
    /// (See `stdout`.)
    pub stderr: Vec<u8>,
    /// The text of `<pre id="stdout">` and `<pre id="stderr">`.
    pub shown_stdout: String,
    /// (See `shown_stdout`.)
    pub shown_stderr: String,
    /// What the page's `until` script returned ([`run_scripted`]).
    pub value: Option<Value>,
    /// Why the page has no status (it did not end in time).
    pub error: Option<String>,
    /// Seconds from opening the page to its end.
    pub seconds: f64,
}

/// A request the browser made.
#[derive(Clone, Debug)]
pub struct Request {
    /// The URL.
    pub url: String,
    /// The origin of the page that asked for it; empty or `not an origin` for the browser's own.
    pub initiator: String,
}

/// A socket the browser connected.
#[derive(Clone, Debug)]
pub struct Connection {
    /// `HOST:PORT` (IPv6 in brackets).
    pub address: String,
    /// `TCP`, `UDP` or `SOCKET`.
    pub protocol: String,
    /// Bytes sent on it.
    pub bytes_sent: u64,
}

/// One browser session.
#[derive(Clone, Debug, Default)]
pub struct Session {
    /// The pages, in the order given.
    pub pages: Vec<Page>,
    /// Every request of the session.
    pub requests: Vec<Request>,
    /// Every socket it connected.
    pub connections: Vec<Connection>,
    /// The browser's console messages, from every page (errors, uncaught exceptions,
    /// failed loads; the browser's log is not kept per tab).
    pub console: Vec<String>,
    /// The session's seconds, the browser's start and end included.
    pub seconds: f64,
}

fn is_loopback(address: &str) -> bool {
    address.starts_with("127.0.0.1:") || address.starts_with("[::1]:")
}

impl Session {
    /// Asserts that no page threw an uncaught exception and no module ended (crashed or
    /// exited), as the browser's console shows them.
    pub fn assert_no_exceptions_or_ends(&self) {
        let thrown: Vec<&String> = self
            .console
            .iter()
            .filter(|l| l.contains("Uncaught") || l.contains("pnacl: ") && l.contains("ended"))
            .collect();
        assert!(thrown.is_empty(), "exceptions or module ends in the pages: {thrown:#?}");
    }

    /// Page `k`'s value, asserting that its script returned one, with an empty `error`
    /// (`name` says which page in the failure).
    pub fn result(&self, k: usize, name: &str) -> Value {
        let page = &self.pages[k];
        assert!(page.error.is_none(), "{name} ({}): {:?} (the page: {:?})", page.url, page.error, page.value);
        let v = page.value.clone().expect("a value");
        assert_eq!(v["error"], "", "{name}: {v}");
        v
    }

    /// Prints, under the names given in the pages' order, each page's seconds to its
    /// result and its value, then the browser's console: what a failing test shows.
    pub fn print(&self, names: &[&str]) {
        for (page, name) in self.pages.iter().zip(names) {
            let value = page.value.as_ref().map_or(String::new(), |v| v.to_string());
            eprintln!("{name}: {:.2} s to the result: {value}", page.seconds);
        }
        for line in &self.console {
            eprintln!("console: {line}");
        }
    }

    /// What went, or tried to go, beyond 127.0.0.1: a TCP connection to another address,
    /// a UDP datagram sent to one, and a request a page made to another host (which the
    /// resolver refuses, but which a page should not make). The browser's own background
    /// requests (updates, time, accounts), refused by the resolver before any connection,
    /// are not listed. (Chromium connects a UDP socket to a public address without sending
    /// anything to learn whether IPv6 works; that is not listed either.)
    pub fn offsite(&self) -> Vec<String> {
        let mut out = Vec::new();
        for c in &self.connections {
            if !is_loopback(&c.address) && (c.protocol == "TCP" || c.bytes_sent > 0) {
                out.push(format!("{} connection to {} ({} bytes sent)", c.protocol, c.address, c.bytes_sent));
            }
        }
        for r in &self.requests {
            let from_page = r.initiator.starts_with("http://127.0.0.1:");
            let local = ["http://127.0.0.1:", "ws://127.0.0.1:", "data:", "blob:", "about:"]
                .iter()
                .any(|p| r.url.starts_with(p));
            if from_page && !local {
                out.push(format!("{} requested {}", r.initiator, r.url));
            }
        }
        out
    }
}

fn hex(s: &str) -> Vec<u8> {
    (0..s.len() / 2).filter_map(|k| u8::from_str_radix(s.get(2 * k..2 * k + 2)?, 16).ok()).collect()
}

/// Opens `urls` in one headless chromium session, `parallel` at a time, each until it sets
/// `data-exit-status` or `timeout` passes.
pub fn run_pages(urls: &[String], parallel: usize, timeout: Duration) -> Session {
    let pages: Vec<Value> = urls.iter().map(|u| serde_json::json!({"url": u})).collect();
    drive(&pages, parallel, timeout)
}

/// A page that a script watches.
#[derive(Clone, Debug)]
pub struct Scripted {
    /// Its URL.
    pub url: String,
    /// A function body run in the page again and again (it may click and type) until it
    /// returns something other than null, which becomes [`Page::value`].
    pub until: String,
    /// Where to save a screenshot of the tab when the page is done.
    pub screenshot: Option<PathBuf>,
}

/// Opens the pages in one headless chromium session, `parallel` at a time, each until its
/// script returns a value or `timeout` passes (the page's `error` then says so, and its
/// `value` is the page's text).
pub fn run_scripted(pages: &[Scripted], parallel: usize, timeout: Duration) -> Session {
    let pages: Vec<Value> =
        pages.iter().map(|p| serde_json::json!({"url": p.url, "until": p.until, "screenshot": p.screenshot})).collect();
    drive(&pages, parallel, timeout)
}

fn drive(pages: &[Value], parallel: usize, timeout: Duration) -> Session {
    require();
    let scratch = tempfile::tempdir().expect("temporary directory");
    let netlog: PathBuf = scratch.path().join("netlog.json");
    let job = serde_json::json!({
        "pages": pages,
        "parallel": parallel.max(1),
        "timeout": timeout.as_secs_f64(),
        "chromium": CHROMIUM,
        "chromedriver": CHROMEDRIVER,
        "netlog": netlog,
        "profile": scratch.path().join("profile"),
    });
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("browser/drive.py");
    let mut child = Command::new(PYTHON)
        .arg(&script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run the browser driver");
    child.stdin.take().expect("stdin").write_all(job.to_string().as_bytes()).expect("write the job");
    let out = child.wait_with_output().expect("wait for the browser driver");
    assert!(
        out.status.success(),
        "the browser driver failed ({:?}):\n{}",
        out.status.code(),
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).expect("the driver's JSON");
    let text = |v: &Value, k: &str| v.get(k).and_then(Value::as_str).unwrap_or_default().to_string();
    if let Some(e) = v.get("netlog_error").and_then(Value::as_str) {
        panic!("the browser's NetLog: {e}");
    }
    let pages = v["pages"]
        .as_array()
        .expect("pages")
        .iter()
        .map(|p| Page {
            url: text(p, "url"),
            status: p.get("status").and_then(Value::as_i64).map(|s| s as i32),
            stdout: hex(&text(p, "stdout")),
            stderr: hex(&text(p, "stderr")),
            shown_stdout: text(p, "shown_stdout"),
            shown_stderr: text(p, "shown_stderr"),
            value: p.get("value").cloned(),
            error: p.get("error").and_then(Value::as_str).map(String::from),
            seconds: p.get("seconds").and_then(Value::as_f64).unwrap_or_default(),
        })
        .collect();
    let requests = v["requests"].as_array().map_or(Vec::new(), |r| {
        r.iter().map(|r| Request { url: text(r, "url"), initiator: text(r, "initiator") }).collect()
    });
    let connections = v["connections"].as_array().map_or(Vec::new(), |c| {
        c.iter()
            .map(|c| Connection {
                address: text(c, "address"),
                protocol: text(c, "protocol"),
                bytes_sent: c.get("bytes_sent").and_then(Value::as_u64).unwrap_or_default(),
            })
            .collect()
    });
    let console = v["console"]
        .as_array()
        .map_or(Vec::new(), |c| c.iter().map(|m| m.as_str().unwrap_or_default().to_string()).collect());
    Session {
        pages,
        requests,
        connections,
        console,
        seconds: v.get("seconds").and_then(Value::as_f64).unwrap_or_default(),
    }
}

/// Builds a PPAPI test module: `source` (C, its folder on the include path) compiled by
/// `pnacl cc -O2` into `site/NAME.pexe`, with its manifest `site/NAME.nmf`.
pub fn build_module(source: &Path, site: &Path, name: &str) {
    let include = source.parent().expect("the source's folder");
    let out = crate::pnacl_command()
        .args(["cc", "-O2", "-I"])
        .arg(include)
        .arg(source)
        .arg("-o")
        .arg(site.join(format!("{name}.pexe")))
        .output()
        .expect("run pnacl cc");
    assert!(out.status.success(), "pnacl cc {} failed:\n{}", source.display(), String::from_utf8_lossy(&out.stderr));
    let manifest = format!(r#"{{"program": {{"portable": {{"pnacl-translate": {{"url": "{name}.pexe"}}}}}}}}"#);
    std::fs::write(site.join(format!("{name}.nmf")), manifest).expect("write the manifest");
}

/// A server a test runs beside the browser (`python3 SCRIPT ARGS...`, which prints
/// `listening PORT` first), killed when dropped.
pub struct TestServer {
    child: Child,
    /// The port it listens on.
    pub port: u16,
    output: BufReader<std::process::ChildStdout>,
}

impl TestServer {
    /// Starts `script` with `args` and waits for its `listening PORT` line.
    pub fn start(script: &Path, args: &[&std::ffi::OsStr]) -> TestServer {
        let mut child = Command::new("python3")
            .arg(script)
            .args(args)
            .stdout(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("start the test's server {} (python3): {e}", script.display()));
        let mut output = BufReader::new(child.stdout.take().expect("stdout"));
        let mut first = String::new();
        output.read_line(&mut first).expect("the server's first line");
        let server = |port| TestServer { child, port, output };
        match first.trim().strip_prefix("listening ").and_then(|p| p.parse().ok()) {
            Some(port) => server(port),
            None => {
                drop(server(0));
                panic!("the test's server {} did not start: it printed {first:?}", script.display())
            }
        }
    }

    /// Stops the server; returns what it printed after its first line.
    pub fn stop(mut self) -> Vec<String> {
        self.kill();
        let mut rest = String::new();
        std::io::Read::read_to_string(&mut self.output, &mut rest).ok();
        rest.lines().map(String::from).collect()
    }

    fn kill(&mut self) {
        self.child.kill().ok();
        self.child.wait().ok();
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        self.kill();
    }
}
