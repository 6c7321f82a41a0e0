//! The NaCl IRT: the query function and the interfaces it hands out.
//!
//! Each IRT function is a host function with an entry in the guest function table, after
//! the module's own functions, so the guest calls it through an ordinary (checked)
//! indirect call. The query function fills the guest's table with those function values.
//! Interface names, table sizes and slot orders follow the NaCl headers exactly.

mod basic;
mod fdio;
mod filename;
mod mem;
mod threads;

use crate::errno::{Errno, IrtResult};
use crate::memory::GuestMemory;
use crate::process::{self, Process};
use pnacl_bitcode::ir::{Signature, Ty};
use pnacl_codegen::abi::{self, VmCtx};

/// A host function the guest can call through the function table.
pub(crate) struct HostFunction {
    /// Its name (as in the IRT headers).
    pub name: &'static str,
    pub ret: Ty,
    pub params: &'static [Ty],
    /// Its address.
    pub code: usize,
}

impl HostFunction {
    /// Its PNaCl signature.
    pub fn signature(&self) -> Signature {
        Signature { ret: self.ret, params: self.params.to_vec(), vararg: false }
    }
}

/// Every host function the IRT offers, the query function first.
pub(crate) fn functions() -> Vec<HostFunction> {
    use Ty::{I32 as W, I64 as L, Void as V};
    macro_rules! f {
        ($name:literal, $code:path, $ret:expr, [$($p:expr),*]) => {
            HostFunction { name: $name, ret: $ret, params: &[$($p),*], code: $code as *const () as usize }
        };
    }
    vec![
        f!("query", query, W, [W, W, W]),
        // basic
        f!("exit", basic::exit, V, [W]),
        f!("gettod", basic::gettod, W, [W]),
        f!("clock", basic::clock, W, [W]),
        f!("nanosleep", basic::nanosleep, W, [W, W]),
        f!("sched_yield", basic::sched_yield, W, []),
        f!("sysconf", basic::sysconf, W, [W, W]),
        // fdio
        f!("close", fdio::close, W, [W]),
        f!("dup", fdio::dup, W, [W, W]),
        f!("dup2", fdio::dup2, W, [W, W]),
        f!("read", fdio::read, W, [W, W, W, W]),
        f!("write", fdio::write, W, [W, W, W, W]),
        f!("seek", fdio::seek, W, [W, L, W, W]),
        f!("fstat", fdio::fstat, W, [W, W]),
        f!("getdents", fdio::getdents, W, [W, W, W, W]),
        f!("fchdir", fdio::fchdir, W, [W]),
        f!("fchmod", fdio::fchmod, W, [W, W]),
        f!("fsync", fdio::fsync, W, [W]),
        f!("fdatasync", fdio::fdatasync, W, [W]),
        f!("ftruncate", fdio::ftruncate, W, [W, L]),
        f!("isatty", fdio::isatty, W, [W, W]),
        // filename
        f!("open", filename::open, W, [W, W, W, W]),
        f!("stat", filename::stat, W, [W, W]),
        f!("mkdir", filename::mkdir, W, [W, W]),
        f!("rmdir", filename::rmdir, W, [W]),
        f!("chdir", filename::chdir, W, [W]),
        f!("getcwd", filename::getcwd, W, [W, W]),
        f!("unlink", filename::unlink, W, [W]),
        f!("truncate", filename::truncate, W, [W, L]),
        f!("lstat", filename::lstat, W, [W, W]),
        f!("link", filename::link, W, [W, W]),
        f!("rename", filename::rename, W, [W, W]),
        f!("symlink", filename::symlink, W, [W, W]),
        f!("chmod", filename::chmod, W, [W, W]),
        f!("access", filename::access, W, [W, W]),
        f!("readlink", filename::readlink, W, [W, W, W, W]),
        f!("utimes", filename::utimes, W, [W, W]),
        // memory
        f!("mmap", mem::mmap, W, [W, W, W, W, W, L]),
        f!("munmap", mem::munmap, W, [W, W]),
        f!("mprotect", mem::mprotect, W, [W, W, W]),
        // tls
        f!("tls_init", basic::tls_init, W, [W]),
        f!("tls_get", basic::tls_get, W, []),
        // thread, futex
        f!("thread_create", threads::thread_create, W, [W, W, W]),
        f!("thread_exit", threads::thread_exit, V, [W]),
        f!("thread_nice", threads::thread_nice, W, [W]),
        f!("futex_wait_abs", threads::futex_wait_abs, W, [W, W, W]),
        f!("futex_wake", threads::futex_wake, W, [W, W, W]),
        // clock_get, random, getpid
        f!("clock_getres", basic::clock_getres, W, [W, W]),
        f!("clock_gettime", basic::clock_gettime, W, [W, W]),
        f!("get_random_bytes", basic::get_random_bytes, W, [W, W, W]),
        f!("getpid", basic::getpid, W, [W]),
    ]
}

