//! Instructions: the names of operators, casts and predicates, and each instruction's
//! syntax.

use super::operands::Func;
use super::parser::{Asm, R};
use crate::lexer::Tok;
use pnacl_bitcode::codes::block;
use pnacl_bitcode::ir::{BinOp, CastOp, Inst, PoolRange, Pred, SwitchCase, Ty, ValueId};

#[inline]
fn binop(name: &str) -> Option<(BinOp, bool)> {
    use BinOp::*;
    Some(match name {
        "add" => (Add, false),
        "sub" => (Sub, false),
        "mul" => (Mul, false),
        "udiv" => (UDiv, false),
        "sdiv" => (SDiv, false),
        "urem" => (URem, false),
        "srem" => (SRem, false),
        "shl" => (Shl, false),
        "lshr" => (LShr, false),
        "ashr" => (AShr, false),
        "and" => (And, false),
        "or" => (Or, false),
        "xor" => (Xor, false),
        "fadd" => (Add, true),
        "fsub" => (Sub, true),
        "fmul" => (Mul, true),
        "fdiv" => (SDiv, true),
        "frem" => (SRem, true),
        _ => return None,
    })
}

fn cast(name: &str) -> Option<CastOp> {
    use CastOp::*;
    Some(match name {
        "trunc" => Trunc,
        "zext" => ZExt,
        "sext" => SExt,
        "fptoui" => FpToUi,
        "fptosi" => FpToSi,
        "uitofp" => UiToFp,
        "sitofp" => SiToFp,
        "fptrunc" => FpTrunc,
        "fpext" => FpExt,
        "bitcast" => Bitcast,
        _ => return None,
    })
}

fn predicate(name: &str, integer: bool) -> Option<Pred> {
    (0..=41u8).filter_map(|c| Pred::from_code(u64::from(c))).find(|p| p.is_integer() == integer && p.name() == name)
}

