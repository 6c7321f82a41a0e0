//! How strict the reader is.

use pnacl_bitstream::{Gather, PextGather};

/// How strict the reader is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct ReadOptions {
    /// Let ABI-level rules ([`Rule::is_abi`](crate::Rule::is_abi)) through instead of failing on them, so that
    /// the ABI verifier can report them with its own diagnostics.
    pub defer_abi: bool,
    /// Keep the bit position of every instruction and module-level record in the IR.
    pub positions: bool,
    /// Skip recording the encoding layout (abbreviations per record, block widths). Writing
    /// the module back then uses the writer's own abbreviation choices.
    pub no_layout: bool,
    /// Accept the module-level structure pnacl-bcdis accepts: module blocks missing some
    /// of their blocks (down to a lone version record), a second module symbol table, and
    /// further top-level modules (each read in turn, then reported as one error at the end,
    /// as pnacl-bcdis reports them). Every record is still checked. For dumping; a module
    /// read this way may not be one the reference allows.
    pub lenient_structure: bool,
    /// Decode VBR fields with shifts and masks even where BMI2's `pext` is fast, which is
    /// used there otherwise ([`PextGather`]). The module read is the same either way; this
    /// is for measuring and testing the portable decoder on such processors.
    pub portable_decoding: bool,
}

impl ReadOptions {
    /// True if reading with these options uses [`PextGather`].
    pub fn uses_pext(&self) -> bool {
        !self.portable_decoding && PextGather::available()
    }
}
