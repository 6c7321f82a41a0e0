//! The guest process: everything its threads share, how it starts and how it ends.

use crate::fs::Files;
use crate::memory::GuestMemory;
use crate::{LoadError, Options, irt, signals, startup, thread};
use pnacl_bitcode::Module;
use pnacl_bitcode::ir::{Linkage, Ty, ValueId};
use pnacl_codegen::abi::{self, TableEntry, memory};
use pnacl_codegen::{Config, Trampolines, Translation};
use std::convert::Infallible;
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// What every guest thread shares. There is one per process, created by [`start`] and
/// never freed (the process ends with the guest).
pub(crate) struct Process {
    pub memory: GuestMemory,
    pub translation: Translation,
    /// The function table: the null entry, the module's functions, the IRT's.
    pub table: Box<[TableEntry]>,
    pub trampolines: Trampolines,
    /// The name of each module function, for trap messages.
    pub names: Vec<String>,
    pub irt: irt::Irt,
    pub files: Files,
    /// Guest threads alive.
    pub threads: AtomicUsize,
    pub options: Options,
    /// When `_start` was called.
    pub running_since: AtomicPtr<Instant>,
    pub translation_time: Duration,
    pub bitcode_bytes: usize,
    /// Set by the first thread that ends the process.
    exiting: AtomicBool,
}

static PROCESS: AtomicPtr<Process> = AtomicPtr::new(std::ptr::null_mut());

/// The process, once [`start`] has set it up.
pub(crate) fn get() -> Option<&'static Process> {
    // SAFETY: set once to a leaked `Process`, never freed.
    unsafe { PROCESS.load(Ordering::Acquire).as_ref() }
}

/// The name of module function `f` in messages.
fn function_name(m: &Module, f: u32) -> String {
    match m.names().get(ValueId(f)) {
        Some(n) => String::from_utf8_lossy(n).into_owned(),
        None => format!("@f{f}"),
    }
}

/// The function `_start`: the one defined function with external linkage.
fn entry_point(m: &Module) -> Result<u32, LoadError> {
    let mut entries = m
        .functions
        .iter()
        .enumerate()
        .filter(|(_, f)| f.linkage == Linkage::External && f.body.is_some())
        .map(|(i, _)| i as u32);
    let f = entries.next().ok_or_else(|| LoadError::Other("the module defines no entry point (_start)".into()))?;
    let sig = m.signature(f);
    if sig.params != [Ty::I32] {
        return Err(LoadError::Other(format!("the entry point {} does not take one i32", function_name(m, f))));
    }
    Ok(f)
}

