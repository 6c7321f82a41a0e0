//! Abbreviations: how application records are packed into bits.
//!
//! An abbreviation is a list of operand encodings. Reading one (`DEFINE_ABBREV`) checks it
//! against the rules of the bitstream format; decoding and encoding a record with one are
//! exact inverses. Operands keep the form they were written in (for example `fixed(0)` is not
//! turned into a literal), so a definition can always be written back bit for bit.

use crate::bits::{BitReader, BitWriter, bits_needed};
use crate::error::{Error, Result};
use crate::gather::ShiftGather;
use crate::op::{Op, decode_char6, encode_char6};
use crate::position::BitPos;
use crate::window::{MAX_WINDOW_VALUES, Packed};
use std::fmt;

/// An abbreviation: the operand encodings of a record, record code first.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Abbrev {
    ops: Vec<Op>,
    /// How to decode a record from one 64-bit window, for scalar abbreviations.
    packed: Option<Packed>,
}

/// Largest operand count a `DEFINE_ABBREV` may declare. Real abbreviations have a handful;
/// the cap keeps a corrupt count from driving a large allocation.
pub const MAX_ABBREV_OPS: u64 = 1 << 12;

impl Abbrev {
    /// Builds an abbreviation, checking the structural rules (non-empty; an array is
    /// second-to-last and followed by a scalar encoding; a blob is last; widths in range).
    pub fn new(ops: Vec<Op>) -> Result<Self, String> {
        if ops.is_empty() {
            return Err("abbreviation has no operands".into());
        }
        for (i, op) in ops.iter().enumerate() {
            let last = i + 1 == ops.len();
            match *op {
                Op::Fixed(w) if w > 64 => return Err(format!("fixed width {w} is larger than 64")),
                Op::Vbr(w) if w == 1 || w > 32 => return Err(format!("invalid VBR width {w}")),
                Op::Array => {
                    if i + 2 != ops.len() {
                        return Err("array must be the second-to-last operand".into());
                    }
                    if matches!(ops[i + 1], Op::Array | Op::Blob) {
                        return Err("array element can't be an array or a blob".into());
                    }
                }
                Op::Blob if !last => return Err("blob must be the last operand".into()),
                _ => {}
            }
        }
        let packed = Packed::plan(&ops);
        Ok(Abbrev { ops, packed })
    }

    /// The operand encodings, as defined.
    pub fn ops(&self) -> &[Op] {
        &self.ops
    }

    /// The plan for decoding a record from one window, if the abbreviation has one.
    pub(crate) fn packed(&self) -> Option<Packed> {
        self.packed
    }

    /// True if some operand is a blob.
    pub fn has_blob(&self) -> bool {
        self.ops.contains(&Op::Blob)
    }

    /// Reads the body of a `DEFINE_ABBREV` (everything after the abbreviation id).
    pub fn read_definition(r: &mut BitReader<'_>, start: BitPos) -> Result<Abbrev> {
        let count = r.read_vbr(5)?;
        if count > MAX_ABBREV_OPS || count > r.remaining_bits() {
            return Err(Error::abbreviation(start, format!("abbreviation declares {count} operands")));
        }
        let mut ops = Vec::with_capacity(count as usize);
        for _ in 0..count {
            let is_literal = r.read(1)? == 1;
            if is_literal {
                let v = r
                    .read_vbr(8)
                    .map_err(|e| Error::abbreviation(start, format!("abbreviation literal: {}", e.message)))?;
                ops.push(Op::Literal(v));
                continue;
            }
            let tag = r.read(3)?;
            let op = match tag {
                1 => Op::Fixed(read_width(r, start)?),
                2 => Op::Vbr(read_width(r, start)?),
                3 => Op::Array,
                4 => Op::Char6,
                5 => Op::Blob,
                _ => {
                    return Err(Error::abbreviation(
                        start,
                        format!("Invalid abbreviation encoding specified in bitcode file: {tag}"),
                    ));
                }
            };
            ops.push(op);
        }
        Abbrev::new(ops).map_err(|m| Error::abbreviation(start, m))
    }

