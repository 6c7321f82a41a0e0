//! Function blocks: the basic-block count, constants, instructions and local symbol tables.

use super::abbrevs::{check_local_abbrev, check_width};
use super::context::{BlockCtx, attach_record};
use super::fields::{MAX_ALIGN_ENCODING, name_bytes};
use super::listener::{Item, Listener, View};
use super::options::ReadOptions;
use crate::abi::{self, Intrinsic};
use crate::codes::{block, constants as cc, function as fc, symtab as sc};
use crate::error::{ReadError, Rule};
use crate::ir::{
    Align, BinOp, BlockLayout, BodyLayout, CastOp, ConstValue, Constant, FunctionBody, ITEM_BLOCK, Inst, LocalSymbol,
    Module, PoolRange, Pred, SetType, SwitchCase, Ty, TypeDef, ValueId, ValueSpace, decode_sign_rotated,
};
use pnacl_bitstream::{BitPos, Cursor, Enter, Entry, Gather, Record};

/// Per-function state: the reference's NumParams, NumFcnConsts, NumBasicBlocks,
/// NumValuedInsts, ExpectedBasicBlocks and TypeOf for local values.
pub(crate) struct FnState {
    /// Index of the function (`EnclosingFcnID`).
    pub func: u32,
    /// Its return type.
    pub ret: Ty,
    /// Its parameter types.
    pub params: Vec<Ty>,
    /// Value numbering.
    pub space: ValueSpace,
    /// Absolute index of the first local value (`%p0`): the functions and globals come
    /// first. Kept apart from `space` because every operand is checked against it.
    pub first_local: u32,
    /// The body built so far.
    pub body: FunctionBody,
    /// Absolute index of the next instruction value.
    pub next_value: u32,
    /// Declared types of forward-referenced values, indexed from `%v0` (`Void` = none).
    pub forward: Vec<Ty>,
    /// Highest `%v` index used before its definition, plus one.
    pub forward_used: u32,
    /// Basic blocks terminated so far (`NumBasicBlocks`).
    pub blocks_done: u32,
    /// `blocks N` has been read.
    pub declared: bool,
    /// The constants block has been read.
    pub constants_done: bool,
    /// An instruction has been read.
    pub inst_seen: bool,
    /// Only phis and declarations so far in the current basic block.
    pub phi_allowed: bool,
    /// Upper bound on record count (and so on basic blocks and values): 4 per byte.
    pub max_records: u64,
    /// Size of the function block in bytes, for messages.
    pub block_bytes: u64,
    /// Layout of the constants block, when recorded.
    pub constants_layout: Option<crate::ir::BlockLayout>,
    /// Layout of the symbol-table block, when recorded.
    pub symtab_layout: Option<crate::ir::BlockLayout>,
    /// The symbol-table block has been read.
    pub symtab_done: bool,
    /// Phi operands used before their definition: (`%v` index, required type, position).
    pub phi_checks: Vec<(u32, Ty, BitPos)>,
}

impl FnState {
    /// Formats a value as the text names it.
    pub fn name(&self, v: u32) -> String {
        self.space.kind(ValueId(v)).to_string()
    }
}

/// Buffers reused from one function block to the next.
#[derive(Default)]
pub(crate) struct Scratch {
    pub params: Vec<Ty>,
    pub forward: Vec<Ty>,
    pub phi_checks: Vec<(u32, Ty, BitPos)>,
}

/// Read-only module facts a function body needs.
struct Ctx<'m> {
    m: &'m Module,
    intrinsics: &'m [Option<&'static Intrinsic>],
    defer_abi: bool,
}

impl Ctx<'_> {
    /// Enforces an ABI-level rule unless deferred.
    #[inline]
    fn abi(&self, pos: BitPos, rule: Rule, message: impl FnOnce() -> String) -> Result<(), ReadError> {
        if self.defer_abi { Ok(()) } else { Err(ReadError::new(pos, rule, message())) }
    }

    /// The value type with type id `id` (void allowed only if `void_ok`).
    #[inline]
    fn value_type(&self, pos: BitPos, id: u64, rule: Rule, void_ok: bool) -> Result<Ty, ReadError> {
        match self.m.types.get(id as usize) {
            Some(TypeDef::Value(t)) if void_ok || *t != Ty::Void => Ok(*t),
            Some(t) => Err(ReadError::new(pos, rule, format!("Invalid type {t} (@t{id}) here"))),
            None => Err(ReadError::new(pos, rule, format!("Can't find definition for @t{id}"))),
        }
    }
}

/// What [`FnState::record`] returns for the `blocks` record.
const DECLARE_BLOCKS: u32 = u32::MAX;

#[inline]
fn err(pos: BitPos, rule: Rule, message: impl Into<String>) -> ReadError {
    ReadError::new(pos, rule, message)
}

#[inline(always)]
fn arity(r: &Record<'_, '_>, name: &str, want: usize) -> Result<(), ReadError> {
    if r.ops.len() != want {
        return Err(bad_arity(r, name, want));
    }
    Ok(())
}

#[cold]
fn redeclared(pos: BitPos, i: usize, t: Ty, declared: Ty) -> ReadError {
    err(pos, Rule::ForwardDecl, format!("%v{i} defined with multiple types: {t} and {declared}"))
}

#[cold]
fn bad_binop_arity(r: &Record<'_, '_>) -> ReadError {
    err(r.pos, Rule::RecordLength, format!("Binop record expects 3 or 4 arguments. Found: {}", r.ops.len()))
}

#[cold]
fn bad_arity(r: &Record<'_, '_>, name: &str, want: usize) -> ReadError {
    err(r.pos, Rule::RecordLength, format!("{name} record expects {want} arguments. Found: {}", r.ops.len()))
}

fn align(pos: BitPos, v: u64) -> Result<Align, ReadError> {
    if v > MAX_ALIGN_ENCODING {
        return Err(err(pos, Rule::Align, format!("Alignment can't be greater than 2**29. Found: 2**{}", v - 1)));
    }
    Ok(Align(v as u8))
}

/// Checks that a sign-rotated integer fits a type of `bits` bits (signed or unsigned).
fn fits(raw: u64, bits: u32) -> bool {
    let v = decode_sign_rotated(raw);
    if bits >= 64 {
        return true;
    }
    let lo = -(1i64 << (bits - 1));
    let hi = 1i64 << bits;
    v >= lo && v < hi
}

impl FnState {
    /// Decodes a relative operand: its absolute index and type.
    #[inline(always)]
    fn operand(&mut self, pos: BitPos, vv: u64) -> Result<(u32, Ty), ReadError> {
        if vv > u64::from(u32::MAX) {
            return Err(err(pos, Rule::ValueRef, format!("Invalid relative value id: {vv}")));
        }
        let abs = self.next_value.wrapping_sub(vv as u32);
        self.use_value(pos, abs)
    }

