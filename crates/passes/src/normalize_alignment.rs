//! `normalize-alignment`: gives loads, stores and memory intrinsics the alignments the PNaCl
//! ABI allows (1 for integers; the natural one or 1 for floats; 1 for `llvm.mem*`).

use crate::util::callee_name;
use crate::{Pass, PassError};
use pnacl_llvm::ir::{Attr, Attrs, Const, InstKind, Module, Type, Value, attr_kind};

/// The pass.
pub struct NormalizeAlignment;

/// The alignment PNaCl allows for an access of type `t` that claimed `align`.
fn normalize(m: &Module, t: pnacl_llvm::ir::TypeId, align: u32) -> u32 {
    match m.types.get(t) {
        Type::Float | Type::Double => {
            let natural = m.types.store_size(t).unwrap_or(1) as u32;
            if align == 0 || align >= natural { natural } else { 1 }
        }
        // Vector accesses are FixVectorLoadStoreAlignment's business.
        Type::Vector { .. } => align,
        _ => 1,
    }
}

impl Pass for NormalizeAlignment {
    fn name(&self) -> &'static str {
        "normalize-alignment"
    }

    fn run(&self, m: &mut Module) -> Result<(), PassError> {
        let i32t = m.types.int(32);
        let one = Value::Const(m.consts.int(i32t, 32, 1));
        for fi in 0..m.functions.len() {
            let n = m.functions[fi].insts.len();
            for ii in 0..n {
                let id = pnacl_llvm::ir::InstId(ii as u32);
                let f = &m.functions[fi];
                let is_mem = callee_name(m, f, id).is_some_and(is_mem_intrinsic);
                let inst = &f.insts[ii];
                let new_align = match &inst.kind {
                    InstKind::Load { align, ordering, .. } if *ordering == Default::default() => {
                        Some(normalize(m, inst.ty, *align))
                    }
                    InstKind::Store { val, align, ordering, .. } if *ordering == Default::default() => {
                        let t = m.value_type(pnacl_llvm::ir::FuncId(fi as u32), *val).expect("typed");
                        Some(normalize(m, t, *align))
                    }
                    _ => None,
                };
                let inst = &mut m.functions[fi].insts[ii];
                match &mut inst.kind {
                    InstKind::Load { align, .. } | InstKind::Store { align, .. } => {
                        if let Some(a) = new_align {
                            *align = a;
                        }
                    }
                    // Today's form: the alignment is the pointers' `align` attribute.
                    InstKind::Call { args, attrs, .. } if is_mem && args.len() == 4 => drop_align(attrs),
                    InstKind::Call { args, .. } if is_mem && args.len() == 5 => {
                        if let Value::Const(c) = args[3]
                            && matches!(m.consts.get(c), Const::Int { .. })
                        {
                            args[3] = one;
                        }
                    }
                    _ => {}
                }
            }
        }
        for f in m.functions.iter_mut().filter(|f| is_mem_intrinsic(&f.props.name)) {
            drop_align(&mut f.attrs);
        }
        Ok(())
    }
}

fn is_mem_intrinsic(name: &str) -> bool {
    name.starts_with("llvm.memcpy.") || name.starts_with("llvm.memmove.") || name.starts_with("llvm.memset.")
}

/// Removes the `align` attributes of parameters (a missing one means 1).
fn drop_align(attrs: &mut Attrs) {
    for p in &mut attrs.params {
        p.retain(|a| !matches!(a, Attr::Int(k, _) if *k == attr_kind::ALIGN));
    }
}
