//! `remove-asm-memory`: deletes the `asm sideeffect "", "~{memory}"` compiler barriers
//! (RewriteAtomics has turned the ones around fences into `llvm.nacl.atomic.fence.all`).

use crate::{Pass, PassError};
use pnacl_llvm::ir::{Function, InstId, InstKind, Module, Value};

/// The pass.
pub struct RemoveAsmMemory;

impl Pass for RemoveAsmMemory {
    fn name(&self) -> &'static str {
        "remove-asm-memory"
    }

    fn run(&self, m: &mut Module) -> Result<(), PassError> {
        for fi in 0..m.functions.len() {
            let f = &m.functions[fi];
            let mut blocks = f.blocks.clone();
            for b in &mut blocks {
                b.insts.retain(|&i| !is_barrier(m, f, i));
            }
            m.functions[fi].blocks = blocks;
        }
        Ok(())
    }
}

/// True if instruction `id` of `f` is the compiler barrier `asm sideeffect "", "~{memory}"`.
pub(crate) fn is_barrier(m: &Module, f: &Function, id: InstId) -> bool {
    matches!(&f.inst(id).kind,
        InstKind::Call { callee: Value::InlineAsm(a), args, .. }
            if args.is_empty()
                && m.inline_asms.get(a.0 as usize).is_some_and(|a| a.asm.is_empty() && a.constraints == "~{memory}"))
}
