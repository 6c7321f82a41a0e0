//! The records of a function's constants block.

use super::state::{Ctx, FnState, arity, err, fits};
use crate::codes::constants as cc;
use crate::error::{ReadError, Rule};
use crate::ir::{ConstValue, Constant, SetType, Ty, decode_sign_rotated};
use crate::reader::listener::Item;
use pnacl_bitstream::Record;

impl FnState {
    /// A record of the constants block.
    pub(super) fn constant(
        &mut self,
        cx: &Ctx<'_>,
        r: &Record<'_, '_>,
        cur: &mut Option<Ty>,
    ) -> Result<Item, ReadError> {
        let pos = r.pos;
        if r.code == cc::SETTYPE {
            arity(r, "Set type", 1)?;
            let t = cx.value_type(pos, r.ops[0], Rule::ConstSetType, false)?;
            *cur = Some(t);
            self.body.set_types.push(SetType { before: self.body.constants.len() as u32, ty: t });
            return Ok(Item::SetType(t));
        }
        let ty = cur.ok_or_else(|| err(pos, Rule::ConstSetType, "Constant record not preceded by set type record"))?;
        let value = match r.code {
            cc::UNDEF => {
                arity(r, "Undef", 0)?;
                ConstValue::Undef
            }
            cc::INTEGER => {
                arity(r, "Integer", 1)?;
                if !ty.is_integer() {
                    return Err(err(pos, Rule::ConstInteger, format!("Integer literal of non-integer type {ty}")));
                }
                if !fits(r.ops[0], ty.bits()) {
                    return Err(err(
                        pos,
                        Rule::ConstInteger,
                        format!("Integer literal {} doesn't fit in {ty}", decode_sign_rotated(r.ops[0])),
                    ));
                }
                ConstValue::Int(r.ops[0])
            }
            cc::FLOAT => {
                arity(r, "Float", 1)?;
                if !ty.is_float() {
                    return Err(err(pos, Rule::ConstFloat, format!("Floating literal of non-float type {ty}")));
                }
                if ty == Ty::Float && r.ops[0] > u64::from(u32::MAX) {
                    return Err(err(
                        pos,
                        Rule::ConstFloat,
                        format!("Float literal bit pattern {} is wider than 32 bits", r.ops[0]),
                    ));
                }
                ConstValue::Float(r.ops[0])
            }
            code => {
                return Err(err(pos, Rule::UnknownRecord, format!("Unknown record code {code} in constants block")));
            }
        };
        let n = self.body.constants.len() as u32;
        self.body.constants.push(Constant { ty, value });
        Ok(Item::Constant(n))
    }
}
