//! The bitstream error type.

use crate::position::BitPos;
use std::fmt;

/// A malformed-bitstream error at a bit position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// Where the offending item starts.
    pub pos: BitPos,
    /// What is wrong, in words.
    pub message: String,
}

impl Error {
    /// Creates an error at `pos`.
    pub fn new(pos: BitPos, message: impl Into<String>) -> Self {
        Error { pos, message: message.into() }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Error({}): {}", self.pos, self.message)
    }
}

impl std::error::Error for Error {}

/// Result alias for this crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;
