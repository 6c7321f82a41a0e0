//! `pnacl serve`: a static HTTP server on 127.0.0.1 for what `pnacl wasm --html` writes,
//! with the headers that make its pages cross-origin isolated (so threads work). The
//! server is [`crate::http`]'s.

use crate::http;
use crate::report::{Diagnostic, Failure};
use crate::signals;
use crate::status;
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `pnacl serve`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Serves DIR's files on 127.0.0.1 (never on other addresses) and prints the root's URL on \
                        standard output. Every response carries Cross-Origin-Opener-Policy: same-origin, \
                        Cross-Origin-Embedder-Policy: require-corp and Cross-Origin-Resource-Policy: same-origin, \
                        so the pages are cross-origin isolated and programs may start threads (--not-isolated sends them with \
                        their \"none\" values, as a host that cannot send them would); .wasm is served as \
                        application/wasm and .mjs as text/javascript. A path that leads out of DIR (.., or a \
                        symbolic link pointing outside) is refused. A directory shows its index.html, or a list \
                        of its files. Ctrl-C stops the server (status 130).\n\n\
                        Examples:\n  pnacl wasm --html hello.pexe -o web/hello.wasm && pnacl serve web --port 8000  \
                        # then open http://127.0.0.1:8000/hello.html?arg=Ada\n  \
                        pnacl serve web --port 0 --log      (a free port; each request on standard error)")]
pub struct Args {
    /// The directory to serve.
    pub dir: PathBuf,
    /// The port on 127.0.0.1 (0: a free port, chosen by the system).
    #[arg(long, default_value_t = 8000)]
    pub port: u16,
    /// Write each request to standard error (method, URL, status).
    #[arg(long)]
    pub log: bool,
    /// Leave the pages not cross-origin isolated (send the isolation headers with their
    /// "none" values), as a host that cannot send them would.
    #[arg(long)]
    pub not_isolated: bool,
}

/// Runs the command; returns the process exit status (a Ctrl-C ends it by the signal).
pub fn run(args: &Args) -> i32 {
    crate::report::finish("serve", serve(args))
}

fn serve(args: &Args) -> Result<i32, Failure> {
    let name = crate::output::input_name(&args.dir);
    let root = http::Root::open(&args.dir).map_err(|e| Failure::input(&name, e))?;
    let hooks: &dyn http::Hooks = if args.not_isolated { &http::Plain } else { &http::Static };
    serve_root(&root, hooks, args.port, args.log)
}

/// Serves `root` with `hooks` on 127.0.0.1:`port` until Ctrl-C, printing the URL first
/// and, with `log`, each request on standard error (`pnacl serve` and `pnacl web --serve`).
pub fn serve_root(root: &http::Root, hooks: &dyn http::Hooks, port: u16, log: bool) -> Result<i32, Failure> {
    let server = http::Server::bind(port)
        .map_err(|e| Failure::new(Diagnostic::error(None, format!("cannot listen on 127.0.0.1:{port}: {e}"))))?;
    let stop = signals::stop_flag();
    {
        let mut out = std::io::stdout().lock();
        // The URL is the first line, so that a script can read it.
        let _ = writeln!(out, "{}", server.url());
        let _ = out.flush();
    }
    let log = |method: &str, url: &str, code: u16| {
        if log {
            let _ = writeln!(std::io::stderr().lock(), "{method} {url} {code}");
        }
    };
    server.serve(root, hooks, stop, &log);
    signals::end_by_signal();
    Ok(status::SUCCESS)
}
