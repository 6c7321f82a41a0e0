//! The generic LLVM bitstream container, as used by PNaCl bitcode and LLVM bitcode.
//!
//! Layers, bottom up:
//! - [`BitReader`] / [`BitWriter`]: fixed-width and VBR fields, alignment;
//! - [`Abbrev`]: abbreviation definitions and the records they encode;
//! - [`Cursor`] / [`StreamWriter`]: blocks, abbreviation scopes, BLOCKINFO and records,
//!   each entry with its absolute [`BitPos`];
//! - [`Container`]: the `PEXE`, `BC 0xC0DE` and wrapper headers around a stream.
//!
//! Nothing here knows PNaCl's record semantics; that is the `pnacl-bitcode` crate's job.

mod abbrev;
mod bits;
mod blockinfo;
mod container;
mod cursor;
mod encoder;
mod entry;
mod error;
mod gather;
mod op;
mod position;
mod window;

pub use abbrev::{Abbrev, MAX_ABBREV_OPS, fixed_width_for};
pub use bits::{BitReader, BitWriter, bits_needed, vbr_len};
pub use blockinfo::BlockInfo;
pub use container::{
    Container, FIELD_ALIGN_RECORDS, FIELD_PNACL_VERSION, FIELD_TYPE_BUFFER, FIELD_TYPE_FLAG, FIELD_TYPE_U32,
    HeaderField, HeaderStatus, LLVM_MAGIC, PEXE_MAGIC, PexeHeader, SUPPORTED_PNACL_VERSION, WRAPPER_MAGIC, Wrapper,
};
pub use cursor::Cursor;
pub use encoder::StreamWriter;
pub use entry::{
    AbbrevTarget, BLOCKINFO_BLOCK_ID, BLOCKINFO_CODE_BLOCKNAME, BLOCKINFO_CODE_SETBID, BLOCKINFO_CODE_SETRECORDNAME,
    DEFINE_ABBREV, END_BLOCK, ENTER_SUBBLOCK, Enter, Entry, FIRST_APPLICATION_ABBREV, MAX_ABBREV_WIDTH, MAX_DEPTH,
    Record, Step, UNABBREV_RECORD,
};
pub use error::{Error, ErrorData, ErrorKind, Result};
pub use gather::{Gather, PextGather, ShiftGather};
pub use op::{Op, decode_char6, encode_char6, is_char6};
pub use position::BitPos;
