//! Instruction semantics under `pnacl run`, control flow and calls: `phi` in loops (sums,
//! Fibonacci, a swap of two phis, forward-declared operands), `switch` on `i8`, `i16`,
//! `i32` and `i64` with many cases, negative values, shared targets, a default, and targets
//! that have phis; nested branches; direct calls with many mixed parameters (stack-passed
//! ones included) and vector parameters, recursion (direct and mutual), and indirect calls
//! through function addresses in globals, in tables, chosen by `select`, and passed as
//! arguments. Expected results are computed in Rust.

mod common;

use common::*;
use pnacl_testutil::guest::{Case, Ty, Val};

/// `sum of i*i for i in 0..n`, a counted loop with two phis whose next values are forward
/// declarations.
#[test]
fn phi_loop_sum_of_squares() {
    let dir = dir();
    let mut b = Body::new();
    let zero = b.i32(0);
    let [s] = b.counted_loop("%p0", [("i32", &zero)], |b, i, [(s, next_s)]| {
        let sq = b.v(format!("mul i32 {i}, {i}"));
        b.define(next_s, format!("add i32 {s}, {sq}"));
    });
    b.i(format!("ret i32 {s}"));
    let mut ns: Vec<u32> = (0..=40).collect();
    ns.extend([100, 1000, 4097, 65_536, 100_000]);
    b.case(&[Ty::I32], Ty::I32).inputs(rows1(i32s(&ns))).check(dir.path(), "sum_of_squares", |r| {
        Val::i32((0..u32v(&r[0])).fold(0u32, |s, i| s.wrapping_add(i.wrapping_mul(i))))
    });
}

/// Fibonacci in `i64`, with the loop counter counting down and the exit test at the
/// bottom of the loop (the loop block is its own predecessor).
#[test]
fn phi_loop_fibonacci() {
    let dir = dir();
    let mut b = Body::new();
    let zero = b.c("i64", 0);
    let one = b.c("i64", 1);
    let zero32 = b.i32(0);
    let one32 = b.i32(1);
    let none = b.v(format!("icmp eq i32 %p0, {zero32}"));
    b.i(format!("br i1 {none}, label %b2, label %b1"));
    let [(a, next_a), (bb, next_b), (n, next_n)] = b.loop_head(1, [("i64", &zero), ("i64", &one), ("i32", "%p0")]);
    b.define(&next_a, format!("add i64 {bb}, {zero}"));
    b.define(&next_b, format!("add i64 {a}, {bb}"));
    b.define(&next_n, format!("sub i32 {n}, {one32}"));
    let done = b.v(format!("icmp eq i32 {next_n}, {zero32}"));
    b.i(format!("br i1 {done}, label %b2, label %b1"));
    b.block(2);
    let r = b.v(format!("phi i64 [{zero}, %b0], [{next_a}, %b1]"));
    b.i(format!("ret i64 {r}"));
    let ns: Vec<u32> = (0..=100).chain([200, 1000]).collect();
    b.case(&[Ty::I32], Ty::I64).inputs(rows1(i32s(&ns))).check(dir.path(), "fibonacci", |r| {
        let (mut a, mut b) = (0u64, 1u64);
        for _ in 0..u32v(&r[0]) {
            (a, b) = (b, a.wrapping_add(b));
        }
        Val::i64(a)
    });
}

/// Two phis that swap their values on every iteration: the phis read their operands in
/// parallel.
#[test]
fn phi_swap() {
    let dir = dir();
    let mut b = Body::new();
    let zero = b.i32(0);
    let one = b.i32(1);
    let shift = b.c("i64", 32);
    b.i("br label %b1");
    b.block(1);
    let next_k = b.forward("i32");
    let x = b.forward("i32");
    let y = b.forward("i32");
    // x and y are the phis themselves: each takes the other's value.
    b.define(&x, format!("phi i32 [%p0, %b0], [{y}, %b2]"));
    b.define(&y, format!("phi i32 [%p1, %b0], [{x}, %b2]"));
    let k = b.v(format!("phi i32 [{zero}, %b0], [{next_k}, %b2]"));
    let more = b.v(format!("icmp ult i32 {k}, %p2"));
    b.i(format!("br i1 {more}, label %b2, label %b3"));
    b.block(2);
    b.define(&next_k, format!("add i32 {k}, {one}"));
    b.i("br label %b1");
    b.block(3);
    let hi = b.v(format!("zext i32 {x} to i64"));
    let hi = b.v(format!("shl i64 {hi}, {shift}"));
    let lo = b.v(format!("zext i32 {y} to i64"));
    let r = b.v(format!("or i64 {hi}, {lo}"));
    b.i(format!("ret i64 {r}"));
    let mut rows = Vec::new();
    for n in [0u32, 1, 2, 3, 10, 11, 1001] {
        for (a, c) in [(1u32, 2u32), (0xdead_beef, 0x1234_5678), (7, 7)] {
            rows.push(vec![Val::i32(a), Val::i32(c), Val::i32(n)]);
        }
    }
    b.case(&[Ty::I32, Ty::I32, Ty::I32], Ty::I64).inputs(rows).check(dir.path(), "phi_swap", |r| {
        let (mut a, mut c) = (u32v(&r[0]), u32v(&r[1]));
        for _ in 0..u32v(&r[2]) {
            std::mem::swap(&mut a, &mut c);
        }
        Val::i64(u64::from(a) << 32 | u64::from(c))
    });
}

