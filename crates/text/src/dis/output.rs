//! The listing as it is written: records and assembly side by side, each record's lines
//! followed by the messages about it, in chunks to the writer.

use super::format::{Formatter, Tokens, decimal_digits, push_decimal, push_spaces};
use super::syntax;
use pnacl_bitcode::codes::pseudo;
use pnacl_bitstream::{
    Abbrev, BitPos, DEFINE_ABBREV, END_BLOCK, ENTER_SUBBLOCK, Enter, FIRST_APPLICATION_ABBREV, PexeHeader, Record,
};
use std::fmt::{self, Display, Write as _};
use std::io::{self, Write};

/// pnacl-bcdis stops after this many errors.
const MAX_ERRORS: u32 = 20;

/// Bytes of output gathered before they are handed to the writer.
const OUTPUT_CHUNK: usize = 1 << 16;

/// Width of the record column when both columns are shown.
const COMBINED_RECORD_WIDTH: usize = 40;
/// Line width of a single-column listing.
const FULL_WIDTH: usize = 80;

/// The listing being written: both columns, laid out, and the messages for the record.
pub(super) struct Dumper<'w> {
    /// Where the text goes (`None`: it stays in `text`, for a function block listed ahead).
    out: Option<&'w mut dyn Write>,
    /// Listing text not yet written.
    text: Vec<u8>,
    io_error: Option<io::Error>,
    records: bool,
    assembly: bool,
    record_width: usize,
    rec: Tokens,
    pub(super) asm: Tokens,
    rec_fmt: Formatter,
    asm_fmt: Formatter,
    /// Address label of the last record written.
    label: Vec<u8>,
    rec_lines: Vec<u8>,
    asm_lines: Vec<u8>,
    /// A record's text, for [`Dumper::write_one_line`].
    record_line: Vec<u8>,
    values: Vec<u64>,
    /// The file's header (printed before each top-level block).
    pub(super) header: PexeHeader,
    /// Errors and warnings waiting for the next record to be printed.
    messages: Vec<u8>,
    pub(super) num_errors: u32,
    pub(super) first_error: Option<String>,
    /// pnacl-bcdis's "last known bit": where errors are reported.
    pub(super) record_pos: BitPos,
    /// Set when the listing must end (a fatal error, or too many errors).
    stop: bool,
    /// Set when a warning was queued.
    warned: bool,
}

/// The layout state a record's lines depend on, besides the record: the formatters'
/// indentation, and the last address label.
#[derive(Clone)]
pub(super) struct LayoutState {
    rec_fmt: Formatter,
    asm_fmt: Formatter,
    label: Vec<u8>,
}

impl LayoutState {
    /// True if a block listed from `other` lays out as from `self`: the same indentation.
    /// (The label does not count: a block's first record sets it before it is used.)
    pub(super) fn lays_out_as(&self, other: &LayoutState) -> bool {
        self.rec_fmt == other.rec_fmt && self.asm_fmt == other.asm_fmt
    }
}

impl<'w> Dumper<'w> {
    /// A listing of the record column, the assembly column, or both.
    pub(super) fn new(records: bool, assembly: bool, out: Option<&'w mut dyn Write>) -> Self {
        Self::with_capacity(records, assembly, out, OUTPUT_CHUNK * 2)
    }

    /// [`Dumper::new`] with room for `capacity` bytes of text.
    pub(super) fn with_capacity(
        records: bool,
        assembly: bool,
        out: Option<&'w mut dyn Write>,
        capacity: usize,
    ) -> Self {
        let record_width = match (records, assembly) {
            (true, true) => COMBINED_RECORD_WIDTH,
            (true, false) => FULL_WIDTH,
            _ => 0,
        };
        let assembly_width = FULL_WIDTH.saturating_sub(record_width + 1).max(20);
        Dumper {
            out,
            text: Vec::with_capacity(capacity),
            io_error: None,
            records,
            assembly,
            record_width,
            rec: Tokens::default(),
            asm: Tokens::default(),
            rec_fmt: Formatter::new(record_width, 21, 0),
            asm_fmt: Formatter::new(assembly_width, 20, 4),
            label: b"       0:0".to_vec(),
            rec_lines: Vec::new(),
            asm_lines: Vec::new(),
            record_line: Vec::new(),
            values: Vec::new(),
            header: PexeHeader { raw: Vec::new(), fields: Vec::new() },
            messages: Vec::new(),
            num_errors: 0,
            first_error: None,
            record_pos: BitPos(0),
            stop: false,
            warned: false,
        }
    }

