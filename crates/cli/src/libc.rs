//! The C library `pnacl cc` links: newlib 3.3.0 (its libc and libm), the library the
//! PNaCl SDK shipped, under pnacl's platform layer (`libc/platform`: `_start` and the
//! system calls over the NaCl IRT, pthread). newlib's source is read from Debian's
//! `newlib-source` tarball the first time a program needs the library; the files and
//! flags newlib's own build would use are in `libc/newlib/sources.txt` (made by
//! `libc/newlib/generate.py`), pnacl's headers and platform sources are embedded in the
//! binary. Everything is compiled by clang in parallel into the cache directory, as two
//! archives of bitcode with symbol tables (`libc.a`, `libm.a`), from which `cc` reads only
//! the members a program needs.

use crate::cache::Cache;
use include_dir::{Dir, include_dir};
use rayon::prelude::*;
use std::path::{Component, Path, PathBuf};
use std::process::Command;

static PNACL_INCLUDE: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/../../libc/newlib/include");
static PLATFORM: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/../../libc/platform");
static SOURCES: &str = include_str!("../../../libc/newlib/sources.txt");
static FLAGS: &str = include_str!("../../../libc/clang-flags.txt");

/// The layout of the library's cache directories (2: `done` holds clang's version), part
/// of their key so that a directory of another layout is never taken.
const LAYOUT: &[u8] = b"layout 2";

/// Where Debian's `newlib-source` puts newlib's source.
pub const TARBALL: &str = "/usr/src/newlib/newlib-3.3.0.tar.xz";

/// The flags of `libc/clang-flags.txt` for `what` (`program` or `library`): the lines
/// without a prefix, and those that start with `what:`.
fn flags_for(what: &str) -> Vec<&'static str> {
    FLAGS
        .lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .filter_map(|l| match l.split_once(':') {
            Some((prefix, flag)) => (prefix == what).then_some(flag.trim()),
            None => Some(l),
        })
        .filter(|l| !l.is_empty())
        .collect()
}

/// The clang flags `pnacl cc` compiles programs with (`libc/clang-flags.txt`): the
/// target, and what keeps constructs PNaCl has no expansion for out of clang's output.
pub fn clang_flags() -> Vec<&'static str> {
    flags_for("program")
}

/// The library, ready for a program.
pub struct Built {
    /// The header directories, in order (for clang's `-isystem`): pnacl's, then newlib's.
    pub include: Vec<PathBuf>,
    /// The archives to link from, as one group: the platform layer (libpnacl.a, as the
    /// SDK had libnacl.a), newlib's libc.a and libm.a.
    pub archives: Vec<PathBuf>,
    /// Where the library was built for this run only, when the cache directory cannot be
    /// trusted (removed when dropped).
    _private: Option<tempfile::TempDir>,
}

/// The newlib tarball: `PNACL_NEWLIB_TARBALL`, or Debian's.
fn tarball() -> Result<PathBuf, String> {
    let path = std::env::var_os("PNACL_NEWLIB_TARBALL").map(PathBuf::from).unwrap_or_else(|| PathBuf::from(TARBALL));
    if path.is_file() {
        Ok(path)
    } else {
        Err(format!(
            "newlib's source is not installed ({} is missing): pnacl cc builds its C library from it; \
             on Debian or Ubuntu, `apt-get install newlib-source` (or set PNACL_NEWLIB_TARBALL)",
            path.display()
        ))
    }
}

