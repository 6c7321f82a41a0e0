//! Which block a record is in, for the error about it.

use crate::codes::block;
use crate::error::ReadError;
use pnacl_bitstream::Record;

/// A block being read, for error messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BlockCtx {
    Module,
    Abbreviations,
    Types,
    Globals,
    ModuleSymtab,
    Function(u32),
    Constants(u32),
    FunctionSymtab(u32),
}

impl BlockCtx {
    /// The id of the block.
    pub fn block_id(self) -> u32 {
        match self {
            BlockCtx::Module => block::MODULE,
            BlockCtx::Abbreviations => block::BLOCKINFO,
            BlockCtx::Types => block::TYPES,
            BlockCtx::Globals => block::GLOBALS,
            BlockCtx::ModuleSymtab | BlockCtx::FunctionSymtab(_) => block::VALUESYMTAB,
            BlockCtx::Function(_) => block::FUNCTION,
            BlockCtx::Constants(_) => block::CONSTANTS,
        }
    }
}

impl std::fmt::Display for BlockCtx {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BlockCtx::Module => f.write_str("module block"),
            BlockCtx::Abbreviations => f.write_str("abbreviations block"),
            BlockCtx::Types => f.write_str("types block"),
            BlockCtx::Globals => f.write_str("globals block"),
            BlockCtx::ModuleSymtab => f.write_str("module symbol table"),
            BlockCtx::Function(n) => write!(f, "function block of @f{n}"),
            BlockCtx::Constants(n) => write!(f, "constants block of @f{n}"),
            BlockCtx::FunctionSymtab(n) => write!(f, "symbol table of @f{n}"),
        }
    }
}

/// Attaches the record at fault, and the block it is in, to an error that has none.
pub(crate) fn attach_record(mut e: ReadError, r: &Record<'_, '_>, block: Option<BlockCtx>) -> ReadError {
    if e.record.is_none() {
        let mut s = format!("{}: <{}", r.abbrev_id, r.code);
        for v in r.ops.iter().take(16) {
            s.push_str(&format!(", {v}"));
        }
        if r.ops.len() > 16 {
            s.push_str(", ...");
        }
        s.push('>');
        e.record = Some(s);
    }
    if e.block.is_none() {
        e.block = block.map(|b| b.to_string());
    }
    e
}
