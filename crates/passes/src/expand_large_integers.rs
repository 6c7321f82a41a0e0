//! `nacl-expand-ints`: integers wider than 64 bits (clang's loads of wide bitfield storage
//! units, `i96`, `i128`, ...) become 64-bit limbs: loads, stores, bitwise operations,
//! shifts by a constant, truncations, extensions, compares, selects and phis.
//!
//! Each wide value is held as `ceil(W/64)` `i64` limbs, least significant first, with the
//! bits above `W` in the top limb kept at zero; only memory sees the top limb at its own
//! width (`i{W - 64(n-1)}`, which PromoteIntegers then handles).

use crate::util::{binop, error, inst, int_const};
use crate::{Pass, PassError};
use pnacl_llvm::ir::{BinaryOp, CastOp, Const, FuncId, InstId, InstKind, IntPred, Module, TypeId, Value};
use std::collections::HashMap;

/// The pass.
pub struct ExpandLargeIntegers;

const NAME: &str = "nacl-expand-ints";

fn wide_width(m: &Module, t: TypeId) -> Option<u32> {
    m.types.get(t).int_width().filter(|&w| w > 64)
}

impl Pass for ExpandLargeIntegers {
    fn name(&self) -> &'static str {
        NAME
    }

    fn run(&self, m: &mut Module) -> Result<(), PassError> {
        for f in crate::util::defined(m) {
            let func = &m.functions[f.0 as usize];
            let has = func.layout().any(|(_, id)| {
                let i = func.inst(id);
                let mut wide = wide_width(m, i.ty).is_some();
                i.kind.for_each_value(|v| wide |= wide_width(m, crate::util::ty(m, f, v)).is_some());
                wide
            });
            if has {
                expand(m, f)?;
            }
        }
        Ok(())
    }
}

/// The limbs of a wide value.
struct Limbs {
    /// Limbs of each wide instruction result.
    split: HashMap<Value, Vec<Value>>,
    i64t: TypeId,
}

impl Limbs {
    fn get(&self, m: &mut Module, v: Value, width: u32) -> Result<Vec<Value>, String> {
        let n = width.div_ceil(64) as usize;
        if let Value::Const(c) = v {
            return Ok(match m.consts.get(c).clone() {
                Const::WideInt { words, .. } => {
                    (0..n).map(|k| int_const(m, self.i64t, words.get(k).copied().unwrap_or(0))).collect()
                }
                Const::Int { value, .. } => {
                    (0..n).map(|k| int_const(m, self.i64t, if k == 0 { value } else { 0 })).collect()
                }
                // Zero for undef keeps the top limb's unused bits at zero.
                Const::Zero(_) | Const::Undef(_) | Const::Poison(_) => {
                    (0..n).map(|_| int_const(m, self.i64t, 0)).collect()
                }
                other => return Err(format!("a constant {other:?} of a wide integer type")),
            });
        }
        self.split.get(&v).cloned().ok_or_else(|| "a wide integer from an unsupported source".into())
    }
}

/// Clears the bits of the top limb above `width`.
fn mask_top(m: &mut Module, out: &mut crate::util::Out<'_>, limbs: &mut [Value], width: u32, i64t: TypeId) {
    let k = width - 64 * (limbs.len() as u32 - 1);
    if k < 64 {
        let mask = int_const(m, i64t, (1u64 << k) - 1);
        let top = limbs.len() - 1;
        limbs[top] = out.emit(m, binop(BinaryOp::And, limbs[top], mask, i64t));
    }
}

/// The top limb sign-extended from its width (for arithmetic shifts and `sext`).
fn signed_top(m: &mut Module, out: &mut crate::util::Out<'_>, top: Value, width: u32, n: usize, i64t: TypeId) -> Value {
    let k = width - 64 * (n as u32 - 1);
    if k == 64 {
        return top;
    }
    let s = int_const(m, i64t, u64::from(64 - k));
    let up = out.emit(m, binop(BinaryOp::Shl, top, s, i64t));
    out.emit(m, binop(BinaryOp::AShr, up, s, i64t))
}

