//! Traps: turning the faults of guest code into a one-line message and [`EXIT_TRAP`].
//!
//! Translated code traps by faulting: an access to an unmapped guest page (`SIGSEGV`), a
//! hardware division by zero (`SIGFPE`), or an explicit trap instruction (`SIGILL`). The
//! handler runs on an alternate stack (so host stack exhaustion is handled too), looks the
//! faulting instruction up in the translation's trap table, names the function from the
//! code map, walks the guest frames for a backtrace ([`crate::backtrace`]), and ends the
//! process. Host code acting for the guest (the memory intrinsics)
//! faults with a guest address; the thread context says which function it served. Any
//! other fault is not the guest's: the previous handler gets it.

use crate::backtrace::{self, Frames};
use crate::instance::{self, Instance};
use crate::status::EXIT_TRAP;
use pnacl_codegen::abi::{TrapKind, VmCtx};
use std::cell::Cell;
use std::sync::OnceLock;

thread_local! {
    /// The context of the guest thread running on this host thread (null elsewhere).
    static CURRENT: Cell<*mut VmCtx> = const { Cell::new(std::ptr::null_mut()) };
}

/// Records the guest context of the calling host thread.
pub(crate) fn set_current(vmctx: *mut VmCtx) {
    CURRENT.with(|c| c.set(vmctx));
}

const SIGNALS: [libc::c_int; 4] = [libc::SIGSEGV, libc::SIGBUS, libc::SIGILL, libc::SIGFPE];

/// The handlers that were there before ours, by index in [`SIGNALS`].
static PREVIOUS: OnceLock<[libc::sigaction; 4]> = OnceLock::new();

/// Installs the trap handler (once per process).
pub(crate) fn install() -> Result<(), String> {
    let mut previous = [unsafe_zeroed_sigaction(); 4];
    for (i, &sig) in SIGNALS.iter().enumerate() {
        let mut action = unsafe_zeroed_sigaction();
        action.sa_sigaction = handler as *const () as usize;
        action.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK | libc::SA_NODEFER;
        // SAFETY: installing a handler with a valid action struct.
        let rc = unsafe {
            libc::sigemptyset(&mut action.sa_mask);
            libc::sigaction(sig, &action, &mut previous[i])
        };
        if rc != 0 {
            return Err(format!("cannot install the trap handler: {}", std::io::Error::last_os_error()));
        }
    }
    let _ = PREVIOUS.set(previous);
    Ok(())
}

fn unsafe_zeroed_sigaction() -> libc::sigaction {
    // SAFETY: sigaction is plain data; all zeros is a valid (default) action.
    unsafe { std::mem::zeroed() }
}

/// An alternate signal stack for the calling thread, removed when dropped.
pub(crate) struct AltStack {
    ptr: *mut libc::c_void,
    len: usize,
}

const ALT_STACK_SIZE: usize = 256 << 10;

impl AltStack {
    /// Gives the calling thread an alternate signal stack.
    pub fn install() -> Result<AltStack, String> {
        let page = 4096;
        let len = ALT_STACK_SIZE + page;
        // SAFETY: a fresh private mapping; its lowest page becomes a guard.
        let ptr = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if ptr == libc::MAP_FAILED {
            return Err(format!("cannot map a signal stack: {}", std::io::Error::last_os_error()));
        }
        // SAFETY: the mapping made above.
        unsafe { libc::mprotect(ptr, page, libc::PROT_NONE) };
        let stack = libc::stack_t {
            // SAFETY: inside the mapping.
            ss_sp: unsafe { ptr.cast::<u8>().add(page) }.cast(),
            ss_flags: 0,
            ss_size: ALT_STACK_SIZE,
        };
        // SAFETY: the stack is valid for as long as this value lives.
        if unsafe { libc::sigaltstack(&stack, std::ptr::null_mut()) } != 0 {
            return Err(format!("cannot install a signal stack: {}", std::io::Error::last_os_error()));
        }
        Ok(AltStack { ptr, len })
    }
}

impl Drop for AltStack {
    fn drop(&mut self) {
        let off = libc::stack_t { ss_sp: std::ptr::null_mut(), ss_flags: libc::SS_DISABLE, ss_size: 0 };
        // SAFETY: disables the stack before unmapping it.
        unsafe {
            libc::sigaltstack(&off, std::ptr::null_mut());
            libc::munmap(self.ptr, self.len);
        }
    }
}

/// The interrupted thread's program counter, frame pointer and stack pointer.
#[cfg(all(target_os = "linux", target_arch = "x86_64"))]
fn context_registers(uctx: *mut libc::c_void) -> (u64, u64, u64) {
    // SAFETY: the kernel passes a valid ucontext to an SA_SIGINFO handler.
    let gregs = unsafe { &(*uctx.cast::<libc::ucontext_t>()).uc_mcontext.gregs };
    let reg = |r: libc::c_int| gregs[r as usize] as u64;
    (reg(libc::REG_RIP), reg(libc::REG_RBP), reg(libc::REG_RSP))
}

