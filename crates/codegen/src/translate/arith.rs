//! Binary operators and comparisons, scalar and vector.

use super::Translator;
use crate::abi::HostFn;
use crate::clif::clif_type;
use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::types::*;
use cranelift_codegen::ir::{InstBuilder, InstructionData, Opcode, Value, ValueDef};
use pnacl_bitcode::ir::{BinOp, CastOp, Inst, Pred, Ty, ValueId};

impl Translator<'_, '_, '_> {
    pub(super) fn binop(&mut self, op: BinOp, t: Ty, a: Value, c: Value) -> Result<Value, String> {
        let float = t.element().is_float();
        // Cranelift has no vector division, and shifts vectors by one scalar amount.
        let lane_wise = matches!(op, BinOp::UDiv | BinOp::SDiv | BinOp::URem | BinOp::SRem)
            || matches!(op, BinOp::Shl | BinOp::LShr | BinOp::AShr);
        if t.is_vector() && lane_wise && !(float && op == BinOp::SDiv) {
            return self.per_lane(t, a, c, |s, x, y| s.binop(op, t.element(), x, y));
        }
        if op == BinOp::Mul && t == Ty::V16I8 {
            return Ok(self.mul_i8x16(a, c));
        }
        if op == BinOp::Mul
            && !float
            && !t.is_vector()
            && let Some(v) = self.mul_of_constant_add(a, c).or_else(|| self.mul_of_constant_add(c, a))
        {
            return Ok(v);
        }
        if matches!(op, BinOp::UDiv | BinOp::URem)
            && t == Ty::I32
            && let Some(v) = self.unsigned_by_constant(op, a, c)
        {
            return Ok(v);
        }
        if op == BinOp::SRem && float {
            let h = if t == Ty::Float { HostFn::Fmodf } else { HostFn::Fmod };
            return Ok(self.call_host(h, &[a, c])[0]);
        }
        let ins = self.b.ins();
        Ok(match (op, float) {
            (BinOp::Add, false) => ins.iadd(a, c),
            (BinOp::Add, true) => ins.fadd(a, c),
            (BinOp::Sub, false) => ins.isub(a, c),
            (BinOp::Sub, true) => ins.fsub(a, c),
            (BinOp::Mul, false) => ins.imul(a, c),
            (BinOp::Mul, true) => ins.fmul(a, c),
            (BinOp::UDiv, _) => ins.udiv(a, c),
            (BinOp::SDiv, false) => ins.sdiv(a, c),
            (BinOp::SDiv, true) => ins.fdiv(a, c),
            (BinOp::URem, _) => ins.urem(a, c),
            (BinOp::SRem, false) => ins.srem(a, c),
            (BinOp::SRem, true) => unreachable!("handled above"),
            (BinOp::Shl, _) => ins.ishl(a, c),
            (BinOp::LShr, _) => ins.ushr(a, c),
            (BinOp::AShr, _) => ins.sshr(a, c),
            (BinOp::And, _) => ins.band(a, c),
            (BinOp::Or, _) => ins.bor(a, c),
            (BinOp::Xor, _) => ins.bxor(a, c),
        })
    }

    /// `x + zext(c)`, with `c` an `i1` compare, as `select(c, x + 1, x)`: Cranelift fuses
    /// the compare with the select into a compare and a conditional move, where the `zext`
    /// took a `setcc`, a `movzx` and an add (a count of compares that hold, as in fasta's
    /// search of cumulative probabilities). `i1` values are 0 or 1 (see `casts`), so both
    /// mean the same. Other `i1`s (an `and` of two compares, in newlib's `sqrt`) are left
    /// to the `zext`: a select on them needs a test and one more register, which cost
    /// more than they saved. `None` for other additions (and in setjmp mode, which stays
    /// a literal translation).
    pub(super) fn add_of_bool(&mut self, lhs: ValueId, rhs: ValueId) -> Result<Option<Value>, String> {
        if self.setjmp_mode || self.ty(lhs).is_vector() {
            return Ok(None);
        }
        let (flag, x) = match (self.zext_of_compare(lhs), self.zext_of_compare(rhs)) {
            (_, Some(c)) => (c, lhs),
            (Some(c), None) => (c, rhs),
            (None, None) => return Ok(None),
        };
        let c = self.get(flag)?;
        let x = self.get(x)?;
        let x1 = self.b.ins().iadd_imm_s(x, 1);
        Ok(Some(self.b.ins().select(c, x1, x)))
    }

    /// The compare that `v` is the `zext` of, if it is one.
    fn zext_of_compare(&self, v: ValueId) -> Option<ValueId> {
        match *self.def_inst(v)? {
            Inst::Cast { op: CastOp::ZExt, val, .. } if matches!(self.def_inst(val)?, Inst::Cmp { .. }) => Some(val),
            _ => None,
        }
    }

    /// `(x + k) * m` as `x * m + k * m`, when `m` is a constant and `a` is `x` plus
    /// constants `k` (equal modulo 2**bits). The constant can then fold into an address,
    /// and `x + k` is often left unused: an unrolled loop's copies index `x + 1`, `x + 2`,
    /// ... (see the `unroll` module), and Cranelift does not distribute.
    fn mul_of_constant_add(&mut self, a: Value, m: Value) -> Option<Value> {
        let m_value = self.iconst_of(m)?;
        let (mut x, mut k) = (a, 0i64);
        // A bounded walk: the chains are as long as the unrolling factor.
        for _ in 0..8 {
            let Some([p, q]) = self.iadd_args(x) else { break };
            let (rest, c) = match (self.iconst_of(p), self.iconst_of(q)) {
                (_, Some(c)) => (p, c),
                (Some(c), None) => (q, c),
                (None, None) => break,
            };
            k = k.wrapping_add(c);
            x = rest;
        }
        if x == a {
            return None;
        }
        let t = self.b.func.dfg.value_type(a);
        let product = self.b.ins().imul(x, m);
        let offset = self.int_const(t, k.wrapping_mul(m_value));
        Some(self.b.ins().iadd(product, offset))
    }

    /// `udiv` or `urem` of an `i32` `a` by a constant `c` that is not a power of two, as a
    /// 64-bit multiplication by a 32-bit magic number and a shift (see [`magic_u32`]).
    /// Cranelift divides by constants too, but with a 32-bit high multiply (`mulx`), one
    /// cycle longer: fasta's random numbers are a chain of one `urem` after another.
    /// `None` (Cranelift's own lowering) when the magic number needs 33 bits.
    fn unsigned_by_constant(&mut self, op: BinOp, a: Value, c: Value) -> Option<Value> {
        let d = u32::try_from(self.iconst_of(c)? & 0xffff_ffff).ok()?;
        let (m, p) = magic_u32(d)?;
        let wide = self.b.ins().uextend(I64, a);
        let magic = self.b.ins().iconst(I64, m as i64);
        let product = self.b.ins().imul(wide, magic);
        let shifted = self.b.ins().ushr_imm_u(product, i64::from(p));
        let q = self.b.ins().ireduce(I32, shifted);
        Some(match op {
            BinOp::UDiv => q,
            _ => {
                let qd = self.b.ins().imul(q, c);
                self.b.ins().isub(a, qd)
            }
        })
    }

    /// The operands of `v` if it is an integer addition.
    pub(super) fn iadd_args(&self, v: Value) -> Option<[Value; 2]> {
        let ValueDef::Result(inst, 0) = self.b.func.dfg.value_def(v) else { return None };
        match self.b.func.dfg.insts[inst] {
            InstructionData::Binary { opcode: Opcode::Iadd, args } => Some(args),
            _ => None,
        }
    }

    /// The value of `v` if it is an integer constant.
    pub(super) fn iconst_of(&self, v: Value) -> Option<i64> {
        let ValueDef::Result(inst, 0) = self.b.func.dfg.value_def(v) else { return None };
        match self.b.func.dfg.insts[inst] {
            InstructionData::UnaryImm { opcode: Opcode::Iconst, imm } => Some(imm.bits()),
            _ => None,
        }
    }

    pub(super) fn compare(&mut self, pred: Pred, t: Ty, a: Value, c: Value) -> Value {
        let n = pred.0;
        if pred.is_integer() {
            let cc = match n {
                32 => IntCC::Equal,
                33 => IntCC::NotEqual,
                34 => IntCC::UnsignedGreaterThan,
                35 => IntCC::UnsignedGreaterThanOrEqual,
                36 => IntCC::UnsignedLessThan,
                37 => IntCC::UnsignedLessThanOrEqual,
                38 => IntCC::SignedGreaterThan,
                39 => IntCC::SignedGreaterThanOrEqual,
                40 => IntCC::SignedLessThan,
                _ => IntCC::SignedLessThanOrEqual,
            };
            return self.b.ins().icmp(cc, a, c);
        }
        let cc = match n {
            1 => Some(FloatCC::Equal),
            2 => Some(FloatCC::GreaterThan),
            3 => Some(FloatCC::GreaterThanOrEqual),
            4 => Some(FloatCC::LessThan),
            5 => Some(FloatCC::LessThanOrEqual),
            6 => Some(FloatCC::OrderedNotEqual),
            7 => Some(FloatCC::Ordered),
            8 => Some(FloatCC::Unordered),
            9 => Some(FloatCC::UnorderedOrEqual),
            10 => Some(FloatCC::UnorderedOrGreaterThan),
            11 => Some(FloatCC::UnorderedOrGreaterThanOrEqual),
            12 => Some(FloatCC::UnorderedOrLessThan),
            13 => Some(FloatCC::UnorderedOrLessThanOrEqual),
            14 => Some(FloatCC::NotEqual),
            _ => None,
        };
        match cc {
            // Cranelift's x86 backend has no vector `one` and `ueq`: build them from the
            // predicates it has.
            Some(FloatCC::OrderedNotEqual) if t.is_vector() => {
                let ordered = self.b.ins().fcmp(FloatCC::Ordered, a, c);
                let ne = self.b.ins().fcmp(FloatCC::NotEqual, a, c);
                self.b.ins().band(ordered, ne)
            }
            Some(FloatCC::UnorderedOrEqual) if t.is_vector() => {
                let unordered = self.b.ins().fcmp(FloatCC::Unordered, a, c);
                let eq = self.b.ins().fcmp(FloatCC::Equal, a, c);
                self.b.ins().bor(unordered, eq)
            }
            Some(cc) => self.b.ins().fcmp(cc, a, c),
            None => {
                // `false` (0) and `true` (15).
                let result = clif_type(t.compare_result());
                let v = if n == 15 { -1 } else { 0 };
                if result.is_vector() {
                    let lane = self.b.ins().iconst(result.lane_type(), v);
                    self.b.ins().splat(result, lane)
                } else {
                    self.b.ins().iconst(I8, v & 1)
                }
            }
        }
    }
}

