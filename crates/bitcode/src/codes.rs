//! Block ids and record codes of PNaCl bitcode.

/// Block ids.
pub mod block {
    /// The abbreviations (BLOCKINFO) block.
    pub const BLOCKINFO: u32 = 0;
    /// The module block.
    pub const MODULE: u32 = 8;
    /// A function's constants block.
    pub const CONSTANTS: u32 = 11;
    /// A function block.
    pub const FUNCTION: u32 = 12;
    /// A symbol table.
    pub const VALUESYMTAB: u32 = 14;
    /// The types block.
    pub const TYPES: u32 = 17;
    /// The globals block.
    pub const GLOBALS: u32 = 19;

    /// The name PNaClAsm uses for a block id.
    pub fn name(id: u32) -> Option<&'static str> {
        Some(match id {
            BLOCKINFO => "abbreviations",
            MODULE => "module",
            CONSTANTS => "constants",
            FUNCTION => "function",
            VALUESYMTAB => "valuesymtab",
            TYPES => "types",
            GLOBALS => "globals",
            _ => return None,
        })
    }
}

/// Module block records.
pub mod module {
    /// `version N`.
    pub const VERSION: u64 = 1;
    /// A function address.
    pub const FUNCTION: u64 = 8;
}

/// Types block records.
pub mod types {
    /// `count N`.
    pub const NUMENTRY: u64 = 1;
    /// `void`.
    pub const VOID: u64 = 2;
    /// `float`.
    pub const FLOAT: u64 = 3;
    /// `double`.
    pub const DOUBLE: u64 = 4;
    /// `iN`.
    pub const INTEGER: u64 = 7;
    /// `<N x T>`.
    pub const VECTOR: u64 = 12;
    /// `R (P...)`.
    pub const FUNCTION: u64 = 21;
}

/// Globals block records.
pub mod globals {
    /// `var` / `const`.
    pub const VAR: u64 = 0;
    /// `initializers N {`.
    pub const COMPOUND: u64 = 1;
    /// `zerofill N`.
    pub const ZEROFILL: u64 = 2;
    /// `{ bytes }`.
    pub const DATA: u64 = 3;
    /// `reloc V` / `reloc V + X`.
    pub const RELOC: u64 = 4;
    /// `count N`.
    pub const COUNT: u64 = 5;
}

/// Symbol-table records.
pub mod symtab {
    /// Names a value.
    pub const ENTRY: u64 = 1;
    /// Names a basic block.
    pub const BBENTRY: u64 = 2;
}

/// Constants block records.
pub mod constants {
    /// `T:`.
    pub const SETTYPE: u64 = 1;
    /// `undef`.
    pub const UNDEF: u64 = 3;
    /// An integer literal.
    pub const INTEGER: u64 = 4;
    /// A floating-point literal.
    pub const FLOAT: u64 = 6;
}

/// Function block records.
pub mod function {
    /// `blocks N`.
    pub const DECLAREBLOCKS: u64 = 1;
    /// Binary operator.
    pub const BINOP: u64 = 2;
    /// Conversion.
    pub const CAST: u64 = 3;
    /// `extractelement`.
    pub const EXTRACTELT: u64 = 6;
    /// `insertelement`.
    pub const INSERTELT: u64 = 7;
    /// `ret`.
    pub const RET: u64 = 10;
    /// `br`.
    pub const BR: u64 = 11;
    /// `switch`.
    pub const SWITCH: u64 = 12;
    /// `unreachable`.
    pub const UNREACHABLE: u64 = 15;
    /// `phi`.
    pub const PHI: u64 = 16;
    /// `alloca`.
    pub const ALLOCA: u64 = 19;
    /// `load`.
    pub const LOAD: u64 = 20;
    /// `store`.
    pub const STORE: u64 = 24;
    /// `icmp` / `fcmp`.
    pub const CMP2: u64 = 28;
    /// `select`.
    pub const VSELECT: u64 = 29;
    /// Direct `call`.
    pub const CALL: u64 = 34;
    /// Forward type declaration.
    pub const FORWARDTYPEREF: u64 = 43;
    /// Indirect `call`.
    pub const CALL_INDIRECT: u64 = 44;
}

/// Pseudo record codes the tools use for structural records in listings.
pub mod pseudo {
    /// The file header.
    pub const HEADER: u64 = 65532;
    /// An abbreviation definition.
    pub const DEFINE_ABBREV: u64 = 65533;
    /// A block exit.
    pub const EXIT: u64 = 65534;
    /// A block enter.
    pub const ENTER: u64 = 65535;
}
