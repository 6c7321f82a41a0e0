//! What the passes share: building instructions and constants, rebuilding blocks, and
//! reporting.

use crate::PassError;
use pnacl_llvm::ir::{
    CastOp, Const, ConstId, ExprOp, FuncId, Function, Inst, InstId, InstKind, Module, Type, TypeId, Value,
};
use std::collections::HashMap;

/// An instruction with no name.
pub fn inst(kind: InstKind, ty: TypeId) -> Inst {
    Inst { kind, ty, name: None }
}

/// The `i32` constant `v`.
pub fn i32_const(m: &mut Module, v: u64) -> Value {
    let t = m.types.int(32);
    Value::Const(m.consts.int(t, 32, v))
}

/// The integer constant `v` of integer type `ty`.
pub fn int_const(m: &mut Module, ty: TypeId, v: u64) -> Value {
    let w = m.types.get(ty).int_width().unwrap_or(64);
    if w > 64 {
        let mut words = vec![0u64; w.div_ceil(64) as usize];
        words[0] = v;
        return Value::Const(m.consts.intern(Const::WideInt { ty, words }));
    }
    Value::Const(m.consts.int(ty, w, v))
}

/// The name of `llvm.memcpy`, `llvm.memmove` or `llvm.memset` (`base`) with an `i32` length
/// as LLVM spells it in `m`: `llvm.memcpy.p0.p0.i32` with opaque pointers (LLVM 15 and
/// newer), `llvm.memcpy.p0i8.p0i8.i32` with typed ones. A pass that calls one must use the
/// module's spelling: two declarations of one intrinsic would both become PNaCl's name.
pub fn mem_intrinsic(m: &Module, base: &str) -> String {
    let pointer = if m.opaque_pointers { "p0." } else { "p0i8." };
    let pointers = if base == "memset" { 1 } else { 2 };
    format!("llvm.{base}.{}i32", pointer.repeat(pointers))
}

/// `undef` of type `ty`.
pub fn undef(m: &mut Module, ty: TypeId) -> Value {
    Value::Const(m.consts.intern(Const::Undef(ty)))
}

/// The type of `v` in function `f`.
///
/// # Panics
/// If the value has no type (a malformed module).
pub fn ty(m: &Module, f: FuncId, v: Value) -> TypeId {
    m.value_type(f, v).expect("every operand has a type")
}

/// True if `t` is a pointer type.
pub fn is_ptr(m: &Module, t: TypeId) -> bool {
    m.types.get(t).is_pointer()
}

/// The pointer type to `pointee` (address space 0), typed or opaque as the module is.
pub fn ptr_to(m: &mut Module, pointee: TypeId) -> TypeId {
    m.pointer_type(pointee, 0)
}

/// The name of function `f`, for messages.
pub fn fname(m: &Module, f: FuncId) -> String {
    let n = &m.functions[f.0 as usize].props.name;
    if n.is_empty() { format!("{}", f.0) } else { n.clone() }
}

/// An error of pass `pass` about instruction `i` of function `f`.
pub fn error(m: &Module, pass: &'static str, f: FuncId, i: InstId, message: impl Into<String>) -> PassError {
    let func = &m.functions[f.0 as usize];
    let inst = func.inst(i);
    let construct = match &inst.name {
        Some(n) => format!("%{n} = {}", inst.kind.opcode_name()),
        None => inst.kind.opcode_name().to_string(),
    };
    PassError { pass, function: Some(fname(m, f)), construct, message: message.into() }
}

/// Where a rebuilt block's instructions go.
pub struct Out<'a> {
    /// The function being rebuilt.
    pub func: FuncId,
    list: &'a mut Vec<InstId>,
}

impl Out<'_> {
    /// Adds `inst` to the function and to the block being rebuilt; returns its value.
    pub fn emit(&mut self, m: &mut Module, inst: Inst) -> Value {
        let id = m.functions[self.func.0 as usize].add_inst(inst);
        self.list.push(id);
        Value::Inst(id)
    }

    /// Keeps instruction `id` (in its new place).
    pub fn keep(&mut self, id: InstId) {
        self.list.push(id);
    }

    /// A cast of `val` to `to`, or `val` itself if it already has that type.
    pub fn cast(&mut self, m: &mut Module, op: CastOp, val: Value, to: TypeId) -> Value {
        if ty(m, self.func, val) == to {
            return val;
        }
        self.emit(m, inst(InstKind::Cast { op, val }, to))
    }

    /// `val` as a pointer of type `to`: a bitcast of another pointer (none with opaque
    /// pointers), an `inttoptr` of an integer.
    pub fn to_ptr(&mut self, m: &mut Module, val: Value, to: TypeId) -> Value {
        let from = ty(m, self.func, val);
        if from == to {
            return val;
        }
        let op = if is_ptr(m, from) { CastOp::Bitcast } else { CastOp::IntToPtr };
        self.emit(m, inst(InstKind::Cast { op, val }, to))
    }
}

