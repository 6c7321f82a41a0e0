//! How to run a module: the guest's arguments, environment, directories and limits.

use crate::fs::Preopen;
use std::time::Instant;

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
    /// The image was loaded from a file (the translation cache or `pnacl compile`), not
    /// translated by this process (for the statistics).
    pub loaded: bool,
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
            loaded: false,
            perf_map: false,
        }
    }
}
