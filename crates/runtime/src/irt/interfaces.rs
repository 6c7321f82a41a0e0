//! The IRT's interfaces: their names, and which host function fills each slot of their
//! tables. Names, table sizes and slot orders follow the NaCl headers exactly.

use pnacl_bitcode::Module;
use pnacl_bitcode::ir::Init;
use pnacl_codegen::abi;

/// `dev-fdio-0.3`'s slots; `dev-fdio-0.2` has all but the last, `fdio-0.1` the first eight.
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
/// `dev-filename-0.3`'s slots; the older versions have the first ones.
const FILENAME_3: &[&str] = &[
    "open", "stat", "mkdir", "rmdir", "chdir", "getcwd", "unlink", "truncate", "lstat", "link", "rename", "symlink",
    "chmod", "access", "readlink", "utimes",
];

/// The interfaces offered: every one NaCl offers to PNaCl programs, the file-access ones,
/// the older `fdio-0.1` and `filename-0.1`, and pnacl's signal interface. Slots are in
/// header order.
pub(crate) const INTERFACES: &[(&str, &[&str])] = &[
    ("nacl-irt-basic-0.1", &["exit", "gettod", "clock", "nanosleep", "sched_yield", "sysconf"]),
    ("nacl-irt-fdio-0.1", DEV_FDIO_3.split_at(8).0),
    ("nacl-irt-dev-fdio-0.1", DEV_FDIO_3.split_at(8).0),
    ("nacl-irt-dev-fdio-0.2", DEV_FDIO_3.split_at(13).0),
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
    // pnacl's own, not NaCl's: a signal raised by the program ends it as it ends a native
    // program (pnacl's C library's kill and raise use it).
    ("pnacl-irt-signal-0.1", &["kill_self"]),
];

/// Interfaces only browser (PPAPI) programs query.
pub(crate) const PPAPI_PREFIX: &[u8] = b"nacl-irt-ppapihook";

/// True if `m` is a browser (PPAPI) program: the name of the PPAPI hook interface, which it
/// would ask the IRT for, is among its global data. Every browser pexe of the corpus has it;
/// no command-line pexe does.
pub fn is_browser_program(m: &Module) -> bool {
    m.globals.iter().any(|g| {
        g.inits.iter().any(|i| matches!(i, Init::Data(d) if d.windows(PPAPI_PREFIX.len()).any(|w| w == PPAPI_PREFIX)))
    })
}

/// The query function's data: each interface's table, as guest function values.
pub(crate) struct Irt {
    pub interfaces: Vec<(&'static [u8], Vec<u32>)>,
    query: u32,
}

impl Irt {
    /// `functions` names the host functions in table order, the first at table index
    /// `first`.
    pub fn new(functions: &[&str], first: u32) -> Irt {
        let value = |name: &str| {
            let i = functions.iter().position(|f| *f == name).expect("every slot names a host function");
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
            ("pnacl-irt-signal-0.1", 4),
        ];
        assert_eq!(INTERFACES.len(), sizes.len());
        for ((name, slots), (n, size)) in INTERFACES.iter().zip(sizes) {
            assert_eq!(*name, n);
            assert_eq!(slots.len() * 4, size, "{name}");
        }
    }

    #[test]
    fn every_slot_is_a_host_function() {
        let names: Vec<&str> = super::super::functions().iter().map(|f| f.name).collect();
        let irt = Irt::new(&names, 10);
        assert_eq!(irt.query_value(), abi::function_value(10));
        for (name, slots) in INTERFACES {
            for s in *slots {
                assert!(names.contains(s), "{name}: {s}");
            }
        }
    }
}
