//! The type table, in the order PNaCl's writer gives it.
//!
//! `NaClValueEnumerator` (LLVM 3.7, `lib/Bitcode/NaCl/Writer/NaClValueEnumerator.cpp`)
//! counts every type it meets while walking the module, then numbers the types by
//! descending count, ties by first sight, each type's subtypes first. Types are normalized
//! first: a pointer becomes `i32` (but a pointer met as a value's type counts its pointee),
//! a function type loses its vararg flag and has its pointers normalized.

use super::error::Refusal;
use super::pointers::{Pointee, Seen, elide, is_elided, param_pointee, pointee};
use pnacl_bitcode::ir::{Signature, Ty, TypeDef};
use pnacl_llvm::hash::FastMap;
use pnacl_llvm::ir::{Const, FuncId, Inst, InstKind, Module, Type, TypeId, Value};

/// The normalized form of a model type.
enum Norm {
    /// `label`: never given a type id.
    Label,
    /// A type of the PNaCl type table.
    Def(TypeDef),
}

/// Normalizes model type `t`, or says why PNaCl bitcode cannot express it.
fn normalize(m: &Module, t: TypeId) -> Result<Norm, Refusal> {
    Ok(match m.types.get(t) {
        Type::Label => Norm::Label,
        Type::Function { ret, params, .. } => {
            let mut sig =
                Signature { ret: value_type(m, *ret)?, params: Vec::with_capacity(params.len()), vararg: false };
            for &p in params {
                sig.params.push(value_type(m, p)?);
            }
            Norm::Def(TypeDef::Function(sig))
        }
        _ => Norm::Def(TypeDef::Value(value_type(m, t)?)),
    })
}

/// The normalized function type of model function type `t`.
pub(crate) fn function_type(m: &Module, t: TypeId) -> Result<TypeDef, Refusal> {
    match normalize(m, t)? {
        Norm::Def(d @ TypeDef::Function(_)) => Ok(d),
        _ => Err(Refusal::new("a function whose type is not a function type")),
    }
}

/// The PNaCl value type of model type `t` (pointers are `i32`).
pub(crate) fn value_type(m: &Module, t: TypeId) -> Result<Ty, Refusal> {
    let ty = match m.types.get(t) {
        Type::Void => Some(Ty::Void),
        Type::Float => Some(Ty::Float),
        Type::Double => Some(Ty::Double),
        Type::Pointer { .. } => Some(Ty::I32),
        Type::Int(w) => Ty::int(u64::from(*w)),
        Type::Vector { len, elem, scalable: false } => match m.types.get(*elem) {
            Type::Int(w) => Ty::int(u64::from(*w)).and_then(|e| Ty::vector(u64::from(*len), e)),
            Type::Float => Ty::vector(u64::from(*len), Ty::Float),
            _ => None,
        },
        Type::Struct(_) => return Err(Refusal::new("Struct types are not supported in PNaCl bitcode")),
        Type::Array { .. } => return Err(Refusal::new("Array types are not supported in PNaCl bitcode")),
        _ => None,
    };
    ty.ok_or_else(|| Refusal::new(format!("type {} has no encoding in PNaCl bitcode", m.types.short_name(t))))
}

/// The subtypes the writer enumerates before a type: a function's return and parameter
/// types, a vector's element type.
fn subtypes(t: &TypeDef) -> Vec<TypeDef> {
    match t {
        TypeDef::Function(sig) => {
            std::iter::once(sig.ret).chain(sig.params.iter().copied()).map(TypeDef::Value).collect()
        }
        TypeDef::Value(v) if v.is_vector() => vec![TypeDef::Value(v.element())],
        TypeDef::Value(_) => Vec::new(),
    }
}

/// The finished type table.
#[derive(Debug, Default)]
pub(crate) struct TypeTable {
    /// The types in id order.
    pub defs: Vec<TypeDef>,
    ids: FastMap<TypeDef, u32>,
}

impl TypeTable {
    /// The id of a type of the table.
    pub fn id(&self, t: &TypeDef) -> u32 {
        self.ids[t]
    }

    /// The id of a value type of the table.
    pub fn value(&self, t: Ty) -> u32 {
        self.id(&TypeDef::Value(t))
    }
}