    /// Whether the record column is shown, and the assembly column.
    pub(super) fn columns(&self) -> (bool, bool) {
        (self.records, self.assembly)
    }

    /// The layout state (see [`LayoutState`]).
    pub(super) fn layout_state(&self) -> LayoutState {
        LayoutState { rec_fmt: self.rec_fmt.clone(), asm_fmt: self.asm_fmt.clone(), label: self.label.clone() }
    }

    /// Continues from the layout state `s`.
    pub(super) fn set_layout_state(&mut self, s: LayoutState) {
        self.rec_fmt = s.rec_fmt;
        self.asm_fmt = s.asm_fmt;
        self.label = s.label;
    }

    /// True if nothing waits to be laid out or printed (between blocks), and the listing
    /// goes on.
    pub(super) fn is_idle(&self) -> bool {
        self.asm.is_empty()
            && self.rec_lines.is_empty()
            && self.asm_lines.is_empty()
            && self.messages.is_empty()
            && !self.stop
            && self.num_errors < MAX_ERRORS
    }

    /// True if no error or warning was reported.
    pub(super) fn is_clean(&self) -> bool {
        self.num_errors == 0 && self.first_error.is_none() && !self.warned && !self.stop
    }

    /// Starts the listing of another block from `state` at `pos`, into `text` (for a
    /// dumper without a writer, reused from block to block). Returns the text gathered so
    /// far.
    pub(super) fn restart(&mut self, state: &LayoutState, pos: BitPos, text: Vec<u8>) -> Vec<u8> {
        self.rec_fmt.clone_from(&state.rec_fmt);
        self.asm_fmt.clone_from(&state.asm_fmt);
        self.label.clone_from(&state.label);
        self.record_pos = pos;
        self.asm.clear();
        self.rec_lines.clear();
        self.asm_lines.clear();
        self.messages.clear();
        self.num_errors = 0;
        self.first_error = None;
        self.stop = false;
        self.warned = false;
        std::mem::replace(&mut self.text, text)
    }

    /// Prints lines laid out elsewhere, after what was printed so far. They are gathered
    /// with the text around them and written in chunks, or at once if they make a chunk on
    /// their own: a function block's listing is a few kilobytes, and writing each with a
    /// call of its own made 6,000 system calls for the largest pexe (5% of a listing's wall
    /// time to a file or to /dev/null).
    pub(super) fn print_laid_out(&mut self, lines: &[u8]) {
        if self.out.is_some() && lines.len() >= OUTPUT_CHUNK {
            self.drain(0);
            self.write_out(lines);
        } else {
            self.text.extend_from_slice(lines);
            self.drain(OUTPUT_CHUNK);
        }
    }

    pub(super) fn finish(mut self) -> io::Result<()> {
        self.flush();
        self.drain(0);
        match self.io_error.take() {
            Some(e) => Err(e),
            None => self.out.as_mut().map_or(Ok(()), |o| o.flush()),
        }
    }

    /// Writes out the gathered text once there is more than `keep` bytes of it.
    pub(super) fn drain(&mut self, keep: usize) {
        if self.text.len() > keep {
            if self.out.is_none() {
                return;
            }
            let text = std::mem::take(&mut self.text);
            self.write_out(&text);
            self.text = text;
            self.text.clear();
        }
    }

    fn write_out(&mut self, bytes: &[u8]) {
        if self.io_error.is_none()
            && let Some(out) = &mut self.out
            && let Err(e) = out.write_all(bytes)
        {
            self.io_error = Some(e);
        }
    }

