//! `simplifycfg`: removes the blocks no path from the entry reaches (and their phi
//! entries), which `lowerinvoke` leaves behind.

use crate::{Pass, PassError};
use pnacl_llvm::ir::{BlockId, InstKind, Module};

/// The pass.
pub struct SimplifyCfg;

/// Removes unreachable blocks of every defined function.
pub fn remove_unreachable_blocks(m: &mut Module) {
    for f in crate::util::defined(m) {
        let func = &mut m.functions[f.0 as usize];
        let n = func.blocks.len();
        let mut reached = vec![false; n];
        let mut work = vec![0usize];
        while let Some(b) = work.pop() {
            if b >= n || reached[b] {
                continue;
            }
            reached[b] = true;
            if let Some(&last) = func.blocks[b].insts.last() {
                work.extend(func.inst(last).kind.successors().iter().map(|s| s.0 as usize));
            }
        }
        if reached.iter().all(|&r| r) {
            continue;
        }
        let mut map = vec![None; n];
        let mut next = 0u32;
        for (b, &r) in reached.iter().enumerate() {
            if r {
                map[b] = Some(BlockId(next));
                next += 1;
            }
        }
        let blocks = std::mem::take(&mut func.blocks);
        func.blocks = blocks.into_iter().zip(&reached).filter(|(_, r)| **r).map(|(b, _)| b).collect();
        let live: Vec<_> = func.layout().map(|(_, i)| i).collect();
        for id in live {
            let inst = func.inst_mut(id);
            if let InstKind::Phi { incoming } = &mut inst.kind {
                incoming.retain(|(_, b)| map[b.0 as usize].is_some());
            }
            inst.kind.map_blocks(|b| map[b.0 as usize].unwrap_or(b));
        }
    }
}

impl Pass for SimplifyCfg {
    fn name(&self) -> &'static str {
        "simplifycfg"
    }

    fn run(&self, m: &mut Module) -> Result<(), PassError> {
        remove_unreachable_blocks(m);
        Ok(())
    }
}
