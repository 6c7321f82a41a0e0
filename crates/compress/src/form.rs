//! Abbreviation forms: the record shapes the search works with, the statistics of a set
//! of records of one shape, and the cheapest abbreviation for such a set.
//!
//! Every abbreviation the search builds starts with the record code as a literal, then one
//! scalar operand per leading record operand, and optionally an array for the rest:
//! `<code, e1, ..., ek>` or `<code, e1, ..., ek, array(e)>`. Only encodings every PNaCl
//! reader (and upstream LLVM's) accepts are used: literals outside arrays, `fixed(1..=32)`,
//! `vbr(2..=32)`, `char6`, and an array as the second-to-last operand with a scalar,
//! non-literal element.

use crate::cost::{ARRAY_COUNT_VBR, scalar};
use crate::slot::{Encodings, Slot};
use pnacl_bitstream::{Abbrev, Op, vbr_len};

/// Which records of one code an abbreviation form covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Shape {
    /// Exactly this many operands, each its own abbreviation operand.
    Fixed(u32),
    /// At least this many operands: that many scalars, the rest as an array.
    Array(u32),
}

impl Shape {
    /// True if a record with `len` operands has this shape.
    pub fn accepts(self, len: usize) -> bool {
        match self {
            Shape::Fixed(n) => len == n as usize,
            Shape::Array(k) => len >= k as usize,
        }
    }

    /// Number of leading operands encoded one by one.
    pub fn prefix(self) -> usize {
        match self {
            Shape::Fixed(n) | Shape::Array(n) => n as usize,
        }
    }

    /// Number of slots: the leading operands, plus one for the array elements.
    pub fn slots(self) -> usize {
        match self {
            Shape::Fixed(n) => n as usize,
            Shape::Array(k) => k as usize + 1,
        }
    }

    /// True for array shapes.
    pub fn is_array(self) -> bool {
        matches!(self, Shape::Array(_))
    }
}

/// The statistics of a set of records of one shape.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Profile {
    /// One slot per leading operand, then (array shapes) one for all the elements.
    pub slots: Vec<Slot>,
    /// Number of records (weighted).
    pub records: u64,
    /// Bits of the array element counts of all the records.
    pub count_bits: u64,
}

impl Profile {
    /// An empty profile for records of `shape`.
    pub fn new(shape: Shape) -> Self {
        Profile { slots: vec![Slot::default(); shape.slots()], records: 0, count_bits: 0 }
    }

    /// Adds `weight` copies of a record with operands `ops` (which must have the shape).
    #[inline]
    pub fn add(&mut self, shape: Shape, ops: &[u64], weight: u64) {
        let k = shape.prefix();
        for (slot, &v) in self.slots.iter_mut().zip(&ops[..k]) {
            slot.add(v, weight);
        }
        if shape.is_array() {
            let elems = &mut self.slots[k];
            for &v in &ops[k..] {
                elems.add(v, weight);
            }
            self.count_bits += weight * vbr_len((ops.len() - k) as u64, ARRAY_COUNT_VBR);
        }
        self.records += weight;
    }

    /// Adds `weight` copies of a record, using the summary of its array elements when it
    /// has one (see [`Long`]).
    #[inline]
    pub fn add_record(&mut self, shape: Shape, ops: &[u64], weight: u64, long: Option<&Slot>) {
        let Some(elements) = long else { return self.add(shape, ops, weight) };
        let k = shape.prefix();
        for (slot, &v) in self.slots.iter_mut().zip(&ops[..k]) {
            slot.add(v, weight);
        }
        self.slots[k].merge_scaled(elements, weight);
        self.count_bits += weight * vbr_len((ops.len() - k) as u64, ARRAY_COUNT_VBR);
        self.records += weight;
    }

    /// Adds every record of `other` (a profile of the same shape).
    pub fn merge(&mut self, other: &Profile) {
        for (a, b) in self.slots.iter_mut().zip(&other.slots) {
            a.merge(b);
        }
        self.records += other.records;
        self.count_bits += other.count_bits;
    }

    /// Empties the profile.
    pub fn clear(&mut self) {
        self.slots.iter_mut().for_each(Slot::clear);
        self.records = 0;
        self.count_bits = 0;
    }

    /// The cheapest form for these records (with the encodings `enc` allows), and the bits
    /// their bodies take with it.
    pub fn fit(&self, code: u64, shape: Shape, enc: Encodings) -> (Form, u64) {
        let k = shape.prefix();
        let mut bits = self.count_bits;
        let mut prefix = Vec::with_capacity(k);
        for slot in &self.slots[..k] {
            let c = slot.best(true, enc);
            bits += c.bits;
            prefix.push(c.op);
        }
        let element = shape.is_array().then(|| {
            let c = self.slots[k].best(false, enc);
            bits += c.bits;
            c.op
        });
        (Form { code, prefix, element }, bits)
    }
}