    /// Writes a record (with the pending assembly) at `pos`.
    pub(super) fn write(&mut self, pos: BitPos, abbrev: Option<u32>, code: u64, ops: &[u64]) {
        self.record_pos = pos;
        // `B:b`, right-aligned in ten columns.
        let label = &mut self.label;
        label.clear();
        let byte = pos.0 / 8;
        push_spaces(label, 8usize.saturating_sub(decimal_digits(byte)));
        push_decimal(label, byte);
        label.push(b':');
        push_decimal(label, pos.0 % 8);
        let one_line = if self.records { self.write_one_line(abbrev, code, ops) } else { OneLine::Neither };
        if one_line == OneLine::Written {
            return;
        }
        if self.records && one_line == OneLine::Neither {
            let t = &mut self.rec;
            t.clear();
            if let Some(a) = abbrev {
                t.num(u64::from(a)).text(":").space();
            }
            t.open("<").start().num(code);
            for &v in ops {
                t.token(",").finish().space().start().num(v);
            }
            t.finish().close(">").endline();
            self.rec_fmt.layout(&self.rec, Some(&self.label), &mut self.rec_lines);
        }
        self.flush();
    }

    /// The common cases, without the formatter: a record and its assembly that each fit on
    /// one line are written; a record that fits on one line beside assembly that does not
    /// is laid out (as the formatter would: the line, indented after the label).
    fn write_one_line(&mut self, abbrev: Option<u32>, code: u64, ops: &[u64]) -> OneLine {
        let line = &mut self.record_line;
        line.clear();
        if let Some(a) = abbrev {
            push_decimal(line, u64::from(a));
            line.extend_from_slice(b": ");
        }
        line.push(b'<');
        push_decimal(line, code);
        for &v in ops {
            line.extend_from_slice(b", ");
            push_decimal(line, v);
        }
        line.push(b'>');
        let rec_indent = 2 * self.rec_fmt.level();
        let rec_end = self.label.len() + 1 + rec_indent + line.len();
        if rec_end > self.rec_fmt.width() {
            return OneLine::Neither;
        }
        let asm_fits = !self.assembly || self.asm.is_empty() || self.asm_fmt.fits_on_one_line(&self.asm, 0);
        if !asm_fits {
            self.rec_fmt.one_line(Some(&self.label), line, &mut self.rec_lines);
            self.rec_lines.push(b'\n');
            return OneLine::RecordLaidOut;
        }
        let out = &mut self.text;
        self.rec_fmt.one_line(Some(&self.label), line, out);
        if self.assembly {
            push_spaces(out, self.record_width.saturating_sub(rec_end));
            out.push(b'|');
            if !self.asm.is_empty() {
                self.asm_fmt.one_line(None, self.asm.bytes(), out);
            }
        }
        out.push(b'\n');
        self.asm.clear();
        self.emit_messages();
        self.drain(OUTPUT_CHUNK);
        OneLine::Written
    }

    /// Writes a record as the reader saw it.
    pub(super) fn write_record(&mut self, r: &Record<'_, '_>) {
        self.write(r.pos, Some(r.abbrev_id), r.code, r.ops);
    }

    /// Lays out the assembly written so far, with the indentation in effect now (the
    /// original formats text as it is written; only printing waits for the record).
    pub(super) fn layout_assembly(&mut self) {
        if self.assembly && !self.asm.is_empty() {
            self.asm_fmt.layout(&self.asm, None, &mut self.asm_lines);
        }
        self.asm.clear();
    }

    /// Lays out the pending assembly and prints it beside the pending record lines.
    pub(super) fn flush(&mut self) {
        self.layout_assembly();
        let rec: &[u8] = if self.records { &self.rec_lines } else { &[] };
        let asm: &[u8] = if self.assembly { &self.asm_lines } else { &[] };
        let (mut r, mut a) = (rec, asm);
        while !r.is_empty() || !a.is_empty() {
            let line = next_line(&mut r);
            self.text.extend_from_slice(line);
            if self.records && self.assembly {
                let mut col = line.len();
                if col == 0 {
                    push_spaces(&mut self.text, self.label.len());
                    self.text.push(b'|');
                    col = self.label.len() + 1;
                }
                push_spaces(&mut self.text, self.record_width.saturating_sub(col));
                self.text.push(b'|');
            }
            self.text.extend_from_slice(next_line(&mut a));
            self.text.push(b'\n');
        }
        self.rec_lines.clear();
        self.asm_lines.clear();
        self.emit_messages();
        self.drain(OUTPUT_CHUNK);
    }

