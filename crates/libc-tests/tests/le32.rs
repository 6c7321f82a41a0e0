//! The library as `pnacl cc` compiles it: clang-14 for `le32-unknown-nacl` with the flags
//! of `libc/clang-flags.txt`. Every source must compile without a warning, and the bitcode
//! may use only LLVM intrinsics that PNaCl allows (the whitelist of tools-facts §3.3, read
//! from the design notes) or that an ABI simplification pass removes (freeze-facts §6).

use pnacl_libc::le32;
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::OnceLock;

fn work_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("libc-le32")
}

fn bitcode() -> &'static Vec<PathBuf> {
    static BITCODE: OnceLock<Result<Vec<PathBuf>, String>> = OnceLock::new();
    match BITCODE.get_or_init(|| le32::compile(&work_dir())) {
        Ok(files) => files,
        Err(e) => panic!("the library does not compile for le32: {e}"),
    }
}

/// The intrinsic names of the PNaCl whitelist, from tools-facts.md §3.3.
fn pnacl_allowed_intrinsics() -> BTreeSet<String> {
    // Found as the corpus is (`PNACL_CORPUS`, or next to the repository), from a worktree too.
    let path = pnacl_testutil::design_dir().join("tools-facts.md");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("the design notes are missing ({}: {e})", path.display()));
    let start = text.find("### 3.3").expect("tools-facts.md has §3.3");
    let end = start + text[start..].find("### 3.4").expect("tools-facts.md has §3.4");
    let mut names: BTreeSet<String> = BTreeSet::new();
    for piece in text[start..end].split('`').skip(1).step_by(2) {
        if piece.starts_with("llvm.") && !piece.contains(' ') {
            names.insert(piece.to_string());
        }
    }
    assert!(names.contains("llvm.memcpy.p0i8.p0i8.i32"), "§3.3 parsed: {names:?}");
    names
}

/// Intrinsics clang emits that an ABI simplification pass removes or rewrites
/// (freeze-facts.md §6): the pass that handles each.
const REMOVED_BY_PASSES: &[(&str, &str)] = &[
    ("llvm.va_start", "ExpandVarArgs"),
    ("llvm.va_end", "ExpandVarArgs"),
    ("llvm.va_copy", "ExpandVarArgs"),
    ("llvm.lifetime.start.p0i8", "ReplacePtrsWithInts"),
    ("llvm.lifetime.end.p0i8", "ReplacePtrsWithInts"),
    ("llvm.umul.with.overflow.i32", "ExpandArithWithOverflow"),
    ("llvm.umul.with.overflow.i64", "ExpandArithWithOverflow"),
    // Intrinsics newer than LLVM 3.7 that clang-14's optimiser makes from plain C:
    // pnacl's own pass expands them into compares and selects.
    ("llvm.abs.i32", "nacl-expand-modern-intrinsics (abs())"),
    ("llvm.abs.i64", "nacl-expand-modern-intrinsics (llabs(), printf's magnitudes)"),
    ("llvm.smax.i32", "nacl-expand-modern-intrinsics (strtod's exponent clamping)"),
    ("llvm.usub.sat.i32", "nacl-expand-modern-intrinsics (printf's padding)"),
];

/// True when an IR line mentions a vector type `<N x T>`.
fn has_vector_type(line: &str) -> bool {
    line.match_indices('<').any(|(i, _)| {
        let rest = &line[i + 1..];
        let digits = rest.chars().take_while(char::is_ascii_digit).count();
        digits > 0 && rest[digits..].starts_with(" x ")
    })
}

#[test]
fn every_source_compiles_without_warnings() {
    assert_eq!(bitcode().len(), pnacl_libc::sources().len());
}

#[test]
fn only_pnacl_intrinsics_or_ones_the_passes_remove() {
    let allowed = pnacl_allowed_intrinsics();
    let mut used = BTreeSet::new();
    for bc in bitcode() {
        let ir = le32::disassemble(bc).expect("llvm-dis");
        assert!(!ir.contains(" asm "), "{}: inline assembly", bc.display());
        for line in ir.lines() {
            assert!(!has_vector_type(line), "{}: a vector type: {line}", bc.display());
        }
        used.extend(le32::intrinsics(&ir));
    }
    println!("intrinsics used by the library: {used:?}");
    let removed: BTreeSet<&str> = REMOVED_BY_PASSES.iter().map(|(n, _)| *n).collect();
    let unexpected: Vec<&String> =
        used.iter().filter(|n| !allowed.contains(*n) && !removed.contains(n.as_str())).collect();
    assert!(unexpected.is_empty(), "intrinsics neither allowed nor handled: {unexpected:?}");
}

/// Linked together, the library needs only main and the TLS template symbols ExpandTls
/// defines: no helper routines, no libm, no setjmp/longjmp (the passes provide those).
#[test]
fn linked_library_needs_only_main_and_the_tls_template() {
    let undefined = le32::undefined_after_link(bitcode(), &work_dir()).expect("llvm-link");
    let expected: BTreeSet<String> =
        ["main", "__tls_template_start", "__tls_template_tdata_end", "__tls_template_end", "__tls_template_alignment"]
            .into_iter()
            .map(String::from)
            .collect();
    assert_eq!(undefined, expected);
}

/// Every header compiles on its own and together with the others, in C99 and C11, with
/// clang's pedantic warnings, as programs include them.
#[test]
fn headers_compile_alone_and_together() {
    let include = pnacl_libc::include_dir();
    let mut headers = Vec::new();
    for dir in [include.clone(), include.join("sys")] {
        for entry in std::fs::read_dir(&dir).expect("read libc/include") {
            let path = entry.expect("entry").path();
            if path.extension().is_some_and(|e| e == "h") {
                headers.push(path.strip_prefix(&include).expect("under include").to_path_buf());
            }
        }
    }
    headers.sort();
    let work = work_dir().join("headers");
    std::fs::create_dir_all(&work).expect("create the header test directory");
    let mut all = String::new();
    for (i, header) in headers.iter().enumerate() {
        let line = format!("#include <{}>\n", header.display());
        all.push_str(&line);
        check_header_source(&work.join(format!("h{i}.c")), &format!("{line}int x;\n"));
    }
    check_header_source(&work.join("all.c"), &format!("{all}int main(void) {{ return 0; }}\n"));
}

fn check_header_source(path: &std::path::Path, text: &str) {
    std::fs::write(path, text).expect("write a header test source");
    for std in ["-std=c99", "-std=c11"] {
        let out = pnacl_libc::run(
            std::process::Command::new(le32::clang().expect("clang-14"))
                .args(pnacl_libc::clang_flags())
                .arg("-isystem")
                .arg(pnacl_libc::include_dir())
                .args([std, "-Wall", "-Wextra", "-pedantic", "-o", "/dev/null"])
                .arg(path),
        )
        .unwrap_or_else(|e| panic!("{text}: {e}"));
        assert!(out.stderr.is_empty(), "{text} ({std}):\n{}", String::from_utf8_lossy(&out.stderr));
    }
}
