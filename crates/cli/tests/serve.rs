//! `pnacl serve` through the real binary, with a plain HTTP/1.0 client: the URL it prints
//! (port 0), the isolation headers on every response, content types, directories, and
//! refusals: paths that lead out of the folder (`..` in any spelling, symbolic links
//! pointing outside), methods other than GET and HEAD. Ctrl-C ends it by the signal.
//! And many connections kept alive at once, as a browser keeps them, are all answered.

use pnacl_testutil::browser::Served;
use std::io::{Read, Write};
use std::net::TcpStream;

/// A response: status, headers (names in lower case), body.
struct Response {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Response {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }
}

/// Sends `METHOD TARGET HTTP/1.0` (the target as given, unnormalised) to the server.
fn request(url: &str, method: &str, target: &str) -> Response {
    let host = url.trim_start_matches("http://").trim_end_matches('/');
    let mut s = TcpStream::connect(host).expect("connect to pnacl serve");
    write!(s, "{method} {target} HTTP/1.0\r\nHost: {host}\r\n\r\n").expect("send");
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).expect("read the response");
    let split = raw.windows(4).position(|w| w == b"\r\n\r\n").expect("end of headers");
    let head = String::from_utf8_lossy(&raw[..split]).to_string();
    let mut lines = head.split("\r\n");
    let status = lines.next().and_then(|l| l.split(' ').nth(1)).and_then(|c| c.parse().ok()).expect("status line");
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    Response { status, headers, body: raw[split + 4..].to_vec() }
}

#[test]
fn serves_isolated_typed_files_beneath_its_folder_only() {
    let outer = tempfile::tempdir().expect("temporary directory");
    let root = outer.path().join("site");
    std::fs::create_dir_all(root.join("sub dir")).expect("mkdir");
    std::fs::write(outer.path().join("secret.txt"), "secret").expect("write");
    std::fs::write(root.join("app.html"), "<p>app</p>").expect("write");
    std::fs::write(root.join("app.wasm"), b"\0asm\x01\0\0\0").expect("write");
    std::fs::write(root.join("sub dir/host.mjs"), "export {};").expect("write");
    std::fs::write(root.join("sub dir/index.html"), "index").expect("write");
    std::os::unix::fs::symlink("../secret.txt", root.join("up")).expect("symlink");
    std::os::unix::fs::symlink(outer.path(), root.join("outside")).expect("symlink");
    std::os::unix::fs::symlink("app.html", root.join("alias.html")).expect("symlink");
    let served = Served::start(&root);
    let url = served.url.clone();

    let r = request(&url, "GET", "/app.html");
    assert_eq!((r.status, r.body.as_slice()), (200, &b"<p>app</p>"[..]));
    for (name, value) in [
        ("content-type", "text/html; charset=utf-8"),
        ("cross-origin-opener-policy", "same-origin"),
        ("cross-origin-embedder-policy", "require-corp"),
        ("cross-origin-resource-policy", "same-origin"),
        ("x-content-type-options", "nosniff"),
    ] {
        assert_eq!(r.header(name), Some(value), "{name}");
    }
    assert_eq!(request(&url, "GET", "/app.wasm").header("content-type"), Some("application/wasm"));
    let r = request(&url, "GET", "/sub%20dir/host.mjs?x=1");
    assert_eq!((r.status, r.header("content-type")), (200, Some("text/javascript; charset=utf-8")));
    assert_eq!(request(&url, "GET", "/alias.html").body, b"<p>app</p>");
    // HEAD: the headers without the body.
    let r = request(&url, "HEAD", "/app.html");
    assert_eq!((r.status, r.header("content-length"), r.body.len()), (200, Some("10"), 0));

    // Directories: redirected to the path with a slash, then their index.html or a list.
    let r = request(&url, "GET", "/sub%20dir");
    assert_eq!((r.status, r.header("location")), (301, Some("sub%20dir/")));
    assert_eq!(request(&url, "GET", "/sub%20dir/").body, b"index");
    let list = String::from_utf8(request(&url, "GET", "/").body).expect("UTF-8");
    assert!(list.contains("href=\"app.html\"") && list.contains("href=\"sub%20dir/\""), "{list}");

    // Nothing outside the folder, however asked for; the refusals still isolated.
    for target in
        ["/../secret.txt", "/%2e%2e/secret.txt", "/sub%20dir/%2E%2E/%2E%2E/secret.txt", "/a%2f..%2f..%2fsecret.txt"]
    {
        let r = request(&url, "GET", target);
        assert_eq!(r.status, 400, "{target}");
        assert_eq!(r.header("cross-origin-embedder-policy"), Some("require-corp"), "{target}");
    }
    for target in ["/up", "/outside/secret.txt", "/outside/", "/missing.html"] {
        let r = request(&url, "GET", target);
        assert_eq!(r.status, 404, "{target}");
        assert!(!String::from_utf8_lossy(&r.body).contains("secret"), "{target}");
    }
    let r = request(&url, "POST", "/app.html");
    assert_eq!((r.status, r.header("allow")), (405, Some("GET, HEAD")));

    let log = served.log();
    assert_eq!(served.stop(), Some(libc::SIGINT), "Ctrl-C ends pnacl serve by the signal");
    assert!(log.iter().any(|l| l == "GET /app.html 200"), "{log:?}");
    assert!(log.iter().any(|l| l == "GET /up 404"), "{log:?}");
}

