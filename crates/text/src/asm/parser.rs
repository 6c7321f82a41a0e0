//! The parser's state and what every block's parser uses: tokens, types, literals and symbol
//! names, abbreviation definitions and annotations, and block widths.

use super::parallel::Ahead;
use super::source::Source;
use crate::error::TextError;
use crate::lexer::{Lexer, Tok};
use pnacl_bitcode::ir::{BlockLayout, ITEM_ABBREV, Module, ModuleLayout, Signature, Ty, TypeDef, encode_sign_rotated};
use pnacl_bitstream::{Abbrev, Op, PexeHeader, UNABBREV_RECORD, bits_needed};
use std::collections::HashMap;
use std::sync::Arc;

/// A parse result.
pub(super) type R<T> = Result<T, TextError>;

/// The parser: the tokens, and the module and layout built from them.
pub(super) struct Asm<'s> {
    pub(super) lx: Lexer<'s>,
    pub(super) src: &'s Source<'s>,
    pub(super) m: Module,
    pub(super) ml: ModuleLayout,
    /// Global abbreviation count per block id, from the abbreviations block.
    pub(super) globals_for: HashMap<u32, usize>,
    /// Text offset of every bitstream entry, in writing order.
    pub(super) offsets: Vec<usize>,
    /// Number of defined functions whose body has been read.
    pub(super) bodies: usize,
    /// Where to look for the next defined function: one past the last body's function.
    pub(super) next_body: usize,
    /// The globals count record, if read.
    pub(super) globals_count: Option<(u64, usize)>,
    /// Function blocks parsed beside the globals block.
    pub(super) ahead: Option<Ahead<'s>>,
}

