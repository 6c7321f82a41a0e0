//! The canonical record sequence of each block of a module.
//!
//! Each block is described as a list of [`Item`]s in canonical order: records (code and
//! values) and nested blocks. The emitter interleaves them with a layout.

use crate::codes::{constants as cc, function as fc, globals as gc, module as mc, symtab as sc, types as tc};
use crate::ir::{ConstValue, FunctionBody, Init, Inst, LocalSymbol, Module, Ty, TypeDef, ValueId, encode_sign_rotated};

/// A nested block, by what it holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Nested {
    Blockinfo,
    Types,
    Globals,
    ModuleSymtab,
    /// The body of the function with this index.
    Body(u32),
    /// The constants block of the current function.
    Constants,
    /// The symbol table of the current function.
    FunctionSymtab,
}

/// One element of a block's canonical contents.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Item {
    /// A record: its code and the range of its values in the shared buffer.
    Record { code: u64, start: u32, len: u32 },
    /// A nested block.
    Block(Nested),
}

/// Records of one block, with their values in one buffer.
#[derive(Default)]
pub(crate) struct Records {
    pub items: Vec<Item>,
    pub values: Vec<u64>,
}

impl Records {
    pub fn record(&mut self, code: u64, values: impl IntoIterator<Item = u64>) {
        let start = self.values.len() as u32;
        self.values.extend(values);
        self.items.push(Item::Record { code, start, len: self.values.len() as u32 - start });
    }

    pub fn block(&mut self, n: Nested) {
        self.items.push(Item::Block(n));
    }

    pub fn clear(&mut self) {
        self.items.clear();
        self.values.clear();
    }

    pub fn ops(&self, start: u32, len: u32) -> &[u64] {
        &self.values[start as usize..(start + len) as usize]
    }
}

/// Why a module can't be turned into records.
pub(crate) type Result<T> = std::result::Result<T, String>;

/// Type ids of the value types a module defines.
#[derive(Clone, Copy)]
pub(crate) struct TypeIds([Option<u32>; 15]);

impl TypeIds {
    pub fn new(m: &Module) -> Self {
        let mut ids = [None; 15];
        for (i, t) in m.types.iter().enumerate() {
            if let TypeDef::Value(v) = t {
                ids[*v as usize].get_or_insert(i as u32);
            }
        }
        TypeIds(ids)
    }

    pub fn get(&self, t: Ty) -> Result<u64> {
        self.0[t as usize].map(u64::from).ok_or_else(|| format!("type {t} is not in the types block"))
    }
}

pub(crate) fn module(m: &Module, with_blockinfo: bool) -> Records {
    let mut r = Records::default();
    r.record(mc::VERSION, [m.version]);
    if with_blockinfo {
        r.block(Nested::Blockinfo);
    }
    r.block(Nested::Types);
    for f in &m.functions {
        r.record(mc::FUNCTION, [u64::from(f.ty), f.cc, u64::from(f.is_proto), f.linkage as u64]);
    }
    r.block(Nested::Globals);
    if m.symtab.is_some() {
        r.block(Nested::ModuleSymtab);
    }
    for f in m.defined_functions() {
        r.block(Nested::Body(f));
    }
    r
}

pub(crate) fn types(m: &Module, ids: &TypeIds) -> Result<Records> {
    let mut r = Records::default();
    r.record(tc::NUMENTRY, [m.types.len() as u64]);
    for t in &m.types {
        match t {
            TypeDef::Value(Ty::Void) => r.record(tc::VOID, []),
            TypeDef::Value(Ty::Float) => r.record(tc::FLOAT, []),
            TypeDef::Value(Ty::Double) => r.record(tc::DOUBLE, []),
            TypeDef::Value(v) if v.is_integer() => r.record(tc::INTEGER, [u64::from(v.bits())]),
            TypeDef::Value(v) => r.record(tc::VECTOR, [u64::from(v.lanes()), ids.get(v.element())?]),
            TypeDef::Function(sig) => {
                let mut vals = vec![u64::from(sig.vararg), ids.get(sig.ret)?];
                for p in &sig.params {
                    vals.push(ids.get(*p)?);
                }
                r.record(tc::FUNCTION, vals);
            }
        }
    }
    Ok(r)
}