/// Rebuilds every block of function `func`: `visit` is called for each instruction in order
/// and puts on `out` what stands in its place (itself with [`Out::keep`], or new
/// instructions). Uses of an instruction can be redirected through the returned map
/// (filled by `visit`), applied once at the end.
pub fn rebuild(
    m: &mut Module,
    func: FuncId,
    mut visit: impl FnMut(&mut Module, InstId, &mut Out<'_>, &mut HashMap<Value, Value>) -> Result<(), PassError>,
) -> Result<(), PassError> {
    let blocks = std::mem::take(&mut m.functions[func.0 as usize].blocks);
    let mut rebuilt = Vec::with_capacity(blocks.len());
    let mut replace = HashMap::new();
    let mut result = Ok(());
    for mut b in blocks {
        let old = std::mem::take(&mut b.insts);
        let mut list = Vec::with_capacity(old.len());
        for &id in &old {
            if result.is_err() {
                list.push(id);
                continue;
            }
            let mut out = Out { func, list: &mut list };
            // Take the block list out of the module while visiting; the visitor sees the
            // function's instructions but no block layout.
            if let Err(e) = visit(m, id, &mut out, &mut replace) {
                result = Err(e);
            }
        }
        b.insts = list;
        rebuilt.push(b);
    }
    let f = &mut m.functions[func.0 as usize];
    f.blocks = rebuilt;
    f.replace_uses(&replace);
    result
}

/// Each defined function's id.
pub fn defined(m: &Module) -> Vec<FuncId> {
    m.functions.iter().enumerate().filter(|(_, f)| !f.is_declaration()).map(|(i, _)| FuncId(i as u32)).collect()
}

/// The function a call or invoke calls directly, with its name.
pub fn callee_name<'m>(m: &'m Module, f: &Function, i: InstId) -> Option<&'m str> {
    m.direct_callee(f.inst(i)).map(|c| m.functions[c.0 as usize].props.name.as_str())
}

/// True if `t` is a struct or array type.
pub fn is_aggregate(m: &Module, t: TypeId) -> bool {
    matches!(m.types.get(t), Type::Struct(_) | Type::Array { .. })
}

/// The function named `name`, declared with type `fn_ty` (external) if the module has none.
pub fn declare(m: &mut Module, name: &str, fn_ty: TypeId) -> FuncId {
    if let Some(f) = m.function_by_name(name) {
        return f;
    }
    let params = m.types.as_function(fn_ty).map_or(0, |(_, p, _)| p.len());
    m.functions.push(Function {
        props: pnacl_llvm::ir::GlobalProps { name: name.to_string(), ..Default::default() },
        ty: fn_ty,
        cc: 0,
        attrs: Default::default(),
        gc: None,
        personality: None,
        params: vec![Default::default(); params],
        blocks: Vec::new(),
        insts: Vec::new(),
    });
    m.pointer_type(fn_ty, 0);
    FuncId(m.functions.len() as u32 - 1)
}

/// The address of function `f` as an operand.
pub fn func_value(m: &mut Module, f: FuncId) -> Value {
    Value::Const(m.consts.intern(Const::Function(f)))
}

/// A direct call of `f` with `args` (C calling convention, no attributes).
pub fn call(m: &Module, f: FuncId, args: Vec<Value>, callee: Value) -> Inst {
    let fn_ty = m.functions[f.0 as usize].ty;
    let (ret, _, _) = m.types.as_function(fn_ty).expect("function type");
    inst(InstKind::Call { callee, fn_ty, args, cc: 0, tail: Default::default(), attrs: Box::default(), flags: 0 }, ret)
}

/// `load T, T* ptr` (non-atomic, not volatile).
pub fn load(ptr: Value, ty: TypeId, align: u32) -> Inst {
    inst(InstKind::Load { ptr, align, volatile: false, ordering: pnacl_llvm::ir::Ordering::NotAtomic }, ty)
}

/// `store val, ptr` (non-atomic, not volatile).
pub fn store(m: &mut Module, ptr: Value, val: Value, align: u32) -> Inst {
    let void = m.types.void();
    inst(InstKind::Store { ptr, val, align, volatile: false, ordering: pnacl_llvm::ir::Ordering::NotAtomic }, void)
}

