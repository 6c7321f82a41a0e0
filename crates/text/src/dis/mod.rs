//! The disassembler: PNaCl bitcode to the three-column listing of pnacl-bcdis.
//!
//! Each line is the bit address of a record, the record itself (abbreviation index, code
//! and values) and its PNaClAsm, laid out exactly as pnacl-bcdis lays them out: the same
//! widths, wrapping, indentation and quirks. The disassembler is a [`Listener`] of the
//! validating reader, so it prints the IR the reader builds, record by record, and streams
//! its output. On malformed input it prints everything up to the fault, the refused record
//! (in the record column), then `Error(B:b): message`.

mod format;
pub(crate) mod syntax;

use format::{Formatter, Tokens, push_decimal, push_spaces};
use pnacl_bitcode::codes::{block, pseudo};
use pnacl_bitcode::ir::{Init, LocalSymbol, Ty, TypeDef, ValueId, ValueSpace};
use pnacl_bitcode::{Item, Listener, ReadError, ReadOptions, View, read_with};
use pnacl_bitstream::{
    Abbrev, AbbrevTarget, BitPos, DEFINE_ABBREV, END_BLOCK, ENTER_SUBBLOCK, Enter, FIRST_APPLICATION_ABBREV, Record,
};
use std::io::{self, Write};
use syntax::Values;

/// What the listing shows.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Print the record column.
    pub records: bool,
    /// Print the PNaClAsm column.
    pub assembly: bool,
    /// Enforce the PNaCl ABI rules while reading (pnacl-bcdis does unless told
    /// `-ignore-pnaclabi-checks`).
    pub abi_checks: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options { records: true, assembly: true, abi_checks: true }
    }
}

/// Writes the listing of `bytes` to `out`. Returns the read error that stopped it, if any
/// (already printed in the listing as `Error(B:b): ...`).
pub fn disassemble(bytes: &[u8], options: &Options, out: &mut dyn Write) -> io::Result<Option<ReadError>> {
    let mut d = Dumper::new(options, out);
    let read =
        ReadOptions { defer_abi: !options.abi_checks, no_layout: true, lenient_structure: true, ..Default::default() };
    let error = read_with(bytes, read, &mut d).err();
    if let Some(e) = &error {
        d.flush();
        d.text.extend_from_slice(e.to_string().as_bytes());
        d.text.push(b'\n');
    }
    d.finish()?;
    Ok(error)
}

/// Bytes of output gathered before they are handed to the writer.
const OUTPUT_CHUNK: usize = 1 << 16;

/// Width of the record column when both columns are shown.
const COMBINED_RECORD_WIDTH: usize = 40;
/// Line width of a single-column listing.
const FULL_WIDTH: usize = 80;

/// A block being listed.
struct Open {
    id: u32,
    /// Local abbreviations defined so far in this block.
    local_abbrevs: u32,
    /// Assembly indentation of the block's header line.
    base: usize,
}

/// State of the function block being listed.
#[derive(Default)]
struct FunctionState {
    /// The previous record ended a basic block (or was `blocks`): label the next one.
    terminated: bool,
    /// Number of the next basic-block label.
    next_block: u32,
    /// Number of value-defining instructions so far (`%vN` of the next one).
    values: u32,
    /// Forward type declarations seen: absolute value index and type.
    forward: Vec<(u32, Ty)>,
}

struct Dumper<'w> {
    out: &'w mut dyn Write,
    /// Listing text not yet written.
    text: Vec<u8>,
    io_error: Option<io::Error>,
    records: bool,
    assembly: bool,
    record_width: usize,
    rec: Tokens,
    asm: Tokens,
    rec_fmt: Formatter,
    asm_fmt: Formatter,
    /// Address label of the last record written.
    label: Vec<u8>,
    rec_lines: Vec<u8>,
    asm_lines: Vec<u8>,
    values: Vec<u64>,
    blocks: Vec<Open>,
    /// Initializers the current global still expects, and whether they are a compound list.
    initializers_left: u64,
    in_compound: bool,
    globals_seen: u32,
    /// The globals block's count: names of global addresses use it (as pnacl-bcdis does),
    /// since relocations may refer to globals defined later.
    expected_globals: u32,
    function: FunctionState,
}

