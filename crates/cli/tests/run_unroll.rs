//! Counted loops that the optimizing tier unrolls (a block that branches back to itself,
//! counting an `i32` up by one until it equals a bound fixed outside the loop), under
//! `pnacl run`: every trip count around the unrolling factor and well past it, starts and
//! bounds on either side of 2**32, both ways of writing the exit test, stores and loads in
//! the loop, phis that swap, values used after the loop directly and through a phi of the
//! exit block. Expected results are computed in Rust; `--stats` shows the loops were
//! unrolled.

mod common;

use common::*;
use pnacl_testutil::guest::{Case, Ty, Val};

/// How a self-loop's exit test is written.
#[derive(Clone, Copy)]
enum Test {
    /// `next = add i, 1`; `icmp eq next, bound`; exits when true.
    ExitOnEqual,
    /// `next = add i, 1`; `icmp ne next, bound`; goes on when true.
    GoOnUnequal,
    /// `next = add 1, i`; `icmp eq bound, next`; exits when true.
    Swapped,
}

/// Emits the self-loop `%b{k}`, entered from `%b{k-1}` (the block being written), whose
/// counter runs from `start` while `counter + 1 != bound`, with a phi for each `(type,
/// initial value)` of `carried` (its next value given by `body(b, counter, phis)` with
/// [`Body::define`]); opens the exit block `%b{k+1}`. Returns the counter and the carried
/// phis.
fn self_loop<const N: usize>(
    b: &mut Body,
    k: usize,
    start: &str,
    bound: &str,
    test: Test,
    carried: [(&str, &str); N],
    body: impl FnOnce(&mut Body, &str, &[(String, String); N]),
) -> (String, [String; N]) {
    let one = b.i32(1);
    let (entry, exit) = (k - 1, k + 1);
    b.i(format!("br label %b{k}"));
    b.block(k);
    let next_i = b.forward("i32");
    let i = b.v(format!("phi i32 [{start}, %b{entry}], [{next_i}, %b{k}]"));
    let phis: [(String, String); N] = carried.map(|(t, init)| {
        let next = b.forward(t);
        (b.v(format!("phi {t} [{init}, %b{entry}], [{next}, %b{k}]")), next)
    });
    body(b, &i, &phis);
    match test {
        Test::ExitOnEqual => {
            b.define(&next_i, format!("add i32 {i}, {one}"));
            let done = b.v(format!("icmp eq i32 {next_i}, {bound}"));
            b.i(format!("br i1 {done}, label %b{exit}, label %b{k}"));
        }
        Test::GoOnUnequal => {
            b.define(&next_i, format!("add i32 {i}, {one}"));
            let more = b.v(format!("icmp ne i32 {next_i}, {bound}"));
            b.i(format!("br i1 {more}, label %b{k}, label %b{exit}"));
        }
        Test::Swapped => {
            b.define(&next_i, format!("add i32 {one}, {i}"));
            let done = b.v(format!("icmp eq i32 {bound}, {next_i}"));
            b.i(format!("br i1 {done}, label %b{exit}, label %b{k}"));
        }
    }
    b.block(exit);
    (i, phis.map(|(phi, _)| phi))
}

/// Trip counts 1 to 40 and a few larger ones.
fn trip_counts() -> Vec<u32> {
    (1..=40).chain([63, 64, 100, 1000, 4097]).collect()
}

/// The loops the optimizing tier unrolled in `case`'s function, from `pnacl run --stats`:
/// those in its module less those in the same module around a function without loops.
fn unrolled(case: &Case, dir: &std::path::Path, name: &str) -> u32 {
    let mut plain = Body::new();
    let zero = plain.i32(0);
    plain.i(format!("ret i32 {zero}"));
    let plain = plain.case(&case.params, Ty::I32).inputs(case.inputs.clone());
    unrolled_in_module(case, dir, name) - unrolled_in_module(&plain, dir, &format!("{name}-plain"))
}

