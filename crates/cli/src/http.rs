//! A small static HTTP server for what `pnacl wasm --html` writes, on 127.0.0.1 only:
//! `pnacl serve` uses it as it is, and other subcommands can put [`Hooks`] in front of it
//! (answer some paths themselves, change a file before it is sent).
//!
//! HTTP itself (parsing, keep-alive, `HEAD`) is hyper's; this module decides what a request
//! gets:
//!
//! - Only `GET` and `HEAD` (405 otherwise). The URL's path is percent-decoded and split at
//!   `/`; a `..` component (spelled out or encoded) is refused (400), as is a NUL byte or a
//!   backslash. Empty and `.` components are dropped.
//! - Files are opened beneath the root with `openat2(RESOLVE_BENEATH)`: no path, and no
//!   symbolic link inside the root, reaches anything outside it (404). Where the kernel has
//!   no `openat2`, the real path is checked to lie below the root's instead.
//! - A directory is answered with its `index.html`, or else a list of its entries; without
//!   a final `/` it is redirected to the path with one, so relative links work.
//! - Every response carries the headers that make a page cross-origin isolated
//!   (`Cross-Origin-Opener-Policy: same-origin`, `Cross-Origin-Embedder-Policy:
//!   require-corp`) and `Cross-Origin-Resource-Policy: same-origin`, so that
//!   `SharedArrayBuffer`, and with it threads, work; `X-Content-Type-Options: nosniff`, and
//!   `Cache-Control: no-cache` (a module translated again is fetched again).
//! - Content types by extension ([`content_type`]): `application/wasm` for `.wasm` (which
//!   `WebAssembly.compileStreaming` requires) and `text/javascript` for `.js` and `.mjs`
//!   (which module scripts and module Workers require).

use bytes::Bytes;
use futures_util::StreamExt;
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Full, StreamBody};
use hyper::body::Frame;
use std::convert::Infallible;
use std::fs::File;
use std::io;
use std::net::{SocketAddr, TcpListener};
use std::os::fd::{AsRawFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, mpsc};
use std::time::Duration;
use tokio::sync::oneshot;

/// Threads deciding what requests get (connections are served on one other thread).
const WORKERS: usize = 4;

/// How long a client may take to send a request's headers.
const HEADER_TIMEOUT: Duration = Duration::from_secs(30);

/// How often the answering threads look at the stop flag.
const POLL: Duration = Duration::from_millis(100);

/// The directory served: every file is opened beneath it.
pub struct Root {
    dir: OwnedFd,
    real: PathBuf,
}

impl Root {
    /// Opens the directory to serve.
    pub fn open(dir: &Path) -> io::Result<Root> {
        let real = std::fs::canonicalize(dir)?;
        let file = File::open(&real)?;
        if !file.metadata()?.is_dir() {
            return Err(io::Error::new(io::ErrorKind::NotADirectory, "not a directory"));
        }
        Ok(Root { dir: OwnedFd::from(file), real })
    }

    /// Opens `rel` (components from [`Request::components`], joined with `/`; empty for
    /// the root itself) for reading, beneath the root. A path that would leave the root,
    /// through `..` or a symbolic link, is `NotFound`.
    pub fn open_file(&self, rel: &str) -> io::Result<File> {
        let rel = if rel.is_empty() { "." } else { rel };
        let c_rel = std::ffi::CString::new(rel).map_err(|_| io::Error::from(io::ErrorKind::NotFound))?;
        let opened = pnacl_runtime::open_beneath(self.dir.as_raw_fd(), &c_rel, libc::O_RDONLY, 0)
            .map_err(|e| io::Error::from_raw_os_error(e.0));
        match opened {
            Ok(fd) => Ok(File::from(fd)),
            // Outside the root: as if it did not exist.
            Err(e) if e.raw_os_error() == Some(libc::EXDEV) || e.raw_os_error() == Some(libc::ELOOP) => {
                Err(io::Error::from(io::ErrorKind::NotFound))
            }
            // No openat2 (an old kernel, or a sandbox that forbids it): check the real path.
            Err(e) if e.raw_os_error() == Some(libc::ENOSYS) || e.raw_os_error() == Some(libc::EPERM) => {
                let real = std::fs::canonicalize(self.real.join(rel))?;
                if !real.starts_with(&self.real) {
                    return Err(io::Error::from(io::ErrorKind::NotFound));
                }
                File::open(real)
            }
            Err(e) => Err(e),
        }
    }
}

