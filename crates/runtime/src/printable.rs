//! Text from files and guests, made safe to print: a terminal must not receive escape
//! sequences it would act on (moving the cursor, rewriting the title, hiding text) from an
//! image header, a function name or an interface name the guest asked for.

use std::borrow::Cow;

/// Whether `c` would be acted on rather than shown: control characters, and the format
/// characters that reorder or hide text (bidirectional overrides and isolates, zero-width
/// marks).
fn acts(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{feff}')
}

/// `s` with every character a terminal would act on written as a Rust escape (`\u{1b}`,
/// `\n`).
pub fn printable(s: &str) -> Cow<'_, str> {
    if !s.chars().any(acts) {
        return Cow::Borrowed(s);
    }
    let mut out = String::new();
    for c in s.chars() {
        if acts(c) {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::printable;

    #[test]
    fn escapes_are_shown_not_sent() {
        assert_eq!(printable("0.1.0"), "0.1.0");
        assert_eq!(printable("a\u{1b}]0;owned\u{7}b"), "a\\u{1b}]0;owned\\u{7}b");
        assert_eq!(printable("x\ny\r"), "x\\ny\\r");
        assert_eq!(printable("abc\u{202e}fed"), "abc\\u{202e}fed");
        assert_eq!(printable("héllo"), "héllo");
    }
}
