//! Memory semantics under `pnacl run`: loads of every loadable type (`i8`, `i16`, `i32`,
//! `i64`, `float`, `double` and the four vector types) at every offset of a constant
//! pattern, unaligned ones included; stores of every type at unaligned offsets of the
//! scratch area, checked byte by byte around them; `float`/`double` with their larger
//! allowed alignments; `alloca` alignment (after odd-sized allocas) and the disjointness of
//! allocas, within a function and across calls. Expected results are computed in Rust.

mod common;

use common::*;
use pnacl_testutil::guest::{Case, Ty, Val};

/// The 80-byte constant pattern `@g8` holds: byte i is `i * 37 + 11` (no float NaNs come
/// out of it, but every result is compared as bits anyway).
fn pattern() -> Vec<u8> {
    (0..80u32).map(|i| (i * 37 + 11) as u8).collect()
}

/// A case with the pattern in `@g8`.
fn pattern_case(b: Body, params: &[Ty], ret: Ty) -> Case {
    b.case(params, ret).globals(vec![const_global(&pattern())])
}

/// A loadable type: its name, size, the alignments a load may state, and how its value
/// comes back (`i8`/`i16` zero-extended to `i32`, floats as their bits).
struct Mem {
    name: &'static str,
    size: usize,
    aligns: &'static [u32],
}

const MEMS: [Mem; 10] = [
    Mem { name: "i8", size: 1, aligns: &[1] },
    Mem { name: "i16", size: 2, aligns: &[1] },
    Mem { name: "i32", size: 4, aligns: &[1] },
    Mem { name: "i64", size: 8, aligns: &[1] },
    Mem { name: "float", size: 4, aligns: &[1, 4] },
    Mem { name: "double", size: 8, aligns: &[1, 8] },
    Mem { name: "<16 x i8>", size: 16, aligns: &[1] },
    Mem { name: "<8 x i16>", size: 16, aligns: &[2] },
    Mem { name: "<4 x i32>", size: 16, aligns: &[4] },
    Mem { name: "<4 x float>", size: 16, aligns: &[4] },
];

impl Mem {
    /// The parameter and result type that carries a value of this type, and the casts
    /// from this type to it and back (`None` where the type carries itself).
    fn carrier(&self) -> (Ty, Option<(&'static str, &'static str)>) {
        match self.name {
            "i8" | "i16" => (Ty::I32, Some(("zext", "trunc"))),
            "float" => (Ty::I32, Some(("bitcast", "bitcast"))),
            "double" => (Ty::I64, Some(("bitcast", "bitcast"))),
            "<4 x float>" => (Ty::V4I32, Some(("bitcast", "bitcast"))),
            n => (ty_named(n), None),
        }
    }

    /// The result type, and the instructions that turn a loaded value into it.
    fn out(&self, b: &mut Body, x: &str) -> (Ty, String) {
        match self.carrier() {
            (ty, Some((to, _))) => (ty, b.v(format!("{to} {} {x} to {}", self.name, ty.name()))),
            (ty, None) => (ty, x.to_string()),
        }
    }

    /// The expected result from the bytes.
    fn value(&self, bytes: &[u8]) -> Val {
        let mut b = [0u8; 16];
        b[..self.size].copy_from_slice(&bytes[..self.size]);
        match self.name {
            "i8" | "i16" | "i32" | "float" => Val::i32(u32::from_le_bytes(b[..4].try_into().unwrap())),
            "i64" | "double" => Val::i64(u64::from_le_bytes(b[..8].try_into().unwrap())),
            "<16 x i8>" => Val::v16i8(b),
            "<8 x i16>" => Val::v8i16(std::array::from_fn(|i| u16::from_le_bytes([b[2 * i], b[2 * i + 1]]))),
            _ => Val::v4i32(std::array::from_fn(|i| u32::from_le_bytes(b[4 * i..4 * i + 4].try_into().unwrap()))),
        }
    }

