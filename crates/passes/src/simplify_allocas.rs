//! `simplify-allocas`: `alloca T, N` becomes `alloca i8, sizeof(T) * N` with an explicit
//! alignment, and a cast back to `T*` for its users.

use crate::util::{error, i32_const, inst, ptr_to, rebuild, ty};
use crate::{Pass, PassError};
use pnacl_llvm::ir::{BinaryOp, CastOp, Const, InstKind, Module, Value};

/// The pass.
pub struct SimplifyAllocas;

impl Pass for SimplifyAllocas {
    fn name(&self) -> &'static str {
        "simplify-allocas"
    }

    fn run(&self, m: &mut Module) -> Result<(), PassError> {
        let i8t = m.types.int(8);
        let i32t = m.types.int(32);
        let i8p = ptr_to(m, i8t);
        for f in crate::util::defined(m) {
            rebuild(m, f, |m, id, out, replace| {
                let i = m.functions[f.0 as usize].inst(id).clone();
                let InstKind::Alloca { allocated_ty, count, align } = i.kind else {
                    out.keep(id);
                    return Ok(());
                };
                let count_ty = ty(m, f, count);
                if allocated_ty == i8t && count_ty == i32t && align != 0 {
                    out.keep(id);
                    return Ok(());
                }
                let size = m
                    .types
                    .alloc_size(allocated_ty)
                    .ok_or_else(|| error(m, "simplify-allocas", f, id, "alloca of an unsized type"))?;
                let align = if align != 0 { align } else { m.types.abi_align(allocated_ty).unwrap_or(1) };
                let constant = match count {
                    Value::Const(c) => match m.consts.get(c) {
                        Const::Int { value, .. } => Some(*value),
                        _ => None,
                    },
                    _ => None,
                };
                let bytes = match constant {
                    Some(n) => i32_const(m, (size.wrapping_mul(n)) & 0xffff_ffff),
                    None => {
                        let w = m.types.get(count_ty).int_width().unwrap_or(32);
                        let op = if w > 32 { CastOp::Trunc } else { CastOp::ZExt };
                        let n = out.cast(m, op, count, i32t);
                        if size == 1 {
                            n
                        } else {
                            let s = i32_const(m, size);
                            out.emit(m, inst(InstKind::Binary { op: BinaryOp::Mul, lhs: n, rhs: s, flags: 0 }, i32t))
                        }
                    }
                };
                let mut a = inst(InstKind::Alloca { allocated_ty: i8t, count: bytes, align }, i8p);
                a.name = i.name.clone();
                let new = out.emit(m, a);
                let result = out.to_ptr(m, new, i.ty);
                replace.insert(Value::Inst(id), result);
                Ok(())
            })?;
        }
        Ok(())
    }
}
