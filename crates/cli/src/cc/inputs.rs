//! What `pnacl cc` links, as a C compiler's linker takes it: the files of the command
//! line told apart by their contents (C source, LLVM bitcode objects, archives), `-lNAME`
//! found as `libNAME.a` in the `-L` directories, the archives' members taken as a linker
//! takes them, and every symbol still undefined after that reported with the files that use
//! it.

use super::command_line::{BUILT_IN_LIBRARIES, Input};
use crate::archive::symbols;
use pnacl_llvm::Module;
use pnacl_llvm::ir::Linkage;
use std::collections::{BTreeMap, BTreeSet};
use std::io::Read;
use std::path::{Path, PathBuf};

/// What a file on the command line is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Anything clang compiles (C source, preprocessed C, LLVM IR text).
    Source,
    /// LLVM bitcode: an object of `pnacl cc -c` or `clang -emit-llvm -c` (a pexe is refused
    /// when it is read, with the command that turns it back into LLVM IR).
    Bitcode,
    /// An `ar` archive.
    Archive,
}

/// What the file at `path` is, from its first bytes, or else its name (`.o`, `.bc`: bitcode,
/// `.a`: an archive; anything else is source).
pub fn kind(path: &Path) -> Result<Kind, String> {
    if path.as_os_str() == "-" {
        return Ok(Kind::Source);
    }
    let mut head = Vec::with_capacity(8);
    std::fs::File::open(path)
        .and_then(|f| f.take(8).read_to_end(&mut head))
        .map_err(|e| format!("{}: {e}", path.display()))?;
    if head.starts_with(b"BC\xc0\xde") || head.starts_with(&[0xde, 0xc0, 0x17, 0x0b]) || head.starts_with(b"PEXE") {
        return Ok(Kind::Bitcode);
    }
    if head.starts_with(b"!<arch>\n") || head.starts_with(b"!<thin>\n") {
        return Ok(Kind::Archive);
    }
    if head.starts_with(b"\x7fELF") {
        return Err(format!(
            "{}: a native object or program, not LLVM bitcode: pnacl cc links the bitcode objects that \
             `pnacl cc -c` (or `clang -target le32-unknown-nacl -emit-llvm -c`) writes",
            path.display()
        ));
    }
    // What only a linker takes is never handed to clang as source: reading it as bitcode
    // or as an archive says what is wrong with it.
    match path.extension().and_then(|e| e.to_str()) {
        Some("o" | "bc" | "obj" | "pexe") => Ok(Kind::Bitcode),
        Some("a") => Ok(Kind::Archive),
        _ => Ok(Kind::Source),
    }
}

/// `-lNAME` as a file: `libNAME.a` (or, for `-l:FILE`, `FILE`) in the first of `dirs` that
/// has it; `None` for the libraries the C library already is (`-lm`, `-lc`, `-lpthread`).
pub fn find_library(name: &str, dirs: &[PathBuf]) -> Result<Option<PathBuf>, String> {
    if BUILT_IN_LIBRARIES.contains(&name) {
        return Ok(None);
    }
    let file = match name.strip_prefix(':') {
        Some(file) => file.to_string(),
        None => format!("lib{name}.a"),
    };
    if name.is_empty() || file.contains('/') {
        return Err(format!("-l{name}: not a library name"));
    }
    match dirs.iter().map(|d| d.join(&file)).find(|p| p.is_file()) {
        Some(p) => Ok(Some(p)),
        None if dirs.is_empty() => Err(format!("cannot find -l{name}: no -L directory to look for {file} in")),
        None => Err(format!(
            "cannot find -l{name}: no {file} in {}",
            dirs.iter().map(|d| d.display().to_string()).collect::<Vec<_>>().join(", ")
        )),
    }
}

/// The command line's inputs as files in order, with `-l` libraries found.
pub fn files(inputs: &[Input], dirs: &[PathBuf]) -> Result<Vec<(PathBuf, Kind)>, String> {
    let mut out = Vec::new();
    for input in inputs {
        match input {
            Input::File(p) => out.push((p.clone(), kind(p)?)),
            Input::Library(name) => {
                if let Some(p) = find_library(name, dirs)? {
                    out.push((p, Kind::Archive));
                }
            }
        }
    }
    Ok(out)
}

/// Symbols that no input needs to define: the passes make them (the start and end of the
/// constructor lists and of the TLS template) or turn calls of them into PNaCl's
/// intrinsics (`setjmp`, `longjmp`; `memcpy` and the like without the C library).
const MADE_BY_PASSES: &[&str] = &[
    "setjmp",
    "_setjmp",
    "longjmp",
    "_longjmp",
    "memcpy",
    "memmove",
    "memset",
    "__init_array_start",
    "__init_array_end",
    "__fini_array_start",
    "__fini_array_end",
    "__tls_template_start",
    "__tls_template_tdata_end",
    "__tls_template_end",
    "__tls_template_alignment",
];

