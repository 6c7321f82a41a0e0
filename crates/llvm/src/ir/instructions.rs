//! Instructions and their operands.

use super::constants::ConstId;
use super::module::BlockId;
use super::types::TypeId;

/// Index of an instruction in its function's instruction arena.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct InstId(pub u32);

/// Index of an inline-assembly value in its module's list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct AsmId(pub u32);

/// An operand: what an instruction uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// A constant, including function, global and alias addresses.
    Const(ConstId),
    /// The current function's argument number N.
    Arg(u32),
    /// The result of an instruction of the current function.
    Inst(InstId),
    /// An inline-assembly callee.
    InlineAsm(AsmId),
    /// A metadata operand (`metadata !12`, as `llvm.dbg.*` calls take). Its contents are
    /// not kept: PNaCl drops all metadata.
    Metadata,
}

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

/// The `tail` marker of a call.
#[allow(missing_docs)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum TailKind {
    #[default]
    None,
    Tail,
    MustTail,
    NoTail,
}

/// A function or call attribute.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Attr {
    /// A flag attribute, by its bitcode kind number ([`attr_kind`]).
    Flag(u32),
    /// An attribute with an integer (`align 8`, `dereferenceable(4)`).
    Int(u32, u64),
    /// An attribute with a type (`byval(%T)`, `sret(%T)`, `elementtype(i32)`); `None` for
    /// the typeless form of older bitcode.
    Type(u32, Option<TypeId>),
    /// A string attribute (`"frame-pointer"="all"`).
    Str(String, Option<String>),
}

/// Bitcode attribute kind numbers (LLVM's `AttributeKindCodes`, stable across versions).
#[allow(missing_docs)]
pub mod attr_kind {
    pub const ALIGN: u32 = 1;
    pub const ALWAYS_INLINE: u32 = 2;
    pub const BYVAL: u32 = 3;
    pub const INLINE_HINT: u32 = 4;
    pub const IN_REG: u32 = 5;
    pub const NEST: u32 = 8;
    pub const NO_ALIAS: u32 = 9;
    pub const NO_BUILTIN: u32 = 10;
    pub const NO_CAPTURE: u32 = 11;
    pub const NO_INLINE: u32 = 14;
    pub const NO_RETURN: u32 = 17;
    pub const NO_UNWIND: u32 = 18;
    pub const READ_NONE: u32 = 20;
    pub const READ_ONLY: u32 = 21;
    pub const RETURNED: u32 = 22;
    pub const RETURNS_TWICE: u32 = 23;
    pub const SIGN_EXT: u32 = 24;
    pub const STRUCT_RET: u32 = 29;
    pub const ZERO_EXT: u32 = 34;
    pub const INALLOCA: u32 = 38;
    pub const ELEMENT_TYPE: u32 = 77;
}

/// Attributes of a function or a call site: on the function, the return value and each
/// parameter.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Attrs {
    /// Function attributes.
    pub function: Vec<Attr>,
    /// Return-value attributes.
    pub ret: Vec<Attr>,
    /// Parameter attributes, by parameter index (may be shorter than the parameter list).
    pub params: Vec<Vec<Attr>>,
}

impl Attrs {
    /// True if there are none.
    pub fn is_empty(&self) -> bool {
        self.function.is_empty() && self.ret.is_empty() && self.params.iter().all(Vec::is_empty)
    }

    /// The attributes of parameter `i`.
    pub fn param(&self, i: usize) -> &[Attr] {
        self.params.get(i).map_or(&[], Vec::as_slice)
    }

    /// True if parameter `i` has the attribute of kind `kind` (any form).
    pub fn param_has(&self, i: usize, kind: u32) -> bool {
        self.param(i).iter().any(|a| a.kind() == Some(kind))
    }
}

impl Attr {
    /// The kind number of a non-string attribute.
    pub fn kind(&self) -> Option<u32> {
        match self {
            Attr::Flag(k) | Attr::Int(k, _) | Attr::Type(k, _) => Some(*k),
            Attr::Str(..) => None,
        }
    }
}

/// A `landingpad` clause.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Clause {
    /// `catch T @typeinfo`.
    Catch(ConstId),
    /// `filter [N x T] [...]`.
    Filter(ConstId),
}

