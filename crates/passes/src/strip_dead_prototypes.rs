//! `strip-dead-prototypes`: removes function declarations nothing uses.

use crate::{Pass, PassError};
use pnacl_llvm::ir::{Const, FuncId, Module, Value};
use std::collections::HashSet;

/// The pass.
pub struct StripDeadPrototypes;

/// The functions whose address some live instruction or some global initializer uses.
pub(crate) fn used_functions(m: &Module) -> HashSet<FuncId> {
    let mut used = HashSet::new();
    let visit_const = |m: &Module, c, used: &mut HashSet<FuncId>| {
        let mut stack = vec![c];
        let mut seen = HashSet::new();
        while let Some(c) = stack.pop() {
            if !seen.insert(c) {
                continue;
            }
            match m.consts.get(c) {
                Const::Function(f) => {
                    used.insert(*f);
                }
                Const::BlockAddress { func, .. } => {
                    used.insert(*func);
                }
                other => stack.extend_from_slice(other.operands()),
            }
        }
    };
    for f in &m.functions {
        for (_, id) in f.layout() {
            f.inst(id).kind.for_each_value(|v| {
                if let Value::Const(c) = v {
                    visit_const(m, c, &mut used);
                }
            });
        }
        if let Some(p) = f.personality {
            visit_const(m, p, &mut used);
        }
    }
    for g in &m.globals {
        if let Some(init) = g.init {
            visit_const(m, init, &mut used);
        }
    }
    for a in &m.aliases {
        visit_const(m, a.aliasee, &mut used);
    }
    used
}

impl Pass for StripDeadPrototypes {
    fn name(&self) -> &'static str {
        "strip-dead-prototypes"
    }

    fn run(&self, m: &mut Module) -> Result<(), PassError> {
        let used = used_functions(m);
        m.retain_functions(|id, f| !f.is_declaration() || used.contains(&id));
        Ok(())
    }
}
