//! Reading PNaCl bitcode into the IR, enforcing every rule of the reference.
//!
//! The reader walks the bitstream once, in file order, keeping the reference's global state
//! (ID counters, expected sizes, TypeOf) and checking each record against its Constraints as
//! it turns it into IR. A [`Listener`] sees every block, abbreviation and accepted record as
//! it happens, together with a [`View`] of the IR built so far; the disassembler is such a
//! listener.
//!
//! Untrusted counts never drive allocation directly: the bitstream layer bounds record and
//! array lengths by the data left, and counts the reference declares (types, globals, basic
//! blocks, forward references) are checked against the size of their block first.

mod function;
mod module;
mod state;

use crate::error::{ReadError, Rule};
use crate::ir::{FunctionBody, Module, Ty, TypeId, ValueSpace};
use pnacl_bitstream::{Abbrev, AbbrevTarget, BitPos, Enter, Gather, PexeHeader, PextGather, Record, ShiftGather};

/// How strict the reader is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct ReadOptions {
    /// Let ABI-level rules ([`Rule::is_abi`]) through instead of failing on them, so that
    /// the ABI verifier can report them with its own diagnostics.
    pub defer_abi: bool,
    /// Keep the bit position of every instruction and module-level record in the IR.
    pub positions: bool,
    /// Skip recording the encoding layout (abbreviations per record, block widths). Writing
    /// the module back then uses the writer's own abbreviation choices.
    pub no_layout: bool,
    /// Accept the module-level structure pnacl-bcdis accepts: module blocks missing some
    /// of their blocks (down to a lone version record), a second module symbol table, and
    /// further top-level modules (each read in turn, then reported as one error at the end,
    /// as pnacl-bcdis reports them). Every record is still checked. For dumping; a module
    /// read this way may not be one the reference allows.
    pub lenient_structure: bool,
    /// Decode VBR fields with shifts and masks even where BMI2's `pext` is fast, which is
    /// used there otherwise ([`PextGather`]). The module read is the same either way; this
    /// is for measuring and testing the portable decoder on such processors.
    pub portable_decoding: bool,
}

impl ReadOptions {
    /// True if reading with these options uses [`PextGather`].
    pub fn uses_pext(&self) -> bool {
        !self.portable_decoding && PextGather::available()
    }
}

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

/// Reads a PNaCl bitcode file with the default (strict) options.
pub fn read(bytes: &[u8]) -> Result<Module, ReadError> {
    read_with(bytes, ReadOptions::default(), &mut NoListener)
}

/// Reads a PNaCl bitcode file, reporting progress to `listener`.
pub fn read_with(bytes: &[u8], options: ReadOptions, listener: &mut impl Listener) -> Result<Module, ReadError> {
    let header = check_header(bytes)?;
    if options.uses_pext() {
        module::read_file::<_, PextGather>(bytes, header, options, listener)
    } else {
        module::read_file::<_, ShiftGather>(bytes, header, options, listener)
    }
}

/// Reads a PNaCl bitcode file like [`read_with`], with its function blocks read in
/// parallel (rayon). The module, or the error (the first in file order), is the same.
/// Not for [`ReadOptions::lenient_structure`], which this ignores.
pub fn read_parallel(bytes: &[u8], options: ReadOptions) -> Result<Module, ReadError> {
    let header = check_header(bytes)?;
    let options = ReadOptions { lenient_structure: false, ..options };
    if options.uses_pext() {
        module::read_parallel_file::<PextGather>(bytes, header, options)
    } else {
        module::read_parallel_file::<ShiftGather>(bytes, header, options)
    }
}

/// The checks made before the bitstream is read: length and header.
fn check_header(bytes: &[u8]) -> Result<PexeHeader, ReadError> {
    if !bytes.len().is_multiple_of(4) {
        return Err(ReadError::new(
            BitPos(0),
            Rule::FileLength,
            "Bitcode stream should be a multiple of 4 bytes in length",
        ));
    }
    let header = PexeHeader::parse(bytes).map_err(|e| ReadError::new(BitPos(0), Rule::Header, e.message.clone()))?;
    let status = header.status();
    if !status.readable || !status.supported {
        let mut message = String::from("Invalid PNaCl bitcode header");
        for m in &status.messages {
            message.push_str(": ");
            message.push_str(m);
        }
        return Err(ReadError::new(BitPos(0), Rule::Header, message));
    }
    Ok(header)
}
