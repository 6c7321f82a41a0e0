//! A function block: its constants, instructions (numbered as LLVM numbers values, with
//! forward references resolved through placeholder slots) and symbol table.

use super::constants::{self, Slot};
use super::error::ReadError;
use super::instructions;
use super::module::ModuleReader;
use super::records::{Item, Rec, next_reusing};
use crate::hash::FastMap;
use crate::ir::{Block, BlockId, FuncId, Inst, InstId, InstKind, Type, TypeId, Value};

/// The state of one function body being read.
pub(super) struct Body<'r, 'a> {
    pub r: &'r mut ModuleReader<'a>,
    pub f: FuncId,
    /// Number of the next value an instruction defines.
    pub next_value: u64,
    /// Forward references: value number to the instruction slot reserved for it.
    pub placeholders: FastMap<u64, InstId>,
    /// The block instructions go to.
    pub cur: usize,
    /// True once the block count is known.
    pub declared: bool,
    /// The allocation records' operands are read into.
    spare: Vec<u64>,
    /// `void`, once an instruction has asked for it.
    void: Option<TypeId>,
}

/// Reads the body of `f` (the cursor is inside its block).
pub(super) fn read_body(r: &mut ModuleReader<'_>, f: FuncId) -> Result<(), ReadError> {
    let module_values = r.values.slots.len();
    let nparams = r.m.functions[f.0 as usize].params.len();
    for i in 0..nparams {
        r.values.slots.push(Slot::Ready(Value::Arg(i as u32)));
    }
    let mut b = Body {
        r,
        f,
        next_value: 0,
        placeholders: FastMap::default(),
        cur: 0,
        declared: false,
        spare: Vec::new(),
        void: None,
    };
    b.next_value = b.r.values.slots.len() as u64;
    let result = b.run();
    let unresolved = b.placeholders.keys().min().copied();
    b.r.values.slots.truncate(module_values);
    result?;
    if let Some(v) = unresolved {
        return Err(ReadError::at(0, format!("function {}: value {v} is used but never defined", f.0)));
    }
    Ok(())
}

impl Body<'_, '_> {
    fn run(&mut self) -> Result<(), ReadError> {
        loop {
            match next_reusing(self.r.cursor(), &mut self.spare)? {
                Item::End => return Ok(()),
                Item::Block(e) => match e.block_id {
                    11 => {
                        let r = &mut *self.r;
                        constants::read_block(&mut r.c, &mut r.values, &r.types, &mut r.m)?;
                        self.next_value = self.r.values.slots.len() as u64;
                    }
                    14 => self.symtab()?,
                    _ => self.r.cursor().skip_block()?,
                },
                Item::Record(rec) => {
                    let done = self.record(&rec);
                    self.spare = rec.ops;
                    done?;
                }
            }
        }
    }

    fn func(&mut self) -> &mut crate::ir::Function {
        &mut self.r.m.functions[self.f.0 as usize]
    }

    fn record(&mut self, rec: &Rec) -> Result<(), ReadError> {
        match rec.code {
            1 => {
                let n = rec.op(0)?;
                // Each block needs at least a terminator record: bound by the data left.
                if n == 0 || n > self.r.cursor().remaining_bits() / 4 {
                    return Err(rec.error(format!("invalid number of basic blocks {n}")));
                }
                self.func().blocks = (0..n).map(|_| Block::default()).collect();
                self.declared = true;
                Ok(())
            }
            // Debug locations, operand bundles, block address users, debug records.
            33 | 35 | 55 | 60..=65 => Ok(()),
            _ => {
                if !self.declared {
                    return Err(rec.error("an instruction before the block count"));
                }
                instructions::decode(self, rec)
            }
        }
    }

    /// The `void` type.
    pub fn void(&mut self) -> TypeId {
        *self.void.get_or_insert_with(|| self.r.m.types.void())
    }

    /// The type of bitcode type index operand `i` of `rec`.
    pub fn ty(&self, rec: &Rec, i: usize) -> Result<TypeId, ReadError> {
        let t = rec.op(i)? as usize;
        self.r.types.get(t).copied().ok_or_else(|| rec.error(format!("type index {t} is out of range")))
    }

    /// The value with number `id`, which must have type `ty` when one is given (the type a
    /// forward reference takes). As LLVM's reader, refuses a value of another type where
    /// the record implies one (the right operand of a binary operator, a branch condition,
    /// a call argument, ...).
    pub fn value_by_id(&mut self, rec: &Rec, id: u64, ty: Option<TypeId>) -> Result<Value, ReadError> {
        if let Some(t) = ty
            && *self.r.m.types.get(t) == Type::Metadata
        {
            return Ok(Value::Metadata);
        }
        let (mut res, values) = self.r.resolver();
        let known = match res.value(values, id)? {
            Some(v) => Some(v),
            None => self.placeholders.get(&id).map(|&p| Value::Inst(p)),
        };
        if let Some(v) = known {
            // (Not a function's or global's address: their pointer type is only settled at
            // the end of the module, when the reader knows whether pointers are opaque.)
            let settled = match v {
                Value::Const(c) => self.r.m.consts.get(c).own_type().is_some(),
                _ => true,
            };
            if let Some(t) = ty
                && settled
                && let Some(actual) = self.value_type(v)
                && actual != t
            {
                let types = &self.r.m.types;
                return Err(rec.error(format!(
                    "value {id} has type {} where the record needs {}",
                    types.short_name(actual),
                    types.short_name(t)
                )));
            }
            return Ok(v);
        }
        let ty = ty.ok_or_else(|| rec.error(format!("forward reference to value {id} without a type")))?;
        if id > self.next_value + self.r.cursor().remaining_bits() {
            return Err(rec.error(format!("value {id} is out of range")));
        }
        let p = self.func().add_inst(Inst { kind: InstKind::Unreachable, ty, name: None });
        self.placeholders.insert(id, p);
        Ok(Value::Inst(p))
    }

