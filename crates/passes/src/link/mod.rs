//! Linking modules into one, as the bitcode linker before PNaCl's passes did: a declaration
//! meets its definition by name; internal names that clash are renamed.

use pnacl_llvm::ir::{
    Alias, AliasId, Const, ConstId, ExprOp, FuncId, GlobalId, GlobalRef, InlineAsm, InstKind, Module, Type, TypeId,
    Value,
};
use std::collections::HashMap;

/// Two modules define the same external symbol, or declare it with different kinds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinkError(pub String);

impl std::fmt::Display for LinkError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for LinkError {}

/// Links `modules` into the first one.
pub fn link(mut modules: Vec<Module>) -> Result<Module, LinkError> {
    if modules.is_empty() {
        return Ok(Module::default());
    }
    let mut dst = modules.remove(0);
    for src in modules {
        link_into(&mut dst, src)?;
    }
    Ok(dst)
}

struct Maps {
    types: HashMap<TypeId, TypeId>,
    consts: HashMap<ConstId, ConstId>,
    funcs: Vec<FuncId>,
    globals: Vec<GlobalId>,
    aliases: Vec<AliasId>,
    asms: Vec<pnacl_llvm::ir::AsmId>,
}

fn map_type(dst: &mut Module, src: &Module, t: TypeId, maps: &mut Maps) -> TypeId {
    if let Some(&d) = maps.types.get(&t) {
        return d;
    }
    let ty = src.types.get(t).clone();
    let d = match ty {
        Type::Struct(s) if s.name.is_some() => {
            // Named structs: one per name (the first module's body wins when both define it).
            let name = s.name.clone().expect("named");
            let existing = dst
                .types
                .ids()
                .find(|&id| matches!(dst.types.get(id), Type::Struct(x) if x.name.as_deref() == Some(&name)));
            let id = match existing {
                Some(id) => id,
                None => dst.types.named_struct(name),
            };
            maps.types.insert(t, id);
            if matches!(dst.types.get(id), Type::Struct(x) if x.opaque) && !s.opaque {
                let fields = s.fields.iter().map(|&f| map_type(dst, src, f, maps)).collect();
                dst.types.set_struct_body(id, fields, s.packed);
            }
            return id;
        }
        Type::Struct(mut s) => {
            s.fields = s.fields.iter().map(|&f| map_type(dst, src, f, maps)).collect();
            Type::Struct(s)
        }
        Type::Pointer { pointee, addr_space } => {
            Type::Pointer { pointee: pointee.map(|p| map_type(dst, src, p, maps)), addr_space }
        }
        Type::Array { len, elem } => Type::Array { len, elem: map_type(dst, src, elem, maps) },
        Type::Vector { len, elem, scalable } => Type::Vector { len, elem: map_type(dst, src, elem, maps), scalable },
        Type::Function { ret, params, vararg } => Type::Function {
            ret: map_type(dst, src, ret, maps),
            params: params.iter().map(|&p| map_type(dst, src, p, maps)).collect(),
            vararg,
        },
        other => other,
    };
    let id = dst.types.intern(d);
    maps.types.insert(t, id);
    id
}

fn map_const(dst: &mut Module, src: &Module, c: ConstId, maps: &mut Maps) -> ConstId {
    if let Some(&d) = maps.consts.get(&c) {
        return d;
    }
    let mut k = src.consts.get(c).clone();
    let mt = |dst: &mut Module, t: TypeId, maps: &mut Maps| map_type(dst, src, t, maps);
    k = match k {
        Const::Int { ty, value } => Const::Int { ty: mt(dst, ty, maps), value },
        Const::WideInt { ty, words } => Const::WideInt { ty: mt(dst, ty, maps), words },
        Const::Float { ty, bits } => Const::Float { ty: mt(dst, ty, maps), bits },
        Const::Null(t) => Const::Null(mt(dst, t, maps)),
        Const::Undef(t) => Const::Undef(mt(dst, t, maps)),
        Const::Poison(t) => Const::Poison(mt(dst, t, maps)),
        Const::Zero(t) => Const::Zero(mt(dst, t, maps)),
        Const::Aggregate { ty, elems } => Const::Aggregate {
            ty: mt(dst, ty, maps),
            elems: elems.iter().map(|&e| map_const(dst, src, e, maps)).collect(),
        },
        Const::Data { ty, elems } => Const::Data { ty: mt(dst, ty, maps), elems },
        Const::Function(f) => Const::Function(maps.funcs[f.0 as usize]),
        Const::Global(g) => Const::Global(maps.globals[g.0 as usize]),
        Const::Alias(a) => Const::Alias(maps.aliases[a.0 as usize]),
        Const::Expr { ty, op, operands } => {
            let op = match op {
                ExprOp::GetElementPtr { source_ty, inbounds, in_range } => {
                    ExprOp::GetElementPtr { source_ty: mt(dst, source_ty, maps), inbounds, in_range }
                }
                other => other,
            };
            Const::Expr {
                ty: mt(dst, ty, maps),
                op,
                operands: operands.iter().map(|&o| map_const(dst, src, o, maps)).collect(),
            }
        }
        Const::BlockAddress { ty, func, block } => {
            Const::BlockAddress { ty: mt(dst, ty, maps), func: maps.funcs[func.0 as usize], block }
        }
    };
    let id = dst.consts.intern(k);
    maps.consts.insert(c, id);
    id
}

