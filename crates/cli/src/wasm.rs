//! `pnacl wasm`: translate a pexe to one WebAssembly module, and write the JavaScript host
//! that runs it under Node (`node APP.mjs ARGS...` behaves as `pnacl run APP.pexe ARGS...`)
//! and, with `--html`, a page that runs it in a browser.

use crate::input;
use crate::output;
use crate::report::{self, Diagnostic, Failure};
use crate::run::{bitcode_of, read_module};
use crate::status;
use std::path::{Path, PathBuf};

/// Arguments of `pnacl wasm`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Writes APP.wasm (-o), APP.mjs beside it, and the host's ES modules in pnacl-host/ beside \
                        them. `node APP.mjs [OPTIONS] [--] [ARGS...]` then runs the program as `pnacl run APP.pexe \
                        ARGS...` does: the same argv (argv[0] is FILE as given here), environment (empty unless \
                        given: --env KEY=VALUE, --inherit-env), standard streams, files (none unless given: --dir \
                        HOST[::GUEST]), exit status, and 134 with a one-line message when the guest traps, 125 \
                        when the module cannot be loaded, 126 for a browser (PPAPI) program (which is translated, \
                        for a browser host). The options go before the guest's arguments.\n\n\
                        --html also writes APP.html: the program runs in Workers of the page, its standard output \
                        and error appear in <pre id=\"stdout\"> and <pre id=\"stderr\">, its arguments come from \
                        the query string (APP.html?arg=a&arg=b; env=KEY=VALUE entries), standard input is empty, \
                        it has no files, and when it ends <body> gets data-exit-status=\"N\" (the same statuses). \
                        Programs that may start threads need a cross-origin isolated page: `pnacl serve DIR` \
                        serves it so.\n\n\
                        Exit status: 0; 1 for bad input or a construct the translator refuses (the function and \
                        the instruction are named; nothing is written); 3 for a pexe that is not ABI-clean.\n\n\
                        Examples:\n  pnacl wasm fannkuchredux.pexe -o fannkuchredux.wasm && node fannkuchredux.mjs 10\n  \
                        pnacl wasm --checked cat.pexe -o cat.wasm && node cat.mjs --dir /tmp::/data /data/notes.txt\n  \
                        pnacl wasm --html hello.pexe -o web/hello.wasm && pnacl serve web --port 8000  \
                        # then open http://127.0.0.1:8000/hello.html?arg=Ada")]
pub struct Args {
    /// The pexe (or PNaClAsm text, assembled first).
    pub file: PathBuf,
    /// The module to write (default: FILE with the extension .wasm); APP.mjs and
    /// pnacl-host/ go beside it.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Trap on accesses to the null page (below 64 KiB), as `pnacl run` does (a check
    /// before every access).
    #[arg(long)]
    pub checked: bool,
    /// Give the module a shared memory even if the program never starts threads (by
    /// default only one that may start threads gets one, and a program alone on its
    /// memory has its atomics made plain accesses, which are faster).
    #[arg(long)]
    pub shared_memory: bool,
    /// Also write APP.html, a page that runs the program in a browser (serve the folder
    /// with `pnacl serve`).
    #[arg(long)]
    pub html: bool,
}

/// Runs the command; returns the process exit status.
pub fn run(args: &Args) -> i32 {
    report::finish("wasm", translate(args))
}

fn translate(args: &Args) -> Result<i32, Failure> {
    if output::is_stdio(&args.file) && args.output.is_none() {
        return Err(Failure::new(Diagnostic::error(None, "reading standard input: give the module's name with -o"))
            .with_status(status::USAGE));
    }
    let target = args.output.clone().unwrap_or_else(|| args.file.with_extension("wasm"));
    if output::is_stdio(&target) {
        return Err(Failure::new(Diagnostic::error(None, "the module and its launcher are files: give -o FILE.wasm"))
            .with_status(status::USAGE));
    }
    let bytes = input::read(&args.file, input::Expect::Program)?;
    let options = pnacl_wasm::Options { checked: args.checked, shared_memory: args.shared_memory };
    let wasm = translate_bytes(&args.file, bytes, &options)?;
    write_outputs(&target, &args.file, &wasm, args.html)?;
    Ok(status::SUCCESS)
}

/// Translates a pexe's bytes (read from `file`) to a validated wasm module; refusals as
/// `pnacl wasm` reports them.
pub(crate) fn translate_bytes(file: &Path, bytes: Vec<u8>, options: &pnacl_wasm::Options) -> Result<Vec<u8>, Failure> {
    let name = output::input_name(file);
    let bitcode = bitcode_of(file, bytes)?;
    let module = read_module(file, &bitcode)?;
    let violations = pnacl_verify::verify(&module);
    if !violations.is_empty() {
        for d in &violations {
            let mut r = Diagnostic::error(Some(&name), d.describe(&module));
            r.rule = Some(d.rule.id().to_string());
            report::emit("wasm", &r);
        }
        return Err(Failure::input(&name, format!("not ABI-clean ({} violations)", violations.len()))
            .with_status(status::VIOLATIONS));
    }
    let out = pnacl_wasm::translate(&module, options).map_err(|e| Failure::input(&name, e))?;
    pnacl_wasm::validate(&out).map_err(|e| {
        Failure::input(&name, format!("internal error: the module does not validate: {e}"))
            .with_status(status::INTERNAL)
    })?;
    // The module's IR is large and freed at exit; dropping it is wasted time.
    std::mem::forget(module);
    Ok(out.wasm)
}

/// Writes the module, its launcher, the page if asked, and the host beside them: all of
/// them or none.
fn write_outputs(target: &Path, pexe: &Path, wasm: &[u8], html: bool) -> Result<(), Failure> {
    let dir = target.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let file_name = target.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let pexe_name = pexe.to_string_lossy();
    let launcher = pnacl_wasm::launcher(&file_name, &pexe_name);
    let page = html.then(|| pnacl_wasm::page(&file_name, &pexe_name));
    let host = dir.join(pnacl_wasm::HOST_DIR);
    let host_paths: Vec<PathBuf> = pnacl_wasm::HOST_FILES.iter().map(|(path, _)| host.join(path)).collect();
    let launcher_path = target.with_extension("mjs");
    let page_path = target.with_extension("html");
    let mut files: Vec<(&Path, &[u8])> =
        host_paths.iter().zip(pnacl_wasm::HOST_FILES).map(|(p, (_, text))| (p.as_path(), text.as_bytes())).collect();
    files.push((&launcher_path, launcher.as_bytes()));
    if let Some(page) = &page {
        files.push((&page_path, page.as_bytes()));
    }
    files.push((target, wasm));
    output::write_all(&files)
}
