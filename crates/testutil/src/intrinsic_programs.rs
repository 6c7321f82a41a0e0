//! LLVM IR programs that exercise today's intrinsics (the ones pnacl's passes expand) on
//! many operands, for running before and after the expansion: a `main` that, for each
//! intrinsic, loops over operands, calls it, folds every result into a 64-bit FNV-style
//! hash and prints `INDEX HASH` with `printf`.
//!
//! Operands are exhaustive when all their combinations number at most 2^16 (every pair of
//! `i8`, every triple of `i5`, every `i16`); otherwise 20,000 drawn by SplitMix64 from the
//! loop counter and shaped toward the edges: a random value shifted right arithmetically
//! by a random amount (so 0, -1 and small magnitudes are common) with the sign bit flipped
//! half the time (so the minimum and maximum are common). Shift amounts of `ushl.sat` and
//! `sshl.sat` are reduced below the width (larger ones are poison); everything else is
//! defined on every operand (`abs`, `ctlz`, `cttz` are called with `i1 false`).
//!
//! The text is for LLVM 16 and newer (opaque pointers; `llvm.is.fpclass` is new in 16):
//! run it with LLVM 19's tools. LLVM 14's `lli` is no reference: it computes `llvm.fshl`
//! and `llvm.fshr` wrongly at widths that are not powers of two (`fshl.i12` of 2481, 887,
//! 82 gives 1732; the definition, and LLVM 19, give 1245).

use std::fmt::Write as _;

/// One test program.
pub struct Program {
    /// A name for reports (`ints-i17`, `vector-v8i16`, ...).
    pub name: String,
    /// The IR text.
    pub text: String,
    /// The intrinsics called, in the order their hashes are printed.
    pub calls: Vec<String>,
    /// True if every vector type in the program is one PNaCl has (`<4 x i32>`, `<8 x
    /// i16>`, `<16 x i8>`, `<4 x float>`, `<N x i1>`): only such a program can become a pexe.
    pub pnacl_vectors: bool,
}

/// The widths the scalar integer programs cover: `i1`, odd widths of bitfields and
/// `_BitInt`, and PNaCl's own.
pub const WIDTHS: &[u32] = &[1, 2, 3, 4, 5, 7, 8, 9, 12, 13, 15, 16, 17, 24, 31, 32, 33, 37, 48, 63, 64];

/// Every program: one per scalar width, one per vector type, one of reductions, one of
/// floating-point classification.
pub fn programs() -> Vec<Program> {
    let mut out: Vec<Program> = WIDTHS.iter().map(|&w| scalar_program(w)).collect();
    for (n, w) in [(4, 32), (8, 16), (16, 8), (4, 1), (2, 3)] {
        out.push(vector_program(n, w));
    }
    out.push(reduction_program(&[(4, 32), (8, 16), (16, 8), (4, 1)], true));
    out.push(reduction_program(&[(3, 5), (2, 64)], false));
    out.push(fpclass_program());
    out
}

/// An intrinsic call to test: its name, its operand count, and how the operands are made.
struct Call {
    name: String,
    ret: String,
    /// Operand types.
    params: Vec<String>,
    /// Trailing constant operands (`i1 false`), not generated.
    extra: String,
    /// Per generated operand: reduce it below the width (shift amounts).
    below_width: Vec<bool>,
}

fn int_calls(w: u32, suffix: &str, ty: &str) -> Vec<Call> {
    let two = |name: &str| Call {
        name: format!("llvm.{name}.{suffix}"),
        ret: ty.into(),
        params: vec![ty.into(), ty.into()],
        extra: String::new(),
        below_width: vec![false, false],
    };
    let one = |name: &str, extra: &str| Call {
        name: format!("llvm.{name}.{suffix}"),
        ret: ty.into(),
        params: vec![ty.into()],
        extra: extra.into(),
        below_width: vec![false],
    };
    let mut calls: Vec<Call> = ["smax", "smin", "umax", "umin", "uadd.sat", "sadd.sat", "usub.sat", "ssub.sat"]
        .iter()
        .map(|n| two(n))
        .collect();
    for name in ["ushl.sat", "sshl.sat"] {
        let mut c = two(name);
        c.below_width = vec![false, true];
        calls.push(c);
    }
    for name in ["fshl", "fshr"] {
        calls.push(Call {
            name: format!("llvm.{name}.{suffix}"),
            ret: ty.into(),
            params: vec![ty.into(); 3],
            extra: String::new(),
            below_width: vec![false; 3],
        });
    }
    calls.push(one("abs", ", i1 false"));
    calls.push(one("bitreverse", ""));
    calls.push(one("ctpop", ""));
    calls.push(one("ctlz", ", i1 false"));
    calls.push(one("cttz", ", i1 false"));
    if w.is_multiple_of(16) {
        calls.push(one("bswap", ""));
    }
    calls
}

