//! `replace-ptrs-with-ints`: pointer-typed parameters, results, phis, selects and memory
//! values become `i32`; a pointer survives only where PNaCl's normal form allows it: an
//! alloca, a global or function address, or a pointer-returning intrinsic (possibly through a
//! `bitcast`), or an `inttoptr` right before the load, store or call that needs it.

use crate::util::{error, inst, ptr_to};
use crate::{Pass, PassError};
use pnacl_llvm::ir::{
    Attr, Attrs, BlockId, CastOp, Const, ExprOp, FuncId, InstId, InstKind, Module, Type, TypeId, Value, attr_kind,
};
use std::collections::HashMap;

/// The pass.
pub struct ReplacePtrsWithInts;

const NAME: &str = "replace-ptrs-with-ints";

/// `t` with every pointer replaced by `i32` (function types: parameters and result).
fn convert_type(m: &mut Module, t: TypeId, i32t: TypeId) -> TypeId {
    match m.types.get(t).clone() {
        Type::Pointer { .. } => i32t,
        Type::Function { ret, params, vararg } => {
            let ret = convert_type(m, ret, i32t);
            let params = params.iter().map(|&p| convert_type(m, p, i32t)).collect();
            m.types.function(ret, params, vararg)
        }
        _ => t,
    }
}

/// Intrinsics keep their pointer parameters and results.
fn is_intrinsic(m: &Module, f: FuncId) -> bool {
    m.functions[f.0 as usize].is_intrinsic()
}

/// Intrinsics that only mark lifetimes: PNaCl has none, their calls go.
fn is_marker(name: &str) -> bool {
    name.starts_with("llvm.lifetime.") || name.starts_with("llvm.invariant.")
}

impl Pass for ReplacePtrsWithInts {
    fn name(&self) -> &'static str {
        NAME
    }

    fn run(&self, m: &mut Module) -> Result<(), PassError> {
        let i32t = m.types.int(32);
        // Old types of every function, then the new ones.
        let old_types: Vec<TypeId> = m.functions.iter().map(|f| f.ty).collect();
        for (i, &ty) in old_types.iter().enumerate() {
            if !is_intrinsic(m, FuncId(i as u32)) {
                let t = convert_type(m, ty, i32t);
                m.functions[i].ty = t;
                m.pointer_type(t, 0);
            }
        }
        for f in crate::util::defined(m) {
            Rewriter::new(m, f, &old_types, i32t).run()?;
        }
        drop_pointer_attrs(m);
        Ok(())
    }
}

/// Attribute kinds (bitcode codes) LLVM allows only on pointers: align, byval, nest, noalias,
/// nocapture, readnone, readonly, sret, inalloca, nonnull, dereferenceable(_or_null),
/// swifterror, writeonly, nofree, preallocated, byref, elementtype.
const POINTER_ONLY: [u32; 17] = [1, 3, 8, 9, 11, 20, 21, 29, 38, 39, 41, 42, 47, 52, 62, 65, 69];

