//! Instructions that compute values: binary operators, comparisons, casts and selects on
//! scalars (vectors in [`super::vector`]), with PNaCl's semantics: shift amounts modulo
//! the width, division by zero trapping, `sdiv` of the minimum by -1 trapping at every
//! width, `srem` of it giving 0, saturating float-to-integer conversions.

use super::Func;
use crate::error::Refusal;
use pnacl_bitcode::ir::{BinOp, CastOp, Inst, Pred, Ty, ValueId};
use wasm_encoder::ValType;

impl Func<'_, '_> {
    /// Emits instruction `i`, leaving its result (if any) on the stack.
    pub(super) fn expr(&mut self, i: usize) -> Result<(), Refusal> {
        match self.body.insts[i] {
            Inst::Binop { op, lhs, rhs, .. } => self.binop(i, op, lhs, rhs),
            Inst::Cast { op, val, to } => self.cast(i, op, val, to),
            Inst::Cmp { pred, lhs, rhs } => self.compare(pred, lhs, rhs),
            Inst::Select { cond, on_true, on_false } => {
                self.push(on_true)?;
                self.push(on_false)?;
                if self.ty(cond).is_vector() {
                    self.push(cond)?;
                    self.sink().v128_bitselect();
                } else {
                    self.push_zext(cond)?;
                    self.sink().select();
                }
                Ok(())
            }
            Inst::ExtractElement { vector, index } => self.extract(i, vector, index),
            Inst::InsertElement { vector, element, index } => self.insert(i, vector, element, index),
            Inst::Alloca { size, align } => self.dynamic_alloca(size, align.bytes()),
            Inst::Load { ptr, ty, align } => self.load(ptr, ty, align.bytes()),
            Inst::Store { ptr, val, align } => self.store(ptr, val, align.bytes()),
            Inst::Call { callee, indirect_ret, args, .. } => self.call(i, callee, indirect_ret, args),
            _ => Err(self.refuse(i, "not an instruction that computes a value")),
        }
    }

    /// Whether instruction `i`'s result (a narrow integer) is zero above its width, from
    /// its operands'.
    pub(super) fn result_is_clean(&self, i: usize) -> bool {
        match self.body.insts[i] {
            Inst::Cmp { .. } | Inst::Load { .. } => true,
            Inst::Binop { op, lhs, rhs, .. } => match op {
                BinOp::And => self.is_clean(lhs) || self.is_clean(rhs),
                BinOp::Or | BinOp::Xor => self.is_clean(lhs) && self.is_clean(rhs),
                BinOp::UDiv | BinOp::URem | BinOp::LShr => true,
                _ => false,
            },
            Inst::Cast { op, val, to } => match op {
                CastOp::ZExt => true,
                CastOp::Bitcast => self.ty(val).is_vector() && !to.is_vector(),
                _ => false,
            },
            Inst::Select { on_true, on_false, .. } => self.is_clean(on_true) && self.is_clean(on_false),
            Inst::ExtractElement { vector, .. } => self.ty(vector).element() != Ty::I1,
            Inst::Call { callee, indirect_ret: None, .. } => self.env.intrinsic(callee.0).is_some_and(|i| {
                use pnacl_bitcode::abi::IntrinsicKind as K;
                matches!(i.kind, K::AtomicLoad | K::AtomicRmw | K::AtomicCmpxchg)
            }),
            _ => false,
        }
    }

