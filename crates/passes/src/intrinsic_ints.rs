//! The integer intrinsics of today's LLVM, at any width up to 64 bits and on vectors, in
//! terms of PNaCl's instructions and intrinsics (for `nacl-expand-modern-intrinsics`).
//!
//! clang emits them at the widths of the C program's values, before PNaCl's integer
//! promotion: `i1` (`llvm.bitreverse.i1`), bitfield widths (`llvm.ctpop.i4`), `_BitInt(N)`
//! (`llvm.ctlz.i37`). Each is expanded at its own width into instructions whose meaning at
//! that width is the intrinsic's; `nacl-promote-ints` then widens them as it widens any
//! instruction. Only `llvm.ctpop`, `ctlz`, `cttz` at 32 and 64 bits and `llvm.bswap` at 16,
//! 32 and 64 bits are PNaCl's own and stay (other widths go through them, zero-extended).
//! A vector call is done lane by lane (`extractelement`, the scalar expansion,
//! `insertelement`).

use crate::util::{Out, binop, call, declare, func_value, inst, int_const, ty, undef};
use pnacl_llvm::ir::{BinaryOp, CastOp, InstKind, IntPred, Module, Type, TypeId, Value};

/// The families expanded here: an intrinsic's name without `llvm.` and its type suffix.
const FAMILIES: &[&str] = &[
    "smax",
    "smin",
    "umax",
    "umin",
    "abs",
    "uadd.sat",
    "sadd.sat",
    "usub.sat",
    "ssub.sat",
    "ushl.sat",
    "sshl.sat",
    "fshl",
    "fshr",
    "bitreverse",
    "bswap",
    "ctpop",
    "ctlz",
    "cttz",
];

/// The family of intrinsic `rest` (its name without `llvm.`), if this module expands it.
pub(crate) fn family(rest: &str) -> Option<&'static str> {
    FAMILIES.iter().copied().find(|f| rest.strip_prefix(f).is_some_and(|s| s.starts_with('.')))
}

/// True if PNaCl has family `fam` at width `w` itself.
fn native(fam: &str, w: u32) -> bool {
    match fam {
        "ctpop" | "ctlz" | "cttz" => matches!(w, 32 | 64),
        "bswap" => matches!(w, 16 | 32 | 64),
        _ => false,
    }
}

/// Expands a call of family `fam` with `args`, whose result has type `t`. `Ok(None)`: the
/// call is PNaCl's own and stays. `Err`: a width or type with no expansion.
pub(crate) fn expand(
    m: &mut Module,
    out: &mut Out<'_>,
    fam: &str,
    args: &[Value],
    t: TypeId,
) -> Result<Option<Value>, String> {
    match m.types.get(t).clone() {
        Type::Int(w) if native(fam, w) => Ok(None),
        Type::Int(w) => Scalar { m, out, t, w }.expand(fam, args).map(Some),
        Type::Vector { len, elem, scalable: false } => {
            let Type::Int(w) = *m.types.get(elem) else { return Err("a vector of non-integers".into()) };
            let i32t = m.types.int(32);
            let mut acc = undef(m, t);
            for lane in 0..len {
                let index = int_const(m, i32t, u64::from(lane));
                let mut lane_args = Vec::with_capacity(args.len());
                for &a in args {
                    // Vector operands give their lane; flags (`i1 false`) stay scalar.
                    let v = if matches!(m.types.get(ty(m, out.func, a)), Type::Vector { .. }) {
                        out.emit(m, inst(InstKind::ExtractElement { vector: a, index }, elem))
                    } else {
                        a
                    };
                    lane_args.push(v);
                }
                let v = Scalar { m, out, t: elem, w }.expand(fam, &lane_args)?;
                acc = out.emit(m, inst(InstKind::InsertElement { vector: acc, element: v, index }, t));
            }
            Ok(Some(acc))
        }
        other => Err(format!("no expansion for type {other:?}")),
    }
}

/// Emits the expansion of one scalar call of type `t` = `iw`.
struct Scalar<'a, 'o> {
    m: &'a mut Module,
    out: &'a mut Out<'o>,
    t: TypeId,
    w: u32,
}

/// All ones in the low `w` bits.
fn mask(w: u32) -> u64 {
    if w >= 64 { u64::MAX } else { (1u64 << w) - 1 }
}

impl Scalar<'_, '_> {
    fn c(&mut self, v: u64) -> Value {
        int_const(self.m, self.t, v)
    }

    fn bin(&mut self, op: BinaryOp, a: Value, b: Value) -> Value {
        self.out.emit(self.m, binop(op, a, b, self.t))
    }

    fn bin_at(&mut self, op: BinaryOp, a: Value, b: Value, t: TypeId) -> Value {
        self.out.emit(self.m, binop(op, a, b, t))
    }