    /// The type of value `abs`, recording forward uses.
    #[inline(always)]
    fn use_value(&mut self, pos: BitPos, abs: u32) -> Result<(u32, Ty), ReadError> {
        let fg = self.first_local;
        if abs < fg {
            return Ok((abs, Ty::I32));
        }
        match self.body.local_types.get((abs - fg) as usize) {
            Some(&t) => Ok((abs, t)),
            None => self.use_forward(pos, abs),
        }
    }

    /// A use of a value not defined yet: it must have been declared.
    #[cold]
    fn use_forward(&mut self, pos: BitPos, abs: u32) -> Result<(u32, Ty), ReadError> {
        match self.forward_type(abs) {
            Some(t) => {
                self.forward_used = self.forward_used.max(abs - self.space.first_inst() + 1);
                Ok((abs, t))
            }
            None => Err(err(pos, Rule::ValueRef, format!("Can't find type for {}", self.name(abs)))),
        }
    }

    /// The declared type of a not-yet-defined value.
    fn forward_type(&self, abs: u32) -> Option<Ty> {
        let i = abs.checked_sub(self.space.first_inst())? as usize;
        self.forward.get(i).copied().filter(|&t| t != Ty::Void)
    }

    /// TypeOf for a local or global value, if defined or declared.
    #[inline]
    fn type_of_local(&self, v: u32) -> Option<Ty> {
        let fg = self.first_local;
        if v < fg {
            return Some(Ty::I32);
        }
        match self.body.local_types.get((v - fg) as usize) {
            Some(&t) => Some(t),
            None => self.forward_type(v),
        }
    }

    /// Defines the next instruction value.
    #[inline(always)]
    fn define(&mut self, pos: BitPos, t: Ty) -> Result<(), ReadError> {
        // Most functions declare nothing ahead, so the subtraction is skipped for them.
        if !self.forward.is_empty() {
            let i = (self.next_value - self.space.first_inst()) as usize;
            if i < self.forward.len() {
                self.check_declared(pos, i, t)?;
            }
        }
        self.body.local_types.push(t);
        self.next_value += 1;
        Ok(())
    }

    /// A value defined where it may have been declared ahead: the types must agree. Inline,
    /// since functions that declare anything ahead define many values under the bound.
    #[inline(always)]
    fn check_declared(&self, pos: BitPos, i: usize, t: Ty) -> Result<(), ReadError> {
        let declared = self.forward[i];
        if declared != Ty::Void && declared != t {
            return Err(redeclared(pos, i, t, declared));
        }
        Ok(())
    }

    #[inline(always)]
    fn target(&self, pos: BitPos, bb: u64) -> Result<u32, ReadError> {
        if bb == 0 || bb >= u64::from(self.body.num_blocks) {
            return Err(err(
                pos,
                Rule::BranchTarget,
                format!("Branch %b{bb} out of range. Not in [1,{}]", self.body.num_blocks.saturating_sub(1)),
            ));
        }
        Ok(bb as u32)
    }

