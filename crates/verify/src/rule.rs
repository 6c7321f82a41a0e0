//! The rules the verifier checks, each with a stable id.

use std::fmt;

macro_rules! rules {
    ($($(#[$doc:meta])* $name:ident = $id:literal, $what:literal;)*) => {
        /// A rule of the PNaCl ABI (`abi.…`), or of LLVM IR that the original tools
        /// enforced with LLVM's verifier (`ir.…`). A few rules only warn
        /// ([`Rule::is_warning`]).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Rule {
            $($(#[$doc])* $name,)*
        }

        impl Rule {
            /// Every rule.
            pub const ALL: &'static [Rule] = &[$(Rule::$name),*];

            /// The stable id (`abi.…` or `ir.…`), as the reader's ABI rules spell it too.
            pub fn id(self) -> &'static str {
                match self { $(Rule::$name => $id,)* }
            }

            /// What the rule requires.
            pub fn description(self) -> &'static str {
                match self { $(Rule::$name => $what,)* }
            }
        }
    };
}

rules! {
    /// No function type takes variable arguments.
    Vararg = "abi.vararg", "function types are not variadic";
    /// Functions use the C calling convention.
    CallingConv = "abi.calling-convention", "functions use the C calling convention (0)";
    /// Ordinary functions have valid parameter and return types.
    Signature = "abi.signature", "parameters and results of functions other than intrinsics are i32, i64, float, double or an allowed vector (results may be void)";
    /// `llvm.*` functions are whitelisted intrinsics with their exact types.
    Intrinsic = "abi.intrinsic", "a function named llvm.* is one of the whitelisted intrinsics, declared with its exact type";
    /// Intrinsics are declared, not defined.
    IntrinsicDefined = "abi.intrinsic-defined", "intrinsics are declared without a body";
    /// An intrinsic's address is not taken.
    IntrinsicAddress = "abi.intrinsic-address", "intrinsics are only called directly: their address is not a value";
    /// Only the entry point is external.
    External = "abi.external", "the only external symbols are the entry point `_start` and the intrinsics";
    /// One entry point.
    EntryPoint = "abi.entry-point", "a module has exactly one entry point: a defined function `_start` (or a global `__pnacl_pso_root`)";
    /// Every non-intrinsic function has a body.
    UndefinedFunction = "abi.undefined-function", "functions other than intrinsics are defined";
    /// Symbol names are unique.
    DuplicateName = "abi.duplicate-name", "the module symbol table names each value once and gives each name once";
    /// Global initializers are flat.
    GlobalInitializer = "abi.global-initializer", "a compound initializer has at least two elements";
    /// No integer arithmetic on `i1`.
    BinopI1 = "abi.int-arith-i1", "integer arithmetic (add, sub, mul, div, rem, shifts) is not done on i1 or vectors of i1";
    /// No optimisation flags on operators.
    BinopFlags = "abi.binop-flags", "binary operators carry no nuw, nsw or exact flags";
    /// Switches are on i8, i16, i32 or i64.
    SwitchType = "abi.switch-type", "switch conditions are i8, i16, i32 or i64, not i1";
    /// `alloca` sizes are `i32`.
    Alloca = "abi.alloca-size", "alloca allocates i8 with an i32 size";
    /// Loads and stores use the allowed types.
    MemoryType = "abi.memory-type", "loads and stores use i8, i16, i32, i64, float, double or a vector other than of i1";
    /// Loads and stores use the allowed alignments.
    MemoryAlign = "abi.load-store-align", "alignment of loads and stores: 1 for integers, 1 or 4 for float, 1 or 8 for double, the element size for vectors";
    /// Vector element indices are in-range constants.
    VectorIndex = "abi.vector-index", "extractelement and insertelement indices are constants within the vector";
    /// Calls pass and return valid types.
    CallTypes = "abi.call-types", "arguments and results of calls other than to intrinsics are i32, i64, float, double or an allowed vector";
    /// Calls reach defined functions.
    CallUndefined = "abi.call-undefined", "direct calls are to defined functions or intrinsics";
    /// Atomic memory orders are valid constants.
    AtomicOrder = "abi.atomic-order", "memory orders of atomic intrinsics are constants valid for the operation";
    /// Atomic read-modify-write operations are valid constants.
    AtomicRmwOp = "abi.atomic-rmw-op", "the operation of llvm.nacl.atomic.rmw is a constant from 1 (add) to 6 (exchange)";
    /// `is.lock.free` sizes are valid constants.
    AtomicLockFreeSize = "abi.atomic-lock-free-size", "the size of llvm.nacl.atomic.is.lock.free is the constant 1, 2, 4 or 8";
    /// Every use of a value is dominated by its definition.
    Dominance = "ir.dominance", "a value is used only where its definition dominates the use (SSA form)";
    /// Phis match the predecessors of their block.
    Phi = "ir.phi", "a phi has an incoming value for each predecessor of its block, for no other block, and one value per predecessor";
    /// Memory intrinsics have constant, trivial alignment and volatility operands.
    MemIntrinsic = "abi.mem-intrinsic", "memcpy, memmove and memset take the constant alignment 1 and a constant volatile flag";
    /// A warning, not a violation: a call through a function's own address passes another
    /// number of arguments than the function declares.
    CallArgumentCount = "abi.call-argument-count", "a call through a function's own address passes the arguments the function declares (a warning: such a call was a direct call whose argument count differs, which the PNaCl writer could only write as an indirect call; `pnacl run` drops extra arguments when the callee returns the same type, and traps otherwise)";
}

impl Rule {
    /// True for the rules whose breach is only a warning: the module is still ABI-clean.
    pub fn is_warning(self) -> bool {
        matches!(self, Rule::CallArgumentCount)
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}
