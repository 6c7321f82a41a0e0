//! The state of a function block being read: the reference's per-function counters and
//! TypeOf for local values, with the value numbering every record goes through.

use crate::abi::Intrinsic;
use crate::error::{ReadError, Rule};
use crate::ir::{FunctionBody, Inst, Module, Ty, TypeDef, ValueId, ValueSpace, decode_sign_rotated};
use pnacl_bitstream::{BitPos, Record};

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
pub(super) struct Ctx<'m> {
    pub m: &'m Module,
    pub intrinsics: &'m [Option<&'static Intrinsic>],
    pub defer_abi: bool,
}

impl Ctx<'_> {
    /// Enforces an ABI-level rule unless deferred.
    #[inline]
    pub(super) fn abi(&self, pos: BitPos, rule: Rule, message: impl FnOnce() -> String) -> Result<(), ReadError> {
        if self.defer_abi { Ok(()) } else { Err(ReadError::new(pos, rule, message())) }
    }

    /// The value type with type id `id` (void allowed only if `void_ok`).
    #[inline]
    pub(super) fn value_type(&self, pos: BitPos, id: u64, rule: Rule, void_ok: bool) -> Result<Ty, ReadError> {
        match self.m.types.get(id as usize) {
            Some(TypeDef::Value(t)) if void_ok || *t != Ty::Void => Ok(*t),
            Some(t) => Err(ReadError::new(pos, rule, format!("Invalid type {t} (@t{id}) here"))),
            None => Err(ReadError::new(pos, rule, format!("Can't find definition for @t{id}"))),
        }
    }
}

#[inline]
pub(super) fn err(pos: BitPos, rule: Rule, message: impl Into<String>) -> ReadError {
    ReadError::new(pos, rule, message)
}

#[inline(always)]
pub(super) fn arity(r: &Record<'_, '_>, name: &str, want: usize) -> Result<(), ReadError> {
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
fn bad_arity(r: &Record<'_, '_>, name: &str, want: usize) -> ReadError {
    err(r.pos, Rule::RecordLength, format!("{name} record expects {want} arguments. Found: {}", r.ops.len()))
}

/// Checks that a sign-rotated integer fits a type of `bits` bits (signed or unsigned).
#[inline]
pub(super) fn fits(raw: u64, bits: u32) -> bool {
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
    pub(super) fn operand(&mut self, pos: BitPos, vv: u64) -> Result<(u32, Ty), ReadError> {
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
    pub(super) fn type_of_local(&self, v: u32) -> Option<Ty> {
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
    pub(super) fn define(&mut self, pos: BitPos, t: Ty) -> Result<(), ReadError> {
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
    pub(super) fn target(&self, pos: BitPos, bb: u64) -> Result<u32, ReadError> {
        if bb == 0 || bb >= u64::from(self.body.num_blocks) {
            return Err(err(
                pos,
                Rule::BranchTarget,
                format!("Branch %b{bb} out of range. Not in [1,{}]", self.body.num_blocks.saturating_sub(1)),
            ));
        }
        Ok(bb as u32)
    }

    /// Appends an instruction; returns its index. The out-of-line record handlers (binop,
    /// call, phi, switch) call it themselves and return a `Result<(), _>`, which fits in a
    /// register: a returned `Inst` went through memory and was reloaded with loads wider
    /// than the stores that wrote it, which stalls.
    #[inline(always)]
    pub(super) fn emit(&mut self, inst: Inst) -> u32 {
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
    pub(super) fn emitted(&self) -> u32 {
        self.body.insts.len() as u32 - 1
    }

    /// Checks made when the function block ends.
    pub(super) fn finish(&mut self, pos: BitPos) -> Result<(), ReadError> {
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