    /// Decodes one record of the function block (not a nested block). Returns the index of
    /// the instruction record, or [`DECLARE_BLOCKS`] for the `blocks` record.
    // Always: it has one caller per gather, and the record loop needs it inlined.
    #[inline(always)]
    fn record(&mut self, cx: &Ctx<'_>, r: &Record<'_, '_>) -> Result<u32, ReadError> {
        let pos = r.pos;
        let ops = r.ops;
        // One test for both "no `blocks` record yet" (the count is 0 until then) and "past
        // the last block".
        if self.blocks_done >= self.body.num_blocks && r.code != fc::DECLAREBLOCKS {
            return Err(self.no_open_block(pos));
        }
        let inst = match r.code {
            fc::DECLAREBLOCKS => return self.declare_blocks(r),
            fc::FORWARDTYPEREF => return self.forward_decl(cx, r),
            fc::BINOP => {
                self.binop(cx, r)?;
                return Ok(self.emitted());
            }
            fc::CAST => {
                arity(r, "Cast", 3)?;
                let (val, from) = self.operand(pos, ops[0])?;
                let to = cx.value_type(pos, ops[1], Rule::Cast, false)?;
                let op = CastOp::from_code(ops[2])
                    .ok_or_else(|| err(pos, Rule::Cast, format!("Cast opcode {} not understood.", ops[2])))?;
                if !op.is_valid(from, to) {
                    return Err(err(
                        pos,
                        Rule::Cast,
                        format!("Invalid cast '{}'. Not defined on {from} to {to}", op.name()),
                    ));
                }
                self.define(pos, to)?;
                Inst::Cast { op, val: ValueId(val), to }
            }
            fc::EXTRACTELT => {
                arity(r, "Extractelement", 2)?;
                let (vector, vt) = self.operand(pos, ops[0])?;
                let (index, it) = self.operand(pos, ops[1])?;
                if !vt.is_vector() {
                    return Err(err(pos, Rule::Vector, format!("extractelement: Vector expected. Found: {vt}")));
                }
                if it != Ty::I32 {
                    return Err(err(pos, Rule::Vector, format!("extractelement: Index not i32. Found: {it}")));
                }
                self.define(pos, vt.element())?;
                Inst::ExtractElement { vector: ValueId(vector), index: ValueId(index) }
            }
            fc::INSERTELT => {
                arity(r, "Insertelement", 3)?;
                let (vector, vt) = self.operand(pos, ops[0])?;
                let (element, et) = self.operand(pos, ops[1])?;
                let (index, it) = self.operand(pos, ops[2])?;
                if !vt.is_vector() {
                    return Err(err(pos, Rule::Vector, format!("insertelement: Vector expected. Found: {vt}")));
                }
                if et != vt.element() {
                    return Err(err(
                        pos,
                        Rule::Vector,
                        format!("insertelement: Illegal element type {et}. Expected: {}", vt.element()),
                    ));
                }
                if it != Ty::I32 {
                    return Err(err(pos, Rule::Vector, format!("insertelement: Index not i32. Found: {it}")));
                }
                self.define(pos, vt)?;
                Inst::InsertElement { vector: ValueId(vector), element: ValueId(element), index: ValueId(index) }
            }
            fc::RET => match ops.len() {
                0 => {
                    if self.ret != Ty::Void {
                        return Err(err(pos, Rule::Ret, format!("ret void in a function returning {}", self.ret)));
                    }
                    Inst::Ret { val: None }
                }
                1 => {
                    let (v, t) = self.operand(pos, ops[0])?;
                    if t != self.ret {
                        return Err(err(pos, Rule::Ret, format!("ret {t} in a function returning {}", self.ret)));
                    }
                    Inst::Ret { val: Some(ValueId(v)) }
                }
                n => {
                    return Err(err(
                        pos,
                        Rule::RecordLength,
                        format!("Return record expects 0 or 1 arguments. Found: {n}"),
                    ));
                }
            },
            fc::BR => match ops.len() {
                1 => Inst::Br { target: self.target(pos, ops[0])? },
                3 => {
                    let on_true = self.target(pos, ops[0])?;
                    let on_false = self.target(pos, ops[1])?;
                    let (cond, t) = self.operand(pos, ops[2])?;
                    if t != Ty::I1 {
                        return Err(err(pos, Rule::CondBr, format!("Branch condition not i1. Found: {t}")));
                    }
                    Inst::CondBr { cond: ValueId(cond), on_true, on_false }
                }
                n => {
                    return Err(err(
                        pos,
                        Rule::RecordLength,
                        format!("Branch record expects 1 or 3 arguments. Found: {n}"),
                    ));
                }
            },
            fc::SWITCH => {
                self.switch(cx, r)?;
                return Ok(self.emitted());
            }
            fc::UNREACHABLE => {
                arity(r, "Unreachable", 0)?;
                Inst::Unreachable
            }
            fc::PHI => {
                self.phi(cx, r)?;
                return Ok(self.emitted());
            }
            fc::ALLOCA => {
                arity(r, "Alloca", 2)?;
                let (size, st) = self.operand(pos, ops[0])?;
                let align = align(pos, ops[1])?;
                if st != Ty::I32 {
                    cx.abi(pos, Rule::Alloca, || format!("alloca array size is not i32. Found: {st}"))?;
                }
                self.define(pos, Ty::I32)?;
                Inst::Alloca { size: ValueId(size), align }
            }
            fc::LOAD => {
                arity(r, "Load", 3)?;
                let (ptr, pt) = self.operand(pos, ops[0])?;
                let align = align(pos, ops[1])?;
                let ty = cx.value_type(pos, ops[2], Rule::Memory, false)?;
                if pt != Ty::I32 {
                    return Err(err(pos, Rule::Memory, format!("load: Address not i32. Found: {pt}")));
                }
                if !abi::alignment_ok(ty, align.bytes()) {
                    cx.abi(pos, Rule::MemoryAlign, || {
                        abi::alignment_error("load", ty, align.bytes()).unwrap_or_default()
                    })?;
                }
                self.define(pos, ty)?;
                Inst::Load { ptr: ValueId(ptr), ty, align }
            }
            fc::STORE => {
                arity(r, "Store", 3)?;
                let (ptr, pt) = self.operand(pos, ops[0])?;
                let (val, vt) = self.operand(pos, ops[1])?;
                let align = align(pos, ops[2])?;
                if pt != Ty::I32 {
                    return Err(err(pos, Rule::Memory, format!("store: Address not i32. Found: {pt}")));
                }
                if !abi::alignment_ok(vt, align.bytes()) {
                    cx.abi(pos, Rule::MemoryAlign, || {
                        abi::alignment_error("store", vt, align.bytes()).unwrap_or_default()
                    })?;
                }
                Inst::Store { ptr: ValueId(ptr), val: ValueId(val), align }
            }
            fc::CMP2 => {
                arity(r, "Compare", 3)?;
                let (lhs, lt) = self.operand(pos, ops[0])?;
                let (rhs, rt) = self.operand(pos, ops[1])?;
                let pred = Pred::from_code(ops[2])
                    .ok_or_else(|| err(pos, Rule::Compare, format!("Compare predicate {} not understood", ops[2])))?;
                if lt != rt {
                    return Err(err(pos, Rule::Compare, format!("Compare argument types differ: {lt} and {rt}")));
                }
                let e = lt.element();
                if pred.is_integer() && !e.is_integer() {
                    return Err(err(
                        pos,
                        Rule::Compare,
                        format!("icmp {}: Expects integer type. Found: {lt}", pred.name()),
                    ));
                }
                if !pred.is_integer() && !e.is_float() {
                    return Err(err(
                        pos,
                        Rule::Compare,
                        format!("fcmp {}: Expects floating point type. Found: {lt}", pred.name()),
                    ));
                }
                self.define(pos, lt.compare_result())?;
                Inst::Cmp { pred, lhs: ValueId(lhs), rhs: ValueId(rhs) }
            }
            fc::VSELECT => {
                arity(r, "Select", 3)?;
                let (on_true, tt) = self.operand(pos, ops[0])?;
                let (on_false, ft) = self.operand(pos, ops[1])?;
                let (cond, ct) = self.operand(pos, ops[2])?;
                if tt != ft {
                    return Err(err(pos, Rule::Select, format!("Select operands not same type. Found: {tt} and {ft}")));
                }
                if ct.element() != Ty::I1 || ct.lanes() != tt.lanes() {
                    return Err(err(
                        pos,
                        Rule::Select,
                        format!("Select condition {ct} doesn't match operand type {tt}"),
                    ));
                }
                self.define(pos, tt)?;
                Inst::Select { cond: ValueId(cond), on_true: ValueId(on_true), on_false: ValueId(on_false) }
            }
            fc::CALL => {
                self.call(cx, r)?;
                return Ok(self.emitted());
            }
            fc::CALL_INDIRECT => {
                self.call_indirect(cx, r)?;
                return Ok(self.emitted());
            }
            code => return Err(err(pos, Rule::UnknownRecord, format!("Unknown record code {code} in function block"))),
        };
        Ok(self.emit(inst))
    }

    /// [`FnState::record`] as the item a listener sees, noting the record's position when
    /// `positions` asks for it.
    #[inline(always)]
    fn record_item(&mut self, cx: &Ctx<'_>, positions: bool, r: &Record<'_, '_>) -> Result<Item, ReadError> {
        let index = self.record(cx, r)?;
        if index == DECLARE_BLOCKS {
            return Ok(Item::DeclareBlocks(self.body.num_blocks));
        }
        if positions {
            self.body.positions.push(r.pos);
        }
        Ok(Item::Inst(index))
    }

    /// The `blocks` record.
    fn declare_blocks(&mut self, r: &Record<'_, '_>) -> Result<u32, ReadError> {
        let pos = r.pos;
        arity(r, "Blocks", 1)?;
        if self.declared || !self.body.insts.is_empty() {
            return Err(err(pos, Rule::DeclareBlocks, "Duplicate function block count record"));
        }
        let n = r.ops[0];
        if n == 0 {
            return Err(err(pos, Rule::DeclareBlocks, "Function doesn't contain any basic blocks"));
        }
        if n > self.max_records {
            return Err(err(
                pos,
                Rule::DeclareBlocks,
                format!(
                    "Function defines {n} basic blocks, which is too big for a function containing {} bytes",
                    self.block_bytes
                ),
            ));
        }
        self.body.num_blocks = n as u32;
        // Bounded by the block's size (checked above).
        self.body.block_starts.reserve(n as usize);
        self.body.block_starts.push(0);
        self.declared = true;
        Ok(DECLARE_BLOCKS)
    }

