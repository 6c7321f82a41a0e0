//! Writing a module as PNaCl bitcode.
//!
//! The writer turns the IR into each block's canonical record sequence
//! ([`records`]) and then into bits, choosing abbreviations in one of three ways
//! ([`Abbrevs`]): the layout the module was read (or assembled) with, the standard set
//! `pnacl-finalize` writes, or none at all. A tool that chooses its own encoding reads the
//! canonical records of each block ([`Canonical`]) and writes with layouts it built
//! ([`write_with_layouts`]).

mod canonical;
mod records;
mod standard;

pub use canonical::{BlockEntry, BlockRecords, BlockRef, Canonical};

use crate::codes::block;
use crate::ir::{
    BlockLayout, BlockinfoItem, BlockinfoLayout, BodyLayout, ITEM_ABBREV, ITEM_BLOCK, Module, ModuleLayout,
};
use pnacl_bitstream::{BitPos, StreamWriter, UNABBREV_RECORD};
use records::{Item, Nested, Records, TypeIds};
use standard::Standard;
use std::fmt;

/// How the writer chooses abbreviations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Abbrevs {
    /// Reproduce the module's recorded layout (as read or assembled); parts without one
    /// use the standard set.
    #[default]
    Keep,
    /// The standard abbreviations `pnacl-finalize` writes, chosen as it chooses them.
    Standard,
    /// No abbreviations: every record unabbreviated, every block 2-bit abbreviation ids.
    None,
}

/// A module the writer could not encode.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WriteError {
    /// Where in the output the problem arose.
    pub pos: BitPos,
    /// What went wrong.
    pub message: String,
}

impl fmt::Display for WriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "can't write bitcode (at {}): {}", self.pos, self.message)
    }
}

impl std::error::Error for WriteError {}

/// Writes `m` as PNaCl bitcode.
pub fn write(m: &Module, abbrevs: Abbrevs) -> Result<Vec<u8>, WriteError> {
    write_traced(m, abbrevs, &mut Vec::new())
}

/// Writes `m` as PNaCl bitcode, appending to `trace` the position of every entry written
/// (block enter, abbreviation definition, record, block exit), in order. Tools that build a
/// module from another source use it to map reader positions back to that source.
pub fn write_traced(m: &Module, abbrevs: Abbrevs, trace: &mut Vec<BitPos>) -> Result<Vec<u8>, WriteError> {
    emit(m, abbrevs, None, trace)
}

/// Writes `m` as PNaCl bitcode with the given layouts instead of the ones recorded in the
/// module: `module` for the module-level blocks, `bodies[f]` for the body of function `f`
/// (a body without one is written with the standard abbreviations). Each layout's record
/// items name the abbreviation of the block's records in canonical order ([`Canonical`]),
/// and its block items say where the nested blocks go; a body layout's `constants` decides
/// whether the function has a constants block.
pub fn write_with_layouts(
    m: &Module,
    module: &ModuleLayout,
    bodies: &[Option<BodyLayout>],
) -> Result<Vec<u8>, WriteError> {
    emit(m, Abbrevs::Keep, Some(Given { module, bodies }), &mut Vec::new())
}

fn emit(m: &Module, mode: Abbrevs, given: Option<Given<'_>>, trace: &mut Vec<BitPos>) -> Result<Vec<u8>, WriteError> {
    let mut sw = StreamWriter::new(&m.header.raw, 2);
    // A header with the "align bitcode records" flag promises byte-aligned records.
    sw.set_align_records(m.header.fields.iter().any(|f| f.id == pnacl_bitstream::FIELD_ALIGN_RECORDS));
    let std = Standard::new(m.types.len());
    let mut e = Emitter { m, mode, given, sw, ids: TypeIds::new(m), std: &std, trace, spare: Spare::default() };
    e.module()?;
    e.sw.finish().map_err(|err| WriteError { pos: err.pos, message: err.message.clone() })
}

/// Layouts supplied by the caller, in place of the module's own.
#[derive(Clone, Copy)]
struct Given<'a> {
    module: &'a ModuleLayout,
    bodies: &'a [Option<BodyLayout>],
}

struct Emitter<'m, 't> {
    m: &'m Module,
    mode: Abbrevs,
    given: Option<Given<'m>>,
    sw: StreamWriter,
    ids: TypeIds,
    std: &'t Standard,
    trace: &'t mut Vec<BitPos>,
    /// Record buffers reused from one function to the next.
    spare: Spare,
}

/// Record buffers for the blocks of a function: the function block's, and one for the
/// block nested in it, reused from one function to the next rather than allocated and
/// grown for each.
#[derive(Default)]
struct Spare([Option<Records>; 2]);

impl Spare {
    fn take(&mut self, depth: usize) -> Records {
        self.0[depth].take().unwrap_or_default()
    }

