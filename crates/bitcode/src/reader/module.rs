//! The top level, the module block, and the module-level blocks (abbreviations, types,
//! globals, symbol table).

use super::state::{BlockCtx, Stage, State};
use super::{Item, Listener, ReadOptions};
use crate::abi;
use crate::codes::{block, globals as gc, module as mc, symtab as sc, types as tc};
use crate::error::{ReadError, Rule};
use crate::ir::{
    Align, BlockLayout, BlockinfoItem, BlockinfoLayout, Function, Global, ITEM_ABBREV, ITEM_BLOCK, Init, Linkage,
    Module, ModulePositions, Signature, Symbol, Ty, TypeDef, ValueId,
};
use pnacl_bitstream::{
    Abbrev, AbbrevTarget, BitPos, BlockInfo, Cursor, Enter, Entry, Gather, Op, PexeHeader, Record, Step,
};
use std::collections::HashSet;

/// Largest abbreviation-id width PNaCl allows.
pub const MAX_PNACL_ABBREV_WIDTH: u32 = 16;
/// Largest alignment exponent (alignment 2**29, encoded as 30).
pub const MAX_ALIGN_ENCODING: u64 = 30;

pub(crate) struct Reader<'a, 'l, L: Listener, G: Gather> {
    pub c: Cursor<'a, G>,
    pub st: State,
    pub l: &'l mut L,
    /// Set when function blocks are to be read later, in parallel.
    pub deferred: Option<Deferred>,
}

pub(super) fn read_file<L: Listener, G: Gather>(
    bytes: &[u8],
    header: PexeHeader,
    opts: ReadOptions,
    listener: &mut L,
) -> Result<Module, ReadError> {
    let start = BitPos(header.raw.len() as u64 * 8);
    let c = Cursor::<G>::with_gather(bytes, start, 2)?;
    let m =
        Module { header, positions: opts.positions.then(|| Box::new(ModulePositions::default())), ..Module::default() };
    let mut r = Reader { c, st: State::new(opts, m), l: listener, deferred: None };
    r.top_level()?;
    let mut m = r.st.m;
    m.layout = r.st.layout.map(Box::new);
    Ok(m)
}

/// Function blocks left for [`read_parallel_file`]: the blockinfo they see, and each
/// block's function and entry.
pub(crate) struct Deferred {
    blockinfo: Option<BlockInfo>,
    blocks: Vec<(u32, Enter)>,
}

/// Reads the module sequentially but its function blocks in parallel (each block is
/// independent once the module-level blocks before it are read). The error reported is the
/// first in file order, as a sequential read would report it.
pub(super) fn read_parallel_file<G: Gather>(
    bytes: &[u8],
    header: PexeHeader,
    opts: ReadOptions,
) -> Result<Module, ReadError> {
    use rayon::prelude::*;
    let start = BitPos(header.raw.len() as u64 * 8);
    let c = Cursor::<G>::with_gather(bytes, start, 2)?;
    let m =
        Module { header, positions: opts.positions.then(|| Box::new(ModulePositions::default())), ..Module::default() };
    let mut listener = super::NoListener;
    let deferred = Deferred { blockinfo: None, blocks: Vec::new() };
    let mut r = Reader { c, st: State::new(opts, m), l: &mut listener, deferred: Some(deferred) };
    let top = r.top_level();
    let Deferred { blockinfo, blocks } = r.deferred.take().expect("set above");
    let env = super::function::BodyEnv {
        m: &r.st.m,
        intrinsics: &r.st.intrinsics,
        opts,
        record_layout: r.st.layout.is_some(),
    };
    let blockinfo = blockinfo.unwrap_or_default();
    let bodies: Vec<Result<Box<crate::ir::FunctionBody>, ReadError>> = blocks
        .par_iter()
        .map_init(super::state::Scratch::default, |scratch, (func, enter)| {
            let mut c = Cursor::<G>::in_block_with_gather(bytes, enter, blockinfo.clone())?;
            super::function::read_body(&mut c, &env, *func, enter, scratch, &mut super::NoListener)
        })
        .collect();
    // Every deferred block comes before the point where the module scan stopped, so a
    // sequential read meets an error inside one of them first.
    for (body, (func, _)) in bodies.into_iter().zip(&blocks) {
        r.st.m.functions[*func as usize].body = Some(body?);
    }
    top?;
    let mut m = r.st.m;
    m.layout = r.st.layout.map(Box::new);
    Ok(m)
}

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

impl<L: Listener, G: Gather> Reader<'_, '_, L, G> {
    /// Checks a block's abbreviation-id width after entering it.
    pub(crate) fn check_width(&self, e: &Enter) -> Result<(), ReadError> {
        check_width(&self.c, e)
    }

    /// Handles a local abbreviation definition in the current block.
    pub(crate) fn local_abbrev(
        &mut self,
        layout: &mut Option<BlockLayout>,
        pos: BitPos,
        abbrev: std::sync::Arc<Abbrev>,
        target: AbbrevTarget,
    ) -> Result<(), ReadError> {
        check_local_abbrev(&self.c, layout, pos, &abbrev)?;
        if L::ACTIVE {
            let v = self.st.view(self.c.num_global_abbrevs(), self.c.block_id());
            self.l.abbrev(&v, pos, &abbrev, target);
        }
        Ok(())
    }

