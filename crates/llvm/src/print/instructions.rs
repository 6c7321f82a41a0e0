//! Instructions in LLVM IR text.

use super::Printer;
use super::names::LocalNames;
use crate::ir::{BinaryOp, Clause, Function, InstId, InstKind, Ordering, RmwOp, TailKind, TypeId, Value};
use std::fmt::Write;

fn ordering(o: Ordering) -> &'static str {
    o.name()
}

fn rmw(op: RmwOp) -> &'static str {
    use RmwOp::*;
    match op {
        Xchg => "xchg",
        Add => "add",
        Sub => "sub",
        And => "and",
        Nand => "nand",
        Or => "or",
        Xor => "xor",
        Max => "max",
        Min => "min",
        UMax => "umax",
        UMin => "umin",
        FAdd => "fadd",
        FSub => "fsub",
        FMax => "fmax",
        FMin => "fmin",
    }
}

/// Fast-math flags in bitcode order.
fn fast_math(out: &mut String, flags: u32) {
    if flags & 1 != 0 || flags & 0xfe == 0xfe {
        out.push_str(" fast");
        return;
    }
    for (bit, name) in [
        (1 << 1, "nnan"),
        (1 << 2, "ninf"),
        (1 << 3, "nsz"),
        (1 << 4, "arcp"),
        (1 << 5, "contract"),
        (1 << 6, "afn"),
        (1 << 7, "reassoc"),
    ] {
        if flags & bit != 0 {
            out.push(' ');
            out.push_str(name);
        }
    }
}