#[test]
fn a_folder_that_is_not_there_or_a_port_in_use_is_an_error() {
    let out =
        pnacl_testutil::pnacl_command().args(["serve", "/nonexistent/folder", "--port", "0"]).output().expect("run");
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/folder"));
    let dir = tempfile::tempdir().expect("temporary directory");
    let taken = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = taken.local_addr().expect("address").port().to_string();
    let out =
        pnacl_testutil::pnacl_command().arg("serve").arg(dir.path()).args(["--port", &port]).output().expect("run");
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).contains(&format!("cannot listen on 127.0.0.1:{port}")));
}

/// Reads one HTTP/1.1 response with a `Content-Length` from a kept-alive connection:
/// status and body.
fn read_kept_alive(s: &mut TcpStream) -> std::io::Result<(u16, Vec<u8>)> {
    let mut raw = Vec::new();
    let mut byte = [0u8; 1];
    while !raw.ends_with(b"\r\n\r\n") {
        s.read_exact(&mut byte)?;
        raw.push(byte[0]);
    }
    let head = String::from_utf8_lossy(&raw).to_ascii_lowercase();
    let status = head.split(' ').nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
    let len: usize =
        head.lines().find_map(|l| l.strip_prefix("content-length:")).and_then(|v| v.trim().parse().ok()).unwrap_or(0);
    let mut body = vec![0u8; len];
    s.read_exact(&mut body)?;
    Ok((status, body))
}

/// A browser opens six or more connections to a page's server at once and keeps them
/// open between requests. Every one must be answered, whichever order they come in, while
/// the others stay open: pnacl's first server answered only as many connections as it had
/// threads waiting, and the page's other requests waited for ever (Chromium's page never
/// finished loading).
#[test]
fn many_connections_kept_alive_at_once_are_all_answered() {
    let root = tempfile::tempdir().expect("temporary directory");
    std::fs::write(root.path().join("a.js"), "export const a = 1;").expect("write");
    let served = Served::start(root.path());
    let host = served.url.trim_start_matches("http://").trim_end_matches('/').to_string();
    let mut connections: Vec<TcpStream> = (0..24).map(|_| TcpStream::connect(&host).expect("connect")).collect();
    for round in 0..3 {
        // Every connection asks before any is read, from the last opened to the first.
        for s in connections.iter_mut().rev() {
            write!(s, "GET /a.js HTTP/1.1\r\nHost: {host}\r\nConnection: keep-alive\r\n\r\n").expect("send");
        }
        for (k, s) in connections.iter_mut().enumerate() {
            // A hang is what this test looks for: a connection not answered in a minute.
            s.set_read_timeout(Some(std::time::Duration::from_secs(60))).expect("timeout");
            let answer = read_kept_alive(s);
            assert!(
                matches!(&answer, Ok((200, body)) if body == b"export const a = 1;"),
                "connection {k} of {} in round {round}: {answer:?} (no answer while the others stay open)",
                connections.len()
            );
        }
    }
    assert_eq!(served.stop(), Some(libc::SIGINT));
}