    pub(crate) fn listen_enter(&mut self, e: &Enter) {
        if !L::ACTIVE {
            return;
        }
        let v = self.st.view(self.c.num_global_abbrevs(), self.c.block_id());
        self.l.enter(&v, e);
    }

    pub(crate) fn listen_exit(&mut self, pos: BitPos) {
        if !L::ACTIVE {
            return;
        }
        let v = self.st.view(self.c.num_global_abbrevs(), self.c.block_id());
        self.l.exit(&v, pos);
    }

    fn top_level(&mut self) -> Result<(), ReadError> {
        let mut blocks = 0;
        // Where the last module block ended (its END_BLOCK), for the count error.
        let mut last_exit = None;
        loop {
            match self.c.step()? {
                Step::End => {
                    let pos = last_exit.unwrap_or_else(|| self.c.last_pos());
                    if blocks != 1 {
                        return Err(self.st.err(
                            pos,
                            Rule::TopLevel,
                            format!("Expected 1 top level block in bitcode: Found:{blocks}"),
                        ));
                    }
                    return Ok(());
                }
                Step::Enter => {
                    let e = self.c.entered();
                    blocks += 1;
                    if blocks > 1 && self.st.opts.lenient_structure && e.block_id == block::MODULE {
                        // Read it for the listener, in a state of its own; the count is
                        // reported at the end.
                        let m = Module { header: self.st.m.header.clone(), ..Module::default() };
                        let fresh = State::new(self.st.opts, m);
                        let first = std::mem::replace(&mut self.st, fresh);
                        let read = self.module_block(e);
                        self.st = first;
                        last_exit = Some(read?);
                        continue;
                    }
                    if blocks > 1 {
                        return Err(self.st.err(
                            e.pos,
                            Rule::TopLevel,
                            "Expected 1 top level block in bitcode: found a second top-level block",
                        ));
                    }
                    if e.block_id != block::MODULE {
                        return Err(self.st.err(
                            e.pos,
                            Rule::TopLevel,
                            format!("The top-level block must be a module block (8), not block {}", e.block_id),
                        ));
                    }
                    last_exit = Some(self.module_block(e)?);
                }
                _ => unreachable!("the cursor only yields blocks at the top level"),
            }
        }
    }

    /// Reads the module block; returns the position of its END_BLOCK.
    fn module_block(&mut self, enter: Enter) -> Result<BitPos, ReadError> {
        self.check_width(&enter)?;
        self.st.blocks.push(BlockCtx::Module);
        self.listen_enter(&enter);
        let mut layout = self.st.layout.is_some().then(|| BlockLayout::new(enter.abbrev_width));
        loop {
            let global_abbrevs = if L::ACTIVE { self.c.num_global_abbrevs() } else { 0 };
            match self.c.next_entry()? {
                Entry::Record(r) => {
                    if let Some(l) = &mut layout {
                        l.items.push(r.abbrev_id as u16);
                    }
                    let item = self
                        .st
                        .module_record(&r)
                        .map_err(|e| reject(self.l, &self.st, e, &r, global_abbrevs, block::MODULE))?;
                    if L::ACTIVE {
                        let v = self.st.view(global_abbrevs, Some(block::MODULE));
                        self.l.record(&v, &r, item);
                    }
                }
                Entry::Abbrev { pos, .. } => {
                    let (abbrev, target) = self.c.defined();
                    let abbrev = abbrev.clone();
                    self.local_abbrev(&mut layout, pos, abbrev, target)?;
                }
                Entry::Enter(e) => {
                    if let Some(l) = &mut layout {
                        l.items.push(ITEM_BLOCK);
                    }
                    match e.block_id {
                        block::BLOCKINFO => self.blockinfo_block(e)?,
                        block::TYPES => self.types_block(e)?,
                        block::GLOBALS => self.globals_block(e)?,
                        block::VALUESYMTAB => self.module_symtab_block(e)?,
                        block::FUNCTION if self.deferred.is_some() => {
                            let func = self.function_block_start(&e)?;
                            let d = self.deferred.as_mut().expect("checked");
                            if d.blockinfo.is_none() {
                                d.blockinfo = Some(self.c.blockinfo().clone());
                            }
                            d.blocks.push((func, e));
                            self.c.skip_block()?;
                        }
                        block::FUNCTION => self.function_block(e)?,
                        id => {
                            return Err(self.st.err(
                                e.pos,
                                Rule::UnknownBlock,
                                format!("Don't know how to parse block {id}, when in block {}", block::MODULE),
                            ));
                        }
                    }
                }
                Entry::Exit(pos) => {
                    self.st.finish_module(pos)?;
                    if let (Some(ml), Some(l)) = (&mut self.st.layout, layout) {
                        ml.module = l;
                    }
                    self.listen_exit(pos);
                    self.st.blocks.pop();
                    return Ok(pos);
                }
                Entry::End(_) => unreachable!("inside a block"),
            }
        }
    }

