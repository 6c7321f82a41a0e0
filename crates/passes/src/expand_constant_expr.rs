//! `expand-constant-expr`: constant expressions used by instructions become instructions
//! (before the user, or at the end of the predecessor for a phi's incoming value); global
//! initializers keep theirs, for FlattenGlobals.

use crate::promote_i1_ops::{binary_extension, compare_extension};
use crate::util::inst;
use crate::{Pass, PassError};
use pnacl_llvm::ir::{CastOp, Const, ConstId, ExprOp, FuncId, InstId, InstKind, IntPred, Module, Value};

/// The pass.
pub struct ExpandConstantExpr;

/// True if `c` is a constant expression, or an aggregate or vector holding one.
fn has_expr(m: &Module, c: ConstId) -> bool {
    matches!(m.consts.get(c), Const::Expr { .. })
}

/// The instruction that computes constant expression `c`, its operands computed first
/// (pushed on `out`).
pub(crate) fn expand(m: &mut Module, f: FuncId, c: ConstId, out: &mut Vec<InstId>) -> Value {
    let Const::Expr { ty, op, operands } = m.consts.get(c).clone() else { return Value::Const(c) };
    let ops: Vec<Value> =
        operands.iter().map(|&o| if has_expr(m, o) { expand(m, f, o, out) } else { Value::Const(o) }).collect();
    // nacl-promote-i1-ops ran before this pass: arithmetic and ordered compares on i1 that
    // only appear now (`icmp ugt i1 (icmp eq ...), true` folded into a branch) are widened
    // here as it widens them.
    let i1 = m.types.int(1);
    let on_i1 = operands.first().is_some_and(|&o| m.const_type(o) == Some(i1));
    let ops = match op {
        ExprOp::ICmp(pred) if on_i1 && !matches!(pred, IntPred::Eq | IntPred::Ne) => {
            widen_i1(m, f, &ops, compare_extension(pred), out)
        }
        ExprOp::Binary(b, _) if on_i1 => match binary_extension(b) {
            Some(ext) => {
                let wide = widen_i1(m, f, &ops, ext, out);
                let i8t = m.types.int(8);
                let k = InstKind::Binary { op: b, lhs: wide[0], rhs: wide[1], flags: 0 };
                let v = m.functions[f.0 as usize].add_inst(inst(k, i8t));
                out.push(v);
                let trunc = InstKind::Cast { op: CastOp::Trunc, val: Value::Inst(v) };
                let t = m.functions[f.0 as usize].add_inst(inst(trunc, i1));
                out.push(t);
                return Value::Inst(t);
            }
            None => ops,
        },
        _ => ops,
    };
    let kind = match op {
        ExprOp::Cast(op) => InstKind::Cast { op, val: ops[0] },
        ExprOp::Binary(op, flags) => InstKind::Binary { op, lhs: ops[0], rhs: ops[1], flags: u32::from(flags) },
        ExprOp::FNeg => InstKind::FNeg { val: ops[0], flags: 0 },
        ExprOp::GetElementPtr { source_ty, inbounds, .. } => {
            InstKind::GetElementPtr { source_ty, inbounds, base: ops[0], indices: ops[1..].to_vec() }
        }
        ExprOp::ICmp(pred) => InstKind::ICmp { pred, lhs: ops[0], rhs: ops[1] },
        ExprOp::FCmp(pred) => InstKind::FCmp { pred, lhs: ops[0], rhs: ops[1], flags: 0 },
        ExprOp::Select => InstKind::Select { cond: ops[0], on_true: ops[1], on_false: ops[2] },
        ExprOp::ExtractElement => InstKind::ExtractElement { vector: ops[0], index: ops[1] },
        ExprOp::InsertElement => InstKind::InsertElement { vector: ops[0], element: ops[1], index: ops[2] },
        ExprOp::ShuffleVector => {
            let mask = shuffle_mask(m, operands.get(2).copied());
            InstKind::ShuffleVector { a: ops[0], b: ops[1], mask }
        }
        ExprOp::ExtractValue(indices) => InstKind::ExtractValue { agg: ops[0], indices },
        ExprOp::InsertValue(indices) => InstKind::InsertValue { agg: ops[0], val: ops[1], indices },
    };
    let id = m.functions[f.0 as usize].add_inst(inst(kind, ty));
    out.push(id);
    Value::Inst(id)
}