/// Phase 1 of the enumeration: counts, and first-sight order. Each distinct type has a
/// slot; the enumerator remembers the slot of each model type it has normalized.
#[derive(Default)]
struct Counter {
    slots: FastMap<TypeDef, u32>,
    /// By slot: the type and its count.
    defs: Vec<TypeDef>,
    counts: Vec<u32>,
    /// Slots in first-sight order.
    first_seen: Vec<u32>,
}

impl Counter {
    /// `EnumerateType` with counting: every call counts; a new type first enumerates its
    /// subtypes, then takes the next first-sight index. Returns the type's slot.
    fn count(&mut self, t: TypeDef) -> u32 {
        if let Some(&s) = self.slots.get(&t) {
            self.counts[s as usize] += 1;
            return s;
        }
        let s = self.defs.len() as u32;
        self.slots.insert(t.clone(), s);
        self.counts.push(1);
        let subs = subtypes(&t);
        self.defs.push(t);
        for sub in subs {
            self.count(sub);
        }
        self.first_seen.push(s);
        s
    }

    /// Counts the type in slot `s` once more.
    fn bump(&mut self, s: u32) {
        self.counts[s as usize] += 1;
    }

    /// Phase 2 (`OptimizeTypes`): by descending count, ties by first sight, each type after
    /// its subtypes.
    fn finish(self) -> TypeTable {
        let mut by_count: Vec<(u32, usize)> =
            self.first_seen.iter().enumerate().map(|(i, &s)| (self.counts[s as usize], i)).collect();
        by_count.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        let mut table = TypeTable::default();
        for (_, i) in by_count {
            table.assign(&self.defs[self.first_seen[i] as usize]);
        }
        table
    }
}

impl TypeTable {
    fn assign(&mut self, t: &TypeDef) {
        if self.ids.contains_key(t) {
            return;
        }
        for sub in subtypes(t) {
            self.assign(&sub);
        }
        self.ids.insert(t.clone(), self.defs.len() as u32);
        self.defs.push(t.clone());
    }
}

/// Where an unencodable type was met: a function, and the index of its instruction in
/// layout order (none for its signature).
pub(crate) type Place = Option<(FuncId, Option<usize>)>;

/// Walks the module as the enumerator's constructor does and returns the type table.
pub(crate) fn enumerate(m: &Module, writer: super::Writer) -> Result<TypeTable, (Place, Refusal)> {
    let mut c = Counter::default();
    let mut e = Enumerator { m, c: &mut c, writer, slots: vec![UNSEEN; m.types.len()], ops: Vec::new() };
    // Function addresses: their function types.
    for (fi, f) in m.functions.iter().enumerate() {
        e.count_type(f.ty).map_err(|r| (Some((FuncId(fi as u32), None)), r))?;
    }
    // Global variables: nothing. Then argument and instruction types, function by function.
    for fi in 0..m.functions.len() {
        let func = FuncId(fi as u32);
        e.function(func).map_err(|(at, r)| (Some((func, at)), r))?;
    }
    Ok(c.finish())
}

/// [`Enumerator::slots`] of a model type not normalized yet, and of `label`.
const UNSEEN: u32 = u32::MAX;
const LABEL: u32 = u32::MAX - 1;

struct Enumerator<'m, 'c> {
    m: &'m Module,
    c: &'c mut Counter,
    writer: super::Writer,
    /// By model type: the counter slot of its normalized form, [`UNSEEN`] or [`LABEL`].
    slots: Vec<u32>,
    /// The operands of the instruction being walked (kept for its allocation).
    ops: Vec<Value>,
}

impl Enumerator<'_, '_> {
    /// `EnumerateType` of a non-pointer (or typed-pointer) model type.
    fn count_type(&mut self, t: TypeId) -> Result<(), Refusal> {
        let t = self.m.types.pointee(t).unwrap_or(t);
        match self.slots.get(t.0 as usize).copied() {
            Some(LABEL) => {}
            Some(UNSEEN) | None => {
                let slot = match normalize(self.m, t)? {
                    Norm::Label => LABEL,
                    Norm::Def(d) => self.c.count(d),
                };
                if let Some(s) = self.slots.get_mut(t.0 as usize) {
                    *s = slot;
                }
            }
            Some(s) => self.c.bump(s),
        }
        Ok(())
    }

