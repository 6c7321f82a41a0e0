//! Decoding a whole record from one 64-bit load.
//!
//! Most records of a pexe are a handful of short fields. Reading them field by field costs a
//! bounds check and a load each; instead a record is decoded from the 57 to 64 bits one
//! unaligned load at its position yields ([`BitReader::peek_window`]), and the reader moves
//! once. Records that do not end within the window take the field-by-field path.
//!
//! VBR fields are split without a loop over their chunks: a field ends at the first chunk
//! whose continuation bit is clear, which is the lowest set bit of `!window` under the mask
//! of continuation-bit positions, and its payload is gathered by dropping those bits (one
//! `pext`, or a few shifts and masks: see [`crate::gather`]). Values of relative operands
//! are mostly one or two chunks, so a chunk-by-chunk loop would branch unpredictably on
//! every field.
//!
//! [`BitReader::peek_window`]: crate::bits::BitReader::peek_window

use crate::bits::BitReader;
use crate::error::Result;
use crate::gather::{Gather, continuation_bits};
use crate::op::{Op, decode_char6};

/// The fewest valid bits [`crate::bits::BitReader::peek_window`] ever returns.
const MIN_WINDOW_BITS: u32 = 57;

/// Most fields a [`Packed`] plan decodes (zero-width ones included). PNaCl's abbreviations
/// have at most five; the plan is stored inline so that finding it takes one load.
const MAX_PACKED_FIELDS: usize = 8;

const VBR6_CONTINUATION_BITS: u64 = continuation_bits(6);

/// The low `len` bits set (`len` in 1..=64).
#[inline(always)]
fn low_bits(len: u32) -> u64 {
    u64::MAX >> (64 - len)
}

/// Walks the VBR6 fields of a window (an unabbreviated record: code, count, operands).
pub(crate) struct Vbr6Fields {
    window: u64,
    /// Continuation bits of the window that are clear: where a field ends.
    ends: u64,
    /// The bits of the fields read so far (the low ones): a mask rather than a count, so
    /// that the next field is found with masks alone, without variable shifts.
    done: u64,
}

impl Vbr6Fields {
    /// Starts at bit 0 of `window`, of which the low `avail` bits are valid.
    #[inline(always)]
    pub(crate) fn new(window: u64, avail: u32) -> Self {
        Vbr6Fields { window, ends: !window & VBR6_CONTINUATION_BITS & low_bits(avail), done: 0 }
    }

    /// The next field, or `None` if it does not end within the window.
    #[inline(always)]
    pub(crate) fn next_field<G: Gather>(&mut self) -> Option<u64> {
        if self.ends == 0 {
            return None;
        }
        // The bits up to the field's end: those up to and including the lowest set bit.
        let upto = self.ends ^ (self.ends - 1);
        self.ends &= self.ends - 1;
        let v = G::gather_field(self.window, upto & !self.done, 6, VBR6_CONTINUATION_BITS);
        self.done = upto;
        Some(v)
    }

    /// Bits taken by the fields read so far.
    #[inline(always)]
    pub(crate) fn used(&self) -> u32 {
        64 - self.done.leading_zeros()
    }
}

/// The operands of an unabbreviated record too long for one window, read a window at a time
/// (used by the cursor's field-by-field path; a method of [`BitReader`] so that path reads
/// as the other field reads).
impl BitReader<'_> {
    /// Reads `count` VBR6 values into `out`: the operands of an unabbreviated record too
    /// long for one window. They are decoded a window at a time; a value that does not fit
    /// in a window, or runs past the limit, is read by [`BitReader::read_vbr`], which also
    /// reports any error.
    pub(crate) fn read_vbr6_values<G: Gather>(&mut self, count: u64, out: &mut Vec<u64>) -> Result<()> {
        let mut left = count;
        while left > 0 {
            let mut decoded = 0;
            if let Some((window, avail)) = self.peek_window() {
                let mut fields = Vbr6Fields::new(window, avail);
                while decoded < left
                    && let Some(v) = fields.next_field::<G>()
                {
                    out.push(v);
                    decoded += 1;
                }
                if decoded > 0 && !self.try_consume(fields.used()) {
                    out.truncate(out.len() - decoded as usize);
                    decoded = 0;
                }
            }
            if decoded == 0 {
                out.push(self.read_vbr(6)?);
                decoded = 1;
            }
            left -= decoded;
        }
        Ok(())
    }
}