/// Loads `m` and runs it; returns only on a load error.
pub(crate) fn start(m: &Module, options: Options) -> Result<Infallible, LoadError> {
    let diagnostics = pnacl_verify::verify(m);
    if !diagnostics.is_empty() {
        return Err(LoadError::NotAbiClean(diagnostics));
    }
    let entry = entry_point(m)?;
    let memory = GuestMemory::reserve(options.max_memory)?;
    let host = irt::functions();
    let module_functions = m.functions.len();
    let mut table = vec![TableEntry { code: 0, sig: abi::NO_SIGNATURE, _pad: 0 }; 1 + module_functions + host.len()]
        .into_boxed_slice();
    let config = Config {
        mem_base: memory.base(),
        table_addr: table.as_ptr() as u64,
        table_len: table.len() as u32,
        host_fns: crate::host::addresses(),
        verify: false,
    };
    let host_sigs: Vec<_> = host.iter().map(|h| h.signature()).collect();
    let translation = pnacl_codegen::translate(m, &config, &host_sigs)?;
    for (f, code) in translation.functions.iter().enumerate() {
        if let Some(code) = code {
            let sig = m.signature(f as u32);
            let id = translation.sigs.id(sig.ret, &sig.params).unwrap_or(abi::NO_SIGNATURE);
            table[abi::function_table_index(f as u32) as usize] = TableEntry { code: code.start, sig: id, _pad: 0 };
        }
    }
    for (i, h) in host.iter().enumerate() {
        let s = h.signature();
        let id = translation.sigs.id(s.ret, &s.params).unwrap_or(abi::NO_SIGNATURE);
        table[1 + module_functions + i] = TableEntry { code: h.code as u64, sig: id, _pad: 0 };
    }
    let irt = irt::Irt::new(&host, 1 + module_functions as u32);

    // Globals, then the heap, then the main thread's stack with the startup block on top.
    let layout = &translation.layout;
    let data = layout.initial_data(m);
    let globals_end = align_page(u64::from(layout.data_end)) as u32;
    if globals_end > memory::GLOBALS_START {
        memory.map_fixed(memory::GLOBALS_START, globals_end - memory::GLOBALS_START)?;
        memory.write(memory::GLOBALS_START, &data).map_err(|e| format!("cannot write globals: errno {}", e.0))?;
        if layout.constants_start < globals_end {
            memory.seal(layout.constants_start, globals_end - layout.constants_start)?;
        }
    }
    let stack_bottom = memory::MAIN_STACK_TOP - memory::MAIN_STACK_SIZE;
    memory.map_fixed(stack_bottom, memory::MAIN_STACK_SIZE)?;
    memory.set_heap(globals_end.max(memory::GLOBALS_START), stack_bottom - memory::PAGE);
    let query = irt.query_value();
    let startup = startup::Block::new(&options.args, &options.env, query);
    let startup_addr = startup.place(&memory, memory::MAIN_STACK_TOP)?;

    let trampolines = pnacl_codegen::trampolines(&config.host_fns)?;
    let files = Files::new(&options.dirs)?;
    let names: Vec<String> = (0..module_functions as u32).map(|f| function_name(m, f)).collect();
    if options.perf_map {
        write_perf_map(&translation, &names);
    }
    let translation_time = translation.time;
    let process = Box::leak(Box::new(Process {
        memory,
        translation,
        table,
        trampolines,
        names,
        irt,
        files,
        threads: AtomicUsize::new(1),
        running_since: AtomicPtr::new(std::ptr::null_mut()),
        translation_time,
        bitcode_bytes: options.bitcode_size,
        options,
        exiting: AtomicBool::new(false),
    }));
    PROCESS.store(process, Ordering::Release);
    signals::install()?;
    let code = process.translation.functions[entry as usize].expect("_start has a body").start;
    let main = thread::GuestStart { code, arg: Some(startup_addr), sp: startup_addr & !15, tp: 0, threads_started: 0 };
    thread::run_main(process, main, stack_bottom)?;
    unreachable!("the main guest thread ends the process")
}

/// Names the translated functions for `perf` (its JIT map convention).
fn write_perf_map(t: &Translation, names: &[String]) {
    let mut map = String::new();
    for (f, code) in t.functions.iter().enumerate() {
        if let Some(c) = code {
            map.push_str(&format!("{:x} {:x} {}\n", c.start, c.len, names[f]));
        }
    }
    let path = format!("/tmp/perf-{}.map", std::process::id());
    if let Err(e) = std::fs::write(&path, map) {
        eprintln!("pnacl: cannot write {path}: {e}");
    }
}

fn align_page(v: u64) -> u64 {
    v.div_ceil(u64::from(memory::PAGE)) * u64::from(memory::PAGE)
}

impl Process {
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
        crate::output::sync();
        if self.options.stats {
            self.print_stats(status);
        }
        // SAFETY: ends the process; nothing of the host needs tearing down (guest output
        // goes straight to file descriptors).
        unsafe { libc::_exit(status) }
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
        let _ = writeln!(
            err,
            "pnacl: stats: translation {:.1} ms ({} functions, {} bytes of code{}), start-up {:.1} ms",
            self.translation_time.as_secs_f64() * 1e3,
            functions,
            self.translation.code.len(),
            if self.bitcode_bytes > 0 { format!(", {kb_per_s:.0} KB of bitcode/s") } else { String::new() },
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
pub(crate) fn peak_rss() -> u64 {
    // SAFETY: getrusage fills the struct it is given.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) };
    usage.ru_maxrss as u64 * 1024
}