    /// ` <@aN>` / ` <%aN>` for a record read with an application abbreviation.
    pub(super) fn annotation(&mut self, abbrev_id: u32, global_abbrevs: usize) {
        if abbrev_id < FIRST_APPLICATION_ABBREV {
            return;
        }
        let k = u64::from(abbrev_id - FIRST_APPLICATION_ABBREV);
        let globals = global_abbrevs as u64;
        let t = &mut self.asm;
        t.space().start().open("<");
        if k < globals {
            t.text("@a").num(k);
        } else {
            t.text("%a").num(k - globals);
        }
        t.close(">").finish();
    }

    /// The header record and its description, printed before each top-level block.
    pub(super) fn header_record(&mut self) {
        let raw = std::mem::take(&mut self.header.raw);
        if self.records && self.assembly && raw.len() >= 4 {
            let t = &mut self.asm;
            t.text("Magic").space().text("Number").token(":").space().start().start().text("'");
            t.text(&raw[..4].iter().map(|&b| b as char).collect::<String>()).text("'").finish().space();
            t.start().open("(");
            for (i, &b) in raw[..4].iter().enumerate() {
                if i > 0 {
                    t.token(",").space();
                }
                t.num(u64::from(b));
            }
            t.close(")").finish().finish().endline();
            for f in &self.header.fields {
                t.text(&f.contents()).endline();
            }
        }
        let values: Vec<u64> = raw.iter().map(|&b| u64::from(b)).collect();
        self.header.raw = raw;
        self.write(BitPos(0), None, pseudo::HEADER, &values);
    }

    /// `NAME {  // BlockID = N`.
    pub(super) fn block_header(&mut self, name: &str, id: u32) {
        self.asm.text(name).space().open("{").space().space().text("// BlockID = ").num(u64::from(id)).endline();
    }

    /// The record of a block's ENTER_SUBBLOCK; indents what follows.
    pub(super) fn enter_record(&mut self, e: &Enter) {
        self.write(e.pos, Some(ENTER_SUBBLOCK), pseudo::ENTER, &[u64::from(e.block_id), u64::from(e.abbrev_width)]);
        self.rec_fmt.shift(1);
        self.asm_fmt.shift(1);
    }

    /// `}` and the record of a block's END_BLOCK.
    pub(super) fn exit_record(&mut self, pos: BitPos) {
        self.asm_fmt.shift(-1);
        self.rec_fmt.shift(-1);
        self.asm.close("}").endline();
        self.write(pos, Some(END_BLOCK), pseudo::EXIT, &[]);
    }

    /// The assembly indentation level.
    pub(super) fn asm_level(&self) -> usize {
        self.asm_fmt.level()
    }

    /// Unindents the assembly down to `level`.
    pub(super) fn unwind_to(&mut self, level: usize) {
        while self.asm_fmt.level() > level {
            self.asm_fmt.shift(-1);
        }
    }

    /// `%bN:` on a line of its own, one level out.
    pub(super) fn label(&mut self, bb: u64) {
        self.asm_fmt.shift(-1);
        self.asm.text("%b").num(bb).text(":").endline();
        self.flush();
        self.asm_fmt.shift(1);
    }

    /// `@aN = abbrev <...>;` in the abbreviations block.
    pub(super) fn global_abbrev(&mut self, pos: BitPos, abbrev: &Abbrev, index: u32) {
        let t = &mut self.asm;
        t.indent(1);
        t.text("@a").num(u64::from(index));
        self.abbrev_definition(pos, abbrev);
        self.asm.indent(-1);
        self.flush();
    }

    /// `%aN = abbrev <...>;` in any other block.
    pub(super) fn local_abbrev(&mut self, pos: BitPos, abbrev: &Abbrev, index: u32) {
        self.asm.text("%a").num(u64::from(index));
        self.abbrev_definition(pos, abbrev);
    }

    pub(super) fn abbrev_definition(&mut self, pos: BitPos, abbrev: &Abbrev) {
        let t = &mut self.asm;
        t.space().text("=").space().text("abbrev").space();
        syntax::abbreviation(t, abbrev);
        t.token(";").endline();
        let mut values = std::mem::take(&mut self.values);
        syntax::abbreviation_record(abbrev, &mut values);
        self.write(pos, Some(DEFINE_ABBREV), values[0], &values[1..]);
        self.values = values;
    }

