//! The canonical record sequence of each block, for tools that choose their own encoding.
//!
//! The IR fixes which records each block holds and in what order; the encoding (widths,
//! abbreviations, where abbreviations are defined) is free. A tool that picks its own
//! encoding (a compressor) reads each block's records here, builds a layout
//! ([`crate::ir::ModuleLayout`], [`crate::ir::BodyLayout`]) naming an abbreviation per record,
//! and writes the module with [`crate::write_with_layouts`].

use super::WriteError;
use super::records::{self, Item, Records, TypeIds};
use crate::codes::block;
use crate::ir::Module;
use pnacl_bitstream::BitPos;

/// A block of a module, named by what it holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BlockRef {
    /// The module block.
    Module,
    /// The types block.
    Types,
    /// The globals block.
    Globals,
    /// The module symbol table.
    ModuleSymtab,
    /// The function block of the function with this index.
    Function(u32),
    /// The constants block of that function.
    Constants(u32),
    /// The symbol table of that function.
    FunctionSymtab(u32),
}

impl BlockRef {
    /// The block id the block is written with.
    pub fn block_id(self) -> u32 {
        match self {
            BlockRef::Module => block::MODULE,
            BlockRef::Types => block::TYPES,
            BlockRef::Globals => block::GLOBALS,
            BlockRef::ModuleSymtab | BlockRef::FunctionSymtab(_) => block::VALUESYMTAB,
            BlockRef::Function(_) => block::FUNCTION,
            BlockRef::Constants(_) => block::CONSTANTS,
        }
    }
}

/// One entry of a block's canonical contents.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlockEntry<'a> {
    /// A record: its code and operands.
    Record {
        /// The record code.
        code: u64,
        /// The operands.
        ops: &'a [u64],
    },
    /// A nested block (the abbreviations block, in the module block, included).
    Block,
}

/// The canonical records of one block, with its nested blocks in their canonical places.
pub struct BlockRecords {
    records: Records,
}

impl BlockRecords {
    /// The entries, in canonical order.
    pub fn entries(&self) -> impl ExactSizeIterator<Item = BlockEntry<'_>> + '_ {
        self.records.items.iter().map(|i| match *i {
            Item::Record { code, start, len } => BlockEntry::Record { code, ops: self.records.ops(start, len) },
            Item::Block(_) => BlockEntry::Block,
        })
    }

    /// The records alone, in order: code and operands.
    pub fn records(&self) -> impl Iterator<Item = (u64, &[u64])> + '_ {
        self.entries().filter_map(|e| match e {
            BlockEntry::Record { code, ops } => Some((code, ops)),
            BlockEntry::Block => None,
        })
    }

    /// Number of records.
    pub fn record_count(&self) -> usize {
        self.records.items.iter().filter(|i| matches!(i, Item::Record { .. })).count()
    }

    /// Number of nested blocks.
    pub fn block_count(&self) -> usize {
        self.records.items.len() - self.record_count()
    }
}

/// Access to the canonical records of a module's blocks.
pub struct Canonical<'m> {
    m: &'m Module,
    ids: TypeIds,
}

impl<'m> Canonical<'m> {
    /// Prepares to list the blocks of `m`.
    pub fn new(m: &'m Module) -> Self {
        Canonical { m, ids: TypeIds::new(m) }
    }

    /// Every block of the module, in file order: the module, types, globals and module
    /// symbol table blocks, then per defined function its function block, constants block
    /// (when it has one) and symbol table (when it has one).
    pub fn blocks(&self) -> Vec<BlockRef> {
        let m = self.m;
        let mut out = vec![BlockRef::Module, BlockRef::Types, BlockRef::Globals];
        if m.symtab.is_some() {
            out.push(BlockRef::ModuleSymtab);
        }
        for f in m.defined_functions() {
            out.push(BlockRef::Function(f));
            let body = m.functions[f as usize].body.as_deref();
            if body.is_some_and(records::has_constants_block) {
                out.push(BlockRef::Constants(f));
            }
            if body.is_some_and(|b| b.symtab.is_some()) {
                out.push(BlockRef::FunctionSymtab(f));
            }
        }
        out
    }

    /// The canonical records of block `b`. The module block's entries include the
    /// abbreviations block, in its canonical place (right after the version record); a
    /// function block's include its constants block when [`Canonical::blocks`] lists one.
    pub fn records(&self, b: BlockRef) -> Result<BlockRecords, WriteError> {
        let m = self.m;
        let fail = |message: String| WriteError { pos: BitPos(0), message };
        let body = |f: u32| {
            m.functions
                .get(f as usize)
                .and_then(|func| func.body.as_deref())
                .ok_or_else(|| fail(format!("@f{f} has no body")))
        };
        let records = match b {
            BlockRef::Module => records::module(m, true),
            BlockRef::Types => records::types(m, &self.ids).map_err(fail)?,
            BlockRef::Globals => records::globals(m),
            BlockRef::ModuleSymtab => records::module_symtab(m),
            BlockRef::Function(f) => {
                let body = body(f)?;
                records::function(m, f, body, &self.ids, records::has_constants_block(body), Records::default())
                    .map_err(fail)?
            }
            BlockRef::Constants(f) => records::constants(body(f)?, &self.ids, Records::default()).map_err(fail)?,
            BlockRef::FunctionSymtab(f) => records::function_symtab(body(f)?, Records::default()),
        };
        Ok(BlockRecords { records })
    }
}
