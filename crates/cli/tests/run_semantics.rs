//! Instruction semantics under `pnacl run`, integer part: the binary operators on `i8`,
//! `i16`, `i32` and `i64` (shift amounts modulo the width, `srem` of INT_MIN by -1), logic
//! on `i1`, and the division traps (by zero, and `sdiv` INT_MIN by -1). Each case is a
//! PNaClAsm function run on many inputs; the expected results are computed here, in Rust.

mod common;

use common::*;
use pnacl_testutil::guest::{Case, Ty, Val};

/// A case `OP iN %x, %y` on `bits`-bit operands: `i8`/`i16` operands come in as `i32` and
/// are truncated, the result goes back extended by `ext`.
fn binop_case(op: &str, bits: u32, ext: &str) -> Case {
    let mut b = Body::new();
    let (x, y) = (b.narrow("%p0", bits), b.narrow("%p1", bits));
    let r = b.v(format!("{op} {} {x}, {y}", int_ty(bits)));
    b.ret_int(&r, bits, ext);
    let ty = int_carrier(bits);
    b.case(&[ty, ty], ty)
}

/// Input rows of two `bits`-bit operands each, one per pair.
fn operand_rows(bits: u32, operands: impl IntoIterator<Item = (u64, u64)>) -> Vec<Vec<Val>> {
    operands.into_iter().map(|(a, b)| vec![int_val(bits, a), int_val(bits, b)]).collect()
}

/// Runs every binary operator on every pair of `bits`-bit edge values (but those that
/// trap); the result is zero-extended.
fn binops(bits: u32) {
    let dir = dir();
    let edges = int_edges(bits);
    for op in INT_OPS {
        let rows = operand_rows(
            bits,
            edges
                .iter()
                .flat_map(|&a| edges.iter().map(move |&c| (a, c)))
                .filter(|&(a, c)| int_op(op, bits, a, c).is_some()),
        );
        binop_case(op, bits, "zext").inputs(rows).check(dir.path(), &format!("{op}_i{bits}"), |r| {
            int_val(bits, int_op(op, bits, int_of(&r[0]), int_of(&r[1])).expect("rows are filtered"))
        });
    }
}

#[test]
fn i8_binops() {
    binops(8);
}

#[test]
fn i16_binops() {
    binops(16);
}

#[test]
fn i32_binops() {
    binops(32);
}

#[test]
fn i64_binops() {
    binops(64);
}

/// Shift amounts from 0 to well past the width, and amounts that are negative in the
/// operand's type: the amount is taken modulo the width.
#[test]
fn shifts_by_large_amounts() {
    let dir = dir();
    for bits in [8u32, 16, 32, 64] {
        let values: &[u64] = &[1, 0x81, 0x8001, 0x8000_0001, 0x8000_0000_0000_0001, 0xfedc_ba98_7654_3210];
        let mut amounts: Vec<u64> = (0..=2 * u64::from(bits) + 3).collect();
        amounts.extend([u64::from(bits) * 3 + 1, 0xff, 0xffff, 0xffff_ffff, u64::MAX, 1 << 40 | 3]);
        for op in ["shl", "lshr", "ashr"] {
            let rows = operand_rows(bits, values.iter().flat_map(|&a| amounts.iter().map(move |&s| (a, s))));
            binop_case(op, bits, "zext").inputs(rows).check(dir.path(), &format!("{op}_i{bits}_large"), |r| {
                let (a, s) = (int_of(&r[0]) & mask(bits), int_of(&r[1]) & mask(bits));
                let n = (s % u64::from(bits)) as u32;
                let want = match op {
                    "shl" => a << n,
                    "lshr" => a >> n,
                    _ => (sext(a, bits) as i64 >> n) as u64,
                };
                int_val(bits, want & mask(bits))
            });
        }
    }
}

/// `srem` of INT_MIN by -1 is 0 at every width (the operands are the function's inputs, so
/// nothing is folded at translation time).
#[test]
fn srem_int_min_by_minus_one() {
    let dir = dir();
    for bits in [8u32, 16, 32, 64] {
        let min = 1u64 << (bits - 1);
        let rows = operand_rows(
            bits,
            [(min, u64::MAX), (min, 1), (min, min), (min | 1, u64::MAX), (min - 1, u64::MAX), (min, u64::MAX)],
        );
        binop_case("srem", bits, "sext").inputs(rows).check(dir.path(), &format!("srem_min_i{bits}"), |r| {
            let want = int_op("srem", bits, int_of(&r[0]), int_of(&r[1])).unwrap();
            int_val(bits, if bits == 64 { want } else { sext(want, bits) })
        });
    }
}

