//! Terminators and edges: conditional branches, switches and dispatches (`br_table`, or a
//! chain of compares where the cases are sparse), returns, and what an edge does when it
//! is taken (phi copies, the dispatch label).

use super::Func;
use super::structure::{Ctx, Shape, Work};
use crate::cfg::{Edge, Graph, NodeId, NodeKind};
use crate::error::Refusal;
use pnacl_bitcode::ir::{Inst, Ty, ValueId};
use wasm_encoder::{BlockType, ValType};

/// Most entries of a `br_table` made for a switch, and how sparse its cases may be.
const MAX_TABLE: u64 = 1 << 16;

impl Func<'_, '_> {
    /// Emits node `x`'s code and terminator; pushes the work its edges need.
    pub(super) fn node(
        &mut self,
        g: &Graph,
        shape: &Shape<'_>,
        x: NodeId,
        work: &mut Vec<Work>,
    ) -> Result<(), Refusal> {
        let node = &g.nodes[x as usize];
        let succ = &node.succ[..];
        match node.kind {
            NodeKind::Jump => {
                if let Some(&e) = succ.first() {
                    work.push(Work::Branch(x, e));
                } else {
                    self.sink().unreachable();
                    self.terminated = true;
                }
            }
            NodeKind::Dispatch => {
                let label = self.label();
                let cases: Vec<(u64, usize)> = (0..succ.len().saturating_sub(1)).map(|k| (k as u64, k)).collect();
                self.table(shape, x, succ, Selector::Local(label, Ty::I32), &cases, succ.len() - 1, work)?;
            }
            NodeKind::Code { start, end, .. } => {
                let (start, end) = (start as usize, end as usize);
                self.resume_prologue(g, x);
                if self.frame.as_ref().is_some_and(|f| f.at == Some(x)) {
                    self.allocate_frame();
                }
                self.code(start, end)?;
                let last = end.checked_sub(1).map(|i| (i, self.body.insts[i]));
                match last {
                    Some((i, inst)) if inst.is_terminator() => self.terminator(shape, x, i, succ, work)?,
                    _ if succ.len() == 1 => work.push(Work::Branch(x, succ[0])),
                    _ => {
                        self.sink().unreachable();
                        self.terminated = true;
                    }
                }
            }
        }
        Ok(())
    }

    fn terminator(
        &mut self,
        shape: &Shape<'_>,
        x: NodeId,
        i: usize,
        succ: &[Edge],
        work: &mut Vec<Work>,
    ) -> Result<(), Refusal> {
        match self.body.insts[i] {
            Inst::Ret { val } => {
                if let Some(v) = val {
                    self.push(v)?;
                }
                self.epilogue();
                self.sink().return_();
                self.terminated = true;
            }
            Inst::Unreachable => {
                self.sink().unreachable();
                self.terminated = true;
            }
            Inst::Br { .. } => match succ.first() {
                Some(&e) => work.push(Work::Branch(x, e)),
                None => self.refuse_branch(i)?,
            },
            Inst::CondBr { cond, .. } => {
                let [t, f] = succ else { return self.refuse_branch(i) };
                let (t, f) = (*t, *f);
                self.push_zext(cond)?;
                if plain(&t) && shape.is_br(x, t.to) {
                    self.br_if(t.to)?;
                    work.push(Work::Branch(x, f));
                } else if plain(&f) && shape.is_br(x, f.to) {
                    self.sink().i32_eqz();
                    self.br_if(f.to)?;
                    work.push(Work::Branch(x, t));
                } else {
                    self.sink().if_(BlockType::Empty);
                    self.ctx.push(Ctx::Anon);
                    work.extend([Work::End, Work::Branch(x, f), Work::Else, Work::Branch(x, t)]);
                }
            }
            Inst::Switch { ty, cond, cases } => {
                let list = self.body.switch_cases(cases);
                if succ.len() != list.len() + 1 {
                    return self.refuse_branch(i);
                }
                let mask = if ty.bits() >= 64 { u64::MAX } else { (1u64 << ty.bits()) - 1 };
                let values: Vec<(u64, usize)> =
                    list.iter().enumerate().map(|(k, c)| (c.value() as u64 & mask, k + 1)).collect();
                self.table(shape, x, succ, Selector::Value(cond, ty), &values, 0, work)?;
            }
            _ => self.refuse_branch(i)?,
        }
        Ok(())
    }

    fn refuse_branch(&self, i: usize) -> Result<(), Refusal> {
        Err(self.refuse(i, "its targets are not blocks of the function"))
    }

    /// `br_if` to node `to`'s label.
    fn br_if(&mut self, to: NodeId) -> Result<(), Refusal> {
        let depth = self.depth(to).ok_or_else(|| Refusal::internal(self, "a branch target is not enclosing"))?;
        self.sink().br_if(depth);
        Ok(())
    }

    /// The local a dispatch reads.
    pub(super) fn label(&mut self) -> u32 {
        match self.label_local {
            Some(l) => l,
            None => {
                let l = self.new_local(ValType::I32);
                self.label_local = Some(l);
                l
            }
        }
    }

