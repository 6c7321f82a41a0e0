//! Bit-level reading and writing: fixed-width fields, VBR fields and 32-bit alignment.
//!
//! Bits are packed least-significant first into little-endian bytes, as in every LLVM
//! bitstream. The reader is zero-copy over a byte slice and checks every access against a
//! movable limit, so a block can be confined to the length its header declares.

use crate::error::{Error, Result};
use crate::position::BitPos;

/// A cursor over the bits of a byte slice.
///
/// Positions are absolute: the slice is the whole file, and `BitPos(0)` is its first bit.
/// Reads never go past `limit` (a byte offset, initially the slice length).
///
/// Each read is an unaligned 64-bit little-endian load at the current position, shifted and
/// masked; there is no buffered state, so seeking and limiting are free.
#[derive(Clone)]
pub struct BitReader<'a> {
    data: &'a [u8],
    /// Reads stop at this bit position.
    limit_bits: u64,
    /// The next unread bit.
    pos: u64,
}

/// The bits of `data` from bit `pos` on, as [`BitReader::peek_window`] gives them.
#[inline(always)]
pub(crate) fn window_at(data: &[u8], pos: u64) -> Option<(u64, u32)> {
    let byte = (pos >> 3) as usize;
    let bytes = data.get(byte..byte + 8)?;
    let shift = (pos & 7) as u32;
    Some((u64::from_le_bytes(bytes.try_into().expect("8 bytes")) >> shift, 64 - shift))
}

impl<'a> BitReader<'a> {
    /// Creates a reader positioned at bit 0 of `data`.
    pub fn new(data: &'a [u8]) -> Self {
        BitReader { data, limit_bits: data.len() as u64 * 8, pos: 0 }
    }

    /// Creates a reader positioned at `pos`, which must lie within `data`.
    pub fn at(data: &'a [u8], pos: BitPos) -> Result<Self> {
        let mut r = BitReader::new(data);
        r.seek(pos)?;
        Ok(r)
    }

