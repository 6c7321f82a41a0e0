//! Instructions, operands and the value numbering of the reference.

use super::types::Ty;
use std::fmt;

/// A value, by its absolute index in the reference's single numbering: functions (`@f`),
/// then globals (`@g`), then the current function's parameters (`%p`), constants (`%c`) and
/// instruction results (`%v`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ValueId(pub u32);

/// What a [`ValueId`] names, with its index within its kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ValueKind {
    /// `@fN`: a function address.
    Function(u32),
    /// `@gN`: a global variable or constant address.
    Global(u32),
    /// `%pN`: a parameter.
    Param(u32),
    /// `%cN`: a constant.
    Const(u32),
    /// `%vN`: an instruction result.
    Inst(u32),
}

impl fmt::Display for ValueKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ValueKind::Function(i) => write!(f, "@f{i}"),
            ValueKind::Global(i) => write!(f, "@g{i}"),
            ValueKind::Param(i) => write!(f, "%p{i}"),
            ValueKind::Const(i) => write!(f, "%c{i}"),
            ValueKind::Inst(i) => write!(f, "%v{i}"),
        }
    }
}

/// The sizes of the value ranges in scope inside one function, which turn absolute indices
/// into kinds and back.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ValueSpace {
    /// Number of function addresses.
    pub functions: u32,
    /// Number of global addresses.
    pub globals: u32,
    /// Number of parameters of the function.
    pub params: u32,
    /// Number of constants of the function.
    pub consts: u32,
}

impl ValueSpace {
    /// Absolute index of `%v0`.
    pub fn first_inst(&self) -> u32 {
        self.functions + self.globals + self.params + self.consts
    }

    /// Absolute index of `%p0`.
    pub fn first_param(&self) -> u32 {
        self.functions + self.globals
    }

    /// Absolute index of `%c0`.
    pub fn first_const(&self) -> u32 {
        self.functions + self.globals + self.params
    }

    /// Classifies an absolute index.
    pub fn kind(&self, v: ValueId) -> ValueKind {
        let mut i = v.0;
        if i < self.functions {
            return ValueKind::Function(i);
        }
        i -= self.functions;
        if i < self.globals {
            return ValueKind::Global(i);
        }
        i -= self.globals;
        if i < self.params {
            return ValueKind::Param(i);
        }
        i -= self.params;
        if i < self.consts {
            return ValueKind::Const(i);
        }
        ValueKind::Inst(i - self.consts)
    }

    /// The absolute index of a kind.
    pub fn id(&self, k: ValueKind) -> ValueId {
        ValueId(match k {
            ValueKind::Function(i) => i,
            ValueKind::Global(i) => self.functions + i,
            ValueKind::Param(i) => self.first_param() + i,
            ValueKind::Const(i) => self.first_const() + i,
            ValueKind::Inst(i) => self.first_inst() + i,
        })
    }
}

/// Integer and floating-point binary operators, by their record opcode.
#[repr(u8)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    /// `add` / `fadd`.
    Add = 0,
    /// `sub` / `fsub`.
    Sub = 1,
    /// `mul` / `fmul`.
    Mul = 2,
    /// `udiv`.
    UDiv = 3,
    /// `sdiv` / `fdiv`.
    SDiv = 4,
    /// `urem`.
    URem = 5,
    /// `srem` / `frem`.
    SRem = 6,
    /// `shl`.
    Shl = 7,
    /// `lshr`.
    LShr = 8,
    /// `ashr`.
    AShr = 9,
    /// `and`.
    And = 10,
    /// `or`.
    Or = 11,
    /// `xor`.
    Xor = 12,
}

impl BinOp {
    /// Decodes a record opcode.
    pub fn from_code(c: u64) -> Option<BinOp> {
        use BinOp::*;
        // A table rather than a match, which compiles to a jump table: an indirect branch
        // per binop record, on a quarter of all records.
        const BY_CODE: [BinOp; 13] = [Add, Sub, Mul, UDiv, SDiv, URem, SRem, Shl, LShr, AShr, And, Or, Xor];
        BY_CODE.get(usize::try_from(c).ok()?).copied()
    }