/// Arrays longer than this are summarised once (see [`Long`]).
const LONG_ARRAY: usize = 64;

/// The element statistics of a group's records with long arrays (global initializers of
/// thousands of bytes), computed once: the search adds each record to many profiles, and
/// merging a summary costs the same whatever the array's length.
#[derive(Default)]
pub struct Long {
    summaries: std::collections::HashMap<u32, Slot>,
}

impl Long {
    /// Summaries of the long arrays among `members` (records of `shape`, by id in `table`).
    pub fn new(table: &crate::census::Table, members: &[u32], shape: Shape) -> Long {
        let mut summaries = std::collections::HashMap::new();
        if shape.is_array() {
            let k = shape.prefix();
            for &id in members {
                let ops = table.ops(id);
                if ops.len() - k > LONG_ARRAY {
                    let mut s = Slot::default();
                    for &v in &ops[k..] {
                        s.add(v, 1);
                    }
                    summaries.insert(id, s);
                }
            }
        }
        Long { summaries }
    }

    /// The summary of record `id`'s elements, if its array is long.
    #[inline]
    pub fn get(&self, id: u32) -> Option<&Slot> {
        if self.summaries.is_empty() { None } else { self.summaries.get(&id) }
    }
}

/// An abbreviation in the search's terms: a literal code, scalar leading operands and an
/// optional array element encoding.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Form {
    /// The record code (always written as a literal).
    pub code: u64,
    /// Encodings of the leading operands.
    pub prefix: Vec<Op>,
    /// Encoding of the array elements, for array forms.
    pub element: Option<Op>,
}

impl Form {
    /// The records the form can hold, by shape.
    pub fn shape(&self) -> Shape {
        let k = self.prefix.len() as u32;
        if self.element.is_some() { Shape::Array(k) } else { Shape::Fixed(k) }
    }

    /// The abbreviation's operand list.
    pub fn ops(&self) -> Vec<Op> {
        let mut ops = Vec::with_capacity(self.prefix.len() + 3);
        ops.push(Op::Literal(self.code));
        ops.extend_from_slice(&self.prefix);
        if let Some(e) = self.element {
            ops.push(Op::Array);
            ops.push(e);
        }
        ops
    }

    /// A key that orders forms by code, shape, then encodings.
    pub fn order_key(&self) -> (u64, Shape, Vec<u64>) {
        (self.code, self.shape(), self.abbrev().definition_values())
    }

    /// The abbreviation.
    pub fn abbrev(&self) -> Abbrev {
        Abbrev::new(self.ops()).expect("forms are well formed abbreviations")
    }

    /// Bits of a record's body written with this form, or `None` if the form can't hold it.
    #[inline]
    pub fn bits(&self, code: u64, ops: &[u64]) -> Option<u64> {
        if code != self.code || !self.shape().accepts(ops.len()) {
            return None;
        }
        let k = self.prefix.len();
        let mut bits = 0;
        for (&op, &v) in self.prefix.iter().zip(ops) {
            bits += scalar(op, v)?;
        }
        if let Some(e) = self.element {
            bits += vbr_len((ops.len() - k) as u64, ARRAY_COUNT_VBR);
            for &v in &ops[k..] {
                bits += scalar(e, v)?;
            }
        }
        Some(bits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pnacl_bitstream::BitWriter;

    #[test]
    fn fit_prices_records_as_the_writer_writes_them() {
        let records: [&[u64]; 4] = [&[1, 7, 300], &[1, 2, 3, 4, 5], &[1, 0, 0], &[1, 9, 70000, 8]];
        let shape = Shape::Array(1);
        let mut p = Profile::new(shape);
        for r in records {
            p.add(shape, r, 1);
        }
        let (form, bits) = p.fit(34, shape, Encodings::default());
        assert_eq!(form.prefix, vec![Op::Literal(1)]);
        let abbrev = form.abbrev();
        let mut total = 0;
        for r in records {
            let mut w = BitWriter::new();
            abbrev.encode(&mut w, 34, r, None);
            assert_eq!(form.bits(34, r), Some(w.pos().0));
            total += w.pos().0;
        }
        assert_eq!(bits, total);
        assert_eq!(form.bits(34, &[]), None);
        assert_eq!(form.bits(35, &[1]), None);
    }
}