/// A name not yet used in `dst` for a local symbol of `src` that clashes.
fn fresh_name(dst: &Module, base: &str) -> String {
    let taken = |n: &str| {
        dst.functions.iter().any(|f| f.props.name == n)
            || dst.globals.iter().any(|g| g.props.name == n)
            || dst.aliases.iter().any(|a| a.props.name == n)
    };
    (1..).map(|k| format!("{base}.{k}")).find(|n| !taken(n)).expect("some name is free")
}

fn find(dst: &Module, name: &str) -> Option<GlobalRef> {
    if name.is_empty() {
        return None;
    }
    if let Some(f) = dst.function_by_name(name) {
        return Some(GlobalRef::Function(f));
    }
    if let Some(g) = dst.globals.iter().position(|g| g.props.name == name) {
        return Some(GlobalRef::Global(GlobalId(g as u32)));
    }
    dst.aliases.iter().position(|a| a.props.name == name).map(|a| GlobalRef::Alias(AliasId(a as u32)))
}

fn link_into(dst: &mut Module, mut src: Module) -> Result<(), LinkError> {
    let mut maps = Maps {
        types: HashMap::new(),
        consts: HashMap::new(),
        funcs: Vec::new(),
        globals: Vec::new(),
        aliases: Vec::new(),
        asms: Vec::new(),
    };
    // Symbols first: match by name, or add.
    for f in &mut src.functions {
        let existing = if f.props.linkage.is_local() { None } else { find(dst, &f.props.name) };
        match existing {
            Some(GlobalRef::Function(d)) => {
                let dd = &dst.functions[d.0 as usize];
                if !dd.is_declaration() && !f.is_declaration() {
                    return Err(LinkError(format!("@{} is defined twice", f.props.name)));
                }
                maps.funcs.push(d);
            }
            Some(_) => {
                return Err(LinkError(format!(
                    "@{} is a function in one module and a variable in another",
                    f.props.name
                )));
            }
            None => {
                if !f.props.name.is_empty() && find(dst, &f.props.name).is_some() {
                    f.props.name = fresh_name(dst, &f.props.name);
                }
                let mut shell = f.clone();
                shell.blocks.clear();
                shell.insts.clear();
                shell.personality = None;
                dst.functions.push(shell);
                maps.funcs.push(FuncId(dst.functions.len() as u32 - 1));
            }
        }
    }
    for g in &mut src.globals {
        let existing = if g.props.linkage.is_local() { None } else { find(dst, &g.props.name) };
        match existing {
            Some(GlobalRef::Global(d)) => {
                if dst.globals[d.0 as usize].init.is_some() && g.init.is_some() {
                    let common = |l| {
                        matches!(
                            l,
                            pnacl_llvm::ir::Linkage::Common
                                | pnacl_llvm::ir::Linkage::WeakAny
                                | pnacl_llvm::ir::Linkage::LinkOnceOdr
                                | pnacl_llvm::ir::Linkage::LinkOnceAny
                                | pnacl_llvm::ir::Linkage::WeakOdr
                        )
                    };
                    if !common(g.props.linkage) && !common(dst.globals[d.0 as usize].props.linkage) {
                        return Err(LinkError(format!("@{} is defined twice", g.props.name)));
                    }
                }
                maps.globals.push(d);
            }
            Some(_) => {
                return Err(LinkError(format!(
                    "@{} is a variable in one module and a function in another",
                    g.props.name
                )));
            }
            None => {
                if !g.props.name.is_empty() && find(dst, &g.props.name).is_some() {
                    g.props.name = fresh_name(dst, &g.props.name);
                }
                let mut shell = g.clone();
                shell.init = None;
                dst.globals.push(shell);
                maps.globals.push(GlobalId(dst.globals.len() as u32 - 1));
            }
        }
    }
    for a in &src.aliases {
        dst.aliases.push(Alias { aliasee: ConstId(0), ..a.clone() });
        maps.aliases.push(AliasId(dst.aliases.len() as u32 - 1));
    }
    for asm in &src.inline_asms {
        let fn_ty = map_type(dst, &src, asm.fn_ty, &mut maps);
        dst.inline_asms.push(InlineAsm { fn_ty, ..asm.clone() });
        maps.asms.push(pnacl_llvm::ir::AsmId(dst.inline_asms.len() as u32 - 1));
    }
    // Types of the symbols, initializers, bodies.
    for (i, f) in src.functions.iter().enumerate() {
        let d = maps.funcs[i];
        let ty = map_type(dst, &src, f.ty, &mut maps);
        dst.pointer_type(ty, f.props.addr_space);
        if f.is_declaration() {
            if dst.functions[d.0 as usize].is_declaration() {
                dst.functions[d.0 as usize].ty = ty;
            }
            continue;
        }
        let mut body = f.clone();
        body.ty = ty;
        body.personality = f.personality.map(|p| map_const(dst, &src, p, &mut maps));
        for inst in &mut body.insts {
            inst.ty = map_type(dst, &src, inst.ty, &mut maps);
            inst.kind.map_values(|v| match v {
                Value::Const(c) => Value::Const(map_const(dst, &src, c, &mut maps)),
                Value::InlineAsm(a) => Value::InlineAsm(maps.asms[a.0 as usize]),
                other => other,
            });
            match &mut inst.kind {
                InstKind::Call { fn_ty, .. } | InstKind::Invoke { fn_ty, .. } => {
                    *fn_ty = map_type(dst, &src, *fn_ty, &mut maps)
                }
                InstKind::Alloca { allocated_ty, .. } => *allocated_ty = map_type(dst, &src, *allocated_ty, &mut maps),
                InstKind::GetElementPtr { source_ty, .. } => *source_ty = map_type(dst, &src, *source_ty, &mut maps),
                InstKind::Switch { cases, .. } => {
                    for c in cases {
                        c.0 = map_const(dst, &src, c.0, &mut maps);
                    }
                }
                _ => {}
            }
        }
        let keep = dst.functions[d.0 as usize].props.clone();
        let linkage = f.props.linkage;
        dst.functions[d.0 as usize] = body;
        dst.functions[d.0 as usize].props = pnacl_llvm::ir::GlobalProps { linkage, ..keep };
    }
    for (i, g) in src.globals.iter().enumerate() {
        let d = maps.globals[i];
        let value_ty = map_type(dst, &src, g.value_ty, &mut maps);
        dst.pointer_type(value_ty, g.props.addr_space);
        if let Some(init) = g.init {
            let init = map_const(dst, &src, init, &mut maps);
            let dg = &mut dst.globals[d.0 as usize];
            if dg.init.is_none() {
                dg.init = Some(init);
                dg.value_ty = value_ty;
                dg.is_constant = g.is_constant;
                dg.props.linkage = g.props.linkage;
                dg.props.align = dg.props.align.max(g.props.align);
                dg.thread_local = g.thread_local;
            }
        } else if dst.globals[d.0 as usize].init.is_none() {
            dst.globals[d.0 as usize].value_ty = value_ty;
        }
    }
    for (i, a) in src.aliases.iter().enumerate() {
        let d = maps.aliases[i];
        let aliasee = map_const(dst, &src, a.aliasee, &mut maps);
        let value_ty = map_type(dst, &src, a.value_ty, &mut maps);
        let da = &mut dst.aliases[d.0 as usize];
        da.aliasee = aliasee;
        da.value_ty = value_ty;
    }
    dst.named_metadata.extend(src.named_metadata);
    Ok(())
}