    /// The mnemonic for operands of element type `elem` (`fadd` for floats, and so on), or
    /// `None` if the operator is not defined on that type.
    pub fn name(self, elem: Ty) -> Option<&'static str> {
        use BinOp::*;
        if elem.is_float() {
            return Some(match self {
                Add => "fadd",
                Sub => "fsub",
                Mul => "fmul",
                SDiv => "fdiv",
                SRem => "frem",
                _ => return None,
            });
        }
        Some(match self {
            Add => "add",
            Sub => "sub",
            Mul => "mul",
            UDiv => "udiv",
            SDiv => "sdiv",
            URem => "urem",
            SRem => "srem",
            Shl => "shl",
            LShr => "lshr",
            AShr => "ashr",
            And => "and",
            Or => "or",
            Xor => "xor",
        })
    }

    /// The name used when the operand type is not known (integer spelling).
    pub fn int_name(self) -> &'static str {
        self.name(Ty::I32).expect("every operator has an integer form")
    }

    /// True for the bitwise operators, which PNaCl also allows on `i1`.
    pub fn is_logical(self) -> bool {
        matches!(self, BinOp::And | BinOp::Or | BinOp::Xor)
    }

    /// Whether the operator applies to operands of type `ty` (vectors by their element
    /// type) with nothing to report: [`BinOp::name`] defines it on the element type, and it
    /// is not arithmetic on `i1`, which the ABI forbids. One table lookup, because the
    /// reader asks it for every binop record and the answer is nearly always yes.
    pub fn is_clean_on(self, ty: Ty) -> bool {
        const ALL: u16 = (1 << 13) - 1;
        const LOGICAL: u16 = 1 << BinOp::And as u16 | 1 << BinOp::Or as u16 | 1 << BinOp::Xor as u16;
        const FLOAT: u16 = 1 << BinOp::Add as u16
            | 1 << BinOp::Sub as u16
            | 1 << BinOp::Mul as u16
            | 1 << BinOp::SDiv as u16
            | 1 << BinOp::SRem as u16;
        /// Indexed by `Ty as usize`, in its declaration order.
        const CLEAN: [u16; 15] = [
            0, LOGICAL, ALL, ALL, ALL, ALL, FLOAT, FLOAT, // void, i1, i8 .. i64, float, double
            LOGICAL, LOGICAL, LOGICAL, ALL, ALL, ALL, FLOAT, // <4 x i1> .. <4 x float>
        ];
        CLEAN[ty as usize] >> self as u16 & 1 != 0
    }
}

/// Conversion operators, by their record opcode.
#[repr(u8)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CastOp {
    /// `trunc`.
    Trunc = 0,
    /// `zext`.
    ZExt = 1,
    /// `sext`.
    SExt = 2,
    /// `fptoui`.
    FpToUi = 3,
    /// `fptosi`.
    FpToSi = 4,
    /// `uitofp`.
    UiToFp = 5,
    /// `sitofp`.
    SiToFp = 6,
    /// `fptrunc`.
    FpTrunc = 7,
    /// `fpext`.
    FpExt = 8,
    /// `bitcast`.
    Bitcast = 11,
}

