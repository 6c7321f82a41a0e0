//! Passes over the LLVM IR model ([`pnacl_llvm::Module`]): what PNaCl's toolchain ran on a
//! module before writing it as a pexe.
//!
//! - [`strip`]: `pnacl-finalize`'s `-strip-metadata -strip-module-flags -strip`.

pub mod strip;
