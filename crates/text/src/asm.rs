//! The assembler: PNaClAsm (or a full `pnacl dis` listing) to bitcode.
//!
//! The text is parsed into the IR, with the layout it states: each block's abbreviation-id
//! width, the abbreviations it defines and the one each record uses (`<@aN>`, `<%aN>`).
//! The writer turns that into bits, and the reader then reads them back, so a program is
//! checked by exactly the rules that apply to any bitcode file. A reader error is reported
//! at the text position of the record that caused it.
//!
//! A block's width comes from, in order: an explicit `{ <B>` after the block's opening
//! brace, the enter record of a listing, or the smallest width holding every abbreviation in
//! scope (what pnacl-finalize writes).

use crate::error::{LineIndex, Location, TextError};
use crate::lexer::{Lexer, Tok};
use crate::listing::{self, ListedRecord, Listing};
use pnacl_bitcode::codes::block;
use pnacl_bitcode::ir::{
    Align, BinOp, BlockLayout, BlockinfoItem, BlockinfoLayout, BodyLayout, CastOp, ConstValue, Constant, Function,
    FunctionBody, Global, ITEM_ABBREV, ITEM_BLOCK, Init, Inst, Linkage, LocalSymbol, Module, ModuleLayout, PoolRange,
    Pred, SetType, Signature, SwitchCase, Symbol, Ty, TypeDef, ValueId, ValueSpace, encode_sign_rotated,
};
use pnacl_bitcode::{Abbrevs, ReadOptions};
use pnacl_bitstream::{Abbrev, BitPos, Op, PexeHeader, UNABBREV_RECORD, bits_needed};
use std::collections::HashMap;
use std::sync::Arc;

/// Assembles PNaClAsm text (or a three-column listing) into PNaCl bitcode.
pub fn assemble(text: &str) -> Result<Vec<u8>, TextError> {
    let (module, offsets, src) = parse_source(text)?;
    let mut trace = Vec::new();
    let bytes = pnacl_bitcode::write_traced(&module, Abbrevs::Keep, &mut trace).map_err(|e| src.error(0, e.message))?;
    // Check the result with the reader's rules (the ABI is the verifier's business).
    let opts = ReadOptions { defer_abi: true, ..ReadOptions::default() };
    if let Err(e) = pnacl_bitcode::read_with(&bytes, opts, &mut pnacl_bitcode::NoListener) {
        let at = offset_of(e.pos, &trace, &offsets);
        return Err(src.error(at, format!("{} [{}]", e.message, e.rule.id())));
    }
    Ok(bytes)
}

/// Parses PNaClAsm text (or a listing) into a module, without writing it.
pub fn parse(text: &str) -> Result<Module, TextError> {
    parse_source(text).map(|(m, _, _)| m)
}

/// The text offset of the entry written at `pos`.
fn offset_of(pos: BitPos, trace: &[BitPos], offsets: &[usize]) -> usize {
    let i = trace.partition_point(|&p| p <= pos).saturating_sub(1);
    offsets.get(i).copied().unwrap_or(0)
}

/// Where the parsed text came from: plain text, or the assembly column of a listing.
struct Source<'a> {
    /// The text the parser sees.
    text: String,
    /// The original input.
    original: &'a str,
    /// For listings: per line of `text`, its original line and the column offset.
    listing: Option<Listing>,
    /// Offset of the start of each line of `text` (listings only).
    line_starts: Vec<usize>,
}

impl Source<'_> {
    fn error(&self, offset: usize, message: impl Into<String>) -> TextError {
        let index = LineIndex::new(&self.text);
        match &self.listing {
            None => index.error(offset, message),
            Some(l) => {
                let line = index.line_of(offset.min(self.text.len()));
                let loc = index.location(offset.min(self.text.len()));
                let (orig_line, col0) = l.origin.get(line).copied().unwrap_or((1, 0));
                let col0 = col0 as usize;
                let orig = LineIndex::new(self.original);
                let source_line = orig.line(orig_line as usize - 1).to_string();
                let col = source_line.get(..col0).map_or(0, |s| s.chars().count()) as u32 + loc.col;
                TextError { loc: Location { line: orig_line, col }, message: message.into(), source_line }
            }
        }
    }

    /// The listing record that starts on the line holding `offset`.
    fn record_at(&self, offset: usize) -> Option<ListedRecord<'_>> {
        let l = self.listing.as_ref()?;
        let line = self.line_starts.partition_point(|&s| s <= offset).saturating_sub(1);
        l.record(line)
    }
}

fn parse_source(text: &str) -> Result<(Module, Vec<usize>, Source<'_>), TextError> {
    let src = if listing::is_listing(text) {
        let l = listing::split(text)?;
        let mut l = l;
        let asm = std::mem::take(&mut l.asm);
        let line_starts = std::mem::take(&mut l.line_starts);
        Source { text: asm, original: text, listing: Some(l), line_starts }
    } else {
        Source { text: text.to_string(), original: text, listing: None, line_starts: Vec::new() }
    };
    let header = match src.listing.as_ref().and_then(|l| l.header.clone()) {
        Some(raw) => PexeHeader::parse(&raw).map_err(|e| src.error(0, e.message.clone()))?,
        None => PexeHeader::standard(),
    };
    let (module, offsets) = {
        let mut a = Asm::new(&src, header);
        a.module()?;
        a.expect_eof()?;
        (a.m, a.offsets)
    };
    Ok((module, offsets, src))
}

type R<T> = Result<T, TextError>;

/// Per-function state while parsing a function block.
struct Func {
    index: u32,
    sig: Signature,
    space: ValueSpace,
    body: FunctionBody,
    /// Declared types of values not yet defined, by `%v` index.
    declared: HashMap<u32, Ty>,
    /// Basic blocks terminated so far.
    blocks_done: u32,
    layout: BlockLayout,
    constants: Option<BlockLayout>,
    symtab: Option<BlockLayout>,
}

impl Func {
    fn values_defined(&self) -> u32 {
        self.body.local_types.len() as u32 - self.space.params - self.space.consts
    }

    fn type_of(&self, v: u32) -> Option<Ty> {
        let fg = self.space.functions + self.space.globals;
        if v < fg {
            return Some(Ty::I32);
        }
        match self.body.local_types.get((v - fg) as usize) {
            Some(&t) => Some(t),
            None => self.declared.get(&(v - self.space.first_inst())).copied(),
        }
    }
}

struct Asm<'s> {
    lx: Lexer<'s>,
    src: &'s Source<'s>,
    m: Module,
    ml: ModuleLayout,
    /// Global abbreviation count per block id, from the abbreviations block.
    globals_for: HashMap<u32, usize>,
    /// Text offset of every bitstream entry, in writing order.
    offsets: Vec<usize>,
    /// Number of defined functions whose body has been read.
    bodies: usize,
    /// Where to look for the next defined function: one past the last body's function.
    next_body: usize,
    /// The globals count record, if read.
    globals_count: Option<(u64, usize)>,
}

/// Block ids PNaClAsm names.
fn block_id_of(name: &str) -> Option<u32> {
    Some(match name {
        "abbreviations" => block::BLOCKINFO,
        "module" => block::MODULE,
        "constants" => block::CONSTANTS,
        "function" => block::FUNCTION,
        "valuesymtab" => block::VALUESYMTAB,
        "types" => block::TYPES,
        "globals" => block::GLOBALS,
        _ => return None,
    })
}

