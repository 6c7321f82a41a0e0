//! `pnacl run`: translate a pexe (or take its translation from the cache, or an image
//! `pnacl compile` wrote) and run it in the sandbox.

use crate::cache::{Cache, Lookup};
use crate::input::{self, Expect};
use crate::report::{self, Diagnostic, Failure};
use crate::{output, status};
use pnacl_bitcode::{Module, ReadOptions, read_parallel};
use pnacl_codegen::Tier;
use pnacl_runtime::{Image, ImageError, LoadError, MAGIC, Options, Preopen, is_browser_program};
use std::ffi::OsString;
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::Path;
use std::time::Instant;

/// Arguments of `pnacl run`.
#[derive(clap::Args, Debug)]
#[command(after_help = "FILE is a pexe, PNaClAsm text, or an image written by `pnacl compile` (`-` for standard \
                        input). Everything after FILE goes to the guest, as in `wasmtime run`: pnacl's own options \
                        come before FILE. A `--` right after FILE is dropped (`pnacl run app.pexe -- -v` passes \
                        `-v`); write `-- --` to pass `--` itself. A pexe's translation is cached \
                        ($XDG_CACHE_HOME/pnacl or ~/.cache/pnacl; see `pnacl cache`).\n\n\
                        An image is native code: it runs only if your own key sealed it (`pnacl compile` on this \
                        machine, as you), unless --allow-precompiled is given.\n\n\
                        Exit status: the guest's own; 125 if the pexe cannot be loaded (unreadable, not ABI-clean, \
                        no _start, an image that is stale, for another processor, changed, sealed by another key \
                        or malformed); 126 for a browser \
                        (PPAPI) pexe; 134 if the guest traps; 2 for a usage error.\n\n\
                        Examples:\n  pnacl run fannkuchredux.pexe 10\n  pnacl run --no-cache --stats nbody.pexe 1000\n  \
                        pnacl run --dir /tmp::/data cat.pexe /data/notes.txt\n  \
                        pnacl asm examples/factorial.pnaclasm -o - | pnacl run - a b c; echo $?")]
pub struct Args {
    /// The pexe (or PNaClAsm text, assembled first; or an image from `pnacl compile`), then
    /// the guest's arguments: everything after FILE goes to the guest, whose `argv[0]` is FILE
    /// as given.
    #[arg(value_name = "FILE [ARGS]", required = true, num_args = 1.., trailing_var_arg = true)]
    pub file_and_args: Vec<OsString>,
    /// Set a guest environment variable (repeatable). The environment is empty by default.
    #[arg(long = "env", value_name = "KEY=VALUE")]
    pub env: Vec<OsString>,
    /// Start from the host's environment (--env entries override it).
    #[arg(long)]
    pub inherit_env: bool,
    /// Let the guest reach a host directory, seen at GUEST (default: HOST; relative guest
    /// paths are taken from /, the guest's initial working directory). Repeatable.
    #[arg(long = "dir", value_name = "HOST[::GUEST]")]
    pub dirs: Vec<String>,
    /// Most guest memory that may be mapped at once (bytes, or with K, M or G).
    #[arg(long, value_name = "SIZE", value_parser = input::parse_size)]
    pub max_memory: Option<u64>,
    /// Print translation and run statistics to stderr at exit.
    #[arg(long)]
    pub stats: bool,
    /// Write /tmp/perf-PID.map so that `perf` can name translated functions.
    #[arg(long)]
    pub perf_map: bool,
    /// Translate the pexe even if the cache has its translation, and do not cache it.
    #[arg(long)]
    pub no_cache: bool,
    /// If the pexe must be translated, use the baseline tier (about twice as fast to
    /// translate, code up to twice as slow), and do not cache the result.
    #[arg(long)]
    pub baseline: bool,
    /// Run FILE even if it is an image (.pnaclo) that your own key did not seal: one
    /// compiled by another user or on another machine, or changed since. RISK: an image is
    /// native code. pnacl checks its structure (every offset, relocation, table and
    /// layout), not its instructions, so whoever made the file can run any code as you,
    /// outside the sandbox. Give it only for images from someone you would trust with a
    /// program of theirs.
    #[arg(long)]
    pub allow_precompiled: bool,
}

impl Args {
    /// FILE.
    pub fn file(&self) -> &Path {
        Path::new(&self.file_and_args[0])
    }

