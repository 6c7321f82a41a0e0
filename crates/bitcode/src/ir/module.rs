//! The module: types, function addresses, globals, symbol table and function bodies.

use super::inst::{Inst, PoolRange, ValueId, ValueSpace};
use super::layout::{BodyLayout, ModuleLayout};
use super::types::{Signature, Ty, TypeDef, TypeId};
use pnacl_bitstream::{BitPos, PexeHeader};
use std::collections::HashMap;

/// Linkage of a function address.
#[repr(u8)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Linkage {
    /// `external` (record value 0).
    External = 0,
    /// `internal` (record value 3).
    Internal = 3,
}

impl Linkage {
    /// Decodes a record value.
    pub fn from_code(c: u64) -> Option<Linkage> {
        match c {
            0 => Some(Linkage::External),
            3 => Some(Linkage::Internal),
            _ => None,
        }
    }

    /// `external` or `internal`.
    pub fn name(self) -> &'static str {
        match self {
            Linkage::External => "external",
            Linkage::Internal => "internal",
        }
    }
}

/// A function address (`@fN`) and, if it is defined, its body.
#[derive(Clone, Debug, PartialEq)]
pub struct Function {
    /// Its function type in the types block.
    pub ty: TypeId,
    /// Calling convention (0 = C, the only one PNaCl allows).
    pub cc: u64,
    /// True for `declare` (no body), false for `define`.
    pub is_proto: bool,
    /// Linkage.
    pub linkage: Linkage,
    /// The body, for defined functions.
    pub body: Option<Box<FunctionBody>>,
}

/// A constant of a function's constants block (`%cN`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Constant {
    /// Its type (set by the preceding set-type record).
    pub ty: Ty,
    /// Its value.
    pub value: ConstValue,
}

/// The value of a constant, as the record stores it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ConstValue {
    /// `undef`.
    Undef,
    /// An integer, sign-rotated as in the record.
    Int(u64),
    /// A floating-point number, as its IEEE bit pattern.
    Float(u64),
}

/// Decodes a sign-rotated value: even `v` is `v / 2`, odd `v` is `-(v / 2)`, and 1 ("-0")
/// is `i64::MIN`.
pub fn decode_sign_rotated(v: u64) -> i64 {
    if v & 1 == 0 {
        (v >> 1) as i64
    } else if v != 1 {
        -((v >> 1) as i64)
    } else {
        i64::MIN
    }
}

/// Encodes a value with sign rotation (the reference's SignRotate).
pub fn encode_sign_rotated(v: i64) -> u64 {
    if v >= 0 {
        (v as u64) << 1
    } else if v == i64::MIN {
        1
    } else {
        ((v.unsigned_abs()) << 1) | 1
    }
}

impl ConstValue {
    /// The integer value, sign-extended from the sign-rotated form.
    pub fn as_int(self) -> Option<i64> {
        match self {
            ConstValue::Int(raw) => Some(decode_sign_rotated(raw)),
            _ => None,
        }
    }
}

/// A set-type record in a constants block: it precedes constant number `before`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SetType {
    /// Number of constants defined before this record.
    pub before: u32,
    /// The type it sets.
    pub ty: Ty,
}

/// A switch case: the record's sign-rotated value and the target block.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SwitchCase {
    /// The case value, sign-rotated.
    pub raw: u64,
    /// Target basic block.
    pub target: u32,
}

impl SwitchCase {
    /// The case value.
    pub fn value(self) -> i64 {
        decode_sign_rotated(self.raw)
    }
}

/// An entry of a symbol table inside a function block.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum LocalSymbol {
    /// `ENTRY`: names a value.
    Value {
        /// The value.
        value: ValueId,
        /// Its name bytes.
        name: Vec<u8>,
    },
    /// `BBENTRY`: names a basic block.
    Block {
        /// The block.
        block: u32,
        /// Its name bytes.
        name: Vec<u8>,
    },
}

/// The implementation of a defined function.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FunctionBody {
    /// Number of basic blocks (`blocks N`).
    pub num_blocks: u32,
    /// Constants (`%cN`), in definition order.
    pub constants: Vec<Constant>,
    /// The set-type records of the constants block.
    pub set_types: Vec<SetType>,
    /// Instruction records, in order (forward type declarations included).
    pub insts: Vec<Inst>,
    /// Index in `insts` of the first record of each basic block.
    pub block_starts: Vec<u32>,
    /// Number of parameters (from the function's signature).
    pub num_params: u32,
    /// TypeOf for every local value, in numbering order: parameters, constants, then
    /// instruction results.
    pub local_types: Vec<Ty>,
    /// Operand pool: call arguments, and phi `(value, block)` pairs.
    pub operands: Vec<u32>,
    /// Switch cases.
    pub cases: Vec<SwitchCase>,
    /// The function's own symbol table, if it has one.
    pub symtab: Option<Vec<LocalSymbol>>,
    /// Bit position of each instruction record, when the reader was asked to keep them.
    pub positions: Vec<BitPos>,
    /// How the body was encoded, when read from a file or assembled from text.
    pub layout: Option<Box<BodyLayout>>,
}