    fn give(&mut self, depth: usize, r: Records) {
        self.0[depth] = Some(r);
    }
}

impl<'m> Emitter<'m, '_> {
    fn fail(&self, message: impl Into<String>) -> WriteError {
        WriteError { pos: self.sw.pos(), message: message.into() }
    }

    /// The module-level layout to follow, if any: the given one, else the recorded one in
    /// `Keep` mode.
    fn module_layout(&self) -> Option<&'m ModuleLayout> {
        match (self.given, self.mode) {
            (Some(g), _) => Some(g.module),
            (None, Abbrevs::Keep) => self.m.layout.as_deref(),
            _ => None,
        }
    }

    /// The layout to follow for the body of `f`, if any.
    fn body_layout(&self, f: u32) -> Option<&'m BodyLayout> {
        match (self.given, self.mode) {
            (Some(g), _) => g.bodies.get(f as usize).and_then(Option::as_ref),
            (None, Abbrevs::Keep) => self.m.functions[f as usize].body.as_ref().and_then(|b| b.layout.as_deref()),
            _ => None,
        }
    }

    /// The layout the mode asks for, given the recorded one (if any).
    fn layout<'a>(
        &self,
        block_id: u32,
        kept: Option<&'a BlockLayout>,
        recs: &Records,
    ) -> std::borrow::Cow<'a, BlockLayout> {
        match (self.mode, kept) {
            (Abbrevs::Keep, Some(l)) => std::borrow::Cow::Borrowed(l),
            (Abbrevs::None, _) => std::borrow::Cow::Owned(BlockLayout {
                abbrev_width: 2,
                items: recs
                    .items
                    .iter()
                    .map(|i| match i {
                        Item::Record { .. } => UNABBREV_RECORD as u16,
                        Item::Block(_) => ITEM_BLOCK,
                    })
                    .collect(),
                abbrevs: Vec::new(),
            }),
            _ => {
                let abbrevs = self.std.local_abbrevs(block_id);
                let mut items = vec![ITEM_ABBREV; abbrevs.len()];
                items.extend(recs.items.iter().map(|i| match *i {
                    Item::Record { code, start, len } => self.std.choose(block_id, code, recs.ops(start, len)) as u16,
                    Item::Block(_) => ITEM_BLOCK,
                }));
                std::borrow::Cow::Owned(BlockLayout { abbrev_width: self.std.width(block_id), items, abbrevs })
            }
        }
    }

    /// Emits a block: its records and nested blocks interleaved as the layout says.
    fn block(
        &mut self,
        block_id: u32,
        recs: &Records,
        layout: &BlockLayout,
        func: Option<u32>,
    ) -> Result<(), WriteError> {
        self.trace.push(self.sw.pos());
        self.sw.enter_block(block_id, layout.abbrev_width).map_err(|e| self.fail(e.message.clone()))?;
        let mut records = recs.items.iter().filter_map(|i| match *i {
            Item::Record { code, start, len } => Some((code, start, len)),
            Item::Block(_) => None,
        });
        let mut blocks = recs.items.iter().filter_map(|i| match *i {
            Item::Block(n) => Some(n),
            Item::Record { .. } => None,
        });
        let mut abbrevs = layout.abbrevs.iter();
        for &item in &layout.items {
            match item {
                ITEM_ABBREV => {
                    let a =
                        abbrevs.next().ok_or_else(|| self.fail("layout names more local abbreviations than it has"))?;
                    self.trace.push(self.sw.pos());
                    self.sw.define_abbrev(a.clone()).map_err(|e| self.fail(e.message.clone()))?;
                }
                ITEM_BLOCK => {
                    let n = blocks.next().ok_or_else(|| self.fail("layout has more nested blocks than the module"))?;
                    self.nested(n, func)?;
                }
                id => {
                    let (code, start, len) =
                        records.next().ok_or_else(|| self.fail("layout has more records than the module"))?;
                    self.trace.push(self.sw.pos());
                    self.sw
                        .record(u32::from(id), code, recs.ops(start, len), None)
                        .map_err(|e| self.fail(format!("block {block_id}: {}", e.message)))?;
                }
            }
        }
        // A layout shorter than the module (an edited module) leaves records and blocks over:
        // they are written unabbreviated.
        for (code, start, len) in records {
            self.trace.push(self.sw.pos());
            self.sw
                .record(UNABBREV_RECORD, code, recs.ops(start, len), None)
                .map_err(|e| self.fail(e.message.clone()))?;
        }
        for n in blocks {
            self.nested(n, func)?;
        }
        self.trace.push(self.sw.pos());
        self.sw.exit_block().map_err(|e| self.fail(e.message.clone()))
    }

    fn module(&mut self) -> Result<(), WriteError> {
        let kept = self.module_layout();
        let with_blockinfo = match self.mode {
            Abbrevs::Keep => kept.is_none_or(|l| l.blockinfo.is_some()),
            Abbrevs::Standard => true,
            Abbrevs::None => false,
        };
        let recs = records::module(self.m, with_blockinfo);
        let layout = self.layout(block::MODULE, kept.map(|l| &l.module), &recs);
        self.block(block::MODULE, &recs, &layout, None)
    }

    fn nested(&mut self, n: Nested, func: Option<u32>) -> Result<(), WriteError> {
        let kept = self.module_layout();
        match n {
            Nested::Blockinfo => {
                let layout: BlockinfoLayout = match kept.and_then(|l| l.blockinfo.as_ref()) {
                    Some(b) => b.clone(),
                    None => self.std.blockinfo().clone(),
                };
                self.blockinfo(&layout)
            }
            Nested::Types => {
                let recs = records::types(self.m, &self.ids).map_err(|m| self.fail(m))?;
                let layout = self.layout(block::TYPES, kept.map(|l| &l.types), &recs);
                self.block(block::TYPES, &recs, &layout, None)
            }
            Nested::Globals => {
                let recs = records::globals(self.m);
                let layout = self.layout(block::GLOBALS, kept.map(|l| &l.globals), &recs);
                self.block(block::GLOBALS, &recs, &layout, None)
            }
            Nested::ModuleSymtab => {
                let recs = records::module_symtab(self.m);
                let layout = self.layout(block::VALUESYMTAB, kept.and_then(|l| l.symtab.as_ref()), &recs);
                self.block(block::VALUESYMTAB, &recs, &layout, None)
            }
            Nested::Body(f) => {
                let body = self.m.functions[f as usize]
                    .body
                    .as_ref()
                    .ok_or_else(|| self.fail(format!("@f{f} has no body")))?;
                let body_layout = self.body_layout(f);
                // A given layout says whether there is a constants block; otherwise the
                // module's recorded one does, whatever the mode.
                let has_constants = match (self.given, body_layout) {
                    (Some(_), Some(l)) => l.constants.is_some(),
                    _ => records::has_constants_block(body),
                };
                let recs = records::function(self.m, f, body, &self.ids, has_constants, self.spare.take(0))
                    .map_err(|m| self.fail(m))?;
                self.function_block(block::FUNCTION, 0, recs, body_layout.map(|l| &l.function), f)
            }
            Nested::Constants => {
                let f = func.expect("constants are inside a function");
                let body = self.m.functions[f as usize].body.as_ref().expect("checked");
                let recs = records::constants(body, &self.ids, self.spare.take(1)).map_err(|m| self.fail(m))?;
                let kept = self.body_layout(f).and_then(|l| l.constants.as_ref());
                self.function_block(block::CONSTANTS, 1, recs, kept, f)
            }
            Nested::FunctionSymtab => {
                let f = func.expect("a function symbol table is inside a function");
                let body = self.m.functions[f as usize].body.as_ref().expect("checked");
                let recs = records::function_symtab(body, self.spare.take(1));
                let kept = self.body_layout(f).and_then(|l| l.symtab.as_ref());
                self.function_block(block::VALUESYMTAB, 1, recs, kept, f)
            }
        }
    }

    /// Emits block `block_id` of function `f`, at `depth` in it, from `recs` (then kept
    /// for the next function's block at that depth) and its recorded layout `kept`.
    fn function_block(
        &mut self,
        block_id: u32,
        depth: usize,
        recs: Records,
        kept: Option<&BlockLayout>,
        f: u32,
    ) -> Result<(), WriteError> {
        let layout = self.layout(block_id, kept, &recs);
        let done = self.block(block_id, &recs, &layout, Some(f));
        self.spare.give(depth, recs);
        done
    }

    fn blockinfo(&mut self, layout: &BlockinfoLayout) -> Result<(), WriteError> {
        self.trace.push(self.sw.pos());
        self.sw.enter_block(block::BLOCKINFO, layout.abbrev_width).map_err(|e| self.fail(e.message.clone()))?;
        for item in &layout.items {
            self.trace.push(self.sw.pos());
            match item {
                BlockinfoItem::SetBid { block_id, abbrev_id } => self
                    .sw
                    .record(
                        u32::from(*abbrev_id),
                        pnacl_bitstream::BLOCKINFO_CODE_SETBID,
                        &[u64::from(*block_id)],
                        None,
                    )
                    .map_err(|e| self.fail(e.message.clone()))?,
                BlockinfoItem::Abbrev(a) => {
                    self.sw.define_abbrev(a.clone()).map_err(|e| self.fail(e.message.clone()))?;
                }
            }
        }
        self.trace.push(self.sw.pos());
        self.sw.exit_block().map_err(|e| self.fail(e.message.clone()))
    }
}