    /// Writes the body of a `DEFINE_ABBREV` (everything after the abbreviation id).
    pub fn write_definition(&self, w: &mut BitWriter) {
        w.write_vbr(5, self.ops.len() as u64);
        for op in &self.ops {
            match *op {
                Op::Literal(v) => {
                    w.write(1, 1);
                    w.write_vbr(8, v);
                }
                Op::Fixed(n) | Op::Vbr(n) => {
                    w.write(1, 0);
                    w.write(3, op.encoding_tag());
                    w.write_vbr(5, u64::from(n));
                }
                Op::Array | Op::Char6 | Op::Blob => {
                    w.write(1, 0);
                    w.write(3, op.encoding_tag());
                }
            }
        }
    }

    /// The flat list of numbers a `DEFINE_ABBREV` carries: the operand count, then per
    /// operand `1, value` (literal), `0, 1, width` (fixed), `0, 2, width` (vbr), `0, 3`
    /// (array), `0, 4` (char6) or `0, 5` (blob).
    pub fn definition_values(&self) -> Vec<u64> {
        let mut v = vec![self.ops.len() as u64];
        for op in &self.ops {
            match *op {
                Op::Literal(c) => v.extend([1, c]),
                Op::Fixed(n) | Op::Vbr(n) => v.extend([0, op.encoding_tag(), u64::from(n)]),
                _ => v.extend([0, op.encoding_tag()]),
            }
        }
        v
    }