/// A `switch` on `bits`-bit values: case k goes to block `2 + k / 2` (two cases per
/// block), the default to block 1; block j returns `10 * j + 7`.
fn switch_case(bits: u32, cases: &[i64]) -> Case {
    let t = int_ty(bits);
    let mut b = Body::new();
    let cond = b.narrow("%p0", bits);
    let targets: Vec<(i64, usize)> = cases.iter().enumerate().map(|(k, &v)| (v, 2 + k / 2)).collect();
    b.switch(t, &cond, 1, &targets);
    let blocks = 2 + cases.len().div_ceil(2);
    for j in 1..blocks {
        b.block(j);
        let c = b.i32(10 * j + 7);
        b.i(format!("ret i32 {c}"));
    }
    b.case(&[int_carrier(bits)], Ty::I32)
}

/// Runs [`switch_case`] on `inputs` and checks the block each reaches.
fn check_switch(bits: u32, cases: &[i64], inputs: Vec<Val>) {
    let dir = dir();
    switch_case(bits, cases).inputs(rows1(inputs)).check(dir.path(), &format!("switch_i{bits}"), |r| {
        let x = int_of(&r[0]) & mask(bits);
        Val::i32(match cases.iter().position(|&c| c as u64 & mask(bits) == x) {
            Some(k) => 10 * (2 + k as u32 / 2) + 7,
            None => 17,
        })
    });
}

/// Inputs: every case value, its neighbours, and edge values, with junk in the bits a
/// narrow switch truncates away.
fn switch_inputs(bits: u32, cases: &[i64], extra: &[u64]) -> Vec<Val> {
    let mut v: Vec<u64> = extra.to_vec();
    for &c in cases {
        for d in [-1i64, 0, 1] {
            v.push(c.wrapping_add(d) as u64);
        }
    }
    if bits < 32 {
        let junk: Vec<u64> = v.iter().map(|x| x ^ 0x5a5a_0000_0000_0000 ^ (0xabcd_0000 & !mask(bits))).collect();
        v.extend(junk);
    }
    v.iter().map(|&x| int_val(bits, x)).collect()
}

#[test]
fn switch_i32() {
    let cases: Vec<i64> = vec![
        0,
        1,
        2,
        3,
        5,
        8,
        13,
        21,
        100,
        1000,
        -1,
        -2,
        -100,
        -65536,
        i32::MIN as i64,
        i32::MAX as i64,
        0x7fff_0000,
        4096,
        4097,
        77,
    ];
    check_switch(32, &cases, switch_inputs(32, &cases, &[0x8000_0001, 0xffff_0000, 50, 99]));
}

#[test]
fn switch_i8() {
    let cases: Vec<i64> = vec![-128, -1, 0, 1, 127, 100, -100, 42, 7];
    let mut vals: Vec<u32> = (0..256).collect();
    vals.extend([0x1234_5600, 0xffff_ff80, 0x8000_017f]);
    check_switch(8, &cases, i32s(&vals));
}

#[test]
fn switch_i16() {
    let cases: Vec<i64> = vec![-32768, -1, 0, 1, 255, 256, 32767, 1000, -1000, 12345];
    check_switch(16, &cases, switch_inputs(16, &cases, &[2, 0x8000_0000, 0xffff_7fff]));
}

#[test]
fn switch_i64() {
    let cases: Vec<i64> =
        vec![-1, 0, 1, 1 << 40, i64::MIN, i64::MAX, 0x1_0000_0000, 5, -0x1_0000_0000, 0xffff_ffff, 123_456_789_012];
    check_switch(64, &cases, switch_inputs(64, &cases, &[0x2_0000_0000, 0x1_0000_0005, 0xffff_ffff_0000_0005]));
}