/// The ordered comparison `a PRED b` of two wide values (limbs least significant first,
/// width `w`): less-than decided by the most significant limb that differs (signed for the
/// top limb of a signed predicate, sign-extended from its width; unsigned below), the
/// other predicates from it by swapping the operands and negating.
fn ordered_compare(
    m: &mut Module,
    out: &mut crate::util::Out<'_>,
    pred: IntPred,
    a: &[Value],
    b: &[Value],
    w: u32,
    i1t: TypeId,
) -> Value {
    use IntPred::*;
    let signed = matches!(pred, Slt | Sgt | Sle | Sge);
    // (swap the operands, negate the result) of `less than`.
    let (swap, negate) = match pred {
        Ult | Slt => (false, false),
        Ugt | Sgt => (true, false),
        Ule | Sle => (true, true),
        _ => (false, true),
    };
    let (x, y) = if swap { (b, a) } else { (a, b) };
    let i64t = m.types.int(64);
    let n = x.len();
    let cmp = |m: &mut Module, out: &mut crate::util::Out<'_>, pred, l, r| {
        out.emit(m, inst(InstKind::ICmp { pred, lhs: l, rhs: r }, i1t))
    };
    let mut less = cmp(m, out, Ult, x[0], y[0]);
    for k in 1..n {
        let (xk, yk, lt) = if k == n - 1 && signed {
            (signed_top(m, out, x[k], w, n, i64t), signed_top(m, out, y[k], w, n, i64t), Slt)
        } else {
            (x[k], y[k], Ult)
        };
        let same = cmp(m, out, Eq, xk, yk);
        let here = cmp(m, out, lt, xk, yk);
        less = out.emit(m, inst(InstKind::Select { cond: same, on_true: less, on_false: here }, i1t));
    }
    if negate {
        let t = Value::Const(m.consts.int(i1t, 1, 1));
        less = out.emit(m, binop(BinaryOp::Xor, less, t, i1t));
    }
    less
}

/// `limbs` shifted by a constant `amount` (left, or right logically or arithmetically; the
/// limbs are full 64-bit words, the fill word is `fill`).
fn shift(
    m: &mut Module,
    out: &mut crate::util::Out<'_>,
    limbs: &[Value],
    op: BinaryOp,
    amount: u64,
    fill: Value,
    i64t: TypeId,
) -> Vec<Value> {
    let n = limbs.len() as i64;
    let q = (amount / 64) as i64;
    let r = amount % 64;
    let zero = int_const(m, i64t, 0);
    let word = |k: i64, left: bool| -> Value {
        if (0..n).contains(&k) {
            limbs[k as usize]
        } else if left || k < 0 {
            zero
        } else {
            fill
        }
    };
    let mut result = Vec::with_capacity(limbs.len());
    for k in 0..n {
        let left = op == BinaryOp::Shl;
        let (main, spill) = if left { (k - q, k - q - 1) } else { (k + q, k + q + 1) };
        let main = word(main, left);
        if r == 0 {
            result.push(main);
            continue;
        }
        let rv = int_const(m, i64t, r);
        let back = int_const(m, i64t, 64 - r);
        let top_word = !left && k + q == n - 1;
        let first_op = if left {
            BinaryOp::Shl
        } else if op == BinaryOp::AShr && top_word {
            BinaryOp::AShr
        } else {
            BinaryOp::LShr
        };
        let a = out.emit(m, binop(first_op, main, rv, i64t));
        let spill = word(spill, left);
        let b = out.emit(m, binop(if left { BinaryOp::LShr } else { BinaryOp::Shl }, spill, back, i64t));
        result.push(out.emit(m, binop(BinaryOp::Or, a, b, i64t)));
    }
    result
}