    /// Decodes one record's values (record code first) into `out`, which is cleared first.
    /// A blob operand's bytes are returned separately.
    #[inline]
    pub fn decode<'a>(&self, r: &mut BitReader<'a>, out: &mut Vec<u64>, start: BitPos) -> Result<Option<&'a [u8]>> {
        out.clear();
        if let Some(p) = &self.packed
            && let Some((window, avail)) = r.peek_window()
        {
            let mut values = [0; MAX_WINDOW_VALUES];
            if let Some(bits) = p.decode::<ShiftGather>(window, avail, &mut values) {
                r.consume(bits)?;
                out.extend_from_slice(&values[..p.len()]);
                return Ok(None);
            }
        }
        self.decode_fields(r, out, start)
    }

    /// Decodes a record field by field: records with arrays or blobs, and records that do
    /// not fit in one window.
    fn decode_fields<'a>(&self, r: &mut BitReader<'a>, out: &mut Vec<u64>, start: BitPos) -> Result<Option<&'a [u8]>> {
        out.clear();
        let mut blob = None;
        let mut i = 0;
        while i < self.ops.len() {
            match self.ops[i] {
                Op::Array => {
                    let elem = self.ops[i + 1];
                    let count = r.read_vbr(6)?;
                    // Each element takes at least one bit for this bound, even a zero-width one,
                    // so the count is checked against what is left before anything is allocated.
                    let min = elem.min_bits().max(1);
                    if count.saturating_mul(min) > r.remaining_bits() {
                        return Err(Error::new(
                            start,
                            format!("array of {count} elements is longer than the remaining data"),
                        ));
                    }
                    out.reserve(count as usize);
                    match elem {
                        Op::Fixed(w) if (1..=32).contains(&w) => read_fixed_array(r, out, count, w, |v| v)?,
                        Op::Char6 => read_fixed_array(r, out, count, 6, |v| u64::from(decode_char6(v as u8)))?,
                        _ => {
                            for _ in 0..count {
                                out.push(read_scalar(r, elem)?);
                            }
                        }
                    }
                    i += 2;
                }
                Op::Blob => {
                    let len = r.read_vbr(6)?;
                    r.align32()?;
                    if len.saturating_mul(8) > r.remaining_bits() {
                        return Err(Error::new(
                            start,
                            format!("blob of {len} bytes is longer than the remaining data"),
                        ));
                    }
                    let bytes = r.read_bytes(len as usize)?;
                    r.align32()?;
                    blob = Some(bytes);
                    i += 1;
                }
                op => {
                    out.push(read_scalar(r, op)?);
                    i += 1;
                }
            }
        }
        if out.is_empty() {
            return Err(Error::new(start, "abbreviated record has no record code"));
        }
        Ok(blob)
    }

    /// Checks whether a record (code and operands) can be written with this abbreviation.
    pub fn can_encode(&self, code: u64, ops: &[u64], blob: Option<&[u8]>) -> Result<(), String> {
        let values = Values { code, ops };
        let mut i = 0;
        for (j, op) in self.ops.iter().enumerate() {
            match *op {
                Op::Array => {
                    let elem = self.ops[j + 1];
                    for k in i.min(values.len())..values.len() {
                        check_scalar(elem, values.get(k))?;
                    }
                    i = values.len();
                    break;
                }
                Op::Blob => {
                    if blob.is_none() {
                        return Err("abbreviation has a blob but the record has none".into());
                    }
                }
                op => {
                    if i >= values.len() {
                        return Err(format!("record has {} values; abbreviation needs more", values.len()));
                    }
                    check_scalar(op, values.get(i))?;
                    i += 1;
                }
            }
        }
        if i != values.len() {
            return Err(format!("record has {} values; abbreviation takes {i}", values.len()));
        }
        if blob.is_some() && !self.has_blob() {
            return Err("record has a blob but the abbreviation has none".into());
        }
        Ok(())
    }

    /// Encodes a record (code and operands). Call [`Abbrev::can_encode`] first: encoding a
    /// record the abbreviation cannot represent panics.
    pub fn encode(&self, w: &mut BitWriter, code: u64, ops: &[u64], blob: Option<&[u8]>) {
        let values = Values { code, ops };
        let mut i = 0;
        for (j, op) in self.ops.iter().enumerate() {
            match *op {
                Op::Array => {
                    let elem = self.ops[j + 1];
                    let start = i.min(values.len());
                    w.write_vbr(6, (values.len() - start) as u64);
                    for k in start..values.len() {
                        write_scalar(w, elem, values.get(k));
                    }
                    break;
                }
                Op::Blob => {
                    let bytes = blob.expect("checked by can_encode");
                    w.write_vbr(6, bytes.len() as u64);
                    w.align32();
                    w.write_bytes(bytes);
                    w.align32();
                }
                op => {
                    write_scalar(w, op, values.get(i));
                    i += 1;
                }
            }
        }
    }

    /// Number of bits this abbreviation takes to encode a record, if it can.
    pub fn encoded_bits(&self, code: u64, ops: &[u64]) -> Option<u64> {
        self.can_encode(code, ops, None).ok()?;
        let values = Values { code, ops };
        let mut bits = 0;
        let mut i = 0;
        for (j, op) in self.ops.iter().enumerate() {
            match *op {
                Op::Array => {
                    let elem = self.ops[j + 1];
                    let start = i.min(values.len());
                    bits += crate::bits::vbr_len((values.len() - start) as u64, 6);
                    bits += (start..values.len()).map(|k| scalar_bits(elem, values.get(k))).sum::<u64>();
                    break;
                }
                Op::Blob => return None,
                op => {
                    bits += scalar_bits(op, values.get(i));
                    i += 1;
                }
            }
        }
        Some(bits)
    }
}

/// A record's values: the code, then the operands.
struct Values<'a> {
    code: u64,
    ops: &'a [u64],
}

impl Values<'_> {
    fn len(&self) -> usize {
        self.ops.len() + 1
    }

    fn get(&self, i: usize) -> u64 {
        if i == 0 { self.code } else { self.ops[i - 1] }
    }
}

