//! Function bodies: value numbering, the constants block and the instruction records, as
//! `WriteFunction` and `incorporateFunction` of LLVM 3.7's PNaCl writer produce them.

use super::error::Refusal;
use super::pointers::{elide, is_elided};
use super::types::{TypeTable, value_type};
use pnacl_bitcode::ir::{
    Align, BinOp, CastOp as PCastOp, ConstValue, Constant, FunctionBody, Inst as PInst, PoolRange, Pred, SetType,
    SwitchCase, Ty, ValueId, encode_sign_rotated,
};
use pnacl_llvm::hash::FastMap;
use pnacl_llvm::ir::{
    BinaryOp, CastOp, Const, ConstId, FuncId, Function, Inst, InstId, InstKind, Module, TailKind, Type, Value,
};

/// A function body and where it failed, if it did: the index of the instruction in layout
/// order.
pub(crate) type BodyResult = Result<FunctionBody, (Option<InstId>, Refusal)>;

/// The PNaCl body of defined function `func`. `module_values` is the number of function
/// and global addresses (the first parameter's id).
pub(crate) fn body(m: &Module, func: FuncId, types: &TypeTable, module_values: u32) -> BodyResult {
    let f = &m.functions[func.0 as usize];
    let (_, params, _) = m.types.as_function(f.ty).ok_or((None, Refusal::new("not a function type")))?;
    let mut b = Builder {
        m,
        f,
        func,
        types,
        ids: vec![NO_ID; f.insts.len()],
        const_ids: FastMap::default(),
        next: 0,
        declared: Vec::new(),
        out: FunctionBody {
            num_blocks: f.blocks.len() as u32,
            num_params: params.len() as u32,
            insts: Vec::with_capacity(f.insts.len()),
            block_starts: Vec::with_capacity(f.blocks.len()),
            local_types: Vec::with_capacity(params.len() + f.insts.len()),
            ..Default::default()
        },
    };
    for &p in params {
        b.out.local_types.push(value_type(m, p).map_err(|r| (None, r))?);
    }
    let first_const = module_values + params.len() as u32;
    b.constants(first_const)?;
    b.number_instructions(first_const + b.out.constants.len() as u32)?;
    b.next = first_const + b.out.constants.len() as u32;
    for block in &f.blocks {
        b.out.block_starts.push(b.out.insts.len() as u32);
        for &id in &block.insts {
            b.instruction(id).map_err(|r| (Some(id), r))?;
        }
    }
    Ok(b.out)
}

/// [`Builder::ids`] of an instruction that defines no value.
const NO_ID: u32 = u32::MAX;

struct Builder<'a> {
    m: &'a Module,
    f: &'a Function,
    func: FuncId,
    types: &'a TypeTable,
    /// Absolute ids of the instructions that define values, by instruction ([`NO_ID`] for
    /// the others).
    ids: Vec<u32>,
    /// Absolute ids of the function's constants.
    const_ids: FastMap<ConstId, u32>,
    /// The id the next value-defining instruction gets (`InstID`).
    next: u32,
    /// Values already given a forward type declaration.
    declared: Vec<u32>,
    out: FunctionBody,
}

