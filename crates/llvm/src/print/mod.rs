//! LLVM IR text of a module, as `llvm-as` of LLVM 14 (typed pointers) and LLVM 15 and
//! newer (opaque pointers) read it.
//!
//! Debug information and metadata are not printed (the model keeps none); function
//! attribute groups are dropped, parameter and return attributes that change meaning
//! (`byval`, `sret`, `signext`, `align`, ...) are kept.

mod constants;
mod instructions;
mod names;

use crate::ir::{
    Attr, Function, GlobalProps, Linkage, Module, ThreadLocal, Type, TypeId, UnnamedAddr, Value, Visibility,
};
use names::{LocalNames, ModuleSlots, ident, quoted};
use std::fmt::Write;

/// How to print.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PrintOptions {
    /// Print every pointer as `ptr` (LLVM 15 and newer syntax), whatever the model holds.
    pub opaque_pointers: bool,
}

/// The module as LLVM IR text.
pub fn print(m: &Module, options: &PrintOptions) -> String {
    let p = Printer::new(m, options);
    let mut out = String::new();
    if let Some(s) = &m.source_filename {
        out.push_str("source_filename = ");
        quoted(&mut out, s.as_bytes());
        out.push('\n');
    }
    if !m.datalayout.is_empty() {
        out.push_str("target datalayout = ");
        quoted(&mut out, m.datalayout.as_bytes());
        out.push('\n');
    }
    if !m.triple.is_empty() {
        out.push_str("target triple = ");
        quoted(&mut out, m.triple.as_bytes());
        out.push('\n');
    }
    for line in m.module_asm.lines() {
        out.push_str("module asm ");
        quoted(&mut out, line.as_bytes());
        out.push('\n');
    }
    out.push('\n');
    p.struct_definitions(&mut out);
    for (i, _) in m.globals.iter().enumerate() {
        p.global(&mut out, i);
    }
    for (i, _) in m.aliases.iter().enumerate() {
        p.alias(&mut out, i);
    }
    if !m.globals.is_empty() || !m.aliases.is_empty() {
        out.push('\n');
    }
    for (i, f) in m.functions.iter().enumerate() {
        p.function(&mut out, i, f);
        out.push('\n');
    }
    // Named metadata keeps its name only (the model holds no metadata contents).
    for n in &m.named_metadata {
        if n.starts_with("llvm.") {
            continue;
        }
        names::ident(&mut out, '!', n);
        out.push_str(" = !{}\n");
    }
    out
}

/// One instruction of function `func` of `m` as LLVM IR text (as [`print`] writes it in the
/// function's body, without indentation or newline), for messages.
pub fn instruction(m: &Module, func: usize, id: crate::ir::InstId, options: &PrintOptions) -> String {
    let p = Printer::new(m, options);
    let f = &m.functions[func];
    let mut out = String::new();
    p.instruction(&mut out, func as u32, f, id, &LocalNames::new(m, f));
    out
}

struct Printer<'m> {
    pub m: &'m Module,
    pub opaque: bool,
    slots: ModuleSlots,
    /// The spelling of each block of the functions `blockaddress` constants name, by
    /// function, made when first needed.
    block_names: std::cell::RefCell<std::collections::HashMap<u32, Vec<String>>>,
}

impl<'m> Printer<'m> {
    fn new(m: &'m Module, options: &PrintOptions) -> Self {
        Printer {
            m,
            opaque: options.opaque_pointers || m.opaque_pointers,
            slots: ModuleSlots::new(m),
            block_names: Default::default(),
        }
    }

    /// Block `block` of function `f` as its body spells it (`%name` or `%N`).
    fn block_ref(&self, out: &mut String, f: u32, block: u32) {
        let mut cache = self.block_names.borrow_mut();
        let names = cache.entry(f).or_insert_with(|| LocalNames::new(self.m, &self.m.functions[f as usize]).blocks);
        match names.get(block as usize) {
            Some(n) => out.push_str(n),
            // A block the function does not have (malformed input): its number.
            None => {
                let _ = write!(out, "%{block}");
            }
        }
    }
}

