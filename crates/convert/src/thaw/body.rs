//! A function body back to LLVM instructions, with the pointer casts PNaCl's writer
//! elided.

use super::{ThawError, intrinsics, value_type};
use pnacl_bitcode::abi::intrinsic;
use pnacl_bitcode::ir::{
    BinOp, CastOp as PCastOp, ConstValue, FunctionBody, Inst as PInst, Module as PModule, Signature, Ty, ValueId,
    ValueKind, decode_sign_rotated,
};
use pnacl_llvm::ir::{
    Attr, Attrs, BinaryOp, Block, BlockId, CastOp, Const, FloatPred, FuncId, GlobalId, Inst, InstId, InstKind, IntPred,
    Module, Ordering, Param, TailKind, TypeId, Value, attr_kind,
};

/// Where a PNaCl value lives in the thawed function, and whether it is a pointer there.
#[derive(Clone, Copy, Debug)]
enum Src {
    /// A number (or vector) of this PNaCl type.
    Num(Value),
    /// A pointer of this model type (allocas, globals, functions, pointer intrinsics).
    Ptr(Value, TypeId),
}

struct Thaw<'a> {
    m: &'a mut Module,
    pm: &'a PModule,
    func: FuncId,
    body: &'a FunctionBody,
    /// The module-level values (absolute ids below `module.len()`).
    module: &'a [Src],
    /// The function's own values in scope, by absolute id less `module.len()`.
    srcs: Vec<Src>,
    /// Blocks under construction.
    blocks: Vec<Block>,
    insts: Vec<Inst>,
    /// Phis to fill once every value exists: the model phi and the PNaCl pool range.
    phis: Vec<(InstId, pnacl_bitcode::ir::PoolRange)>,
    /// Casts of allocas, shared by all their users and placed right after them, as
    /// SimplifyAllocas and ReplacePtrsWithInts left them: (alloca, cast, type) to the cast.
    alloca_casts: std::collections::HashMap<(InstId, CastOp, TypeId), InstId>,
}

/// The module-level values every body sees (functions, then globals), made once per module
/// and shared by the bodies (making them per body made thawing quadratic in the module).
pub(super) struct ModuleSrcs(Vec<Src>);

/// The [`ModuleSrcs`] of the module being thawed.
pub(super) fn module_srcs(m: &mut Module, pm: &PModule) -> ModuleSrcs {
    let mut srcs = Vec::with_capacity(pm.functions.len() + pm.globals.len());
    for f in 0..pm.functions.len() {
        let c = m.consts.intern(Const::Function(FuncId(f as u32)));
        let ty = m.const_type(c).expect("function pointer types are interned");
        srcs.push(Src::Ptr(Value::Const(c), ty));
    }
    for g in 0..pm.globals.len() {
        let c = m.consts.intern(Const::Global(GlobalId(g as u32)));
        let ty = m.const_type(c).expect("global pointer types are interned");
        srcs.push(Src::Ptr(Value::Const(c), ty));
    }
    ModuleSrcs(srcs)
}