pub(crate) fn globals(m: &Module) -> Records {
    let mut r = Records::default();
    r.record(gc::COUNT, [m.globals.len() as u64]);
    for g in &m.globals {
        r.record(gc::VAR, [u64::from(g.align.0), u64::from(g.is_const)]);
        if g.compound {
            r.record(gc::COMPOUND, [g.inits.len() as u64]);
        }
        for init in &g.inits {
            match init {
                Init::Zerofill(n) => r.record(gc::ZEROFILL, [*n]),
                Init::Data(bytes) => r.record(gc::DATA, bytes.iter().map(|&b| u64::from(b))),
                Init::Reloc { target, addend: None } => r.record(gc::RELOC, [u64::from(target.0)]),
                Init::Reloc { target, addend: Some(a) } => r.record(gc::RELOC, [u64::from(target.0), u64::from(*a)]),
            }
        }
    }
    r
}

pub(crate) fn module_symtab(m: &Module) -> Records {
    let mut r = Records::default();
    for s in m.symtab.iter().flatten() {
        r.record(sc::ENTRY, std::iter::once(u64::from(s.value.0)).chain(s.name.iter().map(|&b| u64::from(b))));
    }
    r
}

/// The records of a function's symbol table, into `r` (emptied first: the writer reuses
/// one buffer for every function).
pub(crate) fn function_symtab(body: &FunctionBody, mut r: Records) -> Records {
    r.clear();
    for s in body.symtab.iter().flatten() {
        match s {
            LocalSymbol::Value { value, name } => {
                r.record(sc::ENTRY, std::iter::once(u64::from(value.0)).chain(name.iter().map(|&b| u64::from(b))))
            }
            LocalSymbol::Block { block, name } => {
                r.record(sc::BBENTRY, std::iter::once(u64::from(*block)).chain(name.iter().map(|&b| u64::from(b))))
            }
        }
    }
    r
}

/// The records of a function's constants block, into `r` (emptied first).
pub(crate) fn constants(body: &FunctionBody, ids: &TypeIds, mut r: Records) -> Result<Records> {
    r.clear();
    let mut set = body.set_types.iter().peekable();
    for (k, c) in body.constants.iter().enumerate() {
        while let Some(s) = set.next_if(|s| s.before as usize <= k) {
            r.record(cc::SETTYPE, [ids.get(s.ty)?]);
        }
        match c.value {
            ConstValue::Undef => r.record(cc::UNDEF, []),
            ConstValue::Int(raw) => r.record(cc::INTEGER, [raw]),
            ConstValue::Float(bits) => r.record(cc::FLOAT, [bits]),
        }
    }
    for s in set {
        r.record(cc::SETTYPE, [ids.get(s.ty)?]);
    }
    Ok(r)
}

/// True if the body is written with a constants block: the one it was read with says so,
/// or (without a recorded layout) it has constants.
pub(crate) fn has_constants_block(body: &FunctionBody) -> bool {
    body.layout.as_ref().map_or(!body.constants.is_empty(), |l| l.constants.is_some())
}

