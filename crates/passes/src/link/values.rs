//! Moving the values of a source module into the destination: constants, function bodies,
//! initializers and aliasees, with every type they hold mapped by the [`TypeMapper`] and
//! every global value they name replaced by the destination symbol it resolved to.

use super::types::TypeMapper;
use pnacl_llvm::ir::{AsmId, CastOp, Const, ConstId, ExprOp, FuncId, Function, GlobalRef, Module, Type, TypeId, Value};
use std::collections::HashMap;

/// The state of moving one source module's values into the destination.
pub(super) struct Copier<'a> {
    pub(super) dst: &'a mut Module,
    pub(super) src: &'a Module,
    pub(super) types: TypeMapper,
    consts: HashMap<ConstId, ConstId>,
    /// What each source symbol's address becomes, by kind and index: the address of the
    /// destination symbol it resolved to, cast to the source's pointer type where the two
    /// differ (typed pointers only; with opaque pointers a call simply keeps its own
    /// function type), as LLVM's linker casts it.
    pub(super) functions: Vec<ConstId>,
    pub(super) globals: Vec<ConstId>,
    pub(super) aliases: Vec<ConstId>,
    /// Where the source's inline-assembly values went.
    pub(super) asms: Vec<AsmId>,
}

impl<'a> Copier<'a> {
    pub(super) fn new(dst: &'a mut Module, src: &'a Module, types: TypeMapper) -> Self {
        Copier {
            dst,
            src,
            types,
            consts: HashMap::new(),
            functions: Vec::new(),
            globals: Vec::new(),
            aliases: Vec::new(),
            asms: Vec::new(),
        }
    }

    /// The destination type for source type `t`.
    pub(super) fn ty(&mut self, t: TypeId) -> TypeId {
        self.types.get(&mut self.dst.types, &self.src.types, t)
    }

    /// The constant for source symbol `s` resolved to destination symbol `d`: the address
    /// of `d`, cast to the pointer type `s` has (mapped) when `d`'s differs.
    pub(super) fn symbol_const(&mut self, s: GlobalRef, d: GlobalRef) -> ConstId {
        let (src_value_ty, src_space) = value_type(self.src, s);
        let src_value_ty = self.ty(src_value_ty);
        let src_ptr = self.dst.pointer_type(src_value_ty, src_space);
        let (dst_value_ty, dst_space) = value_type(self.dst, d);
        let dst_ptr = self.dst.pointer_type(dst_value_ty, dst_space);
        let direct = self.dst.consts.intern(match d {
            GlobalRef::Function(f) => Const::Function(f),
            GlobalRef::Global(g) => Const::Global(g),
            GlobalRef::Alias(a) => Const::Alias(a),
        });
        if src_ptr == dst_ptr {
            return direct;
        }
        let op = if src_space == dst_space { CastOp::Bitcast } else { CastOp::AddrSpaceCast };
        self.dst.consts.intern(Const::Expr { ty: src_ptr, op: ExprOp::Cast(op), operands: vec![direct] })
    }

    /// The destination constant for source constant `c`.
    pub(super) fn constant(&mut self, c: ConstId) -> ConstId {
        if let Some(&d) = self.consts.get(&c) {
            return d;
        }
        let k = match self.src.consts.get(c).clone() {
            Const::Function(f) => return self.memo(c, self.functions[f.0 as usize]),
            Const::Global(g) => return self.memo(c, self.globals[g.0 as usize]),
            Const::Alias(a) => return self.memo(c, self.aliases[a.0 as usize]),
            Const::Int { ty, value } => Const::Int { ty: self.ty(ty), value },
            Const::WideInt { ty, words } => Const::WideInt { ty: self.ty(ty), words },
            Const::Float { ty, bits } => Const::Float { ty: self.ty(ty), bits },
            Const::Null(t) => Const::Null(self.ty(t)),
            Const::Undef(t) => Const::Undef(self.ty(t)),
            Const::Poison(t) => Const::Poison(self.ty(t)),
            Const::Zero(t) => Const::Zero(self.ty(t)),
            Const::Aggregate { ty, elems } => {
                Const::Aggregate { ty: self.ty(ty), elems: elems.iter().map(|&e| self.constant(e)).collect() }
            }
            Const::Data { ty, elems } => Const::Data { ty: self.ty(ty), elems },
            Const::Expr { ty, op, operands } => {
                let op = match op {
                    ExprOp::GetElementPtr { source_ty, inbounds, in_range } => {
                        ExprOp::GetElementPtr { source_ty: self.ty(source_ty), inbounds, in_range }
                    }
                    other => other,
                };
                let ty = self.ty(ty);
                Const::Expr { ty, op, operands: operands.iter().map(|&o| self.constant(o)).collect() }
            }
            Const::BlockAddress { ty, func, block } => {
                let ty = self.ty(ty);
                let mut target = self.functions[func.0 as usize];
                while let Const::Expr { operands, .. } = self.dst.consts.get(target) {
                    target = operands[0];
                }
                match self.dst.consts.get(target) {
                    &Const::Function(func) => Const::BlockAddress { ty, func, block },
                    _ => Const::Undef(ty),
                }
            }
        };
        let d = self.dst.consts.intern(k);
        self.memo(c, d)
    }

