//! Instruction semantics under `pnacl run`, vectors: the integer binary operators on
//! `<4 x i32>`, `<8 x i16>` and `<16 x i8>` (division and shifts lane by lane, shift
//! amounts modulo the lane width), the floating-point operators on `<4 x float>`, `icmp`
//! and `fcmp` producing `<N x i1>` (then `sext`/`zext`), logic on `<N x i1>`, `select` with
//! a vector condition, `extractelement`/`insertelement` on every lane of every vector type
//! (`i1` vectors included), and the vector casts (`sitofp`/`uitofp`/`fptosi`/`fptoui`
//! between `<4 x i32>`, `<4 x i1>` and `<4 x float>`; `trunc` to and `zext`/`sext` from the
//! `i1` vectors). Expected results are computed in Rust, lane by lane.

mod common;

use common::*;
use pnacl_testutil::guest::{Ty, Val};

/// The integer vector types: name, type, lane width, lane count, matching `i1` vector.
const INT_VECS: [(&str, Ty, u32, usize, &str); 3] = [
    ("<4 x i32>", Ty::V4I32, 32, 4, "<4 x i1>"),
    ("<8 x i16>", Ty::V8I16, 16, 8, "<8 x i1>"),
    ("<16 x i8>", Ty::V16I8, 8, 16, "<16 x i1>"),
];

fn lane_edges(bits: u32) -> Vec<u64> {
    let m = mask(bits);
    let h = 1u64 << (bits - 1);
    let mut v =
        vec![0, 1, 2, 3, 7, m, m - 1, h, h - 1, h + 1, u64::from(bits) - 1, u64::from(bits), u64::from(bits) + 1];
    v.extend([0x55, 0xaa, 0x1234_5678].map(|x| x & m));
    v
}

fn random_vec(rng: &mut Rng, ty: Ty, bits: u32) -> Val {
    let n = ty.size() * 8 / bits as usize;
    let edges = lane_edges(bits);
    let lanes: Vec<u64> = (0..n).map(|_| rng.pick(&edges) & mask(bits)).collect();
    from_lanes(ty, bits, &lanes)
}

/// Pairs of random vectors with edge lanes; for the divisions, lanes that would trap get
/// divisor 1 instead (the traps are tested on scalars).
fn vec_pairs(seed: u64, ty: Ty, bits: u32, op: &str, n: usize) -> Vec<Vec<Val>> {
    let mut rng = Rng::new(seed);
    let mut rows = Vec::new();
    for _ in 0..n {
        let a = random_vec(&mut rng, ty, bits);
        let b = random_vec(&mut rng, ty, bits);
        let (la, mut lb) = (lanes(&a, bits), lanes(&b, bits));
        for (x, y) in la.iter().zip(lb.iter_mut()) {
            if int_op(op, bits, *x, *y).is_none() {
                *y = 1;
            }
        }
        rows.push(vec![a, from_lanes(ty, bits, &lb)]);
    }
    // INT_MIN and -1 in every lane: `srem` gives 0.
    if op == "srem" {
        let n = ty.size() * 8 / bits as usize;
        rows.push(vec![from_lanes(ty, bits, &vec![1 << (bits - 1); n]), from_lanes(ty, bits, &vec![mask(bits); n])]);
    }
    // Every shift amount from 0 to twice the width.
    if ["shl", "lshr", "ashr"].contains(&op) {
        let n = ty.size() * 8 / bits as usize;
        for start in (0..2 * bits as usize + 2).step_by(n) {
            let amounts: Vec<u64> = (0..n).map(|i| (start + i) as u64).collect();
            let values: Vec<u64> =
                (0..n).map(|i| if i % 2 == 0 { 1 << (bits - 1) | 1 } else { 0x5a & mask(bits) }).collect();
            rows.push(vec![from_lanes(ty, bits, &values), from_lanes(ty, bits, &amounts)]);
        }
    }
    rows
}

#[test]
fn int_vector_binops() {
    let dir = dir();
    let mut fails = Failures::default();
    for (seed, (t, ty, bits, _, _)) in INT_VECS.into_iter().enumerate() {
        for op in INT_OPS {
            let b = Body::returning(t, format!("{op} {t} %p0, %p1"));
            let name = format!("{op}_{ty:?}");
            fails.run(&name, || {
                b.case(&[ty, ty], ty).inputs(vec_pairs(seed as u64 * 100 + 1, ty, bits, op, 48)).check(
                    dir.path(),
                    &name,
                    |r| zip_lanes(ty, bits, &r[0], &r[1], |x, y| int_op(op, bits, x, y).expect("rows are filtered")),
                )
            });
        }
    }
    fails.finish();
}

