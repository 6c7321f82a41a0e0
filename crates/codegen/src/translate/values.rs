//! Operands: constants, the local values the translation defines and reads (kept in stack
//! slots in setjmp mode), and their types.

use super::Translator;
use crate::clif::clif_type;
use crate::sigs::body_type;
use cranelift_codegen::ir::types::*;
use cranelift_codegen::ir::{
    Endianness, InstBuilder, MemFlagsData, StackSlot, StackSlotData, StackSlotKind, Type, Value,
};
use pnacl_bitcode::ir::{ConstValue, Inst, Ty, ValueId, ValueKind, decode_sign_rotated};

impl Translator<'_, '_, '_> {
    pub(super) fn slot(&mut self, t: Type) -> StackSlot {
        let size = t.bytes();
        self.b.create_sized_stack_slot(StackSlotData::new(
            StackSlotKind::ExplicitSlot,
            size,
            size.trailing_zeros() as u8,
        ))
    }

    pub(super) fn vmctx(&mut self) -> Value {
        match self.vmctx_slot {
            Some(s) => self.b.ins().stack_load(I64, I64, s, 0),
            None => self.vmctx,
        }
    }

    /// The value of constant `i` of the constants block.
    pub(super) fn constant(&mut self, i: usize) -> Value {
        let c = self.body.constants[i];
        let t = clif_type(c.ty);
        match c.value {
            ConstValue::Undef => self.zero(t),
            ConstValue::Int(raw) => {
                let v = decode_sign_rotated(raw);
                let v = if c.ty == Ty::I1 { v & 1 } else { v };
                self.int_const(t, v)
            }
            ConstValue::Float(bits) => {
                if c.ty == Ty::Float {
                    self.b.ins().f32const(f32::from_bits(bits as u32))
                } else {
                    self.b.ins().f64const(f64::from_bits(bits))
                }
            }
        }
    }

    pub(super) fn int_const(&mut self, t: Type, v: i64) -> Value {
        let mask = if t.bits() >= 64 { u64::MAX } else { (1u64 << t.bits()) - 1 };
        self.b.ins().iconst(t, ((v as u64) & mask) as i64)
    }

    pub(super) fn zero(&mut self, t: Type) -> Value {
        if t.is_vector() {
            let z = self.b.ins().iconst(I32, 0);
            let v = self.b.ins().splat(I32X4, z);
            if t == I32X4 {
                v
            } else {
                self.b.ins().bitcast(t, MemFlagsData::new().with_endianness(Endianness::Little), v)
            }
        } else if t == F32 {
            self.b.ins().f32const(0.0)
        } else if t == F64 {
            self.b.ins().f64const(0.0)
        } else {
            self.b.ins().iconst(t, 0)
        }
    }

    pub(super) fn local_type(&self, local: u32) -> Type {
        clif_type(self.body.local_types[local as usize])
    }

    /// Records the value of local `local` (and, in setjmp mode, stores it in its slot).
    pub(super) fn define(&mut self, local: u32, v: Value) {
        if let Some(slot) = self.slots[local as usize] {
            let t = self.local_type(local);
            self.b.ins().stack_store(I64, v, slot, 0);
            debug_assert_eq!(t, self.b.func.dfg.value_type(v));
        } else {
            self.vals[local as usize] = Some(v);
        }
    }

    /// The Cranelift value of an operand.
    pub(super) fn get(&mut self, v: ValueId) -> Result<Value, String> {
        match self.space.kind(v) {
            ValueKind::Function(_) | ValueKind::Global(_) => {
                let addr = self.env.layout.address(self.env.m, v);
                Ok(self.b.ins().iconst(I32, i64::from(addr)))
            }
            ValueKind::Const(i) if self.setjmp_mode => Ok(self.constant(i as usize)),
            _ => {
                let local = v.0 - self.fg;
                if let Some(slot) = self.slots.get(local as usize).copied().flatten() {
                    let t = self.local_type(local);
                    return Ok(self.b.ins().stack_load(I64, t, slot, 0));
                }
                self.vals
                    .get(local as usize)
                    .copied()
                    .flatten()
                    .ok_or_else(|| format!("value {} used before it is defined", v.0))
            }
        }
    }

    pub(super) fn ty(&self, v: ValueId) -> Ty {
        body_type(self.env.m, self.body, v)
    }

    /// The index of the instruction that defines `v`, if an instruction does (not for
    /// parameters, constants, functions and globals).
    pub(super) fn def_index(&self, v: ValueId) -> Option<usize> {
        let local = v.0.checked_sub(self.fg)?;
        let def = *self.defs.get(local as usize)?;
        (def != u32::MAX).then_some(def as usize)
    }

    /// The instruction that defines `v`, if an instruction does.
    pub(super) fn def_inst(&self, v: ValueId) -> Option<&Inst> {
        self.body.insts.get(self.def_index(v)?)
    }

    /// The integer value of a constant operand.
    pub(super) fn const_int(&self, v: ValueId) -> Option<i64> {
        match self.space.kind(v) {
            ValueKind::Const(i) => self.body.constants.get(i as usize)?.value.as_int(),
            _ => None,
        }
    }
}
