//! `globaldce`: removes the functions, globals and aliases nothing reachable from the
//! exported definitions (and `llvm.used`) refers to.

use crate::{Pass, PassError};
use pnacl_llvm::ir::{Const, ConstId, FuncId, GlobalId, GlobalRef, Module, Value};
use std::collections::HashSet;

/// The pass.
pub struct GlobalDce;

/// Marks what `c` refers to.
fn mark_const(m: &Module, c: ConstId, work: &mut Vec<GlobalRef>, seen: &mut HashSet<ConstId>) {
    let mut stack = vec![c];
    while let Some(c) = stack.pop() {
        if !seen.insert(c) {
            continue;
        }
        match m.consts.get(c) {
            Const::Function(f) => work.push(GlobalRef::Function(*f)),
            Const::Global(g) => work.push(GlobalRef::Global(*g)),
            Const::Alias(a) => work.push(GlobalRef::Alias(*a)),
            Const::BlockAddress { func, .. } => work.push(GlobalRef::Function(*func)),
            other => stack.extend_from_slice(other.operands()),
        }
    }
}

/// Every global value reachable from the module's roots.
pub(crate) fn live(m: &Module) -> HashSet<GlobalRef> {
    let mut work = Vec::new();
    for (i, f) in m.functions.iter().enumerate() {
        if !f.is_declaration() && !f.props.linkage.is_local() {
            work.push(GlobalRef::Function(FuncId(i as u32)));
        }
    }
    for (i, g) in m.globals.iter().enumerate() {
        let keep = g.props.name == "llvm.used"
            || g.props.name == "llvm.compiler.used"
            || g.props.name.starts_with("llvm.global_");
        if (g.init.is_some() && !g.props.linkage.is_local()) || keep {
            work.push(GlobalRef::Global(GlobalId(i as u32)));
        }
    }
    for (i, a) in m.aliases.iter().enumerate() {
        if !a.props.linkage.is_local() {
            work.push(GlobalRef::Alias(pnacl_llvm::ir::AliasId(i as u32)));
        }
    }
    let mut live = HashSet::new();
    let mut seen = HashSet::new();
    while let Some(r) = work.pop() {
        if !live.insert(r) {
            continue;
        }
        match r {
            GlobalRef::Function(f) => {
                let func = &m.functions[f.0 as usize];
                for (_, id) in func.layout() {
                    func.inst(id).kind.for_each_value(|v| {
                        if let Value::Const(c) = v {
                            mark_const(m, c, &mut work, &mut seen);
                        }
                    });
                    if let pnacl_llvm::ir::InstKind::LandingPad { clauses, .. } = &func.inst(id).kind {
                        for cl in clauses {
                            let (pnacl_llvm::ir::Clause::Catch(c) | pnacl_llvm::ir::Clause::Filter(c)) = *cl;
                            mark_const(m, c, &mut work, &mut seen);
                        }
                    }
                }
                if let Some(p) = func.personality {
                    mark_const(m, p, &mut work, &mut seen);
                }
            }
            GlobalRef::Global(g) => {
                if let Some(init) = m.globals[g.0 as usize].init {
                    mark_const(m, init, &mut work, &mut seen);
                }
            }
            GlobalRef::Alias(a) => mark_const(m, m.aliases[a.0 as usize].aliasee, &mut work, &mut seen),
        }
    }
    live
}

impl Pass for GlobalDce {
    fn name(&self) -> &'static str {
        "globaldce"
    }

    fn run(&self, m: &mut Module) -> Result<(), PassError> {
        let live = live(m);
        // Dead aliases first: they may name the dead functions and globals.
        m.retain_aliases(|id, _| live.contains(&GlobalRef::Alias(id)));
        m.retain_functions(|id, _| live.contains(&GlobalRef::Function(id)));
        m.retain_globals(|id, _| live.contains(&GlobalRef::Global(id)));
        Ok(())
    }
}