/// One field of a [`Packed`] plan.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Field {
    /// A literal, or a zero-width fixed or VBR field (always 0).
    Value(u64),
    Fixed {
        width: u32,
    },
    Vbr {
        width: u32,
        continuation: u64,
    },
    /// VBR fields of the widths PNaCl's abbreviations use, decoded with constant masks.
    Vbr4,
    Vbr6,
    Vbr8,
    Char6,
}

/// Decodes a VBR field of `width`-bit chunks (whose continuation bits are `continuation`)
/// at bit `at` of `window`, of which the bits set in `valid` (the low `avail`) are valid.
/// Returns the value and where the field ends.
#[inline(always)]
fn vbr_field<G: Gather>(
    window: u64,
    valid: u64,
    avail: u32,
    at: u32,
    width: u32,
    continuation: u64,
) -> Option<(u64, u32)> {
    if at >= avail {
        return None;
    }
    let continuation = continuation << at;
    let ends = !window & continuation & valid;
    if ends == 0 {
        return None;
    }
    // The field's bits: from `at` up to and including the lowest set bit of `ends`.
    let field = (ends ^ (ends - 1)) & (u64::MAX << at);
    Some((G::gather_field(window, field, width, continuation), ends.trailing_zeros() + 1))
}

/// Room for the values of a record decoded from one window: a [`Packed`] plan produces at
/// most [`MAX_PACKED_FIELDS`], and an unabbreviated record has at most eight operands of
/// six bits after its code and count.
pub(crate) const MAX_WINDOW_VALUES: usize = 10;

/// Room for the values of a record the cursor's fast path decodes: one window's worth, or
/// the operands of an unabbreviated record read over several windows by
/// [`unabbrev_windows`] (call records with many arguments, long phis).
pub(crate) const MAX_RECORD_VALUES: usize = 64;

/// The first [`MAX_WINDOW_VALUES`] of a record buffer, for the one-window decoders.
#[inline(always)]
pub(crate) fn window_part(values: &mut [u64; MAX_RECORD_VALUES]) -> &mut [u64; MAX_WINDOW_VALUES] {
    values.first_chunk_mut().expect("the record buffer holds a window's values")
}

/// Decodes an unabbreviated record (VBR6 code, count and operands) that starts at bit `pos`
/// of `data` and ends past the first window, a window at a time, into `out`. Returns its
/// code, its number of operands and the bit after it; or `None` (leaving the record to the
/// field-by-field path, which also reports any error) if it has more than
/// [`MAX_RECORD_VALUES`] operands, holds a value longer than a window, or comes too near
/// the end of `data`. The caller checks the end against its limit.
///
/// Out of line: such records are one in twenty, and inlined this would crowd the record
/// loop.
#[inline(never)]
pub(crate) fn unabbrev_windows<G: Gather>(
    data: &[u8],
    pos: u64,
    out: &mut [u64; MAX_RECORD_VALUES],
) -> Option<(u64, usize, u64)> {
    let (window, avail) = crate::bits::window_at(data, pos)?;
    let mut fields = Vbr6Fields::new(window, avail);
    let code = fields.next_field::<G>()?;
    let count = usize::try_from(fields.next_field::<G>()?).ok()?;
    if count > MAX_RECORD_VALUES {
        return None;
    }
    let (mut done, mut at) = (0, pos);
    loop {
        while done < count
            && let Some(v) = fields.next_field::<G>()
        {
            out[done] = v;
            done += 1;
        }
        // No progress in a fresh window: a value longer than a window.
        if fields.used() == 0 {
            return None;
        }
        at += u64::from(fields.used());
        if done == count {
            return Some((code, count, at));
        }
        let (window, avail) = crate::bits::window_at(data, at)?;
        fields = Vbr6Fields::new(window, avail);
    }
}

