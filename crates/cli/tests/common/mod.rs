//! Helpers shared by the `run_semantics*` suites: reading results, edge values, input rows,
//! and a small deterministic generator for vector inputs.
#![allow(dead_code)]

use pnacl_testutil::guest::{Case, Function, Ty, Val};
use std::path::Path;
use std::process::Output;

/// Small unsigned edge values and bit patterns, for `i8` operands (upper bits are junk that
/// `trunc` must drop).
pub const I8_EDGES: &[u32] =
    &[0, 1, 2, 3, 7, 8, 9, 0x55, 0x7e, 0x7f, 0x80, 0x81, 0xaa, 0xfe, 0xff, 0x1234_5600, 0xffff_ff80, 0xdead_be01];

/// `i16` edge values (some with junk upper bits).
pub const I16_EDGES: &[u32] = &[
    0,
    1,
    2,
    3,
    15,
    16,
    17,
    0x00ff,
    0x0100,
    0x5555,
    0x7ffe,
    0x7fff,
    0x8000,
    0x8001,
    0xaaaa,
    0xfffe,
    0xffff,
    0x1234_0003,
    0xdead_8000,
];

/// `i32` edge values.
pub const I32_EDGES: &[u32] = &[
    0,
    1,
    2,
    3,
    7,
    31,
    32,
    33,
    64,
    0xff,
    0x7fff_ffff,
    0x8000_0000,
    0x8000_0001,
    0xffff_fffe,
    0xffff_ffff,
    0x1234_5678,
    0xdead_beef,
];

/// `i64` edge values.
pub const I64_EDGES: &[u64] = &[
    0,
    1,
    2,
    3,
    63,
    64,
    65,
    0xffff_ffff,
    0x1_0000_0000,
    0x7fff_ffff_ffff_ffff,
    0x8000_0000_0000_0000,
    0x8000_0000_0000_0001,
    0xffff_ffff_ffff_fffe,
    0xffff_ffff_ffff_ffff,
    0x0123_4567_89ab_cdef,
    0xfedc_ba98_7654_3210,
    0xdead_beef_0000_0001,
];

/// `float` edge values: zeros, ones, denormals, extremes, infinities, NaNs.
pub fn f32_edges() -> Vec<f32> {
    vec![
        0.0,
        -0.0,
        1.0,
        -1.0,
        0.5,
        -2.5,
        3.0,
        7.25,
        -1e-3,
        1.0 / 3.0,
        16_777_217.0,
        1e30,
        -1e30,
        f32::MAX,
        f32::MIN,
        f32::MIN_POSITIVE,
        f32::from_bits(1),
        -f32::from_bits(0x0007_ffff),
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        f32::from_bits(0xffc0_0001),
    ]
}

/// `double` edge values.
pub fn f64_edges() -> Vec<f64> {
    vec![
        0.0,
        -0.0,
        1.0,
        -1.0,
        0.5,
        -2.5,
        3.0,
        7.25,
        -1e-3,
        1.0 / 3.0,
        9_007_199_254_740_993.0,
        1e300,
        -1e300,
        f64::MAX,
        f64::MIN,
        f64::MIN_POSITIVE,
        f64::from_bits(1),
        -f64::from_bits(0x000f_ffff_ffff_ffff),
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        f64::from_bits(0xfff8_0000_0000_0001),
    ]
}

/// The integer binary operators.
pub const INT_OPS: &[&str] =
    &["add", "sub", "mul", "udiv", "sdiv", "urem", "srem", "shl", "lshr", "ashr", "and", "or", "xor"];

/// `a OP b` on `bits`-bit integers (operands truncated first); `None` where the operation
/// traps (division by zero, `sdiv` of INT_MIN by -1).
pub fn int_op(op: &str, bits: u32, a: u64, b: u64) -> Option<u64> {
    let m = mask(bits);
    let (a, b) = (a & m, b & m);
    let (sa, sb) = (sext(a, bits) as i64, sext(b, bits) as i64);
    let min = sext(1 << (bits - 1), bits) as i64;
    let amount = (b % u64::from(bits)) as u32;
    let r = match op {
        "add" => a.wrapping_add(b),
        "sub" => a.wrapping_sub(b),
        "mul" => a.wrapping_mul(b),
        "udiv" => a.checked_div(b)?,
        "urem" => a.checked_rem(b)?,
        "sdiv" if b == 0 || (sa == min && sb == -1) => return None,
        "sdiv" => (sa / sb) as u64,
        "srem" if b == 0 => return None,
        "srem" => sa.checked_rem(sb).unwrap_or(0) as u64,
        "shl" => a << amount,
        "lshr" => a >> amount,
        "ashr" => (sa >> amount) as u64,
        "and" => a & b,
        "or" => a | b,
        "xor" => a ^ b,
        _ => panic!("{op}"),
    };
    Some(r & m)
}

