//! Reading PNaCl bitcode into the IR, enforcing every rule of the reference.
//!
//! The reader walks the bitstream once, in file order, keeping the reference's global state
//! (ID counters, expected sizes, TypeOf) and checking each record against its Constraints as
//! it turns it into IR. A [`Listener`] sees every block, abbreviation and accepted record as
//! it happens, together with a [`View`] of the IR built so far; the disassembler is such a
//! listener.
//!
//! Untrusted counts never drive allocation directly: the bitstream layer bounds record and
//! array lengths by the data left, and counts the reference declares (types, globals, basic
//! blocks, forward references) are checked against the size of their block first.
//!
//! Modules, top down (each imports only from those below it):
//! - `module`: the top level and the module block, which hands each block it holds to
//!   `blockinfo`, `types`, `globals` and `symtab` (the module-level blocks), or to `function`;
//! - `state`: the module-level state, and the reader that carries it with the cursor;
//! - `function`: a function block and the blocks nested in it, read without the module-level
//!   state (so that function blocks can be read in parallel);
//! - `options`, `listener`, `context` (which block a record is in), `abbrevs` (PNaCl's
//!   abbreviation rules) and `fields` (fields both levels encode alike).

mod abbrevs;
mod blockinfo;
mod context;
mod fields;
mod function;
mod globals;
mod listener;
mod module;
mod options;
mod state;
mod symtab;
mod types;

pub use listener::{Item, Listener, NoListener, View};
pub use options::ReadOptions;

use crate::error::{ReadError, Rule};
use crate::ir::Module;
use pnacl_bitstream::{BitPos, PexeHeader, PextGather, ShiftGather};

/// Reads a PNaCl bitcode file with the default (strict) options.
pub fn read(bytes: &[u8]) -> Result<Module, ReadError> {
    read_with(bytes, ReadOptions::default(), &mut NoListener)
}

/// Reads a PNaCl bitcode file, reporting progress to `listener`.
pub fn read_with(bytes: &[u8], options: ReadOptions, listener: &mut impl Listener) -> Result<Module, ReadError> {
    let header = check_header(bytes)?;
    if options.uses_pext() {
        module::read_file::<_, PextGather>(bytes, header, options, listener)
    } else {
        module::read_file::<_, ShiftGather>(bytes, header, options, listener)
    }
}

/// Reads a PNaCl bitcode file like [`read_with`], with its function blocks read in
/// parallel (rayon). The module, or the error (the first in file order), is the same.
/// Not for [`ReadOptions::lenient_structure`], which this ignores.
pub fn read_parallel(bytes: &[u8], options: ReadOptions) -> Result<Module, ReadError> {
    let header = check_header(bytes)?;
    let options = ReadOptions { lenient_structure: false, ..options };
    if options.uses_pext() {
        module::read_parallel_file::<PextGather>(bytes, header, options)
    } else {
        module::read_parallel_file::<ShiftGather>(bytes, header, options)
    }
}

/// The checks made before the bitstream is read: length and header.
fn check_header(bytes: &[u8]) -> Result<PexeHeader, ReadError> {
    if !bytes.len().is_multiple_of(4) {
        return Err(ReadError::new(
            BitPos(0),
            Rule::FileLength,
            "Bitcode stream should be a multiple of 4 bytes in length",
        ));
    }
    let header = PexeHeader::parse(bytes).map_err(|e| ReadError::new(BitPos(0), Rule::Header, e.message.clone()))?;
    let status = header.status();
    if !status.readable || !status.supported {
        let mut message = String::from("Invalid PNaCl bitcode header");
        for m in &status.messages {
            message.push_str(": ");
            message.push_str(m);
        }
        return Err(ReadError::new(BitPos(0), Rule::Header, message));
    }
    Ok(header)
}
