//! The control flow of a function body: successors, reverse postorder, dominators, and the
//! SSA rule that a value's definition dominates each of its uses.
//!
//! The reader checks that a value is declared before it is used, but a forward declaration
//! lets a value be used anywhere; only dominance says whether the use can see it. LLVM's
//! verifier (and so the original toolchain) rejects such a module; [`check_dominance`]
//! finds the first offending use.

use super::{FunctionBody, Inst, Module, ValueId};
use std::ops::Range;

impl FunctionBody {
    /// Replaces every value operand `v` of every instruction, those in the operand pool
    /// included, by `f(v)`.
    pub fn map_operands(&mut self, f: impl Fn(ValueId) -> ValueId) {
        for k in 0..self.insts.len() {
            let inst = self.insts[k].map_operands(&f);
            self.insts[k] = inst;
            match inst {
                Inst::Call { args, .. } => {
                    for v in &mut self.operands[args.range()] {
                        *v = f(ValueId(*v)).0;
                    }
                }
                Inst::Phi { incoming, .. } => {
                    for pair in self.operands[incoming.range()].chunks_exact_mut(2) {
                        pair[0] = f(ValueId(pair[0])).0;
                    }
                }
                _ => {}
            }
        }
    }

    /// The instructions of basic block `k` (indices into `insts`).
    pub fn block_insts(&self, k: usize) -> Range<usize> {
        let start = self.block_starts.get(k).map_or(self.insts.len(), |&s| s as usize);
        let end = self.block_starts.get(k + 1).map_or(self.insts.len(), |&s| s as usize);
        start..end.max(start)
    }

    /// The successors of basic block `k`: the targets of its terminator, in operand order
    /// (a switch's default first).
    pub fn successors(&self, k: usize) -> Vec<u32> {
        let mut s = Vec::new();
        self.for_each_successor(k, |t| s.push(t));
        s
    }

    /// Calls `f` with each successor of basic block `k`, as [`FunctionBody::successors`]
    /// lists them.
    pub fn for_each_successor(&self, k: usize, f: impl FnMut(u32)) {
        if let Some(i) = self.block_insts(k).last() {
            self.insts[i].for_each_target(self, f);
        }
    }
}

impl Inst {
    /// Calls `f` with each block a terminator branches to (a switch's default first).
    #[inline]
    pub fn for_each_target(&self, body: &FunctionBody, mut f: impl FnMut(u32)) {
        match *self {
            Inst::Br { target } => f(target),
            Inst::CondBr { on_true, on_false, .. } => {
                f(on_true);
                f(on_false);
            }
            Inst::Switch { cases, .. } => {
                f(body.switch_default(cases));
                body.switch_cases(cases).iter().for_each(|c| f(c.target));
            }
            _ => {}
        }
    }

    /// Calls `f` with each value operand; a phi's incoming values come with their block.
    #[inline]
    pub fn for_each_operand(&self, body: &FunctionBody, mut f: impl FnMut(ValueId, Option<u32>)) {
        match *self {
            Inst::Binop { lhs, rhs, .. } | Inst::Cmp { lhs, rhs, .. } => {
                f(lhs, None);
                f(rhs, None);
            }
            Inst::Cast { val, .. } => f(val, None),
            Inst::Select { cond, on_true, on_false } => {
                f(cond, None);
                f(on_true, None);
                f(on_false, None);
            }
            Inst::ExtractElement { vector, index } => {
                f(vector, None);
                f(index, None);
            }
            Inst::InsertElement { vector, element, index } => {
                f(vector, None);
                f(element, None);
                f(index, None);
            }
            Inst::Alloca { size, .. } => f(size, None),
            Inst::Load { ptr, .. } => f(ptr, None),
            Inst::Store { ptr, val, .. } => {
                f(ptr, None);
                f(val, None);
            }
            Inst::Ret { val } => {
                if let Some(v) = val {
                    f(v, None);
                }
            }
            Inst::CondBr { cond, .. } => f(cond, None),
            Inst::Switch { cond, .. } => f(cond, None),
            Inst::Phi { incoming, .. } => {
                for (v, b) in body.incoming(incoming) {
                    f(v, Some(b));
                }
            }
            Inst::Call { callee, indirect_ret, args, .. } => {
                if indirect_ret.is_some() {
                    f(callee, None);
                }
                for a in body.args(args) {
                    f(a, None);
                }
            }
            Inst::Br { .. } | Inst::Unreachable | Inst::ForwardDecl { .. } => {}
        }
    }

