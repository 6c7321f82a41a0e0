//! Archives of LLVM bitcode members: `ar` archives with a GNU symbol table, as `llvm-ar`
//! writes them (written here with `ar_archive_writer`, rustc's port of LLVM's archive
//! writer; read with the `object` crate), and picking their members as a linker does.
//!
//! The symbol table says which member defines each symbol, so linking a program reads
//! only the members it needs, not the whole library.

use object::read::archive::ArchiveFile;
use pnacl_llvm::Module;
use pnacl_llvm::ir::Linkage;
use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

/// The symbols a module defines for others, and the ones it uses without defining.
#[derive(Debug, Default)]
pub struct Symbols {
    /// External functions with bodies, variables with initialisers, aliases.
    pub defined: BTreeSet<String>,
    /// External declarations (not weak ones: like a linker, a weak reference does not
    /// pull a member in).
    pub undefined: BTreeSet<String>,
}

/// The external symbols of `m`. Intrinsics are not symbols, but those a pass turns into
/// calls of C library functions stand for those functions.
pub fn symbols(m: &Module) -> Symbols {
    let mut s = Symbols::default();
    let local = |l: Linkage| matches!(l, Linkage::Internal | Linkage::Private);
    for f in &m.functions {
        if f.is_intrinsic() {
            // What a pass will make a call to (llvm.floor.f64 becomes floor) is needed too.
            s.undefined.extend(pnacl_passes::expand_modern_intrinsics::c_function(&f.props.name));
            continue;
        }
        if local(f.props.linkage) {
            continue;
        }
        if !f.is_declaration() {
            s.defined.insert(f.props.name.clone());
        } else if f.props.linkage != Linkage::ExternalWeak {
            s.undefined.insert(f.props.name.clone());
        }
    }
    for g in &m.globals {
        if local(g.props.linkage) {
            continue;
        }
        if g.init.is_some() {
            s.defined.insert(g.props.name.clone());
        } else if g.props.linkage != Linkage::ExternalWeak {
            s.undefined.insert(g.props.name.clone());
        }
    }
    for a in &m.aliases {
        if !local(a.props.linkage) {
            s.defined.insert(a.props.name.clone());
        }
    }
    for d in &s.defined {
        s.undefined.remove(d);
    }
    s
}

/// How `ar_archive_writer` learns a member's symbols: from its bitcode.
fn member_symbols(buf: &[u8], f: &mut dyn FnMut(&[u8]) -> std::io::Result<()>) -> std::io::Result<bool> {
    let Ok(m) = pnacl_llvm::read(buf) else { return Ok(false) };
    for name in symbols(&m).defined {
        f(name.as_bytes())?;
    }
    Ok(true)
}

static BITCODE_READER: ar_archive_writer::ObjectReader = ar_archive_writer::ObjectReader {
    get_symbols: member_symbols,
    is_64_bit_object_file: |_| false,
    is_ec_object_file: |_| false,
    is_any_arm64_coff: |_| false,
    get_xcoff_member_alignment: |_| 1,
};

/// The archive of `members` (name, contents; bitcode members' defined symbols go in its
/// symbol table), as GNU `ar` lays it out, deterministically (no dates, owners or modes).
pub fn to_bytes(members: Vec<(String, Vec<u8>)>) -> std::io::Result<Vec<u8>> {
    let members: Vec<_> = members
        .into_iter()
        .map(|(name, bytes)| ar_archive_writer::NewArchiveMember::new(bytes, &BITCODE_READER, name))
        .collect();
    let mut out = std::io::Cursor::new(Vec::new());
    ar_archive_writer::write_archive_to_stream(&mut out, &members, ar_archive_writer::ArchiveKind::Gnu, false, None)?;
    Ok(out.into_inner())
}