/// Removes pointer-only attributes from the parameters and results that became `i32`, on
/// functions and on calls (left there, they make the IR invalid).
fn drop_pointer_attrs(m: &mut Module) {
    let keep = |m: &Module, t: TypeId, attrs: &mut Vec<Attr>| {
        if !m.types.get(t).is_pointer() {
            attrs.retain(|a| a.kind().is_none_or(|k| !POINTER_ONLY.contains(&k) && k != attr_kind::ELEMENT_TYPE));
        }
    };
    // `params`: the types of the parameters, or of a call's arguments (variadic ones too).
    let clean = |m: &Module, ret: TypeId, params: &[TypeId], attrs: &mut Attrs| {
        keep(m, ret, &mut attrs.ret);
        for (k, a) in attrs.params.iter_mut().enumerate() {
            if let Some(&t) = params.get(k) {
                keep(m, t, a);
            }
        }
    };
    for fi in 0..m.functions.len() {
        let f = FuncId(fi as u32);
        if let Some((ret, params, _)) = m.types.as_function(m.functions[fi].ty) {
            let params = params.to_vec();
            let mut attrs = std::mem::take(&mut m.functions[fi].attrs);
            clean(m, ret, &params, &mut attrs);
            m.functions[fi].attrs = attrs;
        }
        for ii in 0..m.functions[fi].insts.len() {
            let inst = &m.functions[fi].insts[ii];
            let (InstKind::Call { args, attrs, .. } | InstKind::Invoke { args, attrs, .. }) = &inst.kind else {
                continue;
            };
            let arg_types: Vec<TypeId> = args.iter().map(|&a| m.value_type(f, a).unwrap_or(inst.ty)).collect();
            let mut a = (**attrs).clone();
            clean(m, inst.ty, &arg_types, &mut a);
            if let InstKind::Call { attrs, .. } | InstKind::Invoke { attrs, .. } = &mut m.functions[fi].insts[ii].kind {
                **attrs = a;
            }
        }
    }
}

struct Rewriter<'a> {
    m: &'a mut Module,
    f: FuncId,
    old_types: &'a [TypeId],
    i32t: TypeId,
    /// The `i32` standing for each pointer value that is not an inherent pointer.
    ints: HashMap<Value, Value>,
    /// Phis converted to `i32`, to fill once every value has its integer.
    phis: Vec<(InstId, InstId)>,
    /// Old pointer type of each argument.
    arg_types: Vec<TypeId>,
}

impl<'a> Rewriter<'a> {
    fn new(m: &'a mut Module, f: FuncId, old_types: &'a [TypeId], i32t: TypeId) -> Self {
        let (_, params, _) = m.types.as_function(old_types[f.0 as usize]).expect("function type");
        let arg_types = params.to_vec();
        Rewriter { m, f, old_types, i32t, ints: HashMap::new(), phis: Vec::new(), arg_types }
    }

    fn func(&self) -> &pnacl_llvm::ir::Function {
        &self.m.functions[self.f.0 as usize]
    }

    /// The type `v` had before the pass (arguments of pointer type are `i32` now).
    fn old_type(&self, v: Value) -> TypeId {
        match v {
            Value::Arg(i) => self.arg_types[i as usize],
            Value::Const(c) => match self.m.consts.get(c) {
                Const::Function(g) => {
                    let t = self.old_types[g.0 as usize];
                    self.m
                        .types
                        .find(&Type::Pointer { pointee: (!self.m.opaque_pointers).then_some(t), addr_space: 0 })
                        .unwrap_or(self.i32t)
                }
                _ => self.m.value_type(self.f, v).unwrap_or(self.i32t),
            },
            _ => self.m.value_type(self.f, v).unwrap_or(self.i32t),
        }
    }

    fn is_ptr_value(&self, v: Value) -> bool {
        self.m.types.get(self.old_type(v)).is_pointer()
    }

    /// An inherent pointer: an alloca, a global or function address, a pointer intrinsic's
    /// result; also a bitcast of one, which the writer elides.
    fn inherent_base(&self, v: Value) -> Option<Value> {
        match v {
            Value::Const(c) => match self.m.consts.get(c) {
                Const::Global(_) | Const::Function(_) => Some(v),
                // FlattenGlobals retypes a global used by a phi with a constant cast.
                Const::Expr { op: ExprOp::Cast(CastOp::Bitcast), operands, .. } if operands.len() == 1 => {
                    self.inherent_base(Value::Const(operands[0]))
                }
                _ => None,
            },
            Value::Inst(i) => match &self.func().inst(i).kind {
                InstKind::Alloca { .. } => Some(v),
                InstKind::Call { callee, .. } => {
                    self.m.as_function(*callee).filter(|&c| is_intrinsic(self.m, c)).map(|_| v)
                }
                InstKind::Cast { op: CastOp::Bitcast, val } if self.is_ptr_value(*val) => self.inherent_base(*val),
                _ => None,
            },
            _ => None,
        }
    }

