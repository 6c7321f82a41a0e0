//! PNaClAsm as tokens: types, abbreviations and instructions, clustered exactly as
//! pnacl-bcdis clusters them (the clusters decide where long lines wrap).

use super::format::Tokens;
use pnacl_bitcode::ir::{FunctionBody, Inst, Signature, Ty, ValueId, ValueKind, ValueSpace};
use pnacl_bitstream::{Abbrev, Op};

/// Writes a value type.
pub(crate) fn ty(t: &mut Tokens, ty: Ty) {
    if ty.is_vector() {
        t.start().open("<").num(u64::from(ty.lanes())).space().text("x").space();
        t.text(scalar_name(ty.element())).close(">").finish();
    } else {
        t.text(scalar_name(ty));
    }
}

fn scalar_name(ty: Ty) -> &'static str {
    match ty {
        Ty::Void => "void",
        Ty::I1 => "i1",
        Ty::I8 => "i8",
        Ty::I16 => "i16",
        Ty::I32 => "i32",
        Ty::I64 => "i64",
        Ty::Float => "float",
        Ty::Double => "double",
        _ => "???",
    }
}

/// Writes a function type, optionally named `@fN` and with parameter names.
pub(crate) fn function_type(t: &mut Tokens, sig: &Signature, name: Option<u32>, param_names: bool) {
    let n = sig.params.len();
    t.start();
    ty(t, sig.ret);
    t.space().start();
    if n > 0 {
        t.start();
    }
    if let Some(f) = name {
        t.text("@f").num(u64::from(f));
    }
    t.open("(").finish();
    let mut param_open = false;
    for (i, &p) in sig.params.iter().enumerate() {
        if i > 0 {
            t.token(",").finish().space();
        }
        t.start();
        ty(t, p);
        if param_names {
            t.space().text("%p").num(i as u64);
        }
        param_open = true;
    }
    if sig.vararg {
        if param_open {
            t.token(",").finish().space();
        }
        t.start().text("...");
        param_open = true;
    }
    if param_open {
        t.finish();
    }
    t.close(")").finish();
    if n > 0 {
        t.finish();
    }
}

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

/// Writes an integer as pnacl-bcdis prints sign-rotated values: the magnitude, negated
/// when the low bit is set (so 1 is `-0`), except for `i1` whose low bit is not a sign.
pub(crate) fn sign_rotated(t: &mut Tokens, raw: u64, ty: Ty) {
    if raw & 1 == 1 && ty != Ty::I1 {
        t.text("-");
    }
    t.num(raw >> 1);
}

/// Writes a floating-point constant's bits like C's `%g`.
pub(crate) fn float_constant(t: &mut Tokens, bits: u64, ty: Ty) {
    let v = if ty == Ty::Float { f64::from(f32::from_bits(bits as u32)) } else { f64::from_bits(bits) };
    let mut s = String::new();
    format_g(&mut s, v);
    t.text(&s);
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

/// Names and types of values as a function body sees them.
pub(crate) struct Values<'a> {
    /// The value numbering.
    pub space: ValueSpace,
    /// The function body read so far.
    pub body: &'a FunctionBody,
    /// Types declared by forward declarations, by absolute value index.
    pub forward: &'a [(u32, Ty)],
}

/// Writes the name of an absolute value index (`@f3`, `%c2`, `%v7`, ...).
pub(crate) fn value_name(t: &mut Tokens, space: &ValueSpace, v: ValueId) {
    let (prefix, n) = match space.kind(v) {
        ValueKind::Function(i) => ("@f", i),
        ValueKind::Global(i) => ("@g", i),
        ValueKind::Param(i) => ("%p", i),
        ValueKind::Const(i) => ("%c", i),
        ValueKind::Inst(i) => ("%v", i),
    };
    t.text(prefix).num(u64::from(n));
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

impl Values<'_> {
    /// Writes the name of a value.
    pub(crate) fn name(&self, t: &mut Tokens, v: ValueId) {
        value_name(t, &self.space, v);
    }

    /// The type of a value as an operand: function and global addresses are `i32`.
    pub(crate) fn ty(&self, v: ValueId) -> Ty {
        let fg = self.space.functions + self.space.globals;
        if v.0 < fg {
            return Ty::I32;
        }
        if let Some(&t) = self.body.local_types.get((v.0 - fg) as usize) {
            return t;
        }
        self.forward.iter().rev().find(|(id, _)| *id == v.0).map_or(Ty::Void, |&(_, t)| t)
    }

    /// Writes `TYPE NAME`.
    fn typed(&self, t: &mut Tokens, v: ValueId) {
        ty(t, self.ty(v));
        t.space();
        self.name(t, v);
    }
}

/// Writes `%bN`.
fn block(t: &mut Tokens, b: u32) {
    t.text("%b").num(u64::from(b));
}

/// Writes `align N`.
fn align(t: &mut Tokens, bytes: u32) {
    t.text("align").space().num(u64::from(bytes));
}

