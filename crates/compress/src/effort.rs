//! How hard the search tries.

use crate::slot::Encodings;

/// How hard the compressor searches: more effort finds slightly smaller files, more slowly.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Effort {
    /// No cuts on frequent values, at most 60 abbreviations per kind, no refinement.
    Fast,
    /// The balance: well under a second per megabyte.
    #[default]
    Default,
    /// Everything the search knows, whatever it costs.
    Max,
}

/// The knobs an effort level sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Params {
    /// Frequent values per operand tried as literals when cutting a set of records (at
    /// most [`crate::split::MAX_VALUES`]).
    pub literal_values: usize,
    /// On how many operand slots of a record cuts are tried (the costliest ones).
    pub cut_slots: usize,
    /// Most abbreviations per kind of block (at most [`crate::search::MAX_ABBREVS`]).
    pub max_abbrevs: usize,
    /// Rounds of refitting abbreviations to the records that chose them.
    pub refine_rounds: usize,
    /// Fewest records of one code and length that get an abbreviation operand per record
    /// operand; rarer lengths share an array abbreviation.
    pub min_fixed: u64,
    /// The operand encodings allowed.
    pub encodings: Encodings,
    /// Whether array abbreviations are made (for records of varying length).
    pub arrays: bool,
    /// Whether the number of abbreviations is chosen with the abbreviation-id width in the
    /// bill (otherwise every abbreviation that saves record bits is kept).
    pub width_aware: bool,
}

/// Every technique on; the levels differ in how far each goes.
const FULL: Params = Params {
    literal_values: 0,
    cut_slots: 0,
    max_abbrevs: 0,
    refine_rounds: 0,
    min_fixed: 0,
    encodings: Encodings { fitted_widths: true, char6: true },
    arrays: true,
    width_aware: true,
};

impl Effort {
    /// The knobs of this level.
    pub fn params(self) -> Params {
        match self {
            Effort::Fast => {
                Params { literal_values: 0, cut_slots: 3, max_abbrevs: 60, refine_rounds: 0, min_fixed: 32, ..FULL }
            }
            Effort::Default => {
                Params { literal_values: 3, cut_slots: 5, max_abbrevs: 124, refine_rounds: 2, min_fixed: 16, ..FULL }
            }
            Effort::Max => {
                Params { literal_values: 6, cut_slots: 16, max_abbrevs: 508, refine_rounds: 12, min_fixed: 8, ..FULL }
            }
        }
    }
}