const FDIO: &[&str] = &["close", "dup", "dup2", "read", "write", "seek", "fstat", "getdents"];
const DEV_FDIO_2: &[&str] = &[
    "close",
    "dup",
    "dup2",
    "read",
    "write",
    "seek",
    "fstat",
    "getdents",
    "fchdir",
    "fchmod",
    "fsync",
    "fdatasync",
    "ftruncate",
];
const DEV_FDIO_3: &[&str] = &[
    "close",
    "dup",
    "dup2",
    "read",
    "write",
    "seek",
    "fstat",
    "getdents",
    "fchdir",
    "fchmod",
    "fsync",
    "fdatasync",
    "ftruncate",
    "isatty",
];
const FILENAME_3: &[&str] = &[
    "open", "stat", "mkdir", "rmdir", "chdir", "getcwd", "unlink", "truncate", "lstat", "link", "rename", "symlink",
    "chmod", "access", "readlink", "utimes",
];

/// The interfaces offered: every one NaCl offers to PNaCl programs, the file-access ones,
/// and the older `fdio-0.1` and `filename-0.1`. Slots are in header order.
pub(crate) const INTERFACES: &[(&str, &[&str])] = &[
    ("nacl-irt-basic-0.1", &["exit", "gettod", "clock", "nanosleep", "sched_yield", "sysconf"]),
    ("nacl-irt-fdio-0.1", FDIO),
    ("nacl-irt-dev-fdio-0.1", FDIO),
    ("nacl-irt-dev-fdio-0.2", DEV_FDIO_2),
    ("nacl-irt-dev-fdio-0.3", DEV_FDIO_3),
    ("nacl-irt-filename-0.1", FILENAME_3.split_at(2).0),
    ("nacl-irt-dev-filename-0.2", FILENAME_3.split_at(7).0),
    ("nacl-irt-dev-filename-0.3", FILENAME_3),
    ("nacl-irt-memory-0.3", &["mmap", "munmap", "mprotect"]),
    ("nacl-irt-tls-0.1", &["tls_init", "tls_get"]),
    ("nacl-irt-thread-0.1", &["thread_create", "thread_exit", "thread_nice"]),
    ("nacl-irt-futex-0.1", &["futex_wait_abs", "futex_wake"]),
    ("nacl-irt-clock_get-0.1", &["clock_getres", "clock_gettime"]),
    ("nacl-irt-random-0.1", &["get_random_bytes"]),
    ("nacl-irt-dev-getpid-0.1", &["getpid"]),
];

/// Interfaces only browser (PPAPI) programs query.
const PPAPI_PREFIX: &[u8] = b"nacl-irt-ppapihook";

/// The query function's data: each interface's table, as guest function values.
pub(crate) struct Irt {
    interfaces: Vec<(&'static [u8], Vec<u32>)>,
    query: u32,
}

impl Irt {
    /// `first` is the table index of the first host function.
    pub fn new(functions: &[HostFunction], first: u32) -> Irt {
        let value = |name: &str| {
            let i = functions.iter().position(|f| f.name == name).expect("every slot names a host function");
            abi::function_value(first + i as u32)
        };
        let interfaces =
            INTERFACES.iter().map(|(n, slots)| (n.as_bytes(), slots.iter().map(|s| value(s)).collect())).collect();
        Irt { interfaces, query: value("query") }
    }

    /// The guest value of the query function (the `AT_SYSINFO` entry).
    pub fn query_value(&self) -> u32 {
        self.query
    }
}

fn process() -> &'static Process {
    process::get().expect("guest code runs in a process")
}

fn memory() -> &'static GuestMemory {
    &process().memory
}

