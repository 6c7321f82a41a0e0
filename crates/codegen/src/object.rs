//! A translation before it is loaded: position-independent machine code with the
//! relocations still to apply, its functions and trap sites as offsets, and the layout and
//! signature ids it was translated against. It is what `pnacl compile` writes to a file.

use crate::abi::TrapKind;
use crate::isa::Tier;
use crate::layout::GuestLayout;
use crate::link::{self, AbsReloc, Addresses};
use crate::sigs::SigTable;
use crate::translation::{FunctionCode, Translation, TrapSite};
use std::time::Duration;

/// Where a function's code is in an [`Object`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CodeRange {
    /// Offset of its entry.
    pub offset: u32,
    /// Size in bytes.
    pub len: u32,
}

/// Translated code that has not been loaded yet.
#[derive(Clone, Debug)]
pub struct Object {
    /// The machine code of every function.
    pub code: Vec<u8>,
    /// The code of each module function (`None` for declarations).
    pub functions: Vec<Option<CodeRange>>,
    /// Trap sites: offset in the code and kind, by offset.
    pub traps: Vec<(u32, TrapKind)>,
    /// The absolute relocations to apply when loading.
    pub relocs: Vec<AbsReloc>,
    /// The function table length the code checks indirect calls against.
    pub table_len: u32,
    /// How it was translated.
    pub tier: Tier,
    /// Where globals are.
    pub layout: GuestLayout,
    /// Signature ids, as the code compares them.
    pub sigs: SigTable,
    /// Time spent translating.
    pub time: Duration,
    /// How many loops the translation unrolled.
    pub unrolled_loops: u32,
}

impl Object {
    /// Loads the code into executable memory with the process's addresses.
    pub fn link(&self, at: &Addresses) -> Result<Translation, String> {
        let code = link::load(&self.code, &self.relocs, at)?;
        let base = code.start();
        let functions = self
            .functions
            .iter()
            .map(|c| c.map(|c| FunctionCode { start: base + u64::from(c.offset), len: u64::from(c.len) }))
            .collect();
        let traps = self.traps.iter().map(|&(o, kind)| TrapSite { addr: base + u64::from(o), kind }).collect();
        Ok(Translation {
            code,
            functions,
            traps,
            layout: self.layout.clone(),
            sigs: self.sigs.clone(),
            time: self.time,
            unrolled_loops: self.unrolled_loops,
        })
    }
}
