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
        // The first instruction at or after each position that is not pure.
        let mut next_effect = vec![end; end - start + 1];
        for i in (start..end).rev() {
            next_effect[i - start] = if self.is_pure(i) { next_effect[i + 1 - start] } else { i };
        }
        // Root of each instruction's tree, and how many impure instructions moved into
        // each root's tree, filled from the end.
        let mut root = vec![0usize; end - start];
        let mut impure_in = vec![0u32; end - start];
        for i in (start..end).rev() {
            root[i - start] = i;
            let v = self.inst_value[i];
            if v == u32::MAX || self.stacked[v as usize] {
                continue;
            }
            if matches!(self.body.insts[i], Inst::Phi { .. }) || self.static_alloca(i).is_some() {
                continue;
            }
            let Some(user) = self.single_use(v) else { continue };
            if user <= i || user >= end {
                continue;
            }
            let r = root[user - start];
            if self.is_pure(i) {
                self.stacked[v as usize] = true;
                root[i - start] = r;
            } else if next_effect[i + 1 - start] >= r && impure_in[r - start] == 0 {
                self.stacked[v as usize] = true;
                root[i - start] = r;
                impure_in[r - start] += 1;
            }
        }
        self.limit_depth(start, end);
    }

    /// Keeps the trees at most [`MAX_DEPTH`] deep: an operand whose tree would make its
    /// user's deeper is computed in place instead (always correct: that is where it was).
    fn limit_depth(&mut self, start: usize, end: usize) {
        let mut depth = vec![0u32; end - start];
        let first = self.space.first_inst();
        for i in start..end {
            let mut operands = Vec::new();
            self.body.insts[i].for_each_operand(self.body, |v, _| {
                if let Some(n) = v.0.checked_sub(first)
                    && let Some(&k) = self.value_inst.get(n as usize)
                    && (start..i).contains(&(k as usize))
                    && self.stacked[n as usize]
                {
                    operands.push((n, k as usize));
                }
            });
            let deepest = operands.iter().map(|&(_, k)| depth[k - start]).max().unwrap_or(0);
            if deepest + 1 > MAX_DEPTH {
                for &(n, _) in &operands {
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
