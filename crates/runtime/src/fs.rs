//! What the guest can see of the host file system: the directories given with `--dir`,
//! and its own file descriptors.
//!
//! Guest paths are resolved lexically (`.` and `..` handled, clamped at `/`) against the
//! guest's working directory, which starts at `/`, then matched against the mount points
//! (longest first). The rest is opened below the mounted host directory with `openat2`
//! and `RESOLVE_BENEATH`, so neither `..` nor a symbolic link can lead out of it. A path
//! under no mount point does not exist for the guest.

use crate::errno::Errno;
use std::ffi::CString;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

/// A host directory made visible to the guest.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Preopen {
    /// The host directory.
    pub host: PathBuf,
    /// Where the guest sees it (an absolute guest path; relative ones are taken from `/`).
    pub guest: String,
}

impl Preopen {
    /// Parses `HOST[::GUEST]`; GUEST defaults to HOST.
    pub fn parse(spec: &str) -> Preopen {
        match spec.split_once("::") {
            Some((host, guest)) => Preopen { host: host.into(), guest: guest.into() },
            None => Preopen { host: spec.into(), guest: spec.into() },
        }
    }
}

/// Most file descriptors a guest may hold.
const MAX_FDS: usize = 4096;

/// An open guest file descriptor.
pub(crate) struct Desc {
    /// The host descriptor.
    pub fd: RawFd,
    /// False for the host's standard streams, which the guest's close must not close.
    owned: bool,
    /// The guest path, for directories (`fchdir`).
    pub path: Option<String>,
}

impl Drop for Desc {
    fn drop(&mut self) {
        if self.owned {
            // SAFETY: the descriptor is ours and closed once.
            unsafe { libc::close(self.fd) };
        }
    }
}

struct Mount {
    /// Normalised guest path.
    guest: String,
    dir: OwnedFd,
}

struct State {
    fds: Vec<Option<Arc<Desc>>>,
    /// Normalised guest working directory.
    cwd: String,
}

/// The guest's view of files.
pub(crate) struct Files {
    mounts: Vec<Mount>,
    state: Mutex<State>,
    /// Guest descriptor 1 is still the host's standard output. It starts so and stops for
    /// good when descriptor 1 is closed or replaced (no call puts the host's descriptor
    /// back): the guest's writes ask this without taking the lock, once a line.
    stdout_kept: AtomicBool,
}

/// A guest path resolved to a host directory and a path beneath it.
pub(crate) struct Resolved {
    /// The mounted host directory.
    dir: RawFd,
    /// The path below it ("." for the directory itself).
    rel: CString,
    /// The normalised guest path.
    pub guest: String,
}

/// Normalises `path` (relative ones against `cwd`): an absolute path with no `.`, `..` or
/// empty components.
fn normalize(cwd: &str, path: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    let joined = if path.starts_with('/') { path.to_string() } else { format!("{cwd}/{path}") };
    for c in joined.split('/') {
        match c {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            c => parts.push(c),
        }
    }
    format!("/{}", parts.join("/"))
}

fn cstring(bytes: &[u8]) -> Result<CString, Errno> {
    CString::new(bytes).map_err(|_| Errno::EINVAL)
}

/// `openat2(dir, rel, flags, mode)` with `RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS`: below
/// `dir`, never leaving it (a path that would is `EXDEV` or `ELOOP`); retried on `EINTR`
/// and `EAGAIN`. `O_CLOEXEC` is always added.
pub fn open_beneath(dir: RawFd, rel: &std::ffi::CStr, flags: i32, mode: u32) -> Result<OwnedFd, Errno> {
    // SAFETY: open_how is plain data.
    let mut how: libc::open_how = unsafe { std::mem::zeroed() };
    how.flags = (flags | libc::O_CLOEXEC) as u64;
    how.mode = if flags & (libc::O_CREAT | libc::O_TMPFILE) != 0 { u64::from(mode & 0o7777) } else { 0 };
    how.resolve = libc::RESOLVE_BENEATH | libc::RESOLVE_NO_MAGICLINKS;
    loop {
        // SAFETY: valid pointers to a NUL-terminated path and an open_how of the given size.
        let fd = unsafe {
            libc::syscall(
                libc::SYS_openat2,
                dir,
                rel.as_ptr(),
                &how as *const libc::open_how,
                size_of::<libc::open_how>(),
            )
        };
        if fd >= 0 {
            // SAFETY: a new descriptor we own.
            return Ok(unsafe { OwnedFd::from_raw_fd(fd as RawFd) });
        }
        let e = Errno::last();
        if e != Errno::EINTR && e != Errno::EAGAIN {
            return Err(e);
        }
    }
}

