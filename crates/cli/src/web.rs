//! `pnacl web`: an old NaCl web site, as it was deployed, running again in today's
//! browsers. Its pages get pnacl's embed polyfill (one `<script>`), which runs each
//! `<embed type="application/x-pnacl">` module from the WebAssembly that pnacl translates
//! from its pexe: on request and cached in memory (`--serve`, on [`crate::http`]'s
//! server, with its cross-origin isolation headers), or ahead of time into a static site
//! (`-o`).

use crate::http::{self, Body, Reply, Request, Root};
use crate::output;
use crate::polyfill;
use crate::report::Failure;
use crate::status;
use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// Arguments of `pnacl web`.
#[derive(clap::Args, Debug)]
#[command(group(clap::ArgGroup::new("mode").required(true).args(["serve", "output", "polyfill"])))]
#[command(after_help = "The site is served (--serve) or written (-o) as it is, except that: every HTML page gets \
                        <script src=\".pnacl/pnacl-embed.js\"> (relative to the site's root) after its <head> \
                        tag, so that it runs before the page's own scripts; /.pnacl/ holds pnacl's JavaScript (the embed polyfill and the IRT \
                        host of `pnacl wasm`); and X.pexe.wasm, the WebAssembly translation of X.pexe, is made \
                        from the pexe: on its first request and kept in memory by the pexe's hash (--serve), or \
                        ahead of time beside each pexe (-o). The polyfill lists application/x-pnacl and \
                        application/x-nacl in navigator.mimeTypes, grants the quota requests of \
                        navigator.webkitPersistentStorage, reads each embed's manifest \
                        (program.portable.pnacl-translate.url) and runs the module in Workers on shared memory; \
                        the element gets postMessage, readyState, lastError and its load, error, message and \
                        crash events. PPAPI interfaces offered: Core, Instance, Messaging, Var, VarArrayBuffer, \
                        VarArray, VarDictionary, Console, View, MessageLoop, Graphics2D, ImageData, InputEvent \
                        (mouse, wheel, keyboard, touch), WebSocket, URLLoader, URLRequestInfo, URLResponseInfo, \
                        FileSystem, FileRef, FileIO (in the browser's origin private file system); for any other, \
                        PPB_GetInterface returns NULL and the page's console names it.\n\n\
                        Shared memory needs a cross-origin isolated page. --serve listens on 127.0.0.1 only \
                        (port 0: a free port; the URL is printed first) and sends the headers itself. A static \
                        host must send, with every file: Cross-Origin-Opener-Policy: same-origin and \
                        Cross-Origin-Embedder-Policy: require-corp (-o writes them in OUT_DIR/_headers, the form \
                        Netlify and Cloudflare Pages read); the .wasm files should be served as application/wasm, \
                        and the host must serve the .pnacl folder (on GitHub Pages, add .nojekyll).\n\n\
                        --polyfill DIR writes the polyfill alone, for pages that include it by hand with one \
                        <script src=\".pnacl/pnacl-embed.js\"></script> in their <head>: DIR/.pnacl/ (the \
                        scripts, and translator.wasm, pnacl's translator built as WebAssembly) and \
                        DIR/pnacl-sw.js; put both in the folder of the pages (or above it). Such pages \
                        translate their pexes in the browser, as Chrome's PNaCl translator did, and keep each \
                        translation in the browser's Cache Storage, keyed by the pexe's SHA-256 and the \
                        translator's build; --in-browser serves or writes a whole site so, without \
                        X.pexe.wasm. On a host that cannot send the two headers, pnacl-sw.js (a \
                        service worker) adds them: the page loads once, registers it and reloads itself \
                        (https or localhost only, as browsers allow service workers there alone).\n\n\
                        Exit status: 0; 1 when SITE_DIR cannot be read or a pexe cannot be translated (-o; under \
                        --serve its request gets status 500 and the page's error event); 130 after Ctrl-C.\n\n\
                        Examples:\n  pnacl web corpus/web/hello_tutorial --serve --port 8000  \
                        # then open http://127.0.0.1:8000/index.html\n  \
                        pnacl web corpus/web/astar --serve --port 0 --log\n  \
                        pnacl web corpus/web/hello_tutorial -o public/hello\n  \
                        pnacl web --polyfill public/site  # then add the script tag to public/site's pages")]
