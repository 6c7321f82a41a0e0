//! Reader errors: where, which rule, and what went wrong.

use pnacl_bitstream::BitPos;
use std::fmt;

macro_rules! rules {
    ($( $(#[$doc:meta])* $name:ident = $id:literal, $abi:literal, $desc:literal; )*) => {
        /// A rule the reader enforces. Each names one Constraints clause of the reference
        /// (or one of the extra well-formedness checks), so tests and tools can tell exactly
        /// which rule a file breaks.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Rule {
            $( $(#[$doc])* $name, )*
        }

        impl Rule {
            /// Every rule.
            pub const ALL: &'static [Rule] = &[ $( Rule::$name, )* ];

            /// A short stable identifier, such as `binop.type`.
            pub fn id(self) -> &'static str {
                match self { $( Rule::$name => $id, )* }
            }

            /// True for rules that are part of the PNaCl ABI rather than of the encoding: a
            /// reader asked to defer ABI checks lets them through for the verifier to report.
            pub fn is_abi(self) -> bool {
                match self { $( Rule::$name => $abi, )* }
            }

            /// What the rule requires, in words.
            pub fn description(self) -> &'static str {
                match self { $( Rule::$name => $desc, )* }
            }
        }
    };
}

rules! {
    /// The file length is a multiple of 4 bytes.
    FileLength = "file.length", false, "the file length must be a multiple of 4 bytes";
    /// The header is a readable PNaCl version-2 header.
    Header = "file.header", false, "the file must start with a readable PNaCl version 2 header";
    /// The file holds exactly one top-level block, a module block.
    TopLevel = "file.top-level", false, "the file must contain exactly one top-level block, the module block";
    /// The bitstream itself is well formed.
    Bitstream = "bitstream", false, "the bitstream must be well formed (fields, lengths, abbreviation ids)";
    /// Abbreviation-id widths are at most 16 bits and hold every abbreviation in scope.
    AbbrevWidth = "abbrev.width", false, "a block's abbreviation-id width B must satisfy 2**B >= U + 4 and B <= 16";
    /// Abbreviation operands are valid for PNaCl: no blobs, widths of at most 32 bits.
    AbbrevOperand = "abbrev.operand", false, "abbreviation operands must be literals, fixed(N)/vbr(N) with N <= 32, char6 or a final array; blobs are not allowed";
    /// The abbreviations block holds only SETBID and abbreviation records for known blocks.
    Blockinfo = "abbrev.blockinfo", false, "the abbreviations block may only contain SETBID and abbreviation records for known block ids";
    /// A block id is known in its context.
    UnknownBlock = "block.unknown", false, "only the blocks the reference defines may appear, where it allows them";
    /// A record code is known in its block.
    UnknownRecord = "record.unknown", false, "only the records the reference defines may appear in each block";
    /// A record has the number of operands its form requires.
    RecordLength = "record.length", false, "each record must have the number of values its form defines";
    /// The module's blocks and records come in the reference's order.
    ModuleOrder = "module.order", false, "the module block holds, in order: version, abbreviations, types, function addresses, globals, symbol table, function blocks";
    /// The module version record says 1.
    ModuleVersion = "module.version", false, "the version record must come first and be 1";
    /// Types block: the count record comes first, once, and matches the types defined.
    TypesCount = "types.count", false, "the types block starts with a count record and defines exactly that many types (0 == NumTypes; NumTypes < ExpectedTypes)";
    /// Integer types have 1, 8, 16, 32 or 64 bits.
    TypeInteger = "types.integer", false, "integer types must have B in {1, 8, 16, 32, 64}";
    /// Vector types have an allowed element type and count.
    TypeVector = "types.vector", false, "vectors must be <4|8|16 x i1>, <16 x i8>, <8 x i16>, <4 x i32> or <4 x float>";
    /// Type ids refer to types defined earlier in the block, of the right kind.
    TypeRef = "types.ref", false, "a type record may only use types defined before it, of a kind that fits";
    /// Each type is defined once.
    TypeUnique = "types.unique", false, "each type must be unique in the types block";
    /// Function types have value-type parameters and a value or void return type.
    TypeFunction = "types.function", false, "function types return void, a primitive or a vector, and take primitives or vectors";
    /// Function types are not variadic.
    Vararg = "abi.vararg", true, "functions with a variable number of arguments are not allowed";
    /// A function address names a function type.
    FunctionType = "function.type", false, "a function address record must name a function type (T == TypeID(...))";
    /// A function address is `define` (0) or `declare` (1).
    FunctionProto = "function.proto", false, "the prototype flag must be 0 (define) or 1 (declare)";
    /// A function address has linkage external (0) or internal (3).
    FunctionLinkage = "function.linkage", false, "linkage must be 0 (external) or 3 (internal)";
    /// Functions use the C calling convention.
    CallingConv = "abi.calling-convention", true, "the only calling convention is C (0)";
    /// Ordinary functions take and return only i32, i64, float, double or vectors.
    Signature = "abi.signature", true, "ordinary functions may only use i32, i64, float, double and vectors for parameters and results";
    /// Intrinsic functions are named and typed as the whitelist says.
    Intrinsic = "abi.intrinsic", true, "intrinsics must be on the PNaCl whitelist with their exact signature";
    /// Globals block: the count record comes first and matches the globals defined.
    GlobalsCount = "globals.count", false, "the globals block starts with a count record and defines exactly that many globals";
    /// A global variable record is well formed.
    GlobalVar = "globals.var", false, "a global is `var`/`const` (0/1) with an alignment of at most 2**29, and follows a complete initializer";
    /// Each global has exactly the initializers it announces.
    GlobalInit = "globals.initializers", false, "each global is followed by one initializer, or a compound record and exactly that many (ExpectedInitializers)";
    /// Data initializers hold bytes.
    GlobalData = "globals.data", false, "data initializers hold at least one value, each below 256";
    /// Relocations name a function or global and have a 32-bit addend.
    GlobalReloc = "globals.reloc", false, "relocations name a function or global address (VV < NumFuncAddresses + ExpectedGlobals) with a 32-bit addend";
    /// Symbol-table entries name defined values with byte-sized characters.
    Symtab = "symtab.entry", false, "symbol-table entries name defined values (or blocks, in functions) with bytes";
    /// There is one function block per defined function address.
    FunctionBlocks = "function.blocks", false, "the Nth function block implements the Nth defined function address; there is one per defined function";
    /// The basic-block count comes first, once, and is non-zero and plausible.
    DeclareBlocks = "function.declareblocks", false, "the function block starts with `blocks N`, N > 0, and N fits in the block's size";
    /// Instructions are grouped into exactly the declared number of basic blocks.
    BasicBlocks = "function.basic-blocks", false, "a function has exactly ExpectedBasicBlocks terminated basic blocks (NumBasicBlocks < ExpectedBasicBlocks for each instruction)";
    /// The constants block comes before the instructions, once.
    ConstantsOrder = "constants.order", false, "a function's constants block comes before its instructions, at most once";
    /// Set-type records name value types; literals follow one.
    ConstSetType = "constants.settype", false, "literals follow a set-type record naming a non-void primitive or vector type (T == ConstantsSetType)";
    /// Integer literals have an integer type and fit it.
    ConstInteger = "constants.integer", false, "integer literals need an integer type (IsInteger(T)) and a value that fits it";
    /// Floating-point literals have a float type and a pattern of its width.
    ConstFloat = "constants.float", false, "floating literals need a float type (IsFloat(T)) and a bit pattern of its width";
    /// Operands name values defined earlier or forward-declared.
    ValueRef = "value.ref", false, "an operand must be a value defined before its use, or declared by a forward type declaration";
    /// Forward type declarations are unique, in range and honoured.
    ForwardDecl = "value.forward-decl", false, "a forward type declaration names a later instruction value once, within the function's size, with its actual type";
    /// Branch targets are existing, non-entry basic blocks.
    BranchTarget = "branch.target", false, "branch targets must satisfy 0 < N < ExpectedBasicBlocks";
    /// Return values match the function's return type.
    Ret = "ret.type", false, "ret must return a value of the function's return type (void for `ret void`)";
    /// Conditional branches branch on an i1.
    CondBr = "br.condition", false, "a conditional branch needs TypeOf(C) == i1";
    /// Switches are on integers, with single-value cases that fit the type.
    Switch = "switch", false, "switch selects on an integer value; each case is a single value of that type";
    /// Binary operators get two operands of one type the operator is defined on.
    Binop = "binop.type", false, "binary operators need T == TypeOf(V1) == TypeOf(V2), an integer type for integer operators and a float type for float operators";
    /// Integer arithmetic is not done on i1.
    BinopI1 = "abi.int-arith-i1", true, "integer arithmetic (other than and/or/xor) is not allowed on i1 or i1 vectors (UnderlyingType(T) != i1)";
    /// Casts convert between types they are defined on.
    Cast = "cast.type", false, "each conversion is defined only between the types its Constraints list";
    /// Comparisons compare two operands of one type with a matching predicate.
    Compare = "cmp.type", false, "comparisons need T == TypeOf(V1) == TypeOf(V2), icmp on integers and fcmp on floats";
    /// Selects choose between two values of one type on an i1 (vector) condition.
    Select = "select.type", false, "select needs T == TypeOf(V1) == TypeOf(V2) and an i1 condition: a scalar, or a vector of the operands' lane count";
    /// insertelement / extractelement work on a vector with an element of its type and an i32 index.
    Vector = "vector.operands", false, "insertelement/extractelement take a vector, an element of its element type, and an i32 index";
    /// alloca takes an i32 size.
    Alloca = "abi.alloca-size", true, "alloca's size must be an i32 (i32 == TypeOf(S))";
    /// Alignments are at most 2**29.
    Align = "align.max", false, "alignments are powers of two no larger than 2**29";
    /// Loads and stores use an i32 address and a value type.
    Memory = "memory.operands", false, "loads and stores use an i32 address (i32 == TypeOf(P)) and a value type";
    /// Loads and stores use the alignment the type allows, and never i1.
    MemoryAlign = "abi.load-store-align", true, "load/store alignment: integers 1, float 1 or 4, double 1 or 8, vectors their element size; no i1 accesses";
    /// Phis come first in a non-entry block and merge values of their type.
    Phi = "phi", false, "phi instructions start a non-entry block, and each incoming value has the phi's type from a valid block";
    /// Calls match their callee's signature.
    Call = "call.signature", false, "a call passes as many arguments as the callee takes, each of its parameter's type; indirect callees are i32 values that are not function addresses";
    /// Call arguments and results of ordinary functions are i32, i64, float, double or vectors.
    CallTypes = "abi.call-types", true, "arguments and results of ordinary calls must satisfy IsFcnArgType";
}

/// A bitcode file the reader refuses, with where and why.
///
/// The details are boxed (and reachable as fields through `Deref`), so results carrying an
/// error stay small on the reader's hot path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadError(Box<ReadErrorData>);

/// The details of a [`ReadError`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadErrorData {
    /// Position of the record (or block, or field) at fault.
    pub pos: BitPos,
    /// The rule broken.
    pub rule: Rule,
    /// The message, worded as PNaCl's own tools word it where they have a message for it.
    pub message: String,
    /// The block being read, e.g. `function block of @f3`.
    pub block: Option<String>,
    /// The record at fault, as `abbrev: <code, values...>`.
    pub record: Option<String>,
}