    /// The error for an instruction record outside any basic block.
    #[cold]
    fn no_open_block(&self, pos: BitPos) -> ReadError {
        if !self.declared {
            return err(pos, Rule::DeclareBlocks, "The function block must start with a `blocks` record");
        }
        err(
            pos,
            Rule::BasicBlocks,
            format!("Record after the last of the {} basic blocks the function declares", self.body.num_blocks),
        )
    }

    /// Appends an instruction; returns its index. The out-of-line record handlers (binop,
    /// call, phi, switch) call it themselves and return a `Result<(), _>`, which fits in a
    /// register: a returned `Inst` went through memory and was reloaded with loads wider
    /// than the stores that wrote it, which stalls.
    #[inline(always)]
    fn emit(&mut self, inst: Inst) -> u32 {
        let is_phi = matches!(inst, Inst::Phi { .. });
        if !is_phi {
            self.phi_allowed = false;
        }
        self.inst_seen = true;
        let index = self.body.insts.len() as u32;
        let terminator = inst.is_terminator();
        self.body.insts.push(inst);
        if terminator {
            self.blocks_done += 1;
            self.phi_allowed = true;
            if self.blocks_done < self.body.num_blocks {
                self.body.block_starts.push(self.body.insts.len() as u32);
            }
        }
        index
    }

    /// The index of the instruction just emitted.
    #[inline(always)]
    fn emitted(&self) -> u32 {
        self.body.insts.len() as u32 - 1
    }

    fn forward_decl(&mut self, cx: &Ctx<'_>, r: &Record<'_, '_>) -> Result<u32, ReadError> {
        let pos = r.pos;
        arity(r, "Forward declaration", 2)?;
        let v = r.ops[0];
        let first = u64::from(self.space.first_inst());
        if v < u64::from(self.next_value) {
            let name = if v <= u64::from(u32::MAX) { self.name(v as u32) } else { v.to_string() };
            return Err(err(
                pos,
                Rule::ForwardDecl,
                format!("Illegal forward referenced instruction ({v}): {name} is already defined"),
            ));
        }
        let index = v - first;
        if index >= self.max_records {
            return Err(err(
                pos,
                Rule::ForwardDecl,
                format!(
                    "Forward reference @{v} too big. Have {} globals and function contains {} bytes",
                    self.space.functions + self.space.globals,
                    self.block_bytes
                ),
            ));
        }
        let ty = cx.value_type(pos, r.ops[1], Rule::ForwardDecl, false)?;
        let i = index as usize;
        if self.forward.len() <= i {
            self.forward.resize(i + 1, Ty::Void);
        }
        if self.forward[i] != Ty::Void {
            return Err(err(pos, Rule::ForwardDecl, format!("Duplicate forward declaration of %v{i}")));
        }
        self.forward[i] = ty;
        let index = self.body.insts.len() as u32;
        self.body.insts.push(Inst::ForwardDecl { value: ValueId(v as u32), ty });
        Ok(index)
    }

    /// A binop record. The common case, a clean operator on matching operands, is checked
    /// by one table lookup and inlined into the record loop; anything else goes to
    /// [`FnState::binop_checked`], which finds the error (or the deferred ABI violation).
    #[inline(always)]
    fn binop(&mut self, cx: &Ctx<'_>, r: &Record<'_, '_>) -> Result<(), ReadError> {
        let pos = r.pos;
        let ops = r.ops;
        if ops.len() != 3 && ops.len() != 4 {
            return Err(bad_binop_arity(r));
        }
        let (lhs, lt) = self.operand(pos, ops[0])?;
        let (rhs, rt) = self.operand(pos, ops[1])?;
        let flags = match ops.get(3) {
            None => Some(None),
            Some(&f) => u16::try_from(f).ok().map(Some),
        };
        let (op, flags) = match (BinOp::from_code(ops[2]), flags) {
            (Some(op), Some(flags)) if lt == rt && op.is_clean_on(lt) => (op, flags),
            _ => self.binop_checked(cx, r, lt, rt)?,
        };
        self.define(pos, lt)?;
        self.emit(Inst::Binop { op, lhs: ValueId(lhs), rhs: ValueId(rhs), flags });
        Ok(())
    }

    /// The checks of a binop record after its operands, in the reference's order: the
    /// error they find, or the operator and flags if the only finding is a deferred ABI
    /// violation.
    #[cold]
    #[inline(never)]
    fn binop_checked(
        &self,
        cx: &Ctx<'_>,
        r: &Record<'_, '_>,
        lt: Ty,
        rt: Ty,
    ) -> Result<(BinOp, Option<u16>), ReadError> {
        let (pos, ops) = (r.pos, r.ops);
        let op = BinOp::from_code(ops[2])
            .ok_or_else(|| err(pos, Rule::Binop, format!("Binary opcode {} not understood for type {lt}", ops[2])))?;
        if lt != rt {
            return Err(err(pos, Rule::Binop, format!("Binop argument types differ: {lt} and {rt}")));
        }
        let e = lt.element();
        if !e.is_primitive() || op.name(e).is_none() {
            return Err(err(pos, Rule::Binop, format!("{}: Invalid type for operator: {lt}", op.int_name())));
        }
        if e == Ty::I1 && !op.is_logical() {
            cx.abi(pos, Rule::BinopI1, || {
                format!("{}: Invalid integer arithmetic type: {lt}", op.name(e).unwrap_or_default())
            })?;
        }
        let flags = match ops.get(3) {
            None => None,
            Some(&f) => {
                Some(u16::try_from(f).map_err(|_| err(pos, Rule::Binop, format!("Binop flags {f} not understood")))?)
            }
        };
        Ok((op, flags))
    }

