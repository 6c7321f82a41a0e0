//! Instruction semantics under `pnacl run`, casts: `trunc`, `zext` and `sext` between every
//! pair of integer types (`i1` included), `fptrunc`, `fpext`, `fptoui` and `fptosi` to every
//! integer type (saturating to `i32`/`i64`, NaN to 0; to `i1`/`i8`/`i16` as to `i32` then
//! truncated), `uitofp` and `sitofp` from every integer type (rounding at the edges), and
//! `bitcast` between `i32`/`float`, `i64`/`double` and the 128-bit vector types. Expected
//! results are computed in Rust.

mod common;

use common::*;
use pnacl_testutil::guest::{Ty, Val};
use std::path::Path;

const INT_BITS: [u32; 5] = [1, 8, 16, 32, 64];

fn int_inputs() -> Vec<Val> {
    let mut v: Vec<u64> = I64_EDGES.to_vec();
    v.extend([
        0x80,
        0x7f,
        0xff,
        0x100,
        0x7fff,
        0x8000,
        0xffff,
        0x1_0000,
        0x7fff_ffff,
        0x8000_0000,
        0xffff_ff80,
        0xffff_8000,
        0xffff_ffff_ffff_ff7f,
        0xffff_ffff_ffff_7fff,
        0xffff_ffff_7fff_ffff,
        0x1234_5678_9abc_def1,
        0x8765_4321_0fed_cba8,
    ]);
    let mut rng = Rng::new(1);
    v.extend((0..16).map(|_| rng.bits()));
    i64s(&v)
}

/// `%p0` (an `i64`) truncated to `bits` bits.
fn source(b: &mut Body, bits: u32) -> String {
    if bits == 64 { "%p0".to_string() } else { b.v(format!("trunc i64 %p0 to {}", int_ty(bits))) }
}

/// Returns `x` (of `bits` bits) zero-extended to `i64`.
fn ret_i64(b: &mut Body, x: &str, bits: u32) {
    let r = if bits == 64 { x.to_string() } else { b.v(format!("zext {} {x} to i64", int_ty(bits))) };
    b.i(format!("ret i64 {r}"));
}

#[test]
fn integer_casts() {
    let dir = dir();
    let inputs = int_inputs();
    let mut n = 0;
    for &from in &INT_BITS {
        for &to in &INT_BITS {
            let ops: &[&str] = if to < from {
                &["trunc"]
            } else if to > from {
                &["zext", "sext"]
            } else {
                &[]
            };
            for op in ops {
                let mut b = Body::new();
                let x = source(&mut b, from);
                let r = b.v(format!("{op} {} {x} to {}", int_ty(from), int_ty(to)));
                ret_i64(&mut b, &r, to);
                b.case(&[Ty::I64], Ty::I64).inputs(rows1(inputs.clone())).check(
                    dir.path(),
                    &format!("{op}_i{from}_i{to}"),
                    |r| {
                        let x = u64v(&r[0]) & mask(from);
                        let want = match *op {
                            "sext" => sext(x, from),
                            _ => x,
                        };
                        Val::i64(want & mask(to))
                    },
                );
                n += 1;
            }
        }
    }
    assert_eq!(n, 30);
}

/// `sext` and `zext` of `i1` seen at full width: true is all ones and 1.
#[test]
fn i1_extensions_full_width() {
    let dir = dir();
    for (op, bits) in [("sext", 32), ("zext", 32), ("sext", 64), ("zext", 64)] {
        let t = int_ty(bits);
        let mut b = Body::new();
        let zero = b.i32(0);
        let c = b.v(format!("icmp slt i32 %p0, {zero}"));
        let r = b.v(format!("{op} i1 {c} to {t}"));
        b.i(format!("ret {t} {r}"));
        b.case(&[Ty::I32], int_carrier(bits)).inputs(rows1(i32s(I32_EDGES))).check(
            dir.path(),
            &format!("{op}_i1_{t}"),
            |r| int_val(bits, extend_i1((u32v(&r[0]) as i32) < 0, op, bits)),
        );
    }
}

fn fp_inputs_f64() -> Vec<f64> {
    let mut v = f64_edges();
    v.extend([
        1.0 + 2f64.powi(-24),
        1.0 + 2f64.powi(-24) + 2f64.powi(-50),
        1.0 + 3.0 * 2f64.powi(-24),
        f32::MAX as f64,
        f32::MAX as f64 * (1.0 + 2f64.powi(-25)),
        f32::MAX as f64 * (1.0 + 2f64.powi(-23)),
        f32::MIN_POSITIVE as f64,
        1e-40,
        -1e-44,
        1e-46,
        -1e-50,
        0.1,
        127.9,
        128.0,
        -128.5,
        -129.0,
        255.5,
        256.0,
        32767.9,
        -32768.9,
        65535.7,
        65536.0,
        -0.999,
        0.999,
        2_147_483_647.0,
        2_147_483_647.5,
        2_147_483_648.0,
        -2_147_483_648.9,
        -2_147_483_649.0,
        4_294_967_295.0,
        4_294_967_296.0,
        9.2e18,
        9_223_372_036_854_775_807.0,
        -9_223_372_036_854_775_808.0,
        -9.3e18,
        1.8e19,
        18_446_744_073_709_551_615.0,
        1.9e19,
    ]);
    v
}

