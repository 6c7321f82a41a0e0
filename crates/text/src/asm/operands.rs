//! A function being parsed, and the operands its instructions name: values, labels and
//! alignments.

use super::parser::{Asm, R};
use crate::lexer::Tok;
use pnacl_bitcode::ir::{Align, BlockLayout, FunctionBody, Signature, Ty, ValueId, ValueSpace};
use std::collections::HashMap;

/// Per-function state while parsing a function block.
pub(super) struct Func {
    pub(super) index: u32,
    pub(super) sig: Signature,
    pub(super) space: ValueSpace,
    pub(super) body: FunctionBody,
    /// Declared types of values not yet defined, by `%v` index.
    pub(super) declared: HashMap<u32, Ty>,
    /// Basic blocks terminated so far.
    pub(super) blocks_done: u32,
    pub(super) layout: BlockLayout,
    pub(super) constants: Option<BlockLayout>,
    pub(super) symtab: Option<BlockLayout>,
}

impl Func {
    pub(super) fn values_defined(&self) -> u32 {
        self.body.local_types.len() as u32 - self.space.params - self.space.consts
    }

    #[inline]
    pub(super) fn type_of(&self, v: u32) -> Option<Ty> {
        let fg = self.space.functions + self.space.globals;
        if v < fg {
            return Some(Ty::I32);
        }
        match self.body.local_types.get((v - fg) as usize) {
            Some(&t) => Some(t),
            None => self.declared.get(&(v - self.space.first_inst())).copied(),
        }
    }
}

impl<'s> Asm<'s> {
    /// A value operand: `@fN`, `@gN`, `%pN`, `%cN` or `%vN`. Returns its absolute index.
    pub(super) fn value(&mut self, f: &Func) -> R<u32> {
        let at = self.at();
        let s = &f.space;
        let (v, limit) = match self.next()? {
            Tok::Global(b'f', n) => (n, s.functions as u64),
            Tok::Global(b'g', n) => (s.functions as u64 + n, (s.functions + s.globals) as u64),
            Tok::Local(b'p', n) => (s.first_param() as u64 + n, s.first_const() as u64),
            Tok::Local(b'c', n) => (s.first_const() as u64 + n, s.first_inst() as u64),
            Tok::Local(b'v', n) => (s.first_inst() as u64 + n, u64::from(u32::MAX)),
            t => return Err(self.err(at, format!("expected a value, found {}", t.describe()))),
        };
        if v >= limit {
            return Err(self.err(at, "no such value"));
        }
        Ok(v as u32)
    }

    /// A typed operand `T V`: checks the type where the value's type is known.
    pub(super) fn typed_value(&mut self, f: &Func) -> R<(Ty, u32)> {
        let ty = self.ty()?;
        let at = self.at();
        let v = self.value(f)?;
        self.check_type(f, at, v, ty)?;
        Ok((ty, v))
    }

    pub(super) fn check_type(&self, f: &Func, at: usize, v: u32, ty: Ty) -> R<()> {
        match f.type_of(v) {
            Some(actual) if actual != ty => {
                Err(self.err(at, format!("{} has type {actual}, not {ty}", f.space.kind(ValueId(v)))))
            }
            _ => Ok(()),
        }
    }

    pub(super) fn block_ref(&mut self) -> R<u32> {
        self.kw("label")?;
        let at = self.at();
        let n = self.local(b'b')?;
        u32::try_from(n).map_err(|_| self.err(at, "block index too large"))
    }

    pub(super) fn alignment(&mut self) -> R<Align> {
        self.kw("align")?;
        let at = self.at();
        let a = self.u32()?;
        if a != 0 && !a.is_power_of_two() {
            return Err(self.err(at, format!("alignment {a} is not a power of two")));
        }
        Ok(Align::from_bytes(a))
    }
}
