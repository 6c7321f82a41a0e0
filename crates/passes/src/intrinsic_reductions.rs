//! `llvm.vector.reduce.*` (and LLVM 9-11's `llvm.experimental.vector.reduce.*`), which
//! clang emits for `__builtin_reduce_*` and the vectorizers' horizontal reductions, as a
//! chain over the lanes (for `nacl-expand-modern-intrinsics`): `extractelement` of each
//! lane, folded left to right. `fadd` and `fmul` start from their first operand, in lane
//! order (what the ordered form requires and the reassociable form allows); `fmax` and
//! `fmin` fold with [`maxnum`].

use crate::util::{Out, binop, inst, int_const, ty};
use pnacl_llvm::ir::{BinaryOp, FloatPred, InstKind, IntPred, Module, Type, TypeId, Value};

/// The reduction named by intrinsic `rest` (its name without `llvm.`), if it is one.
pub(crate) fn reduction(rest: &str) -> Option<&str> {
    let r = rest.strip_prefix("vector.reduce.").or_else(|| rest.strip_prefix("experimental.vector.reduce."))?;
    // LLVM 9's ordered forms were `v2.fadd`.
    let r = r.strip_prefix("v2.").unwrap_or(r);
    r.split('.').next()
}

/// Expands reduction `op` of a call with `args`, whose result has type `t`.
pub(crate) fn expand(m: &mut Module, out: &mut Out<'_>, op: &str, args: &[Value], t: TypeId) -> Result<Value, String> {
    let ordered_float = matches!(op, "fadd" | "fmul");
    let (start, vector) = match (ordered_float, args) {
        (true, [s, v]) => (Some(*s), *v),
        (false, [v]) => (None, *v),
        _ => return Err(format!("llvm.vector.reduce.{op} with {} operands", args.len())),
    };
    let vt = ty(m, out.func, vector);
    let Type::Vector { len, elem, scalable: false } = *m.types.get(vt) else {
        return Err(format!("llvm.vector.reduce.{op} of a non-vector"));
    };
    let i32t = m.types.int(32);
    let mut acc = start;
    for lane in 0..len {
        let index = int_const(m, i32t, u64::from(lane));
        let x = out.emit(m, inst(InstKind::ExtractElement { vector, index }, elem));
        acc = Some(match acc {
            None => x,
            Some(a) => combine(m, out, op, a, x, t)?,
        });
    }
    acc.ok_or_else(|| format!("llvm.vector.reduce.{op} of an empty vector"))
}

/// `a OP b` at type `t`.
fn combine(m: &mut Module, out: &mut Out<'_>, op: &str, a: Value, b: Value, t: TypeId) -> Result<Value, String> {
    let arith = match op {
        "add" => Some(BinaryOp::Add),
        "mul" => Some(BinaryOp::Mul),
        "and" => Some(BinaryOp::And),
        "or" => Some(BinaryOp::Or),
        "xor" => Some(BinaryOp::Xor),
        "fadd" => Some(BinaryOp::FAdd),
        "fmul" => Some(BinaryOp::FMul),
        _ => None,
    };
    if let Some(o) = arith {
        return Ok(out.emit(m, binop(o, a, b, t)));
    }
    let pred = match op {
        "smax" => IntPred::Sgt,
        "smin" => IntPred::Slt,
        "umax" => IntPred::Ugt,
        "umin" => IntPred::Ult,
        "fmax" | "fmin" => return Ok(maxnum(m, out, op == "fmax", a, b, t)),
        _ => return Err(format!("llvm.vector.reduce.{op} has no expansion")),
    };
    let i1t = m.types.int(1);
    let c = out.emit(m, inst(InstKind::ICmp { pred, lhs: a, rhs: b }, i1t));
    Ok(out.emit(m, inst(InstKind::Select { cond: c, on_true: a, on_false: b }, t)))
}

/// LLVM's `maxnum` (`max`) or `minnum` of `a` and `b` at float type `t`, as C's `fmax` and
/// `fmin` define them: a NaN operand gives the other operand.
pub(crate) fn maxnum(m: &mut Module, out: &mut Out<'_>, max: bool, a: Value, b: Value, t: TypeId) -> Value {
    let i1t = m.types.int(1);
    let (ogt, olt, uno) = (FloatPred(2), FloatPred(4), FloatPred(8));
    let mut fcmp = |m: &mut Module, pred, lhs, rhs| out.emit(m, inst(InstKind::FCmp { pred, lhs, rhs, flags: 0 }, i1t));
    let wins = fcmp(m, if max { ogt } else { olt }, a, b);
    let b_nan = fcmp(m, uno, b, b);
    let a_nan = fcmp(m, uno, a, a);
    let r = out.emit(m, inst(InstKind::Select { cond: wins, on_true: a, on_false: b }, t));
    let r = out.emit(m, inst(InstKind::Select { cond: b_nan, on_true: a, on_false: r }, t));
    out.emit(m, inst(InstKind::Select { cond: a_nan, on_true: b, on_false: r }, t))
}
