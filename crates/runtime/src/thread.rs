//! Guest threads: each is a host thread with its own context, host stack, alternate
//! signal stack and setjmp records, running over the shared guest memory.
//!
//! Guest code is entered through a trampoline that first `_setjmp`s into the thread's
//! exit buffer, so IRT `thread_exit` can leave guest code from any depth by `longjmp`ing
//! there; only then is the thread's guest stack free, and its stack flag is cleared.

use crate::errno::Errno;
use crate::instance::{self, Instance};
use crate::jmpbuf::{JmpBuf, longjmp};
use crate::signals::{self, AltStack};
use crate::sjlj::Sjlj;
use crate::status::EXIT_LOAD_ERROR;
use pnacl_bitcode::ir::Ty;
use pnacl_codegen::abi::{VmCtx, memory};
use std::io::Write;
use std::sync::atomic::Ordering;
use std::time::Instant;

/// Host stack of the main guest thread (guest frames live on the host stack; allocas on
/// the guest stack).
const MAIN_HOST_STACK: usize = 64 << 20;
/// Host stack of other guest threads.
const THREAD_HOST_STACK: usize = 8 << 20;
/// Host stack kept free below the limit translated code checks against: room for host
/// functions the guest calls when it is at the limit.
const HOST_STACK_RESERVE: u64 = 256 << 10;
// A translated function may run this far below the limit without checking (see
// `MAX_UNCHECKED_FRAME`); it calls nothing from there, so host functions keep the rest.
const _: () = assert!(HOST_STACK_RESERVE >= 16 * (16 + pnacl_codegen::abi::MAX_UNCHECKED_FRAME as u64));

/// What the trampoline returns when the thread left through `thread_exit`.
pub(crate) const THREAD_EXIT: i32 = 1;

/// The host side of a guest thread. Only its own host thread touches it.
#[repr(C)]
pub(crate) struct GuestThread {
    pub vmctx: VmCtx,
    /// Where `thread_exit` jumps to.
    pub exit_buf: JmpBuf,
    pub sjlj: Sjlj,
    /// The guest word `thread_exit` asked to clear once the stack is free (0: none).
    pub stack_flag: u32,
}

/// The guest thread of a context.
///
/// # Safety
/// `vmctx` must be the context of a live guest thread, and the caller must be running on
/// that thread.
pub(crate) unsafe fn thread_of<'a>(vmctx: *mut VmCtx) -> &'a mut GuestThread {
    // SAFETY: per the contract, `thread` points to the live `GuestThread` that owns it.
    unsafe { &mut *((*vmctx).thread as *mut GuestThread) }
}

/// How a guest thread starts.
pub(crate) struct GuestStart {
    /// Entry code.
    pub code: u64,
    /// Its argument (`_start` takes one; thread functions none).
    pub arg: Option<u32>,
    /// The guest stack pointer.
    pub sp: u32,
    /// The thread pointer.
    pub tp: u32,
    /// True unless this is the first thread.
    pub threads_started: u32,
}

/// The bounds of the calling thread's host stack: (lowest address, size).
fn host_stack() -> Result<(u64, u64), String> {
    // SAFETY: queries the calling thread's attributes into local storage.
    unsafe {
        let mut attr: libc::pthread_attr_t = std::mem::zeroed();
        if libc::pthread_getattr_np(libc::pthread_self(), &mut attr) != 0 {
            return Err("cannot find the host stack".into());
        }
        let mut addr = std::ptr::null_mut();
        let mut size = 0;
        let rc = libc::pthread_attr_getstack(&attr, &mut addr, &mut size);
        libc::pthread_attr_destroy(&mut attr);
        if rc != 0 {
            return Err("cannot find the host stack".into());
        }
        Ok((addr as u64, size as u64))
    }
}

/// How guest code left a thread.
enum Ended {
    /// The entry function returned.
    Returned,
    /// It called `thread_exit` with this stack flag (0: none).
    Exited(u32),
}

/// Runs guest code on the calling host thread until it returns or calls `thread_exit`.
fn enter(p: &'static Instance, start: &GuestStart, guest_stack_limit: u32) -> Result<Ended, String> {
    let _alt = AltStack::install()?;
    let (low, size) = host_stack()?;
    crate::backtrace::set_stack(low, low + size);
    let mut t = Box::new(GuestThread {
        vmctx: VmCtx {
            guest_sp: start.sp,
            guest_stack_limit,
            tp: start.tp,
            host_caller: 0,
            threads_started: start.threads_started,
            _pad: 0,
            host_stack_limit: low + HOST_STACK_RESERVE,
            runtime: p as *const Instance as u64,
            thread: 0,
        },
        exit_buf: JmpBuf::new(),
        sjlj: Sjlj::default(),
        stack_flag: 0,
    });
    t.vmctx.thread = &mut *t as *mut GuestThread as u64;
    let vmctx: *mut VmCtx = &mut t.vmctx;
    let buf: *mut JmpBuf = &mut t.exit_buf;
    signals::set_current(vmctx);
    // SAFETY: the trampolines have these signatures; the code is a translated function of
    // the matching type, and the context and buffer outlive the call.
    let r = unsafe {
        match start.arg {
            Some(arg) => {
                let f: extern "C" fn(*mut VmCtx, u64, u32, *mut JmpBuf) -> i32 =
                    std::mem::transmute(p.trampolines.call_with_arg as usize);
                f(vmctx, start.code, arg, buf)
            }
            None => {
                let f: extern "C" fn(*mut VmCtx, u64, *mut JmpBuf) -> i32 =
                    std::mem::transmute(p.trampolines.call as usize);
                f(vmctx, start.code, buf)
            }
        }
    };
    signals::set_current(std::ptr::null_mut());
    Ok(if r == THREAD_EXIT { Ended::Exited(t.stack_flag) } else { Ended::Returned })
}

