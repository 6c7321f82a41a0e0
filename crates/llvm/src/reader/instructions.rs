//! Instruction records of a function block, across the encodings of LLVM 3.3 to 19.

use super::constants::{binary_op, cast_op};
use super::error::ReadError;
use super::function::Body;
use super::module::alignment;
use super::records::Rec;
use crate::ir::{
    Attrs, BinaryOp, CastOp, Clause, Const, FloatPred, InstKind, IntPred, Ordering, RmwOp, StructType, TailKind, Type,
    TypeId, Types, Value,
};

fn ordering(r: &Rec, code: u64) -> Result<Ordering, ReadError> {
    Ok(match code {
        0 => Ordering::NotAtomic,
        1 => Ordering::Unordered,
        2 => Ordering::Monotonic,
        3 => Ordering::Acquire,
        4 => Ordering::Release,
        5 => Ordering::AcqRel,
        6 => Ordering::SeqCst,
        _ => return Err(r.error(format!("unknown atomic ordering {code}"))),
    })
}

fn rmw_op(r: &Rec, code: u64) -> Result<RmwOp, ReadError> {
    use RmwOp::*;
    Ok(match code {
        0 => Xchg,
        1 => Add,
        2 => Sub,
        3 => And,
        4 => Nand,
        5 => Or,
        6 => Xor,
        7 => Max,
        8 => Min,
        9 => UMax,
        10 => UMin,
        11 => FAdd,
        12 => FSub,
        13 => FMax,
        14 => FMin,
        _ => return Err(r.error(format!("unknown atomicrmw operation {code}"))),
    })
}

/// LLVM's `CastInst::castIsValid`: whether `op` casts a value of type `src` to type `dst`.
/// LLVM's reader refuses any other cast ("Invalid cast"), so nothing downstream meets one.
fn cast_is_valid(types: &Types, op: CastOp, src: TypeId, dst: TypeId) -> bool {
    // Lanes (count, scalable) of a vector, none for a scalar; and the scalar type.
    let split = |t: TypeId| match types.get(t) {
        Type::Vector { len, elem, scalable } => (Some((*len, *scalable)), types.get(*elem)),
        t => (None, t),
    };
    let bits = |t: &Type| -> u64 {
        match t {
            Type::Int(w) => u64::from(*w),
            Type::Half | Type::BFloat => 16,
            Type::Float => 32,
            Type::Double | Type::X86Mmx => 64,
            Type::X86Fp80 => 80,
            Type::Fp128 | Type::PpcFp128 => 128,
            Type::X86Amx => 8192,
            _ => 0,
        }
    };
    let castable = |t: &Type| {
        !matches!(
            t,
            Type::Void
                | Type::Label
                | Type::Metadata
                | Type::Token
                | Type::Function { .. }
                | Type::Struct(_)
                | Type::Array { .. }
        )
    };
    let ((sl, s), (dl, d)) = (split(src), split(dst));
    if !castable(types.get(src)) || !castable(types.get(dst)) || !castable(s) || !castable(d) {
        return false;
    }
    let int = |t: &Type| matches!(t, Type::Int(_));
    let fp = |t: &Type| t.is_float();
    let space = |t: &Type| match t {
        Type::Pointer { addr_space, .. } => Some(*addr_space),
        _ => None,
    };
    use CastOp::*;
    match op {
        Trunc => int(s) && int(d) && sl == dl && bits(s) > bits(d),
        ZExt | SExt => int(s) && int(d) && sl == dl && bits(s) < bits(d),
        FpTrunc => fp(s) && fp(d) && sl == dl && bits(s) > bits(d),
        FpExt => fp(s) && fp(d) && sl == dl && bits(s) < bits(d),
        UiToFp | SiToFp => int(s) && fp(d) && sl == dl,
        FpToUi | FpToSi => fp(s) && int(d) && sl == dl,
        PtrToInt => s.is_pointer() && int(d) && sl == dl,
        IntToPtr => int(s) && d.is_pointer() && sl == dl,
        Bitcast => match (space(s), space(d)) {
            (Some(a), Some(b)) => {
                a == b
                    && match (sl, dl) {
                        (Some(x), Some(y)) => x == y,
                        (Some(x), None) | (None, Some(x)) => x == (1, false),
                        (None, None) => true,
                    }
            }
            (None, None) => {
                let size = |l: Option<(u32, bool)>, t: &Type| match l {
                    Some((n, scalable)) => (u64::from(n) * bits(t), scalable),
                    None => (bits(t), false),
                };
                size(sl, s) == size(dl, d)
            }
            _ => false,
        },
        AddrSpaceCast => matches!((space(s), space(d)), (Some(a), Some(b)) if a != b) && sl == dl,
    }
}