/// Builds the library for `clang` unless a previous run did. newlib's directory in the
/// cache is keyed by its tarball, the source list, pnacl's headers, the flags and clang's
/// version; the platform layer's by those and its sources. Each is filled in a temporary
/// directory renamed into place, so concurrent runs never see half a library.
pub fn build(clang: &Path) -> Result<Built, String> {
    let version =
        Command::new(clang).arg("--version").output().map_err(|e| format!("{}: {e}", clang.display()))?.stdout;
    let tar = tarball()?;
    let tar_bytes = std::fs::read(&tar).map_err(|e| format!("{}: {e}", tar.display()))?;
    let mut newlib_key = blake3::Hasher::new();
    for part in [LAYOUT, &version[..], FLAGS.as_bytes(), SOURCES.as_bytes(), &tar_bytes] {
        newlib_key.update(&(part.len() as u64).to_le_bytes()).update(part);
    }
    hash_dir(&PNACL_INCLUDE, &mut newlib_key);
    // The platform layer is compiled against newlib's headers, so its key includes
    // newlib's; a change to the platform alone does not rebuild newlib.
    let mut platform_key = newlib_key.clone();
    hash_dir(&PLATFORM, &mut platform_key);
    let newlib_name = format!("newlib-{}", &newlib_key.finalize().to_hex()[..16]);
    let platform_name = format!("pnacl-platform-{}", &platform_key.finalize().to_hex()[..16]);
    let include_of = |newlib: &Path| vec![newlib.join("include/pnacl"), newlib.join("include/newlib")];
    // The library is code linked into the user's programs: it is taken from the cache
    // only under the cache's trust rule (crate::trust), else built for this run alone.
    let cached = Cache::trusted_dir().and_then(|dir| {
        let newlib = dir.path().join(&newlib_name);
        if !newlib.join("done").is_file() {
            // Said only here: a build for one run is announced by the warning that says why.
            crate::report::eprint_line("pnacl cc: building the C library (newlib 3.3.0, once, into the cache)");
            populate(&newlib, &version, |tmp| build_newlib(tmp, clang, &tar_bytes))?;
        }
        dir.check_tree(&newlib_name)?;
        let platform = dir.path().join(&platform_name);
        if !platform.join("done").is_file() {
            populate(&platform, &version, |tmp| build_platform(tmp, clang, &include_of(&newlib)))?;
        }
        dir.check_tree(&platform_name)?;
        Ok((newlib, platform))
    });
    let ((newlib, platform), private) = match cached {
        Ok(dirs) => (dirs, None),
        Err(why) => {
            crate::cache::warn_unused("cc", &why, "building pnacl's C library for this run only");
            let tmp = tempfile::Builder::new().prefix("pnacl-libc-").tempdir().map_err(|e| e.to_string())?;
            let (newlib, platform) = (tmp.path().join(&newlib_name), tmp.path().join(&platform_name));
            populate(&newlib, &version, |t| build_newlib(t, clang, &tar_bytes))?;
            populate(&platform, &version, |t| build_platform(t, clang, &include_of(&newlib)))?;
            ((newlib, platform), Some(tmp))
        }
    };
    Ok(Built {
        include: include_of(&newlib),
        archives: vec![platform.join("libpnacl.a"), newlib.join("libc.a"), newlib.join("libm.a")],
        _private: private,
    })
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

/// One compilation: the archive member it makes, the source, its own flags.
struct Job {
    member: String,
    source: PathBuf,
    flags: Vec<String>,
}

/// The jobs of `sources.txt`, with paths under `tmp`.
fn jobs(tmp: &Path) -> Result<Vec<Job>, String> {
    let newlib = tmp.join("src");
    let pnacl = tmp.join("include/pnacl");
    let expand = |f: &str| f.replace("$NEWLIB", &newlib.to_string_lossy()).replace("$PNACL", &pnacl.to_string_lossy());
    let mut lines = SOURCES.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty());
    let common: Vec<String> = lines
        .next()
        .and_then(|l| l.strip_prefix("flags:"))
        .ok_or("libc/newlib/sources.txt: no flags: line")?
        .split_whitespace()
        .map(expand)
        .collect();
    let mut jobs = Vec::new();
    for line in lines {
        let mut words = line.split_whitespace();
        let (Some(member), Some(source)) = (words.next(), words.next()) else {
            return Err(format!("libc/newlib/sources.txt: bad line `{line}`"));
        };
        let mut flags = common.clone();
        flags.extend(words.map(expand));
        jobs.push(Job { member: member.to_string(), source: newlib.join(source), flags });
    }
    Ok(jobs)
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

/// Unpacks what the build needs from the tarball: newlib's libc and libm (not the other
/// systems' and machines' directories) into `tmp/src`, and
/// the public headers into `tmp/include/newlib`. Entries are taken by name, as plain
/// relative paths; nothing else of the tarball is written.
fn unpack(tar_bytes: &[u8], tmp: &Path) -> Result<(), String> {
    let mut tar = Vec::new();
    lzma_rs::xz_decompress(&mut std::io::BufReader::new(tar_bytes), &mut tar)
        .map_err(|e| format!("{TARBALL}: not an xz file: {e}"))?;
    let mut archive = tar::Archive::new(&tar[..]);
    let mut found = 0usize;
    for entry in archive.entries().map_err(|e| format!("{TARBALL}: {e}"))? {
        let mut entry = entry.map_err(|e| format!("{TARBALL}: {e}"))?;
        if !entry.header().entry_type().is_file() {
            continue;
        }
        let path = entry.path().map_err(|e| format!("{TARBALL}: {e}"))?.into_owned();
        let Some(rel) = newlib_relative(&path) else { continue };
        // Sources include headers and tables of other names (categories.cat, ...).
        let wanted =
            !(rel.starts_with("libc/sys") || rel.starts_with("libc/machine") || rel.starts_with("libm/machine"));
        if !wanted {
            continue;
        }
        let mut targets = vec![tmp.join("src").join(&rel)];
        if let Ok(header) = rel.strip_prefix("libc/include") {
            targets.push(tmp.join("include/newlib").join(header));
        }
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut entry, &mut bytes).map_err(|e| format!("{TARBALL}: {e}"))?;
        for t in targets {
            let dir = t.parent().expect("a file has a directory");
            std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
            std::fs::write(&t, &bytes).map_err(|e| format!("{}: {e}", t.display()))?;
        }
        found += 1;
    }
    if found == 0 {
        return Err(format!("{TARBALL}: no newlib/libc or newlib/libm sources in it"));
    }
    Ok(())
}

