//! Intrinsic semantics under `pnacl run`: `llvm.bswap` (i16/i32/i64), `llvm.ctlz` and
//! `llvm.cttz` (i32/i64, zero input included), `llvm.ctpop`, `llvm.fabs` (f32/f64/v4f32,
//! the sign of NaNs included), `llvm.sqrt` (negative inputs give NaN, -0 stays -0),
//! `llvm.memcpy`/`llvm.memmove`/`llvm.memset` (on the scratch area, overlapping moves in
//! both directions), `llvm.stacksave`/`llvm.stackrestore` with allocas, and the
//! `llvm.nacl.atomic.*` family on one thread: load, store, every RMW operation and
//! compare-exchange (success and failure) at every width with every memory order the ABI
//! allows, the fences, and `is.lock.free`. Expected results are computed in Rust.

mod common;

use common::*;
use pnacl_testutil::guest::{Case, Function, Ty, Val};

fn int_rows(bits: u32) -> Vec<Vec<Val>> {
    let mut rng = Rng::new(u64::from(bits));
    let mut v: Vec<u64> = I64_EDGES.to_vec();
    v.extend((0..64).map(|k| 1u64 << k));
    v.extend((0..64).map(|k| u64::MAX << k));
    v.extend((0..40).map(|_| rng.bits()));
    v.extend((0..40).map(|_| rng.bits() >> (rng.bits() % 64)));
    rows1(v.iter().map(|&x| int_val(bits, x)))
}

/// The `bits`-bit operand an `i32` or `i64` input carries.
fn int_in(v: &Val, bits: u32) -> u64 {
    int_of(v) & mask(bits)
}

#[test]
fn bswap() {
    let dir = dir();
    for bits in [16u32, 32, 64] {
        let t = int_ty(bits);
        let mut b = Body::new();
        let x = b.narrow("%p0", bits);
        let r = b.v(format!("call {t} @f2({t} {x})"));
        b.ret_int(&r, bits, "zext");
        b.case(&[int_carrier(bits)], int_carrier(bits))
            .functions(vec![Function::intrinsic(&format!("llvm.bswap.{t}"), t, &[t])])
            .inputs(int_rows(bits))
            .check(dir.path(), &format!("bswap_{t}"), |r| {
                let x = int_in(&r[0], bits);
                int_val(
                    bits,
                    match bits {
                        16 => u64::from((x as u16).swap_bytes()),
                        32 => u64::from((x as u32).swap_bytes()),
                        _ => x.swap_bytes(),
                    },
                )
            });
    }
}

/// `ctlz`/`cttz` with is-zero-undef false (zero gives the width) and true (for non-zero
/// inputs only, where the result is defined), and `ctpop`.
#[test]
fn bit_counts() {
    let dir = dir();
    for bits in [32u32, 64] {
        let t = int_ty(bits);
        for name in ["ctlz", "cttz", "ctpop"] {
            let flags: &[u32] = if name == "ctpop" { &[2] } else { &[0, 1] };
            for &zero_undef in flags {
                let mut b = Body::new();
                let r = if name == "ctpop" {
                    b.v(format!("call {t} @f2({t} %p0)"))
                } else {
                    let flag = b.c("i1", zero_undef);
                    b.v(format!("call {t} @f2({t} %p0, i1 {flag})"))
                };
                b.i(format!("ret {t} {r}"));
                let params: &[&str] = if name == "ctpop" { &[t] } else { &[t, "i1"] };
                let rows: Vec<Vec<Val>> =
                    int_rows(bits).into_iter().filter(|r| zero_undef != 1 || int_in(&r[0], bits) != 0).collect();
                b.case(&[int_carrier(bits)], int_carrier(bits))
                    .functions(vec![Function::intrinsic(&format!("llvm.{name}.{t}"), t, params)])
                    .inputs(rows)
                    .check(dir.path(), &format!("{name}_{t}_{zero_undef}"), |r| {
                        let x = int_in(&r[0], bits);
                        let n = match (name, bits) {
                            ("ctlz", 32) => (x as u32).leading_zeros(),
                            ("ctlz", _) => x.leading_zeros(),
                            ("cttz", 32) => (x as u32).trailing_zeros(),
                            ("cttz", _) => x.trailing_zeros(),
                            _ => x.count_ones(),
                        };
                        int_val(bits, u64::from(n))
                    });
            }
        }
    }
}