fn binop(name: &str) -> Option<(BinOp, bool)> {
    use BinOp::*;
    Some(match name {
        "add" => (Add, false),
        "sub" => (Sub, false),
        "mul" => (Mul, false),
        "udiv" => (UDiv, false),
        "sdiv" => (SDiv, false),
        "urem" => (URem, false),
        "srem" => (SRem, false),
        "shl" => (Shl, false),
        "lshr" => (LShr, false),
        "ashr" => (AShr, false),
        "and" => (And, false),
        "or" => (Or, false),
        "xor" => (Xor, false),
        "fadd" => (Add, true),
        "fsub" => (Sub, true),
        "fmul" => (Mul, true),
        "fdiv" => (SDiv, true),
        "frem" => (SRem, true),
        _ => return None,
    })
}

fn cast(name: &str) -> Option<CastOp> {
    use CastOp::*;
    Some(match name {
        "trunc" => Trunc,
        "zext" => ZExt,
        "sext" => SExt,
        "fptoui" => FpToUi,
        "fptosi" => FpToSi,
        "uitofp" => UiToFp,
        "sitofp" => SiToFp,
        "fptrunc" => FpTrunc,
        "fpext" => FpExt,
        "bitcast" => Bitcast,
        _ => return None,
    })
}

fn predicate(name: &str, integer: bool) -> Option<Pred> {
    (0..=41u8).filter_map(|c| Pred::from_code(u64::from(c))).find(|p| p.is_integer() == integer && p.name() == name)
}

impl<'s> Asm<'s> {
    fn new(src: &'s Source<'s>, header: PexeHeader) -> Self {
        Asm {
            lx: Lexer::new(&src.text),
            src,
            m: Module { header, ..Module::default() },
            ml: ModuleLayout::default(),
            globals_for: HashMap::new(),
            offsets: Vec::new(),
            bodies: 0,
            next_body: 0,
            globals_count: None,
        }
    }

    // ---- tokens ----

    fn err(&self, offset: usize, message: impl Into<String>) -> TextError {
        self.src.error(offset, message)
    }

    fn lex_err(&self, (at, m): (usize, String)) -> TextError {
        self.err(at, m)
    }