    fn switch(&mut self, _cx: &Ctx<'_>, r: &Record<'_, '_>) -> Result<(), ReadError> {
        let pos = r.pos;
        let ops = r.ops;
        if ops.len() < 4 {
            return Err(err(
                pos,
                Rule::RecordLength,
                format!("Switch record expects at least 4 arguments. Found: {}", ops.len()),
            ));
        }
        let ty = _cx.value_type(pos, ops[0], Rule::Switch, false)?;
        if !ty.is_integer() {
            return Err(err(pos, Rule::Switch, format!("Case condition must be non-wide integer. Found: {ty}")));
        }
        let (cond, ct) = self.operand(pos, ops[1])?;
        if ct != ty {
            return Err(err(pos, Rule::Switch, format!("Switch on {ct} value declared as {ty}")));
        }
        let default = self.target(pos, ops[2])?;
        let n = ops[3];
        if n > (ops.len() as u64 - 4) / 4 || ops.len() as u64 != 4 + 4 * n {
            return Err(err(pos, Rule::RecordLength, format!("Switch record with {n} cases has {} values", ops.len())));
        }
        let start = self.body.cases.len() as u32;
        self.body.cases.push(SwitchCase { raw: 0, target: default });
        for case in ops[4..].chunks_exact(4) {
            if case[0] != 1 || case[1] != 1 {
                self.body.cases.truncate(start as usize);
                return Err(err(pos, Rule::Switch, "Case ranges are not supported in PNaCl"));
            }
            if !fits(case[2], ty.bits()) {
                self.body.cases.truncate(start as usize);
                return Err(err(
                    pos,
                    Rule::Switch,
                    format!("Case value {} doesn't fit in {ty}", decode_sign_rotated(case[2])),
                ));
            }
            let target = match self.target(pos, case[3]) {
                Ok(t) => t,
                Err(e) => {
                    self.body.cases.truncate(start as usize);
                    return Err(e);
                }
            };
            self.body.cases.push(SwitchCase { raw: case[2], target });
        }
        self.emit(Inst::Switch { ty, cond: ValueId(cond), cases: PoolRange { start, len: n as u32 + 1 } });
        Ok(())
    }

    fn phi(&mut self, cx: &Ctx<'_>, r: &Record<'_, '_>) -> Result<(), ReadError> {
        let pos = r.pos;
        let ops = r.ops;
        if ops.len() < 3 || ops.len().is_multiple_of(2) {
            return Err(err(
                pos,
                Rule::RecordLength,
                format!("Phi record expects a type and value/block pairs. Found: {} values", ops.len()),
            ));
        }
        let ty = cx.value_type(pos, ops[0], Rule::Phi, true)?;
        if ty == Ty::Void {
            return Err(err(pos, Rule::Phi, "Phi record using type void not allowed"));
        }
        if self.blocks_done == 0 {
            return Err(err(pos, Rule::Phi, "Phi in the entry block, which has no predecessors"));
        }
        if !self.phi_allowed {
            return Err(err(pos, Rule::Phi, "Phi after a non-phi instruction in its basic block"));
        }
        let start = self.body.operands.len() as u32;
        for pair in ops[1..].chunks_exact(2) {
            let rel = decode_sign_rotated(pair[0]);
            let abs = i64::from(self.next_value).checked_sub(rel).unwrap_or(-1);
            if !(0..=i64::from(u32::MAX)).contains(&abs) {
                self.body.operands.truncate(start as usize);
                return Err(err(pos, Rule::ValueRef, format!("Invalid relative value id: {rel}")));
            }
            let abs = abs as u32;
            let vt = match self.type_of_local(abs) {
                Some(t) => {
                    if abs >= self.next_value {
                        self.forward_used = self.forward_used.max(abs - self.space.first_inst() + 1);
                    }
                    t
                }
                None if abs >= self.space.first_inst()
                    && u64::from(abs - self.space.first_inst()) < self.max_records =>
                {
                    // A forward phi operand needs no declaration: the phi's type is its type.
                    let i = abs - self.space.first_inst();
                    self.forward_used = self.forward_used.max(i + 1);
                    self.phi_checks.push((i, ty, pos));
                    ty
                }
                None => return Err(err(pos, Rule::ValueRef, format!("Can't find type for {}", self.name(abs)))),
            };
            if vt != ty {
                return Err(err(pos, Rule::Phi, format!("Phi incoming {} has type {vt}, not {ty}", self.name(abs))));
            }
            if pair[1] >= u64::from(self.body.num_blocks) {
                return Err(err(pos, Rule::Phi, format!("Phi incoming block %b{} out of range", pair[1])));
            }
            self.body.operands.push(abs);
            self.body.operands.push(pair[1] as u32);
        }
        self.define(pos, ty)?;
        let len = self.body.operands.len() as u32 - start;
        self.emit(Inst::Phi { ty, incoming: PoolRange { start, len } });
        Ok(())
    }

    fn call(&mut self, cx: &Ctx<'_>, r: &Record<'_, '_>) -> Result<(), ReadError> {
        let pos = r.pos;
        let ops = r.ops;
        if ops.len() < 2 {
            return Err(err(
                pos,
                Rule::RecordLength,
                format!("Call record expects at least 2 arguments. Found: {}", ops.len()),
            ));
        }
        let cc = ops[0];
        if cc > 1 {
            return Err(err(pos, Rule::Call, format!("Call has invalid calling convention/tail field {cc}")));
        }
        let (callee, _) = self.operand(pos, ops[1])?;
        if callee >= self.space.functions {
            return Err(err(pos, Rule::Call, format!("Direct call to {}, which is not a function", self.name(callee))));
        }
        let sig = cx.m.signature(callee);
        let args = &ops[2..];
        if args.len() != sig.params.len() {
            return Err(err(
                pos,
                Rule::Call,
                format!("Call has {} parameters. Signature expects: {}", args.len(), sig.params.len()),
            ));
        }
        let is_intrinsic = cx.intrinsics[callee as usize].is_some();
        let start = self.body.operands.len() as u32;
        for (i, (&a, &want)) in args.iter().zip(&sig.params).enumerate() {
            let (v, t) = match self.operand(pos, a) {
                Ok(x) => x,
                Err(e) => {
                    self.body.operands.truncate(start as usize);
                    return Err(e);
                }
            };
            if t != want {
                self.body.operands.truncate(start as usize);
                return Err(err(pos, Rule::Call, format!("Parameter {} mismatch: {t} and {want}", i + 1)));
            }
            if !is_intrinsic && !t.is_fcn_arg() {
                cx.abi(pos, Rule::CallTypes, || format!("Argument {} of @f{callee} has invalid type: {t}", i + 1))?;
            }
            self.body.operands.push(v);
        }
        if !is_intrinsic && sig.ret != Ty::Void && !sig.ret.is_fcn_arg() {
            cx.abi(pos, Rule::CallTypes, || format!("Return type of @f{callee} is invalid: {}", sig.ret))?;
        }
        if sig.ret != Ty::Void {
            self.define(pos, sig.ret)?;
        }
        let len = self.body.operands.len() as u32 - start;
        self.emit(Inst::Call {
            tail: cc == 1,
            callee: ValueId(callee),
            indirect_ret: None,
            args: PoolRange { start, len },
        });
        Ok(())
    }