/// A request, after its path was checked.
pub struct Request<'a> {
    /// The path's components, percent-decoded, none empty, `.` or `..`.
    pub components: &'a [String],
    /// Whether the URL's path ended with `/`.
    pub trailing_slash: bool,
    /// The query string (after `?`, without it), as sent.
    #[allow(dead_code, reason = "for hooks that answer by the query; the static files ignore it")]
    pub query: &'a str,
}

impl Request<'_> {
    /// The path relative to the root (`a/b.html`; empty for the root).
    pub fn relative(&self) -> String {
        self.components.join("/")
    }
}

/// What a request gets.
pub struct Reply {
    /// The HTTP status.
    pub status: u16,
    /// The `Content-Type`.
    pub content_type: String,
    /// The body.
    pub body: Body,
    /// Other headers (the isolation headers are added to every reply).
    pub headers: Vec<(String, String)>,
}

/// A reply's body.
pub enum Body {
    /// Bytes in memory.
    Bytes(Vec<u8>),
    /// An open file, sent from where it is to its end, with its length.
    File(File, u64),
}

impl Reply {
    /// A reply with a body in memory.
    pub fn bytes(status: u16, content_type: &str, body: Vec<u8>) -> Reply {
        Reply { status, content_type: content_type.to_string(), body: Body::Bytes(body), headers: Vec::new() }
    }

    /// A short plain-text reply (errors).
    pub fn text(status: u16, text: &str) -> Reply {
        Reply::bytes(status, "text/plain; charset=utf-8", format!("{text}\n").into_bytes())
    }
}

/// What a subcommand puts in front of the static files.
pub trait Hooks: Sync {
    /// Answers a request itself (a generated file, a file changed on its way), or `None`
    /// to serve the file system's file. Files it reads should be opened with
    /// [`Root::open_file`].
    fn respond(&self, _request: &Request<'_>, _root: &Root) -> Option<Reply> {
        None
    }

    /// False to answer as a host that cannot send the cross-origin isolation headers
    /// (they are then sent with their "none" values).
    fn isolated(&self) -> bool {
        true
    }
}

/// No hooks: the files as they are.
pub struct Static;

impl Hooks for Static {}

/// The files as they are, without cross-origin isolation.
pub struct Plain;

impl Hooks for Plain {
    fn isolated(&self) -> bool {
        false
    }
}

/// A server listening on 127.0.0.1.
pub struct Server {
    listener: TcpListener,
    addr: SocketAddr,
}

/// A request handed to an answering thread, with where its reply goes.
struct Job {
    method: String,
    url: String,
    done: oneshot::Sender<Reply>,
}

/// What a response's body is made of: bytes in memory, or a file read as it is sent.
type ResponseBody = BoxBody<Bytes, io::Error>;

impl Server {
    /// Listens on 127.0.0.1:`port` (0: a free port the system picks).
    pub fn bind(port: u16) -> io::Result<Server> {
        let listener = TcpListener::bind(("127.0.0.1", port))?;
        let addr = listener.local_addr()?;
        Ok(Server { listener, addr })
    }

    /// The URL of the root.
    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }

    /// Answers requests from `root` until `stop` is set; `log` is told of each (method,
    /// URL, status).
    ///
    /// Connections are hyper's, on one thread's event loop, so that any number of them
    /// can stay open (a browser keeps six or more alive per page, and reuses them); what
    /// a request gets is decided on [`WORKERS`] threads of their own, since a hook may
    /// take long (`pnacl web` translates a pexe when its module is first asked for).
    pub fn serve(self, root: &Root, hooks: &dyn Hooks, stop: &AtomicBool, log: &(dyn Fn(&str, &str, u16) + Sync)) {
        let (jobs, queue) = mpsc::channel::<Job>();
        let queue = Mutex::new(queue);
        std::thread::scope(|s| {
            for _ in 0..WORKERS {
                s.spawn(|| {
                    loop {
                        // The lock is held only while waiting for the next job.
                        let next = queue.lock().map_err(|_| ()).and_then(|q| q.recv().map_err(|_| ()));
                        let Ok(job) = next else { break };
                        let r = reply(&job.method, &job.url, root, hooks);
                        log(&job.method, &job.url, r.status);
                        // The client may have gone: nothing to tell it.
                        let _ = job.done.send(r);
                    }
                });
            }
            let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build();
            if let Ok(runtime) = runtime {
                runtime.block_on(accept(self.listener, jobs, stop));
            }
            // `jobs` is gone with the loop: the answering threads end.
        });
    }
}