    fn count_pointee(&mut self, p: Pointee) -> Result<(), Refusal> {
        match p {
            Pointee::Type(t) => self.count_type(t),
            Pointee::Int(w) => {
                let ty = Ty::int(u64::from(w)).ok_or_else(|| Refusal::new(format!("type i{w} has no encoding")))?;
                self.c.count(TypeDef::Value(ty));
                Ok(())
            }
        }
    }

    /// `EnumerateType(V->getType())` for value `v` seen as `seen`.
    fn count_value_type(&mut self, func: FuncId, v: Value, seen: Seen<'_>) -> Result<(), Refusal> {
        let Some(ty) = self.m.value_type(func, v) else {
            // A function address whose pointer type the model has not interned: count the
            // function type, as its pointee.
            if let Some(g) = self.m.as_function(v) {
                return self.count_type(self.m.functions[g.0 as usize].ty);
            }
            return Err(Refusal::new("an operand without a type"));
        };
        if self.m.types.get(ty).is_pointer() {
            return self.count_pointee(pointee(self.m, func, v, ty, seen));
        }
        self.count_type(ty)
    }

    /// `EnumerateOperandType`: nothing for global variables; the value's type; the types
    /// inside a constant expression or aggregate.
    fn operand(&mut self, func: FuncId, v: Value, seen: Seen<'_>) -> Result<(), Refusal> {
        if let Value::Const(c) = v {
            match self.m.consts.get(c) {
                Const::Global(_) => return Ok(()),
                Const::Function(_) => return self.count_value_type(func, v, seen),
                other => {
                    self.count_value_type(func, v, seen)?;
                    for &op in other.operands() {
                        self.operand(func, Value::Const(op), Seen::Itself)?;
                    }
                    return Ok(());
                }
            }
        }
        self.count_value_type(func, v, seen)
    }

    fn function(&mut self, func: FuncId) -> Result<(), (Option<usize>, Refusal)> {
        let f = &self.m.functions[func.0 as usize];
        let (_, params, _) = self.m.types.as_function(f.ty).ok_or((None, Refusal::new("not a function type")))?;
        for &p in params {
            let r = if self.m.types.get(p).is_pointer() {
                self.count_pointee(param_pointee(self.m, func, p))
            } else {
                self.count_type(p)
            };
            r.map_err(|r| (None, r))?;
        }
        for (k, (_, id)) in f.layout().enumerate() {
            let inst = f.inst(id);
            self.instruction(func, id, inst).map_err(|r| (Some(k), r))?;
        }
        Ok(())
    }

    fn instruction(&mut self, func: FuncId, id: pnacl_llvm::ir::InstId, inst: &Inst) -> Result<(), Refusal> {
        let f = &self.m.functions[func.0 as usize];
        let me = Value::Inst(id);
        if is_elided(self.m, f, me) {
            // The 2016 writer counts the type(s) of the value the cast stands for; the
            // writer of the LLVM 3.6-based toolchains counted nothing for it.
            return match self.writer {
                super::Writer::Pnacl2016 => self.operand(func, elide(self.m, f, me), Seen::Itself),
                super::Writer::Pnacl2015 => Ok(()),
            };
        }
        if let InstKind::Switch { cond, .. } = inst.kind {
            self.operand(func, cond, Seen::Operand(inst, 0))?;
        } else {
            let mut ops = std::mem::take(&mut self.ops);
            ops.clear();
            inst.kind.for_each_value(|v| ops.push(v));
            let mut result = Ok(());
            for (i, &v) in ops.iter().enumerate() {
                result = self.operand(func, v, Seen::Operand(inst, i));
                if result.is_err() {
                    break;
                }
            }
            self.ops = ops;
            result?;
        }
        if self.m.types.get(inst.ty).is_pointer() {
            let p = pointee(self.m, func, me, inst.ty, Seen::Itself);
            return self.count_pointee(p);
        }
        self.count_type(inst.ty)
    }
}
