//! pnacl's own C library, `libc/` at the root of the repository: where its sources and
//! headers are, the clang flags it is compiled with for `le32-unknown-nacl`, and the two
//! builds its tests make of it.
//!
//! - [`le32`]: every source compiled to bitcode with clang-14 and the flags of
//!   `libc/clang-flags.txt`, exactly as `pnacl cc` compiles the library.
//! - [`native`]: the same sources compiled with gcc for the host, their symbols renamed
//!   with a `pnl_` prefix so that they link next to glibc (the oracle), together with a
//!   host implementation of the IRT and the C test harness of `libc/test`.
//!
//! A missing tool is an error that says which tool and how to install it: no test passes
//! without running.

pub mod le32;
pub mod native;
mod tool;

use std::path::{Path, PathBuf};

pub use tool::{find_tool, run};

/// The `libc/` directory.
pub fn libc_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../libc").canonicalize().expect("libc/ exists")
}

/// The headers, passed with `-isystem` (the library and programs use them with `-nostdinc`).
pub fn include_dir() -> PathBuf {
    libc_dir().join("include")
}

/// Every C source of the library, sorted.
pub fn sources() -> Vec<PathBuf> {
    let mut out = Vec::new();
    collect_c_files(&libc_dir().join("src"), &mut out);
    out.sort();
    out
}

fn collect_c_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.expect("directory entry").path();
        if path.is_dir() {
            collect_c_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "c") {
            out.push(path);
        }
    }
}

/// The flags of `libc/clang-flags.txt` (comments and blank lines dropped), without the
/// include directory.
pub fn clang_flags() -> Vec<String> {
    let path = libc_dir().join("clang-flags.txt");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines().map(|l| l.split('#').next().unwrap_or("").trim()).filter(|l| !l.is_empty()).map(String::from).collect()
}

/// A file name for a source's build products: its path under `libc/src`, with `/` as `_`.
pub fn product_name(source: &Path, extension: &str) -> String {
    let rel = source.strip_prefix(libc_dir().join("src")).unwrap_or(source);
    format!("{}.{extension}", rel.to_string_lossy().replace(['/', '.'], "_"))
}
