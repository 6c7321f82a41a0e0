//! Function-body rules: operand types of instructions, alignments, vector indices, calls and
//! the constant operands of intrinsics.

use crate::{Context, Diagnostic, Location, Rule};
use pnacl_bitcode::abi::{self, Intrinsic, IntrinsicKind as K};
use pnacl_bitcode::ir::{
    BinOp, ConstValue, FunctionBody, Inst, SsaCheck, SsaError, Ty, ValueId, ValueKind, ValueSpace,
};

/// Checks one function body.
pub(crate) fn check(cx: &Context<'_>, f: u32, body: &FunctionBody, ssa: &mut SsaCheck) -> Vec<Diagnostic> {
    let mut c = Checker { cx, body, space: cx.m.value_space(f), out: Vec::new(), at: Location::Function(f), index: 0 };
    ssa.begin(c.space.first_inst());
    let mut next_value = 0u32;
    let mut block = 0usize;
    for (i, inst) in body.insts.iter().enumerate() {
        while block + 1 < body.block_starts.len() && body.block_starts[block + 1] as usize <= i {
            block += 1;
        }
        if matches!(inst, Inst::ForwardDecl { .. }) {
            continue;
        }
        let defines = c.defines_value(inst);
        c.at = Location::Instruction {
            function: f,
            block: block as u32,
            index: i as u32,
            value: defines.then_some(next_value),
            opcode: opcode(inst),
        };
        c.index = i;
        c.instruction(inst);
        ssa.visit(body, block as u32, i, defines);
        if defines {
            next_value += 1;
        }
    }
    if let Err(e) = ssa.finish(body) {
        // Named like the other diagnostics: by the instruction's block and value.
        let index = e.inst();
        let value = body.insts[..index].iter().filter(|inst| c.defines_value(inst)).count() as u32;
        let inst = &body.insts[index];
        let defines = c.defines_value(inst);
        c.at = Location::Instruction {
            function: f,
            block: e.block(),
            index: index as u32,
            value: defines.then_some(value),
            opcode: opcode(inst),
        };
        c.index = index;
        let rule = if matches!(e, SsaError::Dominance { .. }) { Rule::Dominance } else { Rule::Phi };
        c.report(rule, e.to_string());
    }
    c.out
}

/// The mnemonic of an instruction, for instructions named by position.
fn opcode(inst: &Inst) -> &'static str {
    match inst {
        Inst::Binop { .. } => "binop",
        Inst::Cast { .. } => "cast",
        Inst::Cmp { .. } => "cmp",
        Inst::Select { .. } => "select",
        Inst::ExtractElement { .. } => "extractelement",
        Inst::InsertElement { .. } => "insertelement",
        Inst::Alloca { .. } => "alloca",
        Inst::Load { .. } => "load",
        Inst::Store { .. } => "store",
        Inst::Ret { .. } => "ret",
        Inst::Br { .. } | Inst::CondBr { .. } => "br",
        Inst::Switch { .. } => "switch",
        Inst::Unreachable => "unreachable",
        Inst::Phi { .. } => "phi",
        Inst::Call { .. } => "call",
        Inst::ForwardDecl { .. } => "declare",
    }
}

struct Checker<'c, 'm> {
    cx: &'c Context<'m>,
    body: &'m FunctionBody,
    space: ValueSpace,
    out: Vec<Diagnostic>,
    /// The instruction being checked, and its index in the body.
    at: Location,
    index: usize,
}

impl Checker<'_, '_> {
    fn report(&mut self, rule: Rule, message: String) {
        let pos = self.body.positions.get(self.index).copied();
        self.out.push(Diagnostic { rule, location: self.at.clone(), pos, message });
    }

    /// The type of a value used as an operand (function and global addresses are `i32`).
    fn ty(&self, v: ValueId) -> Ty {
        let fg = self.space.functions + self.space.globals;
        if v.0 < fg {
            return Ty::I32;
        }
        // The reader accepted the module, so every operand has a type.
        self.body.local_types.get((v.0 - fg) as usize).copied().unwrap_or(Ty::Void)
    }

    /// The integer value of a constant operand, if it is one.
    fn constant(&self, v: ValueId) -> Option<i64> {
        match self.space.kind(v) {
            ValueKind::Const(i) => match self.body.constants.get(i as usize)?.value {
                ConstValue::Int(_) => self.body.constants[i as usize].value.as_int(),
                _ => None,
            },
            _ => None,
        }
    }

