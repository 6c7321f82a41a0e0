//! `expand-arith-with-overflow`: `llvm.{s,u}{add,sub,mul}.with.overflow` become the
//! arithmetic and a comparison that computes the overflow bit (the `{ result, overflow }`
//! pair is built with `insertvalue`, which ExpandStructRegs takes apart).

use crate::util::{binop, error, inst, int_const, undef};
use crate::{Pass, PassError};
use pnacl_llvm::ir::{BinaryOp, InstKind, IntPred, Module, TypeId, Value};

/// The pass.
pub struct ExpandArithWithOverflow;

const NAME: &str = "expand-arith-with-overflow";

fn icmp(pred: IntPred, lhs: Value, rhs: Value, i1: TypeId) -> pnacl_llvm::ir::Inst {
    inst(InstKind::ICmp { pred, lhs, rhs }, i1)
}

impl Pass for ExpandArithWithOverflow {
    fn name(&self) -> &'static str {
        NAME
    }

    fn run(&self, m: &mut Module) -> Result<(), PassError> {
        let i1t = m.types.int(1);
        for f in crate::util::defined(m) {
            crate::util::rebuild(m, f, |m, id, out, replace| {
                let i = m.functions[f.0 as usize].inst(id).clone();
                let name = m.direct_callee(&i).map(|c| m.functions[c.0 as usize].props.name.clone());
                let Some(name) = name else {
                    out.keep(id);
                    return Ok(());
                };
                let Some(rest) = name.strip_prefix("llvm.").and_then(|r| r.split_once(".with.overflow.")) else {
                    out.keep(id);
                    return Ok(());
                };
                let InstKind::Call { args, .. } = &i.kind else { unreachable!() };
                let (a, b) = (args[0], args[1]);
                let t = crate::util::ty(m, f, a);
                let w =
                    m.types.get(t).int_width().ok_or_else(|| error(m, NAME, f, id, "a vector overflow intrinsic"))?;
                let zero = int_const(m, t, 0);
                let (result, overflow) = match rest.0 {
                    "uadd" => {
                        let s = out.emit(m, binop(BinaryOp::Add, a, b, t));
                        (s, out.emit(m, icmp(IntPred::Ult, s, a, i1t)))
                    }
                    "usub" => {
                        let s = out.emit(m, binop(BinaryOp::Sub, a, b, t));
                        (s, out.emit(m, icmp(IntPred::Ult, a, b, i1t)))
                    }
                    "sadd" | "ssub" => {
                        let op = if rest.0 == "sadd" { BinaryOp::Add } else { BinaryOp::Sub };
                        let s = out.emit(m, binop(op, a, b, t));
                        // Overflow iff the result's sign differs from both operands' (add), or
                        // the operands' signs differ and the result's differs from a's (sub).
                        let x1 = out.emit(m, binop(BinaryOp::Xor, a, s, t));
                        let x2 = if rest.0 == "sadd" {
                            out.emit(m, binop(BinaryOp::Xor, b, s, t))
                        } else {
                            out.emit(m, binop(BinaryOp::Xor, a, b, t))
                        };
                        let both = out.emit(m, binop(BinaryOp::And, x1, x2, t));
                        (s, out.emit(m, icmp(IntPred::Slt, both, zero, i1t)))
                    }
                    "umul" | "smul" => {
                        let p = out.emit(m, binop(BinaryOp::Mul, a, b, t));
                        let one = int_const(m, t, 1);
                        let minus1 = int_const(m, t, if w >= 64 { u64::MAX } else { (1u64 << w) - 1 });
                        let a_zero = out.emit(m, icmp(IntPred::Eq, a, zero, i1t));
                        let (bad, op) = if rest.0 == "umul" {
                            (a_zero, BinaryOp::UDiv)
                        } else {
                            let a_m1 = out.emit(m, icmp(IntPred::Eq, a, minus1, i1t));
                            (out.emit(m, binop(BinaryOp::Or, a_zero, a_m1, i1t)), BinaryOp::SDiv)
                        };
                        // p / a == b unless the product wrapped; a = 0 (and a = -1 for signed,
                        // where p / a could trap) divide by 1 instead.
                        let d = out.emit(m, inst(InstKind::Select { cond: bad, on_true: one, on_false: a }, t));
                        let q = out.emit(m, binop(op, p, d, t));
                        let differs = out.emit(m, icmp(IntPred::Ne, q, b, i1t));
                        let not_zero = out.emit(m, icmp(IntPred::Ne, a, zero, i1t));
                        let mut ovf = out.emit(m, binop(BinaryOp::And, differs, not_zero, i1t));
                        if rest.0 == "smul" {
                            // a = -1: overflow iff b is the minimum.
                            let min = int_const(m, t, 1u64 << (w - 1));
                            let a_m1 = out.emit(m, icmp(IntPred::Eq, a, minus1, i1t));
                            let b_min = out.emit(m, icmp(IntPred::Eq, b, min, i1t));
                            let neg = out.emit(m, binop(BinaryOp::And, a_m1, b_min, i1t));
                            let not_m1 = out.emit(m, icmp(IntPred::Ne, a, minus1, i1t));
                            let rest = out.emit(m, binop(BinaryOp::And, ovf, not_m1, i1t));
                            ovf = out.emit(m, binop(BinaryOp::Or, rest, neg, i1t));
                        }
                        (p, ovf)
                    }
                    _ => return Err(error(m, NAME, f, id, format!("{name} is not supported"))),
                };
                let u = undef(m, i.ty);
                let s0 = out.emit(m, inst(InstKind::InsertValue { agg: u, val: result, indices: vec![0] }, i.ty));
                let s1 = out.emit(m, inst(InstKind::InsertValue { agg: s0, val: overflow, indices: vec![1] }, i.ty));
                replace.insert(Value::Inst(id), s1);
                Ok(())
            })?;
        }
        Ok(())
    }
}
