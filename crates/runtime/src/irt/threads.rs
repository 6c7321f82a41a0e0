//! `nacl-irt-thread-0.1` and `nacl-irt-futex-0.1`.
//!
//! Futexes are the host's: guest memory is shared by every guest thread at one host
//! address, so a private host futex on that address is keyed by the guest address.

use super::access::{memory, put_u32};
use crate::errno::{Errno, IrtResult, ret};
use crate::thread;
use pnacl_codegen::abi::VmCtx;

/// `int thread_create(void (*start)(void), void *stack, void *thread_ptr)`.
pub(super) extern "C" fn thread_create(vmctx: *mut VmCtx, start: u32, stack: u32, tp: u32) -> i32 {
    // SAFETY: called by guest code with its own context.
    ret(unsafe { thread::create(vmctx, start, stack, tp) })
}

/// `void thread_exit(int32_t *stack_flag)`.
pub(super) extern "C" fn thread_exit(vmctx: *mut VmCtx, stack_flag: u32) {
    // SAFETY: called by guest code with its own context; this frame owns nothing.
    unsafe { thread::exit(vmctx, stack_flag) }
}

/// `int thread_nice(const int nice)`: a hint, accepted and ignored.
pub(super) extern "C" fn thread_nice(_vmctx: *mut VmCtx, _nice: i32) -> i32 {
    0
}

fn futex(word: &std::sync::atomic::AtomicU32, op: i32, val: u32, timeout: *const libc::timespec, mask: u32) -> isize {
    // SAFETY: a futex call on a live, aligned word of guest memory.
    unsafe {
        libc::syscall(
            libc::SYS_futex,
            word.as_ptr(),
            op | libc::FUTEX_PRIVATE_FLAG,
            val,
            timeout,
            std::ptr::null::<u32>(),
            mask,
        ) as isize
    }
}

/// `int futex_wait_abs(volatile int *addr, int value, const struct timespec *abstime)`:
/// EAGAIN if `*addr != value`, ETIMEDOUT once the absolute (real-time) `abstime` passes.
pub(super) extern "C" fn futex_wait_abs(_vmctx: *mut VmCtx, addr: u32, value: i32, abstime: u32) -> i32 {
    ret((|| -> IrtResult {
        let word = memory().atomic_u32(addr)?;
        let deadline = if abstime != 0 { Some(super::access::get_timespec(abstime)?) } else { None };
        let timeout = deadline.as_ref().map_or(std::ptr::null(), |t| t as *const libc::timespec);
        let op = libc::FUTEX_WAIT_BITSET | libc::FUTEX_CLOCK_REALTIME;
        if futex(word, op, value as u32, timeout, libc::FUTEX_BITSET_MATCH_ANY as u32) == 0 {
            return Ok(());
        }
        match std::io::Error::last_os_error().raw_os_error() {
            Some(libc::EAGAIN) => Err(Errno::EAGAIN),
            Some(libc::ETIMEDOUT) => Err(Errno::ETIMEDOUT),
            // A signal: a spurious wake-up, which callers handle.
            Some(libc::EINTR) => Ok(()),
            Some(e) => Err(Errno::from_host(e)),
            None => Err(Errno::EIO),
        }
    })())
}

/// `int futex_wake(volatile int *addr, int nwake, int *count)`.
pub(super) extern "C" fn futex_wake(_vmctx: *mut VmCtx, addr: u32, nwake: i32, count: u32) -> i32 {
    ret((|| -> IrtResult {
        let word = memory().atomic_u32(addr)?;
        let n = futex(word, libc::FUTEX_WAKE, nwake.max(0) as u32, std::ptr::null(), 0);
        if n < 0 {
            return Err(Errno::last());
        }
        put_u32(count, n as u32)
    })())
}