/// The binary operator of bitcode opcode `code` on operands of type `t`: LLVM's reader
/// refuses one whose type is not an integer, a floating-point type or a vector of them, and
/// the integer-only operators on floating point.
fn binary_op_of(types: &Types, code: u64, t: TypeId) -> Option<BinaryOp> {
    let scalar = types.element(t).filter(|_| matches!(types.get(t), Type::Vector { .. })).unwrap_or(t);
    match types.get(scalar) {
        Type::Int(_) => binary_op(code, false),
        s if s.is_float() => binary_op(code, true),
        _ => None,
    }
}

fn is_fp(b: &Body<'_, '_>, t: TypeId) -> bool {
    let types = &b.r.m.types;
    types.get(t).is_float() || types.element(t).is_some_and(|e| types.get(e).is_float())
}

/// The `i1` (or `<N x i1>`) a comparison of `t` gives.
fn compare_type(b: &mut Body<'_, '_>, t: TypeId) -> TypeId {
    let i1 = b.r.m.types.int(1);
    match b.r.m.types.get(t).clone() {
        Type::Vector { len, scalable, .. } => b.r.m.types.intern(Type::Vector { len, elem: i1, scalable }),
        _ => i1,
    }
}

/// The type `indices` select inside aggregate `t` (extractvalue, insertvalue).
fn aggregate_index(b: &Body<'_, '_>, r: &Rec, mut t: TypeId, indices: &[u32]) -> Result<TypeId, ReadError> {
    for &i in indices {
        t = match b.r.m.types.get(t) {
            Type::Struct(s) => *s.fields.get(i as usize).ok_or_else(|| r.error("aggregate index out of range"))?,
            Type::Array { elem, .. } => *elem,
            _ => return Err(r.error("index into a non-aggregate")),
        };
    }
    Ok(t)
}

/// The result type of a `getelementptr` over `source` with `indices`, from `base_ty`.
fn gep_type(
    b: &mut Body<'_, '_>,
    r: &Rec,
    source: TypeId,
    base_ty: TypeId,
    indices: &[Value],
    index_tys: &[TypeId],
) -> Result<TypeId, ReadError> {
    let mut t = source;
    for v in indices.iter().skip(1) {
        t = match b.r.m.types.get(t).clone() {
            Type::Struct(s) => {
                let Value::Const(c) = v else { return Err(r.error("non-constant struct index")) };
                let k = match b.r.m.consts.get(*c) {
                    Const::Int { value, .. } => *value as usize,
                    Const::Zero(_) => 0,
                    _ => return Err(r.error("non-integer struct index")),
                };
                *s.fields.get(k).ok_or_else(|| r.error("struct index out of range"))?
            }
            Type::Array { elem, .. } | Type::Vector { elem, .. } => elem,
            _ => return Err(r.error("getelementptr index into a non-aggregate")),
        };
    }
    // A vector base or index makes a vector of pointers.
    let types = &b.r.m.types;
    let lanes = std::iter::once(base_ty).chain(index_tys.iter().copied()).find_map(|t| match types.get(t) {
        Type::Vector { len, scalable, .. } => Some((*len, *scalable)),
        _ => None,
    });
    let base_ptr = types.element(base_ty).unwrap_or(base_ty);
    let addr_space = match types.get(base_ptr) {
        Type::Pointer { addr_space, .. } => *addr_space,
        _ => 0,
    };
    let opaque = matches!(types.get(base_ptr), Type::Pointer { pointee: None, .. });
    let pointee = (!opaque).then_some(t);
    let ptr = b.r.m.types.intern(Type::Pointer { pointee, addr_space });
    Ok(match lanes {
        Some((len, scalable)) => b.r.m.types.intern(Type::Vector { len, elem: ptr, scalable }),
        None => ptr,
    })
}

