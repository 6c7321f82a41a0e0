//! `nacl-expand-tls`: thread-local variables are laid out in one template
//! (`__tls_template_start`, initialized data then zeroed data, `__tls_template_tdata_end`,
//! `__tls_template_end`, alignment in `__tls_template_alignment`) that the C library copies
//! below each thread's pointer; each use becomes `llvm.nacl.read.tp()` plus a fixed negative
//! offset.

use crate::util::{binop, call, declare, func_value, i32_const, inst, ptr_to};
use crate::{Pass, PassError};
use pnacl_llvm::ir::{
    BinaryOp, CastOp, Const, ConstId, ExprOp, GlobalId, GlobalProps, GlobalVar, InstKind, Linkage, Module, StructType,
    ThreadLocal, Type, Value,
};
use std::collections::{HashMap, HashSet};

/// The pass.
pub struct ExpandTls;

/// True if constant `c` refers to a thread-local global.
fn mentions(m: &Module, c: ConstId, tls: &HashSet<GlobalId>) -> bool {
    match m.consts.get(c) {
        Const::Global(g) => tls.contains(g),
        other => other.operands().iter().any(|&o| mentions(m, o, tls)),
    }
}

impl Pass for ExpandTls {
    fn name(&self) -> &'static str {
        "nacl-expand-tls"
    }

    fn run(&self, m: &mut Module) -> Result<(), PassError> {
        let tls: Vec<usize> = (0..m.globals.len())
            .filter(|&i| m.globals[i].thread_local != ThreadLocal::NotThreadLocal && m.globals[i].init.is_some())
            .collect();
        let wanted =
            ["__tls_template_start", "__tls_template_tdata_end", "__tls_template_end", "__tls_template_alignment"]
                .iter()
                .any(|n| m.globals.iter().any(|g| g.props.name == *n));
        if tls.is_empty() && !wanted {
            return Ok(());
        }
        // Layout: initialized variables first, then zero ones.
        let is_zero =
            |m: &Module, i: usize| matches!(m.consts.get(m.globals[i].init.expect("defined")), Const::Zero(_));
        let mut order: Vec<usize> = tls.iter().copied().filter(|&i| !is_zero(m, i)).collect();
        let tdata_count = order.len();
        order.extend(tls.iter().copied().filter(|&i| is_zero(m, i)));
        let i8t = m.types.int(8);
        let mut offsets = HashMap::new();
        let (mut size, mut align, mut tdata_size) = (0u64, 1u64, 0u64);
        let mut fields = Vec::new();
        let mut values = Vec::new();
        for (k, &i) in order.iter().enumerate() {
            let g = &m.globals[i];
            let a =
                u64::from(if g.props.align != 0 { g.props.align } else { m.types.abi_align(g.value_ty).unwrap_or(1) });
            let sz = m.types.alloc_size(g.value_ty).unwrap_or(0);
            let (vt, init) = (g.value_ty, g.init.expect("defined"));
            let at = size.div_ceil(a) * a;
            if k < tdata_count {
                if at > size {
                    let pad = m.types.intern(Type::Array { len: at - size, elem: i8t });
                    fields.push(pad);
                    values.push(m.consts.intern(Const::Zero(pad)));
                }
                fields.push(vt);
                values.push(init);
            }
            offsets.insert(GlobalId(i as u32), at);
            size = at + sz;
            align = align.max(a);
            if k + 1 == tdata_count {
                tdata_size = size;
            }
        }
        let total = size.div_ceil(align) * align;
        let template_ty = m.types.intern(Type::Struct(StructType { name: None, fields, packed: true, opaque: false }));
        let template = m.consts.intern(Const::Aggregate { ty: template_ty, elems: values });
        let start = define(m, "__tls_template_start", template_ty, template, align as u32);
        let i32t = m.types.int(32);
        let align_c = m.consts.int(i32t, 32, align);
        define(m, "__tls_template_alignment", i32t, align_c, 4);
        // The two ends point into the template.
        let start_c = m.consts.intern(Const::Global(start));
        let mut map = HashMap::new();
        for (name, off) in [("__tls_template_tdata_end", tdata_size), ("__tls_template_end", size)] {
            if let Some(gi) = m.globals.iter().position(|g| g.props.name == name) {
                let i8p = ptr_to(m, i8t);
                let base = m.consts.intern(Const::Expr {
                    ty: i8p,
                    op: ExprOp::Cast(CastOp::Bitcast),
                    operands: vec![start_c],
                });
                let k = m.consts.int(i32t, 32, off);
                let past = m.consts.intern(Const::Expr {
                    ty: i8p,
                    op: ExprOp::GetElementPtr { source_ty: i8t, inbounds: false, in_range: None },
                    operands: vec![base, k],
                });
                let end = m.consts.intern(Const::Global(GlobalId(gi as u32)));
                let end_ty = m.const_type(end).unwrap_or(i8p);
                let past = if end_ty == i8p {
                    past
                } else {
                    m.consts.intern(Const::Expr { ty: end_ty, op: ExprOp::Cast(CastOp::Bitcast), operands: vec![past] })
                };
                map.insert(end, past);
            }
        }
        m.replace_constants(&map);
        // Each function reads the thread pointer once, at its start.
        let tls_set: HashSet<GlobalId> = offsets.keys().copied().collect();
        let i8p = ptr_to(m, i8t);
        let tp_ty = m.types.function(i8p, Vec::new(), false);
        for f in crate::util::defined(m) {
            let uses = m.functions[f.0 as usize].layout().any(|(_, id)| {
                let mut any = false;
                m.functions[f.0 as usize].inst(id).kind.for_each_value(|v| {
                    any |= matches!(v, Value::Const(c) if mentions(m, c, &tls_set));
                });
                any
            });
            if !uses {
                continue;
            }
            let read_tp = declare(m, "llvm.nacl.read.tp", tp_ty);
            let callee = func_value(m, read_tp);
            let c = call(m, read_tp, Vec::new(), callee);
            let tp_call = m.functions[f.0 as usize].add_inst(c);
            let tp_int = m.functions[f.0 as usize]
                .add_inst(inst(InstKind::Cast { op: CastOp::PtrToInt, val: Value::Inst(tp_call) }, i32t));
            m.functions[f.0 as usize].blocks[0].insts.splice(0..0, [tp_call, tp_int]);
            let tp = Value::Inst(tp_int);
            crate::util::rebuild(m, f, |m, id, out, _| {
                if id == tp_call || id == tp_int {
                    out.keep(id);
                    return Ok(());
                }
                let mut kind = m.functions[f.0 as usize].inst(id).kind.clone();
                let mut consts = Vec::new();
                kind.for_each_value(|v| {
                    if let Value::Const(c) = v
                        && mentions(m, c, &tls_set)
                        && !consts.contains(&c)
                    {
                        consts.push(c);
                    }
                });
                if consts.is_empty() {
                    out.keep(id);
                    return Ok(());
                }
                let mut repl = HashMap::new();
                for c in consts {
                    // The address of each thread-local global, then the expression over it.
                    let addr = |m: &mut Module, out: &mut crate::util::Out<'_>, g: GlobalId| {
                        let off = offsets[&g] as i64 - total as i64;
                        let k = i32_const(m, u64::from(off as u32));
                        let sum = out.emit(m, binop(BinaryOp::Add, tp, k, i32t));
                        let gt = m.consts.intern(Const::Global(g));
                        let pt = m.const_type(gt).unwrap_or(i8p);
                        out.emit(m, inst(InstKind::Cast { op: CastOp::IntToPtr, val: sum }, pt))
                    };
                    let v = match m.consts.get(c).clone() {
                        Const::Global(g) => addr(m, out, g),
                        _ => {
                            let mut list = Vec::new();
                            let e = crate::expand_constant_expr::expand(m, f, c, &mut list);
                            // Expanded instructions still mention the globals: rewrite them too.
                            for l in list {
                                let mut k = m.functions[f.0 as usize].inst(l).kind.clone();
                                let mut gs = Vec::new();
                                k.for_each_value(|v| {
                                    if let Value::Const(x) = v
                                        && let Const::Global(g) = m.consts.get(x)
                                        && tls_set.contains(g)
                                    {
                                        gs.push((v, *g));
                                    }
                                });
                                let mut sub = HashMap::new();
                                for (v, g) in gs {
                                    let a = addr(m, out, g);
                                    sub.insert(v, a);
                                }
                                k.map_values(|v| sub.get(&v).copied().unwrap_or(v));
                                m.functions[f.0 as usize].inst_mut(l).kind = k;
                                out.keep(l);
                            }
                            e
                        }
                    };
                    repl.insert(Value::Const(c), v);
                }
                kind.map_values(|v| repl.get(&v).copied().unwrap_or(v));
                m.functions[f.0 as usize].inst_mut(id).kind = kind;
                out.keep(id);
                Ok(())
            })?;
        }
        let dead: HashSet<usize> = tls.into_iter().collect();
        m.retain_globals(|id, _| !dead.contains(&(id.0 as usize)));
        Ok(())
    }
}

/// Gives global `name` (declared or new) the value `init`; returns its id.
fn define(m: &mut Module, name: &str, ty: pnacl_llvm::ir::TypeId, init: ConstId, align: u32) -> GlobalId {
    let i = match m.globals.iter().position(|g| g.props.name == name) {
        Some(i) => i,
        None => {
            m.globals.push(GlobalVar {
                props: GlobalProps { name: name.to_string(), ..GlobalProps::default() },
                value_ty: ty,
                is_constant: true,
                init: None,
                thread_local: ThreadLocal::NotThreadLocal,
                externally_initialized: false,
            });
            m.globals.len() - 1
        }
    };
    let g = &mut m.globals[i];
    g.value_ty = ty;
    g.init = Some(init);
    g.is_constant = true;
    g.props.linkage = Linkage::Internal;
    g.props.align = align;
    m.pointer_type(ty, 0);
    GlobalId(i as u32)
}