/// The shapes of PNaCl's standard abbreviations: a literal record code, then up to three
/// VBR6, VBR4, VBR8 or fixed fields. Each is decoded by straight-line code, so a record
/// costs one branch on its shape rather than one per field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Shape {
    /// Any other abbreviation, decoded field by field.
    General,
    /// `[literal]` (ret void, unreachable).
    L,
    /// `[literal, vbr6]` (ret, reloc).
    LV6,
    /// `[literal, vbr8]` (integer and float constants, zerofill, compound).
    LV8,
    /// `[literal, fixed]` (set type).
    LF,
    /// `[literal, vbr6, vbr6]` (reloc with addend).
    LV6V6,
    /// `[literal, vbr6, fixed]` (forward type declaration, var).
    LV6F,
    /// `[literal, vbr6, vbr4, vbr4]` (load).
    LV6V4V4,
    /// `[literal, vbr6, vbr6, vbr4]` (store).
    LV6V6V4,
    /// `[literal, vbr6, vbr6, fixed]` (binop).
    LV6V6F,
    /// `[literal, vbr6, fixed, fixed]` (cast).
    LV6FF,
}

/// How to decode a scalar abbreviation (literal, fixed, VBR and char6 operands only) from
/// one window.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Packed {
    len: usize,
    fields: [Field; MAX_PACKED_FIELDS],
    shape: Shape,
    /// For a shape other than `General`: the literal and the widths of the fixed fields.
    lit: u64,
    fixed: [u32; 2],
}

/// A VBR field of `W`-bit chunks at bit `at`: see [`vbr_field`].
#[inline(always)]
fn vbr<G: Gather, const W: u32>(window: u64, valid: u64, avail: u32, at: u32) -> Option<(u64, u32)> {
    vbr_field::<G>(window, valid, avail, at, W, const { continuation_bits(W) })
}

/// A fixed field of `width` bits at bit `at` of `window`, of which the low `avail` bits are
/// valid: its value and where it ends.
#[inline(always)]
fn fixed(window: u64, avail: u32, at: u32, width: u32) -> Option<(u64, u32)> {
    if at + width > avail {
        return None;
    }
    Some(((window >> at) & low_bits(width), at + width))
}

impl Packed {
    /// The plan for an abbreviation's operands, if they are all scalar and few enough.
    pub(crate) fn plan(ops: &[Op]) -> Option<Packed> {
        if ops.len() > MAX_PACKED_FIELDS {
            return None;
        }
        let mut fields = [Field::Value(0); MAX_PACKED_FIELDS];
        for (field, op) in fields.iter_mut().zip(ops) {
            *field = match *op {
                Op::Literal(v) => Field::Value(v),
                Op::Fixed(0) | Op::Vbr(0) => Field::Value(0),
                Op::Fixed(w) if w <= MIN_WINDOW_BITS => Field::Fixed { width: w },
                Op::Vbr(4) => Field::Vbr4,
                Op::Vbr(6) => Field::Vbr6,
                Op::Vbr(8) => Field::Vbr8,
                Op::Vbr(w) => Field::Vbr { width: w, continuation: continuation_bits(w) },
                Op::Char6 => Field::Char6,
                Op::Fixed(_) | Op::Array | Op::Blob => return None,
            };
        }
        use Field::{Fixed as F, Value as L, Vbr4 as V4, Vbr6 as V6, Vbr8 as V8};
        let (shape, lit, fixed) = match fields[..ops.len()] {
            [L(c)] => (Shape::L, c, [0, 0]),
            [L(c), V6] => (Shape::LV6, c, [0, 0]),
            [L(c), V8] => (Shape::LV8, c, [0, 0]),
            [L(c), F { width }] => (Shape::LF, c, [width, 0]),
            [L(c), V6, V6] => (Shape::LV6V6, c, [0, 0]),
            [L(c), V6, F { width }] => (Shape::LV6F, c, [width, 0]),
            [L(c), V6, V4, V4] => (Shape::LV6V4V4, c, [0, 0]),
            [L(c), V6, V6, V4] => (Shape::LV6V6V4, c, [0, 0]),
            [L(c), V6, V6, F { width }] => (Shape::LV6V6F, c, [width, 0]),
            [L(c), V6, F { width: a }, F { width: b }] => (Shape::LV6FF, c, [a, b]),
            _ => (Shape::General, 0, [0, 0]),
        };
        Some(Packed { len: ops.len(), fields, shape, lit, fixed })
    }

