//! pnacl's own C library (`libc/` in the repository), built into the binary: its headers
//! and sources are embedded, written out once into the cache directory, and compiled there
//! to LLVM bitcode by clang, so that `pnacl cc` works wherever it is installed.

use crate::cache::Cache;
use include_dir::{Dir, include_dir};
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::process::Command;

static INCLUDE: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/../../libc/include");
static SOURCES: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/../../libc/src");
static FLAGS: &str = include_str!("../../../libc/clang-flags.txt");

/// The clang flags of `libc/clang-flags.txt`: what keeps intrinsics PNaCl has no
/// expansion for (vectors, `fmuladd`, noalias scopes, libm builtins) out of clang's output.
pub fn clang_flags() -> Vec<&'static str> {
    FLAGS.lines().map(|l| l.split('#').next().unwrap_or("").trim()).filter(|l| !l.is_empty()).collect()
}

/// The library, ready for a program: its header directory and its bitcode files.
pub struct Built {
    /// Passed to clang with `-isystem`.
    pub include: PathBuf,
    /// One bitcode file per source.
    pub bitcode: Vec<PathBuf>,
    /// Where the library was built for this run only, when the cache directory cannot be
    /// trusted (removed when dropped).
    _private: Option<tempfile::TempDir>,
}

/// Writes out and compiles the library for `clang`, unless a previous run did: the
/// directory is keyed by the library's contents, the flags and clang's version, and is
/// filled in a temporary directory renamed into place, so concurrent runs never see half
/// a library.
pub fn build(clang: &Path) -> Result<Built, String> {
    let version =
        Command::new(clang).arg("--version").output().map_err(|e| format!("{}: {e}", clang.display()))?.stdout;
    let mut hasher = blake3::Hasher::new();
    hasher.update(&version);
    hasher.update(FLAGS.as_bytes());
    for dir in [&INCLUDE, &SOURCES] {
        hash_dir(dir, &mut hasher);
    }
    let key = hasher.finalize().to_hex();
    let name = format!("libc-{}", &key[..16]);
    // The library is code linked into the user's programs: it is taken from the cache
    // only under the cache's trust rule (crate::trust), else built for this run alone.
    let cached = Cache::trusted_dir().and_then(|dir| {
        if !dir.path().join(&name).join("done").is_file() {
            populate(&dir.path().join(&name), clang)?;
        }
        dir.check_tree(&name).map(|()| dir.path().join(&name))
    });
    let (root, private) = match cached {
        Ok(root) => (root, None),
        Err(why) => {
            crate::cache::warn_unused("cc", &why, "building pnacl's C library for this run only");
            let tmp = tempfile::Builder::new().prefix("pnacl-libc-").tempdir().map_err(|e| e.to_string())?;
            populate(&tmp.path().join(&name), clang)?;
            (tmp.path().join(&name), Some(tmp))
        }
    };
    let mut bitcode: Vec<PathBuf> = std::fs::read_dir(root.join("bc"))
        .map_err(|e| format!("{}: {e}", root.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    bitcode.sort();
    Ok(Built { include: root.join("include"), bitcode, _private: private })
}

fn hash_dir(dir: &Dir<'_>, hasher: &mut blake3::Hasher) {
    for f in dir.files() {
        hasher.update(f.path().as_os_str().as_encoded_bytes());
        hasher.update(&(f.contents().len() as u64).to_le_bytes());
        hasher.update(f.contents());
    }
    for d in dir.dirs() {
        hash_dir(d, hasher);
    }
}

fn populate(root: &Path, clang: &Path) -> Result<(), String> {
    let parent = root.parent().expect("cache root has a parent");
    std::fs::create_dir_all(parent).map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
    let tmp = tempfile::Builder::new()
        .prefix(".libc-")
        .tempdir_in(parent)
        .map_err(|e| format!("cannot create a directory in {}: {e}", parent.display()))?;
    let include = tmp.path().join("include");
    let src = tmp.path().join("src");
    let bc = tmp.path().join("bc");
    for (dir, to) in [(&INCLUDE, &include), (&SOURCES, &src)] {
        std::fs::create_dir_all(to).map_err(|e| e.to_string())?;
        dir.extract(to).map_err(|e| format!("{}: {e}", to.display()))?;
    }
    std::fs::create_dir_all(&bc).map_err(|e| e.to_string())?;
    let mut sources = Vec::new();
    collect_c(&SOURCES, &mut sources);
    sources.par_iter().try_for_each(|rel| {
        let out = bc.join(rel.to_string_lossy().replace('/', "_")).with_extension("bc");
        let result = Command::new(clang)
            .args(clang_flags())
            .arg("-isystem")
            .arg(&include)
            .arg(src.join(rel))
            .arg("-o")
            .arg(&out)
            .output()
            .map_err(|e| format!("{}: {e}", clang.display()))?;
        if !result.status.success() {
            return Err(format!(
                "compiling pnacl's C library ({}) failed:\n{}",
                rel.display(),
                String::from_utf8_lossy(&result.stderr)
            ));
        }
        Ok(())
    })?;
    std::fs::write(tmp.path().join("done"), b"").map_err(|e| e.to_string())?;
    crate::trust::make_private(tmp.path()).map_err(|e| e.to_string())?;
    let tmp = tmp.keep();
    // Another run may have finished first: its copy is as good as ours.
    if std::fs::rename(&tmp, root).is_err() {
        let _ = std::fs::remove_dir_all(&tmp);
        if !root.join("done").is_file() {
            return Err(format!("cannot create {}", root.display()));
        }
    }
    Ok(())
}

fn collect_c(dir: &Dir<'_>, out: &mut Vec<PathBuf>) {
    for f in dir.files() {
        if f.path().extension().is_some_and(|e| e == "c") {
            out.push(f.path().to_path_buf());
        }
    }
    for d in dir.dirs() {
        collect_c(d, out);
    }
}