/// The function block of `f`: the block count, the constants block (if `has_constants`),
/// the instructions and the symbol table; into `r` (emptied first).
pub(crate) fn function(
    m: &Module,
    f: u32,
    body: &FunctionBody,
    ids: &TypeIds,
    has_constants: bool,
    mut r: Records,
) -> Result<Records> {
    let space = m.value_space(f);
    r.clear();
    r.items.reserve(body.insts.len() + 3);
    r.values.reserve(body.insts.len() * 3);
    r.record(fc::DECLAREBLOCKS, [u64::from(body.num_blocks)]);
    if has_constants {
        r.block(Nested::Constants);
    }
    let mut next = space.first_inst();
    let rel = |next: u32, v: ValueId| u64::from(next.wrapping_sub(v.0));
    for inst in &body.insts {
        let defines = match *inst {
            Inst::Binop { op, lhs, rhs, flags } => {
                match flags {
                    Some(fl) => r.record(fc::BINOP, [rel(next, lhs), rel(next, rhs), op as u64, u64::from(fl)]),
                    None => r.record(fc::BINOP, [rel(next, lhs), rel(next, rhs), op as u64]),
                }
                true
            }
            Inst::Cast { op, val, to } => {
                r.record(fc::CAST, [rel(next, val), ids.get(to)?, op as u64]);
                true
            }
            Inst::Cmp { pred, lhs, rhs } => {
                r.record(fc::CMP2, [rel(next, lhs), rel(next, rhs), u64::from(pred.0)]);
                true
            }
            Inst::Select { cond, on_true, on_false } => {
                r.record(fc::VSELECT, [rel(next, on_true), rel(next, on_false), rel(next, cond)]);
                true
            }
            Inst::ExtractElement { vector, index } => {
                r.record(fc::EXTRACTELT, [rel(next, vector), rel(next, index)]);
                true
            }
            Inst::InsertElement { vector, element, index } => {
                r.record(fc::INSERTELT, [rel(next, vector), rel(next, element), rel(next, index)]);
                true
            }
            Inst::Alloca { size, align } => {
                r.record(fc::ALLOCA, [rel(next, size), u64::from(align.0)]);
                true
            }
            Inst::Load { ptr, ty, align } => {
                r.record(fc::LOAD, [rel(next, ptr), u64::from(align.0), ids.get(ty)?]);
                true
            }
            Inst::Store { ptr, val, align } => {
                r.record(fc::STORE, [rel(next, ptr), rel(next, val), u64::from(align.0)]);
                false
            }
            Inst::Ret { val: None } => {
                r.record(fc::RET, []);
                false
            }
            Inst::Ret { val: Some(v) } => {
                r.record(fc::RET, [rel(next, v)]);
                false
            }
            Inst::Br { target } => {
                r.record(fc::BR, [u64::from(target)]);
                false
            }
            Inst::CondBr { cond, on_true, on_false } => {
                r.record(fc::BR, [u64::from(on_true), u64::from(on_false), rel(next, cond)]);
                false
            }
            Inst::Switch { ty, cond, cases } => {
                let default = body.switch_default(cases);
                let cases = body.switch_cases(cases);
                let mut vals = vec![ids.get(ty)?, rel(next, cond), u64::from(default), cases.len() as u64];
                for c in cases {
                    vals.extend([1, 1, c.raw, u64::from(c.target)]);
                }
                r.record(fc::SWITCH, vals);
                false
            }
            Inst::Unreachable => {
                r.record(fc::UNREACHABLE, []);
                false
            }
            Inst::Phi { ty, incoming } => {
                let mut vals = vec![ids.get(ty)?];
                for (v, bb) in body.incoming(incoming) {
                    vals.push(encode_sign_rotated(i64::from(next) - i64::from(v.0)));
                    vals.push(u64::from(bb));
                }
                r.record(fc::PHI, vals);
                true
            }
            Inst::Call { tail, callee, indirect_ret, args } => {
                let mut vals = vec![u64::from(tail), rel(next, callee)];
                let ret = match indirect_ret {
                    Some(t) => {
                        vals.push(ids.get(t)?);
                        t
                    }
                    None => {
                        if callee.0 >= space.functions {
                            return Err(format!("direct call to {callee:?}, which is not a function"));
                        }
                        m.signature(callee.0).ret
                    }
                };
                vals.extend(body.args(args).map(|a| rel(next, a)));
                r.record(if indirect_ret.is_some() { fc::CALL_INDIRECT } else { fc::CALL }, vals);
                ret != Ty::Void
            }
            Inst::ForwardDecl { value, ty } => {
                r.record(fc::FORWARDTYPEREF, [u64::from(value.0), ids.get(ty)?]);
                false
            }
        };
        if defines {
            next += 1;
        }
    }
    let has_symtab = body.symtab.is_some();
    if has_symtab {
        r.block(Nested::FunctionSymtab);
    }
    Ok(r)
}