/// A `switch` whose targets have phis: some cases go straight to the join block (the
/// switch block is then one predecessor, however many cases lead there), others through
/// blocks that compute a value; the default too has its own value.
#[test]
fn switch_into_phis() {
    let dir = dir();
    let mut b = Body::new();
    let base = b.i32(1000);
    b.switch("i32", "%p0", 3, &[(0, 1), (1, 2), (2, 4), (3, 1), (-5, 2), (9, 4), (10, 4)]);
    b.block(1);
    let x1 = b.v(format!("add i32 %p1, {base}"));
    b.i("br label %b4");
    b.block(2);
    let x2 = b.v("mul i32 %p1, %p1");
    b.i("br label %b4");
    b.block(3);
    let x3 = b.v(format!("sub i32 {base}, %p1"));
    b.i("br label %b4");
    b.block(4);
    let r = b.v(format!("phi i32 [%p1, %b0], [{x1}, %b1], [{x2}, %b2], [{x3}, %b3]"));
    let r2 = b.v(format!("phi i32 [{base}, %b0], [%p0, %b1], [%p0, %b2], [{base}, %b3]"));
    let sum = b.v(format!("xor i32 {r}, {r2}"));
    b.i(format!("ret i32 {sum}"));
    let mut rows = Vec::new();
    for sel in [0u32, 1, 2, 3, 4, 5, 9, 10, 11, (-5i32) as u32, u32::MAX] {
        for p in [0u32, 3, 0xffff_fff0] {
            rows.push(vec![Val::i32(sel), Val::i32(p)]);
        }
    }
    b.case(&[Ty::I32, Ty::I32], Ty::I32).inputs(rows).check(dir.path(), "switch_phis", |r| {
        let (sel, p) = (u32v(&r[0]) as i32, u32v(&r[1]));
        let (a, c) = match sel {
            2 | 9 | 10 => (p, 1000),
            0 | 3 => (p.wrapping_add(1000), sel as u32),
            1 | -5 => (p.wrapping_mul(p), sel as u32),
            _ => (1000u32.wrapping_sub(p), 1000),
        };
        Val::i32(a ^ c)
    });
}

/// Nested conditionals inside a loop: the number of Collatz steps to reach 1 (capped),
/// with the even/odd test and an early exit.
#[test]
fn nested_branches_collatz() {
    let dir = dir();
    let mut b = Body::new();
    let zero = b.i32(0);
    let one = b.i32(1);
    let three = b.i32(3);
    let cap = b.i32(500);
    b.i("br label %b1");
    // b1: the loop head (x, steps); b7 is the exit.
    let [(x, next_x), (n, next_n)] = b.loop_head(6, [("i32", "%p0"), ("i32", &zero)]);
    let at_one = b.v(format!("icmp ule i32 {x}, {one}"));
    b.i(format!("br i1 {at_one}, label %b7, label %b2"));
    // b2: the cap.
    b.block(2);
    let capped = b.v(format!("icmp uge i32 {n}, {cap}"));
    b.i(format!("br i1 {capped}, label %b7, label %b3"));
    // b3: odd (b4) or even (b5).
    b.block(3);
    let low = b.v(format!("and i32 {x}, {one}"));
    let odd = b.v(format!("icmp ne i32 {low}, {zero}"));
    b.i(format!("br i1 {odd}, label %b4, label %b5"));
    b.block(4);
    let t = b.v(format!("mul i32 {x}, {three}"));
    let odd_x = b.v(format!("add i32 {t}, {one}"));
    b.i("br label %b6");
    b.block(5);
    let even_x = b.v(format!("lshr i32 {x}, {one}"));
    b.i("br label %b6");
    // b6: the latch.
    b.block(6);
    b.define(&next_x, format!("phi i32 [{odd_x}, %b4], [{even_x}, %b5]"));
    b.define(&next_n, format!("add i32 {n}, {one}"));
    b.i("br label %b1");
    b.block(7);
    let r = b.v(format!("phi i32 [{n}, %b1], [{n}, %b2]"));
    b.i(format!("ret i32 {r}"));
    let xs: Vec<u32> = (0..60).chain([97, 871, 6171, 77_031, 837_799, 0xffff_ffff, 0x8000_0000]).collect();
    b.case(&[Ty::I32], Ty::I32).inputs(rows1(i32s(&xs))).check(dir.path(), "collatz", |r| {
        let (mut x, mut n) = (u32v(&r[0]), 0u32);
        while x > 1 && n < 500 {
            x = if x & 1 == 1 { x.wrapping_mul(3).wrapping_add(1) } else { x >> 1 };
            n += 1;
        }
        Val::i32(n)
    });
}