fn float_vec_rows(seed: u64, n: usize) -> Vec<Vec<Val>> {
    let edges = f32_edges();
    let mut rng = Rng::new(seed);
    let mut pick = || edges[(rng.bits() % edges.len() as u64) as usize];
    (0..n)
        .map(|_| vec![Val::v4f32([pick(), pick(), pick(), pick()]), Val::v4f32([pick(), pick(), pick(), pick()])])
        .collect()
}

#[test]
fn float_vector_binops() {
    let dir = dir();
    for op in ["fadd", "fsub", "fmul", "fdiv", "frem"] {
        Body::returning("<4 x float>", format!("{op} <4 x float> %p0, %p1"))
            .case(&[Ty::V4F32, Ty::V4F32], Ty::V4F32)
            .inputs(float_vec_rows(9, 120))
            .check(dir.path(), &format!("{op}_v4f32"), |r| {
                let (a, c) = (lf(&r[0]), lf(&r[1]));
                Val::v4f32(std::array::from_fn(|i| float_op(op, a[i], c[i])))
            });
    }
}

#[test]
fn int_vector_compares() {
    let dir = dir();
    for (seed, (t, ty, bits, _, bt)) in INT_VECS.into_iter().enumerate() {
        for p in ICMP {
            for ext in ["sext", "zext"] {
                if ext == "zext" && !["eq", "ult", "sgt"].contains(&p) {
                    continue;
                }
                let mut b = Body::new();
                let c = b.v(format!("icmp {p} {t} %p0, %p1"));
                let r = b.v(format!("{ext} {bt} {c} to {t}"));
                b.i(format!("ret {t} {r}"));
                let mut rows = vec_pairs(seed as u64 * 10 + 5, ty, bits, "add", 40);
                // Equal lanes too.
                rows.extend(vec_pairs(seed as u64 * 10 + 6, ty, bits, "add", 8).into_iter().map(|r| vec![r[0], r[0]]));
                b.case(&[ty, ty], ty).inputs(rows).check(dir.path(), &format!("icmp_{p}_{ext}_{ty:?}"), |r| {
                    zip_lanes(ty, bits, &r[0], &r[1], |x, y| extend_i1(icmp(p, bits, x, y), ext, bits))
                });
            }
        }
    }
}

#[test]
fn float_vector_compares() {
    let dir = dir();
    let mut fails = Failures::default();
    for p in FCMP {
        let mut b = Body::new();
        let c = b.v(format!("fcmp {p} <4 x float> %p0, %p1"));
        let r = b.v(format!("sext <4 x i1> {c} to <4 x i32>"));
        b.i(format!("ret <4 x i32> {r}"));
        let mut rows = float_vec_rows(11, 150);
        rows.extend(float_vec_rows(12, 20).into_iter().map(|r| vec![r[0], r[0]]));
        let name = format!("fcmp_{p}_v4f32");
        fails.run(&name, || {
            b.case(&[Ty::V4F32, Ty::V4F32], Ty::V4I32).inputs(rows).check(dir.path(), &name, |r| {
                let (a, c) = (lf(&r[0]), lf(&r[1]));
                Val::v4i32(std::array::from_fn(|i| if fcmp(p, a[i], c[i]) { u32::MAX } else { 0 }))
            })
        });
    }
    fails.finish();
}

/// `and`, `or` and `xor` on `i1` vectors made by `trunc` (the low bit of each lane).
#[test]
fn i1_vector_logic() {
    let dir = dir();
    for (seed, (t, ty, bits, _, bt)) in INT_VECS.into_iter().enumerate() {
        for op in ["and", "or", "xor"] {
            let mut b = Body::new();
            let x = b.v(format!("trunc {t} %p0 to {bt}"));
            let y = b.v(format!("trunc {t} %p1 to {bt}"));
            let r = b.v(format!("{op} {bt} {x}, {y}"));
            let r = b.v(format!("sext {bt} {r} to {t}"));
            b.i(format!("ret {t} {r}"));
            b.case(&[ty, ty], ty).inputs(vec_pairs(seed as u64 + 40, ty, bits, "add", 32)).check(
                dir.path(),
                &format!("{op}_{ty:?}_i1"),
                |r| {
                    zip_lanes(ty, bits, &r[0], &r[1], |x, y| {
                        let (x, y) = (x & 1 == 1, y & 1 == 1);
                        let v = match op {
                            "and" => x && y,
                            "or" => x || y,
                            _ => x ^ y,
                        };
                        extend_i1(v, "sext", bits)
                    })
                },
            );
        }
    }
}

