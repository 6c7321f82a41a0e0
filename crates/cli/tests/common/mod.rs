//! Helpers shared by the `run_semantics*` suites: reading results, edge values, input rows,
//! a builder of function bodies, and a small deterministic generator for vector inputs.
#![allow(dead_code)]

use pnacl_testutil::guest::{Case, Function, Ty, Val};
use std::ops::{Add, Div, Mul, Rem, Sub};
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

/// The edge values of a float type: zeros, ones, small and inexact values, `$odd` (the
/// first integer the type cannot hold, rounded), `$big` and its negation, the extremes,
/// the smallest normal, the smallest denormal and a negative one (`$denormal` as bits),
/// the infinities and NaNs (one with the payload `$nan` as bits).
macro_rules! float_edges {
    ($t:ident, $odd:expr, $big:expr, $denormal:expr, $nan:expr) => {
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
            $odd,
            $big,
            -$big,
            $t::MAX,
            $t::MIN,
            $t::MIN_POSITIVE,
            $t::from_bits(1),
            -$t::from_bits($denormal),
            $t::INFINITY,
            $t::NEG_INFINITY,
            $t::NAN,
            $t::from_bits($nan),
        ]
    };
}

/// `float` edge values: zeros, ones, denormals, extremes, infinities, NaNs.
pub fn f32_edges() -> Vec<f32> {
    float_edges!(f32, 16_777_217.0, 1e30, 0x0007_ffff, 0xffc0_0001)
}

/// `double` edge values.
pub fn f64_edges() -> Vec<f64> {
    float_edges!(f64, 9_007_199_254_740_993.0, 1e300, 0x000f_ffff_ffff_ffff, 0xfff8_0000_0000_0001)
}

/// The edge values for `bits`-bit integer operands ([`I8_EDGES`] to [`I64_EDGES`]).
pub fn int_edges(bits: u32) -> Vec<u64> {
    match bits {
        8 => I8_EDGES.iter().map(|&x| u64::from(x)).collect(),
        16 => I16_EDGES.iter().map(|&x| u64::from(x)).collect(),
        32 => I32_EDGES.iter().map(|&x| u64::from(x)).collect(),
        _ => I64_EDGES.to_vec(),
    }
}

/// The parameter and result type that carries a `bits`-bit integer: `i64` for 64 bits,
/// `i32` for fewer.
pub fn int_carrier(bits: u32) -> Ty {
    if bits == 64 { Ty::I64 } else { Ty::I32 }
}

/// `x` as a value of [`int_carrier`]`(bits)` (its low 32 bits below 64 bits).
pub fn int_val(bits: u32, x: u64) -> Val {
    if bits == 64 { Val::i64(x) } else { Val::i32(x as u32) }
}

/// The value of an `i32` or `i64` parameter or result, zero-extended.
pub fn int_of(v: &Val) -> u64 {
    if v.ty == Ty::I64 { u64v(v) } else { u64::from(u32v(v)) }
}

/// `float` and `double` as parameters and results: their [`Ty`] and [`Val`]s.
pub trait Float:
    Copy
    + PartialOrd
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Rem<Output = Self>
{
    /// The parameter and result type.
    const TY: Ty;

    /// The value of a parameter or result of this type.
    fn of(v: &Val) -> Self;

    /// The value as a parameter or result.
    fn val(self) -> Val;
}

/// Implements [`Float`] for `$t`, of type `$ty`, read by `$of` and made by `$val`.
macro_rules! impl_float {
    ($t:ty, $ty:expr, $of:path, $val:path) => {
        impl Float for $t {
            const TY: Ty = $ty;

            fn of(v: &Val) -> $t {
                $of(v)
            }

            fn val(self) -> Val {
                $val(self)
            }
        }
    };
}

impl_float!(f32, Ty::F32, f32v, Val::f32);
impl_float!(f64, Ty::F64, f64v, Val::f64);

