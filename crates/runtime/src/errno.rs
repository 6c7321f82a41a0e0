//! NaCl ABI errno values (they equal Linux's for every code the ABI defines) and the
//! translation of host errors to them.

/// A NaCl errno: what IRT functions return on failure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Errno(pub i32);

#[allow(missing_docs)]
impl Errno {
    pub const EPERM: Errno = Errno(1);
    pub const ENOENT: Errno = Errno(2);
    pub const ESRCH: Errno = Errno(3);
    pub const EINTR: Errno = Errno(4);
    pub const EIO: Errno = Errno(5);
    pub const EBADF: Errno = Errno(9);
    pub const EAGAIN: Errno = Errno(11);
    pub const ENOMEM: Errno = Errno(12);
    pub const EACCES: Errno = Errno(13);
    pub const EFAULT: Errno = Errno(14);
    pub const EBUSY: Errno = Errno(16);
    pub const EEXIST: Errno = Errno(17);
    pub const EXDEV: Errno = Errno(18);
    pub const ENOTDIR: Errno = Errno(20);
    pub const EISDIR: Errno = Errno(21);
    pub const EINVAL: Errno = Errno(22);
    pub const EMFILE: Errno = Errno(24);
    pub const ENOTTY: Errno = Errno(25);
    pub const ESPIPE: Errno = Errno(29);
    pub const EPIPE: Errno = Errno(32);
    pub const ERANGE: Errno = Errno(34);
    pub const ENAMETOOLONG: Errno = Errno(36);
    pub const ENOSYS: Errno = Errno(38);
    pub const ETIMEDOUT: Errno = Errno(110);

    /// The NaCl value of a host (Linux) errno. The ABI's codes are Linux's; a host code
    /// the ABI does not define becomes `EIO`.
    pub fn from_host(e: i32) -> Errno {
        const DEFINED: &[i32] = &[
            1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 27, 28, 29, 30, 31,
            32, 33, 34, 35, 36, 37, 38, 39, 40, 75, 84, 110, 122, 125,
        ];
        match e {
            libc::EOPNOTSUPP => Errno::ENOSYS,
            _ if DEFINED.contains(&e) => Errno(e),
            _ => Errno::EIO,
        }
    }

    /// The NaCl value of the calling thread's last host error.
    pub fn last() -> Errno {
        Errno::from_host(std::io::Error::last_os_error().raw_os_error().unwrap_or(libc::EIO))
    }
}

/// The result of an IRT function body: `Ok` becomes 0.
pub type IrtResult = Result<(), Errno>;

/// The IRT return value of a result: 0, or the positive errno.
pub fn ret(r: IrtResult) -> i32 {
    match r {
        Ok(()) => 0,
        Err(e) => e.0,
    }
}