    /// The whitelisted intrinsic a direct call reaches, if any.
    fn intrinsic(&self, callee: ValueId) -> Option<&'static Intrinsic> {
        self.cx.intrinsics.get(callee.0 as usize).copied().flatten()
    }

    fn defines_value(&self, inst: &Inst) -> bool {
        self.cx.m.defines_value(inst)
    }

    /// Reports operands that are intrinsic functions: their address is not a value.
    #[inline]
    fn no_intrinsic_operand(&mut self, v: ValueId) {
        if (v.0 as usize) < self.cx.m.functions.len() && self.cx.is_intrinsic_name(v.0) {
            self.intrinsic_operand(v);
        }
    }

    #[cold]
    fn intrinsic_operand(&mut self, v: ValueId) {
        let name = self.cx.function_name(v.0);
        self.report(Rule::IntrinsicAddress, format!("Intrinsic {name} used as a value: its address can't be taken"));
    }

    fn instruction(&mut self, inst: &Inst) {
        let body = self.body;
        match *inst {
            Inst::Binop { op, lhs, rhs, flags } => {
                self.no_intrinsic_operand(lhs);
                self.no_intrinsic_operand(rhs);
                let t = self.ty(lhs);
                if t.element() == Ty::I1 && !op.is_logical() {
                    self.report(Rule::BinopI1, format!("{}: Invalid integer arithmetic type: {t}", op.int_name()));
                }
                if let Some(fl) = flags.filter(|&fl| fl != 0) {
                    self.report(Rule::BinopFlags, format!("{} has {}", op_name(op, t), flag_names(op, t, fl)));
                }
            }
            Inst::Cast { val, .. } => self.no_intrinsic_operand(val),
            Inst::Cmp { pred, lhs, rhs } => {
                self.no_intrinsic_operand(lhs);
                self.no_intrinsic_operand(rhs);
                let t = self.ty(lhs);
                // icmp, like the arithmetic operators, needs an integer arithmetic type.
                if pred.is_integer() && t.element() == Ty::I1 {
                    self.report(Rule::BinopI1, format!("icmp {}: Invalid integer arithmetic type: {t}", pred.name()));
                }
            }
            Inst::Select { cond, on_true, on_false } => {
                for v in [cond, on_true, on_false] {
                    self.no_intrinsic_operand(v);
                }
            }
            Inst::ExtractElement { vector, index } => self.vector_index("extractelement", vector, index),
            Inst::InsertElement { vector, element, index } => {
                self.no_intrinsic_operand(element);
                self.vector_index("insertelement", vector, index);
            }
            Inst::Alloca { size, .. } => {
                let t = self.ty(size);
                if t != Ty::I32 {
                    self.report(Rule::Alloca, format!("alloca array size is not i32. Found: {t}"));
                }
                self.no_intrinsic_operand(size);
            }
            Inst::Load { ptr, ty, align } => {
                self.no_intrinsic_operand(ptr);
                self.memory("load", ty, align.bytes());
            }
            Inst::Store { ptr, val, align } => {
                self.no_intrinsic_operand(ptr);
                self.no_intrinsic_operand(val);
                let t = self.ty(val);
                self.memory("store", t, align.bytes());
            }
            Inst::Ret { val: Some(v) } => self.no_intrinsic_operand(v),
            Inst::CondBr { cond, .. } => self.no_intrinsic_operand(cond),
            Inst::Switch { ty, cond, .. } => {
                self.no_intrinsic_operand(cond);
                if ty == Ty::I1 {
                    self.report(Rule::SwitchType, "switch on i1 not allowed".into());
                }
            }
            Inst::Phi { incoming, .. } => {
                for (v, _) in body.incoming(incoming) {
                    self.no_intrinsic_operand(v);
                }
            }
            Inst::Call { callee, indirect_ret, args, .. } => {
                let args = body.pool(args);
                for &a in args {
                    self.no_intrinsic_operand(ValueId(a));
                }
                match indirect_ret {
                    Some(ret) => {
                        self.no_intrinsic_operand(callee);
                        self.call_types(|| "indirect call".into(), ret, args);
                        if (callee.0 as usize) < self.cx.m.functions.len() && !self.cx.is_intrinsic_name(callee.0) {
                            self.call_through_address(callee.0, ret, args);
                        }
                    }
                    None => self.direct_call(callee, args),
                }
            }
            Inst::Ret { val: None } | Inst::Br { .. } | Inst::Unreachable | Inst::ForwardDecl { .. } => {}
        }
    }

    /// Type and alignment of a load or store.
    fn memory(&mut self, op: &str, ty: Ty, align: u32) {
        if abi::alignment_ok(ty, align) {
            return;
        }
        if abi::allowed_alignments(ty).is_none() {
            self.report(Rule::MemoryType, format!("{op}: Not allowed for type: {ty}"));
        } else if let Some(why) = abi::alignment_error(op, ty, align) {
            self.report(Rule::MemoryAlign, why);
        }
    }

    fn vector_index(&mut self, op: &str, vector: ValueId, index: ValueId) {
        self.no_intrinsic_operand(vector);
        let lanes = self.ty(vector).lanes();
        match self.constant(index) {
            None => {
                let name = value_name(&self.space, index);
                self.report(Rule::VectorIndex, format!("{op}: Vector index not constant: {name}"));
            }
            Some(i) if i < 0 || i >= i64::from(lanes) => {
                self.report(Rule::VectorIndex, format!("{op}: Vector index {i} out of range for {lanes} elements"));
            }
            Some(_) => {}
        }
    }

    /// Argument and result types of a call to an ordinary function; `what` names the call
    /// in messages (only built when there is something to report).
    fn call_types(&mut self, what: impl Fn() -> String, ret: Ty, args: &[u32]) {
        for (i, &a) in args.iter().enumerate() {
            let t = self.ty(ValueId(a));
            if !t.is_fcn_arg() {
                self.report(Rule::CallTypes, format!("Argument {} of {} has invalid type: {t}", i + 1, what()));
            }
        }
        if ret != Ty::Void && !ret.is_fcn_arg() {
            self.report(Rule::CallTypes, format!("Return type of {} is invalid: {ret}", what()));
        }
    }

    fn direct_call(&mut self, callee: ValueId, args: &[u32]) {
        let m = self.cx.m;
        if let Some(intr) = self.intrinsic(callee) {
            self.intrinsic_call(intr, args);
            return;
        }
        if self.cx.is_intrinsic_name(callee.0) {
            // A disallowed intrinsic: reported with its declaration.
            return;
        }
        let cx = self.cx;
        if m.functions[callee.0 as usize].is_proto {
            let name = cx.function_name(callee.0);
            self.report(Rule::CallUndefined, format!("Call to {name}, which is declared but not defined"));
        }
        let ret = m.signature(callee.0).ret;
        self.call_types(|| format!("call to {}", cx.function_name(callee.0)), ret, args);
    }

    /// An indirect call whose callee is function `f` itself: the writer's form of a direct
    /// call whose argument count differs from `f`'s (LLVM IR calls a bitcast of `f`, as
    /// PNaCl's `_start` does a `main` without parameters). A warning, saying what `pnacl run`
    /// does with it.
    fn call_through_address(&mut self, f: u32, ret: Ty, args: &[u32]) {
        let sig = self.cx.m.signature(f);
        if sig.params.len() == args.len() {
            return;
        }
        let passed: Vec<Ty> = args.iter().map(|&a| self.ty(ValueId(a))).collect();
        let droppable = sig.ret == ret && passed.len() > sig.params.len() && passed.starts_with(&sig.params);
        let name = self.cx.function_name(f);
        let outcome = if droppable { "pnacl run drops the extra arguments" } else { "pnacl run traps on it" };
        self.report(
            Rule::CallArgumentCount,
            format!(
                "Call to {name}, which takes {} arguments, with {}: written as an indirect call because the \
                 argument count differs; {outcome}",
                sig.params.len(),
                args.len()
            ),
        );
    }

    /// The constant operands of intrinsics: memory orders, RMW operations, sizes and the
    /// memory intrinsics' alignment and volatility.
    fn intrinsic_call(&mut self, intr: &Intrinsic, args: &[u32]) {
        let arg = |i: usize| args.get(i).map(|&a| ValueId(a));
        match intr.kind {
            K::AtomicLoad => self.order(intr, arg(1), "load", |o| (1..=6).contains(&o) && o != 4 && o != 5),
            K::AtomicStore => self.order(intr, arg(2), "store", |o| matches!(o, 1 | 4 | 6)),
            K::AtomicRmw => {
                match arg(0).map(|a| self.constant(a)) {
                    Some(Some(op)) if (1..=6).contains(&op) => {}
                    Some(Some(op)) => {
                        self.report(Rule::AtomicRmwOp, format!("{}: invalid atomicRMW operation {op}", intr.name))
                    }
                    _ => {
                        self.report(Rule::AtomicRmwOp, format!("{}: atomicRMW operation is not a constant", intr.name))
                    }
                }
                self.order(intr, arg(3), "rmw", |o| (1..=6).contains(&o));
            }
            K::AtomicCmpxchg => {
                let success = arg(3).and_then(|a| self.constant(a));
                let failure = arg(4).and_then(|a| self.constant(a));
                match (success, failure) {
                    (Some(s), Some(fl)) => {
                        let ok = (1..=6).contains(&s) && matches!(fl, 1 | 2 | 3 | 6) && fl <= s && (s != 4 || fl == 1);
                        if !ok {
                            let message = format!(
                                "{}: invalid memory orders: success {} with failure {}",
                                intr.name,
                                order_name(s),
                                order_name(fl)
                            );
                            self.report(Rule::AtomicOrder, message);
                        }
                    }
                    _ => self.report(Rule::AtomicOrder, format!("{}: memory orders are not constants", intr.name)),
                }
            }
            K::AtomicFence => self.order(intr, arg(0), "fence", |o| (1..=6).contains(&o)),
            K::AtomicIsLockFree => match arg(0).and_then(|a| self.constant(a)) {
                Some(1 | 2 | 4 | 8) => {}
                Some(n) => self
                    .report(Rule::AtomicLockFreeSize, format!("{}: invalid atomic lock-free byte size {n}", intr.name)),
                None => self.report(Rule::AtomicLockFreeSize, format!("{}: byte size is not a constant", intr.name)),
            },
            K::Memcpy | K::Memmove | K::Memset => {
                match arg(3).and_then(|a| self.constant(a)) {
                    Some(1) => {}
                    Some(n) => {
                        self.report(Rule::MemIntrinsic, format!("{}: alignment must be 1. Found: {n}", intr.name))
                    }
                    None => self.report(Rule::MemIntrinsic, format!("{}: alignment is not a constant", intr.name)),
                }
                if arg(4).and_then(|a| self.constant(a)).is_none() {
                    self.report(Rule::MemIntrinsic, format!("{}: volatile flag is not a constant", intr.name));
                }
            }
            _ => {}
        }
    }

    /// A memory-order operand: a constant the operation allows.
    fn order(&mut self, intr: &Intrinsic, arg: Option<ValueId>, op: &str, valid: impl Fn(i64) -> bool) {
        match arg.and_then(|a| self.constant(a)) {
            Some(o) if valid(o) => {}
            Some(o) => self
                .report(Rule::AtomicOrder, format!("{}: invalid memory order {} for {op}", intr.name, order_name(o))),
            None => self.report(Rule::AtomicOrder, format!("{}: memory order is not a constant", intr.name)),
        }
    }
}