/// The loops the optimizing tier unrolled in `case`'s module.
fn unrolled_in_module(case: &Case, dir: &std::path::Path, name: &str) -> u32 {
    let path = dir.join(format!("{name}-stats.pnaclasm"));
    std::fs::write(&path, case.module()).expect("write the module");
    let out = pnacl_testutil::pnacl_command().arg("run").arg("--stats").arg(&path).output().expect("run pnacl");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{name}: stderr {stderr}");
    let n = stderr.split(" loops unrolled").next().and_then(|s| s.rsplit(' ').next()).and_then(|n| n.parse().ok());
    n.unwrap_or_else(|| panic!("{name}: no count of unrolled loops in {stderr:?}"))
}

/// `i*i*7 + i` for `i` in `start..` until `bound`, each way of writing the exit test:
/// one carried sum, the counter starting at a parameter.
#[test]
fn sums_for_every_trip_count() {
    let dir = dir();
    for (name, test) in [("eq", Test::ExitOnEqual), ("ne", Test::GoOnUnequal), ("swapped", Test::Swapped)] {
        let mut b = Body::new();
        let zero = b.i32(0);
        let seven = b.i32(7);
        let (_, [sum]) = self_loop(&mut b, 1, "%p1", "%p0", test, [("i32", &zero)], |b, i, [(s, next_s)]| {
            let sq = b.v(format!("mul i32 {i}, {i}"));
            let t = b.v(format!("mul i32 {sq}, {seven}"));
            let u = b.v(format!("add i32 {t}, {i}"));
            b.define(next_s, format!("add i32 {s}, {u}"));
        });
        b.i(format!("ret i32 {sum}"));
        // (bound, start): the loop runs (bound - start) mod 2**32 times.
        let mut rows = Vec::new();
        for n in trip_counts() {
            for start in [0u32, 3, 0xffff_fff0, u32::MAX] {
                rows.push(vec![Val::i32(start.wrapping_add(n)), Val::i32(start)]);
            }
        }
        let case = b.case(&[Ty::I32, Ty::I32], Ty::I32).inputs(rows);
        case.check(dir.path(), &format!("sum_{name}"), |r| {
            let (bound, start) = (u32v(&r[0]), u32v(&r[1]));
            // The phi after the loop is the sum before the last iteration's term.
            let mut s = 0u32;
            let mut i = start;
            loop {
                let term = i.wrapping_mul(i).wrapping_mul(7).wrapping_add(i);
                i = i.wrapping_add(1);
                if i == bound {
                    break Val::i32(s);
                }
                s = s.wrapping_add(term);
            }
        });
        assert_eq!(unrolled(&case, dir.path(), &format!("sum_{name}")), 1, "{name}: the loop is unrolled");
    }
}

/// fasta's loop: stores in one counted loop, then loads, a float compare and a count in
/// another; the stores must all land before the loads, in order.
#[test]
fn stores_then_loads() {
    let dir = dir();
    let mut b = Body::new();
    let zero = b.i32(0);
    let four = b.i32(4);
    let size = b.i32(1024);
    let buf = b.v(format!("alloca i8, i32 {size}, align 4"));
    let thresh = b.v("uitofp i32 %p1 to float");
    // Loop 1: buf[i] = float(i * 37 % 101).
    let m = b.i32(37);
    let p = b.i32(101);
    self_loop(&mut b, 1, &zero, "%p0", Test::ExitOnEqual, [], |b, i, []| {
        let x = b.v(format!("mul i32 {i}, {m}"));
        let y = b.v(format!("urem i32 {x}, {p}"));
        let f = b.v(format!("uitofp i32 {y} to float"));
        let off = b.v(format!("mul i32 {i}, {four}"));
        let a = b.v(format!("add i32 {buf}, {off}"));
        b.i(format!("store float {f}, float* {a}, align 4"));
    });
    // Loop 2 (the first loop's exit is its entry): the count of loads at or below `thresh`.
    let mut count = String::new();
    self_loop(&mut b, 3, &zero, "%p0", Test::ExitOnEqual, [("i32", &zero)], |b, j, [(c, next_c)]| {
        let off = b.v(format!("mul i32 {j}, {four}"));
        let a = b.v(format!("add i32 {buf}, {off}"));
        let f = b.v(format!("load float* {a}, align 4"));
        let le = b.v(format!("fcmp ole float {f}, {thresh}"));
        let z = b.v(format!("zext i1 {le} to i32"));
        b.define(next_c, format!("add i32 {z}, {c}"));
        count.clone_from(next_c);
    });
    b.i(format!("ret i32 {count}"));
    let mut rows = Vec::new();
    for n in trip_counts().into_iter().filter(|&n| n <= 256) {
        for t in [0u32, 10, 50, 100] {
            rows.push(vec![Val::i32(n), Val::i32(t)]);
        }
    }
    let case = b.case(&[Ty::I32, Ty::I32], Ty::I32).inputs(rows);
    case.check(dir.path(), "fasta_count", |r| {
        let (n, t) = (u32v(&r[0]), u32v(&r[1]));
        Val::i32((0..n).filter(|i| (i * 37 % 101) as f32 <= t as f32).count() as u32)
    });
    assert_eq!(unrolled(&case, dir.path(), "fasta_count"), 2, "both loops are unrolled");
}