impl fmt::Display for Abbrev {
    /// Prints the PNaClAsm form, e.g. `<1, vbr(8), array(char6)>`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("<")?;
        let mut i = 0;
        let mut first = true;
        while i < self.ops.len() {
            if !first {
                f.write_str(", ")?;
            }
            first = false;
            if self.ops[i] == Op::Array {
                write!(f, "array({})", self.ops[i + 1])?;
                i += 2;
            } else {
                write!(f, "{}", self.ops[i])?;
                i += 1;
            }
        }
        f.write_str(">")
    }
}

fn read_width(r: &mut BitReader<'_>, start: BitPos) -> Result<u32> {
    let w = r.read_vbr(5)?;
    u32::try_from(w).map_err(|_| Error::abbreviation(start, format!("abbreviation width {w} is too large")))
}

#[inline(always)]
fn read_scalar(r: &mut BitReader<'_>, op: Op) -> Result<u64> {
    match op {
        Op::Literal(v) => Ok(v),
        Op::Fixed(w) => r.read(w),
        Op::Vbr(0) => Ok(0),
        Op::Vbr(w) => r.read_vbr(w),
        Op::Char6 => Ok(u64::from(decode_char6(r.read(6)? as u8))),
        Op::Array | Op::Blob => unreachable!("checked when the abbreviation was built"),
    }
}

/// Reads `count` elements of `width` bits (1..=32) each, mapped by `map`: as many per
/// 64-bit window as it holds (global initializers are long arrays of bytes, symbol names
/// arrays of char6).
#[inline]
fn read_fixed_array(
    r: &mut BitReader<'_>,
    out: &mut Vec<u64>,
    count: u64,
    width: u32,
    map: impl Fn(u64) -> u64,
) -> Result<()> {
    let mask = u64::MAX >> (64 - width);
    let mut left = count;
    while left > 0 {
        let Some((window, avail)) = r.peek_window() else { break };
        let n = u64::from(avail / width).min(left) as u32;
        out.extend((0..n).map(|k| map((window >> (k * width)) & mask)));
        r.consume(n * width)?;
        left -= u64::from(n);
    }
    for _ in 0..left {
        out.push(map(r.read(width)?));
    }
    Ok(())
}

fn check_scalar(op: Op, v: u64) -> Result<(), String> {
    match op {
        Op::Literal(c) if c != v => Err(format!("value {v} does not match literal {c}")),
        Op::Fixed(w) if w < 64 && v >> w != 0 => Err(format!("value {v} does not fit in fixed({w})")),
        Op::Vbr(0) if v != 0 => Err(format!("value {v} does not fit in vbr(0)")),
        Op::Char6 if encode_char6(v).is_none() => Err(format!("value {v} is not a char6 character")),
        Op::Array | Op::Blob => Err("nested array or blob".into()),
        _ => Ok(()),
    }
}

#[inline]
fn write_scalar(w: &mut BitWriter, op: Op, v: u64) {
    match op {
        Op::Literal(_) | Op::Vbr(0) => {}
        Op::Fixed(n) => w.write(n, v),
        Op::Vbr(n) => w.write_vbr(n, v),
        Op::Char6 => w.write(6, u64::from(encode_char6(v).expect("checked by can_encode"))),
        Op::Array | Op::Blob => unreachable!(),
    }
}

fn scalar_bits(op: Op, v: u64) -> u64 {
    match op {
        Op::Literal(_) | Op::Vbr(0) => 0,
        Op::Fixed(n) => u64::from(n),
        Op::Vbr(n) => crate::bits::vbr_len(v, n),
        Op::Char6 => 6,
        Op::Array | Op::Blob => 0,
    }
}