impl Resolved {
    /// Opens the path with host `flags`.
    pub fn open(&self, flags: i32, mode: u32) -> Result<OwnedFd, Errno> {
        open_beneath(self.dir, &self.rel, flags, mode)
    }

    /// An `O_PATH` descriptor of the path (following a final symbolic link unless
    /// `nofollow`).
    pub fn path_fd(&self, nofollow: bool) -> Result<OwnedFd, Errno> {
        let flags = libc::O_PATH | if nofollow { libc::O_NOFOLLOW } else { 0 };
        self.open(flags, 0)
    }

    /// The parent directory (opened) and the last component, for operations on the name
    /// itself (create, remove, rename, link). The mount point itself has no parent here.
    pub fn parent(&self) -> Result<(OwnedFd, CString), Errno> {
        let rel = self.rel.as_bytes();
        if rel == b"." {
            return Err(Errno::EBUSY);
        }
        let (parent, name) = match rel.iter().rposition(|&b| b == b'/') {
            Some(i) => (&rel[..i], &rel[i + 1..]),
            None => (&b"."[..], rel),
        };
        let fd = open_beneath(self.dir, &cstring(parent)?, libc::O_PATH | libc::O_DIRECTORY, 0)?;
        Ok((fd, cstring(name)?))
    }
}

/// A path for host calls that take a path but must act on a descriptor already resolved.
pub(crate) fn proc_path(fd: &OwnedFd) -> CString {
    CString::new(format!("/proc/self/fd/{}", fd.as_raw_fd())).expect("no NUL")
}

impl Files {
    /// The standard streams, and the given directories.
    pub fn new(dirs: &[Preopen]) -> Result<Files, String> {
        let mut mounts = Vec::new();
        for d in dirs {
            let host = CString::new(d.host.as_os_str().as_bytes()).map_err(|_| "bad --dir path".to_string())?;
            // SAFETY: a NUL-terminated path.
            let fd = unsafe { libc::open(host.as_ptr(), libc::O_PATH | libc::O_DIRECTORY | libc::O_CLOEXEC) };
            if fd < 0 {
                return Err(format!("--dir {}: {}", d.host.display(), std::io::Error::last_os_error()));
            }
            // SAFETY: a new descriptor we own.
            let dir = unsafe { OwnedFd::from_raw_fd(fd) };
            mounts.push(Mount { guest: normalize("/", &d.guest), dir });
        }
        // Longest mount points first, so the first match is the most specific.
        mounts.sort_by_key(|m| std::cmp::Reverse(m.guest.len()));
        let std = (0..3).map(|fd| Some(Arc::new(Desc { fd, owned: false, path: None }))).collect();
        Ok(Files { mounts, state: Mutex::new(State { fds: std, cwd: "/".into() }), stdout_kept: AtomicBool::new(true) })
    }

    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// True if the guest can reach any host directory.
    pub fn has_mounts(&self) -> bool {
        !self.mounts.is_empty()
    }

    /// The descriptor `fd`, for an I/O call: collected standard output is passed on first,
    /// so that whatever the call does comes after it.
    pub fn get(&self, fd: i32) -> Result<Arc<Desc>, Errno> {
        crate::output::sync();
        self.peek(fd)
    }

    /// True if guest descriptor `fd` is the host's standard output itself (without taking
    /// a reference to it: the hot path of the guest's writes).
    pub fn is_host_stdout(&self, fd: i32) -> bool {
        fd == 1 && self.stdout_kept.load(Ordering::Acquire)
    }

    /// The descriptor `fd`, leaving collected output where it is.
    pub fn peek(&self, fd: i32) -> Result<Arc<Desc>, Errno> {
        let s = self.state();
        usize::try_from(fd).ok().and_then(|i| s.fds.get(i).cloned().flatten()).ok_or(Errno::EBADF)
    }

    /// Adds a host descriptor (which the guest now owns); returns its guest number.
    pub fn insert(&self, fd: OwnedFd, path: Option<String>) -> Result<i32, Errno> {
        let mut s = self.state();
        let desc = Some(Arc::new(Desc { fd: std::os::fd::IntoRawFd::into_raw_fd(fd), owned: true, path }));
        match s.fds.iter().position(Option::is_none) {
            Some(i) => {
                s.fds[i] = desc;
                Ok(i as i32)
            }
            None if s.fds.len() < MAX_FDS => {
                s.fds.push(desc);
                Ok(s.fds.len() as i32 - 1)
            }
            None => Err(Errno::EMFILE),
        }
    }

