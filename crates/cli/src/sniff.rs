//! What a file given to `run` or `compile` is when it is not what they take (a pexe, an
//! image, PNaClAsm text), and which command takes it: C source would otherwise reach the
//! assembler and fail with a PNaClAsm syntax error on its first line.

use std::path::Path;

/// What `bytes`, the contents of `path`, are when they are obviously not a pexe, an image or
/// PNaClAsm text, and what to do with them: a complete sentence for the message; `None`
/// when the file may be one of those.
pub fn wrong_input(path: &Path, bytes: &[u8]) -> Option<String> {
    // The commands to suggest, with the file's own name where it has one.
    let file = if path == Path::new("-") { "FILE".to_string() } else { path.display().to_string() };
    let pexe = match path.file_stem() {
        Some(stem) if path != Path::new("-") => format!("{}.pexe", stem.to_string_lossy()),
        _ => "FILE.pexe".to_string(),
    };
    if bytes.starts_with(b"\x7fELF") {
        return Some(
            "this is a native ELF file (an executable, an object or a .nexe), not a pexe: pnacl runs portable \
             pexes; build one from C with `pnacl cc`"
                .into(),
        );
    }
    if bytes.starts_with(b"BC\xc0\xde") || bytes.starts_with(&[0xde, 0xc0, 0x17, 0x0b]) {
        return Some(format!(
            "this is LLVM bitcode, not a pexe: `pnacl simplify {file} -o {pexe}` makes a pexe of it (or `pnacl \
             finalize` if it is already ABI-simplified)"
        ));
    }
    if bytes.starts_with(b"\0asm") {
        return Some("this is a WebAssembly module, not a pexe".into());
    }
    let extension = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    let text = std::str::from_utf8(bytes).ok()?;
    let first = text.lines().map(str::trim).find(|l| !l.is_empty()).unwrap_or("");
    let c_directive = ["#include", "#define", "#if", "#pragma"].iter().any(|d| first.starts_with(d));
    if matches!(extension, "c" | "h" | "i") || c_directive {
        return Some(format!(
            "this is C source, not a pexe: compile it with `pnacl cc {file} -o {pexe}`, then run that"
        ));
    }
    if matches!(extension, "cc" | "cpp" | "cxx" | "C" | "hpp") {
        return Some("this is C++ source, not a pexe: pnacl compiles C (`pnacl cc`), not C++".into());
    }
    let llvm_ir = matches!(extension, "ll")
        || first.starts_with("; ModuleID")
        || text.lines().any(|l| l.starts_with("target triple") || l.starts_with("target datalayout"));
    if llvm_ir {
        return Some(
            "this is LLVM IR text, not PNaClAsm: assemble it with `llvm-as-19`, then make a pexe of it with \
             `pnacl simplify`"
                .into(),
        );
    }
    None
}

#[cfg(test)]
mod tests {
    use super::wrong_input;
    use std::path::Path;

    fn what(name: &str, bytes: &[u8]) -> String {
        wrong_input(Path::new(name), bytes).unwrap_or_default()
    }

    #[test]
    fn obvious_inputs_are_named() {
        assert!(what("prog.c", b"int main(void) { return 0; }\n").starts_with("this is C source"));
        assert!(what("prog", b"\n#include <stdio.h>\nint main() {}\n").starts_with("this is C source"));
        assert!(what("a.out", b"\x7fELF\x01\x01\x01").starts_with("this is a native ELF file"));
        assert!(what("x.bc", b"BC\xc0\xde\x35\x14").starts_with("this is LLVM bitcode"));
        assert!(what("x.bc", &[0xde, 0xc0, 0x17, 0x0b, 0, 0]).starts_with("this is LLVM bitcode"));
        assert!(what("x.ll", b"define i32 @main() {\n  ret i32 0\n}\n").starts_with("this is LLVM IR text"));
        assert!(what("x.txt", b"; ModuleID = 'x'\n").starts_with("this is LLVM IR text"));
        assert!(what("x.wasm", b"\0asm\x01\0\0\0").starts_with("this is a WebAssembly module"));
        assert!(what("x.cpp", b"int main() {}").starts_with("this is C++ source"));
    }

    #[test]
    fn pnaclasm_and_listings_are_left_to_the_assembler() {
        let asm = "module {  // BlockID = 8\n  version 1;\n}\n";
        assert_eq!(wrong_input(Path::new("f.pnaclasm"), asm.as_bytes()), None);
        let listing = "       0:0|<65532, 80, 69, 88, 69, 1, 0,|Magic Number: 'PEXE' (80, 69, 88, 69)\n";
        assert_eq!(wrong_input(Path::new("f.lst"), listing.as_bytes()), None);
        assert_eq!(wrong_input(Path::new("-"), b"\xff\xfe"), None);
    }
}