    fn call_indirect(&mut self, cx: &Ctx<'_>, r: &Record<'_, '_>) -> Result<(), ReadError> {
        let pos = r.pos;
        let ops = r.ops;
        if ops.len() < 3 {
            return Err(err(
                pos,
                Rule::RecordLength,
                format!("Indirect call record expects at least 3 arguments. Found: {}", ops.len()),
            ));
        }
        let cc = ops[0];
        if cc > 1 {
            return Err(err(pos, Rule::Call, format!("Call has invalid calling convention/tail field {cc}")));
        }
        let (callee, ct) = self.operand(pos, ops[1])?;
        if ct != Ty::I32 {
            return Err(err(pos, Rule::Call, format!("Call indirect address not i32. Found: {ct}")));
        }
        // The reference requires AbsoluteIndex(V) >= NumFuncAddresses here, but Google's
        // writer emits indirect calls through function addresses (calls of a function
        // through a pointer of another type), so they are accepted.
        let ret = cx.value_type(pos, ops[2], Rule::Call, true)?;
        let start = self.body.operands.len() as u32;
        for (i, &a) in ops[3..].iter().enumerate() {
            let (v, t) = match self.operand(pos, a) {
                Ok(x) => x,
                Err(e) => {
                    self.body.operands.truncate(start as usize);
                    return Err(e);
                }
            };
            if !t.is_fcn_arg() {
                cx.abi(pos, Rule::CallTypes, || format!("Argument {} of indirect call has invalid type: {t}", i + 1))?;
            }
            self.body.operands.push(v);
        }
        if ret != Ty::Void && !ret.is_fcn_arg() {
            cx.abi(pos, Rule::CallTypes, || format!("Return type of indirect call is invalid: {ret}"))?;
        }
        if ret != Ty::Void {
            self.define(pos, ret)?;
        }
        let len = self.body.operands.len() as u32 - start;
        self.emit(Inst::Call {
            tail: cc == 1,
            callee: ValueId(callee),
            indirect_ret: Some(ret),
            args: PoolRange { start, len },
        });
        Ok(())
    }

    /// A record of the constants block.
    fn constant(&mut self, cx: &Ctx<'_>, r: &Record<'_, '_>, cur: &mut Option<Ty>) -> Result<Item, ReadError> {
        let pos = r.pos;
        if r.code == cc::SETTYPE {
            arity(r, "Set type", 1)?;
            let t = cx.value_type(pos, r.ops[0], Rule::ConstSetType, false)?;
            *cur = Some(t);
            self.body.set_types.push(SetType { before: self.body.constants.len() as u32, ty: t });
            return Ok(Item::SetType(t));
        }
        let ty = cur.ok_or_else(|| err(pos, Rule::ConstSetType, "Constant record not preceded by set type record"))?;
        let value = match r.code {
            cc::UNDEF => {
                arity(r, "Undef", 0)?;
                ConstValue::Undef
            }
            cc::INTEGER => {
                arity(r, "Integer", 1)?;
                if !ty.is_integer() {
                    return Err(err(pos, Rule::ConstInteger, format!("Integer literal of non-integer type {ty}")));
                }
                if !fits(r.ops[0], ty.bits()) {
                    return Err(err(
                        pos,
                        Rule::ConstInteger,
                        format!("Integer literal {} doesn't fit in {ty}", decode_sign_rotated(r.ops[0])),
                    ));
                }
                ConstValue::Int(r.ops[0])
            }
            cc::FLOAT => {
                arity(r, "Float", 1)?;
                if !ty.is_float() {
                    return Err(err(pos, Rule::ConstFloat, format!("Floating literal of non-float type {ty}")));
                }
                if ty == Ty::Float && r.ops[0] > u64::from(u32::MAX) {
                    return Err(err(
                        pos,
                        Rule::ConstFloat,
                        format!("Float literal bit pattern {} is wider than 32 bits", r.ops[0]),
                    ));
                }
                ConstValue::Float(r.ops[0])
            }
            code => {
                return Err(err(pos, Rule::UnknownRecord, format!("Unknown record code {code} in constants block")));
            }
        };
        let n = self.body.constants.len() as u32;
        self.body.constants.push(Constant { ty, value });
        Ok(Item::Constant(n))
    }

    /// A record of the function's symbol table.
    fn local_symbol(&mut self, r: &Record<'_, '_>) -> Result<Item, ReadError> {
        let pos = r.pos;
        let Some((&id, chars)) = r.ops.split_first() else {
            return Err(err(pos, Rule::RecordLength, "Symbol table entry expects an id and a name"));
        };
        let name = name_bytes(pos, chars)?;
        let entry = match r.code {
            sc::ENTRY => {
                if id >= u64::from(self.next_value) {
                    return Err(err(pos, Rule::Symtab, format!("Symbol table entry names undefined value {id}")));
                }
                LocalSymbol::Value { value: ValueId(id as u32), name }
            }
            sc::BBENTRY => {
                if id >= u64::from(self.body.num_blocks) {
                    return Err(err(
                        pos,
                        Rule::Symtab,
                        format!("Symbol table entry names undefined basic block %b{id}"),
                    ));
                }
                LocalSymbol::Block { block: id as u32, name }
            }
            code => {
                return Err(err(pos, Rule::UnknownRecord, format!("Unknown record code {code} in valuesymtab block")));
            }
        };
        let symtab = self.body.symtab.get_or_insert_with(Vec::new);
        symtab.push(entry);
        Ok(Item::LocalSymbol(symtab.len() - 1))
    }

    /// Checks made when the function block ends.
    fn finish(&mut self, pos: BitPos) -> Result<(), ReadError> {
        if !self.declared {
            return Err(err(pos, Rule::DeclareBlocks, "Function block has no `blocks` record"));
        }
        if self.blocks_done != self.body.num_blocks {
            return Err(err(
                pos,
                Rule::BasicBlocks,
                format!("Function expected {} basic blocks. Found: {}", self.body.num_blocks, self.blocks_done),
            ));
        }
        let defined = self.body.local_types.len() - (self.space.params + self.space.consts) as usize;
        if let Some(i) = self.forward.iter().enumerate().skip(defined).find(|(_, t)| **t != Ty::Void).map(|(i, _)| i) {
            return Err(err(pos, Rule::ForwardDecl, format!("%v{i} is declared but never defined")));
        }
        if self.forward_used as usize > defined {
            return Err(err(pos, Rule::ValueRef, format!("%v{} is used but never defined", self.forward_used - 1)));
        }
        for &(i, ty, p) in &self.phi_checks {
            let actual = self.body.local_types[(self.space.params + self.space.consts + i) as usize];
            if actual != ty {
                return Err(err(p, Rule::Phi, format!("Phi incoming %v{i} has type {actual}, not {ty}")));
            }
        }
        Ok(())
    }
}

