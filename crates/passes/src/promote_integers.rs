//! `nacl-promote-ints`: integers of widths PNaCl lacks (i2..i7, i9..i15, i17..i31, i33..i63)
//! are computed in the next legal width; their upper bits are left undefined and cleared
//! or sign-filled where an operation reads them; loads and stores touch exactly the type's
//! bytes, in legal pieces.

use crate::util::{binop, error, inst, int_const, load, ptr_to, store, undef};
use crate::{Pass, PassError};
use pnacl_llvm::ir::{BinaryOp, CastOp, Const, FuncId, InstId, InstKind, IntPred, Module, Type, TypeId, Value};
use std::collections::HashMap;

/// The pass.
pub struct PromoteIntegers;

const NAME: &str = "nacl-promote-ints";

/// The legal width an `iN` is computed in, if `N` is not legal.
fn promoted_width(n: u32) -> Option<u32> {
    match n {
        1 | 8 | 16 | 32 | 64 => None,
        2..=7 => Some(8),
        9..=15 => Some(16),
        17..=31 => Some(32),
        33..=63 => Some(64),
        _ => None,
    }
}

/// The width of an illegal integer type `t`, if it is one.
fn illegal(m: &Module, t: TypeId) -> Option<u32> {
    m.types.get(t).int_width().filter(|&w| promoted_width(w).is_some())
}

/// `t` with illegal integers promoted (function types: parameters and result).
fn promote_type(m: &mut Module, t: TypeId) -> TypeId {
    match m.types.get(t).clone() {
        Type::Int(w) => promoted_width(w).map_or(t, |p| m.types.int(p)),
        Type::Function { ret, params, vararg } => {
            let ret = promote_type(m, ret);
            let params = params.iter().map(|&p| promote_type(m, p)).collect();
            m.types.function(ret, params, vararg)
        }
        _ => t,
    }
}

impl Pass for PromoteIntegers {
    fn name(&self) -> &'static str {
        NAME
    }

    fn run(&self, m: &mut Module) -> Result<(), PassError> {
        let old: Vec<TypeId> = m.functions.iter().map(|f| f.ty).collect();
        for i in 0..m.functions.len() {
            let t = promote_type(m, m.functions[i].ty);
            if t != m.functions[i].ty {
                m.functions[i].ty = t;
                m.pointer_type(t, 0);
            }
        }
        for f in crate::util::defined(m) {
            let params = m.types.as_function(old[f.0 as usize]).map(|(_, p, _)| p.to_vec()).unwrap_or_default();
            promote(m, f, &params)?;
        }
        Ok(())
    }
}

struct State {
    /// The promoted value standing for each illegal-width instruction result.
    values: HashMap<Value, Value>,
    /// New phis to fill: (old phi, new phi).
    phis: Vec<(InstId, InstId)>,
}

/// `v` in its promoted type (constants converted; upper bits of constants are clear).
fn get(m: &mut Module, st: &State, f: FuncId, v: Value) -> Value {
    if let Some(&p) = st.values.get(&v) {
        return p;
    }
    if let Value::Const(c) = v {
        let k = m.consts.get(c).clone();
        if let Some(t) = k.own_type()
            && let Some(w) = illegal(m, t)
        {
            let p = m.types.int(promoted_width(w).expect("illegal"));
            return match k {
                Const::Int { value, .. } => Value::Const(m.consts.int(p, 64, value)),
                _ => undef(m, p),
            };
        }
    }
    let _ = f;
    v
}

/// Clears the bits of `v` (promoted) above `bits`.
fn zext_in_place(m: &mut Module, out: &mut crate::util::Out<'_>, v: Value, bits: u32, p: TypeId) -> Value {
    let mask = int_const(m, p, (1u64 << bits) - 1);
    out.emit(m, binop(BinaryOp::And, v, mask, p))
}

