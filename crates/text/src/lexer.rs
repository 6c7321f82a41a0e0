//! Tokens of PNaClAsm.

/// A token, borrowing from the source text.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Tok<'s> {
    /// An integer literal (possibly negative).
    Int(i128),
    /// A hexadecimal literal (`0x...`): a raw bit pattern.
    Hex(u64),
    /// A floating-point literal as written (`1.5`, `-2e-05`, `nan`, `-inf`, ...).
    Float(&'s str),
    /// A word: keyword, type name, predicate...
    Ident(&'s str),
    /// `@` followed by a kind letter and an index (`@f3`, `@g0`, `@t2`, `@a1`).
    Global(u8, u64),
    /// `%` followed by a kind letter and an index (`%v3`, `%p0`, `%c1`, `%b2`, `%a0`).
    Local(u8, u64),
    /// A double-quoted string's contents.
    Str(&'s str),
    /// A single-quoted character.
    Char(u8),
    /// Punctuation.
    Punct(u8),
    /// End of input.
    Eof,
}

impl Tok<'_> {
    /// Describes the token for error messages.
    pub fn describe(&self) -> String {
        match self {
            Tok::Int(v) => format!("number {v}"),
            Tok::Hex(v) => format!("number {v:#x}"),
            Tok::Float(f) => format!("number {f}"),
            Tok::Ident(s) => format!("'{s}'"),
            Tok::Global(k, n) => format!("'@{}{n}'", *k as char),
            Tok::Local(k, n) => format!("'%{}{n}'", *k as char),
            Tok::Str(s) => format!("\"{s}\""),
            Tok::Char(c) => format!("'{}'", *c as char),
            Tok::Punct(c) => format!("'{}'", *c as char),
            Tok::Eof => "end of input".into(),
        }
    }
}

/// Splits PNaClAsm text into tokens. `//` starts a comment that runs to the end of the line.
pub struct Lexer<'s> {
    src: &'s [u8],
    text: &'s str,
    pos: usize,
    /// The next token and its offset, once peeked.
    peeked: Option<(Tok<'s>, usize)>,
    /// Offset of the last token returned.
    pub last: usize,
}

/// A lexing error: offset and message.
pub type LexError = (usize, String);

/// True for the bytes of a keyword or number.
pub(crate) fn is_word(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'.'
}

impl<'s> Lexer<'s> {
    /// Creates a lexer over `text`.
    pub fn new(text: &'s str) -> Self {
        Self::starting_at(text, 0)
    }

    /// Creates a lexer over `text` that starts at offset `pos`.
    pub fn starting_at(text: &'s str, pos: usize) -> Self {
        Lexer { src: text.as_bytes(), text, pos: pos.min(text.len()), peeked: None, last: pos.min(text.len()) }
    }

    /// Offset of the next token (after whitespace and comments).
    pub fn offset(&mut self) -> usize {
        match self.peeked {
            Some((_, at)) => at,
            None => {
                self.skip_space();
                self.pos
            }
        }
    }

    fn skip_space(&mut self) {
        loop {
            while self.pos < self.src.len() && self.src[self.pos].is_ascii_whitespace() {
                self.pos += 1;
            }
            if self.src[self.pos..].starts_with(b"//") {
                while self.pos < self.src.len() && self.src[self.pos] != b'\n' {
                    self.pos += 1;
                }
            } else {
                return;
            }
        }
    }

    /// The next token, without consuming it.
    pub fn peek(&mut self) -> Result<Tok<'s>, LexError> {
        if let Some((t, _)) = self.peeked {
            return Ok(t);
        }
        let (t, at) = self.lex()?;
        self.peeked = Some((t, at));
        Ok(t)
    }

    /// The token after the next one, without consuming anything.
    pub fn peek_second(&mut self) -> Result<Tok<'s>, LexError> {
        self.peek_nth(1)
    }

    /// The token `n` tokens ahead (0: the next one), without consuming anything.
    pub fn peek_nth(&mut self, n: usize) -> Result<Tok<'s>, LexError> {
        let next = self.peek()?;
        if n == 0 {
            return Ok(next);
        }
        let saved = (self.pos, self.peeked, self.last);
        self.peeked = None;
        let mut t = Ok(next);
        for _ in 0..n {
            t = self.lex().map(|(t, _)| t);
            if t.is_err() {
                break;
            }
        }
        (self.pos, self.peeked, self.last) = saved;
        t
    }

    /// Consumes and returns the next token.
    pub fn next_tok(&mut self) -> Result<Tok<'s>, LexError> {
        let (t, at) = match self.peeked.take() {
            Some(p) => p,
            None => self.lex()?,
        };
        self.last = at;
        Ok(t)
    }

    fn lex(&mut self) -> Result<(Tok<'s>, usize), LexError> {
        self.skip_space();
        let start = self.pos;
        let Some(&c) = self.src.get(self.pos) else {
            return Ok((Tok::Eof, start));
        };
        let tok = match c {
            b'0'..=b'9' => self.number(start),
            b'-' if self.src.get(self.pos + 1).is_some_and(|d| d.is_ascii_digit() || *d == b'i' || *d == b'n') => {
                self.number(start)
            }
            b'@' | b'%' => {
                let kind = self.src.get(self.pos + 1).copied().filter(u8::is_ascii_alphabetic);
                let Some(kind) = kind else {
                    return Err((start, format!("expected an identifier after '{}'", c as char)));
                };
                self.pos += 2;
                let digits = self.pos;
                while self.pos < self.src.len() && self.src[self.pos].is_ascii_digit() {
                    self.pos += 1;
                }
                let n = self.text[digits..self.pos]
                    .parse::<u64>()
                    .map_err(|_| (start, format!("expected an index after '{}{}'", c as char, kind as char)))?;
                if self.src.get(self.pos).is_some_and(|&b| is_word(b)) {
                    return Err((start, "malformed identifier".into()));
                }
                if c == b'@' { Tok::Global(kind, n) } else { Tok::Local(kind, n) }
            }
            b'"' => {
                self.pos += 1;
                let s = self.pos;
                while self.pos < self.src.len() && self.src[self.pos] != b'"' && self.src[self.pos] != b'\n' {
                    self.pos += 1;
                }
                if self.src.get(self.pos) != Some(&b'"') {
                    return Err((start, "unterminated string".into()));
                }
                self.pos += 1;
                Tok::Str(&self.text[s..self.pos - 1])
            }
            b'\'' => {
                if self.src.get(self.pos + 2) != Some(&b'\'') {
                    return Err((start, "malformed character literal".into()));
                }
                let ch = self.src[self.pos + 1];
                self.pos += 3;
                Tok::Char(ch)
            }
            b'.' if self.src[self.pos..].starts_with(b"...") => {
                self.pos += 3;
                Tok::Ident("...")
            }
            c if c.is_ascii_alphabetic() || c == b'_' => {
                while self.pos < self.src.len() && is_word(self.src[self.pos]) {
                    self.pos += 1;
                }
                let w = &self.text[start..self.pos];
                if w == "nan" || w == "inf" { Tok::Float(w) } else { Tok::Ident(w) }
            }
            b'{' | b'}' | b'(' | b')' | b'[' | b']' | b'<' | b'>' | b',' | b';' | b':' | b'=' | b'*' | b'+' | b'-'
            | b'|' => {
                self.pos += 1;
                Tok::Punct(c)
            }
            _ => {
                let ch = self.text[start..].chars().next().unwrap_or('?');
                return Err((start, format!("unexpected character {ch:?}")));
            }
        };
        Ok((tok, start))
    }

    fn number(&mut self, start: usize) -> Tok<'s> {
        if self.src[self.pos] == b'-' {
            self.pos += 1;
        }
        if self.src[self.pos..].starts_with(b"inf") || self.src[self.pos..].starts_with(b"nan") {
            self.pos += 3;
            return Tok::Float(&self.text[start..self.pos]);
        }
        if self.src[self.pos..].starts_with(b"0x") || self.src[self.pos..].starts_with(b"0X") {
            self.pos += 2;
            let s = self.pos;
            while self.pos < self.src.len() && self.src[self.pos].is_ascii_hexdigit() {
                self.pos += 1;
            }
            return match u64::from_str_radix(&self.text[s..self.pos], 16) {
                Ok(v) if self.src[start] != b'-' => Tok::Hex(v),
                _ => Tok::Float(&self.text[start..self.pos]),
            };
        }
        let mut float = false;
        while self.pos < self.src.len() {
            match self.src[self.pos] {
                b'0'..=b'9' => self.pos += 1,
                b'.' => {
                    float = true;
                    self.pos += 1;
                }
                b'e' | b'E'
                    if self.src.get(self.pos + 1).is_some_and(|c| c.is_ascii_digit() || *c == b'+' || *c == b'-') =>
                {
                    float = true;
                    self.pos += 2;
                }
                _ => break,
            }
        }
        let text = &self.text[start..self.pos];
        // `-0` is not 0: PNaClAsm prints the sign-rotated value 1 (and the double -0.0) so.
        let negative_zero = text.starts_with('-') && text[1..].bytes().all(|b| b == b'0');
        if float || negative_zero {
            Tok::Float(text)
        } else {
            text.parse::<i128>().map(Tok::Int).unwrap_or(Tok::Float(text))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(s: &str) -> Vec<Tok<'_>> {
        let mut l = Lexer::new(s);
        let mut v = Vec::new();
        loop {
            let t = l.next_tok().unwrap();
            if t == Tok::Eof {
                return v;
            }
            v.push(t);
        }
    }

    #[test]
    fn tokens() {
        assert_eq!(
            all("%v0  =  add i32 %p0, -5; // c\n <@a2> reloc @g1 - 1"),
            vec![
                Tok::Local(b'v', 0),
                Tok::Punct(b'='),
                Tok::Ident("add"),
                Tok::Ident("i32"),
                Tok::Local(b'p', 0),
                Tok::Punct(b','),
                Tok::Int(-5),
                Tok::Punct(b';'),
                Tok::Punct(b'<'),
                Tok::Global(b'a', 2),
                Tok::Punct(b'>'),
                Tok::Ident("reloc"),
                Tok::Global(b'g', 1),
                Tok::Punct(b'-'),
                Tok::Int(1),
            ]
        );
        assert_eq!(
            all("1.5 -2e-05 nan -inf 7 i32* 'a' \"_start\""),
            vec![
                Tok::Float("1.5"),
                Tok::Float("-2e-05"),
                Tok::Float("nan"),
                Tok::Float("-inf"),
                Tok::Int(7),
                Tok::Ident("i32"),
                Tok::Punct(b'*'),
                Tok::Char(b'a'),
                Tok::Str("_start"),
            ]
        );
    }
}
