//! Packing the payload of a VBR field: dropping the continuation bit of each chunk.
//!
//! The window decoder ([`crate::window`]) finds where a VBR field ends with one mask and a
//! trailing-zero count; what is left is to squeeze the continuation bits out of the field.
//! That is one instruction, `pext`, on x86-64 processors with BMI2, and a few shifts and
//! masks elsewhere. The shifts and masks were about 8% of the reader's instructions, so the
//! choice is made once per cursor, as a type parameter, rather than tested for each field.

use std::sync::OnceLock;

/// The positions of the continuation bits of consecutive `width`-bit chunks starting at bit
/// 0: bits `width - 1`, `2 * width - 1`, and so on.
pub(crate) const fn continuation_bits(width: u32) -> u64 {
    let mut bits = 0u64;
    let mut at = width - 1;
    while at < 64 {
        bits |= 1 << at;
        at += width;
    }
    bits
}

/// A way of packing the payload bits of a VBR field. Sealed: the implementations are
/// [`ShiftGather`] and [`PextGather`], and only the cursor runs them, once it has checked
/// [`Gather::available`].
pub trait Gather: sealed::GatherPayload + 'static {
    /// True if this processor can run it.
    fn available() -> bool;
}

pub(crate) mod sealed {
    /// The gathering itself, out of reach of other crates: [`super::PextGather`]'s is
    /// only sound where it is available.
    pub trait GatherPayload {
        /// The payload of a VBR field: `x` holds its `len` bits (whole chunks of `width`
        /// bits, whose continuation bits, bits `width - 1`, `2 * width - 1` and so on, are
        /// set in `continuation`), and nothing above them. Inlined with a constant `width`,
        /// the masks are constants.
        fn gather(x: u64, len: u32, width: u32, continuation: u64) -> u64;

        /// The payload of the VBR field of `window` whose bits are those set in `field` (a
        /// non-empty run of whole `width`-bit chunks, anywhere in the window), whose
        /// chunks' continuation bits are among those set in `continuation` (in the
        /// window's positions: bits outside the field do not matter). The window decoder
        /// finds a field as such a mask, and so needs no shift of the window.
        #[inline(always)]
        fn gather_field(window: u64, field: u64, width: u32, continuation: u64) -> u64 {
            let at = field.trailing_zeros();
            let len = 64 - field.leading_zeros() - at;
            Self::gather((window & field) >> at, len, width, continuation >> at)
        }
    }
}

/// Shifts and masks: runs everywhere.
#[derive(Clone, Copy, Debug)]
pub enum ShiftGather {}

impl Gather for ShiftGather {
    fn available() -> bool {
        true
    }
}

impl sealed::GatherPayload for ShiftGather {
    #[inline(always)]
    fn gather(x: u64, len: u32, width: u32, _continuation: u64) -> u64 {
        let p = width - 1;
        let m = (1u64 << p) - 1;
        // Fields of up to three chunks (relative value ids below 2^15 in VBR6) need no loop.
        let v = (x & m) | ((x >> 1) & (m << p)) | ((x >> 2) & (m << (2 * p)));
        if len > 3 * width { gather_rest(x, len, width, v) } else { v }
    }

    #[inline(always)]
    fn gather_field(window: u64, field: u64, width: u32, _continuation: u64) -> u64 {
        let at = field.trailing_zeros();
        let (x, extent) = ((window & field) >> at, field >> at);
        let p = width - 1;
        let m = (1u64 << p) - 1;
        let v = (x & m) | ((x >> 1) & (m << p)) | ((x >> 2) & (m << (2 * p)));
        // The field's length is only needed past three chunks.
        if extent >> (3 * width) != 0 { gather_rest(x, 64 - extent.leading_zeros(), width, v) } else { v }
    }
}

/// [`ShiftGather`] for fields of more than three chunks: adds the payloads of chunks 3 on.
#[inline(never)]
fn gather_rest(x: u64, len: u32, width: u32, mut v: u64) -> u64 {
    let p = width - 1;
    let m = (1u64 << p) - 1;
    let mut i = 3;
    while i * width < len {
        v |= (x >> i) & (m << (i * p));
        i += 1;
    }
    v
}

/// BMI2's `pext`, one instruction for any number of chunks. Only [`Gather::available`] on
/// x86-64 processors that have BMI2 and run `pext` in hardware: AMD's before Zen 3 run it
/// in microcode, many times slower than [`ShiftGather`].
#[derive(Clone, Copy, Debug)]
pub enum PextGather {}

