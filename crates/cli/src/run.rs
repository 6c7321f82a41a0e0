//! `pnacl run`: translate a pexe and run it in the sandbox.

use pnacl_bitcode::{Module, ReadOptions, read_parallel};
use pnacl_runtime::{EXIT_LOAD_ERROR, LoadError, Options, Preopen};
use std::ffi::OsString;
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::PathBuf;
use std::time::Instant;

/// Arguments of `pnacl run`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Exit status: the guest's own; 125 if the pexe cannot be loaded (unreadable, \
                        not ABI-clean, no _start); 126 for a browser (PPAPI) pexe; 134 if the guest traps.")]
pub struct Args {
    /// The pexe (or PNaClAsm text, assembled first).
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

/// Reads the module: a pexe, or PNaClAsm text to assemble.
fn load(path: &PathBuf) -> Result<(Module, usize), String> {
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    let bytes = if bytes.starts_with(b"PEXE") {
        bytes
    } else {
        let text = String::from_utf8(bytes).map_err(|_| "neither a pexe nor PNaClAsm text".to_string())?;
        pnacl_text::asm::assemble(&text).map_err(|e| e.render(&path.display().to_string()))?
    };
    // ABI rules are left to the verifier, which reports all of them with their rule ids.
    let options = ReadOptions { defer_abi: true, no_layout: true, ..ReadOptions::default() };
    let module = read_parallel(&bytes, options).map_err(|e| e.to_string())?;
    Ok((module, bytes.len()))
}

/// Runs the command; returns the process exit status (when the guest could not start:
/// a running guest ends the process itself).
pub fn run(args: &Args) -> i32 {
    let started = Instant::now();
    let name = args.file.display().to_string();
    let (module, size) = match load(&args.file) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("pnacl run: {name}: {e}");
            return EXIT_LOAD_ERROR;
        }
    };
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
    let options = Options {
        args: argv,
        env,
        dirs: args.dirs.iter().map(|d| Preopen::parse(d)).collect(),
        max_memory: args.max_memory.unwrap_or(u64::MAX),
        stats: args.stats,
        started,
        bitcode_size: size,
        perf_map: args.perf_map,
    };
    let error = pnacl_runtime::run(&module, options);
    if let LoadError::NotAbiClean(diagnostics) = &error {
        for d in diagnostics {
            eprintln!("{name}: {} [{}]", d.describe(&module), d.rule);
        }
    }
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
