//! The listings of the reference: extraction from the spec text, and the model of a listing
//! (lines, their columns, the records they hold).

use pnacl_bitstream::BitPos;
use std::path::PathBuf;

/// The reference's file name in the spec directory.
pub const SPEC_FILE: &str = "pnacl-bitcode-files.txt";

/// Pseudo record codes of the record column.
pub mod code {
    /// `<65532, bytes...>`: the file header.
    pub const HEADER: u64 = 65532;
    /// `<65533, ...>`: an abbreviation definition.
    pub const DEFINE_ABBREV: u64 = 65533;
    /// `<65534>`: a block exit.
    pub const EXIT: u64 = 65534;
    /// `<65535, id, width>`: a block enter.
    pub const ENTER: u64 = 65535;
}

/// Where the reference lives (`../shared/spec/pnacl-bitcode-files.txt`).
pub fn spec_path() -> PathBuf {
    pnacl_testutil::spec_dir().join(SPEC_FILE)
}

/// Every listing of the reference, in order.
pub fn listings() -> Vec<Listing> {
    let path = spec_path();
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()));
    parse_listings(&text)
}

/// One line of a listing.
#[derive(Clone, Debug)]
pub struct Line {
    /// 1-based line number in the spec.
    pub number: usize,
    /// The line as written.
    pub text: String,
    /// Its columns; `None` for a `...` line (elided content).
    pub row: Option<Row>,
}

/// The three columns of a listing line.
#[derive(Clone, Debug)]
pub struct Row {
    /// The address, if the line starts a record.
    pub addr: Option<BitPos>,
    /// The record column (with its indentation).
    pub record: String,
    /// The assembly column.
    pub asm: String,
}

/// A record of the record column: it starts on an addressed line and continues on the
/// following lines with an empty address.
#[derive(Clone, Debug)]
pub struct Record {
    /// Index (in [`Listing::lines`]) of its addressed line.
    pub line: usize,
    /// Index of the line after its last line (the next addressed line, `...`, or the end).
    pub end: usize,
    /// The address written on it.
    pub addr: BitPos,
    /// The abbreviation index printed before it (`None` for the header).
    pub abbrev: Option<u32>,
    /// Its values, record code first.
    pub values: Vec<u64>,
    /// Block nesting depth, from the indentation of the record column (two spaces a level).
    pub depth: usize,
    /// The part (run of lines between `...` lines) it belongs to.
    pub part: usize,
}

impl Record {
    /// The record code (first value).
    pub fn code(&self) -> u64 {
        self.values[0]
    }

    /// The block id, for an enter record.
    pub fn entered(&self) -> Option<u32> {
        (self.abbrev == Some(1) && self.code() == code::ENTER).then(|| self.values[1] as u32)
    }

    /// True for a block exit.
    pub fn is_exit(&self) -> bool {
        self.abbrev == Some(0) && self.code() == code::EXIT
    }

    /// True for the header pseudo-record.
    pub fn is_header(&self) -> bool {
        self.abbrev.is_none() && self.code() == code::HEADER
    }
}

/// Whether a listing shows a whole module or a part of one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// The header record and the module's closing `0: <65534>` are both shown.
    Module,
    /// Anything else; possibly several parts separated by `...`.
    Fragment,
}

/// A listing of the reference.
#[derive(Clone, Debug)]
pub struct Listing {
    /// 1-based position among the reference's listings.
    pub index: usize,
    /// The section heading the listing appears under.
    pub heading: String,
    /// Its lines, `...` lines included.
    pub lines: Vec<Line>,
    /// Its records, in order.
    pub records: Vec<Record>,
}

impl Listing {
    /// The spec line the listing starts on: its identity in test tables.
    pub fn first_line(&self) -> usize {
        self.lines[0].number
    }

    /// A name for messages: position, spec line and heading.
    pub fn name(&self) -> String {
        format!("listing #{} (line {}, {})", self.index, self.first_line(), self.heading)
    }

    /// Whole module or fragment.
    pub fn kind(&self) -> Kind {
        let header = self.records.iter().any(Record::is_header);
        let closed = self.records.iter().any(|r| r.depth == 0 && r.is_exit());
        if header && closed { Kind::Module } else { Kind::Fragment }
    }

    /// Number of parts (runs of lines separated by `...`).
    pub fn parts(&self) -> usize {
        1 + self.lines.iter().filter(|l| l.row.is_none()).count()
    }

    /// The assembly text of a record: the assembly column of all its lines, joined by
    /// spaces (so it also holds any assembly-only lines that follow it, such as `%b1:`).
    pub fn asm(&self, r: &Record) -> String {
        let mut s = String::new();
        for line in &self.lines[r.line..r.end] {
            if let Some(row) = &line.row {
                s.push_str(row.asm.trim());
                s.push(' ');
            }
        }
        s.trim_end().to_string()
    }