    fn blockinfo_block(&mut self, enter: Enter) -> Result<(), ReadError> {
        // The reference puts the abbreviations block after the version record, but
        // pnacl-compress writes it first; both orders are accepted, before the types block.
        if self.st.stage > Stage::Version || self.st.blockinfo_seen {
            return Err(self.st.err(
                enter.pos,
                Rule::ModuleOrder,
                "The abbreviations block must come before the types block, once",
            ));
        }
        self.st.blockinfo_seen = true;
        self.check_width(&enter)?;
        self.st.blocks.push(BlockCtx::Abbreviations);
        self.listen_enter(&enter);
        let mut items = Vec::new();
        let mut target: Option<u32> = None;
        loop {
            match self.c.next_entry()? {
                Entry::Record(r) => {
                    if r.code != pnacl_bitstream::BLOCKINFO_CODE_SETBID {
                        return Err(self.st.err(
                            r.pos,
                            Rule::Blockinfo,
                            format!("Record code {} is not allowed in the abbreviations block (only SETBID)", r.code),
                        ));
                    }
                    if r.ops.len() != 1 {
                        return Err(self.st.err(r.pos, Rule::RecordLength, "SETBID record expects 1 argument"));
                    }
                    let id = r.ops[0];
                    let known =
                        u32::try_from(id).ok().filter(|&id| id != block::BLOCKINFO && block::name(id).is_some());
                    let Some(id) = known else {
                        return Err(self.st.err(
                            r.pos,
                            Rule::Blockinfo,
                            format!("Abbreviations block refers to unknown block id {id}"),
                        ));
                    };
                    target = Some(id);
                    items.push(BlockinfoItem::SetBid { block_id: id, abbrev_id: r.abbrev_id as u16 });
                    if L::ACTIVE {
                        let v = self.st.view(0, Some(block::BLOCKINFO));
                        self.l.record(&v, &r, Item::SetBid(id));
                    }
                }
                Entry::Abbrev { pos, .. } => {
                    let (abbrev, t) = self.c.defined();
                    let abbrev = abbrev.clone();
                    check_pnacl_abbrev(pos, &abbrev)?;
                    if let (Some(id), AbbrevTarget::Global { index, .. }) = (target, t) {
                        // Every block of this id will see this many global abbreviations.
                        let count = index as u64 + 1;
                        if count + 4 > 1 << MAX_PNACL_ABBREV_WIDTH {
                            return Err(self.st.err(
                                pos,
                                Rule::AbbrevWidth,
                                format!("Too many abbreviations for block {id}"),
                            ));
                        }
                    }
                    items.push(BlockinfoItem::Abbrev(abbrev.clone()));
                    if L::ACTIVE {
                        let v = self.st.view(0, Some(block::BLOCKINFO));
                        self.l.abbrev(&v, pos, &abbrev, t);
                    }
                }
                Entry::Enter(e) => {
                    return Err(self.st.err(
                        e.pos,
                        Rule::UnknownBlock,
                        "Blocks are not allowed in the abbreviations block",
                    ));
                }
                Entry::Exit(pos) => {
                    if let Some(ml) = &mut self.st.layout {
                        ml.blockinfo = Some(BlockinfoLayout { abbrev_width: enter.abbrev_width, items });
                    }
                    self.listen_exit(pos);
                    self.st.blocks.pop();
                    return Ok(());
                }
                Entry::End(_) => unreachable!("inside a block"),
            }
        }
    }

    fn types_block(&mut self, enter: Enter) -> Result<(), ReadError> {
        let missing_version = self.st.opts.lenient_structure && self.st.stage == Stage::Start;
        if self.st.stage != Stage::Version && !missing_version {
            let why = if self.st.stage == Stage::Start {
                "The version record must come before the types block"
            } else {
                "Only one types block is allowed, before function addresses and globals"
            };
            return Err(self.st.err(enter.pos, Rule::ModuleOrder, why));
        }
        self.check_width(&enter)?;
        self.st.blocks.push(BlockCtx::Types);
        self.listen_enter(&enter);
        let mut layout = self.st.layout.is_some().then(|| BlockLayout::new(enter.abbrev_width));
        let mut seen = HashSet::new();
        loop {
            let global_abbrevs = if L::ACTIVE { self.c.num_global_abbrevs() } else { 0 };
            let remaining = self.c.remaining_bits();
            match self.c.next_entry()? {
                Entry::Record(r) => {
                    if let Some(l) = &mut layout {
                        l.items.push(r.abbrev_id as u16);
                    }
                    let item = self
                        .st
                        .type_record(&r, remaining, &mut seen)
                        .map_err(|e| reject(self.l, &self.st, e, &r, global_abbrevs, block::TYPES))?;
                    if L::ACTIVE {
                        let v = self.st.view(global_abbrevs, Some(block::TYPES));
                        self.l.record(&v, &r, item);
                    }
                }
                Entry::Abbrev { pos, .. } => {
                    let (abbrev, target) = self.c.defined();
                    let abbrev = abbrev.clone();
                    self.local_abbrev(&mut layout, pos, abbrev, target)?;
                }
                Entry::Enter(e) => {
                    return Err(self.st.err(
                        e.pos,
                        Rule::UnknownBlock,
                        format!("Don't know how to parse block {}, when in block {}", e.block_id, block::TYPES),
                    ));
                }
                Entry::Exit(pos) => {
                    let expected = self
                        .st
                        .expected_types
                        .ok_or_else(|| self.st.err(pos, Rule::TypesCount, "The types block has no count record"))?;
                    if self.st.m.types.len() as u64 != expected {
                        return Err(self.st.err(
                            pos,
                            Rule::TypesCount,
                            format!("Expected {expected} types but found: {}", self.st.m.types.len()),
                        ));
                    }
                    if let (Some(ml), Some(l)) = (&mut self.st.layout, layout) {
                        ml.types = l;
                    }
                    self.st.stage = Stage::Types;
                    self.listen_exit(pos);
                    self.st.blocks.pop();
                    return Ok(());
                }
                Entry::End(_) => unreachable!("inside a block"),
            }
        }
    }

