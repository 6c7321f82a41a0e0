//! Linking modules into one, as LLVM's IR linker (`llvm-link`, `IRMover`) did before
//! PNaCl's passes ran.
//!
//! Each module is linked into the first in turn. Its global values are resolved against the
//! destination's by name ([`symbols`]: a definition over a declaration, a strong definition
//! over a weak or common one, the larger common symbol, appending arrays concatenated; a
//! local symbol never meets another, and one whose name an external symbol needs is
//! renamed). Its types are mapped structurally ([`types`]): a struct is the destination's
//! struct with the same body, whatever either is called, so that two files' different
//! `%struct.anon` stay different and the same struct declared in two files stays one.
//! Then its values move over ([`values`]) with every type they hold mapped (instruction
//! types, call-site and function attributes such as `byval(T)`, constant types) and every
//! symbol they name replaced by the one it resolved to, through a cast where their types
//! differ (typed pointers), as LLVM's linker casts it.

mod symbols;
mod types;
mod values;

use pnacl_llvm::ir::{
    Alias, AliasId, CastOp, Const, ConstId, ExprOp, FuncId, Function, GlobalId, GlobalRef, GlobalVar, InlineAsm, Module,
};
use std::collections::{HashMap, HashSet};
use symbols::{Fate, Names, Plan, merged_props};
use types::TypeMapper;
use values::{Copier, value_type};

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

/// Every global value of `src` with its fate.
fn fates(plan: &Plan) -> impl Iterator<Item = (GlobalRef, Fate)> + '_ {
    let f = plan.functions.iter().enumerate().map(|(i, &x)| (GlobalRef::Function(FuncId(i as u32)), x));
    let g = plan.globals.iter().enumerate().map(|(i, &x)| (GlobalRef::Global(GlobalId(i as u32)), x));
    let a = plan.aliases.iter().enumerate().map(|(i, &x)| (GlobalRef::Alias(AliasId(i as u32)), x));
    f.chain(g).chain(a)
}

fn address(r: GlobalRef) -> Const {
    match r {
        GlobalRef::Function(f) => Const::Function(f),
        GlobalRef::Global(g) => Const::Global(g),
        GlobalRef::Alias(a) => Const::Alias(a),
    }
}

fn props_mut(m: &mut Module, r: GlobalRef) -> &mut pnacl_llvm::ir::GlobalProps {
    match r {
        GlobalRef::Function(f) => &mut m.functions[f.0 as usize].props,
        GlobalRef::Global(g) => &mut m.globals[g.0 as usize].props,
        GlobalRef::Alias(a) => &mut m.aliases[a.0 as usize].props,
    }
}