/// `TOP/newlib/libc/...` or `TOP/newlib/libm/...` as `libc/...` or `libm/...`, if the path
/// is that and made of plain names only.
fn newlib_relative(path: &Path) -> Option<PathBuf> {
    let parts: Vec<&str> = path
        .components()
        .map(|c| match c {
            Component::Normal(s) => s.to_str(),
            _ => None,
        })
        .collect::<Option<_>>()?;
    let at = parts.windows(2).position(|w| w[0] == "newlib" && (w[1] == "libc" || w[1] == "libm"))?;
    Some(parts[at + 1..].iter().collect())
}

/// Fills the cache directory `root` with what `fill` writes into a temporary directory
/// beside it, which is renamed into place once complete, with a `done` file in it that
/// holds `clang_version` (what `clang --version` said: which compiler built it).
fn populate(root: &Path, clang_version: &[u8], fill: impl FnOnce(&Path) -> Result<(), String>) -> Result<(), String> {
    let parent = root.parent().expect("cache root has a parent");
    std::fs::create_dir_all(parent).map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
    let tmp = tempfile::Builder::new()
        .prefix(".build-")
        .tempdir_in(parent)
        .map_err(|e| format!("cannot create a directory in {}: {e}", parent.display()))?;
    fill(tmp.path())?;
    std::fs::write(tmp.path().join("done"), clang_version).map_err(|e| e.to_string())?;
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

/// Compiles `jobs` in parallel, each into `obj/`; returns the members (name, bitcode).
fn compile_all(clang: &Path, jobs: &[Job], obj: &Path) -> Result<Vec<(String, Vec<u8>)>, String> {
    std::fs::create_dir_all(obj).map_err(|e| e.to_string())?;
    let library_flags = flags_for("library");
    jobs.par_iter()
        .map(|job| {
            let out = obj.join(&job.member);
            let result = Command::new(clang)
                .args(&library_flags)
                .args(&job.flags)
                .arg(&job.source)
                .arg("-o")
                .arg(&out)
                .output()
                .map_err(|e| format!("{}: {e}", clang.display()))?;
            if !result.status.success() {
                return Err(format!(
                    "compiling the C library ({}) failed:\n{}",
                    job.source.display(),
                    String::from_utf8_lossy(&result.stderr)
                ));
            }
            let bytes = std::fs::read(&out).map_err(|e| format!("{}: {e}", out.display()))?;
            Ok((job.member.clone(), bytes))
        })
        .collect()
}

/// newlib's libc.a and libm.a, and its headers with pnacl's, in `tmp`.
fn build_newlib(tmp: &Path, clang: &Path, tar_bytes: &[u8]) -> Result<(), String> {
    unpack(tar_bytes, tmp)?;
    let pnacl = tmp.join("include/pnacl");
    std::fs::create_dir_all(&pnacl).map_err(|e| e.to_string())?;
    PNACL_INCLUDE.extract(&pnacl).map_err(|e| format!("{}: {e}", pnacl.display()))?;
    let members = compile_all(clang, &jobs(tmp)?, &tmp.join("obj"))?;
    let (libm, libc): (Vec<_>, Vec<_>) = members.into_iter().partition(|(m, _)| m.starts_with("libm-"));
    crate::archive::write(&tmp.join("libc.a"), libc)?;
    crate::archive::write(&tmp.join("libm.a"), libm)?;
    for dir in ["src", "obj"] {
        let _ = std::fs::remove_dir_all(tmp.join(dir));
    }
    Ok(())
}

/// The platform layer (libc/platform) as libpnacl.a in `tmp`, compiled against `include`.
fn build_platform(tmp: &Path, clang: &Path, include: &[PathBuf]) -> Result<(), String> {
    let src = tmp.join("src");
    std::fs::create_dir_all(&src).map_err(|e| e.to_string())?;
    PLATFORM.extract(&src).map_err(|e| format!("{}: {e}", src.display()))?;
    let mut flags: Vec<String> = include.iter().map(|d| format!("-I{}", d.display())).collect();
    // __builtin_sqrt must be llvm.sqrt, not a call to sqrt (sqrt.c defines sqrt with it).
    flags.extend(["-D_COMPILING_NEWLIB", "-fno-math-errno"].map(String::from));
    let mut sources = Vec::new();
    collect_c(&PLATFORM, &mut sources);
    let jobs: Vec<Job> = sources
        .iter()
        .map(|rel| Job {
            member: format!("platform-{}", rel.with_extension("o").to_string_lossy().replace('/', "-")),
            source: src.join(rel),
            flags: flags.clone(),
        })
        .collect();
    let members = compile_all(clang, &jobs, &tmp.join("obj"))?;
    crate::archive::write(&tmp.join("libpnacl.a"), members)?;
    for dir in ["src", "obj"] {
        let _ = std::fs::remove_dir_all(tmp.join(dir));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_plain_newlib_paths_are_unpacked() {
        let rel = |p: &str| newlib_relative(Path::new(p));
        assert_eq!(rel("newlib-salsa/newlib/libc/stdio/printf.c"), Some(PathBuf::from("libc/stdio/printf.c")));
        assert_eq!(rel("x/newlib/libm/math/e_pow.c"), Some(PathBuf::from("libm/math/e_pow.c")));
        assert_eq!(rel("x/newlib/doc/makedoc.c"), None);
        assert_eq!(rel("x/../newlib/libc/a.c"), None);
        assert_eq!(rel("/newlib/libc/a.c"), None);
    }

    #[test]
    fn flags_split_by_use() {
        assert!(clang_flags().contains(&"le32-unknown-nacl"));
        assert!(flags_for("library").contains(&"-O2"));
        assert!(!clang_flags().contains(&"-O2"));
    }
}
