//! `remove-asm-memory`: deletes the `asm sideeffect "", "~{memory}"` compiler barriers
//! (RewriteAtomics has turned the ones around fences into `llvm.nacl.atomic.fence.all`),
//! and refuses any other inline assembly, which no PNaCl translator could run.

use crate::{Pass, PassError};
use pnacl_llvm::ir::{InstKind, Module, Value};

/// The pass.
pub struct RemoveAsmMemory;

impl Pass for RemoveAsmMemory {
    fn name(&self) -> &'static str {
        "remove-asm-memory"
    }

    fn run(&self, m: &mut Module) -> Result<(), PassError> {
        let barriers: Vec<bool> =
            m.inline_asms.iter().map(|a| a.asm.is_empty() && a.constraints == "~{memory}").collect();
        for f in &mut m.functions {
            let insts = &f.insts;
            let is_barrier = |id: &pnacl_llvm::ir::InstId| {
                matches!(&insts[id.0 as usize].kind,
                    InstKind::Call { callee: Value::InlineAsm(a), args, .. }
                        if args.is_empty() && barriers.get(a.0 as usize) == Some(&true))
            };
            let mut blocks = std::mem::take(&mut f.blocks);
            for b in &mut blocks {
                b.insts.retain(|i| !is_barrier(i));
            }
            let other = blocks.iter().flat_map(|b| &b.insts).find_map(|id| match &insts[id.0 as usize].kind {
                InstKind::Call { callee: Value::InlineAsm(a), .. } => Some(*a),
                _ => None,
            });
            f.blocks = blocks;
            if let Some(a) = other {
                let asm = &m.inline_asms[a.0 as usize];
                return Err(PassError {
                    pass: "remove-asm-memory",
                    function: Some(f.props.name.clone()),
                    construct: format!("asm {:?}, {:?}", asm.asm, asm.constraints),
                    message: "inline assembly is not portable: PNaCl bitcode has no encoding for it".into(),
                });
            }
        }
        Ok(())
    }
}
