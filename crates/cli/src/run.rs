//! `pnacl run`: translate a pexe (or take its translation from the cache, or an image
//! `pnacl compile` wrote) and run it in the sandbox.

use crate::cache::{Cache, Lookup};
use pnacl_bitcode::{Module, ReadOptions, read_parallel};
use pnacl_codegen::Tier;
use pnacl_runtime::{EXIT_LOAD_ERROR, Image, LoadError, MAGIC, Options, Preopen, is_browser_program};
use std::ffi::OsString;
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Arguments of `pnacl run`.
#[derive(clap::Args, Debug)]
#[command(after_help = "FILE is a pexe, PNaClAsm text, or an image written by `pnacl compile`. A pexe's \
                        translation is cached ($XDG_CACHE_HOME/pnacl or ~/.cache/pnacl; see `pnacl cache`).\n\n\
                        Exit status: the guest's own; 125 if the pexe cannot be loaded (unreadable, not ABI-clean, \
                        no _start, an image that is stale, for another processor or changed); 126 for a browser \
                        (PPAPI) pexe; 134 if the guest traps.\n\n\
                        Examples:\n  pnacl run fannkuchredux.pexe -- 10\n  pnacl run --no-cache --stats nbody.pexe -- 1000\n  \
                        pnacl run --dir /tmp::/data cat.pexe -- /data/notes.txt")]
pub struct Args {
    /// The pexe (or PNaClAsm text, assembled first; or an image from `pnacl compile`).
    pub file: PathBuf,
    /// Arguments for the guest (after `--`); its argv[0] is FILE as given.
    #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
    pub args: Vec<OsString>,
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
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
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
}