/// The scalar program at width `w`.
fn scalar_program(w: u32) -> Program {
    let ty = format!("i{w}");
    let calls = int_calls(w, &ty, &ty);
    build(&format!("ints-i{w}"), calls, |b, call, args| {
        let r = b.call(call, args);
        b.fold_int(&r, w)
    })
}

/// The program of the element-wise integer intrinsics on `<n x iw>`.
fn vector_program(n: u32, w: u32) -> Program {
    let ty = format!("<{n} x i{w}>");
    let calls = int_calls(w, &format!("v{n}i{w}"), &ty);
    build(&format!("vector-v{n}i{w}"), calls, |b, call, args| {
        let r = b.call(call, args);
        b.fold_vector(&r, n, w)
    })
}

/// The integer reductions on `<n x iw>` for each `(n, w)` of `shapes`, and the
/// floating-point ones on `<4 x float>` if `floats`.
fn reduction_program(shapes: &[(u32, u32)], floats: bool) -> Program {
    let mut calls = Vec::new();
    for &(n, w) in shapes {
        let ty = format!("<{n} x i{w}>");
        for op in ["add", "mul", "and", "or", "xor", "smax", "smin", "umax", "umin"] {
            calls.push(Call {
                name: format!("llvm.vector.reduce.{op}.v{n}i{w}"),
                ret: format!("i{w}"),
                params: vec![ty.clone()],
                extra: String::new(),
                below_width: vec![false],
            });
        }
    }
    for op in ["fadd", "fmul", "fmax", "fmin"].iter().filter(|_| floats) {
        let ordered = matches!(*op, "fadd" | "fmul");
        calls.push(Call {
            name: format!("llvm.vector.reduce.{op}.v4f32"),
            ret: "float".into(),
            params: if ordered { vec!["float".into(), "<4 x float>".into()] } else { vec!["<4 x float>".into()] },
            extra: String::new(),
            below_width: vec![false; if ordered { 2 } else { 1 }],
        });
    }
    build(if floats { "reductions" } else { "reductions-odd" }, calls, |b, call, args| {
        let r = b.call(call, args);
        match call.ret.as_str() {
            "float" => b.fold_float(&r),
            t => b.fold_int(&r, t[1..].parse().expect("an integer type")),
        }
    })
}

/// `llvm.is.fpclass` with every single class and a few unions, on floats and doubles.
fn fpclass_program() -> Program {
    let mut calls = Vec::new();
    for ty in ["float", "double"] {
        let suffix = if ty == "float" { "f32" } else { "f64" };
        let tests = (0..10).map(|b| 1u32 << b).chain([3, 0x204, 0x3fc, 0x1f8, 0x90, 0x60, 0x3ff, 0]);
        for test in tests {
            calls.push(Call {
                name: format!("llvm.is.fpclass.{suffix}"),
                ret: "i1".into(),
                params: vec![ty.into()],
                extra: format!(", i32 {test}"),
                below_width: vec![false],
            });
        }
    }
    build("fpclass", calls, |b, call, args| {
        let r = b.call(call, args);
        b.fold_int(&r, 1)
    })
}

/// Writes the text of the program's body.
struct Body {
    text: String,
    next: usize,
}

impl Body {
    fn tmp(&mut self) -> String {
        self.next += 1;
        format!("%t{}", self.next)
    }

    fn line(&mut self, s: &str) {
        self.text.push_str("  ");
        self.text.push_str(s);
        self.text.push('\n');
    }

    /// `%r = call RET @NAME(args..., extra)`.
    fn call(&mut self, call: &Call, args: &[String]) -> String {
        let r = self.tmp();
        let list: Vec<String> = call.params.iter().zip(args).map(|(t, a)| format!("{t} {a}")).collect();
        self.line(&format!("{r} = call {} @{}({}{})", call.ret, call.name, list.join(", "), call.extra));
        r
    }

    /// The value `r` of type `iw` zero-extended to `i64`.
    fn fold_int(&mut self, r: &str, w: u32) -> String {
        if w == 64 {
            return r.to_string();
        }
        let z = self.tmp();
        self.line(&format!("{z} = zext i{w} {r} to i64"));
        z
    }

    fn fold_float(&mut self, r: &str) -> String {
        let b = self.tmp();
        self.line(&format!("{b} = bitcast float {r} to i32"));
        self.fold_int(&b, 32)
    }