impl CastOp {
    /// Decodes a record opcode. The pointer casts (9, 10) do not exist in PNaCl version 2.
    pub fn from_code(c: u64) -> Option<CastOp> {
        use CastOp::*;
        Some(match c {
            0 => Trunc,
            1 => ZExt,
            2 => SExt,
            3 => FpToUi,
            4 => FpToSi,
            5 => UiToFp,
            6 => SiToFp,
            7 => FpTrunc,
            8 => FpExt,
            11 => Bitcast,
            _ => return None,
        })
    }

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
            Bitcast => "bitcast",
        }
    }

    /// Whether converting `from` to `to` is defined (the Constraints of each conversion).
    pub fn is_valid(self, from: Ty, to: Ty) -> bool {
        use CastOp::*;
        let (fe, te) = (from.element(), to.element());
        let same_shape = from.lanes() == to.lanes();
        match self {
            Trunc => same_shape && fe.is_integer() && te.is_integer() && fe.bits() > te.bits(),
            ZExt | SExt => same_shape && fe.is_integer() && te.is_integer() && fe.bits() < te.bits(),
            FpTrunc => same_shape && fe == Ty::Double && te == Ty::Float,
            FpExt => same_shape && fe == Ty::Float && te == Ty::Double,
            FpToUi | FpToSi => same_shape && fe.is_float() && te.is_integer(),
            UiToFp | SiToFp => same_shape && fe.is_integer() && te.is_float(),
            Bitcast => from.is_value() && to.is_value() && from.bits() == to.bits(),
        }
    }
}

/// Comparison predicates, by their record code (0..=15 floating point, 32..=41 integer).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Pred(pub u8);

impl Pred {
    /// Decodes a record predicate.
    pub fn from_code(c: u64) -> Option<Pred> {
        (c <= 15 || (32..=41).contains(&c)).then_some(Pred(c as u8))
    }

    /// True for integer predicates.
    pub fn is_integer(self) -> bool {
        self.0 >= 32
    }

    /// The predicate name (`eq`, `slt`, `oeq`, `uno`, ...).
    pub fn name(self) -> &'static str {
        const FLOAT: [&str; 16] = [
            "false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "uno", "ueq", "ugt", "uge", "ult", "ule", "une",
            "true",
        ];
        const INT: [&str; 10] = ["eq", "ne", "ugt", "uge", "ult", "ule", "sgt", "sge", "slt", "sle"];
        if self.is_integer() { INT[usize::from(self.0 - 32)] } else { FLOAT[usize::from(self.0)] }
    }
}

/// A range of entries in a function body's operand pool.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct PoolRange {
    /// First pool index.
    pub start: u32,
    /// Number of entries.
    pub len: u32,
}

impl PoolRange {
    /// The indices as a `usize` range.
    pub fn range(self) -> std::ops::Range<usize> {
        self.start as usize..(self.start + self.len) as usize
    }
}

/// An alignment as the bitcode stores it: 0, or log2(alignment) + 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Align(pub u8);

impl Align {
    /// The alignment in bytes (0 when the encoding is 0).
    pub fn bytes(self) -> u32 {
        (1u32 << self.0) >> 1
    }

    /// The encoding of an alignment of `bytes` (a power of two, or 0).
    pub fn from_bytes(bytes: u32) -> Align {
        Align(if bytes == 0 { 0 } else { (bytes.trailing_zeros() + 1) as u8 })
    }
}