impl Gather for PextGather {
    fn available() -> bool {
        static FAST_PEXT: OnceLock<bool> = OnceLock::new();
        *FAST_PEXT.get_or_init(fast_pext)
    }
}

impl sealed::GatherPayload for PextGather {
    #[inline(always)]
    fn gather(x: u64, len: u32, width: u32, continuation: u64) -> u64 {
        #[cfg(target_arch = "x86_64")]
        {
            let _ = (len, width);
            pext(x, !continuation)
        }
        #[cfg(not(target_arch = "x86_64"))]
        <ShiftGather as sealed::GatherPayload>::gather(x, len, width, continuation)
    }

    #[inline(always)]
    fn gather_field(window: u64, field: u64, width: u32, continuation: u64) -> u64 {
        #[cfg(target_arch = "x86_64")]
        {
            let _ = width;
            // The field's bits less its continuation bits: one `pext`, and no shift.
            pext(window, field & !continuation)
        }
        #[cfg(not(target_arch = "x86_64"))]
        <ShiftGather as sealed::GatherPayload>::gather_field(window, field, width, continuation)
    }
}

/// The bits of `x` that `mask` selects, packed at the bottom (BMI2's `pext`). Called only by
/// [`PextGather`], whose cursors are only created where [`Gather::available`] holds.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn pext(x: u64, mask: u64) -> u64 {
    let v: u64;
    // SAFETY: the processor has BMI2 (see above). The instruction reads and writes
    // registers only. Inline assembly rather than the intrinsic: the intrinsic only inlines
    // into functions compiled for BMI2, and the decoder is generic code.
    unsafe {
        std::arch::asm!(
            "pext {v}, {x}, {mask}",
            v = lateout(reg) v,
            x = in(reg) x,
            mask = in(reg) mask,
            options(pure, nomem, nostack, preserves_flags),
        );
    }
    v
}

/// True if the processor has BMI2 and its `pext` is not microcoded.
#[cfg(target_arch = "x86_64")]
fn fast_pext() -> bool {
    use std::arch::x86_64::__cpuid;
    if !std::arch::is_x86_feature_detected!("bmi2") {
        return false;
    }
    let (vendor, signature) = (__cpuid(0), __cpuid(1).eax);
    let vendor = [vendor.ebx, vendor.edx, vendor.ecx];
    let amd = vendor == [0x6874_7541, 0x6974_6e65, 0x444d_4163]; // "AuthenticAMD"
    let hygon = vendor == [0x6f67_7948, 0x6e65_476e, 0x656e_6975]; // "HygonGenuine"
    let base = (signature >> 8) & 0xf;
    let family = if base == 0xf { base + ((signature >> 20) & 0xff) } else { base };
    // Zen 3 (family 0x19) was the first AMD core with `pext` in hardware.
    !((amd || hygon) && family < 0x19)
}

#[cfg(not(target_arch = "x86_64"))]
fn fast_pext() -> bool {
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bits::{BitReader, BitWriter};
    use crate::window::tests::Rng;

    /// Every width, values of every bit length (the longest that still fit in one 64-bit
    /// window included), as the writer lays them out.
    fn check<G: Gather>() {
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        for width in 2..=32 {
            for bits in 0..=64 {
                let seed = rng.next();
                let value = if bits == 0 { 0 } else { (seed | 1 << (bits - 1)) & (u64::MAX >> (64 - bits)) };
                let mut w = BitWriter::new();
                w.write_vbr(width, value);
                let len = w.pos().0 as u32;
                if len > 64 {
                    continue;
                }
                w.write(64, 0);
                let x = BitReader::new(&w.finish()).peek_window().unwrap().0 & (u64::MAX >> (64 - len));
                assert_eq!(G::gather(x, len, width, continuation_bits(width)), value, "vbr{width} {value:#x}");
            }
        }
    }

    #[test]
    fn shifts_recover_every_value() {
        check::<ShiftGather>();
    }

    #[test]
    fn pext_recovers_every_value_where_it_runs() {
        // Only where the processor runs pext; the test says which case it met.
        println!("fast pext available: {}", PextGather::available());
        if PextGather::available() {
            check::<PextGather>();
        }
        #[cfg(not(target_arch = "x86_64"))]
        assert!(!PextGather::available());
    }
}