fn float_rows_f32() -> Vec<f32> {
    let mut v = f32_edges();
    v.extend([
        f32::from_bits(0x7f80_0001),
        f32::from_bits(0xff80_0001),
        f32::from_bits(0x7fc0_0000),
        f32::from_bits(0xffc0_0000),
        4.0,
        2.0,
        -4.0,
        1e-40,
        0.25,
        123_456.79,
    ]);
    v
}

fn float_rows_f64() -> Vec<f64> {
    let mut v = f64_edges();
    v.extend([
        f64::from_bits(0x7ff0_0000_0000_0001),
        f64::from_bits(0xfff0_0000_0000_0001),
        f64::from_bits(0xfff8_0000_0000_0000),
        4.0,
        2.0,
        -4.0,
        1e-310,
        0.25,
        123_456.789,
    ]);
    v
}

/// A case whose function calls the one-operand intrinsic `name` on `%p0`, of type `arg`,
/// and returns the result as `ret` (through `bitcast` where `ret` is not `arg`).
fn unary_intrinsic(name: &str, arg: Ty, ret: Ty) -> Case {
    let (a, t) = (arg.name(), ret.name());
    let mut b = Body::new();
    let r = b.v(format!("call {a} @f2({a} %p0)"));
    let r = if ret == arg { r } else { b.v(format!("bitcast {a} {r} to {t}")) };
    b.i(format!("ret {t} {r}"));
    b.case(&[arg], ret).functions(vec![Function::intrinsic(name, a, &[a])])
}

/// `fabs` clears exactly the sign bit, NaNs included (the result is checked as bits).
#[test]
fn fabs() {
    let dir = dir();
    unary_intrinsic("llvm.fabs.f32", Ty::F32, Ty::I32).inputs(rows1(f32s(&float_rows_f32()))).check(
        dir.path(),
        "fabs_f32",
        |r| Val::i32(u32v(&r[0]) & 0x7fff_ffff),
    );
    unary_intrinsic("llvm.fabs.f64", Ty::F64, Ty::I64).inputs(rows1(f64s(&float_rows_f64()))).check(
        dir.path(),
        "fabs_f64",
        |r| Val::i64(u64v(&r[0]) & 0x7fff_ffff_ffff_ffff),
    );
    let fs = float_rows_f32();
    let rows: Vec<Vec<Val>> =
        (0..fs.len()).map(|k| vec![Val::v4f32(std::array::from_fn(|i| fs[(k + 5 * i) % fs.len()]))]).collect();
    unary_intrinsic("llvm.fabs.v4f32", Ty::V4F32, Ty::V4I32)
        .inputs(rows)
        .check(dir.path(), "fabs_v4f32", |r| Val::v4i32(l32(&r[0]).map(|x| x & 0x7fff_ffff)));
}

#[test]
fn sqrt() {
    let dir = dir();
    unary_intrinsic("llvm.sqrt.f32", Ty::F32, Ty::F32).inputs(rows1(f32s(&float_rows_f32()))).check(
        dir.path(),
        "sqrt_f32",
        |r| Val::f32(f32v(&r[0]).sqrt()),
    );
    unary_intrinsic("llvm.sqrt.f64", Ty::F64, Ty::F64).inputs(rows1(f64s(&float_rows_f64()))).check(
        dir.path(),
        "sqrt_f64",
        |r| Val::f64(f64v(&r[0]).sqrt()),
    );
}

/// The 64-byte pattern `@g8` holds: byte i is `i * 7 + 1`.
fn pattern() -> Vec<u8> {
    (0..64u32).map(|i| (i * 7 + 1) as u8).collect()
}

/// A memory-intrinsic case: four `i32` parameters, the window of [`window`] as the result,
/// `memcpy` (`@f2`), `memmove` (`@f3`) and `memset` (`@f4`), and the pattern in `@g8`.
fn mem_case(b: Body) -> Case {
    b.case(&[Ty::I32; 4], Ty::V16I8)
        .functions(vec![
            Function::intrinsic("llvm.memcpy.p0i8.p0i8.i32", "void", &["i32", "i32", "i32", "i32", "i1"]),
            Function::intrinsic("llvm.memmove.p0i8.p0i8.i32", "void", &["i32", "i32", "i32", "i32", "i1"]),
            Function::intrinsic("llvm.memset.p0i8.i32", "void", &["i32", "i8", "i32", "i32", "i1"]),
        ])
        .globals(vec![const_global(&pattern())])
}

