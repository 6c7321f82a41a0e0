//! PNaClAsm, the textual form of PNaCl bitcode, in both directions.
//!
//! - [`asm`]: the assembler, from PNaClAsm (or a full three-column listing) to bitcode,
//!   through the IR and the writer of `pnacl-bitcode`.
//! - [`dis`]: the disassembler, from bitcode to the listing of pnacl-bcdis.
//! - [`tbc`]: the textual record format of Google's test suites.

pub mod asm;
pub mod dis;
mod error;
mod lexer;
pub mod listing;
pub mod tbc;

pub use error::{LineIndex, Location, TextError};
