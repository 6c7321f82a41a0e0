//! Vector helpers: lanes, `i1` lane masks, and the lane-wise operations Cranelift lacks.

use super::Translator;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::*;
use cranelift_codegen::ir::{Endianness, InstBuilder, MemFlagsData, Type, Value};
use pnacl_bitcode::ir::{Ty, ValueId, ValueKind};

impl Translator<'_, '_, '_> {
    pub(super) fn bitcast(&mut self, t: Type, v: Value) -> Value {
        self.b.ins().bitcast(t, MemFlagsData::new().with_endianness(Endianness::Little), v)
    }

    /// An i1 vector lane (all ones or zeros) as an `i1` (0 or 1).
    pub(super) fn mask_to_bool(&mut self, x: Value) -> Value {
        let one = self.b.ins().band_imm_s(x, 1);
        let t = self.b.func.dfg.value_type(one);
        if t == I8 { one } else { self.b.ins().ireduce(I8, one) }
    }

    /// An `i1` (0 or 1) as an i1 vector lane of type `lane`.
    pub(super) fn bool_to_lane(&mut self, e: Value, lane: Type) -> Value {
        let e = if lane == I8 { e } else { self.b.ins().uextend(lane, e) };
        self.b.ins().ineg(e)
    }

    pub(super) fn lane(&self, index: ValueId, vt: Ty) -> Result<u8, String> {
        match self.space.kind(index) {
            ValueKind::Const(i) => {
                let v = self.body.constants[i as usize].value.as_int().ok_or("vector index not an integer")?;
                if v < 0 || v >= i64::from(vt.lanes()) {
                    return Err(format!("vector index {v} out of range"));
                }
                Ok(v as u8)
            }
            _ => Err("vector index not constant".into()),
        }
    }

    /// `mul <16 x i8>`, which Cranelift's x86 backend lacks: multiplies the halves as
    /// `<8 x i16>` and keeps the low byte of each product.
    pub(super) fn mul_i8x16(&mut self, a: Value, c: Value) -> Value {
        let ff = self.b.ins().iconst(I16, 0xff);
        let mask = self.b.ins().splat(I16X8, ff);
        let mut halves = [a; 2];
        for (i, half) in halves.iter_mut().enumerate() {
            let (x, y) = if i == 0 {
                (self.b.ins().uwiden_low(a), self.b.ins().uwiden_low(c))
            } else {
                (self.b.ins().uwiden_high(a), self.b.ins().uwiden_high(c))
            };
            let p = self.b.ins().imul(x, y);
            *half = self.b.ins().band(p, mask);
        }
        // Every lane is in 0..=255, so the saturating narrow keeps it as is.
        self.b.ins().unarrow(halves[0], halves[1])
    }

    /// A vector of `i1` lanes (all ones or zeros) from integer lanes: the low bit of each.
    pub(super) fn low_bit_mask(&mut self, x: Value) -> Value {
        let t = self.b.func.dfg.value_type(x);
        let one = self.b.ins().iconst(t.lane_type(), 1);
        let ones = self.b.ins().splat(t, one);
        let low = self.b.ins().band(x, ones);
        self.b.ins().icmp(IntCC::Equal, low, ones)
    }

    /// Applies a scalar operation lane by lane.
    pub(super) fn per_lane(
        &mut self,
        t: Ty,
        a: Value,
        c: Value,
        mut f: impl FnMut(&mut Self, Value, Value) -> Result<Value, String>,
    ) -> Result<Value, String> {
        let mut out = a;
        for lane in 0..t.lanes() as u8 {
            let x = self.b.ins().extractlane(a, lane);
            let y = self.b.ins().extractlane(c, lane);
            let r = f(self, x, y)?;
            out = self.b.ins().insertlane(out, r, lane);
        }
        Ok(out)
    }
}