    /// The instruction with each value operand `v` that it holds itself replaced by
    /// `f(v)`: the operands [`Inst::for_each_operand`] visits, but for a call's arguments
    /// and a phi's incoming values, which live in the body's operand pool (see
    /// [`FunctionBody::map_operands`]).
    pub fn map_operands(self, f: impl Fn(ValueId) -> ValueId) -> Inst {
        match self {
            Inst::Binop { op, lhs, rhs, flags } => Inst::Binop { op, lhs: f(lhs), rhs: f(rhs), flags },
            Inst::Cmp { pred, lhs, rhs } => Inst::Cmp { pred, lhs: f(lhs), rhs: f(rhs) },
            Inst::Cast { op, val, to } => Inst::Cast { op, val: f(val), to },
            Inst::Select { cond, on_true, on_false } => {
                Inst::Select { cond: f(cond), on_true: f(on_true), on_false: f(on_false) }
            }
            Inst::ExtractElement { vector, index } => Inst::ExtractElement { vector: f(vector), index: f(index) },
            Inst::InsertElement { vector, element, index } => {
                Inst::InsertElement { vector: f(vector), element: f(element), index: f(index) }
            }
            Inst::Alloca { size, align } => Inst::Alloca { size: f(size), align },
            Inst::Load { ptr, ty, align } => Inst::Load { ptr: f(ptr), ty, align },
            Inst::Store { ptr, val, align } => Inst::Store { ptr: f(ptr), val: f(val), align },
            Inst::Ret { val } => Inst::Ret { val: val.map(&f) },
            Inst::CondBr { cond, on_true, on_false } => Inst::CondBr { cond: f(cond), on_true, on_false },
            Inst::Switch { ty, cond, cases } => Inst::Switch { ty, cond: f(cond), cases },
            Inst::Call { tail, callee, indirect_ret: Some(ret), args } => {
                Inst::Call { tail, callee: f(callee), indirect_ret: Some(ret), args }
            }
            other => other,
        }
    }
}

/// Sentinel for "no block".
const NONE: u32 = u32::MAX;

/// The dominator tree of a function body's reachable blocks. [`Dominators::compute`]
/// reuses the buffers of an earlier computation: the verifier and the translator compute
/// one per function, on every function.
#[derive(Clone, Debug, Default)]
pub struct Dominators {
    /// Reachable blocks in reverse postorder (the entry first).
    order: Vec<u32>,
    /// Each block's place in `order` (`NONE` if unreachable).
    rank: Vec<u32>,
    /// Immediate dominators, by rank.
    idom: Vec<u32>,
    /// Preorder and postorder numbers in the dominator tree, by rank, once computed.
    pre: std::cell::RefCell<Vec<u32>>,
    post: std::cell::RefCell<Vec<u32>>,
    numbered: std::cell::Cell<bool>,
    // Scratch: successors and predecessors (offsets into flat arrays), the walk's stack.
    succ_start: Vec<u32>,
    succ: Vec<u32>,
    pred_start: Vec<u32>,
    preds: Vec<u32>,
    fill: Vec<u32>,
    stack: Vec<(u32, u32)>,
}

impl Dominators {
    /// The dominators of `body`.
    pub fn new(body: &FunctionBody) -> Dominators {
        let mut d = Dominators::default();
        d.compute(body);
        d
    }

    /// Computes the dominators of `body` (Cooper, Harvey and Kennedy's iteration).
    pub fn compute(&mut self, body: &FunctionBody) {
        self.succ_start.clear();
        self.succ.clear();
        for k in 0..body.num_blocks as usize {
            self.start_block();
            let succ = &mut self.succ;
            body.for_each_successor(k, |s| succ.push(s));
        }
        self.solve(body.num_blocks as usize);
    }

    /// Starts the successor list of the next block (for [`Dominators::solve`]).
    fn start_block(&mut self) {
        self.succ_start.push(self.succ.len() as u32);
    }

