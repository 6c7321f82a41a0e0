//! The host helpers translated code calls directly ([`HostFn`]): the memory intrinsics,
//! `fmod`, and the setjmp machinery.

use crate::process;
use crate::signals::host_trap;
use crate::{sjlj, thread};
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
            HostFn::SjljEnter => sjlj::frame_enter as *const () as u64,
            HostFn::SjljLeave => sjlj::frame_leave as *const () as u64,
            HostFn::SjljRegister => sjlj::register as *const () as u64,
            HostFn::Setjmp => thread::_setjmp as *const () as u64,
            HostFn::Longjmp => sjlj::jump as *const () as u64,
        })
        .collect()
}

/// The host address of `[addr, addr+len)`, or a trap if the range leaves the guest space.
/// Unmapped pages inside it fault when touched, and the signal handler reports them.
fn range(vmctx: *mut VmCtx, addr: u32, len: u32) -> *mut u8 {
    if u64::from(addr) + u64::from(len) > memory::SIZE {
        host_trap(vmctx, TrapKind::MemoryIntrinsicOutOfBounds);
    }
    let p = process::get().expect("guest code runs in a process");
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