    /// The whole underlying byte slice.
    pub fn data(&self) -> &'a [u8] {
        self.data
    }

    /// The absolute position of the next unread bit.
    #[inline]
    pub fn pos(&self) -> BitPos {
        BitPos(self.pos)
    }

    /// The read limit, as a byte offset.
    pub fn limit(&self) -> usize {
        (self.limit_bits / 8) as usize
    }

    /// The read limit, in bits.
    #[inline]
    pub(crate) fn limit_bits(&self) -> u64 {
        self.limit_bits
    }

    /// Moves to `pos`, which the caller found to lie within the limit.
    #[inline]
    pub(crate) fn set_pos(&mut self, pos: u64) {
        debug_assert!(pos <= self.limit_bits);
        self.pos = pos;
    }

    /// Number of bits left before the limit.
    #[inline]
    pub fn remaining_bits(&self) -> u64 {
        self.limit_bits.saturating_sub(self.pos)
    }

    /// True when no bits remain before the limit.
    pub fn at_end(&self) -> bool {
        self.remaining_bits() == 0
    }

    /// Moves to an absolute bit position (not beyond the limit).
    pub fn seek(&mut self, pos: BitPos) -> Result<()> {
        if pos.0 > self.limit_bits {
            return Err(Error::new(pos, "position is beyond the end of the data"));
        }
        self.pos = pos.0;
        Ok(())
    }

    /// Sets the read limit (a byte offset not beyond the data and not before the position).
    pub fn set_limit(&mut self, limit: usize) -> Result<()> {
        if limit > self.data.len() || (limit as u64) * 8 < self.pos {
            return Err(Error::new(self.pos(), "block extends beyond its enclosing data"));
        }
        self.limit_bits = limit as u64 * 8;
        Ok(())
    }

    /// Reads a fixed-width field of `width` bits (0..=64).
    #[inline]
    pub fn read(&mut self, width: u32) -> Result<u64> {
        debug_assert!(width <= 64);
        let end = self.pos + u64::from(width);
        if end > self.limit_bits {
            return Err(self.eof(width));
        }
        let byte = (self.pos >> 3) as usize;
        let shift = (self.pos & 7) as u32;
        let v = match self.data.get(byte..byte + 8) {
            Some(bytes) if width + shift <= 64 => {
                let w = u64::from_le_bytes(bytes.try_into().expect("8 bytes")) >> shift;
                if width == 64 { w } else { w & ((1u64 << width) - 1) }
            }
            _ => self.read_slow(width),
        };
        self.pos = end;
        Ok(v)
    }

    /// Bit-by-byte read for the last bytes of the data and for wide unaligned fields.
    #[cold]
    fn read_slow(&self, width: u32) -> u64 {
        let mut v = 0u64;
        let mut got = 0u32;
        let mut pos = self.pos;
        while got < width {
            let byte = u64::from(self.data[(pos >> 3) as usize]);
            let shift = (pos & 7) as u32;
            let take = (8 - shift).min(width - got);
            let bits = (byte >> shift) & ((1u64 << take) - 1);
            v |= bits << got;
            got += take;
            pos += u64::from(take);
        }
        v
    }

    #[cold]
    fn eof(&self, width: u32) -> Error {
        Error::new(self.pos(), format!("unexpected end of data reading {width} bits"))
    }

    /// Reads a variable-bit-rate field with chunks of `width` bits (2..=32).
    ///
    /// Values that do not fit in 64 bits are rejected rather than truncated.
    #[inline]
    pub fn read_vbr(&mut self, width: u32) -> Result<u64> {
        debug_assert!((2..=32).contains(&width));
        let byte = (self.pos >> 3) as usize;
        if let Some(bytes) = self.data.get(byte..byte + 8) {
            // Decode as many chunks as one 64-bit load holds (at least 57 bits); values that
            // need more fall through to the chunk-by-chunk path.
            let shift = (self.pos & 7) as u32;
            let word = u64::from_le_bytes(bytes.try_into().expect("8 bytes")) >> shift;
            let avail = 64 - shift;
            let hi_bit = 1u64 << (width - 1);
            let chunk_mask = (hi_bit << 1) - 1;
            let mut value = 0u64;
            let mut used = 0u32;
            while used + width <= avail {
                let chunk = (word >> used) & chunk_mask;
                value |= (chunk & (hi_bit - 1)) << (used - used / width);
                used += width;
                if chunk & hi_bit == 0 {
                    let end = self.pos + u64::from(used);
                    if end > self.limit_bits {
                        return Err(self.eof(width));
                    }
                    self.pos = end;
                    return Ok(value);
                }
            }
        }
        self.read_vbr_slow(width)
    }

    #[cold]
    fn read_vbr_slow(&mut self, width: u32) -> Result<u64> {
        let start = self.pos();
        let hi_bit = 1u64 << (width - 1);
        let mask = hi_bit - 1;
        let first = self.read(width)?;
        if first & hi_bit == 0 {
            return Ok(first);
        }
        let mut value = first & mask;
        let mut shift = width - 1;
        loop {
            let chunk = self.read(width)?;
            let payload = chunk & mask;
            if payload != 0 {
                // The payload must survive the shift intact, or the value needs > 64 bits.
                if shift >= 64 || (payload << shift) >> shift != payload {
                    return Err(Error::new(start, format!("VBR{width} value does not fit in 64 bits")));
                }
                value |= payload << shift;
            }
            if chunk & hi_bit == 0 {
                return Ok(value);
            }
            shift += width - 1;
            // Zero-payload continuation chunks are legal but pointless; cap how many we accept.
            if shift >= 64 + 32 {
                return Err(Error::new(start, format!("VBR{width} value does not fit in 64 bits")));
            }
        }
    }

    /// The next 57 to 64 bits (right-aligned) and how many of them are valid, when eight
    /// bytes of data remain. Used to decode whole records from one load.
    #[inline]
    pub fn peek_window(&self) -> Option<(u64, u32)> {
        window_at(self.data, self.pos)
    }

    /// Advances by `bits` bits that were decoded from [`BitReader::peek_window`].
    #[inline]
    pub fn consume(&mut self, bits: u32) -> Result<()> {
        if !self.try_consume(bits) {
            return Err(self.eof(bits));
        }
        Ok(())
    }

    /// Advances by `bits` bits decoded from [`BitReader::peek_window`] if they lie before the
    /// limit; returns false, without moving, if they don't.
    #[inline]
    pub fn try_consume(&mut self, bits: u32) -> bool {
        let end = self.pos + u64::from(bits);
        if end > self.limit_bits {
            return false;
        }
        self.pos = end;
        true
    }

    /// Skips to the next multiple of 8 bits.
    pub fn align8(&mut self) -> Result<()> {
        let aligned = self.pos.div_ceil(8) * 8;
        if aligned > self.limit_bits {
            return Err(self.eof((aligned - self.pos) as u32));
        }
        self.pos = aligned;
        Ok(())
    }

    /// Skips to the next multiple of 32 bits.
    pub fn align32(&mut self) -> Result<()> {
        let aligned = self.pos.div_ceil(32) * 32;
        if aligned > self.limit_bits {
            return Err(self.eof((aligned - self.pos) as u32));
        }
        self.pos = aligned;
        Ok(())
    }

    /// Returns the `len` bytes at the current (byte-aligned) position and skips them.
    pub fn read_bytes(&mut self, len: usize) -> Result<&'a [u8]> {
        let pos = self.pos();
        debug_assert!(pos.0.is_multiple_of(8));
        let start = (pos.0 / 8) as usize;
        let end = start
            .checked_add(len)
            .filter(|&e| e as u64 * 8 <= self.limit_bits)
            .ok_or_else(|| Error::new(pos, format!("unexpected end of data reading {len} bytes")))?;
        self.pos = end as u64 * 8;
        Ok(&self.data[start..end])
    }
}