/// An if/else tree two levels deep whose four leaves merge in one `phi`: the quadrant of
/// a point, plus 100 on the diagonal.
#[test]
fn nested_if_else() {
    let dir = dir();
    let mut b = Body::new();
    let zero = b.i32(0);
    let c = b.v(format!("icmp slt i32 %p0, {zero}"));
    b.i(format!("br i1 {c}, label %b1, label %b2"));
    b.block(1);
    let c1 = b.v(format!("icmp slt i32 %p1, {zero}"));
    b.i(format!("br i1 {c1}, label %b3, label %b4"));
    b.block(2);
    let c2 = b.v(format!("icmp slt i32 %p1, {zero}"));
    b.i(format!("br i1 {c2}, label %b5, label %b6"));
    let mut incoming = Vec::new();
    for (blk, q) in [(3usize, 3u32), (4, 2), (5, 4), (6, 1)] {
        b.block(blk);
        let k = b.i32(q);
        let eq = b.v("icmp eq i32 %p0, %p1");
        let bonus = b.v(format!("zext i1 {eq} to i32"));
        let hundred = b.i32(100);
        let bonus = b.v(format!("mul i32 {bonus}, {hundred}"));
        let v = b.v(format!("add i32 {k}, {bonus}"));
        b.i("br label %b7");
        incoming.push(format!("[{v}, %b{blk}]"));
    }
    b.block(7);
    let r = b.v(format!("phi i32 {}", incoming.join(", ")));
    b.i(format!("ret i32 {r}"));
    let vals = i32s(&[0, 1, 5, 0x7fff_ffff, 0x8000_0000, 0xffff_ffff, 0xffff_fffb]);
    b.case(&[Ty::I32, Ty::I32], Ty::I32).inputs(pairs(&vals, &vals)).check(dir.path(), "quadrants", |r| {
        let (x, y) = (u32v(&r[0]) as i32, u32v(&r[1]) as i32);
        let q = match (x < 0, y < 0) {
            (true, true) => 3,
            (true, false) => 2,
            (false, true) => 4,
            (false, false) => 1,
        };
        Val::i32(q + if x == y { 100 } else { 0 })
    });
}

/// `@f2(i32 a, i64 b, float c, double d, i32 e) -> double`: `a + b * d + c - e`, each
/// converted to double.
fn mixed_helper() -> pnacl_testutil::guest::Function {
    let mut h = Body::new();
    let a = h.v("sitofp i32 %p0 to double");
    let b = h.v("sitofp i64 %p1 to double");
    let c = h.v("fpext float %p2 to double");
    let e = h.v("uitofp i32 %p4 to double");
    let bd = h.v(format!("fmul double {b}, %p3"));
    let s = h.v(format!("fadd double {a}, {bd}"));
    let s = h.v(format!("fadd double {s}, {c}"));
    let s = h.v(format!("fsub double {s}, {e}"));
    h.i(format!("ret double {s}"));
    h.function(2, "double", &["i32", "i64", "float", "double", "i32"])
}

fn mixed_expect(a: u32, b: u64, c: f32, d: f64, e: u32) -> f64 {
    (a as i32 as f64 + b as i64 as f64 * d) + c as f64 - e as f64
}

#[test]
fn call_mixed_parameters() {
    let dir = dir();
    let mut b = Body::new();
    let e = b.i32(0xffff_fff0u32);
    let r = b.v(format!("call double @f2(i32 %p0, i64 %p1, float %p2, double %p3, i32 {e})"));
    b.i(format!("ret double {r}"));
    let mut rows = Vec::new();
    for a in [0u32, 1, 0xffff_ffff, 0x8000_0000] {
        for bv in [0u64, 3, u64::MAX, 1 << 60] {
            for (c, d) in [(0.5f32, 2.0f64), (-1e30, 1e-300), (f32::INFINITY, -0.0), (3.25, f64::NAN)] {
                rows.push(vec![Val::i32(a), Val::i64(bv), Val::f32(c), Val::f64(d)]);
            }
        }
    }
    b.case(&[Ty::I32, Ty::I64, Ty::F32, Ty::F64], Ty::F64).functions(vec![mixed_helper()]).inputs(rows).check(
        dir.path(),
        "call_mixed",
        |r| Val::f64(mixed_expect(u32v(&r[0]), u64v(&r[1]), f32v(&r[2]), f64v(&r[3]), 0xffff_fff0)),
    );
}