/// `select` with an `<N x i1>` condition picks lane by lane, with the condition from
/// `icmp`, from `trunc`, and (for `<4 x float>`) from `fcmp`.
#[test]
fn vector_select() {
    let dir = dir();
    for (seed, (t, ty, bits, _, bt)) in INT_VECS.into_iter().enumerate() {
        // select (icmp slt a, b), x, y
        let mut b = Body::new();
        let c = b.v(format!("icmp slt {t} %p0, %p1"));
        let r = b.v(format!("select {bt} {c}, {t} %p2, {t} %p3"));
        b.i(format!("ret {t} {r}"));
        let xs = vec_pairs(seed as u64 + 60, ty, bits, "add", 40);
        let ys = vec_pairs(seed as u64 + 61, ty, bits, "add", 40);
        let rows: Vec<Vec<Val>> = xs.iter().zip(&ys).map(|(x, y)| vec![x[0], x[1], y[0], y[1]]).collect();
        b.case(&[ty, ty, ty, ty], ty).inputs(rows.clone()).check(dir.path(), &format!("select_icmp_{ty:?}"), |r| {
            let (a, c, x, y) = (lanes(&r[0], bits), lanes(&r[1], bits), lanes(&r[2], bits), lanes(&r[3], bits));
            let out: Vec<u64> = (0..a.len()).map(|i| if icmp("slt", bits, a[i], c[i]) { x[i] } else { y[i] }).collect();
            from_lanes(ty, bits, &out)
        });
        // select (trunc a), x, y
        let mut b = Body::new();
        let c = b.v(format!("trunc {t} %p0 to {bt}"));
        let r = b.v(format!("select {bt} {c}, {t} %p2, {t} %p3"));
        b.i(format!("ret {t} {r}"));
        b.case(&[ty, ty, ty, ty], ty).inputs(rows).check(dir.path(), &format!("select_trunc_{ty:?}"), |r| {
            let (a, x, y) = (lanes(&r[0], bits), lanes(&r[2], bits), lanes(&r[3], bits));
            let out: Vec<u64> = (0..a.len()).map(|i| if a[i] & 1 == 1 { x[i] } else { y[i] }).collect();
            from_lanes(ty, bits, &out)
        });
    }
    // i1 vectors selected by an i1 vector: select (trunc c), (trunc x), (trunc y).
    for (seed, (t, ty, bits, _, bt)) in INT_VECS.into_iter().enumerate() {
        let mut b = Body::new();
        let c = b.v(format!("trunc {t} %p0 to {bt}"));
        let x = b.v(format!("trunc {t} %p1 to {bt}"));
        let y = b.v(format!("trunc {t} %p2 to {bt}"));
        let r = b.v(format!("select {bt} {c}, {bt} {x}, {bt} {y}"));
        let r = b.v(format!("sext {bt} {r} to {t}"));
        b.i(format!("ret {t} {r}"));
        let xs = vec_pairs(seed as u64 + 65, ty, bits, "add", 24);
        let ys = vec_pairs(seed as u64 + 66, ty, bits, "add", 24);
        let rows: Vec<Vec<Val>> = xs.iter().zip(&ys).map(|(x, y)| vec![x[0], x[1], y[0]]).collect();
        b.case(&[ty, ty, ty], ty).inputs(rows).check(dir.path(), &format!("select_i1_{ty:?}"), |r| {
            let (c, x, y) = (lanes(&r[0], bits), lanes(&r[1], bits), lanes(&r[2], bits));
            let out: Vec<u64> = (0..c.len())
                .map(|i| extend_i1((if c[i] & 1 == 1 { x[i] } else { y[i] }) & 1 == 1, "sext", bits))
                .collect();
            from_lanes(ty, bits, &out)
        });
    }
    // Floats: select (fcmp olt a, b), a, b is a lane-wise minimum (NaN picks b); and a
    // float select under an integer condition.
    let mut b = Body::new();
    let c = b.v("fcmp olt <4 x float> %p0, %p1");
    let r = b.v(format!("select <4 x i1> {c}, <4 x float> %p0, <4 x float> %p1"));
    b.i(format!("ret <4 x float> {r}"));
    b.case(&[Ty::V4F32, Ty::V4F32], Ty::V4F32).inputs(float_vec_rows(70, 100)).check(
        dir.path(),
        "select_fcmp_v4f32",
        |r| {
            let (a, c) = (lf(&r[0]), lf(&r[1]));
            Val::v4f32(std::array::from_fn(|i| if a[i] < c[i] { a[i] } else { c[i] }))
        },
    );
    let mut b = Body::new();
    let c = b.v("trunc <4 x i32> %p0 to <4 x i1>");
    let r = b.v(format!("select <4 x i1> {c}, <4 x float> %p1, <4 x float> %p2"));
    b.i(format!("ret <4 x float> {r}"));
    let fr = float_vec_rows(71, 40);
    let mut rng = Rng::new(72);
    let rows: Vec<Vec<Val>> = fr.iter().map(|f| vec![random_vec(&mut rng, Ty::V4I32, 32), f[0], f[1]]).collect();
    b.case(&[Ty::V4I32, Ty::V4F32, Ty::V4F32], Ty::V4F32).inputs(rows).check(dir.path(), "select_int_v4f32", |r| {
        let (k, x, y) = (l32(&r[0]), lf(&r[1]), lf(&r[2]));
        Val::v4f32(std::array::from_fn(|i| if k[i] & 1 == 1 { x[i] } else { y[i] }))
    });
}