fn expand(m: &mut Module, f: FuncId) -> Result<(), PassError> {
    let i64t = m.types.int(64);
    let mut st = Limbs { split: HashMap::new(), i64t };
    let mut phis: Vec<(InstId, Vec<InstId>, u32)> = Vec::new();
    crate::util::rebuild(m, f, |m, id, out, replace| {
        let i = m.functions[f.0 as usize].inst(id).clone();
        let fail = |m: &Module, msg: String| error(m, NAME, f, id, msg);
        let result_width = wide_width(m, i.ty);
        match &i.kind {
            InstKind::Load { ptr, align, volatile, ordering } if result_width.is_some() => {
                let w = result_width.expect("wide");
                let limbs = memory_limbs(m, w);
                let i32t = m.types.int(32);
                let base = out.cast(m, CastOp::PtrToInt, *ptr, i32t);
                let mut vals = Vec::new();
                for (k, lt) in limbs.into_iter().enumerate() {
                    let p = limb_ptr(m, out, base, k, lt, i32t);
                    // Limbs lie 8 bytes apart: none is more aligned than 8.
                    let align = (*align).clamp(1, 8);
                    let l = out
                        .emit(m, inst(InstKind::Load { ptr: p, align, volatile: *volatile, ordering: *ordering }, lt));
                    vals.push(out.cast(m, CastOp::ZExt, l, i64t));
                }
                st.split.insert(Value::Inst(id), vals);
            }
            InstKind::Store { ptr, val, align, volatile, ordering } => {
                let Some(w) = wide_width(m, crate::util::ty(m, f, *val)) else {
                    out.keep(id);
                    return Ok(());
                };
                let vals = st.get(m, *val, w).map_err(|e| fail(m, e))?;
                let i32t = m.types.int(32);
                let base = out.cast(m, CastOp::PtrToInt, *ptr, i32t);
                let void = m.types.void();
                for (k, (lt, v)) in memory_limbs(m, w).into_iter().zip(vals).enumerate() {
                    let p = limb_ptr(m, out, base, k, lt, i32t);
                    let v = out.cast(m, CastOp::Trunc, v, lt);
                    let s = InstKind::Store {
                        ptr: p,
                        val: v,
                        align: (*align).clamp(1, 8),
                        volatile: *volatile,
                        ordering: *ordering,
                    };
                    out.emit(m, inst(s, void));
                }
            }
            InstKind::Binary { op, lhs, rhs, .. } if result_width.is_some() => {
                let w = result_width.expect("wide");
                let a = st.get(m, *lhs, w).map_err(|e| fail(m, e))?;
                let vals = match op {
                    BinaryOp::And | BinaryOp::Or | BinaryOp::Xor => {
                        let b = st.get(m, *rhs, w).map_err(|e| fail(m, e))?;
                        a.iter().zip(b).map(|(&x, y)| out.emit(m, binop(*op, x, y, i64t))).collect()
                    }
                    BinaryOp::Shl | BinaryOp::LShr | BinaryOp::AShr => {
                        let amount = match rhs {
                            Value::Const(c) => match m.consts.get(*c) {
                                Const::WideInt { words, .. } if words[1..].iter().all(|&x| x == 0) => words[0],
                                Const::Int { value, .. } => *value,
                                _ => {
                                    return Err(fail(
                                        m,
                                        "a wide shift by a non-constant amount is not supported".into(),
                                    ));
                                }
                            },
                            _ => return Err(fail(m, "a wide shift by a non-constant amount is not supported".into())),
                        };
                        let mut a = a;
                        let n = a.len();
                        let fill = if *op == BinaryOp::AShr {
                            a[n - 1] = signed_top(m, out, a[n - 1], w, n, i64t);
                            let s = int_const(m, i64t, 63);
                            out.emit(m, binop(BinaryOp::AShr, a[n - 1], s, i64t))
                        } else {
                            int_const(m, i64t, 0)
                        };
                        let mut r = shift(m, out, &a, *op, amount.min(u64::from(w)), fill, i64t);
                        mask_top(m, out, &mut r, w, i64t);
                        r
                    }
                    other => {
                        return Err(fail(m, format!("`{other:?}` of an integer wider than 64 bits is not supported")));
                    }
                };
                st.split.insert(Value::Inst(id), vals);
            }
            InstKind::Cast { op, val } => {
                let from = crate::util::ty(m, f, *val);
                let from_w = m.types.get(from).int_width().unwrap_or(0);
                match (op, wide_width(m, from), result_width) {
                    (CastOp::Trunc, Some(fw), None) => {
                        let limbs = st.get(m, *val, fw).map_err(|e| fail(m, e))?;
                        let v = out.cast(m, CastOp::Trunc, limbs[0], i.ty);
                        replace.insert(Value::Inst(id), v);
                    }
                    (CastOp::Trunc, Some(fw), Some(tw)) => {
                        let limbs = st.get(m, *val, fw).map_err(|e| fail(m, e))?;
                        let mut r = limbs[..tw.div_ceil(64) as usize].to_vec();
                        mask_top(m, out, &mut r, tw, i64t);
                        st.split.insert(Value::Inst(id), r);
                    }
                    (CastOp::ZExt | CastOp::SExt, src_wide, Some(tw)) => {
                        let n = tw.div_ceil(64) as usize;
                        let mut r = match src_wide {
                            Some(fw) => st.get(m, *val, fw).map_err(|e| fail(m, e))?,
                            None => vec![out.cast(m, *op, *val, i64t)],
                        };
                        let fill = if *op == CastOp::SExt {
                            let top = r.len() - 1;
                            if src_wide.is_some() {
                                r[top] = signed_top(m, out, r[top], from_w, r.len(), i64t);
                            }
                            let s = int_const(m, i64t, 63);
                            out.emit(m, binop(BinaryOp::AShr, r[top], s, i64t))
                        } else {
                            int_const(m, i64t, 0)
                        };
                        r.resize(n, fill);
                        mask_top(m, out, &mut r, tw, i64t);
                        st.split.insert(Value::Inst(id), r);
                    }
                    (_, None, None) => out.keep(id),
                    _ => {
                        return Err(fail(
                            m,
                            format!("`{}` of an integer wider than 64 bits is not supported", i.kind.opcode_name()),
                        ));
                    }
                }
            }
            InstKind::ICmp { pred, lhs, rhs } => {
                let Some(w) = wide_width(m, crate::util::ty(m, f, *lhs)) else {
                    out.keep(id);
                    return Ok(());
                };
                let a = st.get(m, *lhs, w).map_err(|e| fail(m, e))?;
                let b = st.get(m, *rhs, w).map_err(|e| fail(m, e))?;
                if !matches!(pred, IntPred::Eq | IntPred::Ne) {
                    let v = ordered_compare(m, out, *pred, &a, &b, w, i.ty);
                    replace.insert(Value::Inst(id), v);
                    return Ok(());
                }
                let mut acc = int_const(m, i64t, 0);
                for (x, y) in a.into_iter().zip(b) {
                    let d = out.emit(m, binop(BinaryOp::Xor, x, y, i64t));
                    acc = out.emit(m, binop(BinaryOp::Or, acc, d, i64t));
                }
                let zero = int_const(m, i64t, 0);
                let v = out.emit(m, inst(InstKind::ICmp { pred: *pred, lhs: acc, rhs: zero }, i.ty));
                replace.insert(Value::Inst(id), v);
            }
            InstKind::Select { cond, on_true, on_false } if result_width.is_some() => {
                let w = result_width.expect("wide");
                let a = st.get(m, *on_true, w).map_err(|e| fail(m, e))?;
                let b = st.get(m, *on_false, w).map_err(|e| fail(m, e))?;
                let vals = a
                    .into_iter()
                    .zip(b)
                    .map(|(x, y)| out.emit(m, inst(InstKind::Select { cond: *cond, on_true: x, on_false: y }, i64t)))
                    .collect();
                st.split.insert(Value::Inst(id), vals);
            }
            InstKind::Phi { .. } if result_width.is_some() => {
                let w = result_width.expect("wide");
                let mut ids = Vec::new();
                for _ in 0..w.div_ceil(64) {
                    if let Value::Inst(p) = out.emit(m, inst(InstKind::Phi { incoming: Vec::new() }, i64t)) {
                        ids.push(p);
                    }
                }
                st.split.insert(Value::Inst(id), ids.iter().map(|&p| Value::Inst(p)).collect());
                phis.push((id, ids, w));
            }
            other => {
                let mut wide = result_width.is_some();
                other.for_each_value(|v| wide |= wide_width(m, crate::util::ty(m, f, v)).is_some());
                if wide {
                    return Err(fail(
                        m,
                        format!("`{}` of an integer wider than 64 bits is not supported", other.opcode_name()),
                    ));
                }
                out.keep(id);
            }
        }
        Ok(())
    })?;
    for (old, new, w) in phis {
        let InstKind::Phi { incoming } = m.functions[f.0 as usize].inst(old).kind.clone() else { continue };
        let mut per_limb = vec![Vec::new(); new.len()];
        for (v, b) in incoming {
            let limbs = st.get(m, v, w).map_err(|e| error(m, NAME, f, old, e))?;
            for (k, l) in limbs.into_iter().enumerate() {
                per_limb[k].push((l, b));
            }
        }
        for (p, inc) in new.into_iter().zip(per_limb) {
            m.functions[f.0 as usize].inst_mut(p).kind = InstKind::Phi { incoming: inc };
        }
    }
    Ok(())
}

/// The types memory holds a wide integer in: `i64` words, then the rest at its own width.
fn memory_limbs(m: &mut Module, width: u32) -> Vec<TypeId> {
    let n = width.div_ceil(64);
    (0..n).map(|k| m.types.int(if k + 1 < n { 64 } else { width - 64 * k })).collect()
}

/// The address of limb `k` (8 bytes apart) as a pointer to `lt`.
fn limb_ptr(m: &mut Module, out: &mut crate::util::Out<'_>, base: Value, k: usize, lt: TypeId, i32t: TypeId) -> Value {
    let addr = if k == 0 {
        base
    } else {
        let off = crate::util::i32_const(m, 8 * k as u64);
        out.emit(m, binop(BinaryOp::Add, base, off, i32t))
    };
    let pt = crate::util::ptr_to(m, lt);
    out.emit(m, inst(InstKind::Cast { op: CastOp::IntToPtr, val: addr }, pt))
}
