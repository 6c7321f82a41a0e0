//! `llvm.is.fpclass(x, test)`, which clang 17 and newer emit for `isnormal`, `fpclassify`,
//! `__builtin_isfpclass` and the like, as integer tests on the bits of `x` (for
//! `nacl-expand-modern-intrinsics`). `test` is a constant mask of classes: bit 0
//! signaling NaN, 1 quiet NaN, 2 -inf, 3 -normal, 4 -subnormal, 5 -0, 6 +0, 7 +subnormal,
//! 8 +normal, 9 +inf; the result is whether `x` is in one of them.

use crate::util::{Out, binop, inst, int_const, ty};
use pnacl_llvm::ir::{BinaryOp, CastOp, Const, InstKind, IntPred, Module, Type, Value};

/// Expands `llvm.is.fpclass` with `args`.
pub(crate) fn expand(m: &mut Module, out: &mut Out<'_>, args: &[Value]) -> Result<Value, String> {
    let [x, test] = args else { return Err("llvm.is.fpclass takes two operands".into()) };
    let test = match test {
        Value::Const(c) => match m.consts.get(*c) {
            Const::Int { value, .. } => *value,
            _ => return Err("llvm.is.fpclass with a test that is not a constant integer".into()),
        },
        _ => return Err("llvm.is.fpclass with a test that is not a constant".into()),
    };
    let ft = ty(m, out.func, *x);
    // Width, exponent mask, quiet bit, smallest normal.
    let (n, exp, quiet, min_normal) = match m.types.get(ft) {
        Type::Float => (32, 0x7f80_0000u64, 0x0040_0000u64, 0x0080_0000u64),
        Type::Double => (64, 0x7ff0_0000_0000_0000, 0x0008_0000_0000_0000, 0x0010_0000_0000_0000),
        other => return Err(format!("llvm.is.fpclass of {other:?}")),
    };
    let it = m.types.int(n);
    let i1t = m.types.int(1);
    let c = |m: &mut Module, v: u64| int_const(m, it, v);
    let bits = out.cast(m, CastOp::Bitcast, *x, it);
    let all_but_sign = c(m, if n == 64 { u64::MAX >> 1 } else { 0x7fff_ffff });
    let abs = out.emit(m, binop(BinaryOp::And, bits, all_but_sign, it));
    let cmp =
        |m: &mut Module, out: &mut Out<'_>, pred, a, b| out.emit(m, inst(InstKind::ICmp { pred, lhs: a, rhs: b }, i1t));
    let or = |m: &mut Module, out: &mut Out<'_>, acc: Option<Value>, v: Value| match acc {
        None => v,
        Some(a) => out.emit(m, binop(BinaryOp::Or, a, v, i1t)),
    };
    let zero = c(m, 0);
    let negative = cmp(m, out, IntPred::Slt, bits, zero);
    let mut result: Option<Value> = None;
    // NaNs: above the exponent mask; quiet ones have the top mantissa bit too.
    let (snan, qnan) = (test & 1 != 0, test & 2 != 0);
    if snan || qnan {
        let e = c(m, exp);
        let q = c(m, exp | quiet);
        let v = match (snan, qnan) {
            (true, true) => cmp(m, out, IntPred::Ugt, abs, e),
            (false, true) => cmp(m, out, IntPred::Uge, abs, q),
            _ => {
                let nan = cmp(m, out, IntPred::Ugt, abs, e);
                let not_quiet = cmp(m, out, IntPred::Ult, abs, q);
                out.emit(m, binop(BinaryOp::And, nan, not_quiet, i1t))
            }
        };
        result = Some(or(m, out, result, v));
    }
    // The other classes, each as (negative bit, positive bit).
    for (neg_bit, pos_bit, class) in [(2, 9, "inf"), (3, 8, "normal"), (4, 7, "subnormal"), (5, 6, "zero")] {
        let (want_neg, want_pos) = (test >> neg_bit & 1 != 0, test >> pos_bit & 1 != 0);
        if !want_neg && !want_pos {
            continue;
        }
        let is = match class {
            "inf" => {
                let e = c(m, exp);
                cmp(m, out, IntPred::Eq, abs, e)
            }
            "zero" => cmp(m, out, IntPred::Eq, abs, zero),
            // 0 < abs < min_normal, as abs - 1 <u min_normal - 1.
            "subnormal" => {
                let one = c(m, 1);
                let d = out.emit(m, binop(BinaryOp::Sub, abs, one, it));
                let k = c(m, min_normal - 1);
                cmp(m, out, IntPred::Ult, d, k)
            }
            // min_normal <= abs < exp, as abs - min_normal <u exp - min_normal.
            _ => {
                let lo = c(m, min_normal);
                let d = out.emit(m, binop(BinaryOp::Sub, abs, lo, it));
                let k = c(m, exp - min_normal);
                cmp(m, out, IntPred::Ult, d, k)
            }
        };
        let v = match (want_neg, want_pos) {
            (true, true) => is,
            (true, false) => out.emit(m, binop(BinaryOp::And, is, negative, i1t)),
            _ => {
                let t = Value::Const(m.consts.int(i1t, 1, 1));
                let positive = out.emit(m, binop(BinaryOp::Xor, negative, t, i1t));
                out.emit(m, binop(BinaryOp::And, is, positive, i1t))
            }
        };
        result = Some(or(m, out, result, v));
    }
    Ok(result.unwrap_or_else(|| Value::Const(m.consts.int(i1t, 1, 0))))
}
