//! Function blocks: the function block and the constants and symbol-table blocks nested in
//! it, read into a [`FunctionBody`]. The records of each are decoded by the submodules.

mod constants;
mod operand_lists;
mod record;
mod state;
mod symtab;

pub(crate) use state::Scratch;

use super::abbrevs::{check_local_abbrev, check_width};
use super::context::{BlockCtx, attach_record};
use super::listener::{Item, Listener, View};
use super::options::ReadOptions;
use crate::abi::Intrinsic;
use crate::codes::block;
use crate::error::{ReadError, Rule};
use crate::ir::{BlockLayout, BodyLayout, FunctionBody, ITEM_BLOCK, Module, ValueSpace};
use pnacl_bitstream::{BitPos, Cursor, Enter, Entry, Gather, Record};
use state::{Ctx, FnState};

/// What reading a function block needs besides its cursor: the module read up to its
/// function blocks, and the options. Shared by the in-place reader and parallel readers.
pub(crate) struct BodyEnv<'m> {
    pub m: &'m Module,
    pub intrinsics: &'m [Option<&'static Intrinsic>],
    pub opts: ReadOptions,
    pub record_layout: bool,
}

/// Reads the body of the function block of `func` just entered (`c` is inside it): the
/// `blocks` record, constants, instructions and local symbol table, up to its END_BLOCK.
pub(crate) fn read_body<L: Listener, G: Gather>(
    c: &mut Cursor<'_, G>,
    env: &BodyEnv<'_>,
    func: u32,
    enter: &Enter,
    scratch: &mut Scratch,
    l: &mut L,
) -> Result<Box<FunctionBody>, ReadError> {
    let m = env.m;
    let sig = m.signature(func);
    let block_bytes = u64::from(enter.length_words) * 4;
    let space = ValueSpace {
        functions: m.functions.len() as u32,
        globals: m.globals.len() as u32,
        params: sig.params.len() as u32,
        consts: 0,
    };
    // Pre-size the body from the block's length (already checked against the data): real
    // function blocks spend four bytes or more per record in 29 functions of 30 of the
    // corpus.
    let est = (block_bytes / 4) as usize + 4;
    let mut params = std::mem::take(&mut scratch.params);
    params.clear();
    params.extend_from_slice(&sig.params);
    let mut forward = std::mem::take(&mut scratch.forward);
    forward.clear();
    let mut phi_checks = std::mem::take(&mut scratch.phi_checks);
    phi_checks.clear();
    // The state is built in the reader and the body moved out of it once, into its box:
    // moving the state in and out went through four copies of a few hundred bytes per
    // function.
    let mut r = BodyReader {
        c,
        env,
        f: FnState {
            func,
            ret: sig.ret,
            params,
            space,
            first_local: space.functions + space.globals,
            body: FunctionBody {
                insts: Vec::with_capacity(est),
                num_params: sig.params.len() as u32,
                local_types: {
                    // Every record defines at most one value, constants included.
                    let mut t = Vec::with_capacity(est + sig.params.len());
                    t.extend_from_slice(&sig.params);
                    t
                },
                operands: Vec::with_capacity(est / 2),
                positions: if env.opts.positions { Vec::with_capacity(est) } else { Vec::new() },
                ..FunctionBody::default()
            },
            next_value: space.first_inst(),
            forward,
            forward_used: 0,
            blocks_done: 0,
            declared: false,
            constants_done: false,
            inst_seen: false,
            phi_allowed: true,
            max_records: block_bytes * 4,
            block_bytes,
            constants_layout: None,
            symtab_layout: None,
            symtab_done: false,
            phi_checks,
        },
        l,
    };
    let result = r.function(enter);
    *scratch = Scratch { params: r.f.params, forward: r.f.forward, phi_checks: r.f.phi_checks };
    result.map(|()| Box::new(r.f.body))
}

/// Reads one function block.
struct BodyReader<'c, 'a, 'e, 'm, 'l, L: Listener, G: Gather> {
    c: &'c mut Cursor<'a, G>,
    env: &'e BodyEnv<'m>,
    f: FnState,
    l: &'l mut L,
}

/// A listener's view of a function body being read.
fn body_view<'v>(env: &BodyEnv<'v>, f: &'v FnState, global_abbrevs: usize, block_id: u32) -> View<'v> {
    View {
        module: env.m,
        function: Some(f.func),
        body: Some(&f.body),
        space: f.space,
        global_abbrevs,
        block_id: Some(block_id),
    }
}

