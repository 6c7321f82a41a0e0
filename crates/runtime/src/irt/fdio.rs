//! `nacl-irt-fdio-0.1` and `nacl-irt-dev-fdio-0.1/0.2/0.3`: file descriptor I/O.
//!
//! Buffers are handed to the host system calls at their place in guest memory (checked to
//! lie in the guest space); the kernel reports unmapped guest pages as `EFAULT`.

use super::access::{host, instance, memory, put_u32};
use crate::errno::{Errno, IrtResult, ret};
use crate::output;
use pnacl_codegen::abi::VmCtx;
use std::os::fd::{FromRawFd, OwnedFd};

/// `int close(int fd)`.
pub(super) extern "C" fn close(_vmctx: *mut VmCtx, fd: i32) -> i32 {
    ret(instance().files.close(fd))
}

/// `int dup(int fd, int *newfd)`.
pub(super) extern "C" fn dup(_vmctx: *mut VmCtx, fd: i32, newfd: u32) -> i32 {
    ret((|| -> IrtResult {
        let files = &instance().files;
        let d = files.get(fd)?;
        // SAFETY: duplicates a descriptor we hold.
        let new = host(|| unsafe { libc::fcntl(d.fd, libc::F_DUPFD_CLOEXEC, 0) } as isize)?;
        // SAFETY: a new descriptor we own.
        let n = files.insert(unsafe { OwnedFd::from_raw_fd(new as i32) }, d.path.clone())?;
        put_u32(newfd, n as u32)
    })())
}

/// `int dup2(int fd, int newfd)`.
pub(super) extern "C" fn dup2(_vmctx: *mut VmCtx, fd: i32, newfd: i32) -> i32 {
    ret(instance().files.dup2(fd, newfd))
}

/// `int read(int fd, void *buf, size_t count, size_t *nread)`.
pub(super) extern "C" fn read(_vmctx: *mut VmCtx, fd: i32, buf: u32, count: u32, nread: u32) -> i32 {
    ret((|| -> IrtResult {
        let d = instance().files.get(fd)?;
        let dst = memory().span(buf, count)?;
        // SAFETY: the range lies in the guest space.
        let n = host(|| unsafe { libc::read(d.fd, dst.cast(), count as usize) })?;
        put_u32(nread, n as u32)
    })())
}

/// `int write(int fd, const void *buf, size_t count, size_t *nwrote)`.
pub(super) extern "C" fn write(_vmctx: *mut VmCtx, fd: i32, buf: u32, count: u32, nwrote: u32) -> i32 {
    ret((|| -> IrtResult {
        let files = &instance().files;
        if let Some(out) = output::stdout()
            && files.is_host_stdout(fd)
        {
            let n = out.write(memory().slice(buf, count)?)?;
            return put_u32(nwrote, n as u32);
        }
        let d = files.peek(fd)?;
        output::sync();
        let src = memory().span(buf, count)?;
        // SAFETY: the range lies in the guest space.
        let n = match host(|| unsafe { libc::write(d.fd, src.cast(), count as usize) }) {
            Err(Errno::EPIPE) => output::broken_pipe(),
            r => r?,
        };
        put_u32(nwrote, n as u32)
    })())
}

/// `int seek(int fd, off_t offset, int whence, off_t *new_offset)`.
pub(super) extern "C" fn seek(_vmctx: *mut VmCtx, fd: i32, offset: i64, whence: i32, new_offset: u32) -> i32 {
    ret((|| -> IrtResult {
        let d = instance().files.get(fd)?;
        let whence = match whence {
            0 => libc::SEEK_SET,
            1 => libc::SEEK_CUR,
            2 => libc::SEEK_END,
            _ => return Err(Errno::EINVAL),
        };
        // SAFETY: plain system call.
        let at = unsafe { libc::lseek(d.fd, offset, whence) };
        if at < 0 {
            return Err(Errno::last());
        }
        memory().write_u64(new_offset, at as u64)
    })())
}

/// NaCl `st_mode` file-type bits.
fn nacl_mode(mode: u32) -> u32 {
    let kind = match mode & libc::S_IFMT {
        libc::S_IFSOCK => 0o140000,
        libc::S_IFLNK => 0o120000,
        libc::S_IFREG => 0o100000,
        libc::S_IFBLK => 0o060000,
        libc::S_IFDIR => 0o040000,
        libc::S_IFCHR => 0o020000,
        libc::S_IFIFO => 0o010000,
        _ => 0,
    };
    kind | (mode & 0o7777)
}

/// Writes a host `stat` as a guest `struct stat` (`nacl_abi_stat`, 104 bytes).
// The host field types vary between targets; the casts say what the guest layout wants.
#[allow(clippy::unnecessary_cast)]
pub(super) fn put_stat(addr: u32, st: &libc::stat) -> IrtResult {
    let mut b = [0u8; 104];
    let mut put = |off: usize, bytes: &[u8]| b[off..off + bytes.len()].copy_from_slice(bytes);
    put(0, &(st.st_dev as i64).to_le_bytes());
    put(8, &(st.st_ino as u64).to_le_bytes());
    put(16, &nacl_mode(st.st_mode).to_le_bytes());
    put(20, &(st.st_nlink as u32).to_le_bytes());
    put(24, &st.st_uid.to_le_bytes());
    put(28, &st.st_gid.to_le_bytes());
    put(32, &(st.st_rdev as i64).to_le_bytes());
    put(40, &(st.st_size as i64).to_le_bytes());
    put(48, &(st.st_blksize as i32).to_le_bytes());
    put(52, &(st.st_blocks as i32).to_le_bytes());
    put(56, &(st.st_atime as i64).to_le_bytes());
    put(64, &(st.st_atime_nsec as i64).to_le_bytes());
    put(72, &(st.st_mtime as i64).to_le_bytes());
    put(80, &(st.st_mtime_nsec as i64).to_le_bytes());
    put(88, &(st.st_ctime as i64).to_le_bytes());
    put(96, &(st.st_ctime_nsec as i64).to_le_bytes());
    memory().write(addr, &b)
}

