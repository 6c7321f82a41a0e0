//! Instruction semantics under `pnacl run`: `icmp` with all 10 predicates on `i8`, `i16`,
//! `i32` and `i64` (as values and as branch conditions), and `select` on every scalar type
//! (`i1` included). Expected results are
//! computed in Rust.

mod common;

use common::*;
use pnacl_testutil::guest::{Ty, Val};

fn edges(bits: u32) -> Vec<u64> {
    let v: Vec<u64> = match bits {
        8 => I8_EDGES.iter().map(|&x| u64::from(x)).collect(),
        16 => I16_EDGES.iter().map(|&x| u64::from(x)).collect(),
        32 => I32_EDGES.iter().map(|&x| u64::from(x)).collect(),
        _ => I64_EDGES.to_vec(),
    };
    v
}

/// The operands of an `i8`/`i16` function come in as `i32` and are truncated.
fn operands(b: &mut Body, bits: u32) -> (String, String) {
    if bits >= 32 {
        ("%p0".into(), "%p1".into())
    } else {
        let t = int_ty(bits);
        (b.v(format!("trunc i32 %p0 to {t}")), b.v(format!("trunc i32 %p1 to {t}")))
    }
}

fn int_rows(bits: u32) -> Vec<Vec<Val>> {
    let e = edges(bits);
    let vals: Vec<Val> = e.iter().map(|&x| if bits == 64 { Val::i64(x) } else { Val::i32(x as u32) }).collect();
    pairs(&vals, &vals)
}

fn int_of(v: &Val) -> u64 {
    if v.ty == Ty::I64 { u64v(v) } else { u64::from(u32v(v)) }
}

/// All 10 predicates in one function per type: bit k of the result is predicate k.
#[test]
fn icmp_all_predicates() {
    let dir = dir();
    for bits in [8u32, 16, 32, 64] {
        let mut b = Body::new();
        let (x, y) = operands(&mut b, bits);
        let t = int_ty(bits);
        let results: Vec<String> = ICMP.iter().map(|p| b.v(format!("icmp {p} {t} {x}, {y}"))).collect();
        let r = b.pack(&results);
        b.i(format!("ret i32 {r}"));
        let ty = if bits == 64 { Ty::I64 } else { Ty::I32 };
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
                let (x, y) = operands(&mut b, bits);
                let t = int_ty(bits);
                let y = match constant {
                    Some(c) => b.c(t, c),
                    None => y,
                };
                let c = b.v(format!("icmp {p} {t} {x}, {y}"));
                b.i(format!("br i1 {c}, label %b1, label %b2"));
                b.block(1);
                let yes = b.i32(100);
                b.i(format!("ret i32 {yes}"));
                b.block(2);
                let no = b.i32(200);
                b.i(format!("ret i32 {no}"));
                let ty = if bits == 64 { Ty::I64 } else { Ty::I32 };
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
        let (x, y) = if bits >= 32 {
            ("%p1".to_string(), "%p2".to_string())
        } else {
            (b.v(format!("trunc i32 %p1 to {t}")), b.v(format!("trunc i32 %p2 to {t}")))
        };
        let r = b.v(format!("select i1 {c}, {t} {x}, {t} {y}"));
        let (ty, r) = if bits == 64 {
            (Ty::I64, r)
        } else if bits == 32 {
            (Ty::I32, r)
        } else {
            (Ty::I32, b.v(format!("sext {t} {r} to i32")))
        };
        b.i(format!("ret {} {r}", if bits == 64 { "i64" } else { "i32" }));
        let vals: Vec<Val> = edges(if bits == 1 { 8 } else { bits })
            .iter()
            .map(|&x| if bits == 64 { Val::i64(x) } else { Val::i32(x as u32) })
            .collect();
        let mut rows = Vec::new();
        for &cond in &conditions() {
            for (k, x) in vals.iter().enumerate() {
                let y = vals[(k * 7 + 3) % vals.len()];
                rows.push(vec![Val::i32(cond), *x, y]);
            }
        }
        b.case(&[Ty::I32, ty, ty], ty).inputs(rows).check(dir.path(), &format!("select_i{bits}"), |r| {
            let chosen = if u32v(&r[0]) & 1 == 1 { &r[1] } else { &r[2] };
            let v = sext(int_of(chosen) & mask(bits), bits);
            if bits == 64 { Val::i64(v) } else { Val::i32(v as u32) }
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