    /// The instructions that make the parameter `p`, of the carrier type, a value of this
    /// type.
    fn input(&self, b: &mut Body, p: &str) -> String {
        match self.carrier() {
            (ty, Some((_, from))) => b.v(format!("{from} {} {p} to {}", ty.name(), self.name)),
            (_, None) => p.to_string(),
        }
    }

    /// Whether an access stating `align` may be at `offset`: everywhere with the type's
    /// element alignment, elsewhere only where the offset has the alignment.
    fn allows(&self, align: u32, offset: u32) -> bool {
        let element = if self.name.starts_with('<') { align } else { self.aligns[0] };
        align == element || offset.is_multiple_of(align)
    }

    /// The start of a store test: the scratch area reset, then `%p1` stored as this type
    /// at `@g7 + %p0` with `align`. Returns the address.
    fn store_param(&self, b: &mut Body, align: u32) -> String {
        reset_scratch(b);
        let x = self.input(b, "%p1");
        let at = b.v("add i32 @g7, %p0");
        b.i(format!("store {t} {x}, {t}* {at}, align {align}", t = self.name));
        at
    }

    fn short(&self) -> String {
        self.name.replace(['<', '>'], "").replace(' ', "")
    }
}

/// Every type loaded at every offset 0..64 of the pattern, with each alignment it may
/// state where the offset satisfies it (align 1, the only one integers have, everywhere).
#[test]
fn loads_at_every_offset() {
    let dir = dir();
    let mut fails = Failures::default();
    for m in &MEMS {
        for &align in m.aligns {
            let mut b = Body::new();
            let at = b.v("add i32 @g8, %p0");
            let x = b.v(format!("load {}* {at}, align {align}", m.name));
            let (ty, r) = m.out(&mut b, &x);
            b.i(format!("ret {} {r}", ty.name()));
            // Offsets that keep the whole value inside the pattern.
            let offsets: Vec<u32> = (0..=(80 - m.size) as u32).filter(|&o| m.allows(align, o)).collect();
            let name = format!("load_{}_align{align}", m.short());
            let case = pattern_case(b, &[Ty::I32], ty).inputs(rows1(i32s(&offsets)));
            fails.run(&name, || case.check(dir.path(), &name, |r| m.value(&pattern()[u32v(&r[0]) as usize..])));
        }
    }
    fails.finish();
}

/// The body's first step: the scratch area's first 80 bytes set to the pattern, by
/// `<16 x i8>` loads and stores.
fn reset_scratch(b: &mut Body) {
    for k in 0..5 {
        let off = b.i32(16 * k);
        let from = b.v(format!("add i32 @g8, {off}"));
        let to = b.v(format!("add i32 @g7, {off}"));
        let v = b.v(format!("load <16 x i8>* {from}, align 1"));
        b.i(format!("store <16 x i8> {v}, <16 x i8>* {to}, align 1"));
    }
}