/// Fibonacci with a counter: two phis that take each other's values, and the exit
/// block's phi, which also comes from a guard that skips the loop.
#[test]
fn swapping_phis_and_an_exit_phi() {
    let dir = dir();
    let mut b = Body::new();
    let zero = b.i32(0);
    let one = b.i32(1);
    let none = b.v(format!("icmp eq i32 %p0, {zero}"));
    b.i(format!("br i1 {none}, label %b2, label %b1"));
    b.block(1);
    let next_i = b.forward("i32");
    let next_a = b.forward("i32");
    let next_b = b.forward("i32");
    let i = b.v(format!("phi i32 [{zero}, %b0], [{next_i}, %b1]"));
    let a = b.v(format!("phi i32 [{zero}, %b0], [{next_a}, %b1]"));
    let bb = b.v(format!("phi i32 [{one}, %b0], [{next_b}, %b1]"));
    b.define(&next_a, format!("add i32 {bb}, {zero}"));
    b.define(&next_b, format!("add i32 {a}, {bb}"));
    b.define(&next_i, format!("add i32 {i}, {one}"));
    let done = b.v(format!("icmp eq i32 {next_i}, %p0"));
    b.i(format!("br i1 {done}, label %b2, label %b1"));
    b.block(2);
    let r = b.v(format!("phi i32 [{zero}, %b0], [{next_a}, %b1]"));
    b.i(format!("ret i32 {r}"));
    let ns: Vec<u32> = std::iter::once(0).chain(trip_counts()).collect();
    let case = b.case(&[Ty::I32], Ty::I32).inputs(rows1(i32s(&ns)));
    case.check(dir.path(), "fibonacci", |r| {
        let (mut a, mut b) = (0u32, 1u32);
        for _ in 0..u32v(&r[0]) {
            (a, b) = (b, a.wrapping_add(b));
        }
        Val::i32(a)
    });
    assert_eq!(unrolled(&case, dir.path(), "fibonacci"), 1, "the loop is unrolled");
}

/// Values the loop defines used after it directly, not through a phi: the last
/// iteration's.
#[test]
fn values_used_after_the_loop() {
    let dir = dir();
    let mut b = Body::new();
    let zero = b.i32(0);
    let three = b.i32(3);
    let mut last = String::new();
    let (i, [acc]) = self_loop(&mut b, 1, &zero, "%p0", Test::GoOnUnequal, [("i32", &zero)], |b, i, [(acc, next)]| {
        last = b.v(format!("mul i32 {i}, {three}"));
        b.define(next, format!("xor i32 {acc}, {last}"));
    });
    let r1 = b.v(format!("shl i32 {last}, {three}"));
    let r2 = b.v(format!("add i32 {r1}, {i}"));
    let r3 = b.v(format!("add i32 {r2}, {acc}"));
    b.i(format!("ret i32 {r3}"));
    let case = b.case(&[Ty::I32], Ty::I32).inputs(rows1(i32s(&trip_counts())));
    case.check(dir.path(), "live_out", |r| {
        let n = u32v(&r[0]);
        let mut acc = 0u32;
        let mut last = 0;
        for i in 0..n {
            // The phi `acc` after the loop is its value in the last iteration (before
            // that iteration's xor).
            if i + 1 == n {
                last = i * 3;
                break;
            }
            acc ^= i * 3;
        }
        Val::i32((last << 3).wrapping_add(n - 1).wrapping_add(acc))
    });
    assert_eq!(unrolled(&case, dir.path(), "live_out"), 1, "the loop is unrolled");
}