/// `and`, `or` and `xor` on `i1` values made by `icmp` and `trunc`, including `xor` with
/// true (not); the results come back zero- and sign-extended.
#[test]
fn i1_logic() {
    let dir = dir();
    let mut b = Body::new();
    let zero = b.i32(0);
    let t = b.c("i1", 1);
    let f = b.c("i1", 0);
    let a = b.v("trunc i32 %p0 to i1");
    let c = b.v(format!("icmp ne i32 %p1, {zero}"));
    let d = b.v(format!("icmp slt i32 %p2, {zero}"));
    let and = b.v(format!("and i1 {a}, {c}"));
    let or = b.v(format!("or i1 {a}, {c}"));
    let xor = b.v(format!("xor i1 {a}, {c}"));
    let not = b.v(format!("xor i1 {a}, {t}"));
    let and_f = b.v(format!("and i1 {c}, {f}"));
    let or_t = b.v(format!("or i1 {d}, {t}"));
    let mixed = b.v(format!("xor i1 {and}, {d}"));
    let mixed2 = b.v(format!("or i1 {mixed}, {not}"));
    let xx = b.v(format!("xor i1 {d}, {d}"));
    let packed = b.pack(&[a.clone(), c.clone(), d.clone(), and, or, xor, not, and_f, or_t, mixed, mixed2, xx]);
    // sext of i1 true is all ones: put it in the top bits.
    let s = b.v(format!("sext i1 {a} to i32"));
    let high = b.i32(-65536);
    let top = b.v(format!("and i32 {s}, {high}"));
    let r = b.v(format!("or i32 {packed}, {top}"));
    b.i(format!("ret i32 {r}"));
    let vals = [0u32, 1, 2, 3, 0x8000_0000, 0xffff_ffff, 0x7fff_fffe];
    let mut rows = Vec::new();
    for &x in &vals {
        for &y in &vals {
            for &z in &vals {
                rows.push(vec![Val::i32(x), Val::i32(y), Val::i32(z)]);
            }
        }
    }
    b.case(&[Ty::I32, Ty::I32, Ty::I32], Ty::I32).inputs(rows).check(dir.path(), "i1_logic", |r| {
        let a = u32v(&r[0]) & 1 == 1;
        let c = u32v(&r[1]) != 0;
        let d = (u32v(&r[2]) as i32) < 0;
        let mixed = (a && c) ^ d;
        let bits = [a, c, d, a && c, a || c, a ^ c, !a, false, true, mixed, mixed || !a, false];
        let mut want = bits.iter().enumerate().fold(0u32, |acc, (k, &x)| acc | (u32::from(x) << k));
        if a {
            want |= 0xffff_0000;
        }
        Val::i32(want)
    });
}

/// Division and remainder by zero trap at every width; the rows before the zero divisor
/// run normally.
#[test]
fn division_by_zero_traps() {
    let dir = dir();
    for bits in [8u32, 16, 32, 64] {
        for op in ["udiv", "sdiv", "urem", "srem"] {
            // The divisor's low bits are zero; its upper (truncated) bits are not.
            let zero = if bits < 32 { 0x1234_0000 & !mask(bits) } else { 0 };
            let case = binop_case(op, bits, "zext").inputs(operand_rows(bits, [(7, 2), (7, zero), (9, 3)]));
            expect_trap(&case, dir.path(), &format!("{op}_i{bits}_by_zero"), "integer divide by zero");
        }
    }
}

/// `sdiv` of INT_MIN by -1 traps with "integer overflow" at every width.
#[test]
fn sdiv_overflow_traps() {
    let dir = dir();
    for bits in [8u32, 16, 32, 64] {
        let min = 1u64 << (bits - 1);
        let case = binop_case("sdiv", bits, "zext").inputs(operand_rows(bits, [(min, 1), (min, u64::MAX), (9, 3)]));
        expect_trap(&case, dir.path(), &format!("sdiv_i{bits}_overflow"), "integer overflow");
    }
}

/// The trap tests' control: the same modules without the faulting row exit normally.
#[test]
fn division_without_faulting_rows() {
    let dir = dir();
    for bits in [8u32, 16, 32, 64] {
        for op in ["udiv", "sdiv", "urem", "srem"] {
            let case = binop_case(op, bits, "zext").inputs(operand_rows(bits, [(7, 2), (u64::MAX, 3), (9, u64::MAX)]));
            case.check(dir.path(), &format!("{op}_i{bits}_ok"), |r| {
                int_val(bits, int_op(op, bits, int_of(&r[0]), int_of(&r[1])).unwrap())
            });
        }
    }
}