/// The `icmp` predicates, in record-code order.
pub const ICMP: [&str; 10] = ["eq", "ne", "ugt", "uge", "ult", "ule", "sgt", "sge", "slt", "sle"];

/// LLVM's `icmp` on `bits`-bit operands.
pub fn icmp(pred: &str, bits: u32, a: u64, b: u64) -> bool {
    let (a, b) = (a & mask(bits), b & mask(bits));
    let (sa, sb) = (sext(a, bits) as i64, sext(b, bits) as i64);
    match pred {
        "eq" => a == b,
        "ne" => a != b,
        "ugt" => a > b,
        "uge" => a >= b,
        "ult" => a < b,
        "ule" => a <= b,
        "sgt" => sa > sb,
        "sge" => sa >= sb,
        "slt" => sa < sb,
        "sle" => sa <= sb,
        _ => panic!("{pred}"),
    }
}

/// The `fcmp` predicates, in record-code order.
pub const FCMP: [&str; 16] =
    ["false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "uno", "ueq", "ugt", "uge", "ult", "ule", "une", "true"];

/// LLVM's `fcmp` predicates.
pub fn fcmp<T: PartialOrd + Copy>(pred: &str, a: T, b: T) -> bool {
    let uno = a.partial_cmp(&b).is_none();
    match pred {
        "false" => false,
        "oeq" => a == b,
        "ogt" => a > b,
        "oge" => a >= b,
        "olt" => a < b,
        "ole" => a <= b,
        "one" => !uno && a != b,
        "ord" => !uno,
        "uno" => uno,
        "ueq" => uno || a == b,
        "ugt" => uno || a > b,
        "uge" => uno || a >= b,
        "ult" => uno || a < b,
        "ule" => uno || a <= b,
        "une" => a != b,
        "true" => true,
        _ => panic!("{pred}"),
    }
}

/// A fresh directory for module files.
pub fn dir() -> tempfile::TempDir {
    tempfile::tempdir().expect("a temporary directory")
}

/// The value of an `i32` result or input.
pub fn u32v(v: &Val) -> u32 {
    u32::from_le_bytes(v.bytes[..4].try_into().unwrap())
}

/// The value of an `i64` result or input.
pub fn u64v(v: &Val) -> u64 {
    u64::from_le_bytes(v.bytes[..8].try_into().unwrap())
}

/// The value of a `float`.
pub fn f32v(v: &Val) -> f32 {
    f32::from_bits(u32v(v))
}

/// The value of a `double`.
pub fn f64v(v: &Val) -> f64 {
    f64::from_bits(u64v(v))
}

/// The lanes of a `<4 x i32>`.
pub fn l32(v: &Val) -> [u32; 4] {
    std::array::from_fn(|i| u32::from_le_bytes(v.bytes[4 * i..4 * i + 4].try_into().unwrap()))
}

/// The lanes of an `<8 x i16>`.
pub fn l16(v: &Val) -> [u16; 8] {
    std::array::from_fn(|i| u16::from_le_bytes(v.bytes[2 * i..2 * i + 2].try_into().unwrap()))
}

/// The lanes of a `<16 x i8>`.
pub fn l8(v: &Val) -> [u8; 16] {
    v.bytes
}

/// The lanes of a `<4 x float>`.
pub fn lf(v: &Val) -> [f32; 4] {
    l32(v).map(f32::from_bits)
}

/// One row per value.
pub fn rows1(vals: impl IntoIterator<Item = Val>) -> Vec<Vec<Val>> {
    vals.into_iter().map(|v| vec![v]).collect()
}

/// Every pair (a, b).
pub fn pairs(a: &[Val], b: &[Val]) -> Vec<Vec<Val>> {
    a.iter().flat_map(|x| b.iter().map(move |y| vec![*x, *y])).collect()
}

/// `i32` values.
pub fn i32s(v: &[u32]) -> Vec<Val> {
    v.iter().map(|&x| Val::i32(x)).collect()
}

/// `i64` values.
pub fn i64s(v: &[u64]) -> Vec<Val> {
    v.iter().map(|&x| Val::i64(x)).collect()
}

/// `float` values.
pub fn f32s(v: &[f32]) -> Vec<Val> {
    v.iter().map(|&x| Val::f32(x)).collect()
}

/// `double` values.
pub fn f64s(v: &[f64]) -> Vec<Val> {
    v.iter().map(|&x| Val::f64(x)).collect()
}

/// A deterministic xorshift generator (inputs must not change between runs).
pub struct Rng(u64);

impl Rng {
    /// A generator with a fixed seed.
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
    }

    /// The next 64 random bits.
    pub fn bits(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A value that is an edge value half of the time: one of `edges` or random bits.
    pub fn pick(&mut self, edges: &[u64]) -> u64 {
        let r = self.bits();
        if r & 1 == 0 { edges[(r >> 8) as usize % edges.len()] } else { self.bits() }
    }
}

/// Runs `case`, which must trap: exit status 134 and `pnacl: trap: MESSAGE in function
/// @f0` on standard error.
pub fn expect_trap(case: &Case, dir: &Path, name: &str, message: &str) {
    let out: Output = case.run_in(dir, name);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(134), "{name}: exit status; stderr: {stderr}\nmodule:\n{}", case.module());
    let want = format!("pnacl: trap: {message} in function");
    assert!(stderr.contains(&want), "{name}: stderr {stderr:?} lacks {want:?}");
    assert!(stderr.contains("@f0"), "{name}: stderr {stderr:?} does not name @f0");
}