    /// ` : "text";` or ` : {'a',  36}` after a symbol-table entry's name.
    pub(super) fn symbol_name(&mut self, name: &[u8], char6: bool) {
        let t = &mut self.asm;
        t.space().token(":").space();
        if char6 {
            t.start().text("\"");
            // char6 bytes are ASCII.
            t.text(std::str::from_utf8(name).unwrap_or_default()).text("\"").token(";");
        } else {
            t.start().open("{");
            for (i, &b) in name.iter().enumerate() {
                if i > 0 {
                    t.token(",").finish().space().start();
                }
                if pnacl_bitstream::is_char6(&[b]) {
                    t.text("'").text(std::str::from_utf8(&[b]).unwrap_or_default()).text("'");
                } else {
                    // The original prints a C `char`, sign-extended, as `%3u`.
                    syntax::pad3(t, u64::from(b as i8 as i32 as u32));
                }
            }
            t.close("}");
        }
        t.finish();
    }

    /// Queues `Error(B:b): ` and the message (which ends with its own newline, if it has
    /// one) for the next record; ends the listing after the 20th error.
    pub(super) fn error(&mut self, message: impl Display) {
        self.error_at(self.record_pos, message);
    }

    /// [`Dumper::error`] with a message that ends its line.
    pub(super) fn error_line(&mut self, message: impl Display) {
        self.error_at(self.record_pos, format_args!("{message}\n"));
    }

    pub(super) fn error_at(&mut self, pos: BitPos, message: impl Display) {
        self.record_pos = pos;
        if self.num_errors >= MAX_ERRORS {
            self.too_many_errors();
            return;
        }
        self.num_errors += 1;
        let start = self.messages.len();
        let _ = write!(Messages(&mut self.messages), "Error({pos}): {message}");
        if self.first_error.is_none() {
            let line = &self.messages[start..];
            let line = line.split(|&b| b == b'\n').next().unwrap_or_default();
            self.first_error = Some(String::from_utf8_lossy(line).into_owned());
        }
    }

    /// Queues `Warning(B:b): ` and the text.
    pub(super) fn warning(&mut self, text: &str) {
        self.warned = true;
        let _ = write!(Messages(&mut self.messages), "Warning({}): {text}", self.record_pos);
    }

    /// An error the listing can't go on after: printed at once, and the listing ends.
    pub(super) fn fatal(&mut self, pos: BitPos, message: &str) {
        self.flush();
        if !self.stop {
            self.error_at(pos, format_args!("{message}\n"));
            self.flush();
        }
        self.stop = true;
    }

    pub(super) fn too_many_errors(&mut self) {
        if !self.stop {
            self.stop = true;
            let _ = write!(
                Messages(&mut self.messages),
                "Error({}): Too many errors\nUnable to continue\n",
                self.record_pos
            );
        }
    }

    /// True once the listing must end.
    pub(super) fn stopped(&self) -> bool {
        self.stop
    }

    /// Prints the queued messages (after the lines of the record they are about).
    pub(super) fn emit_messages(&mut self) {
        if !self.messages.is_empty() {
            self.text.extend_from_slice(&self.messages);
            self.messages.clear();
        }
        if self.num_errors >= MAX_ERRORS && !self.stop {
            self.too_many_errors();
            self.text.extend_from_slice(&self.messages);
            self.messages.clear();
        }
    }
}

/// What [`Dumper::write_one_line`] managed.
#[derive(PartialEq, Eq)]
enum OneLine {
    /// The record and its assembly, each on one line.
    Written,
    /// The record's line, in the record lines (its assembly needs the formatter).
    RecordLaidOut,
    /// Nothing (the record needs the formatter).
    Neither,
}

/// Adapts the message buffer to `fmt::Write`.
struct Messages<'a>(&'a mut Vec<u8>);

impl fmt::Write for Messages<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.0.extend_from_slice(s.as_bytes());
        Ok(())
    }
}

/// The next line of `s` (without its newline), advancing `s` past it.
fn next_line<'a>(s: &mut &'a [u8]) -> &'a [u8] {
    match s.iter().position(|&b| b == b'\n') {
        Some(i) => {
            let line = &s[..i];
            *s = &s[i + 1..];
            line
        }
        None => std::mem::take(s),
    }
}
