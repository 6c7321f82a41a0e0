//! `expand-struct-regs`: struct values held in registers (loads, stores, phis, selects,
//! `insertvalue`, `extractvalue`) become one scalar per field.

use crate::util::{binop, error, i32_const, inst, load, ptr_to, store, undef};
use crate::{Pass, PassError};
use pnacl_llvm::ir::{BinaryOp, CastOp, Const, ConstId, FuncId, InstId, InstKind, Module, Type, TypeId, Value};
use std::collections::HashMap;

/// The pass.
pub struct ExpandStructRegs;

const NAME: &str = "expand-struct-regs";

/// True for the types this pass takes apart.
fn is_struct(m: &Module, t: TypeId) -> bool {
    matches!(m.types.get(t), Type::Struct(_) | Type::Array { .. })
}

/// The scalar leaves of an aggregate type: byte offset, type, and path of indices.
fn leaves(m: &Module, t: TypeId) -> Vec<(u64, TypeId, Vec<u32>)> {
    let mut out = Vec::new();
    fn walk(m: &Module, t: TypeId, off: u64, path: &mut Vec<u32>, out: &mut Vec<(u64, TypeId, Vec<u32>)>) {
        match m.types.get(t).clone() {
            Type::Struct(s) => {
                for (k, &f) in s.fields.iter().enumerate() {
                    path.push(k as u32);
                    walk(m, f, off + m.types.field_offset(t, k).unwrap_or(0), path, out);
                    path.pop();
                }
            }
            Type::Array { len, elem } => {
                let size = m.types.alloc_size(elem).unwrap_or(0);
                for k in 0..len.min(1 << 16) {
                    path.push(k as u32);
                    walk(m, elem, off + k * size, path, out);
                    path.pop();
                }
            }
            _ => out.push((off, t, path.clone())),
        }
    }
    walk(m, t, 0, &mut Vec::new(), &mut out);
    out
}

/// The range of leaves of `t` below `path`.
fn leaf_range(m: &Module, t: TypeId, path: &[u32]) -> std::ops::Range<usize> {
    let all = leaves(m, t);
    let start = all.iter().position(|l| l.2.starts_with(path)).unwrap_or(all.len());
    let len = all[start..].iter().take_while(|l| l.2.starts_with(path)).count();
    start..start + len
}

/// The type at `path` inside `t`.
fn type_at(m: &Module, mut t: TypeId, path: &[u32]) -> TypeId {
    for &i in path {
        t = match m.types.get(t) {
            Type::Struct(s) => s.fields[i as usize],
            Type::Array { elem, .. } => *elem,
            _ => t,
        };
    }
    t
}

/// The leaves of constant `c` of aggregate type `t`.
fn const_leaves(m: &mut Module, c: ConstId, t: TypeId) -> Vec<Value> {
    match m.consts.get(c).clone() {
        Const::Aggregate { elems, .. } => {
            let mut out = Vec::new();
            for (k, e) in elems.into_iter().enumerate() {
                let et = type_at(m, t, &[k as u32]);
                if is_struct(m, et) { out.extend(const_leaves(m, e, et)) } else { out.push(Value::Const(e)) }
            }
            out
        }
        Const::Data { elems, .. } => {
            let et = m.types.element(t).unwrap_or(t);
            elems
                .into_iter()
                .map(|v| match m.types.get(et) {
                    Type::Int(w) => {
                        let w = *w;
                        Value::Const(m.consts.int(et, w, v))
                    }
                    _ => Value::Const(m.consts.intern(Const::Float { ty: et, bits: u128::from(v) })),
                })
                .collect()
        }
        Const::Zero(_) => leaves(m, t)
            .into_iter()
            .map(|(_, lt, _)| {
                let z = match m.types.get(lt) {
                    Type::Int(w) => {
                        let w = *w;
                        return Value::Const(m.consts.int(lt, w, 0));
                    }
                    Type::Pointer { .. } => Const::Null(lt),
                    t if t.is_float() => Const::Float { ty: lt, bits: 0 },
                    _ => Const::Zero(lt),
                };
                Value::Const(m.consts.intern(z))
            })
            .collect(),
        _ => leaves(m, t).into_iter().map(|(_, lt, _)| undef(m, lt)).collect(),
    }
}