/// The PNaClAsm spelling of an integer type of `bits` bits.
pub fn int_ty(bits: u32) -> &'static str {
    match bits {
        1 => "i1",
        8 => "i8",
        16 => "i16",
        32 => "i32",
        64 => "i64",
        _ => panic!("no i{bits}"),
    }
}

/// The mask of the low `bits` bits.
pub fn mask(bits: u32) -> u64 {
    if bits == 64 { u64::MAX } else { (1u64 << bits) - 1 }
}

/// Sign-extends the low `bits` bits of `x`.
pub fn sext(x: u64, bits: u32) -> u64 {
    let s = 64 - bits;
    (((x << s) as i64) >> s) as u64
}

/// The ABI type whose loads and stores carry values of `ty` (the `Ty` of a vector or
/// scalar spelled `name`).
pub fn ty_named(name: &str) -> Ty {
    match name {
        "i32" => Ty::I32,
        "i64" => Ty::I64,
        "float" => Ty::F32,
        "double" => Ty::F64,
        "<4 x i32>" => Ty::V4I32,
        "<8 x i16>" => Ty::V8I16,
        "<16 x i8>" => Ty::V16I8,
        "<4 x float>" => Ty::V4F32,
        _ => panic!("not an ABI type: {name}"),
    }
}

/// Builds a function body: numbers `%v` values and `%c` constants, and resolves forward
/// references (phi operands defined later) when it is turned into a [`Case`].
pub struct Body {
    text: String,
    values: usize,
    consts: Vec<(String, String)>,
    forward: Vec<Option<usize>>,
}

impl Default for Body {
    fn default() -> Self {
        Body::new()
    }
}

impl Body {
    /// A body whose first block, `%b0`, is open.
    pub fn new() -> Body {
        Body { text: String::from("  %b0:\n"), values: 0, consts: Vec::new(), forward: Vec::new() }
    }

    /// The constant `%cN` of type `ty` and value `v` (`v` as PNaClAsm spells it).
    pub fn c(&mut self, ty: &str, v: impl std::fmt::Display) -> String {
        let v = v.to_string();
        let i = match self.consts.iter().position(|(t, x)| t == ty && *x == v) {
            Some(i) => i,
            None => {
                self.consts.push((ty.to_string(), v));
                self.consts.len() - 1
            }
        };
        format!("%c{i}")
    }

    /// An `i32` constant.
    pub fn i32(&mut self, v: impl std::fmt::Display) -> String {
        self.c("i32", v)
    }

    /// Emits `%vN = INST;` and returns `%vN`.
    pub fn v(&mut self, inst: impl AsRef<str>) -> String {
        let name = format!("%v{}", self.values);
        self.values += 1;
        self.text.push_str(&format!("    {name} = {};\n", inst.as_ref()));
        name
    }

    /// Emits text as it is (a `switch` with its cases, for instance).
    pub fn raw(&mut self, text: impl AsRef<str>) {
        self.text.push_str(text.as_ref());
        if !text.as_ref().ends_with('\n') {
            self.text.push('\n');
        }
    }

    /// Emits an instruction that defines no value (`store`, `br`, `ret`, a void call).
    pub fn i(&mut self, inst: impl AsRef<str>) {
        self.text.push_str(&format!("    {};\n", inst.as_ref()));
    }

    /// Emits `switch TY COND { ... }` with its default and `(value, block)` cases.
    pub fn switch(&mut self, ty: &str, cond: &str, default: usize, cases: &[(i64, usize)]) {
        let mut s = format!("    switch {ty} {cond} {{\n      default: br label %b{default};\n");
        for (v, k) in cases {
            s.push_str(&format!("      {ty} {v}: br label %b{k};\n"));
        }
        s.push_str("    }\n");
        self.text.push_str(&s);
    }

    /// Opens block `%bK`.
    pub fn block(&mut self, k: usize) {
        self.text.push_str(&format!("  %b{k}:\n"));
    }

