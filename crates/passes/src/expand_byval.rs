//! `expand-byval`: a `byval` argument becomes a copy the caller makes on its stack and
//! passes by plain pointer; `sret` becomes a plain pointer parameter.

use crate::expand_varargs::copy_bytes;
use crate::util::{i32_const, inst, ptr_to};
use crate::{Pass, PassError};
use pnacl_llvm::ir::{Attr, Attrs, BlockId, InstId, InstKind, Module, Value, attr_kind};

/// The pass.
pub struct ExpandByVal;

/// Drops `byval`, `sret` and their companions from attribute lists.
fn strip(attrs: &mut Attrs) {
    for p in &mut attrs.params {
        p.retain(|a| !matches!(a.kind(), Some(attr_kind::BYVAL | attr_kind::STRUCT_RET | attr_kind::INALLOCA)));
    }
}

/// The type a `byval` parameter points to, from the attribute or the pointer type.
fn byval_pointee(
    m: &Module,
    attrs: &Attrs,
    index: usize,
    ptr_ty: pnacl_llvm::ir::TypeId,
) -> Option<pnacl_llvm::ir::TypeId> {
    attrs
        .param(index)
        .iter()
        .find_map(|a| match a {
            Attr::Type(k, Some(t)) if *k == attr_kind::BYVAL => Some(*t),
            _ => None,
        })
        .or_else(|| m.types.pointee(ptr_ty))
}

/// The alignment a `byval` copy needs.
fn byval_align(attrs: &Attrs, index: usize) -> u32 {
    attrs
        .param(index)
        .iter()
        .find_map(|a| match a {
            Attr::Int(k, v) if *k == attr_kind::ALIGN => Some(*v as u32),
            _ => None,
        })
        .unwrap_or(0)
}

impl Pass for ExpandByVal {
    fn name(&self) -> &'static str {
        "expand-byval"
    }

    fn run(&self, m: &mut Module) -> Result<(), PassError> {
        let i8t = m.types.int(8);
        let i8p = ptr_to(m, i8t);
        for f in crate::util::defined(m) {
            let mut entry_allocas: Vec<InstId> = Vec::new();
            crate::util::rebuild(m, f, |m, id, out, _| {
                let i = m.functions[f.0 as usize].inst(id).clone();
                let InstKind::Call { args, attrs, .. } = &i.kind else {
                    out.keep(id);
                    return Ok(());
                };
                let mut new_args = args.clone();
                for (k, &a) in args.iter().enumerate() {
                    if !attrs.param_has(k, attr_kind::BYVAL) {
                        continue;
                    }
                    let pt = crate::util::ty(m, f, a);
                    let Some(t) = byval_pointee(m, attrs, k, pt) else { continue };
                    let size = m.types.alloc_size(t).unwrap_or(0);
                    let align = byval_align(attrs, k).max(m.types.abi_align(t).unwrap_or(1));
                    let one = i32_const(m, 1);
                    let tp = ptr_to(m, t);
                    let copy = m.functions[f.0 as usize]
                        .add_inst(inst(InstKind::Alloca { allocated_ty: t, count: one, align }, tp));
                    entry_allocas.push(copy);
                    copy_bytes(m, out, Value::Inst(copy), a, size, i8p);
                    new_args[k] = out.to_ptr(m, Value::Inst(copy), pt);
                }
                let mut new = i.clone();
                if let InstKind::Call { args, attrs, .. } = &mut new.kind {
                    *args = new_args;
                    strip(attrs);
                }
                *m.functions[f.0 as usize].inst_mut(id) = new;
                out.keep(id);
                Ok(())
            })?;
            if !entry_allocas.is_empty() {
                let entry = &mut m.functions[f.0 as usize].blocks[BlockId(0).0 as usize];
                entry.insts.splice(0..0, entry_allocas);
            }
        }
        for f in &mut m.functions {
            strip(&mut f.attrs);
        }
        Ok(())
    }
}
