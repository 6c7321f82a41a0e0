//! Three-column listings (`address | record | assembly`), as `pnacl dis` prints them.
//!
//! The assembler reads the assembly column. From the record column it takes only what the
//! assembly does not say exactly: the header bytes, each block's abbreviation-id width,
//! constant values (the disassembler prints floats with `%g`, which loses bits) and which
//! call record a call was.

use crate::error::{Location, TextError};
use rayon::prelude::*;

/// A record of the record column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ListedRecord<'l> {
    /// The abbreviation index printed before the record, if any.
    pub abbrev: Option<u64>,
    /// The values, record code first.
    pub values: &'l [u64],
}

/// A listing split into its columns.
#[derive(Debug, Default)]
pub struct Listing {
    /// The assembly column, one line per listing line.
    pub asm: String,
    /// For each assembly line: the original (1-based) line number and the byte offset at
    /// which the assembly column starts in it.
    pub origin: Vec<(u32, u32)>,
    /// For each assembly line: its offset in `asm`.
    pub line_starts: Vec<usize>,
    /// For each assembly line: 1 + the index in `spans` of the record starting on it, or 0.
    starts: Vec<u32>,
    /// Each record: its abbreviation index and its values in `pool`.
    spans: Vec<(Option<u64>, u32, u32)>,
    pool: Vec<u64>,
    /// The header bytes, from the header pseudo-record.
    pub header: Option<Vec<u8>>,
}

impl Listing {
    /// The record starting on assembly line `line` (0-based), if any.
    pub fn record(&self, line: usize) -> Option<ListedRecord<'_>> {
        let i = *self.starts.get(line)?;
        let &(abbrev, start, len) = self.spans.get(i.checked_sub(1)? as usize)?;
        Some(ListedRecord { abbrev, values: &self.pool[start as usize..(start + len) as usize] })
    }
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

/// Where the parse of a record's text is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum RecordState {
    /// Before `<` (an abbreviation index and `:` may come first).
    Start,
    /// Inside `<...>`.
    Values,
    /// After `>`.
    Done,
}

/// A record of the record column being parsed, possibly over several lines.
struct PendingRecord {
    state: RecordState,
    abbrev: Option<u64>,
    number: Option<u64>,
    start: usize,
    /// Assembly line it starts on.
    line: usize,
}

impl PendingRecord {
    /// Reads one line's part of the record column.
    fn feed(&mut self, text: &str, pool: &mut Vec<u64>) -> Result<(), &'static str> {
        for c in text.bytes() {
            match c {
                b'0'..=b'9' => {
                    if self.state == RecordState::Done {
                        return Err("text after the record's `>`");
                    }
                    let d = u64::from(c - b'0');
                    let n = self.number.unwrap_or(0);
                    self.number = Some(n.checked_mul(10).and_then(|n| n.checked_add(d)).ok_or("value out of range")?);
                }
                b' ' | b'\t' => {}
                b':' if self.state == RecordState::Start => {
                    self.abbrev = Some(self.number.take().ok_or("abbreviation index")?);
                }
                b'<' if self.state == RecordState::Start && self.number.is_none() => self.state = RecordState::Values,
                b',' if self.state == RecordState::Values => pool.push(self.number.take().ok_or("value")?),
                b'>' if self.state == RecordState::Values => {
                    pool.push(self.number.take().ok_or("value")?);
                    self.state = RecordState::Done;
                }
                _ => return Err("expected <values>"),
            }
        }
        Ok(())
    }
}

/// Where `pnacl dis` puts a line's first `|`, and the second one after the first.
const LABEL_WIDTH: usize = 10;
const RECORD_WIDTH: usize = 29;

/// The offset of the first `|` in `line`, looked for first at `usual` (a search is a call
/// for what is, in a listing `pnacl dis` made, almost always there).
#[inline]
fn find_bar(line: &str, usual: usize) -> Option<usize> {
    let bytes = line.as_bytes();
    if bytes.get(usual) == Some(&b'|') && !bytes[..usual].contains(&b'|') {
        return Some(usual);
    }
    line.find('|')
}

/// Listings larger than this are split in pieces, in parallel.
const PARALLEL_SPLIT: usize = 1 << 20;