/// What reading a function block needs besides its cursor: the module read up to its
/// function blocks, and the options. Shared by the in-place reader and parallel readers.
pub(crate) struct BodyEnv<'m> {
    pub m: &'m Module,
    pub intrinsics: &'m [Option<&'static Intrinsic>],
    pub opts: ReadOptions,
    pub record_layout: bool,
}

/// Reads the body of the function block of `func` just entered (`c` is inside it): the
/// `blocks` record, constants, instructions and local symbol table, up to its END_BLOCK.
pub(crate) fn read_body<L: Listener, G: Gather>(
    c: &mut Cursor<'_, G>,
    env: &BodyEnv<'_>,
    func: u32,
    enter: &Enter,
    scratch: &mut Scratch,
    l: &mut L,
) -> Result<Box<FunctionBody>, ReadError> {
    let m = env.m;
    let sig = m.signature(func);
    let block_bytes = u64::from(enter.length_words) * 4;
    let space = ValueSpace {
        functions: m.functions.len() as u32,
        globals: m.globals.len() as u32,
        params: sig.params.len() as u32,
        consts: 0,
    };
    // Pre-size the body from the block's length (already checked against the data): real
    // function blocks spend four bytes or more per record in 29 functions of 30 of the
    // corpus.
    let est = (block_bytes / 4) as usize + 4;
    let mut params = std::mem::take(&mut scratch.params);
    params.clear();
    params.extend_from_slice(&sig.params);
    let mut forward = std::mem::take(&mut scratch.forward);
    forward.clear();
    let mut phi_checks = std::mem::take(&mut scratch.phi_checks);
    phi_checks.clear();
    // The state is built in the reader and the body moved out of it once, into its box:
    // moving the state in and out went through four copies of a few hundred bytes per
    // function.
    let mut r = BodyReader {
        c,
        env,
        f: FnState {
            func,
            ret: sig.ret,
            params,
            space,
            first_local: space.functions + space.globals,
            body: FunctionBody {
                insts: Vec::with_capacity(est),
                num_params: sig.params.len() as u32,
                local_types: {
                    // Every record defines at most one value, constants included.
                    let mut t = Vec::with_capacity(est + sig.params.len());
                    t.extend_from_slice(&sig.params);
                    t
                },
                operands: Vec::with_capacity(est / 2),
                positions: if env.opts.positions { Vec::with_capacity(est) } else { Vec::new() },
                ..FunctionBody::default()
            },
            next_value: space.first_inst(),
            forward,
            forward_used: 0,
            blocks_done: 0,
            declared: false,
            constants_done: false,
            inst_seen: false,
            phi_allowed: true,
            max_records: block_bytes * 4,
            block_bytes,
            constants_layout: None,
            symtab_layout: None,
            symtab_done: false,
            phi_checks,
        },
        l,
    };
    let result = r.function(enter);
    *scratch = Scratch { params: r.f.params, forward: r.f.forward, phi_checks: r.f.phi_checks };
    result.map(|()| Box::new(r.f.body))
}

/// Reads one function block.
struct BodyReader<'c, 'a, 'e, 'm, 'l, L: Listener, G: Gather> {
    c: &'c mut Cursor<'a, G>,
    env: &'e BodyEnv<'m>,
    f: FnState,
    l: &'l mut L,
}

/// A listener's view of a function body being read.
fn body_view<'v>(env: &BodyEnv<'v>, f: &'v FnState, global_abbrevs: usize, block_id: u32) -> View<'v> {
    View {
        module: env.m,
        function: Some(f.func),
        body: Some(&f.body),
        space: f.space,
        global_abbrevs,
        block_id: Some(block_id),
    }
}

/// Takes in the records of one block of a function body (the function block itself, or a
/// constants or symbol-table block in it) around their decoding: the layout, the listener,
/// and the block and listener's view attached to a refused record.
///
/// Records come from two places, the cursor's record loop and `next_entry`. Each decodes
/// the record itself and hands the outcome to [`BlockRecords::take`], so that the whole of
/// the record handling is inlined into the record loop. One closure serving both places
/// stayed out of line, a call with a large frame per record, and read 5 to 7% slower.
struct BlockRecords<'e, 'm, 'y> {
    env: &'e BodyEnv<'m>,
    layout: &'y mut Option<BlockLayout>,
    /// For listeners' views only (0 when there is no listener).
    global_abbrevs: usize,
    ctx: BlockCtx,
}

impl BlockRecords<'_, '_, '_> {
    /// Takes in record `r`, decoded as `decoded`: notes it in the layout and tells the
    /// listener, or refuses it.
    #[inline(always)]
    fn take<L: Listener>(
        &mut self,
        f: &FnState,
        l: &mut L,
        r: &Record<'_, '_>,
        decoded: Result<Item, ReadError>,
    ) -> Result<(), ReadError> {
        let item = match decoded {
            Ok(item) => item,
            Err(e) => return Err(self.reject(f, l, e, r)),
        };
        if let Some(layout) = self.layout {
            layout.items.push(r.abbrev_id as u16);
        }
        if L::ACTIVE {
            l.record(&body_view(self.env, f, self.global_abbrevs, self.ctx.block_id()), r, item);
        }
        Ok(())
    }

    /// Tells the listener about a refused record and attaches it to the error.
    #[cold]
    fn reject<L: Listener>(&self, f: &FnState, l: &mut L, e: ReadError, r: &Record<'_, '_>) -> ReadError {
        if L::ACTIVE {
            l.rejected(&body_view(self.env, f, self.global_abbrevs, self.ctx.block_id()), r);
        }
        attach_record(e, r, Some(self.ctx))
    }
}

