//! `pnacl dis` on malformed and ABI-breaking input, against listings written by hand from
//! pnacl-bcdis's rules (tools-facts §1.7 and the original's source): each error follows the
//! lines of its record as `Error(B:b): message`, and the listing goes on with the values
//! pnacl-bcdis assumes, up to twenty errors.
//!
//! Each case is textual records (`tests/data/dis_recovery/NAME.tbc`, turned into bitcode by
//! `pnacl asm --records`'s library function) and the expected assembly column with the
//! error lines (`NAME.expect`; `#` lines are comments). In the expectations an error's
//! position is written `@` when it is the address of the record line just before it, and
//! `@-1` for the record line before that; an error the original ends without a newline is
//! marked `<no newline>` (the next record's line then follows it on the same line).

use std::path::PathBuf;

/// Width of the label and record columns, separators included.
const ASSEMBLY_COLUMN: usize = 41;

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/dis_recovery").join(name)
}

fn listing(tbc: &str) -> (String, Option<pnacl_text::dis::ListingErrors>) {
    let bytes = pnacl_text::tbc::records_to_bitcode(tbc).expect("valid textual records");
    let mut out = Vec::new();
    let errors = pnacl_text::dis::disassemble(&bytes, &Default::default(), &mut out).expect("in-memory output");
    (String::from_utf8(out).expect("ASCII listing"), errors)
}

/// The listing's lines, with an error line that runs into the next record's line split
/// in two (the error part marked `<no newline>`).
fn split_lines(listing: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in listing.lines() {
        match line.find('|') {
            Some(bar) if line.starts_with("Error(") => {
                let split = bar - 10;
                out.push(format!("{}<no newline>", &line[..split]));
                out.push(line[split..].to_string());
            }
            _ => out.push(line.to_string()),
        }
    }
    out
}

/// The listing as the expectations write it: the assembly column of record lines, error
/// lines with their positions made relative to the record lines before them.
fn as_expected(listing: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut labels: Vec<&str> = Vec::new();
    let lines = split_lines(listing);
    for line in &lines {
        if let Some(error) = line.strip_prefix("Error(") {
            let (pos, message) = error.split_once("): ").expect("Error(B:b): message");
            let relative = match labels.iter().rev().position(|l| *l == pos) {
                Some(0) => "@".to_string(),
                Some(n) => format!("@-{n}"),
                None => pos.to_string(),
            };
            out.push(format!("Error({relative}): {message}"));
        } else if line.len() >= ASSEMBLY_COLUMN && line.as_bytes()[10] == b'|' {
            let label = line[..10].trim();
            let asm = &line[ASSEMBLY_COLUMN..];
            if !label.is_empty() {
                labels.push(label);
            } else if asm.is_empty() {
                // A continuation line of a record: no assembly.
                continue;
            }
            out.push(asm.to_string());
        } else {
            out.push(line.to_string());
        }
    }
    out
}

fn expected(name: &str) -> Vec<String> {
    let text = std::fs::read_to_string(data(&format!("{name}.expect"))).expect("expectation");
    text.lines().filter(|l| !l.starts_with('#')).map(str::to_string).collect()
}

fn check(name: &str) -> (String, Option<pnacl_text::dis::ListingErrors>) {
    let tbc = std::fs::read_to_string(data(&format!("{name}.tbc"))).expect("input");
    let (text, errors) = listing(&tbc);
    let got = as_expected(&text);
    let want = expected(name);
    if got != want {
        let diff: Vec<String> = (0..got.len().max(want.len()))
            .filter_map(|i| {
                let (g, w) = (got.get(i), want.get(i));
                (g != w).then(|| format!("line {}: got {g:?}, want {w:?}", i + 1))
            })
            .take(5)
            .collect();
        panic!("{name}: listing differs:\n{}\n\nlisting:\n{text}", diff.join("\n"));
    }
    (text, errors)
}

#[test]
fn types_block_errors_recover_with_void_and_i32() {
    let (_, errors) = check("types");
    let errors = errors.expect("errors reported");
    assert_eq!(errors.count, 7);
    assert!(errors.first.ends_with("Integer record contains bad integer size: 7"), "{}", errors.first);
}

#[test]
fn globals_block_errors_are_reported_at_the_last_record() {
    let (_, errors) = check("globals");
    assert_eq!(errors.expect("errors").count, 3);
}

#[test]
fn function_block_errors_each_follow_their_record() {
    let (text, errors) = check("function");
    assert_eq!(errors.expect("errors").count, 12);
    // The error without a newline, and the record line that follows it on its line.
    assert!(text.contains("Invalid integer arithmetic type: i1     116:0|"), "{text}");
}

#[test]
fn twenty_errors_end_the_listing() {
    let (text, errors) = check("too-many-errors");
    assert_eq!(errors.expect("errors").count, 20);
    assert!(text.ends_with("Too many errors\nUnable to continue\n"));
}

/// A fault in the bitstream itself ends the listing at once, after what was read.
#[test]
fn a_malformed_bitstream_ends_the_listing() {
    let tbc = std::fs::read_to_string(data("types.tbc")).expect("input");
    let mut bytes = pnacl_text::tbc::records_to_bitcode(&tbc).expect("records");
    // Cut the file inside the types block: its length word now runs past the end.
    bytes.truncate(bytes.len() - 8);
    let mut out = Vec::new();
    let errors = pnacl_text::dis::disassemble(&bytes, &Default::default(), &mut out).expect("output");
    let text = String::from_utf8(out).expect("ASCII");
    let last = text.lines().last().unwrap_or_default();
    assert!(last.starts_with("Error(") && errors.is_some(), "{text}");
    assert_eq!(text.matches("Error(").count(), 1, "{text}");
}

#[test]
fn module_level_checks_and_unknown_blocks() {
    let (_, errors) = check("blocks");
    assert_eq!(errors.expect("errors").count, 10);
}

#[test]
fn instruction_checks() {
    let (_, errors) = check("instructions");
    assert_eq!(errors.expect("errors").count, 8);
}

/// Alignments above 2**29 in a global variable, an alloca, a load and a store: `align 0`
/// and the error, then the listing goes on.
#[test]
fn alignments_above_2_pow_29_list_as_0_with_an_error() {
    let (_, errors) = check("alignment");
    let errors = errors.expect("errors reported");
    assert_eq!(errors.count, 7);
    assert_eq!(errors.first, "Error(66:4): Alignment can't be greater than 2**29. Found: 2**30");
}
