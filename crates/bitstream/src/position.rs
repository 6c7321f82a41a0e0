//! Absolute bit positions.

use std::fmt;

/// An absolute bit position in a file, counted from its first byte (header included).
///
/// It displays as `B:b`, the byte number and the bit within that byte, the form every
/// PNaCl tool uses for addresses and error locations.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct BitPos(pub u64);

impl BitPos {
    /// The byte containing this bit.
    pub fn byte(self) -> u64 {
        self.0 / 8
    }

    /// The bit within its byte (0..8).
    pub fn bit(self) -> u64 {
        self.0 % 8
    }
}

impl fmt::Display for BitPos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.byte(), self.bit())
    }
}