/// A memory-intrinsic case's four inputs (destination, source or value, length, window).
fn mem_args(r: &[Val]) -> (usize, usize, usize, usize) {
    (u32v(&r[0]) as usize, u32v(&r[1]) as usize, u32v(&r[2]) as usize, u32v(&r[3]) as usize)
}

/// Every destination of [`OFFSETS`] with every one of `seconds`, every length and every
/// window.
fn mem_rows(seconds: &[u32]) -> Vec<Vec<Val>> {
    let mut rows = Vec::new();
    for d in OFFSETS {
        for &x in seconds {
            for n in LENGTHS {
                for w in WINDOWS {
                    rows.push(vec![Val::i32(d), Val::i32(x), Val::i32(n), Val::i32(w)]);
                }
            }
        }
    }
    rows
}

/// The start of a memory-intrinsic test: the pattern copied to `@g7` with `memcpy`.
fn reset_scratch(b: &mut Body) {
    let n = b.i32(64);
    let one = b.i32(1);
    let f = b.c("i1", 0);
    b.i(format!("call void @f2(i32 @g7, i32 @g8, i32 {n}, i32 {one}, i1 {f})"));
}

/// Returns the 16 bytes at `@g7 + %p3`.
fn window(b: &mut Body) {
    let at = b.v("add i32 @g7, %p3");
    let r = b.v(format!("load <16 x i8>* {at}, align 1"));
    b.i(format!("ret <16 x i8> {r}"));
}

fn window_of(buf: &[u8], w: usize) -> Val {
    Val::v16i8(buf[w..w + 16].try_into().unwrap())
}

const OFFSETS: [u32; 9] = [0, 1, 3, 7, 8, 13, 16, 17, 31];
const LENGTHS: [u32; 8] = [0, 1, 2, 5, 8, 16, 17, 32];
const WINDOWS: [u32; 4] = [0, 13, 32, 48];

/// `memmove` within the scratch area, overlapping forwards and backwards, every length;
/// `memcpy` from the pattern global; `memset`.
#[test]
fn memcpy_memmove_memset() {
    let dir = dir();
    let mut fails = Failures::default();
    let one = |b: &mut Body| (b.i32(1), b.c("i1", 0));
    // memmove(@g7 + d, @g7 + s, n)
    let mut b = Body::new();
    reset_scratch(&mut b);
    let (a, f) = one(&mut b);
    let d = b.v("add i32 @g7, %p0");
    let s = b.v("add i32 @g7, %p1");
    b.i(format!("call void @f3(i32 {d}, i32 {s}, i32 %p2, i32 {a}, i1 {f})"));
    window(&mut b);
    let rows = mem_rows(&OFFSETS);
    let case = mem_case(b);
    fails.run("memmove", || {
        case.inputs(rows.clone()).check(dir.path(), "memmove", |r| {
            let (d, s, n, w) = mem_args(r);
            let mut buf = pattern();
            buf.copy_within(s..s + n, d);
            window_of(&buf, w)
        })
    });
    // memcpy(@g7 + d, @g8 + s, n), after zeroing the scratch bytes with memset.
    let mut b = Body::new();
    let (a, f) = one(&mut b);
    let zero = b.c("i8", 0);
    let n64 = b.i32(64);
    b.i(format!("call void @f4(i32 @g7, i8 {zero}, i32 {n64}, i32 {a}, i1 {f})"));
    let d = b.v("add i32 @g7, %p0");
    let s = b.v("add i32 @g8, %p1");
    b.i(format!("call void @f2(i32 {d}, i32 {s}, i32 %p2, i32 {a}, i1 {f})"));
    window(&mut b);
    let case = mem_case(b);
    fails.run("memcpy", || {
        case.inputs(rows.clone()).check(dir.path(), "memcpy", |r| {
            let (d, s, n, w) = mem_args(r);
            let mut buf = vec![0u8; 64];
            buf[d..d + n].copy_from_slice(&pattern()[s..s + n]);
            window_of(&buf, w)
        })
    });
    // memset(@g7 + d, byte of %p1, n)
    let mut b = Body::new();
    reset_scratch(&mut b);
    let (a, f) = one(&mut b);
    let d = b.v("add i32 @g7, %p0");
    let v = b.v("trunc i32 %p1 to i8");
    b.i(format!("call void @f4(i32 {d}, i8 {v}, i32 %p2, i32 {a}, i1 {f})"));
    window(&mut b);
    let case = mem_case(b);
    fails.run("memset", || {
        case.inputs(mem_rows(&[0, 0xff, 0x1234_5680])).check(dir.path(), "memset", |r| {
            let (d, v, n, w) = mem_args(r);
            let mut buf = pattern();
            buf[d..d + n].fill(v as u8);
            window_of(&buf, w)
        })
    });
    fails.finish();
}