/// Accepts connections until `stop` is set; each is served on a task of its own.
async fn accept(listener: TcpListener, jobs: mpsc::Sender<Job>, stop: &AtomicBool) {
    let listener = match listener.set_nonblocking(true).and_then(|()| tokio::net::TcpListener::from_std(listener)) {
        Ok(l) => l,
        Err(_) => return,
    };
    let mut tick = tokio::time::interval(POLL);
    loop {
        tokio::select! {
            accepted = listener.accept() => {
                // A connection that failed before it was accepted: the next.
                let Ok((stream, _)) = accepted else { continue };
                // Responses are written whole: no waiting for the client's ACK (Nagle).
                let _ = stream.set_nodelay(true);
                let jobs = jobs.clone();
                tokio::spawn(async move {
                    let service = hyper::service::service_fn(move |request| respond(request, jobs.clone()));
                    // A connection ends when the client closes it, or with an error that
                    // concerns only it.
                    let _ = hyper::server::conn::http1::Builder::new()
                        .timer(hyper_util::rt::TokioTimer::new())
                        .header_read_timeout(HEADER_TIMEOUT)
                        .serve_connection(hyper_util::rt::TokioIo::new(stream), service)
                        .await;
                });
            }
            _ = tick.tick() => {
                if stop.load(Ordering::SeqCst) {
                    return;
                }
            }
        }
    }
}

/// What a request gets, with the isolation headers overridden where the hooks say so.
fn reply(method: &str, url: &str, root: &Root, hooks: &dyn Hooks) -> Reply {
    let mut r = answer(method, url, root, hooks);
    if !hooks.isolated() {
        // Later headers replace the defaults.
        r.headers.push(("Cross-Origin-Opener-Policy".into(), "unsafe-none".into()));
        r.headers.push(("Cross-Origin-Embedder-Policy".into(), "unsafe-none".into()));
        r.headers.push(("Cross-Origin-Resource-Policy".into(), "cross-origin".into()));
    }
    r
}

/// Answers one request (hyper leaves out the body of a reply to `HEAD`).
async fn respond(
    request: hyper::Request<hyper::body::Incoming>,
    jobs: mpsc::Sender<Job>,
) -> Result<hyper::Response<ResponseBody>, Infallible> {
    let (done, answer) = oneshot::channel();
    let job = Job { method: request.method().as_str().to_string(), url: request.uri().to_string(), done };
    let reply = match jobs.send(job) {
        Ok(()) => answer.await.unwrap_or_else(|_| Reply::text(500, "the server is stopping")),
        Err(_) => Reply::text(503, "the server is stopping"),
    };
    let (body, len): (ResponseBody, u64) = match reply.body {
        Body::Bytes(b) => {
            let len = b.len() as u64;
            (Full::new(Bytes::from(b)).map_err(|never| match never {}).boxed(), len)
        }
        Body::File(f, len) => {
            // At most the length announced, should the file grow meanwhile.
            let reader = tokio::io::AsyncReadExt::take(tokio::fs::File::from_std(f), len);
            let frames = tokio_util::io::ReaderStream::new(reader).map(|chunk| chunk.map(Frame::data));
            (StreamBody::new(frames).boxed(), len)
        }
    };
    let mut response = hyper::Response::new(body);
    *response.status_mut() =
        hyper::StatusCode::from_u16(reply.status).unwrap_or(hyper::StatusCode::INTERNAL_SERVER_ERROR);
    let mut headers = vec![
        ("Server".to_string(), "pnacl".to_string()),
        ("Content-Type".to_string(), reply.content_type),
        ("Content-Length".to_string(), len.to_string()),
        ("Cross-Origin-Opener-Policy".to_string(), "same-origin".to_string()),
        ("Cross-Origin-Embedder-Policy".to_string(), "require-corp".to_string()),
        ("Cross-Origin-Resource-Policy".to_string(), "same-origin".to_string()),
        ("X-Content-Type-Options".to_string(), "nosniff".to_string()),
        ("Cache-Control".to_string(), "no-cache".to_string()),
    ];
    headers.extend(reply.headers);
    for (k, v) in headers {
        if let (Ok(k), Ok(v)) =
            (hyper::header::HeaderName::from_bytes(k.as_bytes()), hyper::header::HeaderValue::from_str(&v))
        {
            response.headers_mut().insert(k, v);
        }
    }
    Ok(response)
}

