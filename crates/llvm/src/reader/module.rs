//! The module block: identification, types, attributes, global values, module constants,
//! symbol tables and string table, then the function bodies.

use super::attributes::{self, Group};
use super::constants::{self, Resolver, Slot, Values};
use super::error::ReadError;
use super::function;
use super::records::{Item, Rec, next};
use super::types::read_types;
use crate::ir::{
    Alias, AliasId, Attrs, Const, ConstId, FuncId, Function, GlobalId, GlobalProps, GlobalRef, GlobalVar, Linkage,
    Module, Param, ThreadLocal, Type, TypeId, UnnamedAddr, Value, Visibility,
};
use pnacl_bitstream::Cursor;
use std::collections::HashMap;

/// A name from the string table, resolved when the table has been read.
#[derive(Clone, Copy)]
struct StrtabName {
    of: GlobalRef,
    offset: u64,
    size: u64,
}

/// Reads one module.
pub(super) struct ModuleReader<'a> {
    pub c: Cursor<'a>,
    pub m: Module,
    /// Model type of each bitcode type index.
    pub types: Vec<TypeId>,
    groups: HashMap<u64, Group>,
    pub attr_lists: Vec<Attrs>,
    pub values: Values,
    /// Version of the module block (0: absolute value ids; 1: relative; 2: string table).
    pub version: u64,
    sections: Vec<String>,
    gc_names: Vec<String>,
    /// Global initializers, aliasees and personalities to resolve at the end.
    inits: Vec<(GlobalId, u64)>,
    aliasees: Vec<(AliasId, u64)>,
    personalities: Vec<(FuncId, u64)>,
    /// Functions with bodies, in record order, and how many bodies were read.
    bodies: Vec<FuncId>,
    next_body: usize,
    strtab_names: Vec<StrtabName>,
    strtab: Option<Vec<u8>>,
    /// Names from a module symbol table, in record order.
    vst_names: Vec<(u64, String)>,
    /// How many types of the table [`ModuleReader::has_opaque_pointer`] has looked at, and
    /// whether one of them is an opaque pointer (types are only ever added).
    types_scanned: usize,
    opaque_seen: bool,
}

fn linkage(code: u64) -> Linkage {
    match code {
        0 | 5 | 6 => Linkage::External,
        2 => Linkage::Appending,
        3 => Linkage::Internal,
        7 => Linkage::ExternalWeak,
        8 => Linkage::Common,
        9 | 13 | 14 => Linkage::Private,
        12 => Linkage::AvailableExternally,
        1 | 16 => Linkage::WeakAny,
        10 | 17 => Linkage::WeakOdr,
        4 | 18 => Linkage::LinkOnceAny,
        11 | 15 | 19 => Linkage::LinkOnceOdr,
        _ => Linkage::External,
    }
}

fn visibility(code: u64) -> Visibility {
    match code {
        1 => Visibility::Hidden,
        2 => Visibility::Protected,
        _ => Visibility::Default,
    }
}

fn thread_local(code: u64) -> ThreadLocal {
    match code {
        0 => ThreadLocal::NotThreadLocal,
        2 => ThreadLocal::LocalDynamic,
        3 => ThreadLocal::InitialExec,
        4 => ThreadLocal::LocalExec,
        _ => ThreadLocal::GeneralDynamic,
    }
}

fn unnamed_addr(code: u64) -> UnnamedAddr {
    match code {
        1 => UnnamedAddr::Global,
        2 => UnnamedAddr::Local,
        _ => UnnamedAddr::None,
    }
}

/// `Log2(align) + 1` encoded alignment to bytes (0: none). Rejects absurd encodings.
pub(super) fn alignment(r: &Rec, code: u64) -> Result<u32, ReadError> {
    match code {
        0 => Ok(0),
        1..=32 => Ok(1u32 << (code - 1)),
        _ => Err(r.error(format!("alignment encoding {code} is too large"))),
    }
}

impl<'a> ModuleReader<'a> {
    pub fn new(c: Cursor<'a>) -> Self {
        ModuleReader {
            c,
            m: Module::default(),
            types: Vec::new(),
            groups: HashMap::new(),
            attr_lists: Vec::new(),
            values: Values::default(),
            version: 0,
            sections: Vec::new(),
            gc_names: Vec::new(),
            inits: Vec::new(),
            aliasees: Vec::new(),
            personalities: Vec::new(),
            bodies: Vec::new(),
            next_body: 0,
            strtab_names: Vec::new(),
            strtab: None,
            vst_names: Vec::new(),
            types_scanned: 0,
            opaque_seen: false,
        }
    }

