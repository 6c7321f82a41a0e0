//! Guest memory and the guest stack: host addresses of guest pointers (`base +
//! zext(address)`), allocas and the entry block's static frame, and the flags of memory
//! accesses.

use super::Translator;
use super::flags::trusted;
use crate::abi::{self, TrapKind};
use crate::clif::{NS_RUNTIME, RuntimeSymbol};
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::immediates::Imm64;
use cranelift_codegen::ir::types::*;
use cranelift_codegen::ir::{ExternalName, GlobalValueData, InstBuilder, UserExternalName, Value};
use pnacl_bitcode::ir::{Inst, ValueId};

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

    /// The host address of a guest address operand.
    pub(super) fn addr(&mut self, ptr: ValueId) -> Result<Value, String> {
        let p = self.get(ptr)?;
        let p64 = self.b.ins().uextend(I64, p);
        let base = self.base();
        Ok(self.b.ins().iadd(base, p64))
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