/// Every vector type with its element type, how a lane comes in as a parameter and goes
/// out as a result, and whether it is an `i1` vector (stored as the low bits of an integer
/// vector).
struct Shape {
    /// The vector type operated on.
    vt: &'static str,
    /// The element type.
    et: &'static str,
    /// The parameter/result vector type (the same, or the integer vector an `i1` vector
    /// comes from).
    carrier: (&'static str, Ty),
    /// Lane width in the carrier, lane count.
    bits: u32,
    lanes: usize,
    /// Scalar parameter/result type for one lane.
    scalar: Ty,
}

const SHAPES: [Shape; 7] = [
    Shape { vt: "<4 x i32>", et: "i32", carrier: ("<4 x i32>", Ty::V4I32), bits: 32, lanes: 4, scalar: Ty::I32 },
    Shape { vt: "<8 x i16>", et: "i16", carrier: ("<8 x i16>", Ty::V8I16), bits: 16, lanes: 8, scalar: Ty::I32 },
    Shape { vt: "<16 x i8>", et: "i8", carrier: ("<16 x i8>", Ty::V16I8), bits: 8, lanes: 16, scalar: Ty::I32 },
    Shape { vt: "<4 x float>", et: "float", carrier: ("<4 x float>", Ty::V4F32), bits: 32, lanes: 4, scalar: Ty::F32 },
    Shape { vt: "<4 x i1>", et: "i1", carrier: ("<4 x i32>", Ty::V4I32), bits: 32, lanes: 4, scalar: Ty::I32 },
    Shape { vt: "<8 x i1>", et: "i1", carrier: ("<8 x i16>", Ty::V8I16), bits: 16, lanes: 8, scalar: Ty::I32 },
    Shape { vt: "<16 x i1>", et: "i1", carrier: ("<16 x i8>", Ty::V16I8), bits: 8, lanes: 16, scalar: Ty::I32 },
];

impl Shape {
    fn is_i1(&self) -> bool {
        self.et == "i1"
    }

    /// `%p0` as the vector operated on.
    fn vector(&self, b: &mut Body) -> String {
        if self.is_i1() { b.v(format!("trunc {} %p0 to {}", self.carrier.0, self.vt)) } else { "%p0".into() }
    }

    /// A scalar parameter as an element.
    fn element(&self, b: &mut Body, p: &str) -> String {
        match self.et {
            "i32" | "float" => p.to_string(),
            et => b.v(format!("trunc i32 {p} to {et}")),
        }
    }

    /// An element as the scalar result (`i1`, `i8` and `i16` zero-extended to `i32`).
    fn scalar_out(&self, b: &mut Body, x: &str) -> String {
        match self.et {
            "i32" | "float" => x.to_string(),
            et => b.v(format!("zext {et} {x} to i32")),
        }
    }