pub struct Args {
    /// The site's folder (its pages, manifests, pexes and other files).
    #[arg(required_unless_present = "polyfill", conflicts_with = "polyfill")]
    pub site: Option<PathBuf>,
    /// Serve the site on 127.0.0.1.
    #[arg(long)]
    pub serve: bool,
    /// With --serve: the port (0: a free port, chosen by the system).
    #[arg(long, default_value_t = 8000, requires = "serve")]
    pub port: u16,
    /// With --serve: write each request to standard error (method, URL, status).
    #[arg(long, requires = "serve")]
    pub log: bool,
    /// Write the site, with its translations, to this folder instead.
    #[arg(short, long, value_name = "OUT_DIR")]
    pub output: Option<PathBuf>,
    /// Let the pages translate their pexes themselves, in the browser, as pages that
    /// include the polyfill by hand do (see --polyfill), instead of serving or writing
    /// X.pexe.wasm.
    #[arg(long, conflicts_with = "polyfill")]
    pub in_browser: bool,
    /// Translate with `pnacl wasm --checked`: accesses to the null page (below 64 KiB)
    /// trap, as under `pnacl run`, at some cost in speed.
    #[arg(long, conflicts_with_all = ["polyfill", "in_browser"])]
    pub checked: bool,
    /// Write only the polyfill, with the in-browser translator, into this folder (its
    /// `.pnacl/` and `pnacl-sw.js`), for pages that include it by hand.
    #[arg(long, value_name = "DIR")]
    pub polyfill: Option<PathBuf>,
}

/// The folder of pnacl's files in the site.
const PNACL_DIR: &str = polyfill::DIR;
/// The largest pexe translated, and the largest page changed.
const MAX_FILE: u64 = 256 << 20;

/// Runs the command; returns the process exit status.
pub fn run(args: &Args) -> i32 {
    crate::report::finish("web", web(args))
}

fn web(args: &Args) -> Result<i32, Failure> {
    if (args.in_browser || args.polyfill.is_some()) && !polyfill::has_translator() {
        return Err(Failure::new(crate::report::Diagnostic::error(None, polyfill::NO_TRANSLATOR)));
    }
    let (Some(site), None) = (&args.site, &args.polyfill) else {
        return write_polyfill(args.polyfill.as_deref().unwrap_or(Path::new(".")));
    };
    let name = output::input_name(site);
    let root = Root::open(site).map_err(|e| Failure::input(&name, e))?;
    match &args.output {
        Some(out) => write_site(site, out, args.in_browser, args.checked),
        None => serve(args, &root),
    }
}

/// `--polyfill DIR`: the polyfill's files, all or none.
fn write_polyfill(dir: &Path) -> Result<i32, Failure> {
    let files: Vec<(PathBuf, &[u8])> = polyfill::files().into_iter().map(|(rel, b)| (dir.join(rel), b)).collect();
    let refs: Vec<(&Path, &[u8])> = files.iter().map(|(p, b)| (p.as_path(), *b)).collect();
    output::write_all(&refs)?;
    Ok(status::SUCCESS)
}

fn serve(args: &Args, root: &Root) -> Result<i32, Failure> {
    let hooks = Site { translations: Mutex::new(HashMap::new()), in_browser: args.in_browser, checked: args.checked };
    crate::serve::serve_root(root, &hooks, args.port, args.log)
}

/// A pexe's translation: the module, or the refusal's message.
type Translation = Arc<Result<Vec<u8>, String>>;

/// The site's hooks: pnacl's files, the pages with the polyfill, the translations.
struct Site {
    /// Translations by the pexe's hash (and pnacl's version).
    translations: Mutex<HashMap<blake3::Hash, Translation>>,
    /// The pages translate their pexes themselves.
    in_browser: bool,
    /// Translations trap on the null page.
    checked: bool,
}

/// Whether a file name is a page's.
fn is_html(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    lower.ends_with(".html") || lower.ends_with(".htm")
}

/// Reads a file of the site, up to [`MAX_FILE`] bytes.
fn read_file(root: &Root, rel: &str) -> Option<Vec<u8>> {
    let f = root.open_file(rel).ok()?;
    if !f.metadata().ok()?.is_file() {
        return None;
    }
    let mut bytes = Vec::new();
    f.take(MAX_FILE + 1).read_to_end(&mut bytes).ok()?;
    (bytes.len() as u64 <= MAX_FILE).then_some(bytes)
}

