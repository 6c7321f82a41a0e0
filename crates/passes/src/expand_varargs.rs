//! `expand-varargs`: a variadic function takes its variable arguments as one more pointer
//! parameter (to a struct of them that each caller builds on its stack); `va_start`,
//! `va_arg`, `va_copy` and `va_end` become loads and stores of the current argument
//! pointer kept in the `va_list`.

use crate::util::{binop, error, i32_const, inst, load, ptr_to, store, ty};
use crate::{Pass, PassError};
use pnacl_llvm::ir::{
    Attrs, BinaryOp, BlockId, CastOp, FuncId, InstId, InstKind, Module, StructType, Type, TypeId, Value, attr_kind,
};

/// The pass.
pub struct ExpandVarArgs;

const NAME: &str = "expand-varargs";

impl Pass for ExpandVarArgs {
    fn name(&self) -> &'static str {
        NAME
    }

    fn run(&self, m: &mut Module) -> Result<(), PassError> {
        let i8t = m.types.int(8);
        let i8p = ptr_to(m, i8t);
        let old: Vec<TypeId> = m.functions.iter().map(|f| f.ty).collect();
        // New signatures: the variable part becomes a trailing `i8*`.
        for i in 0..m.functions.len() {
            let f = &m.functions[i];
            if f.is_intrinsic() {
                continue;
            }
            let Some((ret, params, true)) = m.types.as_function(f.ty) else { continue };
            let mut params = params.to_vec();
            params.push(i8p);
            let t = m.types.function(ret, params, false);
            m.functions[i].ty = t;
            m.functions[i].params.push(Default::default());
            m.pointer_type(t, 0);
        }
        for f in crate::util::defined(m) {
            expand_body(m, f, i8p)?;
        }
        crate::util::cast_retyped_function_uses(m, &old);
        Ok(())
    }
}

/// The `va_*` intrinsic a call calls, if any.
fn va_intrinsic(m: &Module, f: FuncId, id: InstId) -> Option<&'static str> {
    let func = &m.functions[f.0 as usize];
    let name = crate::util::callee_name(m, func, id)?;
    ["llvm.va_start", "llvm.va_end", "llvm.va_copy"]
        .into_iter()
        .find(|n| name == *n || name.starts_with(&format!("{n}.")))
}

