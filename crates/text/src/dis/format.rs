//! The line-wrapping text formatter behind both columns of a listing.
//!
//! pnacl-bcdis lays text out in a fixed width by cutting it between *tokens*, never inside
//! one. Text is written as plain characters and *directives*: a directive first turns the
//! plain text written since the previous directive into one token, then acts. Spaces are
//! dropped where a line breaks; opening brackets set an intraline indent for continuation
//! lines (capped so that a minimum width always remains) and closing brackets restore it;
//! clusters are groups of tokens moved to a fresh line together when they do not fit.
//!
//! [`Tokens`] records a record's text and directives; [`Formatter::layout`] then lays it
//! out. Cluster sizes are measured while recording, so the layout is one pass: a cluster's
//! fit is checked where it starts, which is where the original tool decides it after
//! replaying the tokens it buffered.

use std::fmt;

#[derive(Clone, Copy, Debug)]
enum Piece {
    /// A token: `text[start..end]`.
    Text(u32, u32),
    /// A space (also in `text`), or a line break where a space would overflow.
    Space,
    /// An opening bracket token: sets the intraline indent after it.
    Open(u32, u32),
    /// A closing bracket token: restores the intraline indent.
    Close(u32, u32),
    /// The start of a cluster of this many characters.
    Cluster(u32),
    /// The end of a logical line (an "instruction").
    Endline,
    /// Moves the block indentation by this many levels.
    Indent(i8),
}

/// The text and directives of one record's column, waiting for layout.
///
/// `text` holds every character in order, spaces included, so a line that fits is laid
/// out by copying it.
#[derive(Default)]
pub(crate) struct Tokens {
    /// ASCII text (the listing is ASCII; bytes are cheaper to build than a `String`).
    text: Vec<u8>,
    /// Start of the plain text not yet turned into a token.
    pending: usize,
    pieces: Vec<Piece>,
    /// Open clusters: the piece that starts each, and the text length when it started.
    open: Vec<(usize, usize)>,
    /// Number of `Endline`s and `Indent`s: a single line without indentation changes can
    /// take the fast path.
    endlines: u32,
    indents: u32,
    /// Bracket depth, and its lowest value: brackets balanced within the line leave the
    /// saved intraline indents as they were.
    depth: i32,
    min_depth: i32,
}

impl fmt::Write for Tokens {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.text.extend_from_slice(s.as_bytes());
        Ok(())
    }
}

impl Tokens {
    /// Forgets everything recorded.
    pub(crate) fn clear(&mut self) {
        self.text.clear();
        self.pending = 0;
        self.pieces.clear();
        self.open.clear();
        self.endlines = 0;
        self.indents = 0;
        self.depth = 0;
        self.min_depth = 0;
    }

    /// One line ended by its only `Endline`, without indentation changes or brackets left
    /// open or closed from elsewhere: laid out by copying when it fits.
    fn is_simple_line(&self) -> bool {
        self.endlines == 1
            && self.indents == 0
            && self.depth == 0
            && self.min_depth == 0
            && matches!(self.pieces.last(), Some(Piece::Endline))
    }

    /// All the text, spaces included.
    pub(crate) fn bytes(&self) -> &[u8] {
        &self.text
    }

    /// True if nothing was recorded.
    pub(crate) fn is_empty(&self) -> bool {
        self.pieces.is_empty() && self.text.len() == self.pending
    }

    /// Appends plain text to the current token.
    #[inline]
    pub(crate) fn text(&mut self, s: &str) -> &mut Self {
        self.text.extend_from_slice(s.as_bytes());
        self
    }

    /// Appends a decimal number to the current token.
    #[inline]
    pub(crate) fn num(&mut self, v: u64) -> &mut Self {
        push_decimal(&mut self.text, v);
        self
    }

