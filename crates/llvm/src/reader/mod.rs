//! Reading LLVM IR bitcode (LLVM 3.3 through 19) into the [`Module`] model.
//!
//! The file is walked once with the bitstream crate's [`Cursor`]: the module block's
//! records declare types, globals, functions and constants in value-number order; nested
//! blocks (types, attributes, constants, symbol tables, function bodies) are read as they
//! come, metadata, use-lists and summaries skipped by block. Bad input is an error naming
//! the bit position, never a panic: every count is checked against the bits left.

mod attributes;
mod constants;
mod error;
mod function;
mod instructions;
mod module;
mod records;
mod types;

pub use error::ReadError;

use crate::ir::Module;
use pnacl_bitstream::{Container, Cursor};

/// Reads LLVM IR bitcode (with or without the wrapper header).
pub fn read(bytes: &[u8]) -> Result<Module, ReadError> {
    let container = Container::detect(bytes).map_err(ReadError::from)?;
    let Container::Llvm { .. } = container else {
        return Err(ReadError::at(
            0,
            "this is PNaCl bitcode (a pexe), not LLVM bitcode: use `pnacl thaw` to turn it into LLVM IR",
        ));
    };
    let (stream, start) = container.stream(bytes);
    let cursor = Cursor::new(stream, start, 2).map_err(ReadError::from)?;
    module::ModuleReader::new(cursor).read()
}
