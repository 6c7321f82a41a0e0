//! The checks pnacl-bcdis makes on the types an instruction works on: operators, casts,
//! memory accesses and vector indices (with the PNaCl ABI ones unless they are ignored).

use super::types::{I32, T, VOID};
use super::walk::Walker;

const BINOPS: [&str; 13] =
    ["add", "sub", "mul", "udiv", "sdiv", "urem", "srem", "shl", "lshr", "ashr", "and", "or", "xor"];
const CASTS: [Option<&str>; 12] = [
    Some("trunc"),
    Some("zext"),
    Some("sext"),
    Some("fptoui"),
    Some("fptosi"),
    Some("uitofp"),
    Some("sitofp"),
    Some("fptrunc"),
    Some("fpext"),
    None,
    None,
    Some("bitcast"),
];
/// Alignments are at most 2**29.
const MAX_ALIGN_EXPONENT: u64 = 29;

impl Walker<'_> {
    /// The alignment a record's exponent field (0, or log2 + 1) stands for, as
    /// pnacl-bcdis's `getAlignmentValue` decodes it for `alloca`, `load`, `store` and global
    /// variables: above 2**29 it is an error, and the listing says `align 0`.
    pub(super) fn alignment(&mut self, exponent: u64) -> u32 {
        if exponent > MAX_ALIGN_EXPONENT + 1 {
            self.d.error_line(format_args!(
                "Alignment can't be greater than 2**{MAX_ALIGN_EXPONENT}. Found: 2**{}",
                exponent - 1
            ));
            return 0;
        }
        (1u32 << exponent) >> 1
    }

    pub(super) fn binop(&mut self, opcode: u64, t: T) -> &'static str {
        let float = self.m.types.is_float(self.m.types.scalar(t));
        let Some(&name) = BINOPS.get(opcode as usize) else {
            self.d.error_line(format_args!("Binary opcode not understood: {opcode}"));
            return "???";
        };
        match (name, float) {
            ("add" | "sub" | "mul", true) => self.check_float_op(["fadd", "fsub", "fmul"][opcode as usize], t),
            ("sdiv", true) => self.check_float_op("fdiv", t),
            ("srem", true) => self.check_float_op("frem", t),
            ("and" | "or" | "xor", _) => self.check_integer_op(name, t),
            _ => {
                if self.abi && !self.m.types.is_valid_int_arithmetic(t) {
                    self.d.error(format_args!("{name}: Invalid integer arithmetic type: {}", self.m.types.show(t)));
                }
                name
            }
        }
    }

    fn check_integer_op(&mut self, op: &'static str, t: T) -> &'static str {
        let mut base = t;
        if self.m.types.is_vector(t) {
            if self.abi && !self.m.types.is_valid_vector(t) {
                self.d.error_line(format_args!("{op}: invalid vector type: {}", self.m.types.show(t)));
                return op;
            }
            base = self.m.types.scalar(t);
        }
        if self.m.types.int_bits(base).is_some() {
            if !self.abi || self.m.types.is_valid_scalar(base) {
                return op;
            }
            self.d.error_line(format_args!("{op}: Invalid integer type: {}", self.m.types.show(t)));
        } else {
            self.d.error_line(format_args!("{op}: Expects integer type. Found: {}", self.m.types.show(t)));
        }
        op
    }

    fn check_float_op(&mut self, op: &'static str, t: T) -> &'static str {
        let mut base = t;
        if self.m.types.is_vector(t) {
            if self.abi && !self.m.types.is_valid_vector(t) {
                self.d.error_line(format_args!("{op}: invalid vector type: {}", self.m.types.show(t)));
                return op;
            }
            base = self.m.types.scalar(t);
        }
        // The original prints the address of the type object here, not the type.
        if !self.m.types.is_float(base) {
            self.d.error_line(format_args!("{op}: Expects floating point. Found {}", type_address(t)));
            return op;
        }
        if self.abi && !self.m.types.is_valid_scalar(base) {
            self.d.error_line(format_args!("{op}: type not allowed: {}", type_address(t)));
        }
        op
    }

    pub(super) fn cast(&mut self, opcode: u64, from: T, to: T) -> &'static str {
        let Some(Some(name)) = CASTS.get(opcode as usize).copied() else {
            self.d.error_line(format_args!("Cast opcode not understood: {opcode}"));
            return "???";
        };
        if !self.m.types.cast_is_valid(name, from, to) {
            self.d.error_line(format_args!(
                "Invalid cast '{name}'. Not defined on {} to {}",
                self.m.types.show(from),
                self.m.types.show(to)
            ));
        }
        name
    }

    pub(super) fn check_scalar_or_vector(&mut self, op: &str, t: T) {
        if !self.abi {
            return;
        }
        if self.m.types.is_valid_scalar(t) {
            if t == VOID {
                self.d.error_line(format_args!("{op}: Type void not allowed"));
            }
        } else if !self.m.types.is_valid_vector(t) {
            self.d.error_line(format_args!("{op}: Expects scalar/vector type. Found: {}", type_address(t)));
        }
    }

    pub(super) fn check_access_alignment(&mut self, op: &str, t: T, align: u32) {
        if !self.abi || self.m.types.is_allowed_alignment(t, align) {
            return;
        }
        let allowed: Vec<String> = [1, 2, 4, 8]
            .into_iter()
            .filter(|&a| self.m.types.is_allowed_alignment(t, a))
            .map(|a| a.to_string())
            .collect();
        if allowed.is_empty() {
            self.d.error_line(format_args!("{op}: Not allowed for type: {}", self.m.types.show(t)));
        } else {
            self.d.error_line(format_args!(
                "{op}: Illegal alignment for {}. Expects: {}",
                self.m.types.show(t),
                allowed.join(" or ")
            ));
        }
    }

    pub(super) fn check_indexed_vector(&mut self, op: &str, vector: u32, index: u32) {
        let vt = self.value_type(vector, false);
        let it = self.value_type(index, false);
        if self.abi && !self.m.types.is_valid_vector(vt) {
            if self.m.types.is_vector(vt) {
                self.d.error_line(format_args!("{op}: Vector type {} not allowed", self.m.types.show(vt)));
            } else {
                self.d.error_line(format_args!("{op}: Vector type expected. Found: {}", self.m.types.show(vt)));
            }
        }
        if it != I32 {
            self.d.error_line(format_args!("{op}: Index not i32. Found: {}", self.m.types.show(it)));
        }
        if self.value_id(index).1 != 'c' {
            self.d.error_line(format_args!("{op}: Vector index not constant: {}", self.name_string(index)));
        }
    }
}

/// What the original prints where it prints a type object's address: a stand-in, since
/// the address means nothing outside that process.
fn type_address(t: T) -> String {
    format!("0x{:x}", 0x1000 + 0x10 * u64::from(t.index()))
}