impl Builder<'_> {
    /// True if `c` is a function-level constant (not a function or global address).
    fn is_local_constant(&self, c: ConstId) -> bool {
        !matches!(self.m.consts.get(c), Const::Function(_) | Const::Global(_) | Const::Alias(_))
    }

    /// Collects, orders and numbers the constants (`incorporateFunction`,
    /// `OptimizeConstants`).
    fn constants(&mut self, first: u32) -> Result<(), (Option<InstId>, Refusal)> {
        // First sight order and use counts, every operand slot counting once.
        let mut seen: Vec<(ConstId, u32)> = Vec::new();
        let mut index: FastMap<ConstId, usize> = FastMap::default();
        for (_, id) in self.f.layout() {
            let inst = self.f.inst(id);
            let mut note = |v: Value| -> Result<(), Refusal> {
                match v {
                    Value::Const(c) if self.is_local_constant(c) => {
                        match index.get(&c) {
                            Some(&i) => seen[i].1 += 1,
                            None => {
                                index.insert(c, seen.len());
                                seen.push((c, 1));
                            }
                        }
                        Ok(())
                    }
                    Value::InlineAsm(_) => Err(Refusal::new("NaCl Illegal inline assembly")),
                    Value::Metadata => Err(Refusal::new(
                        "metadata operands have no encoding in PNaCl bitcode (strip debug information first: \
                         pnacl finalize does)",
                    )),
                    _ => Ok(()),
                }
            };
            let r = match inst.kind {
                InstKind::Switch { cond, .. } => note(cond),
                _ => {
                    let mut r = Ok(());
                    inst.kind.for_each_value(|v| {
                        if r.is_ok() {
                            r = note(v);
                        }
                    });
                    r
                }
            };
            r.map_err(|e| (Some(id), e))?;
        }
        let mut typed = Vec::with_capacity(seen.len());
        for (c, count) in seen {
            let (ty, value) = self.constant(c).map_err(|r| (self.first_user(c), r))?;
            if self.types.try_value(ty).is_none() {
                // Only the SDKs' writer gets here: it counted nothing for elided casts, so
                // a constant that only such a cast uses may have a type it never numbered
                // (NaCl issue 4353, which the last writer fixed).
                return Err((
                    self.first_user(c),
                    Refusal::new(format!(
                        "the SDKs' writer gives constant type {ty} no type id: only an elided cast uses it                          (NaCl issue 4353; freeze with --writer 2016)"
                    )),
                ));
            }
            typed.push((c, count, ty, value));
        }
        // Stable sort by type id, then by descending use count ...
        typed.sort_by(|a, b| self.types.value(a.2).cmp(&self.types.value(b.2)).then(b.1.cmp(&a.1)));
        // ... then std::partition putting integer and integer-vector constants first. It is
        // not stable: libstdc++'s and libc++'s bidirectional version swaps the first
        // non-integer with the last integer, repeatedly, and that order is what files have.
        let is_int = |t: &(ConstId, u32, Ty, ConstValue)| t.2.element().is_integer();
        let (mut lo, mut hi) = (0usize, typed.len());
        loop {
            while lo < hi && is_int(&typed[lo]) {
                lo += 1;
            }
            if lo == hi {
                break;
            }
            hi -= 1;
            while lo < hi && !is_int(&typed[hi]) {
                hi -= 1;
            }
            if lo == hi {
                break;
            }
            typed.swap(lo, hi);
            lo += 1;
        }
        let mut last: Option<Ty> = None;
        for (k, (c, _, ty, value)) in typed.into_iter().enumerate() {
            if last != Some(ty) {
                self.out.set_types.push(SetType { before: k as u32, ty });
                last = Some(ty);
            }
            self.const_ids.insert(c, first + k as u32);
            self.out.constants.push(Constant { ty, value });
            self.out.local_types.push(ty);
        }
        Ok(())
    }

    /// The first instruction using constant `c`, for messages.
    fn first_user(&self, c: ConstId) -> Option<InstId> {
        self.f.layout().map(|(_, i)| i).find(|&i| {
            let mut uses = false;
            self.f.inst(i).kind.for_each_value(|v| uses |= v == Value::Const(c));
            uses
        })
    }

    /// The PNaCl type and record value of a function-level constant (`WriteConstants`).
    fn constant(&self, c: ConstId) -> Result<(Ty, ConstValue), Refusal> {
        let m = self.m;
        let konst = m.consts.get(c);
        let ty_id = konst.own_type().ok_or_else(|| Refusal::new("NaCl Illegal constant"))?;
        let value = match konst {
            Const::Undef(_) | Const::Poison(_) => ConstValue::Undef,
            Const::Int { value, .. } => {
                let width = m.types.get(ty_id).int_width().unwrap_or(64);
                let sext = if width >= 64 { *value as i64 } else { ((*value << (64 - width)) as i64) >> (64 - width) };
                ConstValue::Int(encode_sign_rotated(sext))
            }
            Const::WideInt { .. } => return Err(Refusal::new("Wide integers are not supported")),
            Const::Float { bits, .. } => match m.types.get(ty_id) {
                Type::Float | Type::Double => ConstValue::Float(*bits as u64),
                _ => return Err(Refusal::new("Unknown FP type")),
            },
            _ => return Err(Refusal::new(format!("NaCl Illegal constant : {}", describe_constant(m, c)))),
        };
        Ok((value_type(m, ty_id)?, value))
    }

    /// Numbers the value-defining instructions that are not elided casts.
    fn number_instructions(&mut self, first: u32) -> Result<(), (Option<InstId>, Refusal)> {
        let mut next = first;
        for (_, id) in self.f.layout() {
            let inst = self.f.inst(id);
            if *self.m.types.get(inst.ty) == Type::Void || is_elided(self.m, self.f, Value::Inst(id)) {
                continue;
            }
            self.ids[id.0 as usize] = next;
            self.out.local_types.push(value_type(self.m, inst.ty).map_err(|r| (Some(id), r))?);
            next += 1;
        }
        Ok(())
    }

    /// The absolute id of `v` after cast elision.
    fn id(&self, v: Value) -> Result<u32, Refusal> {
        let v = elide(self.m, self.f, v);
        Ok(match v {
            Value::Const(c) => match self.m.consts.get(c) {
                Const::Function(g) => g.0,
                Const::Global(g) => self.m.functions.len() as u32 + g.0,
                Const::Alias(_) => return Err(Refusal::new("aliases have no encoding in PNaCl bitcode")),
                _ => self.const_ids[&c],
            },
            Value::Arg(i) => self.m.functions.len() as u32 + self.m.globals.len() as u32 + i,
            Value::Inst(i) => *self.ids.get(i.0 as usize).filter(|&&n| n != NO_ID).ok_or_else(|| {
                let used = self.f.inst(i);
                Refusal::new(format!(
                    "uses the result of a `{}` that is not in the function or defines nothing",
                    used.kind.opcode_name()
                ))
            })?,
            Value::InlineAsm(_) => return Err(Refusal::new("NaCl Illegal inline assembly")),
            Value::Metadata => return Err(Refusal::new("metadata operands have no encoding in PNaCl bitcode")),
        })
    }

    /// `pushValue`: the operand's id, after its forward type declaration if it is the first
    /// forward reference to it in this function.
    fn push(&mut self, v: Value) -> Result<ValueId, Refusal> {
        let id = self.id(v)?;
        if id >= self.next && !self.declared.contains(&id) {
            self.declared.push(id);
            let elided = elide(self.m, self.f, v);
            let ty = self.m.value_type(self.func, elided).ok_or_else(|| Refusal::new("an operand without a type"))?;
            self.out.insts.push(PInst::ForwardDecl { value: ValueId(id), ty: value_type(self.m, ty)? });
        }
        Ok(ValueId(id))
    }

    fn block(b: pnacl_llvm::ir::BlockId) -> u32 {
        b.0
    }

    fn pool(&mut self, values: impl IntoIterator<Item = u32>) -> PoolRange {
        let start = self.out.operands.len() as u32;
        self.out.operands.extend(values);
        PoolRange { start, len: self.out.operands.len() as u32 - start }
    }

    fn ty(&self, t: pnacl_llvm::ir::TypeId) -> Result<Ty, Refusal> {
        value_type(self.m, t)
    }

    fn instruction(&mut self, id: InstId) -> Result<(), Refusal> {
        let inst: &Inst = self.f.inst(id);
        if is_elided(self.m, self.f, Value::Inst(id)) {
            return Ok(());
        }
        let illegal = || Refusal::new("NaCl Illegal instruction");
        let p = match &inst.kind {
            InstKind::Binary { op, lhs, rhs, .. } => {
                let (lhs, rhs) = (self.push(*lhs)?, self.push(*rhs)?);
                PInst::Binop { op: binop(*op), lhs, rhs, flags: None }
            }
            InstKind::Cast { op, val } => {
                let from = self.m.value_type(self.func, *val).map(|t| self.m.types.get(t).is_pointer());
                let op = match op {
                    CastOp::Bitcast if from == Some(true) || self.m.types.get(inst.ty).is_pointer() => {
                        return Err(Refusal::new("NaCl Illegal (PNaCl ABI) pointer cast"));
                    }
                    CastOp::PtrToInt | CastOp::IntToPtr | CastOp::AddrSpaceCast => {
                        return Err(Refusal::new("NaCl Illegal cast"));
                    }
                    other => cast(*other),
                };
                let val = self.push(*val)?;
                PInst::Cast { op, val, to: self.ty(inst.ty)? }
            }
            InstKind::ICmp { pred, lhs, rhs } => {
                let (lhs, rhs) = (self.push(*lhs)?, self.push(*rhs)?);
                PInst::Cmp { pred: Pred(pred.code() as u8), lhs, rhs }
            }
            InstKind::FCmp { pred, lhs, rhs, .. } => {
                let (lhs, rhs) = (self.push(*lhs)?, self.push(*rhs)?);
                PInst::Cmp { pred: Pred(pred.0), lhs, rhs }
            }
            InstKind::Select { cond, on_true, on_false } => {
                let on_true = self.push(*on_true)?;
                let on_false = self.push(*on_false)?;
                PInst::Select { cond: self.push(*cond)?, on_true, on_false }
            }
            InstKind::ExtractElement { vector, index } => {
                PInst::ExtractElement { vector: self.push(*vector)?, index: self.push(*index)? }
            }
            InstKind::InsertElement { vector, element, index } => {
                let vector = self.push(*vector)?;
                let element = self.push(*element)?;
                PInst::InsertElement { vector, element, index: self.push(*index)? }
            }
            InstKind::Alloca { allocated_ty, count, align } => {
                if *self.m.types.get(*allocated_ty) != Type::Int(8) {
                    return Err(Refusal::new("Type of alloca instruction is not i8"));
                }
                PInst::Alloca { size: self.push(*count)?, align: alignment(*align)? }
            }
            InstKind::Load { ptr, align, .. } => {
                PInst::Load { ptr: self.push(*ptr)?, ty: self.ty(inst.ty)?, align: alignment(*align)? }
            }
            InstKind::Store { ptr, val, align, .. } => {
                let ptr = self.push(*ptr)?;
                PInst::Store { ptr, val: self.push(*val)?, align: alignment(*align)? }
            }
            InstKind::Ret { val } => PInst::Ret { val: val.map(|v| self.push(v)).transpose()? },
            InstKind::Br { target } => PInst::Br { target: Self::block(*target) },
            InstKind::CondBr { cond, on_true, on_false } => PInst::CondBr {
                cond: self.push(*cond)?,
                on_true: Self::block(*on_true),
                on_false: Self::block(*on_false),
            },
            InstKind::Switch { cond, default, cases } => {
                let cond_ty = self.m.value_type(self.func, *cond).ok_or_else(illegal)?;
                let ty = self.ty(cond_ty)?;
                let cond = self.push(*cond)?;
                let start = self.out.cases.len() as u32;
                self.out.cases.push(SwitchCase { raw: 0, target: Self::block(*default) });
                for &(value, target) in cases {
                    let raw = match self.m.consts.get(value) {
                        Const::Int { ty, value } => {
                            let width = self.m.types.get(*ty).int_width().unwrap_or(64);
                            let sext = if width >= 64 {
                                *value as i64
                            } else {
                                ((*value << (64 - width)) as i64) >> (64 - width)
                            };
                            encode_sign_rotated(sext)
                        }
                        _ => return Err(Refusal::new("Wide integers are not supported")),
                    };
                    self.out.cases.push(SwitchCase { raw, target: Self::block(target) });
                }
                let len = self.out.cases.len() as u32 - start;
                PInst::Switch { ty, cond, cases: PoolRange { start, len } }
            }
            InstKind::Unreachable => PInst::Unreachable,
            InstKind::Phi { incoming } => {
                let mut pairs = Vec::with_capacity(incoming.len() * 2);
                for &(v, b) in incoming {
                    pairs.push(self.push(v)?.0);
                    pairs.push(Self::block(b));
                }
                PInst::Phi { ty: self.ty(inst.ty)?, incoming: self.pool(pairs) }
            }
            InstKind::Call { callee, fn_ty, args, cc, tail, .. } => {
                if *cc != 0 {
                    return Err(Refusal::new("Calling convention not supported by PNaCL bitcode"));
                }
                let params = self.m.types.as_function(*fn_ty).map_or(0, |(_, p, _)| p.len());
                if params != args.len() {
                    return Err(Refusal::new("varargs in a call are not supported in PNaCl bitcode"));
                }
                // A call through a cast of its callee is indirect. With opaque pointers the cast
                // is gone, but the call's own function type still differs from the callee's.
                let indirect = is_elided(self.m, self.f, *callee)
                    || self.m.as_function(*callee).is_some_and(|g| self.m.functions[g.0 as usize].ty != *fn_ty);
                let callee_id = self.push(*callee)?;
                let indirect_ret = if indirect {
                    Some(self.ty(inst.ty)?)
                } else if (callee_id.0 as usize) < self.m.functions.len() {
                    None
                } else {
                    return Err(Refusal::new(
                        "a direct call through a value that is not a function has no encoding in PNaCl bitcode",
                    ));
                };
                let mut ids = Vec::with_capacity(args.len());
                for &a in args {
                    ids.push(self.push(a)?.0);
                }
                let tail = matches!(tail, TailKind::Tail | TailKind::MustTail);
                PInst::Call { tail, callee: callee_id, indirect_ret, args: self.pool(ids) }
            }
            _ => return Err(illegal()),
        };
        let defines = self.ids[id.0 as usize] != NO_ID;
        self.out.insts.push(p);
        if defines {
            self.next += 1;
        }
        Ok(())
    }
}

