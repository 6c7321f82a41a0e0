//! Checks an embedded listing: assembles it and compares each record of the fragment with
//! the bitstream entry read at the address written on it.

use super::embedding::{Embedded, Origin};
use super::errata::{self, Fix};
use super::listing::{Listing, code, row};
use pnacl_bitstream::{BitPos, Container, Cursor, Step};

/// A bitstream entry in record-column form: the abbreviation index and the values
/// `pnacl-bcdis` prints for it (`1: <65535, id, width>`, `0: <65534>`,
/// `2: <65533, definition...>`, `N: <code, ops...>`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Where the entry starts.
    pub pos: BitPos,
    /// Its abbreviation index.
    pub abbrev: u32,
    /// Its values, code first.
    pub values: Vec<u64>,
}

/// A read file: its header bytes and its entries, in order.
#[derive(Clone, Debug)]
pub struct Read {
    /// The header bytes.
    pub header: Vec<u8>,
    /// The entries, up to the end of the top level.
    pub entries: Vec<Entry>,
}

/// Reads every entry of a PNaCl file with the bitstream cursor.
pub fn read(bytes: &[u8]) -> Result<Read, String> {
    let container = Container::detect(bytes).map_err(|e| e.message.clone())?;
    let (stream, start) = container.stream(bytes);
    let header = bytes[..(start.0 / 8) as usize].to_vec();
    let mut cursor = Cursor::new(stream, start, 2).map_err(|e| e.message.clone())?;
    let mut entries = Vec::new();
    loop {
        let step = cursor.step().map_err(|e| format!("{}: {}", e.pos, e.message))?;
        let pos = cursor.last_pos();
        let (abbrev, values) = match step {
            Step::End => break,
            Step::Enter => {
                let e = cursor.entered();
                (1, vec![code::ENTER, u64::from(e.block_id), u64::from(e.abbrev_width)])
            }
            Step::Exit => (0, vec![code::EXIT]),
            Step::Abbrev => {
                let (a, _) = cursor.defined();
                (2, std::iter::once(code::DEFINE_ABBREV).chain(a.definition_values()).collect())
            }
            Step::Record => {
                let r = cursor.record();
                (r.abbrev_id, std::iter::once(r.code).chain(r.ops.iter().copied()).collect())
            }
        };
        entries.push(Entry { pos, abbrev, values });
    }
    Ok(Read { header, entries })
}

/// The outcome of checking one embedded listing.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Records of the fragment checked (the header included).
    pub records: usize,
    /// Records found at exactly the address written on them.
    pub placed: usize,
    /// Records found at their address with the abbreviation index and values shown.
    pub matching: usize,
    /// One line per discrepancy.
    pub problems: Vec<String>,
    /// Indices (in the listing's records) of the records with a discrepancy.
    pub failed: Vec<usize>,
    /// Spec lines of the errata that were needed (and confirmed by what was read).
    pub errata: Vec<usize>,
    /// The first record not at its address: its index in the listing's records, the
    /// address written on it, and where its entry really is (if it has one).
    pub first_misplaced: Option<(usize, BitPos, Option<BitPos>)>,
}

impl Report {
    /// True if every record is where the listing says, as the listing shows it.
    pub fn ok(&self) -> bool {
        self.problems.is_empty() && self.placed == self.records && self.matching == self.records
    }
}

/// Assembles an embedded listing and checks it (see [`check`]).
pub fn assemble_and_check(listing: &Listing, embedded: &Embedded) -> Result<Report, String> {
    let bytes = pnacl_text::asm::assemble(&embedded.text).map_err(|e| e.render("embedded listing"))?;
    check(listing, embedded, &bytes)
}

