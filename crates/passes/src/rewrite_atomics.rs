//! `nacl-rewrite-atomics`: atomic and volatile loads and stores, `atomicrmw`, `cmpxchg` and
//! `fence` become the `llvm.nacl.atomic.*` intrinsics, with sequentially consistent order
//! (as PNaCl's own toolchain froze every order).

use crate::remove_asm_memory::is_barrier;
use crate::util::{call, declare, error, func_value, i32_const, inst, ptr_to, undef};
use crate::{Pass, PassError};
use pnacl_llvm::ir::{CastOp, FuncId, InstId, InstKind, IntPred, Module, Ordering, RmwOp, Type, TypeId, Value};
use std::collections::HashSet;

/// The pass.
pub struct RewriteAtomics;

const NAME: &str = "nacl-rewrite-atomics";
/// PNaCl's encoding of `seq_cst`.
const SEQ_CST: u64 = 6;

/// The integer type of the same width as `t` (`i32` for pointers), if PNaCl has atomics
/// of that width.
fn int_of(m: &mut Module, t: TypeId) -> Option<TypeId> {
    let bits = match m.types.get(t) {
        Type::Int(w) => *w,
        Type::Float => 32,
        Type::Double => 64,
        Type::Pointer { .. } => 32,
        _ => return None,
    };
    matches!(bits, 8 | 16 | 32 | 64).then(|| m.types.int(bits))
}

/// The conversion between `from` and `to` (an integer of the same width).
fn convert(m: &Module, from: TypeId, to: TypeId) -> Option<CastOp> {
    if from == to {
        return None;
    }
    Some(if m.types.get(from).is_pointer() {
        CastOp::PtrToInt
    } else if m.types.get(to).is_pointer() {
        CastOp::IntToPtr
    } else {
        CastOp::Bitcast
    })
}

/// The intrinsic `llvm.nacl.atomic.KIND.iN`, declared with its PNaCl signature.
fn intrinsic(m: &mut Module, kind: &str, it: TypeId) -> FuncId {
    let w = m.types.get(it).int_width().unwrap_or(32);
    let i32t = m.types.int(32);
    let void = m.types.void();
    let p = ptr_to(m, it);
    let ty = match kind {
        "load" => m.types.function(it, vec![p, i32t], false),
        "store" => m.types.function(void, vec![it, p, i32t], false),
        "rmw" => m.types.function(it, vec![i32t, p, it, i32t], false),
        _ => m.types.function(it, vec![p, it, it, i32t, i32t], false),
    };
    declare(m, &format!("llvm.nacl.atomic.{kind}.i{w}"), ty)
}