/// What an instruction does, with its operands.
#[derive(Clone, Debug, PartialEq)]
pub enum InstKind {
    /// `add`, `fadd`, ... with the bitcode flags (nuw/nsw/exact, or fast-math flags for
    /// floating-point operators).
    Binary {
        /// Operator.
        op: BinaryOp,
        /// Left operand.
        lhs: Value,
        /// Right operand.
        rhs: Value,
        /// Flags as bitcode stores them.
        flags: u32,
    },
    /// `fneg`.
    FNeg {
        /// Operand.
        val: Value,
        /// Fast-math flags.
        flags: u32,
    },
    /// A conversion; the result type is the instruction's type.
    Cast {
        /// Operator.
        op: CastOp,
        /// Operand.
        val: Value,
    },
    /// `getelementptr`.
    GetElementPtr {
        /// The source element type.
        source_ty: TypeId,
        /// `inbounds`.
        inbounds: bool,
        /// The base pointer.
        base: Value,
        /// The indices.
        indices: Vec<Value>,
    },
    /// `load`; the loaded type is the instruction's type.
    Load {
        /// Address.
        ptr: Value,
        /// Alignment in bytes (0: none given).
        align: u32,
        /// `volatile`.
        volatile: bool,
        /// Atomic ordering.
        ordering: Ordering,
    },
    /// `store`.
    Store {
        /// Address.
        ptr: Value,
        /// Stored value.
        val: Value,
        /// Alignment in bytes (0: none given).
        align: u32,
        /// `volatile`.
        volatile: bool,
        /// Atomic ordering.
        ordering: Ordering,
    },
    /// `alloca`; the instruction's type is the pointer.
    Alloca {
        /// The allocated type.
        allocated_ty: TypeId,
        /// Number of elements.
        count: Value,
        /// Alignment in bytes (0: none given).
        align: u32,
    },
    /// `icmp`.
    ICmp {
        /// Predicate.
        pred: IntPred,
        /// Left operand.
        lhs: Value,
        /// Right operand.
        rhs: Value,
    },
    /// `fcmp`.
    FCmp {
        /// Predicate.
        pred: FloatPred,
        /// Left operand.
        lhs: Value,
        /// Right operand.
        rhs: Value,
        /// Fast-math flags.
        flags: u32,
    },
    /// `select`.
    Select {
        /// Condition.
        cond: Value,
        /// Value if true.
        on_true: Value,
        /// Value if false.
        on_false: Value,
    },
    /// `phi`.
    Phi {
        /// `(value, predecessor)` pairs.
        incoming: Vec<(Value, BlockId)>,
    },
    /// `call`.
    Call {
        /// The callee.
        callee: Value,
        /// The callee's function type.
        fn_ty: TypeId,
        /// Arguments.
        args: Vec<Value>,
        /// Calling convention (0 = C).
        cc: u32,
        /// The tail marker.
        tail: TailKind,
        /// Call-site attributes.
        attrs: Box<Attrs>,
        /// Fast-math flags.
        flags: u32,
    },
    /// `invoke`.
    Invoke {
        /// The callee.
        callee: Value,
        /// The callee's function type.
        fn_ty: TypeId,
        /// Arguments.
        args: Vec<Value>,
        /// Calling convention.
        cc: u32,
        /// Call-site attributes.
        attrs: Box<Attrs>,
        /// Where a normal return continues.
        normal: BlockId,
        /// Where an exception continues.
        unwind: BlockId,
    },
    /// `ret` / `ret void`.
    Ret {
        /// Returned value.
        val: Option<Value>,
    },
    /// `br label %L`.
    Br {
        /// Target.
        target: BlockId,
    },
    /// `br i1 %c, label %T, label %F`.
    CondBr {
        /// Condition.
        cond: Value,
        /// Target if true.
        on_true: BlockId,
        /// Target if false.
        on_false: BlockId,
    },
    /// `switch`.
    Switch {
        /// The value switched on.
        cond: Value,
        /// Default target.
        default: BlockId,
        /// `(case value, target)` pairs, in order.
        cases: Vec<(ConstId, BlockId)>,
    },
    /// `indirectbr`.
    IndirectBr {
        /// The address.
        addr: Value,
        /// Possible targets.
        dests: Vec<BlockId>,
    },
    /// `resume`.
    Resume {
        /// The exception value.
        val: Value,
    },
    /// `unreachable`.
    Unreachable,
    /// `landingpad`.
    LandingPad {
        /// `cleanup`.
        cleanup: bool,
        /// Clauses.
        clauses: Vec<Clause>,
    },
    /// `extractelement`.
    ExtractElement {
        /// Vector.
        vector: Value,
        /// Index.
        index: Value,
    },
    /// `insertelement`.
    InsertElement {
        /// Vector.
        vector: Value,
        /// Element.
        element: Value,
        /// Index.
        index: Value,
    },
    /// `shufflevector`.
    ShuffleVector {
        /// First vector.
        a: Value,
        /// Second vector.
        b: Value,
        /// Mask, one lane index per result lane (-1 for undef).
        mask: Vec<i32>,
    },
    /// `extractvalue`.
    ExtractValue {
        /// Aggregate.
        agg: Value,
        /// Indices.
        indices: Vec<u32>,
    },
    /// `insertvalue`.
    InsertValue {
        /// Aggregate.
        agg: Value,
        /// Inserted value.
        val: Value,
        /// Indices.
        indices: Vec<u32>,
    },
    /// `va_arg`; the instruction's type is the argument's.
    VaArg {
        /// The `va_list` pointer.
        list: Value,
    },
    /// `atomicrmw`.
    AtomicRmw {
        /// Operation.
        op: RmwOp,
        /// Address.
        ptr: Value,
        /// Operand.
        val: Value,
        /// Ordering.
        ordering: Ordering,
        /// `volatile`.
        volatile: bool,
        /// Alignment in bytes (0: none given).
        align: u32,
    },
    /// `cmpxchg`; the result is `{ T, i1 }`.
    CmpXchg {
        /// Address.
        ptr: Value,
        /// Expected value.
        cmp: Value,
        /// New value.
        new: Value,
        /// Ordering on success.
        success: Ordering,
        /// Ordering on failure.
        failure: Ordering,
        /// `weak`.
        weak: bool,
        /// `volatile`.
        volatile: bool,
        /// Alignment in bytes (0: none given).
        align: u32,
    },
    /// `fence`.
    Fence {
        /// Ordering.
        ordering: Ordering,
        /// `syncscope("singlethread")`.
        single_thread: bool,
    },
    /// `freeze`.
    Freeze {
        /// Operand.
        val: Value,
    },
}

