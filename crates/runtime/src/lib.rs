//! The sandbox that runs translated pexes.
//!
//! [`run`] translates a module with [`pnacl_codegen`], lays out guest memory (the null
//! page, the globals, the `mmap` heap, the main thread's stack with the startup block on
//! top), fills the function table (the module's functions, then the IRT's), installs the
//! trap handler and calls `_start` on a host thread of its own. The guest then lives on its
//! own: it reaches the outside world only through the IRT query function it finds in its
//! auxiliary vector, and the process ends when it calls `exit`, when `_start` returns, or
//! when it traps.
//!
//! Exit statuses: the guest's own status, [`EXIT_TRAP`] for a trap, [`EXIT_LOAD_ERROR`]
//! when the module cannot be loaded, and [`EXIT_UNSUPPORTED`] for a browser (PPAPI) pexe.

mod errno;
mod fs;
mod host;
mod irt;
mod memory;
mod output;
mod process;
mod signals;
mod sjlj;
mod startup;
mod thread;

pub use errno::Errno;
pub use fs::Preopen;
pub use memory::GuestMemory;

use pnacl_bitcode::Module;
use std::time::Instant;

/// Exit status when the guest traps.
pub const EXIT_TRAP: i32 = 134;
/// Exit status when the module cannot be loaded (unreadable, not ABI-clean, no `_start`).
pub const EXIT_LOAD_ERROR: i32 = 125;
/// Exit status when the pexe is a browser (PPAPI) application.
pub const EXIT_UNSUPPORTED: i32 = 126;

/// How to run a module.
#[derive(Clone, Debug)]
pub struct Options {
    /// The guest's `argv` (`argv[0]` first).
    pub args: Vec<Vec<u8>>,
    /// The guest's environment, as `KEY=VALUE` strings.
    pub env: Vec<Vec<u8>>,
    /// Host directories the guest may reach.
    pub dirs: Vec<Preopen>,
    /// The most guest memory that may be mapped at once, in bytes.
    pub max_memory: u64,
    /// Print statistics to stderr at exit.
    pub stats: bool,
    /// When the process started (for the statistics).
    pub started: Instant,
    /// Size of the bitcode (for the statistics).
    pub bitcode_size: usize,
    /// Write `/tmp/perf-PID.map`, so that `perf` can name translated functions.
    pub perf_map: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            args: Vec::new(),
            env: Vec::new(),
            dirs: Vec::new(),
            max_memory: u64::MAX,
            stats: false,
            started: Instant::now(),
            bitcode_size: 0,
            perf_map: false,
        }
    }
}

/// Why a module could not be started.
#[derive(Debug)]
pub enum LoadError {
    /// The ABI verifier found violations (the module is refused before translation).
    NotAbiClean(Vec<pnacl_verify::Diagnostic>),
    /// Anything else: no entry point, translation, the host refusing memory.
    Other(String),
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LoadError::NotAbiClean(d) => write!(f, "not ABI-clean ({} violations); refusing to run it", d.len()),
            LoadError::Other(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for LoadError {}

impl From<String> for LoadError {
    fn from(m: String) -> Self {
        LoadError::Other(m)
    }
}

/// Runs `module`: returns only if it cannot be started. Otherwise the process ends with
/// the guest's exit status, or [`EXIT_TRAP`] / [`EXIT_UNSUPPORTED`] with a message.
///
/// The module is checked with the ABI verifier first (the translator relies on its rules)
/// and refused with its diagnostics if it breaks any.
pub fn run(module: &Module, options: Options) -> LoadError {
    match process::start(module, options) {
        Ok(never) => match never {},
        Err(e) => e,
    }
}
