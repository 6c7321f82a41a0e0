//! The vocabulary of a bitstream: the standard abbreviation ids, the BLOCKINFO record
//! codes, and the entries a [`crate::Cursor`] reads and a [`crate::StreamWriter`] writes.

use crate::abbrev::Abbrev;
use crate::position::BitPos;
use std::sync::Arc;

/// Abbreviation id of `END_BLOCK`.
pub const END_BLOCK: u32 = 0;
/// Abbreviation id of `ENTER_SUBBLOCK`.
pub const ENTER_SUBBLOCK: u32 = 1;
/// Abbreviation id of `DEFINE_ABBREV`.
pub const DEFINE_ABBREV: u32 = 2;
/// Abbreviation id of `UNABBREV_RECORD`.
pub const UNABBREV_RECORD: u32 = 3;
/// First application-defined abbreviation id.
pub const FIRST_APPLICATION_ABBREV: u32 = 4;
/// Block id of the BLOCKINFO block.
pub const BLOCKINFO_BLOCK_ID: u32 = 0;
/// BLOCKINFO record: select the block id later records describe.
pub const BLOCKINFO_CODE_SETBID: u64 = 1;
/// BLOCKINFO record: name of the selected block.
pub const BLOCKINFO_CODE_BLOCKNAME: u64 = 2;
/// BLOCKINFO record: name of a record code in the selected block.
pub const BLOCKINFO_CODE_SETRECORDNAME: u64 = 3;

/// Deepest block nesting accepted. Real files nest three or four levels.
pub const MAX_DEPTH: usize = 256;
/// Widest abbreviation id accepted by the generic reader.
pub const MAX_ABBREV_WIDTH: u32 = 32;

/// An `ENTER_SUBBLOCK` entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Enter {
    /// Position of the abbreviation id that starts the entry.
    pub pos: BitPos,
    /// The block id.
    pub block_id: u32,
    /// Width, in bits, of abbreviation ids inside the block.
    pub abbrev_width: u32,
    /// Length of the block body in 32-bit words, as declared.
    pub length_words: u32,
    /// Position of the first bit of the block body (after the length word).
    pub body: BitPos,
    /// Position just past the block (after its END_BLOCK and alignment).
    pub end: BitPos,
}

/// Where a newly defined abbreviation goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AbbrevTarget {
    /// A local abbreviation of the current block: its abbreviation id.
    Local {
        /// The abbreviation id records use to select it.
        abbrev_id: u32,
    },
    /// A global abbreviation defined inside BLOCKINFO for `block_id`: its index among that
    /// block id's globals (abbreviation id = index + 4).
    Global {
        /// The block id the abbreviation is for.
        block_id: u32,
        /// Its index among that block id's global abbreviations.
        index: u32,
    },
}

/// A data record.
#[derive(Clone, Copy, Debug)]
pub struct Record<'c, 'a> {
    /// Position of the abbreviation id that starts the record.
    pub pos: BitPos,
    /// The abbreviation id used: 3 for unabbreviated, 4 or more for an abbreviation.
    pub abbrev_id: u32,
    /// The record code.
    pub code: u64,
    /// The operands after the code.
    pub ops: &'c [u64],
    /// Blob bytes, if the abbreviation has a blob operand.
    pub blob: Option<&'a [u8]>,
}

/// One item of the stream.
#[derive(Debug)]
pub enum Entry<'c, 'a> {
    /// A block starts.
    Enter(Enter),
    /// The current block ends (at `pos`).
    Exit(BitPos),
    /// An abbreviation is defined.
    Abbrev {
        /// Position of the `DEFINE_ABBREV` id.
        pos: BitPos,
        /// The abbreviation.
        abbrev: &'c Arc<Abbrev>,
        /// Where it was added.
        target: AbbrevTarget,
    },
    /// A data record.
    Record(Record<'c, 'a>),
    /// No more data at the top level.
    End(BitPos),
}

/// The kind of entry [`Cursor::step`](crate::Cursor::step) read; its contents are available
/// through the cursor's accessors until the next step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// A block started: see [`Cursor::entered`](crate::Cursor::entered).
    Enter,
    /// The current block ended.
    Exit,
    /// An abbreviation was defined: see [`Cursor::defined`](crate::Cursor::defined).
    Abbrev,
    /// A record was read: see [`Cursor::record`](crate::Cursor::record).
    Record,
    /// No more data at the top level.
    End,
}