    fn binop(&mut self, i: usize, op: BinOp, lhs: ValueId, rhs: ValueId) -> Result<(), Refusal> {
        let t = self.ty(lhs);
        if t.is_vector() {
            return self.vector_binop(i, op, t, lhs, rhs);
        }
        if t.is_float() {
            self.push(lhs)?;
            self.push(rhs)?;
            let double = t == Ty::Double;
            let mut s = self.sink();
            match (op, double) {
                (BinOp::Add, false) => s.f32_add(),
                (BinOp::Add, true) => s.f64_add(),
                (BinOp::Sub, false) => s.f32_sub(),
                (BinOp::Sub, true) => s.f64_sub(),
                (BinOp::Mul, false) => s.f32_mul(),
                (BinOp::Mul, true) => s.f64_mul(),
                (BinOp::SDiv, false) => s.f32_div(),
                (BinOp::SDiv, true) => s.f64_div(),
                (BinOp::SRem, _) => return self.fmod(double),
                _ => return Err(self.refuse(i, format!("{} is not defined on {t}", op.int_name()))),
            };
            return Ok(());
        }
        let wide = t == Ty::I64;
        let narrow = t.bits() < 32;
        match op {
            BinOp::LShr | BinOp::UDiv | BinOp::URem => {
                self.push_zext(lhs)?;
                self.push_zext(rhs)?;
            }
            BinOp::AShr | BinOp::SDiv | BinOp::SRem => {
                self.push_sext(lhs)?;
                if matches!(op, BinOp::AShr) {
                    self.push(rhs)?;
                } else {
                    self.push_sext(rhs)?;
                }
            }
            _ => {
                self.push(lhs)?;
                self.push(rhs)?;
            }
        }
        if matches!(op, BinOp::Shl | BinOp::LShr | BinOp::AShr) && narrow {
            self.sink().i32_const(t.bits() as i32 - 1).i32_and();
        }
        let mut s = self.sink();
        if wide {
            match op {
                BinOp::Add => s.i64_add(),
                BinOp::Sub => s.i64_sub(),
                BinOp::Mul => s.i64_mul(),
                BinOp::UDiv => s.i64_div_u(),
                BinOp::SDiv => s.i64_div_s(),
                BinOp::URem => s.i64_rem_u(),
                BinOp::SRem => s.i64_rem_s(),
                BinOp::Shl => s.i64_shl(),
                BinOp::LShr => s.i64_shr_u(),
                BinOp::AShr => s.i64_shr_s(),
                BinOp::And => s.i64_and(),
                BinOp::Or => s.i64_or(),
                BinOp::Xor => s.i64_xor(),
            };
        } else {
            match op {
                BinOp::Add => s.i32_add(),
                BinOp::Sub => s.i32_sub(),
                BinOp::Mul => s.i32_mul(),
                BinOp::UDiv => s.i32_div_u(),
                BinOp::SDiv => s.i32_div_s(),
                BinOp::URem => s.i32_rem_u(),
                BinOp::SRem => s.i32_rem_s(),
                BinOp::Shl => s.i32_shl(),
                BinOp::LShr => s.i32_shr_u(),
                BinOp::AShr => s.i32_shr_s(),
                BinOp::And => s.i32_and(),
                BinOp::Or => s.i32_or(),
                BinOp::Xor => s.i32_xor(),
            };
        }
        if op == BinOp::SDiv && narrow {
            // The one quotient of sign-extended narrow operands that does not fit their
            // width is -MIN, from MIN / -1: that traps, as at every width.
            self.narrow_overflow_check(t);
        }
        Ok(())
    }

    /// Traps with "integer overflow" if the `i32` quotient on the stack is `-MIN` of the
    /// narrow type `t` (leaving it on the stack).
    pub(super) fn narrow_overflow_check(&mut self, t: Ty) {
        let q = self.temp(ValType::I32);
        let mut s = self.sink();
        s.local_tee(q).i32_const(1 << (t.bits() - 1)).i32_eq();
        s.if_(wasm_encoder::BlockType::Empty);
        // The native overflow trap: INT_MIN / -1.
        s.i32_const(i32::MIN).i32_const(-1).i32_div_s().drop();
        s.end().local_get(q);
        self.free_temp(ValType::I32, q);
    }

    /// `frem`: C's `fmod`, from the host (exact for `float` too, computed in `double`).
    fn fmod(&mut self, double: bool) -> Result<(), Refusal> {
        let fmod = self.env.fmod;
        if double {
            self.sink().call(fmod);
        } else {
            // Both operands are on the stack: widen the second, then the first.
            let b = self.temp(ValType::F32);
            self.sink().local_set(b).f64_promote_f32().local_get(b).f64_promote_f32().call(fmod).f32_demote_f64();
            self.free_temp(ValType::F32, b);
        }
        Ok(())
    }