/// Thaws the body of function `func` into the model.
pub(super) fn thaw_body(
    m: &mut Module,
    pm: &PModule,
    module: &ModuleSrcs,
    func: FuncId,
    sig: &Signature,
    body: &FunctionBody,
) -> Result<(), ThawError> {
    let space = pm.value_space(func.0);
    let module = module.0.as_slice();
    // The function's own values, from absolute id `module.len()` on.
    let mut srcs = Vec::with_capacity((space.first_inst() as usize + body.insts.len()).saturating_sub(module.len()));
    for i in 0..sig.params.len() {
        srcs.push(Src::Num(Value::Arg(i as u32)));
    }
    for c in &body.constants {
        let ty = value_type(m, c.ty);
        let k = match c.value {
            ConstValue::Undef => Const::Undef(ty),
            ConstValue::Int(raw) => {
                let bits = c.ty.element().bits();
                let v = decode_sign_rotated(raw) as u64;
                Const::Int { ty, value: if bits >= 64 { v } else { v & ((1u64 << bits) - 1) } }
            }
            ConstValue::Float(bits) => Const::Float { ty, bits: u128::from(bits) },
        };
        srcs.push(Src::Num(Value::Const(m.consts.intern(k))));
    }
    // Every value-defining instruction gets its slot now, so that forward references know
    // what they refer to.
    let mut insts = Vec::new();
    for inst in &body.insts {
        if !pm.defines_value(inst) {
            continue;
        }
        let id = InstId(insts.len() as u32);
        let k = (module.len() + srcs.len()) as u32 - space.first_inst();
        insts.push(Inst { kind: InstKind::Unreachable, ty: TypeId(0), name: Some(format!("v{k}")) });
        let src = match *inst {
            PInst::Alloca { .. } => {
                let i8t = m.types.int(8);
                Src::Ptr(Value::Inst(id), m.pointer_type(i8t, 0))
            }
            PInst::Call { callee, indirect_ret: None, .. } => {
                let (ret, _, _) = m.types.as_function(m.functions[callee.0 as usize].ty).expect("function type");
                if m.types.get(ret).is_pointer() { Src::Ptr(Value::Inst(id), ret) } else { Src::Num(Value::Inst(id)) }
            }
            _ => Src::Num(Value::Inst(id)),
        };
        srcs.push(src);
    }
    let mut t = Thaw {
        m,
        pm,
        func,
        body,
        module,
        srcs,
        blocks: Vec::new(),
        insts,
        phis: Vec::new(),
        alloca_casts: Default::default(),
    };
    t.build()?;
    t.place_alloca_casts();
    let f = &mut t.m.functions[func.0 as usize];
    f.params = (0..sig.params.len()).map(|i| Param { name: Some(format!("p{i}")) }).collect();
    f.blocks = std::mem::take(&mut t.blocks);
    f.insts = std::mem::take(&mut t.insts);
    Ok(())
}

