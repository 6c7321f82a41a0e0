//! `internalize`: every definition but the entry point (`_start`, or `__pnacl_pso_root`)
//! becomes internal, so that nothing else is exported and dead code can go (this is
//! LLVM's Internalize followed by PNaCl's `internalize-used-globals`).

use crate::{Pass, PassError};
use pnacl_llvm::ir::{Linkage, Module};

/// The names a pexe exports.
pub const EXPORTED: [&str; 2] = ["_start", "__pnacl_pso_root"];

/// The pass.
pub struct Internalize;

impl Pass for Internalize {
    fn name(&self) -> &'static str {
        "internalize"
    }

    fn run(&self, m: &mut Module) -> Result<(), PassError> {
        let local = |name: &str, linkage: &mut Linkage| {
            if !EXPORTED.contains(&name) && !name.starts_with("llvm.") {
                *linkage = Linkage::Internal;
            }
        };
        for f in m.functions.iter_mut().filter(|f| !f.is_declaration()) {
            local(&f.props.name, &mut f.props.linkage);
        }
        for g in m.globals.iter_mut().filter(|g| g.init.is_some()) {
            local(&g.props.name, &mut g.props.linkage);
        }
        for a in &mut m.aliases {
            local(&a.props.name, &mut a.props.linkage);
        }
        Ok(())
    }
}