/// Vector division works lane by lane, so one zero lane (or one INT_MIN / -1 lane for
/// `sdiv`) traps like the scalar operation.
#[test]
fn vector_division_traps() {
    let dir = dir();
    for (t, ty, bits) in [("<4 x i32>", Ty::V4I32, 32u32), ("<8 x i16>", Ty::V8I16, 16), ("<16 x i8>", Ty::V16I8, 8)] {
        let n = ty.size() * 8 / bits as usize;
        let ones = from_lanes(ty, bits, &vec![1; n]);
        let mut zero_lane = vec![3u64; n];
        zero_lane[n - 1] = 0;
        let zero_lane = from_lanes(ty, bits, &zero_lane);
        for op in ["udiv", "sdiv", "urem", "srem"] {
            let case = Body::returning(t, format!("{op} {t} %p0, %p1"))
                .case(&[ty, ty], ty)
                .inputs(vec![vec![ones, ones], vec![ones, zero_lane]]);
            expect_trap(&case, dir.path(), &format!("{op}_{ty:?}_by_zero"), "integer divide by zero");
        }
        let min = from_lanes(ty, bits, &vec![1 << (bits - 1); n]);
        let mut minus_one = vec![1u64; n];
        minus_one[1] = mask(bits);
        let minus_one = from_lanes(ty, bits, &minus_one);
        let case = Body::returning(t, format!("sdiv {t} %p0, %p1"))
            .case(&[ty, ty], ty)
            .inputs(vec![vec![ones, ones], vec![min, minus_one]]);
        expect_trap(&case, dir.path(), &format!("sdiv_{ty:?}_overflow"), "integer overflow");
    }
}

/// `udiv` and `urem` of `i32`s by constants, which the translator turns into a multiply and
/// a shift when the magic number fits in 32 bits: divisors with and without such a number,
/// powers of two, and dividends around multiples of the divisor and 2**32.
#[test]
fn unsigned_division_by_constants() {
    let dir = dir();
    let divisors = [3u32, 5, 7, 10, 11, 25, 100, 139_968, 641, 65_535, 1 << 20, 1_000_000_007, 0x8000_0001, u32::MAX];
    for op in ["udiv", "urem"] {
        let mut b = Body::new();
        let results: Vec<String> = divisors
            .iter()
            .map(|&d| {
                let c = b.i32(d as i32);
                b.v(format!("{op} i32 %p0, {c}"))
            })
            .collect();
        // Fold the results so that each one counts: r = r * 31 + q.
        let k = b.i32(31);
        let mut acc = results[0].clone();
        for r in &results[1..] {
            let m = b.v(format!("mul i32 {acc}, {k}"));
            acc = b.v(format!("add i32 {m}, {r}"));
        }
        b.i(format!("ret i32 {acc}"));
        let mut xs: Vec<u32> = vec![0, 1, 2, 1 << 31, u32::MAX, u32::MAX - 1];
        for &d in &divisors {
            let top = u32::MAX - u32::MAX % d;
            xs.extend([d - 1, d, d + 1, d.wrapping_mul(7).wrapping_sub(1), top - 1, top]);
        }
        b.case(&[Ty::I32], Ty::I32).inputs(rows1(i32s(&xs))).check(dir.path(), &format!("{op}_by_constants"), |r| {
            let x = u32v(&r[0]);
            let f = |d: u32| if op == "udiv" { x / d } else { x % d };
            Val::i32(divisors[1..].iter().fold(f(divisors[0]), |acc, &d| acc.wrapping_mul(31).wrapping_add(f(d))))
        });
    }
}

/// `mul (add (add x, k1), k2), m` with constants, which the translator distributes
/// (`x * m + (k1 + k2) * m`), on every width, with constants that wrap and constants on
/// either side.
#[test]
fn multiplication_of_a_sum_with_constants() {
    let dir = dir();
    for bits in [8u32, 16, 32, 64] {
        for (k1, k2, m) in [(1i64, 2i64, 4i64), (-1, 3, 12), (0x7f, -0x81, -3), (1 << 30, 1 << 30, 6)] {
            let t = int_ty(bits);
            let mut b = Body::new();
            let x = b.narrow("%p0", bits);
            let (c1, c2, cm) = (
                b.c(t, sext(k1 as u64, bits) as i64),
                b.c(t, sext(k2 as u64, bits) as i64),
                b.c(t, sext(m as u64, bits) as i64),
            );
            let s1 = b.v(format!("add {t} {x}, {c1}"));
            let s2 = b.v(format!("add {t} {c2}, {s1}"));
            let p = b.v(format!("mul {t} {cm}, {s2}"));
            b.ret_int(&p, bits, "zext");
            let ty = int_carrier(bits);
            let xs: Vec<Val> = int_edges(bits).into_iter().map(|x| int_val(bits, x)).collect();
            let name = format!("mul_sum_i{bits}_{k1}_{k2}_{m}");
            b.case(&[ty], ty).inputs(rows1(xs)).check(dir.path(), &name, |r| {
                let x = int_of(&r[0]);
                let s = x.wrapping_add(k1 as u64).wrapping_add(k2 as u64);
                int_val(bits, s.wrapping_mul(m as u64) & mask(bits))
            });
        }
    }
}