    /// Reads the top level: identification, module, string table.
    pub fn read(mut self) -> Result<Module, ReadError> {
        let mut seen_module = false;
        loop {
            match self.c.next_entry()? {
                pnacl_bitstream::Entry::End(_) => break,
                pnacl_bitstream::Entry::Enter(e) => match e.block_id {
                    8 if !seen_module => {
                        self.module_block()?;
                        seen_module = true;
                    }
                    8 => return Err(ReadError::new(e.pos, "a second module in one file")),
                    13 => self.identification()?,
                    0 => self.blockinfo()?,
                    23 => self.strtab_block()?,
                    _ => self.c.skip_block()?,
                },
                pnacl_bitstream::Entry::Record(r) => {
                    return Err(ReadError::new(r.pos, "a record outside any block"));
                }
                _ => {}
            }
        }
        if !seen_module {
            return Err(ReadError::at(0, "no module block"));
        }
        self.finish()
    }

    /// The names of the module's named metadata (their contents are not kept).
    fn metadata_names(&mut self) -> Result<(), ReadError> {
        loop {
            match next(&mut self.c)? {
                Item::End => return Ok(()),
                Item::Block(_) => self.c.skip_block()?,
                Item::Record(r) if r.code == 4 => self.m.named_metadata.push(r.string(0)),
                Item::Record(_) => {}
            }
        }
    }

    /// Walks a BLOCKINFO block: the cursor registers its abbreviations.
    fn blockinfo(&mut self) -> Result<(), ReadError> {
        loop {
            match next(&mut self.c)? {
                Item::End => return Ok(()),
                Item::Block(_) => self.c.skip_block()?,
                Item::Record(_) => {}
            }
        }
    }

    fn identification(&mut self) -> Result<(), ReadError> {
        loop {
            match next(&mut self.c)? {
                Item::End => return Ok(()),
                Item::Block(_) => self.c.skip_block()?,
                Item::Record(r) if r.code == 1 => self.m.producer = Some(r.string(0)),
                Item::Record(_) => {}
            }
        }
    }

    fn strtab_block(&mut self) -> Result<(), ReadError> {
        loop {
            match next(&mut self.c)? {
                Item::End => return Ok(()),
                Item::Block(_) => self.c.skip_block()?,
                Item::Record(r) if r.code == 1 => self.strtab = r.blob.clone(),
                Item::Record(_) => {}
            }
        }
    }

    fn module_block(&mut self) -> Result<(), ReadError> {
        loop {
            match next(&mut self.c)? {
                Item::End => return Ok(()),
                Item::Block(e) => match e.block_id {
                    17 => self.types = read_types(&mut self.c, &mut self.m.types)?,
                    10 => attributes::read_groups(&mut self.c, &mut self.groups, &self.types)?,
                    9 => attributes::read_lists(&mut self.c, &self.groups, &mut self.attr_lists)?,
                    11 => constants::read_block(&mut self.c, &mut self.values, &self.types, &mut self.m)?,
                    14 => self.module_symtab()?,
                    12 => {
                        let f = *self
                            .bodies
                            .get(self.next_body)
                            .ok_or_else(|| ReadError::new(e.pos, "more function bodies than defined functions"))?;
                        self.next_body += 1;
                        // The type table came first: whether pointers are opaque is known, and
                        // the body's uses of global addresses need their final type (a
                        // `select` of a global and an instruction of type `ptr`).
                        self.m.opaque_pointers = self.has_opaque_pointer();
                        function::read_body(self, f)?;
                    }
                    0 => self.blockinfo()?,
                    15 => self.metadata_names()?,
                    _ => self.c.skip_block()?,
                },
                Item::Record(r) => self.module_record(&r)?,
            }
        }
    }