impl<'w> Dumper<'w> {
    fn new(o: &Options, out: &'w mut dyn Write) -> Self {
        let record_width = match (o.records, o.assembly) {
            (true, true) => COMBINED_RECORD_WIDTH,
            (true, false) => FULL_WIDTH,
            _ => 0,
        };
        let assembly_width = FULL_WIDTH.saturating_sub(record_width + 1).max(20);
        Dumper {
            out,
            text: Vec::with_capacity(OUTPUT_CHUNK * 2),
            io_error: None,
            records: o.records,
            assembly: o.assembly,
            record_width,
            rec: Tokens::default(),
            asm: Tokens::default(),
            rec_fmt: Formatter::new(record_width, 21, 0),
            asm_fmt: Formatter::new(assembly_width, 20, 4),
            label: b"       0:0".to_vec(),
            rec_lines: Vec::new(),
            asm_lines: Vec::new(),
            values: Vec::new(),
            blocks: Vec::new(),
            initializers_left: 0,
            in_compound: false,
            globals_seen: 0,
            expected_globals: 0,
            function: FunctionState::default(),
        }
    }

    fn finish(mut self) -> io::Result<()> {
        self.flush();
        self.drain(0);
        match self.io_error.take() {
            Some(e) => Err(e),
            None => self.out.flush(),
        }
    }

    /// Writes out the gathered text once there is more than `keep` bytes of it.
    fn drain(&mut self, keep: usize) {
        if self.text.len() > keep {
            if self.io_error.is_none()
                && let Err(e) = self.out.write_all(&self.text)
            {
                self.io_error = Some(e);
            }
            self.text.clear();
        }
    }

