//! `nacl-global-cleanup`: deletes `llvm.compiler.used`; an undefined weak reference becomes
//! null; weak definitions become internal.

use crate::{Pass, PassError};
use pnacl_llvm::ir::{Const, ConstId, GlobalRef, Linkage, Module};
use std::collections::HashMap;

/// The pass.
pub struct GlobalCleanup;

impl Pass for GlobalCleanup {
    fn name(&self) -> &'static str {
        "nacl-global-cleanup"
    }

    fn run(&self, m: &mut Module) -> Result<(), PassError> {
        m.retain_globals(|_, g| g.props.name != "llvm.compiler.used");
        // extern_weak: the symbol is absent from a static pexe, so its address is null.
        let mut map: HashMap<ConstId, ConstId> = HashMap::new();
        let mut dead: Vec<GlobalRef> = Vec::new();
        for i in 0..m.functions.len() {
            if m.functions[i].props.linkage == Linkage::ExternalWeak {
                dead.push(GlobalRef::Function(pnacl_llvm::ir::FuncId(i as u32)));
            }
        }
        for i in 0..m.globals.len() {
            if m.globals[i].props.linkage == Linkage::ExternalWeak {
                dead.push(GlobalRef::Global(pnacl_llvm::ir::GlobalId(i as u32)));
            }
        }
        for r in &dead {
            let c = match r {
                GlobalRef::Function(f) => Const::Function(*f),
                GlobalRef::Global(g) => Const::Global(*g),
                GlobalRef::Alias(a) => Const::Alias(*a),
            };
            if let Some(id) = m.consts.find(&c) {
                let ty = m.const_type(id).expect("global values have pointer types");
                let null = m.consts.intern(Const::Null(ty));
                map.insert(id, null);
            }
        }
        m.replace_constants(&map);
        m.retain_functions(|id, _| !dead.contains(&GlobalRef::Function(id)));
        m.retain_globals(|id, _| !dead.contains(&GlobalRef::Global(id)));
        for f in &mut m.functions {
            if f.props.linkage == Linkage::WeakAny {
                f.props.linkage = Linkage::Internal;
            }
        }
        for g in &mut m.globals {
            if g.props.linkage == Linkage::WeakAny {
                g.props.linkage = Linkage::Internal;
            }
        }
        Ok(())
    }
}