    fn globals_block(&mut self, enter: Enter) -> Result<(), ReadError> {
        let lenient = self.st.opts.lenient_structure;
        if self.st.stage != Stage::Types && !(lenient && self.st.stage < Stage::Types) {
            let why = if self.st.stage < Stage::Types {
                "The globals block must come after the types block and the function addresses"
            } else {
                "Only one globals block is allowed"
            };
            return Err(self.st.err(enter.pos, Rule::ModuleOrder, why));
        }
        if self.st.m.functions.is_empty() && !lenient {
            return Err(self.st.err(
                enter.pos,
                Rule::ModuleOrder,
                "The module must define at least one function address before the globals block",
            ));
        }
        self.check_width(&enter)?;
        self.st.blocks.push(BlockCtx::Globals);
        self.listen_enter(&enter);
        let mut layout = self.st.layout.is_some().then(|| BlockLayout::new(enter.abbrev_width));
        loop {
            let global_abbrevs = if L::ACTIVE { self.c.num_global_abbrevs() } else { 0 };
            let remaining = self.c.remaining_bits();
            match self.c.next_entry()? {
                Entry::Record(r) => {
                    if let Some(l) = &mut layout {
                        l.items.push(r.abbrev_id as u16);
                    }
                    let item = self
                        .st
                        .global_record(&r, remaining)
                        .map_err(|e| reject(self.l, &self.st, e, &r, global_abbrevs, block::GLOBALS))?;
                    if L::ACTIVE {
                        let v = self.st.view(global_abbrevs, Some(block::GLOBALS));
                        self.l.record(&v, &r, item);
                    }
                }
                Entry::Abbrev { pos, .. } => {
                    let (abbrev, target) = self.c.defined();
                    let abbrev = abbrev.clone();
                    self.local_abbrev(&mut layout, pos, abbrev, target)?;
                }
                Entry::Enter(e) => {
                    return Err(self.st.err(
                        e.pos,
                        Rule::UnknownBlock,
                        format!("Don't know how to parse block {}, when in block {}", e.block_id, block::GLOBALS),
                    ));
                }
                Entry::Exit(pos) => {
                    let expected = self
                        .st
                        .expected_globals
                        .ok_or_else(|| self.st.err(pos, Rule::GlobalsCount, "The globals block has no count record"))?;
                    if self.st.pending_inits > 0 {
                        let g = self.st.m.globals.len() - 1;
                        return Err(self.st.err(
                            pos,
                            Rule::GlobalInit,
                            format!("More initializers for @g{g} expected: {}", self.st.pending_inits),
                        ));
                    }
                    if self.st.m.globals.len() as u64 != expected {
                        return Err(self.st.err(
                            pos,
                            Rule::GlobalsCount,
                            format!("Expected {expected} globals but found: {}", self.st.m.globals.len()),
                        ));
                    }
                    if let (Some(ml), Some(l)) = (&mut self.st.layout, layout) {
                        ml.globals = l;
                    }
                    self.st.stage = Stage::Globals;
                    self.listen_exit(pos);
                    self.st.blocks.pop();
                    return Ok(());
                }
                Entry::End(_) => unreachable!("inside a block"),
            }
        }
    }

    fn module_symtab_block(&mut self, enter: Enter) -> Result<(), ReadError> {
        let lenient = self.st.opts.lenient_structure;
        match self.st.stage {
            Stage::Globals => {}
            Stage::Symtab if lenient => {}
            Stage::Start | Stage::Version | Stage::Types if lenient => {}
            Stage::Symtab => return Err(self.st.err(enter.pos, Rule::ModuleOrder, "Duplicate valuesymtab in module")),
            Stage::Functions => {
                return Err(self.st.err(
                    enter.pos,
                    Rule::ModuleOrder,
                    "Module symbol table must appear before function blocks",
                ));
            }
            _ => {
                return Err(self.st.err(
                    enter.pos,
                    Rule::ModuleOrder,
                    "The module symbol table must come after the globals block",
                ));
            }
        }
        self.check_width(&enter)?;
        self.st.blocks.push(BlockCtx::ModuleSymtab);
        self.listen_enter(&enter);
        let mut layout = self.st.layout.is_some().then(|| BlockLayout::new(enter.abbrev_width));
        self.st.m.symtab.get_or_insert_with(Vec::new);
        loop {
            let global_abbrevs = if L::ACTIVE { self.c.num_global_abbrevs() } else { 0 };
            match self.c.next_entry()? {
                Entry::Record(r) => {
                    if let Some(l) = &mut layout {
                        l.items.push(r.abbrev_id as u16);
                    }
                    let item = self
                        .st
                        .module_symbol(&r)
                        .map_err(|e| reject(self.l, &self.st, e, &r, global_abbrevs, block::VALUESYMTAB))?;
                    if L::ACTIVE {
                        let v = self.st.view(global_abbrevs, Some(block::VALUESYMTAB));
                        self.l.record(&v, &r, item);
                    }
                }
                Entry::Abbrev { pos, .. } => {
                    let (abbrev, target) = self.c.defined();
                    let abbrev = abbrev.clone();
                    self.local_abbrev(&mut layout, pos, abbrev, target)?;
                }
                Entry::Enter(e) => {
                    return Err(self.st.err(
                        e.pos,
                        Rule::UnknownBlock,
                        format!("Don't know how to parse block {}, when in block {}", e.block_id, block::VALUESYMTAB),
                    ));
                }
                Entry::Exit(pos) => {
                    if let (Some(ml), Some(l)) = (&mut self.st.layout, layout) {
                        ml.symtab = Some(l);
                    }
                    self.st.stage = Stage::Symtab;
                    self.st.check_signatures()?;
                    self.listen_exit(pos);
                    self.st.blocks.pop();
                    return Ok(());
                }
                Entry::End(_) => unreachable!("inside a block"),
            }
        }
    }
}

