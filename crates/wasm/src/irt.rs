//! The IRT functions the module imports from its host.
//!
//! Every one is imported (module `irt`, under its name in the NaCl headers) and placed in
//! the function table after the module's own functions, in this order, so that the guest
//! reaches it through an ordinary indirect call, as it reaches them under `pnacl run`
//! (whose runtime numbers them the same way: the same guest values). The JavaScript host
//! builds the interface tables of the query function from the import names; the names,
//! slot orders and table sizes of the interfaces are the host's (`js/irt/query.mjs`).

use pnacl_bitcode::ir::Ty;

/// One imported IRT function: its name and PNaCl signature.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HostFunction {
    /// Its name (the import name).
    pub name: &'static str,
    /// Result type.
    pub ret: Ty,
    /// Parameter types.
    pub params: &'static [Ty],
}

use Ty::{I32 as W, I64 as L, Void as V};

macro_rules! f {
    ($name:literal, $ret:expr, [$($p:expr),*]) => {
        HostFunction { name: $name, ret: $ret, params: &[$($p),*] }
    };
}

/// Every IRT function, the query function first, in table order (the order of `pnacl
/// run`'s runtime).
pub const FUNCTIONS: &[HostFunction] = &[
    f!("query", W, [W, W, W]),
    // basic
    f!("exit", V, [W]),
    f!("gettod", W, [W]),
    f!("clock", W, [W]),
    f!("nanosleep", W, [W, W]),
    f!("sched_yield", W, []),
    f!("sysconf", W, [W, W]),
    // fdio
    f!("close", W, [W]),
    f!("dup", W, [W, W]),
    f!("dup2", W, [W, W]),
    f!("read", W, [W, W, W, W]),
    f!("write", W, [W, W, W, W]),
    f!("seek", W, [W, L, W, W]),
    f!("fstat", W, [W, W]),
    f!("getdents", W, [W, W, W, W]),
    f!("fchdir", W, [W]),
    f!("fchmod", W, [W, W]),
    f!("fsync", W, [W]),
    f!("fdatasync", W, [W]),
    f!("ftruncate", W, [W, L]),
    f!("isatty", W, [W, W]),
    // filename
    f!("open", W, [W, W, W, W]),
    f!("stat", W, [W, W]),
    f!("mkdir", W, [W, W]),
    f!("rmdir", W, [W]),
    f!("chdir", W, [W]),
    f!("getcwd", W, [W, W]),
    f!("unlink", W, [W]),
    f!("truncate", W, [W, L]),
    f!("lstat", W, [W, W]),
    f!("link", W, [W, W]),
    f!("rename", W, [W, W]),
    f!("symlink", W, [W, W]),
    f!("chmod", W, [W, W]),
    f!("access", W, [W, W]),
    f!("readlink", W, [W, W, W, W]),
    f!("utimes", W, [W, W]),
    // memory
    f!("mmap", W, [W, W, W, W, W, L]),
    f!("munmap", W, [W, W]),
    f!("mprotect", W, [W, W, W]),
    // tls
    f!("tls_init", W, [W]),
    f!("tls_get", W, []),
    // thread, futex
    f!("thread_create", W, [W, W, W]),
    f!("thread_exit", V, [W]),
    f!("thread_nice", W, [W]),
    f!("futex_wait_abs", W, [W, W, W]),
    f!("futex_wake", W, [W, W, W]),
    // clock_get, random, getpid
    f!("clock_getres", W, [W, W]),
    f!("clock_gettime", W, [W, W]),
    f!("get_random_bytes", W, [W, W, W]),
    f!("getpid", W, [W]),
];

/// The interface name only browser (PPAPI) programs ask for.
pub const PPAPI_PREFIX: &[u8] = b"nacl-irt-ppapihook";
/// The interface name newlib's pthread library asks for: a program that has it may start
/// threads, and gets shared memory.
pub const THREAD_INTERFACE: &[u8] = b"nacl-irt-thread-0.1";
