//! Guest memory and the guest stack: host addresses of guest pointers (`base +
//! zext(address)`), allocas and the entry block's static frame, and the flags of memory
//! accesses.

use super::Translator;
use super::flags::trusted;
use crate::abi::{self, TrapKind, memory};
use crate::clif::{NS_RUNTIME, RuntimeSymbol};
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::immediates::Imm64;
use cranelift_codegen::ir::types::*;
use cranelift_codegen::ir::{ExternalName, GlobalValueData, InstBuilder, UserExternalName, Value};
use pnacl_bitcode::abi::IntrinsicKind;
use pnacl_bitcode::ir::{BinOp, Dominators, Inst, ValueId, ValueKind};
use std::collections::HashMap;

/// The largest constant offset folded into a guest access (see [`Translator::addr`]): with
/// accesses of up to 16 bytes, an access at up to this much past the last guest address
/// stays in the guard region, and one at up to this much past address 0 stays in the null
/// page.
const MAX_FOLDED_OFFSET: u32 = {
    let room = if memory::GUARD < memory::NULL_PAGE_END as u64 { memory::GUARD as u32 } else { memory::NULL_PAGE_END };
    room - 16
};

/// `c` as an offset to fold into an access (as a 32-bit value, in `1..=MAX_FOLDED_OFFSET`).
fn foldable(c: i64) -> Option<i32> {
    let c = c & 0xffff_ffff;
    (1..=i64::from(MAX_FOLDED_OFFSET)).contains(&c).then_some(c as i32)
}

