//! `expand-small-arguments`: `i1`, `i8` and `i16` parameters and results become `i32`
//! (the caller extends, the callee truncates), since PNaCl signatures take no narrower
//! integers.

use crate::util::{inst, ptr_to, ty};
use crate::{Pass, PassError};
use pnacl_llvm::ir::{CastOp, InstKind, Module, Type, TypeId, Value, attr_kind};

/// The pass.
pub struct ExpandSmallArguments;

fn is_small(m: &Module, t: TypeId) -> bool {
    matches!(m.types.get(t), Type::Int(1 | 8 | 16))
}

/// `t` with its small integer parameters and result widened.
fn widen(m: &mut Module, t: TypeId) -> TypeId {
    let Some((ret, params, vararg)) = m.types.as_function(t).map(|(r, p, v)| (r, p.to_vec(), v)) else { return t };
    let i32t = m.types.int(32);
    let ret = if is_small(m, ret) { i32t } else { ret };
    let params = params.iter().map(|&p| if is_small(m, p) { i32t } else { p }).collect();
    m.types.function(ret, params, vararg)
}

impl Pass for ExpandSmallArguments {
    fn name(&self) -> &'static str {
        "expand-small-arguments"
    }

    fn run(&self, m: &mut Module) -> Result<(), PassError> {
        let i32t = m.types.int(32);
        let old: Vec<TypeId> = m.functions.iter().map(|f| f.ty).collect();
        for (i, &ty) in old.iter().enumerate() {
            if m.functions[i].is_intrinsic() {
                continue;
            }
            let t = widen(m, ty);
            m.functions[i].ty = t;
            m.pointer_type(t, 0);
        }
        for f in crate::util::defined(m) {
            let fi = f.0 as usize;
            if m.functions[fi].is_intrinsic() {
                continue;
            }
            let (old_ret, old_params, _) =
                m.types.as_function(old[fi]).map(|(r, p, v)| (r, p.to_vec(), v)).expect("fn");
            // Parameters: truncated back at the start of the entry block.
            let mut entry = Vec::new();
            let mut map = std::collections::HashMap::new();
            for (k, &p) in old_params.iter().enumerate() {
                if is_small(m, p) {
                    let t = m.functions[fi]
                        .add_inst(inst(InstKind::Cast { op: CastOp::Trunc, val: Value::Arg(k as u32) }, p));
                    entry.push(t);
                    map.insert(Value::Arg(k as u32), Value::Inst(t));
                }
            }
            m.functions[fi].replace_uses(&map);
            // The truncations themselves read the parameters, not their own results.
            for (&arg, &t) in &map {
                if let Value::Inst(t) = t {
                    m.functions[fi].inst_mut(t).kind = InstKind::Cast { op: CastOp::Trunc, val: arg };
                }
            }
            if !entry.is_empty() {
                m.functions[fi].blocks[0].insts.splice(0..0, entry);
            }
            let small_ret = is_small(m, old_ret);
            crate::util::rebuild(m, f, |m, id, out, replace| {
                let i = m.functions[fi].inst(id).clone();
                match i.kind {
                    InstKind::Ret { val: Some(v) } if small_ret => {
                        let w = out.cast(m, CastOp::ZExt, v, i32t);
                        m.functions[fi].inst_mut(id).kind = InstKind::Ret { val: Some(w) };
                        out.keep(id);
                    }
                    InstKind::Call { callee, fn_ty, mut args, attrs, cc, tail, flags } => {
                        let direct = m.as_function(callee);
                        if direct.is_some_and(|c| m.functions[c.0 as usize].is_intrinsic()) {
                            out.keep(id);
                            return Ok(());
                        }
                        let new_ty = widen(m, fn_ty);
                        if new_ty == fn_ty {
                            out.keep(id);
                            return Ok(());
                        }
                        for (k, a) in args.iter_mut().enumerate() {
                            let t = ty(m, f, *a);
                            if is_small(m, t) {
                                let op =
                                    if attrs.param_has(k, attr_kind::SIGN_EXT) { CastOp::SExt } else { CastOp::ZExt };
                                *a = out.cast(m, op, *a, i32t);
                            }
                        }
                        let callee = match direct {
                            Some(_) => callee,
                            None => {
                                let want = ptr_to(m, new_ty);
                                out.to_ptr(m, callee, want)
                            }
                        };
                        let (ret, _, _) = m.types.as_function(new_ty).expect("fn");
                        let small = is_small(m, i.ty);
                        let call = out.emit(
                            m,
                            pnacl_llvm::ir::Inst {
                                kind: InstKind::Call { callee, fn_ty: new_ty, args, attrs, cc, tail, flags },
                                ty: ret,
                                name: if small { None } else { i.name.clone() },
                            },
                        );
                        let result = if small { out.cast(m, CastOp::Trunc, call, i.ty) } else { call };
                        replace.insert(Value::Inst(id), result);
                    }
                    _ => out.keep(id),
                }
                Ok(())
            })?;
        }
        crate::util::cast_retyped_function_uses(m, &old);
        Ok(())
    }
}
