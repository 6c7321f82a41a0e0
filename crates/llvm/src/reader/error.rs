//! Errors of the LLVM bitcode reader.

use pnacl_bitstream::BitPos;
use std::fmt;

/// Bitcode the reader refused, with the bit position of the offending entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadError {
    /// Where.
    pub pos: BitPos,
    /// What.
    pub message: String,
}

impl ReadError {
    /// An error at bit `pos`.
    pub fn at(pos: u64, message: impl Into<String>) -> Self {
        ReadError { pos: BitPos(pos), message: message.into() }
    }

    /// An error at `pos`.
    pub fn new(pos: BitPos, message: impl Into<String>) -> Self {
        ReadError { pos, message: message.into() }
    }
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Error({}:{}): {}", self.pos.0 / 8, self.pos.0 % 8, self.message)
    }
}

impl std::error::Error for ReadError {}

impl From<pnacl_bitstream::Error> for ReadError {
    fn from(e: pnacl_bitstream::Error) -> Self {
        ReadError { pos: e.pos, message: e.message.clone() }
    }
}