/// Twenty parameters (more than any register convention holds), of four types,
/// interleaved: the result weighs each by its position.
#[test]
fn call_many_parameters() {
    let dir = dir();
    let types = ["i32", "double", "i64", "float"];
    let params: Vec<&str> = (0..20).map(|k| types[k % 4]).collect();
    let mut h = Body::new();
    let mut acc = h.c("double", 0);
    for (k, t) in params.iter().enumerate() {
        let p = format!("%p{k}");
        let x = match *t {
            "i32" => h.v(format!("sitofp i32 {p} to double")),
            "i64" => h.v(format!("sitofp i64 {p} to double")),
            "float" => h.v(format!("fpext float {p} to double")),
            _ => p,
        };
        let w = h.c("double", k + 1);
        let y = h.v(format!("fmul double {x}, {w}"));
        acc = h.v(format!("fadd double {acc}, {y}"));
    }
    h.i(format!("ret double {acc}"));
    let helper = h.function(2, "double", &params);
    // @f0(i32 a, double d) calls it with values derived from a and d.
    let mut b = Body::new();
    let mut args = Vec::new();
    for (k, t) in params.iter().enumerate() {
        let x = match *t {
            "i32" => {
                let c = b.i32(k * 3);
                b.v(format!("add i32 %p0, {c}"))
            }
            "i64" => {
                let w = b.v("sext i32 %p0 to i64");
                let c = b.c("i64", -(k as i64));
                b.v(format!("mul i64 {w}, {c}"))
            }
            "float" => {
                let f = b.v("fptrunc double %p1 to float");
                let c = b.c("float", k);
                b.v(format!("fsub float {f}, {c}"))
            }
            _ => {
                let c = b.c("double", k);
                b.v(format!("fadd double %p1, {c}"))
            }
        };
        args.push(format!("{t} {x}"));
    }
    let r = b.v(format!("call double @f2({})", args.join(", ")));
    b.i(format!("ret double {r}"));
    let rows = pairs(&i32s(&[0, 1, 0xffff_fff6, 1000]), &f64s(&[0.0, 1.5, -2.25, 1e10]));
    b.case(&[Ty::I32, Ty::F64], Ty::F64).functions(vec![helper]).inputs(rows).check(dir.path(), "call_many", |r| {
        let (a, d) = (u32v(&r[0]), f64v(&r[1]));
        let mut acc = 0.0f64;
        for (k, t) in params.iter().enumerate() {
            let x = match *t {
                "i32" => a.wrapping_add(k as u32 * 3) as i32 as f64,
                "i64" => (a as i32 as i64).wrapping_mul(-(k as i64)) as f64,
                "float" => ((d as f32) - k as f32) as f64,
                _ => d + k as f64,
            };
            acc += x * (k + 1) as f64;
        }
        Val::f64(acc)
    });
}

/// Vector parameters and results: `@f2(<4 x i32>, <4 x float>, <8 x i16>) -> <4 x i32>`.
#[test]
fn call_vector_parameters() {
    let dir = dir();
    let mut h = Body::new();
    let f = h.v("fptosi <4 x float> %p1 to <4 x i32>");
    let s = h.v(format!("add <4 x i32> %p0, {f}"));
    let w = h.v("bitcast <8 x i16> %p2 to <4 x i32>");
    let r = h.v(format!("xor <4 x i32> {s}, {w}"));
    h.i(format!("ret <4 x i32> {r}"));
    let helper = h.function(2, "<4 x i32>", &["<4 x i32>", "<4 x float>", "<8 x i16>"]);
    let b = Body::returning("<4 x i32>", "call <4 x i32> @f2(<4 x i32> %p0, <4 x float> %p1, <8 x i16> %p2)");
    let mut rng = Rng::new(5);
    let rows: Vec<Vec<Val>> = (0..20)
        .map(|k| {
            let v = Val::v4i32(std::array::from_fn(|_| rng.bits() as u32));
            let f = Val::v4f32([k as f32 * 1.5, -3.75, 1e6, -(k as f32)]);
            let h = Val::v8i16(std::array::from_fn(|_| rng.bits() as u16));
            vec![v, f, h]
        })
        .collect();
    b.case(&[Ty::V4I32, Ty::V4F32, Ty::V8I16], Ty::V4I32).functions(vec![helper]).inputs(rows).check(
        dir.path(),
        "call_vectors",
        |r| {
            let (a, f, h) = (l32(&r[0]), lf(&r[1]), l16(&r[2]));
            Val::v4i32(std::array::from_fn(|i| {
                let w = u32::from(h[2 * i]) | u32::from(h[2 * i + 1]) << 16;
                a[i].wrapping_add(f[i] as i32 as u32) ^ w
            }))
        },
    );
}