/// True when `v` is a call whose struct result this pass keeps whole.
fn is_kept_call(m: &Module, f: FuncId, v: Value, split: &HashMap<Value, Vec<Value>>) -> bool {
    match v {
        Value::Inst(c) => {
            !split.contains_key(&v)
                && matches!(m.functions[f.0 as usize].inst(c).kind, InstKind::Call { .. } | InstKind::CmpXchg { .. })
        }
        _ => false,
    }
}

impl Pass for ExpandStructRegs {
    fn name(&self) -> &'static str {
        NAME
    }

    fn run(&self, m: &mut Module) -> Result<(), PassError> {
        for f in crate::util::defined(m) {
            let has = m.functions[f.0 as usize].layout().any(|(_, id)| {
                let i = m.functions[f.0 as usize].inst(id);
                is_struct(m, i.ty) || matches!(i.kind, InstKind::ExtractValue { .. } | InstKind::Store { .. })
            });
            if has {
                expand(m, f)?;
            }
        }
        Ok(())
    }
}

fn expand(m: &mut Module, f: FuncId) -> Result<(), PassError> {
    let i32t = m.types.int(32);
    let mut split: HashMap<Value, Vec<Value>> = HashMap::new();
    let mut phis: Vec<(InstId, Vec<InstId>)> = Vec::new();
    crate::util::rebuild(m, f, |m, id, out, replace| {
        let i = m.functions[f.0 as usize].inst(id).clone();
        let get = |m: &mut Module, split: &HashMap<Value, Vec<Value>>, v: Value, t: TypeId| -> Option<Vec<Value>> {
            match v {
                Value::Const(c) => Some(const_leaves(m, c, t)),
                other => split.get(&other).cloned(),
            }
        };
        match &i.kind {
            InstKind::InsertValue { agg, val, indices } => {
                let base = get(m, &split, *agg, i.ty)
                    .ok_or_else(|| error(m, NAME, f, id, "insertvalue into an unknown aggregate"))?;
                let vt = crate::util::ty(m, f, *val);
                let part = if is_struct(m, vt) {
                    get(m, &split, *val, vt)
                        .ok_or_else(|| error(m, NAME, f, id, "insertvalue of an unknown aggregate"))?
                } else {
                    vec![*val]
                };
                let mut all = base;
                let r = leaf_range(m, i.ty, indices);
                all.splice(r, part);
                split.insert(Value::Inst(id), all);
            }
            InstKind::ExtractValue { agg, indices } => {
                let at = crate::util::ty(m, f, *agg);
                if is_kept_call(m, f, *agg, &split) {
                    out.keep(id);
                    return Ok(());
                }
                let all = get(m, &split, *agg, at)
                    .ok_or_else(|| error(m, NAME, f, id, "extractvalue of an unknown aggregate"))?;
                let r = leaf_range(m, at, indices);
                if is_struct(m, i.ty) {
                    split.insert(Value::Inst(id), all[r].to_vec());
                } else {
                    replace.insert(Value::Inst(id), all[r.start]);
                }
            }
            InstKind::Load { ptr, .. } if is_struct(m, i.ty) => {
                let base = out.cast(m, CastOp::PtrToInt, *ptr, i32t);
                let mut vals = Vec::new();
                for (off, lt, _) in leaves(m, i.ty) {
                    let p = leaf_ptr(m, out, base, off, lt, i32t);
                    vals.push(out.emit(m, load(p, lt, 1)));
                }
                split.insert(Value::Inst(id), vals);
            }
            InstKind::Store { ptr, val, align, .. } => {
                let vt = crate::util::ty(m, f, *val);
                if !is_struct(m, vt) {
                    out.keep(id);
                    return Ok(());
                }
                let vals =
                    get(m, &split, *val, vt).ok_or_else(|| error(m, NAME, f, id, "store of an unknown aggregate"))?;
                let base = out.cast(m, CastOp::PtrToInt, *ptr, i32t);
                let _ = align;
                for ((off, lt, _), v) in leaves(m, vt).into_iter().zip(vals) {
                    let p = leaf_ptr(m, out, base, off, lt, i32t);
                    let s = store(m, p, v, 1);
                    out.emit(m, s);
                }
            }
            InstKind::Select { cond, on_true, on_false } if is_struct(m, i.ty) => {
                let t = get(m, &split, *on_true, i.ty)
                    .ok_or_else(|| error(m, NAME, f, id, "select of an unknown aggregate"))?;
                let e = get(m, &split, *on_false, i.ty)
                    .ok_or_else(|| error(m, NAME, f, id, "select of an unknown aggregate"))?;
                let mut vals = Vec::new();
                for ((a, b), (_, lt, _)) in t.into_iter().zip(e).zip(leaves(m, i.ty)) {
                    vals.push(out.emit(m, inst(InstKind::Select { cond: *cond, on_true: a, on_false: b }, lt)));
                }
                split.insert(Value::Inst(id), vals);
            }
            InstKind::Phi { .. } if is_struct(m, i.ty) => {
                let mut ids = Vec::new();
                for (_, lt, _) in leaves(m, i.ty) {
                    if let Value::Inst(p) = out.emit(m, inst(InstKind::Phi { incoming: Vec::new() }, lt)) {
                        ids.push(p);
                    }
                }
                split.insert(Value::Inst(id), ids.iter().map(|&p| Value::Inst(p)).collect());
                phis.push((id, ids));
            }
            // Calls returning a struct are intrinsics (`llvm.*.with.overflow`, ...), and a
            // `cmpxchg` gives `{ value, success }`: later passes expand them (the
            // arithmetic ones, nacl-rewrite-atomics), so their results stay whole, as
            // PNaCl's pass left them.
            InstKind::Call { .. } | InstKind::CmpXchg { .. } => out.keep(id),
            k if is_struct(m, i.ty) => {
                return Err(error(
                    m,
                    NAME,
                    f,
                    id,
                    format!("{} of a struct in registers is not supported", k.opcode_name()),
                ));
            }
            _ => out.keep(id),
        }
        Ok(())
    })?;
    for (old, new) in phis {
        let InstKind::Phi { incoming } = m.functions[f.0 as usize].inst(old).kind.clone() else { continue };
        let ty = m.functions[f.0 as usize].inst(old).ty;
        for (k, &p) in new.iter().enumerate() {
            let mut inc = Vec::new();
            for &(v, b) in &incoming {
                let vals = match v {
                    Value::Const(c) => const_leaves(m, c, ty),
                    other => split
                        .get(&other)
                        .cloned()
                        .ok_or_else(|| error(m, NAME, f, old, "phi of an unknown aggregate"))?,
                };
                inc.push((vals[k], b));
            }
            m.functions[f.0 as usize].inst_mut(p).kind = InstKind::Phi { incoming: inc };
        }
    }
    Ok(())
}

/// The address of a leaf at byte `off` from `base` (an `i32` address).
fn leaf_ptr(m: &mut Module, out: &mut crate::util::Out<'_>, base: Value, off: u64, lt: TypeId, i32t: TypeId) -> Value {
    let addr = if off == 0 {
        base
    } else {
        let k = i32_const(m, off);
        out.emit(m, binop(BinaryOp::Add, base, k, i32t))
    };
    let pt = ptr_to(m, lt);
    out.emit(m, inst(InstKind::Cast { op: CastOp::IntToPtr, val: addr }, pt))
}