    /// A multiway branch: `cases` maps selector values to edges (indices into `succ`);
    /// anything else takes `succ[default]`. Edges that only branch go straight to their
    /// label; the others get a block each, after which their work is done.
    #[allow(clippy::too_many_arguments)]
    fn table(
        &mut self,
        shape: &Shape<'_>,
        x: NodeId,
        succ: &[Edge],
        sel: Selector,
        cases: &[(u64, usize)],
        default: usize,
        work: &mut Vec<Work>,
    ) -> Result<(), Refusal> {
        // Distinct edges needing code, in first-use order; `slot[k]` is edge k's group.
        let mut groups: Vec<Edge> = Vec::new();
        let mut slot = vec![usize::MAX; succ.len()];
        for (k, e) in succ.iter().enumerate() {
            if plain(e) && shape.is_br(x, e.to) {
                continue;
            }
            slot[k] = match groups.iter().position(|g| g == e) {
                Some(p) => p,
                None => {
                    groups.push(*e);
                    groups.len() - 1
                }
            };
        }
        // Open the groups' blocks; the last group's is outermost.
        for _ in &groups {
            self.sink().block(BlockType::Empty);
            self.ctx.push(Ctx::Anon);
        }
        let target = |this: &Self, k: usize| -> Result<u32, Refusal> {
            if slot[k] != usize::MAX {
                Ok(slot[k] as u32)
            } else {
                this.depth(succ[k].to).ok_or_else(|| Refusal::internal(this, "a branch target is not enclosing"))
            }
        };
        let default_target = target(self, default)?;
        let min = cases.iter().map(|c| c.0).min().unwrap_or(0);
        let max = cases.iter().map(|c| c.0).max().unwrap_or(0);
        let span = max - min;
        let dense = !cases.is_empty() && span < MAX_TABLE && span <= 4 * cases.len() as u64 + 8;
        let wide = sel.ty() == Ty::I64;
        if cases.is_empty() {
            self.sink().br(default_target);
        } else if dense && !wide {
            let mut entries = vec![default_target; span as usize + 1];
            for &(v, k) in cases.iter().rev() {
                entries[(v - min) as usize] = target(self, k)?;
            }
            self.push_selector(sel)?;
            if min != 0 {
                self.sink().i32_const(min as i32).i32_sub();
            }
            self.sink().br_table(entries, default_target);
        } else {
            let t = self.temp(if wide { ValType::I64 } else { ValType::I32 });
            self.push_selector(sel)?;
            self.sink().local_set(t);
            for &(v, k) in cases {
                let depth = target(self, k)?;
                let mut s = self.sink();
                s.local_get(t);
                if wide {
                    s.i64_const(v as i64).i64_eq();
                } else {
                    s.i32_const(v as i32).i32_eq();
                }
                s.br_if(depth);
            }
            self.free_temp(if wide { ValType::I64 } else { ValType::I32 }, t);
            self.sink().br(default_target);
        }
        self.terminated = true;
        // After each group's block: its edge. Innermost first.
        for g in groups.iter().rev() {
            work.push(Work::Branch(x, *g));
            work.push(Work::End);
        }
        Ok(())
    }

    fn push_selector(&mut self, sel: Selector) -> Result<(), Refusal> {
        match sel {
            Selector::Local(l, _) => {
                self.sink().local_get(l);
            }
            Selector::Value(v, _) => self.push_zext(v)?,
        }
        Ok(())
    }

    /// What taking an edge does: the phi copies of the block it leads to (all values
    /// pushed, then stored, so the phis read their sources at once) and the label.
    pub(super) fn edge_actions(&mut self, e: &Edge) -> Result<(), Refusal> {
        if let Some((from, to)) = e.phis {
            let mut stores = std::mem::take(&mut self.phi_stores);
            stores.clear();
            for i in self.body.block_insts(to as usize) {
                let (incoming, ty) = match self.body.insts[i] {
                    Inst::Phi { incoming, ty } => (incoming, ty),
                    Inst::ForwardDecl { .. } => continue,
                    _ => break,
                };
                let n = self.inst_value[i];
                if n == u32::MAX || self.uses[n as usize] == 0 {
                    continue;
                }
                match self.body.incoming(incoming).find(|&(_, b)| b == from) {
                    Some((v, _)) => self.push(v)?,
                    None => self.zero(ty),
                }
                stores.push(self.local(n));
            }
            for &l in stores.iter().rev() {
                self.sink().local_set(l);
            }
            self.phi_stores = stores;
        }
        if let Some(k) = e.label {
            let l = self.label();
            self.sink().i32_const(k as i32).local_set(l);
        }
        Ok(())
    }
}

/// A multiway branch's selector.
#[derive(Clone, Copy)]
enum Selector {
    /// A local of this type.
    Local(u32, Ty),
    /// A value.
    Value(ValueId, Ty),
}

impl Selector {
    fn ty(&self) -> Ty {
        match *self {
            Selector::Local(_, t) | Selector::Value(_, t) => t,
        }
    }
}

/// True if taking the edge does nothing but branch.
fn plain(e: &Edge) -> bool {
    e.phis.is_none() && e.label.is_none()
}
