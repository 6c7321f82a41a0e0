//! The translation cache, and `pnacl cache`.
//!
//! `pnacl run` keeps the image of every pexe it translates in `$XDG_CACHE_HOME/pnacl` (or
//! `~/.cache/pnacl`), named by a hash of the pexe's own hash, pnacl's version and build,
//! and the processor's features, so that a later run of the same pexe on the same machine
//! with the same pnacl loads it instead of translating. Images are written to a temporary
//! file and renamed into place, so that concurrent runs never see half an entry; an entry
//! that does not load (cut short, corrupt, from another build) is translated again and
//! replaced.
//!
//! The directory also holds the key that seals images (`key`, readable by its owner only):
//! an image is only loaded if its seal is this key's, so files that another user or
//! program wrote are never run as code. `pnacl compile` seals with the same key.

use crate::report::{self, Diagnostic, Failure};
use crate::status;
use pnacl_runtime::{BUILD_ID, Image, ImageError, VERSION};
use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

/// Arguments of `pnacl cache`.
#[derive(clap::Args, Debug)]
#[command(after_help = "The cache is $XDG_CACHE_HOME/pnacl, or ~/.cache/pnacl without XDG_CACHE_HOME.\n\n\
                        Examples:\n  pnacl cache info\n  pnacl cache clean")]
pub struct Args {
    #[command(subcommand)]
    pub action: Action,
}

/// What to do with the cache.
#[derive(clap::Subcommand, Debug)]
pub enum Action {
    /// Print where the cache is, and how many translations it holds.
    Info,
    /// Remove every cached translation (the sealing key stays).
    Clean,
}

/// Name of the file holding the sealing key.
const KEY: &str = "key";
/// The folder of cached images.
const IMAGES: &str = "images";

/// The translation cache directory.
pub struct Cache {
    dir: PathBuf,
}

/// What a look-up found.
pub enum Lookup {
    /// A valid image of the pexe.
    Hit(Box<Image>),
    /// No entry.
    Miss,
    /// An entry that does not load; it will be replaced.
    Bad(ImageError),
}

impl Cache {
    /// The cache directory: `$XDG_CACHE_HOME/pnacl`, or `$HOME/.cache/pnacl`.
    pub fn location() -> Result<PathBuf, String> {
        let base = match std::env::var_os("XDG_CACHE_HOME").filter(|d| Path::new(d).is_absolute()) {
            Some(d) => PathBuf::from(d),
            None => {
                let home = std::env::var_os("HOME").ok_or("neither XDG_CACHE_HOME nor HOME is set")?;
                PathBuf::from(home).join(".cache")
            }
        };
        Ok(base.join("pnacl"))
    }