    /// The lanes of `<n x iw>` `r` folded into one `i64`.
    fn fold_vector(&mut self, r: &str, n: u32, w: u32) -> String {
        let mut acc = "0".to_string();
        for lane in 0..n {
            let e = self.tmp();
            self.line(&format!("{e} = extractelement <{n} x i{w}> {r}, i32 {lane}"));
            let z = self.fold_int(&e, w);
            let m = self.tmp();
            self.line(&format!("{m} = mul i64 {acc}, 1000003"));
            let s = self.tmp();
            self.line(&format!("{s} = add i64 {m}, {z}"));
            acc = s;
        }
        acc
    }

    /// SplitMix64 of `seed` (an `i64` value).
    fn mix(&mut self, seed: &str) -> String {
        let a = self.tmp();
        self.line(&format!("{a} = add i64 {seed}, -7046029254386353131"));
        let mut z = a;
        for (shift, mul) in [(30, "-4658895280553007687"), (27, "-7723592293110705685")] {
            let s = self.tmp();
            self.line(&format!("{s} = lshr i64 {z}, {shift}"));
            let x = self.tmp();
            self.line(&format!("{x} = xor i64 {z}, {s}"));
            let m = self.tmp();
            self.line(&format!("{m} = mul i64 {x}, {mul}"));
            z = m;
        }
        let s = self.tmp();
        self.line(&format!("{s} = lshr i64 {z}, 31"));
        let x = self.tmp();
        self.line(&format!("{x} = xor i64 {z}, {s}"));
        x
    }

    /// An `i64` operand value drawn from `seed`, shaped toward the edges of `iw`.
    fn edgy(&mut self, seed: &str, w: u32) -> String {
        let r = self.mix(seed);
        let amount = self.tmp();
        self.line(&format!("{amount} = and i64 {r}, 63"));
        let shifted = self.tmp();
        self.line(&format!("{shifted} = ashr i64 {r}, {amount}"));
        let flip_bit = self.tmp();
        self.line(&format!("{flip_bit} = lshr i64 {r}, 6"));
        let flip = self.tmp();
        self.line(&format!("{flip} = and i64 {flip_bit}, 1"));
        let sign = self.tmp();
        self.line(&format!("{sign} = shl i64 {flip}, {}", w - 1));
        let v = self.tmp();
        self.line(&format!("{v} = xor i64 {shifted}, {sign}"));
        v
    }

    /// `v` (an `i64`) as a value of scalar type `iw` (or `float`/`double`).
    fn narrow(&mut self, v: &str, ty: &str) -> String {
        match ty {
            "i64" => v.to_string(),
            "float" | "double" => {
                // Small integers over 8, and their bit patterns: NaNs, infinities,
                // subnormals and zeros of both signs come up.
                let bits = self.tmp();
                let (it, wide) = if ty == "float" { ("i32", true) } else { ("i64", false) };
                if wide {
                    self.line(&format!("{bits} = trunc i64 {v} to i32"));
                } else {
                    self.line(&format!("{bits} = add i64 {v}, 0"));
                }
                let f = self.tmp();
                self.line(&format!("{f} = bitcast {it} {bits} to {ty}"));
                let small = self.tmp();
                self.line(&format!("{small} = trunc i64 {v} to i16"));
                let g = self.tmp();
                self.line(&format!("{g} = sitofp i16 {small} to {ty}"));
                let h = self.tmp();
                self.line(&format!("{h} = fdiv {ty} {g}, 8.0"));
                let pick = self.tmp();
                self.line(&format!("{pick} = trunc i64 {v} to i1"));
                let s = self.tmp();
                self.line(&format!("{s} = select i1 {pick}, {ty} {f}, {ty} {h}"));
                s
            }
            t => {
                let r = self.tmp();
                self.line(&format!("{r} = trunc i64 {v} to {t}"));
                r
            }
        }
    }
}

/// The element type and lane count of an operand type (`<4 x i32>` gives `i32`, 4).
fn lanes(ty: &str) -> (String, u32) {
    match ty.strip_prefix('<').and_then(|t| t.strip_suffix('>')) {
        Some(inner) => {
            let (n, e) = inner.split_once(" x ").expect("<N x T>");
            (e.to_string(), n.parse().expect("a lane count"))
        }
        None => (ty.to_string(), 1),
    }
}

fn width(ty: &str) -> u32 {
    match ty {
        "float" => 32,
        "double" => 64,
        t => t[1..].parse().expect("an integer type"),
    }
}