/// Splits a listing into its columns.
///
/// A large listing is split in pieces on all cores, each piece starting on a line that
/// starts a record (a line with an address), where the split of the whole text starts
/// afresh too; the pieces are then joined. The first error, in text order, is the error of
/// the whole.
pub fn split(text: &str) -> Result<Listing, TextError> {
    let pieces = rayon::current_num_threads().min(text.len() / PARALLEL_SPLIT);
    if pieces < 2 {
        return split_piece(text).map(|(l, _)| l);
    }
    let mut bounds = vec![0];
    for i in 1..pieces {
        let at = record_line_after(text, text.len() / pieces * i).max(*bounds.last().unwrap_or(&0));
        bounds.push(at);
    }
    bounds.push(text.len());
    let parts: Vec<Result<(Listing, u32), TextError>> =
        bounds.windows(2).collect::<Vec<_>>().into_par_iter().map(|w| split_piece(&text[w[0]..w[1]])).collect();
    let mut lines = 0;
    let mut ok = Vec::with_capacity(parts.len());
    for part in parts {
        let (part, n) = part.map_err(|mut e| {
            e.loc.line += lines;
            e
        })?;
        ok.push((part, lines));
        lines += n;
    }
    Ok(merge(ok))
}

/// The pieces of a listing (each with the number of lines before it) as one. The columns
/// are appended to the first piece's side by side, on all cores: done one after the other
/// they were a tenth of `pnacl asm`'s time.
fn merge(parts: Vec<(Listing, u32)>) -> Listing {
    let mut parts = parts.into_iter();
    let Some((mut out, _)) = parts.next() else { return Listing::default() };
    let rest: Vec<(Listing, u32)> = parts.collect();
    // Where each later piece's asm text, records and values start in the whole.
    let mut bases = Vec::with_capacity(rest.len());
    let (mut asm, mut spans, mut pool) = (out.asm.len(), out.spans.len() as u32, out.pool.len() as u32);
    for (p, _) in &rest {
        bases.push((asm, spans, pool));
        asm += p.asm.len();
        spans += p.spans.len() as u32;
        pool += p.pool.len() as u32;
    }
    let (rest, bases) = (&rest, &bases);
    let pieces = || rest.iter().zip(bases);
    let Listing { asm: out_asm, origin, line_starts, starts, spans: out_spans, pool: out_pool, header } = &mut out;
    rayon::scope(|s| {
        s.spawn(move |_| pieces().for_each(|((p, _), _)| out_asm.push_str(&p.asm)));
        s.spawn(move |_| {
            for ((p, lines), _) in pieces() {
                origin.extend(p.origin.iter().map(|&(line, col)| (line + lines, col)));
            }
        });
        s.spawn(move |_| {
            for ((p, _), &(asm, _, _)) in pieces() {
                line_starts.extend(p.line_starts.iter().map(|&at| at + asm));
            }
        });
        s.spawn(move |_| {
            for ((p, _), &(_, spans, _)) in pieces() {
                starts.extend(p.starts.iter().map(|&i| if i == 0 { 0 } else { i + spans }));
            }
        });
        s.spawn(move |_| {
            for ((p, _), &(_, _, pool)) in pieces() {
                out_spans.extend(p.spans.iter().map(|&(abbrev, start, len)| (abbrev, start + pool, len)));
            }
        });
        s.spawn(move |_| pieces().for_each(|((p, _), _)| out_pool.extend_from_slice(&p.pool)));
    });
    if let Some(last) = rest.iter().rev().find_map(|(p, _)| p.header.clone()) {
        *header = Some(last);
    }
    out
}

/// The offset of the first line at or after `at` that starts a record (has an address), or
/// the end of the text.
fn record_line_after(text: &str, at: usize) -> usize {
    let bytes = text.as_bytes();
    let mut start = match bytes[at..].iter().position(|&b| b == b'\n') {
        Some(i) => at + i + 1,
        None => return text.len(),
    };
    while start < bytes.len() {
        let end = bytes[start..].iter().position(|&b| b == b'\n').map_or(bytes.len(), |i| start + i);
        let line = &bytes[start..end];
        if let Some(bar) = line.iter().position(|&b| b == b'|')
            && line[..bar].iter().any(|b| !b.is_ascii_whitespace())
        {
            return start;
        }
        start = end + 1;
    }
    text.len()
}