    fn cmp(&mut self, pred: IntPred, a: Value, b: Value) -> Value {
        let i1t = self.m.types.int(1);
        self.out.emit(self.m, inst(InstKind::ICmp { pred, lhs: a, rhs: b }, i1t))
    }

    fn sel(&mut self, c: Value, a: Value, b: Value) -> Value {
        let t = ty(self.m, self.out.func, a);
        self.out.emit(self.m, inst(InstKind::Select { cond: c, on_true: a, on_false: b }, t))
    }

    fn expand(&mut self, fam: &str, args: &[Value]) -> Result<Value, String> {
        let w = self.w;
        if w > 64 {
            return Err(format!("llvm.{fam} on i{w} (wider than 64 bits) has no expansion"));
        }
        let arg = |k: usize| args.get(k).copied().ok_or_else(|| format!("llvm.{fam} needs argument {}", k + 1));
        Ok(match fam {
            "smax" | "smin" | "umax" | "umin" => {
                let pred = match fam {
                    "smax" => IntPred::Sgt,
                    "smin" => IntPred::Slt,
                    "umax" => IntPred::Ugt,
                    _ => IntPred::Ult,
                };
                let (a, b) = (arg(0)?, arg(1)?);
                let c = self.cmp(pred, a, b);
                self.sel(c, a, b)
            }
            "abs" => {
                let a = arg(0)?;
                let zero = self.c(0);
                let neg = self.bin(BinaryOp::Sub, zero, a);
                let c = self.cmp(IntPred::Slt, a, zero);
                self.sel(c, neg, a)
            }
            "uadd.sat" | "usub.sat" | "sadd.sat" | "ssub.sat" => self.add_sat(fam, arg(0)?, arg(1)?),
            "ushl.sat" | "sshl.sat" => {
                let (a, b) = (arg(0)?, arg(1)?);
                let r = self.bin(BinaryOp::Shl, a, b);
                let signed = fam == "sshl.sat";
                let back = self.bin(if signed { BinaryOp::AShr } else { BinaryOp::LShr }, r, b);
                let lost = self.cmp(IntPred::Ne, back, a);
                let clamp = if signed { self.signed_clamp(a) } else { self.c(mask(w)) };
                self.sel(lost, clamp, r)
            }
            "fshl" | "fshr" => self.funnel(fam == "fshl", arg(0)?, arg(1)?, arg(2)?),
            "bitreverse" => self.bitreverse(arg(0)?),
            "bswap" => self.bswap(arg(0)?)?,
            "ctpop" | "ctlz" | "cttz" => self.count(fam, arg(0)?),
            _ => return Err(format!("llvm.{fam} has no expansion")),
        })
    }

    /// The signed saturation bound on `a`'s side: the minimum if `a` is negative, else
    /// the maximum.
    fn signed_clamp(&mut self, a: Value) -> Value {
        let w = self.w;
        let (min, max) = (self.c(1u64 << (w - 1)), self.c(mask(w - 1)));
        let zero = self.c(0);
        let neg = self.cmp(IntPred::Slt, a, zero);
        self.sel(neg, min, max)
    }

    fn add_sat(&mut self, fam: &str, a: Value, b: Value) -> Value {
        let add = fam.starts_with("uadd") || fam.starts_with("sadd");
        let r = self.bin(if add { BinaryOp::Add } else { BinaryOp::Sub }, a, b);
        match fam {
            "uadd.sat" => {
                let over = self.cmp(IntPred::Ult, r, a);
                let max = self.c(mask(self.w));
                self.sel(over, max, r)
            }
            "usub.sat" => {
                let under = self.cmp(IntPred::Ult, a, b);
                let zero = self.c(0);
                self.sel(under, zero, r)
            }
            _ => {
                // Overflow iff the result's sign differs from both operands' (add), or the
                // operands' signs differ and the result's differs from a's (sub).
                let x1 = self.bin(BinaryOp::Xor, a, r);
                let x2 = if add { self.bin(BinaryOp::Xor, b, r) } else { self.bin(BinaryOp::Xor, a, b) };
                let both = self.bin(BinaryOp::And, x1, x2);
                let zero = self.c(0);
                let over = self.cmp(IntPred::Slt, both, zero);
                let clamp = self.signed_clamp(a);
                self.sel(over, clamp, r)
            }
        }
    }

    /// `fshl(a, b, c)`: the high half of `a:b << c % w`; `fshr`: the low half of
    /// `a:b >> c % w`. A shift by zero is a copy of `a` (`b` for `fshr`); the other shifts
    /// are by less than `w`.
    fn funnel(&mut self, left: bool, a: Value, b: Value, amount: Value) -> Value {
        let width = self.c(u64::from(self.w));
        let sh = self.bin(BinaryOp::URem, amount, width);
        let inv = self.bin(BinaryOp::Sub, width, sh);
        let (l, r) = if left { (sh, inv) } else { (inv, sh) };
        let hi = self.bin(BinaryOp::Shl, a, l);
        let lo = self.bin(BinaryOp::LShr, b, r);
        let both = self.bin(BinaryOp::Or, hi, lo);
        let zero = self.c(0);
        let none = self.cmp(IntPred::Eq, sh, zero);
        self.sel(none, if left { a } else { b }, both)
    }

