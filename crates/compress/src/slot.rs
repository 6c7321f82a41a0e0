//! The values one operand position takes over a set of records, and the cheapest encoding
//! of them.
//!
//! A [`Slot`] keeps what choosing an encoding needs and nothing more: how many values have
//! each bit length, whether they are all equal, whether they are all char6 characters.
//! Slots of disjoint record sets merge, so the search can price any union of buckets
//! without going back to the records.

use pnacl_bitstream::{Op, bits_needed, encode_char6};

/// Widest fixed or VBR field the search uses. The reference caps both at 32 bits
/// (`MaxAbbrevWidth`), and pnacl-llvm's reader (shared by pnacl-llc, Subzero and Chrome)
/// reads fixed fields and VBR chunks with a 32-bit `Read`, so nothing wider is safe.
pub const MAX_WIDTH: u32 = 32;

/// The distribution of one operand position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Slot {
    /// Number of values (weighted by record multiplicity).
    pub n: u64,
    /// Number of values by bit length (0 for the value 0, up to 64).
    hist: [u64; 65],
    /// A value of the slot (the first added).
    first: u64,
    /// Every value equals `first`.
    uniform: bool,
    /// Every value is in the char6 alphabet.
    char6: bool,
}

impl Default for Slot {
    fn default() -> Self {
        Slot { n: 0, hist: [0; 65], first: 0, uniform: true, char6: true }
    }
}

/// Which operand encodings the search may use. Everything is allowed normally; the
/// restrictions exist to measure what each encoding is worth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Encodings {
    /// Fixed and VBR fields of any width (up to [`MAX_WIDTH`]); when false, only `vbr(6)`,
    /// the one width Google's `pnacl-compress` ever wrote for a field it did not copy.
    pub fitted_widths: bool,
    /// char6 fields.
    pub char6: bool,
}

impl Default for Encodings {
    fn default() -> Self {
        Encodings { fitted_widths: true, char6: true }
    }
}

/// An encoding chosen for a slot and the bits it takes for all of the slot's values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Choice {
    /// The operand encoding.
    pub op: Op,
    /// Total bits of the slot's values with it.
    pub bits: u64,
}

impl Slot {
    /// Adds `weight` occurrences of `v`.
    #[inline]
    pub fn add(&mut self, v: u64, weight: u64) {
        if self.n == 0 {
            self.first = v;
        } else if v != self.first {
            self.uniform = false;
        }
        self.n += weight;
        self.hist[bits_needed(v) as usize] += weight;
        if self.char6 && encode_char6(v).is_none() {
            self.char6 = false;
        }
    }

    /// Adds every value of `other`.
    pub fn merge(&mut self, other: &Slot) {
        if other.n == 0 {
            return;
        }
        if self.n == 0 {
            self.clone_from(other);
            return;
        }
        self.uniform = self.uniform && other.uniform && self.first == other.first;
        self.char6 &= other.char6;
        self.n += other.n;
        for (a, b) in self.hist.iter_mut().zip(&other.hist) {
            *a += b;
        }
    }

    /// Adds every value of `other`, `times` times over.
    pub fn merge_scaled(&mut self, other: &Slot, times: u64) {
        if other.n == 0 || times == 0 {
            return;
        }
        if self.n == 0 {
            self.first = other.first;
            self.uniform = other.uniform;
            self.char6 = other.char6;
        } else {
            self.uniform = self.uniform && other.uniform && self.first == other.first;
            self.char6 &= other.char6;
        }
        self.n += other.n * times;
        for (a, b) in self.hist.iter_mut().zip(&other.hist) {
            *a += b * times;
        }
    }

    /// True if every value is a char6 character.
    pub fn all_char6(&self) -> bool {
        self.char6
    }

    /// Empties the slot.
    pub fn clear(&mut self) {
        *self = Slot::default();
    }

    /// Bit length of the largest value (0 when every value is 0 or there are none).
    pub fn max_bits(&self) -> u32 {
        self.hist.iter().rposition(|&c| c != 0).unwrap_or(0) as u32
    }

    /// Number of values of each bit length.
    pub fn histogram(&self) -> &[u64; 65] {
        &self.hist
    }

    /// The single value of the slot, if it has exactly one distinct value.
    pub fn uniform_value(&self) -> Option<u64> {
        (self.n > 0 && self.uniform).then_some(self.first)
    }

