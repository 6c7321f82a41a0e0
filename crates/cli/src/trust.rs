//! Directories no one else can write, and the files in them: the trust rule of pnacl's
//! cache directory, which holds native code and the key that vouches for it, and the
//! compiled C library that `pnacl cc` links into programs.
//!
//! The rule is ssh's for `~/.ssh` and gpg's for its home directory:
//! - the directory, and every file pnacl takes from it, is owned by the user and not
//!   writable by group or others (the sealing key not even readable by them); every
//!   directory above it is owned by the user or root and not writable by others, unless
//!   sticky (`/tmp`), so that no one else can rename it away and put another in its place;
//! - files are opened relative to the directory already checked (`openat`), never through
//!   a symbolic link (`O_NOFOLLOW`), without blocking (`O_NONBLOCK`: a FIFO), and only a
//!   regular file is read, at most as many bytes as it may hold;
//! - what pnacl creates there is private: directories 0700, files 0600.

use std::ffi::CString;
use std::io::{Read, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

/// A directory checked by the trust rule, held open: files are opened relative to it.
pub struct TrustedDir {
    fd: OwnedFd,
    path: PathBuf,
}

/// The effective user id.
pub fn euid() -> u32 {
    // SAFETY: a plain query.
    unsafe { libc::geteuid() }
}

fn c_name(name: &str) -> CString {
    CString::new(name).expect("pnacl's own file names hold no NUL")
}

fn fstat(fd: &OwnedFd) -> std::io::Result<libc::stat> {
    // SAFETY: `stat` is plain data, filled by the call on a descriptor we hold.
    let mut st: libc::stat = unsafe { std::mem::zeroed() };
    if unsafe { libc::fstat(fd.as_raw_fd(), &mut st) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(st)
}

/// `openat(dir, name, flags)`, with `O_CLOEXEC`.
fn open_at(dir: libc::c_int, name: &CString, flags: libc::c_int, mode: libc::mode_t) -> std::io::Result<OwnedFd> {
    // SAFETY: a valid NUL-terminated name; the descriptor returned is ours.
    let fd = unsafe { libc::openat(dir, name.as_ptr(), flags | libc::O_CLOEXEC, libc::c_uint::from(mode)) };
    if fd < 0 {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: a new descriptor, owned from here on.
    Ok(unsafe { OwnedFd::from_raw_fd(fd) })
}

/// Why `st`, the status of `path`, breaks the rule for what pnacl takes from the cache:
/// owned by someone else, or writable by others (`private`: accessible by them at all).
fn owned_and_private(st: &libc::stat, path: &Path, private: bool) -> Result<(), String> {
    let me = euid();
    if st.st_uid != me {
        return Err(format!("{} is owned by uid {}, not by you (uid {me})", path.display(), st.st_uid));
    }
    let (forbidden, what) = if private { (0o077, "accessible to") } else { (0o022, "writable by") };
    if st.st_mode & forbidden != 0 {
        return Err(format!("{} is {what} other users (mode {:o})", path.display(), st.st_mode & 0o7777));
    }
    Ok(())
}

fn is_kind(st: &libc::stat, kind: libc::mode_t) -> bool {
    st.st_mode & libc::S_IFMT == kind
}

/// A failure of a system call on `path`, for messages.
fn failed(path: &Path, e: &std::io::Error) -> String {
    match e.raw_os_error() {
        Some(libc::ELOOP) => format!("{} is a symbolic link", path.display()),
        Some(libc::ENOTDIR) => format!("{} is not a directory", path.display()),
        _ => format!("{}: {e}", path.display()),
    }
}

impl TrustedDir {
    /// Opens the directory `path` (creating it and what is missing above it, private to the
    /// user, if `create`), checked by the trust rule, with the directories above it.
    pub fn open(path: &Path, create: bool) -> Result<TrustedDir, String> {
        if create {
            use std::os::unix::fs::DirBuilderExt;
            std::fs::DirBuilder::new()
                .recursive(true)
                .mode(0o700)
                .create(path)
                .map_err(|e| format!("cannot create {}: {e}", path.display()))?;
        }
        let name = CString::new(path.as_os_str().as_bytes()).map_err(|_| "a path with a NUL byte".to_string())?;
        let flags = libc::O_RDONLY | libc::O_DIRECTORY | libc::O_NOFOLLOW;
        let fd = open_at(libc::AT_FDCWD, &name, flags, 0).map_err(|e| failed(path, &e))?;
        let st = fstat(&fd).map_err(|e| failed(path, &e))?;
        owned_and_private(&st, path, false)?;
        let dir = TrustedDir { fd, path: path.to_path_buf() };
        dir.check_above()?;
        Ok(dir)
    }

    /// Checks every directory above this one, up to `/`: owned by the user or root, and not
    /// writable by others unless sticky. They are reached by `..` from the directory itself,
    /// so a symbolic link on the way does not hide the real ones.
    fn check_above(&self) -> Result<(), String> {
        let me = euid();
        let real = std::fs::canonicalize(&self.path).unwrap_or_else(|_| self.path.clone());
        let mut below = fstat(&self.fd).map_err(|e| failed(&self.path, &e))?;
        let mut dir = open_at(self.fd.as_raw_fd(), &c_name(".."), libc::O_RDONLY | libc::O_DIRECTORY, 0)
            .map_err(|e| failed(&self.path, &e))?;
        for level in 1.. {
            let name = real.ancestors().nth(level).unwrap_or(Path::new("/")).to_path_buf();
            let st = fstat(&dir).map_err(|e| failed(&name, &e))?;
            if (st.st_dev, st.st_ino) == (below.st_dev, below.st_ino) {
                return Ok(()); // `/` is its own parent
            }
            if st.st_uid != me && st.st_uid != 0 {
                return Err(format!(
                    "{} (above {}) is owned by uid {}, neither you (uid {me}) nor root",
                    name.display(),
                    self.path.display(),
                    st.st_uid
                ));
            }
            if st.st_mode & 0o022 != 0 && st.st_mode & libc::S_ISVTX == 0 {
                return Err(format!(
                    "{} (above {}) is writable by other users (mode {:o}), who could replace what is in it",
                    name.display(),
                    self.path.display(),
                    st.st_mode & 0o7777
                ));
            }
            below = st;
            dir = open_at(dir.as_raw_fd(), &c_name(".."), libc::O_RDONLY | libc::O_DIRECTORY, 0)
                .map_err(|e| failed(&name, &e))?;
        }
        unreachable!("the loop returns at /")
    }

    /// Where the directory is.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The subdirectory `name` (created private if missing and `create`), checked.
    pub fn subdir(&self, name: &str, create: bool) -> Result<TrustedDir, String> {
        let path = self.path.join(name);
        let c = c_name(name);
        // SAFETY: a valid name, relative to a directory we hold.
        if create && unsafe { libc::mkdirat(self.fd.as_raw_fd(), c.as_ptr(), 0o700) } != 0 {
            let e = std::io::Error::last_os_error();
            if e.kind() != std::io::ErrorKind::AlreadyExists {
                return Err(format!("cannot create {}: {e}", path.display()));
            }
        }
        let flags = libc::O_RDONLY | libc::O_DIRECTORY | libc::O_NOFOLLOW;
        let fd = open_at(self.fd.as_raw_fd(), &c, flags, 0).map_err(|e| failed(&path, &e))?;
        owned_and_private(&fstat(&fd).map_err(|e| failed(&path, &e))?, &path, false)?;
        Ok(TrustedDir { fd, path })
    }

    /// The contents of the file `name`, if there is one: a regular file of the user's, not
    /// writable by others (`private`: not accessible to them at all), of at most `max`
    /// bytes. Anything else there is refused with the reason.
    pub fn read(&self, name: &str, max: u64, private: bool) -> Result<Option<Vec<u8>>, String> {
        let path = self.path.join(name);
        let flags = libc::O_RDONLY | libc::O_NOFOLLOW | libc::O_NONBLOCK;
        let fd = match open_at(self.fd.as_raw_fd(), &c_name(name), flags, 0) {
            Ok(fd) => fd,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(failed(&path, &e)),
        };
        let st = fstat(&fd).map_err(|e| failed(&path, &e))?;
        if !is_kind(&st, libc::S_IFREG) {
            return Err(format!("{} is not a regular file", path.display()));
        }
        owned_and_private(&st, &path, private)?;
        if st.st_size as u64 > max {
            return Err(format!("{} is larger than {max} bytes", path.display()));
        }
        let mut bytes = Vec::with_capacity(st.st_size as usize);
        // Bounded even if the file grows meanwhile.
        std::fs::File::from(fd).take(max + 1).read_to_end(&mut bytes).map_err(|e| failed(&path, &e))?;
        if bytes.len() as u64 > max {
            return Err(format!("{} is larger than {max} bytes", path.display()));
        }
        Ok(Some(bytes))
    }

    /// A new private file with a fresh name starting with `prefix`: the file and its name.
    fn create_temporary(&self, prefix: &str) -> Result<(std::fs::File, String), String> {
        let flags = libc::O_WRONLY | libc::O_CREAT | libc::O_EXCL | libc::O_NOFOLLOW;
        for _ in 0..100 {
            let mut random = [0u8; 8];
            crate::cache::random_bytes(&mut random)?;
            let name = format!("{prefix}{:016x}.tmp", u64::from_le_bytes(random));
            match open_at(self.fd.as_raw_fd(), &c_name(&name), flags, 0o600) {
                Ok(fd) => return Ok((std::fs::File::from(fd), name)),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(format!("cannot create a file in {}: {e}", self.path.display())),
            }
        }
        Err(format!("cannot create a file in {}", self.path.display()))
    }

    /// Writes the file `name` through a private temporary file renamed into place (it
    /// replaces whatever was there, a symbolic link included, not what it points to).
    pub fn write(&self, name: &str, write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>) -> Result<(), String> {
        let (file, tmp) = self.create_temporary(".")?;
        let registration = crate::signals::remove_on_signal(&self.path.join(&tmp));
        let mut out = std::io::BufWriter::new(file);
        let written = write(&mut out).and_then(|()| out.flush());
        let placed = written.and_then(|()| self.rename(&tmp, name));
        if placed.is_err() {
            let _ = self.remove(&tmp);
        }
        drop(registration);
        placed.map_err(|e| format!("cannot write {}: {e}", self.path.join(name).display()))
    }

    /// Creates the file `name` holding `bytes`, unless there is one: a private temporary
    /// file linked into place, so that two processes doing it at once agree on one.
    pub fn create_once(&self, name: &str, bytes: &[u8]) -> Result<(), String> {
        let (mut file, tmp) = self.create_temporary(".")?;
        let path = self.path.join(name);
        let linked = file.write_all(bytes).and_then(|()| {
            let (from, to) = (c_name(&tmp), c_name(name));
            let fd = self.fd.as_raw_fd();
            // SAFETY: valid names, relative to a directory we hold. Fails if `name` exists.
            if unsafe { libc::linkat(fd, from.as_ptr(), fd, to.as_ptr(), 0) } != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
        let _ = self.remove(&tmp);
        match linked {
            Err(e) if e.kind() != std::io::ErrorKind::AlreadyExists => {
                Err(format!("cannot create {}: {e}", path.display()))
            }
            _ => Ok(()),
        }
    }

    fn rename(&self, from: &str, to: &str) -> std::io::Result<()> {
        let (from, to) = (c_name(from), c_name(to));
        let fd = self.fd.as_raw_fd();
        // SAFETY: valid names, relative to a directory we hold.
        if unsafe { libc::renameat(fd, from.as_ptr(), fd, to.as_ptr()) } != 0 {
            return Err(std::io::Error::last_os_error());
        }
        Ok(())
    }

    /// Removes the file `name` (the name only: a symbolic link, not what it points to).
    pub fn remove(&self, name: &str) -> std::io::Result<()> {
        let c = c_name(name);
        // SAFETY: a valid name, relative to a directory we hold.
        if unsafe { libc::unlinkat(self.fd.as_raw_fd(), c.as_ptr(), 0) } != 0 {
            return Err(std::io::Error::last_os_error());
        }
        Ok(())
    }

    /// The status of the entry `name`, not following a symbolic link.
    fn stat_at(&self, name: &std::ffi::CStr) -> std::io::Result<libc::stat> {
        // SAFETY: `stat` is plain data filled by the call; a valid name.
        let mut st: libc::stat = unsafe { std::mem::zeroed() };
        let flags = libc::AT_SYMLINK_NOFOLLOW;
        if unsafe { libc::fstatat(self.fd.as_raw_fd(), name.as_ptr(), &mut st, flags) } != 0 {
            return Err(std::io::Error::last_os_error());
        }
        Ok(st)
    }

    /// The names of the directory's entries, with the size of those that are regular files
    /// (`None` for anything else).
    pub fn entries(&self) -> Result<Vec<(String, Option<u64>)>, String> {
        let mut out = Vec::new();
        for e in std::fs::read_dir(&self.path).map_err(|e| failed(&self.path, &e))? {
            let name = e.map_err(|e| failed(&self.path, &e))?.file_name();
            let c = CString::new(name.as_bytes()).expect("file names hold no NUL");
            let Ok(st) = self.stat_at(&c) else { continue };
            let size = is_kind(&st, libc::S_IFREG).then_some(st.st_size as u64);
            out.push((name.to_string_lossy().into_owned(), size));
        }
        Ok(out)
    }

    /// Checks the whole tree under the subdirectory `name`: only directories and regular
    /// files, all the user's and not writable by others (what `pnacl cc` hands to clang
    /// and links into programs).
    pub fn check_tree(&self, name: &str) -> Result<(), String> {
        let dir = self.subdir(name, false)?;
        for (entry, _) in dir.entries()? {
            let c = CString::new(entry.as_bytes()).expect("file names hold no NUL");
            let path = dir.path.join(&entry);
            let st = dir.stat_at(&c).map_err(|e| failed(&path, &e))?;
            if is_kind(&st, libc::S_IFDIR) {
                dir.check_tree(&entry)?;
            } else if is_kind(&st, libc::S_IFREG) {
                owned_and_private(&st, &path, false)?;
            } else {
                return Err(format!("{} is neither a regular file nor a directory", path.display()));
            }
        }
        Ok(())
    }
}

/// Takes write access for group and others away from everything under `path` (which
/// pnacl just made), so that it passes [`TrustedDir::check_tree`] whatever the umask.
pub fn make_private(path: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let meta = std::fs::symlink_metadata(path)?;
    if meta.file_type().is_symlink() {
        return Ok(()); // its mode means nothing; check_tree refuses it
    }
    let mode = meta.permissions().mode();
    if mode & 0o022 != 0 {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode & !0o022 & 0o7777))?;
    }
    if meta.is_dir() {
        for e in std::fs::read_dir(path)? {
            make_private(&e?.path())?;
        }
    }
    Ok(())
}