/// `size_t nacl_irt_query(const char *name, void *table, size_t size)`: fills `table` and
/// returns the interface's size, or returns 0 (unknown interface, or `size` too small).
extern "C" fn query(_vmctx: *mut VmCtx, name: u32, table: u32, size: u32) -> u32 {
    let p = process();
    let Ok(name) = p.memory.read_cstr(name, 256) else { return 0 };
    if name.starts_with(PPAPI_PREFIX) {
        eprintln!(
            "pnacl: {} is a browser (PPAPI) application: it asked for {}. pnacl runs command-line pexes only.",
            p.options.args.first().map(|a| String::from_utf8_lossy(a).into_owned()).unwrap_or_default(),
            String::from_utf8_lossy(&name),
        );
        p.exit(crate::EXIT_UNSUPPORTED);
    }
    let Some((_, values)) = p.irt.interfaces.iter().find(|(n, _)| *n == name.as_slice()) else { return 0 };
    let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
    if (size as usize) < bytes.len() || p.memory.write(table, &bytes).is_err() {
        return 0;
    }
    bytes.len() as u32
}

/// Writes `v` to the guest `i32`/`u32` at `addr`.
fn put_u32(addr: u32, v: u32) -> IrtResult {
    memory().write_u32(addr, v)
}

/// Writes a guest `struct timespec` / `struct timeval` (an `i64` and an `i32`, padded).
fn put_time(addr: u32, sec: i64, frac: i64) -> IrtResult {
    let mut b = [0u8; 16];
    b[..8].copy_from_slice(&sec.to_le_bytes());
    b[8..12].copy_from_slice(&(frac as i32).to_le_bytes());
    memory().write(addr, &b)
}

/// Reads a guest `struct timespec`.
fn get_timespec(addr: u32) -> Result<libc::timespec, Errno> {
    let mut b = [0u8; 12];
    memory().read(addr, &mut b)?;
    let sec = i64::from_le_bytes(b[..8].try_into().expect("8 bytes"));
    let nsec = i32::from_le_bytes(b[8..].try_into().expect("4 bytes"));
    if !(0..1_000_000_000).contains(&nsec) || sec < 0 {
        return Err(Errno::EINVAL);
    }
    Ok(libc::timespec { tv_sec: sec as libc::time_t, tv_nsec: libc::c_long::from(nsec) })
}

/// Retries a host call while it is interrupted; a negative result is the host errno.
fn host(mut f: impl FnMut() -> isize) -> Result<isize, Errno> {
    loop {
        let r = f();
        if r >= 0 {
            return Ok(r);
        }
        let e = Errno::last();
        if e != Errno::EINTR {
            return Err(e);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Interface sizes, from the NaCl headers (runtime-facts §4.3).
    #[test]
    fn interface_sizes_are_exact() {
        let sizes = [
            ("nacl-irt-basic-0.1", 24),
            ("nacl-irt-fdio-0.1", 32),
            ("nacl-irt-dev-fdio-0.1", 32),
            ("nacl-irt-dev-fdio-0.2", 52),
            ("nacl-irt-dev-fdio-0.3", 56),
            ("nacl-irt-filename-0.1", 8),
            ("nacl-irt-dev-filename-0.2", 28),
            ("nacl-irt-dev-filename-0.3", 64),
            ("nacl-irt-memory-0.3", 12),
            ("nacl-irt-tls-0.1", 8),
            ("nacl-irt-thread-0.1", 12),
            ("nacl-irt-futex-0.1", 8),
            ("nacl-irt-clock_get-0.1", 8),
            ("nacl-irt-random-0.1", 4),
            ("nacl-irt-dev-getpid-0.1", 4),
        ];
        assert_eq!(INTERFACES.len(), sizes.len());
        for ((name, slots), (n, size)) in INTERFACES.iter().zip(sizes) {
            assert_eq!(*name, n);
            assert_eq!(slots.len() * 4, size, "{name}");
        }
    }

    #[test]
    fn every_slot_is_a_host_function() {
        let functions = functions();
        let irt = Irt::new(&functions, 10);
        assert_eq!(irt.query_value(), abi::function_value(10));
        for (name, slots) in INTERFACES {
            for s in *slots {
                assert!(functions.iter().any(|f| f.name == *s), "{name}: {s}");
            }
        }
    }
}
