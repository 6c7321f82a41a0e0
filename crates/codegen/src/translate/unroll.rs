//! Unrolling of small counted loops: a basic block that branches back to itself, counting
//! an `i32` induction variable up by one until it equals a bound fixed outside the loop.
//!
//! Cranelift does not unroll. In a loop of a few instructions (fasta's count of the
//! probabilities below a random number: load, compare, add) the increment, the exit
//! compare and the branch are a third of the work. The block is translated as four:
//!
//! - a header, which the loop's predecessors jump to, with the block's phis as
//!   parameters: it goes to the unrolled copy when at least [`FACTOR`] iterations remain,
//!   otherwise to the single copy;
//! - the unrolled copy: the body [`FACTOR`] times in a row, each copy's phis taking the
//!   values the previous copy passes along the back edge; only the last copy tests for
//!   the end (the others' compares are left dead), going out or back to the header;
//! - the single copy: the block as written, going out or round itself;
//! - the way out, which both copies branch to with the values the block defines and
//!   uses elsewhere: the translation after the loop sees those as its parameters, so
//!   every use is dominated by its definition whichever copy ran last.
//!
//! Iterations run in the same order with the same operands, so the translation means the
//! same.

use super::Translator;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{Block, BlockArg, InstBuilder, Value};
use pnacl_bitcode::ir::{BinOp, Inst, Ty, ValueId};

/// Copies of the body in the unrolled block.
const FACTOR: u32 = 4;

/// The most instructions (besides phis and the branch) a block may have to be unrolled:
/// beyond this, the loop overhead saved is a small part of the body.
const MAX_BODY: usize = 16;

/// A counted self-loop (see the module documentation).
pub(super) struct CountedLoop {
    /// The position of the induction variable among the block's phis.
    iv_param: usize,
    /// The value the incremented induction variable is compared with.
    bound: ValueId,
    /// The branch's condition, and whether the loop goes on when it is true.
    cond: ValueId,
    goes_on_when_true: bool,
    /// The basic block the loop leaves to.
    out: u32,
}

