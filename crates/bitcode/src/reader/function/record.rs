//! The records of a function block: the `blocks` count, forward declarations and the
//! instructions, decoded and checked one record at a time. The instructions with operand
//! lists (switch, phi, calls) are in [`super::operand_lists`].

use super::state::{Ctx, FnState, arity, err};
use crate::abi;
use crate::codes::function as fc;
use crate::error::{ReadError, Rule};
use crate::ir::{BinOp, CastOp, Inst, Pred, Ty, ValueId};
use crate::reader::fields::align;
use crate::reader::listener::Item;
use pnacl_bitstream::{BitPos, Record};

/// What [`FnState::record`] returns for the `blocks` record.
const DECLARE_BLOCKS: u32 = u32::MAX;

#[cold]
fn bad_binop_arity(r: &Record<'_, '_>) -> ReadError {
    err(r.pos, Rule::RecordLength, format!("Binop record expects 3 or 4 arguments. Found: {}", r.ops.len()))
}

impl FnState {
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
                // A scalar i1 picks whole operands (as LLVM allows); an i1 vector picks lanes.
                if ct != Ty::I1 && (ct.element() != Ty::I1 || ct.lanes() != tt.lanes()) {
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
    pub(super) fn record_item(&mut self, cx: &Ctx<'_>, positions: bool, r: &Record<'_, '_>) -> Result<Item, ReadError> {
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
}
