//! The operand encodings an abbreviation is made of, and the char6 alphabet.
//!
//! These are the vocabulary both of abbreviations ([`crate::Abbrev`]) and of the plans that
//! decode a record from one window ([`crate::window`]), so they sit below both.

use std::fmt;

/// Encoding of one abbreviation operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    /// The value is not stored: it is always this constant.
    Literal(u64),
    /// A fixed-width field of this many bits (0..=64).
    Fixed(u32),
    /// A VBR field with chunks of this many bits (0 or 2..=32; 0 stores nothing and means 0).
    Vbr(u32),
    /// Zero or more values of the following operand, preceded by a VBR6 count.
    Array,
    /// A 6-bit character from `[a-zA-Z0-9._]`.
    Char6,
    /// A VBR6 byte count followed by that many 32-bit-aligned bytes.
    Blob,
}

impl Op {
    /// Minimum number of bits one value with this encoding occupies.
    pub fn min_bits(self) -> u64 {
        match self {
            Op::Literal(_) | Op::Array | Op::Blob => 0,
            Op::Fixed(w) | Op::Vbr(w) => u64::from(w),
            Op::Char6 => 6,
        }
    }

    /// The numeric encoding tag used in `DEFINE_ABBREV` (not meaningful for literals).
    pub fn encoding_tag(self) -> u64 {
        match self {
            Op::Literal(_) => 0,
            Op::Fixed(_) => 1,
            Op::Vbr(_) => 2,
            Op::Array => 3,
            Op::Char6 => 4,
            Op::Blob => 5,
        }
    }
}

impl fmt::Display for Op {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Op::Literal(v) => write!(f, "{v}"),
            Op::Fixed(w) => write!(f, "fixed({w})"),
            Op::Vbr(w) => write!(f, "vbr({w})"),
            Op::Array => write!(f, "array"),
            Op::Char6 => write!(f, "char6"),
            Op::Blob => write!(f, "blob"),
        }
    }
}

const CHAR6: &[u8; 64] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._";

/// Maps a 6-bit code to its character.
#[inline]
pub fn decode_char6(code: u8) -> u8 {
    CHAR6[usize::from(code & 63)]
}

/// Maps a character to its 6-bit code, if it is in the char6 alphabet.
#[inline]
pub fn encode_char6(c: u64) -> Option<u8> {
    let c = u8::try_from(c).ok()?;
    Some(match c {
        b'a'..=b'z' => c - b'a',
        b'A'..=b'Z' => c - b'A' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'.' => 62,
        b'_' => 63,
        _ => return None,
    })
}

/// True if every byte is in the char6 alphabet.
pub fn is_char6(bytes: &[u8]) -> bool {
    bytes.iter().all(|&b| encode_char6(u64::from(b)).is_some())
}