    /// The guest's arguments after `argv[0]`: what follows FILE, less a `--` right after it.
    pub fn guest_args(&self) -> &[OsString] {
        let rest = &self.file_and_args[1..];
        match rest.first() {
            Some(first) if first == "--" => &rest[1..],
            _ => rest,
        }
    }
}

/// The guest environment: the host's if asked, then the `--env` entries, later ones
/// replacing earlier ones with the same key.
fn environment(args: &Args) -> Result<Vec<Vec<u8>>, String> {
    let mut env: Vec<Vec<u8>> = Vec::new();
    let mut set = |entry: Vec<u8>| {
        let key_len = entry.iter().position(|&b| b == b'=').unwrap_or(entry.len());
        env.retain(|e| !(e.len() > key_len && e[..key_len] == entry[..key_len] && e[key_len] == b'='));
        env.push(entry);
    };
    if args.inherit_env {
        for (k, v) in std::env::vars_os() {
            let mut e = k.into_vec();
            e.push(b'=');
            e.extend_from_slice(v.as_bytes());
            set(e);
        }
    }
    for e in &args.env {
        let bytes = e.as_bytes();
        if !bytes.contains(&b'=') || bytes.starts_with(b"=") || bytes.contains(&0) {
            return Err(format!("--env {}: expected KEY=VALUE", e.to_string_lossy()));
        }
        set(bytes.to_vec());
    }
    Ok(env)
}

/// The bitcode of FILE, whose contents are `bytes`: a pexe as it is, or PNaClAsm text
/// assembled. Files that are obviously something else (C source, an ELF file, LLVM
/// bitcode) are refused with what they are and which command takes them.
pub(crate) fn bitcode_of(path: &Path, bytes: Vec<u8>) -> Result<Vec<u8>, Failure> {
    if bytes.starts_with(b"PEXE") {
        return Ok(bytes);
    }
    let name = output::input_name(path);
    if let Some(what) = crate::sniff::wrong_input(path, &bytes) {
        return Err(Failure::input(&name, what));
    }
    let text =
        String::from_utf8(bytes).map_err(|_| Failure::input(&name, "neither a pexe, an image nor PNaClAsm text"))?;
    pnacl_text::asm::assemble(&text).map_err(|e| Diagnostic::text(&name, &e).into())
}

/// Reads the module of FILE for translation.
pub(crate) fn read_module(path: &Path, bitcode: &[u8]) -> Result<Module, Failure> {
    // ABI rules are left to the verifier, which reports all of them with their rule ids.
    let options = ReadOptions { defer_abi: true, no_layout: true, ..ReadOptions::default() };
    read_parallel(bitcode, options).map_err(|e| Diagnostic::read(&output::input_name(path), &e).into())
}

/// Reports the verifier's diagnostics of a module that is not ABI-clean (one each), for
/// `command`; returns the error as a failure with the exit status `run` ends with.
pub(crate) fn report_load_error(command: &str, name: &str, module: &Module, error: LoadError) -> Failure {
    if let LoadError::NotAbiClean(diagnostics) = &error {
        for d in diagnostics {
            let mut r = Diagnostic::error(Some(name), d.describe(module));
            r.rule = Some(d.rule.id().to_string());
            report::emit(command, &r);
        }
    }
    Failure::input(name, &error).with_status(error.exit_status())
}

/// Where `run` keeps and finds the image of one pexe in the translation cache.
struct CacheSlot {
    cache: Cache,
    key: [u8; 32],
    target: String,
    pexe_hash: [u8; 32],
    entry: String,
}

impl CacheSlot {
    /// The slot of `bitcode`, unless the cache cannot be used (no home directory, ...):
    /// then the pexe is translated as if `--no-cache` had been given.
    fn new(bitcode: &[u8]) -> Option<CacheSlot> {
        // No place for a cache at all (no home directory) is no reason for a warning.
        Cache::location().ok()?;
        let opened = Cache::open().and_then(|cache| cache.seal_key().map(|key| (cache, key)));
        let (cache, key) =
            opened.map_err(|why| crate::cache::warn_unused("run", &why, "running without the cache")).ok()?;
        let target = pnacl_codegen::target_features().ok()?;
        let pexe_hash = *blake3::hash(bitcode).as_bytes();
        let entry = Cache::entry(&pexe_hash, &target);
        Some(CacheSlot { cache, key, target, pexe_hash, entry })
    }
}

