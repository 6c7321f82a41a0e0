//! The reference's global state, as the reader keeps it, and the reader of the module level
//! that carries it with its cursor and listener.

use super::abbrevs::{check_local_abbrev, check_width};
use super::context::{BlockCtx, attach_record};
use super::function::Scratch;
use super::listener::{Item, Listener, View};
use super::options::ReadOptions;
use crate::abi::Intrinsic;
use crate::error::{ReadError, Rule};
use crate::ir::{BlockLayout, Module, ModuleLayout, ValueSpace};
use pnacl_bitstream::{Abbrev, AbbrevTarget, BitPos, BlockInfo, Cursor, Enter, Entry, Gather, Record};

/// Where the module block is in its required order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Stage {
    /// Nothing read yet.
    Start,
    /// After the version record (and possibly the abbreviations block).
    Version,
    /// After the types block (function address records may follow).
    Types,
    /// After the globals block.
    Globals,
    /// After the module symbol table.
    Symtab,
    /// Function blocks are being read.
    Functions,
}

/// Everything the reader knows besides the cursor and the listener.
pub(crate) struct State {
    /// Options.
    pub opts: ReadOptions,
    /// The module built so far.
    pub m: Module,
    /// Layout being recorded (unless disabled).
    pub layout: Option<ModuleLayout>,
    /// Where the module block is in its order.
    pub stage: Stage,
    /// `ExpectedTypes`, once the count record is read.
    pub expected_types: Option<u64>,
    /// Index of a value type's id, for `TypeID`.
    pub value_type_ids: [Option<u32>; 15],
    /// `ExpectedGlobals`, once the count record is read.
    pub expected_globals: Option<u64>,
    /// `ExpectedInitializers` of the global being read.
    pub pending_inits: u64,
    /// True while inside a compound initializer.
    pub in_compound: bool,
    /// Indices of defined functions, in order.
    pub defined: Vec<u32>,
    /// Function blocks read so far.
    pub bodies_read: usize,
    /// The intrinsic each function is, by its symbol-table name.
    pub intrinsics: Vec<Option<&'static Intrinsic>>,
    /// The blocks open, for error context.
    pub blocks: Vec<BlockCtx>,
    /// Position of each function address record.
    pub fn_positions: Vec<BitPos>,
    /// The ABI signature check has run.
    pub signatures_checked: bool,
    /// The abbreviations block has been read.
    pub blockinfo_seen: bool,
    /// Per-function buffers, reused.
    pub scratch: Scratch,
}

impl State {
    pub fn new(opts: ReadOptions, m: Module) -> Self {
        State {
            layout: (!opts.no_layout).then(ModuleLayout::default),
            opts,
            m,
            stage: Stage::Start,
            expected_types: None,
            value_type_ids: [None; 15],
            expected_globals: None,
            pending_inits: 0,
            in_compound: false,
            defined: Vec::new(),
            bodies_read: 0,
            intrinsics: Vec::new(),
            blocks: Vec::new(),
            fn_positions: Vec::new(),
            signatures_checked: false,
            blockinfo_seen: false,
            scratch: Scratch::default(),
        }
    }

    /// A view for listeners (of the module level: function bodies have views of their own).
    pub fn view(&self, global_abbrevs: usize, block_id: Option<u32>) -> View<'_> {
        View {
            module: &self.m,
            function: None,
            body: None,
            space: ValueSpace {
                functions: self.m.functions.len() as u32,
                globals: self.m.globals.len() as u32,
                params: 0,
                consts: 0,
            },
            global_abbrevs,
            block_id,
        }
    }

    /// An error at `pos`.
    #[cold]
    pub fn err(&self, pos: BitPos, rule: Rule, message: impl Into<String>) -> ReadError {
        ReadError::new(pos, rule, message)
    }

    /// Enforces an ABI-level rule unless the options defer ABI rules to the verifier.
    #[inline]
    pub fn abi(&self, pos: BitPos, rule: Rule, message: impl FnOnce() -> String) -> Result<(), ReadError> {
        debug_assert!(rule.is_abi());
        if self.opts.defer_abi { Ok(()) } else { Err(self.err(pos, rule, message())) }
    }
}

/// The reader of the module level: the cursor, the state and the listener.
pub(crate) struct Reader<'a, 'l, L: Listener, G: Gather> {
    pub c: Cursor<'a, G>,
    pub st: State,
    pub l: &'l mut L,
    /// Set when function blocks are to be read later, in parallel.
    pub deferred: Option<Deferred>,
}

/// Function blocks left for [`read_parallel_file`](super::module::read_parallel_file): the
/// blockinfo they see, and each block's function and entry.
pub(crate) struct Deferred {
    pub blockinfo: Option<BlockInfo>,
    pub blocks: Vec<(u32, Enter)>,
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

    /// Reads the records of a module-level block that holds no blocks (types, globals, module
    /// symbol table), each decoded by `decode`, which is also given the bits left before the
    /// record (they bound the counts a record declares), up to the block's END_BLOCK, whose
    /// position it returns.
    pub(crate) fn leaf_block(
        &mut self,
        block_id: u32,
        layout: &mut Option<BlockLayout>,
        mut decode: impl FnMut(&mut State, &Record<'_, '_>, u64) -> Result<Item, ReadError>,
    ) -> Result<BitPos, ReadError> {
        loop {
            let global_abbrevs = if L::ACTIVE { self.c.num_global_abbrevs() } else { 0 };
            let remaining = self.c.remaining_bits();
            match self.c.next_entry()? {
                Entry::Record(r) => {
                    if let Some(l) = layout {
                        l.items.push(r.abbrev_id as u16);
                    }
                    let item = decode(&mut self.st, &r, remaining)
                        .map_err(|e| reject(self.l, &self.st, e, &r, global_abbrevs, block_id))?;
                    if L::ACTIVE {
                        let v = self.st.view(global_abbrevs, Some(block_id));
                        self.l.record(&v, &r, item);
                    }
                }
                Entry::Abbrev { pos, .. } => {
                    let (abbrev, target) = self.c.defined();
                    let abbrev = abbrev.clone();
                    self.local_abbrev(layout, pos, abbrev, target)?;
                }
                Entry::Enter(e) => {
                    return Err(self.st.err(
                        e.pos,
                        Rule::UnknownBlock,
                        format!("Don't know how to parse block {}, when in block {block_id}", e.block_id),
                    ));
                }
                Entry::Exit(pos) => return Ok(pos),
                Entry::End(_) => unreachable!("inside a block"),
            }
        }
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
}

/// Tells the listener about a refused record and attaches the record to the error.
#[cold]
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