/// The magic number `m` and shift `p` with `x / d == (x * m) >> p` for every 32-bit `x`,
/// and `m < 2**32` so that the product fits in 64 bits; `None` for 0, 1, powers of two
/// (shifts, which Cranelift makes) and divisors that need a 33-bit `m`.
///
/// With `m = ceil(2**p / d)` and `e = m * d - 2**p`, `x * m / 2**p = x / d + x * e / (d *
/// 2**p)`; when `e <= 2**(p - 32)` the second term is below `1 / d`, which cannot carry
/// `x / d` past the next integer. The smallest such `p` is taken (Granlund and
/// Montgomery's method, as gcc does: fasta's 139968 gets gcc's 0x1df75681 and 46).
fn magic_u32(d: u32) -> Option<(u64, u32)> {
    if d < 3 || d.is_power_of_two() {
        return None;
    }
    let d = u64::from(d);
    for p in 32..64 {
        let m = (1u64 << p).div_ceil(d);
        if m >> 32 != 0 {
            return None;
        }
        if m * d - (1u64 << p) <= 1u64 << (p - 32) {
            return Some((m, p));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::magic_u32;

    /// Every divisor up to 2**17 and some larger ones, against `/` on edge dividends
    /// (around each multiple of `d` near 0 and near 2**32) and a spread of others.
    #[test]
    fn magic_numbers_divide_exactly() {
        let mut divisors: Vec<u32> = (0..=1 << 17).collect();
        divisors.extend([139_968, 1_000_000, 0x7fff_ffff, 0x8000_0001, 0xffff_fffe, u32::MAX]);
        let mut found = 0;
        for d in divisors {
            // Left to Cranelift: 0, 1, powers of two, and divisors whose magic needs 33 bits.
            let Some((m, p)) = magic_u32(d) else { continue };
            found += 1;
            let top = u32::MAX - u32::MAX % d;
            let mut xs = vec![0, 1, d - 1, d, d + 1, top.wrapping_sub(1), top, u32::MAX, u32::MAX - 1, 1 << 31];
            xs.extend((1..64u32).map(|k| k.wrapping_mul(0x9e37_79b9) ^ d));
            for x in xs {
                assert_eq!((u64::from(x) * m) >> p, u64::from(x / d), "{x} / {d} with m={m:#x}, p={p}");
            }
        }
        // About two divisors in three below 2**17 have a 32-bit magic number.
        assert!(found > 90_000, "magic numbers found for {found} divisors");
        assert_eq!(magic_u32(139_968), Some((0x1df7_5681, 46)));
    }
}