/// The mask of a `shufflevector` from its constant operand.
fn shuffle_mask(b: &Body<'_, '_>, mask: Value, lanes: u32) -> Vec<i32> {
    let Value::Const(c) = mask else { return vec![-1; lanes as usize] };
    match b.r.m.consts.get(c) {
        Const::Data { elems, .. } => elems.iter().map(|&e| e as i32).collect(),
        Const::Aggregate { elems, .. } => elems
            .iter()
            .map(|&e| match b.r.m.consts.get(e) {
                Const::Int { value, .. } => *value as i32,
                _ => -1,
            })
            .collect(),
        Const::Zero(_) => vec![0; lanes as usize],
        _ => vec![-1; lanes as usize],
    }
}

/// Decodes one instruction record and adds the instruction.
pub(super) fn decode(b: &mut Body<'_, '_>, r: &Rec) -> Result<(), ReadError> {
    let void = b.void();
    let mut i = 0usize;
    let (kind, ty) = match r.code {
        2 => {
            let (lhs, t) = b.value_and_type(r, &mut i)?;
            let rhs = b.value(r, &mut i, t)?;
            let op = binary_op_of(&b.r.m.types, r.op(i)?, t)
                .ok_or_else(|| r.error(format!("invalid binary operator for type {}", b.r.m.types.short_name(t))))?;
            let flags = r.get(i + 1).unwrap_or(0) as u32;
            (InstKind::Binary { op, lhs, rhs, flags }, t)
        }
        56 => {
            let (val, t) = b.value_and_type(r, &mut i)?;
            if r.op(i)? != 0 || !is_fp(b, t) {
                return Err(r.error(format!("invalid unary operator for type {}", b.r.m.types.short_name(t))));
            }
            (InstKind::FNeg { val, flags: r.get(i + 1).unwrap_or(0) as u32 }, t)
        }
        3 => {
            let (val, from) = b.value_and_type(r, &mut i)?;
            let to = b.ty(r, i)?;
            let op = cast_op(r.op(i + 1)?).ok_or_else(|| r.error("unknown cast"))?;
            if !cast_is_valid(&b.r.m.types, op, from, to) {
                let types = &b.r.m.types;
                let (from, to) = (types.short_name(from), types.short_name(to));
                return Err(r.error(format!("invalid cast: {} from {from} to {to}", op.name())));
            }
            (InstKind::Cast { op, val }, to)
        }
        4 | 30 | 43 => {
            b.r.m.explicit_type_records |= r.code == 43;
            let (inbounds, source) = if r.code == 43 {
                i = 2;
                (r.op(0)? & 1 != 0, Some(b.ty(r, 1)?))
            } else {
                (r.code == 30, None)
            };
            let (base, base_ty) = b.value_and_type(r, &mut i)?;
            let mut indices = Vec::new();
            let mut index_tys = Vec::new();
            while i < r.ops.len() {
                let (v, t) = b.value_and_type(r, &mut i)?;
                indices.push(v);
                index_tys.push(t);
            }
            let source = match source {
                Some(s) => s,
                None => {
                    let scalar = b.r.m.types.element(base_ty).unwrap_or(base_ty);
                    b.r.m.types.pointee(scalar).ok_or_else(|| r.error("getelementptr on a non-pointer"))?
                }
            };
            let ty = gep_type(b, r, source, base_ty, &indices, &index_tys)?;
            (InstKind::GetElementPtr { source_ty: source, inbounds, base, indices }, ty)
        }
        5 => {
            let (on_true, t) = b.value_and_type(r, &mut i)?;
            let on_false = b.value(r, &mut i, t)?;
            let i1 = b.r.m.types.int(1);
            let cond = b.value(r, &mut i, i1)?;
            (InstKind::Select { cond, on_true, on_false }, t)
        }
        29 => {
            let (on_true, t) = b.value_and_type(r, &mut i)?;
            let on_false = b.value(r, &mut i, t)?;
            let (cond, _) = b.value_and_type(r, &mut i)?;
            (InstKind::Select { cond, on_true, on_false }, t)
        }
        6 => {
            let (vector, vt) = b.value_and_type(r, &mut i)?;
            let index = if r.ops.len() > i + 1 {
                b.value_and_type(r, &mut i)?.0
            } else {
                let i32t = b.r.m.types.int(32);
                b.value(r, &mut i, i32t)?
            };
            let et = b.r.m.types.element(vt).ok_or_else(|| r.error("extractelement of a non-vector"))?;
            (InstKind::ExtractElement { vector, index }, et)
        }
        7 => {
            let (vector, vt) = b.value_and_type(r, &mut i)?;
            let et = b.r.m.types.element(vt).ok_or_else(|| r.error("insertelement into a non-vector"))?;
            let element = b.value(r, &mut i, et)?;
            let index = if r.ops.len() > i + 1 {
                b.value_and_type(r, &mut i)?.0
            } else {
                let i32t = b.r.m.types.int(32);
                b.value(r, &mut i, i32t)?
            };
            (InstKind::InsertElement { vector, element, index }, vt)
        }
        8 => {
            let (a, vt) = b.value_and_type(r, &mut i)?;
            let bv = b.value(r, &mut i, vt)?;
            let (mask, mt) = b.value_and_type(r, &mut i)?;
            let lanes = match b.r.m.types.get(mt) {
                Type::Vector { len, .. } => *len,
                _ => return Err(r.error("shufflevector mask is not a vector")),
            };
            let (elem, scalable) = match b.r.m.types.get(vt) {
                Type::Vector { elem, scalable, .. } => (*elem, *scalable),
                _ => return Err(r.error("shufflevector of a non-vector")),
            };
            let ty = b.r.m.types.intern(Type::Vector { len: lanes, elem, scalable });
            let mask = shuffle_mask(b, mask, lanes);
            (InstKind::ShuffleVector { a, b: bv, mask }, ty)
        }
        9 | 28 => {
            let (lhs, t) = b.value_and_type(r, &mut i)?;
            let rhs = b.value(r, &mut i, t)?;
            let pred = r.op(i)?;
            let ty = compare_type(b, t);
            if is_fp(b, t) {
                (
                    InstKind::FCmp {
                        pred: FloatPred((pred & 15) as u8),
                        lhs,
                        rhs,
                        flags: r.get(i + 1).unwrap_or(0) as u32,
                    },
                    ty,
                )
            } else {
                let pred = IntPred::from_code(pred).ok_or_else(|| r.error(format!("unknown predicate {pred}")))?;
                (InstKind::ICmp { pred, lhs, rhs }, ty)
            }
        }
        10 => {
            let val = if r.ops.is_empty() { None } else { Some(b.value_and_type(r, &mut i)?.0) };
            (InstKind::Ret { val }, void)
        }
        11 => {
            let t = b.block(r, r.op(0)?)?;
            if r.ops.len() == 1 {
                (InstKind::Br { target: t }, void)
            } else {
                let f = b.block(r, r.op(1)?)?;
                let i1 = b.r.m.types.int(1);
                i = 2;
                let cond = b.value(r, &mut i, i1)?;
                (InstKind::CondBr { cond, on_true: t, on_false: f }, void)
            }
        }
        12 => switch(b, r)?,
        31 => {
            let t = b.ty(r, 0)?;
            i = 1;
            let addr = b.value(r, &mut i, t)?;
            let dests = r.ops[2..].iter().map(|&d| b.block(r, d)).collect::<Result<Vec<_>, _>>()?;
            (InstKind::IndirectBr { addr, dests }, void)
        }
        13 | 34 => return call(b, r),
        15 => (InstKind::Unreachable, void),
        39 => (InstKind::Resume { val: b.value_and_type(r, &mut i)?.0 }, void),
        16 => {
            let t = b.ty(r, 0)?;
            let n = (r.ops.len() - 1) / 2;
            let mut incoming = Vec::with_capacity(n);
            for k in 0..n {
                let v = b.value_signed(r, 1 + 2 * k, t)?;
                let blk = b.block(r, r.op(2 + 2 * k)?)?;
                incoming.push((v, blk));
            }
            (InstKind::Phi { incoming }, t)
        }
        40 | 47 => {
            let t = b.ty(r, 0)?;
            i = 1;
            if r.code == 40 {
                // The personality, which LLVM 3.7 and newer keep on the function.
                if let (Value::Const(p), _) = b.value_and_type(r, &mut i)? {
                    let f = b.f.0 as usize;
                    b.r.m.functions[f].personality.get_or_insert(p);
                }
            }
            let cleanup = r.op(i)? != 0;
            let n = r.op(i + 1)? as usize;
            i += 2;
            let mut clauses = Vec::new();
            for _ in 0..n.min(r.ops.len()) {
                let kind = r.op(i)?;
                i += 1;
                let (v, _) = b.value_and_type(r, &mut i)?;
                let Value::Const(c) = v else { return Err(r.error("landingpad clause is not a constant")) };
                clauses.push(if kind == 0 { Clause::Catch(c) } else { Clause::Filter(c) });
            }
            (InstKind::LandingPad { cleanup, clauses }, t)
        }
        19 => {
            let rec = r.op(3)?;
            let explicit = rec & (1 << 6) != 0;
            let t = b.ty(r, 0)?;
            let count_ty = b.ty(r, 1)?;
            let count = b.value_by_id(r, r.op(2)?, Some(count_ty))?;
            let align = alignment(r, (rec & 31) | ((rec >> 8) & 7) << 5)?;
            let addr_space = r.get(4).unwrap_or(0) as u32;
            let allocated = if explicit {
                t
            } else {
                b.r.m.types.pointee(t).ok_or_else(|| r.error("alloca of a non-pointer type"))?
            };
            let opaque = b.r.has_opaque_pointer();
            let ty = b.r.m.types.intern(Type::Pointer { pointee: (!opaque).then_some(allocated), addr_space });
            (InstKind::Alloca { allocated_ty: allocated, count, align }, ty)
        }
        20 | 41 => {
            let (ptr, pt) = b.value_and_type(r, &mut i)?;
            let extra = if r.code == 20 { 3 } else { 5 };
            let ty = if i + extra == r.ops.len() {
                b.r.m.explicit_type_records = true;
                let t = b.ty(r, i)?;
                i += 1;
                t
            } else {
                b.r.m.types.pointee(pt).ok_or_else(|| r.error("load through an untyped pointer without a type"))?
            };
            let align = alignment(r, r.op(i)?)?;
            let volatile = r.op(i + 1)? != 0;
            let ord = if r.code == 41 { ordering(r, r.op(i + 2)?)? } else { Ordering::NotAtomic };
            (InstKind::Load { ptr, align, volatile, ordering: ord }, ty)
        }
        24 | 44 | 42 | 45 => {
            let (ptr, pt) = b.value_and_type(r, &mut i)?;
            let val = if r.code == 44 || r.code == 45 {
                b.value_and_type(r, &mut i)?.0
            } else {
                let vt = b.r.m.types.pointee(pt).ok_or_else(|| r.error("store through an untyped pointer"))?;
                b.value(r, &mut i, vt)?
            };
            let align = alignment(r, r.op(i)?)?;
            let volatile = r.op(i + 1)? != 0;
            let ord = if r.code == 42 || r.code == 45 { ordering(r, r.op(i + 2)?)? } else { Ordering::NotAtomic };
            (InstKind::Store { ptr, val, align, volatile, ordering: ord }, void)
        }
        36 => {
            let ord = ordering(r, r.op(0)?)?;
            (InstKind::Fence { ordering: ord, single_thread: r.get(1) == Some(0) }, void)
        }
        37 | 46 => {
            let (ptr, pt) = b.value_and_type(r, &mut i)?;
            let (cmp, t) = if r.code == 46 {
                b.value_and_type(r, &mut i)?
            } else {
                let t = b.r.m.types.pointee(pt).ok_or_else(|| r.error("cmpxchg through an untyped pointer"))?;
                (b.value(r, &mut i, t)?, t)
            };
            let new = b.value(r, &mut i, t)?;
            let volatile = r.op(i)? != 0;
            let success = ordering(r, r.op(i + 1)?)?;
            let failure = match r.get(i + 3) {
                Some(f) => ordering(r, f)?,
                None => success,
            };
            let weak = r.get(i + 4).is_some_and(|w| w != 0);
            let align = match r.get(i + 5) {
                Some(a) => alignment(r, a)?,
                None => 0,
            };
            let i1 = b.r.m.types.int(1);
            let ty = b.r.m.types.intern(Type::Struct(StructType {
                name: None,
                fields: vec![t, i1],
                packed: false,
                opaque: false,
            }));
            (InstKind::CmpXchg { ptr, cmp, new, success, failure, weak, volatile, align }, ty)
        }
        38 | 59 => {
            let (ptr, pt) = b.value_and_type(r, &mut i)?;
            let (val, t) = if r.code == 59 {
                b.value_and_type(r, &mut i)?
            } else {
                let t = b.r.m.types.pointee(pt).ok_or_else(|| r.error("atomicrmw through an untyped pointer"))?;
                (b.value(r, &mut i, t)?, t)
            };
            let op = rmw_op(r, r.op(i)?)?;
            let volatile = r.op(i + 1)? != 0;
            let ord = ordering(r, r.op(i + 2)?)?;
            let align = match r.get(i + 4) {
                Some(a) => alignment(r, a)?,
                None => 0,
            };
            (InstKind::AtomicRmw { op, ptr, val, ordering: ord, volatile, align }, t)
        }
        23 => {
            let lt = b.ty(r, 0)?;
            i = 1;
            let list = b.value(r, &mut i, lt)?;
            let ty = b.ty(r, 2)?;
            (InstKind::VaArg { list }, ty)
        }
        26 => {
            let (agg, at) = b.value_and_type(r, &mut i)?;
            let indices: Vec<u32> = r.ops[i..].iter().map(|&x| x as u32).collect();
            let ty = aggregate_index(b, r, at, &indices)?;
            (InstKind::ExtractValue { agg, indices }, ty)
        }
        27 => {
            let (agg, at) = b.value_and_type(r, &mut i)?;
            let (val, _) = b.value_and_type(r, &mut i)?;
            let indices: Vec<u32> = r.ops[i..].iter().map(|&x| x as u32).collect();
            aggregate_index(b, r, at, &indices)?;
            (InstKind::InsertValue { agg, val, indices }, at)
        }
        58 => {
            let (val, t) = b.value_and_type(r, &mut i)?;
            (InstKind::Freeze { val }, t)
        }
        48..=52 => return Err(r.error("exception-handling funclets (catchswitch, cleanuppad, ...) are not supported")),
        57 => return Err(r.error("callbr is not supported")),
        other => return Err(r.error(format!("unknown instruction record {other}"))),
    };
    b.push(r, kind, ty)
}