/// Writes an instruction (without the abbreviation annotation and the end of line).
/// `result` is the number of the value it defines, if it defines one; `ret` is the return
/// type of a direct call's callee.
pub(crate) fn instruction(t: &mut Tokens, vals: &Values<'_>, inst: &Inst, result: u32, call_ret: Ty) {
    let body = vals.body;
    let def = |t: &mut Tokens| {
        t.text("%v").num(u64::from(result)).space().text("=").space();
    };
    match *inst {
        Inst::Binop { op, lhs, rhs, .. } => {
            let lt = vals.ty(lhs);
            def(t);
            t.text(op.name(lt.element()).unwrap_or("???")).space();
            ty(t, lt);
            t.space();
            vals.name(t, lhs);
            t.token(",").space();
            vals.name(t, rhs);
            t.token(";");
        }
        Inst::Cast { op, val, to } => {
            def(t);
            t.text(op.name()).space();
            vals.typed(t, val);
            t.space().text("to").space();
            ty(t, to);
            t.token(";");
        }
        Inst::Ret { val } => {
            t.text("ret").space();
            match val {
                None => {
                    t.text("void");
                }
                Some(v) => vals.typed(t, v),
            }
            t.token(";");
        }
        Inst::Br { target } => {
            t.text("br").space().start().text("label").space();
            block(t, target);
            t.token(";").finish();
        }
        Inst::CondBr { cond, on_true, on_false } => {
            t.text("br").space().start();
            vals.typed(t, cond);
            t.token(",").finish().space();
            t.start().text("label").space();
            block(t, on_true);
            t.token(",").finish().space().start().text("label").space();
            block(t, on_false);
            t.token(";").finish();
        }
        Inst::Switch { ty: sty, cond, cases } => {
            let default = body.switch_default(cases);
            t.text("switch").space().start().start();
            ty(t, sty);
            t.space();
            vals.name(t, cond);
            t.finish().space().text("{").finish().endline();
            t.indent(1);
            t.start().text("default").text(":").space().finish();
            t.start().text("br").space().text("label").space();
            block(t, default);
            t.token(";").finish().endline();
            for c in body.switch_cases(cases) {
                t.start();
                ty(t, sty);
                t.space();
                sign_rotated(t, c.raw, sty);
                t.text(":").space().finish();
                t.start().text("br").space().text("label").space();
                block(t, c.target);
                t.token(";").finish().endline();
            }
            t.indent(-1);
            t.text("}");
        }
        Inst::Unreachable => {
            t.text("unreachable").token(";");
        }
        Inst::Phi { ty: pty, incoming } => {
            t.text("%v").num(u64::from(result)).space().text("=").start().space().text("phi").space();
            ty(t, pty);
            for (i, (v, b)) in body.incoming(incoming).enumerate() {
                if i > 0 {
                    t.token(",");
                }
                t.finish().space().start().open("[");
                vals.name(t, v);
                t.token(",").space();
                block(t, b);
                t.close("]");
            }
            t.token(";").finish();
        }
        Inst::Alloca { size, align: a } => {
            def(t);
            t.start().text("alloca").space().text("i8").token(",").finish().space().start();
            vals.typed(t, size);
            t.token(",").finish().space().start();
            align(t, a.bytes());
            t.token(";").finish();
        }
        Inst::Load { ptr, ty: lty, align: a } => {
            def(t);
            t.start().text("load").space();
            ty(t, lty);
            t.text("*").space();
            vals.name(t, ptr);
            t.token(",").finish().space().start();
            align(t, a.bytes());
            t.token(";").finish();
        }
        Inst::Store { ptr, val, align: a } => {
            let vt = vals.ty(val);
            t.start().text("store").space();
            vals.typed(t, val);
            t.token(",").finish().space().start();
            ty(t, vt);
            t.text("*").space();
            vals.name(t, ptr);
            t.token(",").finish().space().start();
            align(t, a.bytes());
            t.token(";").finish();
        }
        Inst::Cmp { pred, lhs, rhs } => {
            def(t);
            t.start().text(if pred.is_integer() { "icmp" } else { "fcmp" }).space().text(pred.name());
            t.finish().space().start();
            vals.typed(t, lhs);
            t.token(",").finish().space().start();
            vals.name(t, rhs);
            t.token(";").finish();
        }
        Inst::Select { cond, on_true, on_false } => {
            def(t);
            t.start().text("select").space();
            vals.typed(t, cond);
            t.token(",").finish().space().start();
            vals.typed(t, on_true);
            t.token(",").finish().space().start();
            vals.typed(t, on_false);
            t.token(";").finish();
        }
        Inst::ExtractElement { vector, index } => {
            // The original writes " = " as one token between two spaces.
            t.text("%v").num(u64::from(result)).space().text(" = ").space();
            t.start().text("extractelement").space();
            vals.typed(t, vector);
            t.token(",").finish().space().start();
            vals.typed(t, index);
            t.token(";").finish();
        }
        Inst::InsertElement { vector, element, index } => {
            t.text("%v").num(u64::from(result)).space().text(" = ").space();
            t.start().text("insertelement").space();
            vals.typed(t, vector);
            t.token(",").finish().space().start();
            vals.typed(t, element);
            t.token(",").finish().space().start();
            vals.typed(t, index);
            t.token(";").finish();
        }
        Inst::Call { tail, callee, indirect_ret, args } => {
            let ret = indirect_ret.unwrap_or(call_ret);
            if ret != Ty::Void {
                def(t);
            }
            if tail {
                t.text("tail").space();
            }
            t.text("call").space();
            ty(t, ret);
            t.space().start();
            vals.name(t, callee);
            t.open("(").start();
            for (i, a) in body.args(args).enumerate() {
                if i > 0 {
                    t.token(",").finish().space().start();
                }
                vals.typed(t, a);
            }
            t.close(")").token(";").finish().finish();
        }
        Inst::ForwardDecl { value, ty: fty } => {
            t.text("declare").space().start();
            ty(t, fty);
            t.space();
            vals.name(t, value);
            t.token(";").finish();
        }
    }
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