    /// Adds an instruction to the function, listed in `out` (the instructions placed before
    /// the one being rewritten).
    fn emit(&mut self, out: &mut Vec<InstId>, kind: InstKind, ty: TypeId) -> Value {
        let id = self.m.functions[self.f.0 as usize].add_inst(inst(kind, ty));
        out.push(id);
        Value::Inst(id)
    }

    /// `v` as an `i32` (emitting a `ptrtoint` of an inherent pointer before the current
    /// instruction).
    fn int(&mut self, v: Value, out: &mut Vec<InstId>) -> Result<Value, String> {
        if !self.is_ptr_value(v) {
            return Ok(v);
        }
        if let Some(&x) = self.ints.get(&v) {
            return Ok(x);
        }
        if let Some(base) = self.inherent_base(v) {
            return Ok(self.emit(out, InstKind::Cast { op: CastOp::PtrToInt, val: base }, self.i32t));
        }
        match v {
            Value::Arg(_) => Ok(v),
            Value::Const(c) => match self.m.consts.get(c) {
                Const::Null(_) | Const::Zero(_) => Ok(Value::Const(self.m.consts.int(self.i32t, 32, 0))),
                Const::Undef(_) | Const::Poison(_) => Ok(Value::Const(self.m.consts.intern(Const::Undef(self.i32t)))),
                _ => Err("a pointer constant expression (expand-constant-expr runs first)".into()),
            },
            _ => Err("a pointer value with no integer form".into()),
        }
    }

    /// `v` as a pointer of type `want` in normal form.
    fn ptr(&mut self, v: Value, want: TypeId, out: &mut Vec<InstId>) -> Result<Value, String> {
        if let Some(base) = self.inherent_base(v) {
            let bt = self.m.value_type(self.f, base).unwrap_or(want);
            if bt == want {
                return Ok(base);
            }
            return Ok(self.emit(out, InstKind::Cast { op: CastOp::Bitcast, val: base }, want));
        }
        let i = self.int(v, out)?;
        Ok(self.emit(out, InstKind::Cast { op: CastOp::IntToPtr, val: i }, want))
    }

    fn run(mut self) -> Result<(), PassError> {
        // Definitions before uses: blocks in reverse post-order (a block's dominators come
        // before it), then any unreachable ones.
        for b in reverse_post_order(self.func()) {
            let old = std::mem::take(&mut self.m.functions[self.f.0 as usize].blocks[b].insts);
            let mut list = Vec::with_capacity(old.len());
            for id in old {
                let keep = self.instruction(id, &mut list).map_err(|e| error(self.m, NAME, self.f, id, e))?;
                list.extend(keep);
            }
            self.m.functions[self.f.0 as usize].blocks[b].insts = list;
        }
        self.fill_phis()
    }

