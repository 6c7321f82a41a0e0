//! The walk over the bitstream that drives the listing, as pnacl-bcdis walks it: one block
//! parser per block kind, each checking its records as the original does and going on
//! after an error with the value the original assumes.
//!
//! This module holds the state shared by all blocks (pnacl-bcdis's top-level parser: the
//! types, functions and globals defined so far, the per-function value types) and the
//! walk itself; `module` lists the module-level blocks and `function` the function blocks.

use super::output::Dumper;
use super::parallel::Ahead;
use super::types::{I32, T, Types, VOID};
use pnacl_bitcode::codes::block;
use pnacl_bitstream::{AbbrevTarget, BitPos, Cursor, Enter, Entry, Record};

/// What kind of parser a block gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    Module,
    BlockInfo,
    Types,
    Globals,
    Symtab,
    Function,
    Constants,
    Unknown,
}

/// The state of the block being read.
pub(super) struct Block {
    pub kind: Kind,
    pub id: u32,
    /// Global abbreviations in scope (for `<@aN>` / `<%aN>` annotations).
    pub global_abbrevs: usize,
    /// Local abbreviations defined so far.
    pub local_abbrevs: u32,
    /// Types block: the count record's value, and whether a record was read.
    pub expected: u64,
    pub first_record: bool,
    /// Globals block: initializers still expected, and whether in a compound one.
    pub initializers: u64,
    pub in_compound: bool,
    /// Assembly indentation of the block's contents (globals) or of the block (constants).
    pub base_tabs: usize,
    /// Constants block: the set type.
    pub constant_type: T,
    /// Function block: what pnacl-bcdis's function parser keeps.
    pub function: Option<FunctionBlock>,
}

/// A function block's state.
pub(super) struct FunctionBlock {
    /// Index of the current basic block (-1 before the first label).
    pub current_bb: i64,
    /// The `blocks N` count.
    pub expected_bbs: u32,
    /// The previous record ended a basic block: the next one gets a label.
    pub terminating: bool,
    /// Instruction values beyond this number can't be declared (8 per word of the block).
    pub max_values: u64,
}

/// The module-level state function blocks read: what the module's blocks defined. It is
/// copied to the threads that list function blocks in parallel (see `parallel`).
#[derive(Clone, Default)]
pub(super) struct Module {
    pub types: Types,
    /// Types by type id.
    pub type_ids: Vec<T>,
    /// Function types by function index, where each was declared, and whether it is an
    /// intrinsic.
    pub fn_types: Vec<T>,
    pub fn_pos: Vec<BitPos>,
    pub fn_intrinsic: Vec<bool>,
    /// Indices of the defined functions, in order.
    pub defined: Vec<u32>,
    pub num_globals: u32,
    pub expected_globals: u32,
    /// Global abbreviations defined for each block id (by the abbreviations block).
    pub global_abbrev_counts: Vec<(u32, u32)>,
}

/// pnacl-bcdis's top-level parser state, and the listing.
pub(super) struct Walker<'w> {
    pub d: Dumper<'w>,
    pub abi: bool,
    pub m: Module,
    /// How many function blocks were read.
    pub num_defined: usize,
    /// Per-function value types.
    pub params: Vec<T>,
    pub consts: Vec<T>,
    pub insts: Vec<T>,
    pub num_valued: u32,
    /// A call's arguments (type and value), reused from call to call.
    pub call_args: Vec<(T, u32)>,
    pub found_function_block: bool,
    /// Function blocks listed ahead, in parallel (none when listing on one thread).
    pub ahead: Option<Box<Ahead<'w>>>,
}

impl<'w> Walker<'w> {
    pub(super) fn new(d: Dumper<'w>, abi: bool) -> Self {
        Walker {
            d,
            abi,
            m: Module::default(),
            num_defined: 0,
            params: Vec::new(),
            consts: Vec::new(),
            insts: Vec::new(),
            num_valued: 0,
            call_args: Vec::new(),
            found_function_block: false,
            ahead: None,
        }
    }

    /// The type with id `index`; `void` (with an error) if there is none.
    pub(super) fn get_type(&mut self, index: u64) -> T {
        match self.m.type_ids.get(index as usize) {
            Some(&t) => t,
            None => {
                self.d.error_line(format_args!("Can't find definition for @t{index}"));
                VOID
            }
        }
    }