/// Every type stored at odd and other unaligned offsets of the scratch area: the 16-byte
/// windows around it show the value's bytes in place and its neighbours untouched; the
/// value loaded back at the same offset is checked in a second function.
#[test]
fn stores_at_unaligned_offsets() {
    let dir = dir();
    let mut fails = Failures::default();
    let mut rng = Rng::new(17);
    for m in &MEMS {
        for &align in m.aligns {
            let offsets: Vec<u32> = [1u32, 3, 5, 7, 9, 11, 13, 15, 2, 6, 10, 14, 4, 8, 12, 16, 17, 31, 33, 47]
                .into_iter()
                .filter(|&o| m.allows(align, o))
                .collect();
            let value_ty = m.carrier().0;
            let values: Vec<Val> = (0..3)
                .map(|_| {
                    let bytes: [u8; 16] = std::array::from_fn(|_| rng.bits() as u8);
                    let mut v = Val::v16i8(bytes);
                    v.ty = value_ty;
                    if value_ty == Ty::I32 || value_ty == Ty::I64 {
                        v.bytes[value_ty.size()..].fill(0);
                    }
                    v
                })
                .collect();
            // store, then the window at @g7 + %p2
            let mut b = Body::new();
            m.store_param(&mut b, align);
            let w = b.v("add i32 @g7, %p2");
            let r = b.v(format!("load <16 x i8>* {w}, align 1"));
            b.i(format!("ret <16 x i8> {r}"));
            let mut rows = Vec::new();
            for &o in &offsets {
                for v in &values {
                    for w in [0u32, 16, 32, 48, o.saturating_sub(1), o + 1] {
                        rows.push(vec![Val::i32(o), *v, Val::i32(w)]);
                    }
                }
            }
            let name = format!("store_{}_align{align}", m.short());
            let case = pattern_case(b, &[Ty::I32, value_ty, Ty::I32], Ty::V16I8).inputs(rows);
            fails.run(&name, || {
                case.check(dir.path(), &name, |r| {
                    let (o, w) = (u32v(&r[0]) as usize, u32v(&r[2]) as usize);
                    let mut buf = pattern();
                    buf[o..o + m.size].copy_from_slice(&r[1].bytes[..m.size]);
                    Val::v16i8(buf[w..w + 16].try_into().unwrap())
                })
            });
            // store, then load back at the same offset
            let mut b = Body::new();
            let at = m.store_param(&mut b, align);
            let y = b.v(format!("load {t}* {at}, align {align}", t = m.name));
            let (ty, r) = m.out(&mut b, &y);
            b.i(format!("ret {} {r}", ty.name()));
            let rows: Vec<Vec<Val>> =
                offsets.iter().flat_map(|&o| values.iter().map(move |v| vec![Val::i32(o), *v])).collect();
            let name = format!("store_load_{}_align{align}", m.short());
            let case = pattern_case(b, &[Ty::I32, value_ty], ty).inputs(rows);
            fails.run(&name, || case.check(dir.path(), &name, |r| m.value(&r[1].bytes)));
        }
    }
    fails.finish();
}

/// `alloca` returns a multiple of its stated alignment, whatever odd-sized allocas came
/// before; the result is the address's low bits (0 expected).
#[test]
fn alloca_alignment() {
    let dir = dir();
    let mut fails = Failures::default();
    for shift in 0..=12u32 {
        let align = 1u32 << shift;
        let mut b = Body::new();
        b.v("alloca i8, i32 %p0, align 1");
        let a = b.v(format!("alloca i8, i32 %p1, align {align}"));
        let low = b.i32(align - 1);
        let r = b.v(format!("and i32 {a}, {low}"));
        // Touch the first and last byte.
        let one = b.i32(1);
        let c = b.c("i8", 0x5a);
        b.i(format!("store i8 {c}, i8* {a}, align 1"));
        let end = b.v(format!("add i32 {a}, %p1"));
        let last = b.v(format!("sub i32 {end}, {one}"));
        b.i(format!("store i8 {c}, i8* {last}, align 1"));
        b.i(format!("ret i32 {r}"));
        let sizes = i32s(&[1, 2, 3, 5, 7, 13, 100, 4097]);
        let name = format!("alloca_align{align}");
        let case = b.case(&[Ty::I32, Ty::I32], Ty::I32).inputs(pairs(&sizes, &sizes));
        fails.run(&name, || case.check(dir.path(), &name, |_| Val::i32(0)));
    }
    fails.finish();
}

/// Emits the `i1` test that the byte ranges `[start, end)` of `a` and `b` do not overlap.
fn disjoint(body: &mut Body, a: (&str, &str), b: (&str, &str)) -> String {
    let below = body.v(format!("icmp ule i32 {}, {}", a.1, b.0));
    let above = body.v(format!("icmp ule i32 {}, {}", b.1, a.0));
    body.v(format!("or i1 {below}, {above}"))
}

