//! Entries of a block, with owned record operands, and checked access to them.

use super::error::ReadError;
use pnacl_bitstream::{BitPos, Cursor, Enter, Entry};

/// A record: code, operands, blob.
#[derive(Clone, Debug)]
pub(super) struct Rec {
    /// Position of the record.
    pub pos: BitPos,
    /// Its code.
    pub code: u64,
    /// Its operands.
    pub ops: Vec<u64>,
    /// Its blob, if its abbreviation has one.
    pub blob: Option<Vec<u8>>,
}

/// What comes next in a block.
pub(super) enum Item {
    /// A record.
    Record(Rec),
    /// A nested block starts (the cursor is inside it).
    Block(Enter),
    /// The block ends.
    End,
}

/// The next item of the current block.
pub(super) fn next(c: &mut Cursor<'_>) -> Result<Item, ReadError> {
    next_reusing(c, &mut Vec::new())
}

/// The next item of the current block; a record takes its operands into `spare`'s
/// allocation (give it back with `*spare = rec.ops` when done: function bodies are most of
/// a file's records).
pub(super) fn next_reusing(c: &mut Cursor<'_>, spare: &mut Vec<u64>) -> Result<Item, ReadError> {
    loop {
        match c.next_entry()? {
            Entry::Record(r) => {
                let mut ops = std::mem::take(spare);
                ops.clear();
                ops.extend_from_slice(r.ops);
                return Ok(Item::Record(Rec { pos: r.pos, code: r.code, ops, blob: r.blob.map(<[u8]>::to_vec) }));
            }
            Entry::Enter(e) => return Ok(Item::Block(e)),
            Entry::Exit(_) => return Ok(Item::End),
            Entry::Abbrev { .. } => continue,
            Entry::End(pos) => return Err(ReadError::new(pos, "unexpected end of data inside a block")),
        }
    }
}

impl Rec {
    /// An error about this record.
    pub fn error(&self, message: impl Into<String>) -> ReadError {
        ReadError::new(self.pos, message)
    }

    /// Operand `i`, or an error if the record is too short.
    pub fn op(&self, i: usize) -> Result<u64, ReadError> {
        self.ops.get(i).copied().ok_or_else(|| self.error(format!("record (code {}) has too few operands", self.code)))
    }

    /// Operand `i` as a `u32`.
    pub fn op32(&self, i: usize) -> Result<u32, ReadError> {
        u32::try_from(self.op(i)?).map_err(|_| self.error(format!("operand {i} of record {} is too large", self.code)))
    }

    /// Operand `i` if present.
    pub fn get(&self, i: usize) -> Option<u64> {
        self.ops.get(i).copied()
    }

    /// The operands from `from` on as bytes (a string stored one character per operand).
    pub fn string(&self, from: usize) -> String {
        let bytes: Vec<u8> = self.ops.iter().skip(from).map(|&c| c as u8).collect();
        String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
    }
}

/// Decodes a sign-rotated value (LLVM's `decodeSignRotatedValue`).
pub(super) fn sign_rotated(v: u64) -> u64 {
    if v & 1 == 0 {
        v >> 1
    } else if v != 1 {
        (v >> 1).wrapping_neg()
    } else {
        1u64 << 63
    }
}