/// Large moves: the whole 64 KiB scratch area set, then `memmove` of tens of kilobytes
/// by a small distance in either direction; the bytes around both ends are checked.
#[test]
fn large_memmove() {
    let dir = dir();
    let mut b = Body::new();
    let (a, f) = (b.i32(1), b.c("i1", 0));
    let size = b.i32(65536);
    let zero = b.c("i8", 0);
    b.i(format!("call void @f4(i32 @g7, i8 {zero}, i32 {size}, i32 {a}, i1 {f})"));
    // A ramp in the first 64 bytes: the pattern, then memset of 0x77 over [64, 40064).
    let n64 = b.i32(64);
    b.i(format!("call void @f2(i32 @g7, i32 @g8, i32 {n64}, i32 {a}, i1 {f})"));
    let fill = b.c("i8", 0x77);
    let at64 = b.v(format!("add i32 @g7, {n64}"));
    let n40k = b.i32(40_000);
    b.i(format!("call void @f4(i32 {at64}, i8 {fill}, i32 {n40k}, i32 {a}, i1 {f})"));
    let d = b.v("add i32 @g7, %p0");
    let s = b.v("add i32 @g7, %p1");
    b.i(format!("call void @f3(i32 {d}, i32 {s}, i32 %p2, i32 {a}, i1 {f})"));
    window(&mut b);
    let mut rows = Vec::new();
    for (d, s, n) in [(0u32, 5u32, 50_000u32), (5, 0, 50_000), (1000, 0, 40_064), (0, 1000, 40_064), (3, 1, 65_000)] {
        for w in [0u32, 16, 40_048, 40_060, 41_000, 49_990, 50_000, 65_000, 65_520] {
            rows.push(vec![Val::i32(d), Val::i32(s), Val::i32(n), Val::i32(w)]);
        }
    }
    mem_case(b).inputs(rows).check(dir.path(), "large_memmove", |r| {
        let (d, s, n, w) = mem_args(r);
        let mut buf = vec![0u8; 65536];
        buf[..64].copy_from_slice(&pattern());
        buf[64..40_064].fill(0x77);
        buf.copy_within(s..s + n, d);
        window_of(&buf, w)
    });
}

fn stack_functions() -> Vec<Function> {
    vec![Function::intrinsic("llvm.stacksave", "i32", &[]), Function::intrinsic("llvm.stackrestore", "void", &["i32"])]
}

