//! The bitstream error type.

use crate::position::BitPos;
use std::fmt;

/// A malformed-bitstream error at a bit position.
///
/// The details are boxed so that `Result`s carrying it stay two words wide on the hot path;
/// they are reachable as fields through `Deref` (`error.pos`, `error.message`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error(Box<ErrorData>);

/// The details of an [`Error`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ErrorData {
    /// Where the offending item starts.
    pub pos: BitPos,
    /// What is wrong, in words.
    pub message: String,
    /// What kind of item is malformed.
    pub kind: ErrorKind,
}

/// What kind of item a bitstream error is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// A field, record or block (truncated data, oversized values, lengths, ids).
    Malformed,
    /// An abbreviation definition that breaks the format's rules.
    Abbreviation,
}

impl Error {
    /// Creates an error at `pos`.
    #[cold]
    pub fn new(pos: BitPos, message: impl Into<String>) -> Self {
        Error(Box::new(ErrorData { pos, message: message.into(), kind: ErrorKind::Malformed }))
    }

    /// Creates an error about an abbreviation definition.
    #[cold]
    pub fn abbreviation(pos: BitPos, message: impl Into<String>) -> Self {
        Error(Box::new(ErrorData { pos, message: message.into(), kind: ErrorKind::Abbreviation }))
    }
}

impl std::ops::Deref for Error {
    type Target = ErrorData;
    fn deref(&self) -> &ErrorData {
        &self.0
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
