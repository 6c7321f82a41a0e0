//! What the IRT functions share: the instance, guest memory, guest `struct timespec`s and
//! retried host calls.

use crate::errno::{Errno, IrtResult};
use crate::instance::{self, Instance};
use crate::memory::GuestMemory;

pub(super) fn instance() -> &'static Instance {
    instance::get().expect("guest code runs in a process")
}

pub(super) fn memory() -> &'static GuestMemory {
    &instance().memory
}

/// Writes `v` to the guest `i32`/`u32` at `addr`.
pub(super) fn put_u32(addr: u32, v: u32) -> IrtResult {
    memory().write_u32(addr, v)
}

/// Writes a guest `struct timespec` / `struct timeval` (an `i64` and an `i32`, padded).
pub(super) fn put_time(addr: u32, sec: i64, frac: i64) -> IrtResult {
    let mut b = [0u8; 16];
    b[..8].copy_from_slice(&sec.to_le_bytes());
    b[8..12].copy_from_slice(&(frac as i32).to_le_bytes());
    memory().write(addr, &b)
}

/// Reads a guest `struct timespec`.
pub(super) fn get_timespec(addr: u32) -> Result<libc::timespec, Errno> {
    let mut b = [0u8; 12];
    memory().read(addr, &mut b)?;
    let sec = i64::from_le_bytes(b[..8].try_into().expect("8 bytes"));
    let nsec = i32::from_le_bytes(b[8..].try_into().expect("4 bytes"));
    if !(0..1_000_000_000).contains(&nsec) || sec < 0 {
        return Err(Errno::EINVAL);
    }
    Ok(libc::timespec { tv_sec: sec as libc::time_t, tv_nsec: libc::c_long::from(nsec) })
}

/// Retries a host call while it is interrupted; a negative result is the host errno.
pub(super) fn host(mut f: impl FnMut() -> isize) -> Result<isize, Errno> {
    loop {
        let r = f();
        if r >= 0 {
            return Ok(r);
        }
        let e = Errno::last();
        if e != Errno::EINTR {
            return Err(e);
        }
    }
}
