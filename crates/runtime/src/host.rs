//! The host helpers translated code calls directly ([`HostFn`]): the memory intrinsics,
//! `fmod`, and the setjmp machinery (over the thread's [`crate::sjlj`] records).

use crate::instance;
use crate::jmpbuf::{_setjmp, JmpBuf, longjmp};
use crate::signals::host_trap;
use crate::thread::thread_of;
use pnacl_codegen::abi::{HostFn, TrapKind, VmCtx, memory};

/// The host address of each [`HostFn`], in [`HostFn::ALL`] order.
pub(crate) fn addresses() -> Vec<u64> {
    HostFn::ALL
        .iter()
        .map(|f| match f {
            HostFn::Memcpy => memcpy as *const () as u64,
            HostFn::Memmove => memcpy as *const () as u64,
            HostFn::Memset => memset as *const () as u64,
            HostFn::Fmod => fmod as *const () as u64,
            HostFn::Fmodf => fmodf as *const () as u64,
            HostFn::SjljEnter => sjlj_enter as *const () as u64,
            HostFn::SjljLeave => sjlj_leave as *const () as u64,
            HostFn::SjljRegister => sjlj_register as *const () as u64,
            HostFn::Setjmp => _setjmp as *const () as u64,
            HostFn::Longjmp => sjlj_longjmp as *const () as u64,
        })
        .collect()
}

/// The host address of `[addr, addr+len)`, or a trap if the range leaves the guest space.
/// Unmapped pages inside it fault when touched, and the signal handler reports them.
fn range(vmctx: *mut VmCtx, addr: u32, len: u32) -> *mut u8 {
    if u64::from(addr) + u64::from(len) > memory::SIZE {
        host_trap(vmctx, TrapKind::MemoryIntrinsicOutOfBounds);
    }
    let p = instance::get().expect("guest code runs in a process");
    (p.memory.base() + u64::from(addr)) as *mut u8
}

/// `llvm.memcpy` and `llvm.memmove` (an overlapping memcpy is undefined; it behaves as
/// memmove).
extern "C" fn memcpy(vmctx: *mut VmCtx, dst: u32, src: u32, len: u32) {
    if len == 0 {
        return;
    }
    let (d, s) = (range(vmctx, dst, len), range(vmctx, src, len));
    // SAFETY: both ranges lie in the guest reservation; unmapped pages fault into a trap.
    unsafe { std::ptr::copy(s, d, len as usize) }
}

/// `llvm.memset`.
extern "C" fn memset(vmctx: *mut VmCtx, dst: u32, byte: u32, len: u32) {
    if len == 0 {
        return;
    }
    let d = range(vmctx, dst, len);
    // SAFETY: as above.
    unsafe { std::ptr::write_bytes(d, byte as u8, len as usize) }
}

/// `frem` on doubles: C `fmod` (Rust's `%` on floats is exactly that).
extern "C" fn fmod(a: f64, b: f64) -> f64 {
    a % b
}

/// `frem` on floats.
extern "C" fn fmodf(a: f32, b: f32) -> f32 {
    a % b
}

/// A function that calls setjmp starts: returns its frame token.
extern "C" fn sjlj_enter(vmctx: *mut VmCtx) -> u64 {
    // SAFETY: called by translated code with its own thread's context.
    unsafe { thread_of(vmctx) }.sjlj.enter_frame()
}

/// That function returns: its frame and its records end.
extern "C" fn sjlj_leave(vmctx: *mut VmCtx, token: u64) {
    // SAFETY: as above.
    unsafe { thread_of(vmctx) }.sjlj.leave_frame(token)
}

/// setjmp, before the C library's `_setjmp`: records the target and writes its id into
/// the guest buffer; returns the host buffer `_setjmp` fills.
extern "C" fn sjlj_register(vmctx: *mut VmCtx, guest_buf: u32, token: u64) -> u64 {
    let p = instance::get().expect("guest code runs in a process");
    // SAFETY: as above.
    let t = unsafe { thread_of(vmctx) };
    let (id, buf) = t.sjlj.register(guest_buf, token, t.vmctx.guest_sp);
    if p.memory.write_u32(guest_buf, id).is_err() {
        host_trap(vmctx, TrapKind::MemoryOutOfBounds);
    }
    buf as u64
}

/// longjmp: returns only if the buffer names no live setjmp of this thread (the caller
/// then traps).
extern "C" fn sjlj_longjmp(vmctx: *mut VmCtx, guest_buf: u32, value: i32) {
    let p = instance::get().expect("guest code runs in a process");
    let Ok(id) = p.memory.read_u32(guest_buf) else { host_trap(vmctx, TrapKind::MemoryOutOfBounds) };
    // SAFETY: as above.
    let t = unsafe { thread_of(vmctx) };
    let Some((sp, buf)): Option<(u32, *mut JmpBuf)> = t.sjlj.target(id) else { return };
    t.vmctx.guest_sp = sp;
    let value = if value == 0 { 1 } else { value };
    // SAFETY: `buf` was filled by `_setjmp` in a frame that is still live (its record would
    // have been dropped when it returned); only translated frames and this one, which owns
    // nothing to drop, are skipped.
    unsafe { longjmp(buf, value) }
}