impl FunctionBody {
    /// Types of the instruction results (`%vN`).
    pub fn values(&self) -> &[Ty] {
        &self.local_types[(self.num_params as usize + self.constants.len()).min(self.local_types.len())..]
    }

    /// The pool entries of `r`.
    pub fn pool(&self, r: PoolRange) -> &[u32] {
        &self.operands[r.range()]
    }

    /// Call arguments.
    pub fn args(&self, r: PoolRange) -> impl ExactSizeIterator<Item = ValueId> + '_ {
        self.pool(r).iter().map(|&v| ValueId(v))
    }

    /// Phi incoming `(value, block)` pairs.
    pub fn incoming(&self, r: PoolRange) -> impl ExactSizeIterator<Item = (ValueId, u32)> + '_ {
        self.pool(r).chunks_exact(2).map(|p| (ValueId(p[0]), p[1]))
    }

    /// The default target of a switch whose cases are `r`.
    pub fn switch_default(&self, r: PoolRange) -> u32 {
        self.cases[r.start as usize].target
    }

    /// Switch cases of `r`, without the default.
    pub fn switch_cases(&self, r: PoolRange) -> &[SwitchCase] {
        &self.cases[r.start as usize + 1..(r.start + r.len) as usize]
    }

    /// True if both bodies mean the same thing: everything but the layout and positions.
    pub fn same_contents(&self, other: &FunctionBody) -> bool {
        self.num_blocks == other.num_blocks
            && self.constants == other.constants
            && self.set_types == other.set_types
            && self.insts == other.insts
            && self.block_starts == other.block_starts
            && self.num_params == other.num_params
            && self.local_types == other.local_types
            && self.operands == other.operands
            && self.cases == other.cases
            && self.symtab == other.symtab
    }

    /// The instruction records of basic block `b`.
    pub fn block(&self, b: u32) -> &[Inst] {
        let start = self.block_starts[b as usize] as usize;
        let end = self.block_starts.get(b as usize + 1).map_or(self.insts.len(), |&e| e as usize);
        &self.insts[start..end]
    }
}

/// One simple initializer of a global.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Init {
    /// `zerofill N`: N zero bytes.
    Zerofill(u64),
    /// `{ b1, ..., bN }`: bytes.
    Data(Vec<u8>),
    /// `reloc V` / `reloc V + X`: a 4-byte address, optionally with an addend. The addend is
    /// kept as the record's 32-bit two's-complement value.
    Reloc {
        /// The global or function whose address is stored.
        target: ValueId,
        /// The addend, if the record has one.
        addend: Option<u32>,
    },
}

impl Init {
    /// Number of bytes the initializer defines.
    pub fn size(&self) -> u64 {
        match self {
            Init::Zerofill(n) => *n,
            Init::Data(d) => d.len() as u64,
            Init::Reloc { .. } => 4,
        }
    }
}

/// A global variable or constant (`@gN`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Global {
    /// Alignment, encoded as the record stores it (log2 + 1).
    pub align: super::inst::Align,
    /// True for `const`, false for `var`.
    pub is_const: bool,
    /// The initializers; more than one means a compound initializer.
    pub inits: Vec<Init>,
    /// True if the initializers came in a compound record (`initializers N { ... }`), even
    /// when there is only one.
    pub compound: bool,
}

impl Global {
    /// Size in bytes.
    pub fn size(&self) -> u64 {
        self.inits.iter().map(Init::size).sum()
    }
}

/// An entry of the module symbol table.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Symbol {
    /// The function or global named.
    pub value: ValueId,
    /// The name bytes.
    pub name: Vec<u8>,
}

/// Bit positions of module-level records, kept when the reader is asked for them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ModulePositions {
    /// Each function address record.
    pub functions: Vec<BitPos>,
    /// Each global variable record.
    pub globals: Vec<BitPos>,
    /// Each module symbol-table entry.
    pub symbols: Vec<BitPos>,
    /// Each function block's enter record, per defined function (by function index).
    pub bodies: HashMap<u32, BitPos>,
}

