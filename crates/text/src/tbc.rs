//! The textual record format of Google's test suites (`.tbc`).
//!
//! One record per line: decimal values separated by `,`, record code first, ended by `;`
//! and a newline, nothing else. `65535,ID,WIDTH;` enters a block and `65534;` exits one;
//! every other record is written unabbreviated. There is no header (the standard one is
//! added), and no abbreviations. It is the way to build deliberately malformed bitcode:
//! records are written as given, without any semantic check.

use crate::error::{LineIndex, TextError};
use pnacl_bitcode::codes::pseudo;
use pnacl_bitstream::{BLOCKINFO_BLOCK_ID, Container, Cursor, PexeHeader, Step, StreamWriter};
use std::fmt::Write as _;

/// Converts textual records to PNaCl bitcode (standard header, records as given).
pub fn records_to_bitcode(text: &str) -> Result<Vec<u8>, TextError> {
    let index = LineIndex::new(text);
    let bytes = text.as_bytes();
    let mut w = StreamWriter::new(&PexeHeader::standard().raw, 2);
    let mut i = 0;
    let mut values: Vec<u64> = Vec::new();
    while i < bytes.len() {
        let start = i;
        values.clear();
        let number = |i: &mut usize| -> Option<u64> {
            let s = *i;
            let mut v: u64 = 0;
            while *i < bytes.len() && bytes[*i].is_ascii_digit() {
                v = v.checked_mul(10)?.checked_add(u64::from(bytes[*i] - b'0'))?;
                *i += 1;
            }
            (*i > s).then_some(v)
        };
        let Some(code) = number(&mut i) else {
            return Err(index.error(i, "Bitcode record doesn't begin with a record code"));
        };
        values.push(code);
        loop {
            match bytes.get(i) {
                Some(b',') => {
                    i += 1;
                    match number(&mut i) {
                        Some(v) => values.push(v),
                        None => return Err(index.error(i, "Value expected after separator, but not found")),
                    }
                }
                Some(b';') => {
                    i += 1;
                    break;
                }
                _ => return Err(index.error(i, "Separator/terminator expected after value")),
            }
        }
        if bytes.get(i) != Some(&b'\n') {
            return Err(index.error(i, "Newline expecded after terminating semicolon"));
        }
        i += 1;
        let fail = |e: pnacl_bitstream::Error| {
            index.error(start, format!("Unable to generate bitcode buffer from textual bitcode records: {}", e.message))
        };
        match values[0] {
            pseudo::ENTER => {
                if values.len() != 3 {
                    return Err(index.error(start, "An enter record needs a block id and an abbreviation width"));
                }
                let id = u32::try_from(values[1]).map_err(|_| index.error(start, "Block id too large"))?;
                let width = u32::try_from(values[2]).map_err(|_| index.error(start, "Abbreviation width too large"))?;
                w.enter_block(id, width).map_err(fail)?;
            }
            pseudo::EXIT => {
                if values.len() != 1 {
                    return Err(index.error(start, "An exit record has no values"));
                }
                w.exit_block().map_err(fail)?;
            }
            pseudo::HEADER => return Err(index.error(start, "Bitcode headers not allowed in bitcode text")),
            pseudo::DEFINE_ABBREV => {
                return Err(index.error(start, "Bitcode abbreviations not allowed in bitcode text"));
            }
            code => w.record(pnacl_bitstream::UNABBREV_RECORD, code, &values[1..], None).map_err(fail)?,
        }
    }
    w.finish().map_err(|e| {
        index
            .error(text.len(), format!("Unable to generate bitcode buffer from textual bitcode records: {}", e.message))
    })
}

/// Writes the records of any bitstream as text: blocks as `65535,ID,2;` / `65534;`, every
/// record by its values. The abbreviations block and abbreviation definitions are left out,
/// since the format has none. Fails on a malformed bitstream, with `out` holding the
/// records read before the fault.
pub fn bitcode_to_records(bytes: &[u8], out: &mut String) -> Result<(), pnacl_bitstream::Error> {
    let container = Container::detect(bytes)?;
    let (stream, start) = container.stream(bytes);
    let mut c = Cursor::new(stream, start, 2)?;
    if let Container::Pexe { header } = &container {
        c.set_align_records(header.fields.iter().any(|f| f.id == pnacl_bitstream::FIELD_ALIGN_RECORDS));
    }
    let mut skip_depth: Option<usize> = None;
    loop {
        let depth = c.depth();
        match c.step()? {
            Step::End => return Ok(()),
            Step::Enter => {
                let e = c.entered();
                if skip_depth.is_some() {
                    continue;
                }
                if e.block_id == BLOCKINFO_BLOCK_ID {
                    skip_depth = Some(depth);
                    continue;
                }
                let _ = writeln!(out, "{},{},2;", pseudo::ENTER, e.block_id);
            }
            Step::Exit => match skip_depth {
                Some(d) if d + 1 == depth => skip_depth = None,
                Some(_) => {}
                None => {
                    let _ = writeln!(out, "{};", pseudo::EXIT);
                }
            },
            Step::Abbrev => {}
            Step::Record => {
                if skip_depth.is_some() {
                    continue;
                }
                let r = c.record();
                let _ = write!(out, "{}", r.code);
                for v in r.ops {
                    let _ = write!(out, ",{v}");
                }
                out.push_str(";\n");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DUP_VST: &str = "65535,8,2;\n1,1;\n65535,17,2;\n1,2;\n2;\n21,0,0;\n65534;\n8,1,0,0,0;\n65535,19,2;\n5,0;\n65534;\n65535,14,2;\n1,0,102;\n65534;\n65535,14,2;\n1,0,102;\n65534;\n65535,12,2;\n1,1;\n10;\n65534;\n65534;\n";

    #[test]
    fn round_trip() {
        let bits = records_to_bitcode(DUP_VST).unwrap();
        let mut text = String::new();
        bitcode_to_records(&bits, &mut text).unwrap();
        assert_eq!(text, DUP_VST);
    }

    #[test]
    fn syntax_errors() {
        let e = |t: &str| records_to_bitcode(t).unwrap_err();
        assert_eq!(e("x;\n").message, "Bitcode record doesn't begin with a record code");
        assert_eq!(e("1,;\n").message, "Value expected after separator, but not found");
        assert_eq!(e("1 ;\n").message, "Separator/terminator expected after value");
        assert_eq!(e("1;").message, "Newline expecded after terminating semicolon");
        assert_eq!(e("65532,1;\n").message, "Bitcode headers not allowed in bitcode text");
        assert_eq!(e("65535,8,2;\n65533,1;\n").message, "Bitcode abbreviations not allowed in bitcode text");
        let err = e("65535,8,2;\n1,1 ;\n");
        assert_eq!((err.loc.line, err.loc.col), (2, 4));
        assert!(e("65535,8,2;\n").message.starts_with("Unable to generate bitcode buffer"));
    }
}