impl<'s> Asm<'s> {
    pub(super) fn instruction(&mut self, f: &mut Func) -> R<()> {
        let at = self.at();
        if f.blocks_done >= f.body.num_blocks && f.body.num_blocks > 0 {
            return Err(self.err(at, format!("instruction after the last of the {} basic blocks", f.body.num_blocks)));
        }
        // `%vN =` names the result.
        let result = match self.peek()? {
            Tok::Local(b'v', n) => {
                self.next()?;
                self.punct(b'=')?;
                self.check_index(at, "%v", n, f.values_defined() as usize)?;
                Some(n)
            }
            _ => None,
        };
        let op_at = self.at();
        let op = self.ident()?;
        let mut result_ty = None;
        let inst = match op {
            _ if binop(op).is_some() => {
                let (bop, float) = binop(op).expect("checked");
                let (ty, lhs) = self.typed_value(f)?;
                self.punct(b',')?;
                let r_at = self.at();
                let rhs = self.value(f)?;
                self.check_type(f, r_at, rhs, ty)?;
                if float != ty.element().is_float() {
                    return Err(self.err(op_at, format!("{op} is not defined on {ty}")));
                }
                result_ty = Some(ty);
                Inst::Binop { op: bop, lhs: ValueId(lhs), rhs: ValueId(rhs), flags: None }
            }
            _ if cast(op).is_some() => {
                let (_, val) = self.typed_value(f)?;
                self.kw("to")?;
                let to = self.ty()?;
                result_ty = Some(to);
                Inst::Cast { op: cast(op).expect("checked"), val: ValueId(val), to }
            }
            "icmp" | "fcmp" => {
                let p_at = self.at();
                let name = self.ident()?;
                let pred = predicate(name, op == "icmp")
                    .ok_or_else(|| self.err(p_at, format!("unknown {op} predicate '{name}'")))?;
                let (ty, lhs) = self.typed_value(f)?;
                self.punct(b',')?;
                let r_at = self.at();
                let rhs = self.value(f)?;
                self.check_type(f, r_at, rhs, ty)?;
                result_ty = Some(ty.compare_result());
                Inst::Cmp { pred, lhs: ValueId(lhs), rhs: ValueId(rhs) }
            }
            "select" => {
                let (_, cond) = self.typed_value(f)?;
                self.punct(b',')?;
                let (ty, t) = self.typed_value(f)?;
                self.punct(b',')?;
                let (ty2, e) = self.typed_value(f)?;
                if ty != ty2 {
                    return Err(self.err(op_at, format!("select between {ty} and {ty2}")));
                }
                result_ty = Some(ty);
                Inst::Select { cond: ValueId(cond), on_true: ValueId(t), on_false: ValueId(e) }
            }
            "extractelement" => {
                let (vt, vector) = self.typed_value(f)?;
                self.punct(b',')?;
                let (_, index) = self.typed_value(f)?;
                result_ty = Some(vt.element());
                Inst::ExtractElement { vector: ValueId(vector), index: ValueId(index) }
            }
            "insertelement" => {
                let (vt, vector) = self.typed_value(f)?;
                self.punct(b',')?;
                let (_, element) = self.typed_value(f)?;
                self.punct(b',')?;
                let (_, index) = self.typed_value(f)?;
                result_ty = Some(vt);
                Inst::InsertElement { vector: ValueId(vector), element: ValueId(element), index: ValueId(index) }
            }
            "alloca" => {
                self.kw("i8")?;
                self.punct(b',')?;
                let (_, size) = self.typed_value(f)?;
                self.punct(b',')?;
                let align = self.alignment()?;
                result_ty = Some(Ty::I32);
                Inst::Alloca { size: ValueId(size), align }
            }
            "load" => {
                let ty = self.ty()?;
                self.punct(b'*')?;
                let p_at = self.at();
                let ptr = self.value(f)?;
                self.check_type(f, p_at, ptr, Ty::I32)?;
                self.punct(b',')?;
                let align = self.alignment()?;
                result_ty = Some(ty);
                Inst::Load { ptr: ValueId(ptr), ty, align }
            }
            "store" => {
                let (ty, val) = self.typed_value(f)?;
                self.punct(b',')?;
                let pty = self.ty()?;
                if pty != ty {
                    return Err(self.err(op_at, format!("store of {ty} through a {pty}*")));
                }
                self.punct(b'*')?;
                let p_at = self.at();
                let ptr = self.value(f)?;
                self.check_type(f, p_at, ptr, Ty::I32)?;
                self.punct(b',')?;
                let align = self.alignment()?;
                Inst::Store { ptr: ValueId(ptr), val: ValueId(val), align }
            }
            "ret" => {
                if self.eat_kw("void")? {
                    Inst::Ret { val: None }
                } else {
                    let (_, v) = self.typed_value(f)?;
                    Inst::Ret { val: Some(ValueId(v)) }
                }
            }
            "br" => {
                if self.peek()? == Tok::Ident("label") {
                    Inst::Br { target: self.block_ref()? }
                } else {
                    let (_, cond) = self.typed_value(f)?;
                    self.punct(b',')?;
                    let on_true = self.block_ref()?;
                    self.punct(b',')?;
                    let on_false = self.block_ref()?;
                    Inst::CondBr { cond: ValueId(cond), on_true, on_false }
                }
            }
            "switch" => {
                let (ty, cond) = self.typed_value(f)?;
                self.punct(b'{')?;
                self.kw("default")?;
                self.punct(b':')?;
                self.kw("br")?;
                let default = self.block_ref()?;
                self.punct(b';')?;
                let start = f.body.cases.len() as u32;
                f.body.cases.push(SwitchCase { raw: 0, target: default });
                while !self.eat_punct(b'}')? {
                    let t_at = self.at();
                    let cty = self.ty()?;
                    if cty != ty {
                        return Err(self.err(t_at, format!("case of type {cty} in a switch on {ty}")));
                    }
                    let v_at = self.at();
                    let tok = self.next()?;
                    let raw = self.sign_rotated(v_at, tok)?;
                    self.punct(b':')?;
                    self.kw("br")?;
                    let target = self.block_ref()?;
                    self.punct(b';')?;
                    f.body.cases.push(SwitchCase { raw, target });
                }
                let len = f.body.cases.len() as u32 - start;
                self.offsets.push(at);
                let a = self.annotation(block::FUNCTION)?;
                return self.finish(
                    f,
                    at,
                    result,
                    None,
                    Inst::Switch { ty, cond: ValueId(cond), cases: PoolRange { start, len } },
                    a,
                );
            }
            "unreachable" => Inst::Unreachable,
            "phi" => {
                let ty = self.ty()?;
                let start = f.body.operands.len() as u32;
                loop {
                    self.punct(b'[')?;
                    let v_at = self.at();
                    let v = self.value(f)?;
                    self.check_type(f, v_at, v, ty)?;
                    self.punct(b',')?;
                    let b_at = self.at();
                    let b = self.local(b'b')?;
                    let b = u32::try_from(b).map_err(|_| self.err(b_at, "block index too large"))?;
                    self.punct(b']')?;
                    f.body.operands.extend([v, b]);
                    if !self.eat_punct(b',')? {
                        break;
                    }
                }
                let len = f.body.operands.len() as u32 - start;
                result_ty = Some(ty);
                Inst::Phi { ty, incoming: PoolRange { start, len } }
            }
            "tail" | "call" => {
                let tail = op == "tail";
                if tail {
                    self.kw("call")?;
                }
                let ret = self.ty()?;
                let c_at = self.at();
                let callee = self.value(f)?;
                self.punct(b'(')?;
                let start = f.body.operands.len() as u32;
                let mut arg_types = Vec::new();
                if !self.eat_punct(b')')? {
                    loop {
                        let (t, v) = self.typed_value(f)?;
                        arg_types.push(t);
                        f.body.operands.push(v);
                        if !self.eat_punct(b',')? {
                            break;
                        }
                    }
                    self.punct(b')')?;
                }
                let args = PoolRange { start, len: f.body.operands.len() as u32 - start };
                // A call of a function address whose stated types are its own is direct; a
                // listing says which record it was.
                let listed_code = self.src.record_at(at).and_then(|r| r.values.first().copied());
                let direct = match listed_code {
                    Some(pnacl_bitcode::codes::function::CALL) => true,
                    Some(pnacl_bitcode::codes::function::CALL_INDIRECT) => false,
                    _ => {
                        callee < f.space.functions && {
                            let sig = self.m.signature(callee);
                            sig.ret == ret && sig.params == arg_types
                        }
                    }
                };
                if direct && callee >= f.space.functions {
                    return Err(self.err(c_at, "a direct call needs a function '@fN'"));
                }
                if ret != Ty::Void {
                    result_ty = Some(ret);
                }
                Inst::Call { tail, callee: ValueId(callee), indirect_ret: (!direct).then_some(ret), args }
            }
            "declare" => {
                let ty = self.ty()?;
                let v_at = self.at();
                let n = self.local(b'v')?;
                self.punct(b';')?;
                let n32 = u32::try_from(n).map_err(|_| self.err(v_at, "value index too large"))?;
                f.declared.insert(n32, ty);
                let value = ValueId(f.space.first_inst() + n32);
                self.offsets.push(at);
                let a = self.annotation(block::FUNCTION)?;
                f.layout.items.push(a);
                f.body.insts.push(Inst::ForwardDecl { value, ty });
                return Ok(());
            }
            w => return Err(self.err(op_at, format!("unknown instruction '{w}'"))),
        };
        self.punct(b';')?;
        self.offsets.push(at);
        let a = self.annotation(block::FUNCTION)?;
        self.finish(f, at, result, result_ty, inst, a)
    }

    /// Records an instruction: its result, its layout item, basic-block bookkeeping.
    pub(super) fn finish(
        &mut self,
        f: &mut Func,
        at: usize,
        result: Option<u64>,
        ty: Option<Ty>,
        inst: Inst,
        abbrev: u16,
    ) -> R<()> {
        match (result, ty) {
            (Some(_), Some(t)) => {
                if let Some(&declared) = f.declared.get(&f.values_defined())
                    && declared != t
                {
                    return Err(self.err(at, format!("%v{} was declared {declared} but is {t}", f.values_defined())));
                }
                f.body.local_types.push(t);
            }
            (None, Some(_)) => return Err(self.err(at, "this instruction produces a value: name it '%vN = ...'")),
            (Some(_), None) => return Err(self.err(at, "this instruction produces no value")),
            (None, None) => {}
        }
        f.layout.items.push(abbrev);
        let terminator = inst.is_terminator();
        f.body.insts.push(inst);
        if terminator {
            f.blocks_done += 1;
            if f.blocks_done < f.body.num_blocks {
                f.body.block_starts.push(f.body.insts.len() as u32);
            }
        }
        let _ = f.index;
        let _ = &f.sig;
        Ok(())
    }
}