impl Thaw<'_> {
    fn src(&self, v: ValueId) -> Result<Src, ThawError> {
        let v = v.0 as usize;
        let src = match v.checked_sub(self.module.len()) {
            None => self.module.get(v),
            Some(local) => self.srcs.get(local),
        };
        src.copied().ok_or_else(|| ThawError(format!("value {v} out of range")))
    }

    fn pnacl_type(&self, v: ValueId) -> Ty {
        let space = self.pm.value_space(self.func.0);
        match space.kind(v) {
            ValueKind::Function(_) | ValueKind::Global(_) => Ty::I32,
            _ => self.body.local_types[(v.0 - space.first_param()) as usize],
        }
    }

    /// Appends an instruction to block `b` and returns its id.
    fn emit(&mut self, b: usize, kind: InstKind, ty: TypeId) -> InstId {
        let id = InstId(self.insts.len() as u32);
        self.insts.push(Inst { kind, ty, name: None });
        self.blocks[b].insts.push(id);
        id
    }

    /// The shared cast of alloca `a` (placed after it once the body is built).
    fn alloca_cast(&mut self, a: InstId, op: CastOp, ty: TypeId) -> Value {
        if let Some(&c) = self.alloca_casts.get(&(a, op, ty)) {
            return Value::Inst(c);
        }
        let id = InstId(self.insts.len() as u32);
        self.insts.push(Inst { kind: InstKind::Cast { op, val: Value::Inst(a) }, ty, name: None });
        self.alloca_casts.insert((a, op, ty), id);
        Value::Inst(id)
    }

    /// Puts each shared alloca cast right after its alloca.
    fn place_alloca_casts(&mut self) {
        let mut after: std::collections::HashMap<InstId, Vec<InstId>> = std::collections::HashMap::new();
        let mut casts: Vec<(&(InstId, CastOp, TypeId), &InstId)> = self.alloca_casts.iter().collect();
        casts.sort_by_key(|(_, c)| **c);
        for ((a, _, _), c) in casts {
            after.entry(*a).or_default().push(*c);
        }
        for blk in &mut self.blocks {
            if !blk.insts.iter().any(|i| after.contains_key(i)) {
                continue;
            }
            let mut list = Vec::with_capacity(blk.insts.len());
            for &i in &blk.insts {
                list.push(i);
                if let Some(cs) = after.remove(&i) {
                    list.extend(cs);
                }
            }
            blk.insts = list;
        }
    }

    fn is_alloca(&self, v: Value) -> Option<InstId> {
        match v {
            Value::Inst(i)
                if matches!(self.insts.get(i.0 as usize).map(|x| &x.kind), Some(InstKind::Alloca { .. })) =>
            {
                Some(i)
            }
            _ => None,
        }
    }

    /// `v` as a number: a pointer goes through `ptrtoint`.
    fn num(&mut self, b: usize, v: ValueId) -> Result<Value, ThawError> {
        Ok(match self.src(v)? {
            Src::Num(x) => x,
            Src::Ptr(x, _) if self.is_alloca(x).is_some() => {
                let i32t = self.m.types.int(32);
                self.alloca_cast(self.is_alloca(x).expect("checked"), CastOp::PtrToInt, i32t)
            }
            Src::Ptr(x, _) => {
                let i32t = self.m.types.int(32);
                Value::Inst(self.emit(b, InstKind::Cast { op: CastOp::PtrToInt, val: x }, i32t))
            }
        })
    }

    /// `v` as a pointer of type `want`: a number goes through `inttoptr`, a pointer of
    /// another type through `bitcast`.
    fn ptr(&mut self, b: usize, v: ValueId, want: TypeId) -> Result<Value, ThawError> {
        Ok(match self.src(v)? {
            Src::Num(x) => Value::Inst(self.emit(b, InstKind::Cast { op: CastOp::IntToPtr, val: x }, want)),
            Src::Ptr(x, ty) if ty == want => x,
            Src::Ptr(x, _) if self.is_alloca(x).is_some() => {
                self.alloca_cast(self.is_alloca(x).expect("checked"), CastOp::Bitcast, want)
            }
            Src::Ptr(x, _) => Value::Inst(self.emit(b, InstKind::Cast { op: CastOp::Bitcast, val: x }, want)),
        })
    }

    /// The pointer type to a PNaCl value type.
    fn pointer_to(&mut self, t: Ty) -> TypeId {
        let pointee = value_type(self.m, t);
        self.m.pointer_type(pointee, 0)
    }

    fn build(&mut self) -> Result<(), ThawError> {
        let body = self.body;
        self.blocks = (0..body.num_blocks).map(|i| Block { name: Some(format!("b{i}")), insts: Vec::new() }).collect();
        let mut next_value = 0usize;
        for b in 0..body.num_blocks as usize {
            for inst in body.block(b as u32) {
                let slot = self.pm.defines_value(inst).then(|| {
                    next_value += 1;
                    InstId(next_value as u32 - 1)
                });
                self.instruction(b, inst, slot)?;
            }
        }
        self.fill_phis()
    }

    /// Places instruction `slot` (or a new one, for instructions without a value).
    fn place(&mut self, b: usize, slot: Option<InstId>, kind: InstKind, ty: TypeId) {
        match slot {
            Some(id) => {
                let inst = &mut self.insts[id.0 as usize];
                inst.kind = kind;
                inst.ty = ty;
                self.blocks[b].insts.push(id);
            }
            None => {
                self.emit(b, kind, ty);
            }
        }
    }

    fn instruction(&mut self, b: usize, inst: &PInst, slot: Option<InstId>) -> Result<(), ThawError> {
        let void = self.m.types.void();
        match *inst {
            PInst::Binop { op, lhs, rhs, .. } => {
                let t = self.pnacl_type(lhs);
                let (l, r) = (self.num(b, lhs)?, self.num(b, rhs)?);
                let ty = value_type(self.m, t);
                let op = binary(op, t.element().is_float());
                self.place(b, slot, InstKind::Binary { op, lhs: l, rhs: r, flags: 0 }, ty);
            }
            PInst::Cast { op, val, to } => {
                let v = self.num(b, val)?;
                let ty = value_type(self.m, to);
                self.place(b, slot, InstKind::Cast { op: cast(op), val: v }, ty);
            }
            PInst::Cmp { pred, lhs, rhs } => {
                let t = self.pnacl_type(lhs);
                let (l, r) = (self.num(b, lhs)?, self.num(b, rhs)?);
                let ty = value_type(self.m, t.compare_result());
                let kind = if pred.is_integer() {
                    let pred = IntPred::from_code(u64::from(pred.0)).expect("reader checked the predicate");
                    InstKind::ICmp { pred, lhs: l, rhs: r }
                } else {
                    InstKind::FCmp { pred: FloatPred(pred.0), lhs: l, rhs: r, flags: 0 }
                };
                self.place(b, slot, kind, ty);
            }
            PInst::Select { cond, on_true, on_false } => {
                let t = self.pnacl_type(on_true);
                let c = self.num(b, cond)?;
                let (x, y) = (self.num(b, on_true)?, self.num(b, on_false)?);
                let ty = value_type(self.m, t);
                self.place(b, slot, InstKind::Select { cond: c, on_true: x, on_false: y }, ty);
            }
            PInst::ExtractElement { vector, index } => {
                let t = self.pnacl_type(vector).element();
                let (v, i) = (self.num(b, vector)?, self.num(b, index)?);
                let ty = value_type(self.m, t);
                self.place(b, slot, InstKind::ExtractElement { vector: v, index: i }, ty);
            }
            PInst::InsertElement { vector, element, index } => {
                let t = self.pnacl_type(vector);
                let v = self.num(b, vector)?;
                let e = self.num(b, element)?;
                let i = self.num(b, index)?;
                let ty = value_type(self.m, t);
                self.place(b, slot, InstKind::InsertElement { vector: v, element: e, index: i }, ty);
            }
            PInst::Alloca { size, align } => {
                let s = self.num(b, size)?;
                let i8t = self.m.types.int(8);
                let ty = self.m.pointer_type(i8t, 0);
                let kind = InstKind::Alloca { allocated_ty: i8t, count: s, align: align.bytes() };
                self.place(b, slot, kind, ty);
            }
            PInst::Load { ptr, ty, align } => {
                let want = self.pointer_to(ty);
                let p = self.ptr(b, ptr, want)?;
                let t = value_type(self.m, ty);
                let kind =
                    InstKind::Load { ptr: p, align: align.bytes(), volatile: false, ordering: Ordering::NotAtomic };
                self.place(b, slot, kind, t);
            }
            PInst::Store { ptr, val, align } => {
                let t = self.pnacl_type(val);
                let want = self.pointer_to(t);
                let p = self.ptr(b, ptr, want)?;
                let v = self.num(b, val)?;
                let kind = InstKind::Store {
                    ptr: p,
                    val: v,
                    align: align.bytes(),
                    volatile: false,
                    ordering: Ordering::NotAtomic,
                };
                self.place(b, slot, kind, void);
            }
            PInst::Ret { val } => {
                let v = val.map(|v| self.num(b, v)).transpose()?;
                self.place(b, slot, InstKind::Ret { val: v }, void);
            }
            PInst::Br { target } => self.place(b, slot, InstKind::Br { target: BlockId(target) }, void),
            PInst::CondBr { cond, on_true, on_false } => {
                let c = self.num(b, cond)?;
                let kind = InstKind::CondBr { cond: c, on_true: BlockId(on_true), on_false: BlockId(on_false) };
                self.place(b, slot, kind, void);
            }
            PInst::Switch { ty, cond, cases } => {
                let c = self.num(b, cond)?;
                let mty = value_type(self.m, ty);
                let default = BlockId(self.body.switch_default(cases));
                let bits = ty.bits();
                let mut out = Vec::new();
                for case in self.body.switch_cases(cases) {
                    let v = case.value() as u64;
                    let k = self.m.consts.int(mty, bits, v);
                    out.push((k, BlockId(case.target)));
                }
                self.place(b, slot, InstKind::Switch { cond: c, default, cases: out }, void);
            }
            PInst::Unreachable => self.place(b, slot, InstKind::Unreachable, void),
            PInst::Phi { ty, incoming } => {
                let t = value_type(self.m, ty);
                let id = slot.ok_or_else(|| ThawError("phi without a value".into()))?;
                self.place(b, Some(id), InstKind::Phi { incoming: Vec::new() }, t);
                self.phis.push((id, incoming));
            }
            PInst::Call { tail, callee, indirect_ret, args } => self.call(b, slot, tail, callee, indirect_ret, args)?,
            PInst::ForwardDecl { .. } => {}
        }
        Ok(())
    }

    fn call(
        &mut self,
        b: usize,
        slot: Option<InstId>,
        tail: bool,
        callee: ValueId,
        indirect_ret: Option<Ty>,
        args: pnacl_bitcode::ir::PoolRange,
    ) -> Result<(), ThawError> {
        let args: Vec<ValueId> = self.body.args(args).collect();
        let tail = if tail { TailKind::Tail } else { TailKind::None };
        let mut attrs = Attrs::default();
        let (callee_v, fn_ty, values) = match indirect_ret {
            None => {
                let f = callee.0 as usize;
                let fn_ty = self.m.functions[f].ty;
                let (_, params, _) = self.m.types.as_function(fn_ty).expect("function type");
                let params = params.to_vec();
                let name = self.pm.names().function(callee.0).unwrap_or("").to_string();
                let mem = intrinsic(name.as_bytes()).is_some_and(|i| intrinsics::is_mem(i.kind))
                    && params.len() + 1 == args.len();
                let mut pnacl_args = args.clone();
                if mem {
                    // PNaCl's alignment argument becomes `align` on the pointer parameters.
                    let align = self.constant_int(pnacl_args.remove(3))?;
                    if align > 0 {
                        let pointers = params.iter().filter(|&&p| self.m.types.get(p).is_pointer()).count();
                        attrs.params = (0..pointers).map(|_| vec![Attr::Int(attr_kind::ALIGN, align)]).collect();
                    }
                }
                if params.len() != pnacl_args.len() {
                    return Err(ThawError(format!(
                        "call to @f{} with {} arguments; its signature has {}",
                        callee.0,
                        pnacl_args.len(),
                        params.len()
                    )));
                }
                let mut values = Vec::with_capacity(params.len());
                for (&a, &p) in pnacl_args.iter().zip(&params) {
                    values.push(if self.m.types.get(p).is_pointer() { self.ptr(b, a, p)? } else { self.num(b, a)? });
                }
                let c = self.m.consts.intern(Const::Function(FuncId(callee.0)));
                (Value::Const(c), fn_ty, values)
            }
            Some(ret) => {
                let ret_t = value_type(self.m, ret);
                let params: Vec<TypeId> = args.iter().map(|&a| value_type(self.m, self.pnacl_type(a))).collect();
                let fn_ty = self.m.types.function(ret_t, params, false);
                let want = self.m.pointer_type(fn_ty, 0);
                let c = self.ptr(b, callee, want)?;
                let mut values = Vec::with_capacity(args.len());
                for &a in &args {
                    values.push(self.num(b, a)?);
                }
                (c, fn_ty, values)
            }
        };
        let (ret, _, _) = self.m.types.as_function(fn_ty).expect("function type");
        let kind =
            InstKind::Call { callee: callee_v, fn_ty, args: values, cc: 0, tail, attrs: Box::new(attrs), flags: 0 };
        self.place(b, slot, kind, ret);
        Ok(())
    }

    /// The value of an integer constant argument.
    fn constant_int(&self, v: ValueId) -> Result<u64, ThawError> {
        if let Src::Num(Value::Const(c)) = self.src(v)?
            && let Const::Int { value, .. } = self.m.consts.get(c)
        {
            return Ok(*value);
        }
        Err(ThawError("the alignment of a memory intrinsic is not a constant".into()))
    }

    /// Fills the phis, converting pointers at the end of the predecessor blocks.
    fn fill_phis(&mut self) -> Result<(), ThawError> {
        // A phi may list one predecessor twice (a switch with two cases to the same block):
        // both entries must be the same value, so a predecessor casts each pointer once.
        let mut casts: std::collections::HashMap<(u32, Value), Value> = std::collections::HashMap::new();
        for (id, range) in std::mem::take(&mut self.phis) {
            let pairs: Vec<(ValueId, u32)> = self.body.incoming(range).collect();
            let mut incoming = Vec::with_capacity(pairs.len());
            for (v, pred) in pairs {
                let value = match self.src(v)? {
                    Src::Num(x) => x,
                    Src::Ptr(x, _) if casts.contains_key(&(pred, x)) => casts[&(pred, x)],
                    Src::Ptr(x, _) => {
                        let i32t = self.m.types.int(32);
                        let cast = InstId(self.insts.len() as u32);
                        casts.insert((pred, x), Value::Inst(cast));
                        self.insts.push(Inst {
                            kind: InstKind::Cast { op: CastOp::PtrToInt, val: x },
                            ty: i32t,
                            name: None,
                        });
                        let blk = self
                            .blocks
                            .get_mut(pred as usize)
                            .ok_or_else(|| ThawError(format!("phi names block %b{pred}, out of range")))?;
                        let at = blk.insts.len().saturating_sub(1);
                        blk.insts.insert(at, cast);
                        Value::Inst(cast)
                    }
                };
                incoming.push((value, BlockId(pred)));
            }
            self.insts[id.0 as usize].kind = InstKind::Phi { incoming };
        }
        Ok(())
    }
}

