//! Control flow: branch targets and the phi values each edge passes, switches, returns
//! (which restore the guest stack pointer and leave the setjmp frame) and traps.

use super::Translator;
use super::flags::trusted;
use crate::abi::{self, HostFn, TrapKind};
use crate::clif::clif_type;
use cranelift_codegen::ir::types::*;
use cranelift_codegen::ir::{Block, BlockArg, InstBuilder, Value};
use cranelift_frontend::Switch;
use pnacl_bitcode::ir::{BinOp, Inst, Ty, ValueId, decode_sign_rotated};
use std::collections::HashMap;

impl Translator<'_, '_, '_> {
    /// The arguments of the edge from basic block `from` to `to`: the incoming values of
    /// `to`'s phis.
    pub(super) fn edge_args(&mut self, from: usize, to: u32) -> Result<Vec<BlockArg>, String> {
        let mut args = Vec::new();
        for i in self.block_insts(to as usize) {
            match self.body.insts[i] {
                Inst::Phi { incoming, .. } => {
                    let v = self
                        .body
                        .incoming(incoming)
                        .find(|&(_, b)| b as usize == from)
                        .map(|(v, _)| v)
                        .ok_or_else(|| format!("phi in %b{to} has no value for %b{from}"))?;
                    let v = self.get(v)?;
                    args.push(BlockArg::Value(v));
                }
                Inst::ForwardDecl { .. } => {}
                _ => break,
            }
        }
        Ok(args)
    }

    pub(super) fn has_phis(&self, b: u32) -> bool {
        self.block_insts(b as usize)
            .map(|i| &self.body.insts[i])
            .find(|i| !matches!(i, Inst::ForwardDecl { .. }))
            .is_some_and(|i| matches!(i, Inst::Phi { .. }))
    }

    pub(super) fn target(&self, b: u32) -> Result<Block, String> {
        self.blocks.get(b as usize).copied().flatten().ok_or_else(|| format!("branch to unreachable %b{b}"))
    }

    pub(super) fn ret(&mut self, v: Option<Value>) {
        if let Some(slot) = self.saved_sp_slot {
            let sp = self.b.ins().stack_load(I64, I32, slot, 0);
            let vmctx = self.vmctx();
            self.b.ins().store(trusted(), sp, vmctx, abi::VMCTX_GUEST_SP);
        } else if let Some(sp) = self.saved_sp {
            let vmctx = self.vmctx();
            self.b.ins().store(trusted(), sp, vmctx, abi::VMCTX_GUEST_SP);
        }
        if let Some(slot) = self.token_slot {
            let token = self.b.ins().stack_load(I64, I64, slot, 0);
            let vmctx = self.vmctx();
            self.call_host(HostFn::SjljLeave, &[vmctx, token]);
        }
        match v {
            Some(v) => self.b.ins().return_(&[v]),
            None => self.b.ins().return_(&[]),
        };
    }

    pub(super) fn switch(
        &mut self,
        k: usize,
        ty: Ty,
        cond: Value,
        default: u32,
        cases: &[pnacl_bitcode::ir::SwitchCase],
    ) -> Result<(), String> {
        let bits = clif_type(ty).bits();
        let mask: u128 = if bits >= 64 { u64::MAX as u128 } else { (1u128 << bits) - 1 };
        let mut sw = Switch::new();
        // An edge block per target that has phis (the switch cannot pass arguments); it is
        // filled once the switch has ended the current block.
        let mut edge: HashMap<u32, Block> = HashMap::new();
        let mut pending = Vec::new();
        let mut targets = vec![default];
        targets.extend(cases.iter().map(|c| c.target));
        for &t in &targets {
            if edge.contains_key(&t) {
                continue;
            }
            let dest = self.target(t)?;
            let blk = if self.has_phis(t) {
                let e = self.b.create_block();
                pending.push((e, t, dest));
                e
            } else {
                dest
            };
            edge.insert(t, blk);
        }
        let mut used = std::collections::HashSet::new();
        for c in cases {
            let v = (decode_sign_rotated(c.raw) as i128 as u128) & mask;
            if used.insert(v) {
                sw.set_entry(v, edge[&c.target]);
            }
        }
        sw.emit(&mut self.b, cond, edge[&default]);
        for (e, t, dest) in pending {
            self.b.switch_to_block(e);
            let args = self.edge_args(k, t)?;
            self.b.ins().jump(dest, &args);
        }
        Ok(())
    }

    pub(super) fn trap(&mut self, kind: TrapKind) {
        self.b.ins().trap(kind.code());
    }

    /// A conditional branch on `cond` to `on_true` or `on_false`. A condition that is the
    /// `or` or the `and` of two `i1` values, one of them a float compare, branches on each
    /// in turn: both are computed already, without side effects, so looking at the second
    /// only when the first does not decide changes nothing, and each compare then fuses
    /// with its own branch instead of being turned into a byte (several instructions for a
    /// float compare, which must look at the parity flag too) and combined. Integer
    /// compares are left combined: they are cheap as bytes, and two branches where there
    /// was one can cost more in mispredictions than they save (measured on fasta).
    pub(super) fn cond_branch(
        &mut self,
        cond: ValueId,
        on_true: (Block, &[BlockArg]),
        on_false: (Block, &[BlockArg]),
    ) -> Result<(), String> {
        if let Some((op, lhs, rhs)) = self.logical_of_bools(cond) {
            let next = self.b.create_block();
            if op == BinOp::Or {
                self.cond_branch(lhs, on_true, (next, &[]))?;
            } else {
                self.cond_branch(lhs, (next, &[]), on_false)?;
            }
            self.b.switch_to_block(next);
            return self.cond_branch(rhs, on_true, on_false);
        }
        let c = self.get(cond)?;
        self.b.ins().brif(c, on_true.0, on_true.1, on_false.0, on_false.1);
        Ok(())
    }

    /// The operator and operands of `v` if it is the `or` or `and` of two `i1` values
    /// (outside setjmp mode, which stays a literal translation).
    fn logical_of_bools(&self, v: ValueId) -> Option<(BinOp, ValueId, ValueId)> {
        if self.setjmp_mode {
            return None;
        }
        match *self.def_inst(v)? {
            Inst::Binop { op: op @ (BinOp::Or | BinOp::And), lhs, rhs, .. }
                if self.ty(lhs) == Ty::I1 && (self.is_float_compare(lhs) || self.is_float_compare(rhs)) =>
            {
                Some((op, lhs, rhs))
            }
            _ => None,
        }
    }

    /// True if `v` is the result of a float compare.
    fn is_float_compare(&self, v: ValueId) -> bool {
        matches!(self.def_inst(v), Some(Inst::Cmp { pred, .. }) if !pred.is_integer())
    }
}
