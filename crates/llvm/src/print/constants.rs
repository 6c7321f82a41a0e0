//! Constants in LLVM IR text.

use super::Printer;
use crate::ir::{Const, ConstId, ExprOp, Type, TypeId};
use std::fmt::Write;

impl Printer<'_> {
    /// Writes `T c`.
    pub fn typed_constant(&self, out: &mut String, c: ConstId) {
        match self.m.const_type(c) {
            Some(t) => self.ty(out, t),
            None => out.push_str("ptr"),
        }
        out.push(' ');
        self.constant(out, c);
    }

    fn int(&self, out: &mut String, ty: TypeId, value: u64) {
        let w = self.m.types.get(ty).int_width().unwrap_or(64);
        if w == 1 {
            out.push_str(if value & 1 != 0 { "true" } else { "false" });
            return;
        }
        // Signed decimal, as LLVM prints.
        let v = if w >= 64 { value as i64 } else { ((value << (64 - w)) as i64) >> (64 - w) };
        let _ = write!(out, "{v}");
    }

    fn float(&self, out: &mut String, ty: TypeId, bits: u128) {
        match self.m.types.get(ty) {
            // Single precision is written as the hex of the same value in double precision.
            Type::Float => {
                let d = f64::from(f32::from_bits(bits as u32));
                let _ = write!(out, "0x{:016X}", d.to_bits());
            }
            Type::Double => {
                let _ = write!(out, "0x{:016X}", bits as u64);
            }
            Type::Half => {
                let _ = write!(out, "0xH{:04X}", bits as u16);
            }
            Type::BFloat => {
                let _ = write!(out, "0xR{:04X}", bits as u16);
            }
            Type::X86Fp80 => {
                let _ = write!(out, "0xK{:04X}{:016X}", (bits >> 64) as u16, bits as u64);
            }
            Type::Fp128 => {
                let _ = write!(out, "0xL{:016X}{:016X}", bits as u64, (bits >> 64) as u64);
            }
            _ => {
                let _ = write!(out, "0xM{:016X}{:016X}", bits as u64, (bits >> 64) as u64);
            }
        }
    }

    /// Writes the elements of an array, vector or struct constant.
    fn elements(&self, out: &mut String, ty: TypeId, elems: &[ConstId]) {
        let (open, close) = match self.m.types.get(ty) {
            Type::Array { .. } => ("[", "]"),
            Type::Vector { .. } => ("<", ">"),
            Type::Struct(s) if s.packed => ("<{ ", " }>"),
            _ => ("{ ", " }"),
        };
        out.push_str(open);
        for (i, &e) in elems.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            self.typed_constant(out, e);
        }
        if elems.is_empty() && open.ends_with(' ') {
            out.pop();
            out.push_str(close.trim_start());
        } else {
            out.push_str(close);
        }
    }

    /// Writes a constant without its type.
    pub fn constant(&self, out: &mut String, c: ConstId) {
        match self.m.consts.get(c) {
            Const::Int { ty, value } => self.int(out, *ty, *value),
            Const::WideInt { words, .. } => {
                out.push_str("u0x");
                let mut started = false;
                for w in words.iter().rev() {
                    if started {
                        let _ = write!(out, "{w:016X}");
                    } else if *w != 0 {
                        let _ = write!(out, "{w:X}");
                        started = true;
                    }
                }
                if !started {
                    out.push('0');
                }
            }
            Const::Float { ty, bits } => self.float(out, *ty, *bits),
            Const::Null(_) => out.push_str("null"),
            Const::Undef(_) => out.push_str("undef"),
            Const::Poison(_) => out.push_str("poison"),
            Const::Zero(_) => out.push_str("zeroinitializer"),
            Const::Aggregate { ty, elems } => self.elements(out, *ty, elems),
            Const::Data { ty, elems } => {
                let elem = self.m.types.element(*ty).expect("data of a sequence");
                let is_array = matches!(self.m.types.get(*ty), Type::Array { .. });
                if is_array && self.m.types.get(elem).int_width() == Some(8) {
                    out.push('c');
                    super::names::quoted(out, &elems.iter().map(|&e| e as u8).collect::<Vec<_>>());
                    return;
                }
                out.push_str(if is_array { "[" } else { "<" });
                for (i, &e) in elems.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    self.ty(out, elem);
                    out.push(' ');
                    if self.m.types.get(elem).is_float() {
                        self.float(out, elem, u128::from(e));
                    } else {
                        self.int(out, elem, e);
                    }
                }
                out.push_str(if is_array { "]" } else { ">" });
            }
            Const::Function(f) => self.function_ref(out, f.0),
            Const::Global(g) => self.global_ref(out, g.0),
            Const::Alias(a) => self.alias_ref(out, a.0),
            Const::BlockAddress { func, block, .. } => {
                out.push_str("blockaddress(");
                self.function_ref(out, func.0);
                out.push_str(", ");
                self.block_ref(out, func.0, block.0);
                out.push(')');
            }
            Const::Expr { ty, op, operands } => self.expr(out, *ty, op, operands),
        }
    }

    fn expr(&self, out: &mut String, ty: TypeId, op: &ExprOp, ops: &[ConstId]) {
        let list = |p: &Self, out: &mut String, ops: &[ConstId]| {
            for (i, &o) in ops.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                p.typed_constant(out, o);
            }
        };
        match op {
            ExprOp::Cast(c) => {
                let _ = write!(out, "{} (", c.name());
                self.typed_constant(out, ops[0]);
                out.push_str(" to ");
                self.ty(out, ty);
                out.push(')');
            }
            ExprOp::Binary(b, flags) => {
                out.push_str(b.name());
                use crate::ir::BinaryOp::*;
                match b {
                    Add | Sub | Mul | Shl => {
                        if flags & 1 != 0 {
                            out.push_str(" nuw");
                        }
                        if flags & 2 != 0 {
                            out.push_str(" nsw");
                        }
                    }
                    UDiv | SDiv | LShr | AShr if flags & 1 != 0 => out.push_str(" exact"),
                    _ => {}
                }
                out.push_str(" (");
                list(self, out, ops);
                out.push(')');
            }
            ExprOp::FNeg => {
                out.push_str("fneg (");
                list(self, out, ops);
                out.push(')');
            }
            ExprOp::GetElementPtr { source_ty, inbounds, .. } => {
                out.push_str(if *inbounds { "getelementptr inbounds (" } else { "getelementptr (" });
                self.ty(out, *source_ty);
                out.push_str(", ");
                list(self, out, ops);
                out.push(')');
            }
            ExprOp::ICmp(p) => {
                let _ = write!(out, "icmp {} (", p.name());
                list(self, out, ops);
                out.push(')');
            }
            ExprOp::FCmp(p) => {
                let _ = write!(out, "fcmp {} (", p.name());
                list(self, out, ops);
                out.push(')');
            }
            ExprOp::Select => {
                out.push_str("select (");
                list(self, out, ops);
                out.push(')');
            }
            ExprOp::ExtractElement => {
                out.push_str("extractelement (");
                list(self, out, ops);
                out.push(')');
            }
            ExprOp::InsertElement => {
                out.push_str("insertelement (");
                list(self, out, ops);
                out.push(')');
            }
            ExprOp::ShuffleVector => {
                out.push_str("shufflevector (");
                list(self, out, ops);
                out.push(')');
            }
            ExprOp::ExtractValue(idx) => {
                out.push_str("extractvalue (");
                list(self, out, ops);
                for i in idx {
                    let _ = write!(out, ", {i}");
                }
                out.push(')');
            }
            ExprOp::InsertValue(idx) => {
                out.push_str("insertvalue (");
                list(self, out, ops);
                for i in idx {
                    let _ = write!(out, ", {i}");
                }
                out.push(')');
            }
        }
    }
}
