//! The flags of the memory accesses translated code makes.

use crate::abi::TrapKind;
use cranelift_codegen::ir::{Endianness, MemFlagsData};

/// Flags of guest memory accesses: little-endian, possibly unaligned, trapping (a fault
/// there is a guest memory error).
pub(super) fn heap() -> MemFlagsData {
    MemFlagsData::new().with_endianness(Endianness::Little).with_trap_code(Some(TrapKind::MemoryOutOfBounds.code()))
}

/// Flags of accesses to runtime structures (vmctx, the function table): never faulting.
pub(super) fn trusted() -> MemFlagsData {
    MemFlagsData::trusted()
}