    /// How many values the plan decodes (record code included).
    #[inline(always)]
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Decodes the record at the start of `window` (whose low `avail` bits are valid) into
    /// `out[..self.len()]`; returns the bits it takes, or `None` if it does not end within
    /// the window.
    #[inline(always)]
    pub(crate) fn decode<G: Gather>(&self, window: u64, avail: u32, out: &mut [u64; MAX_WINDOW_VALUES]) -> Option<u32> {
        let valid = low_bits(avail);
        let (w, v, lit, [f1, f2]) = (window, valid, self.lit, self.fixed);
        // Each arm decodes its fields in order; `at` is where the next field starts.
        let at = match self.shape {
            Shape::General => return self.decode_fields::<G>(window, avail, out),
            Shape::L => {
                out[0] = lit;
                0
            }
            Shape::LV6 => {
                let (a, at) = vbr::<G, 6>(w, v, avail, 0)?;
                out[..2].copy_from_slice(&[lit, a]);
                at
            }
            Shape::LV8 => {
                let (a, at) = vbr::<G, 8>(w, v, avail, 0)?;
                out[..2].copy_from_slice(&[lit, a]);
                at
            }
            Shape::LF => {
                let (a, at) = fixed(w, avail, 0, f1)?;
                out[..2].copy_from_slice(&[lit, a]);
                at
            }
            Shape::LV6V6 => {
                let (a, at) = vbr::<G, 6>(w, v, avail, 0)?;
                let (b, at) = vbr::<G, 6>(w, v, avail, at)?;
                out[..3].copy_from_slice(&[lit, a, b]);
                at
            }
            Shape::LV6F => {
                let (a, at) = vbr::<G, 6>(w, v, avail, 0)?;
                let (b, at) = fixed(w, avail, at, f1)?;
                out[..3].copy_from_slice(&[lit, a, b]);
                at
            }
            Shape::LV6V4V4 => {
                let (a, at) = vbr::<G, 6>(w, v, avail, 0)?;
                let (b, at) = vbr::<G, 4>(w, v, avail, at)?;
                let (c, at) = vbr::<G, 4>(w, v, avail, at)?;
                out[..4].copy_from_slice(&[lit, a, b, c]);
                at
            }
            Shape::LV6V6V4 => {
                let (a, at) = vbr::<G, 6>(w, v, avail, 0)?;
                let (b, at) = vbr::<G, 6>(w, v, avail, at)?;
                let (c, at) = vbr::<G, 4>(w, v, avail, at)?;
                out[..4].copy_from_slice(&[lit, a, b, c]);
                at
            }
            Shape::LV6V6F => {
                let (a, at) = vbr::<G, 6>(w, v, avail, 0)?;
                let (b, at) = vbr::<G, 6>(w, v, avail, at)?;
                let (c, at) = fixed(w, avail, at, f1)?;
                out[..4].copy_from_slice(&[lit, a, b, c]);
                at
            }
            Shape::LV6FF => {
                let (a, at) = vbr::<G, 6>(w, v, avail, 0)?;
                let (b, at) = fixed(w, avail, at, f1)?;
                let (c, at) = fixed(w, avail, at, f2)?;
                out[..4].copy_from_slice(&[lit, a, b, c]);
                at
            }
        };
        Some(at)
    }

    /// [`Packed::decode`] for an abbreviation of no particular shape, field by field.
    #[inline(always)]
    fn decode_fields<G: Gather>(&self, window: u64, avail: u32, out: &mut [u64; MAX_WINDOW_VALUES]) -> Option<u32> {
        let valid = low_bits(avail);
        let mut at = 0u32;
        let fields = &self.fields[..self.len];
        for (f, out) in fields.iter().zip(&mut out[..MAX_PACKED_FIELDS]) {
            let (v, end) = match *f {
                Field::Value(v) => (v, at),
                Field::Fixed { width } => fixed(window, avail, at, width)?,
                Field::Vbr { width, continuation } => vbr_field::<G>(window, valid, avail, at, width, continuation)?,
                Field::Vbr4 => vbr::<G, 4>(window, valid, avail, at)?,
                Field::Vbr6 => vbr::<G, 6>(window, valid, avail, at)?,
                Field::Vbr8 => vbr::<G, 8>(window, valid, avail, at)?,
                Field::Char6 => {
                    let (c, end) = fixed(window, avail, at, 6)?;
                    (u64::from(decode_char6(c as u8)), end)
                }
            };
            at = end;
            *out = v;
        }
        Some(at)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::bits::{BitReader, BitWriter};
    use crate::gather::{PextGather, ShiftGather};

    /// Runs a check with every gather this processor can run.
    macro_rules! with_each_gather {
        ($check:ident) => {{
            $check::<ShiftGather>();
            if PextGather::available() {
                $check::<PextGather>();
            }
        }};
    }

    /// A small deterministic generator (xorshift), so the tests need no crate.
    pub(crate) struct Rng(pub(crate) u64);

    impl Rng {
        pub(crate) fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }

        /// A value of a random bit length up to `bits`, so short and long values both occur.
        fn value(&mut self, bits: u32) -> u64 {
            let len = self.next() % u64::from(bits + 1);
            if len == 0 { 0 } else { self.next() & (u64::MAX >> (64 - len)) }
        }
    }

