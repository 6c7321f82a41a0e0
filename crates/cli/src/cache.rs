//! The translation cache, and `pnacl cache`.
//!
//! `pnacl run` keeps the image of every pexe it translates in `$XDG_CACHE_HOME/pnacl` (or
//! `~/.cache/pnacl`), named by a hash of the pexe's own hash, pnacl's version and build,
//! and the processor's features, so that a later run of the same pexe on the same machine
//! with the same pnacl loads it instead of translating. Images are written to a temporary
//! file and renamed into place, so that concurrent runs never see half an entry; an entry
//! that does not load (cut short, corrupt, from another build, not a regular file) is
//! translated again and replaced.
//!
//! The directory also holds the key that seals images (`key`, readable by its owner only):
//! an image is only loaded if its seal is this key's, so files that another user or
//! program wrote are never run as code. `pnacl compile` seals with the same key. Whoever
//! can write the directory or read the key can make pnacl run code as the user, so the
//! directory is used only if it passes the trust rule of [`crate::trust`] (ssh's: owned by
//! the user, not writable by others, nor anything above it); otherwise `run` warns once
//! and runs without the cache, and what needs the key (`compile`, running a `.pnaclo`)
//! fails.

use crate::report::{self, Diagnostic, Failure};
use crate::status;
use crate::trust::TrustedDir;
use pnacl_runtime::{BUILD_ID, Image, VERSION};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Arguments of `pnacl cache`.
#[derive(clap::Args, Debug)]
#[command(after_help = "The cache is $XDG_CACHE_HOME/pnacl, or ~/.cache/pnacl without XDG_CACHE_HOME. It is \
                        used only if it and the key in it are owned by you and not writable by others (the key \
                        not readable by them either), nor any directory above it: whoever can write there can \
                        run code as you.\n\n\
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

/// The translation cache directory, checked by the trust rule.
pub struct Cache {
    dir: TrustedDir,
    images: TrustedDir,
}

/// What a look-up found.
pub enum Lookup {
    /// A valid image of the pexe.
    Hit(Box<Image>),
    /// No entry.
    Miss,
    /// An entry that does not load: why. It will be replaced.
    Bad(String),
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

    /// Opens the cache, creating its directories (private to the user) if needed; fails if
    /// it breaks the trust rule, saying how.
    pub fn open() -> Result<Cache, String> {
        let dir = TrustedDir::open(&Cache::location()?, true)?;
        let images = dir.subdir(IMAGES, true)?;
        Ok(Cache { dir, images })
    }

    /// The cache directory (created private if missing), checked by the trust rule.
    pub fn trusted_dir() -> Result<TrustedDir, String> {
        TrustedDir::open(&Cache::location()?, true)
    }

    /// The key images are sealed with, created on first use. Two processes creating it at
    /// once agree on one: each links its candidate into place only if none is there.
    pub fn seal_key(&self) -> Result<[u8; 32], String> {
        if let Some(key) = self.read_key()? {
            return Ok(key);
        }
        let mut candidate = [0u8; 32];
        random_bytes(&mut candidate)?;
        self.dir.create_once(KEY, &candidate)?;
        self.read_key()?.ok_or_else(|| format!("cannot create {}", self.dir.path().join(KEY).display()))
    }

    fn read_key(&self) -> Result<Option<[u8; 32]>, String> {
        let Some(bytes) = self.dir.read(KEY, 32, true)? else { return Ok(None) };
        let key = bytes
            .try_into()
            .map_err(|_| format!("{}: not a pnacl key (32 bytes); remove it", self.dir.path().join(KEY).display()))?;
        Ok(Some(key))
    }

    /// The name of the entry of the pexe whose hash is `pexe_hash`, for this pnacl and a
    /// processor with features `target`.
    pub fn entry(pexe_hash: &[u8; 32], target: &str) -> String {
        let mut h = blake3::Hasher::new();
        h.update(pexe_hash).update(VERSION.as_bytes()).update(b"\0").update(BUILD_ID.as_bytes());
        h.update(b"\0").update(target.as_bytes());
        format!("{}.pnaclo", h.finalize().to_hex())
    }

    /// Loads the entry `name` if it is a valid image of the pexe `pexe_hash`.
    pub fn lookup(&self, name: &str, pexe_hash: &[u8; 32], target: &str, key: &[u8; 32]) -> Lookup {
        let bytes = match self.images.read(name, crate::input::max_input(), false) {
            Ok(Some(bytes)) => bytes,
            Ok(None) => return Lookup::Miss,
            Err(why) => return Lookup::Bad(why),
        };
        match Image::from_bytes(&bytes, target, key) {
            Ok(image) if &image.pexe_hash == pexe_hash => Lookup::Hit(Box::new(image)),
            Ok(_) => Lookup::Bad("the image of another pexe".into()),
            Err(e) => Lookup::Bad(e.to_string()),
        }
    }

    /// Stores what `write` writes as the entry `name` (a private temporary file renamed
    /// into place).
    pub fn store(&self, name: &str, write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>) -> Result<(), String> {
        self.images.write(name, write)
    }

    /// The cached images: their names and total size.
    fn images(&self) -> Result<(Vec<String>, u64), String> {
        let entries = self.images.entries()?;
        let size = entries.iter().filter_map(|e| e.1).sum();
        Ok((entries.into_iter().map(|e| e.0).collect(), size))
    }
}

/// Fills `buf` with random bytes from the system.
pub fn random_bytes(buf: &mut [u8]) -> Result<(), String> {
    use std::io::Read;
    std::fs::File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(buf))
        .map_err(|e| format!("no random bytes for a key: {e}"))
}

/// Says, once per process, for `command`, that the cache is not used and why.
pub fn warn_unused(command: &str, why: &str, instead: &str) {
    static WARNED: std::sync::Once = std::sync::Once::new();
    WARNED.call_once(|| {
        report::emit(command, &Diagnostic::error(None, format!("{why}; {instead}")).warning());
    });
}

/// Runs `pnacl cache`; returns the exit status.
pub fn run(args: &Args) -> i32 {
    let result = Cache::open().and_then(|cache| {
        // A key others can read is as bad as a directory they can write.
        cache.read_key()?;
        let (names, size) = cache.images()?;
        let dir = cache.dir.path().display();
        let text = match args.action {
            Action::Info => format!(
                "cache: {dir}\ntranslations: {} ({:.1} MB)\npnacl {VERSION} (build {BUILD_ID}), for {}\n",
                names.len(),
                size as f64 / 1e6,
                pnacl_codegen::target_features()?
            ),
            Action::Clean => {
                for name in &names {
                    cache
                        .images
                        .remove(name)
                        .map_err(|e| format!("{}: {e}", cache.images.path().join(name).display()))?;
                }
                let s = if names.len() == 1 { "" } else { "s" };
                format!("removed {} translation{s} ({:.1} MB) from {dir}\n", names.len(), size as f64 / 1e6)
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
        let a = Cache::entry(&[1; 32], "x86_64,has_avx=true");
        assert_ne!(a, Cache::entry(&[2; 32], "x86_64,has_avx=true"));
        assert_ne!(a, Cache::entry(&[1; 32], "x86_64,has_avx=false"));
        assert!(a.ends_with(".pnaclo") && !a.contains('/'));
    }
}