impl std::ops::Deref for ReadError {
    type Target = ReadErrorData;
    fn deref(&self) -> &ReadErrorData {
        &self.0
    }
}

impl std::ops::DerefMut for ReadError {
    fn deref_mut(&mut self) -> &mut ReadErrorData {
        &mut self.0
    }
}

impl ReadError {
    /// An error with no context yet.
    #[cold]
    pub fn new(pos: BitPos, rule: Rule, message: impl Into<String>) -> Self {
        ReadError(Box::new(ReadErrorData { pos, rule, message: message.into(), block: None, record: None }))
    }

    /// Multi-line explanation: the error, where it happened and the rule.
    pub fn explain(&self) -> String {
        let mut s = self.to_string();
        if let Some(b) = &self.block {
            s.push_str(&format!("\n  in {b}"));
        }
        if let Some(r) = &self.record {
            s.push_str(&format!("\n  record {r}"));
        }
        s.push_str(&format!("\n  rule {}: {}", self.rule.id(), self.rule.description()));
        s
    }
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Error({}): {}", self.pos, self.message)
    }
}

impl std::error::Error for ReadError {}

impl From<pnacl_bitstream::Error> for ReadError {
    fn from(e: pnacl_bitstream::Error) -> Self {
        let rule = match e.kind {
            pnacl_bitstream::ErrorKind::Abbreviation => Rule::AbbrevOperand,
            pnacl_bitstream::ErrorKind::Malformed => Rule::Bitstream,
        };
        ReadError::new(e.pos, rule, e.message.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn rule_ids_are_unique() {
        let ids: HashSet<_> = Rule::ALL.iter().map(|r| r.id()).collect();
        assert_eq!(ids.len(), Rule::ALL.len());
        for r in Rule::ALL {
            assert_eq!(r.is_abi(), r.id().starts_with("abi."), "{}", r.id());
        }
    }
}