    /// Writes a record (with the pending assembly) at `pos`.
    fn write(&mut self, pos: BitPos, abbrev: Option<u32>, code: u64, ops: &[u64]) {
        // `B:b`, right-aligned in ten columns.
        self.label.clear();
        push_decimal(&mut self.label, pos.0 / 8);
        let pad = 8usize.saturating_sub(self.label.len());
        self.label.splice(0..0, std::iter::repeat_n(b' ', pad));
        self.label.push(b':');
        push_decimal(&mut self.label, pos.0 % 8);
        if self.records && self.write_one_line(abbrev, code, ops) {
            return;
        }
        if self.records {
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

    /// The common case, without the formatter: a record and its assembly that each fit on
    /// one line. Returns false (having written nothing) otherwise.
    fn write_one_line(&mut self, abbrev: Option<u32>, code: u64, ops: &[u64]) -> bool {
        let line = &mut self.rec_lines;
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
        let asm_fits = !self.assembly || self.asm.is_empty() || self.asm_fmt.fits_on_one_line(&self.asm, 0);
        if rec_end > self.rec_fmt.width() || !asm_fits {
            line.clear();
            return false;
        }
        let out = &mut self.text;
        out.extend_from_slice(&self.label);
        out.push(b'|');
        push_spaces(out, rec_indent);
        out.extend_from_slice(line);
        if self.assembly {
            push_spaces(out, self.record_width.saturating_sub(rec_end));
            out.push(b'|');
            if !self.asm.is_empty() {
                push_spaces(out, 2 * self.asm_fmt.level());
                out.extend_from_slice(self.asm.bytes());
            }
        }
        out.push(b'\n');
        line.clear();
        self.asm.clear();
        self.drain(OUTPUT_CHUNK);
        true
    }

    /// Writes a record as the reader saw it.
    fn write_record(&mut self, r: &Record<'_, '_>) {
        self.write(r.pos, Some(r.abbrev_id), r.code, r.ops);
    }

    /// Lays out the assembly written so far, with the indentation in effect now (the
    /// original formats text as it is written; only printing waits for the record).
    fn layout_assembly(&mut self) {
        if self.assembly && !self.asm.is_empty() {
            self.asm_fmt.layout(&self.asm, None, &mut self.asm_lines);
        }
        self.asm.clear();
    }

    /// Lays out the pending assembly and prints it beside the pending record lines.
    fn flush(&mut self) {
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
        self.drain(OUTPUT_CHUNK);
    }

    /// ` <@aN>` / ` <%aN>` for a record read with an application abbreviation.
    fn annotation(&mut self, abbrev_id: u32, global_abbrevs: usize) {
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

    /// The header record and its description, printed before the top-level block.
    fn header(&mut self, view: &View<'_>) {
        let h = &view.module.header;
        if self.records && self.assembly {
            let t = &mut self.asm;
            let raw = &h.raw;
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
            for f in &h.fields {
                t.text(&f.contents()).endline();
            }
        }
        let values: Vec<u64> = h.raw.iter().map(|&b| u64::from(b)).collect();
        self.write(BitPos(0), None, pseudo::HEADER, &values);
    }

    /// `%bN:` before the next record of a function block that follows a terminator.
    fn block_label(&mut self) {
        if !self.function.terminated {
            return;
        }
        self.function.terminated = false;
        self.asm_fmt.shift(-1);
        self.asm.text("%b").num(u64::from(self.function.next_block)).text(":").endline();
        self.function.next_block += 1;
        self.flush();
        self.asm_fmt.shift(1);
    }

    /// `}` closing a global's initializer list, once it is complete.
    fn close_initializers(&mut self) {
        let base = self.blocks.last().map_or(0, |b| b.base + 1);
        if self.in_compound {
            while self.asm_fmt.level() > base + 1 {
                self.asm_fmt.shift(-1);
            }
            self.asm.close("}").endline();
            self.layout_assembly();
        }
        while self.asm_fmt.level() > base {
            self.asm_fmt.shift(-1);
        }
        self.flush();
        self.initializers_left = 0;
        self.in_compound = false;
    }

    /// `NAME : "text";` or `NAME : {'a',  36}` for a symbol-table entry.
    fn symbol(&mut self, name: &[u8]) {
        let t = &mut self.asm;
        t.space().token(":").space();
        if pnacl_bitstream::is_char6(name) {
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

fn block_name(id: u32) -> &'static str {
    match id {
        block::BLOCKINFO => "abbreviations",
        _ => block::name(id).unwrap_or("unknown"),
    }
}

impl Listener for Dumper<'_> {
    fn enter(&mut self, view: &View<'_>, e: &Enter) {
        if self.blocks.is_empty() {
            self.header(view);
        }
        let base = self.asm_fmt.level();
        let t = &mut self.asm;
        if e.block_id == block::FUNCTION {
            let f = view.function.unwrap_or(0);
            t.text("function").space();
            syntax::function_type(t, view.module.signature(f), Some(f), true);
            self.function = FunctionState::default();
        } else {
            t.text(block_name(e.block_id));
        }
        t.space().open("{").space().space().text("// BlockID = ").num(u64::from(e.block_id)).endline();
        if e.block_id == block::GLOBALS {
            self.initializers_left = 0;
            self.in_compound = false;
            self.globals_seen = 0;
        }
        self.blocks.push(Open { id: e.block_id, local_abbrevs: 0, base });
        self.write(e.pos, Some(ENTER_SUBBLOCK), pseudo::ENTER, &[u64::from(e.block_id), u64::from(e.abbrev_width)]);
        self.rec_fmt.shift(1);
        self.asm_fmt.shift(1);
    }

    fn exit(&mut self, _view: &View<'_>, pos: BitPos) {
        let open = self.blocks.pop();
        self.asm_fmt.shift(-1);
        self.rec_fmt.shift(-1);
        self.asm.close("}").endline();
        self.write(pos, Some(END_BLOCK), pseudo::EXIT, &[]);
        if let Some(o) = open
            && o.id == block::CONSTANTS
        {
            // The original unwinds the set-type indentation only after printing `}`.
            while self.asm_fmt.level() > o.base {
                self.asm_fmt.shift(-1);
            }
        }
    }

    fn abbrev(&mut self, _view: &View<'_>, pos: BitPos, abbrev: &Abbrev, target: AbbrevTarget) {
        let t = &mut self.asm;
        match target {
            AbbrevTarget::Global { index, .. } => {
                t.indent(1);
                t.text("@a").num(u64::from(index));
            }
            AbbrevTarget::Local { .. } => {
                let n = self.blocks.last().map_or(0, |b| b.local_abbrevs);
                t.text("%a").num(u64::from(n));
                if let Some(b) = self.blocks.last_mut() {
                    b.local_abbrevs += 1;
                }
            }
        }
        t.space().text("=").space().text("abbrev").space();
        syntax::abbreviation(t, abbrev);
        t.token(";").endline();
        if matches!(target, AbbrevTarget::Global { .. }) {
            t.indent(-1);
        }
        let mut values = std::mem::take(&mut self.values);
        syntax::abbreviation_record(abbrev, &mut values);
        self.write(pos, Some(DEFINE_ABBREV), values[0], &values[1..]);
        self.values = values;
    }

    fn record(&mut self, view: &View<'_>, r: &Record<'_, '_>, item: Item) {
        let m = view.module;
        let ga = view.global_abbrevs;
        match item {
            Item::Version => {
                self.asm.text("version").space().num(r.ops[0]).token(";");
            }
            Item::SetBid(id) => {
                self.asm.text(block_name(id)).token(":").endline();
                self.write_record(r);
                return;
            }
            Item::TypeCount(n) | Item::GlobalCount(n) => {
                if matches!(item, Item::GlobalCount(_)) {
                    self.expected_globals = u32::try_from(n).unwrap_or(u32::MAX);
                }
                self.asm.text("count").space().num(n).token(";");
            }
            Item::Type(id) => {
                let t = &mut self.asm;
                t.text("@t").num(u64::from(id)).space().text("=").space();
                match &m.types[id as usize] {
                    TypeDef::Value(ty) => {
                        syntax::ty(t, *ty);
                        t.token(";");
                    }
                    TypeDef::Function(sig) => {
                        t.start();
                        syntax::function_type(t, sig, None, false);
                        t.token(";").finish();
                    }
                }
            }
            Item::FunctionAddress(f) => {
                let func = &m.functions[f as usize];
                let t = &mut self.asm;
                t.start().text(if func.is_proto { "declare" } else { "define" });
                t.space().text(func.linkage.name()).finish().space().start();
                syntax::function_type(t, m.signature(f), Some(f), false);
                t.token(";").finish();
            }
            Item::Global(g) => {
                if self.initializers_left > 0 {
                    self.close_initializers();
                }
                let global = &m.globals[g as usize];
                let t = &mut self.asm;
                t.start().text(if global.is_const { "const" } else { "var" }).space();
                t.text("@g").num(u64::from(g)).token(",").finish().space();
                t.start().text("align").space().num(u64::from(global.align.bytes())).token(",").finish();
                self.annotation(r.abbrev_id, ga);
                self.asm.endline();
                self.write_record(r);
                self.asm_fmt.shift(1);
                self.globals_seen += 1;
                self.initializers_left = 1;
                return;
            }
            Item::Compound { count, .. } => {
                let t = &mut self.asm;
                t.start().text("initializers").space().num(count).finish().space().open("{");
                self.annotation(r.abbrev_id, ga);
                self.asm.endline();
                self.write_record(r);
                self.asm_fmt.shift(1);
                self.initializers_left = count;
                self.in_compound = true;
                if count == 0 {
                    self.close_initializers();
                }
                return;
            }
            Item::Initializer { global, index, .. } => {
                let space = ValueSpace { globals: self.expected_globals, ..view.space };
                let t = &mut self.asm;
                match &m.globals[global as usize].inits[index as usize] {
                    Init::Zerofill(n) => {
                        t.text("zerofill").space().num(*n).token(";");
                    }
                    Init::Data(bytes) => {
                        t.start().open("{");
                        for (i, &b) in bytes.iter().enumerate() {
                            if i > 0 {
                                t.token(",").finish().space().start();
                            }
                            syntax::pad3(t, u64::from(b));
                        }
                        t.close("}").finish();
                    }
                    Init::Reloc { target, addend } => {
                        t.text("reloc").space().start();
                        syntax::value_name(t, &space, *target);
                        if let Some(a) = addend {
                            let a = *a as i32;
                            t.space().text(if a < 0 { "-" } else { "+" }).space().num(u64::from(a.unsigned_abs()));
                        }
                        t.token(";").finish();
                    }
                }
                self.initializers_left = self.initializers_left.saturating_sub(1);
                self.annotation(r.abbrev_id, ga);
                self.asm.endline();
                self.write_record(r);
                if self.initializers_left == 0 {
                    self.close_initializers();
                }
                return;
            }
            Item::Symbol(i) => {
                let Some(s) = m.symtab.as_ref().and_then(|s| s.get(i)) else { return };
                let space = ValueSpace { globals: self.expected_globals, ..view.space };
                syntax::value_name(&mut self.asm, &space, s.value);
                self.symbol(&s.name);
            }
            Item::LocalSymbol(i) => {
                let Some(body) = view.body else { return };
                let Some(s) = body.symtab.as_ref().and_then(|s| s.get(i)) else { return };
                let (name, bytes) = match s {
                    LocalSymbol::Value { value, name } => (Some(*value), name),
                    LocalSymbol::Block { block, name } => {
                        self.asm.text("%b").num(u64::from(*block));
                        (None, name)
                    }
                };
                if let Some(v) = name {
                    syntax::value_name(&mut self.asm, &view.space, v);
                }
                self.symbol(bytes);
            }
            Item::SetType(ty) => {
                let base = self.blocks.last().map_or(0, |b| b.base);
                while self.asm_fmt.level() > base + 1 {
                    self.asm_fmt.shift(-1);
                }
                syntax::ty(&mut self.asm, ty);
                self.asm.text(":");
                self.annotation(r.abbrev_id, ga);
                self.asm.endline();
                self.write_record(r);
                self.asm_fmt.shift(1);
                return;
            }
            Item::Constant(i) => {
                let Some(body) = view.body else { return };
                let c = body.constants[i as usize];
                let t = &mut self.asm;
                t.text("%c").num(u64::from(i)).space().text("=").space().start();
                match c.value {
                    pnacl_bitcode::ir::ConstValue::Undef => {
                        syntax::ty(t, c.ty);
                        t.space().text("undef").token(";");
                    }
                    pnacl_bitcode::ir::ConstValue::Int(raw) => {
                        t.start();
                        syntax::ty(t, c.ty);
                        t.space();
                        syntax::sign_rotated(t, raw, c.ty);
                        t.token(";").finish();
                    }
                    pnacl_bitcode::ir::ConstValue::Float(bits) => {
                        syntax::ty(t, c.ty);
                        t.space();
                        syntax::float_constant(t, bits, c.ty);
                        t.token(";");
                    }
                }
                t.finish();
            }
            Item::DeclareBlocks(n) => {
                self.block_label();
                self.asm.text("blocks").space().num(u64::from(n)).token(";");
                self.function.terminated = true;
            }
            Item::Inst(i) => {
                self.block_label();
                let Some(body) = view.body else { return };
                let inst = &body.insts[i as usize];
                if let pnacl_bitcode::ir::Inst::ForwardDecl { value, ty } = *inst {
                    self.function.forward.push((value.0, ty));
                }
                let (defines, call_ret) = result_type(view, inst);
                let vals = Values { space: view.space, body, forward: &self.function.forward };
                syntax::instruction(&mut self.asm, &vals, inst, self.function.values, call_ret);
                if defines {
                    self.function.values += 1;
                }
                if inst.is_terminator() {
                    self.function.terminated = true;
                }
            }
        }
        self.annotation(r.abbrev_id, ga);
        self.asm.endline();
        self.write_record(r);
    }

    fn rejected(&mut self, view: &View<'_>, r: &Record<'_, '_>) {
        if view.block_id == Some(block::FUNCTION) {
            self.block_label();
        }
        self.asm.clear();
        self.write_record(r);
    }
}

/// Whether an instruction defines a value, and the return type of a direct call's callee.
fn result_type(view: &View<'_>, inst: &pnacl_bitcode::ir::Inst) -> (bool, Ty) {
    let ret = match *inst {
        pnacl_bitcode::ir::Inst::Call { callee, indirect_ret: None, .. } => callee_return(view, callee),
        _ => Ty::Void,
    };
    (view.module.defines_value(inst), ret)
}

fn callee_return(view: &View<'_>, callee: ValueId) -> Ty {
    if callee.0 < view.module.functions.len() as u32 { view.module.signature(callee.0).ret } else { Ty::Void }
}
