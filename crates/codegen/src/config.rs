//! Where the runtime put the things translated code refers to.

use crate::abi::HostFn;
use crate::link::Addresses;
use pnacl_bitcode::Module;

/// Where the runtime put things the code refers to.
#[derive(Clone, Debug)]
pub struct Config {
    /// Host address of guest address 0 (the 4 GiB guest space and a guard follow it).
    pub mem_base: u64,
    /// Host address of the function table ([`abi::TableEntry`] entries).
    pub table_addr: u64,
    /// Number of table entries.
    pub table_len: u32,
    /// Host address of each [`HostFn`], by its number.
    pub host_fns: Vec<u64>,
    /// Run Cranelift's IR verifier on every function (slower; for tests). Debug builds
    /// always do.
    pub verify: bool,
}

impl Config {
    /// Placeholder addresses, for code that is inspected but never run (tests,
    /// benchmarks, fuzzing): nothing is mapped at them.
    pub fn unplaced(m: &Module, verify: bool) -> Config {
        Config {
            mem_base: 0x1000_0000_0000,
            table_addr: 0x2000_0000_0000,
            table_len: m.functions.len() as u32 + 64,
            host_fns: vec![0x3000_0000; HostFn::ALL.len()],
            verify,
        }
    }

    /// The addresses relocations receive.
    pub fn addresses(&self) -> Addresses {
        Addresses { mem_base: self.mem_base, table_addr: self.table_addr, host_fns: self.host_fns.clone() }
    }
}
