//! Vectors on SIMD128: `<4 x i32>`, `<8 x i16>`, `<16 x i8>` and `<4 x float>` are
//! `v128`s of that shape; the `i1` vectors are masks of the matching integer shape (every
//! lane all ones or all zeros), as wasm's comparisons make them. Division, remainder and
//! shifts (whose amounts differ by lane) go lane by lane through the scalar operations, so
//! they trap and wrap exactly as the scalar ones do.

use super::Func;
use crate::error::Refusal;
use pnacl_bitcode::ir::{BinOp, CastOp, ConstValue, Pred, Ty, ValueId, ValueKind};
use wasm_encoder::ValType;

/// The lane shape of a vector type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shape {
    I8x16,
    I16x8,
    I32x4,
    F32x4,
}

fn shape(t: Ty) -> Shape {
    match t {
        Ty::V16I8 | Ty::V16I1 => Shape::I8x16,
        Ty::V8I16 | Ty::V8I1 => Shape::I16x8,
        Ty::V4Float => Shape::F32x4,
        _ => Shape::I32x4,
    }
}

impl Shape {
    fn lanes(self) -> u8 {
        match self {
            Shape::I8x16 => 16,
            Shape::I16x8 => 8,
            _ => 4,
        }
    }

    fn lane_bits(self) -> i32 {
        match self {
            Shape::I8x16 => 8,
            Shape::I16x8 => 16,
            _ => 32,
        }
    }
}

impl Func<'_, '_> {
    /// Pushes lane `k` of the `v128` in local `l` (narrow lanes zero- or sign-extended).
    fn lane(&mut self, s: Shape, l: u32, k: u8, signed: bool) {
        let mut i = self.sink();
        i.local_get(l);
        match (s, signed) {
            (Shape::I8x16, false) => i.i8x16_extract_lane_u(k),
            (Shape::I8x16, true) => i.i8x16_extract_lane_s(k),
            (Shape::I16x8, false) => i.i16x8_extract_lane_u(k),
            (Shape::I16x8, true) => i.i16x8_extract_lane_s(k),
            (Shape::I32x4, _) => i.i32x4_extract_lane(k),
            (Shape::F32x4, _) => i.f32x4_extract_lane(k),
        };
    }

    fn replace(&mut self, s: Shape, k: u8) {
        let mut i = self.sink();
        match s {
            Shape::I8x16 => i.i8x16_replace_lane(k),
            Shape::I16x8 => i.i16x8_replace_lane(k),
            Shape::I32x4 => i.i32x4_replace_lane(k),
            Shape::F32x4 => i.f32x4_replace_lane(k),
        };
    }

    /// Shifts every lane of the vector on the stack by a constant.
    fn shift_lanes(&mut self, s: Shape, left: bool, signed: bool, by: i32) {
        let mut i = self.sink();
        i.i32_const(by);
        match (s, left, signed) {
            (Shape::I8x16, true, _) => i.i8x16_shl(),
            (Shape::I8x16, false, true) => i.i8x16_shr_s(),
            (Shape::I8x16, false, false) => i.i8x16_shr_u(),
            (Shape::I16x8, true, _) => i.i16x8_shl(),
            (Shape::I16x8, false, true) => i.i16x8_shr_s(),
            (Shape::I16x8, false, false) => i.i16x8_shr_u(),
            (_, true, _) => i.i32x4_shl(),
            (_, false, true) => i.i32x4_shr_s(),
            (_, false, false) => i.i32x4_shr_u(),
        };
    }