/// Parses `123`, `64K`, `512M`, `2G` (binary multiples).
fn parse_size(s: &str) -> Result<u64, String> {
    let (digits, shift) = match s.as_bytes().last() {
        Some(b'k' | b'K') => (&s[..s.len() - 1], 10),
        Some(b'm' | b'M') => (&s[..s.len() - 1], 20),
        Some(b'g' | b'G') => (&s[..s.len() - 1], 30),
        _ => (s, 0),
    };
    let n: u64 = digits.parse().map_err(|_| format!("not a size: {s:?} (use bytes, or a number with K, M or G)"))?;
    n.checked_mul(1 << shift).ok_or_else(|| format!("size too large: {s}"))
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

/// The bitcode of FILE: a pexe as it is, or PNaClAsm text assembled.
pub(crate) fn read_bitcode(path: &Path) -> Result<Vec<u8>, String> {
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    bitcode_of(path, bytes)
}

fn bitcode_of(path: &Path, bytes: Vec<u8>) -> Result<Vec<u8>, String> {
    if bytes.starts_with(b"PEXE") {
        return Ok(bytes);
    }
    let text = String::from_utf8(bytes).map_err(|_| "neither a pexe, an image nor PNaClAsm text".to_string())?;
    pnacl_text::asm::assemble(&text).map_err(|e| e.render(&path.display().to_string()))
}

/// Reads a module for translation.
pub(crate) fn read_module(bitcode: &[u8]) -> Result<Module, String> {
    // ABI rules are left to the verifier, which reports all of them with their rule ids.
    let options = ReadOptions { defer_abi: true, no_layout: true, ..ReadOptions::default() };
    read_parallel(bitcode, options).map_err(|e| e.to_string())
}

/// Prints the verifier's diagnostics of a module that is not ABI-clean (one line each);
/// returns the error's message.
pub(crate) fn report_load_error(name: &str, module: &Module, error: LoadError) -> String {
    if let LoadError::NotAbiClean(diagnostics) = &error {
        for d in diagnostics {
            eprintln!("{name}: {} [{}]", d.describe(module), d.rule);
        }
    }
    error.to_string()
}

/// Where `run` keeps and finds the image of one pexe in the translation cache.
struct CacheSlot {
    cache: Cache,
    key: [u8; 32],
    target: String,
    pexe_hash: [u8; 32],
    path: PathBuf,
}

impl CacheSlot {
    /// The slot of `bitcode`, unless the cache cannot be used (no home directory, ...):
    /// then the pexe is translated as if `--no-cache` had been given.
    fn new(bitcode: &[u8]) -> Option<CacheSlot> {
        let cache = Cache::open().ok()?;
        let key = cache.seal_key().ok()?;
        let target = pnacl_codegen::target_features().ok()?;
        let pexe_hash = *blake3::hash(bitcode).as_bytes();
        let path = cache.entry(&pexe_hash, &target);
        Some(CacheSlot { cache, key, target, pexe_hash, path })
    }
}

/// The image to run for `bytes`, the contents of FILE: the file itself if it is an image,
/// else the pexe's image from the cache or translated (and cached); and whether it was
/// loaded rather than translated. Errors come with their exit status.
fn image(args: &Args, bytes: Vec<u8>) -> Result<(Image, bool), (String, i32)> {
    if bytes.starts_with(MAGIC) {
        let key = Cache::open().and_then(|c| c.seal_key()).map_err(|e| (e, EXIT_LOAD_ERROR))?;
        let target = pnacl_codegen::target_features().map_err(|e| (e, EXIT_LOAD_ERROR))?;
        let image = Image::from_bytes(&bytes, &target, &key).map_err(|e| (e.to_string(), EXIT_LOAD_ERROR))?;
        return Ok((image, true));
    }
    let bitcode = bitcode_of(&args.file, bytes).map_err(|e| (e, EXIT_LOAD_ERROR))?;
    let slot = if args.no_cache { None } else { CacheSlot::new(&bitcode) };
    if let Some(s) = &slot {
        match s.cache.lookup(&s.path, &s.pexe_hash, &s.target, &s.key) {
            Lookup::Hit(image) => return Ok((*image, true)),
            Lookup::Bad(e) if args.stats => eprintln!("pnacl: stats: cached translation refused ({e}); translating"),
            Lookup::Bad(_) | Lookup::Miss => {}
        }
    }
    let module = read_module(&bitcode).map_err(|e| (e, EXIT_LOAD_ERROR))?;
    // Refused before anything costly: a browser program would only ask for its interface.
    if is_browser_program(&module) {
        return Err((LoadError::Browser.to_string(), LoadError::Browser.exit_status()));
    }
    let name = args.file.display().to_string();
    let tier = if args.baseline { Tier::Baseline } else { Tier::Optimizing };
    let image = Image::compile(&module, &bitcode, tier).map_err(|e| {
        let status = e.exit_status();
        (report_load_error(&name, &module, e), status)
    })?;
    if let Some(s) = slot.filter(|_| tier == Tier::Optimizing)
        && let Err(e) = s.cache.store(&s.path, &image.to_bytes(&s.target, &s.key))
    {
        eprintln!("pnacl run: warning: the translation is not cached: {e}");
    }
    Ok((image, false))
}

/// Runs the command; returns the process exit status (when the guest could not start:
/// a running guest ends the process itself).
pub fn run(args: &Args) -> i32 {
    let started = Instant::now();
    let name = args.file.display().to_string();
    let env = match environment(args) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("pnacl run: {e}");
            return 2;
        }
    };
    let mut argv = vec![args.file.as_os_str().as_bytes().to_vec()];
    argv.extend(args.args.iter().map(|a| a.as_bytes().to_vec()));
    if argv.iter().chain(&env).any(|a| a.contains(&0)) {
        eprintln!("pnacl run: arguments and environment cannot contain NUL bytes");
        return 2;
    }
    let loaded = std::fs::read(&args.file).map_err(|e| (e.to_string(), EXIT_LOAD_ERROR)).and_then(|b| image(args, b));
    let (image, loaded) = match loaded {
        Ok(i) => i,
        Err((e, status)) => {
            eprintln!("pnacl run: {name}: {e}");
            return status;
        }
    };
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
    eprintln!("pnacl run: {name}: {error}");
    error.exit_status()
}

#[cfg(test)]
mod tests {
    use super::parse_size;

    #[test]
    fn sizes() {
        assert_eq!(parse_size("4096"), Ok(4096));
        assert_eq!(parse_size("64K"), Ok(64 << 10));
        assert_eq!(parse_size("3m"), Ok(3 << 20));
        assert_eq!(parse_size("2G"), Ok(2 << 30));
        assert!(parse_size("2T").is_err());
        assert!(parse_size("").is_err());
        assert!(parse_size("99999999999999G").is_err());
    }
}
