//! `nacl-irt-filename-0.1` and `nacl-irt-dev-filename-0.2/0.3`: operations on paths,
//! confined to the `--dir` directories (see [`crate::fs`]).

use super::access::{host, instance, memory, put_u32};
use super::fdio::{host_fstat, put_stat};
use crate::errno::{Errno, IrtResult, ret};
use crate::fs::{Resolved, proc_path};
use pnacl_codegen::abi::VmCtx;
use std::os::fd::AsRawFd;

/// Longest guest path accepted.
const PATH_MAX: usize = 4096;

fn resolve(path: u32) -> Result<Resolved, Errno> {
    let bytes = memory().read_cstr(path, PATH_MAX)?;
    instance().files.resolve(&bytes)
}

/// NaCl open flags to host ones.
fn open_flags(flags: i32) -> Result<i32, Errno> {
    let mut host = match flags & 3 {
        0 => libc::O_RDONLY,
        1 => libc::O_WRONLY,
        2 => libc::O_RDWR,
        _ => return Err(Errno::EINVAL),
    };
    for (nacl, h) in [
        (0o100, libc::O_CREAT),
        (0o200, libc::O_EXCL),
        (0o1000, libc::O_TRUNC),
        (0o2000, libc::O_APPEND),
        (0o4000, libc::O_NONBLOCK),
        (0o10000, libc::O_SYNC),
        (0o200000, libc::O_DIRECTORY),
    ] {
        if flags & nacl != 0 {
            host |= h;
        }
    }
    Ok(host)
}

/// `int open(const char *path, int oflag, mode_t cmode, int *newfd)`.
pub(super) extern "C" fn open(_vmctx: *mut VmCtx, path: u32, flags: i32, mode: u32, newfd: u32) -> i32 {
    ret((|| -> IrtResult {
        let r = resolve(path)?;
        let fd = r.open(open_flags(flags)?, mode)?;
        let is_dir = host_fstat(fd.as_raw_fd())?.st_mode & libc::S_IFMT == libc::S_IFDIR;
        let n = instance().files.insert(fd, is_dir.then(|| r.guest.clone()))?;
        put_u32(newfd, n as u32)
    })())
}

fn stat_path(path: u32, st: u32, nofollow: bool) -> IrtResult {
    let fd = resolve(path)?.path_fd(nofollow)?;
    put_stat(st, &host_fstat(fd.as_raw_fd())?)
}

/// `int stat(const char *path, struct stat *st)`.
pub(super) extern "C" fn stat(_vmctx: *mut VmCtx, path: u32, st: u32) -> i32 {
    ret(stat_path(path, st, false))
}

/// `int lstat(const char *path, struct stat *st)`.
pub(super) extern "C" fn lstat(_vmctx: *mut VmCtx, path: u32, st: u32) -> i32 {
    ret(stat_path(path, st, true))
}

/// Runs `f(parent directory, last component)` for the path.
fn on_name(path: u32, f: impl Fn(i32, &std::ffi::CStr) -> libc::c_int) -> IrtResult {
    let (dir, name) = resolve(path)?.parent()?;
    host(|| f(dir.as_raw_fd(), &name) as isize).map(|_| ())
}

/// `int mkdir(const char *path, mode_t mode)`.
pub(super) extern "C" fn mkdir(_vmctx: *mut VmCtx, path: u32, mode: u32) -> i32 {
    // SAFETY: a directory descriptor and a NUL-terminated name.
    ret(on_name(path, |d, n| unsafe { libc::mkdirat(d, n.as_ptr(), mode & 0o7777) }))
}

/// `int rmdir(const char *path)`.
pub(super) extern "C" fn rmdir(_vmctx: *mut VmCtx, path: u32) -> i32 {
    // SAFETY: as above.
    ret(on_name(path, |d, n| unsafe { libc::unlinkat(d, n.as_ptr(), libc::AT_REMOVEDIR) }))
}

/// `int unlink(const char *path)`.
pub(super) extern "C" fn unlink(_vmctx: *mut VmCtx, path: u32) -> i32 {
    // SAFETY: as above.
    ret(on_name(path, |d, n| unsafe { libc::unlinkat(d, n.as_ptr(), 0) }))
}

/// `int chdir(const char *path)`.
pub(super) extern "C" fn chdir(_vmctx: *mut VmCtx, path: u32) -> i32 {
    ret((|| -> IrtResult {
        let r = resolve(path)?;
        r.open(libc::O_PATH | libc::O_DIRECTORY, 0)?;
        instance().files.set_cwd(r.guest);
        Ok(())
    })())
}

/// `int getcwd(char *buf, size_t len)`.
pub(super) extern "C" fn getcwd(_vmctx: *mut VmCtx, buf: u32, len: u32) -> i32 {
    ret((|| -> IrtResult {
        let mut cwd = instance().files.cwd().into_bytes();
        cwd.push(0);
        if cwd.len() > len as usize {
            return Err(Errno::ERANGE);
        }
        memory().write(buf, &cwd)
    })())
}

/// `int truncate(const char *path, off_t length)`.
pub(super) extern "C" fn truncate(_vmctx: *mut VmCtx, path: u32, length: i64) -> i32 {
    ret((|| -> IrtResult {
        let fd = resolve(path)?.open(libc::O_WRONLY, 0)?;
        // SAFETY: plain system call.
        host(|| unsafe { libc::ftruncate(fd.as_raw_fd(), length) } as isize).map(|_| ())
    })())
}