    pub(super) fn vector_binop(&mut self, i: usize, op: BinOp, t: Ty, a: ValueId, b: ValueId) -> Result<(), Refusal> {
        let s = shape(t);
        let lane_wise = matches!(
            op,
            BinOp::UDiv | BinOp::SDiv | BinOp::URem | BinOp::SRem | BinOp::Shl | BinOp::LShr | BinOp::AShr
        ) && s != Shape::F32x4
            || (s == Shape::F32x4 && op == BinOp::SRem);
        if lane_wise {
            return self.per_lane(op, s, a, b);
        }
        if op == BinOp::Mul && s == Shape::I8x16 {
            let (ta, tb) = (self.temp(ValType::V128), self.temp(ValType::V128));
            self.push(a)?;
            self.sink().local_set(ta);
            self.push(b)?;
            self.sink().local_set(tb);
            let mut k = self.sink();
            k.local_get(ta).local_get(tb).i16x8_extmul_low_i8x16_u();
            k.local_get(ta).local_get(tb).i16x8_extmul_high_i8x16_u();
            k.i8x16_shuffle([0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30]);
            self.free_temp(ValType::V128, ta);
            self.free_temp(ValType::V128, tb);
            return Ok(());
        }
        self.push(a)?;
        self.push(b)?;
        let mut k = self.sink();
        match (op, s) {
            (BinOp::And, _) => k.v128_and(),
            (BinOp::Or, _) => k.v128_or(),
            (BinOp::Xor, _) => k.v128_xor(),
            (BinOp::Add, Shape::I8x16) => k.i8x16_add(),
            (BinOp::Add, Shape::I16x8) => k.i16x8_add(),
            (BinOp::Add, Shape::I32x4) => k.i32x4_add(),
            (BinOp::Add, Shape::F32x4) => k.f32x4_add(),
            (BinOp::Sub, Shape::I8x16) => k.i8x16_sub(),
            (BinOp::Sub, Shape::I16x8) => k.i16x8_sub(),
            (BinOp::Sub, Shape::I32x4) => k.i32x4_sub(),
            (BinOp::Sub, Shape::F32x4) => k.f32x4_sub(),
            (BinOp::Mul, Shape::I16x8) => k.i16x8_mul(),
            (BinOp::Mul, Shape::I32x4) => k.i32x4_mul(),
            (BinOp::Mul, Shape::F32x4) => k.f32x4_mul(),
            (BinOp::SDiv, Shape::F32x4) => k.f32x4_div(),
            _ => return Err(self.refuse(i, format!("{} on {t}", op.int_name()))),
        };
        Ok(())
    }

    /// A binary operator lane by lane, through its scalar form.
    fn per_lane(&mut self, op: BinOp, s: Shape, a: ValueId, b: ValueId) -> Result<(), Refusal> {
        let (ta, tb) = (self.temp(ValType::V128), self.temp(ValType::V128));
        self.push(a)?;
        self.sink().local_set(ta);
        self.push(b)?;
        self.sink().local_set(tb);
        let signed = matches!(op, BinOp::SDiv | BinOp::SRem | BinOp::AShr);
        let narrow = s.lane_bits() < 32;
        self.sink().local_get(ta);
        for k in 0..s.lanes() {
            self.lane(s, ta, k, signed);
            self.lane(s, tb, k, signed && op != BinOp::AShr);
            let mut i = self.sink();
            if s == Shape::F32x4 {
                let b = self.temp(ValType::F32);
                let fmod = self.env.fmod;
                self.sink().local_set(b).f64_promote_f32().local_get(b).f64_promote_f32().call(fmod).f32_demote_f64();
                self.free_temp(ValType::F32, b);
                self.replace(s, k);
                continue;
            }
            if matches!(op, BinOp::Shl | BinOp::LShr | BinOp::AShr) {
                i.i32_const(s.lane_bits() - 1).i32_and();
            }
            match op {
                BinOp::UDiv => i.i32_div_u(),
                BinOp::SDiv => i.i32_div_s(),
                BinOp::URem => i.i32_rem_u(),
                BinOp::SRem => i.i32_rem_s(),
                BinOp::Shl => i.i32_shl(),
                BinOp::LShr => i.i32_shr_u(),
                _ => i.i32_shr_s(),
            };
            if op == BinOp::SDiv && narrow {
                self.narrow_overflow_check(if s == Shape::I8x16 { Ty::I8 } else { Ty::I16 });
            }
            self.replace(s, k);
        }
        self.free_temp(ValType::V128, ta);
        self.free_temp(ValType::V128, tb);
        Ok(())
    }