impl Pass for RewriteAtomics {
    fn name(&self) -> &'static str {
        NAME
    }

    fn run(&self, m: &mut Module) -> Result<(), PassError> {
        let i1t = m.types.int(1);
        let i32t = m.types.int(32);
        let void = m.types.void();
        for f in crate::util::defined(m) {
            // `asm "" ~{memory}; fence seq_cst; asm "" ~{memory}` (C11's full barrier, as
            // the C library spells it) becomes `llvm.nacl.atomic.fence.all` between the
            // barriers, which RemoveAsmMemory deletes.
            let func = &m.functions[f.0 as usize];
            let fence_all: HashSet<InstId> = func
                .blocks
                .iter()
                .flat_map(|b| b.insts.windows(3))
                .filter(|w| {
                    matches!(func.inst(w[1]).kind, InstKind::Fence { ordering: Ordering::SeqCst, single_thread: false })
                        && is_barrier(m, func, w[0])
                        && is_barrier(m, func, w[2])
                })
                .map(|w| w[1])
                .collect();
            crate::util::rebuild(m, f, |m, id, out, replace| {
                let i = m.functions[f.0 as usize].inst(id).clone();
                let order = i32_const(m, SEQ_CST);
                match i.kind {
                    InstKind::Load { ptr, volatile, ordering, .. } if volatile || ordering != Ordering::NotAtomic => {
                        let it = int_of(m, i.ty).ok_or_else(|| error(m, NAME, f, id, "an atomic load of this type"))?;
                        let ip = ptr_to(m, it);
                        let p = out.to_ptr(m, ptr, ip);
                        let fid = intrinsic(m, "load", it);
                        let callee = func_value(m, fid);
                        let c = call(m, fid, vec![p, order], callee);
                        let v = out.emit(m, c);
                        let r = match convert(m, it, i.ty) {
                            Some(op) => out.emit(m, inst(InstKind::Cast { op, val: v }, i.ty)),
                            None => v,
                        };
                        replace.insert(Value::Inst(id), r);
                    }
                    InstKind::Store { ptr, val, volatile, ordering, .. }
                        if volatile || ordering != Ordering::NotAtomic =>
                    {
                        let vt = crate::util::ty(m, f, val);
                        let it = int_of(m, vt).ok_or_else(|| error(m, NAME, f, id, "an atomic store of this type"))?;
                        let v = match convert(m, vt, it) {
                            Some(op) => out.emit(m, inst(InstKind::Cast { op, val }, it)),
                            None => val,
                        };
                        let ip = ptr_to(m, it);
                        let p = out.to_ptr(m, ptr, ip);
                        let fid = intrinsic(m, "store", it);
                        let callee = func_value(m, fid);
                        let c = call(m, fid, vec![v, p, order], callee);
                        out.emit(m, c);
                    }
                    InstKind::AtomicRmw { op, ptr, val, .. } => {
                        let code = match op {
                            RmwOp::Add => 1,
                            RmwOp::Sub => 2,
                            RmwOp::Or => 3,
                            RmwOp::And => 4,
                            RmwOp::Xor => 5,
                            RmwOp::Xchg => 6,
                            _ => return Err(error(m, NAME, f, id, format!("atomicrmw {op:?} is not supported"))),
                        };
                        let vt = crate::util::ty(m, f, val);
                        let it = int_of(m, vt).ok_or_else(|| error(m, NAME, f, id, "an atomicrmw of this type"))?;
                        let v = match convert(m, vt, it) {
                            Some(op) => out.emit(m, inst(InstKind::Cast { op, val }, it)),
                            None => val,
                        };
                        let ip = ptr_to(m, it);
                        let p = out.to_ptr(m, ptr, ip);
                        let fid = intrinsic(m, "rmw", it);
                        let callee = func_value(m, fid);
                        let k = i32_const(m, code);
                        let c = call(m, fid, vec![k, p, v, order], callee);
                        let r = out.emit(m, c);
                        let r = match convert(m, it, vt) {
                            Some(op) => out.emit(m, inst(InstKind::Cast { op, val: r }, vt)),
                            None => r,
                        };
                        replace.insert(Value::Inst(id), r);
                    }
                    InstKind::CmpXchg { ptr, cmp, new, .. } => {
                        let vt = crate::util::ty(m, f, cmp);
                        let it = int_of(m, vt).ok_or_else(|| error(m, NAME, f, id, "a cmpxchg of this type"))?;
                        let (e, n) = match convert(m, vt, it) {
                            Some(op) => (
                                out.emit(m, inst(InstKind::Cast { op, val: cmp }, it)),
                                out.emit(m, inst(InstKind::Cast { op, val: new }, it)),
                            ),
                            None => (cmp, new),
                        };
                        let ip = ptr_to(m, it);
                        let p = out.to_ptr(m, ptr, ip);
                        let fid = intrinsic(m, "cmpxchg", it);
                        let callee = func_value(m, fid);
                        let c = call(m, fid, vec![p, e, n, order, order], callee);
                        let old = out.emit(m, c);
                        let ok = out.emit(m, inst(InstKind::ICmp { pred: IntPred::Eq, lhs: old, rhs: e }, i1t));
                        let old = match convert(m, it, vt) {
                            Some(op) => out.emit(m, inst(InstKind::Cast { op, val: old }, vt)),
                            None => old,
                        };
                        let u = undef(m, i.ty);
                        let s0 = out.emit(m, inst(InstKind::InsertValue { agg: u, val: old, indices: vec![0] }, i.ty));
                        let s1 = out.emit(m, inst(InstKind::InsertValue { agg: s0, val: ok, indices: vec![1] }, i.ty));
                        replace.insert(Value::Inst(id), s1);
                    }
                    InstKind::Fence { single_thread, .. } => {
                        // A fence for one thread only orders the compiler, which a pexe's
                        // translator never reorders across calls anyway.
                        if fence_all.contains(&id) {
                            let ty = m.types.function(void, Vec::new(), false);
                            let fid = declare(m, "llvm.nacl.atomic.fence.all", ty);
                            let callee = func_value(m, fid);
                            let c = call(m, fid, Vec::new(), callee);
                            out.emit(m, c);
                        } else if !single_thread {
                            let ty = m.types.function(void, vec![i32t], false);
                            let fid = declare(m, "llvm.nacl.atomic.fence", ty);
                            let callee = func_value(m, fid);
                            let c = call(m, fid, vec![order], callee);
                            out.emit(m, c);
                        }
                    }
                    _ => out.keep(id),
                }
                Ok(())
            })?;
        }
        Ok(())
    }
}