/// Takes in the records of one block of a function body (the function block itself, or a
/// constants or symbol-table block in it) around their decoding: the layout, the listener,
/// and the block and listener's view attached to a refused record.
///
/// Records come from two places, the cursor's record loop and `next_entry`. Each decodes
/// the record itself and hands the outcome to [`BlockRecords::take`], so that the whole of
/// the record handling is inlined into the record loop. One closure serving both places
/// stayed out of line, a call with a large frame per record, and read 5 to 7% slower.
struct BlockRecords<'e, 'm, 'y> {
    env: &'e BodyEnv<'m>,
    layout: &'y mut Option<BlockLayout>,
    /// For listeners' views only (0 when there is no listener).
    global_abbrevs: usize,
    ctx: BlockCtx,
}

impl BlockRecords<'_, '_, '_> {
    /// Takes in record `r`, decoded as `decoded`: notes it in the layout and tells the
    /// listener, or refuses it.
    #[inline(always)]
    fn take<L: Listener>(
        &mut self,
        f: &FnState,
        l: &mut L,
        r: &Record<'_, '_>,
        decoded: Result<Item, ReadError>,
    ) -> Result<(), ReadError> {
        let item = match decoded {
            Ok(item) => item,
            Err(e) => return Err(self.reject(f, l, e, r)),
        };
        if let Some(layout) = self.layout {
            layout.items.push(r.abbrev_id as u16);
        }
        if L::ACTIVE {
            l.record(&body_view(self.env, f, self.global_abbrevs, self.ctx.block_id()), r, item);
        }
        Ok(())
    }

    /// Tells the listener about a refused record and attaches it to the error.
    #[cold]
    fn reject<L: Listener>(&self, f: &FnState, l: &mut L, e: ReadError, r: &Record<'_, '_>) -> ReadError {
        if L::ACTIVE {
            l.rejected(&body_view(self.env, f, self.global_abbrevs, self.ctx.block_id()), r);
        }
        attach_record(e, r, Some(self.ctx))
    }
}