/// The path's components, or why the path is refused.
pub fn components(path: &str) -> Result<Vec<String>, &'static str> {
    let mut out = Vec::new();
    for raw in path.split('/') {
        let bytes: Vec<u8> = percent_encoding::percent_decode_str(raw).collect();
        let Ok(c) = String::from_utf8(bytes) else { return Err("the path is not UTF-8") };
        if c.contains(['\0', '\\']) {
            return Err("the path holds a NUL byte or a backslash");
        }
        // A component that decodes to a slash would be two components.
        if c.contains('/') {
            return Err("the path holds an encoded slash");
        }
        match c.as_str() {
            "" | "." => {}
            ".." => return Err("the path leads up (..)"),
            _ => out.push(c),
        }
    }
    Ok(out)
}

/// What a request gets.
fn answer(method: &str, url: &str, root: &Root, hooks: &dyn Hooks) -> Reply {
    match method {
        "GET" | "HEAD" => {}
        _ => {
            let mut r = Reply::text(405, "only GET and HEAD");
            r.headers.push(("Allow".into(), "GET, HEAD".into()));
            return r;
        }
    };
    let (path, query) = url.split_once('?').unwrap_or((url, ""));
    let path = path.split_once('#').map_or(path, |p| p.0);
    if !path.starts_with('/') {
        return Reply::text(400, "bad request: the path must start with /");
    }
    let parts = match components(path) {
        Ok(p) => p,
        Err(why) => return Reply::text(400, &format!("bad request: {why}")),
    };
    let request = Request { components: &parts, trailing_slash: path.ends_with('/'), query };
    if let Some(r) = hooks.respond(&request, root) {
        return r;
    }
    serve_file(&request, root)
}

/// The file (or directory) a request names.
fn serve_file(request: &Request<'_>, root: &Root) -> Reply {
    let rel = request.relative();
    let not_found = || Reply::text(404, "not found");
    let Ok(file) = root.open_file(&rel) else { return not_found() };
    let Ok(meta) = file.metadata() else { return not_found() };
    if meta.is_dir() {
        if !request.trailing_slash && !rel.is_empty() {
            let last = request.components.last().map(|c| encode(c)).unwrap_or_default();
            let mut r = Reply::text(301, "moved");
            r.headers.push(("Location".into(), format!("{last}/")));
            return r;
        }
        let index = if rel.is_empty() { "index.html".to_string() } else { format!("{rel}/index.html") };
        if let Ok(f) = root.open_file(&index)
            && let Ok(m) = f.metadata()
            && m.is_file()
        {
            return Reply {
                status: 200,
                content_type: content_type("index.html").into(),
                body: Body::File(f, m.len()),
                headers: Vec::new(),
            };
        }
        return listing(&file, &rel);
    }
    if !meta.is_file() {
        return not_found();
    }
    let name = request.components.last().map_or("", String::as_str);
    Reply {
        status: 200,
        content_type: content_type(name).into(),
        body: Body::File(file, meta.len()),
        headers: Vec::new(),
    }
}

