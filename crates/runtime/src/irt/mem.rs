//! `nacl-irt-memory-0.3`: `mmap`, `munmap` and `mprotect` over the guest heap region.

use super::access::{host, instance, memory};
use crate::errno::{Errno, IrtResult, ret};
use crate::memory::{PROT_READ, PROT_WRITE};
use pnacl_codegen::abi::VmCtx;
use pnacl_codegen::abi::memory::PAGE;

const MAP_SHARED: i32 = 0x01;
const MAP_PRIVATE: i32 = 0x02;
const MAP_FIXED: i32 = 0x10;
const MAP_ANONYMOUS: i32 = 0x20;

/// `int mmap(void **addr, size_t len, int prot, int flags, int fd, off_t off)`. `*addr` is
/// the hint going in and the address coming out. File mappings are private copies.
pub(super) extern "C" fn mmap(
    _vmctx: *mut VmCtx,
    addr: u32,
    len: u32,
    prot: i32,
    flags: i32,
    fd: i32,
    off: i64,
) -> i32 {
    ret((|| -> IrtResult {
        let m = memory();
        let hint = m.read_u32(addr)?;
        let sharing = flags & (MAP_SHARED | MAP_PRIVATE);
        if sharing != MAP_SHARED && sharing != MAP_PRIVATE {
            return Err(Errno::EINVAL);
        }
        let fixed = flags & MAP_FIXED != 0;
        let at = if flags & MAP_ANONYMOUS != 0 {
            m.mmap(hint, len, prot, fixed)?
        } else {
            if sharing == MAP_SHARED && prot & PROT_WRITE != 0 {
                // Writes would have to reach the file; only private copies are offered.
                return Err(Errno::EINVAL);
            }
            if off < 0 || off % i64::from(PAGE) != 0 {
                return Err(Errno::EINVAL);
            }
            let d = instance().files.get(fd)?;
            let at = m.mmap(hint, len, PROT_READ | PROT_WRITE, fixed)?;
            let dst = m.span(at, len)?;
            let mut done = 0usize;
            while done < len as usize {
                // SAFETY: the range was just mapped writable.
                let n =
                    host(|| unsafe { libc::pread(d.fd, dst.add(done).cast(), len as usize - done, off + done as i64) });
                match n {
                    Ok(0) => break,
                    Ok(n) => done += n as usize,
                    Err(e) => {
                        let _ = m.munmap(at, len);
                        return Err(e);
                    }
                }
            }
            if prot & (PROT_READ | PROT_WRITE) != PROT_READ | PROT_WRITE {
                m.mprotect(at, len, prot)?;
            }
            at
        };
        m.write_u32(addr, at)
    })())
}

/// `int munmap(void *addr, size_t len)`.
pub(super) extern "C" fn munmap(_vmctx: *mut VmCtx, addr: u32, len: u32) -> i32 {
    ret(memory().munmap(addr, len))
}

/// `int mprotect(void *addr, size_t len, int prot)`.
pub(super) extern "C" fn mprotect(_vmctx: *mut VmCtx, addr: u32, len: u32, prot: i32) -> i32 {
    ret(memory().mprotect(addr, len, prot))
}