/// An instruction: what it does, its result type (`void` if none) and its name.
#[derive(Clone, Debug, PartialEq)]
pub struct Inst {
    /// What it does.
    pub kind: InstKind,
    /// Its result type; `void` when it produces no value.
    pub ty: TypeId,
    /// Its name (`%x`), if it has one.
    pub name: Option<String>,
}

impl InstKind {
    /// Calls `f` on every value operand, in LLVM's operand order (the order of
    /// `User::operands()` in LLVM 3.7, which PNaCl's writer enumerates in): store is
    /// (value, pointer); call and invoke put the callee last; a conditional branch has only
    /// its condition here (block operands are not values); select is (condition, true,
    /// false); a switch yields only its condition (case values are constants that PNaCl's
    /// writer never enumerates).
    pub fn for_each_value(&self, mut f: impl FnMut(Value)) {
        use InstKind::*;
        match self {
            Binary { lhs, rhs, .. } | ICmp { lhs, rhs, .. } | FCmp { lhs, rhs, .. } => {
                f(*lhs);
                f(*rhs);
            }
            FNeg { val, .. } | Cast { val, .. } | Resume { val } | Freeze { val } => f(*val),
            GetElementPtr { base, indices, .. } => {
                f(*base);
                indices.iter().copied().for_each(f);
            }
            Load { ptr, .. } => f(*ptr),
            Store { ptr, val, .. } => {
                f(*val);
                f(*ptr);
            }
            Alloca { count, .. } => f(*count),
            Select { cond, on_true, on_false } => {
                f(*cond);
                f(*on_true);
                f(*on_false);
            }
            Phi { incoming } => incoming.iter().for_each(|(v, _)| f(*v)),
            Call { callee, args, .. } | Invoke { callee, args, .. } => {
                args.iter().copied().for_each(&mut f);
                f(*callee);
            }
            Ret { val } => {
                if let Some(v) = val {
                    f(*v)
                }
            }
            CondBr { cond, .. } | Switch { cond, .. } => f(*cond),
            IndirectBr { addr, .. } => f(*addr),
            Br { .. } | Unreachable | LandingPad { .. } | Fence { .. } => {}
            ExtractElement { vector, index } => {
                f(*vector);
                f(*index);
            }
            InsertElement { vector, element, index } => {
                f(*vector);
                f(*element);
                f(*index);
            }
            ShuffleVector { a, b, .. } => {
                f(*a);
                f(*b);
            }
            ExtractValue { agg, .. } => f(*agg),
            InsertValue { agg, val, .. } => {
                f(*agg);
                f(*val);
            }
            VaArg { list } => f(*list),
            AtomicRmw { ptr, val, .. } => {
                f(*ptr);
                f(*val);
            }
            CmpXchg { ptr, cmp, new, .. } => {
                f(*ptr);
                f(*cmp);
                f(*new);
            }
        }
    }