    /// Computes the dominators of `n` blocks whose successors are in `succ` (block `k`'s
    /// from `succ_start[k]`; targets out of range are ignored).
    fn solve(&mut self, n: usize) {
        self.succ_start.resize(n, self.succ.len() as u32);
        self.succ_start.push(self.succ.len() as u32);
        self.succ.iter_mut().for_each(|s| {
            if *s as usize >= n {
                *s = 0;
            }
        });
        let (succ_start, succ) = (&self.succ_start, &self.succ);
        let succs = |k: usize| &succ[succ_start[k] as usize..succ_start[k + 1] as usize];
        // Reverse postorder by an iterative depth-first search.
        self.order.clear();
        self.rank.clear();
        self.rank.resize(n, NONE);
        self.stack.clear();
        if n > 0 {
            self.stack.push((0, 0));
            self.rank[0] = 0;
            while let Some(&mut (k, ref mut next)) = self.stack.last_mut() {
                if let Some(&s) = succs(k as usize).get(*next as usize) {
                    *next += 1;
                    if self.rank[s as usize] == NONE {
                        self.rank[s as usize] = 0;
                        self.stack.push((s, 0));
                    }
                } else {
                    self.order.push(k);
                    self.stack.pop();
                }
            }
        }
        self.order.reverse();
        for (i, &k) in self.order.iter().enumerate() {
            self.rank[k as usize] = i as u32;
        }
        let m = self.order.len();
        // Predecessors by rank, as offsets into one array.
        counting_sort(
            m,
            self.order
                .iter()
                .enumerate()
                .flat_map(|(r, &k)| succs(k as usize).iter().map(move |&s| (s, r as u32)))
                .map(|(s, r)| (self.rank[s as usize], r)),
            &mut self.pred_start,
            &mut self.preds,
            &mut self.fill,
        );
        // Immediate dominators, by rank.
        self.idom.clear();
        self.idom.resize(m, NONE);
        if m > 0 {
            self.idom[0] = 0;
        }
        let mut changed = m > 1;
        while changed {
            changed = false;
            for r in 1..m {
                let mut new = NONE;
                for &p in &self.preds[self.pred_start[r] as usize..self.pred_start[r + 1] as usize] {
                    if self.idom[p as usize] == NONE {
                        continue;
                    }
                    new = if new == NONE { p } else { intersect(&self.idom, p, new) };
                }
                if new != self.idom[r] {
                    self.idom[r] = new;
                    changed = true;
                }
            }
        }
        self.numbered.set(false);
    }

    /// Numbers the dominator tree so that dominance is an interval test; done on the first
    /// query that would otherwise walk far up the tree.
    fn number(&self) {
        let m = self.order.len();
        let idom = &self.idom;
        let (mut child_start, mut children, mut fill) = (Vec::new(), Vec::new(), Vec::new());
        counting_sort(m, (1..m).map(|r| (idom[r], r as u32)), &mut child_start, &mut children, &mut fill);
        let (mut pre, mut post) = (vec![0; m], vec![0; m]);
        if m > 0 {
            let (mut clock_pre, mut clock_post) = (1, 0);
            let mut stack: Vec<(u32, u32)> = vec![(0, child_start[0])];
            while let Some(&mut (r, ref mut next)) = stack.last_mut() {
                if *next < child_start[r as usize + 1] {
                    let c = children[*next as usize];
                    *next += 1;
                    pre[c as usize] = clock_pre;
                    clock_pre += 1;
                    stack.push((c, child_start[c as usize]));
                } else {
                    post[r as usize] = clock_post;
                    clock_post += 1;
                    stack.pop();
                }
            }
        }
        *self.pre.borrow_mut() = pre;
        *self.post.borrow_mut() = post;
        self.numbered.set(true);
    }

    /// The reachable blocks in reverse postorder.
    pub fn reverse_postorder(&self) -> &[u32] {
        &self.order
    }

    /// True if block `k` is reachable from the entry.
    pub fn is_reachable(&self, k: u32) -> bool {
        self.rank.get(k as usize).is_some_and(|&r| r != NONE)
    }

