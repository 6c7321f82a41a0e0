//! The instruction records whose operands go to lists in the body (its case and operand
//! pools): switch, phi, and direct and indirect calls. Each is read out of the record loop.

use super::state::{Ctx, FnState, err, fits};
use crate::error::{ReadError, Rule};
use crate::ir::{Inst, PoolRange, SwitchCase, Ty, ValueId, decode_sign_rotated};
use pnacl_bitstream::Record;

impl FnState {
    pub(super) fn switch(&mut self, _cx: &Ctx<'_>, r: &Record<'_, '_>) -> Result<(), ReadError> {
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

    pub(super) fn phi(&mut self, cx: &Ctx<'_>, r: &Record<'_, '_>) -> Result<(), ReadError> {
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

    pub(super) fn call(&mut self, cx: &Ctx<'_>, r: &Record<'_, '_>) -> Result<(), ReadError> {
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

    pub(super) fn call_indirect(&mut self, cx: &Ctx<'_>, r: &Record<'_, '_>) -> Result<(), ReadError> {
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
}
