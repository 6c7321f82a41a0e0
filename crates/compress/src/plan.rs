//! A kind's plan: its abbreviations, where they are defined, and each record's choice.

use crate::census::Kind;
use crate::cost;
use crate::effort::Params;
use crate::form::Form;
use crate::refine::refine;
use crate::search::{bill, definition_width, search};
use crate::select::Selector;
use pnacl_bitcode::codes::block;
use pnacl_bitcode::ir::ITEM_UNABBREVIATED;
use pnacl_bitstream::{Abbrev, FIRST_APPLICATION_ABBREV};
use std::sync::Arc;

/// What the compressor does with one kind of block.
pub struct KindPlan {
    /// The block id.
    pub block_id: u32,
    /// True if the abbreviations are defined in the block itself (the module block), false
    /// if in the abbreviations block.
    pub local: bool,
    /// The abbreviations, in id order (the first is id 4).
    pub abbrevs: Vec<Arc<Abbrev>>,
    /// The abbreviation id of each distinct record of the kind's census table.
    pub choice: Vec<u16>,
    /// The blocks' abbreviation-id width.
    pub width: u32,
    /// Bits the plan expects the kind's blocks to take (records, definitions, ids).
    pub bits: u64,
    /// Bits they would take with no abbreviations.
    pub plain_bits: u64,
}

/// True if a kind's abbreviations are defined in its block rather than in the
/// abbreviations block.
///
/// This is exactly where Google's `pnacl-compress` put them, so every reader Chrome ever
/// shipped has read files laid out so: the module block's own abbreviations locally (at its
/// start; the abbreviations block comes after the module block is entered, too late for
/// it), every other kind's globally. Local abbreviations elsewhere are legal, but some
/// readers take special paths with them (pnacl-llvm reads the globals block twice, skipping
/// definitions the second time), and globals cost only a `SETBID` record more.
fn is_local(kind: &Kind) -> bool {
    kind.block_id == block::MODULE
}

impl KindPlan {
    /// Searches and refines the abbreviations of a kind.
    pub fn make(kind: &Kind, params: &Params) -> KindPlan {
        let local = is_local(kind);
        let found = search(kind, local, params);
        let def_width = definition_width(local, found.forms.len() + 1);
        let (forms, bits) =
            refine(&kind.table, found.forms, params.refine_rounds, def_width, params.encodings, |n, b| {
                bill(kind, local, n, b)
            });
        KindPlan::with_forms(kind, local, forms, bits, found.plain_bits)
    }

    /// The plan that uses no abbreviations for the kind.
    pub fn plain(kind: &Kind) -> KindPlan {
        let bits = bill(
            kind,
            kind.instances == 1,
            0,
            kind.table.iter().map(|(_, c, o, n)| n * cost::unabbreviated(c, o)).sum(),
        );
        KindPlan::with_forms(kind, kind.instances == 1, Vec::new(), bits, bits)
    }

    fn with_forms(kind: &Kind, local: bool, mut forms: Vec<Form>, bits: u64, plain_bits: u64) -> KindPlan {
        // Ids in a stable, readable order: by code, shape and encodings.
        forms.sort_by_cached_key(Form::order_key);
        let selector = Selector::new(&forms);
        let choice = kind
            .table
            .iter()
            .map(|(_, code, ops, _)| match selector.pick(code, ops).form {
                Some(i) => (FIRST_APPLICATION_ABBREV + i) as u16,
                None => ITEM_UNABBREVIATED,
            })
            .collect();
        KindPlan {
            block_id: kind.block_id,
            local,
            abbrevs: forms.iter().map(|f| Arc::new(f.abbrev())).collect(),
            choice,
            width: cost::id_width(forms.len()),
            bits,
            plain_bits,
        }
    }
}
