//! The reference's listings as goldens for `pnacl dis`.
//!
//! Every listing of `pnacl-bitcode-files.txt` is embedded in the smallest module that puts
//! its records at their addresses (see `spec/embed.rs`), assembled, and disassembled; each
//! of its lines must then be the disassembler's line at the same place: the address, the
//! record column character for character, and the assembly column. Whole-module listings
//! must be the whole output.
//!
//! Two things of the reference's typesetting are normalised, on both sides: the address
//! column is right-aligned in ten characters by the tool but printed with fewer leading
//! spaces in the reference, and the reference drops trailing spaces (the tool leaves two
//! after a function header's `{` when the `// BlockID` comment wraps: see the formatter
//! unit tests). The errata of `spec/errata.rs` apply: the reference prints SETBID records
//! with index `1:` where the file has an unabbreviated record, `3:`.

mod spec;

use spec::errata::{ERRATA, Fix};
use spec::{Kind, Listing};
use std::collections::HashMap;

/// Listings that cannot be embedded in any valid module (see `spec_positions.rs`).
const NOT_EMBEDDABLE: &[usize] = &[1252, 1300];

/// A listing line split for comparison: trimmed address, record column, trimmed assembly.
fn columns(line: &str) -> (String, String, String) {
    let Some((label, rest)) = line.split_once('|') else { return (String::new(), line.to_string(), String::new()) };
    let (record, asm) = rest.split_once('|').unwrap_or((rest, ""));
    (label.trim().to_string(), record.to_string(), asm.trim_end().to_string())
}

/// Assembles the embedding of `l`, disassembles it, and compares. Returns the number of
/// lines compared.
fn check(l: &Listing) -> Result<usize, String> {
    let e = spec::embed(l)?;
    let bytes = pnacl_text::asm::assemble(&e.text).map_err(|err| err.render("embedding"))?;
    let mut out = Vec::new();
    // Embeddings may declare functions with types the ABI forbids (the integer types
    // example uses `i1` parameters): list them as pnacl-bcdis -ignore-pnaclabi-checks does.
    let options = pnacl_text::dis::Options { abi_checks: false, ..Default::default() };
    let error = pnacl_text::dis::disassemble(&bytes, &options, &mut out).map_err(|e| e.to_string())?;
    if let Some(err) = error {
        return Err(format!("disassembly failed: {err}"));
    }
    let listing = String::from_utf8(out).map_err(|e| e.to_string())?;
    let dis: Vec<&str> = listing.lines().collect();
    let by_address: HashMap<String, usize> = dis
        .iter()
        .enumerate()
        .filter_map(|(i, line)| {
            let (label, ..) = columns(line);
            (!label.is_empty()).then_some((label, i))
        })
        .collect();
    let fixes: HashMap<usize, (u32, u32)> = ERRATA
        .iter()
        .filter_map(|e| match e.fix {
            Fix::AbbrevIndex { shown, actual } => Some((e.line, (shown, actual))),
            Fix::Missing { .. } => None,
        })
        .collect();

    // Each line is compared with the output line at the same distance from the nearest
    // record (of the same part) before it, or after it for lines that precede every record.
    let mut compared = 0;
    for (k, line) in l.lines.iter().enumerate() {
        if line.row.is_none() {
            continue;
        }
        let part = l.lines[..k].iter().filter(|x| x.row.is_none()).count();
        let in_part = |r: &&spec::Record| r.part == part;
        let anchor =
            l.records.iter().filter(in_part).rev().find(|r| r.line <= k).or_else(|| l.records.iter().find(in_part));
        let Some(anchor) = anchor else { return Err(format!("spec line {}: no record in its part", line.number)) };
        let at = by_address
            .get(&anchor.addr.to_string())
            .ok_or_else(|| format!("no output line at {} (spec line {})", anchor.addr, l.lines[anchor.line].number))?;
        let d = (*at as isize + k as isize - anchor.line as isize) as usize;
        let got = dis.get(d).ok_or_else(|| format!("spec line {}: output ends", line.number))?;
        let mut want = columns(&line.text);
        if let Some(&(shown, actual)) = fixes.get(&line.number) {
            want.1 = want.1.replacen(&format!("{shown}:"), &format!("{actual}:"), 1);
        }
        if columns(got) != want {
            return Err(format!("spec line {}:\n  spec:   {}\n  output: {}", line.number, line.text, got));
        }
        compared += 1;
    }
    if l.kind() == Kind::Module && dis.len() != compared {
        return Err(format!("the module listing has {compared} lines, the output {}", dis.len()));
    }
    Ok(compared)
}

#[test]
fn every_listing_is_what_dis_prints() {
    let listings = spec::listings();
    let mut failures = Vec::new();
    let (mut passed, mut lines) = (0, 0);
    for l in &listings {
        if NOT_EMBEDDABLE.contains(&l.first_line()) {
            continue;
        }
        match check(l) {
            Ok(n) => {
                passed += 1;
                lines += n;
            }
            Err(why) => failures.push(format!("{}: {why}", l.name())),
        }
    }
    println!(
        "{passed}/{} listings identical to the disassembly ({lines} lines); {} cannot be embedded",
        listings.len(),
        NOT_EMBEDDABLE.len()
    );
    assert!(failures.is_empty(), "{} listings differ:\n{}", failures.len(), failures.join("\n"));
    assert_eq!(passed + NOT_EMBEDDABLE.len(), listings.len());
}
