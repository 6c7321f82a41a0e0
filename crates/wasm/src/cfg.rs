//! The control-flow graph the structurer works on: a function's basic blocks, split after
//! each `llvm.nacl.setjmp` call, plus the dispatch nodes that make it reducible.
//!
//! A node is a range of a block's instructions ([`NodeKind::Code`]), a node without code
//! that jumps on ([`NodeKind::Jump`]), or a dispatch ([`NodeKind::Dispatch`]): a
//! `br_table` on the function's label local over its successors. Edges carry what must
//! happen when they are taken: the phi copies of the block they lead to (named by the
//! original predecessor and successor blocks, which survive redirection through a
//! dispatch) and the label a dispatch will read.

use pnacl_bitcode::ir::{FunctionBody, Inst};

/// A node's index in [`Graph::nodes`].
pub type NodeId = u32;

/// What a node is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeKind {
    /// Instructions `start..end` of basic block `block`. The last is the block's
    /// terminator, unless the node ends with a setjmp call (then it has one successor: the
    /// node with the rest of the block).
    Code {
        /// The basic block.
        block: u32,
        /// First instruction (index into the body's `insts`).
        start: u32,
        /// One past the last.
        end: u32,
    },
    /// No code: one successor.
    Jump,
    /// A `br_table` on the label local: label `k` goes to successor `k`; the last successor
    /// is also the default.
    Dispatch,
}

/// An edge and what taking it does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Edge {
    /// The node it leads to.
    pub to: NodeId,
    /// The value to put in the label local (for a dispatch the edge was redirected to).
    pub label: Option<u32>,
    /// The phi copies to make: from basic block `.0` into basic block `.1`.
    pub phis: Option<(u32, u32)>,
}

/// A node: its kind and its successors, in terminator operand order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    /// What it is.
    pub kind: NodeKind,
    /// Its successors.
    pub succ: Vec<Edge>,
}

/// A function's control-flow graph.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Graph {
    /// The nodes.
    pub nodes: Vec<Node>,
    /// The entry node.
    pub entry: NodeId,
    /// For a function that calls setjmp: the dispatch at its entry, whose successor `k` is
    /// where a longjmp to the `k`th setjmp call (from 1) resumes; 0 is the function's
    /// first block.
    pub resume: Option<NodeId>,
    /// The continuation node of each setjmp call, with the call's instruction index.
    pub setjmps: Vec<(NodeId, u32)>,
}

impl Graph {
    /// The graph of `body`. `is_setjmp` says whether an instruction is a call of
    /// `llvm.nacl.setjmp`. Targets out of range are left out (the reader rejects them).
    pub fn build(body: &FunctionBody, is_setjmp: impl Fn(&Inst) -> bool) -> Graph {
        let mut g = Graph::default();
        g.rebuild(body, is_setjmp);
        g
    }

    /// Makes this graph [`Graph::build`]'s graph of `body`, reusing its nodes' edge
    /// vectors (a translator builds one graph per function, and a vector per node was
    /// most of the cost of building one).
    pub fn rebuild(&mut self, body: &FunctionBody, is_setjmp: impl Fn(&Inst) -> bool) {
        let n = body.num_blocks as usize;
        let mut pool: Vec<Vec<Edge>> = self.nodes.drain(..).map(|node| node.succ).collect();
        let mut edges = move || {
            let mut v = pool.pop().unwrap_or_default();
            v.clear();
            v
        };
        let g = self;
        g.entry = 0;
        g.resume = None;
        g.setjmps.clear();
        // A node a block, and up to two more (a jump or a dispatch at the entry).
        g.nodes.reserve(n + 2);
        let mut first = Vec::with_capacity(n);
        let mut last = Vec::with_capacity(n);
        for b in 0..n {
            let r = body.block_insts(b);
            let mut start = r.start;
            first.push(g.nodes.len() as NodeId);
            for i in r.clone() {
                if is_setjmp(&body.insts[i]) && i + 1 < r.end {
                    let id = g.nodes.len() as NodeId;
                    let mut succ = edges();
                    succ.push(Edge { to: id + 1, label: None, phis: None });
                    g.nodes.push(Node {
                        kind: NodeKind::Code { block: b as u32, start: start as u32, end: i as u32 + 1 },
                        succ,
                    });
                    g.setjmps.push((id + 1, i as u32));
                    start = i + 1;
                }
            }
            last.push(g.nodes.len() as NodeId);
            g.nodes.push(Node {
                kind: NodeKind::Code { block: b as u32, start: start as u32, end: r.end as u32 },
                succ: edges(),
            });
        }
        let has_phis = |b: u32| {
            body.block_insts(b as usize)
                .map(|i| &body.insts[i])
                .find(|i| !matches!(i, Inst::ForwardDecl { .. }))
                .is_some_and(|i| matches!(i, Inst::Phi { .. }))
        };
        for (b, &node) in last.iter().enumerate() {
            let succ = &mut g.nodes[node as usize].succ;
            body.for_each_successor(b, |t| {
                if (t as usize) < n {
                    let phis = has_phis(t).then_some((b as u32, t));
                    succ.push(Edge { to: first[t as usize], label: None, phis });
                }
            });
        }
        if n == 0 {
            g.nodes.push(Node { kind: NodeKind::Jump, succ: Vec::new() });
            return;
        }
        g.entry = first[0];
        if !g.setjmps.is_empty() {
            // The entry dispatch: label 0 is the first block, label k the k-th setjmp's
            // continuation.
            let mut succ = vec![Edge { to: first[0], label: None, phis: None }];
            succ.extend(g.setjmps.iter().map(|&(c, _)| Edge { to: c, label: None, phis: None }));
            let d = g.add(NodeKind::Dispatch, succ);
            g.entry = d;
            g.resume = Some(d);
        } else if g.preds_count(g.entry) > 0 {
            // The entry must have no predecessors (loops back to it need a header).
            let e = g.entry;
            g.entry = g.add(NodeKind::Jump, vec![Edge { to: e, label: None, phis: None }]);
        }
    }

