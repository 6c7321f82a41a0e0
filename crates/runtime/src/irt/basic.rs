//! `nacl-irt-basic-0.1`, `nacl-irt-tls-0.1`, `nacl-irt-clock_get-0.1`,
//! `nacl-irt-random-0.1`, `nacl-irt-dev-getpid-0.1` and pnacl's `pnacl-irt-signal-0.1`.

use super::access::{get_timespec, host, instance, memory, put_time, put_u32};
use crate::errno::{Errno, IrtResult, ret};
use pnacl_codegen::abi::{VmCtx, memory::PAGE};

/// `void exit(int status)`: ends the whole process.
pub(super) extern "C" fn exit(_vmctx: *mut VmCtx, status: i32) {
    instance().exit(status)
}

fn host_clock(clock: libc::clockid_t) -> libc::timespec {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: writes the struct given.
    unsafe { libc::clock_gettime(clock, &mut ts) };
    ts
}

/// `int gettod(struct timeval *tv)`.
pub(super) extern "C" fn gettod(_vmctx: *mut VmCtx, tv: u32) -> i32 {
    let ts = host_clock(libc::CLOCK_REALTIME);
    ret(put_time(tv, ts.tv_sec, ts.tv_nsec / 1000))
}

/// NaCl's `CLOCKS_PER_SEC`.
const CLOCKS_PER_SEC: i64 = 1_000_000;

/// `int clock(nacl_irt_clock_t *ticks)`: processor time.
pub(super) extern "C" fn clock(_vmctx: *mut VmCtx, ticks: u32) -> i32 {
    let ts = host_clock(libc::CLOCK_PROCESS_CPUTIME_ID);
    let t = ts.tv_sec * CLOCKS_PER_SEC + ts.tv_nsec / (1_000_000_000 / CLOCKS_PER_SEC);
    ret(put_u32(ticks, t as u32))
}

/// `int nanosleep(const struct timespec *req, struct timespec *rem)`.
pub(super) extern "C" fn nanosleep(_vmctx: *mut VmCtx, req: u32, rem: u32) -> i32 {
    ret((|| {
        let t = get_timespec(req)?;
        let mut left = libc::timespec { tv_sec: 0, tv_nsec: 0 };
        // SAFETY: valid structs.
        if unsafe { libc::nanosleep(&t, &mut left) } != 0 {
            let e = Errno::last();
            if rem != 0 {
                put_time(rem, left.tv_sec, left.tv_nsec)?;
            }
            return Err(e);
        }
        Ok(())
    })())
}

/// `int sched_yield(void)`.
pub(super) extern "C" fn sched_yield(_vmctx: *mut VmCtx) -> i32 {
    // SAFETY: no arguments.
    unsafe { libc::sched_yield() };
    0
}

/// `sysconf` names.
const SC_NPROCESSORS_ONLN: i32 = 1;
const SC_PAGESIZE: i32 = 2;
const SC_NACL_FILE_ACCESS_ENABLED: i32 = 1 << 24;
const SC_NACL_LIST_MAPPINGS_ENABLED: i32 = (1 << 24) + 1;
const SC_NACL_PNACL_MODE: i32 = (1 << 24) + 2;

/// `int sysconf(int name, int *value)`.
pub(super) extern "C" fn sysconf(_vmctx: *mut VmCtx, name: i32, value: u32) -> i32 {
    let v = match name {
        SC_NPROCESSORS_ONLN => std::thread::available_parallelism().map_or(1, |n| n.get() as u32),
        SC_PAGESIZE => PAGE,
        SC_NACL_FILE_ACCESS_ENABLED => u32::from(instance().files.has_mounts()),
        SC_NACL_LIST_MAPPINGS_ENABLED => 0,
        SC_NACL_PNACL_MODE => 1,
        _ => return Errno::EINVAL.0,
    };
    ret(put_u32(value, v))
}