/// A symbol nothing defines, and the files that use it.
#[derive(Debug, PartialEq, Eq)]
pub struct Undefined {
    pub name: String,
    /// A function (called), not a variable (used).
    pub function: bool,
    /// The files (or `archive(member)`s) that use it, in link order.
    pub users: Vec<String>,
}

impl std::fmt::Display for Undefined {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let how = if self.function { "called from" } else { "used by" };
        write!(f, "undefined: {} ({how} {})", self.name, self.users.join(", "))
    }
}

/// Every symbol the `modules` (named) use and none defines, by name, each with the
/// modules that use it. Weak references need no definition (they are null without one).
pub fn undefined(modules: &[(String, Module)]) -> Vec<Undefined> {
    let defined: BTreeSet<String> = modules.iter().flat_map(|(_, m)| symbols(m).defined).collect();
    let mut out: BTreeMap<String, Undefined> = BTreeMap::new();
    let needed = |name: &str| !defined.contains(name) && !MADE_BY_PASSES.contains(&name);
    for (file, m) in modules {
        let mut uses: Vec<(String, bool)> = Vec::new();
        for f in &m.functions {
            if f.is_intrinsic() {
                // llvm.floor.f64 becomes a call to floor.
                uses.extend(pnacl_passes::expand_modern_intrinsics::c_function(&f.props.name).map(|n| (n, true)));
            } else if f.is_declaration() && f.props.linkage == Linkage::External {
                uses.push((f.props.name.clone(), true));
            }
        }
        for g in &m.globals {
            if g.init.is_none() && g.props.linkage == Linkage::External {
                uses.push((g.props.name.clone(), false));
            }
        }
        for (name, function) in uses {
            if !needed(&name) {
                continue;
            }
            let entry = out.entry(name.clone()).or_insert_with(|| Undefined { name, function, users: Vec::new() });
            if !entry.users.contains(file) {
                entry.users.push(file.clone());
            }
        }
    }
    out.into_values().collect()
}

/// Every symbol that more than one of the `modules` (named) defines strongly (not weak,
/// common or link-once), with the modules defining it: `defined more than once: foo (in
/// a.c, b.c)`.
pub fn defined_twice(modules: &[(String, Module)]) -> Vec<String> {
    let mut by_name: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (file, m) in modules {
        let functions = m.functions.iter().filter(|f| !f.is_declaration()).map(|f| &f.props);
        let globals = m.globals.iter().filter(|g| g.init.is_some()).map(|g| &g.props);
        let aliases = m.aliases.iter().map(|a| &a.props);
        for props in functions.chain(globals).chain(aliases) {
            if props.linkage == Linkage::External {
                by_name.entry(&props.name).or_default().push(file);
            }
        }
    }
    by_name
        .into_iter()
        .filter(|(_, files)| files.len() > 1)
        .map(|(name, files)| format!("defined more than once: {name} (in {})", files.join(", ")))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn libraries_are_found_in_the_first_directory_that_has_them() {
        let a = tempfile::tempdir().expect("temporary directory");
        let b = tempfile::tempdir().expect("temporary directory");
        std::fs::write(b.path().join("libz.a"), b"!<arch>\n").expect("write");
        std::fs::write(a.path().join("custom.a"), b"!<arch>\n").expect("write");
        let dirs = [a.path().to_path_buf(), b.path().to_path_buf()];
        assert_eq!(find_library("z", &dirs), Ok(Some(b.path().join("libz.a"))));
        assert_eq!(find_library(":custom.a", &dirs), Ok(Some(a.path().join("custom.a"))));
        assert_eq!(find_library("m", &[]), Ok(None));
        assert!(find_library("png", &dirs).expect_err("missing").starts_with("cannot find -lpng: no libpng.a in "));
        assert!(find_library(":../x.a", &dirs).is_err());
    }

    #[test]
    fn files_are_told_apart_by_their_contents() {
        let d = tempfile::tempdir().expect("temporary directory");
        let write = |name: &str, bytes: &[u8]| {
            let p = d.path().join(name);
            std::fs::write(&p, bytes).expect("write");
            p
        };
        assert_eq!(kind(&write("a.o", b"BC\xc0\xde\x35\x14")), Ok(Kind::Bitcode));
        assert_eq!(kind(&write("lib.a", b"!<arch>\n")), Ok(Kind::Archive));
        assert_eq!(kind(&write("odd.src", b"int main(void) { return 0; }\n")), Ok(Kind::Source));
        assert!(kind(&write("native.o", b"\x7fELF\x01\x01")).expect_err("refused").contains("native object"));
        assert_eq!(kind(&write("zeros.o", &[0; 16])), Ok(Kind::Bitcode));
        assert_eq!(kind(&write("text.a", b"not an archive")), Ok(Kind::Archive));
        assert!(kind(&d.path().join("missing.c")).is_err());
    }
}