/// A loop left as it is: it steps by two, to a bound computed in the loop.
#[test]
fn loop_not_unrolled() {
    let dir = dir();
    let mut b = Body::new();
    let zero = b.i32(0);
    let one = b.i32(1);
    let two = b.i32(2);
    let next_i = b.forward("i32");
    b.i("br label %b1");
    b.block(1);
    let i = b.v(format!("phi i32 [{zero}, %b0], [{next_i}, %b1]"));
    b.define(&next_i, format!("add i32 {i}, {two}"));
    let bound = b.v(format!("shl i32 %p0, {one}"));
    let done = b.v(format!("icmp eq i32 {next_i}, {bound}"));
    b.i(format!("br i1 {done}, label %b2, label %b1"));
    b.block(2);
    b.i(format!("ret i32 {next_i}"));
    let case = b.case(&[Ty::I32], Ty::I32).inputs(rows1(i32s(&[1, 2, 3, 10])));
    case.check(dir.path(), "step_two", |r| Val::i32(u32v(&r[0]) * 2));
    assert_eq!(unrolled(&case, dir.path(), "step_two"), 0, "a step of two and an inner bound are left");
}

/// The loop inside another, the outer latch passing a value the loop defines back to the
/// loop's own phi (`next_acc`, used nowhere else), and using its phis (`o`).
#[test]
fn nested_in_an_outer_loop() {
    let dir = dir();
    let mut b = Body::new();
    let zero = b.i32(0);
    let one = b.i32(1);
    b.i("br label %b1");
    b.block(1);
    let next_i = b.forward("i32");
    let next_acc = b.forward("i32");
    let next_o = b.forward("i32");
    let i = b.v(format!("phi i32 [{zero}, %b0], [{next_i}, %b1], [{zero}, %b2]"));
    let acc = b.v(format!("phi i32 [{zero}, %b0], [{next_acc}, %b1], [{next_acc}, %b2]"));
    let o = b.forward("i32");
    b.define(&o, format!("phi i32 [{zero}, %b0], [{o}, %b1], [{next_o}, %b2]"));
    let t = b.v(format!("mul i32 {i}, {o}"));
    let u = b.v(format!("add i32 {t}, {one}"));
    b.define(&next_acc, format!("add i32 {acc}, {u}"));
    b.define(&next_i, format!("add i32 {i}, {one}"));
    let inner_done = b.v(format!("icmp eq i32 {next_i}, %p0"));
    b.i(format!("br i1 {inner_done}, label %b2, label %b1"));
    b.block(2);
    b.define(&next_o, format!("add i32 {o}, {one}"));
    let outer_done = b.v(format!("icmp eq i32 {next_o}, %p1"));
    b.i(format!("br i1 {outer_done}, label %b3, label %b1"));
    b.block(3);
    b.i(format!("ret i32 {acc}"));
    let mut rows = Vec::new();
    for n in [1u32, 2, 3, 4, 5, 7, 8, 9, 16, 33] {
        for m in [1u32, 2, 3, 5] {
            rows.push(vec![Val::i32(n), Val::i32(m)]);
        }
    }
    let case = b.case(&[Ty::I32, Ty::I32], Ty::I32).inputs(rows);
    case.check(dir.path(), "nested", |r| {
        let (n, m) = (u32v(&r[0]), u32v(&r[1]));
        // `acc` as the last iteration starts: without the last term.
        let mut acc = 0u32;
        for o in 0..m {
            for i in 0..n {
                if o + 1 == m && i + 1 == n {
                    return Val::i32(acc);
                }
                acc = acc.wrapping_add(i * o + 1);
            }
        }
        unreachable!("the loops run at least once")
    });
    assert_eq!(unrolled(&case, dir.path(), "nested"), 1, "the inner loop is unrolled");
}