/// The image to run for `bytes`, the contents of FILE: the file itself if it is an image,
/// else the pexe's image from the cache or translated (and cached); and whether it was
/// loaded rather than translated. Failures come with `run`'s exit statuses.
fn image(args: &Args, bytes: Vec<u8>) -> Result<(Image, bool), Failure> {
    let name = output::input_name(args.file());
    let load_error = |e: String| Failure::input(&name, e).with_status(status::LOAD_ERROR);
    if bytes.starts_with(MAGIC) {
        return image_file(args, &bytes).map(|image| (image, true)).map_err(load_error);
    }
    let as_load_error = |f: Failure| f.with_status(status::LOAD_ERROR);
    let bitcode = bitcode_of(args.file(), bytes).map_err(as_load_error)?;
    let slot = if args.no_cache { None } else { CacheSlot::new(&bitcode) };
    if let Some(s) = &slot {
        match s.cache.lookup(&s.entry, &s.pexe_hash, &s.target, &s.key) {
            Lookup::Hit(image) => return Ok((*image, true)),
            Lookup::Bad(e) if args.stats => {
                report::eprint_line(&format!("pnacl: stats: cached translation refused ({e}); translating"))
            }
            Lookup::Bad(_) | Lookup::Miss => {}
        }
    }
    let module = read_module(args.file(), &bitcode).map_err(as_load_error)?;
    // Refused before anything costly: a browser program would only ask for its interface.
    if is_browser_program(&module) {
        return Err(Failure::input(&name, LoadError::Browser).with_status(status::UNSUPPORTED));
    }
    let tier = if args.baseline { Tier::Baseline } else { Tier::Optimizing };
    let image = Image::compile(&module, &bitcode, tier).map_err(|e| report_load_error("run", &name, &module, e))?;
    if let Some(s) = slot.filter(|_| tier == Tier::Optimizing)
        && let Err(e) = s.cache.store(&s.entry, |out| image.write_to(&s.target, &s.key, out))
    {
        report::emit("run", &Diagnostic::error(None, format!("the translation is not cached: {e}")).warning());
    }
    Ok((image, false))
}

/// The image FILE holds (`bytes`): sealed with the user's key, or with any key (or none)
/// under `--allow-precompiled`; checked in every other way either way.
fn image_file(args: &Args, bytes: &[u8]) -> Result<Image, String> {
    let target = pnacl_codegen::target_features()?;
    if args.allow_precompiled {
        return Image::from_foreign_bytes(bytes, &target).map_err(|e| e.to_string());
    }
    const HOW: &str = "--allow-precompiled runs it anyway, at the risk `pnacl run --help` states";
    let key =
        Cache::open().and_then(|c| c.seal_key()).map_err(|why| format!("its seal cannot be checked: {why}; {HOW}"))?;
    Image::from_bytes(bytes, &target, &key).map_err(|e| match e {
        ImageError::Tampered => format!("{e} ({HOW})"),
        e => e.to_string(),
    })
}

/// Runs the command; returns the process exit status (when the guest could not start:
/// a running guest ends the process itself).
pub fn run(args: &Args) -> i32 {
    report::finish("run", run_file(args))
}

fn run_file(args: &Args) -> Result<i32, Failure> {
    let started = Instant::now();
    let usage = |message: String| Failure::new(Diagnostic::error(None, message)).with_status(status::USAGE);
    let env = environment(args).map_err(usage)?;
    let mut argv = vec![args.file().as_os_str().as_bytes().to_vec()];
    argv.extend(args.guest_args().iter().map(|a| a.as_bytes().to_vec()));
    if argv.iter().chain(&env).any(|a| a.contains(&0)) {
        return Err(usage("arguments and environment cannot contain NUL bytes".into()));
    }
    let bytes = input::read(args.file(), Expect::Program).map_err(|f| f.with_status(status::LOAD_ERROR))?;
    let (image, loaded) = image(args, bytes)?;
    let options = Options {
        args: argv,
        env,
        dirs: args.dirs.iter().map(|d| Preopen::parse(d)).collect(),
        max_memory: args.max_memory.unwrap_or(u64::MAX),
        stats: args.stats,
        started,
        loaded,
        perf_map: args.perf_map,
    };
    let error = pnacl_runtime::run(&image, options);
    Err(Failure::input(&output::input_name(args.file()), &error).with_status(error.exit_status()))
}