/// Recursion: `@f2(n)` is the naive recursive Fibonacci number in `i64`.
#[test]
fn recursion_fibonacci() {
    let dir = dir();
    let mut h = Body::new();
    let two = h.i32(2);
    let one = h.i32(1);
    let small = h.v(format!("icmp ult i32 %p0, {two}"));
    h.i(format!("br i1 {small}, label %b1, label %b2"));
    h.block(1);
    let n = h.v("zext i32 %p0 to i64");
    h.i(format!("ret i64 {n}"));
    h.block(2);
    let n1 = h.v(format!("sub i32 %p0, {one}"));
    let n2 = h.v(format!("sub i32 %p0, {two}"));
    let f1 = h.v(format!("call i64 @f2(i32 {n1})"));
    let f2 = h.v(format!("call i64 @f2(i32 {n2})"));
    let s = h.v(format!("add i64 {f1}, {f2}"));
    h.i(format!("ret i64 {s}"));
    let b = Body::returning("i64", "call i64 @f2(i32 %p0)");
    let ns: Vec<u32> = (0..=25).collect();
    b.case(&[Ty::I32], Ty::I64).functions(vec![h.function(2, "i64", &["i32"])]).inputs(rows1(i32s(&ns))).check(
        dir.path(),
        "recursive_fib",
        |r| {
            let (mut a, mut c) = (0u64, 1u64);
            for _ in 0..u32v(&r[0]) {
                (a, c) = (c, a + c);
            }
            Val::i64(a)
        },
    );
}

/// Mutual recursion, deep: `@f2` (is even) and `@f3` (is odd) call each other n times;
/// also Ackermann's function, which recurses in a non-tail position.
#[test]
fn recursion_mutual_and_deep() {
    let dir = dir();
    let parity = |index: usize, other: usize, at_zero: u32| {
        let mut h = Body::new();
        let zero = h.i32(0);
        let one = h.i32(1);
        let z = h.i32(at_zero);
        let done = h.v(format!("icmp eq i32 %p0, {zero}"));
        h.i(format!("br i1 {done}, label %b1, label %b2"));
        h.block(1);
        h.i(format!("ret i32 {z}"));
        h.block(2);
        let n = h.v(format!("sub i32 %p0, {one}"));
        let r = h.v(format!("call i32 @f{other}(i32 {n})"));
        h.i(format!("ret i32 {r}"));
        h.function(index, "i32", &["i32"])
    };
    let b = Body::returning("i32", "call i32 @f2(i32 %p0)");
    let ns: Vec<u32> = (0..20).chain([1000, 10_001, 50_000]).collect();
    b.case(&[Ty::I32], Ty::I32).functions(vec![parity(2, 3, 1), parity(3, 2, 0)]).inputs(rows1(i32s(&ns))).check(
        dir.path(),
        "is_even",
        |r| Val::i32(u32::from(u32v(&r[0]).is_multiple_of(2))),
    );
    // ackermann(m, n)
    let mut h = Body::new();
    let zero = h.i32(0);
    let one = h.i32(1);
    let m0 = h.v(format!("icmp eq i32 %p0, {zero}"));
    h.i(format!("br i1 {m0}, label %b1, label %b2"));
    h.block(1);
    let n1 = h.v(format!("add i32 %p1, {one}"));
    h.i(format!("ret i32 {n1}"));
    h.block(2);
    let m1 = h.v(format!("sub i32 %p0, {one}"));
    let n0 = h.v(format!("icmp eq i32 %p1, {zero}"));
    h.i(format!("br i1 {n0}, label %b3, label %b4"));
    h.block(3);
    let r = h.v(format!("call i32 @f2(i32 {m1}, i32 {one})"));
    h.i(format!("ret i32 {r}"));
    h.block(4);
    let nm1 = h.v(format!("sub i32 %p1, {one}"));
    let inner = h.v(format!("call i32 @f2(i32 %p0, i32 {nm1})"));
    let r = h.v(format!("call i32 @f2(i32 {m1}, i32 {inner})"));
    h.i(format!("ret i32 {r}"));
    let b = Body::returning("i32", "call i32 @f2(i32 %p0, i32 %p1)");
    fn ack(m: u32, n: u32) -> u32 {
        match (m, n) {
            (0, n) => n + 1,
            (m, 0) => ack(m - 1, 1),
            (m, n) => ack(m - 1, ack(m, n - 1)),
        }
    }
    let mut rows = Vec::new();
    for m in 0..=2u32 {
        for n in 0..=6u32 {
            rows.push(vec![Val::i32(m), Val::i32(n)]);
        }
    }
    rows.push(vec![Val::i32(3), Val::i32(3)]);
    rows.push(vec![Val::i32(3), Val::i32(5)]);
    b.case(&[Ty::I32, Ty::I32], Ty::I32).functions(vec![h.function(2, "i32", &["i32", "i32"])]).inputs(rows).check(
        dir.path(),
        "ackermann",
        |r| Val::i32(ack(u32v(&r[0]), u32v(&r[1]))),
    );
}

