//! `lowerinvoke`: an `invoke` becomes a `call` followed by a branch to its normal
//! destination (exceptions are not supported: the landing pads become unreachable, and
//! `simplifycfg` removes them).

use crate::{Pass, PassError};
use pnacl_llvm::ir::{BlockId, Inst, InstKind, Module, TailKind, Value};
use std::collections::HashMap;

/// The pass.
pub struct LowerInvoke;

impl Pass for LowerInvoke {
    fn name(&self) -> &'static str {
        "lowerinvoke"
    }

    fn run(&self, m: &mut Module) -> Result<(), PassError> {
        let void = m.types.void();
        for f in crate::util::defined(m) {
            // Each invoking block stops being a predecessor of its landing pad: drop the
            // landing pad's phi entries for it (LLVM's `removePredecessor`).
            let func = &m.functions[f.0 as usize];
            let lowered: Vec<(BlockId, BlockId, BlockId)> = func
                .layout()
                .filter_map(|(b, id)| match func.inst(id).kind {
                    InstKind::Invoke { normal, unwind, .. } => Some((b, normal, unwind)),
                    _ => None,
                })
                .collect();
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
            // A phi left without entries (its block has no predecessor now) becomes undef.
            let mut emptied = HashMap::new();
            for (from, normal, unwind) in lowered {
                if unwind == normal {
                    continue;
                }
                for id in m.functions[f.0 as usize].blocks[unwind.0 as usize].insts.clone() {
                    let inst = m.functions[f.0 as usize].inst_mut(id);
                    if let InstKind::Phi { incoming } = &mut inst.kind {
                        incoming.retain(|&(_, b)| b != from);
                        if incoming.is_empty() {
                            let ty = inst.ty;
                            emptied.insert(Value::Inst(id), crate::util::undef(m, ty));
                        }
                    }
                }
            }
            let func = &mut m.functions[f.0 as usize];
            for b in &mut func.blocks {
                b.insts.retain(|i| !emptied.contains_key(&Value::Inst(*i)));
            }
            func.replace_uses(&emptied);
        }
        Ok(())
    }
}
