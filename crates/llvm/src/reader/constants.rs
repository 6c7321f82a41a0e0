//! Constants: the value slots that hold them, read lazily from their records so that a
//! constant may refer to one defined later, uniqued as LLVM uniques them.

use super::error::ReadError;
use super::records::{Item, Rec, next, sign_rotated};
use crate::ir::{
    AsmId, BinaryOp, CastOp, Const, ConstId, ExprOp, FloatPred, InlineAsm, IntPred, Module, Type, TypeId, Value,
};
use pnacl_bitstream::Cursor;

/// A value number's slot.
#[derive(Clone, Debug)]
pub(super) enum Slot {
    /// Known.
    Ready(Value),
    /// A constant record not built yet, with the type its SETTYPE gave it.
    Lazy(TypeId, Box<Rec>),
    /// Being built (a cycle check).
    Busy,
}

/// The value list: module values, then the current function's.
#[derive(Default)]
pub(super) struct Values {
    pub slots: Vec<Slot>,
}

/// Reads a constants block into `values`, each record a lazy slot.
pub(super) fn read_block(
    c: &mut Cursor<'_>,
    values: &mut Values,
    types: &[TypeId],
    m: &mut Module,
) -> Result<(), ReadError> {
    let mut cur: Option<TypeId> = None;
    loop {
        match next(c)? {
            Item::End => return Ok(()),
            Item::Block(_) => c.skip_block()?,
            Item::Record(r) => {
                if r.code == 1 {
                    let t = r.op(0)? as usize;
                    cur = Some(*types.get(t).ok_or_else(|| r.error(format!("type index {t} is out of range")))?);
                    continue;
                }
                let ty = match cur {
                    Some(t) => t,
                    None => m.types.int(32),
                };
                values.slots.push(Slot::Lazy(ty, Box::new(r)));
            }
        }
    }
}

/// Builds constants from their records.
pub(super) struct Resolver<'a> {
    pub m: &'a mut Module,
    pub types: &'a [TypeId],
}