    /// The name of an absolute value index.
    pub(super) fn value_id(&self, index: u32) -> (char, char, u32) {
        let mut i = index;
        let nf = self.m.fn_types.len() as u32;
        if i < nf {
            return ('@', 'f', i);
        }
        i -= nf;
        if i < self.m.expected_globals {
            return ('@', 'g', i);
        }
        i -= self.m.expected_globals;
        let np = self.params.len() as u32;
        if i < np {
            return ('%', 'p', i);
        }
        i -= np;
        let nc = self.consts.len() as u32;
        if i < nc {
            return ('%', 'c', i);
        }
        ('%', 'v', i - nc)
    }

    /// Writes the name of an absolute value index to the assembly.
    pub(super) fn name(&mut self, index: u32) {
        let (_, kind, n) = self.value_id(index);
        let prefix = match kind {
            'f' => "@f",
            'g' => "@g",
            'p' => "%p",
            'c' => "%c",
            _ => "%v",
        };
        self.d.asm.text(prefix).num(u64::from(n));
    }

    /// The name as text, for messages.
    pub(super) fn name_string(&self, index: u32) -> String {
        let (scope, kind, n) = self.value_id(index);
        format!("{scope}{kind}{n}")
    }

    /// The type of an absolute value index; function addresses are `i32` unless
    /// `underlying`, when they are their function type.
    pub(super) fn value_type(&mut self, index: u32, underlying: bool) -> T {
        let mut i = index;
        let nf = self.m.fn_types.len() as u32;
        if i < nf {
            return if underlying { self.m.fn_types[i as usize] } else { I32 };
        }
        i -= nf;
        if i < self.m.expected_globals {
            return I32;
        }
        i -= self.m.expected_globals;
        let np = self.params.len() as u32;
        if i < np {
            return self.params[i as usize];
        }
        i -= np;
        let nc = self.consts.len() as u32;
        if i < nc {
            return self.consts[i as usize];
        }
        i -= nc;
        match self.insts.get(i as usize) {
            Some(&t) => t,
            None => {
                self.d.error_line(format_args!("Can't find type for %v{i}"));
                VOID
            }
        }
    }

    /// Number of global abbreviations the abbreviations block defined for `block_id`.
    pub(super) fn global_abbrev_count(&self, block_id: u32) -> u32 {
        self.m.global_abbrev_counts.iter().find(|(b, _)| *b == block_id).map_or(0, |&(_, n)| n)
    }

    /// Reads the file's top-level blocks after the header. Returns the number read.
    pub(super) fn top_level(&mut self, c: &mut Cursor<'_>) -> usize {
        let mut blocks = 0;
        loop {
            if self.d.stopped() {
                return blocks;
            }
            match c.next_entry() {
                Ok(Entry::End(_)) => return blocks,
                Ok(Entry::Enter(e)) => {
                    blocks += 1;
                    self.d.header_record();
                    if e.block_id != block::MODULE {
                        self.d.error_at(e.pos, "Module block expected at top-level, but not found\n");
                        if let Err(err) = c.skip_block() {
                            self.d.fatal(err.pos, &err.message);
                        }
                        continue;
                    }
                    self.block(c, e, Kind::Module);
                }
                Ok(_) => unreachable!("the cursor reads only blocks at the top level"),
                Err(err) => {
                    self.d.fatal(err.pos, &err.message);
                    return blocks;
                }
            }
        }
    }

    /// The parser a block nested in `parent` gets, with the error pnacl-bcdis reports
    /// when it doesn't know the block there.
    fn nested_kind(&mut self, parent: Kind, parent_id: u32, e: &Enter) -> Kind {
        self.d.record_pos = e.pos;
        let kind = match (parent, e.block_id) {
            (Kind::Module, block::BLOCKINFO) => Kind::BlockInfo,
            (Kind::Module, block::TYPES) => Kind::Types,
            (Kind::Module, block::GLOBALS) => Kind::Globals,
            (Kind::Module, block::VALUESYMTAB) => {
                if self.found_function_block {
                    self.d.error_line("Module symbol table must appear before function blocks");
                }
                Kind::Symtab
            }
            (Kind::Module, block::FUNCTION) => {
                self.found_function_block = true;
                Kind::Function
            }
            (Kind::Function, block::CONSTANTS) => Kind::Constants,
            (Kind::Function, block::VALUESYMTAB) => Kind::Symtab,
            _ => Kind::Unknown,
        };
        if kind == Kind::Unknown {
            self.d.error_line(format_args!("Don't know how to parse block {}, when in block {parent_id}", e.block_id));
        }
        kind
    }