/// `switch`: the simple form, or LLVM 3.2's case-range form (single values only).
fn switch(b: &mut Body<'_, '_>, r: &Rec) -> Result<(InstKind, TypeId), ReadError> {
    let void = b.r.m.types.void();
    let first = r.op(0)?;
    if first >> 16 == 0x4B5 {
        let t = b.ty(r, 1)?;
        let mut i = 2;
        let cond = b.value(r, &mut i, t)?;
        let default = b.block(r, r.op(3)?)?;
        let n = r.op(4)? as usize;
        let w = b.r.m.types.get(t).int_width().unwrap_or(64);
        let words = w.div_ceil(64) as usize;
        let mut at = 5;
        let mut cases = Vec::new();
        for _ in 0..n.min(r.ops.len()) {
            let items = r.op(at)? as usize;
            at += 1;
            let mut values = Vec::new();
            for _ in 0..items.min(r.ops.len()) {
                let single = r.op(at)? != 0;
                at += 1;
                if !single {
                    return Err(r.error("switch case ranges are not supported"));
                }
                let v = super::records::sign_rotated(r.op(at)?);
                at += words;
                values.push(v);
            }
            let dest = b.block(r, r.op(at)?)?;
            at += 1;
            for v in values {
                let c = b.r.m.consts.int(t, w.min(64), v);
                cases.push((c, dest));
            }
        }
        return Ok((InstKind::Switch { cond, default, cases }, void));
    }
    let t = b.ty(r, 0)?;
    let mut i = 1;
    let cond = b.value(r, &mut i, t)?;
    let default = b.block(r, r.op(2)?)?;
    let mut cases = Vec::new();
    let mut k = 3;
    while k + 1 < r.ops.len() {
        let v = b.value_by_id(r, r.op(k)?, Some(t))?;
        let Value::Const(c) = v else { return Err(r.error("switch case value is not a constant")) };
        cases.push((c, b.block(r, r.op(k + 1)?)?));
        k += 2;
    }
    Ok((InstKind::Switch { cond, default, cases }, void))
}