impl Resolver<'_> {
    fn ty(&self, r: &Rec, i: usize) -> Result<TypeId, ReadError> {
        let t = r.op(i)? as usize;
        self.types.get(t).copied().ok_or_else(|| r.error(format!("type index {t} is out of range")))
    }

    /// The value in slot `id`, building a lazy constant if need be.
    pub fn value(&mut self, values: &mut Values, id: u64) -> Result<Option<Value>, ReadError> {
        let Some(slot) = values.slots.get_mut(id as usize) else { return Ok(None) };
        match std::mem::replace(slot, Slot::Busy) {
            Slot::Ready(v) => {
                values.slots[id as usize] = Slot::Ready(v);
                Ok(Some(v))
            }
            Slot::Busy => Err(ReadError::at(0, format!("constant {id} refers to itself"))),
            Slot::Lazy(ty, rec) => {
                let v = match self.build(values, ty, &rec) {
                    Ok(v) => v,
                    Err(e) => {
                        values.slots[id as usize] = Slot::Lazy(ty, rec);
                        return Err(e);
                    }
                };
                values.slots[id as usize] = Slot::Ready(v);
                Ok(Some(v))
            }
        }
    }

    /// The constant in slot `id`.
    fn constant(&mut self, values: &mut Values, r: &Rec, id: u64) -> Result<ConstId, ReadError> {
        match self.value(values, id)? {
            Some(Value::Const(c)) => Ok(c),
            _ => Err(r.error(format!("constant operand {id} is not a constant"))),
        }
    }

    fn int(&mut self, ty: TypeId, v: u64) -> ConstId {
        let w = self.m.types.get(ty).int_width().unwrap_or(64);
        self.m.consts.int(ty, w.min(64), v)
    }

    /// LLVM's null value of `ty`.
    fn null(&mut self, ty: TypeId) -> ConstId {
        let c = match self.m.types.get(ty) {
            Type::Int(w) if *w <= 64 => return self.int(ty, 0),
            Type::Int(w) => Const::WideInt { ty, words: vec![0; w.div_ceil(64) as usize] },
            t if t.is_float() => Const::Float { ty, bits: 0 },
            Type::Pointer { .. } => Const::Null(ty),
            _ => Const::Zero(ty),
        };
        self.m.consts.intern(c)
    }

    fn is_null(&self, c: ConstId) -> bool {
        match self.m.consts.get(c) {
            Const::Int { value, .. } => *value == 0,
            Const::WideInt { words, .. } => words.iter().all(|&w| w == 0),
            Const::Float { bits, .. } => *bits == 0,
            Const::Null(_) | Const::Zero(_) => true,
            _ => false,
        }
    }

    /// An aggregate uniqued as LLVM does: all-null is zeroinitializer, all-undef is undef,
    /// arrays and vectors of simple integers or floats are data.
    fn aggregate(&mut self, ty: TypeId, elems: Vec<ConstId>) -> ConstId {
        if elems.is_empty() || elems.iter().all(|&e| self.is_null(e)) {
            return self.m.consts.intern(Const::Zero(ty));
        }
        if elems.iter().all(|&e| matches!(self.m.consts.get(e), Const::Undef(_))) {
            return self.m.consts.intern(Const::Undef(ty));
        }
        let sequential = matches!(self.m.types.get(ty), Type::Array { .. } | Type::Vector { .. });
        if sequential {
            let elem = self.m.types.element(ty).expect("sequential");
            let simple = match self.m.types.get(elem) {
                Type::Int(w) => matches!(w, 8 | 16 | 32 | 64),
                Type::Half | Type::BFloat | Type::Float | Type::Double => true,
                _ => false,
            };
            if simple {
                let data: Option<Vec<u64>> = elems
                    .iter()
                    .map(|&e| match self.m.consts.get(e) {
                        Const::Int { value, .. } => Some(*value),
                        Const::Float { bits, .. } => Some(*bits as u64),
                        _ => None,
                    })
                    .collect();
                if let Some(elems) = data {
                    return self.m.consts.intern(Const::Data { ty, elems });
                }
            }
        }
        self.m.consts.intern(Const::Aggregate { ty, elems })
    }

    fn data(&mut self, ty: TypeId, elems: Vec<u64>) -> ConstId {
        if elems.iter().all(|&e| e == 0) {
            return self.m.consts.intern(Const::Zero(ty));
        }
        self.m.consts.intern(Const::Data { ty, elems })
    }

    fn expr(&mut self, ty: TypeId, op: ExprOp, operands: Vec<ConstId>) -> ConstId {
        self.m.consts.intern(Const::Expr { ty, op, operands })
    }

    fn build(&mut self, values: &mut Values, ty: TypeId, r: &Rec) -> Result<Value, ReadError> {
        let c = match r.code {
            2 => self.null(ty),
            3 => self.m.consts.intern(Const::Undef(ty)),
            26 => self.m.consts.intern(Const::Poison(ty)),
            4 => {
                let v = sign_rotated(r.op(0)?);
                match self.m.types.get(ty).int_width() {
                    Some(w) if w > 64 => {
                        let mut words = vec![0u64; w.div_ceil(64) as usize];
                        words[0] = v;
                        if (v as i64) < 0 {
                            for x in words.iter_mut().skip(1) {
                                *x = u64::MAX;
                            }
                        }
                        mask_top(&mut words, w);
                        self.m.consts.intern(Const::WideInt { ty, words })
                    }
                    _ => self.int(ty, v),
                }
            }
            5 => {
                let w =
                    self.m.types.get(ty).int_width().ok_or_else(|| r.error("wide integer of a non-integer type"))?;
                let n = w.div_ceil(64) as usize;
                let mut words: Vec<u64> = r.ops.iter().map(|&x| sign_rotated(x)).collect();
                let fill = if words.last().is_some_and(|&x| (x as i64) < 0) { u64::MAX } else { 0 };
                words.resize(n, fill);
                mask_top(&mut words, w);
                if w <= 64 { self.int(ty, words[0]) } else { self.m.consts.intern(Const::WideInt { ty, words }) }
            }
            6 => {
                let bits = match self.m.types.get(ty) {
                    Type::X86Fp80 => {
                        let (a, b) = (r.op(0)?, r.op(1)?);
                        let lo = (b & 0xffff) | (a << 16);
                        let hi = a >> 48;
                        u128::from(lo) | (u128::from(hi) << 64)
                    }
                    Type::Fp128 | Type::PpcFp128 => u128::from(r.op(0)?) | (u128::from(r.op(1)?) << 64),
                    _ => u128::from(r.op(0)?),
                };
                self.m.consts.intern(Const::Float { ty, bits })
            }
            7 => {
                let mut elems = Vec::with_capacity(r.ops.len());
                for &id in &r.ops {
                    elems.push(self.constant(values, r, id)?);
                }
                self.aggregate(ty, elems)
            }
            8 | 9 => {
                let mut elems = r.ops.clone();
                if r.code == 9 {
                    elems.push(0);
                }
                self.data(ty, elems)
            }
            22 => self.data(ty, r.ops.clone()),
            10 => {
                let op = binary_op(r.op(0)?, self.m.types.get(ty).is_float() || is_fp_vector(self.m, ty))
                    .ok_or_else(|| r.error("unknown binary operator in a constant expression"))?;
                let (a, b) = (self.constant(values, r, r.op(1)?)?, self.constant(values, r, r.op(2)?)?);
                let flags = r.get(3).unwrap_or(0) as u8;
                self.expr(ty, ExprOp::Binary(op, flags), vec![a, b])
            }
            11 => {
                let op = cast_op(r.op(0)?).ok_or_else(|| r.error("unknown cast in a constant expression"))?;
                let a = self.constant(values, r, r.op(2)?)?;
                self.expr(ty, ExprOp::Cast(op), vec![a])
            }
            12 | 20 | 24 | 31 | 32 => return self.gep(values, ty, r).map(Value::Const),
            13 => {
                let ops = [r.op(0)?, r.op(1)?, r.op(2)?].map(|id| self.constant(values, r, id));
                let ops = ops.into_iter().collect::<Result<Vec<_>, _>>()?;
                self.expr(ty, ExprOp::Select, ops)
            }
            14 => {
                let idx = if r.ops.len() >= 4 { r.op(3)? } else { r.op(2)? };
                let ops = vec![self.constant(values, r, r.op(1)?)?, self.constant(values, r, idx)?];
                self.expr(ty, ExprOp::ExtractElement, ops)
            }
            15 => {
                let idx = if r.ops.len() >= 4 { r.op(3)? } else { r.op(2)? };
                let ops = vec![
                    self.constant(values, r, r.op(0)?)?,
                    self.constant(values, r, r.op(1)?)?,
                    self.constant(values, r, idx)?,
                ];
                self.expr(ty, ExprOp::InsertElement, ops)
            }
            16 | 19 => {
                let base = if r.code == 19 { 1 } else { 0 };
                let ops = (base..base + 3).map(|k| r.op(k).and_then(|id| self.constant(values, r, id)));
                let ops = ops.collect::<Result<Vec<_>, _>>()?;
                self.expr(ty, ExprOp::ShuffleVector, ops)
            }
            17 => {
                let opty = self.ty(r, 0)?;
                let (a, b) = (self.constant(values, r, r.op(1)?)?, self.constant(values, r, r.op(2)?)?);
                let pred = r.op(3)?;
                let float = self.m.types.get(opty).is_float() || is_fp_vector(self.m, opty);
                let op = if float {
                    ExprOp::FCmp(FloatPred((pred & 15) as u8))
                } else {
                    ExprOp::ICmp(IntPred::from_code(pred).ok_or_else(|| r.error("unknown comparison predicate"))?)
                };
                self.expr(ty, op, vec![a, b])
            }
            21 => {
                let f = match self.value(values, r.op(1)?)? {
                    Some(Value::Const(c)) => match self.m.consts.get(c) {
                        Const::Function(f) => *f,
                        _ => return Err(r.error("blockaddress of a non-function")),
                    },
                    _ => return Err(r.error("blockaddress of a non-function")),
                };
                self.m.consts.intern(Const::BlockAddress { ty, func: f, block: crate::ir::BlockId(r.op32(2)?) })
            }
            25 => {
                let a = self.constant(values, r, r.op(1)?)?;
                self.expr(ty, ExprOp::FNeg, vec![a])
            }
            18 | 23 | 28 | 30 => return self.inline_asm(ty, r).map(Value::InlineAsm),
            other => return Err(r.error(format!("unsupported constant record {other}"))),
        };
        Ok(Value::Const(c))
    }

    fn gep(&mut self, values: &mut Values, ty: TypeId, r: &Rec) -> Result<ConstId, ReadError> {
        let mut i = 0;
        let mut source = None;
        let mut inbounds = r.code == 20;
        let mut in_range = None;
        match r.code {
            12 | 20 => {
                if r.ops.len() % 2 == 1 {
                    source = Some(self.ty(r, 0)?);
                    i = 1;
                }
            }
            24 => {
                if r.ops.len().is_multiple_of(2) {
                    source = Some(self.ty(r, 0)?);
                    i = 1;
                }
                let flags = r.op(i)?;
                inbounds = flags & 1 != 0;
                if flags >> 1 != 0 {
                    in_range = Some((flags >> 1) as u32);
                }
                i += 1;
            }
            31 => {
                source = Some(self.ty(r, 0)?);
                inbounds = r.op(1)? & 1 != 0;
                let bits = r.op32(2)?;
                // Two range bounds, one word each up to 64 bits.
                i = 3 + 2 * bits.div_ceil(64) as usize;
            }
            _ => {
                source = Some(self.ty(r, 0)?);
                inbounds = r.op(1)? & 1 != 0;
                i = 2;
            }
        }
        let mut operands = Vec::new();
        while i + 1 < r.ops.len() {
            operands.push(self.constant(values, r, r.op(i + 1)?)?);
            i += 2;
        }
        let base = *operands.first().ok_or_else(|| r.error("getelementptr without a base"))?;
        let source = match source {
            Some(s) => s,
            None => {
                let bt = self.m.const_type(base).ok_or_else(|| r.error("getelementptr base without a type"))?;
                self.m.types.pointee(bt).ok_or_else(|| r.error("getelementptr base is not a typed pointer"))?
            }
        };
        Ok(self.expr(ty, ExprOp::GetElementPtr { source_ty: source, inbounds, in_range }, operands))
    }

    fn inline_asm(&mut self, ty: TypeId, r: &Rec) -> Result<AsmId, ReadError> {
        let (fn_ty, flags, at) = if r.code == 30 { (self.ty(r, 0)?, r.op(1)?, 2) } else { (ty, r.op(0)?, 1) };
        let fn_ty = self.m.types.pointee(fn_ty).unwrap_or(fn_ty);
        let alen = r.op(at)? as usize;
        let asm_end = at + 1 + alen;
        if asm_end > r.ops.len() {
            return Err(r.error("inline assembly string runs past the record"));
        }
        let asm: String = r.ops[at + 1..asm_end.min(r.ops.len())].iter().map(|&c| c as u8 as char).collect();
        let clen = r.op(asm_end)? as usize;
        let cstart = asm_end + 1;
        let constraints: String = r
            .ops
            .get(cstart..cstart + clen)
            .ok_or_else(|| r.error("inline assembly constraints run past the record"))?
            .iter()
            .map(|&c| c as u8 as char)
            .collect();
        self.m.inline_asms.push(InlineAsm {
            fn_ty,
            asm,
            constraints,
            side_effects: flags & 1 != 0,
            align_stack: flags & 2 != 0,
            intel_dialect: (flags >> 2) & 1 != 0,
        });
        Ok(AsmId(self.m.inline_asms.len() as u32 - 1))
    }
}