/// `stackrestore` gives back the space of the allocas made after the matching
/// `stacksave`: the same allocation comes out at the same address, and the saved stack
/// pointer comes back. Bit k of the result is check k.
#[test]
fn stacksave_stackrestore() {
    let dir = dir();
    let mut b = Body::new();
    let s0 = b.v("call i32 @f2()");
    let a1 = b.v("alloca i8, i32 %p0, align 8");
    let s1 = b.v("call i32 @f2()");
    let a2 = b.v("alloca i8, i32 %p1, align 16");
    b.i(format!("call void @f3(i32 {s1})"));
    let a3 = b.v("alloca i8, i32 %p1, align 16");
    b.i(format!("call void @f3(i32 {s0})"));
    let s2 = b.v("call i32 @f2()");
    let a4 = b.v("alloca i8, i32 %p0, align 8");
    let same_a = b.v(format!("icmp eq i32 {a3}, {a2}"));
    let same_s = b.v(format!("icmp eq i32 {s2}, {s0}"));
    let same_b = b.v(format!("icmp eq i32 {a4}, {a1}"));
    // a1's bytes lie below s0, a2's below a1 (or at least apart from them).
    let room1 = b.v(format!("sub i32 {s0}, {a1}"));
    let fits1 = b.v(format!("icmp uge i32 {room1}, %p0"));
    let end2 = b.v(format!("add i32 {a2}, %p1"));
    let below = b.v(format!("icmp ule i32 {end2}, {a1}"));
    let end1 = b.v(format!("add i32 {a1}, %p0"));
    let above = b.v(format!("icmp ule i32 {end1}, {a2}"));
    let apart = b.v(format!("or i1 {below}, {above}"));
    let seven = b.i32(7);
    let fifteen = b.i32(15);
    let zero = b.i32(0);
    let low1 = b.v(format!("and i32 {a1}, {seven}"));
    let aligned1 = b.v(format!("icmp eq i32 {low1}, {zero}"));
    let low2 = b.v(format!("and i32 {a2}, {fifteen}"));
    let aligned2 = b.v(format!("icmp eq i32 {low2}, {zero}"));
    let r = b.pack(&[same_a, same_s, same_b, fits1, apart, aligned1, aligned2]);
    b.i(format!("ret i32 {r}"));
    let sizes = i32s(&[0, 1, 7, 8, 9, 100, 4096, 10_000]);
    b.case(&[Ty::I32, Ty::I32], Ty::I32).functions(stack_functions()).inputs(pairs(&sizes, &sizes)).check(
        dir.path(),
        "stacksave",
        |_| Val::i32(0x7f),
    );
}

/// A loop that allocates 64 KiB per iteration, 20000 times (1.3 GB in all), restoring
/// the stack each time: without the restore it would overflow the stack.
#[test]
fn stackrestore_in_loop() {
    let dir = dir();
    let mut b = Body::new();
    let zero = b.i32(0);
    let [acc] = b.counted_loop("%p0", [("i32", &zero)], |b, i, [(acc, sum)]| {
        let s = b.v("call i32 @f2()");
        let size = b.i32(65536);
        let a = b.v(format!("alloca i8, i32 {size}, align 16"));
        b.i(format!("store i32 {i}, i32* {a}, align 1"));
        let x = b.v(format!("load i32* {a}, align 1"));
        b.define(sum, format!("add i32 {acc}, {x}"));
        b.i(format!("call void @f3(i32 {s})"));
    });
    b.i(format!("ret i32 {acc}"));
    b.case(&[Ty::I32], Ty::I32).functions(stack_functions()).inputs(rows1(i32s(&[0, 1, 10, 20_000]))).check(
        dir.path(),
        "stack_loop",
        |r| Val::i32((0..u32v(&r[0])).fold(0u32, |s, i| s.wrapping_add(i))),
    )
}

/// Where an `N`-bit atomic lives inside the 8-byte word at `@g7`: naturally aligned, and
/// with neighbours on both sides when it is narrower than the word.
fn atomic_offset(bits: u32) -> usize {
    match bits {
        8 => 5,
        16 => 2,
        32 => 4,
        _ => 0,
    }
}

fn field(word: u64, bits: u32) -> u64 {
    (word >> (8 * atomic_offset(bits))) & mask(bits)
}

fn with_field(word: u64, bits: u32, v: u64) -> u64 {
    let sh = 8 * atomic_offset(bits);
    (word & !(mask(bits) << sh)) | ((v & mask(bits)) << sh)
}

/// The start of an atomic test: the word at `@g7` set from `%p0`, the atomic's address,
/// and `%p1` truncated to the atomic's type.
fn atomic_setup(b: &mut Body, bits: u32) -> (String, String) {
    b.i("store i64 %p0, i64* @g7, align 1");
    let off = b.i32(atomic_offset(bits));
    let addr = b.v(format!("add i32 @g7, {off}"));
    let x = if bits == 64 { "%p1".to_string() } else { b.v(format!("trunc i64 %p1 to {}", int_ty(bits))) };
    (addr, x)
}

