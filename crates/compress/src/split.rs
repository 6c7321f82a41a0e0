//! Splitting a set of records in two, each with its own abbreviation.
//!
//! A leaf of the search is a set of records of one shape with the abbreviation that fits
//! them best. Splitting it lets each half fit tighter: the records whose operand `p` is
//! small get a narrow field, the records whose operand `p` is 0 get a literal, the names
//! that are all char6 get char6 elements. Each kind of cut sorts the records into buckets
//! by one key (a bit length, a frequent value, char6 or not), and since profiles merge,
//! every cut between buckets is priced exactly from the bucket profiles.

use crate::census::Table;
use crate::cost;
use crate::form::{Form, Profile, Shape};
use crate::slot::Encodings;
use hashbrown::HashMap;
use pnacl_bitstream::{bits_needed, encode_char6};

/// Where to cut a leaf: the records that satisfy the condition go one way, the rest the
/// other.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cut {
    /// Slot `slot`'s value (for the element slot, the largest element) has at most `bits`
    /// bits.
    Bits {
        /// The slot.
        slot: usize,
        /// The largest bit length taken.
        bits: u32,
    },
    /// Leading operand `slot` equals `value`.
    Value {
        /// The operand.
        slot: usize,
        /// Its value.
        value: u64,
    },
    /// Every array element is a char6 character.
    Char6,
}

impl Cut {
    /// True if a record (of the leaf's shape) goes to the first side.
    pub fn takes(self, shape: Shape, ops: &[u64]) -> bool {
        match self {
            Cut::Bits { slot, bits } => slot_bits(shape, ops, slot) <= bits,
            Cut::Value { slot, value } => ops[slot] == value,
            Cut::Char6 => ops[shape.prefix()..].iter().all(|&v| encode_char6(v).is_some()),
        }
    }
}

/// Bit length of a slot's value; for the element slot, of its largest element.
fn slot_bits(shape: Shape, ops: &[u64], slot: usize) -> u32 {
    if slot < shape.prefix() {
        bits_needed(ops[slot])
    } else {
        ops[shape.prefix()..].iter().map(|&v| bits_needed(v)).max().unwrap_or(0)
    }
}

/// A proposed cut and what it saves.
#[derive(Clone, Copy, Debug)]
pub struct Proposal {
    /// The cut.
    pub cut: Cut,
    /// Bits saved: the leaf's records and definition, less both halves' records and
    /// definitions. Positive when worth an abbreviation.
    pub gain: i64,
}

/// What a leaf is: its code, shape and records.
pub struct LeafRef<'a> {
    /// The records' code.
    pub code: u64,
    /// Their shape.
    pub shape: Shape,
    /// Their ids.
    pub members: &'a [u32],
    /// Bits of the records with the leaf's abbreviation, plus its definition.
    pub total: u64,
}

/// Bits of a profile's records with their best form, plus the form's definition.
pub fn priced(p: &Profile, code: u64, shape: Shape, def_width: u32, enc: Encodings) -> (Form, u64) {
    let (form, bits) = p.fit(code, shape, enc);
    let def = cost::definition(&form.ops(), def_width);
    (form, bits + def)
}

/// The best cut of a leaf, if any saves bits. `values` is how many frequent values per
/// operand are tried as literals.
pub fn best_cut(
    table: &Table,
    leaf: &LeafRef<'_>,
    values: usize,
    def_width: u32,
    enc: Encodings,
) -> Option<Proposal> {
    let shape = leaf.shape;
    let mut best: Option<Proposal> = None;
    let mut offer = |cut: Cut, a: &Profile, b: &Profile| {
        if a.records == 0 || b.records == 0 {
            return;
        }
        let (_, ca) = priced(a, leaf.code, shape, def_width, enc);
        let (_, cb) = priced(b, leaf.code, shape, def_width, enc);
        let gain = leaf.total as i64 - (ca + cb) as i64;
        if best.is_none_or(|p| gain > p.gain) {
            best = Some(Proposal { cut, gain });
        }
    };
    for slot in 0..shape.slots() {
        // By bit length: every threshold between the lengths present.
        let buckets = bucketed(table, leaf, 65, |ops| slot_bits(shape, ops, slot) as usize);
        let present: Vec<usize> = (0..65).filter(|&b| buckets[b].records > 0).collect();
        if present.len() > 1 {
            let mut below = Profile::new(shape);
            let mut above = vec![Profile::new(shape); present.len()];
            for i in (0..present.len() - 1).rev() {
                let (lo, hi) = above.split_at_mut(i + 1);
                lo[i].clone_from(&hi[0]);
                lo[i].merge(&buckets[present[i + 1]]);
            }
            for (i, &b) in present[..present.len() - 1].iter().enumerate() {
                below.merge(&buckets[b]);
                offer(Cut::Bits { slot, bits: b as u32 }, &below, &above[i]);
            }
        }
        // By value: the most frequent values of a leading operand, each as a literal.
        if slot < shape.prefix() && values > 0 {
            let top = frequent(table, leaf.members, slot, values);
            if top.len() > 1 || top.first().is_some_and(|&(_, c)| c < total_count(table, leaf.members)) {
                let buckets = bucketed(table, leaf, top.len() + 1, |ops| {
                    top.iter().position(|&(v, _)| v == ops[slot]).unwrap_or(top.len())
                });
                for (j, &(value, _)) in top.iter().enumerate() {
                    let mut rest = Profile::new(shape);
                    for (i, b) in buckets.iter().enumerate() {
                        if i != j {
                            rest.merge(b);
                        }
                    }
                    offer(Cut::Value { slot, value }, &buckets[j], &rest);
                }
            }
        }
    }
    if shape.is_array() && enc.char6 {
        let buckets = bucketed(table, leaf, 2, |ops| usize::from(Cut::Char6.takes(shape, ops)));
        offer(Cut::Char6, &buckets[1], &buckets[0]);
    }
    best.filter(|p| p.gain > 0)
}

/// Profiles of the leaf's records sorted into `n` buckets by `key`.
fn bucketed(table: &Table, leaf: &LeafRef<'_>, n: usize, key: impl Fn(&[u64]) -> usize) -> Vec<Profile> {
    let mut buckets = vec![Profile::new(leaf.shape); n];
    for &id in leaf.members {
        let ops = table.ops(id);
        buckets[key(ops)].add(leaf.shape, ops, table.rec(id).count);
    }
    buckets
}

fn total_count(table: &Table, members: &[u32]) -> u64 {
    members.iter().map(|&id| table.rec(id).count).sum()
}

/// The `n` most frequent values of operand `slot`, with their counts, most frequent first
/// (ties: smaller value first).
fn frequent(table: &Table, members: &[u32], slot: usize, n: usize) -> Vec<(u64, u64)> {
    let mut counts: HashMap<u64, u64> = HashMap::new();
    for &id in members {
        *counts.entry(table.ops(id)[slot]).or_default() += table.rec(id).count;
    }
    let mut all: Vec<(u64, u64)> = counts.into_iter().collect();
    all.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    all.truncate(n);
    all
}
