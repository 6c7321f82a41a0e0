//! Structured control flow from a reducible graph: Ramsey's translation over the dominator
//! tree ("Beyond Relooper", ICFP 2022).
//!
//! A node is emitted where its immediate dominator's code is. Its dominator-tree children
//! that are merge nodes (two or more forward edges in) each get a `block` around the
//! parent's code, innermost the one latest in reverse postorder, and follow that block;
//! a loop header is wrapped in a `loop`. A forward edge to a merge node is a `br` out of
//! its block, an edge back to a loop header a `br` to its `loop`, and an edge to any other
//! node places that node's code right there. The walk keeps its own stack of work rather
//! than recursing, so a function of many thousands of blocks needs no deep host stack.

use super::Func;
use crate::cfg::{DomTree, Edge, Graph, NodeId};
use crate::error::Refusal;
use wasm_encoder::BlockType;

/// An enclosing construct, for branch depths.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ctx {
    /// A `loop` whose label is the header's.
    Loop(NodeId),
    /// A `block` whose end is followed by this node's code.
    Block(NodeId),
    /// A construct no edge targets by name (`if`, the blocks of a `br_table`, `try`).
    Anon,
}

/// What the walk does next.
#[derive(Clone, Copy, Debug)]
pub(super) enum Work {
    /// A node and the subtree it dominates.
    Tree(NodeId),
    /// A node's code inside the blocks of its merge children from the `k`th.
    Within(NodeId, u32),
    /// Taking an edge out of a node.
    Branch(NodeId, Edge),
    /// `block` (pushing the context).
    Block(Ctx),
    /// `end` (popping it).
    End,
    /// `else`.
    Else,
}

/// The shape of the graph that the walk needs.
pub(super) struct Shape<'d> {
    /// Place in reverse postorder, by node (`u32::MAX`: unreachable).
    pub rank: &'d [u32],
    /// Number of forward edges in, by node.
    forward_in: Vec<u32>,
    /// True for loop headers.
    loop_header: Vec<bool>,
    /// The merge-node children in the dominator tree, latest in reverse postorder first.
    merge_children: Vec<Vec<NodeId>>,
}

impl<'d> Shape<'d> {
    fn new(g: &Graph, dom: &'d DomTree) -> Shape<'d> {
        let (order, rank, idom) = (&dom.order, &dom.rank[..], &dom.idom);
        let n = g.nodes.len();
        let mut forward_in = vec![0u32; n];
        let mut loop_header = vec![false; n];
        for &x in order {
            for e in &g.nodes[x as usize].succ {
                if rank[e.to as usize] > rank[x as usize] {
                    forward_in[e.to as usize] += 1;
                } else {
                    loop_header[e.to as usize] = true;
                }
            }
        }
        let mut merge_children = vec![Vec::new(); n];
        // Visiting in reverse postorder and inserting at the front leaves each list latest
        // first.
        for &x in order {
            let d = idom[x as usize];
            if x != g.entry && d != u32::MAX && forward_in[x as usize] >= 2 {
                merge_children[d as usize].insert(0, x);
            }
        }
        Shape { rank, forward_in, loop_header, merge_children }
    }

    /// True if taking `src -> dst` is a `br` (rather than placing `dst`'s code there).
    pub fn is_br(&self, src: NodeId, dst: NodeId) -> bool {
        self.rank[dst as usize] <= self.rank[src as usize] || self.forward_in[dst as usize] >= 2
    }
}

impl Func<'_, '_> {
    /// Emits the whole graph from its entry.
    pub(super) fn structure(&mut self, g: &Graph, dom: &DomTree) -> Result<(), Refusal> {
        let shape = Shape::new(g, dom);
        let mut work = std::mem::take(&mut self.work);
        work.clear();
        work.push(Work::Tree(g.entry));
        while let Some(w) = work.pop() {
            match w {
                Work::Tree(x) => {
                    if shape.loop_header[x as usize] {
                        work.extend([Work::End, Work::Within(x, 0)]);
                        self.sink().loop_(BlockType::Empty);
                        self.ctx.push(Ctx::Loop(x));
                        let nesting = self.ctx.iter().filter(|c| matches!(c, Ctx::Loop(_))).count() as u32;
                        self.loop_nesting = self.loop_nesting.max(nesting);
                    } else {
                        work.push(Work::Within(x, 0));
                    }
                }
                Work::Within(x, k) => match shape.merge_children[x as usize].get(k as usize) {
                    Some(&y) => {
                        work.extend([Work::Tree(y), Work::End, Work::Within(x, k + 1), Work::Block(Ctx::Block(y))]);
                    }
                    None => self.node(g, &shape, x, &mut work)?,
                },
                Work::Branch(src, e) => {
                    self.edge_actions(&e)?;
                    if shape.is_br(src, e.to) {
                        self.br_to(e.to)?;
                    } else {
                        work.push(Work::Tree(e.to));
                    }
                }
                Work::Block(c) => {
                    self.sink().block(BlockType::Empty);
                    self.ctx.push(c);
                }
                Work::End => self.end(),
                Work::Else => {
                    self.sink().else_();
                }
            }
        }
        self.work = work;
        Ok(())
    }

    /// `end` of the innermost construct; a `br 0` just before the end of anything but a
    /// loop is left out (control falls through to the same place).
    pub(super) fn end(&mut self) {
        if let Some(at) = self.last_br0
            && !matches!(self.ctx.last(), Some(Ctx::Loop(_)))
        {
            self.out.truncate(at);
        }
        self.ctx.pop();
        self.sink().end();
    }

    /// `br` to the label of node `to` (its loop or the block it follows).
    pub(super) fn br_to(&mut self, to: NodeId) -> Result<(), Refusal> {
        let depth = self.depth(to).ok_or_else(|| Refusal::internal(self, "a branch target is not enclosing"))?;
        let at = self.out.len();
        self.sink().br(depth);
        self.terminated = true;
        self.last_br0 = (depth == 0).then_some(at);
        Ok(())
    }

    /// The branch depth of node `to`'s label.
    pub(super) fn depth(&self, to: NodeId) -> Option<u32> {
        self.ctx.iter().rev().position(|c| matches!(*c, Ctx::Loop(x) | Ctx::Block(x) if x == to)).map(|d| d as u32)
    }
}