    #[inline]
    fn flush(&mut self) {
        let end = self.text.len();
        if end > self.pending {
            self.pieces.push(Piece::Text(self.pending as u32, end as u32));
            self.pending = end;
        }
    }

    #[inline]
    fn bracket(&mut self, s: &str) -> (u32, u32) {
        self.flush();
        let start = self.text.len();
        self.text.extend_from_slice(s.as_bytes());
        self.pending = self.text.len();
        (start as u32, self.pending as u32)
    }

    /// A token of its own (`,`, `;`, `:`).
    #[inline]
    pub(crate) fn token(&mut self, s: &str) -> &mut Self {
        let (a, b) = self.bracket(s);
        self.pieces.push(Piece::Text(a, b));
        self
    }

    /// A space that may become a line break.
    #[inline]
    pub(crate) fn space(&mut self) -> &mut Self {
        self.flush();
        self.text.push(b' ');
        self.pending = self.text.len();
        self.pieces.push(Piece::Space);
        self
    }

    /// An opening bracket.
    #[inline]
    pub(crate) fn open(&mut self, s: &str) -> &mut Self {
        let (a, b) = self.bracket(s);
        self.pieces.push(Piece::Open(a, b));
        self.depth += 1;
        self
    }

    /// A closing bracket.
    #[inline]
    pub(crate) fn close(&mut self, s: &str) -> &mut Self {
        let (a, b) = self.bracket(s);
        self.pieces.push(Piece::Close(a, b));
        self.depth -= 1;
        self.min_depth = self.min_depth.min(self.depth);
        self
    }

    /// Starts a cluster.
    #[inline]
    pub(crate) fn start(&mut self) -> &mut Self {
        self.flush();
        self.open.push((self.pieces.len(), self.text.len()));
        self.pieces.push(Piece::Cluster(0));
        self
    }

    /// Ends the innermost cluster.
    #[inline]
    pub(crate) fn finish(&mut self) -> &mut Self {
        self.flush();
        if let Some((at, from)) = self.open.pop() {
            self.pieces[at] = Piece::Cluster((self.text.len() - from) as u32);
        }
        self
    }

    /// Ends the logical line.
    #[inline]
    pub(crate) fn endline(&mut self) -> &mut Self {
        self.flush();
        self.pieces.push(Piece::Endline);
        self.endlines += 1;
        self
    }

    /// Moves the block indentation (takes effect for lines started after this point).
    #[inline]
    pub(crate) fn indent(&mut self, delta: i8) -> &mut Self {
        self.flush();
        self.pieces.push(Piece::Indent(delta));
        self.indents += 1;
        self
    }
}

/// The two-digit decimal numbers 00 to 99, back to back.
const DIGIT_PAIRS: &[u8; 200] = b"0001020304050607080910111213141516171819\
2021222324252627282930313233343536373839\
4041424344454647484950515253545556575859\
6061626364656667686970717273747576777879\
8081828384858687888990919293949596979899";

/// Appends `v` in decimal (two digits per division: most of a listing is numbers).
///
/// Numbers below 100 (most of a listing's) are written in line, and longer ones by a call:
/// one function for both was not inlined, a call for every number.
#[inline(always)]
pub(crate) fn push_decimal(s: &mut Vec<u8>, v: u64) {
    if v < 10 {
        s.push(b'0' + v as u8);
    } else if v < 100 {
        let pair = v as usize * 2;
        s.extend_from_slice(&[DIGIT_PAIRS[pair], DIGIT_PAIRS[pair + 1]]);
    } else {
        push_long_decimal(s, v);
    }
}

