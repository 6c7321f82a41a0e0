//! `nacl-expand-modern-intrinsics`: what LLVM learned to emit after PNaCl froze (min/max,
//! `abs`, funnel shifts, saturating arithmetic, `freeze`, `fneg`, `poison`, math intrinsics
//! that stand for C library calls) becomes instructions and calls PNaCl has. It runs before
//! dead code is removed, so that the C library functions it calls are kept.

use crate::util::{binop, call, declare, error, func_value, inst, int_const, undef};
use crate::{Pass, PassError};
use pnacl_llvm::ir::{BinaryOp, CastOp, Const, InstKind, IntPred, Module, Type, Value};

/// The pass.
pub struct ExpandModernIntrinsics;

const NAME: &str = "nacl-expand-modern-intrinsics";

/// The C library function a math intrinsic stands for, by overload suffix.
fn libm_name(base: &str, ty: &Type) -> Option<String> {
    let suffix = match ty {
        Type::Double => "",
        Type::Float => "f",
        _ => return None,
    };
    let name = match base {
        "floor" | "ceil" | "trunc" | "round" | "rint" | "nearbyint" | "pow" | "exp" | "exp2" | "log" | "log2"
        | "log10" | "sin" | "cos" | "copysign" | "fma" => base,
        "minnum" => "fmin",
        "maxnum" => "fmax",
        _ => return None,
    };
    Some(format!("{name}{suffix}"))
}

/// The C library function this pass turns a call of the intrinsic `name` into
/// (`llvm.floor.f64` becomes a call to `floor`), if any: a linker taking members from the
/// C library before the pass runs must take that function's.
pub fn c_function(name: &str) -> Option<String> {
    let (base, suffix) = name.strip_prefix("llvm.")?.split_once('.')?;
    let ty = match suffix {
        "f64" => Type::Double,
        "f32" => Type::Float,
        _ => return None,
    };
    libm_name(base, &ty)
}