/// Fills the bits of `v` (promoted) above `bits` with its sign bit.
fn sext_in_place(m: &mut Module, out: &mut crate::util::Out<'_>, v: Value, bits: u32, p: TypeId) -> Value {
    let pw = m.types.get(p).int_width().unwrap_or(64);
    let k = int_const(m, p, u64::from(pw - bits));
    let up = out.emit(m, binop(BinaryOp::Shl, v, k, p));
    out.emit(m, binop(BinaryOp::AShr, up, k, p))
}

/// Splits `bytes` into the legal access sizes, low offsets first.
fn pieces(bytes: u64) -> Vec<(u64, u32)> {
    let mut out = Vec::new();
    let mut off = 0;
    let mut left = bytes;
    for size in [8u64, 4, 2, 1] {
        while left >= size {
            out.push((off, (size * 8) as u32));
            off += size;
            left -= size;
        }
    }
    out
}

fn promote(m: &mut Module, f: FuncId, old_params: &[TypeId]) -> Result<(), PassError> {
    let i32t = m.types.int(32);
    let mut st = State { values: HashMap::new(), phis: Vec::new() };
    crate::util::rebuild(m, f, |m, id, out, replace| {
        let i = m.functions[f.0 as usize].inst(id).clone();
        let own = illegal(m, i.ty);
        // Arguments had their illegal types before the signature was promoted.
        let old_type = |m: &Module, v: Value| match v {
            Value::Arg(k) => old_params.get(k as usize).copied(),
            other => m.value_type(f, other),
        };
        let operand_width = |m: &Module, v: Value| old_type(m, v).and_then(|t| illegal(m, t));
        let mut first_illegal = None;
        i.kind.for_each_value(|v| {
            if first_illegal.is_none() {
                first_illegal = operand_width(m, v);
            }
        });
        if own.is_none() && first_illegal.is_none() {
            // Operands may still be promoted constants of legal type: nothing to do.
            out.keep(id);
            return Ok(());
        }
        let bits = own.or(first_illegal).expect("one is illegal");
        let p = m.types.int(promoted_width(bits).expect("illegal"));
        let result: Option<Value> = match i.kind.clone() {
            InstKind::Binary { op, lhs, rhs, .. } => {
                let (mut l, mut r) = (get(m, &st, f, lhs), get(m, &st, f, rhs));
                match op {
                    BinaryOp::UDiv | BinaryOp::URem | BinaryOp::LShr => {
                        l = zext_in_place(m, out, l, bits, p);
                        r = zext_in_place(m, out, r, bits, p);
                    }
                    BinaryOp::SDiv | BinaryOp::SRem => {
                        l = sext_in_place(m, out, l, bits, p);
                        r = sext_in_place(m, out, r, bits, p);
                    }
                    BinaryOp::AShr => {
                        l = sext_in_place(m, out, l, bits, p);
                        r = zext_in_place(m, out, r, bits, p);
                    }
                    BinaryOp::Shl => r = zext_in_place(m, out, r, bits, p),
                    _ => {}
                }
                Some(out.emit(m, binop(op, l, r, p)))
            }
            InstKind::ICmp { pred, lhs, rhs } => {
                let (l, r) = (get(m, &st, f, lhs), get(m, &st, f, rhs));
                let signed = matches!(pred, IntPred::Sgt | IntPred::Sge | IntPred::Slt | IntPred::Sle);
                let (l, r) = if signed {
                    (sext_in_place(m, out, l, bits, p), sext_in_place(m, out, r, bits, p))
                } else {
                    (zext_in_place(m, out, l, bits, p), zext_in_place(m, out, r, bits, p))
                };
                let v = out.emit(m, inst(InstKind::ICmp { pred, lhs: l, rhs: r }, i.ty));
                replace.insert(Value::Inst(id), v);
                None
            }
            InstKind::Cast { op, val } => {
                let from = old_type(m, val).unwrap_or(i.ty);
                let v = get(m, &st, f, val);
                let from_bits = m.types.get(from).int_width();
                // Normalize an illegal source as the conversion reads it.
                let v = match (op, from_bits.filter(|&w| promoted_width(w).is_some())) {
                    (CastOp::ZExt | CastOp::UiToFp, Some(w)) => {
                        let fp = m.types.int(promoted_width(w).expect("illegal"));
                        zext_in_place(m, out, v, w, fp)
                    }
                    (CastOp::SExt | CastOp::SiToFp, Some(w)) => {
                        let fp = m.types.int(promoted_width(w).expect("illegal"));
                        sext_in_place(m, out, v, w, fp)
                    }
                    _ => v,
                };
                let have = crate::util::ty(m, f, v);
                let to = own.map_or(i.ty, |_| p);
                let r = if have == to {
                    v
                } else {
                    let hw = m.types.get(have).int_width();
                    let tw = m.types.get(to).int_width();
                    let op = match (op, hw, tw) {
                        (CastOp::Trunc | CastOp::ZExt | CastOp::SExt, Some(h), Some(t)) if h > t => CastOp::Trunc,
                        (CastOp::Trunc | CastOp::ZExt, Some(_), Some(_)) => CastOp::ZExt,
                        (CastOp::SExt, Some(_), Some(_)) => CastOp::SExt,
                        (CastOp::Trunc, _, _) => CastOp::Trunc,
                        (o, _, _) => o,
                    };
                    out.emit(m, inst(InstKind::Cast { op, val: v }, to))
                };
                if own.is_some() {
                    Some(r)
                } else {
                    replace.insert(Value::Inst(id), r);
                    None
                }
            }
            InstKind::Select { cond, on_true, on_false } => {
                let (t, e) = (get(m, &st, f, on_true), get(m, &st, f, on_false));
                Some(out.emit(m, inst(InstKind::Select { cond, on_true: t, on_false: e }, p)))
            }
            InstKind::Phi { .. } => {
                let v = out.emit(m, inst(InstKind::Phi { incoming: Vec::new() }, p));
                if let Value::Inst(n) = v {
                    st.phis.push((id, n));
                }
                Some(v)
            }
            InstKind::Load { ptr, align, .. } => {
                let bytes = u64::from(bits).div_ceil(8);
                let pw = m.types.get(p).int_width().unwrap_or(64);
                if u64::from(pw) == bytes * 8 {
                    let pp = ptr_to(m, p);
                    let a = out.to_ptr(m, ptr, pp);
                    Some(out.emit(m, load(a, p, align.min(1))))
                } else {
                    let base = out.cast(m, CastOp::PtrToInt, ptr, i32t);
                    let mut acc: Option<Value> = None;
                    for (off, w) in pieces(bytes) {
                        let pt = m.types.int(w);
                        let addr = if off == 0 {
                            base
                        } else {
                            let k = int_const(m, i32t, off);
                            out.emit(m, binop(BinaryOp::Add, base, k, i32t))
                        };
                        let pp = ptr_to(m, pt);
                        let a = out.emit(m, inst(InstKind::Cast { op: CastOp::IntToPtr, val: addr }, pp));
                        let piece = out.emit(m, load(a, pt, 1));
                        let wide = out.cast(m, CastOp::ZExt, piece, p);
                        let shifted = if off == 0 {
                            wide
                        } else {
                            let k = int_const(m, p, off * 8);
                            out.emit(m, binop(BinaryOp::Shl, wide, k, p))
                        };
                        acc = Some(match acc {
                            None => shifted,
                            Some(a) => out.emit(m, binop(BinaryOp::Or, a, shifted, p)),
                        });
                    }
                    acc
                }
            }
            InstKind::Store { ptr, val, align, .. } => {
                let v = get(m, &st, f, val);
                let bytes = u64::from(bits).div_ceil(8);
                let pw = m.types.get(p).int_width().unwrap_or(64);
                if u64::from(pw) == bytes * 8 {
                    let pp = ptr_to(m, p);
                    let a = out.to_ptr(m, ptr, pp);
                    let s = store(m, a, v, align.min(1));
                    out.emit(m, s);
                } else {
                    let base = out.cast(m, CastOp::PtrToInt, ptr, i32t);
                    for (off, w) in pieces(bytes) {
                        let pt = m.types.int(w);
                        let shifted = if off == 0 {
                            v
                        } else {
                            let k = int_const(m, p, off * 8);
                            out.emit(m, binop(BinaryOp::LShr, v, k, p))
                        };
                        let piece = out.cast(m, CastOp::Trunc, shifted, pt);
                        let addr = if off == 0 {
                            base
                        } else {
                            let k = int_const(m, i32t, off);
                            out.emit(m, binop(BinaryOp::Add, base, k, i32t))
                        };
                        let pp = ptr_to(m, pt);
                        let a = out.emit(m, inst(InstKind::Cast { op: CastOp::IntToPtr, val: addr }, pp));
                        let s = store(m, a, piece, 1);
                        out.emit(m, s);
                    }
                }
                None
            }
            InstKind::Ret { val: Some(v) } => {
                let r = get(m, &st, f, v);
                m.functions[f.0 as usize].inst_mut(id).kind = InstKind::Ret { val: Some(r) };
                out.keep(id);
                None
            }
            InstKind::Switch { cond, default, cases } => {
                let c = get(m, &st, f, cond);
                let c = zext_in_place(m, out, c, bits, p);
                let cases = cases
                    .iter()
                    .map(|&(k, b)| match m.consts.get(k).clone() {
                        Const::Int { value, .. } => (m.consts.int(p, 64, value), b),
                        _ => (k, b),
                    })
                    .collect();
                m.functions[f.0 as usize].inst_mut(id).kind = InstKind::Switch { cond: c, default, cases };
                out.keep(id);
                None
            }
            InstKind::Call { .. } => {
                let mut kind = i.kind.clone();
                let mut vals = Vec::new();
                kind.for_each_value(|v| vals.push(v));
                let mut map = HashMap::new();
                for v in vals {
                    let g = get(m, &st, f, v);
                    if g != v {
                        map.insert(v, g);
                    }
                }
                kind.map_values(|v| map.get(&v).copied().unwrap_or(v));
                if let InstKind::Call { callee, fn_ty, .. } = &mut kind {
                    // Intrinsics keep their declared type; any other call's own type is
                    // promoted, which matches its callee's unless the two already differed.
                    *fn_ty = match m.as_function(*callee) {
                        Some(c) if m.functions[c.0 as usize].props.name.starts_with("llvm.") => {
                            m.functions[c.0 as usize].ty
                        }
                        _ => promote_type(m, *fn_ty),
                    };
                }
                let (ret, _, _) = match &kind {
                    InstKind::Call { fn_ty, .. } => m.types.as_function(*fn_ty).expect("fn"),
                    _ => unreachable!(),
                };
                let v = out.emit(m, pnacl_llvm::ir::Inst { kind, ty: ret, name: i.name.clone() });
                if own.is_some() {
                    Some(v)
                } else {
                    replace.insert(Value::Inst(id), v);
                    None
                }
            }
            other => return Err(error(m, NAME, f, id, format!("{} on i{bits} is not supported", other.opcode_name()))),
        };
        if let Some(r) = result {
            st.values.insert(Value::Inst(id), r);
        }
        Ok(())
    })?;
    for (old, new) in std::mem::take(&mut st.phis) {
        let InstKind::Phi { incoming } = m.functions[f.0 as usize].inst(old).kind.clone() else { continue };
        let inc = incoming.into_iter().map(|(v, b)| (get(m, &st, f, v), b)).collect();
        m.functions[f.0 as usize].inst_mut(new).kind = InstKind::Phi { incoming: inc };
    }
    let map: HashMap<Value, Value> = st.values.iter().map(|(k, v)| (*k, *v)).collect();
    m.functions[f.0 as usize].replace_uses(&map);
    Ok(())
}
