//! Which values stay on the wasm stack: a value with one use, later in the same node, is
//! computed at its use instead of being stored in a local and read back.
//!
//! Moving a computation to its use is always right for pure ones (arithmetic, compares,
//! casts, selects, lanes): their operands are locals that do not change within a node.
//! A load, a call or a trapping division may move only past pure instructions, so that
//! memory effects and traps keep their order: it moves if every instruction between it
//! and the place it lands (the root of its expression tree: the first user that is
//! computed in place) is pure, and no other such instruction moved into that tree (so the
//! order of operands within the tree cannot matter).

use super::Func;
use pnacl_bitcode::abi::IntrinsicKind as K;
use pnacl_bitcode::ir::{BinOp, Inst};

/// The deepest expression tree built (their emission recurses once a level).
const MAX_DEPTH: u32 = 64;

/// Marks a use count that cannot be stackified (a phi's incoming value, or a use in
/// another node).
pub(super) const MANY: u32 = u32::MAX;

/// Work arrays of [`Func::stackify`], kept across the nodes of a function.
#[derive(Default)]
pub(super) struct Scratch {
    next_effect: Vec<usize>,
    pure: Vec<bool>,
    root: Vec<usize>,
    impure_in: Vec<u32>,
    depth: Vec<u32>,
}

impl Func<'_, '_> {
    /// True if instruction `i` has no effect and cannot trap.
    pub(super) fn is_pure(&self, i: usize) -> bool {
        match self.body.insts[i] {
            Inst::Binop { op, lhs, .. } => {
                !matches!(op, BinOp::UDiv | BinOp::SDiv | BinOp::URem | BinOp::SRem)
                    || self.ty(lhs).element().is_float()
            }
            Inst::Cast { .. } | Inst::Cmp { .. } | Inst::Select { .. } => true,
            Inst::ExtractElement { .. } | Inst::InsertElement { .. } => true,
            Inst::Call { callee, indirect_ret: None, .. } => self.env.intrinsic(callee.0).is_some_and(|intr| {
                matches!(
                    intr.kind,
                    K::Bswap | K::Ctlz | K::Cttz | K::Ctpop | K::Fabs | K::Sqrt | K::ReadTp | K::AtomicIsLockFree
                )
            }),
            _ => false,
        }
    }

    /// Decides which instruction results of instructions `start..end` (one node) are
    /// computed at their use.
    pub(super) fn stackify(&mut self, start: usize, end: usize) {
        // Per-node work arrays come from (and go back to) the function's scratch space: a
        // fresh allocation per node cost more than the analysis of a typical small block.
        let mut s = std::mem::take(&mut self.scratch);
        let len = end - start;
        // The first instruction at or after each position that is not pure, and whether
        // each instruction is pure.
        s.next_effect.clear();
        s.next_effect.resize(len + 1, end);
        s.pure.clear();
        s.pure.resize(len, false);
        for i in (start..end).rev() {
            s.pure[i - start] = self.is_pure(i);
            s.next_effect[i - start] = if s.pure[i - start] { s.next_effect[i + 1 - start] } else { i };
        }
        // Root of each instruction's tree, and how many impure instructions moved into
        // each root's tree, filled from the end.
        s.root.clear();
        s.root.resize(len, 0);
        s.impure_in.clear();
        s.impure_in.resize(len, 0);
        for i in (start..end).rev() {
            s.root[i - start] = i;
            let v = self.inst_value[i];
            if v == u32::MAX || self.stacked[v as usize] {
                continue;
            }
            let Some(user) = self.single_use(v) else { continue };
            if user <= i || user >= end {
                continue;
            }
            if matches!(self.body.insts[i], Inst::Phi { .. }) || self.static_alloca(i).is_some() {
                continue;
            }
            let r = s.root[user - start];
            if s.pure[i - start] {
                self.stacked[v as usize] = true;
                s.root[i - start] = r;
            } else if s.next_effect[i + 1 - start] >= r && s.impure_in[r - start] == 0 {
                self.stacked[v as usize] = true;
                s.root[i - start] = r;
                s.impure_in[r - start] += 1;
            }
        }
        // A tree is no deeper than the node has instructions: most nodes need no check.
        if len > MAX_DEPTH as usize {
            self.limit_depth(start, end, &mut s.depth);
        }
        self.scratch = s;
    }

    /// Keeps the trees at most [`MAX_DEPTH`] deep: an operand whose tree would make its
    /// user's deeper is computed in place instead (always correct: that is where it was).
    fn limit_depth(&mut self, start: usize, end: usize, depth: &mut Vec<u32>) {
        depth.clear();
        depth.resize(end - start, 0);
        let first = self.space.first_inst();
        // `%vN` if it is an operand computed in place by an instruction in `start..i`,
        // with that instruction.
        let stacked_operand = |this: &Self, i: usize, v: pnacl_bitcode::ir::ValueId| {
            let n = v.0.checked_sub(first)?;
            let &k = this.value_inst.get(n as usize)?;
            ((start..i).contains(&(k as usize)) && this.stacked[n as usize]).then_some((n, k as usize))
        };
        for i in start..end {
            let mut deepest = 0;
            self.body.insts[i].for_each_operand(self.body, |v, _| {
                if let Some((_, k)) = stacked_operand(self, i, v) {
                    deepest = deepest.max(depth[k - start]);
                }
            });
            if deepest + 1 > MAX_DEPTH {
                let mut unstack = Vec::new();
                self.body.insts[i].for_each_operand(self.body, |v, _| {
                    if let Some((n, _)) = stacked_operand(self, i, v) {
                        unstack.push(n);
                    }
                });
                for n in unstack {
                    self.stacked[n as usize] = false;
                }
                depth[i - start] = 1;
            } else {
                depth[i - start] = deepest + 1;
            }
        }
    }

    /// The instruction using `%vN` if it has exactly one use, by an instruction that is
    /// not a phi.
    fn single_use(&self, v: u32) -> Option<usize> {
        (self.uses[v as usize] == 1).then(|| self.use_at[v as usize] as usize)
    }
}