/// The same computation in several blocks: a copy a dominating block computed is reused
/// (`pnacl wasm` removes such copies, as pnacl-llc's GVN did), and one that only a sibling
/// branch computed is not (the `xor` after the join is computed again).
#[test]
fn repeated_computations_in_dominated_and_sibling_blocks() {
    let dir = dir();
    let mut b = Body::new();
    let seven = b.i32(7);
    let zero = b.i32(0);
    let product = b.v(format!("mul i32 %p0, {seven}"));
    let taken = b.v(format!("icmp ne i32 %p1, {zero}"));
    b.i(format!("br i1 {taken}, label %b1, label %b2"));
    b.block(1);
    let again = b.v(format!("mul i32 %p0, {seven}"));
    let left_xor = b.v("xor i32 %p0, %p1");
    let left = b.v(format!("add i32 {again}, {left_xor}"));
    b.i("br label %b3");
    b.block(2);
    let right_xor = b.v("xor i32 %p0, %p1");
    let right = b.v(format!("sub i32 {right_xor}, {product}"));
    b.i("br label %b3");
    b.block(3);
    let joined = b.v(format!("phi i32 [{left}, %b1], [{right}, %b2]"));
    let after = b.v("xor i32 %p0, %p1");
    let r = b.v(format!("add i32 {joined}, {after}"));
    b.i(format!("ret i32 {r}"));
    let xs = [0u32, 1, 7, 0x8000_0000, 0xffff_ffff, 12345];
    let rows = pairs(&i32s(&xs), &i32s(&xs));
    b.case(&[Ty::I32, Ty::I32], Ty::I32).inputs(rows).check(dir.path(), "repeated", |r| {
        let (p0, p1) = (u32v(&r[0]), u32v(&r[1]));
        let (product, x) = (p0.wrapping_mul(7), p0 ^ p1);
        let joined = if p1 != 0 { product.wrapping_add(x) } else { x.wrapping_sub(product) };
        Val::i32(joined.wrapping_add(x))
    });
}

/// A small function without memory accesses, with two returns and a phi, called in a loop
/// (`pnacl wasm` inlines such functions: their locals keep their values from one call to
/// the next, and each `return` leaves the inlined body).
#[test]
fn a_small_function_called_in_a_loop() {
    let dir = dir();
    let helper = pnacl_testutil::guest::Function::helper(
        "i32",
        &["i32", "i32"],
        "  function i32 @f2(i32 %p0, i32 %p1) {\n    blocks 5;\n    constants {\n      i32:\n        %c0 = i32 1;\n        \
         %c1 = i32 0;\n    }\n  %b0:\n    %v0 = icmp sgt i32 %p0, %p1;\n    br i1 %v0, label %b1, label %b2;\n  %b1:\n    \
         %v1 = sub i32 %p0, %p1;\n    ret i32 %v1;\n  %b2:\n    %v2 = sub i32 %p1, %p0;\n    %v3 = and i32 %v2, %c0;\n    \
         %v4 = icmp eq i32 %v3, %c1;\n    br i1 %v4, label %b3, label %b4;\n  %b3:\n    br label %b4;\n  %b4:\n    \
         %v5 = phi i32 [%v2, %b2], [%c0, %b3];\n    ret i32 %v5;\n  }",
    );
    let body = "  %b0:\n    br label %b1;\n  %b1:\n    %v0 = phi i32 [%c0, %b0], [%v5, %b2];\n    \
                %v1 = phi i32 [%c0, %b0], [%v4, %b2];\n    %v2 = icmp slt i32 %v0, %p1;\n    \
                br i1 %v2, label %b2, label %b3;\n  %b2:\n    %v3 = call i32 @f2(i32 %v0, i32 %p0);\n    \
                %v4 = add i32 %v1, %v3;\n    %v5 = add i32 %v0, %c1;\n    br label %b1;\n  %b3:\n    ret i32 %v1;";
    let rows = [(0u32, 0u32), (5, 10), (7, 100), (1000, 2000), (0xffff_fff0, 50)]
        .map(|(a, n)| vec![Val::i32(a), Val::i32(n)])
        .to_vec();
    Case::new(&[Ty::I32, Ty::I32], Ty::I32, &[("i32", "0"), ("i32", "1")], body)
        .inputs(rows)
        .functions(vec![helper])
        .check(dir.path(), "small_call", |r| {
            let (y, n) = (u32v(&r[0]) as i32, u32v(&r[1]) as i32);
            let f = |x: i32| {
                if x > y {
                    x.wrapping_sub(y)
                } else {
                    let d = y.wrapping_sub(x);
                    if d & 1 == 0 { 1 } else { d }
                }
            };
            Val::i32((0..n).fold(0i32, |s, x| s.wrapping_add(f(x))) as u32)
        });
}