/// `fstat` of a host descriptor.
pub(super) fn host_fstat(fd: i32) -> Result<libc::stat, Errno> {
    // SAFETY: stat is plain data, filled by the call.
    let mut st: libc::stat = unsafe { std::mem::zeroed() };
    if unsafe { libc::fstat(fd, &mut st) } != 0 {
        return Err(Errno::last());
    }
    Ok(st)
}

/// `int fstat(int fd, struct stat *st)`.
pub(super) extern "C" fn fstat(_vmctx: *mut VmCtx, fd: i32, st: u32) -> i32 {
    ret((|| -> IrtResult {
        let d = instance().files.get(fd)?;
        put_stat(st, &host_fstat(d.fd)?)
    })())
}

/// `int getdents(int fd, struct dirent *d, size_t count, size_t *nread)`: entries in the
/// `nacl_abi_dirent` layout (`d_ino` u64, `d_off` i64, `d_reclen` u16, `d_name`).
pub(super) extern "C" fn getdents(_vmctx: *mut VmCtx, fd: i32, buf: u32, count: u32, nread: u32) -> i32 {
    ret((|| -> IrtResult {
        let d = instance().files.get(fd)?;
        // Host entries are never smaller than guest ones (19-byte header against 18), so
        // a host buffer of `count` bytes converts into at most `count` guest bytes.
        let mut raw = vec![0u8; count.min(1 << 20) as usize];
        // SAFETY: a buffer of the given size.
        let n = host(|| unsafe { libc::syscall(libc::SYS_getdents64, d.fd, raw.as_mut_ptr(), raw.len()) } as isize)?;
        let mut out = Vec::with_capacity(n as usize);
        let mut at = 0usize;
        while at + 19 <= n as usize {
            let reclen = u16::from_le_bytes([raw[at + 16], raw[at + 17]]) as usize;
            if reclen < 19 || at + reclen > n as usize {
                break;
            }
            let name_bytes = &raw[at + 19..at + reclen];
            let name = &name_bytes[..name_bytes.iter().position(|&b| b == 0).unwrap_or(name_bytes.len())];
            let len = (18 + name.len() + 1).div_ceil(8) * 8;
            let start = out.len();
            out.extend_from_slice(&raw[at..at + 16]);
            out.extend_from_slice(&(len as u16).to_le_bytes());
            out.extend_from_slice(name);
            out.resize(start + len, 0);
            at += reclen;
        }
        memory().write(buf, &out)?;
        put_u32(nread, out.len() as u32)
    })())
}

/// `int fchdir(int fd)`.
pub(super) extern "C" fn fchdir(_vmctx: *mut VmCtx, fd: i32) -> i32 {
    ret((|| -> IrtResult {
        let files = &instance().files;
        let path = files.get(fd)?.path.clone().ok_or(Errno::ENOTDIR)?;
        files.set_cwd(path);
        Ok(())
    })())
}

fn on_fd(fd: i32, f: impl Fn(i32) -> libc::c_int) -> IrtResult {
    let d = instance().files.get(fd)?;
    host(|| f(d.fd) as isize).map(|_| ())
}

/// `int fchmod(int fd, mode_t mode)`.
pub(super) extern "C" fn fchmod(_vmctx: *mut VmCtx, fd: i32, mode: u32) -> i32 {
    // SAFETY: plain system call.
    ret(on_fd(fd, |h| unsafe { libc::fchmod(h, mode & 0o7777) }))
}

/// `int fsync(int fd)`.
pub(super) extern "C" fn fsync(_vmctx: *mut VmCtx, fd: i32) -> i32 {
    // SAFETY: plain system call.
    ret(on_fd(fd, |h| unsafe { libc::fsync(h) }))
}

/// `int fdatasync(int fd)`.
pub(super) extern "C" fn fdatasync(_vmctx: *mut VmCtx, fd: i32) -> i32 {
    // SAFETY: plain system call.
    ret(on_fd(fd, |h| unsafe { libc::fdatasync(h) }))
}

/// `int ftruncate(int fd, off_t length)`.
pub(super) extern "C" fn ftruncate(_vmctx: *mut VmCtx, fd: i32, length: i64) -> i32 {
    // SAFETY: plain system call.
    ret(on_fd(fd, |h| unsafe { libc::ftruncate(h, length) }))
}

/// `int isatty(int fd, int *result)`.
pub(super) extern "C" fn isatty(_vmctx: *mut VmCtx, fd: i32, result: u32) -> i32 {
    ret((|| -> IrtResult {
        let d = instance().files.get(fd)?;
        // SAFETY: plain system call.
        let tty = unsafe { libc::isatty(d.fd) } == 1;
        put_u32(result, u32::from(tty))
    })())
}
