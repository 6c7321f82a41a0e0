//! `canonicalize-mem-intrinsics`: `llvm.memcpy`, `llvm.memmove` and `llvm.memset` with an
//! `i64` length become their `i32`-length variants, the only ones PNaCl allows (the length
//! is truncated: no object exceeds 4 GiB).

use crate::util::{declare, func_value, inst, rebuild};
use crate::{Pass, PassError};
use pnacl_llvm::ir::{CastOp, InstKind, Module, Type};

/// The pass.
pub struct CanonicalizeMemIntrinsics;

impl Pass for CanonicalizeMemIntrinsics {
    fn name(&self) -> &'static str {
        "canonicalize-mem-intrinsics"
    }

    fn run(&self, m: &mut Module) -> Result<(), PassError> {
        let mut rename = Vec::new();
        for (i, f) in m.functions.iter().enumerate() {
            for base in ["llvm.memcpy.", "llvm.memmove.", "llvm.memset."] {
                if f.props.name.starts_with(base) && f.props.name.ends_with(".i64") {
                    rename.push((i, f.props.name.trim_end_matches(".i64").to_string() + ".i32"));
                }
            }
        }
        let i32t = m.types.int(32);
        for (i, new_name) in rename {
            let old = pnacl_llvm::ir::FuncId(i as u32);
            let (ret, params, vararg) = m.types.as_function(m.functions[i].ty).expect("function type");
            let mut params = params.to_vec();
            params[2] = i32t;
            let fn_ty = m.types.function(ret, params, vararg);
            let new = declare(m, &new_name, fn_ty);
            let callee = func_value(m, new);
            for f in crate::util::defined(m) {
                rebuild(m, f, |m, id, out, _| {
                    let is_old = matches!(m.direct_callee(m.functions[f.0 as usize].inst(id)), Some(c) if c == old);
                    if !is_old {
                        out.keep(id);
                        return Ok(());
                    }
                    let mut i = m.functions[f.0 as usize].inst(id).clone();
                    if let InstKind::Call { callee: c, fn_ty: t, args, .. } = &mut i.kind {
                        let len = args[2];
                        if matches!(m.types.get(crate::util::ty(m, f, len)), Type::Int(64)) {
                            args[2] = out.emit(m, inst(InstKind::Cast { op: CastOp::Trunc, val: len }, i32t));
                        }
                        *c = callee;
                        *t = fn_ty;
                    }
                    *m.functions[f.0 as usize].inst_mut(id) = i;
                    out.keep(id);
                    Ok(())
                })?;
            }
        }
        Ok(())
    }
}
