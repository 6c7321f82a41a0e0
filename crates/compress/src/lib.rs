//! Smaller PNaCl bitcode, still plain PNaCl bitcode.
//!
//! The bitcode format compresses itself: each record is written with an abbreviation (a
//! list of operand encodings) chosen by the writer and defined in the file, so a reader
//! needs nothing beyond what it already does. `pnacl-finalize` writes a fixed standard set;
//! Google's `pnacl-compress` hill-climbed better ones. This crate searches for them
//! directly, on the whole module in memory, pricing every choice in exact bits:
//!
//! - [`census`]: every record of the module by block kind, duplicates counted once;
//! - [`form`], [`slot`], [`cost`]: abbreviation shapes, the value statistics of an
//!   operand, and the exact bits of every encoding;
//! - [`search`] and [`split`]: the greedy top-down splitting of each kind's records into
//!   abbreviations, with the abbreviation-id width in the bill;
//! - [`refine`] and [`select`]: refitting abbreviations to the records that chose them,
//!   and each record's cheapest abbreviation;
//! - [`plan`] and [`layout`]: the result as layouts the `pnacl-bitcode` writer follows;
//! - [`mod@measure`]: per-block bits of a file, for reports.
//!
//! The output is an ordinary version-2 pexe with the input's header and the same IR; only
//! abbreviation definitions, abbreviation ids and widths change.
//!
//! # Why every PNaCl reader accepts the output
//!
//! Chrome translated pexes with pnacl-llc or Subzero, both of which read bitcode with
//! pnacl-llvm's `NaClBitstreamReader`; the output keeps to what that reader, the reference
//! (`pnacl-bitcode-files.txt`) and upstream LLVM's reader all accept, and to the layout
//! Google's own tools wrote:
//!
//! - operand encodings: literals, `fixed(1..=32)`, `vbr(2..=32)`, `char6`, and an array as
//!   the second-to-last operand with a scalar, non-literal element
//!   ([`slot::MAX_WIDTH`], [`form`]). Never `fixed(0)`/`vbr(0)` (read as literal 0 by
//!   pnacl-llvm, asserted on by older readers), `vbr(1)` (no payload bits), blobs, literal
//!   array elements or a leading array (PNaCl-only extensions);
//! - every abbreviation starts with its record code as a literal, as pnacl-finalize's do;
//! - abbreviation-id widths satisfy the reference's `2**B >= U + 4` with every
//!   abbreviation in scope counted, and `B <= 16` ([`search::MAX_ABBREVS`]);
//! - the module block's abbreviations are local, defined at its start; every other block
//!   kind's are global, in one abbreviations block placed where the input had it (or right
//!   after the version record, where pnacl-finalize puts it), with one `SETBID` section
//!   per block id. This is the placement Google's `pnacl-compress` wrote (see
//!   [`plan`]);
//! - records, their order, and where nested blocks sit among them are unchanged.

pub mod census;
pub mod cost;
mod effort;
pub mod form;
pub mod layout;
pub mod measure;
pub mod plan;
pub mod refine;
pub mod search;
pub mod select;
pub mod slot;
pub mod split;

pub use effort::{Effort, Params};
pub use measure::{BlockBits, measure};
pub use slot::Encodings;

use census::Census;
use plan::KindPlan;
use pnacl_bitcode::{Module, NoListener, ReadError, ReadOptions, WriteError};
use rayon::prelude::*;
use std::fmt;

/// Bits the abbreviations block itself takes, beyond its sections: its enter record and
/// length word, its end, and the 32-bit alignment after each (on average). Global
/// abbreviations must save more than this in all to be worth it.
const BLOCKINFO_OVERHEAD: u64 = 2 + 8 + 4 + 16 + 32 + 2 + 16;

/// What the compressor did with one kind of block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KindSummary {
    /// The block id.
    pub block_id: u32,
    /// Number of blocks of the kind.
    pub blocks: u64,
    /// Number of records in them.
    pub records: u64,
    /// Number of distinct records.
    pub distinct: usize,
    /// Number of abbreviations chosen.
    pub abbrevs: usize,
    /// True if they are defined in the block (the module block), false if in the
    /// abbreviations block.
    pub local: bool,
    /// The blocks' abbreviation-id width.
    pub width: u32,
}

/// A compressed module.
#[derive(Clone, Debug)]
pub struct Compressed {
    /// The file.
    pub bytes: Vec<u8>,
    /// Per kind of block, what was chosen.
    pub kinds: Vec<KindSummary>,
}

/// Why a module could not be compressed.
#[derive(Debug)]
pub enum CompressError {
    /// The writer refused the module (it is not one the reader could have produced).
    Write(WriteError),
    /// The compressed file does not read back (a bug).
    ReadBack(ReadError),
    /// The compressed file reads back to a different module (a bug).
    Changed,
}

impl fmt::Display for CompressError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CompressError::Write(e) => write!(f, "{e}"),
            CompressError::ReadBack(e) => write!(f, "internal error: the compressed file does not read back: {e}"),
            CompressError::Changed => {
                f.write_str("internal error: the compressed file reads back to a different module")
            }
        }
    }
}

impl std::error::Error for CompressError {}

impl From<WriteError> for CompressError {
    fn from(e: WriteError) -> Self {
        CompressError::Write(e)
    }
}

/// Compresses a module: chooses abbreviations for every kind of block and writes it. The
/// result is read back and checked to be the same module before it is returned. The same
/// module and effort always give the same bytes.
pub fn compress(m: &Module, effort: Effort) -> Result<Compressed, CompressError> {
    compress_with(m, &effort.params())
}

/// [`compress`] with the search's knobs set one by one (for measuring what each technique
/// is worth).
pub fn compress_with(m: &Module, params: &Params) -> Result<Compressed, CompressError> {
    let census = Census::take(m)?;
    let mut plans: Vec<KindPlan> = census.kinds.par_iter().map(|k| KindPlan::make(k, params)).collect();
    // Global abbreviations need the abbreviations block: drop them all if together they
    // don't pay for it.
    let global_savings: u64 =
        plans.iter().filter(|p| !p.local && !p.abbrevs.is_empty()).map(|p| p.plain_bits.saturating_sub(p.bits)).sum();
    if global_savings <= BLOCKINFO_OVERHEAD {
        for (p, k) in plans.iter_mut().zip(&census.kinds) {
            if !p.local {
                *p = KindPlan::plain(k);
            }
        }
    }
    let (module_layout, bodies) = layout::build(m, &census, &plans);
    let bytes = pnacl_bitcode::write_with_layouts(m, &module_layout, &bodies)?;
    let opts = ReadOptions { defer_abi: true, no_layout: true, ..ReadOptions::default() };
    let back = pnacl_bitcode::read_with(&bytes, opts, &mut NoListener).map_err(CompressError::ReadBack)?;
    if !back.same_contents(m) {
        return Err(CompressError::Changed);
    }
    let kinds = census
        .kinds
        .iter()
        .zip(&plans)
        .map(|(k, p)| KindSummary {
            block_id: k.block_id,
            blocks: k.instances,
            records: k.table.occurrences(),
            distinct: k.table.len(),
            abbrevs: p.abbrevs.len(),
            local: p.local,
            width: p.width,
        })
        .collect();
    Ok(Compressed { bytes, kinds })
}