/// Number of bits needed to write `n` in binary (0 for 0).
pub fn bits_needed(n: u64) -> u32 {
    64 - n.leading_zeros()
}

/// Number of bits the VBR encoding of `value` takes with chunks of `width` bits.
pub fn vbr_len(value: u64, width: u32) -> u64 {
    let payload = u64::from(width - 1);
    let bits = u64::from(bits_needed(value).max(1));
    bits.div_ceil(payload) * u64::from(width)
}

/// An append-only bit sink producing the same packing [`BitReader`] consumes.
#[derive(Default, Clone)]
pub struct BitWriter {
    out: Vec<u8>,
    acc: u64,
    acc_bits: u32,
}

impl BitWriter {
    /// Creates an empty writer.
    pub fn new() -> Self {
        BitWriter::default()
    }

    /// Creates a writer whose output starts with `prefix` (for example a file header).
    pub fn with_prefix(prefix: &[u8]) -> Self {
        BitWriter { out: prefix.to_vec(), acc: 0, acc_bits: 0 }
    }

    /// The absolute position of the next bit to be written.
    #[inline]
    pub fn pos(&self) -> BitPos {
        BitPos(self.out.len() as u64 * 8 + u64::from(self.acc_bits))
    }

    /// Writes the low `width` bits of `value` (`width` 0..=64; higher bits must be zero).
    #[inline]
    pub fn write(&mut self, width: u32, value: u64) {
        debug_assert!(width <= 64);
        debug_assert!(width == 64 || value >> width == 0, "value {value} wider than {width} bits");
        if width == 0 {
            return;
        }
        self.acc |= value << self.acc_bits;
        let total = self.acc_bits + width;
        if total >= 64 {
            self.out.extend_from_slice(&self.acc.to_le_bytes());
            let used = 64 - self.acc_bits;
            self.acc = if used == 64 { 0 } else { value >> used };
            self.acc_bits = total - 64;
        } else {
            self.acc_bits = total;
        }
    }

    /// Writes `value` as a VBR field with chunks of `width` bits.
    #[inline]
    pub fn write_vbr(&mut self, width: u32, mut value: u64) {
        let hi_bit = 1u64 << (width - 1);
        let mask = hi_bit - 1;
        while value > mask {
            self.write(width, (value & mask) | hi_bit);
            value >>= width - 1;
        }
        self.write(width, value);
    }