/// `ops` extended to i8 by `ext`, each by an instruction pushed on `out`.
fn widen_i1(m: &mut Module, f: FuncId, ops: &[Value], ext: CastOp, out: &mut Vec<InstId>) -> Vec<Value> {
    let i8t = m.types.int(8);
    ops.iter()
        .map(|&v| {
            let id = m.functions[f.0 as usize].add_inst(inst(InstKind::Cast { op: ext, val: v }, i8t));
            out.push(id);
            Value::Inst(id)
        })
        .collect()
}

/// A shuffle mask given as a constant vector.
fn shuffle_mask(m: &Module, c: Option<ConstId>) -> Vec<i32> {
    let Some(c) = c else { return Vec::new() };
    match m.consts.get(c) {
        Const::Data { elems, .. } => elems.iter().map(|&e| e as i32).collect(),
        Const::Aggregate { elems, .. } => elems
            .iter()
            .map(|&e| match m.consts.get(e) {
                Const::Int { value, .. } => *value as i32,
                _ => -1,
            })
            .collect(),
        Const::Zero(t) => vec![0; m.types.element(*t).map_or(0, |_| vector_len(m, *t))],
        _ => Vec::new(),
    }
}

fn vector_len(m: &Module, t: pnacl_llvm::ir::TypeId) -> usize {
    match m.types.get(t) {
        pnacl_llvm::ir::Type::Vector { len, .. } => *len as usize,
        _ => 0,
    }
}

impl Pass for ExpandConstantExpr {
    fn name(&self) -> &'static str {
        "expand-constant-expr"
    }

    fn run(&self, m: &mut Module) -> Result<(), PassError> {
        for f in crate::util::defined(m) {
            let nblocks = m.functions[f.0 as usize].blocks.len();
            // Phis first: their expansions go to the end of the predecessors.
            let mut tails: Vec<Vec<InstId>> = vec![Vec::new(); nblocks];
            for b in 0..nblocks {
                let ids = m.functions[f.0 as usize].blocks[b].insts.clone();
                for id in ids {
                    let InstKind::Phi { incoming } = m.functions[f.0 as usize].inst(id).kind.clone() else { continue };
                    let mut new = incoming.clone();
                    // A predecessor that branches here on several edges (a switch's cases)
                    // has several entries, which must carry one value: one expansion each.
                    let mut expanded: std::collections::HashMap<(u32, ConstId), Value> = Default::default();
                    for (k, (v, pred)) in incoming.iter().enumerate() {
                        if let Value::Const(c) = v
                            && has_expr(m, *c)
                        {
                            if let Some(&done) = expanded.get(&(pred.0, *c)) {
                                new[k].0 = done;
                                continue;
                            }
                            let mut list = Vec::new();
                            new[k].0 = expand(m, f, *c, &mut list);
                            expanded.insert((pred.0, *c), new[k].0);
                            tails[pred.0 as usize].extend(list);
                        }
                    }
                    m.functions[f.0 as usize].inst_mut(id).kind = InstKind::Phi { incoming: new };
                }
            }
            for (b, tail) in tails.into_iter().enumerate() {
                if tail.is_empty() {
                    continue;
                }
                let blk = &mut m.functions[f.0 as usize].blocks[b];
                let at = blk.insts.len().saturating_sub(1);
                blk.insts.splice(at..at, tail);
            }
            crate::util::rebuild(m, f, |m, id, out, _| {
                if matches!(m.functions[f.0 as usize].inst(id).kind, InstKind::Phi { .. }) {
                    out.keep(id);
                    return Ok(());
                }
                let mut kind = m.functions[f.0 as usize].inst(id).kind.clone();
                let mut exprs = Vec::new();
                kind.for_each_value(|v| {
                    if let Value::Const(c) = v
                        && has_expr(m, c)
                        && !exprs.contains(&c)
                    {
                        exprs.push(c);
                    }
                });
                let mut before = Vec::new();
                if !exprs.is_empty() {
                    let map: std::collections::HashMap<ConstId, Value> =
                        exprs.into_iter().map(|c| (c, expand(m, f, c, &mut before))).collect();
                    kind.map_values(|v| match v {
                        Value::Const(c) => map.get(&c).copied().unwrap_or(v),
                        other => other,
                    });
                    m.functions[f.0 as usize].inst_mut(id).kind = kind;
                }
                for b in before {
                    out.keep(b);
                }
                out.keep(id);
                Ok(())
            })?;
        }
        Ok(())
    }
}