/// Three helpers `i32 (i32, i32)`: `@f2` adds, `@f3` subtracts, `@f4` multiplies.
fn arith_helpers() -> Vec<pnacl_testutil::guest::Function> {
    ["add", "sub", "mul"]
        .iter()
        .enumerate()
        .map(|(k, op)| Body::returning("i32", format!("{op} i32 %p0, %p1")).function(2 + k, "i32", &["i32", "i32"]))
        .collect()
}

fn arith(k: u32, a: u32, b: u32) -> u32 {
    match k {
        0 => a.wrapping_add(b),
        1 => a.wrapping_sub(b),
        _ => a.wrapping_mul(b),
    }
}

/// An indirect call through a function address stored in a global (`@g8`, initialized
/// with a relocation to `@f3`).
#[test]
fn indirect_call_through_global() {
    let dir = dir();
    let mut b = Body::new();
    let f = b.v("load i32* @g8, align 1");
    let r = b.v(format!("call i32 {f}(i32 %p0, i32 %p1)"));
    b.i(format!("ret i32 {r}"));
    let vals = i32s(I32_EDGES);
    b.case(&[Ty::I32, Ty::I32], Ty::I32)
        .functions(arith_helpers())
        .globals(vec!["var @g8, align 4,\n      reloc @f3;".into()])
        .inputs(pairs(&vals, &vals))
        .check(dir.path(), "indirect_global", |r| Val::i32(arith(1, u32v(&r[0]), u32v(&r[1]))));
}

/// A table of three function addresses (`@g8`), indexed by the input; and the address
/// stored at run time into the scratch area and loaded back.
#[test]
fn indirect_call_through_table() {
    let dir = dir();
    let mut b = Body::new();
    let four = b.i32(4);
    let off = b.v(format!("mul i32 %p0, {four}"));
    let at = b.v(format!("add i32 @g8, {off}"));
    let f = b.v(format!("load i32* {at}, align 1"));
    // Through memory written at run time as well.
    b.i(format!("store i32 {f}, i32* @g7, align 1"));
    let g = b.v("load i32* @g7, align 1");
    let r = b.v(format!("call i32 {g}(i32 %p1, i32 %p2)"));
    b.i(format!("ret i32 {r}"));
    let mut rows = Vec::new();
    for k in 0..3u32 {
        for (x, y) in [(7u32, 5u32), (0xffff_ffff, 2), (0x8000_0000, 0x8000_0000), (12345, 0xfedc_ba98)] {
            rows.push(vec![Val::i32(k), Val::i32(x), Val::i32(y)]);
        }
    }
    b.case(&[Ty::I32, Ty::I32, Ty::I32], Ty::I32)
        .functions(arith_helpers())
        .globals(vec!["const @g8, align 4,\n      initializers 3 {\n        reloc @f2;\n        reloc @f3;\n        reloc @f4;\n      }".into()])
        .inputs(rows)
        .check(dir.path(), "indirect_table", |r| Val::i32(arith(u32v(&r[0]), u32v(&r[1]), u32v(&r[2]))));
}

/// Function addresses as operands: chosen by `select`, then passed to a helper (`@f5`)
/// that makes the indirect call.
#[test]
fn indirect_call_selected_and_passed() {
    let dir = dir();
    let mut fs = arith_helpers();
    fs.push(Body::returning("i32", "call i32 %p0(i32 %p1, i32 %p2)").function(5, "i32", &["i32", "i32", "i32"]));
    let mut b = Body::new();
    let zero = b.i32(0);
    let c = b.v(format!("icmp ne i32 %p0, {zero}"));
    let f = b.v(format!("select i1 {c}, i32 @f4, i32 @f2"));
    let r = b.v(format!("call i32 @f5(i32 {f}, i32 %p1, i32 %p2)"));
    // And a direct indirect call on the same address.
    let r2 = b.v(format!("call i32 {f}(i32 {r}, i32 %p2)"));
    b.i(format!("ret i32 {r2}"));
    let vals = i32s(&[0, 1, 3, 0xffff_ffff, 0x8000_0001]);
    let mut rows = Vec::new();
    for sel in [0u32, 1, 2] {
        for x in &vals {
            for y in &vals {
                rows.push(vec![Val::i32(sel), *x, *y]);
            }
        }
    }
    b.case(&[Ty::I32, Ty::I32, Ty::I32], Ty::I32).functions(fs).inputs(rows).check(
        dir.path(),
        "indirect_select",
        |r| {
            let k = if u32v(&r[0]) != 0 { 2 } else { 0 };
            let (x, y) = (u32v(&r[1]), u32v(&r[2]));
            Val::i32(arith(k, arith(k, x, y), y))
        },
    );
}