/// An alignment in bytes as the record stores it (`Log2_32(align) + 1`, 0 for 0). PNaCl's
/// readers refuse more than 2**29 (LLVM 3.7's largest; today's LLVM allows 2**32), so such
/// an alignment is refused here with the readers' message rather than written.
pub(crate) fn alignment(bytes: u32) -> Result<Align, Refusal> {
    if bytes != 0 && !bytes.is_power_of_two() {
        return Err(Refusal::new(format!("alignment {bytes} is not a power of two")));
    }
    if bytes > 1 << 29 {
        return Err(Refusal::new(format!(
            "Alignment can't be greater than 2**29. Found: 2**{}",
            bytes.trailing_zeros()
        )));
    }
    Ok(Align::from_bytes(bytes))
}

fn binop(op: BinaryOp) -> BinOp {
    use BinaryOp::*;
    match op {
        Add | FAdd => BinOp::Add,
        Sub | FSub => BinOp::Sub,
        Mul | FMul => BinOp::Mul,
        UDiv => BinOp::UDiv,
        SDiv | FDiv => BinOp::SDiv,
        URem => BinOp::URem,
        SRem | FRem => BinOp::SRem,
        Shl => BinOp::Shl,
        LShr => BinOp::LShr,
        AShr => BinOp::AShr,
        And => BinOp::And,
        Or => BinOp::Or,
        Xor => BinOp::Xor,
    }
}

fn cast(op: CastOp) -> PCastOp {
    match op {
        CastOp::Trunc => PCastOp::Trunc,
        CastOp::ZExt => PCastOp::ZExt,
        CastOp::SExt => PCastOp::SExt,
        CastOp::FpToUi => PCastOp::FpToUi,
        CastOp::FpToSi => PCastOp::FpToSi,
        CastOp::UiToFp => PCastOp::UiToFp,
        CastOp::SiToFp => PCastOp::SiToFp,
        CastOp::FpTrunc => PCastOp::FpTrunc,
        CastOp::FpExt => PCastOp::FpExt,
        _ => PCastOp::Bitcast,
    }
}

/// A short description of a constant the writer refuses.
fn describe_constant(m: &Module, c: ConstId) -> String {
    let k = m.consts.get(c);
    let what = match k {
        Const::Null(_) => "null",
        Const::Zero(_) => "zeroinitializer",
        Const::Aggregate { .. } | Const::Data { .. } => "an aggregate constant",
        Const::Expr { .. } => "a constant expression",
        Const::BlockAddress { .. } => "blockaddress",
        _ => "a constant",
    };
    match k.own_type() {
        Some(t) => format!("{what} of type {}", m.types.short_name(t)),
        None => what.to_string(),
    }
}