/// A PNaCl module: everything a pexe defines.
#[derive(Clone, Debug, PartialEq)]
pub struct Module {
    /// The file header.
    pub header: PexeHeader,
    /// The module version record (1).
    pub version: u64,
    /// The types block (`@tN`).
    pub types: Vec<TypeDef>,
    /// Function addresses (`@fN`), with bodies for defined ones.
    pub functions: Vec<Function>,
    /// Globals (`@gN`).
    pub globals: Vec<Global>,
    /// The module symbol table, if the file has one.
    pub symtab: Option<Vec<Symbol>>,
    /// Positions of module-level records, when requested.
    pub positions: Option<Box<ModulePositions>>,
    /// How the module was encoded, when read from a file or assembled from text.
    pub layout: Option<Box<ModuleLayout>>,
}

impl Default for Module {
    fn default() -> Self {
        Module {
            header: PexeHeader::standard(),
            version: 1,
            types: Vec::new(),
            functions: Vec::new(),
            globals: Vec::new(),
            symtab: None,
            positions: None,
            layout: None,
        }
    }
}

impl Module {
    /// The signature of function `f`.
    ///
    /// # Panics
    /// If the function's type is not a function type (the reader never builds such a module).
    #[inline]
    pub fn signature(&self, f: u32) -> &Signature {
        match &self.types[self.functions[f as usize].ty as usize] {
            TypeDef::Function(s) => s,
            TypeDef::Value(t) => panic!("function @f{f} has non-function type {t}"),
        }
    }

    /// True if `inst` defines a value (`%vN`): every instruction but stores, terminators
    /// and forward declarations, and calls that return `void`.
    #[inline]
    pub fn defines_value(&self, inst: &Inst) -> bool {
        match *inst {
            Inst::Call { callee, indirect_ret, .. } => {
                let ret = indirect_ret.unwrap_or_else(|| {
                    if (callee.0 as usize) < self.functions.len() { self.signature(callee.0).ret } else { Ty::Void }
                });
                ret != Ty::Void
            }
            Inst::Store { .. }
            | Inst::Ret { .. }
            | Inst::Br { .. }
            | Inst::CondBr { .. }
            | Inst::Switch { .. }
            | Inst::Unreachable
            | Inst::ForwardDecl { .. } => false,
            _ => true,
        }
    }

    /// The value ranges inside function `f`.
    pub fn value_space(&self, f: u32) -> ValueSpace {
        let func = &self.functions[f as usize];
        ValueSpace {
            functions: self.functions.len() as u32,
            globals: self.globals.len() as u32,
            params: self.signature(f).params.len() as u32,
            consts: func.body.as_ref().map_or(0, |b| b.constants.len() as u32),
        }
    }

    /// The type id of value type `ty`, if the types block defines it.
    pub fn type_id(&self, ty: Ty) -> Option<TypeId> {
        self.types.iter().position(|t| *t == TypeDef::Value(ty)).map(|i| i as TypeId)
    }

    /// Indices of the defined functions, in order (the order of function blocks).
    pub fn defined_functions(&self) -> impl Iterator<Item = u32> + '_ {
        self.functions.iter().enumerate().filter(|(_, f)| !f.is_proto).map(|(i, _)| i as u32)
    }

    /// A lookup table from values to their symbol-table names.
    pub fn names(&self) -> Names<'_> {
        let mut by_value = HashMap::new();
        for s in self.symtab.iter().flatten() {
            by_value.entry(s.value).or_insert(s.name.as_slice());
        }
        Names { by_value }
    }

    /// True if both modules mean the same thing: same header, types, functions, bodies,
    /// globals and symbol table, whatever their layouts and recorded positions.
    pub fn same_contents(&self, other: &Module) -> bool {
        self.header == other.header
            && self.version == other.version
            && self.types == other.types
            && self.globals == other.globals
            && self.symtab == other.symtab
            && self.functions.len() == other.functions.len()
            && self.functions.iter().zip(&other.functions).all(|(a, b)| {
                a.ty == b.ty
                    && a.cc == b.cc
                    && a.is_proto == b.is_proto
                    && a.linkage == b.linkage
                    && match (&a.body, &b.body) {
                        (Some(x), Some(y)) => x.same_contents(y),
                        (None, None) => true,
                        _ => false,
                    }
            })
    }

    /// Total number of instruction records in all bodies.
    pub fn instruction_count(&self) -> usize {
        self.functions.iter().filter_map(|f| f.body.as_ref()).map(|b| b.insts.len()).sum()
    }
}

/// Names from the module symbol table.
#[derive(Clone, Debug, Default)]
pub struct Names<'m> {
    by_value: HashMap<ValueId, &'m [u8]>,
}

impl<'m> Names<'m> {
    /// The name of a function or global, if it has one.
    pub fn get(&self, v: ValueId) -> Option<&'m [u8]> {
        self.by_value.get(&v).copied()
    }

    /// The name of function `f` as text, if it has one.
    pub fn function(&self, f: u32) -> Option<&'m str> {
        self.get(ValueId(f)).and_then(|n| std::str::from_utf8(n).ok())
    }
}