/// A guest thread has ended: the process ends with status 0 when it was the last.
fn ended(p: &'static Instance) {
    if p.threads.fetch_sub(1, Ordering::AcqRel) == 1 {
        p.exit(0);
    }
}

/// Runs `_start` on a host thread of its own (with a large stack). Returns only if that
/// thread cannot be started.
pub(crate) fn run_main(p: &'static Instance, start: GuestStart, guest_stack_limit: u32) -> Result<(), String> {
    let handle = std::thread::Builder::new()
        .name("pnacl-guest".into())
        .stack_size(MAIN_HOST_STACK)
        .spawn(move || {
            p.running_since.store(Box::leak(Box::new(Instant::now())), Ordering::Release);
            match enter(p, &start, guest_stack_limit) {
                // `_start` returned: the process ends as if it had called exit(0).
                Ok(Ended::Returned) => p.exit(0),
                Ok(Ended::Exited(flag)) => {
                    clear_flag(p, flag);
                    ended(p);
                }
                Err(e) => {
                    let _ = writeln!(std::io::stderr(), "pnacl: {e}");
                    p.exit(EXIT_LOAD_ERROR);
                }
            }
        })
        .map_err(|e| format!("cannot start the guest thread: {e}"))?;
    let _ = handle.join();
    // The main guest thread left through thread_exit; other threads end the process.
    loop {
        std::thread::park();
    }
}

fn clear_flag(p: &Instance, flag: u32) {
    if flag != 0
        && let Ok(word) = p.memory.atomic_u32(flag)
    {
        word.store(0, Ordering::Release);
    }
}

/// IRT `thread_create`: starts `function` (a guest function of type `void ()`) on a new
/// thread with guest stack top `stack` and thread pointer `tp`.
///
/// # Safety
/// `vmctx` must be the calling guest thread's context.
pub(crate) unsafe fn create(vmctx: *mut VmCtx, function: u32, stack: u32, tp: u32) -> Result<(), Errno> {
    let p = instance::get().expect("guest code runs in a process");
    let code = p.guest_function(function, Ty::Void, &[]).ok_or(Errno::EINVAL)?;
    // From now on atomics must be real ones. The caller is the only thread that could be
    // running translated code with the flag clear, and it is here, outside it.
    // SAFETY: per the contract.
    unsafe { (*vmctx).threads_started = 1 };
    p.threads.fetch_add(1, Ordering::AcqRel);
    let start = GuestStart { code, arg: None, sp: stack & !15, tp, threads_started: 1 };
    let spawned = std::thread::Builder::new().name("pnacl-guest".into()).stack_size(THREAD_HOST_STACK).spawn(
        move || match enter(p, &start, memory::NULL_PAGE_END) {
            // Returning from a thread function is undefined; it ends the thread.
            Ok(Ended::Returned) => ended(p),
            Ok(Ended::Exited(flag)) => {
                clear_flag(p, flag);
                ended(p);
            }
            Err(e) => {
                let _ = writeln!(std::io::stderr(), "pnacl: {e}");
                p.exit(EXIT_LOAD_ERROR);
            }
        },
    );
    match spawned {
        Ok(_) => Ok(()),
        Err(_) => {
            p.threads.fetch_sub(1, Ordering::AcqRel);
            Err(Errno::EAGAIN)
        }
    }
}

/// IRT `thread_exit`: leaves guest code for good; `stack_flag` is cleared once the
/// thread's guest stack is no longer in use.
///
/// # Safety
/// `vmctx` must be the calling guest thread's context. Nothing on the host stack between
/// the trampoline and here may need dropping.
pub(crate) unsafe fn exit(vmctx: *mut VmCtx, stack_flag: u32) -> ! {
    // SAFETY: per the contract.
    let t = unsafe { thread_of(vmctx) };
    t.stack_flag = stack_flag;
    // SAFETY: the buffer was set by this thread's trampoline, whose frame is live.
    unsafe { longjmp(&mut t.exit_buf, THREAD_EXIT) }
}
