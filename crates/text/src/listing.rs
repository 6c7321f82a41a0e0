//! Three-column listings (`address | record | assembly`), as `pnacl dis` prints them.
//!
//! The assembler reads the assembly column. From the record column it takes only what the
//! assembly does not say exactly: the header bytes, each block's abbreviation-id width, and
//! constant values (the disassembler prints floats with `%g`, which loses bits).

use crate::error::{Location, TextError};

/// A record of the record column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListedRecord {
    /// The abbreviation index printed before the record, if any.
    pub abbrev: Option<u64>,
    /// The values, record code first.
    pub values: Vec<u64>,
}

/// A listing split into its columns.
#[derive(Debug, Default)]
pub struct Listing {
    /// The assembly column, one line per listing line.
    pub asm: String,
    /// For each assembly line: the original (1-based) line number and the byte offset at
    /// which the assembly column starts in it.
    pub origin: Vec<(u32, usize)>,
    /// The record starting on each assembly line, if any.
    pub records: Vec<Option<ListedRecord>>,
    /// The header bytes, from the header pseudo-record.
    pub header: Option<Vec<u8>>,
}

/// True if `text` looks like a listing with an address column.
pub fn is_listing(text: &str) -> bool {
    let Some(first) = text.lines().find(|l| !l.trim().is_empty()) else { return false };
    let Some((label, _)) = first.split_once('|') else { return false };
    let label = label.trim();
    label.split_once(':').is_some_and(|(b, bit)| {
        !b.is_empty()
            && b.bytes().all(|c| c.is_ascii_digit())
            && !bit.is_empty()
            && bit.bytes().all(|c| c.is_ascii_digit())
    })
}

fn parse_record(text: &str, line: u32, source: &str) -> Result<ListedRecord, TextError> {
    let err = |m: &str| TextError {
        loc: Location { line, col: 1 },
        message: format!("malformed record column: {m}"),
        source_line: source.to_string(),
    };
    let t = text.trim();
    let (abbrev, rest) = match t.split_once(':') {
        Some((a, rest)) if !a.contains('<') => {
            (Some(a.trim().parse::<u64>().map_err(|_| err("abbreviation index"))?), rest)
        }
        _ => (None, t),
    };
    let inner = rest.trim().strip_prefix('<').and_then(|r| r.strip_suffix('>')).ok_or_else(|| err("expected <...>"))?;
    let values =
        inner.split(',').map(|v| v.trim().parse::<u64>().map_err(|_| err("value"))).collect::<Result<Vec<_>, _>>()?;
    Ok(ListedRecord { abbrev, values })
}

/// Splits a listing into its columns.
pub fn split(text: &str) -> Result<Listing, TextError> {
    let mut out = Listing::default();
    let mut lines: Vec<&str> = Vec::new();
    // The record being collected: its text, the assembly line it starts on, its line.
    let mut pending: Option<(String, usize, u32, String)> = None;
    // The header record's assembly lines describe the header; they are not PNaClAsm.
    let flush = |out: &mut Listing,
                 lines: &mut Vec<&str>,
                 pending: &mut Option<(String, usize, u32, String)>|
     -> Result<(), TextError> {
        if let Some((rec, asm_line, line, source)) = pending.take() {
            let r = parse_record(&rec, line, &source)?;
            if r.abbrev.is_none() && r.values.first() == Some(&pnacl_bitcode::codes::pseudo::HEADER) {
                let bytes = r.values[1..].iter().map(|&v| u8::try_from(v).unwrap_or(0)).collect();
                out.header = Some(bytes);
                for l in &mut lines[asm_line..] {
                    *l = "";
                }
            } else {
                out.records[asm_line] = Some(r);
            }
        }
        Ok(())
    };
    for (n, line) in text.lines().enumerate() {
        let line_no = n as u32 + 1;
        let line = line.trim_end_matches('\r');
        let Some(bar) = line.find('|') else {
            if line.trim().is_empty() {
                continue;
            }
            // Error and warning lines a listing of a bad file carries.
            let t = line.trim_start();
            if t.starts_with("Error(") || t.starts_with("Warning(") || t.starts_with("Fatal(") {
                return Err(TextError {
                    loc: Location { line: line_no, col: 1 },
                    message: "the listing reports errors in the file it was made from".into(),
                    source_line: line.to_string(),
                });
            }
            return Err(TextError {
                loc: Location { line: line_no, col: 1 },
                message: "expected a listing line `address | record | assembly`".into(),
                source_line: line.to_string(),
            });
        };
        let label = line[..bar].trim();
        let rest = &line[bar + 1..];
        let (record, asm, asm_col) = match rest.find('|') {
            Some(b2) => (&rest[..b2], &rest[b2 + 1..], bar + 1 + b2 + 1),
            None => (rest, "", line.len()),
        };
        let asm_line = lines.len();
        if !label.is_empty() {
            flush(&mut out, &mut lines, &mut pending)?;
            pending = Some((String::new(), asm_line, line_no, line.to_string()));
        }
        if let Some((rec, ..)) = &mut pending {
            rec.push_str(record);
            rec.push(' ');
        }
        lines.push(asm);
        out.origin.push((line_no, asm_col));
        out.records.push(None);
    }
    flush(&mut out, &mut lines, &mut pending)?;
    for l in lines {
        out.asm.push_str(l);
        out.asm.push('\n');
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_the_factorial_header_and_records() {
        let text = "  0:0|<65532, 80, 69, 88, 69, 1, 0,|Magic Number: 'PEXE' (80, 69, 88, 69)\n     | 8, 0, 17, 0, 4, 0, 2, 0, 0, |PNaCl Version: 2\n     | 0>                          |\n 16:0|1: <65535, 8, 2>             |module {  // BlockID = 8\n 88:0|    3: <1, 0, 102, 97, 99,   |    @f0 : \"fact\";\n     |        116>                 |\n";
        assert!(is_listing(text));
        let l = split(text).unwrap();
        assert_eq!(l.header.as_deref(), Some(&[80, 69, 88, 69, 1, 0, 8, 0, 17, 0, 4, 0, 2, 0, 0, 0][..]));
        assert_eq!(l.records[3], Some(ListedRecord { abbrev: Some(1), values: vec![65535, 8, 2] }));
        assert_eq!(l.records[4], Some(ListedRecord { abbrev: Some(3), values: vec![1, 0, 102, 97, 99, 116] }));
        assert_eq!(l.asm.lines().nth(3), Some("module {  // BlockID = 8"));
        assert_eq!(l.asm.lines().next(), Some(""));
        assert_eq!(l.origin[4], (5, 36));
        assert!(!is_listing("module {\n"));
    }
}
