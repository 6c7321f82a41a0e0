//! Helpers shared by the compressor's test suites.

#![allow(dead_code)]

use pnacl_bitcode::{Module, NoListener, ReadOptions, read_with};
use pnacl_text::dis::{Options, disassemble};

/// Reads a pexe as `pnacl compress` does (ABI rules deferred to the verifier).
pub fn read(bytes: &[u8]) -> Module {
    let opts = ReadOptions { defer_abi: true, ..ReadOptions::default() };
    read_with(bytes, opts, &mut NoListener).unwrap_or_else(|e| panic!("{}", e.explain()))
}

/// The assembly column of `pnacl dis --no-records`, less what compression changes by
/// design.
///
/// Compression rewrites abbreviations, so it necessarily changes exactly three things in
/// the listing, and they are removed here: the abbreviations block (`abbreviations {` to
/// its closing `}`), local abbreviation definitions (`%aN = abbrev <...>;`, which wrap onto
/// continuation lines when long), and the abbreviation annotations after records
/// (` <@aN>`, ` <%aN>`). An annotation that did not fit on its line was printed alone on
/// the next one: such lines, empty once it is removed, are dropped, and trailing spaces are
/// trimmed. Everything else (every instruction, value, type, name and block, in order)
/// must be identical.
pub fn assembly_without_abbreviations(bytes: &[u8]) -> String {
    let mut out = Vec::new();
    let options = Options { records: false, assembly: true, abi_checks: true };
    let error = disassemble(bytes, &options, &mut out).expect("writing to memory");
    assert!(error.is_none(), "the listing ends with an error: {error:?}");
    let text = String::from_utf8(out).expect("the listing is UTF-8");
    let lines: Vec<&str> = text.lines().collect();
    let mut kept = Vec::with_capacity(lines.len());
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        if trimmed.starts_with("abbreviations {") {
            i += 1;
            while i < lines.len() && !(lines[i].trim() == "}" && lines[i].len() - lines[i].trim_start().len() == indent)
            {
                i += 1;
            }
            i += 1;
            continue;
        }
        if is_definition(trimmed) {
            while i < lines.len() && !lines[i].trim_end().ends_with(';') {
                i += 1;
            }
            i += 1;
            continue;
        }
        let stripped = strip_annotations(line);
        let stripped = stripped.trim_end();
        if !stripped.trim().is_empty() {
            kept.push(stripped.to_string());
        }
        i += 1;
    }
    kept.join("\n")
}

/// True for the first line of an abbreviation definition: `@aN = abbrev` or `%aN = abbrev`.
fn is_definition(trimmed: &str) -> bool {
    let Some(rest) = trimmed.strip_prefix("@a").or_else(|| trimmed.strip_prefix("%a")) else { return false };
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    digits > 0 && rest[digits..].starts_with(" = abbrev ")
}

/// Removes every ` <@aN>` and ` <%aN>` annotation from a line.
fn strip_annotations(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(at) = rest.find('<') {
        let tail = &rest[at + 1..];
        let id = tail.strip_prefix("@a").or_else(|| tail.strip_prefix("%a"));
        let len = id.map(|id| id.bytes().take_while(u8::is_ascii_digit).count());
        match (id, len) {
            (Some(id), Some(n)) if n > 0 && id[n..].starts_with('>') => {
                out.push_str(rest[..at].strip_suffix(' ').unwrap_or(&rest[..at]));
                rest = &id[n + 1..];
            }
            _ => {
                out.push_str(&rest[..=at]);
                rest = tail;
            }
        }
    }
    out.push_str(rest);
    out
}

#[test]
fn annotations_and_definitions_are_recognised() {
    assert_eq!(strip_annotations("    ret void; <@a3>"), "    ret void;");
    assert_eq!(strip_annotations("    const @g1, align 1, <@a6>"), "    const @g1, align 1,");
    assert_eq!(strip_annotations("    @t4 = void (i32); <%a12>"), "    @t4 = void (i32);");
    assert_eq!(strip_annotations("    %v1 = icmp slt i32 %v0, %c1;"), "    %v1 = icmp slt i32 %v0, %c1;");
    assert!(is_definition("%a0 = abbrev <8, fixed(5)>;"));
    assert!(is_definition("@a12 = abbrev <1, vbr(8),"));
    assert!(!is_definition("@f0 : \"a\";"));
}