    /// Replaces every value operand by `f(operand)`, in the order of
    /// [`InstKind::for_each_value`].
    pub fn map_values(&mut self, mut f: impl FnMut(Value) -> Value) {
        use InstKind::*;
        let mut m = |v: &mut Value| *v = f(*v);
        match self {
            Binary { lhs, rhs, .. } | ICmp { lhs, rhs, .. } | FCmp { lhs, rhs, .. } => {
                m(lhs);
                m(rhs);
            }
            FNeg { val, .. } | Cast { val, .. } | Resume { val } | Freeze { val } => m(val),
            GetElementPtr { base, indices, .. } => {
                m(base);
                indices.iter_mut().for_each(m);
            }
            Load { ptr, .. } => m(ptr),
            Store { ptr, val, .. } => {
                m(val);
                m(ptr);
            }
            Alloca { count, .. } => m(count),
            Select { cond, on_true, on_false } => {
                m(cond);
                m(on_true);
                m(on_false);
            }
            Phi { incoming } => incoming.iter_mut().for_each(|(v, _)| m(v)),
            Call { callee, args, .. } | Invoke { callee, args, .. } => {
                args.iter_mut().for_each(&mut m);
                m(callee);
            }
            Ret { val } => {
                if let Some(v) = val {
                    m(v)
                }
            }
            CondBr { cond, .. } | Switch { cond, .. } => m(cond),
            IndirectBr { addr, .. } => m(addr),
            Br { .. } | Unreachable | LandingPad { .. } | Fence { .. } => {}
            ExtractElement { vector, index } => {
                m(vector);
                m(index);
            }
            InsertElement { vector, element, index } => {
                m(vector);
                m(element);
                m(index);
            }
            ShuffleVector { a, b, .. } => {
                m(a);
                m(b);
            }
            ExtractValue { agg, .. } => m(agg),
            InsertValue { agg, val, .. } => {
                m(agg);
                m(val);
            }
            VaArg { list } => m(list),
            AtomicRmw { ptr, val, .. } => {
                m(ptr);
                m(val);
            }
            CmpXchg { ptr, cmp, new, .. } => {
                m(ptr);
                m(cmp);
                m(new);
            }
        }
    }

    /// The blocks a terminator can branch to, in order (empty for other instructions).
    pub fn successors(&self) -> Vec<BlockId> {
        use InstKind::*;
        match self {
            Br { target } => vec![*target],
            CondBr { on_true, on_false, .. } => vec![*on_true, *on_false],
            Switch { default, cases, .. } => std::iter::once(*default).chain(cases.iter().map(|c| c.1)).collect(),
            IndirectBr { dests, .. } => dests.clone(),
            Invoke { normal, unwind, .. } => vec![*normal, *unwind],
            _ => Vec::new(),
        }
    }

    /// Replaces every block operand (successors and phi predecessors) by `f(block)`.
    pub fn map_blocks(&mut self, mut f: impl FnMut(BlockId) -> BlockId) {
        use InstKind::*;
        match self {
            Br { target } => *target = f(*target),
            CondBr { on_true, on_false, .. } => {
                *on_true = f(*on_true);
                *on_false = f(*on_false);
            }
            Switch { default, cases, .. } => {
                *default = f(*default);
                cases.iter_mut().for_each(|c| c.1 = f(c.1));
            }
            IndirectBr { dests, .. } => dests.iter_mut().for_each(|d| *d = f(*d)),
            Invoke { normal, unwind, .. } => {
                *normal = f(*normal);
                *unwind = f(*unwind);
            }
            Phi { incoming } => incoming.iter_mut().for_each(|(_, b)| *b = f(*b)),
            _ => {}
        }
    }

    /// True for instructions that end a block.
    pub fn is_terminator(&self) -> bool {
        use InstKind::*;
        matches!(self, Ret { .. } | Br { .. } | CondBr { .. } | Switch { .. } | IndirectBr { .. } | Resume { .. })
            || matches!(self, Unreachable | Invoke { .. })
    }

    /// The LLVM mnemonic (`add`, `getelementptr`, `call`, ...).
    pub fn opcode_name(&self) -> &'static str {
        use InstKind::*;
        match self {
            Binary { op, .. } => op.name(),
            FNeg { .. } => "fneg",
            Cast { op, .. } => op.name(),
            GetElementPtr { .. } => "getelementptr",
            Load { .. } => "load",
            Store { .. } => "store",
            Alloca { .. } => "alloca",
            ICmp { .. } => "icmp",
            FCmp { .. } => "fcmp",
            Select { .. } => "select",
            Phi { .. } => "phi",
            Call { .. } => "call",
            Invoke { .. } => "invoke",
            Ret { .. } => "ret",
            Br { .. } | CondBr { .. } => "br",
            Switch { .. } => "switch",
            IndirectBr { .. } => "indirectbr",
            Resume { .. } => "resume",
            Unreachable => "unreachable",
            LandingPad { .. } => "landingpad",
            ExtractElement { .. } => "extractelement",
            InsertElement { .. } => "insertelement",
            ShuffleVector { .. } => "shufflevector",
            ExtractValue { .. } => "extractvalue",
            InsertValue { .. } => "insertvalue",
            VaArg { .. } => "va_arg",
            AtomicRmw { .. } => "atomicrmw",
            CmpXchg { .. } => "cmpxchg",
            Fence { .. } => "fence",
            Freeze { .. } => "freeze",
        }
    }
}