    /// Opens the cache, creating its directories (private to the user) if needed.
    pub fn open() -> Result<Cache, String> {
        let dir = Cache::location()?;
        let images = dir.join(IMAGES);
        std::fs::create_dir_all(&images).map_err(|e| format!("cannot create {}: {e}", images.display()))?;
        let _ = std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700));
        Ok(Cache { dir })
    }

    /// The key images are sealed with, created on first use. Two processes creating it at
    /// once agree on one: each links its candidate into place only if none is there.
    pub fn seal_key(&self) -> Result<[u8; 32], String> {
        let path = self.dir.join(KEY);
        if let Some(key) = read_key(&path)? {
            return Ok(key);
        }
        let mut candidate = [0u8; 32];
        getrandom(&mut candidate)?;
        let tmp = tempfile::Builder::new()
            .prefix(".key")
            .permissions(std::fs::Permissions::from_mode(0o600))
            .tempfile_in(&self.dir)
            .map_err(|e| format!("cannot create a key in {}: {e}", self.dir.display()))?;
        tmp.as_file().write_all(&candidate).map_err(|e| format!("cannot write the key: {e}"))?;
        // Fails if another process got there first; its key is the one then.
        let _ = std::fs::hard_link(tmp.path(), &path);
        read_key(&path)?.ok_or_else(|| format!("cannot create {}", path.display()))
    }

    /// The file of the image of the pexe whose hash is `pexe_hash`, for this pnacl and a
    /// processor with features `target`.
    pub fn entry(&self, pexe_hash: &[u8; 32], target: &str) -> PathBuf {
        let mut h = blake3::Hasher::new();
        h.update(pexe_hash).update(VERSION.as_bytes()).update(b"\0").update(BUILD_ID.as_bytes());
        h.update(b"\0").update(target.as_bytes());
        self.dir.join(IMAGES).join(format!("{}.pnaclo", h.finalize().to_hex()))
    }

    /// Loads the entry at `path` if it is a valid image of the pexe `pexe_hash`.
    pub fn lookup(&self, path: &Path, pexe_hash: &[u8; 32], target: &str, key: &[u8; 32]) -> Lookup {
        let Ok(bytes) = std::fs::read(path) else { return Lookup::Miss };
        match Image::from_bytes(&bytes, target, key) {
            Ok(image) if &image.pexe_hash == pexe_hash => Lookup::Hit(Box::new(image)),
            Ok(_) => Lookup::Bad(ImageError::Malformed("the image of another pexe".into())),
            Err(e) => Lookup::Bad(e),
        }
    }

    /// Stores what `write` writes at `path` (a temporary file renamed into place).
    pub fn store(&self, path: &Path, write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>) -> Result<(), String> {
        crate::output::write_atomically(path, write).map_err(|e| format!("cannot write {}: {e}", path.display()))
    }

    /// The cached images: their paths and total size.
    fn images(&self) -> Result<(Vec<PathBuf>, u64), String> {
        let dir = self.dir.join(IMAGES);
        let mut paths = Vec::new();
        let mut size = 0;
        for e in std::fs::read_dir(&dir).map_err(|e| format!("{}: {e}", dir.display()))? {
            let e = e.map_err(|e| format!("{}: {e}", dir.display()))?;
            size += e.metadata().map(|m| m.len()).unwrap_or(0);
            paths.push(e.path());
        }
        Ok((paths, size))
    }
}

fn read_key(path: &Path) -> Result<Option<[u8; 32]>, String> {
    match std::fs::read(path) {
        Ok(bytes) => {
            let key: [u8; 32] =
                bytes.try_into().map_err(|_| format!("{}: not a pnacl key (32 bytes); remove it", path.display()))?;
            Ok(Some(key))
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(format!("{}: {e}", path.display())),
    }
}

fn getrandom(buf: &mut [u8]) -> Result<(), String> {
    use std::io::Read;
    std::fs::File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(buf))
        .map_err(|e| format!("no random bytes for a key: {e}"))
}

/// Runs `pnacl cache`; returns the exit status.
pub fn run(args: &Args) -> i32 {
    let result = Cache::open().and_then(|cache| {
        let (paths, size) = cache.images()?;
        let text = match args.action {
            Action::Info => format!(
                "cache: {}\ntranslations: {} ({:.1} MB)\npnacl {VERSION} (build {BUILD_ID}), for {}\n",
                cache.dir.display(),
                paths.len(),
                size as f64 / 1e6,
                pnacl_codegen::target_features()?
            ),
            Action::Clean => {
                for p in &paths {
                    std::fs::remove_file(p).map_err(|e| format!("{}: {e}", p.display()))?;
                }
                let s = if paths.len() == 1 { "" } else { "s" };
                let mb = size as f64 / 1e6;
                format!("removed {} translation{s} ({mb:.1} MB) from {}\n", paths.len(), cache.dir.display())
            }
        };
        Ok(text)
    });
    let result = result.map_err(|e| Failure::new(Diagnostic::error(None, e)));
    report::finish("cache", result.and_then(|text| crate::output::print(&text)).map(|()| status::SUCCESS))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_differ_by_pexe_and_processor() {
        let cache = Cache { dir: PathBuf::from("/c") };
        let a = cache.entry(&[1; 32], "x86_64,has_avx=true");
        assert_ne!(a, cache.entry(&[2; 32], "x86_64,has_avx=true"));
        assert_ne!(a, cache.entry(&[1; 32], "x86_64,has_avx=false"));
        assert!(a.starts_with("/c/images") && a.extension().is_some_and(|x| x == "pnaclo"));
    }
}