/// [`push_decimal`] of a number of three digits or more.
///
/// The digits are written straight into the vector, over room made by a fixed-size copy
/// of zeros that is then cut to length. Gathering them in a buffer on the stack and
/// copying that (as one 16-byte load) stalled on the narrow stores just made to it, a
/// quarter of this function's time.
#[inline(never)]
fn push_long_decimal(s: &mut Vec<u8>, mut v: u64) {
    let n = decimal_digits(v);
    let len = s.len();
    s.extend_from_slice(&[0u8; 20]);
    let digits = &mut s[len..len + n];
    let mut i = n;
    while v >= 100 {
        let pair = (v % 100) as usize * 2;
        v /= 100;
        i -= 2;
        digits[i..i + 2].copy_from_slice(&DIGIT_PAIRS[pair..pair + 2]);
    }
    if v >= 10 {
        let pair = v as usize * 2;
        digits[i - 2..i].copy_from_slice(&DIGIT_PAIRS[pair..pair + 2]);
    } else {
        digits[i - 1] = b'0' + v as u8;
    }
    s.truncate(len + n);
}

/// The number of decimal digits of `v`.
#[inline]
pub(crate) fn decimal_digits(v: u64) -> usize {
    v.checked_ilog10().map_or(1, |d| d as usize + 1)
}

/// Appends the first `n` bytes of `chunk`. The whole chunk is copied, then cut: a copy of a
/// fixed size is a few stores, where a short copy of a variable size is a call to `memmove`,
/// and a listing is made of short pieces.
#[inline]
fn push_prefix<const N: usize>(s: &mut Vec<u8>, chunk: &[u8; N], n: usize) {
    let len = s.len();
    s.extend_from_slice(chunk);
    s.truncate(len + n.min(N));
}

/// Lays out [`Tokens`] in a fixed width, keeping the state the original formatter keeps
/// between records (block indentation and the stack of intraline indents).
#[derive(Clone, PartialEq, Eq)]
pub(crate) struct Formatter {
    width: usize,
    /// Largest intraline indent: the width minus the minimum printable width.
    cap: usize,
    /// Extra indentation of continuation lines without an intraline indent.
    continuation: usize,
    /// Block indentation, in levels of two spaces.
    level: usize,
    /// Saved intraline indents (not reset at the end of a line, like the original).
    saved: Vec<usize>,
}

/// Per-layout position state.
struct Cursor<'o> {
    out: &'o mut Vec<u8>,
    /// Characters on the current physical line.
    col: usize,
    /// Current intraline indent (0: none).
    indent: usize,
    /// No character of the current logical line written yet.
    fresh: bool,
    /// Block indentation captured when the logical line started.
    line_indent: usize,
}

impl Formatter {
    /// A formatter for lines of `width` characters keeping at least `min_width` printable
    /// after any indent, indenting continuation lines by `continuation` spaces.
    pub(crate) fn new(width: usize, min_width: usize, continuation: usize) -> Self {
        let min_width = min_width.min(width);
        Formatter { width, cap: width - min_width, continuation, level: 0, saved: Vec::new() }
    }

    /// The block indentation level.
    pub(crate) fn level(&self) -> usize {
        self.level
    }

    /// True if `t` is one line that fits after `prefix` columns (and the indentation): its
    /// layout is then the indentation followed by [`Tokens::bytes`].
    pub(crate) fn fits_on_one_line(&self, t: &Tokens, prefix: usize) -> bool {
        t.is_simple_line() && !t.text.is_empty() && prefix + 2 * self.level + t.text.len() <= self.width
    }

    /// The line width.
    pub(crate) fn width(&self) -> usize {
        self.width
    }

    /// Moves the block indentation (never below zero).
    pub(crate) fn shift(&mut self, delta: isize) {
        self.level = self.level.saturating_add_signed(delta);
    }

    /// Appends `text` as the layout of a line that fits lays it out: after `label` and its
    /// bar (in the record column), indented to the block level. The newline is the
    /// caller's.
    #[inline(always)]
    pub(crate) fn one_line(&self, label: Option<&[u8]>, text: &[u8], out: &mut Vec<u8>) {
        if let Some(l) = label {
            out.extend_from_slice(l);
            out.push(b'|');
        }
        push_spaces(out, 2 * self.level);
        out.extend_from_slice(text);
    }