impl<L: Listener, G: Gather> BodyReader<'_, '_, '_, '_, '_, L, G> {
    fn abbrev(&mut self, layout: &mut Option<BlockLayout>, block_id: u32) -> Result<(), ReadError> {
        let pos = self.c.last_pos();
        let (abbrev, target) = self.c.defined();
        let abbrev = abbrev.clone();
        check_local_abbrev(self.c, layout, pos, &abbrev)?;
        if L::ACTIVE {
            let v = body_view(self.env, &self.f, self.c.num_global_abbrevs(), block_id);
            self.l.abbrev(&v, pos, &abbrev, target);
        }
        Ok(())
    }

    fn listen_enter(&mut self, e: &Enter, block_id: u32) {
        if L::ACTIVE {
            let v = body_view(self.env, &self.f, self.c.num_global_abbrevs(), block_id);
            self.l.enter(&v, e);
        }
    }

    fn listen_exit(&mut self, pos: BitPos, block_id: u32) {
        if L::ACTIVE {
            let v = body_view(self.env, &self.f, self.c.num_global_abbrevs(), block_id);
            self.l.exit(&v, pos);
        }
    }

    fn function(&mut self, enter: &Enter) -> Result<(), ReadError> {
        let func = self.f.func;
        self.listen_enter(enter, block::FUNCTION);
        // As for the body: a record per word or less.
        let est = enter.length_words as usize + 4;
        let mut layout = self.env.record_layout.then(|| BlockLayout {
            abbrev_width: enter.abbrev_width,
            items: Vec::with_capacity(est),
            abbrevs: Vec::new(),
        });
        let positions = self.env.opts.positions;
        let cx = Ctx { m: self.env.m, intrinsics: self.env.intrinsics, defer_abi: self.env.opts.defer_abi };
        let ctx = BlockCtx::Function(func);
        loop {
            let global_abbrevs = if L::ACTIVE { self.c.num_global_abbrevs() } else { 0 };
            let mut records = BlockRecords { env: self.env, layout: &mut layout, global_abbrevs, ctx };
            let (f, l) = (&mut self.f, &mut *self.l);
            self.c.fast_records(|r| {
                let decoded = f.record_item(&cx, positions, &r);
                records.take(f, l, &r, decoded)
            })?;
            match self.c.next_entry()? {
                Entry::Record(r) => {
                    let decoded = self.f.record_item(&cx, positions, &r);
                    records.take(&self.f, self.l, &r, decoded)?;
                }
                Entry::Enter(e) => {
                    if let Some(l) = &mut layout {
                        l.items.push(ITEM_BLOCK);
                    }
                    match e.block_id {
                        block::CONSTANTS => self.constants(e)?,
                        block::VALUESYMTAB => self.symtab(e)?,
                        id => {
                            return Err(ReadError::new(
                                e.pos,
                                Rule::UnknownBlock,
                                format!("Don't know how to parse block {id}, when in block {}", block::FUNCTION),
                            ));
                        }
                    }
                }
                Entry::Abbrev { .. } => self.abbrev(&mut layout, block::FUNCTION)?,
                Entry::Exit(pos) => {
                    let f = &mut self.f;
                    f.finish(pos).map_err(|mut e| {
                        e.block = Some(ctx.to_string());
                        e
                    })?;
                    if let Some(l) = layout.take() {
                        f.body.layout = Some(Box::new(BodyLayout {
                            function: l,
                            constants: f.constants_layout.take(),
                            symtab: f.symtab_layout.take(),
                        }));
                    }
                    self.listen_exit(pos, block::FUNCTION);
                    return Ok(());
                }
                Entry::End(_) => unreachable!("inside a block"),
            }
        }
    }

    fn constants(&mut self, enter: Enter) -> Result<(), ReadError> {
        let f = &self.f;
        if f.constants_done || f.inst_seen {
            return Err(ReadError::new(
                enter.pos,
                Rule::ConstantsOrder,
                "A function's constants block must come before its instructions, once",
            ));
        }
        check_width(self.c, &enter)?;
        let func = f.func;
        self.listen_enter(&enter, block::CONSTANTS);
        // Constants records take two bytes or fewer in nine blocks of ten of the corpus; the
        // length was checked against the data when the block was entered.
        let est = (u64::from(enter.length_words) * 4 / 2) as usize + 2;
        // The value types were sized for every record of the function block, this block's
        // included.
        self.f.body.constants.reserve(est);
        let layout = self.env.record_layout.then(|| BlockLayout {
            abbrev_width: enter.abbrev_width,
            items: Vec::with_capacity(est),
            abbrevs: Vec::new(),
        });
        let cx = Ctx { m: self.env.m, intrinsics: self.env.intrinsics, defer_abi: self.env.opts.defer_abi };
        let mut cur = None;
        let (layout, pos) = self.leaf_block(BlockCtx::Constants(func), layout, |f, r| f.constant(&cx, r, &mut cur))?;
        let f = &mut self.f;
        f.constants_done = true;
        f.space.consts = f.body.constants.len() as u32;
        f.body.local_types.extend(f.body.constants.iter().map(|c| c.ty));
        f.next_value = f.space.first_inst();
        f.constants_layout = layout;
        self.listen_exit(pos, block::CONSTANTS);
        Ok(())
    }

    fn symtab(&mut self, enter: Enter) -> Result<(), ReadError> {
        let f = &self.f;
        if f.symtab_done {
            return Err(ReadError::new(enter.pos, Rule::UnknownBlock, "Duplicate valuesymtab in function"));
        }
        if !f.declared {
            return Err(ReadError::new(
                enter.pos,
                Rule::DeclareBlocks,
                "The function block must start with a `blocks` record",
            ));
        }
        check_width(self.c, &enter)?;
        let func = f.func;
        self.listen_enter(&enter, block::VALUESYMTAB);
        let layout = self.env.record_layout.then(|| BlockLayout::new(enter.abbrev_width));
        self.f.body.symtab.get_or_insert_with(Vec::new);
        let (layout, pos) = self.leaf_block(BlockCtx::FunctionSymtab(func), layout, |f, r| f.local_symbol(r))?;
        self.f.symtab_done = true;
        self.f.symtab_layout = layout;
        self.listen_exit(pos, block::VALUESYMTAB);
        Ok(())
    }

    /// Reads the records of a block nested in a function block that holds no blocks of its
    /// own (constants, valuesymtab), decoding each with `decode`. Returns the block's layout
    /// and the position of its end.
    fn leaf_block(
        &mut self,
        ctx: BlockCtx,
        mut layout: Option<BlockLayout>,
        mut decode: impl FnMut(&mut FnState, &Record<'_, '_>) -> Result<Item, ReadError>,
    ) -> Result<(Option<BlockLayout>, BitPos), ReadError> {
        let block_id = ctx.block_id();
        loop {
            let global_abbrevs = if L::ACTIVE { self.c.num_global_abbrevs() } else { 0 };
            let mut records = BlockRecords { env: self.env, layout: &mut layout, global_abbrevs, ctx };
            let (f, l) = (&mut self.f, &mut *self.l);
            self.c.fast_records(|r| {
                let decoded = decode(f, &r);
                records.take(f, l, &r, decoded)
            })?;
            match self.c.next_entry()? {
                Entry::Record(r) => {
                    let decoded = decode(&mut self.f, &r);
                    records.take(&self.f, self.l, &r, decoded)?;
                }
                Entry::Abbrev { .. } => self.abbrev(&mut layout, block_id)?,
                Entry::Enter(e) => {
                    return Err(ReadError::new(
                        e.pos,
                        Rule::UnknownBlock,
                        format!("Don't know how to parse block {}, when in block {block_id}", e.block_id),
                    ));
                }
                Entry::Exit(pos) => return Ok((layout, pos)),
                Entry::End(_) => unreachable!("inside a block"),
            }
        }
    }
}