    /// Adds a node; returns its id.
    pub fn add(&mut self, kind: NodeKind, succ: Vec<Edge>) -> NodeId {
        self.nodes.push(Node { kind, succ });
        self.nodes.len() as NodeId - 1
    }

    fn preds_count(&self, n: NodeId) -> usize {
        self.nodes.iter().flat_map(|x| &x.succ).filter(|e| e.to == n).count()
    }

    /// The nodes reachable from the entry in reverse postorder, and each node's place in
    /// it (`u32::MAX` if unreachable).
    pub fn reverse_postorder(&self) -> (Vec<NodeId>, Vec<u32>) {
        let d = self.dom_tree();
        (d.order, d.rank)
    }

    /// The reverse postorder and the dominator tree together (what the structurer, the
    /// reducibility check and the frame placement all need: computed once per function).
    pub fn dom_tree(&self) -> DomTree {
        let mut d = DomTree::default();
        d.compute(self);
        d
    }
}

/// A graph's reverse postorder and immediate dominators ([`Graph::dom_tree`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DomTree {
    /// The reachable nodes in reverse postorder.
    pub order: Vec<NodeId>,
    /// Each node's place in `order` (`u32::MAX` if unreachable).
    pub rank: Vec<u32>,
    /// Each node's immediate dominator (`u32::MAX` if unreachable; the entry is its own).
    pub idom: Vec<NodeId>,
    /// Work arrays, kept with the result so that recomputing it for the next function
    /// allocates nothing (a translator computes one per function, most of them small).
    work: DomWork,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct DomWork {
    seen: Vec<bool>,
    stack: Vec<(NodeId, usize)>,
    /// Predecessor ranks of each node, in one array (compressed rows: `start[x]..start[x
    /// + 1]`).
    start: Vec<u32>,
    fill: Vec<u32>,
    preds: Vec<u32>,
    /// Immediate dominators by rank.
    by_rank: Vec<u32>,
}

impl DomTree {
    /// Makes this the dominator tree of `g`: the reverse postorder of the nodes reachable
    /// from the entry, then Cooper, Harvey and Kennedy's iteration over it.
    pub fn compute(&mut self, g: &Graph) {
        let n = g.nodes.len();
        let w = &mut self.work;
        // Reverse postorder.
        w.seen.clear();
        w.seen.resize(n, false);
        let post = &mut self.order;
        post.clear();
        w.stack.clear();
        w.stack.push((g.entry, 0));
        w.seen[g.entry as usize] = true;
        while let Some(&mut (x, ref mut next)) = w.stack.last_mut() {
            if let Some(e) = g.nodes[x as usize].succ.get(*next) {
                *next += 1;
                if !w.seen[e.to as usize] {
                    w.seen[e.to as usize] = true;
                    w.stack.push((e.to, 0));
                }
            } else {
                post.push(x);
                w.stack.pop();
            }
        }
        post.reverse();
        let (order, rank) = (&self.order, &mut self.rank);
        rank.clear();
        rank.resize(n, u32::MAX);
        for (i, &x) in order.iter().enumerate() {
            rank[x as usize] = i as u32;
        }
        // Predecessors.
        w.start.clear();
        w.start.resize(n + 1, 0);
        for &x in order {
            for e in &g.nodes[x as usize].succ {
                w.start[e.to as usize + 1] += 1;
            }
        }
        for k in 0..n {
            w.start[k + 1] += w.start[k];
        }
        w.fill.clear();
        w.fill.extend_from_slice(&w.start);
        w.preds.clear();
        w.preds.resize(w.start[n] as usize, 0);
        for &x in order {
            for e in &g.nodes[x as usize].succ {
                let at = &mut w.fill[e.to as usize];
                w.preds[*at as usize] = rank[x as usize];
                *at += 1;
            }
        }
        // idom by rank.
        let m = order.len();
        let idom = &mut w.by_rank;
        idom.clear();
        idom.resize(m, u32::MAX);
        if m > 0 {
            idom[0] = 0;
        }
        let mut changed = true;
        while changed {
            changed = false;
            for r in 1..m {
                let x = order[r] as usize;
                let mut new = u32::MAX;
                for &p in &w.preds[w.start[x] as usize..w.start[x + 1] as usize] {
                    if idom[p as usize] == u32::MAX {
                        continue;
                    }
                    new = if new == u32::MAX { p } else { intersect(idom, p, new) };
                }
                if new != idom[r] {
                    idom[r] = new;
                    changed = true;
                }
            }
        }
        let by_node = &mut self.idom;
        by_node.clear();
        by_node.resize(n, u32::MAX);
        for r in 0..m {
            if idom[r] != u32::MAX {
                by_node[order[r] as usize] = order[idom[r] as usize];
            }
        }
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

/// True if `a` dominates `b`, walking `b`'s dominator chain (`idom` by node).
pub fn dominates(idom: &[NodeId], entry: NodeId, a: NodeId, mut b: NodeId) -> bool {
    loop {
        if a == b {
            return true;
        }
        if b == entry || idom[b as usize] == u32::MAX {
            return false;
        }
        b = idom[b as usize];
    }
}