    /// A vector as the carrier result (`i1` vectors sign-extended).
    fn vector_out(&self, b: &mut Body, v: &str) -> String {
        if self.is_i1() { b.v(format!("sext {} {v} to {}", self.vt, self.carrier.0)) } else { v.to_string() }
    }

    /// The lanes of an input, as the function sees them (`i1` lanes: the low bit).
    fn input_lanes(&self, v: &Val) -> Vec<u64> {
        let l = lanes(v, self.bits);
        if self.is_i1() { l.iter().map(|x| x & 1).collect() } else { l }
    }

    /// A carrier result from lanes as the function sees them.
    fn result(&self, l: &[u64]) -> Val {
        let out: Vec<u64> = if self.is_i1() {
            l.iter().map(|&x| extend_i1(x & 1 == 1, "sext", self.bits)).collect()
        } else {
            l.to_vec()
        };
        from_lanes(self.carrier.1, self.bits, &out)
    }

    /// A scalar result from a lane as the function sees it.
    fn scalar_result(&self, x: u64) -> Val {
        match self.et {
            "float" => Val::f32(f32::from_bits(x as u32)),
            "i32" => Val::i32(x as u32),
            "i16" => Val::i32((x & 0xffff) as u32),
            "i8" => Val::i32((x & 0xff) as u32),
            _ => Val::i32((x & 1) as u32),
        }
    }

    /// The lane a scalar input becomes.
    fn scalar_lane(&self, v: &Val) -> u64 {
        let x = u64::from(u32v(v));
        match self.et {
            "i16" => x & 0xffff,
            "i8" => x & 0xff,
            "i1" => x & 1,
            _ => x,
        }
    }

    fn inputs(&self, seed: u64, n: usize) -> Vec<Val> {
        let mut rng = Rng::new(seed);
        (0..n)
            .map(|_| {
                let v = random_vec(&mut rng, self.carrier.1, self.bits);
                if self.carrier.1 == Ty::V4F32 {
                    // Lanes that are numbers (the comparison ignores NaN payloads, which
                    // would hide a wrong lane).
                    let l = l32(&v);
                    Val::v4f32(l.map(|x| (x % 100_000) as f32 - 50_000.5))
                } else {
                    v
                }
            })
            .collect()
    }

    /// The lane numbers, as `switch` keys.
    fn lane_keys(&self) -> Vec<i64> {
        (0..self.lanes as i64).collect()
    }

