//! PNaClAsm pieces shared by the blocks: abbreviations, clustered exactly as pnacl-bcdis
//! clusters them (the clusters decide where long lines wrap), and number formats.

use super::format::Tokens;
use pnacl_bitstream::{Abbrev, Op};

/// Writes an abbreviation's operand list (`<fixed(3), vbr(8), array(char6)>`).
pub(crate) fn abbreviation(t: &mut Tokens, a: &Abbrev) {
    t.start().open("<");
    let ops = a.ops();
    let mut i = 0;
    let mut first = true;
    while i < ops.len() {
        if !first {
            t.token(",").finish().space().start();
        }
        first = false;
        i = abbrev_expression(t, ops, i);
    }
    t.close(">").finish();
}

/// Writes the operand at `i` (an array with its element) and returns the next index.
fn abbrev_expression(t: &mut Tokens, ops: &[Op], i: usize) -> usize {
    match ops[i] {
        // The original reader turns zero-width fields into the literal 0.
        Op::Literal(v) => {
            t.num(v);
        }
        Op::Fixed(0) | Op::Vbr(0) => {
            t.num(0);
        }
        Op::Fixed(w) => {
            t.start().text("fixed").open("(").num(u64::from(w)).close(")").finish();
        }
        Op::Vbr(w) => {
            t.start().text("vbr").open("(").num(u64::from(w)).close(")").finish();
        }
        Op::Char6 => {
            t.text("char6");
        }
        Op::Blob => {
            t.text("blob");
        }
        Op::Array => {
            t.text("array");
            if i + 1 < ops.len() {
                t.start().open("(");
                let next = abbrev_expression(t, ops, i + 1);
                t.close(")").finish();
                return next;
            }
        }
    }
    i + 1
}

/// The values pnacl-bcdis shows for an abbreviation definition record: the record's own
/// fields, plus a 0 after each zero-width fixed or VBR operand (a quirk of its reader).
pub(crate) fn abbreviation_record(a: &Abbrev, out: &mut Vec<u64>) {
    out.clear();
    out.push(pnacl_bitcode::codes::pseudo::DEFINE_ABBREV);
    out.push(a.ops().len() as u64);
    for op in a.ops() {
        match *op {
            Op::Literal(v) => out.extend([1, v]),
            Op::Fixed(w) | Op::Vbr(w) => {
                out.extend([0, op.encoding_tag(), u64::from(w)]);
                if w == 0 {
                    out.push(0);
                }
            }
            _ => out.extend([0, op.encoding_tag()]),
        }
    }
}

/// C's `printf("%g")`: six significant digits, trailing zeros removed, exponent form when
/// the exponent is below -4 or at least 6.
pub(crate) fn format_g(out: &mut String, v: f64) {
    use std::fmt::Write;
    if v.is_nan() {
        out.push_str(if v.is_sign_negative() { "-nan" } else { "nan" });
        return;
    }
    if v.is_infinite() {
        out.push_str(if v < 0.0 { "-inf" } else { "inf" });
        return;
    }
    if v == 0.0 {
        out.push_str(if v.is_sign_negative() { "-0" } else { "0" });
        return;
    }
    // Round to six significant digits first: the exponent is the rounded value's.
    let sci = format!("{v:.5e}");
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    if (-4..6).contains(&exp) {
        let decimals = (5 - exp).max(0) as usize;
        let fixed = format!("{v:.decimals$}");
        out.push_str(trim_zeros(&fixed));
    } else {
        let _ = write!(out, "{}e{}{:02}", trim_zeros(mantissa), if exp < 0 { '-' } else { '+' }, exp.abs());
    }
}

fn trim_zeros(s: &str) -> &str {
    if s.contains('.') { s.trim_end_matches('0').trim_end_matches('.') } else { s }
}

/// Writes a number right-aligned in three columns (C's `%3u`).
pub(crate) fn pad3(t: &mut Tokens, v: u64) {
    if v < 10 {
        t.text("  ");
    } else if v < 100 {
        t.text(" ");
    }
    t.num(v);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn printf_g() {
        let cases: [(f64, &str); 15] = [
            (1.0, "1"),
            (7.0, "7"),
            (6.0, "6"),
            (0.5, "0.5"),
            (1e6, "1e+06"),
            (123456.0, "123456"),
            (1234567.0, "1.23457e+06"),
            (1.5e-5, "1.5e-05"),
            (0.0001, "0.0001"),
            (-0.0, "-0"),
            (f64::INFINITY, "inf"),
            (f64::NEG_INFINITY, "-inf"),
            (std::f64::consts::PI, "3.14159"),
            (123.456789, "123.457"),
            (999999.5, "1e+06"),
        ];
        for (v, want) in cases {
            let mut s = String::new();
            format_g(&mut s, v);
            assert_eq!(s, want, "{v}");
        }
        let mut s = String::new();
        format_g(&mut s, f64::NAN);
        assert_eq!(s, "nan");
    }
}