impl Pass for ExpandModernIntrinsics {
    fn name(&self) -> &'static str {
        NAME
    }

    fn run(&self, m: &mut Module) -> Result<(), PassError> {
        let i1t = m.types.int(1);
        for f in crate::util::defined(m) {
            crate::util::rebuild(m, f, |m, id, out, replace| {
                let i = m.functions[f.0 as usize].inst(id).clone();
                let me = Value::Inst(id);
                // Poison is undef to PNaCl.
                let mut kind = i.kind.clone();
                let mut poison = Vec::new();
                kind.for_each_value(|v| {
                    if let Value::Const(c) = v
                        && let Const::Poison(t) = m.consts.get(c)
                    {
                        poison.push((c, *t));
                    }
                });
                if !poison.is_empty() {
                    let map: std::collections::HashMap<Value, Value> =
                        poison.into_iter().map(|(c, t)| (Value::Const(c), undef(m, t))).collect();
                    kind.map_values(|v| map.get(&v).copied().unwrap_or(v));
                    m.functions[f.0 as usize].inst_mut(id).kind = kind.clone();
                }
                match &kind {
                    InstKind::Freeze { val } => {
                        replace.insert(me, *val);
                        return Ok(());
                    }
                    InstKind::FNeg { val, .. } => {
                        let minus_zero = match m.types.get(i.ty) {
                            Type::Float => Const::Float { ty: i.ty, bits: 0x8000_0000 },
                            Type::Double => Const::Float { ty: i.ty, bits: 0x8000_0000_0000_0000 },
                            _ => return Err(error(m, NAME, f, id, "fneg of a vector is not supported")),
                        };
                        let z = Value::Const(m.consts.intern(minus_zero));
                        let v = out.emit(m, binop(BinaryOp::FSub, z, *val, i.ty));
                        replace.insert(me, v);
                        return Ok(());
                    }
                    _ => {}
                }
                let name = m.direct_callee(&i).map(|c| m.functions[c.0 as usize].props.name.clone());
                let (Some(name), InstKind::Call { args, .. }) = (name, &kind) else {
                    out.keep(id);
                    return Ok(());
                };
                let Some(rest) = name.strip_prefix("llvm.") else {
                    out.keep(id);
                    return Ok(());
                };
                let base = rest.split('.').next().unwrap_or("");
                let t = i.ty;
                let w = m.types.get(t).int_width();
                let cmp = |m: &mut Module, out: &mut crate::util::Out<'_>, pred, a, b| {
                    out.emit(m, inst(InstKind::ICmp { pred, lhs: a, rhs: b }, i1t))
                };
                let sel = |m: &mut Module, out: &mut crate::util::Out<'_>, c, a, b, t| {
                    out.emit(m, inst(InstKind::Select { cond: c, on_true: a, on_false: b }, t))
                };
                let v = match (base, w) {
                    ("smax" | "smin" | "umax" | "umin", Some(_)) => {
                        let pred = match base {
                            "smax" => IntPred::Sgt,
                            "smin" => IntPred::Slt,
                            "umax" => IntPred::Ugt,
                            _ => IntPred::Ult,
                        };
                        let c = cmp(m, out, pred, args[0], args[1]);
                        sel(m, out, c, args[0], args[1], t)
                    }
                    ("abs", Some(_)) => {
                        let zero = int_const(m, t, 0);
                        let neg = out.emit(m, binop(BinaryOp::Sub, zero, args[0], t));
                        let c = cmp(m, out, IntPred::Slt, args[0], zero);
                        sel(m, out, c, neg, args[0], t)
                    }
                    ("fshl" | "fshr", Some(w)) => {
                        let wc = int_const(m, t, u64::from(w));
                        let sh = out.emit(m, binop(BinaryOp::URem, args[2], wc, t));
                        let inv = out.emit(m, binop(BinaryOp::Sub, wc, sh, t));
                        let (l, r) = if base == "fshl" { (sh, inv) } else { (inv, sh) };
                        let hi = out.emit(m, binop(BinaryOp::Shl, args[0], l, t));
                        let lo = out.emit(m, binop(BinaryOp::LShr, args[1], r, t));
                        let both = out.emit(m, binop(BinaryOp::Or, hi, lo, t));
                        // A shift by the full width is poison in LLVM: amount 0 is a copy.
                        let zero = int_const(m, t, 0);
                        let z = cmp(m, out, IntPred::Eq, sh, zero);
                        let keep = if base == "fshl" { args[0] } else { args[1] };
                        sel(m, out, z, keep, both, t)
                    }
                    ("uadd" | "usub" | "sadd" | "ssub", Some(w)) if rest.contains(".sat.") => {
                        let op = if base.ends_with("add") { BinaryOp::Add } else { BinaryOp::Sub };
                        let r = out.emit(m, binop(op, args[0], args[1], t));
                        let max_u = int_const(m, t, if w >= 64 { u64::MAX } else { (1u64 << w) - 1 });
                        let zero = int_const(m, t, 0);
                        match base {
                            "uadd" => {
                                let o = cmp(m, out, IntPred::Ult, r, args[0]);
                                sel(m, out, o, max_u, r, t)
                            }
                            "usub" => {
                                let o = cmp(m, out, IntPred::Ult, args[0], args[1]);
                                sel(m, out, o, zero, r, t)
                            }
                            _ => {
                                let min = int_const(m, t, 1u64 << (w - 1));
                                let max = int_const(m, t, (1u64 << (w - 1)) - 1);
                                let x1 = out.emit(m, binop(BinaryOp::Xor, args[0], r, t));
                                let x2 = if base == "sadd" {
                                    out.emit(m, binop(BinaryOp::Xor, args[1], r, t))
                                } else {
                                    out.emit(m, binop(BinaryOp::Xor, args[0], args[1], t))
                                };
                                let both = out.emit(m, binop(BinaryOp::And, x1, x2, t));
                                let o = cmp(m, out, IntPred::Slt, both, zero);
                                let neg = cmp(m, out, IntPred::Slt, args[0], zero);
                                let clamp = sel(m, out, neg, min, max, t);
                                sel(m, out, o, clamp, r, t)
                            }
                        }
                    }
                    ("ctlz" | "cttz" | "ctpop", Some(w)) if !matches!(w, 32 | 64) => {
                        // PNaCl has the 32- and 64-bit forms: widen.
                        let i32t = m.types.int(32);
                        let wide = out.cast(m, CastOp::ZExt, args[0], i32t);
                        let wide = if base == "cttz" {
                            // A bit above the value stops the count at its width.
                            let stop = int_const(m, i32t, 1u64 << w);
                            out.emit(m, binop(BinaryOp::Or, wide, stop, i32t))
                        } else {
                            wide
                        };
                        let fn_name = format!("llvm.{base}.i32");
                        let params = if base == "ctpop" { vec![i32t] } else { vec![i32t, i1t] };
                        let fty = m.types.function(i32t, params, false);
                        let callee_id = declare(m, &fn_name, fty);
                        let callee = func_value(m, callee_id);
                        let mut a = vec![wide];
                        if base != "ctpop" {
                            a.push(Value::Const(m.consts.int(i1t, 1, 0)));
                        }
                        let c = call(m, callee_id, a, callee);
                        let r = out.emit(m, c);
                        let r = if base == "ctlz" {
                            let k = int_const(m, i32t, u64::from(32 - w));
                            out.emit(m, binop(BinaryOp::Sub, r, k, i32t))
                        } else {
                            r
                        };
                        out.cast(m, CastOp::Trunc, r, t)
                    }
                    ("is", _) if rest.starts_with("is.constant") => Value::Const(m.consts.int(i1t, 1, 0)),
                    ("objectsize", Some(w)) => {
                        let min = matches!(args.get(1), Some(Value::Const(c)) if matches!(m.consts.get(*c), Const::Int { value: 1, .. }));
                        int_const(
                            m,
                            t,
                            if min {
                                0
                            } else if w >= 64 {
                                u64::MAX
                            } else {
                                (1u64 << w) - 1
                            },
                        )
                    }
                    ("fmuladd", None) => {
                        let p = out.emit(m, binop(BinaryOp::FMul, args[0], args[1], t));
                        out.emit(m, binop(BinaryOp::FAdd, p, args[2], t))
                    }
                    ("memcpy", _) if rest.starts_with("memcpy.inline") => {
                        out.keep(id);
                        return Ok(());
                    }
                    (b, None) if libm_name(b, m.types.get(t)).is_some() => {
                        let lib = libm_name(b, m.types.get(t)).expect("checked");
                        let params = vec![t; args.len()];
                        let fty = m.types.function(t, params, false);
                        let callee_id = declare(m, &lib, fty);
                        let callee = func_value(m, callee_id);
                        let c = call(m, callee_id, args.clone(), callee);
                        out.emit(m, c)
                    }
                    _ => {
                        out.keep(id);
                        return Ok(());
                    }
                };
                replace.insert(me, v);
                Ok(())
            })?;
        }
        Ok(())
    }
}