/// Builds a program: for each call, a loop over its operands, the call, and `fold`
/// turning its result into an `i64` for the hash.
fn build(name: &str, calls: Vec<Call>, fold: impl Fn(&mut Body, &Call, &[String]) -> String) -> Program {
    let mut b = Body { text: String::new(), next: 0 };
    let mut decls = std::collections::BTreeSet::new();
    for (k, call) in calls.iter().enumerate() {
        let mut params = call.params.join(", ");
        if !call.extra.is_empty() {
            let extra_types: Vec<&str> = call.extra.split(',').filter_map(|p| p.split_whitespace().next()).collect();
            params = format!("{params}, {}", extra_types.join(", "));
        }
        decls.insert(format!("declare {} @{}({params})", call.ret, call.name));
        // Exhaustive when all combinations fit in 2^16.
        let bits: u32 = call.params.iter().map(|t| width(&lanes(t).0) * lanes(t).1).sum();
        let floats = call.params.iter().any(|t| t.contains("float") || t.contains("double"));
        let exhaustive = bits <= 16 && !floats;
        let count: u64 = if exhaustive { 1 << bits } else { 20_000 };
        let prev = if k == 0 { "entry".to_string() } else { format!("print{}", k - 1) };
        writeln!(b.text, "loop{k}:").unwrap();
        b.line(&format!("%i{k} = phi i64 [ 0, %{prev} ], [ %i{k}.next, %loop{k} ]"));
        b.line(&format!("%h{k} = phi i64 [ -3750763034362895579, %{prev} ], [ %h{k}.next, %loop{k} ]"));
        let mut args = Vec::new();
        let mut offset = 0;
        for (j, ty) in call.params.iter().enumerate() {
            let (elem, n) = lanes(ty);
            let ew = width(&elem);
            let mut lane_values = Vec::new();
            for lane in 0..n {
                let v64 = if exhaustive {
                    let s = b.tmp();
                    b.line(&format!("{s} = lshr i64 %i{k}, {offset}"));
                    offset += ew;
                    s
                } else {
                    let seed = b.tmp();
                    b.line(&format!("{seed} = mul i64 %i{k}, {}", 64 * (j as u64 + 1) + u64::from(lane)));
                    let seed2 = b.tmp();
                    b.line(&format!("{seed2} = add i64 {seed}, {}", (k as u64) << 32));
                    b.edgy(&seed2, ew)
                };
                let mut v = b.narrow(&v64, &elem);
                if call.below_width.get(j).copied().unwrap_or(false) {
                    let r = b.tmp();
                    b.line(&format!("{r} = urem {elem} {v}, {ew}"));
                    v = r;
                }
                lane_values.push(v);
            }
            if n == 1 && !ty.starts_with('<') {
                args.push(lane_values.pop().expect("one lane"));
            } else {
                let mut acc = "undef".to_string();
                for (lane, v) in lane_values.iter().enumerate() {
                    let t = b.tmp();
                    b.line(&format!("{t} = insertelement {ty} {acc}, {elem} {v}, i32 {lane}"));
                    acc = t;
                }
                args.push(acc);
            }
        }
        let r64 = fold(&mut b, call, &args);
        b.line(&format!("%x{k} = xor i64 %h{k}, {r64}"));
        b.line(&format!("%h{k}.next = mul i64 %x{k}, 1099511628211"));
        b.line(&format!("%i{k}.next = add i64 %i{k}, 1"));
        b.line(&format!("%done{k} = icmp eq i64 %i{k}.next, {count}"));
        b.line(&format!("br i1 %done{k}, label %print{k}, label %loop{k}"));
        writeln!(b.text, "print{k}:").unwrap();
        b.line(&format!("%p{k} = call i32 (ptr, ...) @printf(ptr @fmt, i32 {k}, i64 %h{k}.next)"));
        let next = if k + 1 == calls.len() { "exit".to_string() } else { format!("loop{}", k + 1) };
        b.line(&format!("br label %{next}"));
    }
    let mut text = String::new();
    text.push_str("@fmt = private constant [9 x i8] c\"%d %llu\\0A\\00\"\n");
    text.push_str("declare i32 @printf(ptr, ...)\n");
    for d in &decls {
        text.push_str(d);
        text.push('\n');
    }
    text.push_str("\ndefine i32 @main() {\nentry:\n  br label %loop0\n");
    text.push_str(&b.text);
    text.push_str("exit:\n  ret i32 0\n}\n");
    let pnacl_vectors = calls.iter().flat_map(|c| &c.params).all(|t| {
        let (elem, n) = lanes(t);
        !t.starts_with('<')
            || matches!((elem.as_str(), n), ("i32" | "float", 4) | ("i16", 8) | ("i8", 16) | ("i1", 4 | 8 | 16))
    });
    Program { name: name.to_string(), text, calls: calls.into_iter().map(|c| c.name).collect(), pnacl_vectors }
}