    /// Rewrites instruction `id`; what it needs before it goes to `out`. Returns the
    /// instruction to keep in its place, if any.
    fn instruction(&mut self, id: InstId, out: &mut Vec<InstId>) -> Result<Option<InstId>, String> {
        let i = self.func().inst(id).clone();
        let me = Value::Inst(id);
        let result_is_ptr = self.m.types.get(i.ty).is_pointer();
        let mut kind = i.kind.clone();
        match &mut kind {
            InstKind::Alloca { .. } => return Ok(Some(id)),
            InstKind::Cast { op: CastOp::IntToPtr, val } => {
                let v = *val;
                let w = self.m.types.get(self.old_type(v)).int_width().unwrap_or(32);
                let x = match w {
                    32 => v,
                    w if w > 32 => self.emit(out, InstKind::Cast { op: CastOp::Trunc, val: v }, self.i32t),
                    _ => self.emit(out, InstKind::Cast { op: CastOp::ZExt, val: v }, self.i32t),
                };
                self.ints.insert(me, x);
                return Ok(None);
            }
            InstKind::Cast { op: CastOp::Bitcast, val } if result_is_ptr => {
                let v = *val;
                if self.inherent_base(me).is_some() {
                    // Each user gets its own cast of the inherent pointer (see `ptr`, `int`).
                    return Ok(None);
                }
                let x = self.int(v, out)?;
                self.ints.insert(me, x);
                return Ok(None);
            }
            InstKind::Cast { op: CastOp::PtrToInt, val } => {
                let x = self.int(*val, out)?;
                let w = self.m.types.get(i.ty).int_width().unwrap_or(32);
                let r = match w {
                    32 => x,
                    w if w > 32 => self.emit(out, InstKind::Cast { op: CastOp::ZExt, val: x }, i.ty),
                    _ => self.emit(out, InstKind::Cast { op: CastOp::Trunc, val: x }, i.ty),
                };
                // Integer uses of the ptrtoint are rewired when the function is done.
                self.ints.insert(me, r);
                return Ok(None);
            }
            InstKind::Load { ptr, .. } => {
                let loaded = if result_is_ptr { self.i32t } else { i.ty };
                let want = ptr_to(self.m, loaded);
                *ptr = self.ptr(*ptr, want, out)?;
                if result_is_ptr {
                    let v = self.emit(out, kind.clone(), self.i32t);
                    self.ints.insert(me, v);
                    return Ok(None);
                }
            }
            InstKind::Store { ptr, val, .. } => {
                let stored = if self.is_ptr_value(*val) { self.i32t } else { self.m.value_type(self.f, *val).unwrap() };
                *val = self.int(*val, out)?;
                let want = ptr_to(self.m, stored);
                *ptr = self.ptr(*ptr, want, out)?;
            }
            InstKind::Phi { .. } if result_is_ptr => {
                let v = self.emit(out, InstKind::Phi { incoming: Vec::new() }, self.i32t);
                self.ints.insert(me, v);
                if let Value::Inst(new) = v {
                    self.phis.push((id, new));
                }
                return Ok(None);
            }
            InstKind::Phi { .. } => {}
            InstKind::Select { cond, on_true, on_false } => {
                let c = *cond;
                let (t, f) = (self.int(*on_true, out)?, self.int(*on_false, out)?);
                if result_is_ptr {
                    let v = self.emit(out, InstKind::Select { cond: c, on_true: t, on_false: f }, self.i32t);
                    self.ints.insert(me, v);
                    return Ok(None);
                }
                *on_true = t;
                *on_false = f;
            }
            InstKind::ICmp { lhs, rhs, .. } => {
                *lhs = self.int(*lhs, out)?;
                *rhs = self.int(*rhs, out)?;
            }
            InstKind::Ret { val: Some(v) } => *v = self.int(*v, out)?,
            InstKind::Call { callee, fn_ty, args, .. } => {
                let direct = self.m.as_function(*callee);
                if let Some(c) = direct
                    && is_marker(&self.m.functions[c.0 as usize].props.name)
                {
                    return Ok(None);
                }
                match direct {
                    Some(c) if is_intrinsic(self.m, c) => {
                        let (_, params, _) = self.m.types.as_function(self.m.functions[c.0 as usize].ty).expect("fn");
                        let params = params.to_vec();
                        for (a, p) in args.iter_mut().zip(params) {
                            *a = if self.m.types.get(p).is_pointer() {
                                self.ptr(*a, p, out)?
                            } else {
                                self.int(*a, out)?
                            };
                        }
                    }
                    // The call's own type is converted, not taken from the callee: a call
                    // whose type differs from its callee's (`main` called with arguments
                    // it does not declare) must stay such a call.
                    Some(_) => {
                        *fn_ty = convert_type(self.m, *fn_ty, self.i32t);
                        for a in args.iter_mut() {
                            *a = self.int(*a, out)?;
                        }
                    }
                    None => {
                        let new_ty = convert_type(self.m, *fn_ty, self.i32t);
                        let want = ptr_to(self.m, new_ty);
                        *callee = self.ptr(*callee, want, out)?;
                        *fn_ty = new_ty;
                        for a in args.iter_mut() {
                            *a = self.int(*a, out)?;
                        }
                    }
                }
                if result_is_ptr && !direct.is_some_and(|c| is_intrinsic(self.m, c)) {
                    let v = self.emit(out, kind.clone(), self.i32t);
                    self.ints.insert(me, v);
                    return Ok(None);
                }
            }
            other => {
                let mut bad = false;
                other.for_each_value(|v| bad |= self.is_ptr_value(v));
                if bad || result_is_ptr {
                    return Err(format!("{} of a pointer is not supported", other.opcode_name()));
                }
            }
        }
        self.m.functions[self.f.0 as usize].inst_mut(id).kind = kind;
        Ok(Some(id))
    }

