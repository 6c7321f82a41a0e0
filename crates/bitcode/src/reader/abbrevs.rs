//! PNaCl's rules for abbreviations, beyond the bitstream's: no blobs, operands of 32 bits
//! at most, abbreviation ids of 16 bits at most.

use crate::error::{ReadError, Rule};
use crate::ir::{BlockLayout, ITEM_ABBREV};
use pnacl_bitstream::{Abbrev, BitPos, Cursor, Enter, Gather, Op};

/// Largest abbreviation-id width PNaCl allows.
pub const MAX_PNACL_ABBREV_WIDTH: u32 = 16;
/// Checks an abbreviation against PNaCl's extra rules.
pub(crate) fn check_pnacl_abbrev(pos: BitPos, a: &Abbrev) -> Result<(), ReadError> {
    for op in a.ops() {
        match *op {
            Op::Blob => {
                return Err(ReadError::new(
                    pos,
                    Rule::AbbrevOperand,
                    "Blob abbreviations are not allowed in PNaCl bitcode",
                ));
            }
            Op::Fixed(w) | Op::Vbr(w) if w > 32 => {
                return Err(ReadError::new(
                    pos,
                    Rule::AbbrevOperand,
                    format!("Abbreviation operand width {w} is larger than 32"),
                ));
            }
            _ => {}
        }
    }
    Ok(())
}

/// Checks a block's abbreviation-id width after entering it (`c` inside the block).
pub(crate) fn check_width<G: Gather>(c: &Cursor<'_, G>, e: &Enter) -> Result<(), ReadError> {
    if e.abbrev_width > MAX_PNACL_ABBREV_WIDTH {
        return Err(ReadError::new(
            e.pos,
            Rule::AbbrevWidth,
            format!("Abbreviation index width {} is larger than 16", e.abbrev_width),
        ));
    }
    check_abbrev_count(e.pos, e.abbrev_width, c.abbrevs().len())
}

/// Checks that `count` abbreviations fit in `width`-bit abbreviation ids.
pub(crate) fn check_abbrev_count(pos: BitPos, width: u32, count: usize) -> Result<(), ReadError> {
    if (count as u64 + 4) > (1u64 << width) {
        return Err(ReadError::new(
            pos,
            Rule::AbbrevWidth,
            format!("{count} abbreviations don't fit in {width}-bit abbreviation ids"),
        ));
    }
    Ok(())
}

/// Checks a local abbreviation just defined in the cursor's block and records it.
pub(crate) fn check_local_abbrev<G: Gather>(
    c: &Cursor<'_, G>,
    layout: &mut Option<BlockLayout>,
    pos: BitPos,
    abbrev: &std::sync::Arc<Abbrev>,
) -> Result<(), ReadError> {
    check_pnacl_abbrev(pos, abbrev)?;
    check_abbrev_count(pos, c.abbrev_width(), c.abbrevs().len())?;
    if let Some(l) = layout {
        l.items.push(ITEM_ABBREV);
        l.abbrevs.push(abbrev.clone());
    }
    Ok(())
}
