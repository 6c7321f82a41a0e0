//! Translated code, loaded and ready to run.

use crate::abi::TrapKind;
use crate::layout::GuestLayout;
use crate::link::CodeMemory;
use crate::sigs::SigTable;
use std::time::Duration;

/// A trap site: where translated code traps, why, and in which function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TrapSite {
    /// Host address of the trapping instruction.
    pub addr: u64,
    /// Why it traps.
    pub kind: TrapKind,
}

/// The code of one function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FunctionCode {
    /// Host address of its entry.
    pub start: u64,
    /// Size in bytes.
    pub len: u64,
}

/// Translated code, ready to run.
pub struct Translation {
    /// The executable memory.
    pub code: CodeMemory,
    /// The code of each module function (`None` for declarations).
    pub functions: Vec<Option<FunctionCode>>,
    /// Trap sites, by address.
    pub traps: Vec<TrapSite>,
    /// Where globals are.
    pub layout: GuestLayout,
    /// Signature ids.
    pub sigs: SigTable,
    /// Time spent translating.
    pub time: Duration,
    /// How many loops the translation unrolled.
    pub unrolled_loops: u32,
}

impl Translation {
    /// The function whose code contains `pc`, if any.
    pub fn function_at(&self, pc: u64) -> Option<u32> {
        self.functions.iter().position(|c| c.is_some_and(|c| pc >= c.start && pc < c.start + c.len)).map(|f| f as u32)
    }

    /// The trap recorded at `pc`, if any.
    pub fn trap_at(&self, pc: u64) -> Option<TrapKind> {
        self.traps.binary_search_by_key(&pc, |t| t.addr).ok().map(|i| self.traps[i].kind)
    }
}