impl Printer<'_> {
    fn value_type(&self, f: u32, v: Value) -> Option<TypeId> {
        self.m.value_type(crate::ir::FuncId(f), v)
    }

    /// `T v`.
    fn typed(&self, out: &mut String, f: u32, locals: &LocalNames, v: Value) {
        match self.value_type(f, v) {
            Some(t) => self.ty(out, t),
            None => out.push_str("ptr"),
        }
        out.push(' ');
        self.value(out, locals, v);
    }

    fn label(&self, out: &mut String, locals: &LocalNames, b: crate::ir::BlockId) {
        out.push_str("label ");
        out.push_str(&locals.blocks[b.0 as usize]);
    }

    fn align(&self, out: &mut String, a: u32) {
        if a != 0 {
            let _ = write!(out, ", align {a}");
        }
    }

    /// Writes one instruction (without indentation or newline).
    pub fn instruction(&self, out: &mut String, fi: u32, func: &Function, id: InstId, locals: &LocalNames) {
        let inst = func.inst(id);
        if let Some(name) = locals.insts.get(&id) {
            out.push_str(name);
            out.push_str(" = ");
        }
        let t = |p: &Self, out: &mut String, v: Value| p.typed(out, fi, locals, v);
        let v = |p: &Self, out: &mut String, x: Value| p.value(out, locals, x);
        match &inst.kind {
            InstKind::Binary { op, lhs, rhs, flags } => {
                out.push_str(op.name());
                use BinaryOp::*;
                match op {
                    Add | Sub | Mul | Shl => {
                        if flags & 1 != 0 {
                            out.push_str(" nuw");
                        }
                        if flags & 2 != 0 {
                            out.push_str(" nsw");
                        }
                    }
                    UDiv | SDiv | LShr | AShr if flags & 1 != 0 => out.push_str(" exact"),
                    o if o.is_float() => fast_math(out, *flags),
                    _ => {}
                }
                out.push(' ');
                t(self, out, *lhs);
                out.push_str(", ");
                v(self, out, *rhs);
            }
            InstKind::FNeg { val, flags } => {
                out.push_str("fneg");
                fast_math(out, *flags);
                out.push(' ');
                t(self, out, *val);
            }
            InstKind::Cast { op, val } => {
                out.push_str(op.name());
                out.push(' ');
                t(self, out, *val);
                out.push_str(" to ");
                self.ty(out, inst.ty);
            }
            InstKind::GetElementPtr { source_ty, inbounds, base, indices } => {
                out.push_str(if *inbounds { "getelementptr inbounds " } else { "getelementptr " });
                self.ty(out, *source_ty);
                out.push_str(", ");
                t(self, out, *base);
                for &i in indices {
                    out.push_str(", ");
                    t(self, out, i);
                }
            }
            InstKind::Load { ptr, align, volatile, ordering: o } => {
                out.push_str("load ");
                if *o != Ordering::NotAtomic {
                    out.push_str("atomic ");
                }
                if *volatile {
                    out.push_str("volatile ");
                }
                self.ty(out, inst.ty);
                out.push_str(", ");
                t(self, out, *ptr);
                if *o != Ordering::NotAtomic {
                    out.push(' ');
                    out.push_str(ordering(*o));
                }
                self.align(out, *align);
            }
            InstKind::Store { ptr, val, align, volatile, ordering: o } => {
                out.push_str("store ");
                if *o != Ordering::NotAtomic {
                    out.push_str("atomic ");
                }
                if *volatile {
                    out.push_str("volatile ");
                }
                t(self, out, *val);
                out.push_str(", ");
                t(self, out, *ptr);
                if *o != Ordering::NotAtomic {
                    out.push(' ');
                    out.push_str(ordering(*o));
                }
                self.align(out, *align);
            }
            InstKind::Alloca { allocated_ty, count, align } => {
                out.push_str("alloca ");
                self.ty(out, *allocated_ty);
                out.push_str(", ");
                t(self, out, *count);
                self.align(out, *align);
            }
            InstKind::ICmp { pred, lhs, rhs } => {
                let _ = write!(out, "icmp {} ", pred.name());
                t(self, out, *lhs);
                out.push_str(", ");
                v(self, out, *rhs);
            }
            InstKind::FCmp { pred, lhs, rhs, flags } => {
                out.push_str("fcmp");
                fast_math(out, *flags);
                let _ = write!(out, " {} ", pred.name());
                t(self, out, *lhs);
                out.push_str(", ");
                v(self, out, *rhs);
            }
            InstKind::Select { cond, on_true, on_false } => {
                out.push_str("select ");
                t(self, out, *cond);
                out.push_str(", ");
                t(self, out, *on_true);
                out.push_str(", ");
                t(self, out, *on_false);
            }
            InstKind::Phi { incoming } => {
                out.push_str("phi ");
                self.ty(out, inst.ty);
                for (k, (x, b)) in incoming.iter().enumerate() {
                    out.push_str(if k == 0 { " [ " } else { ", [ " });
                    v(self, out, *x);
                    out.push_str(", ");
                    out.push_str(&locals.blocks[b.0 as usize]);
                    out.push_str(" ]");
                }
            }
            InstKind::Call { callee, fn_ty, args, cc, tail, attrs, flags } => {
                match tail {
                    TailKind::Tail => out.push_str("tail "),
                    TailKind::MustTail => out.push_str("musttail "),
                    TailKind::NoTail => out.push_str("notail "),
                    TailKind::None => {}
                }
                out.push_str("call");
                fast_math(out, *flags);
                out.push(' ');
                self.call_rest(out, fi, locals, *callee, *fn_ty, args, *cc, attrs);
            }
            InstKind::Invoke { callee, fn_ty, args, cc, attrs, normal, unwind } => {
                out.push_str("invoke ");
                self.call_rest(out, fi, locals, *callee, *fn_ty, args, *cc, attrs);
                out.push_str(" to ");
                self.label(out, locals, *normal);
                out.push_str(" unwind ");
                self.label(out, locals, *unwind);
            }
            InstKind::Ret { val: None } => out.push_str("ret void"),
            InstKind::Ret { val: Some(x) } => {
                out.push_str("ret ");
                t(self, out, *x);
            }
            InstKind::Br { target } => {
                out.push_str("br ");
                self.label(out, locals, *target);
            }
            InstKind::CondBr { cond, on_true, on_false } => {
                out.push_str("br ");
                t(self, out, *cond);
                out.push_str(", ");
                self.label(out, locals, *on_true);
                out.push_str(", ");
                self.label(out, locals, *on_false);
            }
            InstKind::Switch { cond, default, cases } => {
                out.push_str("switch ");
                t(self, out, *cond);
                out.push_str(", ");
                self.label(out, locals, *default);
                out.push_str(" [");
                for (c, b) in cases {
                    out.push_str("\n    ");
                    self.typed_constant(out, *c);
                    out.push_str(", ");
                    self.label(out, locals, *b);
                }
                out.push_str("\n  ]");
            }
            InstKind::IndirectBr { addr, dests } => {
                out.push_str("indirectbr ");
                t(self, out, *addr);
                out.push_str(", [");
                for (k, d) in dests.iter().enumerate() {
                    if k > 0 {
                        out.push_str(", ");
                    }
                    self.label(out, locals, *d);
                }
                out.push(']');
            }
            InstKind::Resume { val } => {
                out.push_str("resume ");
                t(self, out, *val);
            }
            InstKind::Unreachable => out.push_str("unreachable"),
            InstKind::LandingPad { cleanup, clauses } => {
                out.push_str("landingpad ");
                self.ty(out, inst.ty);
                if *cleanup {
                    out.push_str("\n          cleanup");
                }
                for c in clauses {
                    let (k, c) = match c {
                        Clause::Catch(c) => ("catch", c),
                        Clause::Filter(c) => ("filter", c),
                    };
                    let _ = write!(out, "\n          {k} ");
                    self.typed_constant(out, *c);
                }
            }
            InstKind::ExtractElement { vector, index } => {
                out.push_str("extractelement ");
                t(self, out, *vector);
                out.push_str(", ");
                t(self, out, *index);
            }
            InstKind::InsertElement { vector, element, index } => {
                out.push_str("insertelement ");
                t(self, out, *vector);
                out.push_str(", ");
                t(self, out, *element);
                out.push_str(", ");
                t(self, out, *index);
            }
            InstKind::ShuffleVector { a, b, mask } => {
                out.push_str("shufflevector ");
                t(self, out, *a);
                out.push_str(", ");
                t(self, out, *b);
                let _ = write!(out, ", <{} x i32> ", mask.len());
                if mask.iter().all(|&x| x == 0) {
                    out.push_str("zeroinitializer");
                } else {
                    out.push('<');
                    for (k, &x) in mask.iter().enumerate() {
                        if k > 0 {
                            out.push_str(", ");
                        }
                        if x < 0 {
                            out.push_str("i32 undef");
                        } else {
                            let _ = write!(out, "i32 {x}");
                        }
                    }
                    out.push('>');
                }
            }
            InstKind::ExtractValue { agg, indices } => {
                out.push_str("extractvalue ");
                t(self, out, *agg);
                for i in indices {
                    let _ = write!(out, ", {i}");
                }
            }
            InstKind::InsertValue { agg, val, indices } => {
                out.push_str("insertvalue ");
                t(self, out, *agg);
                out.push_str(", ");
                t(self, out, *val);
                for i in indices {
                    let _ = write!(out, ", {i}");
                }
            }
            InstKind::VaArg { list } => {
                out.push_str("va_arg ");
                t(self, out, *list);
                out.push_str(", ");
                self.ty(out, inst.ty);
            }
            InstKind::AtomicRmw { op, ptr, val, ordering: o, volatile, align } => {
                out.push_str("atomicrmw ");
                if *volatile {
                    out.push_str("volatile ");
                }
                out.push_str(rmw(*op));
                out.push(' ');
                t(self, out, *ptr);
                out.push_str(", ");
                t(self, out, *val);
                out.push(' ');
                out.push_str(ordering(*o));
                self.align(out, *align);
            }
            InstKind::CmpXchg { ptr, cmp, new, success, failure, weak, volatile, align } => {
                out.push_str("cmpxchg ");
                if *weak {
                    out.push_str("weak ");
                }
                if *volatile {
                    out.push_str("volatile ");
                }
                t(self, out, *ptr);
                out.push_str(", ");
                t(self, out, *cmp);
                out.push_str(", ");
                t(self, out, *new);
                let _ = write!(out, " {} {}", ordering(*success), ordering(*failure));
                self.align(out, *align);
            }
            InstKind::Fence { ordering: o, single_thread } => {
                out.push_str("fence ");
                if *single_thread {
                    out.push_str("syncscope(\"singlethread\") ");
                }
                out.push_str(ordering(*o));
            }
            InstKind::Freeze { val } => {
                out.push_str("freeze ");
                t(self, out, *val);
            }
        }
    }

    /// `[cc] RET CALLEE(args)` of a call or invoke.
    #[allow(clippy::too_many_arguments)]
    fn call_rest(
        &self,
        out: &mut String,
        fi: u32,
        locals: &LocalNames,
        callee: Value,
        fn_ty: TypeId,
        args: &[Value],
        cc: u32,
        attrs: &crate::ir::Attrs,
    ) {
        if cc != 0 {
            let _ = write!(out, "cc{cc} ");
        }
        let (ret, params, vararg) = match self.m.types.as_function(fn_ty) {
            Some((r, p, v)) => (r, p.to_vec(), v),
            None => return,
        };
        self.attrs(out, &attrs.ret, Some(ret));
        // The whole function type when the callee's own type could not say it.
        let callee_ty = self.value_type(fi, callee).and_then(|t| self.m.types.pointee(t));
        let full = vararg || (!self.opaque && callee_ty.is_some_and(|t| t != fn_ty));
        if full {
            self.ty(out, fn_ty);
        } else {
            self.ty(out, ret);
        }
        out.push(' ');
        self.value(out, locals, callee);
        out.push('(');
        for (k, &a) in args.iter().enumerate() {
            if k > 0 {
                out.push_str(", ");
            }
            let at = params.get(k).copied().or_else(|| self.value_type(fi, a));
            match at {
                Some(t) => self.ty(out, t),
                None => out.push_str("ptr"),
            }
            out.push(' ');
            self.attrs(out, attrs.param(k), at);
            self.value(out, locals, a);
        }
        out.push(')');
    }
}
