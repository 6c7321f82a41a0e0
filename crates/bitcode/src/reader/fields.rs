//! Record fields that module-level and function-level records encode the same way.

use crate::error::{ReadError, Rule};
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
