//! The disassembler: PNaCl bitcode to the three-column listing of pnacl-bcdis.
//!
//! Each line is the bit address of a record, the record itself (abbreviation index, code
//! and values) and its PNaClAsm, laid out exactly as pnacl-bcdis lays them out: the same
//! widths, wrapping, indentation and quirks. Like pnacl-bcdis, the disassembler reads the
//! bitstream itself and checks each record as that tool does, without building IR: on
//! malformed or ABI-breaking input it prints the record and its assembly, then
//! `Error(B:b): message`, and goes on with the value pnacl-bcdis assumes, up to 20 errors
//! (`Too many errors`). Malformed bitstream structure ends the listing at once.
//!
//! Modules: `walk` (the walk over blocks and the state shared by all of them), `module`
//! (module-level blocks), `function` and `constants` (function blocks and what they hold), `checks` (the type checks
//! of instructions), `types` (the types
//! a record can describe, and the ABI predicates), `output` (the listing's lines and messages), `syntax` and `format` (text layout),
//! `parallel` (function blocks listed ahead on all cores, printed in order) and `pipeline`
//! (the threads that list them).

mod checks;
mod constants;
mod format;
mod function;
mod module;
mod output;
mod parallel;
mod pipeline;
pub(crate) mod syntax;
mod types;
mod walk;

use output::Dumper;
use pnacl_bitstream::{BitPos, Cursor, FIELD_ALIGN_RECORDS, PexeHeader};
use std::fmt::{self, Display, Write as _};
use std::io::{self, Write};

/// What the listing shows.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Print the record column.
    pub records: bool,
    /// Print the PNaClAsm column.
    pub assembly: bool,
    /// Make the PNaCl ABI checks pnacl-bcdis makes (unless told `-ignore-pnaclabi-checks`).
    pub abi_checks: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options { records: true, assembly: true, abi_checks: true }
    }
}

/// The errors a listing holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListingErrors {
    /// How many `Error(B:b)` lines it holds.
    pub count: u32,
    /// The first of them (`Error(B:b): message`).
    pub first: String,
}

impl Display for ListingErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.first)
    }
}

/// Writes the listing of `bytes` to `out`. Returns the errors the listing reports, if any
/// (pnacl-bcdis then exits with a failure).
pub fn disassemble(bytes: &[u8], options: &Options, out: &mut dyn Write) -> io::Result<Option<ListingErrors>> {
    let d = Dumper::new(options.records, options.assembly, Some(out));
    let mut d = list(bytes, options, d);
    d.flush();
    let errors = d.first_error.take().map(|first| ListingErrors { count: d.num_errors.max(1), first });
    d.finish()?;
    Ok(errors)
}

/// The listing: the checks made before the bitstream is read, then the walk.
fn list<'w>(bytes: &'w [u8], options: &Options, mut d: Dumper<'w>) -> Dumper<'w> {
    if !bytes.len().is_multiple_of(4) {
        d.error(format_args!("Bitcode stream should be a multiple of 4 bytes in length.\n"));
        return d;
    }
    let Ok(header) = PexeHeader::parse(bytes) else {
        d.error(format_args!("Invalid PNaCl bitcode header.\n"));
        return d;
    };
    let status = header.status();
    if !status.supported {
        let mut text = String::new();
        for m in &status.messages {
            let _ = writeln!(text, "{m}");
        }
        d.warning(&text);
        if !status.readable {
            d.error(format_args!("Invalid PNaCl bitcode header.\n"));
            return d;
        }
    }
    let align = header.fields.iter().any(|f| f.id == FIELD_ALIGN_RECORDS);
    let start = BitPos(header.raw.len() as u64 * 8);
    d.header = header;
    let mut cursor = match Cursor::new(bytes, start, 2) {
        Ok(c) => c,
        Err(e) => {
            d.fatal(e.pos, &e.message);
            return d;
        }
    };
    cursor.set_align_records(align);
    let mut walker = walk::Walker::new(d, options.abi_checks);
    let blocks = match parallel::Ahead::new(bytes, start, align, &walker.d, options.abi_checks) {
        Some(ahead) => {
            let pipeline = ahead.pipeline();
            walker.ahead = Some(ahead);
            parallel::with_threads(bytes, &pipeline, || walker.top_level(&mut cursor))
        }
        None => walker.top_level(&mut cursor),
    };
    if blocks != 1 && !walker.d.stopped() {
        walker.d.error_line(format_args!("Expected 1 top level block in bitcode: Found:{blocks}"));
    }
    walker.d
}