fn fp_inputs_f32() -> Vec<f32> {
    let mut v = f32_edges();
    v.extend(fp_inputs_f64().iter().map(|&x| x as f32));
    v.extend([2_147_483_520.0, 4_294_967_040.0, 9_223_371_487_098_961_920.0, 18_446_742_974_197_923_840.0]);
    v
}

#[test]
fn fptrunc_and_fpext() {
    let dir = dir();
    Body::returning("float", "fptrunc double %p0 to float")
        .case(&[Ty::F64], Ty::F32)
        .inputs(rows1(f64s(&fp_inputs_f64())))
        .check(dir.path(), "fptrunc", |r| Val::f32(f64v(&r[0]) as f32));
    Body::returning("double", "fpext float %p0 to double")
        .case(&[Ty::F32], Ty::F64)
        .inputs(rows1(f32s(&fp_inputs_f32())))
        .check(dir.path(), "fpext", |r| Val::f64(f32v(&r[0]) as f64));
}

/// The documented conversion: saturating to `i32`/`i64` (NaN gives 0); narrower types
/// convert as to `i32` and truncate.
fn fp_to_int(op: &str, x: f64, bits: u32) -> u64 {
    let signed = op == "fptosi";
    let v = match (bits, signed) {
        (64, true) => x as i64 as u64,
        (64, false) => x as u64,
        (_, true) => x as i32 as u32 as u64,
        (_, false) => x as u32 as u64,
    };
    v & mask(bits)
}

#[test]
fn fp_to_int_casts() {
    let dir = dir();
    for (ft, fty) in [("float", Ty::F32), ("double", Ty::F64)] {
        let inputs = if fty == Ty::F32 { f32s(&fp_inputs_f32()) } else { f64s(&fp_inputs_f64()) };
        for op in ["fptosi", "fptoui"] {
            for &to in &INT_BITS {
                let mut b = Body::new();
                let r = b.v(format!("{op} {ft} %p0 to {}", int_ty(to)));
                ret_i64(&mut b, &r, to);
                b.case(&[fty], Ty::I64).inputs(rows1(inputs.clone())).check(
                    dir.path(),
                    &format!("{op}_{ft}_i{to}"),
                    |r| {
                        let x = if fty == Ty::F32 { f32v(&r[0]) as f64 } else { f64v(&r[0]) };
                        Val::i64(fp_to_int(op, x, to))
                    },
                );
            }
        }
    }
}

fn int_to_fp_inputs() -> Vec<Val> {
    let mut v = int_inputs();
    v.extend(i64s(&[
        0x0100_0001,
        0x0100_0003,
        0x0100_0002,
        0x00ff_ffff,
        0x7fff_ffbf,
        0x7fff_ffc0,
        0x8000_0080,
        0x8000_0081,
        0x8000_0180,
        0xffff_ff7f,
        0xffff_ff80,
        0x0020_0000_0000_0001,
        0x0020_0000_0000_0003,
        0x8000_0000_0000_0400,
        0x8000_0000_0000_0401,
        0x8000_0000_0000_0c00,
        0x7fff_ffff_ffff_fdff,
        0x7fff_ffff_ffff_fe00,
        0xffff_ffff_ffff_f7ff,
        0xffff_ff7f_ffff_ffff,
        0xffff_ff80_0000_0000,
        0x8000_0080_0000_0001,
        0x0000_0001_0000_0001,
    ]));
    v
}

#[test]
fn int_to_fp_casts() {
    let dir = dir();
    let inputs = int_to_fp_inputs();
    for (ft, fty) in [("float", Ty::F32), ("double", Ty::F64)] {
        for op in ["sitofp", "uitofp"] {
            for &from in &INT_BITS {
                let mut b = Body::new();
                let x = source(&mut b, from);
                let r = b.v(format!("{op} {} {x} to {ft}", int_ty(from)));
                b.i(format!("ret {ft} {r}"));
                b.case(&[Ty::I64], fty).inputs(rows1(inputs.clone())).check(
                    dir.path(),
                    &format!("{op}_i{from}_{ft}"),
                    |r| {
                        let x = u64v(&r[0]) & mask(from);
                        if op == "sitofp" {
                            let s = sext(x, from) as i64;
                            if fty == Ty::F32 { Val::f32(s as f32) } else { Val::f64(s as f64) }
                        } else if fty == Ty::F32 {
                            Val::f32(x as f32)
                        } else {
                            Val::f64(x as f64)
                        }
                    },
                );
            }
        }
    }
}

