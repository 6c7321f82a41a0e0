//! `resolve-aliases`: every use of an alias becomes a use of what it names, and the
//! aliases go.

use crate::{Pass, PassError};
use pnacl_llvm::ir::{Const, ConstId, Module};
use std::collections::HashMap;

/// The pass.
pub struct ResolveAliases;

impl Pass for ResolveAliases {
    fn name(&self) -> &'static str {
        "resolve-aliases"
    }

    fn run(&self, m: &mut Module) -> Result<(), PassError> {
        if m.aliases.is_empty() {
            return Ok(());
        }
        let mut map: HashMap<ConstId, ConstId> = HashMap::new();
        for (i, a) in m.aliases.iter().enumerate() {
            // An alias of an alias resolves to the end of the chain.
            let mut target = a.aliasee;
            for _ in 0..=m.aliases.len() {
                match m.consts.get(target) {
                    Const::Alias(b) => target = m.aliases[b.0 as usize].aliasee,
                    _ => break,
                }
            }
            if let Some(id) = m.consts.find(&Const::Alias(pnacl_llvm::ir::AliasId(i as u32))) {
                map.insert(id, target);
            }
        }
        m.replace_constants(&map);
        // Through `retain_aliases`, so that the now unused `Const::Alias` entries go too (left
        // behind, they named aliases that no longer exist).
        m.retain_aliases(|_, _| false);
        Ok(())
    }
}