fn link_into(dst: &mut Module, src: Module) -> Result<(), LinkError> {
    let mut names = Names::of(dst);
    let plan = symbols::resolve(dst, &src, &names)?;

    // Types: first the pairs the linked symbols propose, then those names propose.
    let mut types = TypeMapper::new(&dst.types);
    for (s, fate) in fates(&plan) {
        let (Fate::Existing(d) | Fate::Replaces(d)) = fate else {
            if let Fate::Appends(g) = fate {
                let (dt, st) = (value_type(dst, GlobalRef::Global(g)).0, value_type(&src, s).0);
                if let (Some(de), Some(se)) = (dst.types.element(dt), src.types.element(st)) {
                    types.add_mapping(&dst.types, &src.types, de, se);
                }
            }
            continue;
        };
        let (dt, st) = (value_type(dst, d).0, value_type(&src, s).0);
        types.add_mapping(&dst.types, &src.types, dt, st);
    }
    types.add_mappings_by_name(&dst.types, &src.types);
    types.link_defined_bodies(&mut dst.types, &src.types);

    let mut c = Copier::new(dst, &src, types);
    for asm in &src.inline_asms {
        let fn_ty = c.ty(asm.fn_ty);
        c.dst.inline_asms.push(InlineAsm { fn_ty, ..asm.clone() });
        c.asms.push(pnacl_llvm::ir::AsmId(c.dst.inline_asms.len() as u32 - 1));
    }

    // Where each source symbol goes, with its final type, before any value moves.
    let mut slots: HashMap<GlobalRef, GlobalRef> = HashMap::new();
    let mut retyped: HashMap<ConstId, ConstId> = HashMap::new();
    let mut superseded: Vec<(GlobalRef, GlobalRef)> = Vec::new();
    for (s, fate) in fates(&plan) {
        let slot = match fate {
            Fate::New => new_symbol(&mut c, &mut names, s),
            Fate::Appends(g) => GlobalRef::Global(g),
            Fate::Existing(d) => {
                merge_into_existing(&mut c, s, d);
                d
            }
            Fate::Replaces(d) if std::mem::discriminant(&d) == std::mem::discriminant(&s) => {
                let (old_ty, space) = value_type(c.dst, d);
                let old = c.dst.consts.find(&address(d));
                let props = merged_props(src.props(s), c.dst.props(d));
                shell_in_place(&mut c, s, d, props);
                if let Some(old) = old
                    && value_type(c.dst, d) != (old_ty, space)
                    && !c.dst.opaque_pointers
                {
                    let old_ptr = c.dst.pointer_type(old_ty, space);
                    let cast = Const::Expr { ty: old_ptr, op: ExprOp::Cast(CastOp::Bitcast), operands: vec![old] };
                    retyped.insert(old, c.dst.consts.intern(cast));
                }
                d
            }
            Fate::Replaces(d) => {
                // Another kind of symbol (an alias over a declaration): a new one, which
                // takes the old one's uses; the old one goes at the end.
                let new = new_symbol(&mut c, &mut names, s);
                superseded.push((d, new));
                new
            }
        };
        slots.insert(s, slot);
    }
    // The destination's own uses of what changed: through a cast to the type they had,
    // or (a superseded symbol) of the symbol that took its place.
    let mut moved: HashMap<ConstId, ConstId> = HashMap::new();
    for &(old, new) in &superseded {
        if let Some(old_c) = c.dst.consts.find(&address(old)) {
            moved.insert(old_c, c.symbol_const_of_dst(old, new));
        }
    }
    // Direct callees too: a typed-pointer call must name a callee of its own function type
    // (LLVM's linker casts them as well; PNaCl's writer makes such a call indirect).
    crate::util::replace_const_uses(c.dst, &moved, false);
    crate::util::replace_const_uses(c.dst, &retyped, false);

    // The constants each source symbol becomes.
    for (s, _) in fates(&plan) {
        let k = c.symbol_const(s, slots[&s]);
        match s {
            GlobalRef::Function(_) => c.functions.push(k),
            GlobalRef::Global(_) => c.globals.push(k),
            GlobalRef::Alias(_) => c.aliases.push(k),
        }
    }

    // Bodies, initializers and aliasees of the symbols that won.
    for (s, fate) in fates(&plan) {
        let slot = slots[&s];
        match (fate, s, slot) {
            (Fate::Existing(_), ..) => {}
            (Fate::Appends(g), GlobalRef::Global(sg), _) => {
                if let Some(init) = src.globals[sg.0 as usize].init {
                    c.append(g, init).map_err(LinkError)?;
                }
            }
            (_, GlobalRef::Function(f), GlobalRef::Function(d)) => {
                if !src.functions[f.0 as usize].is_declaration() {
                    c.move_function(f, d);
                }
            }
            (_, GlobalRef::Global(g), GlobalRef::Global(d)) => {
                let init = src.globals[g.0 as usize].init.map(|i| c.constant(i));
                c.dst.globals[d.0 as usize].init = init;
            }
            (_, GlobalRef::Alias(a), GlobalRef::Alias(d)) => {
                let aliasee = c.constant(src.aliases[a.0 as usize].aliasee);
                c.dst.aliases[d.0 as usize].aliasee = aliasee;
            }
            _ => unreachable!("a replacement of another kind has a new slot of its own kind"),
        }
    }
    drop(c);

    if !src.module_asm.is_empty() {
        if !dst.module_asm.is_empty() && !dst.module_asm.ends_with('\n') {
            dst.module_asm.push('\n');
        }
        dst.module_asm.push_str(&src.module_asm);
    }
    for name in src.named_metadata {
        if !dst.named_metadata.contains(&name) {
            dst.named_metadata.push(name);
        }
    }
    let gone: HashSet<GlobalRef> = superseded.iter().map(|&(old, _)| old).collect();
    if !gone.is_empty() {
        dst.retain_functions(|f, _| !gone.contains(&GlobalRef::Function(f)));
        dst.retain_globals(|g, _| !gone.contains(&GlobalRef::Global(g)));
        dst.retain_aliases(|a, _| !gone.contains(&GlobalRef::Alias(a)));
    }
    Ok(())
}

/// Source symbol `s` added to the destination as a declaration of its kind (its body,
/// initializer or aliasee moves later), under its name: a local symbol whose name is taken
/// is renamed; an external one takes its name from the symbol that had it (a local, or one
/// it supersedes), which is renamed, as LLVM's linker forces it.
fn new_symbol(c: &mut Copier<'_>, names: &mut Names, s: GlobalRef) -> GlobalRef {
    let src = c.src;
    let mut props = src.props(s).clone();
    if !props.name.is_empty()
        && let Some(other) = names.get(&props.name)
    {
        if props.linkage.is_local() {
            props.name = names.fresh(&props.name);
        } else {
            let renamed = names.fresh(&props.name);
            props_mut(c.dst, other).name = renamed.clone();
            names.insert(renamed, other);
        }
    }
    let name = props.name.clone();
    let d = match s {
        GlobalRef::Function(_) => {
            c.dst.functions.push(placeholder_function());
            GlobalRef::Function(FuncId(c.dst.functions.len() as u32 - 1))
        }
        GlobalRef::Global(_) => {
            let g = placeholder_global(c.dst);
            c.dst.globals.push(g);
            GlobalRef::Global(GlobalId(c.dst.globals.len() as u32 - 1))
        }
        GlobalRef::Alias(_) => {
            let a = placeholder_alias(c.dst);
            c.dst.aliases.push(a);
            GlobalRef::Alias(AliasId(c.dst.aliases.len() as u32 - 1))
        }
    };
    shell_in_place(c, s, d, props);
    if !name.is_empty() {
        names.insert(name, d);
    }
    d
}

