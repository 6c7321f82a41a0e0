//! `lowerinvoke`: an `invoke` becomes a `call` followed by a branch to its normal
//! destination (exceptions are not supported: the landing pads become unreachable, and
//! `simplifycfg` removes them).

use crate::{Pass, PassError};
use pnacl_llvm::ir::{Inst, InstKind, Module, TailKind};

/// The pass.
pub struct LowerInvoke;

impl Pass for LowerInvoke {
    fn name(&self) -> &'static str {
        "lowerinvoke"
    }

    fn run(&self, m: &mut Module) -> Result<(), PassError> {
        let void = m.types.void();
        for f in crate::util::defined(m) {
            crate::util::rebuild(m, f, |m, id, out, _| {
                let i = m.functions[f.0 as usize].inst(id).clone();
                let InstKind::Invoke { callee, fn_ty, args, cc, attrs, normal, .. } = i.kind else {
                    out.keep(id);
                    return Ok(());
                };
                *m.functions[f.0 as usize].inst_mut(id) = Inst {
                    kind: InstKind::Call { callee, fn_ty, args, cc, tail: TailKind::None, attrs, flags: 0 },
                    ty: i.ty,
                    name: i.name,
                };
                out.keep(id);
                out.emit(m, crate::util::inst(InstKind::Br { target: normal }, void));
                Ok(())
            })?;
        }
        Ok(())
    }
}
