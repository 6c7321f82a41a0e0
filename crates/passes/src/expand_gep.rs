//! `expand-getelementptr`: every `getelementptr` becomes integer arithmetic on the address
//! (`ptrtoint`, constant offsets folded into one `add`, each variable index widened or
//! narrowed to `i32` and scaled, then `inttoptr`).

use crate::util::{error, i32_const, inst, rebuild, ty};
use crate::{Pass, PassError};
use pnacl_llvm::ir::{BinaryOp, CastOp, Const, InstKind, Module, Type, Value};

/// The pass.
pub struct ExpandGetElementPtr;

/// The value of a constant integer index, sign-extended.
fn const_index(m: &Module, v: Value) -> Option<i64> {
    let Value::Const(c) = v else { return None };
    match m.consts.get(c) {
        Const::Int { ty, value } => {
            let w = m.types.get(*ty).int_width()?;
            Some(if w >= 64 { *value as i64 } else { ((*value << (64 - w)) as i64) >> (64 - w) })
        }
        Const::Zero(_) => Some(0),
        _ => None,
    }
}

impl Pass for ExpandGetElementPtr {
    fn name(&self) -> &'static str {
        "expand-getelementptr"
    }

    fn run(&self, m: &mut Module) -> Result<(), PassError> {
        let i32t = m.types.int(32);
        for f in crate::util::defined(m) {
            rebuild(m, f, |m, id, out, replace| {
                let i = m.functions[f.0 as usize].inst(id).clone();
                let InstKind::GetElementPtr { source_ty, base, indices, .. } = i.kind else {
                    out.keep(id);
                    return Ok(());
                };
                // The reader types a vector GEP as a scalar pointer: look at the operands too.
                let is_vector = |m: &Module, v| matches!(m.types.get(crate::util::ty(m, f, v)), Type::Vector { .. });
                if matches!(m.types.get(i.ty), Type::Vector { .. })
                    || is_vector(m, base)
                    || indices.iter().any(|&x| is_vector(m, x))
                {
                    return Err(error(m, "expand-getelementptr", f, id, "vector getelementptr is not supported"));
                }
                let mut acc = out.cast(m, CastOp::PtrToInt, base, i32t);
                let mut offset: i64 = 0;
                let mut cur = source_ty;
                for (k, &idx) in indices.iter().enumerate() {
                    let elem = if k == 0 {
                        cur
                    } else {
                        match m.types.get(cur).clone() {
                            Type::Struct(s) => {
                                let field = const_index(m, idx).ok_or_else(|| {
                                    error(m, "expand-getelementptr", f, id, "non-constant struct index")
                                })? as usize;
                                offset += m.types.field_offset(cur, field).unwrap_or(0) as i64;
                                cur = *s.fields.get(field).ok_or_else(|| {
                                    error(m, "expand-getelementptr", f, id, "struct index out of range")
                                })?;
                                continue;
                            }
                            Type::Array { elem, .. } | Type::Vector { elem, .. } => elem,
                            _ => return Err(error(m, "expand-getelementptr", f, id, "index into a non-aggregate")),
                        }
                    };
                    let size = m
                        .types
                        .alloc_size(elem)
                        .ok_or_else(|| error(m, "expand-getelementptr", f, id, "index over an unsized type"))?;
                    match const_index(m, idx) {
                        Some(c) => offset = offset.wrapping_add(c.wrapping_mul(size as i64)),
                        None => {
                            let w = m.types.get(ty(m, f, idx)).int_width().unwrap_or(32);
                            let op = if w > 32 { CastOp::Trunc } else { CastOp::SExt };
                            let mut v = out.cast(m, op, idx, i32t);
                            if size != 1 {
                                let s = i32_const(m, size);
                                v = out.emit(
                                    m,
                                    inst(InstKind::Binary { op: BinaryOp::Mul, lhs: v, rhs: s, flags: 0 }, i32t),
                                );
                            }
                            acc = out.emit(
                                m,
                                inst(InstKind::Binary { op: BinaryOp::Add, lhs: acc, rhs: v, flags: 0 }, i32t),
                            );
                        }
                    }
                    if k > 0 {
                        cur = elem;
                    }
                }
                if offset as u32 != 0 {
                    let k = i32_const(m, u64::from(offset as u32));
                    acc = out.emit(m, inst(InstKind::Binary { op: BinaryOp::Add, lhs: acc, rhs: k, flags: 0 }, i32t));
                }
                let result = out.emit(m, inst(InstKind::Cast { op: CastOp::IntToPtr, val: acc }, i.ty));
                replace.insert(Value::Inst(id), result);
                Ok(())
            })?;
        }
        Ok(())
    }
}
