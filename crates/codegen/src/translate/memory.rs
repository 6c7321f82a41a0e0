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
use pnacl_bitcode::ir::{BinOp, Inst, ValueId, ValueKind};

/// The largest constant offset folded into a guest access (see [`Translator::addr`]): with
/// accesses of up to 16 bytes, an access at up to this much past the last guest address
/// stays in the guard region, and one at up to this much past address 0 stays in the null
/// page.
const MAX_FOLDED_OFFSET: u32 = {
    let room = if memory::GUARD < memory::NULL_PAGE_END as u64 { memory::GUARD as u32 } else { memory::NULL_PAGE_END };
    room - 16
};

impl Translator<'_, '_, '_> {
    /// Allocates the entry block's constant-size allocas as one frame of guest stack, with
    /// one limit check (they run once per call, before anything else can move the stack
    /// pointer). Their results are defined here.
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
        let base = self.alloca_bytes(size, max_align);
        for (i, offset) in frame {
            let v = self.b.ins().iadd_imm_s(base, offset as i64);
            let local = self.results[i].expect("alloca defines a value");
            self.define(local, v);
            self.static_allocas.push(i);
        }
    }

    /// Moves the guest stack pointer down by `size` bytes, aligned to `align`, checking
    /// the limit; returns the new stack pointer.
    pub(super) fn alloca_bytes(&mut self, size: u64, align: u64) -> Value {
        let size = self.b.ins().iconst(I32, size as i64);
        self.alloca(size, align as u32)
    }

    pub(super) fn alloca(&mut self, size: Value, align: u32) -> Value {
        let vmctx = self.vmctx();
        let sp = self.b.ins().load(I32, trusted(), vmctx, abi::VMCTX_GUEST_SP);
        let limit = self.b.ins().load(I32, trusted(), vmctx, abi::VMCTX_GUEST_STACK_LIMIT);
        let sp64 = self.b.ins().uextend(I64, sp);
        let size64 = self.b.ins().uextend(I64, size);
        let new = self.b.ins().isub(sp64, size64);
        let new = self.b.ins().band_imm_s(new, -i64::from(align));
        let limit64 = self.b.ins().uextend(I64, limit);
        let low = self.b.ins().icmp(IntCC::SignedLessThan, new, limit64);
        self.b.ins().trapnz(low, TrapKind::GuestStackOverflow.code());
        let new32 = self.b.ins().ireduce(I32, new);
        self.b.ins().store(trusted(), new32, vmctx, abi::VMCTX_GUEST_SP);
        new32
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
    pub(super) fn addr(&mut self, ptr: ValueId) -> Result<(Value, i32), String> {
        let (x, offset) = match self.offset_pointer(ptr) {
            Some((x, c)) => (x, c),
            None => (ptr, 0),
        };
        let p = self.get(x)?;
        let p64 = self.b.ins().uextend(I64, p);
        let base = self.base();
        Ok((self.b.ins().iadd(base, p64), offset))
    }

    /// `(x, c)` if `ptr` is the `i32` sum of a value `x` and a constant `c` small enough to
    /// fold into an access (outside setjmp mode, which stays a literal translation).
    fn offset_pointer(&self, ptr: ValueId) -> Option<(ValueId, i32)> {
        if self.setjmp_mode || !matches!(self.space.kind(ptr), ValueKind::Inst(_)) {
            return None;
        }
        let def = *self.defs.get((ptr.0 - self.fg) as usize)?;
        let Inst::Binop { op: BinOp::Add, lhs, rhs, .. } = *self.body.insts.get(def as usize)? else { return None };
        let small = |v: ValueId| {
            self.const_int(v)
                .map(|c| c & 0xffff_ffff)
                .filter(|c| (1..=i64::from(MAX_FOLDED_OFFSET)).contains(c))
                .map(|c| c as i32)
        };
        match (small(rhs), small(lhs)) {
            (Some(c), _) => Some((lhs, c)),
            (None, Some(c)) => Some((rhs, c)),
            _ => None,
        }
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