/// `call` and `invoke`.
fn call(b: &mut Body<'_, '_>, r: &Rec) -> Result<(), ReadError> {
    let invoke = r.code == 13;
    let attrs = match r.op(0)? {
        0 => Attrs::default(),
        k => b.r.attr_lists.get(k as usize - 1).cloned().unwrap_or_default(),
    };
    let ccinfo = r.op(1)?;
    let mut i = 2;
    let (normal, unwind) = if invoke {
        let n = b.block(r, r.op(2)?)?;
        let u = b.block(r, r.op(3)?)?;
        i = 4;
        (Some(n), Some(u))
    } else {
        (None, None)
    };
    let explicit = if invoke { ccinfo & (1 << 13) != 0 } else { ccinfo & (1 << 15) != 0 };
    b.r.m.explicit_type_records |= explicit;
    let mut fmf = 0;
    if !invoke && ccinfo & (1 << 17) != 0 {
        fmf = r.op(i)? as u32;
        i += 1;
    }
    let explicit_ty = if explicit {
        let t = b.ty(r, i)?;
        i += 1;
        Some(t)
    } else {
        None
    };
    let (callee, callee_ty) = b.value_and_type(r, &mut i)?;
    let fn_ty = match explicit_ty {
        Some(t) => t,
        None => b.r.m.types.pointee(callee_ty).ok_or_else(|| r.error("call through a non-pointer without a type"))?,
    };
    let (ret, params, vararg) = match b.r.m.types.as_function(fn_ty) {
        Some((ret, p, v)) => (ret, p.to_vec(), v),
        None => return Err(r.error("call of a non-function type")),
    };
    let mut args = Vec::with_capacity(params.len());
    for &p in &params {
        if matches!(b.r.m.types.get(p), Type::Label) {
            let blk = b.block(r, r.op(i)?)?;
            i += 1;
            // A block operand: kept as the block's number (callbr and asm goto are refused
            // anyway).
            args.push(Value::Const(b.r.m.consts.int(p, 32, u64::from(blk.0))));
        } else {
            args.push(b.value(r, &mut i, p)?);
        }
    }
    if vararg {
        while i < r.ops.len() {
            args.push(b.value_and_type(r, &mut i)?.0);
        }
    } else if i < r.ops.len() {
        return Err(r.error("more call arguments than the function type has"));
    }
    let cc = ((ccinfo >> 1) & 0x3ff) as u32;
    let cc = if invoke { (ccinfo & 0x3ff) as u32 } else { cc };
    let kind = if invoke {
        InstKind::Invoke {
            callee,
            fn_ty,
            args,
            cc,
            attrs: Box::new(attrs),
            normal: normal.expect("invoke"),
            unwind: unwind.expect("invoke"),
        }
    } else {
        let tail = if ccinfo & (1 << 14) != 0 {
            TailKind::MustTail
        } else if ccinfo & (1 << 16) != 0 {
            TailKind::NoTail
        } else if ccinfo & 1 != 0 {
            TailKind::Tail
        } else {
            TailKind::None
        };
        InstKind::Call { callee, fn_ty, args, cc, tail, attrs: Box::new(attrs), flags: fmf }
    };
    b.push(r, kind, ret)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Binary operators LLVM's reader refuses were read (`and` of doubles, found by the
    /// `freeze` fuzz target: freeze wrote it, and the PNaCl reader refused the pexe).
    #[test]
    fn binary_operators_are_checked_against_their_type() {
        let mut t = Types::new();
        let (i32t, f, d, p) = (t.int(32), t.float(), t.double(), t.opaque_pointer());
        let v4f = t.intern(Type::Vector { len: 4, elem: f, scalable: false });
        let v4i = t.intern(Type::Vector { len: 4, elem: i32t, scalable: false });
        assert_eq!(binary_op_of(&t, 10, i32t), Some(BinaryOp::And));
        assert_eq!(binary_op_of(&t, 0, d), Some(BinaryOp::FAdd));
        assert_eq!(binary_op_of(&t, 4, v4f), Some(BinaryOp::FDiv));
        assert_eq!(binary_op_of(&t, 7, v4i), Some(BinaryOp::Shl));
        for code in [3, 5, 7, 8, 9, 10, 11, 12] {
            assert_eq!(binary_op_of(&t, code, d), None, "integer operator {code} on double");
            assert_eq!(binary_op_of(&t, code, v4f), None, "integer operator {code} on <4 x float>");
        }
        assert_eq!(binary_op_of(&t, 0, p), None, "add of pointers");
        assert_eq!(binary_op_of(&t, 13, i32t), None, "unknown operator");
    }

    /// Casts LLVM's reader refuses were read, and freeze wrote them into pexes the PNaCl
    /// reader refused (`uitofp i8 to i1`, found by the `freeze` fuzz target).
    #[test]
    fn casts_are_checked_as_llvm_checks_them() {
        let mut t = Types::new();
        let (i1, i8t, i32t, i64t) = (t.int(1), t.int(8), t.int(32), t.int(64));
        let (f, d) = (t.float(), t.double());
        let p = t.pointer_to(i8t);
        let q = t.pointer_to(i32t);
        let p1 = t.intern(Type::Pointer { pointee: Some(i8t), addr_space: 1 });
        let v4i32 = t.intern(Type::Vector { len: 4, elem: i32t, scalable: false });
        let v2i64 = t.intern(Type::Vector { len: 2, elem: i64t, scalable: false });
        let v4f = t.intern(Type::Vector { len: 4, elem: f, scalable: false });
        let void = t.void();
        use CastOp::*;
        for (op, src, dst) in [
            (Trunc, i32t, i8t),
            (ZExt, i1, i32t),
            (SExt, i8t, i64t),
            (FpTrunc, d, f),
            (FpExt, f, d),
            (UiToFp, i8t, f),
            (SiToFp, v4i32, v4f),
            (FpToSi, d, i32t),
            (PtrToInt, p, i32t),
            (IntToPtr, i32t, q),
            (Bitcast, p, q),
            (Bitcast, i32t, f),
            (Bitcast, v4i32, v2i64),
            (Bitcast, d, i64t),
            (AddrSpaceCast, p, p1),
        ] {
            assert!(cast_is_valid(&t, op, src, dst), "{op:?} {src:?} -> {dst:?} should be valid");
        }
        for (op, src, dst) in [
            (UiToFp, i8t, i1),
            (Trunc, i8t, i32t),
            (Trunc, i32t, i32t),
            (ZExt, i32t, i8t),
            (SExt, f, d),
            (FpTrunc, f, d),
            (FpExt, d, f),
            (SiToFp, v4i32, f),
            (FpToUi, i32t, i32t),
            (PtrToInt, i32t, i32t),
            (IntToPtr, q, q),
            (Bitcast, p, i32t),
            (Bitcast, i32t, i64t),
            (Bitcast, p, p1),
            (Bitcast, void, void),
            (AddrSpaceCast, p, q),
        ] {
            assert!(!cast_is_valid(&t, op, src, dst), "{op:?} {src:?} -> {dst:?} should be refused");
        }
    }
}
