//! The reference's global state, as the reader keeps it.

use super::{ReadOptions, View};
use crate::abi::Intrinsic;
use crate::codes::block;
use crate::error::{ReadError, Rule};
use crate::ir::{FunctionBody, Module, ModuleLayout, Ty, ValueId, ValueSpace};
use pnacl_bitstream::BitPos;

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

/// Per-function state: the reference's NumParams, NumFcnConsts, NumBasicBlocks,
/// NumValuedInsts, ExpectedBasicBlocks and TypeOf for local values.
pub(crate) struct FnState {
    /// Index of the function (`EnclosingFcnID`).
    pub func: u32,
    /// Its return type.
    pub ret: Ty,
    /// Its parameter types.
    pub params: Vec<Ty>,
    /// Value numbering.
    pub space: ValueSpace,
    /// Absolute index of the first local value (`%p0`): the functions and globals come
    /// first. Kept apart from `space` because every operand is checked against it.
    pub first_local: u32,
    /// The body built so far.
    pub body: FunctionBody,
    /// Absolute index of the next instruction value.
    pub next_value: u32,
    /// Declared types of forward-referenced values, indexed from `%v0` (`Void` = none).
    pub forward: Vec<Ty>,
    /// Highest `%v` index used before its definition, plus one.
    pub forward_used: u32,
    /// Basic blocks terminated so far (`NumBasicBlocks`).
    pub blocks_done: u32,
    /// `blocks N` has been read.
    pub declared: bool,
    /// The constants block has been read.
    pub constants_done: bool,
    /// An instruction has been read.
    pub inst_seen: bool,
    /// Only phis and declarations so far in the current basic block.
    pub phi_allowed: bool,
    /// Upper bound on record count (and so on basic blocks and values): 4 per byte.
    pub max_records: u64,
    /// Size of the function block in bytes, for messages.
    pub block_bytes: u64,
    /// Layout of the constants block, when recorded.
    pub constants_layout: Option<crate::ir::BlockLayout>,
    /// Layout of the symbol-table block, when recorded.
    pub symtab_layout: Option<crate::ir::BlockLayout>,
    /// The symbol-table block has been read.
    pub symtab_done: bool,
    /// Phi operands used before their definition: (`%v` index, required type, position).
    pub phi_checks: Vec<(u32, Ty, BitPos)>,
}

impl FnState {
    /// Formats a value as the text names it.
    pub fn name(&self, v: u32) -> String {
        self.space.kind(ValueId(v)).to_string()
    }
}

/// Buffers reused from one function block to the next.
#[derive(Default)]
pub(crate) struct Scratch {
    pub params: Vec<Ty>,
    pub forward: Vec<Ty>,
    pub phi_checks: Vec<(u32, Ty, BitPos)>,
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
    /// The function being read.
    pub f: Option<FnState>,
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
            f: None,
            blocks: Vec::new(),
            fn_positions: Vec::new(),
            signatures_checked: false,
            blockinfo_seen: false,
            scratch: Scratch::default(),
        }
    }

    /// A view for listeners.
    pub fn view(&self, global_abbrevs: usize, block_id: Option<u32>) -> View<'_> {
        match &self.f {
            Some(f) => View {
                module: &self.m,
                function: Some(f.func),
                body: Some(&f.body),
                space: f.space,
                global_abbrevs,
                block_id,
            },
            None => View {
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
            },
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