/// A directory's entries as a page of links (directories first, then files, by name).
fn listing(dir: &File, rel: &str) -> Reply {
    let Ok(entries) = std::fs::read_dir(format!("/proc/self/fd/{}", dir.as_raw_fd())) else {
        return Reply::text(404, "not found");
    };
    let mut names: Vec<(bool, String)> = entries
        .filter_map(Result::ok)
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            Some((!e.file_type().ok()?.is_dir(), name))
        })
        .collect();
    names.sort();
    let title = pnacl_wasm::html_escape(&format!("/{rel}"));
    let mut page = format!(
        "<!doctype html>\n<html lang=\"en\">\n<head><meta charset=\"utf-8\"><title>{title}</title></head>\n<body>\n<h1>{title}</h1>\n<ul>\n"
    );
    for (is_file, name) in names {
        let slash = if is_file { "" } else { "/" };
        page.push_str(&format!(
            "<li><a href=\"{}{slash}\">{}{slash}</a></li>\n",
            encode(&name),
            pnacl_wasm::html_escape(&name)
        ));
    }
    page.push_str("</ul>\n</body>\n</html>\n");
    Reply::bytes(200, "text/html; charset=utf-8", page.into_bytes())
}

/// A path component, percent-encoded for a URL.
fn encode(s: &str) -> String {
    const SET: &percent_encoding::AsciiSet =
        &percent_encoding::NON_ALPHANUMERIC.remove(b'-').remove(b'_').remove(b'.').remove(b'~');
    percent_encoding::utf8_percent_encode(s, SET).to_string()
}

/// The `Content-Type` of a file, by its extension.
pub fn content_type(name: &str) -> &'static str {
    let ext = name.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase()).unwrap_or_default();
    match ext.as_str() {
        "html" | "htm" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "wasm" => "application/wasm",
        "css" => "text/css; charset=utf-8",
        "json" | "nmf" | "map" => "application/json",
        "txt" | "md" => "text/plain; charset=utf-8",
        "xml" => "application/xml",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        "ico" => "image/x-icon",
        "bmp" => "image/bmp",
        "wav" => "audio/wav",
        "mp3" => "audio/mpeg",
        "ogg" | "oga" => "audio/ogg",
        "mp4" => "video/mp4",
        "webm" => "video/webm",
        "woff" => "font/woff",
        "woff2" => "font/woff2",
        "ttf" => "font/ttf",
        "otf" => "font/otf",
        "pdf" => "application/pdf",
        "zip" => "application/zip",
        "gz" => "application/gzip",
        "pexe" => "application/x-pnacl",
        "nexe" => "application/x-nacl",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    #[test]
    fn paths_that_lead_up_are_refused_in_every_spelling() {
        for p in ["/..", "/a/../b", "/%2e%2e/x", "/%2E%2e", "/.%2e/", "/a/%2e%2e%2fb", "/a%5c..", "/a%00b", "/%ff"] {
            assert!(components(p).is_err(), "{p}");
        }
        assert_eq!(components("/a//./b/").expect("ok"), ["a", "b"]);
        assert_eq!(components("/a%20b/c.html").expect("ok"), ["a b", "c.html"]);
        assert!(components("/").expect("ok").is_empty());
    }

    #[test]
    fn content_types_of_what_pnacl_wasm_writes() {
        assert_eq!(content_type("a.wasm"), "application/wasm");
        assert_eq!(content_type("a.mjs"), "text/javascript; charset=utf-8");
        assert_eq!(content_type("A.HTML"), "text/html; charset=utf-8");
        assert_eq!(content_type("noext"), "application/octet-stream");
    }

    #[test]
    fn files_open_beneath_the_root_only() {
        let outer = tempfile::tempdir().expect("temporary directory");
        let root_dir = outer.path().join("root");
        std::fs::create_dir(&root_dir).expect("mkdir");
        std::fs::write(outer.path().join("secret"), "s").expect("write");
        std::fs::write(root_dir.join("in"), "i").expect("write");
        std::os::unix::fs::symlink("../secret", root_dir.join("out")).expect("symlink");
        std::os::unix::fs::symlink("in", root_dir.join("alias")).expect("symlink");
        std::os::unix::fs::symlink("/etc/passwd", root_dir.join("abs")).expect("symlink");
        let root = Root::open(&root_dir).expect("root");
        let read = |p: &str| {
            root.open_file(p).map(|mut f| {
                let mut s = String::new();
                f.read_to_string(&mut s).expect("read");
                s
            })
        };
        assert_eq!(read("in").expect("in"), "i");
        assert_eq!(read("alias").expect("alias"), "i");
        for p in ["out", "abs", "../secret", "missing"] {
            assert_eq!(read(p).expect_err(p).kind(), io::ErrorKind::NotFound, "{p}");
        }
    }
}