impl Translator<'_, '_, '_> {
    /// The counted loop basic block `k` is, if it is one this translation unrolls.
    pub(super) fn counted_loop(&self, k: usize) -> Option<CountedLoop> {
        // The entry block has no phis to carry values around.
        if !self.env.unroll_loops || self.setjmp_mode || k == 0 {
            return None;
        }
        let insts = self.block_insts(k);
        let last = insts.end.checked_sub(1)?;
        let Inst::CondBr { cond, on_true, on_false } = self.body.insts[last] else { return None };
        let k32 = k as u32;
        // Which way the loop goes on: `eq` exits when true, `ne` goes on when true.
        let (goes_on_when_true, out) = match (on_true == k32, on_false == k32) {
            (false, true) => (false, on_true),
            (true, false) => (true, on_false),
            _ => return None,
        };
        let Inst::Cmp { pred, lhs, rhs } = *self.def_in(k, cond)? else { return None };
        if pred.0 != if goes_on_when_true { 33 } else { 32 } {
            return None;
        }
        let mut phis = Vec::new();
        let mut body = 0;
        for i in insts.start..last {
            match self.body.insts[i] {
                Inst::Phi { .. } => phis.push(i),
                Inst::ForwardDecl { .. } => {}
                Inst::Binop { .. } | Inst::Cast { .. } | Inst::Cmp { .. } | Inst::Select { .. } => body += 1,
                Inst::Load { .. } | Inst::Store { .. } => body += 1,
                _ => return None,
            }
        }
        if body > MAX_BODY {
            return None;
        }
        // `lhs == rhs`: one side is the induction variable plus one, the other is fixed
        // outside the loop.
        let (next, bound) = if self.def_in(k, lhs).is_some() { (lhs, rhs) } else { (rhs, lhs) };
        if self.def_in(k, bound).is_some() || self.ty(next) != Ty::I32 {
            return None;
        }
        let Inst::Binop { op: BinOp::Add, lhs: a, rhs: b, .. } = *self.def_in(k, next)? else { return None };
        let one = |v| self.const_int(v) == Some(1);
        let iv = match (one(a), one(b)) {
            (false, true) => a,
            (true, false) => b,
            _ => return None,
        };
        let iv_phi = phis.iter().position(|&i| self.results[i].is_some_and(|l| l + self.fg == iv.0))?;
        let Inst::Phi { incoming, .. } = self.body.insts[phis[iv_phi]] else { return None };
        // The induction variable takes the incremented value around the loop.
        let mut back = self.body.incoming(incoming).filter(|&(_, from)| from == k32);
        if back.next()?.0 != next || back.next().is_some() {
            return None;
        }
        Some(CountedLoop { iv_param: iv_phi, bound, cond, goes_on_when_true, out })
    }

    /// Translates basic block `k`, the counted loop `l`, unrolled (see the module
    /// documentation).
    pub(super) fn unrolled_block(&mut self, k: usize, l: &CountedLoop) -> Result<(), String> {
        let header = self.blocks[k].expect("reachable");
        self.b.switch_to_block(header);
        // The static frame, if it is allocated here, is allocated once per entry to the
        // header: it is the same frame however often it is allocated.
        self.late_frame_at(k as u32);
        let params: Vec<Value> = self.b.block_params(header).to_vec();
        let unrolled = self.block_like(&params);
        let single = self.block_like(&params);
        // Iterations left, counting this one: `bound - iv`, where 0 means 2**32; at least
        // `FACTOR` when `left - 1 >= FACTOR - 1`, unsigned.
        let bound = self.get(l.bound)?;
        let left = self.b.ins().isub(bound, params[l.iv_param]);
        let left_minus_one = self.b.ins().iadd_imm_s(left, -1);
        let enough = self.b.ins().icmp_imm_u(IntCC::UnsignedGreaterThanOrEqual, left_minus_one, i64::from(FACTOR) - 1);
        let args = block_args(&params);
        self.b.ins().brif(enough, unrolled, &args, single, &args);

        let live_out = self.live_out(k);
        let live_types: Vec<_> = live_out.iter().map(|&local| self.local_type(local)).collect();
        let exit = self.b.create_block();
        for &t in &live_types {
            self.b.append_block_param(exit, t);
        }

        self.b.switch_to_block(unrolled);
        let mut carried = self.b.block_params(unrolled).to_vec();
        for _ in 0..FACTOR {
            self.loop_body(k, &carried)?;
            carried = arg_values(&self.edge_args(k, k as u32)?)?;
        }
        // The last copy's test, on its values.
        self.loop_branch(l, &live_out, exit, header, &carried)?;

        self.b.switch_to_block(single);
        let values = self.b.block_params(single).to_vec();
        self.loop_body(k, &values)?;
        let carried = arg_values(&self.edge_args(k, k as u32)?)?;
        self.loop_branch(l, &live_out, exit, single, &carried)?;

        // The way out: the block's values used after the loop are the join's parameters.
        self.b.switch_to_block(exit);
        let joined = self.b.block_params(exit).to_vec();
        for (&local, v) in live_out.iter().zip(joined) {
            self.define(local, v);
        }
        let args = self.edge_args(k, l.out)?;
        let target = self.target(l.out)?;
        self.b.ins().jump(target, &args);
        Ok(())
    }

    /// A new block with parameters of the types of `params`.
    fn block_like(&mut self, params: &[Value]) -> Block {
        let blk = self.b.create_block();
        for &p in params {
            let t = self.b.func.dfg.value_type(p);
            self.b.append_block_param(blk, t);
        }
        blk
    }

    /// Translates the instructions of basic block `k` but its branch, with its phis taking
    /// `values`.
    fn loop_body(&mut self, k: usize, values: &[Value]) -> Result<(), String> {
        let insts = self.block_insts(k);
        let mut param = 0;
        for i in insts.start..insts.end - 1 {
            match self.body.insts[i] {
                Inst::ForwardDecl { .. } => {}
                Inst::Phi { .. } => {
                    let local = self.results[i].ok_or("phi without a result")?;
                    let v = *values.get(param).ok_or("more phis than block parameters")?;
                    self.define(local, v);
                    param += 1;
                }
                _ => self.instruction(k, i)?,
            }
        }
        Ok(())
    }

    /// The branch of the loop `l`, translated after [`Translator::loop_body`]: out of the
    /// loop to `exit` with the values of `live_out`, or around it to `again` with `carried`.
    fn loop_branch(
        &mut self,
        l: &CountedLoop,
        live_out: &[u32],
        exit: Block,
        again: Block,
        carried: &[Value],
    ) -> Result<(), String> {
        let mut out = Vec::with_capacity(live_out.len());
        for &local in live_out {
            out.push(BlockArg::Value(self.get(ValueId(local + self.fg))?));
        }
        let around = block_args(carried);
        let c = self.get(l.cond)?;
        if l.goes_on_when_true {
            self.b.ins().brif(c, again, &around, exit, &out);
        } else {
            self.b.ins().brif(c, exit, &out, again, &around);
        }
        Ok(())
    }

    /// The values basic block `k` defines that are used outside it (including by its own
    /// phis, on edges from other blocks), as locals, in order.
    fn live_out(&self, k: usize) -> Vec<u32> {
        let inside = self.block_insts(k);
        let mut used = vec![false; inside.len()];
        for (i, inst) in self.body.insts.iter().enumerate() {
            let within = inside.contains(&i);
            inst.for_each_operand(self.body, |v, from| {
                if within && from.is_none_or(|b| b as usize == k) {
                    return;
                }
                if let Some(def) = self.def_index(v)
                    && inside.contains(&def)
                {
                    used[def - inside.start] = true;
                }
            });
        }
        inside.clone().filter(|&i| used[i - inside.start]).filter_map(|i| self.results[i]).collect()
    }

    /// The instruction that defines `v`, if it is in basic block `k`.
    fn def_in(&self, k: usize, v: ValueId) -> Option<&Inst> {
        let def = self.def_index(v)?;
        self.block_insts(k).contains(&def).then(|| &self.body.insts[def])
    }
}

/// Block arguments passing `values`.
fn block_args(values: &[Value]) -> Vec<BlockArg> {
    values.iter().map(|&v| BlockArg::Value(v)).collect()
}

/// The values edge arguments pass (edge arguments are always plain values).
fn arg_values(args: &[BlockArg]) -> Result<Vec<Value>, String> {
    args.iter()
        .map(|a| match a {
            BlockArg::Value(v) => Ok(*v),
            _ => Err("an edge argument that is not a value".to_string()),
        })
        .collect()
}