    /// Lays `t` out, appending lines to `out`. `label` is the record column's address
    /// label (printed before the first line, blanked on continuation lines).
    pub(crate) fn layout(&mut self, t: &Tokens, label: Option<&[u8]>, out: &mut Vec<u8>) {
        if t.is_simple_line() {
            let prefix = label.map_or(0, |l| l.len() + 1) + 2 * self.level;
            if t.text.is_empty() {
                out.push(b'\n');
                return;
            }
            if prefix + t.text.len() <= self.width {
                self.one_line(label, &t.text, out);
                out.push(b'\n');
                return;
            }
        }
        let mut c = Cursor { out, col: 0, indent: 0, fresh: true, line_indent: 0 };
        for &p in &t.pieces {
            match p {
                Piece::Text(a, b) => self.write_token(&mut c, &t.text[a as usize..b as usize], label),
                Piece::Space => {
                    if !self.wrap_if_needed(&mut c, 1) {
                        self.write_token(&mut c, b" ", label);
                    }
                }
                Piece::Open(a, b) => {
                    self.write_token(&mut c, &t.text[a as usize..b as usize], label);
                    self.saved.push(c.indent);
                    c.indent = c.col.min(self.cap);
                }
                Piece::Close(a, b) => {
                    self.write_token(&mut c, &t.text[a as usize..b as usize], label);
                    if let Some(i) = self.saved.pop() {
                        c.indent = i;
                    }
                }
                Piece::Cluster(n) => {
                    self.wrap_if_needed(&mut c, n as usize);
                }
                Piece::Endline => {
                    c.out.push(b'\n');
                    c.col = 0;
                    c.indent = 0;
                    c.fresh = true;
                    c.line_indent = 0;
                }
                Piece::Indent(d) => self.shift(d as isize),
            }
        }
        // Text after the last Endline (the original leaves it for the next flush, which
        // prints it as the last line).
        let tail = &t.text[t.pending..];
        if !tail.is_empty() {
            self.write_token(&mut c, tail, label);
        }
    }

    /// Breaks the line before `n` more characters if they do not fit (never at the start
    /// of a line). Returns true if it broke the line.
    #[inline]
    fn wrap_if_needed(&self, c: &mut Cursor<'_>, n: usize) -> bool {
        if c.col + n <= self.width || c.col == 0 {
            return false;
        }
        c.out.push(b'\n');
        c.col = 0;
        c.fresh = false;
        true
    }

    // Always: it is most of the layout loop, and a call per token cost a tenth of a
    // listing's time.
    #[inline(always)]
    fn write_token(&self, c: &mut Cursor<'_>, s: &[u8], label: Option<&[u8]>) {
        if s.is_empty() {
            return;
        }
        self.wrap_if_needed(c, s.len());
        if c.col == 0 {
            self.line_prefix(c, label);
        }
        c.out.extend_from_slice(s);
        c.col += s.len();
        c.fresh = false;
    }

    /// What precedes the first character of a physical line.
    #[inline(never)]
    fn line_prefix(&self, c: &mut Cursor<'_>, label: Option<&[u8]>) {
        if let Some(label) = label {
            if c.fresh {
                c.out.extend_from_slice(label);
            } else {
                push_spaces(c.out, label.len());
            }
            c.out.push(b'|');
            c.col += label.len() + 1;
        }
        if c.fresh {
            c.line_indent = 2 * self.level;
        }
        push_spaces(c.out, c.line_indent);
        c.col += c.line_indent;
        let mut target = c.indent;
        if !c.fresh && c.indent == 0 {
            target = (c.col + self.continuation).min(self.cap);
        }
        if target > c.col {
            push_spaces(c.out, target - c.col);
            c.col = target;
        }
    }
}

