//! Casts: integer width changes, float and integer conversions (saturating, as the
//! PNaCl ABI leaves out-of-range conversions undefined), bitcasts; scalar and vector.

use super::Translator;
use crate::clif::clif_type;
use cranelift_codegen::ir::types::*;
use cranelift_codegen::ir::{InstBuilder, Value};
use pnacl_bitcode::ir::{CastOp, Ty};

impl Translator<'_, '_, '_> {
    pub(super) fn cast(&mut self, op: CastOp, from: Ty, to: Ty, x: Value) -> Value {
        let tt = clif_type(to);
        let ft = clif_type(from);
        if from.is_vector() {
            return self.vector_cast(op, from, to, x);
        }
        let ins = self.b.ins();
        match op {
            CastOp::Trunc => {
                let v = if tt == ft { x } else { ins.ireduce(tt, x) };
                if to == Ty::I1 { self.b.ins().band_imm_s(v, 1) } else { v }
            }
            CastOp::ZExt => {
                if tt == ft {
                    x
                } else {
                    ins.uextend(tt, x)
                }
            }
            CastOp::SExt => {
                if from == Ty::I1 {
                    let v = if tt == ft { x } else { ins.uextend(tt, x) };
                    self.b.ins().ineg(v)
                } else if tt == ft {
                    x
                } else {
                    ins.sextend(tt, x)
                }
            }
            CastOp::FpToUi | CastOp::FpToSi => {
                let wide = if tt.bits() < 32 { I32 } else { tt };
                let v =
                    if op == CastOp::FpToSi { ins.fcvt_to_sint_sat(wide, x) } else { ins.fcvt_to_uint_sat(wide, x) };
                let v = if wide == tt { v } else { self.b.ins().ireduce(tt, v) };
                if to == Ty::I1 { self.b.ins().band_imm_s(v, 1) } else { v }
            }
            CastOp::UiToFp | CastOp::SiToFp => {
                let x = if ft.bits() < 32 {
                    if op == CastOp::SiToFp && from != Ty::I1 { ins.sextend(I32, x) } else { ins.uextend(I32, x) }
                } else {
                    x
                };
                if op == CastOp::SiToFp && from == Ty::I1 {
                    // i1 true is -1 as a signed number.
                    let n = self.b.ins().ineg(x);
                    self.b.ins().fcvt_from_sint(tt, n)
                } else if op == CastOp::SiToFp {
                    self.b.ins().fcvt_from_sint(tt, x)
                } else {
                    self.b.ins().fcvt_from_uint(tt, x)
                }
            }
            CastOp::FpTrunc => ins.fdemote(tt, x),
            CastOp::FpExt => ins.fpromote(tt, x),
            CastOp::Bitcast => {
                if tt == ft {
                    x
                } else {
                    self.bitcast(tt, x)
                }
            }
        }
    }

    pub(super) fn vector_cast(&mut self, op: CastOp, from: Ty, to: Ty, x: Value) -> Value {
        let tt = clif_type(to);
        let lane = tt.lane_type();
        match op {
            CastOp::ZExt if from.element() == Ty::I1 => {
                let one = self.b.ins().iconst(lane, 1);
                let ones = self.b.ins().splat(tt, one);
                self.b.ins().band(x, ones)
            }
            CastOp::SExt if from.element() == Ty::I1 => x,
            CastOp::Trunc if to.element() == Ty::I1 => self.low_bit_mask(x),
            // To i1 lanes: convert to i32 lanes, then keep the low bit as a lane mask.
            CastOp::FpToSi | CastOp::FpToUi if to.element() == Ty::I1 => {
                let v = if op == CastOp::FpToSi {
                    self.b.ins().fcvt_to_sint_sat(I32X4, x)
                } else {
                    self.b.ins().fcvt_to_uint_sat(I32X4, x)
                };
                self.low_bit_mask(v)
            }
            CastOp::FpToSi => self.b.ins().fcvt_to_sint_sat(tt, x),
            CastOp::FpToUi => self.b.ins().fcvt_to_uint_sat(tt, x),
            // From i1 lanes: a true lane (all ones) is -1 signed and 1 unsigned.
            CastOp::UiToFp if from.element() == Ty::I1 => {
                let one = self.b.ins().iconst(I32, 1);
                let ones = self.b.ins().splat(I32X4, one);
                let v = self.b.ins().band(x, ones);
                self.b.ins().fcvt_from_sint(tt, v)
            }
            CastOp::SiToFp => self.b.ins().fcvt_from_sint(tt, x),
            CastOp::UiToFp => self.b.ins().fcvt_from_uint(tt, x),
            _ => {
                if clif_type(from) == tt {
                    x
                } else {
                    self.bitcast(tt, x)
                }
            }
        }
    }
}
