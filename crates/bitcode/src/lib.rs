//! PNaCl bitcode: records to typed IR and back.
//!
//! - [`read`] / [`read_with`] turn a `.pexe` into a [`Module`], checking every constraint of
//!   the PNaCl bitcode reference; a [`Listener`] can watch each record as it is accepted.
//! - [`ir`] is the IR every later stage (printer, verifier, code generator, writer) reads.
//! - [`write`] turns a module back into bitcode, with the layout it was read with, with the
//!   standard abbreviations `pnacl-finalize` uses, or with none.
//! - [`Canonical`] lists each block's records, for tools that choose their own encoding and
//!   write it with [`write_with_layouts`].
//! - [`abi`] holds the ABI facts (intrinsics, alignments) the reader and verifier share.

pub mod abi;
pub mod codes;
mod error;
pub mod ir;
mod reader;
mod writer;

pub use error::{ReadError, ReadErrorData, Rule};
pub use ir::Module;
pub use reader::{Item, Listener, NoListener, ReadOptions, View, read, read_parallel, read_with};
pub use writer::{
    Abbrevs, BlockEntry, BlockRecords, BlockRef, Canonical, WriteError, write, write_traced, write_with_layouts,
};