/// The interrupted thread's program counter, frame pointer and stack pointer.
#[cfg(all(target_os = "linux", target_arch = "aarch64"))]
fn context_registers(uctx: *mut libc::c_void) -> (u64, u64, u64) {
    // SAFETY: the kernel passes a valid ucontext to an SA_SIGINFO handler.
    let m = unsafe { &(*uctx.cast::<libc::ucontext_t>()).uc_mcontext };
    (m.pc, m.regs[29], m.sp)
}

extern "C" fn handler(sig: libc::c_int, info: *mut libc::siginfo_t, uctx: *mut libc::c_void) {
    let Some(p) = instance::get() else { return chain(sig) };
    let (pc, fp, sp) = context_registers(uctx);
    let memory_fault = sig == libc::SIGSEGV || sig == libc::SIGBUS;
    // SAFETY: the kernel passes a valid siginfo.
    let address = if memory_fault { unsafe { (*info).si_addr() as u64 } } else { 0 };
    let vmctx = CURRENT.with(|c| c.get());
    let trap = if p.translation.code.contains(pc) {
        let kind = p.translation.trap_at(pc).or(if memory_fault && p.memory.contains_host(address) {
            Some(TrapKind::MemoryOutOfBounds)
        } else {
            None
        });
        kind.map(|k| (k, p.code_map.function_at(pc), Some(backtrace::walk(&p.code_map, pc, fp, sp))))
    } else if memory_fault && p.memory.contains_host(address) && !vmctx.is_null() {
        // SAFETY: the context of the guest thread on this host thread, alive while it runs.
        let caller = unsafe { (*vmctx).host_caller };
        Some((TrapKind::MemoryOutOfBounds, Some(caller), None))
    } else {
        None
    };
    match trap {
        Some((TrapKind::MemoryOutOfBounds, function, frames)) if p.memory.is_read_only_host(address) => {
            report(p, TrapKind::ReadOnlyMemory, function, frames.as_ref())
        }
        Some((kind, function, frames)) => report(p, kind, function, frames.as_ref()),
        None => chain(sig),
    }
}

/// Hands a fault that is not the guest's to the handler that was there before: restores it
/// and returns, so the faulting instruction runs again under it.
fn chain(sig: libc::c_int) {
    if let (Some(previous), Some(i)) = (PREVIOUS.get(), SIGNALS.iter().position(|&s| s == sig)) {
        // SAFETY: reinstalls an action the system gave us.
        unsafe { libc::sigaction(sig, &previous[i], std::ptr::null_mut()) };
    } else {
        // SAFETY: resets to the default action.
        unsafe { libc::signal(sig, libc::SIG_DFL) };
    }
}

fn write_stderr(bytes: &[u8]) {
    let mut rest = bytes;
    while !rest.is_empty() {
        // SAFETY: writes a valid buffer to fd 2.
        let n = unsafe { libc::write(2, rest.as_ptr().cast(), rest.len()) };
        if n <= 0 {
            return;
        }
        rest = &rest[n as usize..];
    }
}

/// Ends the process for a trap: `pnacl: trap: MESSAGE in function NAME`, then the
/// backtrace of guest functions, if one was walked. Only async-signal-safe calls: it runs in
/// the signal handler.
pub(crate) fn report(p: &Instance, kind: TrapKind, function: Option<u32>, frames: Option<&Frames>) -> ! {
    if p.claim_exit() {
        crate::output::sync_from_signal();
        let mut out = |b: &[u8]| write_stderr(b);
        out(b"pnacl: trap: ");
        out(kind.describe().as_bytes());
        if let Some(name) = function.and_then(|f| p.names.get(f as usize)) {
            out(b" in function ");
            backtrace::write_name(&mut out, name);
        }
        out(b"\n");
        if let Some(frames) = frames {
            backtrace::write(&mut out, frames, &p.names);
        }
        // SAFETY: ends the process at once.
        unsafe { libc::_exit(EXIT_TRAP) }
    }
    loop {
        // Another thread is ending the process.
        // SAFETY: waits for a signal; the exiting thread's _exit ends this one.
        unsafe { libc::pause() };
    }
}

/// A trap raised by host code on behalf of the guest function recorded in `vmctx`.
pub(crate) fn host_trap(vmctx: *const VmCtx, kind: TrapKind) -> ! {
    let p = instance::get().expect("guest code runs in a process");
    // SAFETY: the caller's live thread context.
    let caller = unsafe { (*vmctx).host_caller };
    report(p, kind, Some(caller), None)
}