/// A `void` helper with side effects (stores into the scratch area) and a helper
/// returning `float`; the caller reads what the first wrote.
#[test]
fn call_void_and_float() {
    let dir = dir();
    let mut h = Body::new();
    h.i("store i64 %p0, i64* @g7, align 1");
    let four = h.i32(8);
    let at = h.v(format!("add i32 @g7, {four}"));
    h.i(format!("store float %p1, float* {at}, align 4"));
    h.i("ret void");
    let store = h.function(2, "void", &["i64", "float"]);
    let square = Body::returning("float", "fmul float %p0, %p0").function(3, "float", &["float"]);
    let mut b = Body::new();
    let sq = b.v("call float @f3(float %p1)");
    b.i(format!("call void @f2(i64 %p0, float {sq})"));
    let eight = b.i32(8);
    let at = b.v(format!("add i32 @g7, {eight}"));
    let f = b.v(format!("load float* {at}, align 4"));
    let bits = b.v(format!("bitcast float {f} to i32"));
    let wide = b.v(format!("zext i32 {bits} to i64"));
    let x = b.v("load i64* @g7, align 1");
    let r = b.v(format!("xor i64 {x}, {wide}"));
    b.i(format!("ret i64 {r}"));
    let rows = pairs(&i64s(&[0, 1, u64::MAX, 0x0123_4567_89ab_cdef]), &f32s(&[0.0, -1.5, 3.0, 1e20]));
    b.case(&[Ty::I64, Ty::F32], Ty::I64).functions(vec![store, square]).inputs(rows).check(
        dir.path(),
        "call_void",
        |r| {
            let f = f32v(&r[1]);
            Val::i64(u64v(&r[0]) ^ u64::from((f * f).to_bits()))
        },
    );
}

/// Branches on the `or` and the `and` of a float compare and an integer compare, nested
/// too (the translator branches on each compare in turn): NaNs, equal and ordered values.
#[test]
fn branches_on_combined_float_and_integer_compares() {
    let dir = dir();
    let body = "  %b0:
    %v0 = fcmp olt float %p0, %p1;
    %v1 = icmp sgt i32 %p2, %p3;
    %v2 = or i1 %v0, %v1;
    br i1 %v2, label %b1, label %b2;
  %b1:
    %v3 = fcmp ueq float %p0, %p1;
    %v4 = and i1 %v1, %v3;
    br i1 %v4, label %b3, label %b4;
  %b2:
    %v5 = fcmp oge float %p0, %p1;
    %v6 = or i1 %v5, %v1;
    %v7 = fcmp ord float %p0, %p1;
    %v8 = and i1 %v6, %v7;
    br i1 %v8, label %b5, label %b6;
  %b3:
    ret i32 %c0;
  %b4:
    ret i32 %c1;
  %b5:
    ret i32 %c2;
  %b6:
    ret i32 %c3;";
    let constants = [("i32", "1"), ("i32", "2"), ("i32", "3"), ("i32", "4")];
    let floats = [0.0f32, -0.0, 1.0, -1.5, f32::NAN, f32::INFINITY];
    let ints = [0u32, 1, 0xffff_ffff];
    let mut rows = Vec::new();
    for &a in &floats {
        for &b in &floats {
            for &c in &ints {
                for &d in &ints {
                    rows.push(vec![Val::f32(a), Val::f32(b), Val::i32(c), Val::i32(d)]);
                }
            }
        }
    }
    let case = Case::new(&[Ty::F32, Ty::F32, Ty::I32, Ty::I32], Ty::I32, &constants, body).inputs(rows);
    case.check(dir.path(), "float_and_int_conditions", |r| {
        let (a, b) = (f32v(&r[0]), f32v(&r[1]));
        let gt = (u32v(&r[2]) as i32) > (u32v(&r[3]) as i32);
        let unordered = a.is_nan() || b.is_nan();
        Val::i32(if a < b || gt {
            if gt && (a == b || unordered) { 1 } else { 2 }
        } else if (a >= b || gt) && !unordered {
            3
        } else {
            4
        })
    });
}