    /// The nearest block that dominates both `a` and `b` (both reachable).
    pub fn common_dominator(&self, a: u32, b: u32) -> Option<u32> {
        let (&ra, &rb) = (self.rank.get(a as usize)?, self.rank.get(b as usize)?);
        if ra == NONE || rb == NONE {
            return None;
        }
        Some(self.order[intersect(&self.idom, ra, rb) as usize])
    }

    /// True if block `a` dominates block `b` (both reachable; a block dominates itself).
    pub fn dominates(&self, a: u32, b: u32) -> bool {
        let (Some(&ra), Some(&rb)) = (self.rank.get(a as usize), self.rank.get(b as usize)) else { return false };
        if ra == NONE || rb == NONE {
            return false;
        }
        if !self.numbered.get() {
            // Up the tree from `b`: a dominator has a smaller rank. Most answers come in a
            // few steps; a long walk numbers the tree for the queries to come.
            let mut r = rb;
            for _ in 0..32 {
                if r == ra {
                    return true;
                }
                if r < ra || r == 0 {
                    return false;
                }
                r = self.idom[r as usize];
            }
            self.number();
        }
        let (pre, post) = (self.pre.borrow(), self.post.borrow());
        let (ra, rb) = (ra as usize, rb as usize);
        pre[ra] <= pre[rb] && post[rb] <= post[ra]
    }
}

/// Groups `(key, item)` pairs by key (`key < n`) into `items`, with `starts[k]..starts[k+1]`
/// the items of key `k` in their original order.
fn counting_sort(
    n: usize,
    pairs: impl Iterator<Item = (u32, u32)> + Clone,
    starts: &mut Vec<u32>,
    items: &mut Vec<u32>,
    fill: &mut Vec<u32>,
) {
    starts.clear();
    starts.resize(n + 1, 0);
    for (k, _) in pairs.clone() {
        starts[k as usize + 1] += 1;
    }
    for k in 0..n {
        starts[k + 1] += starts[k];
    }
    fill.clear();
    fill.extend_from_slice(starts);
    items.clear();
    items.resize(starts[n] as usize, 0);
    for (k, item) in pairs {
        items[fill[k as usize] as usize] = item;
        fill[k as usize] += 1;
    }
}

/// The nearest common dominator of ranks `a` and `b`.
fn intersect(idom: &[u32], mut a: u32, mut b: u32) -> u32 {
    while a != b {
        while a > b {
            a = idom[a as usize];
        }
        while b > a {
            b = idom[b as usize];
        }
    }
    a
}

/// A way a function body is not in SSA form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SsaError {
    /// A use of `%vN` its definition does not dominate.
    Dominance {
        /// The using instruction (index into `insts`).
        inst: usize,
        /// The block it is in.
        block: u32,
        /// The value used (its number among the instruction results: `%vN`).
        value: u32,
        /// The block defining it.
        def_block: u32,
    },
    /// A phi without an incoming value for a predecessor of its block.
    PhiMissing {
        /// The phi (index into `insts`).
        inst: usize,
        /// Its block.
        block: u32,
        /// The predecessor.
        pred: u32,
    },
    /// A phi with an incoming value for a block that does not branch to its block.
    PhiStray {
        /// The phi (index into `insts`).
        inst: usize,
        /// Its block.
        block: u32,
        /// The incoming block.
        incoming: u32,
    },
    /// A phi with different incoming values for the same predecessor.
    PhiConflict {
        /// The phi (index into `insts`).
        inst: usize,
        /// Its block.
        block: u32,
        /// The predecessor.
        pred: u32,
    },
}

impl SsaError {
    /// The offending instruction (index into `insts`).
    pub fn inst(&self) -> usize {
        match *self {
            SsaError::Dominance { inst, .. }
            | SsaError::PhiMissing { inst, .. }
            | SsaError::PhiStray { inst, .. }
            | SsaError::PhiConflict { inst, .. } => inst,
        }
    }

    /// Its block.
    pub fn block(&self) -> u32 {
        match *self {
            SsaError::Dominance { block, .. }
            | SsaError::PhiMissing { block, .. }
            | SsaError::PhiStray { block, .. }
            | SsaError::PhiConflict { block, .. } => block,
        }
    }
}

