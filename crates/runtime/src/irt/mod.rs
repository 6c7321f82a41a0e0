//! The NaCl IRT: the query function and the interfaces it hands out.
//!
//! Each IRT function is a host function with an entry in the guest function table, after
//! the module's own functions, so the guest calls it through an ordinary (checked)
//! indirect call. The query function fills the guest's table with those function values.
//! Interface names, table sizes and slot orders are in [`interfaces`].

mod access;
mod basic;
mod fdio;
mod filename;
pub(crate) mod interfaces;
mod mem;
mod threads;

use crate::status::EXIT_UNSUPPORTED;
use access::instance;
use interfaces::PPAPI_PREFIX;
use pnacl_bitcode::ir::{Signature, Ty};
use pnacl_codegen::abi::VmCtx;
use std::io::Write;

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
        // pnacl's own
        f!("kill_self", basic::kill_self, W, [W]),
    ]
}

/// `size_t nacl_irt_query(const char *name, void *table, size_t size)`: fills `table` and
/// returns the interface's size, or returns 0 (unknown interface, or `size` too small).
extern "C" fn query(_vmctx: *mut VmCtx, name: u32, table: u32, size: u32) -> u32 {
    let p = instance();
    let Ok(name) = p.memory.read_cstr(name, 256) else { return 0 };
    if name.starts_with(PPAPI_PREFIX) {
        // Both names come from the guest: their control characters are shown escaped.
        let _ = writeln!(
            std::io::stderr(),
            "pnacl: {} is a browser (PPAPI) application: it asked for {}. pnacl runs command-line pexes only.",
            crate::printable(&p.options.args.first().map(|a| String::from_utf8_lossy(a)).unwrap_or_default()),
            crate::printable(&String::from_utf8_lossy(&name)),
        );
        p.exit(EXIT_UNSUPPORTED);
    }
    let Some((_, values)) = p.irt.interfaces.iter().find(|(n, _)| *n == name.as_slice()) else { return 0 };
    let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
    if (size as usize) < bytes.len() || p.memory.write(table, &bytes).is_err() {
        return 0;
    }
    bytes.len() as u32
}