/// The script tag a page at `rel` gets (relative, so the site may live below any path).
/// `data-translated="beside"` tells the polyfill that each pexe's translation is served
/// beside it (X.pexe.wasm), so the page need not translate it; without it (`in_browser`),
/// the page translates its pexes.
fn script_tag(rel: &str, in_browser: bool) -> String {
    let depth = rel.matches('/').count();
    let mark = if in_browser { "" } else { " data-translated=\"beside\"" };
    format!("<script src=\"{}{PNACL_DIR}/pnacl-embed.js\"{mark}></script>", "../".repeat(depth))
}

/// A page with the polyfill's script after its `<head>` tag (or `<html>`, or the
/// doctype, or at the start).
fn inject(page: &[u8], tag: &str) -> Vec<u8> {
    let lower = page.to_ascii_lowercase();
    let after = |open: &[u8]| {
        lower.windows(open.len()).position(|w| w == open).and_then(|at| {
            let next = lower.get(at + open.len()).copied();
            // `<head>` or `<head ...>`, not `<header>`.
            if !matches!(next, Some(b'>' | b' ' | b'\t' | b'\n' | b'\r')) {
                return None;
            }
            lower[at..].iter().position(|&c| c == b'>').map(|end| at + end + 1)
        })
    };
    let at = after(b"<head").or_else(|| after(b"<html")).or_else(|| after(b"<!doctype")).unwrap_or(0);
    let mut out = Vec::with_capacity(page.len() + tag.len() + 1);
    out.extend_from_slice(&page[..at]);
    out.extend_from_slice(tag.as_bytes());
    out.extend_from_slice(&page[at..]);
    out
}

/// Translates a pexe's bytes, with the message of a refusal.
fn translate(rel: &str, bytes: Vec<u8>, checked: bool) -> Result<Vec<u8>, String> {
    crate::wasm::translate_bytes(Path::new(rel), bytes, &pnacl_wasm::Options { checked, ..Default::default() })
        .map_err(|f| f.diagnostic.message)
}

impl Site {
    /// The translation of the pexe at `pexe_rel`, from the cache or made now.
    fn translation(&self, root: &Root, pexe_rel: &str) -> Option<Translation> {
        let bytes = read_file(root, pexe_rel)?;
        let mut hasher = blake3::Hasher::new();
        hasher.update(env!("CARGO_PKG_VERSION").as_bytes());
        hasher.update(&[0]);
        hasher.update(&bytes);
        let key = hasher.finalize();
        if let Some(t) = self.translations.lock().ok()?.get(&key) {
            return Some(Arc::clone(t));
        }
        // Two requests for one new pexe may both translate it; the results are equal.
        let made = Arc::new(translate(pexe_rel, bytes, self.checked));
        self.translations.lock().ok()?.insert(key, Arc::clone(&made));
        Some(made)
    }
}

impl http::Hooks for Site {
    fn respond(&self, request: &Request<'_>, root: &Root) -> Option<Reply> {
        let rel = request.relative();
        if request.components.first().map(String::as_str) == Some(PNACL_DIR) {
            let inner = request.components[1..].join("/");
            return Some(match polyfill::file(&inner) {
                Some((content_type, bytes)) => Reply::bytes(200, content_type, bytes.to_vec()),
                None if inner.starts_with("translator.") => Reply::text(404, polyfill::NO_TRANSLATOR),
                None => Reply::text(404, "not found"),
            });
        }
        if rel == polyfill::SERVICE_WORKER && root.open_file(&rel).is_err() {
            return Some(Reply::bytes(200, "text/javascript; charset=utf-8", polyfill::service_worker().to_vec()));
        }
        let is_dir = root.open_file(&rel).ok().and_then(|f| f.metadata().ok()).is_some_and(|m| m.is_dir());
        if let Some(pexe_rel) = rel.strip_suffix(".wasm").filter(|p| p.ends_with(".pexe"))
            && root.open_file(&rel).is_err()
        {
            let t = self.translation(root, pexe_rel)?;
            return Some(match t.as_ref() {
                Ok(wasm) => Reply::bytes(200, "application/wasm", wasm.clone()),
                Err(why) => Reply::text(500, &format!("pnacl web: {why}")),
            });
        }
        let page_rel = if is_dir && request.trailing_slash {
            if rel.is_empty() { "index.html".to_string() } else { format!("{rel}/index.html") }
        } else if is_html(&rel) {
            rel.clone()
        } else {
            return None;
        };
        let page = read_file(root, &page_rel)?;
        let body = inject(&page, &script_tag(&page_rel, self.in_browser));
        Some(Reply {
            status: 200,
            content_type: http::content_type(&page_rel).into(),
            body: Body::Bytes(body),
            headers: Vec::new(),
        })
    }
}