fn mask_top(words: &mut [u64], w: u32) {
    let rem = w % 64;
    if rem != 0
        && let Some(last) = words.last_mut()
    {
        *last &= (1u64 << rem) - 1;
    }
}

fn is_fp_vector(m: &Module, t: TypeId) -> bool {
    m.types.element(t).is_some_and(|e| m.types.get(e).is_float())
}

/// The binary operator of bitcode opcode `code` (its floating-point form for `float`);
/// none for the integer-only operators on floating point, as LLVM's
/// `getDecodedBinaryOpcode` has it.
pub(super) fn binary_op(code: u64, float: bool) -> Option<BinaryOp> {
    use BinaryOp::*;
    Some(match (code, float) {
        (0, false) => Add,
        (0, true) => FAdd,
        (1, false) => Sub,
        (1, true) => FSub,
        (2, false) => Mul,
        (2, true) => FMul,
        (3, false) => UDiv,
        (4, false) => SDiv,
        (4, true) => FDiv,
        (5, false) => URem,
        (6, false) => SRem,
        (6, true) => FRem,
        (7, false) => Shl,
        (8, false) => LShr,
        (9, false) => AShr,
        (10, false) => And,
        (11, false) => Or,
        (12, false) => Xor,
        _ => return None,
    })
}

/// The cast of bitcode opcode `code`.
pub(super) fn cast_op(code: u64) -> Option<CastOp> {
    use CastOp::*;
    Some(match code {
        0 => Trunc,
        1 => ZExt,
        2 => SExt,
        3 => FpToUi,
        4 => FpToSi,
        5 => UiToFp,
        6 => SiToFp,
        7 => FpTrunc,
        8 => FpExt,
        9 => PtrToInt,
        10 => IntToPtr,
        11 => Bitcast,
        12 => AddrSpaceCast,
        _ => return None,
    })
}