    #[test]
    fn vbr6_fields_match_the_bit_reader() {
        with_each_gather!(vbr6_fields_match);
    }

    fn vbr6_fields_match<G: Gather>() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        for _ in 0..20_000 {
            let mut w = BitWriter::new();
            let values: Vec<u64> = (0..12).map(|_| rng.value(20)).collect();
            for &v in &values {
                w.write_vbr(6, v);
            }
            let data = w.finish();
            let mut r = BitReader::new(&data);
            let (window, avail) = r.peek_window().unwrap();
            let mut fields = Vbr6Fields::new(window, avail);
            for &v in &values {
                let before = r.pos().0;
                match fields.next_field::<G>() {
                    Some(got) => {
                        assert_eq!(got, v);
                        assert_eq!(r.read_vbr(6).unwrap(), v);
                        assert_eq!(u64::from(fields.used()), r.pos().0, "field ended at {before}");
                    }
                    None => {
                        // Refused only when the field really runs past the window.
                        let len = crate::bits::vbr_len(v, 6);
                        assert!(before + len > u64::from(avail));
                        break;
                    }
                }
            }
        }
    }

    #[test]
    fn unabbreviated_records_over_windows_match_the_bit_reader() {
        with_each_gather!(unabbreviated_records_match);
    }

    fn unabbreviated_records_match<G: Gather>() {
        // Records of up to 80 operands of up to 60 bits, cut short half the time: what
        // `unabbrev_windows` decodes must be what the field-by-field reader reads, and it
        // may only refuse a record too long, with a value too long for a window, or too
        // near the end of the data.
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        let mut decoded = 0;
        for _ in 0..20_000 {
            let mut w = BitWriter::new();
            let code = rng.value(12);
            let count = (rng.next() % 81) as usize;
            let bits = if rng.next().is_multiple_of(8) { 60 } else { 14 };
            let values: Vec<u64> = (0..count).map(|_| rng.value(bits)).collect();
            w.write_vbr(6, code);
            w.write_vbr(6, count as u64);
            for &v in &values {
                w.write_vbr(6, v);
            }
            let end = w.pos().0;
            // What follows a record in a stream.
            w.write(64, rng.next());
            let mut data = w.finish();
            if rng.next().is_multiple_of(2) {
                data.truncate((rng.next() % (data.len() as u64 + 1)) as usize);
            }
            let mut out = [0; MAX_RECORD_VALUES];
            let Some((got_code, got_count, next)) = unabbrev_windows::<G>(&data, 0, &mut out) else {
                let long_value = values.iter().any(|&v| crate::bits::vbr_len(v, 6) > u64::from(MIN_WINDOW_BITS));
                assert!(count > MAX_RECORD_VALUES || long_value || end + 64 > data.len() as u64 * 8);
                continue;
            };
            decoded += 1;
            let mut r = BitReader::new(&data);
            assert_eq!((got_code, got_count), (r.read_vbr(6).unwrap(), r.read_vbr(6).unwrap() as usize));
            for &v in &out[..got_count] {
                assert_eq!(v, r.read_vbr(6).unwrap());
            }
            assert_eq!((next, &out[..got_count]), (r.pos().0, &values[..]));
        }
        assert!(decoded > 5_000, "{decoded} records decoded");
    }

    #[test]
    fn long_vbr6_runs_match_the_bit_reader() {
        with_each_gather!(long_vbr6_runs_match);
    }

    fn long_vbr6_runs_match<G: Gather>() {
        // Runs longer than a window, values up to 50 bits (longer than a window's fields
        // can be), and data cut short at every kind of place: the window-by-window reader
        // must give the field-by-field reader's values, or its error at its position.
        let mut rng = Rng(7);
        for _ in 0..3_000 {
            let mut w = BitWriter::new();
            let count = 1 + rng.next() % 40;
            for _ in 0..count {
                let bits = if rng.next().is_multiple_of(8) { 50 } else { 14 };
                w.write_vbr(6, rng.value(bits));
            }
            let data = w.finish();
            let cut = if rng.next().is_multiple_of(2) { data.len() } else { (rng.next() % data.len() as u64) as usize };
            let mut fast = BitReader::new(&data);
            fast.set_limit(cut).unwrap();
            let mut slow = fast.clone();
            let mut got = Vec::new();
            let got = fast.read_vbr6_values::<G>(count, &mut got).map(|()| got);
            let want: crate::error::Result<Vec<u64>> = (0..count).map(|_| slow.read_vbr(6)).collect();
            assert_eq!(got, want);
            if want.is_ok() {
                assert_eq!(fast.pos(), slow.pos());
            }
        }
    }

    #[test]
    fn packed_plans_match_the_bit_reader() {
        with_each_gather!(packed_plans_match);
    }

    fn packed_plans_match<G: Gather>() {
        // Every `Shape`, then abbreviations of no particular shape.
        let shapes: [&[Op]; 13] = [
            &[Op::Literal(10)],
            &[Op::Literal(10), Op::Vbr(6)],
            &[Op::Literal(4), Op::Vbr(8)],
            &[Op::Literal(1), Op::Fixed(5)],
            &[Op::Literal(2), Op::Vbr(6), Op::Vbr(6)],
            &[Op::Literal(43), Op::Vbr(6), Op::Fixed(5)],
            &[Op::Literal(20), Op::Vbr(6), Op::Vbr(4), Op::Vbr(4)],
            &[Op::Literal(44), Op::Vbr(6), Op::Vbr(6), Op::Vbr(4)],
            &[Op::Literal(2), Op::Vbr(6), Op::Vbr(6), Op::Fixed(4)],
            &[Op::Literal(3), Op::Vbr(6), Op::Fixed(5), Op::Fixed(4)],
            &[Op::Fixed(3), Op::Char6, Op::Vbr(2), Op::Fixed(0), Op::Vbr(0), Op::Fixed(17)],
            &[Op::Vbr(32), Op::Fixed(1)],
            &[Op::Vbr(3), Op::Vbr(3), Op::Vbr(3), Op::Fixed(57)],
        ];
        let mut rng = Rng(42);
        for (i, ops) in shapes.into_iter().enumerate() {
            let plan = Packed::plan(ops).unwrap();
            assert_eq!(plan.shape != Shape::General, i < 10, "{ops:?}");
            for _ in 0..5_000 {
                let mut w = BitWriter::new();
                let mut values = Vec::new();
                for op in ops {
                    let v = match *op {
                        Op::Literal(v) => v,
                        Op::Fixed(n) => {
                            let v = rng.value(n);
                            w.write(n, v);
                            v
                        }
                        Op::Vbr(0) => 0,
                        Op::Vbr(n) => {
                            let v = rng.value(24);
                            w.write_vbr(n, v);
                            v
                        }
                        Op::Char6 => {
                            let c = rng.next() % 64;
                            w.write(6, c);
                            u64::from(decode_char6(c as u8))
                        }
                        Op::Array | Op::Blob => unreachable!(),
                    };
                    values.push(v);
                }
                let bits = w.pos().0;
                w.write(64, rng.next());
                let data = w.finish();
                let (window, avail) = BitReader::new(&data).peek_window().unwrap();
                let mut out = [0; MAX_WINDOW_VALUES];
                match plan.decode::<G>(window, avail, &mut out) {
                    Some(used) => {
                        assert_eq!(out[..plan.len()], values, "{ops:?}");
                        assert_eq!(u64::from(used), bits);
                    }
                    None => assert!(bits > u64::from(avail), "{ops:?} {values:?} refused in {bits} bits"),
                }
            }
        }
    }

    #[test]
    fn wide_and_nonscalar_operands_have_no_plan() {
        assert!(Packed::plan(&[Op::Fixed(58)]).is_none());
        assert!(Packed::plan(&[Op::Literal(1), Op::Array, Op::Fixed(8)]).is_none());
        assert!(Packed::plan(&[Op::Blob]).is_none());
        assert!(Packed::plan(&[Op::Literal(0); 9]).is_none());
    }
}
