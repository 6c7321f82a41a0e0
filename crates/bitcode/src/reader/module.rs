//! The top level, the module block, and the module-level blocks (abbreviations, types,
//! globals, symbol table).

use super::context::BlockCtx;
use super::function::{BodyEnv, Scratch, read_body};
use super::listener::{Item, Listener, NoListener};
use super::options::ReadOptions;
use super::state::{Deferred, Reader, Stage, State, reject};
use crate::codes::{block, module as mc};
use crate::error::{ReadError, Rule};
use crate::ir::{BlockLayout, Function, ITEM_BLOCK, Linkage, Module, ModulePositions, TypeDef};
use pnacl_bitstream::{BitPos, Cursor, Enter, Entry, Gather, PexeHeader, Record, Step};

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
    let mut listener = NoListener;
    let deferred = Deferred { blockinfo: None, blocks: Vec::new() };
    let mut r = Reader { c, st: State::new(opts, m), l: &mut listener, deferred: Some(deferred) };
    let top = r.top_level();
    let Deferred { blockinfo, blocks } = r.deferred.take().expect("set above");
    let env = BodyEnv { m: &r.st.m, intrinsics: &r.st.intrinsics, opts, record_layout: r.st.layout.is_some() };
    let blockinfo = blockinfo.unwrap_or_default();
    let bodies: Vec<Result<Box<crate::ir::FunctionBody>, ReadError>> = blocks
        .par_iter()
        .map_init(Scratch::default, |scratch, (func, enter)| {
            let mut c = Cursor::<G>::in_block_with_gather(bytes, enter, blockinfo.clone())?;
            read_body(&mut c, &env, *func, enter, scratch, &mut NoListener)
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

impl<L: Listener, G: Gather> Reader<'_, '_, L, G> {
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

impl<L: Listener, G: Gather> Reader<'_, '_, L, G> {
    /// The checks made on entering a function block, before its body is read: where it is
    /// in the module, and which defined function it belongs to. Returns that function.
    pub(crate) fn function_block_start(&mut self, enter: &Enter) -> Result<u32, ReadError> {
        if self.st.stage < Stage::Globals && !self.st.opts.lenient_structure {
            return Err(self.st.err(enter.pos, Rule::ModuleOrder, "Function blocks must come after the globals block"));
        }
        self.st.check_signatures()?;
        self.st.stage = Stage::Functions;
        let Some(&func) = self.st.defined.get(self.st.bodies_read) else {
            return Err(self.st.err(
                enter.pos,
                Rule::FunctionBlocks,
                "No corresponding defining function address for function block.",
            ));
        };
        self.st.bodies_read += 1;
        self.check_width(enter)?;
        if let Some(p) = &mut self.st.m.positions {
            p.bodies.insert(func, enter.pos);
        }
        Ok(func)
    }

    /// Reads a function block in place.
    pub(crate) fn function_block(&mut self, enter: Enter) -> Result<(), ReadError> {
        let func = self.function_block_start(&enter)?;
        let mut scratch = std::mem::take(&mut self.st.scratch);
        let env = BodyEnv {
            m: &self.st.m,
            intrinsics: &self.st.intrinsics,
            opts: self.st.opts,
            record_layout: self.st.layout.is_some(),
        };
        let body = read_body(&mut self.c, &env, func, &enter, &mut scratch, self.l)?;
        self.st.scratch = scratch;
        self.st.m.functions[func as usize].body = Some(body);
        Ok(())
    }
}
