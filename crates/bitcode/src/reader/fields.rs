//! Record fields that module-level and function-level records encode the same way.

use crate::error::{ReadError, Rule};
use crate::ir::Align;
use pnacl_bitstream::BitPos;

/// Largest alignment exponent (alignment 2**29, encoded as 30).
pub const MAX_ALIGN_ENCODING: u64 = 30;

/// Converts name characters to bytes.
pub(crate) fn name_bytes(pos: BitPos, chars: &[u64]) -> Result<Vec<u8>, ReadError> {
    chars
        .iter()
        .map(|&c| {
            u8::try_from(c)
                .map_err(|_| ReadError::new(pos, Rule::Symtab, format!("Invalid character {c} in symbol name")))
        })
        .collect()
}

/// An alignment field: its exponent, checked against [`MAX_ALIGN_ENCODING`].
#[inline]
pub(crate) fn align(pos: BitPos, v: u64) -> Result<Align, ReadError> {
    if v > MAX_ALIGN_ENCODING {
        return Err(ReadError::new(
            pos,
            Rule::Align,
            format!("Alignment can't be greater than 2**29. Found: 2**{}", v - 1),
        ));
    }
    Ok(Align(v as u8))
}