/// Writes the archive `members` (name, bitcode) to `path`, with its symbol table.
pub fn write(path: &Path, members: Vec<(String, Vec<u8>)>) -> Result<(), String> {
    let bytes = to_bytes(members).map_err(|e| format!("{}: {e}", path.display()))?;
    std::fs::write(path, bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// An archive opened for linking: its bytes and which member defines each symbol.
pub struct Archive {
    path: PathBuf,
    bytes: Vec<u8>,
    /// Each member's name and the range of its bytes.
    members: Vec<(String, (u64, u64))>,
    /// Symbol name to the member defining it (the first, as a linker takes the first).
    index: HashMap<String, usize>,
}

impl Archive {
    /// Reads the archive at `path` and its symbol table. An archive without one, or with
    /// an empty one (`ar` without `s`, or binutils' `ar`, which cannot read bitcode's
    /// symbols), is indexed by reading every member.
    pub fn open(path: &Path) -> Result<Archive, String> {
        let bytes = crate::input::read_input(path, crate::input::Expect::Archive)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        Archive::parse(path, bytes)
    }

    fn parse(path: &Path, bytes: Vec<u8>) -> Result<Archive, String> {
        let bad = |e: object::read::Error| format!("{}: not an archive: {e}", path.display());
        let file = ArchiveFile::parse(&*bytes).map_err(bad)?;
        if file.is_thin() {
            return Err(format!("{}: a thin archive (its members are other files): not supported", path.display()));
        }
        let mut members = Vec::new();
        let mut index = HashMap::new();
        if let Some(table) = file.symbols().map_err(bad)? {
            let mut by_offset: HashMap<u64, usize> = HashMap::new();
            for sym in table {
                let sym = sym.map_err(bad)?;
                let offset = sym.offset().0;
                let k = match by_offset.get(&offset) {
                    Some(&k) => k,
                    None => {
                        let member = file.member(sym.offset()).map_err(bad)?;
                        members.push((String::from_utf8_lossy(member.name()).into_owned(), member.file_range()));
                        by_offset.insert(offset, members.len() - 1);
                        members.len() - 1
                    }
                };
                index.entry(String::from_utf8_lossy(sym.name()).into_owned()).or_insert(k);
            }
        }
        if index.is_empty() {
            members.clear();
            for member in file.members() {
                let member = member.map_err(bad)?;
                let data = member.data(&*bytes).map_err(bad)?;
                if let Ok(m) = pnacl_llvm::read(data) {
                    members.push((String::from_utf8_lossy(member.name()).into_owned(), member.file_range()));
                    for name in symbols(&m).defined {
                        index.entry(name).or_insert(members.len() - 1);
                    }
                }
            }
        }
        Ok(Archive { path: path.to_path_buf(), bytes, members, index })
    }

    /// The member defining `symbol`, if any.
    pub fn defining(&self, symbol: &str) -> Option<usize> {
        self.index.get(symbol).copied()
    }

    /// Member `k` read as a module, and its name, `archive(member)`.
    pub fn module(&self, k: usize) -> Result<(String, Module), String> {
        let (member, (start, len)) = &self.members[k];
        let name = format!("{}({member})", self.path.display());
        let data = usize::try_from(*start)
            .ok()
            .zip(usize::try_from(*len).ok())
            .and_then(|(s, l)| self.bytes.get(s..s.checked_add(l)?))
            .ok_or_else(|| format!("{name}: cut short"))?;
        let m = pnacl_llvm::read(data).map_err(|e| format!("{name}: {e}"))?;
        Ok((name, m))
    }
}

/// The members of `archives` a program needs, as a linker picks them from a group of
/// archives (`--start-group`): every member that defines a symbol the program, or a
/// member already taken, uses and nobody defines yet; `roots` are needed from the start
/// (`_start`). Returns the members' modules, with their names (`archive(member)`), in the
/// order they were taken.
pub fn pick<'a>(
    program: impl IntoIterator<Item = &'a Module>,
    roots: &[&str],
    archives: &[Archive],
) -> Result<Vec<(String, Module)>, String> {
    let mut defined = BTreeSet::new();
    let mut wanted: Vec<String> = roots.iter().map(|s| s.to_string()).collect();
    for m in program {
        let s = symbols(m);
        wanted.extend(s.undefined);
        defined.extend(s.defined);
    }
    let mut taken: BTreeSet<(usize, usize)> = BTreeSet::new();
    let mut out = Vec::new();
    while let Some(name) = wanted.pop() {
        if defined.contains(&name) {
            continue;
        }
        let Some(key) = archives.iter().enumerate().find_map(|(k, a)| a.defining(&name).map(|o| (k, o))) else {
            continue;
        };
        if !taken.insert(key) {
            continue;
        }
        let (member, m) = archives[key.0].module(key.1)?;
        let s = symbols(&m);
        defined.extend(s.defined);
        wanted.extend(s.undefined.into_iter().filter(|u| !defined.contains(u)));
        out.push((member, m));
    }
    Ok(out)
}

/// The members of the archive `bytes` read from `path` (name, contents), in order; the
/// symbol table and the long-names table are not members.
pub fn members(path: &Path, bytes: &[u8]) -> Result<Vec<(String, Vec<u8>)>, String> {
    let bad = |e: object::read::Error| format!("{}: not an archive: {e}", path.display());
    let file = ArchiveFile::parse(bytes).map_err(bad)?;
    if file.is_thin() {
        return Err(format!("{}: a thin archive (its members are other files): not supported", path.display()));
    }
    let mut out = Vec::new();
    for member in file.members() {
        let member = member.map_err(bad)?;
        let data = member.data(bytes).map_err(bad)?;
        out.push((String::from_utf8_lossy(member.name()).into_owned(), data.to_vec()));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// An archive of two members that are not bitcode (no symbols), and a member name of
    /// more than 15 bytes (GNU's long-name table).
    fn sample() -> Vec<u8> {
        to_bytes(vec![
            ("a.o".to_string(), b"first member".to_vec()),
            ("a-member-with-a-long-name.o".to_string(), b"second".to_vec()),
        ])
        .expect("an archive")
    }

    #[test]
    fn members_come_back_as_they_went_in() {
        let got = members(Path::new("x.a"), &sample()).expect("members");
        assert_eq!(
            got,
            vec![
                ("a.o".to_string(), b"first member".to_vec()),
                ("a-member-with-a-long-name.o".to_string(), b"second".to_vec())
            ]
        );
        let archive = Archive::parse(Path::new("x.a"), sample()).expect("an archive");
        assert_eq!(archive.defining("anything"), None);
    }

    proptest! {
        /// A damaged or cut archive is an error or some members, never a panic.
        #[test]
        fn damaged_archives_never_panic(at in 0usize..400, byte in any::<u8>(), cut in 0usize..400) {
            let mut bytes = sample();
            if let Some(b) = bytes.get_mut(at) {
                *b = byte;
            }
            bytes.truncate(cut.max(8));
            let _ = members(Path::new("x.a"), &bytes);
            let _ = Archive::parse(Path::new("x.a"), bytes);
        }
    }
}
