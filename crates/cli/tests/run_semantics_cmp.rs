//! Instruction semantics under `pnacl run`: `icmp` with all 10 predicates on `i8`, `i16`,
//! `i32` and `i64` (as values and as branch conditions), `select` on every scalar type
//! (`i1` included), and the addition of a zero-extended `i1` (which the translator turns
//! into a `select` when it is a compare). Expected results are computed in Rust.

mod common;

use common::*;
use pnacl_testutil::guest::{Ty, Val};

/// Every pair of `bits`-bit edge values.
fn int_rows(bits: u32) -> Vec<Vec<Val>> {
    let vals: Vec<Val> = int_edges(bits).into_iter().map(|x| int_val(bits, x)).collect();
    pairs(&vals, &vals)
}

/// All 10 predicates in one function per type: bit k of the result is predicate k.
#[test]
fn icmp_all_predicates() {
    let dir = dir();
    for bits in [8u32, 16, 32, 64] {
        let mut b = Body::new();
        let (x, y) = (b.narrow("%p0", bits), b.narrow("%p1", bits));
        let t = int_ty(bits);
        let results: Vec<String> = ICMP.iter().map(|p| b.v(format!("icmp {p} {t} {x}, {y}"))).collect();
        let r = b.pack(&results);
        b.i(format!("ret i32 {r}"));
        let ty = int_carrier(bits);
        b.case(&[ty, ty], Ty::I32).inputs(int_rows(bits)).check(dir.path(), &format!("icmp_i{bits}"), |r| {
            let (a, c) = (int_of(&r[0]), int_of(&r[1]));
            Val::i32(ICMP.iter().enumerate().fold(0, |acc, (k, p)| acc | (u32::from(icmp(p, bits, a, c)) << k)))
        });
    }
}

/// Each predicate as a branch condition, and against a constant operand.
#[test]
fn icmp_branches() {
    let dir = dir();
    for bits in [8u32, 16, 32, 64] {
        for p in ICMP {
            for constant in [None, Some(5i64), Some(-2)] {
                let mut b = Body::new();
                let (x, y) = (b.narrow("%p0", bits), b.narrow("%p1", bits));
                let t = int_ty(bits);
                let y = match constant {
                    Some(c) => b.c(t, c),
                    None => y,
                };
                let c = b.v(format!("icmp {p} {t} {x}, {y}"));
                b.ret_by_branch(&c, 100, 200);
                let ty = int_carrier(bits);
                let name = format!("icmp_br_{p}_i{bits}_{}", constant.map_or("var".into(), |c| c.to_string()));
                b.case(&[ty, ty], Ty::I32).inputs(int_rows(bits)).check(dir.path(), &name, |r| {
                    let a = int_of(&r[0]);
                    let c = constant.map_or(int_of(&r[1]), |c| c as u64);
                    Val::i32(if icmp(p, bits, a, c) { 100 } else { 200 })
                });
            }
        }
    }
}

fn conditions() -> Vec<u32> {
    vec![0, 1, 2, 0xffff_fffe, 0xffff_ffff, 0x8000_0000]
}

/// `select` on integers of every width; the condition is bit 0 of `%p0`.
#[test]
fn select_integers() {
    let dir = dir();
    for bits in [1u32, 8, 16, 32, 64] {
        let t = int_ty(bits);
        let mut b = Body::new();
        let c = b.v("trunc i32 %p0 to i1");
        let (x, y) = (b.narrow("%p1", bits), b.narrow("%p2", bits));
        let r = b.v(format!("select i1 {c}, {t} {x}, {t} {y}"));
        b.ret_int(&r, bits, "sext");
        let ty = int_carrier(bits);
        let vals: Vec<Val> =
            int_edges(if bits == 1 { 8 } else { bits }).into_iter().map(|x| int_val(bits, x)).collect();
        let mut rows = Vec::new();
        for &cond in &conditions() {
            for (k, x) in vals.iter().enumerate() {
                let y = vals[(k * 7 + 3) % vals.len()];
                rows.push(vec![Val::i32(cond), *x, y]);
            }
        }
        b.case(&[Ty::I32, ty, ty], ty).inputs(rows).check(dir.path(), &format!("select_i{bits}"), |r| {
            let chosen = if u32v(&r[0]) & 1 == 1 { &r[1] } else { &r[2] };
            int_val(bits, sext(int_of(chosen) & mask(bits), bits))
        });
    }
}

/// `select` on `float` and `double`, with a condition from `icmp`. (A scalar condition
/// with vector operands is not PNaCl: the condition must have as many lanes as the values;
/// vector selects are in `run_semantics_vector.rs`.)
#[test]
fn select_floats() {
    let dir = dir();
    let cases: Vec<(&str, Ty, Vec<Val>)> =
        vec![("float", Ty::F32, f32s(&f32_edges())), ("double", Ty::F64, f64s(&f64_edges()))];
    for (t, ty, vals) in cases {
        let mut b = Body::new();
        let zero = b.i32(0);
        let c = b.v(format!("icmp sgt i32 %p0, {zero}"));
        let r = b.v(format!("select i1 {c}, {t} %p1, {t} %p2"));
        b.i(format!("ret {t} {r}"));
        let mut rows = Vec::new();
        for &cond in &conditions() {
            for (k, x) in vals.iter().enumerate() {
                rows.push(vec![Val::i32(cond), *x, vals[(k + 1) % vals.len()]]);
            }
        }
        b.case(&[Ty::I32, ty, ty], ty)
            .inputs(rows)
            .check(dir.path(), &format!("select_{ty:?}"), |r| if (u32v(&r[0]) as i32) > 0 { r[1] } else { r[2] });
    }
}

/// `add x, zext(c)` for a compare's `i1` `c` (translated as a select), on every integer
/// width, with the `zext` on either side and `c` used again; and for an `i1` from `trunc`
/// (left as a `zext`).
#[test]
fn add_of_a_zero_extended_compare() {
    let dir = dir();
    for bits in [8u32, 16, 32, 64] {
        for (side, from) in [("right", "icmp"), ("left", "icmp"), ("right", "trunc")] {
            let t = int_ty(bits);
            let mut b = Body::new();
            let (x, y) = (b.narrow("%p0", bits), b.narrow("%p1", bits));
            let c = if from == "icmp" {
                b.v(format!("icmp ult {t} {x}, {y}"))
            } else {
                b.v(format!("trunc {t} {y} to i1"))
            };
            let z = b.v(format!("zext i1 {c} to {t}"));
            let sum = if side == "right" { b.v(format!("add {t} {x}, {z}")) } else { b.v(format!("add {t} {z}, {x}")) };
            // `c` used again: the select must not be the only reader of it.
            let again = b.v(format!("zext i1 {c} to {t}"));
            let r = b.v(format!("xor {t} {sum}, {again}"));
            b.ret_int(&r, bits, "zext");
            let ty = int_carrier(bits);
            let name = format!("add_zext_{from}_{side}_i{bits}");
            b.case(&[ty, ty], ty).inputs(int_rows(bits)).check(dir.path(), &name, |r| {
                let (a, c) = (int_of(&r[0]) & mask(bits), int_of(&r[1]) & mask(bits));
                let flag = u64::from(if from == "icmp" { a < c } else { c & 1 == 1 });
                int_val(bits, (a.wrapping_add(flag) & mask(bits)) ^ flag)
            });
        }
    }
}