impl<'s> Asm<'s> {
    pub(super) fn new(src: &'s Source<'s>, header: PexeHeader) -> Self {
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
            ahead: None,
        }
    }

    pub(super) fn err(&self, offset: usize, message: impl Into<String>) -> TextError {
        self.src.error(offset, message)
    }

    pub(super) fn lex_err(&self, (at, m): (usize, String)) -> TextError {
        self.err(at, m)
    }

    pub(super) fn peek(&mut self) -> R<Tok<'s>> {
        self.lx.peek().map_err(|e| self.lex_err(e))
    }

    pub(super) fn next(&mut self) -> R<Tok<'s>> {
        self.lx.next_tok().map_err(|e| self.lex_err(e))
    }

    pub(super) fn at(&mut self) -> usize {
        self.lx.offset()
    }

    pub(super) fn unexpected(&mut self, what: &str) -> TextError {
        let at = self.at();
        let found = self.peek().map(|t| t.describe()).unwrap_or_else(|e| e.message);
        self.err(at, format!("expected {what}, found {found}"))
    }

    pub(super) fn punct(&mut self, c: u8) -> R<()> {
        if self.peek()? == Tok::Punct(c) {
            self.next()?;
            Ok(())
        } else {
            Err(self.unexpected(&format!("'{}'", c as char)))
        }
    }

    pub(super) fn eat_punct(&mut self, c: u8) -> R<bool> {
        if self.peek()? == Tok::Punct(c) {
            self.next()?;
            return Ok(true);
        }
        Ok(false)
    }

    pub(super) fn kw(&mut self, w: &str) -> R<()> {
        if self.peek()? == Tok::Ident(w) {
            self.next()?;
            Ok(())
        } else {
            Err(self.unexpected(&format!("'{w}'")))
        }
    }

    pub(super) fn eat_kw(&mut self, w: &str) -> R<bool> {
        if self.peek()? == Tok::Ident(w) {
            self.next()?;
            return Ok(true);
        }
        Ok(false)
    }

    pub(super) fn ident(&mut self) -> R<&'s str> {
        match self.peek()? {
            Tok::Ident(s) => {
                self.next()?;
                Ok(s)
            }
            _ => Err(self.unexpected("a keyword")),
        }
    }

    pub(super) fn int(&mut self) -> R<i128> {
        match self.peek()? {
            Tok::Int(v) => {
                self.next()?;
                Ok(v)
            }
            _ => Err(self.unexpected("a number")),
        }
    }

    pub(super) fn uint(&mut self) -> R<u64> {
        let at = self.at();
        let v = self.int()?;
        u64::try_from(v).map_err(|_| self.err(at, format!("{v} is not an unsigned 64-bit number")))
    }

    pub(super) fn u32(&mut self) -> R<u32> {
        let at = self.at();
        let v = self.int()?;
        u32::try_from(v).map_err(|_| self.err(at, format!("{v} is not an unsigned 32-bit number")))
    }

    pub(super) fn expect_eof(&mut self) -> R<()> {
        if self.peek()? == Tok::Eof { Ok(()) } else { Err(self.unexpected("end of input")) }
    }

    /// Expects `@kN` with the given kind and returns N.
    pub(super) fn global(&mut self, kind: u8) -> R<u64> {
        match self.peek()? {
            Tok::Global(k, n) if k == kind => {
                self.next()?;
                Ok(n)
            }
            _ => Err(self.unexpected(&format!("'@{}N'", kind as char))),
        }
    }

    pub(super) fn local(&mut self, kind: u8) -> R<u64> {
        match self.peek()? {
            Tok::Local(k, n) if k == kind => {
                self.next()?;
                Ok(n)
            }
            _ => Err(self.unexpected(&format!("'%{}N'", kind as char))),
        }
    }

    /// Checks that an index written in the text is the position the reference gives it.
    pub(super) fn check_index(&self, at: usize, what: &str, written: u64, expected: usize) -> R<()> {
        if written != expected as u64 {
            return Err(self.err(at, format!("{what}{written} is out of order: this is {what}{expected}")));
        }
        Ok(())
    }

    pub(super) fn ty(&mut self) -> R<Ty> {
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
    pub(super) fn typedef(&mut self) -> R<TypeDef> {
        let ret = self.ty()?;
        if !self.eat_punct(b'(')? {
            return Ok(TypeDef::Value(ret));
        }
        let (params, vararg) = self.param_types()?;
        Ok(TypeDef::Function(Signature { ret, params, vararg }))
    }

    /// `T1, T2, ...)` (the opening parenthesis already read), possibly ending in `...`.
    pub(super) fn param_types(&mut self) -> R<(Vec<Ty>, bool)> {
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

    pub(super) fn type_id(&self, at: usize, t: &TypeDef) -> R<u32> {
        self.m
            .types
            .iter()
            .position(|d| d == t)
            .map(|i| i as u32)
            .ok_or_else(|| self.err(at, format!("type {t} is not defined in the types block")))
    }

    /// An optional abbreviation annotation `<@aN>` / `<%aN>` after a record; its id.
    pub(super) fn annotation(&mut self, block_id: u32) -> R<u16> {
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
    pub(super) fn explicit_width(&mut self) -> R<Option<u32>> {
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

    /// `NAME {` and an optional explicit width `<B>`: a block's opening, noted as its enter
    /// entry. Returns where it starts and the width stated.
    pub(super) fn open_block(&mut self, name: &str) -> R<(usize, Option<u32>)> {
        let at = self.at();
        self.kw(name)?;
        self.punct(b'{')?;
        let stated = self.explicit_width()?;
        self.offsets.push(at);
        Ok((at, stated))
    }

    /// The width a listing's enter record gives the block opened at `at`.
    pub(super) fn listed_width(&self, at: usize) -> Option<u32> {
        let r = self.src.record_at(at)?;
        (r.values.first() == Some(&pnacl_bitcode::codes::pseudo::ENTER)).then(|| r.values.get(2).map(|&w| w as u32))?
    }

    /// The width of a block: stated, listed, or the smallest that holds its abbreviations.
    pub(super) fn width(&self, block_id: u32, stated: Option<u32>, at: usize, locals: usize) -> u32 {
        stated.or_else(|| self.listed_width(at)).unwrap_or_else(|| {
            let n = self.globals_for.get(&block_id).copied().unwrap_or(0) + locals;
            bits_needed(3 + n as u64)
        })
    }

    /// `%aN = abbrev <...>;` (the `%aN` already seen): a local abbreviation.
    pub(super) fn local_abbrev(&mut self, block_id: u32, layout: &mut BlockLayout) -> R<()> {
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
    pub(super) fn abbrev_def(&mut self) -> R<Arc<Abbrev>> {
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

    pub(super) fn abbrev_op(&mut self, ops: &mut Vec<Op>) -> R<()> {
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

    /// A symbol name: `"chars"` or `{'c', 36, ...}`. Returns the bytes and whether the
    /// braced form (which ends without `;`) was used.
    pub(super) fn symbol_name(&mut self) -> R<(Vec<u8>, bool)> {
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

    /// An integer literal as the sign-rotated value the bitcode stores (`-0` is 1).
    pub(super) fn sign_rotated(&self, at: usize, tok: Tok<'_>) -> R<u64> {
        match tok {
            Tok::Int(v) => {
                let v = i64::try_from(v).map_err(|_| self.err(at, format!("{v} does not fit in 64 bits")))?;
                Ok(encode_sign_rotated(v))
            }
            Tok::Float(s) if s.starts_with('-') && s[1..].bytes().all(|b| b == b'0') => Ok(1),
            t => Err(self.err(at, format!("expected an integer, found {}", t.describe()))),
        }
    }
}