    fn name(&self) -> String {
        self.vt.replace(['<', '>'], "").replace(' ', "")
    }
}

/// `extractelement` of every lane: a `switch` on the lane number picks the block that
/// extracts that lane; a `phi` joins them.
#[test]
fn extract_every_lane() {
    let dir = dir();
    for (seed, s) in SHAPES.iter().enumerate() {
        let mut b = Body::new();
        let v = s.vector(&mut b);
        let rt = s.scalar.name();
        let r = b
            .switch_join("%p1", &s.lane_keys(), 1, Some(rt), |b, k| {
                let idx = b.i32(k);
                let x = b.v(format!("extractelement {} {v}, i32 {idx}", s.vt));
                Some(s.scalar_out(b, &x))
            })
            .unwrap();
        b.i(format!("ret {rt} {r}"));
        let rows: Vec<Vec<Val>> = s
            .inputs(seed as u64 + 80, 6)
            .into_iter()
            .flat_map(|v| (0..s.lanes).map(move |k| vec![v, Val::i32(k as u32)]))
            .collect();
        b.case(&[s.carrier.1, Ty::I32], s.scalar).inputs(rows).check(
            dir.path(),
            &format!("extract_{}", s.name()),
            |r| s.scalar_result(s.input_lanes(&r[0])[u32v(&r[1]) as usize]),
        );
    }
}

/// `insertelement` into every lane keeps the other lanes: a `switch` on the lane number
/// picks the block that inserts there; a `phi` of vectors joins them.
#[test]
fn insert_every_lane() {
    let dir = dir();
    for (seed, s) in SHAPES.iter().enumerate() {
        let mut b = Body::new();
        let v = s.vector(&mut b);
        let e = s.element(&mut b, "%p2");
        let r = b
            .switch_join("%p1", &s.lane_keys(), 1, Some(s.vt), |b, k| {
                let idx = b.i32(k);
                Some(b.v(format!("insertelement {} {v}, {} {e}, i32 {idx}", s.vt, s.et)))
            })
            .unwrap();
        let r = s.vector_out(&mut b, &r);
        b.i(format!("ret {} {r}", s.carrier.0));
        let scalars: Vec<Val> = if s.scalar == Ty::F32 {
            f32s(&[1.5, -0.0, 1e30, -7.0])
        } else {
            i32s(&[0, 1, 0x8000_7f80, 0xffff_ffff, 0x1234_5678, 0xfffe])
        };
        let mut rows = Vec::new();
        for v in s.inputs(seed as u64 + 90, 3) {
            for k in 0..s.lanes {
                for x in &scalars {
                    rows.push(vec![v, Val::i32(k as u32), *x]);
                }
            }
        }
        b.case(&[s.carrier.1, Ty::I32, s.scalar], s.carrier.1).inputs(rows).check(
            dir.path(),
            &format!("insert_{}", s.name()),
            |r| {
                let mut l = s.input_lanes(&r[0]);
                l[u32v(&r[1]) as usize] = s.scalar_lane(&r[2]);
                s.result(&l)
            },
        );
    }
}

/// Every lane extracted and inserted into an `undef` vector in the reverse order.
#[test]
fn reverse_lanes() {
    let dir = dir();
    for (seed, s) in SHAPES.iter().enumerate() {
        let mut b = Body::new();
        // A scalar constant first: `pnacl asm` misreads a constants block that opens with
        // a vector set-type line (`constants {` then `<4 x i32>:` reads as a block width).
        b.i32(0);
        let undef = b.c(s.vt, "undef");
        let v = s.vector(&mut b);
        let elems: Vec<String> = (0..s.lanes)
            .map(|k| {
                let idx = b.i32(k);
                b.v(format!("extractelement {} {v}, i32 {idx}", s.vt))
            })
            .collect();
        let mut acc = undef;
        for (k, e) in elems.iter().enumerate() {
            let idx = b.i32(s.lanes - 1 - k);
            acc = b.v(format!("insertelement {} {acc}, {} {e}, i32 {idx}", s.vt, s.et));
        }
        let r = s.vector_out(&mut b, &acc);
        b.i(format!("ret {} {r}", s.carrier.0));
        b.case(&[s.carrier.1], s.carrier.1).inputs(rows1(s.inputs(seed as u64 + 100, 16))).check(
            dir.path(),
            &format!("reverse_{}", s.name()),
            |r| {
                let mut l = s.input_lanes(&r[0]);
                l.reverse();
                s.result(&l)
            },
        );
    }
}

fn float_lane_inputs() -> Vec<Vec<Val>> {
    let mut v = f32_edges();
    v.extend([
        2_147_483_520.0,
        2_147_483_648.0,
        -2_147_483_648.0,
        -2_147_483_904.0,
        4_294_967_040.0,
        4_294_967_296.0,
        -0.75,
        0.75,
        1.5,
        -1.5,
        2.0,
        -2.0,
        3.0,
        -3.0,
        1e10,
        -1e10,
    ]);
    v.chunks(4).filter(|c| c.len() == 4).map(|c| vec![Val::v4f32([c[0], c[1], c[2], c[3]])]).collect()
}

/// `sitofp`/`uitofp` `<4 x i32>` to `<4 x float>` (rounded) and `fptosi`/`fptoui` back
/// (saturating, NaN to 0, like the scalar conversions).
#[test]
fn vector_int_float_casts() {
    let dir = dir();
    let mut rng = Rng::new(120);
    let mut ints: Vec<Vec<Val>> = (0..32).map(|_| vec![random_vec(&mut rng, Ty::V4I32, 32)]).collect();
    ints.push(vec![Val::v4i32([0x0100_0001, 0x8000_0080, 0x8000_0081, 0xffff_ff7f])]);
    ints.push(vec![Val::v4i32([0x7fff_ffbf, 0x7fff_ffc0, 0xffff_ff80, 0x8000_0180])]);
    for op in ["sitofp", "uitofp"] {
        Body::returning("<4 x float>", format!("{op} <4 x i32> %p0 to <4 x float>"))
            .case(&[Ty::V4I32], Ty::V4F32)
            .inputs(ints.clone())
            .check(dir.path(), &format!("{op}_v4"), |r| {
                let l = l32(&r[0]);
                Val::v4f32(l.map(|x| if op == "sitofp" { x as i32 as f32 } else { x as f32 }))
            });
    }
    for op in ["fptosi", "fptoui"] {
        Body::returning("<4 x i32>", format!("{op} <4 x float> %p0 to <4 x i32>"))
            .case(&[Ty::V4F32], Ty::V4I32)
            .inputs(float_lane_inputs())
            .check(dir.path(), &format!("{op}_v4"), |r| {
                let l = lf(&r[0]);
                Val::v4i32(l.map(|x| if op == "fptosi" { x as i32 as u32 } else { x as u32 }))
            });
    }
}

/// `trunc` of each integer vector type to its `i1` vector (the low bit of each lane), then
/// `zext` and `sext` back.
#[test]
fn vector_i1_truncs_and_extensions() {
    let dir = dir();
    for (seed, (t, ty, bits, _, bt)) in INT_VECS.into_iter().enumerate() {
        for ext in ["zext", "sext"] {
            let mut b = Body::new();
            let c = b.v(format!("trunc {t} %p0 to {bt}"));
            let r = b.v(format!("{ext} {bt} {c} to {t}"));
            b.i(format!("ret {t} {r}"));
            let mut rng = Rng::new(seed as u64 + 130);
            let rows: Vec<Vec<Val>> = (0..24).map(|_| vec![random_vec(&mut rng, ty, bits)]).collect();
            b.case(&[ty], ty).inputs(rows).check(dir.path(), &format!("trunc_{ext}_{ty:?}"), |r| {
                map_lanes(ty, bits, &r[0], |x| extend_i1(x & 1 == 1, ext, bits))
            });
        }
    }
}

/// `sitofp`/`uitofp` from `<4 x i1>`: true is -1.0 (signed) or 1.0 (unsigned), as for a
/// scalar `i1`.
#[test]
fn vector_i1_to_float() {
    let dir = dir();
    let mut fails = Failures::default();
    for op in ["sitofp", "uitofp"] {
        let mut b = Body::new();
        let c = b.v("trunc <4 x i32> %p0 to <4 x i1>");
        let r = b.v(format!("{op} <4 x i1> {c} to <4 x float>"));
        b.i(format!("ret <4 x float> {r}"));
        let rows: Vec<Vec<Val>> = (0..16u32)
            .map(|k| vec![Val::v4i32([k & 1, (k >> 1) & 1, (k >> 2) & 1 | 2, (k >> 3) & 1 | 0xfe])])
            .collect();
        let name = format!("{op}_v4i1");
        fails.run(&name, || {
            b.case(&[Ty::V4I32], Ty::V4F32).inputs(rows).check(dir.path(), &name, |r| {
                let l = l32(&r[0]);
                Val::v4f32(l.map(|x| match (x & 1, op) {
                    (0, _) => 0.0,
                    (_, "sitofp") => -1.0,
                    _ => 1.0,
                }))
            })
        });
    }
    fails.finish();
}

/// `fptosi`/`fptoui` to `<4 x i1>`: converted as to `i32` and truncated, like the scalar
/// conversion to `i1`; seen through `sext` to `<4 x i32>`.
#[test]
fn vector_float_to_i1() {
    let dir = dir();
    let mut fails = Failures::default();
    for op in ["fptosi", "fptoui"] {
        let mut b = Body::new();
        let c = b.v(format!("{op} <4 x float> %p0 to <4 x i1>"));
        let r = b.v(format!("sext <4 x i1> {c} to <4 x i32>"));
        b.i(format!("ret <4 x i32> {r}"));
        let rows = vec![
            vec![Val::v4f32([0.0, 1.0, -1.0, 2.0])],
            vec![Val::v4f32([-0.0, 0.5, -0.5, 3.0])],
            vec![Val::v4f32([-2.0, -3.0, 1.75, f32::NAN])],
        ];
        let name = format!("{op}_v4i1");
        fails.run(&name, || {
            b.case(&[Ty::V4F32], Ty::V4I32).inputs(rows).check(dir.path(), &name, |r| {
                let l = lf(&r[0]);
                Val::v4i32(l.map(|x| {
                    let v = if op == "fptosi" { x as i32 as u32 } else { x as u32 };
                    if v & 1 == 1 { u32::MAX } else { 0 }
                }))
            })
        });
    }
    fails.finish();
}
