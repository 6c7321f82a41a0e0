//! The guest process: how a module becomes a running guest. It checks and translates the
//! module, lays out guest memory, fills the function table, sets up the [`Instance`] the
//! guest's threads share, installs the trap handler and starts the main thread. Every
//! other module of the runtime is one of its parts; none of them depends on this one.

use crate::fs::Files;
use crate::image::Image;
use crate::instance::{self, Instance};
use crate::irt::{self, interfaces::Irt};
use crate::memory::GuestMemory;
use crate::options::Options;
use crate::status::LoadError;
use crate::{host, signals, startup, thread};
use pnacl_codegen::abi::{self, TableEntry, memory};
use pnacl_codegen::{Addresses, Translation};
use std::convert::Infallible;
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicUsize};

/// Loads `image` and runs it; returns only on a load error.
pub(crate) fn start(image: &Image, options: Options) -> Result<Infallible, LoadError> {
    // Refused before anything costly: a browser program would only ask for its interface.
    if image.browser {
        return Err(LoadError::Browser);
    }
    let entry = image.entry;
    let memory = GuestMemory::reserve(options.max_memory)?;
    let host = irt::functions();
    let module_functions = image.names.len();
    // The image was validated: its table length is 1 + functions + IRT functions.
    let mut table = vec![TableEntry { code: 0, sig: abi::NO_SIGNATURE, _pad: 0 }; 1 + module_functions + host.len()]
        .into_boxed_slice();
    let addresses =
        Addresses { mem_base: memory.base(), table_addr: table.as_ptr() as u64, host_fns: host::addresses() };
    let translation = image.object.link(&addresses)?;
    for (f, (code, &sig)) in translation.functions.iter().zip(&image.function_sigs).enumerate() {
        if let Some(code) = code {
            table[abi::function_table_index(f as u32) as usize] = TableEntry { code: code.start, sig, _pad: 0 };
        }
    }
    for (i, (h, &sig)) in host.iter().zip(&image.host_sigs).enumerate() {
        table[1 + module_functions + i] = TableEntry { code: h.code as u64, sig, _pad: 0 };
    }
    let host_names: Vec<&str> = host.iter().map(|h| h.name).collect();
    let irt = Irt::new(&host_names, 1 + module_functions as u32);

    // Globals, then the heap, then the main thread's stack with the startup block on top.
    let layout = &translation.layout;
    let globals_end = align_page(u64::from(layout.data_end)) as u32;
    if globals_end > memory::GLOBALS_START {
        // Fresh mappings are zero: only the runs of bytes are written, and pages of zeros
        // are never touched.
        memory.map_fixed(memory::GLOBALS_START, globals_end - memory::GLOBALS_START)?;
        for (at, bytes) in &image.data.runs {
            memory
                .write(memory::GLOBALS_START + at, bytes)
                .map_err(|e| format!("cannot write globals: errno {}", e.0))?;
        }
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

    let trampolines = pnacl_codegen::trampolines(&addresses.host_fns)?;
    let files = Files::new(&options.dirs)?;
    // Names come from the pexe: shown in trap messages and the perf map, escaped.
    let names: Vec<String> = image.names.iter().map(|n| crate::printable(n).into_owned()).collect();
    if options.perf_map {
        write_perf_map(&translation, &names);
    }
    let translation_time = translation.time;
    let code_map = crate::backtrace::CodeMap::new(&translation);
    let instance = instance::install(Instance {
        memory,
        code_map,
        translation,
        table,
        trampolines,
        names,
        irt,
        files,
        threads: AtomicUsize::new(1),
        running_since: AtomicPtr::new(std::ptr::null_mut()),
        translation_time,
        bitcode_bytes: image.bitcode_size as usize,
        options,
        exiting: AtomicBool::new(false),
    });
    signals::install()?;
    let code = instance.translation.functions[entry as usize].expect("_start has a body").start;
    let main = thread::GuestStart { code, arg: Some(startup_addr), sp: startup_addr & !15, tp: 0, threads_started: 0 };
    thread::run_main(instance, main, stack_bottom)?;
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
    if let Err(e) = open_perf_map(&path).and_then(|mut f| f.write_all(map.as_bytes())) {
        let _ = writeln!(std::io::stderr(), "pnacl: warning: no perf map: {path}: {e}");
    }
}

/// Opens `path`, a perf map in `/tmp`, where anyone can make files: a new file, never
/// following a symbolic link; an existing one (left by an earlier process with this pid)
/// only if it is a plain file of the user's, with no other name.
fn open_perf_map(path: &str) -> std::io::Result<std::fs::File> {
    use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
    let open = |new: bool| {
        std::fs::OpenOptions::new()
            .write(true)
            .create_new(new)
            .mode(0o644)
            .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_CLOEXEC)
            .open(path)
    };
    let file = match open(true) {
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => open(false),
        other => return other,
    };
    let refused = |why: &str| std::io::Error::new(std::io::ErrorKind::PermissionDenied, format!("it exists, {why}"));
    let file = file.map_err(|e| match e.raw_os_error() {
        Some(libc::ELOOP) => refused("as a symbolic link"),
        _ => e,
    })?;
    let meta = file.metadata()?;
    // SAFETY: a plain query.
    let uid = unsafe { libc::geteuid() };
    if !meta.is_file() || meta.nlink() != 1 {
        return Err(refused("and is not a plain file"));
    }
    if meta.uid() != uid {
        return Err(refused(&format!("owned by uid {}, not by you (uid {uid})", meta.uid())));
    }
    file.set_len(0)?;
    Ok(file)
}

fn align_page(v: u64) -> u64 {
    v.div_ceil(u64::from(memory::PAGE)) * u64::from(memory::PAGE)
}
