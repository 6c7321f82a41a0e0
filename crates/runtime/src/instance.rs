//! The instance: what every guest thread shares (guest memory, the translated code, the
//! function table, the IRT's tables, open files), reached through one global once the
//! process has set it up, and how the process ends.

use crate::backtrace::CodeMap;
use crate::fs::Files;
use crate::irt::interfaces::Irt;
use crate::memory::GuestMemory;
use crate::options::Options;
use pnacl_bitcode::ir::Ty;
use pnacl_codegen::abi::{self, TableEntry};
use pnacl_codegen::{Trampolines, Translation};
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// What every guest thread shares. There is one per process, created when the guest
/// starts and never freed (the process ends with the guest).
pub(crate) struct Instance {
    pub memory: GuestMemory,
    pub translation: Translation,
    /// The translated functions by address, for trap messages and backtraces.
    pub code_map: CodeMap,
    /// The function table: the null entry, the module's functions, the IRT's.
    pub table: Box<[TableEntry]>,
    pub trampolines: Trampolines,
    /// The name of each module function, for trap messages.
    pub names: Vec<String>,
    pub irt: Irt,
    pub files: Files,
    /// Guest threads alive.
    pub threads: AtomicUsize,
    pub options: Options,
    /// When `_start` was called.
    pub running_since: AtomicPtr<Instant>,
    pub translation_time: Duration,
    pub bitcode_bytes: usize,
    /// Set by the first thread that ends the process.
    pub exiting: AtomicBool,
}

static INSTANCE: AtomicPtr<Instance> = AtomicPtr::new(std::ptr::null_mut());

/// The instance, once the process has set it up ([`install`]).
pub(crate) fn get() -> Option<&'static Instance> {
    // SAFETY: set once to a leaked `Instance`, never freed.
    unsafe { INSTANCE.load(Ordering::Acquire).as_ref() }
}

/// Makes `instance` the process's instance, for good.
pub(crate) fn install(instance: Instance) -> &'static Instance {
    let instance = Box::leak(Box::new(instance));
    INSTANCE.store(instance, Ordering::Release);
    instance
}

impl Instance {
    /// The code of the guest function (not an IRT function) whose value is `value`, if it
    /// has type `ret (params)`.
    pub fn guest_function(&self, value: u32, ret: Ty, params: &[Ty]) -> Option<u64> {
        let index = value >> abi::FUNCTION_VALUE_SHIFT;
        let module_functions = self.translation.functions.len() as u32;
        if value & ((1 << abi::FUNCTION_VALUE_SHIFT) - 1) != 0 || index == 0 || index > module_functions {
            return None;
        }
        let entry = self.table[index as usize];
        let sig = self.translation.sigs.id(ret, params)?;
        (entry.sig == sig && entry.code != 0).then_some(entry.code)
    }

    /// True for the first caller: the one that ends the process.
    pub fn claim_exit(&self) -> bool {
        !self.exiting.swap(true, Ordering::AcqRel)
    }

    /// Ends the process with `status` (after the statistics, if asked for). The first
    /// thread to get here wins; the others wait for the end.
    pub fn exit(&self, status: i32) -> ! {
        if !self.claim_exit() {
            loop {
                std::thread::park();
            }
        }
        let status = crate::output::finish(status);
        if self.options.stats {
            self.print_stats(status);
        }
        // SAFETY: ends the process; nothing of the host needs tearing down (guest output
        // goes straight to file descriptors).
        unsafe { libc::_exit(status) }
    }

    /// Ends the process by the signal `sig`, as a native program that leaves it at its
    /// default action ends (the shell sees 128 + `sig`; a core dump where the signal makes
    /// one and the limits allow): guest output is passed on first, as for [`Self::exit`].
    pub fn exit_by_signal(&self, sig: i32) -> ! {
        if !self.claim_exit() {
            loop {
                std::thread::park();
            }
        }
        crate::output::sync();
        if self.options.stats {
            self.print_stats(128 + sig);
        }
        // SAFETY: restores the default action (pnacl's trap handler is installed for some of
        // these signals), unblocks the signal and raises it, which ends the process; if it
        // does not, the exit status says which signal it was.
        unsafe {
            libc::signal(sig, libc::SIG_DFL);
            let mut set: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut set);
            libc::sigaddset(&mut set, sig);
            libc::pthread_sigmask(libc::SIG_UNBLOCK, &set, std::ptr::null_mut());
            libc::raise(sig);
            libc::_exit(128 + sig)
        }
    }

    fn print_stats(&self, status: i32) {
        let now = Instant::now();
        // SAFETY: set once to a leaked `Instant` before the guest runs.
        let run = unsafe { self.running_since.load(Ordering::Acquire).as_ref() }.map(|s| now - *s);
        let total = now - self.options.started;
        let functions = self.translation.functions.iter().filter(|f| f.is_some()).count();
        let (_, peak_guest) = self.memory.usage();
        let mut err = std::io::stderr().lock();
        let kb_per_s = self.bitcode_bytes as f64 / 1000.0 / self.translation_time.as_secs_f64().max(1e-9);
        let translation = if self.options.loaded {
            format!("loaded (translated earlier in {:.1} ms)", self.translation_time.as_secs_f64() * 1e3)
        } else {
            format!("{:.1} ms", self.translation_time.as_secs_f64() * 1e3)
        };
        let _ = writeln!(
            err,
            "pnacl: stats: translation {translation} ({} functions, {} bytes of code, {} loops unrolled{}), start-up \
             {:.1} ms",
            functions,
            self.translation.code.len(),
            self.translation.unrolled_loops,
            if self.bitcode_bytes > 0 && !self.options.loaded {
                format!(", {kb_per_s:.0} KB of bitcode/s")
            } else {
                String::new()
            },
            (total - run.unwrap_or_default()).as_secs_f64() * 1e3,
        );
        let _ = writeln!(
            err,
            "pnacl: stats: run {:.3} s, exit status {status}, peak guest memory {:.1} MiB, peak RSS {:.1} MiB",
            run.unwrap_or_default().as_secs_f64(),
            peak_guest as f64 / 1048576.0,
            peak_rss() as f64 / 1048576.0,
        );
    }
}

/// The peak resident set size of the process, in bytes.
fn peak_rss() -> u64 {
    // SAFETY: getrusage fills the struct it is given.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) };
    usage.ru_maxrss as u64 * 1024
}