/// Splits a piece of a listing that starts on a line with an address (or at the start of the
/// text) into its columns; also returns the number of lines it holds.
fn split_piece(text: &str) -> Result<(Listing, u32), TextError> {
    let mut out = Listing::default();
    // Listing lines average well over 32 bytes.
    let line_count = text.len() / 32 + 1;
    out.asm.reserve(text.len() / 2);
    out.origin.reserve(line_count);
    out.starts.reserve(line_count);
    out.line_starts.reserve(line_count);
    let mut pending: Option<PendingRecord> = None;
    // The header record's assembly lines describe the header; they are not PNaClAsm.
    let mut in_header = false;
    let error = |line_no: u32, line: &str, message: String| TextError {
        loc: Location { line: line_no, col: 1 },
        message,
        source_line: line.to_string(),
    };
    let finish = |out: &mut Listing, p: Option<PendingRecord>, line_no: u32, line: &str| -> Result<(), TextError> {
        let Some(p) = p else { return Ok(()) };
        if p.state != RecordState::Done {
            return Err(error(line_no, line, "malformed record column: expected `>`".into()));
        }
        let values = &out.pool[p.start..];
        if p.abbrev.is_none() && values.first() == Some(&pnacl_bitcode::codes::pseudo::HEADER) {
            out.header = Some(values[1..].iter().map(|&v| u8::try_from(v).unwrap_or(0)).collect());
            out.pool.truncate(p.start);
        } else {
            out.spans.push((p.abbrev, p.start as u32, (out.pool.len() - p.start) as u32));
            out.starts[p.line] = out.spans.len() as u32;
        }
        Ok(())
    };
    let mut last = (0u32, "");
    let mut lines = 0;
    for (n, line) in text.lines().enumerate() {
        let line_no = n as u32 + 1;
        lines = line_no;
        let line = line.trim_end_matches('\r');
        let Some(bar) = find_bar(line, LABEL_WIDTH) else {
            if line.trim().is_empty() {
                continue;
            }
            // Error and warning lines a listing of a bad file carries.
            let t = line.trim_start();
            let why = if t.starts_with("Error(") || t.starts_with("Warning(") || t.starts_with("Fatal(") {
                "the listing reports errors in the file it was made from"
            } else {
                "expected a listing line `address | record | assembly`"
            };
            return Err(error(line_no, line, why.into()));
        };
        let label = line[..bar].trim();
        let rest = &line[bar + 1..];
        let (record, asm, asm_col) = match find_bar(rest, RECORD_WIDTH) {
            Some(b2) => (&rest[..b2], &rest[b2 + 1..], bar + 1 + b2 + 1),
            None => (rest, "", line.len()),
        };
        let asm_line = out.starts.len();
        if !label.is_empty() {
            finish(&mut out, pending.take(), last.0, last.1)?;
            in_header = false;
            pending = Some(PendingRecord {
                state: RecordState::Start,
                abbrev: None,
                number: None,
                start: out.pool.len(),
                line: asm_line,
            });
        }
        if let Some(p) = &mut pending {
            p.feed(record, &mut out.pool).map_err(|m| error(line_no, line, format!("malformed record column: {m}")))?;
            last = (line_no, line);
        }
        if pending.as_ref().is_some_and(|p| {
            p.line == asm_line
                && p.abbrev.is_none()
                && out.pool.get(p.start) == Some(&pnacl_bitcode::codes::pseudo::HEADER)
        }) {
            in_header = true;
        }
        out.line_starts.push(out.asm.len());
        if !in_header {
            out.asm.push_str(asm);
        }
        out.asm.push('\n');
        out.origin.push((line_no, asm_col as u32));
        out.starts.push(0);
    }
    finish(&mut out, pending.take(), last.0, last.1)?;
    Ok((out, lines))
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
        assert_eq!(l.record(3), Some(ListedRecord { abbrev: Some(1), values: &[65535, 8, 2] }));
        assert_eq!(l.record(4), Some(ListedRecord { abbrev: Some(3), values: &[1, 0, 102, 97, 99, 116] }));
        assert_eq!(l.record(0), None);
        assert_eq!(l.asm.lines().nth(3), Some("module {  // BlockID = 8"));
        assert_eq!(l.asm.lines().next(), Some(""));
        assert_eq!(l.asm.lines().nth(1), Some(""));
        assert_eq!(l.origin[4], (5, 36));
        assert!(!is_listing("module {\n"));
    }

    #[test]
    fn malformed_record_columns_are_errors() {
        for bad in ["  0:0|1: <1, x>|\n", "  0:0|1: <1, 2|\n", "  0:0|1: <1,, 2>|\n", "  0:0|1: <1> 2|\n"] {
            let e = split(bad).unwrap_err();
            assert!(e.message.starts_with("malformed record column"), "{bad:?}: {}", e.message);
        }
    }
}