    fn compare(&mut self, pred: Pred, lhs: ValueId, rhs: ValueId) -> Result<(), Refusal> {
        let t = self.ty(lhs);
        if t.is_vector() {
            return self.vector_compare(pred, t, lhs, rhs);
        }
        if pred.is_integer() {
            let signed = matches!(pred.0, 38..=41);
            if signed {
                self.push_sext(lhs)?;
                self.push_sext(rhs)?;
            } else {
                self.push_zext(lhs)?;
                self.push_zext(rhs)?;
            }
            let mut s = self.sink();
            if t == Ty::I64 {
                match pred.0 {
                    32 => s.i64_eq(),
                    33 => s.i64_ne(),
                    34 => s.i64_gt_u(),
                    35 => s.i64_ge_u(),
                    36 => s.i64_lt_u(),
                    37 => s.i64_le_u(),
                    38 => s.i64_gt_s(),
                    39 => s.i64_ge_s(),
                    40 => s.i64_lt_s(),
                    _ => s.i64_le_s(),
                };
            } else {
                match pred.0 {
                    32 => s.i32_eq(),
                    33 => s.i32_ne(),
                    34 => s.i32_gt_u(),
                    35 => s.i32_ge_u(),
                    36 => s.i32_lt_u(),
                    37 => s.i32_le_u(),
                    38 => s.i32_gt_s(),
                    39 => s.i32_ge_s(),
                    40 => s.i32_lt_s(),
                    _ => s.i32_le_s(),
                };
            }
            return Ok(());
        }
        let double = t == Ty::Double;
        let ft = if double { ValType::F64 } else { ValType::F32 };
        match pred.0 {
            0 | 15 => {
                self.sink().i32_const(i32::from(pred.0 == 15));
                return Ok(());
            }
            1..=5 | 14 => {
                self.push(lhs)?;
                self.push(rhs)?;
                let op = match pred.0 {
                    1 => FCmp::Eq,
                    2 => FCmp::Gt,
                    3 => FCmp::Ge,
                    4 => FCmp::Lt,
                    5 => FCmp::Le,
                    _ => FCmp::Ne,
                };
                self.fcmp(double, op);
                return Ok(());
            }
            _ => {}
        }
        // The rest read each operand twice.
        let (a, b) = (self.temp(ft), self.temp(ft));
        self.push(lhs)?;
        self.sink().local_set(a);
        self.push(rhs)?;
        self.sink().local_set(b);
        let both = |this: &mut Self, op1: FCmp, op2: FCmp, join: fn(&mut wasm_encoder::InstructionSink<'_>)| {
            this.sink().local_get(a).local_get(b);
            this.fcmp(double, op1);
            this.sink().local_get(a).local_get(b);
            this.fcmp(double, op2);
            join(&mut this.sink());
        };
        match pred.0 {
            // one: ordered and unequal.
            6 => both(self, FCmp::Lt, FCmp::Gt, |s| {
                s.i32_or();
            }),
            // ord, uno.
            7 | 8 => {
                self.sink().local_get(a).local_get(a);
                self.fcmp(double, FCmp::Eq);
                self.sink().local_get(b).local_get(b);
                self.fcmp(double, FCmp::Eq);
                self.sink().i32_and();
                if pred.0 == 8 {
                    self.sink().i32_eqz();
                }
            }
            // ueq: not one.
            9 => both(self, FCmp::Lt, FCmp::Gt, |s| {
                s.i32_or().i32_eqz();
            }),
            // ugt, uge, ult, ule: the negation of the ordered opposite.
            _ => {
                let op = match pred.0 {
                    10 => FCmp::Le,
                    11 => FCmp::Lt,
                    12 => FCmp::Ge,
                    _ => FCmp::Gt,
                };
                self.sink().local_get(a).local_get(b);
                self.fcmp(double, op);
                self.sink().i32_eqz();
            }
        }
        self.free_temp(ft, a);
        self.free_temp(ft, b);
        Ok(())
    }