impl Translator<'_, '_, '_> {
    /// Decides where the entry block's constant-size allocas (the static frame) are
    /// allocated: in the prologue, or, when the function moves the guest stack pointer in
    /// no other way (no other alloca, no `llvm.stackrestore`, not in setjmp mode), at the
    /// start of the nearest block that dominates every use of each alloca. Allocating the
    /// frame there computes it from the stack pointer at entry, so it is the same frame
    /// wherever and however often it is allocated (callees made before have restored the
    /// stack pointer), and a function whose frame only cold paths use (newlib's `malloc`
    /// and `free`) does not pay for it on its hot path.
    pub(super) fn place_frame(&mut self, doms: &Dominators) {
        if self.setjmp_mode {
            return;
        }
        let body = self.body;
        let mut frame: HashMap<u32, usize> = HashMap::new();
        for (i, inst) in body.insts.iter().enumerate() {
            match *inst {
                Inst::Alloca { size, .. }
                    if self.block_insts(0).contains(&i)
                        && self.const_int(size).is_some_and(|n| (0..1 << 24).contains(&n)) =>
                {
                    if let Some(local) = self.results[i] {
                        frame.insert(local, i);
                    }
                }
                Inst::Alloca { .. } => return,
                Inst::Call { callee, indirect_ret: None, .. }
                    if self.env.intrinsics.get(callee.0 as usize).copied().flatten().is_some_and(|x| {
                        matches!(x.kind, IntrinsicKind::StackRestore | IntrinsicKind::StackSave | IntrinsicKind::Setjmp)
                    }) =>
                {
                    return;
                }
                _ => {}
            }
        }
        if frame.is_empty() {
            return;
        }
        let mut places: HashMap<usize, Option<u32>> = frame.values().map(|&i| (i, None)).collect();
        for &k in &self.order {
            for i in self.block_insts(k) {
                body.insts[i].for_each_operand(body, |v, incoming| {
                    let Some(local) = v.0.checked_sub(self.fg) else { return };
                    if !matches!(self.space.kind(v), ValueKind::Inst(_)) {
                        return;
                    }
                    if let Some(&a) = frame.get(&local) {
                        let at = incoming.unwrap_or(k as u32);
                        if !doms.is_reachable(at) {
                            // An edge from a block that is not translated.
                            return;
                        }
                        let place = places.get_mut(&a).expect("a frame alloca");
                        *place = match *place {
                            None => Some(at),
                            Some(p) => Some(doms.common_dominator(p, at).unwrap_or(0)),
                        };
                    }
                });
            }
        }
        self.frame_places = places;
    }

    /// Allocates the entry block's constant-size allocas as one frame of guest stack, with
    /// one limit check, in the prologue (before anything else can move the stack pointer)
    /// or where [`Translator::place_frame`] put them. The prologue's are defined here.
    pub(super) fn static_frame(&mut self) {
        let mut frame = Vec::new();
        let mut size: u64 = 0;
        let mut max_align: u64 = 1;
        for i in self.block_insts(0) {
            if let Inst::Alloca { size: n, align } = self.body.insts[i] {
                let Some(n) = self.const_int(n).filter(|&n| (0..1 << 24).contains(&n)) else { continue };
                let a = u64::from(align.bytes().max(1));
                size = size.div_ceil(a) * a;
                frame.push((i, size));
                size += n as u64;
                max_align = max_align.max(a);
            }
        }
        if frame.is_empty() {
            return;
        }
        let mut now = Vec::new();
        for (i, offset) in frame {
            self.static_allocas.push(i);
            match self.frame_places.get(&i) {
                // Never used: never allocated.
                Some(None) => {}
                Some(Some(k)) if *k != 0 => self.late_allocas.push((*k, i, offset)),
                _ => now.push((i, offset)),
            }
        }
        self.late_frame = Some((size, max_align));
        if now.is_empty() {
            return;
        }
        let base = self.alloca_bytes(size, max_align);
        self.define_frame(base, &now);
    }

    /// Allocates the static frame at the start of block `k` if some of its allocas are
    /// first needed there.
    pub(super) fn late_frame_at(&mut self, k: u32) {
        let here: Vec<(usize, u64)> =
            self.late_allocas.iter().filter(|&&(b, _, _)| b == k).map(|&(_, i, o)| (i, o)).collect();
        if here.is_empty() {
            return;
        }
        let (size, align) = self.late_frame.expect("a static frame");
        let sp = self.saved_sp.expect("a function with allocas saves the stack pointer");
        let size = self.b.ins().iconst(I32, size as i64);
        let base = self.alloca_from(sp, size, align as u32);
        self.define_frame(base, &here);
    }

    fn define_frame(&mut self, base: Value, allocas: &[(usize, u64)]) {
        for &(i, offset) in allocas {
            let v = self.b.ins().iadd_imm_s(base, offset as i64);
            let local = self.results[i].expect("alloca defines a value");
            self.define(local, v);
        }
    }

    /// Moves the guest stack pointer down by `size` bytes, aligned to `align`, checking
    /// the limit; returns the new stack pointer.
    pub(super) fn alloca_bytes(&mut self, size: u64, align: u64) -> Value {
        let size = self.b.ins().iconst(I32, size as i64);
        self.alloca(size, align as u32)
    }

    /// Moves the guest stack pointer down by `size` bytes, aligned down to `align`: the
    /// new stack pointer is `(sp - size) & -align`, and it must not fall below the thread's
    /// stack limit. Computed in 32 bits with two checks (`size <= sp`, then `new >= limit`,
    /// unsigned), which trap exactly when the 64-bit computation would go below the limit;
    /// it leaves Cranelift one chain of 32-bit arithmetic rather than a 64-bit one for the
    /// check and a narrowed copy of it for the result.
    pub(super) fn alloca(&mut self, size: Value, align: u32) -> Value {
        let vmctx = self.vmctx();
        let sp = self.b.ins().load(I32, trusted(), vmctx, abi::VMCTX_GUEST_SP);
        self.alloca_from(sp, size, align)
    }

    /// [`Translator::alloca`] from stack pointer `sp`.
    fn alloca_from(&mut self, sp: Value, size: Value, align: u32) -> Value {
        let vmctx = self.vmctx();
        let limit = self.b.ins().load(I32, trusted(), vmctx, abi::VMCTX_GUEST_STACK_LIMIT);
        let under = self.b.ins().icmp(IntCC::UnsignedLessThan, sp, size);
        self.b.ins().trapnz(under, TrapKind::GuestStackOverflow.code());
        let new = self.b.ins().isub(sp, size);
        let new = self.b.ins().band_imm_s(new, -i64::from(align));
        let low = self.b.ins().icmp(IntCC::UnsignedLessThan, new, limit);
        self.b.ins().trapnz(low, TrapKind::GuestStackOverflow.code());
        self.b.ins().store(trusted(), new, vmctx, abi::VMCTX_GUEST_SP);
        new
    }

    /// The host address of a guest address operand, as an address and an offset to add
    /// to it (which the access folds into its addressing mode).
    ///
    /// The guest address is `ptr` modulo 2^32: `base + zext(ptr)`. But when `ptr` is `x + c`
    /// for a constant `c` in `1..=MAX_FOLDED_OFFSET`, the access is made at `base + zext(x)`
    /// plus the offset `c`, without computing `x + c` in 32 bits first. The two differ only
    /// when `x + c` wraps past 4 GiB; then the wrapped address lies in the null page, which
    /// is never mapped, and the other one in the guard region after the guest space: both
    /// fault, with the same trap, and no access leaves the reservation.
    ///
    /// The sum may also be one the translator wrote itself, which the PNaCl IR does not
    /// show: `a + (r + c)`, where `r + c` is an unrolled copy's index distributed over a
    /// multiplication (see `arith`'s `mul_of_constant_add`). It is accessed at
    /// `base + zext(a + r)` plus `c`, by the same argument.
    pub(super) fn addr(&mut self, ptr: ValueId) -> Result<(Value, i32), String> {
        let (p, offset) = match self.offset_pointer(ptr) {
            Some((x, c)) => (self.get(x)?, c),
            None => {
                let p = self.get(ptr)?;
                self.offset_sum(p).unwrap_or((p, 0))
            }
        };
        let p64 = self.b.ins().uextend(I64, p);
        let base = self.base();
        Ok((self.b.ins().iadd(base, p64), offset))
    }

    /// `(x, c)` if `ptr` is the `i32` sum of a value `x` and a constant `c` small enough to
    /// fold into an access (outside setjmp mode, which stays a literal translation).
    fn offset_pointer(&self, ptr: ValueId) -> Option<(ValueId, i32)> {
        if self.setjmp_mode {
            return None;
        }
        let Inst::Binop { op: BinOp::Add, lhs, rhs, .. } = *self.def_inst(ptr)? else { return None };
        let small = |v: ValueId| self.const_int(v).and_then(foldable);
        match (small(rhs), small(lhs)) {
            (Some(c), _) => Some((lhs, c)),
            (None, Some(c)) => Some((rhs, c)),
            _ => None,
        }
    }

    /// `(x, c)` if the Cranelift value `p` is `a + c` or `a + (r + c)` (then `x` is a new
    /// `a + r`), with `c` a constant small enough to fold into an access; not in setjmp
    /// mode.
    fn offset_sum(&mut self, p: Value) -> Option<(Value, i32)> {
        // The argument holds for 32-bit sums (guest pointers), which wrap at 4 GiB.
        if self.setjmp_mode || self.b.func.dfg.value_type(p) != I32 {
            return None;
        }
        let [a, b] = self.iadd_args(p)?;
        for (u, v) in [(a, b), (b, a)] {
            if let Some(c) = self.iconst_of(v).and_then(foldable) {
                return Some((u, c));
            }
        }
        for (u, v) in [(a, b), (b, a)] {
            let Some([r, s]) = self.iadd_args(v) else { continue };
            for (r, s) in [(r, s), (s, r)] {
                if let Some(c) = self.iconst_of(s).and_then(foldable) {
                    return Some((self.b.ins().iadd(u, r), c));
                }
            }
        }
        None
    }

    /// The host address of guest address 0. Outside setjmp mode it is one value, defined
    /// in the prologue (and removed if unused).
    pub(super) fn base(&mut self) -> Value {
        match self.mem_base {
            Some(b) if !self.setjmp_mode => b,
            _ => self.runtime_address(RuntimeSymbol::MemoryBase),
        }
    }

    /// The host address of runtime data (relocated when the code is loaded).
    pub(super) fn runtime_address(&mut self, symbol: RuntimeSymbol) -> Value {
        let gv = match self.runtime_symbols[symbol as usize] {
            Some(gv) => gv,
            None => {
                let name = self.b.func.declare_imported_user_function(UserExternalName::new(NS_RUNTIME, symbol as u32));
                let gv = self.b.create_global_value(GlobalValueData::Symbol {
                    name: ExternalName::user(name),
                    offset: Imm64::new(0),
                    colocated: false,
                    tls: false,
                });
                self.runtime_symbols[symbol as usize] = Some(gv);
                gv
            }
        };
        self.b.ins().symbol_value(I64, gv)
    }

    pub(super) fn atomic_addr(&mut self, p: Value) -> Value {
        let p64 = self.b.ins().uextend(I64, p);
        let base = self.base();
        self.b.ins().iadd(base, p64)
    }
}