    /// The absolute value number of operand `i` (relative ids count back from the next
    /// value, in 32-bit arithmetic as LLVM computes them).
    fn number(&self, rec: &Rec, i: usize) -> Result<u64, ReadError> {
        let raw = rec.op(i)?;
        Ok(if self.r.version >= 1 { u64::from((self.next_value as u32).wrapping_sub(raw as u32)) } else { raw })
    }

    /// A value whose type the context gives.
    pub fn value(&mut self, rec: &Rec, i: &mut usize, ty: TypeId) -> Result<Value, ReadError> {
        let id = self.number(rec, *i)?;
        *i += 1;
        self.value_by_id(rec, id, Some(ty))
    }

    /// A value followed by its type when it is a forward reference.
    pub fn value_and_type(&mut self, rec: &Rec, i: &mut usize) -> Result<(Value, TypeId), ReadError> {
        let id = self.number(rec, *i)?;
        *i += 1;
        if id < self.next_value {
            let v = self.value_by_id(rec, id, None)?;
            let t = self.value_type(v).ok_or_else(|| rec.error(format!("value {id} has no type")))?;
            return Ok((v, t));
        }
        let t = self.ty(rec, *i)?;
        *i += 1;
        Ok((self.value_by_id(rec, id, Some(t))?, t))
    }

    /// A phi operand: a sign-rotated relative number.
    pub fn value_signed(&mut self, rec: &Rec, i: usize, ty: TypeId) -> Result<Value, ReadError> {
        let raw = super::records::sign_rotated(rec.op(i)?) as i64;
        let id = if self.r.version >= 1 { (self.next_value as i64).wrapping_sub(raw) as u64 } else { raw as u64 };
        self.value_by_id(rec, id, Some(ty))
    }

    /// The type of a value of this function.
    pub fn value_type(&self, v: Value) -> Option<TypeId> {
        self.r.m.value_type(self.f, v)
    }

    /// Basic block `n`.
    pub fn block(&self, rec: &Rec, n: u64) -> Result<BlockId, ReadError> {
        let count = self.r.m.functions[self.f.0 as usize].blocks.len() as u64;
        if n >= count {
            return Err(rec.error(format!("basic block {n} is out of range (the function has {count})")));
        }
        Ok(BlockId(n as u32))
    }

    /// Adds an instruction at the end of the current block; one that produces a value takes
    /// the next value number (and the slot a forward reference reserved for it).
    pub fn push(&mut self, rec: &Rec, kind: InstKind, ty: TypeId) -> Result<(), ReadError> {
        let terminator = kind.is_terminator();
        let void = matches!(self.r.m.types.get(ty), Type::Void);
        let id = if void {
            self.func().add_inst(Inst { kind, ty, name: None })
        } else {
            let n = self.next_value;
            self.next_value += 1;
            let id = match self.placeholders.remove(&n) {
                Some(p) => {
                    let slot = self.func().inst_mut(p);
                    if slot.ty != ty {
                        return Err(rec.error(format!("value {n} was used with another type")));
                    }
                    *slot = Inst { kind, ty, name: None };
                    p
                }
                None => self.func().add_inst(Inst { kind, ty, name: None }),
            };
            self.r.values.slots.push(Slot::Ready(Value::Inst(id)));
            id
        };
        let cur = self.cur;
        let blocks = &mut self.func().blocks;
        let b = blocks.get_mut(cur).ok_or_else(|| rec.error("an instruction after the last block's terminator"))?;
        b.insts.push(id);
        if terminator {
            self.cur += 1;
        }
        Ok(())
    }

    fn symtab(&mut self) -> Result<(), ReadError> {
        loop {
            let rec = match next_reusing(self.r.cursor(), &mut self.spare)? {
                Item::End => return Ok(()),
                Item::Block(_) => {
                    self.r.cursor().skip_block()?;
                    continue;
                }
                Item::Record(rec) => rec,
            };
            let done = self.symtab_record(&rec);
            self.spare = rec.ops;
            done?;
        }
    }

    /// A record of a function's symbol table: a value's or a block's name.
    fn symtab_record(&mut self, rec: &Rec) -> Result<(), ReadError> {
        match rec.code {
            1 if !rec.ops.is_empty() => {
                let id = rec.op(0)?;
                let name = rec.string(1);
                match self.value_by_id(rec, id, None) {
                    Ok(Value::Arg(a)) => {
                        if let Some(p) = self.func().params.get_mut(a as usize) {
                            p.name = Some(name);
                        }
                    }
                    Ok(Value::Inst(i)) => self.func().inst_mut(i).name = Some(name),
                    _ => {}
                }
            }
            2 if !rec.ops.is_empty() => {
                let b = rec.op(0)? as usize;
                let name = rec.string(1);
                if let Some(blk) = self.func().blocks.get_mut(b) {
                    blk.name = Some(name);
                }
            }
            _ => {}
        }
        Ok(())
    }
}