/// Width, in bits, of a fixed field that can hold every value below `n` (at least 1).
pub fn fixed_width_for(n: u64) -> u32 {
    bits_needed(n).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(abbrev: &Abbrev, values: &[u64]) {
        abbrev.can_encode(values[0], &values[1..], None).unwrap();
        let mut w = BitWriter::new();
        abbrev.encode(&mut w, values[0], &values[1..], None);
        assert_eq!(Some(w.pos().0), abbrev.encoded_bits(values[0], &values[1..]));
        let data = w.finish();
        let mut r = BitReader::new(&data);
        let mut out = Vec::new();
        abbrev.decode(&mut r, &mut out, BitPos(0)).unwrap();
        assert_eq!(out, values);
    }

    #[test]
    fn encodes_and_decodes() {
        let a = Abbrev::new(vec![Op::Literal(1), Op::Vbr(8), Op::Array, Op::Char6]).unwrap();
        round_trip(&a, &[1, 300, b'_' as u64, b'a' as u64, b'Z' as u64]);
        round_trip(&a, &[1, 0]);
        let b = Abbrev::new(vec![Op::Array, Op::Fixed(8)]).unwrap();
        round_trip(&b, &[3, 1, 2, 255]);
        let c = Abbrev::new(vec![Op::Literal(4), Op::Fixed(0)]).unwrap();
        round_trip(&c, &[4, 0]);
        assert!(c.can_encode(4, &[1], None).is_err());
        assert!(a.can_encode(2, &[1], None).is_err());
        assert!(a.can_encode(1, &[1, 0x20], None).is_err());
    }

    #[test]
    fn long_arrays_span_windows() {
        for elem in [Op::Fixed(8), Op::Fixed(3), Op::Fixed(32), Op::Char6, Op::Vbr(6)] {
            let a = Abbrev::new(vec![Op::Literal(3), Op::Vbr(6), Op::Array, elem]).unwrap();
            let values: Vec<u64> = [3, 77]
                .into_iter()
                .chain((0..300u64).map(|k| match elem {
                    Op::Char6 => u64::from(decode_char6((k * 7) as u8)),
                    Op::Fixed(w) => (k * 2_654_435_761) & (u64::MAX >> (64 - w)),
                    _ => k * 5,
                }))
                .collect();
            round_trip(&a, &values);
        }
    }

    #[test]
    fn structural_rules() {
        assert!(Abbrev::new(vec![]).is_err());
        assert!(Abbrev::new(vec![Op::Array, Op::Fixed(8), Op::Fixed(1)]).is_err());
        assert!(Abbrev::new(vec![Op::Literal(1), Op::Array]).is_err());
        assert!(Abbrev::new(vec![Op::Array, Op::Array]).is_err());
        assert!(Abbrev::new(vec![Op::Blob, Op::Fixed(1)]).is_err());
        assert!(Abbrev::new(vec![Op::Vbr(1)]).is_err());
        assert!(Abbrev::new(vec![Op::Fixed(65)]).is_err());
    }

    #[test]
    fn definition_round_trip_and_display() {
        let a = Abbrev::new(vec![Op::Fixed(3), Op::Vbr(8), Op::Array, Op::Fixed(8)]).unwrap();
        let mut w = BitWriter::new();
        a.write_definition(&mut w);
        let data = w.finish();
        let mut r = BitReader::new(&data);
        assert_eq!(Abbrev::read_definition(&mut r, BitPos(0)).unwrap(), a);
        assert_eq!(a.to_string(), "<fixed(3), vbr(8), array(fixed(8))>");
        assert_eq!(a.definition_values(), vec![4, 0, 1, 3, 0, 2, 8, 0, 3, 0, 1, 8]);
    }

    #[test]
    fn huge_array_count_is_rejected_before_allocation() {
        let a = Abbrev::new(vec![Op::Literal(3), Op::Array, Op::Literal(0)]).unwrap();
        let mut w = BitWriter::new();
        w.write_vbr(6, 1 << 50);
        let data = w.finish();
        let mut out = Vec::new();
        assert!(a.decode(&mut BitReader::new(&data), &mut out, BitPos(0)).is_err());
    }
}