/// Runs `f(parent, name, parent2, name2)` for two paths.
fn on_two_names(a: u32, b: u32, f: impl Fn(i32, &std::ffi::CStr, i32, &std::ffi::CStr) -> libc::c_int) -> IrtResult {
    let (da, na) = resolve(a)?.parent()?;
    let (db, nb) = resolve(b)?.parent()?;
    host(|| f(da.as_raw_fd(), &na, db.as_raw_fd(), &nb) as isize).map(|_| ())
}

/// `int link(const char *oldpath, const char *newpath)`.
pub(super) extern "C" fn link(_vmctx: *mut VmCtx, old: u32, new: u32) -> i32 {
    // SAFETY: directory descriptors and NUL-terminated names.
    ret(on_two_names(old, new, |d1, n1, d2, n2| unsafe { libc::linkat(d1, n1.as_ptr(), d2, n2.as_ptr(), 0) }))
}

/// `int rename(const char *oldpath, const char *newpath)`.
pub(super) extern "C" fn rename(_vmctx: *mut VmCtx, old: u32, new: u32) -> i32 {
    // SAFETY: as above.
    ret(on_two_names(old, new, |d1, n1, d2, n2| unsafe { libc::renameat(d1, n1.as_ptr(), d2, n2.as_ptr()) }))
}

/// `int symlink(const char *target, const char *path)`. The target is stored as given;
/// following the link later is confined like any other path.
pub(super) extern "C" fn symlink(_vmctx: *mut VmCtx, target: u32, path: u32) -> i32 {
    ret((|| -> IrtResult {
        let target = std::ffi::CString::new(memory().read_cstr(target, PATH_MAX)?).map_err(|_| Errno::EINVAL)?;
        // SAFETY: a NUL-terminated target, a directory descriptor and a name.
        on_name(path, |d, n| unsafe { libc::symlinkat(target.as_ptr(), d, n.as_ptr()) })
    })())
}

/// `int chmod(const char *path, mode_t mode)`.
pub(super) extern "C" fn chmod(_vmctx: *mut VmCtx, path: u32, mode: u32) -> i32 {
    ret((|| -> IrtResult {
        let fd = resolve(path)?.path_fd(false)?;
        let p = proc_path(&fd);
        // SAFETY: a NUL-terminated path naming the file already resolved beneath the mount.
        host(|| unsafe { libc::chmod(p.as_ptr(), mode & 0o7777) } as isize).map(|_| ())
    })())
}

/// `int access(const char *path, int amode)`.
pub(super) extern "C" fn access(_vmctx: *mut VmCtx, path: u32, mode: i32) -> i32 {
    ret((|| -> IrtResult {
        if mode & !7 != 0 {
            return Err(Errno::EINVAL);
        }
        let fd = resolve(path)?.path_fd(false)?;
        let p = proc_path(&fd);
        // SAFETY: as above. The NaCl access bits equal the host ones (F 0, X 1, W 2, R 4).
        host(|| unsafe { libc::access(p.as_ptr(), mode) } as isize).map(|_| ())
    })())
}

/// `int readlink(const char *path, char *buf, size_t count, size_t *nread)` (no NUL added).
pub(super) extern "C" fn readlink(_vmctx: *mut VmCtx, path: u32, buf: u32, count: u32, nread: u32) -> i32 {
    ret((|| -> IrtResult {
        let fd = resolve(path)?.path_fd(true)?;
        let dst = memory().span(buf, count)?;
        // SAFETY: an O_PATH descriptor of the link, an empty path, and a guest range the
        // kernel checks.
        let n = host(|| unsafe { libc::readlinkat(fd.as_raw_fd(), c"".as_ptr(), dst.cast(), count as usize) })?;
        put_u32(nread, n as u32)
    })())
}

/// `int utimes(const char *path, const struct timeval times[2])`; NULL means now.
pub(super) extern "C" fn utimes(_vmctx: *mut VmCtx, path: u32, times: u32) -> i32 {
    ret((|| -> IrtResult {
        let mut ts = [libc::timespec { tv_sec: 0, tv_nsec: libc::UTIME_NOW }; 2];
        if times != 0 {
            let mut b = [0u8; 32];
            memory().read(times, &mut b)?;
            for (i, t) in ts.iter_mut().enumerate() {
                let sec = i64::from_le_bytes(b[i * 16..i * 16 + 8].try_into().expect("8 bytes"));
                let usec = i32::from_le_bytes(b[i * 16 + 8..i * 16 + 12].try_into().expect("4 bytes"));
                if !(0..1_000_000).contains(&usec) {
                    return Err(Errno::EINVAL);
                }
                *t = libc::timespec { tv_sec: sec as libc::time_t, tv_nsec: libc::c_long::from(usec) * 1000 };
            }
        }
        let fd = resolve(path)?.path_fd(false)?;
        let p = proc_path(&fd);
        // SAFETY: as for chmod; two valid timespecs.
        host(|| unsafe { libc::utimensat(libc::AT_FDCWD, p.as_ptr(), ts.as_ptr(), 0) } as isize).map(|_| ())
    })())
}
