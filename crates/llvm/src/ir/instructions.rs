//! Instructions and their operands.

use super::attributes::Attrs;
use super::constants::ConstId;
use super::module::BlockId;
use super::operators::{BinaryOp, CastOp, FloatPred, IntPred, Ordering, RmwOp};
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

impl Inst {
    /// Replaces every type the instruction holds by `f(type)`: its result type, the types of
    /// its kind (`getelementptr`'s source type, `alloca`'s allocated type, a call's function
    /// type) and those of its call-site attributes (`byval(T)`, ...). What moving an
    /// instruction into another type table needs; the match is exhaustive so that a new
    /// kind holding a type cannot be forgotten.
    pub fn map_types(&mut self, mut f: impl FnMut(TypeId) -> TypeId) {
        use InstKind::*;
        self.ty = f(self.ty);
        match &mut self.kind {
            GetElementPtr { source_ty, .. } => *source_ty = f(*source_ty),
            Alloca { allocated_ty, .. } => *allocated_ty = f(*allocated_ty),
            Call { fn_ty, attrs, .. } | Invoke { fn_ty, attrs, .. } => {
                *fn_ty = f(*fn_ty);
                attrs.map_types(f);
            }
            Binary { .. } | FNeg { .. } | Cast { .. } | Load { .. } | Store { .. } | ICmp { .. } | FCmp { .. } => {}
            Select { .. } | Phi { .. } | Ret { .. } | Br { .. } | CondBr { .. } | Switch { .. } => {}
            IndirectBr { .. } | Resume { .. } | Unreachable | LandingPad { .. } | ExtractElement { .. } => {}
            InsertElement { .. } | ShuffleVector { .. } | ExtractValue { .. } | InsertValue { .. } => {}
            VaArg { .. } | AtomicRmw { .. } | CmpXchg { .. } | Fence { .. } | Freeze { .. } => {}
        }
    }

    /// Replaces every constant the instruction names outside its value operands (a
    /// switch's case values, a landing pad's clauses) by `f(constant)`; value operands are
    /// [`InstKind::map_values`]'.
    pub fn map_other_consts(&mut self, mut f: impl FnMut(ConstId) -> ConstId) {
        match &mut self.kind {
            InstKind::Switch { cases, .. } => cases.iter_mut().for_each(|c| c.0 = f(c.0)),
            InstKind::LandingPad { clauses, .. } => {
                for cl in clauses {
                    match cl {
                        Clause::Catch(c) | Clause::Filter(c) => *c = f(*c),
                    }
                }
            }
            _ => {}
        }
    }
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