/// `float` bit patterns: zeros, one, infinities, signalling and quiet NaNs, others.
const NAN_PATTERNS_F32: [u64; 13] = [
    0,
    0x8000_0000,
    1,
    0x3f80_0000,
    0x7f80_0000,
    0xff80_0000,
    0x7f80_0001,
    0x7fbf_ffff,
    0x7fc0_0000,
    0xffc0_0001,
    0xff80_0001,
    0x1234_5678,
    0xdead_beef,
];

/// `double` bit patterns, likewise.
const NAN_PATTERNS_F64: [u64; 11] = [
    0,
    0x8000_0000_0000_0000,
    1,
    0x3ff0_0000_0000_0000,
    0x7ff0_0000_0000_0000,
    0x7ff0_0000_0000_0001,
    0x7ff7_ffff_ffff_ffff,
    0x7ff8_0000_0000_0000,
    0xfff8_0000_0000_0001,
    0xfff0_0000_dead_beef,
    0x0123_4567_89ab_cdef,
];

/// `bitcast` from the float type `ft` to the integer type `it` of its size, from `it` to
/// `ft` (a NaN compares as NaN), and from `it` to `ft` and back (exactly), on `patterns`.
fn scalar_bitcast_cases(dir: &Path, ft: Ty, it: Ty, patterns: &[u64]) {
    let (f, i, bits) = (ft.name(), it.name(), 8 * it.size() as u32);
    let of = |ty: Ty| rows1(patterns.iter().map(|&p| from_lanes(ty, bits, &[p])));
    Body::returning(i, format!("bitcast {f} %p0 to {i}")).case(&[ft], it).inputs(of(ft)).check(
        dir,
        &format!("{f}_to_{i}"),
        |r| from_lanes(it, bits, &lanes(&r[0], bits)),
    );
    Body::returning(f, format!("bitcast {i} %p0 to {f}")).case(&[it], ft).inputs(of(it)).check(
        dir,
        &format!("{i}_to_{f}"),
        |r| from_lanes(ft, bits, &lanes(&r[0], bits)),
    );
    let mut b = Body::new();
    let x = b.v(format!("bitcast {i} %p0 to {f}"));
    let r = b.v(format!("bitcast {f} {x} to {i}"));
    b.i(format!("ret {i} {r}"));
    b.case(&[it], it).inputs(of(it)).check(dir, &format!("{i}_{f}_{i}"), |r| r[0]);
}

/// Bitcasts between integers and floats keep every bit, signalling-NaN payloads included.
#[test]
fn scalar_bitcasts() {
    let dir = dir();
    scalar_bitcast_cases(dir.path(), Ty::F32, Ty::I32, &NAN_PATTERNS_F32);
    scalar_bitcast_cases(dir.path(), Ty::F64, Ty::I64, &NAN_PATTERNS_F64);
}

const VECTORS: [(&str, Ty); 4] =
    [("<4 x i32>", Ty::V4I32), ("<8 x i16>", Ty::V8I16), ("<16 x i8>", Ty::V16I8), ("<4 x float>", Ty::V4F32)];

fn vector_of(ty: Ty, bytes: [u8; 16]) -> Val {
    let mut v = Val::v16i8(bytes);
    v.ty = ty;
    v
}

/// Bitcasts between the 128-bit vector types keep the bytes in place; round trips through
/// `<4 x float>` keep even NaN lanes' bits.
#[test]
fn vector_bitcasts() {
    let dir = dir();
    let mut rng = Rng::new(7);
    let mut patterns: Vec<[u8; 16]> = (0..12)
        .map(|_| {
            let (x, y) = (rng.bits(), rng.bits());
            let mut p = [0u8; 16];
            p[..8].copy_from_slice(&x.to_le_bytes());
            p[8..].copy_from_slice(&y.to_le_bytes());
            p
        })
        .collect();
    patterns.push(std::array::from_fn(|i| i as u8));
    patterns.push([0xff; 16]);
    // NaN lanes, a signalling one first.
    patterns.push([0x01, 0, 0x80, 0x7f, 0, 0, 0xc0, 0xff, 0, 0, 0x80, 0x7f, 0xff, 0xff, 0xff, 0xff]);
    for (from, fty) in VECTORS {
        for (to, tty) in VECTORS {
            if from == to {
                continue;
            }
            let rows = rows1(patterns.iter().map(|&p| vector_of(fty, p)));
            Body::returning(to, format!("bitcast {from} %p0 to {to}")).case(&[fty], tty).inputs(rows.clone()).check(
                dir.path(),
                &format!("bitcast_{fty:?}_{tty:?}"),
                |r| vector_of(tty, r[0].bytes),
            );
            // There and back again, exactly.
            let mut b = Body::new();
            let x = b.v(format!("bitcast {from} %p0 to {to}"));
            let r = b.v(format!("bitcast {to} {x} to {from}"));
            b.i(format!("ret {from} {r}"));
            b.case(&[fty], fty).inputs(rows).check(dir.path(), &format!("bitcast_{fty:?}_{tty:?}_back"), |r| r[0]);
        }
    }
}
