//! What a listener sees of the reader: each block, abbreviation and accepted record, with a
//! view of the IR built so far.

use crate::ir::{FunctionBody, Module, Ty, TypeId, ValueSpace};
use pnacl_bitstream::{Abbrev, AbbrevTarget, BitPos, Enter, Record};

/// What an accepted record defined, for listeners.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Item {
    /// The module version record.
    Version,
    /// A SETBID record of the abbreviations block.
    SetBid(u32),
    /// The types block's count record.
    TypeCount(u64),
    /// A type record.
    Type(TypeId),
    /// A function address record.
    FunctionAddress(u32),
    /// The globals block's count record.
    GlobalCount(u64),
    /// A global variable or constant record.
    Global(u32),
    /// A compound initializer record of a global.
    Compound {
        /// The global.
        global: u32,
        /// Number of initializers announced.
        count: u64,
    },
    /// A simple initializer of a global.
    Initializer {
        /// The global.
        global: u32,
        /// Its index among the global's initializers.
        index: u32,
        /// True if it is the last initializer of a compound initializer.
        ends_compound: bool,
    },
    /// An entry of the module symbol table (its index).
    Symbol(usize),
    /// The `blocks N` record of a function.
    DeclareBlocks(u32),
    /// A set-type record of a constants block.
    SetType(Ty),
    /// A constant (its index).
    Constant(u32),
    /// An instruction record (its index in the body's instructions).
    Inst(u32),
    /// An entry of a function's symbol table (its index).
    LocalSymbol(usize),
}

/// What a listener can see of the reader's state.
pub struct View<'r> {
    /// The module as read so far.
    pub module: &'r Module,
    /// The function being read, if inside a function block.
    pub function: Option<u32>,
    /// Its body as read so far.
    pub body: Option<&'r FunctionBody>,
    /// The value numbering in effect.
    pub space: ValueSpace,
    /// Number of global (abbreviations-block) abbreviations in scope in the current block.
    pub global_abbrevs: usize,
    /// Id of the block being read.
    pub block_id: Option<u32>,
}

/// Receives the reader's progress. Every method has an empty default.
pub trait Listener {
    /// False for listeners that ignore everything, so the reader can skip building views.
    const ACTIVE: bool = true;
    /// A block starts.
    fn enter(&mut self, _view: &View<'_>, _enter: &Enter) {}
    /// The current block ends.
    fn exit(&mut self, _view: &View<'_>, _pos: BitPos) {}
    /// An abbreviation is defined.
    fn abbrev(&mut self, _view: &View<'_>, _pos: BitPos, _abbrev: &Abbrev, _target: AbbrevTarget) {}
    /// A record was read and accepted.
    fn record(&mut self, _view: &View<'_>, _record: &Record<'_, '_>, _item: Item) {}
    /// A record was read but refused: reading stops with an error about it.
    fn rejected(&mut self, _view: &View<'_>, _record: &Record<'_, '_>) {}
}

/// A listener that ignores everything.
pub struct NoListener;

impl Listener for NoListener {
    const ACTIVE: bool = false;
}
