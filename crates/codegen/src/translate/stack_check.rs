//! Where a function checks the host stack: in its prologue (Cranelift's `stack_limit`), or
//! just before it calls anything.
//!
//! The invariant every translated function keeps is that it calls nothing (guest or host)
//! with its stack pointer below the thread's host stack limit. The prologue check keeps it
//! by refusing to enter a frame that would end below the limit. A function whose entry
//! block makes no call keeps it instead with a check of its own stack pointer before its
//! calls, once per Cranelift block that calls: its paths that call nothing (newlib's `malloc`
//! and `free` on their hot paths, a recursion's leaves) then run no check at all.
//!
//! Such a function may run below the limit, but not far: its caller called it from at or
//! above the limit, so its frame (return address, saved frame pointer and the
//! [`MAX_UNCHECKED_FRAME`] bytes at most that it may have below them) ends at most
//! `16 + MAX_UNCHECKED_FRAME` bytes below the limit, inside the reserve the runtime keeps
//! below it (which the runtime asserts is larger). It calls nothing from there: its calls are behind the check.
//! The frame size is only known once Cranelift has compiled the function, so
//! [`crate::compile`] compiles a function with a larger frame again with the prologue check.
//! Cranelift keeps the stack pointer fixed in a function's body (its outgoing arguments
//! live in the frame; allocas are on the guest stack), so one check in a block holds for
//! the whole invocation.

use super::Translator;
use super::flags::trusted;
use crate::abi::{self, MAX_UNCHECKED_FRAME, TrapKind};
use cranelift_codegen::ir::InstBuilder;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::*;
use pnacl_bitcode::ir::{FunctionBody, Inst};

/// True if a function whose frame is `frame` bytes below its frame pointer (`None`:
/// unknown) may go without the prologue check.
pub(crate) fn frame_fits_unchecked(frame: Option<u32>) -> bool {
    frame.is_some_and(|f| f <= MAX_UNCHECKED_FRAME)
}

/// True if the function checks the host stack before its calls rather than in its
/// prologue: outside setjmp mode (translated literally, with host calls in its prologue),
/// when its entry block calls nothing (otherwise every invocation would check anyway).
pub(super) fn checks_at_calls(body: &FunctionBody, setjmp_mode: bool) -> bool {
    !setjmp_mode && !body.block_insts(0).any(|i| matches!(body.insts[i], Inst::Call { .. }))
}

impl Translator<'_, '_, '_> {
    /// Before a call: traps unless the stack pointer is at or above the host stack limit,
    /// if the function checks at its calls and the current block has not checked yet.
    pub(super) fn check_host_stack(&mut self) {
        if self.call_stack_limit.is_none() {
            return;
        }
        let here = self.b.current_block();
        if here.is_some() && self.stack_checked_in == here {
            return;
        }
        self.stack_checked_in = here;
        let vmctx = self.vmctx();
        let limit = self.b.ins().load(I64, trusted(), vmctx, abi::VMCTX_HOST_STACK_LIMIT);
        let sp = self.b.ins().get_stack_pointer(I64);
        let below = self.b.ins().icmp(IntCC::UnsignedLessThan, sp, limit);
        self.b.ins().trapnz(below, TrapKind::StackOverflow.code());
    }
}
