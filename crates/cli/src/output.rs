//! Inputs and outputs, the same for every subcommand.
//!
//! - `-` is standard input for an input and standard output for an output.
//! - An output file is written to a temporary file next to it and renamed into place, so that
//!   a failed or interrupted run never leaves a half-written file: the temporary file is
//!   removed on failure and on Ctrl-C, `SIGTERM` or `SIGHUP` ([`crate::signals`]), and its
//!   name never appears in a message. An existing file is only replaced once the new one
//!   is complete.
//! - Binary output is refused on a terminal.
//! - A write error (a full disk) is reported as the output's, with status 1, never hidden.
//!
//! Inputs are read by [`crate::input`].

use crate::report::{Diagnostic, Failure, file_name};
use std::io::{IsTerminal, Write};
use std::path::Path;

/// Whether `path` is `-`: standard input for an input, standard output for an output.
pub fn is_stdio(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// How an input is named in messages: as given, `<stdin>` for `-`.
pub fn input_name(path: &Path) -> String {
    file_name(path, "<stdin>")
}

/// How an output is named in messages: as given, `<stdout>` for `-`.
pub fn output_name(path: &Path) -> String {
    file_name(path, "<stdout>")
}

/// What an output holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Content {
    /// Bitcode or an image: never written to a terminal.
    Binary,
    /// Text.
    Text,
}

/// Refuses binary output to standard output when it is a terminal. Called before the work,
/// so that nothing is computed for nothing; [`write()`] checks again.
pub fn check_target(path: &Path, content: Content) -> Result<(), Failure> {
    if content == Content::Binary && is_stdio(path) && std::io::stdout().is_terminal() {
        return Err(Failure::new(Diagnostic::error(
            Some("<stdout>"),
            "binary output is not written to a terminal; use -o FILE, or redirect standard output",
        ))
        .with_status(crate::status::USAGE));
    }
    Ok(())
}

/// Writes `text` to standard output, then flushes it. A failure (a full disk) is reported
/// as `<stdout>`'s, with status 1; a closed pipe ends the process by `SIGPIPE` before.
pub fn print(text: &str) -> Result<(), Failure> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes()).and_then(|()| out.flush()).map_err(|e| Failure::input("<stdout>", e))
}

/// Writes `bytes` to `path` atomically (or to standard output for `-`).
pub fn write(path: &Path, content: Content, bytes: &[u8]) -> Result<(), Failure> {
    write_with(path, content, |w| w.write_all(bytes))
}

/// Calls `f` with a writer for `path`; the file appears, whole, only if `f` succeeds.
pub fn write_with(
    path: &Path,
    content: Content,
    f: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<(), Failure> {
    check_target(path, content)?;
    write_or_replace(path, f).map_err(|e| Failure::input(&output_name(path), e))
}

fn write_or_replace(path: &Path, f: impl FnOnce(&mut dyn Write) -> std::io::Result<()>) -> std::io::Result<()> {
    if is_stdio(path) {
        let stdout = std::io::stdout();
        let mut lock = std::io::BufWriter::new(stdout.lock());
        f(&mut lock)?;
        return lock.flush();
    }
    // Devices and pipes (`/dev/null`, `/dev/stdout`, a FIFO) are written in place: renaming
    // a temporary file over them would replace them.
    if std::fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir()) {
        let mut w = std::io::BufWriter::new(std::fs::OpenOptions::new().write(true).open(path)?);
        f(&mut w)?;
        return w.flush();
    }
    write_atomically(path, f)
}

/// Writes the file `path` through a temporary file in the same directory, renamed into place:
/// readers see the old file or the whole new one, never a part.
pub fn write_atomically(path: &Path, f: impl FnOnce(&mut dyn Write) -> std::io::Result<()>) -> std::io::Result<()> {
    let staged = stage(path, f)?;
    staged.commit(path)
}

/// A complete temporary file beside its target, removed if dropped before [`Staged::commit`].
struct Staged {
    tmp: tempfile::NamedTempFile,
    registration: Option<crate::signals::Registration>,
}