/// Five allocas (two of constant size, three sized by the inputs): no two overlap, and
/// bytes written at both ends of each read back. Bit k of the result is one check.
#[test]
fn allocas_are_disjoint() {
    let dir = dir();
    let mut b = Body::new();
    let sizes_const = [b.i32(24), b.i32(1)];
    let sizes =
        ["%p0".to_string(), sizes_const[0].clone(), "%p1".to_string(), sizes_const[1].clone(), "%p2".to_string()];
    let aligns = [1, 8, 4, 1, 16];
    let addrs: Vec<String> =
        sizes.iter().zip(aligns).map(|(s, a)| b.v(format!("alloca i8, i32 {s}, align {a}"))).collect();
    let one = b.i32(1);
    let ends: Vec<String> = addrs.iter().zip(&sizes).map(|(a, s)| b.v(format!("add i32 {a}, {s}"))).collect();
    // Mark both ends of every allocation with its number.
    let lasts: Vec<String> = ends.iter().map(|e| b.v(format!("sub i32 {e}, {one}"))).collect();
    for k in 0..5 {
        let mark = b.c("i8", 10 + k);
        b.i(format!("store i8 {mark}, i8* {}, align 1", addrs[k]));
        let mark = b.c("i8", 20 + k);
        b.i(format!("store i8 {mark}, i8* {}, align 1", lasts[k]));
    }
    let mut bits = Vec::new();
    for i in 0..5 {
        for j in i + 1..5 {
            bits.push(disjoint(&mut b, (&addrs[i], &ends[i]), (&addrs[j], &ends[j])));
        }
    }
    for k in 0..5 {
        let x = b.v(format!("load i8* {}, align 1", addrs[k]));
        let want = b.c("i8", 10 + k);
        bits.push(b.v(format!("icmp eq i8 {x}, {want}")));
        let y = b.v(format!("load i8* {}, align 1", lasts[k]));
        let want = b.c("i8", 20 + k);
        // A one-byte allocation's two marks are the same byte: the last one wins.
        let first_is_last = b.v(format!("icmp eq i32 {}, {}", addrs[k], lasts[k]));
        let ok = b.v(format!("icmp eq i8 {y}, {want}"));
        bits.push(b.v(format!("or i1 {ok}, {first_is_last}")));
    }
    let r = b.pack(&bits);
    b.i(format!("ret i32 {r}"));
    let sizes = i32s(&[1, 2, 3, 8, 17, 100, 1000]);
    let mut rows = Vec::new();
    for x in &sizes {
        for y in &sizes {
            rows.push(vec![*x, *y, sizes[(u32v(x) as usize + u32v(y) as usize) % sizes.len()]]);
        }
    }
    let n = bits.len();
    b.case(&[Ty::I32, Ty::I32, Ty::I32], Ty::I32).inputs(rows).check(dir.path(), "allocas_disjoint", |r| {
        // The first mark of a one-byte allocation is overwritten by its last mark.
        let mut want = (1u32 << n) - 1;
        let sizes = [u32v(&r[0]), 24, u32v(&r[1]), 1, u32v(&r[2])];
        for (k, s) in sizes.iter().enumerate() {
            if *s == 1 {
                want &= !(1 << (10 + 2 * k));
            }
        }
        Val::i32(want)
    });
}