    /// The cheapest encoding of the slot's values among those `enc` allows. Literals are
    /// offered only when `literal` is set (not for array elements: a literal element is a
    /// PNaCl extension that upstream LLVM readers reject, so the search never writes one).
    pub fn best(&self, literal: bool, enc: Encodings) -> Choice {
        if self.n == 0 {
            // No values (an array that is always empty): any encoding costs nothing.
            return Choice { op: Op::Fixed(1), bits: 0 };
        }
        if literal && self.uniform {
            return Choice { op: Op::Literal(self.first), bits: 0 };
        }
        let max = self.max_bits();
        let mut best = None::<Choice>;
        if !enc.fitted_widths {
            let vbr6 = self.hist.iter().enumerate().map(|(b, &c)| c * vbr_len_of_bits(b as u64, 6)).sum();
            best = Some(Choice { op: Op::Vbr(6), bits: vbr6 });
        }
        let mut consider = |op: Op, bits: u64| {
            if best.is_none_or(|b| bits < b.bits) {
                best = Some(Choice { op, bits });
            }
        };
        // Fixed: only the narrowest width that holds every value can win among fixed ones.
        // fixed(0) is never written: pnacl-llvm reads it as a literal 0, older readers
        // assert on zero-width reads.
        let fixed = max.max(1);
        if enc.fitted_widths && fixed <= MAX_WIDTH {
            consider(Op::Fixed(fixed), self.n * u64::from(fixed));
        }
        // VBR: chunks wider than the widest value plus the continuation bit are dominated
        // by the fixed field. vbr(1) has no payload bits and is never valid.
        let mut buckets = [(0u64, 0u64); 65];
        let mut used = 0;
        for (b, &c) in self.hist[..=max as usize].iter().enumerate() {
            if c != 0 {
                buckets[used] = ((b as u64).max(1), c);
                used += 1;
            }
        }
        let buckets = &buckets[..used];
        let top = if enc.fitted_widths { (max + 1).min(MAX_WIDTH) } else { 0 };
        let widths = 2..=top;
        for w in widths {
            let payload = u64::from(w - 1);
            let bits: u64 = buckets.iter().map(|&(b, c)| c * b.div_ceil(payload)).sum::<u64>() * u64::from(w);
            consider(Op::Vbr(w), bits);
        }
        if self.char6 && enc.char6 {
            consider(Op::Char6, self.n * 6);
        }
        best.expect("a fixed or VBR encoding always applies")
    }
}

/// Bits of a VBR field of chunk width `w` holding a value of `bits` bits.
fn vbr_len_of_bits(bits: u64, w: u64) -> u64 {
    bits.max(1).div_ceil(w - 1) * w
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cost::scalar;

    fn slot(values: &[u64]) -> Slot {
        let mut s = Slot::default();
        for &v in values {
            s.add(v, 1);
        }
        s
    }

    #[test]
    fn best_is_exact_and_minimal() {
        let cases: [&[u64]; 6] = [
            &[0, 1, 2, 3, 1, 0],
            &[5, 5, 5],
            &[1, 1000, 2, 3, 4, 5, 6, 7, 8, 9],
            &[u64::MAX, 1, 2],
            &[b'a' as u64, b'Z' as u64, b'_' as u64],
            &[0xffff_ffff, 3],
        ];
        for values in cases {
            let s = slot(values);
            for literal in [false, true] {
                let c = s.best(literal, Encodings::default());
                let exact: u64 = values.iter().map(|&v| scalar(c.op, v).unwrap()).sum();
                assert_eq!(c.bits, exact, "{values:?} {c:?}");
                // No valid encoding is cheaper.
                let mut others: Vec<Op> = (1..=32).map(Op::Fixed).chain((2..=32).map(Op::Vbr)).collect();
                others.push(Op::Char6);
                for op in others {
                    if let Some(bits) = values.iter().map(|&v| scalar(op, v)).sum::<Option<u64>>() {
                        assert!(bits >= c.bits, "{values:?}: {op:?} takes {bits}, chose {c:?}");
                    }
                }
            }
        }
        assert_eq!(slot(&[5, 5]).best(true, Encodings::default()).op, Op::Literal(5));
        assert_eq!(slot(&[b'a' as u64, b'b' as u64, b'.' as u64]).best(false, Encodings::default()).op, Op::Char6);
    }

    #[test]
    fn merge_is_union() {
        let mut a = slot(&[1, 2]);
        a.merge(&slot(&[3, 900]));
        assert_eq!(a, slot(&[1, 2, 3, 900]));
        let mut u = slot(&[4]);
        u.merge(&slot(&[4, 4]));
        assert_eq!(u.uniform_value(), Some(4));
        u.merge(&slot(&[5]));
        assert_eq!(u.uniform_value(), None);
    }
}