/// Appends `n` spaces.
#[inline]
pub(crate) fn push_spaces(s: &mut Vec<u8>, n: usize) {
    const SPACES: [u8; 32] = [b' '; 32];
    if n <= SPACES.len() {
        push_prefix(s, &SPACES, n);
    } else {
        s.resize(s.len() + n, b' ');
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spaces() {
        for n in 0..70 {
            let mut s = b"x".to_vec();
            push_spaces(&mut s, n);
            assert_eq!(s, format!("x{}", " ".repeat(n)).as_bytes());
        }
    }

    #[test]
    fn decimals() {
        for v in [0, 7, 9, 10, 99, 100, 101, 999, 1000, 65535, 4294967293, 10u64.pow(19) - 1, 10u64.pow(19), u64::MAX] {
            let mut s = b"x".to_vec();
            push_decimal(&mut s, v);
            assert_eq!(s, format!("x{v}").as_bytes());
            assert_eq!(decimal_digits(v), v.to_string().len());
        }
    }

    /// `foobar(Value1, Value2, Value3)` with the clusters of the original formatter's unit
    /// test (`<<<foobar(>` `<Value1,>>` `<Value2,>` `<Value3>)>`).
    fn simple_call(t: &mut Tokens) {
        t.start().start().start().text("foobar").open("(").finish();
        t.start().text("Value1").token(",").finish().finish().space();
        t.start().text("Value2").token(",").finish().space();
        t.start().text("Value3").finish().close(")").finish();
    }

    fn lay(width: usize, build: impl Fn(&mut Tokens)) -> String {
        let mut t = Tokens::default();
        build(&mut t);
        let mut f = Formatter::new(width, 20, 4);
        let mut out = Vec::new();
        f.layout(&t, None, &mut out);
        String::from_utf8(out).unwrap()
    }

    /// Expected lines from the formatter test vectors (`/` separates lines).
    #[test]
    fn clustered_call_at_every_width() {
        let cases = [
            (30, "foobar(Value1, Value2, Value3)"),
            (29, "foobar(Value1, Value2, Value3/       )"),
            (23, "foobar(Value1, Value2, /   Value3)"),
            (22, "foobar(Value1, Value2,/  Value3)"),
            (21, "foobar(Value1, / Value2, Value3)"),
            (20, "foobar(Value1, /Value2, Value3)"),
            (13, "foobar(/Value1, /Value2, /Value3)"),
            (7, "foobar(/Value1,/Value2,/Value3)"),
            (4, "foobar/(/Value1/, /Value2/, /Value3/)"),
        ];
        for (width, want) in cases {
            let got = lay(width, simple_call);
            assert_eq!(got.replace('\n', "/"), want, "width {width}");
        }
    }

    #[test]
    fn plain_call_without_brackets_or_clusters() {
        let plain = |t: &mut Tokens| {
            t.text("foobar").token("(").text("Value1").token(",").space();
            t.text("Value2").token(",").space().text("Value3").token(")");
        };
        assert_eq!(lay(29, plain).replace('\n', "/"), "foobar(Value1, Value2, Value3/    )");
        assert_eq!(lay(21, plain).replace('\n', "/"), "foobar(Value1, Value2/ , Value3)");
        assert_eq!(lay(13, plain).replace('\n', "/"), "foobar(Value1/, Value2, /Value3)");
    }

    #[test]
    fn record_label_and_continuation() {
        let mut t = Tokens::default();
        t.text("3:").space().open("<");
        let values = [5u64, u64::MAX, 100, 15, 107056];
        for (i, v) in values.iter().enumerate() {
            if i > 0 {
                t.token(",").finish().space();
            }
            t.start().num(*v);
        }
        t.finish().close(">").endline();
        let mut f = Formatter::new(40, 21, 0);
        let mut out = Vec::new();
        f.layout(&t, Some(b"     127:1"), &mut out);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "     127:1|3: <5, 18446744073709551615, \n          |    100, 15, 107056>\n"
        );
    }
}