/// Loads whose unrolled copies fold their index's constant into the access (`p + (i+k)*4`
/// is accessed at `p + i*4` plus `4k`): an index that wraps past 2**32 while the address
/// stays in the buffer reads the right elements, and a loop that runs off the end of the
/// guest space traps as the literal translation would.
#[test]
fn folded_offsets_in_unrolled_copies() {
    let dir = dir();
    let mut b = Body::new();
    let zero = b.i32(0);
    let four = b.i32(4);
    let size = b.i32(256);
    let buf = b.v(format!("alloca i8, i32 {size}, align 4"));
    // Loop 1: buf[j] = j * j + 1 for the 64 words.
    let words = b.i32(64);
    let one = b.i32(1);
    self_loop(&mut b, 1, &zero, &words, Test::ExitOnEqual, [], |b, j, []| {
        let sq = b.v(format!("mul i32 {j}, {j}"));
        let x = b.v(format!("add i32 {sq}, {one}"));
        let off = b.v(format!("mul i32 {j}, {four}"));
        let a = b.v(format!("add i32 {buf}, {off}"));
        b.i(format!("store i32 {x}, i32* {a}, align 1"));
    });
    // Loop 2 (the first loop's exit is its entry): the sum of `(origin + i*4)` for `i`
    // from `%p1` until `%p0`, where `origin` is `buf - %p1*4`: the elements from the
    // first, whatever `%p1`.
    let back = b.v(format!("mul i32 %p1, {four}"));
    let origin = b.v(format!("sub i32 {buf}, {back}"));
    let mut sum = String::new();
    self_loop(&mut b, 3, "%p1", "%p0", Test::ExitOnEqual, [("i32", &zero)], |b, i, [(s, next_s)]| {
        let off = b.v(format!("mul i32 {i}, {four}"));
        let a = b.v(format!("add i32 {origin}, {off}"));
        let x = b.v(format!("load i32* {a}, align 1"));
        b.define(next_s, format!("add i32 {s}, {x}"));
        sum.clone_from(next_s);
    });
    b.i(format!("ret i32 {sum}"));
    let mut rows = Vec::new();
    for n in trip_counts().into_iter().filter(|&n| n <= 64) {
        for start in [0u32, 2, 0xffff_fffe, 0xffff_fff0, 0x8000_0001] {
            rows.push(vec![Val::i32(start.wrapping_add(n)), Val::i32(start)]);
        }
    }
    let case = b.case(&[Ty::I32, Ty::I32], Ty::I32).inputs(rows);
    case.check(dir.path(), "wrapping_index", |r| {
        let n = u32v(&r[0]).wrapping_sub(u32v(&r[1]));
        Val::i32((0..n).map(|j| j * j + 1).sum())
    });
    assert_eq!(unrolled(&case, dir.path(), "wrapping_index"), 2, "both loops are unrolled");

    // Words from `%p0` up, 8 of them: past the end of the guest space from 0xfffffff0.
    let mut b = Body::new();
    let zero = b.i32(0);
    let four = b.i32(4);
    let eight = b.i32(8);
    let (_, [s]) = self_loop(&mut b, 1, &zero, &eight, Test::ExitOnEqual, [("i32", &zero)], |b, i, [(s, next)]| {
        let off = b.v(format!("mul i32 {i}, {four}"));
        let a = b.v(format!("add i32 %p0, {off}"));
        let x = b.v(format!("load i32* {a}, align 1"));
        b.define(next, format!("add i32 {s}, {x}"));
    });
    b.i(format!("ret i32 {s}"));
    let case = b.case(&[Ty::I32], Ty::I32).inputs(vec![vec![Val::i32(0xffff_fff0)]]);
    let out = case.run_in(dir.path(), "off_the_end");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(134), "a trap; stderr: {stderr}");
    assert!(stderr.starts_with("pnacl: trap: memory access out of bounds"), "stderr: {stderr}");
}
