//! `rewrite-llvm-intrinsic-calls`: `llvm.flt.rounds` becomes 1, `llvm.debugtrap` becomes
//! `llvm.trap`, and hints that change no result (`llvm.prefetch`, `llvm.assume`, lifetime,
//! invariant, no-alias scope and debug markers) go. `llvm.threadlocal.address(@tls)`
//! (clang 16 and newer wrap every use of a thread-local variable in it) becomes `@tls`,
//! which `nacl-expand-tls`, later in the list, turns into the thread's copy.

use crate::util::{call, declare, func_value, i32_const, rebuild, undef};
use crate::{Pass, PassError};
use pnacl_llvm::ir::{InstKind, Module, Type, Value};

/// The pass.
pub struct RewriteLlvmIntrinsics;

/// Intrinsics that only inform the optimizer: their calls can go.
fn is_hint(name: &str) -> bool {
    ["llvm.prefetch", "llvm.assume", "llvm.lifetime.", "llvm.invariant.", "llvm.experimental.noalias.scope.decl"]
        .iter()
        .any(|p| name.starts_with(p))
        || name.starts_with("llvm.dbg.")
        || name == "llvm.donothing"
        || name == "llvm.sideeffect"
        || name.starts_with("llvm.var.annotation")
}

impl Pass for RewriteLlvmIntrinsics {
    fn name(&self) -> &'static str {
        "rewrite-llvm-intrinsic-calls"
    }

    fn run(&self, m: &mut Module) -> Result<(), PassError> {
        let void = m.types.void();
        let trap_ty = m.types.function(void, Vec::new(), false);
        for f in crate::util::defined(m) {
            rebuild(m, f, |m, id, out, replace| {
                let func = &m.functions[f.0 as usize];
                let name = m.direct_callee(func.inst(id)).map(|c| m.functions[c.0 as usize].props.name.clone());
                let Some(name) = name else {
                    out.keep(id);
                    return Ok(());
                };
                let ty = func.inst(id).ty;
                if name == "llvm.flt.rounds" || name == "llvm.get.rounding" {
                    replace.insert(Value::Inst(id), i32_const(m, 1));
                } else if is_hint(&name) {
                    if *m.types.get(ty) != Type::Void {
                        let u = undef(m, ty);
                        replace.insert(Value::Inst(id), u);
                    }
                } else if name == "llvm.debugtrap" {
                    let trap = declare(m, "llvm.trap", trap_ty);
                    let callee = func_value(m, trap);
                    let c = call(m, trap, Vec::new(), callee);
                    out.emit(m, c);
                } else if name.starts_with("llvm.threadlocal.address") || name.starts_with("llvm.expect.") {
                    if let InstKind::Call { args, .. } = &m.functions[f.0 as usize].inst(id).kind {
                        replace.insert(Value::Inst(id), args[0]);
                    }
                } else {
                    out.keep(id);
                }
                Ok(())
            })?;
        }
        Ok(())
    }
}

/// `lower-expect`: `llvm.expect(x, c)` becomes `x` (LLVM turned the hint into branch
/// weights, which a pexe cannot keep).
pub struct LowerExpect;

impl Pass for LowerExpect {
    fn name(&self) -> &'static str {
        "lower-expect"
    }

    fn run(&self, m: &mut Module) -> Result<(), PassError> {
        for f in crate::util::defined(m) {
            rebuild(m, f, |m, id, out, replace| {
                let inst = m.functions[f.0 as usize].inst(id);
                let is_expect = m
                    .direct_callee(inst)
                    .is_some_and(|c| m.functions[c.0 as usize].props.name.starts_with("llvm.expect."));
                match &inst.kind {
                    InstKind::Call { args, .. } if is_expect => {
                        replace.insert(Value::Inst(id), args[0]);
                    }
                    _ => out.keep(id),
                }
                Ok(())
            })?;
        }
        Ok(())
    }
}