    /// The cursor, for the readers of nested blocks.
    pub fn cursor(&mut self) -> &mut Cursor<'a> {
        &mut self.c
    }

    /// True if the type table has an opaque pointer type (the module uses opaque pointers).
    pub fn has_opaque_pointer(&mut self) -> bool {
        let types = &self.m.types;
        self.opaque_seen |=
            types.ids().skip(self.types_scanned).any(|t| matches!(types.get(t), Type::Pointer { pointee: None, .. }));
        self.types_scanned = types.len();
        self.opaque_seen
    }

    fn ty(&self, r: &Rec, i: usize) -> Result<TypeId, ReadError> {
        let t = r.op(i)? as usize;
        self.types.get(t).copied().ok_or_else(|| r.error(format!("type index {t} is out of range")))
    }

    /// Adds a global value to the value list.
    fn push_value(&mut self, c: Const) {
        let id = self.m.consts.intern(c);
        self.values.slots.push(Slot::Ready(Value::Const(id)));
    }

    fn name_prefix(&mut self, r: &Rec, of: GlobalRef) -> Result<usize, ReadError> {
        if self.version >= 2 {
            self.strtab_names.push(StrtabName { of, offset: r.op(0)?, size: r.op(1)? });
            Ok(2)
        } else {
            Ok(0)
        }
    }

    fn module_record(&mut self, r: &Rec) -> Result<(), ReadError> {
        match r.code {
            1 => self.version = r.op(0)?,
            2 => self.m.triple = r.string(0),
            3 => self.m.datalayout = r.string(0),
            4 => self.m.module_asm = r.string(0),
            5 => self.sections.push(r.string(0)),
            11 => self.gc_names.push(r.string(0)),
            16 => self.m.source_filename = Some(r.string(0)),
            7 => self.global_var(r)?,
            8 => self.function(r)?,
            9 | 14 => self.alias(r)?,
            _ => {}
        }
        Ok(())
    }

    fn global_var(&mut self, r: &Rec) -> Result<(), ReadError> {
        let id = GlobalId(self.m.globals.len() as u32);
        let b = self.name_prefix(r, GlobalRef::Global(id))?;
        let flags = r.op(b + 1)?;
        let explicit = flags & 2 != 0;
        let t = self.ty(r, b)?;
        let (value_ty, addr_space) = if explicit {
            (t, (flags >> 2) as u32)
        } else {
            match self.m.types.get(t) {
                Type::Pointer { pointee: Some(p), addr_space } => (*p, *addr_space),
                _ => return Err(r.error("a global variable whose type is not a pointer")),
            }
        };
        let init = r.op(b + 2)?;
        let link = linkage(r.op(b + 3)?);
        let align = alignment(r, r.get(b + 4).unwrap_or(0))?;
        let section = match r.get(b + 5).unwrap_or(0) {
            0 => None,
            s => Some(self.sections.get(s as usize - 1).cloned().unwrap_or_default()),
        };
        let props = GlobalProps {
            name: String::new(),
            linkage: link,
            visibility: if link.is_local() { Visibility::Default } else { visibility(r.get(b + 6).unwrap_or(0)) },
            unnamed_addr: unnamed_addr(r.get(b + 8).unwrap_or(0)),
            dso_local: r.get(b + 13).is_some_and(|v| v != 0),
            section,
            align,
            addr_space,
        };
        self.m.globals.push(GlobalVar {
            props,
            value_ty,
            is_constant: flags & 1 != 0,
            init: None,
            thread_local: thread_local(r.get(b + 7).unwrap_or(0)),
            externally_initialized: r.get(b + 9).is_some_and(|v| v != 0),
        });
        self.m.pointer_type(value_ty, addr_space);
        if init != 0 {
            self.inits.push((id, init - 1));
        }
        self.push_value(Const::Global(id));
        Ok(())
    }

    fn function(&mut self, r: &Rec) -> Result<(), ReadError> {
        let id = FuncId(self.m.functions.len() as u32);
        let b = self.name_prefix(r, GlobalRef::Function(id))?;
        let t = self.ty(r, b)?;
        let fn_ty = match self.m.types.get(t) {
            Type::Function { .. } => t,
            Type::Pointer { pointee: Some(p), .. } if matches!(self.m.types.get(*p), Type::Function { .. }) => *p,
            _ => return Err(r.error("a function whose type is not a function type")),
        };
        let params = self.m.types.as_function(fn_ty).map_or(0, |(_, p, _)| p.len());
        let is_proto = r.op(b + 2)? != 0;
        let link = linkage(r.op(b + 3)?);
        let attrs = match r.get(b + 4).unwrap_or(0) {
            0 => Attrs::default(),
            k => self.attr_lists.get(k as usize - 1).cloned().unwrap_or_default(),
        };
        let section = match r.get(b + 6).unwrap_or(0) {
            0 => None,
            s => Some(self.sections.get(s as usize - 1).cloned().unwrap_or_default()),
        };
        let gc = match r.get(b + 8).unwrap_or(0) {
            0 => None,
            g => self.gc_names.get(g as usize - 1).cloned(),
        };
        let addr_space = r.get(b + 16).unwrap_or(0) as u32;
        let props = GlobalProps {
            name: String::new(),
            linkage: link,
            visibility: if link.is_local() { Visibility::Default } else { visibility(r.get(b + 7).unwrap_or(0)) },
            unnamed_addr: unnamed_addr(r.get(b + 9).unwrap_or(0)),
            dso_local: r.get(b + 15).is_some_and(|v| v != 0),
            section,
            align: alignment(r, r.get(b + 5).unwrap_or(0))?,
            addr_space,
        };
        self.m.functions.push(Function {
            props,
            ty: fn_ty,
            cc: r.op32(b + 1)?,
            attrs,
            gc,
            personality: None,
            params: vec![Param::default(); params],
            blocks: Vec::new(),
            insts: Vec::new(),
        });
        self.m.pointer_type(fn_ty, addr_space);
        if let Some(p) = r.get(b + 14).filter(|&p| p != 0) {
            self.personalities.push((id, p - 1));
        }
        if !is_proto {
            self.bodies.push(id);
        }
        self.push_value(Const::Function(id));
        Ok(())
    }

    fn alias(&mut self, r: &Rec) -> Result<(), ReadError> {
        let id = AliasId(self.m.aliases.len() as u32);
        let b = self.name_prefix(r, GlobalRef::Alias(id))?;
        let t = self.ty(r, b)?;
        // ALIAS_OLD: [pointer type, aliasee, linkage, ...]; ALIAS: [value type, addrspace, ...].
        let (value_ty, addr_space, k) = if r.code == 9 {
            match self.m.types.get(t) {
                Type::Pointer { pointee: Some(p), addr_space } => (*p, *addr_space, b + 1),
                _ => return Err(r.error("an alias whose type is not a pointer")),
            }
        } else {
            (t, r.op32(b + 1)?, b + 2)
        };
        let aliasee = r.op(k)?;
        let link = linkage(r.op(k + 1)?);
        self.m.aliases.push(Alias {
            props: GlobalProps {
                linkage: link,
                visibility: visibility(r.get(k + 2).unwrap_or(0)),
                addr_space,
                ..GlobalProps::default()
            },
            value_ty,
            aliasee: ConstId(0),
            thread_local: thread_local(r.get(k + 4).unwrap_or(0)),
        });
        self.m.pointer_type(value_ty, addr_space);
        self.aliasees.push((id, aliasee));
        self.push_value(Const::Alias(id));
        Ok(())
    }

    fn module_symtab(&mut self) -> Result<(), ReadError> {
        loop {
            match next(&mut self.c)? {
                Item::End => return Ok(()),
                Item::Block(_) => self.c.skip_block()?,
                // ENTRY [valueid, name]; FNENTRY [valueid, offset, name].
                Item::Record(r) if r.code == 1 && !r.ops.is_empty() => self.vst_names.push((r.op(0)?, r.string(1))),
                Item::Record(r) if r.code == 3 && r.ops.len() > 2 => self.vst_names.push((r.op(0)?, r.string(2))),
                Item::Record(_) => {}
            }
        }
    }

    /// A resolver for the module's constants.
    pub fn resolver(&mut self) -> (Resolver<'_>, &mut Values) {
        (Resolver { m: &mut self.m, types: &self.types }, &mut self.values)
    }

    fn global_ref(&self, id: u64) -> Option<GlobalRef> {
        match self.values.slots.get(id as usize)? {
            Slot::Ready(Value::Const(c)) => match self.m.consts.get(*c) {
                Const::Function(f) => Some(GlobalRef::Function(*f)),
                Const::Global(g) => Some(GlobalRef::Global(*g)),
                Const::Alias(a) => Some(GlobalRef::Alias(*a)),
                _ => None,
            },
            _ => None,
        }
    }

    fn set_name(&mut self, r: GlobalRef, name: String) {
        match r {
            GlobalRef::Function(f) => self.m.functions[f.0 as usize].props.name = name,
            GlobalRef::Global(g) => self.m.globals[g.0 as usize].props.name = name,
            GlobalRef::Alias(a) => self.m.aliases[a.0 as usize].props.name = name,
        }
    }

    fn finish(mut self) -> Result<Module, ReadError> {
        // Names: from the string table (record order), or from the symbol table.
        if let Some(tab) = self.strtab.take() {
            for n in std::mem::take(&mut self.strtab_names) {
                let bytes = tab
                    .get(n.offset as usize..(n.offset + n.size) as usize)
                    .ok_or_else(|| ReadError::at(0, "a name outside the string table"))?;
                self.set_name(n.of, String::from_utf8_lossy(bytes).into_owned());
                self.m.name_order.push(n.of);
            }
        }
        for (id, name) in std::mem::take(&mut self.vst_names) {
            if let Some(r) = self.global_ref(id) {
                self.set_name(r, name);
                self.m.name_order.push(r);
            }
        }
        self.m.names_from_string_table = self.version >= 2;
        let inits = std::mem::take(&mut self.inits);
        let aliasees = std::mem::take(&mut self.aliasees);
        let personalities = std::mem::take(&mut self.personalities);
        let (mut res, values) = self.resolver();
        for (g, v) in inits {
            match res.value(values, v)? {
                Some(Value::Const(c)) => res.m.globals[g.0 as usize].init = Some(c),
                _ => return Err(ReadError::at(0, format!("the initializer of global {} is not a constant", g.0))),
            }
        }
        for (a, v) in aliasees {
            match res.value(values, v)? {
                Some(Value::Const(c)) => res.m.aliases[a.0 as usize].aliasee = c,
                _ => return Err(ReadError::at(0, format!("the aliasee of alias {} is not a constant", a.0))),
            }
        }
        for (f, v) in personalities {
            if let Some(Value::Const(c)) = res.value(values, v)? {
                res.m.functions[f.0 as usize].personality = Some(c);
            }
        }
        self.m.opaque_pointers = self.has_opaque_pointer();
        upgrade_ctors(&mut self.m);
        Ok(self.m)
    }
}