impl std::fmt::Display for SsaError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            SsaError::Dominance { block, value, def_block, .. } => write!(
                f,
                "%v{value} is used in %b{block} where its definition (in %b{def_block}) does not dominate the use"
            ),
            SsaError::PhiMissing { block, pred, .. } => {
                write!(f, "phi in %b{block} has no incoming value for its predecessor %b{pred}")
            }
            SsaError::PhiStray { block, incoming, .. } => {
                write!(f, "phi in %b{block} has an incoming value for %b{incoming}, which does not branch to %b{block}")
            }
            SsaError::PhiConflict { block, pred, .. } => {
                write!(f, "phi in %b{block} has different incoming values for %b{pred}")
            }
        }
    }
}

/// The SSA check of function bodies: [`SsaCheck::run`] checks that in every reachable
/// block each use of an instruction result is dominated by its definition (an earlier
/// instruction of the same block, or a dominating block; for a phi, a block that dominates
/// the incoming block). Its buffers are reused from one function to the next.
///
/// Most uses are settled without the dominator tree (the definition is earlier in the same
/// block, or in the entry block); the tree is computed for the first use that needs it.
#[derive(Clone, Debug, Default)]
pub struct SsaCheck {
    /// The dominators of the last function checked, if they were needed (see
    /// [`SsaCheck::dominators`]).
    dominators: Dominators,
    computed: bool,
    /// The value id of the body's first instruction result.
    first: u32,
    /// Where each instruction result is defined: (block, instruction index).
    defs: Vec<(u32, u32)>,
    /// Uses that need the dominator tree, checked at the end: (value, use block, use
    /// instruction, incoming block of a phi or `NONE`).
    pending: Vec<(u32, u32, u32, u32)>,
    /// The phis: (block, instruction index).
    phis: Vec<(u32, u32)>,
    /// Scratch of the phi check: the entries of the phi being checked, by block.
    seen: Vec<u32>,
    value: Vec<u32>,
    stamp: u32,
}

impl SsaCheck {
    /// The dominators of the last function checked by [`SsaCheck::run`] (computed now if
    /// the check did not need them).
    pub fn dominators(&mut self, body: &FunctionBody) -> &Dominators {
        if !self.computed {
            self.dominators.solve(body.num_blocks as usize);
            self.computed = true;
        }
        &self.dominators
    }

    /// Checks function `f` of `m` (a declaration passes).
    pub fn run(&mut self, m: &Module, f: u32) -> Result<(), SsaError> {
        let Some(body) = m.functions.get(f as usize).and_then(|func| func.body.as_ref()) else { return Ok(()) };
        self.begin(m.value_space(f).first_inst());
        for k in 0..body.num_blocks {
            for i in body.block_insts(k as usize) {
                self.visit(body, k, i, m.defines_value(&body.insts[i]));
            }
        }
        self.finish(body)
    }

    /// Starts checking a body whose first instruction result has value id `first`; then
    /// [`SsaCheck::visit`] each instruction in order and [`SsaCheck::finish`]. (A caller
    /// that walks the instructions anyway does it in the same pass.)
    pub fn begin(&mut self, first: u32) {
        self.computed = false;
        self.first = first;
        self.defs.clear();
        self.pending.clear();
        self.phis.clear();
        self.dominators.succ_start.clear();
        self.dominators.succ.clear();
    }

    /// Visits instruction `i`, in block `k`; `defines` if it defines a value. Forward
    /// declarations may be skipped.
    pub fn visit(&mut self, body: &FunctionBody, k: u32, i: usize, defines: bool) {
        // The successors are gathered on the way; the tree is computed from them only if a
        // use needs it.
        while self.dominators.succ_start.len() <= k as usize {
            self.dominators.start_block();
        }
        let inst = &body.insts[i];
        let succ = &mut self.dominators.succ;
        inst.for_each_target(body, |s| succ.push(s));
        if matches!(inst, Inst::Phi { .. }) {
            self.phis.push((k, i as u32));
        }
        let (defs, pending, first) = (&self.defs, &mut self.pending, self.first);
        inst.for_each_operand(body, |v, incoming| {
            let Some(n) = v.0.checked_sub(first) else { return };
            let incoming = incoming.unwrap_or(NONE);
            // Settled without the tree: defined in the entry block (which dominates every
            // reachable block), earlier in this block, or (for a phi) in the incoming block
            // itself. The rest, and uses of values defined further on, wait for the tree.
            let settled = defs.get(n as usize).is_some_and(|&(def_block, def_inst)| {
                def_block == 0
                    || if incoming == NONE { def_block == k && (def_inst as usize) < i } else { def_block == incoming }
            });
            if !settled {
                pending.push((n, k, i as u32, incoming));
            }
        });
        if defines {
            self.defs.push((k, i as u32));
        }
    }