    /// Reads a block whose ENTER_SUBBLOCK the cursor just read, up to its END_BLOCK.
    pub(super) fn block(&mut self, c: &mut Cursor<'_>, e: Enter, kind: Kind) {
        let mut b = Block {
            kind,
            id: e.block_id,
            global_abbrevs: self.global_abbrev_count(e.block_id) as usize,
            local_abbrevs: 0,
            expected: 0,
            first_record: true,
            initializers: 0,
            in_compound: false,
            base_tabs: 0,
            constant_type: VOID,
            function: None,
        };
        self.enter_block(&mut b, &e);
        loop {
            if self.d.stopped() {
                return;
            }
            match c.next_entry() {
                Ok(Entry::Record(r)) => self.record(&mut b, &r),
                Ok(Entry::Abbrev { pos, abbrev, target }) => {
                    let abbrev = abbrev.clone();
                    match target {
                        AbbrevTarget::Global { block_id, index } => {
                            self.d.global_abbrev(pos, &abbrev, index);
                            match self.m.global_abbrev_counts.iter_mut().find(|(id, _)| *id == block_id) {
                                Some((_, n)) => *n += 1,
                                None => self.m.global_abbrev_counts.push((block_id, 1)),
                            }
                        }
                        AbbrevTarget::Local { .. } => {
                            self.d.local_abbrev(pos, &abbrev, b.local_abbrevs);
                            b.local_abbrevs += 1;
                        }
                    }
                }
                Ok(Entry::Enter(inner)) => {
                    let k = self.nested_kind(b.kind, b.id, &inner);
                    if k == Kind::Function && b.kind == Kind::Module && self.listed_ahead(c, &inner) {
                        continue;
                    }
                    if k == Kind::Globals && b.kind == Kind::Module && self.globals_beside_functions(c, &inner) {
                        continue;
                    }
                    self.block(c, inner, k);
                }
                Ok(Entry::Exit(pos)) => {
                    self.exit_block(&mut b, pos);
                    return;
                }
                Ok(Entry::End(pos)) => {
                    self.d.fatal(pos, "Unexpected end of file inside a block");
                    return;
                }
                Err(err) => {
                    self.d.fatal(err.pos, &err.message);
                    return;
                }
            }
        }
    }

    fn enter_block(&mut self, b: &mut Block, e: &Enter) {
        match b.kind {
            Kind::Function => self.enter_function(b, e),
            Kind::Unknown => {
                self.d.error_line(format_args!("Unknown block id found: {}", e.block_id));
                self.d.block_header("unknown", e.block_id);
            }
            _ => {
                let name = block::name(e.block_id).unwrap_or("unknown");
                self.d.block_header(name, e.block_id);
            }
        }
        self.d.enter_record(e);
        match b.kind {
            Kind::Globals => b.base_tabs = self.d.asm_level(),
            Kind::Constants => b.base_tabs = self.d.asm_level() - 1,
            _ => {}
        }
    }

    fn record(&mut self, b: &mut Block, r: &Record<'_, '_>) {
        match b.kind {
            Kind::Module => self.module_record(b, r),
            Kind::BlockInfo => self.blockinfo_record(r),
            Kind::Types => self.types_record(b, r),
            Kind::Globals => self.globals_record(b, r),
            Kind::Symtab => self.symtab_record(b, r),
            Kind::Function => self.function_record(b, r),
            Kind::Constants => self.constants_record(b, r),
            Kind::Unknown => self.d.write_record(r),
        }
    }

    fn exit_block(&mut self, b: &mut Block, pos: BitPos) {
        if b.kind == Kind::Globals {
            self.exit_globals(b);
        }
        self.d.exit_record(pos);
        match b.kind {
            Kind::Types => {
                let found = self.m.type_ids.len() as u64;
                if found != b.expected {
                    self.d.error_line(format_args!("Expected {} types but found: {found}", b.expected));
                }
            }
            Kind::Constants => self.d.unwind_to(b.base_tabs),
            Kind::Function => self.exit_function(b),
            Kind::Module => self.exit_module(),
            _ => {}
        }
        self.d.flush();
    }
}