fn binary(op: BinOp, float: bool) -> BinaryOp {
    use BinaryOp::*;
    match (op, float) {
        (BinOp::Add, false) => Add,
        (BinOp::Add, true) => FAdd,
        (BinOp::Sub, false) => Sub,
        (BinOp::Sub, true) => FSub,
        (BinOp::Mul, false) => Mul,
        (BinOp::Mul, true) => FMul,
        (BinOp::UDiv, _) => UDiv,
        (BinOp::SDiv, false) => SDiv,
        (BinOp::SDiv, true) => FDiv,
        (BinOp::URem, _) => URem,
        (BinOp::SRem, false) => SRem,
        (BinOp::SRem, true) => FRem,
        (BinOp::Shl, _) => Shl,
        (BinOp::LShr, _) => LShr,
        (BinOp::AShr, _) => AShr,
        (BinOp::And, _) => And,
        (BinOp::Or, _) => Or,
        (BinOp::Xor, _) => Xor,
    }
}

fn cast(op: PCastOp) -> CastOp {
    match op {
        PCastOp::Trunc => CastOp::Trunc,
        PCastOp::ZExt => CastOp::ZExt,
        PCastOp::SExt => CastOp::SExt,
        PCastOp::FpToUi => CastOp::FpToUi,
        PCastOp::FpToSi => CastOp::FpToSi,
        PCastOp::UiToFp => CastOp::UiToFp,
        PCastOp::SiToFp => CastOp::SiToFp,
        PCastOp::FpTrunc => CastOp::FpTrunc,
        PCastOp::FpExt => CastOp::FpExt,
        PCastOp::Bitcast => CastOp::Bitcast,
    }
}
