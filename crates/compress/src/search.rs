//! The search for one kind of block's abbreviations: a greedy top-down splitting of its
//! records, priced exactly, with the abbreviation-id width in the bill.
//!
//! Records start grouped by code and shape, all unabbreviated. Each step
//! takes the action that saves the most bits: giving a group its best-fitting
//! abbreviation, or cutting an abbreviation's records in two ([`crate::split`]). Every step
//! adds one abbreviation; the step count where the savings stop paying for the wider
//! abbreviation ids of every record in every block of the kind is where the search ends.

use crate::census::{Kind, Table};
use crate::cost;
use crate::effort::Params;
use crate::form::{Form, Long, Profile, Shape};
use crate::split::{self, CutOptions, LeafRef, Proposal};
use rayon::prelude::*;
use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap};

/// Records longer than this are never given an abbreviation operand each: beyond it,
/// arrays are cheaper to define than what per-operand fields save.
pub const MAX_FIXED_LEN: usize = 12;
/// Leading scalar operands of an array form, at most.
const MAX_ARRAY_PREFIX: usize = 6;
/// Most abbreviations a kind can have: the reference caps abbreviation-id widths at 16
/// bits, and `2**16` ids hold the four predefined ones and 65532 more.
pub const MAX_ABBREVS: usize = (1 << 16) - 4;
/// Width of abbreviation ids in the abbreviations block, where global ones are defined.
const BLOCKINFO_WIDTH: u32 = 2;

/// Records of one code and shape.
struct Group {
    code: u64,
    shape: Shape,
    members: Vec<u32>,
    /// Bits of the records unabbreviated.
    plain: u64,
    /// Summaries of the records' long arrays.
    long: Long,
}

/// Forms the records of a kind fall into initially: per code, each length common enough
/// (at least `min_fixed` records) gets a fixed form, the others share an array form.
fn groups(table: &Table, min_fixed: u64, arrays: bool) -> Vec<Group> {
    let mut by_code: BTreeMap<u64, BTreeMap<usize, u64>> = BTreeMap::new();
    for (_, code, ops, count) in table.iter() {
        *by_code.entry(code).or_default().entry(ops.len()).or_default() += count;
    }
    let mut shapes: BTreeMap<(u64, usize), Shape> = BTreeMap::new();
    for (&code, lens) in &by_code {
        let single = lens.len() == 1;
        let mut rest_min = None::<usize>;
        for (&len, &count) in lens {
            if len <= MAX_FIXED_LEN && (single || count >= min_fixed || !arrays) {
                shapes.insert((code, len), Shape::Fixed(len as u32));
            } else {
                rest_min = Some(rest_min.map_or(len, |m| m.min(len)));
            }
        }
        if let Some(min) = rest_min.filter(|_| arrays) {
            let k = min.min(MAX_ARRAY_PREFIX) as u32;
            for &len in lens.keys() {
                shapes.entry((code, len)).or_insert(Shape::Array(k));
            }
        }
    }
    let mut index: BTreeMap<(u64, Shape), usize> = BTreeMap::new();
    let mut out: Vec<Group> = Vec::new();
    for (id, code, ops, count) in table.iter() {
        // Without arrays, records too long for a fixed form stay unabbreviated.
        let Some(&shape) = shapes.get(&(code, ops.len())) else { continue };
        let g = *index.entry((code, shape)).or_insert_with(|| {
            out.push(Group { code, shape, members: Vec::new(), plain: 0, long: Long::default() });
            out.len() - 1
        });
        out[g].members.push(id);
        out[g].plain += count * cost::unabbreviated(code, ops);
    }
    // Deterministic order: by code, then shape.
    out.sort_by_key(|g| (g.code, g.shape));
    for g in &mut out {
        g.long = Long::new(table, &g.members, g.shape);
    }
    out
}

/// An abbreviation of the search and the records it was made for.
struct Leaf {
    group: usize,
    members: Vec<u32>,
    /// Bits of its records with its form, plus the form's definition.
    total: u64,
    form: Form,
    /// The step that created it, and the step that split it.
    born: usize,
    died: usize,
}

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Action {
    Open(usize),
    Split(usize),
}

/// The abbreviations chosen for a kind, and the bits the search expects the kind to take.
pub struct Found {
    /// The forms, in the order the search made them.
    pub forms: Vec<Form>,
    /// Expected bits of the kind's blocks' records, definitions and abbreviation ids.
    pub bits: u64,
    /// Expected bits with no abbreviations at all.
    pub plain_bits: u64,
}

