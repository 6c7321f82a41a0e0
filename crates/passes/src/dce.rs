//! `dce`: removes instructions whose results nothing uses and that have no side effects.

use crate::{Pass, PassError};
use pnacl_llvm::ir::{InstKind, Module, Ordering, Type};

/// The pass.
pub struct DeadCodeElimination;

/// True if removing an unused `kind` changes nothing but its result.
pub(crate) fn is_trivially_dead_kind(kind: &InstKind) -> bool {
    use InstKind::*;
    match kind {
        Binary { op, .. } => !matches!(
            op,
            // Division can trap: LLVM keeps it unless the divisor is known safe.
            pnacl_llvm::ir::BinaryOp::UDiv
                | pnacl_llvm::ir::BinaryOp::SDiv
                | pnacl_llvm::ir::BinaryOp::URem
                | pnacl_llvm::ir::BinaryOp::SRem
        ),
        Load { volatile, ordering, .. } => !volatile && *ordering == Ordering::NotAtomic,
        FNeg { .. }
        | Cast { .. }
        | GetElementPtr { .. }
        | Alloca { .. }
        | ICmp { .. }
        | FCmp { .. }
        | Select { .. }
        | Phi { .. }
        | ExtractElement { .. }
        | InsertElement { .. }
        | ShuffleVector { .. }
        | ExtractValue { .. }
        | InsertValue { .. }
        | Freeze { .. } => true,
        _ => false,
    }
}

/// Removes dead instructions of every function until none is left.
pub fn run_dce(m: &mut Module) {
    for fi in 0..m.functions.len() {
        loop {
            let f = &m.functions[fi];
            let uses = f.use_counts();
            let dead: std::collections::HashSet<u32> = f
                .layout()
                .filter(|&(_, id)| {
                    let inst = f.inst(id);
                    uses[id.0 as usize] == 0
                        && *m.types.get(inst.ty) != Type::Void
                        && is_trivially_dead_kind(&inst.kind)
                })
                .map(|(_, id)| id.0)
                .collect();
            if dead.is_empty() {
                break;
            }
            for b in &mut m.functions[fi].blocks {
                b.insts.retain(|i| !dead.contains(&i.0));
            }
        }
    }
}

impl Pass for DeadCodeElimination {
    fn name(&self) -> &'static str {
        "dce"
    }

    fn run(&self, m: &mut Module) -> Result<(), PassError> {
        run_dce(m);
        Ok(())
    }
}
