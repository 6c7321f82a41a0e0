//! `llvm.nacl.setjmp` and `llvm.nacl.longjmp` with C semantics.
//!
//! The guest's `jmp_buf` holds only an id. The state to jump back to is a host `jmp_buf`
//! the runtime owns, filled by the C library's `_setjmp` called straight from the guest
//! function's frame (see the translator's "setjmp mode"), together with the guest stack
//! pointer at the time. Each call of a function that uses setjmp is a *frame* with a token;
//! a record lives as long as its frame, so the same buffer can be jumped to again and
//! again while the function is active, and never after it has returned. Guest bytes are
//! only ever used as a key to look a record up.

use crate::process;
use crate::signals::host_trap;
use crate::thread::{JmpBuf, longjmp, thread_of};
use pnacl_codegen::abi::{TrapKind, VmCtx};

/// A setjmp target.
struct Record {
    /// The id stored in the guest's `jmp_buf`.
    id: u32,
    /// The frame that called setjmp.
    token: u64,
    /// The guest `jmp_buf` address.
    guest_buf: u32,
    /// The guest stack pointer at setjmp (restored by longjmp: later allocas are freed).
    sp: u32,
    /// The host jump state (boxed: its address is handed to `_setjmp`).
    buf: Box<JmpBuf>,
}

/// A thread's setjmp state.
#[derive(Default)]
pub(crate) struct Sjlj {
    next_token: u64,
    next_id: u32,
    /// Tokens of the live frames of functions that call setjmp, innermost last.
    frames: Vec<u64>,
    records: Vec<Record>,
}

impl Sjlj {
    /// Forgets every frame deeper than `token` (a longjmp unwound them).
    fn unwind_to(&mut self, token: u64) {
        while self.frames.last().is_some_and(|&t| t > token) {
            self.frames.pop();
        }
        self.records.retain(|r| r.token <= token);
    }
}

/// A function that calls setjmp starts: returns its frame token.
pub(crate) extern "C" fn frame_enter(vmctx: *mut VmCtx) -> u64 {
    // SAFETY: called by translated code with its own thread's context.
    let s = unsafe { &mut thread_of(vmctx).sjlj };
    s.next_token += 1;
    s.frames.push(s.next_token);
    s.next_token
}

/// That function returns: its frame and its records end.
pub(crate) extern "C" fn frame_leave(vmctx: *mut VmCtx, token: u64) {
    // SAFETY: as above.
    let s = unsafe { &mut thread_of(vmctx).sjlj };
    s.unwind_to(token.saturating_sub(1));
}

/// setjmp, before the C library's `_setjmp`: records the target and writes its id into
/// the guest buffer; returns the host buffer `_setjmp` fills.
pub(crate) extern "C" fn register(vmctx: *mut VmCtx, guest_buf: u32, token: u64) -> u64 {
    let p = process::get().expect("guest code runs in a process");
    // SAFETY: as above.
    let t = unsafe { thread_of(vmctx) };
    let sp = t.vmctx.guest_sp;
    let s = &mut t.sjlj;
    let i = match s.records.iter().position(|r| r.token == token && r.guest_buf == guest_buf) {
        Some(i) => i,
        None => {
            s.next_id = s.next_id.wrapping_add(1).max(1);
            s.records.push(Record { id: s.next_id, token, guest_buf, sp, buf: Box::new(JmpBuf::new()) });
            s.records.len() - 1
        }
    };
    let r = &mut s.records[i];
    r.sp = sp;
    if p.memory.write_u32(guest_buf, r.id).is_err() {
        host_trap(vmctx, TrapKind::MemoryOutOfBounds);
    }
    &mut *r.buf as *mut JmpBuf as u64
}

/// longjmp: returns only if the buffer names no live setjmp of this thread (the caller
/// then traps).
pub(crate) extern "C" fn jump(vmctx: *mut VmCtx, guest_buf: u32, value: i32) {
    let p = process::get().expect("guest code runs in a process");
    let Ok(id) = p.memory.read_u32(guest_buf) else { host_trap(vmctx, TrapKind::MemoryOutOfBounds) };
    // SAFETY: as above.
    let t = unsafe { thread_of(vmctx) };
    let Some(token) = t.sjlj.records.iter().find(|r| r.id == id).map(|r| r.token) else { return };
    t.sjlj.unwind_to(token);
    let r = t.sjlj.records.iter_mut().find(|r| r.id == id).expect("the target's frame is live");
    let (sp, buf): (u32, *mut JmpBuf) = (r.sp, &mut *r.buf);
    t.vmctx.guest_sp = sp;
    let value = if value == 0 { 1 } else { value };
    // SAFETY: `buf` was filled by `_setjmp` in a frame that is still live (its record would
    // have been dropped when it returned); only translated frames and this one, which owns
    // nothing to drop, are skipped.
    unsafe { longjmp(buf, value) }
}
