//! Finding and running the external tools (gcc, binutils, clang-14, LLVM 14).

use std::path::{Path, PathBuf};
use std::process::Command;

/// The first of `names` found on the PATH or as an absolute path, or an error naming the
/// tool and the Debian package that provides it.
pub fn find_tool(names: &[&str], package: &str) -> Result<PathBuf, String> {
    for name in names {
        let candidate = Path::new(name);
        if candidate.is_absolute() {
            if candidate.is_file() {
                return Ok(candidate.to_path_buf());
            }
            continue;
        }
        if let Some(paths) = std::env::var_os("PATH") {
            for dir in std::env::split_paths(&paths) {
                let full = dir.join(name);
                if full.is_file() {
                    return Ok(full);
                }
            }
        }
    }
    Err(format!("{} is missing: the libc tests need it (install it with `apt-get install {package}`)", names[0]))
}

/// Runs a command; an error carries the command line and its stderr.
pub fn run(cmd: &mut Command) -> Result<std::process::Output, String> {
    let out = cmd.output().map_err(|e| format!("cannot run {cmd:?}: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "{cmd:?} failed ({}):\n{}{}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(out)
}