/// The end of an atomic test: `old` (of the atomic's type) and the whole word, returned
/// as `<4 x i32>` `[old lo, old hi, word lo, word hi]`.
fn atomic_finish(b: &mut Body, bits: u32, old: &str) {
    let old = if bits == 64 { old.to_string() } else { b.v(format!("zext {} {old} to i64", int_ty(bits))) };
    let word = b.v("load i64* @g7, align 1");
    let sixteen = b.i32(16);
    let at = b.v(format!("add i32 @g7, {sixteen}"));
    b.i(format!("store i64 {old}, i64* {at}, align 1"));
    let twenty_four = b.i32(24);
    let at2 = b.v(format!("add i32 @g7, {twenty_four}"));
    b.i(format!("store i64 {word}, i64* {at2}, align 1"));
    let r = b.v(format!("load <4 x i32>* {at}, align 4"));
    b.i(format!("ret <4 x i32> {r}"));
}

fn old_and_word(old: u64, word: u64) -> Val {
    Val::v4i32([old as u32, (old >> 32) as u32, word as u32, (word >> 32) as u32])
}

const WORDS: [u64; 5] = [0, u64::MAX, 0x0123_4567_89ab_cdef, 0x8000_0000_8000_8080, 0x7f7f_7f7f_7fff_ffff];
const OPERANDS: [u64; 6] = [0, 1, u64::MAX, 0x8000_0000_0000_0080, 0x5555_5555_5555_5555, 0x0000_0001_0001_0101];

/// Emits a `switch` on `%pK` to one block per memory order in `orders` (the default goes
/// to the last), each making the call `call(order)` and branching to a join block with a
/// `phi` of the results (when `ty` is given). Returns the phi.
fn per_order(
    b: &mut Body,
    sel: &str,
    orders: &[u32],
    ty: Option<&str>,
    call: impl Fn(&mut Body, String) -> Option<String>,
) -> Option<String> {
    let keys: Vec<i64> = orders.iter().map(|&o| i64::from(o)).collect();
    b.switch_join(sel, &keys, orders.len(), ty, |b, k| {
        let order = b.i32(orders[k]);
        call(b, order)
    })
}

/// An atomic test case: `@f0` takes `params` (the word, the operand and the other inputs),
/// calls the intrinsic `name`, declared `ret (args)`, and returns what [`atomic_finish`]
/// gathers.
fn atomic_case(b: Body, params: &[Ty], name: &str, ret: &str, args: &[&str]) -> Case {
    b.case(params, Ty::V4I32).functions(vec![Function::intrinsic(name, ret, args)])
}

/// `llvm.nacl.atomic.rmw.iN` with each operation (1 add, 2 sub, 3 or, 4 and, 5 xor,
/// 6 exchange) and each memory order 1..6: returns the old value and writes only its own
/// bytes.
#[test]
fn atomic_rmw() {
    let dir = dir();
    let mut fails = Failures::default();
    for bits in [8u32, 16, 32, 64] {
        let t = int_ty(bits);
        for op in 1..=6u32 {
            let mut b = Body::new();
            let (addr, x) = atomic_setup(&mut b, bits);
            let opc = b.i32(op);
            let old = per_order(&mut b, "%p2", &[1, 2, 3, 4, 5, 6], Some(t), |b, order| {
                Some(b.v(format!("call {t} @f2(i32 {opc}, i32 {addr}, {t} {x}, i32 {order})")))
            })
            .unwrap();
            atomic_finish(&mut b, bits, &old);
            let mut rows = Vec::new();
            for (k, w) in WORDS.iter().enumerate() {
                for (j, v) in OPERANDS.iter().enumerate() {
                    let order = 1 + ((k + j) % 6) as u32;
                    rows.push(vec![Val::i64(*w), Val::i64(*v), Val::i32(order)]);
                }
            }
            for order in 1..=6 {
                rows.push(vec![Val::i64(WORDS[2]), Val::i64(OPERANDS[4]), Val::i32(order)]);
            }
            let intrinsic = format!("llvm.nacl.atomic.rmw.{t}");
            let case =
                atomic_case(b, &[Ty::I64, Ty::I64, Ty::I32], &intrinsic, t, &["i32", "i32", t, "i32"]).inputs(rows);
            let name = format!("rmw{op}_{t}");
            fails.run(&name, || {
                case.check(dir.path(), &name, |r| {
                    let (w, v) = (u64v(&r[0]), u64v(&r[1]) & mask(bits));
                    let old = field(w, bits);
                    let new = match op {
                        1 => old.wrapping_add(v),
                        2 => old.wrapping_sub(v),
                        3 => old | v,
                        4 => old & v,
                        5 => old ^ v,
                        _ => v,
                    };
                    old_and_word(old, with_field(w, bits, new))
                })
            });
        }
    }
    fails.finish();
}