/// The keyword of an attribute kind, for the kinds the printer keeps.
fn attr_name(kind: u32) -> Option<&'static str> {
    use crate::ir::attr_kind::*;
    Some(match kind {
        BYVAL => "byval",
        IN_REG => "inreg",
        NEST => "nest",
        NO_ALIAS => "noalias",
        NO_CAPTURE => "nocapture",
        RETURNED => "returned",
        SIGN_EXT => "signext",
        STRUCT_RET => "sret",
        ZERO_EXT => "zeroext",
        INALLOCA => "inalloca",
        ELEMENT_TYPE => "elementtype",
        ALIGN => "align",
        _ => return None,
    })
}

impl Printer<'_> {
    /// Writes type `t`.
    pub fn ty(&self, out: &mut String, t: TypeId) {
        match self.m.types.get(t) {
            Type::Void => out.push_str("void"),
            Type::Label => out.push_str("label"),
            Type::Metadata => out.push_str("metadata"),
            Type::Token => out.push_str("token"),
            Type::X86Mmx => out.push_str("x86_mmx"),
            Type::X86Amx => out.push_str("x86_amx"),
            Type::Half => out.push_str("half"),
            Type::BFloat => out.push_str("bfloat"),
            Type::Float => out.push_str("float"),
            Type::Double => out.push_str("double"),
            Type::X86Fp80 => out.push_str("x86_fp80"),
            Type::Fp128 => out.push_str("fp128"),
            Type::PpcFp128 => out.push_str("ppc_fp128"),
            Type::Int(w) => {
                let _ = write!(out, "i{w}");
            }
            Type::Pointer { pointee, addr_space } => match pointee {
                Some(p) if !self.opaque => {
                    self.ty(out, *p);
                    if *addr_space != 0 {
                        let _ = write!(out, " addrspace({addr_space})");
                    }
                    out.push('*');
                }
                _ => {
                    out.push_str("ptr");
                    if *addr_space != 0 {
                        let _ = write!(out, " addrspace({addr_space})");
                    }
                }
            },
            Type::Array { len, elem } => {
                let _ = write!(out, "[{len} x ");
                self.ty(out, *elem);
                out.push(']');
            }
            Type::Vector { len, elem, scalable } => {
                out.push('<');
                if *scalable {
                    out.push_str("vscale x ");
                }
                let _ = write!(out, "{len} x ");
                self.ty(out, *elem);
                out.push('>');
            }
            Type::Struct(s) => match &s.name {
                Some(n) => ident(out, '%', n),
                None => self.struct_body(out, &s.fields, s.packed),
            },
            Type::Function { ret, params, vararg } => {
                self.ty(out, *ret);
                out.push_str(" (");
                for (i, &p) in params.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    self.ty(out, p);
                }
                if *vararg {
                    out.push_str(if params.is_empty() { "..." } else { ", ..." });
                }
                out.push(')');
            }
        }
    }

    fn struct_body(&self, out: &mut String, fields: &[TypeId], packed: bool) {
        out.push_str(if packed { "<{ " } else { "{ " });
        for (i, &f) in fields.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            self.ty(out, f);
        }
        if fields.is_empty() {
            out.pop();
        } else {
            out.push(' ');
        }
        out.push_str(if packed { "}>" } else { "}" });
    }

    fn struct_definitions(&self, out: &mut String) {
        let mut any = false;
        for t in self.m.types.ids() {
            if let Type::Struct(s) = self.m.types.get(t)
                && let Some(n) = &s.name
            {
                ident(out, '%', n);
                out.push_str(" = type ");
                if s.opaque {
                    out.push_str("opaque");
                } else {
                    self.struct_body(out, &s.fields, s.packed);
                }
                out.push('\n');
                any = true;
            }
        }
        if any {
            out.push('\n');
        }
    }

    /// `@name` or `@N` of a global value.
    pub fn global_name(&self, out: &mut String, props: &GlobalProps, slot: Option<u32>) {
        match slot {
            Some(n) => {
                let _ = write!(out, "@{n}");
            }
            None => ident(out, '@', &props.name),
        }
    }

    pub fn function_ref(&self, out: &mut String, f: u32) {
        let func = &self.m.functions[f as usize];
        self.global_name(out, &func.props, self.slots.functions[f as usize]);
    }

    pub fn global_ref(&self, out: &mut String, g: u32) {
        let gv = &self.m.globals[g as usize];
        self.global_name(out, &gv.props, self.slots.globals[g as usize]);
    }

    pub fn alias_ref(&self, out: &mut String, a: u32) {
        let al = &self.m.aliases[a as usize];
        self.global_name(out, &al.props, self.slots.aliases[a as usize]);
    }

    fn linkage(&self, out: &mut String, props: &GlobalProps, definition: bool) {
        let l = props.linkage;
        let _ = definition;
        if l != Linkage::External {
            out.push_str(l.name());
            out.push(' ');
        }
        // LLVM's order: linkage, dso_local, visibility; hidden and protected symbols are
        // dso_local implicitly, so LLVM does not print it for them.
        let implicit = props.visibility != Visibility::Default && l != Linkage::ExternalWeak;
        if props.dso_local && !l.is_local() && !implicit {
            out.push_str("dso_local ");
        }
        if !l.is_local() {
            match props.visibility {
                Visibility::Hidden => out.push_str("hidden "),
                Visibility::Protected => out.push_str("protected "),
                Visibility::Default => {}
            }
        }
    }

    fn unnamed(&self, out: &mut String, u: UnnamedAddr) {
        match u {
            UnnamedAddr::Global => out.push_str("unnamed_addr "),
            UnnamedAddr::Local => out.push_str("local_unnamed_addr "),
            UnnamedAddr::None => {}
        }
    }

    fn global(&self, out: &mut String, i: usize) {
        let g = &self.m.globals[i];
        self.global_ref(out, i as u32);
        out.push_str(" = ");
        if g.init.is_none() && matches!(g.props.linkage, Linkage::External) {
            out.push_str("external ");
        }
        self.linkage(out, &g.props, g.init.is_some());
        match g.thread_local {
            ThreadLocal::NotThreadLocal => {}
            ThreadLocal::GeneralDynamic => out.push_str("thread_local "),
            ThreadLocal::LocalDynamic => out.push_str("thread_local(localdynamic) "),
            ThreadLocal::InitialExec => out.push_str("thread_local(initialexec) "),
            ThreadLocal::LocalExec => out.push_str("thread_local(localexec) "),
        }
        self.unnamed(out, g.props.unnamed_addr);
        if g.props.addr_space != 0 {
            let _ = write!(out, "addrspace({}) ", g.props.addr_space);
        }
        if g.externally_initialized {
            out.push_str("externally_initialized ");
        }
        out.push_str(if g.is_constant { "constant " } else { "global " });
        self.ty(out, g.value_ty);
        if let Some(init) = g.init {
            out.push(' ');
            self.constant(out, init);
        }
        if let Some(s) = &g.props.section {
            out.push_str(", section ");
            quoted(out, s.as_bytes());
        }
        if g.props.align != 0 {
            let _ = write!(out, ", align {}", g.props.align);
        }
        out.push('\n');
    }

    fn alias(&self, out: &mut String, i: usize) {
        let a = &self.m.aliases[i];
        self.alias_ref(out, i as u32);
        out.push_str(" = ");
        self.linkage(out, &a.props, true);
        self.unnamed(out, a.props.unnamed_addr);
        out.push_str("alias ");
        self.ty(out, a.value_ty);
        out.push_str(", ");
        self.typed_constant(out, a.aliasee);
        out.push('\n');
    }

    /// Writes the attributes of one position (return or parameter).
    pub fn attrs(&self, out: &mut String, attrs: &[Attr], value_ty: Option<TypeId>) {
        for a in attrs {
            let Some(name) = a.kind().and_then(attr_name) else { continue };
            use crate::ir::attr_kind::{BYVAL, ELEMENT_TYPE, INALLOCA, STRUCT_RET};
            match a {
                // Old bitcode had the type attributes as flags: their type is the pointee.
                Attr::Flag(k) if matches!(*k, BYVAL | STRUCT_RET | INALLOCA | ELEMENT_TYPE) => {
                    let t = value_ty.and_then(|p| self.m.types.pointee(p));
                    if let Some(t) = t {
                        out.push_str(name);
                        out.push('(');
                        self.ty(out, t);
                        out.push_str(") ");
                    }
                }
                Attr::Flag(_) => {
                    out.push_str(name);
                    out.push(' ');
                }
                Attr::Int(_, v) => {
                    let _ = write!(out, "{name} {v} ");
                }
                Attr::Type(_, t) => {
                    let t = t.or_else(|| value_ty.and_then(|p| self.m.types.pointee(p)));
                    match t {
                        Some(t) => {
                            out.push_str(name);
                            out.push('(');
                            self.ty(out, t);
                            out.push_str(") ");
                        }
                        None if !self.opaque => {
                            out.push_str(name);
                            out.push(' ');
                        }
                        None => {}
                    }
                }
                Attr::Str(..) => {}
            }
        }
    }

    fn function(&self, out: &mut String, i: usize, f: &Function) {
        let decl = f.is_declaration();
        out.push_str(if decl { "declare " } else { "define " });
        self.linkage(out, &f.props, !decl);
        if f.cc != 0 {
            let _ = write!(out, "cc{} ", f.cc);
        }
        let Some((ret, params, vararg)) = self.m.types.as_function(f.ty) else { return };
        self.attrs(out, &f.attrs.ret, Some(ret));
        self.ty(out, ret);
        out.push(' ');
        self.function_ref(out, i as u32);
        let locals = (!decl).then(|| LocalNames::new(self.m, f));
        out.push('(');
        for (k, &p) in params.iter().enumerate() {
            if k > 0 {
                out.push_str(", ");
            }
            self.ty(out, p);
            out.push(' ');
            self.attrs(out, f.attrs.param(k), Some(p));
            if let Some(l) = &locals {
                out.push_str(&l.params[k]);
            } else if out.ends_with(' ') {
                out.pop();
            }
        }
        if vararg {
            out.push_str(if params.is_empty() { "..." } else { ", ..." });
        }
        out.push(')');
        if f.props.unnamed_addr != UnnamedAddr::None {
            out.push(' ');
            self.unnamed(out, f.props.unnamed_addr);
            out.pop();
        }
        if f.props.addr_space != 0 {
            let _ = write!(out, " addrspace({})", f.props.addr_space);
        }
        if let Some(s) = &f.props.section {
            out.push_str(" section ");
            quoted(out, s.as_bytes());
        }
        if f.props.align != 0 {
            let _ = write!(out, " align {}", f.props.align);
        }
        if let Some(gc) = &f.gc {
            out.push_str(" gc ");
            quoted(out, gc.as_bytes());
        }
        if let Some(p) = f.personality {
            out.push_str(" personality ");
            self.typed_constant(out, p);
        }
        let Some(locals) = locals else {
            out.push('\n');
            return;
        };
        out.push_str(" {\n");
        for (b, blk) in f.blocks.iter().enumerate() {
            let label = locals.blocks[b].trim_start_matches('%');
            out.push_str(label);
            out.push_str(":\n");
            for &id in &blk.insts {
                // Debug-information calls: their metadata is not kept, so they would not
                // verify; the module means the same without them.
                if self
                    .m
                    .direct_callee(f.inst(id))
                    .is_some_and(|c| self.m.functions[c.0 as usize].props.name.starts_with("llvm.dbg."))
                {
                    continue;
                }
                out.push_str("  ");
                self.instruction(out, i as u32, f, id, &locals);
                out.push('\n');
            }
        }
        out.push_str("}\n");
    }

    /// Writes an operand without its type.
    pub fn value(&self, out: &mut String, locals: &LocalNames, v: Value) {
        match v {
            Value::Const(c) => self.constant(out, c),
            Value::Metadata => out.push_str("!{}"),
            Value::InlineAsm(a) => {
                let asm = &self.m.inline_asms[a.0 as usize];
                out.push_str("asm ");
                if asm.side_effects {
                    out.push_str("sideeffect ");
                }
                if asm.align_stack {
                    out.push_str("alignstack ");
                }
                if asm.intel_dialect {
                    out.push_str("inteldialect ");
                }
                quoted(out, asm.asm.as_bytes());
                out.push_str(", ");
                quoted(out, asm.constraints.as_bytes());
            }
            // A value outside the function (a bug of whoever built it) is printed so that
            // llvm-as refuses it, never as something valid.
            other => match locals.value(other) {
                Some(name) => out.push_str(name),
                None => {
                    let _ = write!(out, "%<missing {other:?}>");
                }
            },
        }
    }
}
