//! `rewrite-pnacl-library-calls`: calls to `setjmp`, `longjmp`, `memcpy`, `memmove` and
//! `memset` become PNaCl's intrinsics (`llvm.nacl.setjmp`, `llvm.nacl.longjmp`,
//! `llvm.memcpy` and the others).

use crate::util::{call, declare, func_value, ptr_to};
use crate::{Pass, PassError};
use pnacl_llvm::ir::{CastOp, InstKind, Module, Value};

/// The pass.
pub struct RewritePnaclLibraryCalls;

impl Pass for RewritePnaclLibraryCalls {
    fn name(&self) -> &'static str {
        "rewrite-pnacl-library-calls"
    }

    fn run(&self, m: &mut Module) -> Result<(), PassError> {
        let i1t = m.types.int(1);
        let i8t = m.types.int(8);
        let i32t = m.types.int(32);
        let void = m.types.void();
        let i8p = ptr_to(m, i8t);
        let setjmp_ty = m.types.function(i32t, vec![i8p], false);
        let longjmp_ty = m.types.function(void, vec![i8p, i32t], false);
        // Today's (LLVM 7 and later) signatures, as the rest of the module has them: no
        // alignment argument (a missing `align` is 1); freeze spells them back as PNaCl's.
        let mem_ty = m.types.function(void, vec![i8p, i8p, i32t, i1t], false);
        let set_ty = m.types.function(void, vec![i8p, i8t, i32t, i1t], false);
        for f in crate::util::defined(m) {
            crate::util::rebuild(m, f, |m, id, out, replace| {
                let i = m.functions[f.0 as usize].inst(id).clone();
                let name = m.direct_callee(&i).map(|c| m.functions[c.0 as usize].props.name.clone());
                let InstKind::Call { args, .. } = &i.kind else {
                    out.keep(id);
                    return Ok(());
                };
                let (target, fn_ty) = match name.as_deref() {
                    Some("setjmp" | "_setjmp") if args.len() == 1 => ("llvm.nacl.setjmp".to_string(), setjmp_ty),
                    Some("longjmp" | "_longjmp") if args.len() == 2 => ("llvm.nacl.longjmp".to_string(), longjmp_ty),
                    Some("memcpy") if args.len() == 3 => (crate::util::mem_intrinsic(m, "memcpy"), mem_ty),
                    Some("memmove") if args.len() == 3 => (crate::util::mem_intrinsic(m, "memmove"), mem_ty),
                    Some("memset") if args.len() == 3 => (crate::util::mem_intrinsic(m, "memset"), set_ty),
                    _ => {
                        out.keep(id);
                        return Ok(());
                    }
                };
                let callee_id = declare(m, &target, fn_ty);
                let callee = func_value(m, callee_id);
                let (_, params, _) = m.types.as_function(fn_ty).map(|(r, p, v)| (r, p.to_vec(), v)).expect("fn");
                let mut new_args = Vec::new();
                for (k, &a) in args.iter().enumerate() {
                    let want = params[k];
                    let v = if m.types.get(want).is_pointer() {
                        out.to_ptr(m, a, want)
                    } else {
                        let have = crate::util::ty(m, f, a);
                        let hw = m.types.get(have).int_width().unwrap_or(32);
                        let ww = m.types.get(want).int_width().unwrap_or(32);
                        let op = if hw > ww { CastOp::Trunc } else { CastOp::ZExt };
                        out.cast(m, op, a, want)
                    };
                    new_args.push(v);
                }
                if target.starts_with("llvm.mem") {
                    new_args.push(Value::Const(m.consts.int(i1t, 1, 0)));
                }
                let c = call(m, callee_id, new_args, callee);
                let v = out.emit(m, c);
                // memcpy and friends return their destination.
                let result = if target.starts_with("llvm.mem") { args[0] } else { v };
                if !target.starts_with("llvm.nacl.longjmp") {
                    replace.insert(Value::Inst(id), result);
                }
                Ok(())
            })?;
        }
        Ok(())
    }
}
