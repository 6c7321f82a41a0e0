//! Output files: written to a temporary file next to the target and renamed into place, so
//! that a failed run never leaves a half-written file.

use std::io::Write;
use std::path::Path;

/// Where a command's output goes: `-` is standard output.
pub fn is_stdout(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// Reads an input file, or standard input for `-`.
pub fn read_input(path: &Path) -> std::io::Result<Vec<u8>> {
    if is_stdout(path) {
        let mut buf = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin().lock(), &mut buf)?;
        return Ok(buf);
    }
    std::fs::read(path)
}

/// Writes `bytes` to `path` atomically (or to standard output for `-`).
pub fn write_file(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    with_file(path, |w| w.write_all(bytes))
}

/// Calls `f` with a writer for `path`; the file appears only if `f` succeeds.
pub fn with_file(path: &Path, f: impl FnOnce(&mut dyn Write) -> std::io::Result<()>) -> std::io::Result<()> {
    if is_stdout(path) {
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
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    // Created with the permissions of an ordinary new file (0666 less the umask), or kept
    // from the file being replaced.
    let permissions = match std::fs::metadata(path) {
        Ok(m) => m.permissions(),
        Err(_) => std::os::unix::fs::PermissionsExt::from_mode(0o666),
    };
    let mut tmp =
        tempfile::Builder::new().prefix(".pnacl-").suffix(".tmp").permissions(permissions).tempfile_in(dir)?;
    {
        let mut w = std::io::BufWriter::new(tmp.as_file_mut());
        f(&mut w)?;
        w.flush()?;
    }
    // The rename is atomic: readers see the old file or the whole new one. (No fsync: the
    // output is as durable as any other file the user writes; syncing cost more than
    // producing a large listing.)
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}
