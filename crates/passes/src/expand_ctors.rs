//! `nacl-expand-ctors`: `llvm.global_ctors` and `llvm.global_dtors` become the arrays
//! `__init_array_start` and `__fini_array_start` of function pointers (by priority), and
//! uses of `__init_array_end` / `__fini_array_end` point just past them.

use crate::{Pass, PassError};
use pnacl_llvm::ir::{Const, ConstId, ExprOp, GlobalId, GlobalProps, GlobalVar, Linkage, Module, ThreadLocal, Type};
use std::collections::HashMap;

/// The pass.
pub struct ExpandCtors;

/// The `(priority, function)` entries of a `llvm.global_ctors`-style array.
fn entries(m: &Module, init: ConstId) -> Vec<(u64, ConstId)> {
    let Const::Aggregate { elems, .. } = m.consts.get(init) else { return Vec::new() };
    let mut out: Vec<(u64, ConstId)> = elems
        .iter()
        .filter_map(|&e| match m.consts.get(e) {
            Const::Aggregate { elems: f, .. } if f.len() >= 2 => {
                let prio = match m.consts.get(f[0]) {
                    Const::Int { value, .. } => *value,
                    _ => 65535,
                };
                matches!(m.consts.get(f[1]), Const::Function(_) | Const::Expr { .. }).then_some((prio, f[1]))
            }
            _ => None,
        })
        .collect();
    out.sort_by_key(|e| e.0);
    out
}

fn expand(m: &mut Module, list: &str, start: &str, end: &str) {
    let init = m.globals.iter().find(|g| g.props.name == list).and_then(|g| g.init);
    let funcs: Vec<ConstId> = init.map(|i| entries(m, i)).unwrap_or_default().into_iter().map(|e| e.1).collect();
    m.retain_globals(|_, g| g.props.name != list);
    let uses_start = m.globals.iter().position(|g| g.props.name == start);
    let uses_end = m.globals.iter().position(|g| g.props.name == end);
    if uses_start.is_none() && uses_end.is_none() {
        return;
    }
    let void = m.types.void();
    let fn_ty = m.types.function(void, Vec::new(), false);
    let fp = m.pointer_type(fn_ty, 0);
    let arr = m.types.intern(Type::Array { len: funcs.len() as u64, elem: fp });
    let elems: Vec<ConstId> = funcs
        .iter()
        .map(|&c| {
            if m.const_type(c) == Some(fp) {
                c
            } else {
                m.consts.intern(Const::Expr {
                    ty: fp,
                    op: ExprOp::Cast(pnacl_llvm::ir::CastOp::Bitcast),
                    operands: vec![c],
                })
            }
        })
        .collect();
    let value = if elems.is_empty() {
        m.consts.intern(Const::Zero(arr))
    } else {
        m.consts.intern(Const::Aggregate { ty: arr, elems })
    };
    let gi = match uses_start {
        Some(i) => i,
        None => {
            m.globals.push(GlobalVar {
                props: GlobalProps { name: start.to_string(), ..GlobalProps::default() },
                value_ty: arr,
                is_constant: true,
                init: None,
                thread_local: ThreadLocal::NotThreadLocal,
                externally_initialized: false,
            });
            m.globals.len() - 1
        }
    };
    let g = &mut m.globals[gi];
    g.value_ty = arr;
    g.init = Some(value);
    g.is_constant = true;
    g.props.linkage = Linkage::Internal;
    g.props.align = 4;
    let new_ptr = m.pointer_type(arr, 0);
    let start_c = m.consts.intern(Const::Global(GlobalId(gi as u32)));
    let mut map = HashMap::new();
    if let Some(ei) = uses_end {
        let i32t = m.types.int(32);
        let one = m.consts.int(i32t, 32, 1);
        let past = m.consts.intern(Const::Expr {
            ty: new_ptr,
            op: ExprOp::GetElementPtr { source_ty: arr, inbounds: false, in_range: None },
            operands: vec![start_c, one],
        });
        let end_c = m.consts.intern(Const::Global(GlobalId(ei as u32)));
        let end_ty = m.const_type(end_c).unwrap_or(new_ptr);
        let past = if end_ty == new_ptr {
            past
        } else {
            m.consts.intern(Const::Expr {
                ty: end_ty,
                op: ExprOp::Cast(pnacl_llvm::ir::CastOp::Bitcast),
                operands: vec![past],
            })
        };
        map.insert(end_c, past);
        m.replace_constants(&map);
        m.retain_globals(|id, _| id.0 as usize != ei);
    }
}

impl Pass for ExpandCtors {
    fn name(&self) -> &'static str {
        "nacl-expand-ctors"
    }

    fn run(&self, m: &mut Module) -> Result<(), PassError> {
        expand(m, "llvm.global_ctors", "__init_array_start", "__init_array_end");
        expand(m, "llvm.global_dtors", "__fini_array_start", "__fini_array_end");
        Ok(())
    }
}