/// `llvm.nacl.atomic.load.iN` with each allowed order (relaxed, consume, acquire,
/// seq_cst), and `llvm.nacl.atomic.store.iN` with each allowed order (relaxed, release,
/// seq_cst), which writes only the atomic's bytes.
#[test]
fn atomic_load_store() {
    let dir = dir();
    let mut fails = Failures::default();
    for bits in [8u32, 16, 32, 64] {
        let t = int_ty(bits);
        // load
        let mut b = Body::new();
        let (addr, _) = atomic_setup(&mut b, bits);
        let old = per_order(&mut b, "%p2", &[1, 2, 3, 6], Some(t), |b, order| {
            Some(b.v(format!("call {t} @f2(i32 {addr}, i32 {order})")))
        })
        .unwrap();
        atomic_finish(&mut b, bits, &old);
        let mut rows = Vec::new();
        for w in WORDS {
            for order in [1u32, 2, 3, 6] {
                rows.push(vec![Val::i64(w), Val::i64(0), Val::i32(order)]);
            }
        }
        let intrinsic = format!("llvm.nacl.atomic.load.{t}");
        let case = atomic_case(b, &[Ty::I64, Ty::I64, Ty::I32], &intrinsic, t, &["i32", "i32"]).inputs(rows);
        let name = format!("load_{t}");
        fails.run(&name, || case.check(dir.path(), &name, |r| old_and_word(field(u64v(&r[0]), bits), u64v(&r[0]))));
        // store
        let mut b = Body::new();
        let (addr, x) = atomic_setup(&mut b, bits);
        per_order(&mut b, "%p2", &[1, 4, 6], None, |b, order| {
            b.i(format!("call void @f2({t} {x}, i32 {addr}, i32 {order})"));
            None
        });
        let zero = b.c(t, 0);
        atomic_finish(&mut b, bits, &zero);
        let mut rows = Vec::new();
        for w in WORDS {
            for (j, v) in OPERANDS.iter().enumerate() {
                rows.push(vec![Val::i64(w), Val::i64(*v), Val::i32([1u32, 4, 6][j % 3])]);
            }
        }
        let intrinsic = format!("llvm.nacl.atomic.store.{t}");
        let case = atomic_case(b, &[Ty::I64, Ty::I64, Ty::I32], &intrinsic, "void", &[t, "i32", "i32"]).inputs(rows);
        let name = format!("store_{t}");
        fails.run(&name, || {
            case.check(dir.path(), &name, |r| old_and_word(0, with_field(u64v(&r[0]), bits, u64v(&r[1]))))
        });
    }
    fails.finish();
}

/// The (success, failure) order pairs the ABI allows for compare-exchange.
const CMPXCHG_ORDERS: [(u32, u32); 14] =
    [(1, 1), (2, 1), (2, 2), (3, 1), (3, 2), (3, 3), (4, 1), (5, 1), (5, 2), (5, 3), (6, 1), (6, 2), (6, 3), (6, 6)];

