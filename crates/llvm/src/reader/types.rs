//! The type table block (`TYPE_BLOCK_ID_NEW`).

use super::error::ReadError;
use super::records::{Item, Rec, next};
use crate::ir::{StructType, Type, TypeId, Types};
use pnacl_bitstream::Cursor;

/// Reads the type block the cursor is in; returns the model type of each bitcode type index.
pub(super) fn read_types(c: &mut Cursor<'_>, types: &mut Types) -> Result<Vec<TypeId>, ReadError> {
    let mut recs = Vec::new();
    let mut pending_name: Option<String> = None;
    loop {
        match next(c)? {
            Item::End => break,
            Item::Block(_) => c.skip_block()?,
            Item::Record(r) => match r.code {
                1 => {} // NUMENTRY: only a size hint.
                19 => pending_name = Some(r.string(0)),
                _ => {
                    let name = if matches!(r.code, 6 | 20) { pending_name.take() } else { None };
                    recs.push((r, name));
                }
            },
        }
    }
    let mut b = Builder { recs: &recs, ids: vec![None; recs.len()], busy: vec![false; recs.len()], types };
    // Named structs exist before anything refers to them; their bodies come last.
    for (i, (r, name)) in recs.iter().enumerate() {
        if matches!(r.code, 6 | 20) {
            b.ids[i] = Some(b.types.named_struct(name.clone().unwrap_or_default()));
        }
    }
    let ids = (0..recs.len()).map(|i| b.resolve(i, &recs[i].0)).collect::<Result<Vec<_>, _>>()?;
    for (i, (r, _)) in recs.iter().enumerate() {
        if r.code == 20 {
            let mut fields = Vec::new();
            for k in 1..r.ops.len() {
                fields.push(b.operand(r, k)?);
            }
            b.types.set_struct_body(ids[i], fields, r.op(0)? != 0);
        }
    }
    Ok(ids)
}

struct Builder<'r, 't> {
    recs: &'r [(Rec, Option<String>)],
    ids: Vec<Option<TypeId>>,
    busy: Vec<bool>,
    types: &'t mut Types,
}

impl Builder<'_, '_> {
    fn operand(&mut self, r: &Rec, i: usize) -> Result<TypeId, ReadError> {
        let idx = r.op(i)? as usize;
        let target = self.recs.get(idx).ok_or_else(|| r.error(format!("type index {idx} is out of range")))?;
        self.resolve(idx, &target.0)
    }

    fn resolve(&mut self, i: usize, r: &Rec) -> Result<TypeId, ReadError> {
        if let Some(id) = self.ids[i] {
            return Ok(id);
        }
        if self.busy[i] {
            return Err(r.error("a type refers to itself other than through a named struct"));
        }
        self.busy[i] = true;
        let name = self.recs[i].1.clone();
        let t = match r.code {
            2 => Type::Void,
            3 => Type::Float,
            4 => Type::Double,
            5 => Type::Label,
            10 => Type::Half,
            13 => Type::X86Fp80,
            14 => Type::Fp128,
            15 => Type::PpcFp128,
            16 => Type::Metadata,
            17 => Type::X86Mmx,
            22 => Type::Token,
            23 => Type::BFloat,
            24 => Type::X86Amx,
            7 => {
                let w = r.op32(0)?;
                if w == 0 || w > (1 << 23) {
                    return Err(r.error(format!("invalid integer width {w}")));
                }
                Type::Int(w)
            }
            8 => {
                let pointee = self.operand(r, 0)?;
                Type::Pointer { pointee: Some(pointee), addr_space: r.get(1).unwrap_or(0) as u32 }
            }
            25 => Type::Pointer { pointee: None, addr_space: r.get(0).unwrap_or(0) as u32 },
            9 | 21 => {
                // FUNCTION_OLD: [vararg, attrid, ret, params...]; FUNCTION: [vararg, ret, params...].
                let first = if r.code == 9 { 2 } else { 1 };
                let ret = self.operand(r, first)?;
                let mut params = Vec::new();
                for k in first + 1..r.ops.len() {
                    params.push(self.operand(r, k)?);
                }
                Type::Function { ret, params, vararg: r.op(0)? != 0 }
            }
            11 => Type::Array { len: r.op(0)?, elem: self.operand(r, 1)? },
            12 => {
                let len = r.op32(0)?;
                Type::Vector { len, elem: self.operand(r, 1)?, scalable: r.get(2).is_some_and(|s| s != 0) }
            }
            18 => {
                let mut fields = Vec::new();
                for k in 1..r.ops.len() {
                    fields.push(self.operand(r, k)?);
                }
                Type::Struct(StructType { name: None, fields, packed: r.op(0)? != 0, opaque: false })
            }
            6 | 20 => {
                let _ = name;
                unreachable!("named structs are created before resolving")
            }
            26 => return Err(r.error("target extension types are not supported")),
            other => return Err(r.error(format!("unknown type record {other}"))),
        };
        let id = self.types.intern(t);
        self.ids[i] = Some(id);
        self.busy[i] = false;
        Ok(id)
    }
}