/// A binary operation.
pub fn binop(op: pnacl_llvm::ir::BinaryOp, lhs: Value, rhs: Value, ty: TypeId) -> Inst {
    inst(InstKind::Binary { op, lhs, rhs, flags: 0 }, ty)
}

/// Typed pointers only: after functions changed type (`old[i]` is function `i`'s type
/// before), every use of a retyped function's address other than as a direct callee (in
/// instructions and global initializers) sees it through a `bitcast` to its old pointer
/// type, as LLVM's `replaceAllUsesWith` of a cast left it; otherwise the stored or passed
/// pointer's type no longer matches its slot.
pub fn cast_retyped_function_uses(m: &mut Module, old: &[TypeId]) {
    if m.opaque_pointers {
        return;
    }
    let mut map: HashMap<ConstId, ConstId> = HashMap::new();
    for (i, &t) in old.iter().enumerate() {
        if m.functions[i].ty == t {
            continue;
        }
        let Some(c) = m.consts.find(&Const::Function(FuncId(i as u32))) else { continue };
        let old_ptr = m.pointer_type(t, 0);
        let e = m.consts.intern(Const::Expr { ty: old_ptr, op: ExprOp::Cast(CastOp::Bitcast), operands: vec![c] });
        map.insert(c, e);
    }
    replace_const_uses(m, &map, true);
}

/// Replaces the constants `map` has keys for wherever they are used: inside other
/// constants, in initializers, aliasees and personalities, and in instructions (value
/// operands, switch cases, landing-pad clauses). With `keep_direct_callees`, a call or
/// invoke whose callee is itself a key keeps that callee: a direct call with another
/// function type than its callee's is frozen as the indirect call it is, so a cast there
/// would add nothing.
pub fn replace_const_uses(m: &mut Module, map: &HashMap<ConstId, ConstId>, keep_direct_callees: bool) {
    if map.is_empty() {
        return;
    }
    let mut cache = map.clone();
    // A replacement already in use (the same cast written in the source) stays as it is.
    for &r in map.values() {
        cache.entry(r).or_insert(r);
    }
    for gi in 0..m.globals.len() {
        if let Some(init) = m.globals[gi].init {
            m.globals[gi].init = Some(remap_const(m, init, &mut cache));
        }
    }
    for ai in 0..m.aliases.len() {
        let aliasee = m.aliases[ai].aliasee;
        m.aliases[ai].aliasee = remap_const(m, aliasee, &mut cache);
    }
    for fi in 0..m.functions.len() {
        if let Some(p) = m.functions[fi].personality {
            m.functions[fi].personality = Some(remap_const(m, p, &mut cache));
        }
        for ii in 0..m.functions[fi].insts.len() {
            let mut inst = m.functions[fi].insts[ii].clone();
            let direct = match &inst.kind {
                InstKind::Call { callee, .. } | InstKind::Invoke { callee, .. } => Some(*callee),
                _ => None,
            };
            let mut changed = false;
            let mut remap = |c: ConstId| {
                let n = remap_const(m, c, &mut cache);
                changed |= n != c;
                n
            };
            inst.kind.map_values(|v| match v {
                Value::Const(c) => Value::Const(remap(c)),
                _ => v,
            });
            inst.map_other_consts(&mut remap);
            if !changed {
                continue;
            }
            if keep_direct_callees
                && let (Some(d), InstKind::Call { callee, .. } | InstKind::Invoke { callee, .. }) =
                    (direct, &mut inst.kind)
                && matches!(d, Value::Const(c) if map.contains_key(&c))
            {
                *callee = d;
            }
            m.functions[fi].insts[ii] = inst;
        }
    }
}

/// Constant `c` with the replacements of `cache` made inside it (memoized in `cache`).
pub(crate) fn remap_const(m: &mut Module, c: ConstId, cache: &mut HashMap<ConstId, ConstId>) -> ConstId {
    if let Some(&r) = cache.get(&c) {
        return r;
    }
    let r = match m.consts.get(c).clone() {
        Const::Aggregate { ty, elems } => {
            let new: Vec<ConstId> = elems.iter().map(|&e| remap_const(m, e, cache)).collect();
            if new == elems { c } else { m.consts.intern(Const::Aggregate { ty, elems: new }) }
        }
        Const::Expr { ty, op, operands } => {
            let new: Vec<ConstId> = operands.iter().map(|&e| remap_const(m, e, cache)).collect();
            if new == operands { c } else { m.consts.intern(Const::Expr { ty, op, operands: new }) }
        }
        _ => c,
    };
    cache.insert(c, r);
    r
}