impl<L: Listener, G: Gather> BodyReader<'_, '_, '_, '_, '_, L, G> {
    fn abbrev(&mut self, layout: &mut Option<BlockLayout>, block_id: u32) -> Result<(), ReadError> {
        let pos = self.c.last_pos();
        let (abbrev, target) = self.c.defined();
        let abbrev = abbrev.clone();
        check_local_abbrev(self.c, layout, pos, &abbrev)?;
        if L::ACTIVE {
            let v = body_view(self.env, &self.f, self.c.num_global_abbrevs(), block_id);
            self.l.abbrev(&v, pos, &abbrev, target);
        }
        Ok(())
    }

    fn listen_enter(&mut self, e: &Enter, block_id: u32) {
        if L::ACTIVE {
            let v = body_view(self.env, &self.f, self.c.num_global_abbrevs(), block_id);
            self.l.enter(&v, e);
        }
    }

    fn listen_exit(&mut self, pos: BitPos, block_id: u32) {
        if L::ACTIVE {
            let v = body_view(self.env, &self.f, self.c.num_global_abbrevs(), block_id);
            self.l.exit(&v, pos);
        }
    }

    fn function(&mut self, enter: &Enter) -> Result<(), ReadError> {
        let func = self.f.func;
        self.listen_enter(enter, block::FUNCTION);
        // As for the body: a record per word or less.
        let est = enter.length_words as usize + 4;
        let mut layout = self.env.record_layout.then(|| BlockLayout {
            abbrev_width: enter.abbrev_width,
            items: Vec::with_capacity(est),
            abbrevs: Vec::new(),
        });
        let positions = self.env.opts.positions;
        let cx = Ctx { m: self.env.m, intrinsics: self.env.intrinsics, defer_abi: self.env.opts.defer_abi };
        let ctx = BlockCtx::Function(func);
        loop {
            let global_abbrevs = if L::ACTIVE { self.c.num_global_abbrevs() } else { 0 };
            let mut records = BlockRecords { env: self.env, layout: &mut layout, global_abbrevs, ctx };
            let (f, l) = (&mut self.f, &mut *self.l);
            self.c.fast_records(|r| {
                let decoded = f.record_item(&cx, positions, &r);
                records.take(f, l, &r, decoded)
            })?;
            match self.c.next_entry()? {
                Entry::Record(r) => {
                    let decoded = self.f.record_item(&cx, positions, &r);
                    records.take(&self.f, self.l, &r, decoded)?;
                }
                Entry::Enter(e) => {
                    if let Some(l) = &mut layout {
                        l.items.push(ITEM_BLOCK);
                    }
                    match e.block_id {
                        block::CONSTANTS => self.constants(e)?,
                        block::VALUESYMTAB => self.symtab(e)?,
                        id => {
                            return Err(ReadError::new(
                                e.pos,
                                Rule::UnknownBlock,
                                format!("Don't know how to parse block {id}, when in block {}", block::FUNCTION),
                            ));
                        }
                    }
                }
                Entry::Abbrev { .. } => self.abbrev(&mut layout, block::FUNCTION)?,
                Entry::Exit(pos) => {
                    let f = &mut self.f;
                    f.finish(pos).map_err(|mut e| {
                        e.block = Some(ctx.to_string());
                        e
                    })?;
                    if let Some(l) = layout.take() {
                        f.body.layout = Some(Box::new(BodyLayout {
                            function: l,
                            constants: f.constants_layout.take(),
                            symtab: f.symtab_layout.take(),
                        }));
                    }
                    self.listen_exit(pos, block::FUNCTION);
                    return Ok(());
                }
                Entry::End(_) => unreachable!("inside a block"),
            }
        }
    }

    fn constants(&mut self, enter: Enter) -> Result<(), ReadError> {
        let f = &self.f;
        if f.constants_done || f.inst_seen {
            return Err(ReadError::new(
                enter.pos,
                Rule::ConstantsOrder,
                "A function's constants block must come before its instructions, once",
            ));
        }
        check_width(self.c, &enter)?;
        let func = f.func;
        self.listen_enter(&enter, block::CONSTANTS);
        // Constants records take two bytes or fewer in nine blocks of ten of the corpus; the
        // length was checked against the data when the block was entered.
        let est = (u64::from(enter.length_words) * 4 / 2) as usize + 2;
        // The value types were sized for every record of the function block, this block's
        // included.
        self.f.body.constants.reserve(est);
        let layout = self.env.record_layout.then(|| BlockLayout {
            abbrev_width: enter.abbrev_width,
            items: Vec::with_capacity(est),
            abbrevs: Vec::new(),
        });
        let cx = Ctx { m: self.env.m, intrinsics: self.env.intrinsics, defer_abi: self.env.opts.defer_abi };
        let mut cur = None;
        let (layout, pos) = self.leaf_block(BlockCtx::Constants(func), layout, |f, r| f.constant(&cx, r, &mut cur))?;
        let f = &mut self.f;
        f.constants_done = true;
        f.space.consts = f.body.constants.len() as u32;
        f.body.local_types.extend(f.body.constants.iter().map(|c| c.ty));
        f.next_value = f.space.first_inst();
        f.constants_layout = layout;
        self.listen_exit(pos, block::CONSTANTS);
        Ok(())
    }

    fn symtab(&mut self, enter: Enter) -> Result<(), ReadError> {
        let f = &self.f;
        if f.symtab_done {
            return Err(ReadError::new(enter.pos, Rule::UnknownBlock, "Duplicate valuesymtab in function"));
        }
        if !f.declared {
            return Err(ReadError::new(
                enter.pos,
                Rule::DeclareBlocks,
                "The function block must start with a `blocks` record",
            ));
        }
        check_width(self.c, &enter)?;
        let func = f.func;
        self.listen_enter(&enter, block::VALUESYMTAB);
        let layout = self.env.record_layout.then(|| BlockLayout::new(enter.abbrev_width));
        self.f.body.symtab.get_or_insert_with(Vec::new);
        let (layout, pos) = self.leaf_block(BlockCtx::FunctionSymtab(func), layout, |f, r| f.local_symbol(r))?;
        self.f.symtab_done = true;
        self.f.symtab_layout = layout;
        self.listen_exit(pos, block::VALUESYMTAB);
        Ok(())
    }

    /// Reads the records of a block nested in a function block that holds no blocks of its
    /// own (constants, valuesymtab), decoding each with `decode`. Returns the block's layout
    /// and the position of its end.
    fn leaf_block(
        &mut self,
        ctx: BlockCtx,
        mut layout: Option<BlockLayout>,
        mut decode: impl FnMut(&mut FnState, &Record<'_, '_>) -> Result<Item, ReadError>,
    ) -> Result<(Option<BlockLayout>, BitPos), ReadError> {
        let block_id = ctx.block_id();
        loop {
            let global_abbrevs = if L::ACTIVE { self.c.num_global_abbrevs() } else { 0 };
            let mut records = BlockRecords { env: self.env, layout: &mut layout, global_abbrevs, ctx };
            let (f, l) = (&mut self.f, &mut *self.l);
            self.c.fast_records(|r| {
                let decoded = decode(f, &r);
                records.take(f, l, &r, decoded)
            })?;
            match self.c.next_entry()? {
                Entry::Record(r) => {
                    let decoded = decode(&mut self.f, &r);
                    records.take(&self.f, self.l, &r, decoded)?;
                }
                Entry::Abbrev { .. } => self.abbrev(&mut layout, block_id)?,
                Entry::Enter(e) => {
                    return Err(ReadError::new(
                        e.pos,
                        Rule::UnknownBlock,
                        format!("Don't know how to parse block {}, when in block {block_id}", e.block_id),
                    ));
                }
                Entry::Exit(pos) => return Ok((layout, pos)),
                Entry::End(_) => unreachable!("inside a block"),
            }
        }
    }
}
