//! The operators, predicates and orderings instructions are parameterized by.

/// Binary operators.
#[allow(missing_docs)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    Add,
    FAdd,
    Sub,
    FSub,
    Mul,
    FMul,
    UDiv,
    SDiv,
    FDiv,
    URem,
    SRem,
    FRem,
    Shl,
    LShr,
    AShr,
    And,
    Or,
    Xor,
}

impl BinaryOp {
    /// The mnemonic.
    pub fn name(self) -> &'static str {
        use BinaryOp::*;
        match self {
            Add => "add",
            FAdd => "fadd",
            Sub => "sub",
            FSub => "fsub",
            Mul => "mul",
            FMul => "fmul",
            UDiv => "udiv",
            SDiv => "sdiv",
            FDiv => "fdiv",
            URem => "urem",
            SRem => "srem",
            FRem => "frem",
            Shl => "shl",
            LShr => "lshr",
            AShr => "ashr",
            And => "and",
            Or => "or",
            Xor => "xor",
        }
    }

    /// True for the floating-point operators.
    pub fn is_float(self) -> bool {
        use BinaryOp::*;
        matches!(self, FAdd | FSub | FMul | FDiv | FRem)
    }
}

/// Bits of [`InstKind::Binary::flags`] for add, sub, mul and shl (bitcode `OBO_*`).
pub mod flags {
    /// `nuw`.
    pub const NUW: u32 = 1;
    /// `nsw`.
    pub const NSW: u32 = 2;
    /// `exact` (udiv, sdiv, lshr, ashr).
    pub const EXACT: u32 = 1;
}

/// Conversion operators.
#[allow(missing_docs)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CastOp {
    Trunc,
    ZExt,
    SExt,
    FpToUi,
    FpToSi,
    UiToFp,
    SiToFp,
    FpTrunc,
    FpExt,
    PtrToInt,
    IntToPtr,
    Bitcast,
    AddrSpaceCast,
}

impl CastOp {
    /// The mnemonic.
    pub fn name(self) -> &'static str {
        use CastOp::*;
        match self {
            Trunc => "trunc",
            ZExt => "zext",
            SExt => "sext",
            FpToUi => "fptoui",
            FpToSi => "fptosi",
            UiToFp => "uitofp",
            SiToFp => "sitofp",
            FpTrunc => "fptrunc",
            FpExt => "fpext",
            PtrToInt => "ptrtoint",
            IntToPtr => "inttoptr",
            Bitcast => "bitcast",
            AddrSpaceCast => "addrspacecast",
        }
    }
}

/// Integer comparison predicates.
#[allow(missing_docs)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IntPred {
    Eq,
    Ne,
    Ugt,
    Uge,
    Ult,
    Ule,
    Sgt,
    Sge,
    Slt,
    Sle,
}

impl IntPred {
    /// The mnemonic (`eq`, `slt`, ...).
    pub fn name(self) -> &'static str {
        use IntPred::*;
        match self {
            Eq => "eq",
            Ne => "ne",
            Ugt => "ugt",
            Uge => "uge",
            Ult => "ult",
            Ule => "ule",
            Sgt => "sgt",
            Sge => "sge",
            Slt => "slt",
            Sle => "sle",
        }
    }

    /// LLVM's predicate number (32 for `eq` .. 41 for `sle`), as bitcode stores it.
    pub fn code(self) -> u32 {
        32 + self as u32
    }

    /// The predicate with LLVM number `code`.
    pub fn from_code(code: u64) -> Option<IntPred> {
        use IntPred::*;
        const ALL: [IntPred; 10] = [Eq, Ne, Ugt, Uge, Ult, Ule, Sgt, Sge, Slt, Sle];
        ALL.get(usize::try_from(code.checked_sub(32)?).ok()?).copied()
    }
}

/// Floating-point comparison predicates, by LLVM number (0 `false` .. 15 `true`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FloatPred(pub u8);

impl FloatPred {
    /// The mnemonic (`oeq`, `uno`, ...).
    pub fn name(self) -> &'static str {
        const NAMES: [&str; 16] = [
            "false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "uno", "ueq", "ugt", "uge", "ult", "ule", "une",
            "true",
        ];
        NAMES[usize::from(self.0 & 15)]
    }
}

/// Memory orderings of atomic operations, by their bitcode number.
#[allow(missing_docs)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Ordering {
    #[default]
    NotAtomic,
    Unordered,
    Monotonic,
    Acquire,
    Release,
    AcqRel,
    SeqCst,
}

impl Ordering {
    /// The keyword (`monotonic`, `seq_cst`, ...); empty for non-atomic.
    pub fn name(self) -> &'static str {
        use Ordering::*;
        match self {
            NotAtomic => "",
            Unordered => "unordered",
            Monotonic => "monotonic",
            Acquire => "acquire",
            Release => "release",
            AcqRel => "acq_rel",
            SeqCst => "seq_cst",
        }
    }
}

/// `atomicrmw` operations.
#[allow(missing_docs)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RmwOp {
    Xchg,
    Add,
    Sub,
    And,
    Nand,
    Or,
    Xor,
    Max,
    Min,
    UMax,
    UMin,
    FAdd,
    FSub,
    FMax,
    FMin,
}