    /// The record column of a record, joined.
    pub fn record_text(&self, r: &Record) -> String {
        let mut s = String::new();
        for line in &self.lines[r.line..r.end] {
            if let Some(row) = &line.row {
                s.push_str(row.record.trim());
                s.push(' ');
            }
        }
        s.trim_end().to_string()
    }

    /// The width of the address column (characters before the first `|`).
    pub fn label_width(&self) -> usize {
        self.lines[0].text.find('|').unwrap_or(0)
    }
}

/// Splits a listing line into its columns, if it is one: `^\s*(\d+:\d+)?\|`.
pub fn row(line: &str) -> Option<Row> {
    let bar = line.find('|')?;
    let label = line[..bar].trim();
    let addr = if label.is_empty() {
        None
    } else {
        let (byte, bit) = label.split_once(':')?;
        let num = |s: &str| (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())).then(|| s.parse::<u64>().ok())?;
        Some(BitPos(num(byte)? * 8 + num(bit)?))
    };
    let rest = &line[bar + 1..];
    let (record, asm) = rest.split_once('|').unwrap_or((rest, ""));
    Some(Row { addr, record: record.to_string(), asm: asm.to_string() })
}

fn is_elision(line: &str) -> bool {
    line.trim() == "..."
}

/// A line that looks like a section heading: short words, capitalised, standing alone.
fn is_heading(lines: &[&str], i: usize) -> bool {
    let l = lines[i].trim();
    let alone = i > 0 && lines[i - 1].trim().is_empty() && lines.get(i + 1).is_none_or(|n| n.trim().is_empty());
    alone
        && !l.is_empty()
        && l.len() <= 60
        && l.starts_with(|c: char| c.is_ascii_uppercase())
        && l.chars().all(|c| c.is_ascii_alphanumeric() || c == ' ' || c == '-')
}

/// Parses a record column: `[N: ]<v, v, ...>`.
fn parse_record(text: &str) -> Result<(Option<u32>, Vec<u64>), String> {
    let t = text.trim();
    let (abbrev, rest) = match t.split_once(':') {
        Some((a, rest)) if !a.contains('<') => (Some(a.trim().parse::<u32>().map_err(|e| format!("{t}: {e}"))?), rest),
        _ => (None, t),
    };
    let inner =
        rest.trim().strip_prefix('<').and_then(|r| r.strip_suffix('>')).ok_or_else(|| format!("{t}: no <...>"))?;
    let values = inner
        .split(',')
        .map(|v| v.trim().parse::<u64>().map_err(|e| format!("{t}: {e}")))
        .collect::<Result<Vec<_>, _>>()?;
    Ok((abbrev, values))
}

/// Extracts the listings of a reference text: maximal runs of listing lines, with the `...`
/// lines inside them.
pub fn parse_listings(text: &str) -> Vec<Listing> {
    let all: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < all.len() {
        if row(all[i]).is_none() {
            i += 1;
            continue;
        }
        let start = i;
        let mut end = i;
        let mut j = i;
        while j < all.len() && (row(all[j]).is_some() || is_elision(all[j])) {
            if row(all[j]).is_some() {
                end = j + 1;
            }
            j += 1;
        }
        let lines: Vec<Line> =
            (start..end).map(|k| Line { number: k + 1, text: all[k].to_string(), row: row(all[k]) }).collect();
        let heading =
            (0..start).rev().find(|&k| is_heading(&all, k)).map_or_else(String::new, |k| all[k].trim().to_string());
        out.push(listing(out.len() + 1, heading, lines));
        i = j;
    }
    out
}

fn listing(index: usize, heading: String, lines: Vec<Line>) -> Listing {
    let mut records = Vec::new();
    let mut part = 0;
    let mut k = 0;
    while k < lines.len() {
        let Some(row) = &lines[k].row else {
            part += 1;
            k += 1;
            continue;
        };
        let Some(addr) = row.addr else {
            k += 1;
            continue;
        };
        let mut end = k + 1;
        let mut text = row.record.clone();
        while let Some(Some(next)) = lines.get(end).map(|l| l.row.as_ref()) {
            if next.addr.is_some() {
                break;
            }
            text.push(' ');
            text.push_str(&next.record);
            end += 1;
        }
        let depth = row.record.len() - row.record.trim_start().len();
        let (abbrev, values) = parse_record(&text)
            .unwrap_or_else(|e| panic!("listing #{index}, spec line {}: bad record column: {e}", lines[k].number));
        records.push(Record { line: k, end, addr, abbrev, values, depth: depth / 2, part });
        k = end;
    }
    Listing { index, heading, lines, records }
}
