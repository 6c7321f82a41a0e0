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
use crate::form::{Form, Long, Profile, Shape};
use crate::slot::{Encodings, Slot};
use hashbrown::HashMap;
use pnacl_bitstream::{bits_needed, encode_char6};
use rayon::prelude::*;

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
    /// True if a record (of the leaf's shape, with its long-array summary if any) goes to
    /// the first side.
    pub fn takes(self, shape: Shape, ops: &[u64], long: Option<&Slot>) -> bool {
        match self {
            Cut::Bits { slot, bits } => slot_bits(shape, ops, slot, long) <= bits,
            Cut::Value { slot, value } => ops[slot] == value,
            Cut::Char6 => match long {
                Some(s) => s.all_char6(),
                None => ops[shape.prefix()..].iter().all(|&v| encode_char6(v).is_some()),
            },
        }
    }
}

/// Bit length of a slot's value; for the element slot, of its largest element.
fn slot_bits(shape: Shape, ops: &[u64], slot: usize, long: Option<&Slot>) -> u32 {
    if slot < shape.prefix() {
        bits_needed(ops[slot])
    } else if let Some(s) = long {
        s.max_bits()
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
    /// Summaries of their long arrays.
    pub long: &'a Long,
    /// Bits of the records with the leaf's abbreviation, plus its definition.
    pub total: u64,
    /// How many records each member stands for beyond its own count (1, except in a
    /// sample of a large leaf).
    pub scale: u64,
}

/// Bits of a profile's records with their best form, plus the form's definition.
pub fn priced(p: &Profile, code: u64, shape: Shape, def_width: u32, enc: Encodings) -> (Form, u64) {
    let (form, bits) = p.fit(code, shape, enc);
    let def = cost::definition(&form.ops(), def_width);
    (form, bits + def)
}

/// Leaves with more distinct records than this have their cuts priced on an even sample
/// of them (each standing for its share of the rest), which bounds the work per leaf on
/// inputs made of huge sets of long distinct records. The search checks the chosen cut
/// exactly before it takes it.
const SAMPLE: usize = 1 << 14;

/// Most frequent values tried as literals per operand.
pub const MAX_VALUES: usize = 64;

/// Leaves with at least this many distinct records have their slots examined in
/// parallel.
const PARALLEL_MEMBERS: usize = 4096;

/// How cuts are sought and priced.
#[derive(Clone, Copy, Debug)]
pub struct CutOptions {
    /// Frequent values per operand tried as literals.
    pub values: usize,
    /// On how many slots (the costliest) cuts are tried.
    pub max_slots: usize,
    /// Width of the abbreviation ids of definitions.
    pub def_width: u32,
    /// The encodings allowed.
    pub enc: Encodings,
}

/// The best cut of a leaf, if any saves bits.
pub fn best_cut(table: &Table, leaf: &LeafRef<'_>, opts: &CutOptions) -> Option<Proposal> {
    let shape = leaf.shape;
    let CutOptions { values, max_slots, def_width, enc } = *opts;
    if leaf.members.len() > SAMPLE {
        let stride = leaf.members.len().div_ceil(SAMPLE);
        let members: Vec<u32> = leaf.members.iter().step_by(stride).copied().collect();
        let scale = (leaf.members.len() as f64 / members.len() as f64).round() as u64;
        let mut p = Profile::new(shape);
        for &id in &members {
            p.add_record(shape, table.ops(id), table.rec(id).count * scale, leaf.long.get(id));
        }
        let (_, total) = priced(&p, leaf.code, shape, def_width, enc);
        let sample = LeafRef { members: &members, total, scale, ..*leaf };
        return best_cut(table, &sample, opts);
    }
    // Bucket keys are bytes: a value's index among the frequent ones must fit.
    let values = values.min(MAX_VALUES);
    let slots = costly_slots(table, leaf, enc, max_slots);
    let opts = CutOptions { values, ..*opts };
    let per_slot = |&slot: &usize| slot_cut(table, leaf, slot, &opts);
    let mut cuts: Vec<Option<Proposal>> = if leaf.members.len() >= PARALLEL_MEMBERS {
        slots.par_iter().map(per_slot).collect()
    } else {
        slots.iter().map(per_slot).collect()
    };
    if shape.is_array() && enc.char6 {
        let mut best = Best::new(leaf, def_width, enc);
        let (keys, buckets) = bucketed(table, leaf, |ops, long| usize::from(Cut::Char6.takes(shape, ops, long)));
        if keys.len() == 2 {
            best.offer(Cut::Char6, &buckets[1], &buckets[0]);
        }
        cuts.push(best.found);
    }
    // The largest gain; on ties, the first found (slot order), as a sequential scan would.
    cuts.into_iter()
        .flatten()
        .fold(None, |acc: Option<Proposal>, p| match acc {
            Some(a) if a.gain >= p.gain => Some(a),
            _ => Some(p),
        })
        .filter(|p| p.gain > 0)
}

/// The slots worth cutting on: all of them, or (records with more than `max` slots) the
/// `max` whose values take the most bits with the leaf's abbreviation, in slot order. A
/// cut saves bits on the slots it narrows, so the cheap slots of a long record rarely
/// matter, and each slot examined costs a pass over the records.
fn costly_slots(table: &Table, leaf: &LeafRef<'_>, enc: Encodings, max: usize) -> Vec<usize> {
    let n = leaf.shape.slots();
    if n <= max {
        return (0..n).collect();
    }
    let mut p = Profile::new(leaf.shape);
    for &id in leaf.members {
        p.add_record(leaf.shape, table.ops(id), table.rec(id).count * leaf.scale, leaf.long.get(id));
    }
    let mut by_cost: Vec<(u64, usize)> =
        p.slots.iter().enumerate().map(|(i, s)| (s.best(i < leaf.shape.prefix(), enc).bits, i)).collect();
    by_cost.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut slots: Vec<usize> = by_cost[..max].iter().map(|&(_, i)| i).collect();
    slots.sort_unstable();
    slots
}

/// The best cut found so far, and how to price one.
struct Best<'l> {
    leaf: &'l LeafRef<'l>,
    def_width: u32,
    enc: Encodings,
    found: Option<Proposal>,
}