    fn fcmp(&mut self, double: bool, op: FCmp) {
        let mut s = self.sink();
        match (op, double) {
            (FCmp::Eq, false) => s.f32_eq(),
            (FCmp::Ne, false) => s.f32_ne(),
            (FCmp::Lt, false) => s.f32_lt(),
            (FCmp::Gt, false) => s.f32_gt(),
            (FCmp::Le, false) => s.f32_le(),
            (FCmp::Ge, false) => s.f32_ge(),
            (FCmp::Eq, true) => s.f64_eq(),
            (FCmp::Ne, true) => s.f64_ne(),
            (FCmp::Lt, true) => s.f64_lt(),
            (FCmp::Gt, true) => s.f64_gt(),
            (FCmp::Le, true) => s.f64_le(),
            (FCmp::Ge, true) => s.f64_ge(),
        };
    }

    fn cast(&mut self, i: usize, op: CastOp, val: ValueId, to: Ty) -> Result<(), Refusal> {
        let from = self.ty(val);
        if from.is_vector() || to.is_vector() {
            return self.vector_cast(i, op, val, from, to);
        }
        match op {
            CastOp::Trunc => {
                self.push(val)?;
                if from == Ty::I64 {
                    self.sink().i32_wrap_i64();
                }
            }
            CastOp::ZExt => {
                self.push_zext(val)?;
                if to == Ty::I64 && from != Ty::I64 {
                    self.sink().i64_extend_i32_u();
                }
            }
            CastOp::SExt => {
                self.push_sext(val)?;
                if to == Ty::I64 && from != Ty::I64 {
                    self.sink().i64_extend_i32_s();
                }
            }
            CastOp::FpToSi | CastOp::FpToUi => {
                self.push(val)?;
                let signed = op == CastOp::FpToSi;
                let mut s = self.sink();
                match (to == Ty::I64, from == Ty::Double, signed) {
                    (false, false, true) => s.i32_trunc_sat_f32_s(),
                    (false, false, false) => s.i32_trunc_sat_f32_u(),
                    (false, true, true) => s.i32_trunc_sat_f64_s(),
                    (false, true, false) => s.i32_trunc_sat_f64_u(),
                    (true, false, true) => s.i64_trunc_sat_f32_s(),
                    (true, false, false) => s.i64_trunc_sat_f32_u(),
                    (true, true, true) => s.i64_trunc_sat_f64_s(),
                    (true, true, false) => s.i64_trunc_sat_f64_u(),
                };
            }
            CastOp::SiToFp | CastOp::UiToFp => {
                let signed = op == CastOp::SiToFp;
                if signed {
                    self.push_sext(val)?;
                } else {
                    self.push_zext(val)?;
                }
                let mut s = self.sink();
                match (from == Ty::I64, to == Ty::Double, signed) {
                    (false, false, true) => s.f32_convert_i32_s(),
                    (false, false, false) => s.f32_convert_i32_u(),
                    (false, true, true) => s.f64_convert_i32_s(),
                    (false, true, false) => s.f64_convert_i32_u(),
                    (true, false, true) => s.f32_convert_i64_s(),
                    (true, false, false) => s.f32_convert_i64_u(),
                    (true, true, true) => s.f64_convert_i64_s(),
                    (true, true, false) => s.f64_convert_i64_u(),
                };
            }
            CastOp::FpTrunc => {
                self.push(val)?;
                self.sink().f32_demote_f64();
            }
            CastOp::FpExt => {
                self.push(val)?;
                self.sink().f64_promote_f32();
            }
            CastOp::Bitcast => {
                self.push(val)?;
                let mut s = self.sink();
                match (from, to) {
                    (Ty::I32, Ty::Float) => {
                        s.f32_reinterpret_i32();
                    }
                    (Ty::Float, Ty::I32) => {
                        s.i32_reinterpret_f32();
                    }
                    (Ty::I64, Ty::Double) => {
                        s.f64_reinterpret_i64();
                    }
                    (Ty::Double, Ty::I64) => {
                        s.i64_reinterpret_f64();
                    }
                    (a, b) if a == b => {}
                    _ => return Err(self.refuse(i, format!("bitcast of {from} to {to}"))),
                }
            }
        }
        Ok(())
    }
}

/// A floating-point comparison wasm has.
#[derive(Clone, Copy)]
enum FCmp {
    Eq,
    Ne,
    Lt,
    Gt,
    Le,
    Ge,
}