/// Runs the search for a kind. `local` says whether the abbreviations are defined in the
/// block (the module block) or globally, in the abbreviations block.
pub fn search(kind: &Kind, local: bool, params: &Params) -> Found {
    let table = &kind.table;
    let groups = groups(table, params.min_fixed, params.arrays);
    let plain: u64 = table.iter().map(|(_, code, ops, count)| count * cost::unabbreviated(code, ops)).sum();
    let enc = params.encodings;
    // Definitions pay the width of the block they are in.
    let def_width = |n: usize| definition_width(local, n + 1);
    let mut leaves: Vec<Leaf> = Vec::new();
    let mut proposals: Vec<Option<Proposal>> = Vec::new();
    let mut heap: BinaryHeap<(i64, Reverse<u64>, Action)> = BinaryHeap::new();
    let mut seq = 0u64;
    let mut push = |heap: &mut BinaryHeap<_>, gain: i64, a: Action| {
        if gain > 0 {
            heap.push((gain, Reverse(seq), a));
            seq += 1;
        }
    };
    let profile = |members: &[u32], group: &Group| {
        let mut p = Profile::new(group.shape);
        for &id in members {
            p.add_record(group.shape, table.ops(id), table.rec(id).count, group.long.get(id));
        }
        p
    };
    // A new leaf of group `g`: its form, the bits it takes, and its best cut.
    let grow = |g: usize, members: Vec<u32>, dw: u32, born: usize| {
        let group = &groups[g];
        let (form, total) = split::priced(&profile(&members, group), group.code, group.shape, dw, enc);
        let r = LeafRef { code: group.code, shape: group.shape, members: &members, long: &group.long, total, scale: 1 };
        let cut = if members.len() > 1 || table.rec(members[0]).count > 1 {
            let opts = CutOptions { values: params.literal_values, max_slots: params.cut_slots, def_width: dw, enc };
            split::best_cut(table, &r, &opts)
        } else {
            None
        };
        (Leaf { group: g, members, total, form, born, died: usize::MAX }, cut)
    };
    // Every group's abbreviation and its best cut, computed up front (in parallel).
    let mut roots: Vec<Option<(Leaf, Option<Proposal>)>> =
        (0..groups.len()).into_par_iter().map(|g| Some(grow(g, groups[g].members.clone(), def_width(0), 0))).collect();
    for (g, root) in roots.iter().enumerate() {
        let total = root.as_ref().expect("just made").0.total;
        push(&mut heap, groups[g].plain as i64 - total as i64, Action::Open(g));
    }
    let mut curve = vec![plain];
    let mut bits = plain;
    while curve.len() <= params.max_abbrevs.min(MAX_ABBREVS) {
        let Some((gain, _, action)) = heap.pop() else { break };
        let step = curve.len();
        let dw = def_width(step);
        let (fresh, gain): (Vec<(Leaf, Option<Proposal>)>, i64) = match action {
            Action::Open(g) => {
                let (mut leaf, cut) = roots[g].take().expect("each group opens once");
                leaf.born = step;
                (vec![(leaf, cut)], gain)
            }
            Action::Split(l) => {
                let cut = proposals[l].expect("only leaves with a proposal are queued").cut;
                let leaf = &leaves[l];
                let g = leaf.group;
                let group = &groups[g];
                let (taken, left): (Vec<u32>, Vec<u32>) =
                    leaf.members.iter().partition(|&&id| cut.takes(group.shape, table.ops(id), group.long.get(id)));
                if taken.is_empty() || left.is_empty() {
                    continue;
                }
                let (a, b) = rayon::join(|| grow(g, taken, dw, step), || grow(g, left, dw, step));
                // The proposal was priced exactly unless the leaf was sampled: take the
                // cut only if it really saves bits.
                let exact = leaf.total as i64 - a.0.total as i64 - b.0.total as i64;
                if exact <= 0 {
                    continue;
                }
                leaves[l].died = step;
                (vec![a, b], exact)
            }
        };
        bits = (bits as i64 - gain) as u64;
        curve.push(bits);
        for (leaf, cut) in fresh {
            leaves.push(leaf);
            proposals.push(cut);
            if let Some(p) = cut {
                push(&mut heap, p.gain, Action::Split(leaves.len() - 1));
            }
        }
    }
    // Pick the step count that minimises the whole bill, widths included (or, to measure
    // what that is worth, the last step, where the records alone are smallest).
    let (best, best_bits) = if params.width_aware {
        curve.iter().enumerate().map(|(n, &b)| (n, bill(kind, local, n, b))).min_by_key(|&(n, b)| (b, n))
    } else {
        curve.iter().enumerate().map(|(n, &b)| (n, bill(kind, local, n, b))).next_back()
    }
    .expect("step 0 exists");
    let forms = leaves.into_iter().filter(|l| l.born <= best && l.died > best).map(|l| l.form).collect::<Vec<_>>();
    debug_assert_eq!(forms.len(), best);
    Found { forms, bits: best_bits, plain_bits: bill(kind, local, 0, plain) }
}

/// The bits a kind's blocks take with `n` abbreviations, given `bits` for their records'
/// bodies and the abbreviations' definitions: adds the abbreviation id of every record,
/// nested block, block end and local definition, and the abbreviations block's `SETBID`
/// record for global ones.
pub fn bill(kind: &Kind, local: bool, n: usize, bits: u64) -> u64 {
    let items = kind.items + if local { n as u64 } else { 0 };
    let setbid = if !local && n > 0 { cost::setbid(kind.block_id) } else { 0 };
    bits + u64::from(cost::id_width(n)) * items + setbid
}

/// Width of the ids of the block where a kind's abbreviations are defined, when it has
/// `n` of them.
pub fn definition_width(local: bool, n: usize) -> u32 {
    if local { cost::id_width(n) } else { BLOCKINFO_WIDTH }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::split::Cut;

    #[test]
    fn cut_keeps_every_record_on_one_side() {
        let mut t = Table::default();
        for v in 0..100u64 {
            t.insert(2, &[v % 7, v * 13, 0]);
        }
        let gs = groups(&t, 16, true);
        assert_eq!(gs.len(), 1);
        assert_eq!(gs[0].shape, Shape::Fixed(3));
        let cut = Cut::Bits { slot: 1, bits: 6 };
        let n = gs[0].members.iter().filter(|&&id| cut.takes(Shape::Fixed(3), t.ops(id), None)).count();
        assert_eq!(n, (0..100u64).filter(|v| v * 13 < 64).count());
    }
}