/// A caller's alloca survives a callee that allocates and fills its own (the callee's
/// frame does not overlap), and is intact after the callee returned.
#[test]
fn allocas_across_calls() {
    let dir = dir();
    // @f2(n): allocates n bytes, fills them with 0xee (byte by byte), returns the address.
    let mut h = Body::new();
    let a = h.v("alloca i8, i32 %p0, align 4");
    h.counted_loop("%p0", [], |h, i, []| {
        let fill = h.c("i8", 0xee);
        let at = h.v(format!("add i32 {a}, {i}"));
        h.i(format!("store i8 {fill}, i8* {at}, align 1"));
    });
    h.i(format!("ret i32 {a}"));
    let helper = h.function(2, "i32", &["i32"]);
    // @f0(n, v): 16 bytes of its own set to v; calls @f2(n); returns its 16 bytes if the
    // callee's block lies outside them, zeros otherwise.
    let mut b = Body::new();
    let sixteen = b.i32(16);
    let own = b.v(format!("alloca i8, i32 {sixteen}, align 16"));
    b.i(format!("store <4 x i32> %p1, <4 x i32>* {own}, align 4"));
    let theirs = b.v("call i32 @f2(i32 %p0)");
    let x = b.v(format!("load <4 x i32>* {own}, align 4"));
    let own_end = b.v(format!("add i32 {own}, {sixteen}"));
    let their_end = b.v(format!("add i32 {theirs}, %p0"));
    let apart = disjoint(&mut b, (&theirs, &their_end), (&own, &own_end));
    b.i(format!("br i1 {apart}, label %b1, label %b2"));
    b.block(1);
    b.i(format!("ret <4 x i32> {x}"));
    b.block(2);
    let zeros = b.v(format!("xor <4 x i32> {x}, {x}"));
    b.i(format!("ret <4 x i32> {zeros}"));
    let mut rows = Vec::new();
    for n in [1u32, 16, 100, 5000] {
        for v in [[1u32, 2, 3, 4], [u32::MAX; 4], [0xdead_beef, 0, 0x8000_0000, 7]] {
            rows.push(vec![Val::i32(n), Val::v4i32(v)]);
        }
    }
    b.case(&[Ty::I32, Ty::V4I32], Ty::V4I32).functions(vec![helper]).inputs(rows).check(
        dir.path(),
        "allocas_calls",
        |r| r[1],
    );
}

/// An alloca sized at run time in the entry block, then constant-size ones used only past
/// a branch (where a translator may allocate the static frame late): the two do not
/// overlap, and the marks written at both ends of the first survive filling the others.
/// Bit k of the result is one check; the other path returns 256.
#[test]
fn dynamic_alloca_before_a_late_frame() {
    let dir = dir();
    let mut b = Body::new();
    let d = b.v("alloca i8, i32 %p0, align 4");
    let size = b.i32(64);
    let s = b.v(format!("alloca i8, i32 {size}, align 8"));
    let one = b.i32(1);
    let d_end = b.v(format!("add i32 {d}, %p0"));
    let d_last = b.v(format!("sub i32 {d_end}, {one}"));
    let mark = b.c("i8", 0x5a);
    b.i(format!("store i8 {mark}, i8* {d}, align 1"));
    b.i(format!("store i8 {mark}, i8* {d_last}, align 1"));
    let zero = b.i32(0);
    let taken = b.v(format!("icmp ne i32 %p1, {zero}"));
    b.i(format!("br i1 {taken}, label %b1, label %b2"));
    b.block(1);
    let fill = b.c("i64", -1);
    for k in 0..8 {
        let off = b.i32(8 * k);
        let at = b.v(format!("add i32 {s}, {off}"));
        b.i(format!("store i64 {fill}, i64* {at}, align 1"));
    }
    let s_end = b.v(format!("add i32 {s}, {size}"));
    let mut bits = vec![disjoint(&mut b, (&d, &d_end), (&s, &s_end))];
    for at in [&d, &d_last] {
        let x = b.v(format!("load i8* {at}, align 1"));
        bits.push(b.v(format!("icmp eq i8 {x}, {mark}")));
    }
    let r = b.pack(&bits);
    b.i(format!("ret i32 {r}"));
    b.block(2);
    let other = b.i32(256);
    b.i(format!("ret i32 {other}"));
    let rows = [1u32, 3, 8, 64, 1000]
        .iter()
        .flat_map(|&n| [vec![Val::i32(n), Val::i32(1)], vec![Val::i32(n), Val::i32(0)]])
        .collect();
    b.case(&[Ty::I32, Ty::I32], Ty::I32)
        .inputs(rows)
        .check(dir.path(), "dynamic_alloca_late_frame", |r| if u32v(&r[1]) != 0 { Val::i32(7) } else { Val::i32(256) });
}
