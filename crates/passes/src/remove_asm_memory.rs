//! `remove-asm-memory`: deletes the `asm sideeffect "", "~{memory}"` compiler barriers
//! (RewriteAtomics has turned the ones around fences into `llvm.nacl.atomic.fence.all`),
//! and refuses any other inline assembly, which no PNaCl translator could run.

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
            let other = blocks.iter().flat_map(|b| &b.insts).find_map(|id| match &f.inst(*id).kind {
                InstKind::Call { callee: Value::InlineAsm(a), .. } => Some(*a),
                _ => None,
            });
            m.functions[fi].blocks = blocks;
            if let Some(a) = other {
                let asm = &m.inline_asms[a.0 as usize];
                return Err(PassError {
                    pass: "remove-asm-memory",
                    function: Some(m.functions[fi].props.name.clone()),
                    construct: format!("asm {:?}, {:?}", asm.asm, asm.constraints),
                    message: "inline assembly is not portable: PNaCl bitcode has no encoding for it".into(),
                });
            }
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