    /// Pads with zero bits to the next byte boundary.
    pub fn align8(&mut self) {
        let pad = ((8 - self.pos().0 % 8) % 8) as u32;
        self.write(pad, 0);
    }

    /// Pads with zero bits to the next multiple of 32 bits.
    pub fn align32(&mut self) {
        let pad = ((32 - self.pos().0 % 32) % 32) as u32;
        self.write(pad, 0);
    }

    /// Appends raw bytes; the writer must be byte-aligned.
    pub fn write_bytes(&mut self, bytes: &[u8]) {
        assert!(self.acc_bits.is_multiple_of(8), "write_bytes needs byte alignment");
        self.flush_whole_bytes();
        self.out.extend_from_slice(bytes);
    }

    fn flush_whole_bytes(&mut self) {
        while self.acc_bits >= 8 {
            self.out.push(self.acc as u8);
            self.acc >>= 8;
            self.acc_bits -= 8;
        }
    }

    /// Overwrites the 32-bit little-endian word at byte offset `at` (already written).
    pub fn patch_u32(&mut self, at: usize, value: u32) {
        self.flush_whole_bytes();
        self.out[at..at + 4].copy_from_slice(&value.to_le_bytes());
    }

    /// Finishes writing; any partial byte is padded with zero bits.
    pub fn finish(mut self) -> Vec<u8> {
        self.flush_whole_bytes();
        if self.acc_bits > 0 {
            self.out.push(self.acc as u8);
        }
        self.out
    }

    /// Bytes written so far (whole bytes only).
    pub fn bytes(&mut self) -> &[u8] {
        self.flush_whole_bytes();
        &self.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_and_vbr_round_trip() {
        let mut w = BitWriter::new();
        let items: Vec<(bool, u32, u64)> = vec![
            (false, 3, 5),
            (true, 6, 0),
            (true, 6, 31),
            (true, 6, 32),
            (true, 8, u64::MAX),
            (false, 64, 0xdead_beef_cafe_f00d),
            (false, 1, 1),
            (true, 4, 1 << 40),
            (false, 32, 0xffff_ffff),
            (true, 32, u64::MAX - 5),
        ];
        for &(vbr, width, v) in &items {
            if vbr { w.write_vbr(width, v) } else { w.write(width, v) }
        }
        w.align32();
        let data = w.finish();
        assert_eq!(data.len() % 4, 0);
        let mut r = BitReader::new(&data);
        for &(vbr, width, v) in &items {
            let got = if vbr { r.read_vbr(width).unwrap() } else { r.read(width).unwrap() };
            assert_eq!(got, v, "width {width} vbr {vbr}");
        }
        r.align32().unwrap();
        assert!(r.at_end());
        assert!(r.read(1).is_err());
    }

    #[test]
    fn vbr_overflow_is_an_error() {
        let mut w = BitWriter::new();
        for _ in 0..12 {
            w.write(6, 0x3f);
        }
        w.write(6, 0x1f);
        let data = w.finish();
        assert!(BitReader::new(&data).read_vbr(6).is_err());
    }

    #[test]
    fn limit_confines_reads() {
        let data = [0xffu8; 16];
        let mut r = BitReader::new(&data);
        r.read(3).unwrap();
        r.set_limit(4).unwrap();
        assert_eq!(r.remaining_bits(), 29);
        r.read(29).unwrap();
        assert!(r.read(1).is_err());
        r.set_limit(16).unwrap();
        assert_eq!(r.pos(), BitPos(32));
        assert_eq!(r.read(8).unwrap(), 0xff);
    }

    #[test]
    fn vbr_len_matches_writer() {
        for &(v, w) in &[(0u64, 6u32), (31, 6), (32, 6), (1 << 20, 8), (u64::MAX, 4)] {
            let mut bw = BitWriter::new();
            bw.write_vbr(w, v);
            assert_eq!(bw.pos().0, vbr_len(v, w));
        }
    }
}