    pub(super) fn vector_compare(&mut self, pred: Pred, t: Ty, a: ValueId, b: ValueId) -> Result<(), Refusal> {
        let s = shape(t);
        if pred.is_integer() {
            self.push(a)?;
            self.push(b)?;
            let mut k = self.sink();
            macro_rules! int_cmp {
                ($eq:ident, $ne:ident, $gtu:ident, $geu:ident, $ltu:ident, $leu:ident, $gts:ident, $ges:ident, $lts:ident, $les:ident) => {
                    match pred.0 {
                        32 => k.$eq(),
                        33 => k.$ne(),
                        34 => k.$gtu(),
                        35 => k.$geu(),
                        36 => k.$ltu(),
                        37 => k.$leu(),
                        38 => k.$gts(),
                        39 => k.$ges(),
                        40 => k.$lts(),
                        _ => k.$les(),
                    }
                };
            }
            match s {
                Shape::I8x16 => int_cmp!(
                    i8x16_eq, i8x16_ne, i8x16_gt_u, i8x16_ge_u, i8x16_lt_u, i8x16_le_u, i8x16_gt_s, i8x16_ge_s,
                    i8x16_lt_s, i8x16_le_s
                ),
                Shape::I16x8 => int_cmp!(
                    i16x8_eq, i16x8_ne, i16x8_gt_u, i16x8_ge_u, i16x8_lt_u, i16x8_le_u, i16x8_gt_s, i16x8_ge_s,
                    i16x8_lt_s, i16x8_le_s
                ),
                _ => int_cmp!(
                    i32x4_eq, i32x4_ne, i32x4_gt_u, i32x4_ge_u, i32x4_lt_u, i32x4_le_u, i32x4_gt_s, i32x4_ge_s,
                    i32x4_lt_s, i32x4_le_s
                ),
            };
            return Ok(());
        }
        let (ta, tb) = (self.temp(ValType::V128), self.temp(ValType::V128));
        self.push(a)?;
        self.sink().local_set(ta);
        self.push(b)?;
        self.sink().local_set(tb);
        let mut k = self.sink();
        match pred.0 {
            0 => k.v128_const(0),
            15 => k.v128_const(-1),
            1 => k.local_get(ta).local_get(tb).f32x4_eq(),
            2 => k.local_get(ta).local_get(tb).f32x4_gt(),
            3 => k.local_get(ta).local_get(tb).f32x4_ge(),
            4 => k.local_get(ta).local_get(tb).f32x4_lt(),
            5 => k.local_get(ta).local_get(tb).f32x4_le(),
            6 => k.local_get(ta).local_get(tb).f32x4_lt().local_get(ta).local_get(tb).f32x4_gt().v128_or(),
            7 => k.local_get(ta).local_get(ta).f32x4_eq().local_get(tb).local_get(tb).f32x4_eq().v128_and(),
            8 => k.local_get(ta).local_get(ta).f32x4_ne().local_get(tb).local_get(tb).f32x4_ne().v128_or(),
            9 => k.local_get(ta).local_get(tb).f32x4_lt().local_get(ta).local_get(tb).f32x4_gt().v128_or().v128_not(),
            10 => k.local_get(ta).local_get(tb).f32x4_le().v128_not(),
            11 => k.local_get(ta).local_get(tb).f32x4_lt().v128_not(),
            12 => k.local_get(ta).local_get(tb).f32x4_ge().v128_not(),
            13 => k.local_get(ta).local_get(tb).f32x4_gt().v128_not(),
            _ => k.local_get(ta).local_get(tb).f32x4_ne(),
        };
        self.free_temp(ValType::V128, ta);
        self.free_temp(ValType::V128, tb);
        Ok(())
    }