    /// The 32- or 64-bit type a `w`-bit operation is done at.
    fn wide(&mut self) -> (TypeId, u32) {
        let n = if self.w <= 32 { 32 } else { 64 };
        (self.m.types.int(n), n)
    }

    fn zext(&mut self, v: Value, to: TypeId) -> Value {
        self.out.cast(self.m, CastOp::ZExt, v, to)
    }

    fn trunc(&mut self, v: Value) -> Value {
        let t = self.t;
        self.out.cast(self.m, CastOp::Trunc, v, t)
    }

    /// A call of PNaCl's intrinsic `llvm.NAME.iN` (`ctlz` and `cttz` with `i1 false`).
    fn native_call(&mut self, name: &str, v: Value, wt: TypeId, n: u32) -> Value {
        let i1t = self.m.types.int(1);
        let zero_defined = matches!(name, "ctlz" | "cttz");
        let params = if zero_defined { vec![wt, i1t] } else { vec![wt] };
        let fty = self.m.types.function(wt, params, false);
        let f = declare(self.m, &format!("llvm.{name}.i{n}"), fty);
        let callee = func_value(self.m, f);
        let mut args = vec![v];
        if zero_defined {
            args.push(Value::Const(self.m.consts.int(i1t, 1, 0)));
        }
        let c = call(self.m, f, args, callee);
        self.out.emit(self.m, c)
    }

    /// `ctpop`, `ctlz`, `cttz` through PNaCl's 32- or 64-bit forms: the operand is
    /// zero-extended; `ctlz` subtracts the added leading zeros, `cttz` sets a bit just
    /// above the value so that zero counts `w`. Zero is always defined (the `i1` flag of
    /// the original only allowed poison).
    fn count(&mut self, fam: &str, x: Value) -> Value {
        let (wt, n) = self.wide();
        let w = self.w;
        let mut y = self.zext(x, wt);
        if fam == "cttz" && w < n {
            let stop = int_const(self.m, wt, 1u64 << w);
            y = self.bin_at(BinaryOp::Or, y, stop, wt);
        }
        let mut r = self.native_call(fam, y, wt, n);
        if fam == "ctlz" && w < n {
            let pad = int_const(self.m, wt, u64::from(n - w));
            r = self.bin_at(BinaryOp::Sub, r, pad, wt);
        }
        self.trunc(r)
    }

    /// The bits in reverse order: PNaCl's `bswap` at 32 or 64 bits reverses the bytes,
    /// three mask-and-shift steps the bits in each byte, and a shift drops the bits the
    /// zero extension added.
    fn bitreverse(&mut self, x: Value) -> Value {
        let w = self.w;
        if w == 1 {
            return x;
        }
        let (wt, n) = self.wide();
        let y = self.zext(x, wt);
        let mut r = self.native_call("bswap", y, wt, n);
        for (shift, pattern) in
            [(1u64, 0x5555_5555_5555_5555u64), (2, 0x3333_3333_3333_3333), (4, 0x0f0f_0f0f_0f0f_0f0f)]
        {
            let k = int_const(self.m, wt, shift);
            let mk = int_const(self.m, wt, pattern & mask(n));
            let down = self.bin_at(BinaryOp::LShr, r, k, wt);
            let down = self.bin_at(BinaryOp::And, down, mk, wt);
            let up = self.bin_at(BinaryOp::And, r, mk, wt);
            let up = self.bin_at(BinaryOp::Shl, up, k, wt);
            r = self.bin_at(BinaryOp::Or, down, up, wt);
        }
        if w < n {
            let k = int_const(self.m, wt, u64::from(n - w));
            r = self.bin_at(BinaryOp::LShr, r, k, wt);
        }
        self.trunc(r)
    }

    /// The bytes in reverse order (LLVM defines `bswap` on multiples of 16 bits): through
    /// PNaCl's 64-bit form, shifted back down (`i48`).
    fn bswap(&mut self, x: Value) -> Result<Value, String> {
        let w = self.w;
        if !w.is_multiple_of(16) {
            return Err(format!("llvm.bswap on i{w}, not a multiple of 16 bits"));
        }
        if native("bswap", w) {
            let (wt, n) = (self.t, w);
            return Ok(self.native_call("bswap", x, wt, n));
        }
        let wt = self.m.types.int(64);
        let y = self.zext(x, wt);
        let r = self.native_call("bswap", y, wt, 64);
        let k = int_const(self.m, wt, u64::from(64 - w));
        let r = self.bin_at(BinaryOp::LShr, r, k, wt);
        Ok(self.trunc(r))
    }
}
