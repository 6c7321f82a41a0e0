//! Encoding layout: the choices a bitcode file makes that the IR's meaning does not fix.
//!
//! The IR determines which records a module consists of and in what order. What it does not
//! determine is how they become bits: each block's abbreviation-id width, the abbreviations
//! defined (globally in the abbreviations block, or locally in a block) and where, the
//! abbreviation each record uses, and where nested blocks sit among a block's records. A
//! layout records those choices, so that writing an IR that was read from a file (or
//! assembled from text) reproduces it bit for bit.

use pnacl_bitstream::Abbrev;
use std::sync::Arc;

/// Layout item: the next nested block (in the canonical order of the parent).
pub const ITEM_BLOCK: u16 = 1;
/// Layout item: the next local abbreviation definition.
pub const ITEM_ABBREV: u16 = 2;
/// Layout item: an unabbreviated record. Values 4 and above are records written with that
/// abbreviation id.
pub const ITEM_UNABBREVIATED: u16 = 3;

/// The layout of one block instance.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BlockLayout {
    /// Width of abbreviation ids in the block.
    pub abbrev_width: u32,
    /// The block's contents in order: [`ITEM_BLOCK`], [`ITEM_ABBREV`], or a record's
    /// abbreviation id (3 for unabbreviated, 4 and above for an abbreviation).
    pub items: Vec<u16>,
    /// Local abbreviations, in definition order.
    pub abbrevs: Vec<Arc<Abbrev>>,
}

impl BlockLayout {
    /// A layout with the given width and nothing recorded yet.
    pub fn new(abbrev_width: u32) -> Self {
        BlockLayout { abbrev_width, items: Vec::new(), abbrevs: Vec::new() }
    }

    /// Number of record items.
    pub fn record_count(&self) -> usize {
        self.items.iter().filter(|&&i| i >= ITEM_UNABBREVIATED).count()
    }
}

/// One record of the abbreviations (BLOCKINFO) block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BlockinfoItem {
    /// `SETBID`: later abbreviations are for this block id. The record is written with
    /// `abbrev_id` (always 3 in practice).
    SetBid {
        /// The block id selected.
        block_id: u32,
        /// Abbreviation id of the record.
        abbrev_id: u16,
    },
    /// A global abbreviation for the selected block id.
    Abbrev(Arc<Abbrev>),
}

/// The layout of the abbreviations block.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BlockinfoLayout {
    /// Width of abbreviation ids in the block.
    pub abbrev_width: u32,
    /// Its records in order.
    pub items: Vec<BlockinfoItem>,
}

impl BlockinfoLayout {
    /// The global abbreviations it defines for `block_id`, in order.
    pub fn abbrevs_for(&self, block_id: u32) -> Vec<Arc<Abbrev>> {
        let mut current = None;
        let mut out = Vec::new();
        for item in &self.items {
            match item {
                BlockinfoItem::SetBid { block_id: b, .. } => current = Some(*b),
                BlockinfoItem::Abbrev(a) if current == Some(block_id) => out.push(a.clone()),
                BlockinfoItem::Abbrev(_) => {}
            }
        }
        out
    }
}

/// Module-level layout. Nested blocks appear in the module block's items in the canonical
/// order: abbreviations, types, globals, symbol table, then function blocks.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ModuleLayout {
    /// The module block itself.
    pub module: BlockLayout,
    /// The abbreviations block, if the file has one.
    pub blockinfo: Option<BlockinfoLayout>,
    /// The types block.
    pub types: BlockLayout,
    /// The globals block.
    pub globals: BlockLayout,
    /// The module symbol table.
    pub symtab: Option<BlockLayout>,
}

/// Layout of a function body. Nested blocks appear in the function block's items in the
/// canonical order: constants, then symbol table.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BodyLayout {
    /// The function block itself.
    pub function: BlockLayout,
    /// The constants block, if the body has one (it may be empty).
    pub constants: Option<BlockLayout>,
    /// The function's symbol table block, if present.
    pub symtab: Option<BlockLayout>,
}