    /// Declares a value of type `ty` defined later (with [`Body::define`]) and returns the
    /// name to use meanwhile.
    pub fn forward(&mut self, ty: &str) -> String {
        let k = self.forward.len();
        self.forward.push(None);
        let name = format!("@@fwd{k}@@");
        self.text.push_str(&format!("    declare {ty} {name};\n"));
        name
    }

    /// Defines the forward-declared value `name` as `%vN = INST;`.
    pub fn define(&mut self, name: &str, inst: impl AsRef<str>) {
        let k: usize = name.trim_start_matches("@@fwd").trim_end_matches("@@").parse().expect("a forward name");
        self.forward[k] = Some(self.values);
        self.text.push_str(&format!("    {name} = {};\n", inst.as_ref()));
        self.values += 1;
    }

    /// Zero-extends each `i1` of `bits` to `i32`, shifts it to its position and ORs them:
    /// bit k of the result is `bits[k]`.
    pub fn pack(&mut self, bits: &[String]) -> String {
        let mut acc: Option<String> = None;
        for (k, b) in bits.iter().enumerate() {
            let z = self.v(format!("zext i1 {b} to i32"));
            let s = if k == 0 {
                z
            } else {
                let amount = self.i32(k);
                self.v(format!("shl i32 {z}, {amount}"))
            };
            acc = Some(match acc {
                None => s,
                Some(a) => self.v(format!("or i32 {a}, {s}")),
            });
        }
        acc.expect("bits to pack")
    }

    /// The finished body text and constants.
    pub fn finish(self) -> (String, Vec<(String, String)>) {
        let mut text = self.text;
        for (k, v) in self.forward.iter().enumerate() {
            let n = v.unwrap_or_else(|| panic!("forward value {k} never defined"));
            text = text.replace(&format!("@@fwd{k}@@"), &format!("%v{n}"));
        }
        (text, self.consts)
    }

    /// A defined function `@fINDEX` (one of [`Case::functions`]: `@f2` is index 2) with
    /// this body.
    pub fn function(self, index: usize, ret: &str, params: &[&str]) -> Function {
        let (text, consts) = self.finish();
        let blocks = text.lines().filter(|l| l.trim_start().starts_with("%b") && l.trim_end().ends_with(':')).count();
        let ps: Vec<String> = params.iter().enumerate().map(|(i, t)| format!("{t} %p{i}")).collect();
        let mut s = format!("  function {ret} @f{index}({}) {{\n    blocks {blocks};\n", ps.join(", "));
        if !consts.is_empty() {
            s.push_str("    constants {\n");
            let mut last = "";
            for (i, (t, v)) in consts.iter().enumerate() {
                if t != last {
                    s.push_str(&format!("      {t}:\n"));
                    last = t;
                }
                s.push_str(&format!("        %c{i} = {t} {v};\n"));
            }
            s.push_str("    }\n");
        }
        s.push_str(&text);
        s.push_str("  }");
        Function::helper(ret, params, &s)
    }

    /// A case with this body.
    pub fn case(self, params: &[Ty], ret: Ty) -> Case {
        let (text, consts) = self.finish();
        let mut case = Case::new(params, ret, &[], &text);
        case.constants = consts;
        case
    }
}

/// The lanes of a vector (or the value of a scalar) as integers of `bits` bits.
pub fn lanes(v: &Val, bits: u32) -> Vec<u64> {
    let n = v.ty.size() * 8 / bits as usize;
    let w = bits as usize / 8;
    (0..n)
        .map(|i| {
            let mut b = [0u8; 8];
            b[..w].copy_from_slice(&v.bytes[i * w..i * w + w]);
            u64::from_le_bytes(b)
        })
        .collect()
}

/// A value of type `ty` made of `bits`-bit lanes (each truncated).
pub fn from_lanes(ty: Ty, bits: u32, lanes: &[u64]) -> Val {
    let w = bits as usize / 8;
    assert_eq!(lanes.len() * w, ty.size(), "lane count");
    let mut bytes = [0u8; 16];
    for (i, l) in lanes.iter().enumerate() {
        bytes[i * w..i * w + w].copy_from_slice(&l.to_le_bytes()[..w]);
    }
    let mut v = Val::v16i8(bytes);
    v.ty = ty;
    v
}

/// Runs the sub-cases of a test to the end and fails once, naming every sub-case that
/// failed (each failure's message is printed as it happens).
#[derive(Default)]
pub struct Failures(Vec<String>);

impl Failures {
    /// Runs one sub-case.
    pub fn run(&mut self, name: impl Into<String>, f: impl FnOnce()) {
        if std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).is_err() {
            self.0.push(name.into());
        }
    }

    /// Fails if any sub-case failed.
    pub fn finish(self) {
        assert!(self.0.is_empty(), "{} failing sub-cases: {}", self.0.len(), self.0.join(", "));
    }
}