    fn peek(&mut self) -> R<Tok<'s>> {
        self.lx.peek().map_err(|e| self.lex_err(e))
    }

    fn next(&mut self) -> R<Tok<'s>> {
        self.lx.next_tok().map_err(|e| self.lex_err(e))
    }

    fn at(&mut self) -> usize {
        self.lx.offset()
    }

    fn unexpected(&mut self, what: &str) -> TextError {
        let at = self.at();
        let found = self.peek().map(|t| t.describe()).unwrap_or_else(|e| e.message);
        self.err(at, format!("expected {what}, found {found}"))
    }

    fn punct(&mut self, c: u8) -> R<()> {
        if self.peek()? == Tok::Punct(c) {
            self.next()?;
            Ok(())
        } else {
            Err(self.unexpected(&format!("'{}'", c as char)))
        }
    }

    fn eat_punct(&mut self, c: u8) -> R<bool> {
        if self.peek()? == Tok::Punct(c) {
            self.next()?;
            return Ok(true);
        }
        Ok(false)
    }

    fn kw(&mut self, w: &str) -> R<()> {
        if self.peek()? == Tok::Ident(w) {
            self.next()?;
            Ok(())
        } else {
            Err(self.unexpected(&format!("'{w}'")))
        }
    }

    fn eat_kw(&mut self, w: &str) -> R<bool> {
        if self.peek()? == Tok::Ident(w) {
            self.next()?;
            return Ok(true);
        }
        Ok(false)
    }

    fn ident(&mut self) -> R<&'s str> {
        match self.peek()? {
            Tok::Ident(s) => {
                self.next()?;
                Ok(s)
            }
            _ => Err(self.unexpected("a keyword")),
        }
    }

    fn int(&mut self) -> R<i128> {
        match self.peek()? {
            Tok::Int(v) => {
                self.next()?;
                Ok(v)
            }
            _ => Err(self.unexpected("a number")),
        }
    }

    fn uint(&mut self) -> R<u64> {
        let at = self.at();
        let v = self.int()?;
        u64::try_from(v).map_err(|_| self.err(at, format!("{v} is not an unsigned 64-bit number")))
    }

    fn u32(&mut self) -> R<u32> {
        let at = self.at();
        let v = self.int()?;
        u32::try_from(v).map_err(|_| self.err(at, format!("{v} is not an unsigned 32-bit number")))
    }

    fn expect_eof(&mut self) -> R<()> {
        if self.peek()? == Tok::Eof { Ok(()) } else { Err(self.unexpected("end of input")) }
    }

    /// Expects `@kN` with the given kind and returns N.
    fn global(&mut self, kind: u8) -> R<u64> {
        match self.peek()? {
            Tok::Global(k, n) if k == kind => {
                self.next()?;
                Ok(n)
            }
            _ => Err(self.unexpected(&format!("'@{}N'", kind as char))),
        }
    }

    fn local(&mut self, kind: u8) -> R<u64> {
        match self.peek()? {
            Tok::Local(k, n) if k == kind => {
                self.next()?;
                Ok(n)
            }
            _ => Err(self.unexpected(&format!("'%{}N'", kind as char))),
        }
    }

    /// Checks that an index written in the text is the position the reference gives it.
    fn check_index(&self, at: usize, what: &str, written: u64, expected: usize) -> R<()> {
        if written != expected as u64 {
            return Err(self.err(at, format!("{what}{written} is out of order: this is {what}{expected}")));
        }
        Ok(())
    }

    // ---- types ----

    fn ty(&mut self) -> R<Ty> {
        let at = self.at();
        match self.next()? {
            Tok::Ident("void") => Ok(Ty::Void),
            Tok::Ident("float") => Ok(Ty::Float),
            Tok::Ident("double") => Ok(Ty::Double),
            Tok::Ident(w) if w.starts_with('i') && w[1..].bytes().all(|b| b.is_ascii_digit()) && w.len() > 1 => {
                let bits: u64 = w[1..].parse().unwrap_or(0);
                Ty::int(bits).ok_or_else(|| self.err(at, format!("integer type {w} is not allowed")))
            }
            Tok::Punct(b'<') => {
                let n = self.uint()?;
                self.kw("x")?;
                let e = self.ty()?;
                self.punct(b'>')?;
                Ty::vector(n, e).ok_or_else(|| self.err(at, format!("vector type <{n} x {e}> is not allowed")))
            }
            Tok::Global(b't', n) => match self.m.types.get(n as usize) {
                Some(TypeDef::Value(t)) => Ok(*t),
                Some(t) => Err(self.err(at, format!("@t{n} is the function type {t}, not a value type"))),
                None => Err(self.err(at, format!("@t{n} is not defined"))),
            },
            t => Err(self.err(at, format!("expected a type, found {}", t.describe()))),
        }
    }

    /// A type as a types-block entry: a value type, or `RET (PARAMS)`.
    fn typedef(&mut self) -> R<TypeDef> {
        let ret = self.ty()?;
        if !self.eat_punct(b'(')? {
            return Ok(TypeDef::Value(ret));
        }
        let (params, vararg) = self.param_types()?;
        Ok(TypeDef::Function(Signature { ret, params, vararg }))
    }

    /// `T1, T2, ...)` (the opening parenthesis already read), possibly ending in `...`.
    fn param_types(&mut self) -> R<(Vec<Ty>, bool)> {
        let mut params = Vec::new();
        let mut vararg = false;
        if !self.eat_punct(b')')? {
            loop {
                if self.peek()? == Tok::Ident("...") {
                    self.next()?;
                    vararg = true;
                } else {
                    params.push(self.ty()?);
                }
                if !self.eat_punct(b',')? {
                    break;
                }
            }
            self.punct(b')')?;
        }
        Ok((params, vararg))
    }

    fn type_id(&self, at: usize, t: &TypeDef) -> R<u32> {
        self.m
            .types
            .iter()
            .position(|d| d == t)
            .map(|i| i as u32)
            .ok_or_else(|| self.err(at, format!("type {t} is not defined in the types block")))
    }

    // ---- layout helpers ----

    /// An optional abbreviation annotation `<@aN>` / `<%aN>` after a record; its id.
    fn annotation(&mut self, block_id: u32) -> R<u16> {
        // `<` also opens a vector type at the start of the next line (`<4 x i32>:`).
        if self.peek()? != Tok::Punct(b'<')
            || !matches!(
                self.lx.peek_second().map_err(|e| self.lex_err(e))?,
                Tok::Global(b'a', _) | Tok::Local(b'a', _)
            )
        {
            return Ok(UNABBREV_RECORD as u16);
        }
        self.next()?;
        let at = self.at();
        let id = match self.next()? {
            Tok::Global(b'a', n) => n + 4,
            Tok::Local(b'a', n) => n + 4 + self.globals_for.get(&block_id).copied().unwrap_or(0) as u64,
            t => return Err(self.err(at, format!("expected an abbreviation '@aN' or '%aN', found {}", t.describe()))),
        };
        self.punct(b'>')?;
        u16::try_from(id).map_err(|_| self.err(at, "abbreviation index too large"))
    }

    /// After a block's opening brace: an optional explicit width `<B>`.
    fn explicit_width(&mut self) -> R<Option<u32>> {
        // `<N>`, not the start of a vector type such as `<4 x i32>:` (a constants block may
        // begin with one).
        if self.peek()? != Tok::Punct(b'<') || self.lx.peek_nth(2).map_err(|e| self.lex_err(e))? != Tok::Punct(b'>') {
            return Ok(None);
        }
        self.next()?;
        let w = self.u32()?;
        self.punct(b'>')?;
        Ok(Some(w))
    }

    /// The width a listing's enter record gives the block opened at `at`.
    fn listed_width(&self, at: usize) -> Option<u32> {
        let r = self.src.record_at(at)?;
        (r.values.first() == Some(&pnacl_bitcode::codes::pseudo::ENTER)).then(|| r.values.get(2).map(|&w| w as u32))?
    }

    /// The width of a block: stated, listed, or the smallest that holds its abbreviations.
    fn width(&self, block_id: u32, stated: Option<u32>, at: usize, locals: usize) -> u32 {
        stated.or_else(|| self.listed_width(at)).unwrap_or_else(|| {
            let n = self.globals_for.get(&block_id).copied().unwrap_or(0) + locals;
            bits_needed(3 + n as u64)
        })
    }

    /// `%aN = abbrev <...>;` (the `%aN` already seen): a local abbreviation.
    fn local_abbrev(&mut self, block_id: u32, layout: &mut BlockLayout) -> R<()> {
        let at = self.at();
        let n = self.local(b'a')?;
        let expected = self.globals_for.get(&block_id).copied().unwrap_or(0) + layout.abbrevs.len();
        let _ = expected;
        self.check_index(at, "%a", n, layout.abbrevs.len())?;
        let a = self.abbrev_def()?;
        self.offsets.push(at);
        layout.items.push(ITEM_ABBREV);
        layout.abbrevs.push(a);
        Ok(())
    }

    /// `= abbrev <OPS>;`
    fn abbrev_def(&mut self) -> R<Arc<Abbrev>> {
        self.punct(b'=')?;
        self.kw("abbrev")?;
        let at = self.at();
        self.punct(b'<')?;
        let mut ops = Vec::new();
        loop {
            self.abbrev_op(&mut ops)?;
            if !self.eat_punct(b',')? {
                break;
            }
        }
        self.punct(b'>')?;
        self.punct(b';')?;
        Abbrev::new(ops).map(Arc::new).map_err(|m| self.err(at, format!("invalid abbreviation: {m}")))
    }

    fn abbrev_op(&mut self, ops: &mut Vec<Op>) -> R<()> {
        let at = self.at();
        match self.next()? {
            Tok::Int(v) => ops.push(Op::Literal(u64::try_from(v).map_err(|_| self.err(at, "negative literal"))?)),
            Tok::Ident("char6") => ops.push(Op::Char6),
            Tok::Ident("blob") => ops.push(Op::Blob),
            Tok::Ident(w @ ("fixed" | "vbr")) => {
                self.punct(b'(')?;
                let n = self.u32()?;
                self.punct(b')')?;
                ops.push(if w == "fixed" { Op::Fixed(n) } else { Op::Vbr(n) });
            }
            Tok::Ident("array") => {
                self.punct(b'(')?;
                ops.push(Op::Array);
                self.abbrev_op(ops)?;
                self.punct(b')')?;
            }
            t => return Err(self.err(at, format!("expected an abbreviation operand, found {}", t.describe()))),
        }
        Ok(())
    }

    // ---- module ----

    fn module(&mut self) -> R<()> {
        let at = self.at();
        self.kw("module")?;
        self.punct(b'{')?;
        let stated = self.explicit_width()?;
        self.offsets.push(at);
        let mut layout = BlockLayout::default();
        loop {
            let item_at = self.at();
            match self.peek()? {
                Tok::Punct(b'}') => {
                    self.next()?;
                    self.offsets.push(item_at);
                    break;
                }
                Tok::Ident("version") => {
                    self.next()?;
                    self.m.version = self.uint()?;
                    self.punct(b';')?;
                    self.offsets.push(item_at);
                    let a = self.annotation(block::MODULE)?;
                    layout.items.push(a);
                }
                Tok::Ident("abbreviations") => {
                    layout.items.push(ITEM_BLOCK);
                    self.blockinfo()?;
                }
                Tok::Ident("types") => {
                    layout.items.push(ITEM_BLOCK);
                    self.types()?;
                }
                Tok::Ident("globals") => {
                    layout.items.push(ITEM_BLOCK);
                    self.globals()?;
                }
                Tok::Ident("valuesymtab") => {
                    layout.items.push(ITEM_BLOCK);
                    self.module_symtab()?;
                }
                Tok::Ident("function") => {
                    layout.items.push(ITEM_BLOCK);
                    self.function()?;
                }
                Tok::Ident("declare" | "define") => {
                    self.function_address()?;
                    let a = self.annotation(block::MODULE)?;
                    layout.items.push(a);
                }
                Tok::Local(b'a', _) => self.local_abbrev(block::MODULE, &mut layout)?,
                _ => return Err(self.unexpected("a module-level construct")),
            }
        }
        layout.abbrev_width = self.width(block::MODULE, stated, at, layout.abbrevs.len());
        self.ml.module = layout;
        self.m.layout = Some(Box::new(std::mem::take(&mut self.ml)));
        Ok(())
    }

    fn blockinfo(&mut self) -> R<()> {
        let at = self.at();
        self.kw("abbreviations")?;
        self.punct(b'{')?;
        let stated = self.explicit_width()?;
        self.offsets.push(at);
        let mut items = Vec::new();
        let mut current: Option<u32> = None;
        loop {
            let item_at = self.at();
            match self.next()? {
                Tok::Punct(b'}') => {
                    self.offsets.push(item_at);
                    break;
                }
                Tok::Ident(name) => {
                    let id = if name == "block" {
                        self.punct(b'(')?;
                        let id = self.u32()?;
                        self.punct(b')')?;
                        id
                    } else {
                        block_id_of(name).ok_or_else(|| self.err(item_at, format!("unknown block name '{name}'")))?
                    };
                    self.punct(b':')?;
                    self.offsets.push(item_at);
                    current = Some(id);
                    items.push(BlockinfoItem::SetBid { block_id: id, abbrev_id: UNABBREV_RECORD as u16 });
                }
                Tok::Global(b'a', n) => {
                    let id =
                        current.ok_or_else(|| self.err(item_at, "an abbreviation needs a block name before it"))?;
                    let count = self.globals_for.entry(id).or_insert(0);
                    let expected = *count;
                    *count += 1;
                    self.check_index(item_at, "@a", n, expected)?;
                    let a = self.abbrev_def()?;
                    self.offsets.push(item_at);
                    items.push(BlockinfoItem::Abbrev(a));
                }
                t => return Err(self.err(item_at, format!("expected a block name or '@aN', found {}", t.describe()))),
            }
        }
        let width = stated.or_else(|| self.listed_width(at)).unwrap_or(2);
        self.ml.blockinfo = Some(BlockinfoLayout { abbrev_width: width, items });
        Ok(())
    }

    fn types(&mut self) -> R<()> {
        let at = self.at();
        self.kw("types")?;
        self.punct(b'{')?;
        let stated = self.explicit_width()?;
        self.offsets.push(at);
        let mut layout = BlockLayout::default();
        let mut count = None;
        loop {
            let item_at = self.at();
            match self.peek()? {
                Tok::Punct(b'}') => {
                    self.next()?;
                    self.offsets.push(item_at);
                    break;
                }
                Tok::Local(b'a', _) => self.local_abbrev(block::TYPES, &mut layout)?,
                Tok::Ident("count") => {
                    self.next()?;
                    count = Some((self.uint()?, item_at));
                    self.punct(b';')?;
                    self.offsets.push(item_at);
                    layout.items.push(self.annotation(block::TYPES)?);
                }
                Tok::Global(b't', n) => {
                    self.next()?;
                    self.check_index(item_at, "@t", n, self.m.types.len())?;
                    self.punct(b'=')?;
                    let t = self.typedef()?;
                    self.punct(b';')?;
                    self.offsets.push(item_at);
                    layout.items.push(self.annotation(block::TYPES)?);
                    self.m.types.push(t);
                }
                _ => return Err(self.unexpected("'count', '@tN' or '}'")),
            }
        }
        match count {
            Some((n, _)) if n == self.m.types.len() as u64 => {}
            Some((n, c_at)) => {
                return Err(
                    self.err(c_at, format!("count says {n} types, but the block defines {}", self.m.types.len()))
                );
            }
            None => return Err(self.err(at, "the types block needs a count record")),
        }
        layout.abbrev_width = self.width(block::TYPES, stated, at, layout.abbrevs.len());
        self.ml.types = layout;
        Ok(())
    }

    fn function_address(&mut self) -> R<()> {
        let at = self.at();
        let is_proto = self.ident()? == "declare";
        let linkage = match self.ident()? {
            "external" => Linkage::External,
            "internal" => Linkage::Internal,
            w => return Err(self.err(self.lx.last, format!("expected 'external' or 'internal', found '{w}'"))),
        };
        let ret = self.ty()?;
        let n_at = self.at();
        let n = self.global(b'f')?;
        self.check_index(n_at, "@f", n, self.m.functions.len())?;
        self.punct(b'(')?;
        let (params, vararg) = self.param_types()?;
        self.punct(b';')?;
        let ty = self.type_id(at, &TypeDef::Function(Signature { ret, params, vararg }))?;
        self.offsets.push(at);
        self.m.functions.push(Function { ty, cc: 0, is_proto, linkage, body: None });
        Ok(())
    }

    fn globals(&mut self) -> R<()> {
        let at = self.at();
        self.kw("globals")?;
        self.punct(b'{')?;
        let stated = self.explicit_width()?;
        self.offsets.push(at);
        let mut layout = BlockLayout::default();
        // Initializers still expected by the current global, and whether in a compound.
        let mut pending = 0u64;
        let mut compound = false;
        loop {
            let item_at = self.at();
            match self.peek()? {
                Tok::Punct(b'}') if compound && pending == 0 => {
                    self.next()?;
                    compound = false;
                }
                Tok::Punct(b'}') => {
                    self.next()?;
                    if pending > 0 {
                        return Err(self.err(
                            item_at,
                            format!("@g{} needs {pending} more initializer(s)", self.m.globals.len() - 1),
                        ));
                    }
                    self.offsets.push(item_at);
                    break;
                }
                Tok::Local(b'a', _) => self.local_abbrev(block::GLOBALS, &mut layout)?,
                Tok::Ident("count") => {
                    self.next()?;
                    let n = self.uint()?;
                    self.punct(b';')?;
                    self.globals_count = Some((n, item_at));
                    self.offsets.push(item_at);
                    layout.items.push(self.annotation(block::GLOBALS)?);
                }
                Tok::Ident(w @ ("var" | "const")) => {
                    self.next()?;
                    if pending > 0 {
                        return Err(self.err(
                            item_at,
                            format!("@g{} needs {pending} more initializer(s)", self.m.globals.len() - 1),
                        ));
                    }
                    let n_at = self.at();
                    let n = self.global(b'g')?;
                    self.check_index(n_at, "@g", n, self.m.globals.len())?;
                    self.punct(b',')?;
                    self.kw("align")?;
                    let a_at = self.at();
                    let align = self.u32()?;
                    if align != 0 && !align.is_power_of_two() {
                        return Err(self.err(a_at, format!("alignment {align} is not a power of two")));
                    }
                    self.punct(b',')?;
                    self.offsets.push(item_at);
                    layout.items.push(self.annotation(block::GLOBALS)?);
                    self.m.globals.push(Global {
                        align: Align::from_bytes(align),
                        is_const: w == "const",
                        inits: Vec::new(),
                        compound: false,
                    });
                    pending = 1;
                }
                Tok::Ident("initializers") => {
                    self.next()?;
                    let n = self.uint()?;
                    self.punct(b'{')?;
                    if pending != 1 || compound || self.m.globals.last().is_none_or(|g| !g.inits.is_empty()) {
                        return Err(self.err(item_at, "a compound initializer must directly follow its global"));
                    }
                    self.offsets.push(item_at);
                    layout.items.push(self.annotation(block::GLOBALS)?);
                    self.m.globals.last_mut().expect("checked").compound = true;
                    pending = n;
                    compound = true;
                }
                _ => {
                    if pending == 0 {
                        return Err(self.unexpected("'var', 'const' or '}'"));
                    }
                    let init = self.initializer()?;
                    self.offsets.push(item_at);
                    layout.items.push(self.annotation(block::GLOBALS)?);
                    self.m.globals.last_mut().expect("pending implies a global").inits.push(init);
                    pending -= 1;
                }
            }
        }
        match self.globals_count {
            Some((n, _)) if n == self.m.globals.len() as u64 => {}
            Some((n, c_at)) => {
                return Err(
                    self.err(c_at, format!("count says {n} globals, but the block defines {}", self.m.globals.len()))
                );
            }
            None => return Err(self.err(at, "the globals block needs a count record")),
        }
        layout.abbrev_width = self.width(block::GLOBALS, stated, at, layout.abbrevs.len());
        self.ml.globals = layout;
        Ok(())
    }

    fn initializer(&mut self) -> R<Init> {
        let at = self.at();
        match self.next()? {
            Tok::Ident("zerofill") => {
                let n = self.uint()?;
                self.punct(b';')?;
                Ok(Init::Zerofill(n))
            }
            Tok::Punct(b'{') => {
                let mut bytes = Vec::new();
                loop {
                    let b_at = self.at();
                    let v = self.int()?;
                    bytes.push(u8::try_from(v).map_err(|_| self.err(b_at, format!("{v} is not a byte")))?);
                    if !self.eat_punct(b',')? {
                        break;
                    }
                }
                self.punct(b'}')?;
                Ok(Init::Data(bytes))
            }
            Tok::Ident("reloc") => {
                let t_at = self.at();
                let target = match self.next()? {
                    Tok::Global(b'f', n) if n < self.m.functions.len() as u64 => n as u32,
                    Tok::Global(b'g', n) => {
                        let limit = self.globals_count.map_or(u64::MAX, |c| c.0);
                        if n >= limit {
                            return Err(self.err(t_at, format!("@g{n} is beyond the {limit} globals counted")));
                        }
                        (self.m.functions.len() as u64 + n) as u32
                    }
                    t => return Err(self.err(t_at, format!("expected '@fN' or '@gN', found {}", t.describe()))),
                };
                let addend = if self.eat_punct(b'+')? {
                    Some(self.addend(false)?)
                } else if self.eat_punct(b'-')? {
                    Some(self.addend(true)?)
                } else {
                    None
                };
                self.punct(b';')?;
                Ok(Init::Reloc { target: ValueId(target), addend })
            }
            t => Err(self.err(at, format!("expected an initializer, found {}", t.describe()))),
        }
    }

    fn addend(&mut self, negative: bool) -> R<u32> {
        let at = self.at();
        let v = self.int()?;
        let v = if negative { -v } else { v };
        if !(-(1i128 << 31)..(1i128 << 32)).contains(&v) {
            return Err(self.err(at, format!("addend {v} does not fit in 32 bits")));
        }
        Ok(v as u32)
    }

    /// A symbol name: `"chars"` or `{'c', 36, ...}`. Returns the bytes and whether the
    /// braced form (which ends without `;`) was used.
    fn symbol_name(&mut self) -> R<(Vec<u8>, bool)> {
        let at = self.at();
        match self.next()? {
            Tok::Str(s) => Ok((s.as_bytes().to_vec(), false)),
            Tok::Punct(b'{') => {
                let mut bytes = Vec::new();
                loop {
                    let c_at = self.at();
                    match self.next()? {
                        Tok::Char(c) => bytes.push(c),
                        Tok::Int(v) => {
                            bytes.push(u8::try_from(v).map_err(|_| self.err(c_at, format!("{v} is not a byte")))?)
                        }
                        t => return Err(self.err(c_at, format!("expected a character, found {}", t.describe()))),
                    }
                    if !self.eat_punct(b',')? {
                        break;
                    }
                }
                self.punct(b'}')?;
                Ok((bytes, true))
            }
            t => Err(self.err(at, format!("expected a name, found {}", t.describe()))),
        }
    }

    fn module_symtab(&mut self) -> R<()> {
        let at = self.at();
        self.kw("valuesymtab")?;
        self.punct(b'{')?;
        let stated = self.explicit_width()?;
        self.offsets.push(at);
        let mut layout = BlockLayout::default();
        let mut entries = Vec::new();
        loop {
            let item_at = self.at();
            match self.peek()? {
                Tok::Punct(b'}') => {
                    self.next()?;
                    self.offsets.push(item_at);
                    break;
                }
                Tok::Local(b'a', _) => self.local_abbrev(block::VALUESYMTAB, &mut layout)?,
                Tok::Global(k @ (b'f' | b'g'), n) => {
                    self.next()?;
                    let value = if k == b'f' { n } else { self.m.functions.len() as u64 + n };
                    self.punct(b':')?;
                    let (name, braced) = self.symbol_name()?;
                    if !braced {
                        self.punct(b';')?;
                    }
                    self.offsets.push(item_at);
                    layout.items.push(self.annotation(block::VALUESYMTAB)?);
                    let value = u32::try_from(value).map_err(|_| self.err(item_at, "value index too large"))?;
                    entries.push(Symbol { value: ValueId(value), name });
                }
                _ => return Err(self.unexpected("'@fN', '@gN' or '}'")),
            }
        }
        layout.abbrev_width = self.width(block::VALUESYMTAB, stated, at, layout.abbrevs.len());
        self.ml.symtab = Some(layout);
        self.m.symtab = Some(entries);
        Ok(())
    }

    // ---- functions ----

    fn function(&mut self) -> R<()> {
        let at = self.at();
        self.kw("function")?;
        let ret = self.ty()?;
        let n_at = self.at();
        let n = self.global(b'f')?;
        let Some(index) = self.m.functions[self.next_body.min(self.m.functions.len())..]
            .iter()
            .position(|f| !f.is_proto)
            .map(|i| (self.next_body + i) as u32)
        else {
            return Err(self.err(n_at, "more function blocks than defined functions"));
        };
        self.next_body = index as usize + 1;
        self.check_index(n_at, "@f", n, index as usize)?;
        self.punct(b'(')?;
        let mut params = Vec::new();
        if !self.eat_punct(b')')? {
            loop {
                params.push(self.ty()?);
                let p_at = self.at();
                let p = self.local(b'p')?;
                self.check_index(p_at, "%p", p, params.len() - 1)?;
                if !self.eat_punct(b',')? {
                    break;
                }
            }
            self.punct(b')')?;
        }
        let sig = Signature { ret, params, vararg: false };
        if self.m.signature(index) != &sig {
            return Err(self.err(at, format!("@f{n} is declared as {}, not {sig}", self.m.signature(index))));
        }
        self.punct(b'{')?;
        let stated = self.explicit_width()?;
        self.offsets.push(at);
        self.bodies += 1;
        let space = ValueSpace {
            functions: self.m.functions.len() as u32,
            globals: self.m.globals.len() as u32,
            params: sig.params.len() as u32,
            consts: 0,
        };
        let mut f = Func {
            index,
            body: FunctionBody { num_params: space.params, local_types: sig.params.clone(), ..FunctionBody::default() },
            sig,
            space,
            declared: HashMap::new(),
            blocks_done: 0,
            layout: BlockLayout::default(),
            constants: None,
            symtab: None,
        };
        loop {
            let item_at = self.at();
            match self.peek()? {
                Tok::Punct(b'}') => {
                    self.next()?;
                    self.offsets.push(item_at);
                    break;
                }
                Tok::Local(b'a', _) => {
                    let mut l = std::mem::take(&mut f.layout);
                    self.local_abbrev(block::FUNCTION, &mut l)?;
                    f.layout = l;
                }
                Tok::Ident("blocks") => {
                    self.next()?;
                    if f.body.num_blocks != 0 || !f.body.insts.is_empty() {
                        return Err(self.err(item_at, "'blocks' must be the function's first record, once"));
                    }
                    f.body.num_blocks = self.u32()?;
                    f.body.block_starts.push(0);
                    self.punct(b';')?;
                    self.offsets.push(item_at);
                    f.layout.items.push(self.annotation(block::FUNCTION)?);
                }
                Tok::Ident("constants") => {
                    if f.constants.is_some() || !f.body.insts.is_empty() {
                        return Err(self.err(item_at, "the constants block must come before the instructions, once"));
                    }
                    f.layout.items.push(ITEM_BLOCK);
                    self.constants(&mut f)?;
                }
                Tok::Ident("valuesymtab") => {
                    f.layout.items.push(ITEM_BLOCK);
                    self.function_symtab(&mut f)?;
                }
                Tok::Local(b'b', n) => {
                    self.next()?;
                    self.punct(b':')?;
                    if n != u64::from(f.blocks_done) {
                        return Err(
                            self.err(item_at, format!("label %b{n} is out of order: this is %b{}", f.blocks_done))
                        );
                    }
                }
                _ => {
                    self.instruction(&mut f)?;
                }
            }
        }
        f.layout.abbrev_width = self.width(block::FUNCTION, stated, at, f.layout.abbrevs.len());
        f.body.layout = Some(Box::new(BodyLayout { function: f.layout, constants: f.constants, symtab: f.symtab }));
        self.m.functions[index as usize].body = Some(Box::new(f.body));
        Ok(())
    }

    fn constants(&mut self, f: &mut Func) -> R<()> {
        let at = self.at();
        self.kw("constants")?;
        self.punct(b'{')?;
        let stated = self.explicit_width()?;
        self.offsets.push(at);
        let mut layout = BlockLayout::default();
        let mut current: Option<Ty> = None;
        loop {
            let item_at = self.at();
            match self.peek()? {
                Tok::Punct(b'}') => {
                    self.next()?;
                    self.offsets.push(item_at);
                    break;
                }
                Tok::Local(b'a', _) => self.local_abbrev(block::CONSTANTS, &mut layout)?,
                Tok::Local(b'c', n) => {
                    self.next()?;
                    self.check_index(item_at, "%c", n, f.body.constants.len())?;
                    self.punct(b'=')?;
                    let t_at = self.at();
                    let ty = self.ty()?;
                    if Some(ty) != current {
                        return Err(self.err(
                            t_at,
                            match current {
                                Some(c) => format!("constant of type {ty} after set type {c}"),
                                None => "a constant needs a set type line before it".into(),
                            },
                        ));
                    }
                    let listed = self.src.record_at(item_at).filter(|r| r.values.len() == 2).map(|r| r.values[1]);
                    let v_at = self.at();
                    let value = match self.next()? {
                        Tok::Ident("undef") => ConstValue::Undef,
                        tok if ty.is_integer() => {
                            let raw = match tok {
                                // i1 true is stored as -1, as the PNaCl writer stores it.
                                Tok::Int(1) if ty == Ty::I1 => encode_sign_rotated(-1),
                                t => self.sign_rotated(v_at, t)?,
                            };
                            ConstValue::Int(listed.unwrap_or(raw))
                        }
                        tok if ty.is_float() => {
                            let bits = self.float_bits(v_at, tok, ty)?;
                            ConstValue::Float(listed.unwrap_or(bits))
                        }
                        t => return Err(self.err(v_at, format!("expected a value for {ty}, found {}", t.describe()))),
                    };
                    self.punct(b';')?;
                    self.offsets.push(item_at);
                    layout.items.push(self.annotation(block::CONSTANTS)?);
                    f.body.constants.push(Constant { ty, value });
                }
                _ => {
                    // A set-type line: `T:`.
                    let ty = self.ty()?;
                    self.punct(b':')?;
                    self.offsets.push(item_at);
                    layout.items.push(self.annotation(block::CONSTANTS)?);
                    f.body.set_types.push(SetType { before: f.body.constants.len() as u32, ty });
                    current = Some(ty);
                }
            }
        }
        layout.abbrev_width = self.width(block::CONSTANTS, stated, at, layout.abbrevs.len());
        f.constants = Some(layout);
        f.space.consts = f.body.constants.len() as u32;
        let types: Vec<Ty> = f.body.constants.iter().map(|c| c.ty).collect();
        f.body.local_types.extend(types);
        Ok(())
    }

    /// An integer literal as the sign-rotated value the bitcode stores (`-0` is 1).
    fn sign_rotated(&self, at: usize, tok: Tok<'_>) -> R<u64> {
        match tok {
            Tok::Int(v) => {
                let v = i64::try_from(v).map_err(|_| self.err(at, format!("{v} does not fit in 64 bits")))?;
                Ok(encode_sign_rotated(v))
            }
            Tok::Float(s) if s.starts_with('-') && s[1..].bytes().all(|b| b == b'0') => Ok(1),
            t => Err(self.err(at, format!("expected an integer, found {}", t.describe()))),
        }
    }

    fn float_bits(&self, at: usize, tok: Tok<'_>, ty: Ty) -> R<u64> {
        let double = ty == Ty::Double;
        let v: f64 = match tok {
            Tok::Hex(bits) => {
                if !double && bits > u64::from(u32::MAX) {
                    return Err(self.err(at, "bit pattern wider than 32 bits for a float"));
                }
                return Ok(bits);
            }
            Tok::Int(v) => v as f64,
            Tok::Float(s) => match s {
                "nan" => return Ok(if double { 0x7FF8_0000_0000_0000 } else { 0x7FC0_0000 }),
                "-nan" => return Ok(if double { 0xFFF8_0000_0000_0000 } else { 0xFFC0_0000 }),
                "inf" => f64::INFINITY,
                "-inf" => f64::NEG_INFINITY,
                _ => s.parse().map_err(|_| self.err(at, format!("malformed number {s}")))?,
            },
            t => return Err(self.err(at, format!("expected a number, found {}", t.describe()))),
        };
        Ok(if double { v.to_bits() } else { u64::from((v as f32).to_bits()) })
    }

    fn function_symtab(&mut self, f: &mut Func) -> R<()> {
        let at = self.at();
        self.kw("valuesymtab")?;
        self.punct(b'{')?;
        let stated = self.explicit_width()?;
        self.offsets.push(at);
        let mut layout = BlockLayout::default();
        let mut entries = f.body.symtab.take().unwrap_or_default();
        loop {
            let item_at = self.at();
            match self.peek()? {
                Tok::Punct(b'}') => {
                    self.next()?;
                    self.offsets.push(item_at);
                    break;
                }
                Tok::Local(b'a', _) => self.local_abbrev(block::VALUESYMTAB, &mut layout)?,
                _ => {
                    let target = match self.next()? {
                        Tok::Local(b'b', n) => Err(n as u32),
                        Tok::Local(b'p', n) => Ok(f.space.first_param() as u64 + n),
                        Tok::Local(b'c', n) => Ok(f.space.first_const() as u64 + n),
                        Tok::Local(b'v', n) => Ok(f.space.first_inst() as u64 + n),
                        Tok::Global(b'f', n) => Ok(n),
                        Tok::Global(b'g', n) => Ok(f.space.functions as u64 + n),
                        t => {
                            return Err(self.err(item_at, format!("expected a value or block, found {}", t.describe())));
                        }
                    };
                    self.punct(b':')?;
                    let (name, braced) = self.symbol_name()?;
                    if !braced {
                        self.punct(b';')?;
                    }
                    self.offsets.push(item_at);
                    layout.items.push(self.annotation(block::VALUESYMTAB)?);
                    entries.push(match target {
                        Ok(v) => LocalSymbol::Value {
                            value: ValueId(u32::try_from(v).map_err(|_| self.err(item_at, "value index too large"))?),
                            name,
                        },
                        Err(b) => LocalSymbol::Block { block: b, name },
                    });
                }
            }
        }
        layout.abbrev_width = self.width(block::VALUESYMTAB, stated, at, layout.abbrevs.len());
        f.symtab = Some(layout);
        f.body.symtab = Some(entries);
        Ok(())
    }

    /// A value operand: `@fN`, `@gN`, `%pN`, `%cN` or `%vN`. Returns its absolute index.
    fn value(&mut self, f: &Func) -> R<u32> {
        let at = self.at();
        let s = &f.space;
        let (v, limit) = match self.next()? {
            Tok::Global(b'f', n) => (n, s.functions as u64),
            Tok::Global(b'g', n) => (s.functions as u64 + n, (s.functions + s.globals) as u64),
            Tok::Local(b'p', n) => (s.first_param() as u64 + n, s.first_const() as u64),
            Tok::Local(b'c', n) => (s.first_const() as u64 + n, s.first_inst() as u64),
            Tok::Local(b'v', n) => (s.first_inst() as u64 + n, u64::from(u32::MAX)),
            t => return Err(self.err(at, format!("expected a value, found {}", t.describe()))),
        };
        if v >= limit {
            return Err(self.err(at, "no such value"));
        }
        Ok(v as u32)
    }

    /// A typed operand `T V`: checks the type where the value's type is known.
    fn typed_value(&mut self, f: &Func) -> R<(Ty, u32)> {
        let ty = self.ty()?;
        let at = self.at();
        let v = self.value(f)?;
        self.check_type(f, at, v, ty)?;
        Ok((ty, v))
    }

    fn check_type(&self, f: &Func, at: usize, v: u32, ty: Ty) -> R<()> {
        match f.type_of(v) {
            Some(actual) if actual != ty => {
                Err(self.err(at, format!("{} has type {actual}, not {ty}", f.space.kind(ValueId(v)))))
            }
            _ => Ok(()),
        }
    }

    fn block_ref(&mut self) -> R<u32> {
        self.kw("label")?;
        let at = self.at();
        let n = self.local(b'b')?;
        u32::try_from(n).map_err(|_| self.err(at, "block index too large"))
    }

    fn alignment(&mut self) -> R<Align> {
        self.kw("align")?;
        let at = self.at();
        let a = self.u32()?;
        if a != 0 && !a.is_power_of_two() {
            return Err(self.err(at, format!("alignment {a} is not a power of two")));
        }
        Ok(Align::from_bytes(a))
    }

    fn instruction(&mut self, f: &mut Func) -> R<()> {
        let at = self.at();
        if f.blocks_done >= f.body.num_blocks && f.body.num_blocks > 0 {
            return Err(self.err(at, format!("instruction after the last of the {} basic blocks", f.body.num_blocks)));
        }
        // `%vN =` names the result.
        let result = match self.peek()? {
            Tok::Local(b'v', n) => {
                self.next()?;
                self.punct(b'=')?;
                self.check_index(at, "%v", n, f.values_defined() as usize)?;
                Some(n)
            }
            _ => None,
        };
        let op_at = self.at();
        let op = self.ident()?;
        let mut result_ty = None;
        let inst = match op {
            _ if binop(op).is_some() => {
                let (bop, float) = binop(op).expect("checked");
                let (ty, lhs) = self.typed_value(f)?;
                self.punct(b',')?;
                let r_at = self.at();
                let rhs = self.value(f)?;
                self.check_type(f, r_at, rhs, ty)?;
                if float != ty.element().is_float() {
                    return Err(self.err(op_at, format!("{op} is not defined on {ty}")));
                }
                result_ty = Some(ty);
                Inst::Binop { op: bop, lhs: ValueId(lhs), rhs: ValueId(rhs), flags: None }
            }
            _ if cast(op).is_some() => {
                let (_, val) = self.typed_value(f)?;
                self.kw("to")?;
                let to = self.ty()?;
                result_ty = Some(to);
                Inst::Cast { op: cast(op).expect("checked"), val: ValueId(val), to }
            }
            "icmp" | "fcmp" => {
                let p_at = self.at();
                let name = self.ident()?;
                let pred = predicate(name, op == "icmp")
                    .ok_or_else(|| self.err(p_at, format!("unknown {op} predicate '{name}'")))?;
                let (ty, lhs) = self.typed_value(f)?;
                self.punct(b',')?;
                let r_at = self.at();
                let rhs = self.value(f)?;
                self.check_type(f, r_at, rhs, ty)?;
                result_ty = Some(ty.compare_result());
                Inst::Cmp { pred, lhs: ValueId(lhs), rhs: ValueId(rhs) }
            }
            "select" => {
                let (_, cond) = self.typed_value(f)?;
                self.punct(b',')?;
                let (ty, t) = self.typed_value(f)?;
                self.punct(b',')?;
                let (ty2, e) = self.typed_value(f)?;
                if ty != ty2 {
                    return Err(self.err(op_at, format!("select between {ty} and {ty2}")));
                }
                result_ty = Some(ty);
                Inst::Select { cond: ValueId(cond), on_true: ValueId(t), on_false: ValueId(e) }
            }
            "extractelement" => {
                let (vt, vector) = self.typed_value(f)?;
                self.punct(b',')?;
                let (_, index) = self.typed_value(f)?;
                result_ty = Some(vt.element());
                Inst::ExtractElement { vector: ValueId(vector), index: ValueId(index) }
            }
            "insertelement" => {
                let (vt, vector) = self.typed_value(f)?;
                self.punct(b',')?;
                let (_, element) = self.typed_value(f)?;
                self.punct(b',')?;
                let (_, index) = self.typed_value(f)?;
                result_ty = Some(vt);
                Inst::InsertElement { vector: ValueId(vector), element: ValueId(element), index: ValueId(index) }
            }
            "alloca" => {
                self.kw("i8")?;
                self.punct(b',')?;
                let (_, size) = self.typed_value(f)?;
                self.punct(b',')?;
                let align = self.alignment()?;
                result_ty = Some(Ty::I32);
                Inst::Alloca { size: ValueId(size), align }
            }
            "load" => {
                let ty = self.ty()?;
                self.punct(b'*')?;
                let p_at = self.at();
                let ptr = self.value(f)?;
                self.check_type(f, p_at, ptr, Ty::I32)?;
                self.punct(b',')?;
                let align = self.alignment()?;
                result_ty = Some(ty);
                Inst::Load { ptr: ValueId(ptr), ty, align }
            }
            "store" => {
                let (ty, val) = self.typed_value(f)?;
                self.punct(b',')?;
                let pty = self.ty()?;
                if pty != ty {
                    return Err(self.err(op_at, format!("store of {ty} through a {pty}*")));
                }
                self.punct(b'*')?;
                let p_at = self.at();
                let ptr = self.value(f)?;
                self.check_type(f, p_at, ptr, Ty::I32)?;
                self.punct(b',')?;
                let align = self.alignment()?;
                Inst::Store { ptr: ValueId(ptr), val: ValueId(val), align }
            }
            "ret" => {
                if self.eat_kw("void")? {
                    Inst::Ret { val: None }
                } else {
                    let (_, v) = self.typed_value(f)?;
                    Inst::Ret { val: Some(ValueId(v)) }
                }
            }
            "br" => {
                if self.peek()? == Tok::Ident("label") {
                    Inst::Br { target: self.block_ref()? }
                } else {
                    let (_, cond) = self.typed_value(f)?;
                    self.punct(b',')?;
                    let on_true = self.block_ref()?;
                    self.punct(b',')?;
                    let on_false = self.block_ref()?;
                    Inst::CondBr { cond: ValueId(cond), on_true, on_false }
                }
            }
            "switch" => {
                let (ty, cond) = self.typed_value(f)?;
                self.punct(b'{')?;
                self.kw("default")?;
                self.punct(b':')?;
                self.kw("br")?;
                let default = self.block_ref()?;
                self.punct(b';')?;
                let start = f.body.cases.len() as u32;
                f.body.cases.push(SwitchCase { raw: 0, target: default });
                while !self.eat_punct(b'}')? {
                    let t_at = self.at();
                    let cty = self.ty()?;
                    if cty != ty {
                        return Err(self.err(t_at, format!("case of type {cty} in a switch on {ty}")));
                    }
                    let v_at = self.at();
                    let tok = self.next()?;
                    let raw = self.sign_rotated(v_at, tok)?;
                    self.punct(b':')?;
                    self.kw("br")?;
                    let target = self.block_ref()?;
                    self.punct(b';')?;
                    f.body.cases.push(SwitchCase { raw, target });
                }
                let len = f.body.cases.len() as u32 - start;
                self.offsets.push(at);
                let a = self.annotation(block::FUNCTION)?;
                return self.finish(
                    f,
                    at,
                    result,
                    None,
                    Inst::Switch { ty, cond: ValueId(cond), cases: PoolRange { start, len } },
                    a,
                );
            }
            "unreachable" => Inst::Unreachable,
            "phi" => {
                let ty = self.ty()?;
                let start = f.body.operands.len() as u32;
                loop {
                    self.punct(b'[')?;
                    let v_at = self.at();
                    let v = self.value(f)?;
                    self.check_type(f, v_at, v, ty)?;
                    self.punct(b',')?;
                    let b_at = self.at();
                    let b = self.local(b'b')?;
                    let b = u32::try_from(b).map_err(|_| self.err(b_at, "block index too large"))?;
                    self.punct(b']')?;
                    f.body.operands.extend([v, b]);
                    if !self.eat_punct(b',')? {
                        break;
                    }
                }
                let len = f.body.operands.len() as u32 - start;
                result_ty = Some(ty);
                Inst::Phi { ty, incoming: PoolRange { start, len } }
            }
            "tail" | "call" => {
                let tail = op == "tail";
                if tail {
                    self.kw("call")?;
                }
                let ret = self.ty()?;
                let c_at = self.at();
                let callee = self.value(f)?;
                self.punct(b'(')?;
                let start = f.body.operands.len() as u32;
                let mut arg_types = Vec::new();
                if !self.eat_punct(b')')? {
                    loop {
                        let (t, v) = self.typed_value(f)?;
                        arg_types.push(t);
                        f.body.operands.push(v);
                        if !self.eat_punct(b',')? {
                            break;
                        }
                    }
                    self.punct(b')')?;
                }
                let args = PoolRange { start, len: f.body.operands.len() as u32 - start };
                // A call of a function address whose stated types are its own is direct; a
                // listing says which record it was.
                let listed_code = self.src.record_at(at).and_then(|r| r.values.first().copied());
                let direct = match listed_code {
                    Some(pnacl_bitcode::codes::function::CALL) => true,
                    Some(pnacl_bitcode::codes::function::CALL_INDIRECT) => false,
                    _ => {
                        callee < f.space.functions && {
                            let sig = self.m.signature(callee);
                            sig.ret == ret && sig.params == arg_types
                        }
                    }
                };
                if direct && callee >= f.space.functions {
                    return Err(self.err(c_at, "a direct call needs a function '@fN'"));
                }
                if ret != Ty::Void {
                    result_ty = Some(ret);
                }
                Inst::Call { tail, callee: ValueId(callee), indirect_ret: (!direct).then_some(ret), args }
            }
            "declare" => {
                let ty = self.ty()?;
                let v_at = self.at();
                let n = self.local(b'v')?;
                self.punct(b';')?;
                let n32 = u32::try_from(n).map_err(|_| self.err(v_at, "value index too large"))?;
                f.declared.insert(n32, ty);
                let value = ValueId(f.space.first_inst() + n32);
                self.offsets.push(at);
                let a = self.annotation(block::FUNCTION)?;
                f.layout.items.push(a);
                f.body.insts.push(Inst::ForwardDecl { value, ty });
                return Ok(());
            }
            w => return Err(self.err(op_at, format!("unknown instruction '{w}'"))),
        };
        self.punct(b';')?;
        self.offsets.push(at);
        let a = self.annotation(block::FUNCTION)?;
        self.finish(f, at, result, result_ty, inst, a)
    }

    /// Records an instruction: its result, its layout item, basic-block bookkeeping.
    fn finish(
        &mut self,
        f: &mut Func,
        at: usize,
        result: Option<u64>,
        ty: Option<Ty>,
        inst: Inst,
        abbrev: u16,
    ) -> R<()> {
        match (result, ty) {
            (Some(_), Some(t)) => {
                if let Some(&declared) = f.declared.get(&f.values_defined())
                    && declared != t
                {
                    return Err(self.err(at, format!("%v{} was declared {declared} but is {t}", f.values_defined())));
                }
                f.body.local_types.push(t);
            }
            (None, Some(_)) => return Err(self.err(at, "this instruction produces a value: name it '%vN = ...'")),
            (Some(_), None) => return Err(self.err(at, "this instruction produces no value")),
            (None, None) => {}
        }
        f.layout.items.push(abbrev);
        let terminator = inst.is_terminator();
        f.body.insts.push(inst);
        if terminator {
            f.blocks_done += 1;
            if f.blocks_done < f.body.num_blocks {
                f.body.block_starts.push(f.body.insts.len() as u32);
            }
        }
        let _ = f.index;
        let _ = &f.sig;
        Ok(())
    }
}