/// Adds the record and block to an error that lacks them.
#[cold]
/// Tells the listener about a refused record and attaches the record to the error.
pub(crate) fn reject<L: Listener>(
    l: &mut L,
    st: &State,
    e: ReadError,
    r: &Record<'_, '_>,
    global_abbrevs: usize,
    block_id: u32,
) -> ReadError {
    if L::ACTIVE {
        l.rejected(&st.view(global_abbrevs, Some(block_id)), r);
    }
    with_record(e, r, st)
}

fn with_record(e: ReadError, r: &Record<'_, '_>, st: &State) -> ReadError {
    attach_record(e, r, st.blocks.last().copied())
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

impl State {
    fn module_record(&mut self, r: &Record<'_, '_>) -> Result<Item, ReadError> {
        match r.code {
            mc::VERSION => {
                if self.stage != Stage::Start {
                    return Err(self.err(
                        r.pos,
                        Rule::ModuleVersion,
                        "The version record must be the first record of the module, and only one",
                    ));
                }
                if r.ops.len() != 1 {
                    return Err(self.err(
                        r.pos,
                        Rule::RecordLength,
                        format!("Version record expects 1 argument. Found: {}", r.ops.len()),
                    ));
                }
                if r.ops[0] != 1 {
                    return Err(self.err(
                        r.pos,
                        Rule::ModuleVersion,
                        format!("Unknown bitstream version: {}", r.ops[0]),
                    ));
                }
                self.m.version = r.ops[0];
                self.stage = Stage::Version;
                Ok(Item::Version)
            }
            mc::FUNCTION => self.function_address(r),
            code => Err(self.err(r.pos, Rule::UnknownRecord, format!("Unknown record code {code} in module block"))),
        }
    }

    fn function_address(&mut self, r: &Record<'_, '_>) -> Result<Item, ReadError> {
        match self.stage {
            Stage::Types => {}
            Stage::Start | Stage::Version if self.opts.lenient_structure => {}
            Stage::Start | Stage::Version => {
                return Err(self.err(r.pos, Rule::ModuleOrder, "Function addresses must come after the types block"));
            }
            _ => {
                return Err(self.err(
                    r.pos,
                    Rule::ModuleOrder,
                    "Function addresses must come before the globals block",
                ));
            }
        }
        if r.ops.len() != 4 {
            return Err(self.err(
                r.pos,
                Rule::RecordLength,
                format!("Function address record expects 4 arguments. Found: {}", r.ops.len()),
            ));
        }
        let (ty, cc, proto, linkage) = (r.ops[0], r.ops[1], r.ops[2], r.ops[3]);
        let n = self.m.functions.len();
        match self.m.types.get(ty as usize) {
            Some(TypeDef::Function(_)) => {}
            Some(t) => {
                return Err(self.err(
                    r.pos,
                    Rule::FunctionType,
                    format!("Function @f{n} has non-function type {t} (@t{ty})"),
                ));
            }
            None => return Err(self.err(r.pos, Rule::FunctionType, format!("Can't find definition for @t{ty}"))),
        }
        if proto > 1 {
            return Err(self.err(
                r.pos,
                Rule::FunctionProto,
                format!("Function @f{n} has invalid prototype flag {proto}"),
            ));
        }
        let Some(linkage) = Linkage::from_code(linkage) else {
            return Err(self.err(
                r.pos,
                Rule::FunctionLinkage,
                format!("Function address has unknown linkage. Found {linkage}"),
            ));
        };
        if cc != 0 {
            self.abi(r.pos, Rule::CallingConv, || format!("Function address has unknown calling convention: {cc}"))?;
        }
        if n >= u32::MAX as usize / 2 {
            return Err(self.err(r.pos, Rule::FunctionType, "Too many function addresses"));
        }
        self.m.functions.push(Function { ty: ty as u32, cc, is_proto: proto == 1, linkage, body: None });
        self.intrinsics.push(None);
        if proto == 0 {
            self.defined.push(n as u32);
        }
        if let Some(p) = &mut self.m.positions {
            p.functions.push(r.pos);
        }
        self.fn_positions.push(r.pos);
        Ok(Item::FunctionAddress(n as u32))
    }

    fn type_record(
        &mut self,
        r: &Record<'_, '_>,
        remaining: u64,
        seen: &mut HashSet<TypeDef>,
    ) -> Result<Item, ReadError> {
        let n = self.m.types.len() as u64;
        if r.code == tc::NUMENTRY {
            if self.expected_types.is_some() || n != 0 {
                return Err(self.err(r.pos, Rule::TypesCount, "Count record not first record of types block"));
            }
            if r.ops.len() != 1 {
                return Err(self.err(
                    r.pos,
                    Rule::RecordLength,
                    format!("Count record expects 1 argument. Found: {}", r.ops.len()),
                ));
            }
            // Each type takes a record of at least a few bits; a larger count can't be honest.
            if r.ops[0] > remaining {
                return Err(self.err(
                    r.pos,
                    Rule::TypesCount,
                    format!("Types count {} is larger than the types block can hold", r.ops[0]),
                ));
            }
            self.expected_types = Some(r.ops[0]);
            return Ok(Item::TypeCount(r.ops[0]));
        }
        let expected = self
            .expected_types
            .ok_or_else(|| self.err(r.pos, Rule::TypesCount, "Count record not first record of types block"))?;
        let arity = |want: usize| -> Result<(), ReadError> {
            if r.ops.len() != want {
                Err(self.err(
                    r.pos,
                    Rule::RecordLength,
                    format!("Type record expects {want} arguments. Found: {}", r.ops.len()),
                ))
            } else {
                Ok(())
            }
        };
        let value_type = |id: u64, what: &str| -> Result<Ty, ReadError> {
            match self.m.types.get(id as usize) {
                Some(TypeDef::Value(t)) => Ok(*t),
                Some(t) => {
                    Err(self.err(r.pos, Rule::TypeRef, format!("{what} can't be the function type {t} (@t{id})")))
                }
                None => Err(self.err(r.pos, Rule::TypeRef, format!("Can't find definition for @t{id}"))),
            }
        };
        let def = match r.code {
            tc::VOID => {
                arity(0)?;
                TypeDef::Value(Ty::Void)
            }
            tc::FLOAT => {
                arity(0)?;
                TypeDef::Value(Ty::Float)
            }
            tc::DOUBLE => {
                arity(0)?;
                TypeDef::Value(Ty::Double)
            }
            tc::INTEGER => {
                arity(1)?;
                let t = Ty::int(r.ops[0]).ok_or_else(|| {
                    self.err(
                        r.pos,
                        Rule::TypeInteger,
                        format!("Type integer record with invalid bitsize: {}", r.ops[0]),
                    )
                })?;
                TypeDef::Value(t)
            }
            tc::VECTOR => {
                arity(2)?;
                let elem = value_type(r.ops[1], "A vector element")?;
                let t = Ty::vector(r.ops[0], elem).ok_or_else(|| {
                    self.err(r.pos, Rule::TypeVector, format!("Vector type <{} x {elem}> not allowed.", r.ops[0]))
                })?;
                TypeDef::Value(t)
            }
            tc::FUNCTION => {
                if r.ops.len() < 2 {
                    return Err(self.err(
                        r.pos,
                        Rule::RecordLength,
                        format!("Function type record expects at least 2 arguments. Found: {}", r.ops.len()),
                    ));
                }
                let vararg = match r.ops[0] {
                    0 => false,
                    1 => true,
                    v => {
                        return Err(self.err(
                            r.pos,
                            Rule::TypeFunction,
                            format!("Function type has invalid vararg flag {v}"),
                        ));
                    }
                };
                let ret = value_type(r.ops[1], "A return type")?;
                let mut params = Vec::with_capacity(r.ops.len() - 2);
                for (i, &p) in r.ops[2..].iter().enumerate() {
                    let t = value_type(p, "A parameter type")?;
                    if t == Ty::Void {
                        return Err(self.err(
                            r.pos,
                            Rule::TypeFunction,
                            format!("Parameter {} of a function type can't be void", i + 1),
                        ));
                    }
                    params.push(t);
                }
                if vararg {
                    self.abi(r.pos, Rule::Vararg, || {
                        "Functions with variable length arguments is not supported".into()
                    })?;
                }
                TypeDef::Function(Signature { ret, params, vararg })
            }
            code => {
                return Err(self.err(r.pos, Rule::UnknownRecord, format!("Unknown record code {code} in types block")));
            }
        };
        if n >= expected {
            return Err(self.err(r.pos, Rule::TypesCount, format!("Expected {expected} types but found more")));
        }
        if !seen.insert(def.clone()) {
            let first = self.m.types.iter().position(|t| *t == def).unwrap_or(0);
            return Err(self.err(r.pos, Rule::TypeUnique, format!("Type @t{n} ({def}) duplicates @t{first}")));
        }
        if let TypeDef::Value(t) = def {
            self.value_type_ids[t as usize] = Some(n as u32);
        }
        self.m.types.push(def);
        Ok(Item::Type(n as u32))
    }

    fn global_record(&mut self, r: &Record<'_, '_>, remaining: u64) -> Result<Item, ReadError> {
        if r.code == gc::COUNT {
            if self.expected_globals.is_some() || !self.m.globals.is_empty() {
                return Err(self.err(r.pos, Rule::GlobalsCount, "Globals count record not first in block."));
            }
            if r.ops.len() != 1 {
                return Err(self.err(
                    r.pos,
                    Rule::RecordLength,
                    format!("Globals count record expects 1 argument. Found: {}", r.ops.len()),
                ));
            }
            // Every global needs two records of at least a few bits each.
            if r.ops[0] > remaining / 2 || r.ops[0] > u64::from(u32::MAX / 2) {
                return Err(self.err(
                    r.pos,
                    Rule::GlobalsCount,
                    format!("Globals count {} is larger than the globals block can hold", r.ops[0]),
                ));
            }
            self.expected_globals = Some(r.ops[0]);
            return Ok(Item::GlobalCount(r.ops[0]));
        }
        let expected = self
            .expected_globals
            .ok_or_else(|| self.err(r.pos, Rule::GlobalsCount, "Globals count record not first in block."))?;
        if r.code == gc::VAR {
            if r.ops.len() != 2 {
                return Err(self.err(
                    r.pos,
                    Rule::GlobalVar,
                    format!("Globalvar record expects two arguments. Found: {}", r.ops.len()),
                ));
            }
            let n = self.m.globals.len();
            if self.pending_inits > 0 {
                return Err(self.err(
                    r.pos,
                    Rule::GlobalInit,
                    format!("More initializers for @g{} expected: {}", n.saturating_sub(1), self.pending_inits),
                ));
            }
            if n as u64 >= expected {
                return Err(self.err(r.pos, Rule::GlobalsCount, format!("Expected {expected} globals but found more")));
            }
            let (align, is_const) = (r.ops[0], r.ops[1]);
            if align > MAX_ALIGN_ENCODING {
                return Err(self.err(
                    r.pos,
                    Rule::Align,
                    format!("Alignment can't be greater than 2**29. Found: 2**{}", align - 1),
                ));
            }
            if is_const > 1 {
                return Err(self.err(r.pos, Rule::GlobalVar, format!("Invalid constant flag {is_const} for @g{n}")));
            }
            self.m.globals.push(Global {
                align: Align(align as u8),
                is_const: is_const == 1,
                inits: Vec::new(),
                compound: false,
            });
            if let Some(p) = &mut self.m.positions {
                p.globals.push(r.pos);
            }
            self.pending_inits = 1;
            self.in_compound = false;
            return Ok(Item::Global(n as u32));
        }
        if !matches!(r.code, gc::COMPOUND | gc::ZEROFILL | gc::DATA | gc::RELOC) {
            return Err(self.err(
                r.pos,
                Rule::UnknownRecord,
                format!("Unknown record code {} in globals block", r.code),
            ));
        }
        let Some(g) = self.m.globals.len().checked_sub(1) else {
            return Err(self.err(r.pos, Rule::GlobalInit, "Initializer record before any global variable record"));
        };
        if r.code == gc::COMPOUND {
            if r.ops.len() != 1 {
                return Err(self.err(
                    r.pos,
                    Rule::RecordLength,
                    format!("Compound record expects 1 argument. Found: {}", r.ops.len()),
                ));
            }
            if self.pending_inits != 1 || self.in_compound || !self.m.globals[g].inits.is_empty() {
                return Err(self.err(r.pos, Rule::GlobalInit, "Globals compound record not first initializer"));
            }
            let count = r.ops[0];
            if count == 0 || count > remaining / 2 {
                return Err(self.err(
                    r.pos,
                    Rule::GlobalInit,
                    format!("Compound initializer for @g{g} can't hold {count} initializers"),
                ));
            }
            self.pending_inits = count;
            self.in_compound = true;
            let global = &mut self.m.globals[g];
            global.compound = true;
            // The count was checked against the block's size above.
            global.inits.reserve_exact(count as usize);
            return Ok(Item::Compound { global: g as u32, count });
        }
        if self.pending_inits == 0 {
            return Err(self.err(r.pos, Rule::GlobalInit, format!("Too many initializers for @g{g}")));
        }
        let init = match r.code {
            gc::ZEROFILL => {
                if r.ops.len() != 1 {
                    return Err(self.err(
                        r.pos,
                        Rule::RecordLength,
                        format!("Zerofill record expects 1 argument. Found: {}", r.ops.len()),
                    ));
                }
                if r.ops[0] > u64::from(u32::MAX) {
                    return Err(self.err(
                        r.pos,
                        Rule::GlobalData,
                        format!("Zerofill of {} bytes is larger than the address space", r.ops[0]),
                    ));
                }
                Init::Zerofill(r.ops[0])
            }
            gc::DATA => {
                if r.ops.is_empty() {
                    return Err(self.err(r.pos, Rule::GlobalData, "Data record has no bytes"));
                }
                // One pass that ORs every value (vectorized), and the search for the culprit
                // only when that pass finds one.
                if r.ops.iter().fold(0, |all, &b| all | b) > 255 {
                    let b = r.ops.iter().find(|&&b| b > 255).expect("some value is over 255");
                    return Err(self.err(r.pos, Rule::GlobalData, format!("Invalid byte value in data record: {b}")));
                }
                Init::Data(r.ops.iter().map(|&b| b as u8).collect())
            }
            gc::RELOC => {
                if r.ops.is_empty() || r.ops.len() > 2 {
                    return Err(self.err(
                        r.pos,
                        Rule::RecordLength,
                        format!("Relocation record expects 1 or 2 arguments. Found: {}", r.ops.len()),
                    ));
                }
                let limit = self.m.functions.len() as u64 + expected;
                if r.ops[0] >= limit {
                    return Err(self.err(
                        r.pos,
                        Rule::GlobalReloc,
                        format!(
                            "Relocation index {} too big. Have {} functions and {} globals",
                            r.ops[0],
                            self.m.functions.len(),
                            expected
                        ),
                    ));
                }
                let addend = match r.ops.get(1) {
                    Some(&a) if a > u64::from(u32::MAX) => {
                        return Err(self.err(
                            r.pos,
                            Rule::GlobalReloc,
                            format!("Addend of global reloc record too big: {a}"),
                        ));
                    }
                    a => a.map(|&a| a as u32),
                };
                Init::Reloc { target: ValueId(r.ops[0] as u32), addend }
            }
            code => {
                return Err(self.err(
                    r.pos,
                    Rule::UnknownRecord,
                    format!("Unknown record code {code} in globals block"),
                ));
            }
        };
        let global = &mut self.m.globals[g];
        if global.inits.capacity() == 0 {
            // A simple initializer: the only one.
            global.inits.reserve_exact(1);
        }
        global.inits.push(init);
        let index = global.inits.len() as u32 - 1;
        self.pending_inits -= 1;
        let ends_compound = self.in_compound && self.pending_inits == 0;
        if self.pending_inits == 0 {
            self.in_compound = false;
        }
        Ok(Item::Initializer { global: g as u32, index, ends_compound })
    }

    fn module_symbol(&mut self, r: &Record<'_, '_>) -> Result<Item, ReadError> {
        if r.code != sc::ENTRY {
            let what = if r.code == sc::BBENTRY {
                "Basic block entries are only allowed in function symbol tables".to_string()
            } else {
                format!("Unknown record code {} in valuesymtab block", r.code)
            };
            let rule = if r.code == sc::BBENTRY { Rule::Symtab } else { Rule::UnknownRecord };
            return Err(self.err(r.pos, rule, what));
        }
        let Some((&value, chars)) = r.ops.split_first() else {
            return Err(self.err(r.pos, Rule::RecordLength, "Symbol table entry expects a value and a name"));
        };
        let limit = (self.m.functions.len() + self.m.globals.len()) as u64;
        if value >= limit {
            return Err(self.err(
                r.pos,
                Rule::Symtab,
                format!("Symbol table entry names undefined value {value} (module has {limit} values)"),
            ));
        }
        let name = name_bytes(r.pos, chars)?;
        if (value as usize) < self.m.functions.len() && abi::is_intrinsic_name(&name) {
            self.check_intrinsic(r.pos, value as u32, &name)?;
        }
        let symtab = self.m.symtab.as_mut().expect("set on entry");
        symtab.push(Symbol { value: ValueId(value as u32), name });
        if let Some(p) = &mut self.m.positions {
            p.symbols.push(r.pos);
        }
        Ok(Item::Symbol(symtab.len() - 1))
    }

    fn check_intrinsic(&mut self, pos: BitPos, f: u32, name: &[u8]) -> Result<(), ReadError> {
        let text = String::from_utf8_lossy(name).into_owned();
        let Some(i) = abi::intrinsic(name) else {
            return self.abi(pos, Rule::Intrinsic, || format!("Invalid intrinsic name: {text}"));
        };
        let sig = self.m.signature(f).clone();
        if let Some(msg) = abi::intrinsic_signature_error(i, &sig) {
            self.abi(pos, Rule::Intrinsic, || msg)?;
        }
        self.intrinsics[f as usize] = Some(i);
        Ok(())
    }

    /// Checks the signature of every function that is not an intrinsic (ABI rule), once the
    /// module symbol table has said which functions are intrinsics.
    pub(crate) fn check_signatures(&mut self) -> Result<(), ReadError> {
        if self.signatures_checked {
            return Ok(());
        }
        self.signatures_checked = true;
        if self.opts.defer_abi {
            return Ok(());
        }
        for f in 0..self.m.functions.len() {
            if self.intrinsics[f].is_some() {
                continue;
            }
            let sig = self.m.signature(f as u32);
            if !abi::is_valid_signature(sig) {
                let msg = format!("Invalid type signature for @f{f}: {sig}");
                return Err(self.err(self.fn_positions[f], Rule::Signature, msg));
            }
        }
        Ok(())
    }

    fn finish_module(&mut self, pos: BitPos) -> Result<(), ReadError> {
        if self.stage < Stage::Globals && !self.opts.lenient_structure {
            let what = if self.stage < Stage::Types { "types block" } else { "globals block" };
            return Err(self.err(pos, Rule::ModuleOrder, format!("The module has no {what}")));
        }
        self.check_signatures()?;
        if self.bodies_read != self.defined.len() {
            return Err(self.err(
                pos,
                Rule::FunctionBlocks,
                format!(
                    "Expected {} function blocks (one per defined function) but found: {}",
                    self.defined.len(),
                    self.bodies_read
                ),
            ));
        }
        Ok(())
    }
}

/// Converts name characters to bytes.
pub(crate) fn name_bytes(pos: BitPos, chars: &[u64]) -> Result<Vec<u8>, ReadError> {
    chars
        .iter()
        .map(|&c| {
            u8::try_from(c)
                .map_err(|_| ReadError::new(pos, Rule::Symtab, format!("Invalid character {c} in symbol name")))
        })
        .collect()
}
