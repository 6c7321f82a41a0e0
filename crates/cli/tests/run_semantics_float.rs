//! Instruction semantics under `pnacl run`, floating-point part: `fadd`, `fsub`, `fmul`,
//! `fdiv` and `frem` (C `fmod`) on `float` and `double` with NaNs, infinities, signed zeros
//! and denormals; floating-point constants; `fcmp` with all 16 predicates, ordered and
//! unordered, on every pair of edge values. Expected results are computed in Rust.

mod common;

use common::*;
use pnacl_testutil::guest::{Ty, Val};
use std::path::Path;

const FOPS: &[&str] = &["fadd", "fsub", "fmul", "fdiv", "frem"];

fn f32_inputs() -> Vec<Val> {
    let mut v = f32_edges();
    v.extend([10.0, -10.0, 3.5, 1e-38, 5e-39, 0.1, 8_388_608.5, 2.0f32.powi(100)]);
    f32s(&v)
}

fn f64_inputs() -> Vec<Val> {
    let mut v = f64_edges();
    v.extend([10.0, -10.0, 3.5, 1e-308, 5e-320, 0.1, 4_503_599_627_370_496.5, 2.0f64.powi(1000)]);
    f64s(&v)
}

/// Every operator of [`FOPS`] on every pair of `inputs`, of the float type `T`.
fn binops<T: Float>(inputs: &[Val]) {
    let dir = dir();
    let t = T::TY.name();
    for op in FOPS {
        Body::returning(t, format!("{op} {t} %p0, %p1"))
            .case(&[T::TY, T::TY], T::TY)
            .inputs(pairs(inputs, inputs))
            .check(dir.path(), &format!("{op}_{t}"), |r| float_op(op, T::of(&r[0]), T::of(&r[1])).val());
    }
}

#[test]
fn float_binops() {
    binops::<f32>(&f32_inputs());
}

#[test]
fn double_binops() {
    binops::<f64>(&f64_inputs());
}

/// The sign of zero results and of `frem` results (which takes the dividend's sign), seen
/// through `bitcast` so that nothing compares -0 equal to +0.
#[test]
fn signed_zero_results() {
    let dir = dir();
    let inputs = f32s(&[0.0, -0.0, 1.0, -1.0, 2.0, -2.0, 3.0, -3.0, f32::INFINITY, f32::NEG_INFINITY, 1e-45, -1e-45]);
    for op in FOPS {
        let mut b = Body::new();
        let r = b.v(format!("{op} float %p0, %p1"));
        let bits = b.v(format!("bitcast float {r} to i32"));
        b.i(format!("ret i32 {bits}"));
        // Rows whose result is a NaN are left out: a NaN's sign and payload are the
        // hardware's business (the other tests compare NaN-ness).
        let rows: Vec<Vec<Val>> =
            pairs(&inputs, &inputs).into_iter().filter(|r| !float_op(op, f32v(&r[0]), f32v(&r[1])).is_nan()).collect();
        b.case(&[Ty::F32, Ty::F32], Ty::I32).inputs(rows).check(dir.path(), &format!("{op}_float_sign"), |r| {
            Val::i32(float_op(op, f32v(&r[0]), f32v(&r[1])).to_bits())
        });
    }
}

/// Each of `ops` with each constant of `consts` (its PNaClAsm spelling and value) as the
/// second operand, on every one of `inputs`, of the float type `T`; the case of `op` with
/// constant k is named `{op}_const_{tag}{k}`.
fn constant_operands<T: Float>(dir: &Path, tag: &str, consts: &[(&str, T)], inputs: &[Val], ops: &[&str]) {
    let t = T::TY.name();
    for (k, (text, value)) in consts.iter().enumerate() {
        for op in ops {
            let mut b = Body::new();
            let c = b.c(t, text);
            let r = b.v(format!("{op} {t} %p0, {c}"));
            b.i(format!("ret {t} {r}"));
            b.case(&[T::TY], T::TY)
                .inputs(rows1(inputs.to_vec()))
                .check(dir, &format!("{op}_const_{tag}{k}"), |r| float_op(op, T::of(&r[0]), *value).val());
        }
    }
}

/// Floating-point constants (exact bit patterns, the special names, denormals) as
/// operands.
#[test]
fn float_constants() {
    let dir = dir();
    // float: a denormal, -0, the largest value, 1/3 (by bits), inf, nan.
    let consts: &[(&str, f32)] = &[
        ("0x1", f32::from_bits(1)),
        ("-0.0", -0.0),
        ("0x7f7fffff", f32::MAX),
        ("0x3eaaaaab", f32::from_bits(0x3eaa_aaab)),
        ("inf", f32::INFINITY),
        ("-inf", f32::NEG_INFINITY),
        ("nan", f32::NAN),
        ("2.5", 2.5),
        ("-7", -7.0),
    ];
    let inputs = f32s(&[0.0, -0.0, 1.0, -1.5, 1e30, f32::from_bits(1), f32::INFINITY, f32::NAN]);
    constant_operands(dir.path(), "f", consts, &inputs, &["fadd", "fmul", "fsub"]);
    let consts: &[(&str, f64)] = &[
        ("0x1", f64::from_bits(1)),
        ("-0.0", -0.0),
        ("0x7fefffffffffffff", f64::MAX),
        ("0x3fd5555555555555", 1.0 / 3.0),
        ("inf", f64::INFINITY),
        ("nan", f64::NAN),
        ("1e-300", 1e-300),
    ];
    let inputs = f64s(&[0.0, -0.0, 1.0, -1.5, 1e300, f64::from_bits(1), f64::NEG_INFINITY, f64::NAN]);
    constant_operands(dir.path(), "d", consts, &inputs, &["fadd", "fdiv"]);
}

/// All 16 predicates in one function, on every pair of `inputs`, of the float type `T`:
/// bit k of the result is predicate k.
fn fcmp_all<T: Float>(inputs: &[Val]) {
    let dir = dir();
    let t = T::TY.name();
    let mut b = Body::new();
    let bits: Vec<String> = FCMP.iter().map(|p| b.v(format!("fcmp {p} {t} %p0, %p1"))).collect();
    let r = b.pack(&bits);
    b.i(format!("ret i32 {r}"));
    b.case(&[T::TY, T::TY], Ty::I32).inputs(pairs(inputs, inputs)).check(dir.path(), &format!("fcmp_{t}"), |r| {
        let (a, b) = (T::of(&r[0]), T::of(&r[1]));
        Val::i32(FCMP.iter().enumerate().fold(0, |acc, (k, p)| acc | (u32::from(fcmp(p, a, b)) << k)))
    });
}

#[test]
fn fcmp_float() {
    fcmp_all::<f32>(&f32_inputs());
}

#[test]
fn fcmp_double() {
    fcmp_all::<f64>(&f64_inputs());
}

/// Each predicate on its own, used as a branch condition (the comparison is then lowered
/// into the branch rather than materialized).
#[test]
fn fcmp_branches() {
    let dir = dir();
    let inputs = f64_inputs();
    for p in FCMP {
        let mut b = Body::new();
        let c = b.v(format!("fcmp {p} double %p0, %p1"));
        b.ret_by_branch(&c, 11, 22);
        b.case(&[Ty::F64, Ty::F64], Ty::I32).inputs(pairs(&inputs, &inputs)).check(
            dir.path(),
            &format!("fcmp_br_{p}"),
            |r| Val::i32(if fcmp(p, f64v(&r[0]), f64v(&r[1])) { 11 } else { 22 }),
        );
    }
}
