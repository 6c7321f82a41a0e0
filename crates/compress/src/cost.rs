//! Bit costs: what a record, an operand and an abbreviation definition take in the stream.
//!
//! Everything here mirrors the bitstream writer exactly (`pnacl-bitstream`), so the search
//! optimises the real file size, not an estimate.

use pnacl_bitstream::{Op, bits_needed, encode_char6, vbr_len};

/// Width of the fields of an unabbreviated record (code, count and every operand).
pub const UNABBREV_VBR: u32 = 6;
/// Chunk width of the element count in front of an array.
pub const ARRAY_COUNT_VBR: u32 = 6;

/// Bits of an unabbreviated record's body (after its abbreviation id).
pub fn unabbreviated(code: u64, ops: &[u64]) -> u64 {
    vbr_len(code, UNABBREV_VBR)
        + vbr_len(ops.len() as u64, UNABBREV_VBR)
        + ops.iter().map(|&v| vbr_len(v, UNABBREV_VBR)).sum::<u64>()
}

/// Bits one value takes with a scalar operand encoding, or `None` if it can't hold it.
#[inline]
pub fn scalar(op: Op, v: u64) -> Option<u64> {
    match op {
        Op::Literal(c) => (c == v).then_some(0),
        Op::Fixed(w) => (w >= 64 || v >> w == 0).then_some(u64::from(w)),
        Op::Vbr(0) => (v == 0).then_some(0),
        Op::Vbr(w) => Some(vbr_len(v, w)),
        Op::Char6 => encode_char6(v).map(|_| 6),
        Op::Array | Op::Blob => None,
    }
}

/// Bits of the definition of one operand in a `DEFINE_ABBREV` record.
pub fn op_definition(op: Op) -> u64 {
    match op {
        // Literal flag, then the value as VBR8.
        Op::Literal(v) => 1 + vbr_len(v, 8),
        // Literal flag, 3-bit encoding, width as VBR5.
        Op::Fixed(w) | Op::Vbr(w) => 4 + vbr_len(u64::from(w), 5),
        Op::Array | Op::Char6 | Op::Blob => 4,
    }
}

/// Bits of a whole `DEFINE_ABBREV` record, its abbreviation id (`id_width` bits) included.
pub fn definition(ops: &[Op], id_width: u32) -> u64 {
    u64::from(id_width) + vbr_len(ops.len() as u64, 5) + ops.iter().map(|&op| op_definition(op)).sum::<u64>()
}

/// The abbreviation-id width a block needs for `abbrevs` abbreviations in scope: the
/// reference requires `2**B >= abbrevs + 4`.
pub fn id_width(abbrevs: usize) -> u32 {
    bits_needed(abbrevs as u64 + 3).max(2)
}

/// Bits of the `SETBID` record that opens a section of the abbreviations block
/// (unabbreviated, 2-bit abbreviation id).
pub fn setbid(block_id: u32) -> u64 {
    2 + unabbreviated(1, &[u64::from(block_id)])
}

#[cfg(test)]
mod tests {
    use super::*;
    use pnacl_bitstream::{Abbrev, BitWriter};

    #[test]
    fn definitions_cost_what_the_writer_writes() {
        for ops in [
            vec![Op::Literal(20), Op::Vbr(6), Op::Vbr(4), Op::Vbr(4)],
            vec![Op::Literal(1), Op::Vbr(8), Op::Array, Op::Char6],
            vec![Op::Literal(300), Op::Fixed(17), Op::Array, Op::Fixed(8)],
        ] {
            let a = Abbrev::new(ops.clone()).unwrap();
            let mut w = BitWriter::new();
            a.write_definition(&mut w);
            assert_eq!(definition(&ops, 0), w.pos().0);
        }
    }

    #[test]
    fn widths() {
        assert_eq!(id_width(0), 2);
        assert_eq!(id_width(1), 3);
        assert_eq!(id_width(4), 3);
        assert_eq!(id_width(5), 4);
        assert_eq!(id_width(12), 4);
        assert_eq!(id_width(13), 5);
    }
}
