//! Between LLVM IR and PNaCl bitcode.
//!
//! - [`freeze`]: an LLVM module ([`pnacl_llvm::Module`]) to a PNaCl module, exactly as
//!   Google's `pnacl-freeze` wrote it.
//! - [`thaw`]: a PNaCl module to an LLVM module that today's LLVM reads.

pub mod freeze;
pub mod thaw;
