//! A function's constants block as pnacl-bcdis lists and checks it.

use super::syntax;
use super::types::{DOUBLE, FLOAT, I1, I32};
use super::walk::{Block, Walker};
use pnacl_bitcode::codes::constants as cst;
use pnacl_bitstream::Record;

impl Walker<'_> {
    pub(super) fn constants_record(&mut self, b: &mut Block, r: &Record<'_, '_>) {
        self.d.record_pos = r.pos;
        let v = r.ops;
        let ga = b.global_abbrevs;
        let ct = b.constant_type;
        match r.code {
            cst::SETTYPE => {
                self.d.unwind_to(b.base_tabs + 1);
                if v.len() == 1 {
                    b.constant_type = self.get_type(v[0]);
                    self.ty(b.constant_type);
                    self.d.asm.text(":");
                    self.d.annotation(r.abbrev_id, ga);
                    self.d.asm.endline();
                } else {
                    self.d.error_line(format_args!("Settype record should have 1 argument. Found: {}", v.len()));
                    b.constant_type = I32;
                }
                self.d.asm.indent(1);
            }
            cst::UNDEF => {
                if !v.is_empty() {
                    self.d.error_line(format_args!("Undefined record should not have arguments: Found: {}", v.len()));
                }
                self.const_def();
                self.d.asm.start();
                self.ty(ct);
                self.d.asm.space().text("undef").token(";").finish();
                self.d.annotation(r.abbrev_id, ga);
                self.d.asm.endline();
                self.consts.push(ct);
            }
            cst::INTEGER => {
                let raw = if v.len() == 1 { Some(v[0]) } else { None };
                if raw.is_none() {
                    self.d.error_line(format_args!("Integer record should have 1 argument. Found: {}", v.len()));
                }
                self.const_def();
                self.d.asm.start().start();
                self.ty(ct);
                self.d.asm.space();
                let raw = raw.unwrap_or(0);
                if raw & 1 == 1 && ct != I1 {
                    self.d.asm.text("-");
                }
                self.d.asm.num(raw >> 1).token(";").finish().finish();
                self.d.annotation(r.abbrev_id, ga);
                self.d.asm.endline();
                self.consts.push(ct);
            }
            cst::FLOAT => {
                let mut bits = 0;
                if v.len() == 1 {
                    if ct == FLOAT {
                        bits = v[0] as u32 as u64;
                    } else if ct == DOUBLE {
                        bits = v[0];
                    } else {
                        self.d.error_line(format_args!("Bad floating point constant argument: {}", v[0]));
                    }
                } else {
                    self.d.error_line(format_args!("Float record should have 1 argument. Found: {}", v.len()));
                }
                self.const_def();
                self.d.asm.start();
                self.ty(ct);
                self.d.asm.space();
                let value = if ct == FLOAT { f64::from(f32::from_bits(bits as u32)) } else { f64::from_bits(bits) };
                let mut s = String::new();
                syntax::format_g(&mut s, value);
                self.d.asm.text(&s).token(";").finish();
                self.d.annotation(r.abbrev_id, ga);
                self.d.asm.endline();
                self.consts.push(ct);
            }
            _ => self.d.error_line("Unknown record in valuesymtab block."),
        }
        self.d.write_record(r);
    }

    fn const_def(&mut self) {
        self.d.asm.text("%c").num(self.consts.len() as u64).space().text("=").space();
    }
}