/// `int tls_init(void *thread_ptr)`.
pub(super) extern "C" fn tls_init(vmctx: *mut VmCtx, tp: u32) -> i32 {
    // SAFETY: the calling thread's context.
    unsafe { (*vmctx).tp = tp };
    0
}

/// `void *tls_get(void)`: the same thread pointer `llvm.nacl.read.tp` returns.
pub(super) extern "C" fn tls_get(vmctx: *mut VmCtx) -> u32 {
    // SAFETY: the calling thread's context.
    unsafe { (*vmctx).tp }
}

fn clock_id(id: i32) -> Result<libc::clockid_t, Errno> {
    Ok(match id {
        0 => libc::CLOCK_REALTIME,
        1 => libc::CLOCK_MONOTONIC,
        2 => libc::CLOCK_PROCESS_CPUTIME_ID,
        3 => libc::CLOCK_THREAD_CPUTIME_ID,
        _ => return Err(Errno::EINVAL),
    })
}

/// `int clock_getres(nacl_irt_clockid_t id, struct timespec *res)`; `res` may be NULL.
pub(super) extern "C" fn clock_getres(_vmctx: *mut VmCtx, id: i32, res: u32) -> i32 {
    ret((|| -> IrtResult {
        let clock = clock_id(id)?;
        let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
        // SAFETY: writes the struct given.
        unsafe { libc::clock_getres(clock, &mut ts) };
        if res != 0 { put_time(res, ts.tv_sec, ts.tv_nsec) } else { Ok(()) }
    })())
}

/// `int clock_gettime(nacl_irt_clockid_t id, struct timespec *tp)`.
pub(super) extern "C" fn clock_gettime(_vmctx: *mut VmCtx, id: i32, tp: u32) -> i32 {
    ret((|| -> IrtResult {
        let ts = host_clock(clock_id(id)?);
        put_time(tp, ts.tv_sec, ts.tv_nsec)
    })())
}

/// `int get_random_bytes(void *buf, size_t count, size_t *nread)`.
pub(super) extern "C" fn get_random_bytes(_vmctx: *mut VmCtx, buf: u32, count: u32, nread: u32) -> i32 {
    ret((|| -> IrtResult {
        let dst = memory().span(buf, count)?;
        // SAFETY: the range lies in the guest space; the kernel reports unmapped pages.
        let n = host(|| unsafe { libc::getrandom(dst.cast(), count as usize, 0) })?;
        put_u32(nread, n as u32)
    })())
}

/// `int getpid(int *pid)`.
pub(super) extern "C" fn getpid(_vmctx: *mut VmCtx, pid: u32) -> i32 {
    // SAFETY: no arguments.
    ret(put_u32(pid, unsafe { libc::getpid() } as u32))
}

/// `int kill_self(int sig)` (`pnacl-irt-signal-0.1`, pnacl's own): ends the process as
/// the signal `sig` (Linux's numbering) ends a native program that leaves it at its
/// default action, for the signals whose default action is to end the process; EINVAL
/// for any other.
pub(super) extern "C" fn kill_self(_vmctx: *mut VmCtx, sig: i32) -> i32 {
    const ENDING: &[i32] = &[
        libc::SIGHUP,
        libc::SIGINT,
        libc::SIGQUIT,
        libc::SIGILL,
        libc::SIGTRAP,
        libc::SIGABRT,
        libc::SIGBUS,
        libc::SIGFPE,
        libc::SIGKILL,
        libc::SIGUSR1,
        libc::SIGSEGV,
        libc::SIGUSR2,
        libc::SIGPIPE,
        libc::SIGALRM,
        libc::SIGTERM,
        libc::SIGSTKFLT,
        libc::SIGXCPU,
        libc::SIGXFSZ,
        libc::SIGVTALRM,
        libc::SIGPROF,
        libc::SIGIO,
        libc::SIGPWR,
        libc::SIGSYS,
    ];
    if !ENDING.contains(&sig) {
        return Errno::EINVAL.0;
    }
    instance().exit_by_signal(sig)
}
