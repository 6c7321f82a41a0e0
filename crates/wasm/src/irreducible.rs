//! Irreducible control flow made reducible with dispatch nodes.
//!
//! A loop with several entries (an irreducible strongly connected region) gets one new
//! header: a [`NodeKind::Dispatch`] node. Every edge into one of the region's entries,
//! from outside the region or from inside it, is redirected to the dispatch and sets the
//! label local to the entry's number; the dispatch `br_table`s on it. The region then has
//! one entry, and the edges into its old entries have become back edges of the dispatch's
//! loop. The region without its header is processed again, down to single-entry loops
//! (as LLVM's WebAssemblyFixIrreducibleControlFlow does, but on strongly connected
//! components).
//!
//! Edges keep their phi copies when they are redirected, so the copies of an entry's phis
//! are made before the dispatch, on the edge that decides them.

use crate::cfg::{DomTree, Edge, Graph, NodeId, NodeKind, dominates};

/// True if every retreating edge of the reachable graph goes to a node that dominates
/// its source.
pub fn is_reducible(g: &Graph) -> bool {
    is_reducible_with(g, &g.dom_tree())
}

/// [`is_reducible`] given the graph's dominator tree.
pub fn is_reducible_with(g: &Graph, dom: &DomTree) -> bool {
    let DomTree { order, rank, idom, .. } = dom;
    order.iter().all(|&x| {
        g.nodes[x as usize]
            .succ
            .iter()
            .all(|e| rank[e.to as usize] > rank[x as usize] || dominates(idom, g.entry, e.to, x))
    })
}

/// Makes `g` reducible (no change if it is already); returns the number of dispatch nodes
/// added.
pub fn make_reducible(g: &mut Graph) -> usize {
    if is_reducible(g) {
        return 0;
    }
    let (order, _) = g.reverse_postorder();
    let mut live = vec![false; g.nodes.len()];
    for &x in &order {
        live[x as usize] = true;
    }
    let mut added = 0;
    // The entry has no predecessors (see `Graph::build`), so it is in no loop.
    let mut work: Vec<Vec<NodeId>> = vec![order.iter().copied().filter(|&x| x != g.entry).collect()];
    while let Some(region) = work.pop() {
        let mut in_region = vec![false; g.nodes.len()];
        for &x in &region {
            in_region[x as usize] = true;
        }
        for scc in components(g, &region, &in_region) {
            let mut in_scc = vec![false; g.nodes.len()];
            for &x in &scc {
                in_scc[x as usize] = true;
            }
            let cyclic = scc.len() > 1 || g.nodes[scc[0] as usize].succ.iter().any(|e| e.to == scc[0]);
            if !cyclic {
                continue;
            }
            // Entries: members with a predecessor outside the component.
            let mut is_entry = vec![false; g.nodes.len()];
            for (p, node) in g.nodes.iter().enumerate() {
                if in_scc[p] || !live[p] {
                    continue;
                }
                for e in &node.succ {
                    if in_scc[e.to as usize] {
                        is_entry[e.to as usize] = true;
                    }
                }
            }
            let mut entries: Vec<NodeId> = scc.iter().copied().filter(|&x| is_entry[x as usize]).collect();
            entries.sort_unstable();
            if entries.len() <= 1 {
                let header = entries.first().copied().unwrap_or(scc[0]);
                work.push(scc.iter().copied().filter(|&x| x != header).collect());
                continue;
            }
            let succ = entries.iter().map(|&to| Edge { to, label: None, phis: None }).collect();
            let d = g.add(NodeKind::Dispatch, succ);
            live.push(true);
            added += 1;
            for p in 0..g.nodes.len() {
                if p as NodeId == d {
                    continue;
                }
                for e in &mut g.nodes[p].succ {
                    if let Some(k) = entries.iter().position(|&x| x == e.to) {
                        e.to = d;
                        e.label = Some(k as u32);
                    }
                }
            }
            work.push(scc);
        }
    }
    added
}

/// The strongly connected components of the subgraph of `region` (Tarjan's algorithm,
/// without recursion).
fn components(g: &Graph, region: &[NodeId], in_region: &[bool]) -> Vec<Vec<NodeId>> {
    const NONE: u32 = u32::MAX;
    let n = g.nodes.len();
    let mut index = vec![NONE; n];
    let mut low = vec![0u32; n];
    let mut on_stack = vec![false; n];
    let mut stack: Vec<NodeId> = Vec::new();
    let mut out = Vec::new();
    let mut next = 0u32;
    for &root in region {
        if index[root as usize] != NONE {
            continue;
        }
        let mut calls: Vec<(NodeId, usize)> = vec![(root, 0)];
        index[root as usize] = next;
        low[root as usize] = next;
        next += 1;
        stack.push(root);
        on_stack[root as usize] = true;
        while let Some(&mut (x, ref mut i)) = calls.last_mut() {
            let succ = &g.nodes[x as usize].succ;
            if let Some(e) = succ.get(*i) {
                *i += 1;
                let y = e.to as usize;
                if y >= in_region.len() || !in_region[y] {
                    continue;
                }
                if index[y] == NONE {
                    index[y] = next;
                    low[y] = next;
                    next += 1;
                    stack.push(y as NodeId);
                    on_stack[y] = true;
                    calls.push((y as NodeId, 0));
                } else if on_stack[y] {
                    low[x as usize] = low[x as usize].min(index[y]);
                }
            } else {
                calls.pop();
                if let Some(&(parent, _)) = calls.last() {
                    low[parent as usize] = low[parent as usize].min(low[x as usize]);
                }
                if low[x as usize] == index[x as usize] {
                    let mut scc = Vec::new();
                    while let Some(y) = stack.pop() {
                        on_stack[y as usize] = false;
                        scc.push(y);
                        if y == x {
                            break;
                        }
                    }
                    out.push(scc);
                }
            }
        }
    }
    out
}