impl Staged {
    /// Renames the file into place (atomic).
    fn commit(self, path: &Path) -> std::io::Result<()> {
        // (No fsync: the output is as durable as any other file the user writes; syncing
        // cost more than producing a large listing.)
        self.tmp.persist(path).map_err(|e| plain(&e.error))?;
        drop(self.registration);
        Ok(())
    }
}

/// Writes what `f` writes to a temporary file beside `path`.
fn stage(path: &Path, f: impl FnOnce(&mut dyn Write) -> std::io::Result<()>) -> std::io::Result<Staged> {
    use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    // Created with the permissions of an ordinary new file (0666 less the umask), or kept
    // from the file being replaced.
    let mode = std::fs::metadata(path).map_or(0o666, |m| m.permissions().mode() & 0o7777);
    let mut registration = None;
    let mut tmp = tempfile::Builder::new()
        .prefix(".pnacl-")
        .suffix(".tmp")
        .make_in(dir, |candidate| {
            // Registered before it exists, so that no signal can leave it behind.
            registration = crate::signals::remove_on_signal(candidate);
            std::fs::OpenOptions::new().write(true).create_new(true).mode(mode).open(candidate)
        })
        .map_err(|e| {
            std::io::Error::new(e.kind(), format!("cannot create a file in {}: {}", dir.display(), plain(&e)))
        })?;
    {
        let mut w = std::io::BufWriter::new(tmp.as_file_mut());
        f(&mut w).map_err(|e| plain(&e))?;
        w.flush().map_err(|e| plain(&e))?;
    }
    Ok(Staged { tmp, registration })
}

/// Writes several files, all or none: every file is first written whole to a temporary
/// file beside it, and only then are they renamed into place, one after the other. A
/// failure before the renames (a folder that cannot be created or written, a full disk, a
/// target that is not a regular file, a signal) leaves nothing: the temporary files go,
/// and so do the folders this call created. Missing folders are created.
pub fn write_all(files: &[(&Path, &[u8])]) -> Result<(), Failure> {
    // What can be known before writing anything: a target that is a folder or a device, a
    // name too long, a parent that is a file.
    for (path, _) in files {
        // (A name too long shows only when the rename fails, if its folder is new.)
        if path.file_name().is_some_and(|n| n.len() > 255) {
            return Err(Failure::input(&output_name(path), std::io::Error::from_raw_os_error(libc::ENAMETOOLONG)));
        }
        match std::fs::symlink_metadata(path) {
            Ok(m) if !m.is_file() => {
                return Err(Failure::input(&output_name(path), "exists and is not a regular file; not replaced"));
            }
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(Failure::input(&output_name(path), e)),
            _ => {}
        }
    }
    let mut created: Vec<std::path::PathBuf> = Vec::new();
    let undo = |created: &[std::path::PathBuf]| {
        for d in created.iter().rev() {
            let _ = std::fs::remove_dir(d);
        }
    };
    let mut staged = Vec::with_capacity(files.len());
    for (path, bytes) in files {
        if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            let missing: Vec<_> = parent.ancestors().take_while(|a| !a.as_os_str().is_empty() && !a.exists()).collect();
            for d in missing.into_iter().rev() {
                if let Err(e) = std::fs::create_dir(d) {
                    undo(&created);
                    return Err(Failure::input(&output_name(d), format!("cannot create the folder: {e}")));
                }
                created.push(d.to_path_buf());
            }
        }
        match stage(path, |w| w.write_all(bytes)) {
            Ok(s) => staged.push(s),
            Err(e) => {
                drop(staged);
                undo(&created);
                return Err(Failure::input(&output_name(path), e));
            }
        }
    }
    for (s, (path, _)) in staged.into_iter().zip(files) {
        s.commit(path).map_err(|e| Failure::input(&output_name(path), e))?;
    }
    Ok(())
}

/// An I/O error without the path a library may have added to it (the temporary file's).
fn plain(e: &std::io::Error) -> std::io::Error {
    if let Some(code) = e.raw_os_error() {
        return std::io::Error::from_raw_os_error(code);
    }
    // tempfile wraps the system's error in one that names the path.
    let inner = e.get_ref().and_then(|i| i.source()).and_then(|s| s.downcast_ref::<std::io::Error>());
    match inner {
        Some(inner) => plain(inner),
        None => std::io::Error::from(e.kind()),
    }
}
