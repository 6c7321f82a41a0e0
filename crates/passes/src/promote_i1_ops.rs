//! `nacl-promote-i1-ops`: `i1` loads and stores, and `i1` arithmetic and comparisons other
//! than `and`, `or` and `xor`, are done on `i8` instead (PNaCl allows only logic on `i1`).

use crate::util::{inst, load, ptr_to, store};
use crate::{Pass, PassError};
use pnacl_llvm::ir::{BinaryOp, CastOp, InstKind, IntPred, Module, Value};

/// How an `i1` binary operator is computed on `i8`: the extension of its operands (signed
/// operations see -1 for true); `None` for `and`, `or` and `xor`, which stay on `i1`.
pub(crate) fn binary_extension(op: BinaryOp) -> Option<CastOp> {
    match op {
        BinaryOp::And | BinaryOp::Or | BinaryOp::Xor => None,
        BinaryOp::SDiv | BinaryOp::SRem | BinaryOp::AShr => Some(CastOp::SExt),
        _ => Some(CastOp::ZExt),
    }
}

/// The extension to `i8` of the operands of an `i1` comparison.
pub(crate) fn compare_extension(pred: IntPred) -> CastOp {
    if matches!(pred, IntPred::Sgt | IntPred::Sge | IntPred::Slt | IntPred::Sle) { CastOp::SExt } else { CastOp::ZExt }
}

/// The pass.
pub struct PromoteI1Ops;

impl Pass for PromoteI1Ops {
    fn name(&self) -> &'static str {
        "nacl-promote-i1-ops"
    }

    fn run(&self, m: &mut Module) -> Result<(), PassError> {
        let i1t = m.types.int(1);
        let i8t = m.types.int(8);
        let i8p = ptr_to(m, i8t);
        for f in crate::util::defined(m) {
            crate::util::rebuild(m, f, |m, id, out, replace| {
                let i = m.functions[f.0 as usize].inst(id).clone();
                let is_i1 = |m: &Module, v: Value| m.value_type(f, v) == Some(i1t);
                match i.kind {
                    InstKind::Load { ptr, align, .. } if i.ty == i1t => {
                        let p = out.to_ptr(m, ptr, i8p);
                        let v = out.emit(m, load(p, i8t, align));
                        let t = out.cast(m, CastOp::Trunc, v, i1t);
                        replace.insert(Value::Inst(id), t);
                    }
                    InstKind::Store { ptr, val, align, .. } if is_i1(m, val) => {
                        let p = out.to_ptr(m, ptr, i8p);
                        let v = out.cast(m, CastOp::ZExt, val, i8t);
                        let s = store(m, p, v, align);
                        out.emit(m, s);
                    }
                    InstKind::Binary { op, lhs, rhs, .. } if i.ty == i1t => match binary_extension(op) {
                        Some(ext) => {
                            let l = out.cast(m, ext, lhs, i8t);
                            let r = out.cast(m, ext, rhs, i8t);
                            let v = out.emit(m, inst(InstKind::Binary { op, lhs: l, rhs: r, flags: 0 }, i8t));
                            let t = out.cast(m, CastOp::Trunc, v, i1t);
                            replace.insert(Value::Inst(id), t);
                        }
                        None => out.keep(id),
                    },
                    InstKind::ICmp { pred, lhs, rhs } if is_i1(m, lhs) => {
                        let ext = compare_extension(pred);
                        let l = out.cast(m, ext, lhs, i8t);
                        let r = out.cast(m, ext, rhs, i8t);
                        let v = out.emit(m, inst(InstKind::ICmp { pred, lhs: l, rhs: r }, i1t));
                        replace.insert(Value::Inst(id), v);
                    }
                    InstKind::Switch { cond, default, cases } if is_i1(m, cond) => {
                        let c = out.cast(m, CastOp::ZExt, cond, i8t);
                        let cases = cases
                            .iter()
                            .map(|&(k, b)| {
                                let v = match m.consts.get(k) {
                                    pnacl_llvm::ir::Const::Int { value, .. } => *value,
                                    _ => 0,
                                };
                                (m.consts.int(i8t, 8, v), b)
                            })
                            .collect();
                        m.functions[f.0 as usize].inst_mut(id).kind = InstKind::Switch { cond: c, default, cases };
                        out.keep(id);
                    }
                    _ => out.keep(id),
                }
                Ok(())
            })?;
        }
        Ok(())
    }
}