/// The headers a static host must send (Netlify's and Cloudflare Pages' `_headers` form).
const HEADERS_FILE: &str = "/*\n  Cross-Origin-Opener-Policy: same-origin\n  Cross-Origin-Embedder-Policy: require-corp\n\
                            \n/*.wasm\n  Content-Type: application/wasm\n";

/// `-o`: the site with the polyfill and the translations, written all at once.
fn write_site(site: &Path, out: &Path, in_browser: bool, checked: bool) -> Result<i32, Failure> {
    let mut files: Vec<(PathBuf, Vec<u8>)> = Vec::new();
    let mut stack = vec![String::new()];
    while let Some(dir_rel) = stack.pop() {
        let dir = site.join(&dir_rel);
        let name = output::input_name(&dir);
        let mut entries: Vec<_> = std::fs::read_dir(&dir)
            .map_err(|e| Failure::input(&name, e))?
            .collect::<Result<_, _>>()
            .map_err(|e| Failure::input(&name, e))?;
        entries.sort_by_key(std::fs::DirEntry::file_name);
        for entry in entries {
            let file_name = entry.file_name().to_string_lossy().into_owned();
            let rel = if dir_rel.is_empty() { file_name.clone() } else { format!("{dir_rel}/{file_name}") };
            // Symbolic links are not followed: what they point at may be outside the site.
            let kind = entry.file_type().map_err(|e| Failure::input(&name, e))?;
            if kind.is_dir() {
                if file_name != PNACL_DIR {
                    stack.push(rel);
                }
                continue;
            }
            // pnacl's own service worker replaces a stale copy at the root.
            if !kind.is_file() || rel == polyfill::SERVICE_WORKER {
                continue;
            }
            let path = site.join(&rel);
            let bytes = std::fs::read(&path).map_err(|e| Failure::input(&output::input_name(&path), e))?;
            if is_html(&file_name) {
                files.push((out.join(&rel), inject(&bytes, &script_tag(&rel, in_browser))));
                continue;
            }
            if !in_browser && file_name.to_ascii_lowercase().ends_with(".pexe") {
                let wasm = crate::wasm::translate_bytes(
                    &path,
                    bytes.clone(),
                    &pnacl_wasm::Options { checked, ..Default::default() },
                )?;
                files.push((out.join(format!("{rel}.wasm")), wasm));
            }
            files.push((out.join(&rel), bytes));
        }
    }
    for (rel, bytes) in polyfill::files() {
        files.push((out.join(rel), bytes.to_vec()));
    }
    files.push((out.join("_headers"), HEADERS_FILE.as_bytes().to_vec()));
    let refs: Vec<(&Path, &[u8])> = files.iter().map(|(p, b)| (p.as_path(), b.as_slice())).collect();
    output::write_all(&refs)?;
    Ok(status::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_script_goes_after_the_head_tag() {
        assert_eq!(script_tag("index.html", true), "<script src=\".pnacl/pnacl-embed.js\"></script>");
        let tag = script_tag("a/b/index.html", false);
        assert_eq!(tag, "<script src=\"../../.pnacl/pnacl-embed.js\" data-translated=\"beside\"></script>");
        let page = b"<!DOCTYPE html>\n<html>\n<HEAD lang=x><title>t</title></head></html>";
        let out = String::from_utf8(inject(page, "S")).unwrap();
        assert_eq!(out, "<!DOCTYPE html>\n<html>\n<HEAD lang=x>S<title>t</title></head></html>");
        let out = String::from_utf8(inject(b"<html><header></header>", "S")).unwrap();
        assert_eq!(out, "<html>S<header></header>");
        assert_eq!(inject(b"text", "S"), b"Stext");
    }
}