    /// Closes guest descriptor `fd` (the host one closes when no call is using it).
    pub fn close(&self, fd: i32) -> Result<(), Errno> {
        crate::output::sync();
        let mut s = self.state();
        let slot = usize::try_from(fd).ok().and_then(|i| s.fds.get_mut(i)).ok_or(Errno::EBADF)?;
        let closed = slot.take().map(|_| ()).ok_or(Errno::EBADF);
        if fd == 1 {
            self.stdout_kept.store(false, Ordering::Release);
        }
        closed
    }

    /// `dup2`: makes `new` designate what `old` does.
    pub fn dup2(&self, old: i32, new: i32) -> Result<(), Errno> {
        let desc = self.get(old)?;
        let new = usize::try_from(new).ok().filter(|&n| n < MAX_FDS).ok_or(Errno::EBADF)?;
        if old as usize == new {
            return Ok(());
        }
        // SAFETY: duplicates a descriptor we hold.
        let fd = unsafe { libc::fcntl(desc.fd, libc::F_DUPFD_CLOEXEC, 0) };
        if fd < 0 {
            return Err(Errno::last());
        }
        let mut s = self.state();
        if s.fds.len() <= new {
            s.fds.resize(new + 1, None);
        }
        s.fds[new] = Some(Arc::new(Desc { fd, owned: true, path: desc.path.clone() }));
        if new == 1 {
            self.stdout_kept.store(false, Ordering::Release);
        }
        Ok(())
    }

    /// The guest's working directory.
    pub fn cwd(&self) -> String {
        self.state().cwd.clone()
    }

    /// Sets the guest's working directory (a normalised guest path).
    pub fn set_cwd(&self, path: String) {
        self.state().cwd = path;
    }

    /// Resolves a guest path.
    pub fn resolve(&self, path: &[u8]) -> Result<Resolved, Errno> {
        crate::output::sync();
        if path.is_empty() {
            return Err(Errno::ENOENT);
        }
        let path = std::str::from_utf8(path).map_err(|_| Errno::ENOENT)?;
        let guest = normalize(&self.cwd(), path);
        for m in &self.mounts {
            let rest = if m.guest == "/" {
                Some(&guest[1..])
            } else {
                guest
                    .strip_prefix(m.guest.as_str())
                    .filter(|r| r.is_empty() || r.starts_with('/'))
                    .map(|r| r.trim_start_matches('/'))
            };
            if let Some(rest) = rest {
                let rel = cstring(if rest.is_empty() { b"." } else { rest.as_bytes() })?;
                return Ok(Resolved { dir: m.dir.as_raw_fd(), rel, guest });
            }
        }
        Err(Errno::ENOENT)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_normalise_and_clamp_at_root() {
        assert_eq!(normalize("/", "a/./b/../c"), "/a/c");
        assert_eq!(normalize("/x", "../../../etc/passwd"), "/etc/passwd");
        assert_eq!(normalize("/x", "/"), "/");
        assert_eq!(normalize("/x/y", ".."), "/x");
    }

    #[test]
    fn nothing_is_reachable_without_mounts() {
        let f = Files::new(&[]).unwrap();
        assert_eq!(f.resolve(b"/etc/passwd").err(), Some(Errno::ENOENT));
        assert_eq!(f.resolve(b"x").err(), Some(Errno::ENOENT));
    }

    #[test]
    fn mounts_match_whole_components_and_stay_beneath() {
        let dir = tempdir();
        std::fs::write(dir.join("file"), b"x").unwrap();
        let f = Files::new(&[Preopen { host: dir.clone(), guest: "data".into() }]).unwrap();
        assert!(f.resolve(b"/data/file").unwrap().open(libc::O_RDONLY, 0).is_ok());
        assert_eq!(f.resolve(b"/database").err(), Some(Errno::ENOENT));
        assert_eq!(f.resolve(b"/data/../etc/passwd").err(), Some(Errno::ENOENT));
        std::os::unix::fs::symlink("/etc/passwd", dir.join("escape")).unwrap();
        let escape = f.resolve(b"/data/escape").unwrap();
        assert!(escape.open(libc::O_RDONLY, 0).is_err(), "a symbolic link out of the directory is refused");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    fn tempdir() -> PathBuf {
        let d = std::env::temp_dir().join(format!("pnacl-fs-{}-{:?}", std::process::id(), std::thread::current().id()));
        std::fs::create_dir_all(&d).unwrap();
        d
    }
}