/// A memory order's number and name (runtime-facts §8.2).
fn order_name(o: i64) -> String {
    let name = match o {
        1 => "relaxed",
        2 => "consume",
        3 => "acquire",
        4 => "release",
        5 => "acq_rel",
        6 => "seq_cst",
        _ => "invalid",
    };
    format!("{o} ({name})")
}

fn op_name(op: BinOp, t: Ty) -> &'static str {
    op.name(t.element()).unwrap_or("binop")
}

/// LLVM's optimisation flags of a binary operator record: `nuw` (bit 0) and `nsw` (bit 1)
/// on add, sub, mul and shl; `exact` (bit 0) on divisions and right shifts.
fn flag_names(op: BinOp, t: Ty, flags: u16) -> String {
    let mut names = Vec::new();
    if t.element().is_float() {
        names.push(format!("fast-math flags {flags}"));
    } else if matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Shl) {
        if flags & 1 != 0 {
            names.push("\"nuw\" attribute".to_string());
        }
        if flags & 2 != 0 {
            names.push("\"nsw\" attribute".to_string());
        }
    } else if matches!(op, BinOp::UDiv | BinOp::SDiv | BinOp::LShr | BinOp::AShr) && flags & 1 != 0 {
        names.push("\"exact\" attribute".to_string());
    }
    if names.is_empty() {
        names.push(format!("flags {flags}"));
    }
    names.join(" and ")
}

fn value_name(space: &ValueSpace, v: ValueId) -> String {
    match space.kind(v) {
        ValueKind::Function(i) => format!("@f{i}"),
        ValueKind::Global(i) => format!("@g{i}"),
        ValueKind::Param(i) => format!("%p{i}"),
        ValueKind::Const(i) => format!("%c{i}"),
        ValueKind::Inst(i) => format!("%v{i}"),
    }
}