    pub(super) fn vector_cast(&mut self, i: usize, op: CastOp, val: ValueId, from: Ty, to: Ty) -> Result<(), Refusal> {
        let bad = |this: &Self| Err(this.refuse(i, format!("{} of {from} to {to}", op.name())));
        match op {
            CastOp::Trunc if to.element() == Ty::I1 => {
                self.push(val)?;
                let s = shape(from);
                self.shift_lanes(s, true, false, s.lane_bits() - 1);
                self.shift_lanes(s, false, true, s.lane_bits() - 1);
            }
            CastOp::ZExt if from.element() == Ty::I1 => {
                self.push(val)?;
                let s = shape(to);
                self.shift_lanes(s, false, false, s.lane_bits() - 1);
            }
            CastOp::SExt if from.element() == Ty::I1 => self.push(val)?,
            CastOp::FpToSi | CastOp::FpToUi if from == Ty::V4Float => {
                self.push(val)?;
                if op == CastOp::FpToSi {
                    self.sink().i32x4_trunc_sat_f32x4_s();
                } else {
                    self.sink().i32x4_trunc_sat_f32x4_u();
                }
                if to == Ty::V4I1 {
                    self.shift_lanes(Shape::I32x4, true, false, 31);
                    self.shift_lanes(Shape::I32x4, false, true, 31);
                } else if to != Ty::V4I32 {
                    return bad(self);
                }
            }
            CastOp::SiToFp | CastOp::UiToFp if to == Ty::V4Float => {
                self.push(val)?;
                if from == Ty::V4I1 && op == CastOp::UiToFp {
                    self.shift_lanes(Shape::I32x4, false, false, 31);
                } else if from != Ty::V4I32 && from != Ty::V4I1 {
                    return bad(self);
                }
                if op == CastOp::SiToFp {
                    self.sink().f32x4_convert_i32x4_s();
                } else {
                    self.sink().f32x4_convert_i32x4_u();
                }
            }
            CastOp::Bitcast if from.is_vector() && to.is_vector() && from.bits() == 128 && to.bits() == 128 => {
                self.push(val)?
            }
            CastOp::Bitcast if from == to => self.push(val)?,
            CastOp::Bitcast if from == Ty::V8I1 && to == Ty::I8 => {
                self.push(val)?;
                self.sink().i16x8_bitmask();
            }
            CastOp::Bitcast if from == Ty::V16I1 && to == Ty::I16 => {
                self.push(val)?;
                self.sink().i8x16_bitmask();
            }
            CastOp::Bitcast if from == Ty::I8 && to == Ty::V8I1 => {
                self.push(val)?;
                let bits: u128 = (0..8).map(|k| (1u128 << k) << (16 * k)).sum();
                let mut s = self.sink();
                s.i16x8_splat().v128_const(bits as i128).v128_and().v128_const(0).i16x8_ne();
            }
            CastOp::Bitcast if from == Ty::I16 && to == Ty::V16I1 => {
                let t = self.temp(ValType::I32);
                self.push(val)?;
                let bits: u128 = (0..16).map(|k| (1u128 << (k % 8)) << (8 * k)).sum();
                let mut s = self.sink();
                s.local_tee(t).i8x16_splat().local_get(t).i32_const(8).i32_shr_u().i8x16_splat();
                s.i8x16_shuffle([0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23]);
                s.v128_const(bits as i128).v128_and().v128_const(0).i8x16_ne();
                self.free_temp(ValType::I32, t);
            }
            _ => return bad(self),
        }
        Ok(())
    }

    /// The lane number of a constant index.
    fn lane_index(&self, i: usize, index: ValueId, t: Ty) -> Result<u8, Refusal> {
        let k = match self.space.kind(index) {
            ValueKind::Const(c) => match self.body.constants.get(c as usize).map(|c| c.value) {
                Some(ConstValue::Int(_)) => self.body.constants[c as usize].value.as_int(),
                _ => None,
            },
            _ => None,
        };
        match k {
            Some(k) if (0..i64::from(t.lanes())).contains(&k) => Ok(k as u8),
            Some(k) => Err(self.refuse(i, format!("vector index {k} out of range"))),
            None => Err(self.refuse(i, "vector index not constant")),
        }
    }

    pub(super) fn extract(&mut self, i: usize, vector: ValueId, index: ValueId) -> Result<(), Refusal> {
        let t = self.ty(vector);
        let k = self.lane_index(i, index, t)?;
        let l = self.temp(ValType::V128);
        self.push(vector)?;
        self.sink().local_set(l);
        self.lane(shape(t), l, k, false);
        self.free_temp(ValType::V128, l);
        Ok(())
    }

    pub(super) fn insert(
        &mut self,
        i: usize,
        vector: ValueId,
        element: ValueId,
        index: ValueId,
    ) -> Result<(), Refusal> {
        let t = self.ty(vector);
        let k = self.lane_index(i, index, t)?;
        self.push(vector)?;
        if t.element() == Ty::I1 {
            self.sink().i32_const(0);
            self.push_zext(element)?;
            self.sink().i32_sub();
        } else {
            self.push(element)?;
        }
        self.replace(shape(t), k);
        Ok(())
    }
}
