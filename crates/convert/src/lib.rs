//! Between LLVM IR and PNaCl bitcode.
//!
//! - [`freeze`]: an LLVM module ([`pnacl_llvm::Module`]) to a PNaCl module, exactly as
//!   Google's `pnacl-freeze` wrote it.

pub mod freeze;