impl<'l> Best<'l> {
    fn new(leaf: &'l LeafRef<'l>, def_width: u32, enc: Encodings) -> Self {
        Best { leaf, def_width, enc, found: None }
    }

    /// Prices the cut that sends the records of `a` one way and those of `b` the other.
    fn offer(&mut self, cut: Cut, a: &Profile, b: &Profile) {
        if a.records == 0 || b.records == 0 {
            return;
        }
        let (code, shape) = (self.leaf.code, self.leaf.shape);
        let (_, ca) = priced(a, code, shape, self.def_width, self.enc);
        let (_, cb) = priced(b, code, shape, self.def_width, self.enc);
        let gain = self.leaf.total as i64 - (ca + cb) as i64;
        if self.found.is_none_or(|p| gain > p.gain) {
            self.found = Some(Proposal { cut, gain });
        }
    }
}

/// The best cut on one slot: by bit length, or (leading operands) by a frequent value.
fn slot_cut(table: &Table, leaf: &LeafRef<'_>, slot: usize, opts: &CutOptions) -> Option<Proposal> {
    let shape = leaf.shape;
    let values = opts.values;
    let mut best = Best::new(leaf, opts.def_width, opts.enc);
    // By bit length: every threshold between the lengths present.
    let (present, buckets) = bucketed(table, leaf, |ops, long| slot_bits(shape, ops, slot, long) as usize);
    if present.len() > 1 {
        let mut below = Profile::new(shape);
        let mut above = vec![Profile::new(shape); present.len()];
        for i in (0..present.len() - 1).rev() {
            let (lo, hi) = above.split_at_mut(i + 1);
            lo[i].clone_from(&hi[0]);
            lo[i].merge(&buckets[i + 1]);
        }
        for (i, &b) in present[..present.len() - 1].iter().enumerate() {
            below.merge(&buckets[i]);
            best.offer(Cut::Bits { slot, bits: b as u32 }, &below, &above[i]);
        }
    }
    // By value: the most frequent values of a leading operand, each as a literal.
    if slot < shape.prefix() && values > 0 {
        let top = frequent(table, leaf.members, slot, values);
        if top.len() > 1 || top.first().is_some_and(|&(_, c)| c < total_count(table, leaf.members)) {
            let (keys, buckets) =
                bucketed(table, leaf, |ops, _| top.iter().position(|&(v, _)| v == ops[slot]).unwrap_or(top.len()));
            for (j, &key) in keys.iter().enumerate().filter(|&(_, &k)| k < top.len()) {
                let mut rest = Profile::new(shape);
                for (i, b) in buckets.iter().enumerate() {
                    if i != j {
                        rest.merge(b);
                    }
                }
                best.offer(Cut::Value { slot, value: top[key].0 }, &buckets[j], &rest);
            }
        }
    }
    best.found
}

/// The leaf's records sorted into buckets by `key` (a small number): the keys present, in
/// increasing order, and a profile per key present.
fn bucketed(
    table: &Table,
    leaf: &LeafRef<'_>,
    key: impl Fn(&[u64], Option<&Slot>) -> usize,
) -> (Vec<usize>, Vec<Profile>) {
    let keys: Vec<u8> = leaf.members.iter().map(|&id| key(table.ops(id), leaf.long.get(id)) as u8).collect();
    let mut index = [u8::MAX; 256];
    for &k in &keys {
        index[usize::from(k)] = 0;
    }
    let present: Vec<usize> = (0..256).filter(|&k| index[k] == 0).collect();
    for (i, &k) in present.iter().enumerate() {
        index[k] = i as u8;
    }
    let mut buckets = vec![Profile::new(leaf.shape); present.len()];
    for (&id, &k) in leaf.members.iter().zip(&keys) {
        let bucket = &mut buckets[usize::from(index[usize::from(k)])];
        bucket.add_record(leaf.shape, table.ops(id), table.rec(id).count * leaf.scale, leaf.long.get(id));
    }
    (present, buckets)
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