    fn memo(&mut self, c: ConstId, d: ConstId) -> ConstId {
        self.consts.insert(c, d);
        d
    }

    /// Source function `f`'s body, attributes and type, moved into the destination's
    /// function `d` (whose properties are kept).
    pub(super) fn move_function(&mut self, f: FuncId, d: FuncId) {
        let src = self.src;
        let mut body: Function = src.functions[f.0 as usize].clone();
        body.ty = self.ty(body.ty);
        body.attrs.map_types(|t| self.types.get(&mut self.dst.types, &src.types, t));
        body.personality = body.personality.map(|p| self.constant(p));
        for inst in &mut body.insts {
            inst.map_types(|t| self.types.get(&mut self.dst.types, &src.types, t));
            inst.kind.map_values(|v| match v {
                Value::Const(c) => Value::Const(self.constant(c)),
                Value::InlineAsm(a) => Value::InlineAsm(self.asms[a.0 as usize]),
                other => other,
            });
            inst.map_other_consts(|c| self.constant(c));
        }
        let slot = &mut self.dst.functions[d.0 as usize];
        body.props = std::mem::take(&mut slot.props);
        *slot = body;
    }

    /// Appends the elements of source array `init` (an `appending` global's initializer)
    /// to those of destination global `g`.
    pub(super) fn append(&mut self, g: pnacl_llvm::ir::GlobalId, init: ConstId) -> Result<(), String> {
        let theirs = self.constant(init);
        let dg = &self.dst.globals[g.0 as usize];
        let name = dg.props.name.clone();
        let elem = self.dst.types.element(dg.value_ty).ok_or_else(|| format!("@{name} is not an array"))?;
        let theirs_ty = self.dst.const_type(theirs);
        if theirs_ty.and_then(|t| self.dst.types.element(t)) != Some(elem) {
            return Err(format!("@{name}: appending arrays with different element types"));
        }
        let mut elems = match dg.init {
            Some(mine) => elements(self.dst, mine),
            None => Some(Vec::new()),
        }
        .ok_or_else(|| format!("@{name}: an appending array's initializer is not a list of elements"))?;
        elems.extend(elements(self.dst, theirs).ok_or_else(|| format!("@{name}: cannot append this initializer"))?);
        let ty = self.dst.types.intern(Type::Array { len: elems.len() as u64, elem });
        let new = self.dst.consts.intern(Const::Aggregate { ty, elems });
        let space = self.dst.globals[g.0 as usize].props.addr_space;
        self.dst.pointer_type(ty, space);
        let dg = &mut self.dst.globals[g.0 as usize];
        dg.value_ty = ty;
        dg.init = Some(new);
        Ok(())
    }
}

/// The elements of array constant `c`, one constant each.
fn elements(m: &mut Module, c: ConstId) -> Option<Vec<ConstId>> {
    match m.consts.get(c).clone() {
        Const::Aggregate { elems, .. } => Some(elems),
        Const::Zero(t) | Const::Undef(t) | Const::Poison(t) => {
            let Type::Array { len, elem } = *m.types.get(t) else { return None };
            let one = match m.consts.get(c) {
                Const::Zero(_) => Const::Zero(elem),
                Const::Undef(_) => Const::Undef(elem),
                _ => Const::Poison(elem),
            };
            let one = m.consts.intern(one);
            Some(vec![one; usize::try_from(len).ok()?])
        }
        Const::Data { ty, elems } => {
            let elem = m.types.element(ty)?;
            let is_float = m.types.get(elem).is_float();
            Some(
                elems
                    .into_iter()
                    .map(|bits| {
                        m.consts.intern(if is_float {
                            Const::Float { ty: elem, bits: u128::from(bits) }
                        } else {
                            Const::Int { ty: elem, value: bits }
                        })
                    })
                    .collect(),
            )
        }
        _ => None,
    }
}

/// The value type and address space of symbol `r` of `m`.
pub(super) fn value_type(m: &Module, r: GlobalRef) -> (TypeId, u32) {
    match r {
        GlobalRef::Function(f) => (m.functions[f.0 as usize].ty, m.functions[f.0 as usize].props.addr_space),
        GlobalRef::Global(g) => (m.globals[g.0 as usize].value_ty, m.globals[g.0 as usize].props.addr_space),
        GlobalRef::Alias(a) => (m.aliases[a.0 as usize].value_ty, m.aliases[a.0 as usize].props.addr_space),
    }
}