/// Checks that every record of `listing` is, in the assembled `bytes` of its embedding, an
/// entry at exactly the address written on it, with the abbreviation index and values the
/// listing shows (corrected by the known errata). The n-th entry-producing line of the
/// embedding is the n-th entry read, so consecutive records of a part must also be
/// consecutive entries.
pub fn check(listing: &Listing, embedded: &Embedded, bytes: &[u8]) -> Result<Report, String> {
    let read = read(bytes)?;
    let errata = errata::within(listing.first_line(), listing.lines.last().map_or(0, |l| l.number));
    let mut report = Report::default();
    for (i, r) in listing.records.iter().enumerate() {
        report.records += 1;
        let spec_line = listing.lines[r.line].number;
        let Some(out) = embedded.line_of(r.line) else {
            report.problems.push(format!("line {spec_line}: not in the embedding"));
            report.failed.push(i);
            continue;
        };
        if r.is_header() {
            let shown: Vec<u8> = r.values[1..].iter().map(|&v| v as u8).collect();
            if r.addr == BitPos(0) && shown == read.header {
                report.placed += 1;
                report.matching += 1;
            } else {
                report
                    .problems
                    .push(format!("line {spec_line}: header {shown:?} at {}, file has {:?}", r.addr, read.header));
                report.failed.push(i);
                report.first_misplaced.get_or_insert((i, r.addr, None));
            }
            continue;
        }
        let Some(entry) = out.entry.and_then(|e| read.entries.get(e)) else {
            report.problems.push(format!("line {spec_line}: {} has no entry", r.addr));
            report.failed.push(i);
            report.first_misplaced.get_or_insert((i, r.addr, None));
            continue;
        };
        if entry.pos != r.addr {
            report.problems.push(format!("line {spec_line}: record shown at {} is at {}", r.addr, entry.pos));
            report.failed.push(i);
            report.first_misplaced.get_or_insert((i, r.addr, Some(entry.pos)));
            continue;
        }
        report.placed += 1;
        let mut abbrev = r.abbrev;
        for e in &errata {
            if let Fix::AbbrevIndex { shown, actual } = e.fix
                && e.line == spec_line
                && abbrev == Some(shown)
                && entry.abbrev == actual
            {
                abbrev = Some(actual);
                report.errata.push(e.line);
            }
        }
        if abbrev == Some(entry.abbrev) && r.values == entry.values {
            report.matching += 1;
        } else {
            report.failed.push(i);
            report.problems.push(format!(
                "line {spec_line}: at {} the listing shows {}: <{}>, the file has {}: <{}>",
                r.addr,
                r.abbrev.map_or("-".into(), |a| a.to_string()),
                join(&r.values),
                entry.abbrev,
                join(&entry.values),
            ));
        }
    }
    // Synthesized lines with an address (the module's enter record) are checked too.
    for out in embedded.lines.iter().filter(|l| l.origin == Origin::Synthesized) {
        let Some(row) = row(&out.text) else { continue };
        let Some(at) = row.addr else { continue };
        if out.entry.and_then(|i| read.entries.get(i)).is_none_or(|e| e.pos != at) {
            report.problems.push(format!("synthesized line `{}` is not at its address", out.text.trim()));
        }
    }
    // Records the errata say are missing: the line put in their place must give them.
    for out in &embedded.lines {
        let Origin::Erratum(line) = out.origin else { continue };
        let Some(e) = errata.iter().find(|e| e.line == line) else { continue };
        let Fix::Missing { values, .. } = e.fix else { continue };
        match out.entry.and_then(|i| read.entries.get(i)) {
            Some(entry) if entry.abbrev == 3 && entry.values == values => report.errata.push(line),
            other => {
                report.problems.push(format!("erratum after line {line}: the inserted record reads as {other:?}"));
                let at = listing.records.iter().position(|r| listing.lines[r.line].number == line);
                report.failed.extend(at);
            }
        }
    }
    report.errata.sort_unstable();
    report.errata.dedup();
    report.failed.sort_unstable();
    report.failed.dedup();
    Ok(report)
}

fn join(values: &[u64]) -> String {
    values.iter().map(u64::to_string).collect::<Vec<_>>().join(", ")
}
