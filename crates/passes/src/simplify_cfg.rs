//! `simplifycfg`: removes the blocks no path from the entry reaches (and their phi
//! entries), which `lowerinvoke` leaves behind.
//!
//! Blocks are numbered by position, so the `blockaddress` constants of a function whose
//! blocks moved are renumbered with them; the address of a removed block becomes
//! `inttoptr (i32 1)`, as LLVM's `BasicBlock` destructor replaces it.

use crate::{Pass, PassError};
use pnacl_llvm::ir::{BlockId, CastOp, Const, ConstId, ExprOp, FuncId, InstKind, Module};
use std::collections::HashMap;

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
        renumber_block_addresses(m, f, &map);
    }
}

/// After function `f`'s blocks moved (`map[old]` is the new number, `None` if removed):
/// its block addresses follow their blocks, and those of removed blocks are replaced.
fn renumber_block_addresses(m: &mut Module, f: FuncId, map: &[Option<BlockId>]) {
    let of_f: Vec<(ConstId, pnacl_llvm::ir::TypeId, BlockId)> = (0..m.consts.len() as u32)
        .map(ConstId)
        .filter_map(|c| match *m.consts.get(c) {
            Const::BlockAddress { ty, func, block } if func == f => Some((c, ty, block)),
            _ => None,
        })
        .collect();
    if of_f.is_empty() {
        return;
    }
    // Uses of a removed block's address first, while the pool still tells the blocks apart.
    let i32t = m.types.int(32);
    let one = m.consts.int(i32t, 32, 1);
    let mut removed = HashMap::new();
    for &(c, ty, block) in &of_f {
        if map.get(block.0 as usize).copied().flatten().is_none() {
            let e = m.consts.intern(Const::Expr { ty, op: ExprOp::Cast(CastOp::IntToPtr), operands: vec![one] });
            removed.insert(c, e);
        }
    }
    crate::util::replace_const_uses(m, &removed, false);
    // Then the pool itself: a removed block's (now unused) constant becomes `undef`, so that
    // no two constants name the same block once the others are renumbered.
    m.consts.rewrite(|c| match *c {
        Const::BlockAddress { ty, func, block } if func == f => {
            Some(match map.get(block.0 as usize).copied().flatten() {
                Some(new) => Const::BlockAddress { ty, func, block: new },
                None => Const::Undef(ty),
            })
        }
        _ => None,
    });
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