fn expand_body(m: &mut Module, f: FuncId, i8p: TypeId) -> Result<(), PassError> {
    let i32t = m.types.int(32);
    let i8pp = ptr_to(m, i8p);
    let nparams = m.types.as_function(m.functions[f.0 as usize].ty).map_or(0, |(_, p, _)| p.len());
    let varargs_param = Value::Arg(nparams.saturating_sub(1) as u32);
    let is_variadic_def = m.functions[f.0 as usize].params.len() == nparams
        && m.types.as_function(m.functions[f.0 as usize].ty).is_some_and(|(_, p, _)| p.last() == Some(&i8p));
    // Allocas for call sites go to the start of the entry block.
    let mut entry_allocas: Vec<InstId> = Vec::new();
    crate::util::rebuild(m, f, |m, id, out, replace| {
        let i = m.functions[f.0 as usize].inst(id).clone();
        match (&i.kind, va_intrinsic(m, f, id)) {
            (InstKind::Call { args, .. }, Some("llvm.va_start")) => {
                if !is_variadic_def {
                    return Err(error(m, NAME, f, id, "va_start in a function that takes no variable arguments"));
                }
                let slot = out.to_ptr(m, args[0], i8pp);
                let st = store(m, slot, varargs_param, 0);
                out.emit(m, st);
            }
            (InstKind::Call { .. }, Some("llvm.va_end")) => {}
            (InstKind::Call { args, .. }, Some(_)) => {
                // va_copy(dst, src): one pointer.
                let src = out.to_ptr(m, args[1], i8pp);
                let cur = out.emit(m, load(src, i8p, 0));
                let dst = out.to_ptr(m, args[0], i8pp);
                let st = store(m, dst, cur, 0);
                out.emit(m, st);
            }
            (InstKind::VaArg { list }, _) => {
                let slot = out.to_ptr(m, *list, i8pp);
                let cur = out.emit(m, load(slot, i8p, 0));
                let align = m.types.abi_align(i.ty).unwrap_or(4).max(1);
                let size =
                    m.types.alloc_size(i.ty).ok_or_else(|| error(m, NAME, f, id, "va_arg of an unsized type"))?;
                let addr = out.cast(m, CastOp::PtrToInt, cur, i32t);
                let aligned = if align > 1 {
                    let a = i32_const(m, u64::from(align - 1));
                    let sum = out.emit(m, binop(BinaryOp::Add, addr, a, i32t));
                    let mask = i32_const(m, u64::from(!(align - 1)));
                    out.emit(m, binop(BinaryOp::And, sum, mask, i32t))
                } else {
                    addr
                };
                let tp = ptr_to(m, i.ty);
                let p = out.emit(m, inst(InstKind::Cast { op: CastOp::IntToPtr, val: aligned }, tp));
                let v = out.emit(m, load(p, i.ty, 0));
                let s = i32_const(m, size);
                let next = out.emit(m, binop(BinaryOp::Add, aligned, s, i32t));
                let next = out.emit(m, inst(InstKind::Cast { op: CastOp::IntToPtr, val: next }, i8p));
                let st = store(m, slot, next, 0);
                out.emit(m, st);
                replace.insert(Value::Inst(id), v);
            }
            (InstKind::Call { callee, fn_ty, args, .. }, None) => {
                let Some((ret, fixed, true)) = m.types.as_function(*fn_ty).map(|(r, p, v)| (r, p.to_vec(), v)) else {
                    out.keep(id);
                    return Ok(());
                };
                // The variable arguments go into a struct on the caller's stack.
                let extra: Vec<Value> = args[fixed.len()..].to_vec();
                let attrs = match &i.kind {
                    InstKind::Call { attrs, .. } => attrs.clone(),
                    _ => unreachable!(),
                };
                let mut field_types = Vec::new();
                for (k, &a) in extra.iter().enumerate() {
                    let byval = attrs.param_has(fixed.len() + k, attr_kind::BYVAL);
                    let t = ty(m, f, a);
                    field_types.push(if byval { byval_type(m, &attrs, fixed.len() + k, t) } else { t });
                }
                if field_types.is_empty() {
                    field_types.push(i32t);
                }
                let st = m.types.intern(Type::Struct(StructType {
                    name: None,
                    fields: field_types.clone(),
                    packed: false,
                    opaque: false,
                }));
                let stp = ptr_to(m, st);
                let one = i32_const(m, 1);
                let a = m.functions[f.0 as usize].add_inst(inst(
                    InstKind::Alloca { allocated_ty: st, count: one, align: m.types.abi_align(st).unwrap_or(4) },
                    stp,
                ));
                entry_allocas.push(a);
                let buf = Value::Inst(a);
                for (k, &v) in extra.iter().enumerate() {
                    let zero = i32_const(m, 0);
                    let idx = i32_const(m, k as u64);
                    let ft = field_types[k];
                    let fp = ptr_to(m, ft);
                    let field = out.emit(
                        m,
                        inst(
                            InstKind::GetElementPtr {
                                source_ty: st,
                                inbounds: true,
                                base: buf,
                                indices: vec![zero, idx],
                            },
                            fp,
                        ),
                    );
                    if attrs.param_has(fixed.len() + k, attr_kind::BYVAL) {
                        let size = m.types.alloc_size(ft).unwrap_or(0);
                        copy_bytes(m, out, field, v, size, i8p);
                    } else {
                        let st = store(m, field, v, 0);
                        out.emit(m, st);
                    }
                }
                let extra_arg = out.to_ptr(m, buf, i8p);
                let mut new_args = args[..fixed.len()].to_vec();
                new_args.push(extra_arg);
                let mut params = fixed.clone();
                params.push(i8p);
                let new_ty = m.types.function(ret, params, false);
                let direct = m.as_function(*callee);
                let callee = match direct {
                    Some(_) => *callee,
                    None => {
                        let want = ptr_to(m, new_ty);
                        out.to_ptr(m, *callee, want)
                    }
                };
                let mut call_attrs = (*attrs).clone();
                call_attrs.params.truncate(fixed.len());
                let mut new = i.clone();
                if let InstKind::Call { callee: c, fn_ty: t, args: a, attrs: at, .. } = &mut new.kind {
                    *c = callee;
                    *t = new_ty;
                    *a = new_args;
                    **at = call_attrs;
                }
                *m.functions[f.0 as usize].inst_mut(id) = new;
                out.keep(id);
            }
            _ => out.keep(id),
        }
        Ok(())
    })?;
    if !entry_allocas.is_empty() {
        let entry = &mut m.functions[f.0 as usize].blocks[BlockId(0).0 as usize];
        entry.insts.splice(0..0, entry_allocas);
    }
    Ok(())
}

/// The type a `byval` argument points to.
fn byval_type(m: &Module, attrs: &Attrs, index: usize, ptr_ty: TypeId) -> TypeId {
    attrs
        .param(index)
        .iter()
        .find_map(|a| match a {
            pnacl_llvm::ir::Attr::Type(k, Some(t)) if *k == attr_kind::BYVAL => Some(*t),
            _ => None,
        })
        .or_else(|| m.types.pointee(ptr_ty))
        .unwrap_or(ptr_ty)
}

/// Copies `size` bytes from `src` to `dst` with `llvm.memcpy`.
pub(crate) fn copy_bytes(
    m: &mut Module,
    out: &mut crate::util::Out<'_>,
    dst: Value,
    src: Value,
    size: u64,
    i8p: TypeId,
) {
    let i32t = m.types.int(32);
    let i1t = m.types.int(1);
    let void = m.types.void();
    // Today's signature, as the rest of the module has it (no alignment argument: a
    // missing `align` is 1); freeze spells it back as PNaCl's.
    let fn_ty = m.types.function(void, vec![i8p, i8p, i32t, i1t], false);
    let name = crate::util::mem_intrinsic(m, "memcpy");
    let memcpy = crate::util::declare(m, &name, fn_ty);
    let callee = crate::util::func_value(m, memcpy);
    let d = out.to_ptr(m, dst, i8p);
    let s = out.to_ptr(m, src, i8p);
    let len = i32_const(m, size);
    let f = Value::Const(m.consts.int(i1t, 1, 0));
    let c = crate::util::call(m, memcpy, vec![d, s, len, f], callee);
    out.emit(m, c);
}