/// Destination symbol `d` (of `s`'s kind) becomes `s` without its body, initializer or
/// aliasee, with properties `props` and `s`'s type mapped.
fn shell_in_place(c: &mut Copier<'_>, s: GlobalRef, d: GlobalRef, props: pnacl_llvm::ir::GlobalProps) {
    let src = c.src;
    match (s, d) {
        (GlobalRef::Function(f), GlobalRef::Function(d)) => {
            let f = &src.functions[f.0 as usize];
            let ty = c.ty(f.ty);
            let mut attrs = f.attrs.clone();
            attrs.map_types(|t| c.ty(t));
            c.dst.pointer_type(ty, props.addr_space);
            c.dst.functions[d.0 as usize] = Function {
                props,
                ty,
                cc: f.cc,
                attrs,
                gc: f.gc.clone(),
                personality: None,
                params: f.params.clone(),
                blocks: Vec::new(),
                insts: Vec::new(),
            };
        }
        (GlobalRef::Global(g), GlobalRef::Global(d)) => {
            let g = &src.globals[g.0 as usize];
            let value_ty = c.ty(g.value_ty);
            c.dst.pointer_type(value_ty, props.addr_space);
            c.dst.globals[d.0 as usize] = GlobalVar { props, value_ty, init: None, ..g.clone() };
        }
        (GlobalRef::Alias(a), GlobalRef::Alias(d)) => {
            let a = &src.aliases[a.0 as usize];
            let value_ty = c.ty(a.value_ty);
            c.dst.pointer_type(value_ty, props.addr_space);
            let aliasee = c.dst.aliases[d.0 as usize].aliasee;
            c.dst.aliases[d.0 as usize] = Alias { props, value_ty, aliasee, ..a.clone() };
        }
        _ => unreachable!("a shell of another kind"),
    }
}

/// The destination symbol `d` stays, as source symbol `s` meets it: the merged visibility
/// and alignment; a variable two declarations disagree on is not constant.
fn merge_into_existing(c: &mut Copier<'_>, s: GlobalRef, d: GlobalRef) {
    let merged = merged_props(c.dst.props(d), c.src.props(s));
    *props_mut(c.dst, d) = merged;
    if let (GlobalRef::Global(sg), GlobalRef::Global(dg)) = (s, d) {
        let sg = &c.src.globals[sg.0 as usize];
        let dg = &mut c.dst.globals[dg.0 as usize];
        if dg.init.is_none() && sg.init.is_none() {
            dg.is_constant &= sg.is_constant;
        }
    }
}

fn placeholder_function() -> Function {
    Function {
        props: Default::default(),
        ty: pnacl_llvm::ir::TypeId(0),
        cc: 0,
        attrs: Default::default(),
        gc: None,
        personality: None,
        params: Vec::new(),
        blocks: Vec::new(),
        insts: Vec::new(),
    }
}

fn placeholder_global(m: &mut Module) -> GlobalVar {
    GlobalVar {
        props: Default::default(),
        value_ty: m.types.int(8),
        is_constant: false,
        init: None,
        thread_local: Default::default(),
        externally_initialized: false,
    }
}

/// An alias whose aliasee is a real constant (an `undef` pointer) until its own moves in.
fn placeholder_alias(m: &mut Module) -> Alias {
    let i8t = m.types.int(8);
    let ptr = m.pointer_type(i8t, 0);
    let undef = m.consts.intern(Const::Undef(ptr));
    Alias { props: Default::default(), value_ty: i8t, aliasee: undef, thread_local: Default::default() }
}

impl Copier<'_> {
    /// The constant that replaces the destination's own symbol `old` once `new` has taken
    /// its place: `new`'s address, cast to `old`'s pointer type when they differ.
    fn symbol_const_of_dst(&mut self, old: GlobalRef, new: GlobalRef) -> ConstId {
        let (old_ty, old_space) = value_type(self.dst, old);
        let (new_ty, new_space) = value_type(self.dst, new);
        let old_ptr = self.dst.pointer_type(old_ty, old_space);
        let new_ptr = self.dst.pointer_type(new_ty, new_space);
        let direct = self.dst.consts.intern(address(new));
        if old_ptr == new_ptr {
            return direct;
        }
        let op = if old_space == new_space { CastOp::Bitcast } else { CastOp::AddrSpaceCast };
        self.dst.consts.intern(Const::Expr { ty: old_ptr, op: ExprOp::Cast(op), operands: vec![direct] })
    }
}