    fn fill_phis(mut self) -> Result<(), PassError> {
        for (old, new) in std::mem::take(&mut self.phis) {
            let InstKind::Phi { incoming } = self.func().inst(old).kind.clone() else { continue };
            let mut new_incoming: Vec<(Value, BlockId)> = Vec::with_capacity(incoming.len());
            for (v, pred) in incoming {
                // Entries of one predecessor (a switch's cases sharing this block) must
                // carry one value: the first entry's conversion serves them all.
                if let Some(&(x, _)) = new_incoming.iter().find(|(_, p)| *p == pred) {
                    new_incoming.push((x, pred));
                    continue;
                }
                let mut out = Vec::new();
                let x = self.int(v, &mut out).map_err(|e| error(self.m, NAME, self.f, old, e))?;
                self.append_to_block(pred, out);
                new_incoming.push((x, pred));
            }
            self.m.functions[self.f.0 as usize].inst_mut(new).kind = InstKind::Phi { incoming: new_incoming };
        }
        // Every other use of a converted value now uses its integer.
        let mut map = HashMap::new();
        for (k, v) in &self.ints {
            map.insert(*k, *v);
        }
        let f = &mut self.m.functions[self.f.0 as usize];
        f.replace_uses(&map);
        Ok(())
    }

    /// Puts instructions `ids` at the end of block `b`, before its terminator.
    fn append_to_block(&mut self, b: BlockId, ids: Vec<InstId>) {
        let blk = &mut self.m.functions[self.f.0 as usize].blocks[b.0 as usize];
        let at = blk.insts.len().saturating_sub(1);
        blk.insts.splice(at..at, ids);
    }
}

/// The blocks of `f` in reverse post-order from the entry, then the unreachable ones.
fn reverse_post_order(f: &pnacl_llvm::ir::Function) -> Vec<usize> {
    let n = f.blocks.len();
    let mut seen = vec![false; n];
    let mut post = Vec::with_capacity(n);
    // Iterative depth-first search: (block, its successors, next successor to visit).
    let succ = |b: usize| -> Vec<usize> {
        f.blocks[b].insts.last().map_or(Vec::new(), |&t| {
            f.inst(t).kind.successors().into_iter().map(|s| s.0 as usize).filter(|&s| s < n).collect()
        })
    };
    if n > 0 {
        let mut stack = vec![(0usize, succ(0), 0usize)];
        seen[0] = true;
        while let Some((b, ss, next)) = stack.last_mut() {
            if let Some(&s) = ss.get(*next) {
                *next += 1;
                if !seen[s] {
                    seen[s] = true;
                    let s_succ = succ(s);
                    stack.push((s, s_succ, 0));
                }
            } else {
                post.push(*b);
                stack.pop();
            }
        }
    }
    post.reverse();
    post.extend((0..n).filter(|&b| !seen[b]));
    post
}