/// LLVM's reader gives the two-field `{ priority, function }` entries of
/// `llvm.global_ctors` / `llvm.global_dtors` (LLVM 3.5 and older) the third field, a null
/// `i8*`, that newer LLVM requires.
fn upgrade_ctors(m: &mut Module) {
    for gi in 0..m.globals.len() {
        let name = &m.globals[gi].props.name;
        if name != "llvm.global_ctors" && name != "llvm.global_dtors" {
            continue;
        }
        let Type::Array { len, elem } = m.types.get(m.globals[gi].value_ty).clone() else { continue };
        let Type::Struct(s) = m.types.get(elem).clone() else { continue };
        if s.fields.len() != 2 {
            continue;
        }
        let i8t = m.types.int(8);
        let i8p = m.pointer_type(i8t, 0);
        let mut fields = s.fields.clone();
        fields.push(i8p);
        let new_elem =
            m.types.intern(Type::Struct(crate::ir::StructType { name: None, fields, packed: s.packed, opaque: false }));
        let new_arr = m.types.intern(Type::Array { len, elem: new_elem });
        let null = m.consts.intern(Const::Null(i8p));
        let init = m.globals[gi].init.map(|c| match m.consts.get(c).clone() {
            Const::Aggregate { elems, .. } => {
                let elems = elems
                    .into_iter()
                    .map(|e| match m.consts.get(e).clone() {
                        Const::Aggregate { mut elems, .. } => {
                            elems.push(null);
                            m.consts.intern(Const::Aggregate { ty: new_elem, elems })
                        }
                        _ => e,
                    })
                    .collect();
                m.consts.intern(Const::Aggregate { ty: new_arr, elems })
            }
            _ => m.consts.intern(Const::Zero(new_arr)),
        });
        m.globals[gi].value_ty = new_arr;
        m.globals[gi].init = init;
        m.pointer_type(new_arr, 0);
    }
}