/// One instruction record of a function body.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Inst {
    /// `%v = OP T A, B`. The result has the type of the operands.
    Binop {
        /// Operator.
        op: BinOp,
        /// First operand.
        lhs: ValueId,
        /// Second operand.
        rhs: ValueId,
        /// The optional fourth record operand (optimisation flags of old writers; the
        /// reader accepts values up to 65535).
        flags: Option<u16>,
    },
    /// `%v = OP T1 V to T2`.
    Cast {
        /// Operator.
        op: CastOp,
        /// Operand.
        val: ValueId,
        /// Result type.
        to: Ty,
    },
    /// `%v = icmp/fcmp PRED T A, B`.
    Cmp {
        /// Predicate.
        pred: Pred,
        /// First operand.
        lhs: ValueId,
        /// Second operand.
        rhs: ValueId,
    },
    /// `%v = select CT C, T A, T B`.
    Select {
        /// Condition (`i1` or `<N x i1>`).
        cond: ValueId,
        /// Value when true.
        on_true: ValueId,
        /// Value when false.
        on_false: ValueId,
    },
    /// `%v = extractelement TV V, i32 I`.
    ExtractElement {
        /// Vector.
        vector: ValueId,
        /// Index (i32).
        index: ValueId,
    },
    /// `%v = insertelement TV V, TE E, i32 I`.
    InsertElement {
        /// Vector.
        vector: ValueId,
        /// Element to insert.
        element: ValueId,
        /// Index (i32).
        index: ValueId,
    },
    /// `%v = alloca i8, i32 S, align A`.
    Alloca {
        /// Size in bytes.
        size: ValueId,
        /// Alignment.
        align: Align,
    },
    /// `%v = load T* P, align A`.
    Load {
        /// Address.
        ptr: ValueId,
        /// Loaded type.
        ty: Ty,
        /// Alignment.
        align: Align,
    },
    /// `store T V, T* P, align A`.
    Store {
        /// Address.
        ptr: ValueId,
        /// Stored value.
        val: ValueId,
        /// Alignment.
        align: Align,
    },
    /// `ret void` / `ret T V`.
    Ret {
        /// Returned value.
        val: Option<ValueId>,
    },
    /// `br label %bN`.
    Br {
        /// Target block.
        target: u32,
    },
    /// `br i1 C, label %bT, label %bF`.
    CondBr {
        /// Condition.
        cond: ValueId,
        /// Target when true.
        on_true: u32,
        /// Target when false.
        on_false: u32,
    },
    /// `switch T V { default: ...; cases }`. The cases pool holds the default target first
    /// (see [`FunctionBody::switch_default`](super::FunctionBody::switch_default)), then the
    /// cases, each with its value sign-rotated as the record stores it.
    Switch {
        /// Type of the selector.
        ty: Ty,
        /// Selector.
        cond: ValueId,
        /// Default target and cases in the cases pool.
        cases: PoolRange,
    },
    /// `unreachable`.
    Unreachable,
    /// `%v = phi T [V, %bN], ...`. Incoming entries are pool pairs `(value id, block)`.
    Phi {
        /// Type.
        ty: Ty,
        /// Incoming pairs in the pool.
        incoming: PoolRange,
    },
    /// `call`: direct when `ret` is `None` (callee is a function), indirect otherwise.
    Call {
        /// The `tail` marker (the low bit of the record's calling-convention field, whose
        /// other bits the reader requires to be 0: the C convention).
        tail: bool,
        /// Callee: a function for direct calls, any i32 value for indirect ones.
        callee: ValueId,
        /// The stated return type of an indirect call.
        indirect_ret: Option<Ty>,
        /// Arguments in the pool.
        args: PoolRange,
    },
    /// `declare T %vN`: a forward type declaration (not an instruction, but a record in the
    /// instruction stream).
    ForwardDecl {
        /// The value declared.
        value: ValueId,
        /// Its type.
        ty: Ty,
    },
}

// Function bodies hold millions of instructions: keep them at two words.
const _: () = assert!(std::mem::size_of::<Inst>() == 16);

impl Inst {
    /// True for instructions that end a basic block.
    pub fn is_terminator(&self) -> bool {
        matches!(
            self,
            Inst::Ret { .. } | Inst::Br { .. } | Inst::CondBr { .. } | Inst::Switch { .. } | Inst::Unreachable
        )
    }

    /// True for the `tail` marker of a call.
    pub fn is_tail_call(&self) -> bool {
        matches!(self, Inst::Call { tail: true, .. })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binop_codes_are_the_discriminants() {
        for c in 0..13 {
            assert_eq!(BinOp::from_code(c).map(|op| op as u64), Some(c));
        }
        assert_eq!(BinOp::from_code(13), None);
        assert_eq!(BinOp::from_code(u64::MAX), None);
    }

    #[test]
    fn clean_binops_are_the_named_ones_minus_i1_arithmetic() {
        use crate::ir::types::ALL_TYPES;
        for c in 0..13 {
            let op = BinOp::from_code(c).unwrap();
            for ty in ALL_TYPES {
                let e = ty.element();
                let named = e.is_primitive() && op.name(e).is_some();
                let want = named && (e != Ty::I1 || op.is_logical());
                assert_eq!(op.is_clean_on(ty), want, "{op:?} on {ty}");
            }
        }
    }
}
