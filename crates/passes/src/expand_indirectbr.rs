//! `expand-indirectbr`: computed `goto` (GCC's labels as values) without `indirectbr` and
//! `blockaddress`, which PNaCl bitcode cannot express (`ExpandIndirectBr.cpp` in
//! `lib/Transforms/NaCl`).
//!
//! Each function numbers the blocks its `indirectbr`s can reach, from 1 (0 stays free for
//! programs that treat a null label address as special), in the order the branches list
//! them, the first branch's targets first. Every `blockaddress` of a numbered block becomes
//! `inttoptr (i32 N)`, wherever it is: in instructions, in other functions and in global
//! initializers (static dispatch tables). Each `indirectbr` becomes a `switch` on
//! `ptrtoint` of its address over its targets' numbers, whose default is a block of its own
//! holding `unreachable` (shared by the function's switches). A target listed twice is one
//! case, and the phis of that block lose the duplicate entry.
//!
//! The address of a block no `indirectbr` reaches becomes `inttoptr (i32 -1)`, as in
//! PNaCl; but when a function has several such blocks they are -1, -2, ... in block order.
//! PNaCl made them all -1, so that `&&a == &&b` held for two such labels: clang -O2 turns a
//! `goto *` whose targets it can see into plain branches, and its comparisons of label
//! addresses into comparisons of constants.

use crate::util::inst;
use crate::{Pass, PassError};
use pnacl_llvm::ir::{Block, BlockId, CastOp, Const, ConstId, ExprOp, FuncId, InstKind, Module, Value};
use std::collections::HashMap;

/// The pass.
pub struct ExpandIndirectBr;

/// The number the first block address no `indirectbr` of its function reaches becomes
/// (-1); the next ones count down from it.
const FIRST_UNUSED: u64 = 0xffff_ffff;

impl Pass for ExpandIndirectBr {
    fn name(&self) -> &'static str {
        "expand-indirectbr"
    }

    fn run(&self, m: &mut Module) -> Result<(), PassError> {
        let mut numbers: HashMap<(FuncId, BlockId), u64> = HashMap::new();
        for f in crate::util::defined(m) {
            expand_function(m, f, &mut numbers);
        }
        replace_block_addresses(m, &mut numbers);
        Ok(())
    }
}

/// Replaces each `indirectbr` of function `f` by a switch, numbering its targets into
/// `numbers`.
fn expand_function(m: &mut Module, f: FuncId, numbers: &mut HashMap<(FuncId, BlockId), u64>) {
    let i32t = m.types.int(32);
    let void = m.types.void();
    let mut next: u64 = 1;
    let mut default: Option<BlockId> = None;
    let block_count = m.functions[f.0 as usize].blocks.len();
    for b in 0..block_count {
        let func = &m.functions[f.0 as usize];
        let Some(&br) = func.blocks[b].insts.last() else { continue };
        let InstKind::IndirectBr { addr, dests } = func.inst(br).kind.clone() else { continue };
        let default = *default.get_or_insert_with(|| {
            let func = &mut m.functions[f.0 as usize];
            let unreachable = func.add_inst(inst(InstKind::Unreachable, void));
            func.blocks.push(Block { name: Some("indirectbr_default".into()), insts: vec![unreachable] });
            BlockId(func.blocks.len() as u32 - 1)
        });
        let mut cases: Vec<(ConstId, BlockId)> = Vec::with_capacity(dests.len());
        for dest in dests {
            if cases.iter().any(|&(_, d)| d == dest) {
                // One edge now: each phi of the target loses one of the branch's entries.
                drop_phi_entry(m, f, dest, BlockId(b as u32));
                continue;
            }
            let n = *numbers.entry((f, dest)).or_insert_with(|| {
                next += 1;
                next - 1
            });
            cases.push((m.consts.int(i32t, 32, n), dest));
        }
        let func = &mut m.functions[f.0 as usize];
        let mut cast = inst(InstKind::Cast { op: CastOp::PtrToInt, val: addr }, i32t);
        cast.name = Some("indirectbr_cast".into());
        let cast = func.insert_before(br, cast);
        *func.inst_mut(br) = inst(InstKind::Switch { cond: Value::Inst(cast), default, cases }, void);
    }
}

/// Removes the first entry for predecessor `from` of each phi at the top of block `block`.
fn drop_phi_entry(m: &mut Module, f: FuncId, block: BlockId, from: BlockId) {
    let func = &mut m.functions[f.0 as usize];
    let ids = func.blocks[block.0 as usize].insts.clone();
    for id in ids {
        let InstKind::Phi { incoming } = &mut func.inst_mut(id).kind else { break };
        if let Some(k) = incoming.iter().position(|&(_, p)| p == from) {
            incoming.remove(k);
        }
    }
}

/// Every `blockaddress` becomes `inttoptr` of its block's number, or of -1, -2, ... for
/// the blocks of a function that no `indirectbr` reaches, in block order.
fn replace_block_addresses(m: &mut Module, numbers: &mut HashMap<(FuncId, BlockId), u64>) {
    let i32t = m.types.int(32);
    let mut addresses: Vec<(FuncId, BlockId, ConstId, pnacl_llvm::ir::TypeId)> = (0..m.consts.len() as u32)
        .map(ConstId)
        .filter_map(|c| match *m.consts.get(c) {
            Const::BlockAddress { ty, func, block } => Some((func, block, c, ty)),
            _ => None,
        })
        .collect();
    addresses.sort_unstable();
    let mut unused: HashMap<FuncId, u64> = HashMap::new();
    let mut map = HashMap::new();
    for (func, block, c, ty) in addresses {
        let n = *numbers.entry((func, block)).or_insert_with(|| {
            let next = unused.entry(func).or_insert(FIRST_UNUSED);
            *next -= 1;
            *next + 1
        });
        let n = m.consts.int(i32t, 32, n);
        let as_ptr = m.consts.intern(Const::Expr { ty, op: ExprOp::Cast(CastOp::IntToPtr), operands: vec![n] });
        map.insert(c, as_ptr);
    }
    crate::util::replace_const_uses(m, &map, false);
}