/// `a OP b` for the floating-point binary operators (`frem` is C `fmod`).
pub fn float_op<T: Float>(op: &str, a: T, b: T) -> T {
    match op {
        "fadd" => a + b,
        "fsub" => a - b,
        "fmul" => a * b,
        "fdiv" => a / b,
        "frem" => a % b,
        _ => panic!("{op}"),
    }
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

    /// A body that returns the value, of type `ty`, of the one instruction `inst`.
    pub fn returning(ty: &str, inst: impl AsRef<str>) -> Body {
        let mut b = Body::new();
        let r = b.v(inst);
        b.i(format!("ret {ty} {r}"));
        b
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

    /// The `i32` parameter `p` as a `bits`-bit operand: truncated below 32 bits, as it is
    /// otherwise (an `i64` operand comes in as an `i64` parameter).
    pub fn narrow(&mut self, p: &str, bits: u32) -> String {
        if bits >= 32 { p.to_string() } else { self.v(format!("trunc i32 {p} to {}", int_ty(bits))) }
    }

    /// Returns the `bits`-bit `x` as an [`int_carrier`]: extended to `i32` by `ext` (`zext`
    /// or `sext`) below 32 bits.
    pub fn ret_int(&mut self, x: &str, bits: u32, ext: &str) {
        let r = if bits < 32 { self.v(format!("{ext} {} {x} to i32", int_ty(bits))) } else { x.to_string() };
        self.i(format!("ret {} {r}", int_carrier(bits).name()));
    }

    /// Ends the block with a branch on the `i1` `cond` to `%b1`, which returns the `i32`
    /// `yes`, or else to `%b2`, which returns `no`.
    pub fn ret_by_branch(&mut self, cond: &str, yes: u32, no: u32) {
        self.i(format!("br i1 {cond}, label %b1, label %b2"));
        self.block(1);
        let yes = self.i32(yes);
        self.i(format!("ret i32 {yes}"));
        self.block(2);
        let no = self.i32(no);
        self.i(format!("ret i32 {no}"));
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

    /// Opens `%b1` as a loop head, entered from `%b0` and continued from `%b{latch}`: one
    /// `phi` per `(type, initial value)` of `carried`, whose next value is declared forward
    /// (to be given with [`Body::define`] before the latch branches back). Returns each phi
    /// with its next value.
    pub fn loop_head<const N: usize>(&mut self, latch: usize, carried: [(&str, &str); N]) -> [(String, String); N] {
        self.loop_phis(latch, &carried).try_into().expect("one phi per carried value")
    }

    /// [`Body::loop_head`] for any number of carried values.
    fn loop_phis(&mut self, latch: usize, carried: &[(&str, &str)]) -> Vec<(String, String)> {
        self.block(1);
        let next: Vec<String> = carried.iter().map(|(t, _)| self.forward(t)).collect();
        carried
            .iter()
            .zip(next)
            .map(|((t, init), next)| (self.v(format!("phi {t} [{init}, %b0], [{next}, %b{latch}]")), next))
            .collect()
    }

    /// Emits `for (i = 0; i < bound; i++)` on `i32`s, entered from `%b0`: the head `%b1`
    /// with a `phi` for `i` and one per `(type, initial value)` of `carried`, the body
    /// `%b2`, filled by `body(body, i, phis)` (which gives each carried phi's next value
    /// with [`Body::define`]), and the exit `%b3`, left open. Returns the carried phis.
    pub fn counted_loop<const N: usize>(
        &mut self,
        bound: &str,
        carried: [(&str, &str); N],
        body: impl FnOnce(&mut Body, &str, &[(String, String); N]),
    ) -> [String; N] {
        let zero = self.i32(0);
        let one = self.i32(1);
        self.i("br label %b1");
        let mut heads = vec![("i32", zero.as_str())];
        heads.extend(carried);
        let mut phis = self.loop_phis(2, &heads);
        let (i, next_i) = phis.remove(0);
        let more = self.v(format!("icmp ult i32 {i}, {bound}"));
        self.i(format!("br i1 {more}, label %b2, label %b3"));
        self.block(2);
        let phis: [(String, String); N] = phis.try_into().expect("one phi per carried value");
        body(self, &i, &phis);
        self.define(&next_i, format!("add i32 {i}, {one}"));
        self.i("br label %b1");
        self.block(3);
        phis.map(|(phi, _)| phi)
    }

    /// Emits a `switch` on the `i32` `sel` with one block per key (key k goes to
    /// `%b{k+1}`, the default to `%b{default}`), each filled by `arm(body, k)` and branching
    /// to the join block after them; opens the join block and, when `ty` is given, returns
    /// a `phi` of type `ty` of the values the arms gave.
    pub fn switch_join(
        &mut self,
        sel: &str,
        keys: &[i64],
        default: usize,
        ty: Option<&str>,
        mut arm: impl FnMut(&mut Body, usize) -> Option<String>,
    ) -> Option<String> {
        let n = keys.len();
        let cases: Vec<(i64, usize)> = keys.iter().enumerate().map(|(k, &key)| (key, k + 1)).collect();
        self.switch("i32", sel, default, &cases);
        let mut incoming = Vec::new();
        for k in 0..n {
            self.block(k + 1);
            let r = arm(self, k);
            self.i(format!("br label %b{}", n + 1));
            if let Some(r) = r {
                incoming.push(format!("[{r}, %b{}]", k + 1));
            }
        }
        self.block(n + 1);
        ty.map(|t| self.v(format!("phi {t} {}", incoming.join(", "))))
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

/// A vector of type `ty` whose `bits`-bit lanes are `f` of the lanes of `a`.
pub fn map_lanes(ty: Ty, bits: u32, a: &Val, f: impl Fn(u64) -> u64) -> Val {
    let out: Vec<u64> = lanes(a, bits).into_iter().map(f).collect();
    from_lanes(ty, bits, &out)
}

/// A vector of type `ty` whose `bits`-bit lanes are `f` of the lanes of `a` and `b`, lane
/// by lane.
pub fn zip_lanes(ty: Ty, bits: u32, a: &Val, b: &Val, f: impl Fn(u64, u64) -> u64) -> Val {
    let out: Vec<u64> = lanes(a, bits).into_iter().zip(lanes(b, bits)).map(|(x, y)| f(x, y)).collect();
    from_lanes(ty, bits, &out)
}

/// An `i1` extended to `bits` bits by `ext`: false is 0, true is all ones (`sext`) or 1
/// (`zext`).
pub fn extend_i1(bit: bool, ext: &str, bits: u32) -> u64 {
    match (bit, ext) {
        (false, _) => 0,
        (true, "sext") => mask(bits),
        _ => 1,
    }
}

/// The constant global `@g8`, 16-aligned, holding `bytes`.
pub fn const_global(bytes: &[u8]) -> String {
    let bytes: Vec<String> = bytes.iter().map(|b| b.to_string()).collect();
    format!("const @g8, align 16,\n      {{ {} }}", bytes.join(", "))
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