    /// Checks the phis against the predecessors of their blocks, then the uses that need
    /// the dominator tree; the first problem found is the error.
    pub fn finish(&mut self, body: &FunctionBody) -> Result<(), SsaError> {
        if !self.phis.is_empty() {
            self.check_phis(body)?;
        }
        for j in 0..self.pending.len() {
            let (n, k, i, incoming) = self.pending[j];
            let Some(&(def_block, _)) = self.defs.get(n as usize) else { continue };
            self.check_use(body, n, def_block, k, i, incoming)?;
        }
        Ok(())
    }

    /// Each phi has one incoming value for each predecessor of its block, and only for
    /// them (several edges from one block bring the same value).
    fn check_phis(&mut self, body: &FunctionBody) -> Result<(), SsaError> {
        let n = body.num_blocks as usize;
        let d = &mut self.dominators;
        d.succ_start.resize(n, d.succ.len() as u32);
        d.succ_start.push(d.succ.len() as u32);
        // Predecessors of each block, as offsets into one array (duplicates kept).
        let (succ_start, succ) = (&d.succ_start, &d.succ);
        let edges = (0..n).flat_map(|k| {
            succ[succ_start[k] as usize..succ_start[k + 1] as usize]
                .iter()
                .filter(|&&s| (s as usize) < n)
                .map(move |&s| (s, k as u32))
        });
        counting_sort(n, edges, &mut d.pred_start, &mut d.preds, &mut d.fill);
        d.succ_start.pop();
        // `seen[b]` is `stamp` once the current phi has an entry for block `b`, whose value
        // is `value[b]`.
        self.seen.clear();
        self.seen.resize(n, 0);
        self.value.resize(n, 0);
        for &(k, i) in &self.phis {
            let Inst::Phi { incoming, .. } = body.insts[i as usize] else { continue };
            let preds = &d.preds[d.pred_start[k as usize] as usize..d.pred_start[k as usize + 1] as usize];
            self.stamp += 1;
            let stamp = self.stamp;
            for (v, b) in body.incoming(incoming) {
                let inst = i as usize;
                if (b as usize) >= n || !preds.contains(&b) {
                    return Err(SsaError::PhiStray { inst, block: k, incoming: b });
                }
                if self.seen[b as usize] == stamp {
                    if self.value[b as usize] != v.0 {
                        return Err(SsaError::PhiConflict { inst, block: k, pred: b });
                    }
                } else {
                    self.seen[b as usize] = stamp;
                    self.value[b as usize] = v.0;
                }
            }
            if let Some(&pred) = preds.iter().find(|&&p| self.seen[p as usize] != stamp) {
                return Err(SsaError::PhiMissing { inst: i as usize, block: k, pred });
            }
        }
        Ok(())
    }

    /// Checks one use of `%vN` (defined in `def_block`) by instruction `i` of block `k`
    /// (`incoming`: the block a phi receives it from, or `NONE`).
    fn check_use(
        &mut self,
        body: &FunctionBody,
        n: u32,
        def_block: u32,
        k: u32,
        i: u32,
        incoming: u32,
    ) -> Result<(), SsaError> {
        let def_inst = self.defs[n as usize].1;
        let dom = self.dominators(body);
        if !dom.is_reachable(k) {
            return Ok(());
        }
        let ok = if incoming != NONE {
            // A phi sees the value at the end of the incoming block (if that block can run).
            !dom.is_reachable(incoming) || dom.dominates(def_block, incoming)
        } else if def_block == k {
            def_inst < i
        } else {
            dom.dominates(def_block, k)
        };
        if ok { Ok(()) } else { Err(SsaError::Dominance { inst: i as usize, block: k, value: n, def_block }) }
    }
}
