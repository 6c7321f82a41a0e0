//! `nacl-expand-modern-intrinsics`: what LLVM learned to emit after PNaCl froze becomes
//! instructions and calls PNaCl has: the integer intrinsics (min/max, `abs`, saturating
//! arithmetic and shifts, funnel shifts, `bitreverse`, and `bswap`, `ctpop`, `ctlz`, `cttz`
//! at widths PNaCl lacks; module `intrinsic_ints`), the vector reductions
//! (module `intrinsic_reductions`), `is.fpclass` (module `intrinsic_fpclass`),
//! `is.constant`, `objectsize`, `freeze`, `fneg`, `poison`, `maxnum`/`minnum`, `fmuladd`,
//! and math intrinsics that stand for C library calls.
//!
//! It runs in `-pnacl-abi-simplify-preopt`, before dead code is removed (so that the C
//! library functions it calls are kept) and before integer promotion: an intrinsic is
//! expanded at the width clang gave it (`llvm.ctpop.i4` of a bitfield, `llvm.bitreverse.i1`),
//! where its meaning is defined, and `nacl-promote-ints` then widens the plain instructions
//! it became like any others.

use crate::util::{binop, call, declare, error, func_value, int_const, undef};
use crate::{Pass, PassError};
use pnacl_llvm::ir::{BinaryOp, Const, InstKind, Module, Type, Value};

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
                // The integer families, reductions and classification tests: `Some(None)`
                // keeps a call PNaCl has, `None` is another intrinsic.
                let expanded = if let Some(fam) = crate::intrinsic_ints::family(rest) {
                    Some(crate::intrinsic_ints::expand(m, out, fam, args, t))
                } else if let Some(op) = crate::intrinsic_reductions::reduction(rest) {
                    Some(crate::intrinsic_reductions::expand(m, out, op, args, t).map(Some))
                } else if rest.starts_with("is.fpclass.") {
                    Some(crate::intrinsic_fpclass::expand(m, out, args).map(Some))
                } else {
                    None
                };
                if let Some(result) = expanded {
                    match result.map_err(|e| error(m, NAME, f, id, format!("{name}: {e}")))? {
                        Some(v) => {
                            replace.insert(me, v);
                        }
                        None => out.keep(id),
                    }
                    return Ok(());
                }
                let v = match (base, w) {
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
                    ("maxnum" | "minnum", None) => {
                        crate::intrinsic_reductions::maxnum(m, out, base == "maxnum", args[0], args[1], t)
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