/// `llvm.nacl.atomic.cmpxchg.iN` with every allowed pair of orders: it returns the old
/// value, and stores the desired value exactly when the old one equals the expected one.
#[test]
fn atomic_cmpxchg() {
    let dir = dir();
    let mut fails = Failures::default();
    for bits in [8u32, 16, 32, 64] {
        let t = int_ty(bits);
        let mut b = Body::new();
        let (addr, desired) = atomic_setup(&mut b, bits);
        let expected = if bits == 64 { "%p2".to_string() } else { b.v(format!("trunc i64 %p2 to {t}")) };
        let n = CMPXCHG_ORDERS.len();
        let keys: Vec<i64> = (0..n as i64).collect();
        let old = b
            .switch_join("%p3", &keys, n, Some(t), |b, k| {
                let (s, f) = (b.i32(CMPXCHG_ORDERS[k].0), b.i32(CMPXCHG_ORDERS[k].1));
                Some(b.v(format!("call {t} @f2(i32 {addr}, {t} {expected}, {t} {desired}, i32 {s}, i32 {f})")))
            })
            .unwrap();
        atomic_finish(&mut b, bits, &old);
        let mut rows = Vec::new();
        for (k, w) in WORDS.iter().enumerate() {
            for pair in 0..n {
                let current = field(*w, bits);
                let desired = OPERANDS[(k + pair) % OPERANDS.len()];
                // Success (the expected value, with junk above the type's bits), then failure.
                rows.push(vec![
                    Val::i64(*w),
                    Val::i64(desired),
                    Val::i64(current | !mask(bits)),
                    Val::i32(pair as u32),
                ]);
                rows.push(vec![Val::i64(*w), Val::i64(desired), Val::i64(current ^ 1), Val::i32(pair as u32)]);
                rows.push(vec![
                    Val::i64(*w),
                    Val::i64(desired),
                    Val::i64(current ^ (1 << (bits - 1))),
                    Val::i32(pair as u32),
                ]);
            }
        }
        let intrinsic = format!("llvm.nacl.atomic.cmpxchg.{t}");
        let params = [Ty::I64, Ty::I64, Ty::I64, Ty::I32];
        let case = atomic_case(b, &params, &intrinsic, t, &["i32", t, t, "i32", "i32"]).inputs(rows);
        let name = format!("cmpxchg_{t}");
        fails.run(&name, || {
            case.check(dir.path(), &name, |r| {
                let (w, desired, expected) = (u64v(&r[0]), u64v(&r[1]), u64v(&r[2]) & mask(bits));
                let old = field(w, bits);
                let word = if old == expected { with_field(w, bits, desired) } else { w };
                old_and_word(old, word)
            })
        });
    }
    fails.finish();
}

/// `llvm.nacl.atomic.fence` with every order and `llvm.nacl.atomic.fence.all` between
/// ordinary stores and loads (which they must not disturb), and `is.lock.free` for 1, 2, 4
/// and 8 bytes (all true).
#[test]
fn fences_and_lock_free() {
    let dir = dir();
    let mut b = Body::new();
    let mut acc = "%p0".to_string();
    for order in 1..=6u32 {
        let o = b.i32(order);
        let k = b.i32(order * 0x101);
        b.i(format!("store i32 {acc}, i32* @g7, align 1"));
        b.i(format!("call void @f2(i32 {o})"));
        let x = b.v("load i32* @g7, align 1");
        acc = b.v(format!("add i32 {x}, {k}"));
    }
    b.i(format!("store i32 {acc}, i32* @g7, align 1"));
    b.i("call void @f3()");
    let x = b.v("load i32* @g7, align 1");
    let sizes: Vec<String> = [1u32, 2, 4, 8]
        .iter()
        .map(|&n| {
            let n = b.i32(n);
            b.v(format!("call i1 @f4(i32 {n}, i32 @g7)"))
        })
        .collect();
    let free = b.pack(&sizes);
    let shift = b.i32(28);
    let free = b.v(format!("shl i32 {free}, {shift}"));
    let r = b.v(format!("xor i32 {x}, {free}"));
    b.i(format!("ret i32 {r}"));
    b.case(&[Ty::I32], Ty::I32)
        .functions(vec![
            Function::intrinsic("llvm.nacl.atomic.fence", "void", &["i32"]),
            Function::intrinsic("llvm.nacl.atomic.fence.all", "void", &[]),
            Function::intrinsic("llvm.nacl.atomic.is.lock.free", "i1", &["i32", "i32"]),
        ])
        .inputs(rows1(i32s(&[0, 1, 0xffff_ffff, 0x1234_5678])))
        .check(dir.path(), "fences", |r| {
            let sum = (1..=6u32).fold(u32v(&r[0]), |a, o| a.wrapping_add(o * 0x101));
            Val::i32(sum ^ 0xf000_0000)
        });
}
