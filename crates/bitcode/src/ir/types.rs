//! PNaCl types: the closed set of value types, and function signatures.

use std::fmt;

/// A value type. PNaCl allows exactly these: void, five integer widths, two float widths,
/// four 128-bit vectors and three vectors of `i1`.
#[repr(u8)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Ty {
    /// `void`: no value.
    Void,
    /// `i1`.
    I1,
    /// `i8`.
    I8,
    /// `i16`.
    I16,
    /// `i32` (also every pointer).
    I32,
    /// `i64`.
    I64,
    /// `float`.
    Float,
    /// `double`.
    Double,
    /// `<4 x i1>`.
    V4I1,
    /// `<8 x i1>`.
    V8I1,
    /// `<16 x i1>`.
    V16I1,
    /// `<16 x i8>`.
    V16I8,
    /// `<8 x i16>`.
    V8I16,
    /// `<4 x i32>`.
    V4I32,
    /// `<4 x float>`.
    V4Float,
}

/// Every value type, in declaration order.
pub const ALL_TYPES: [Ty; 15] = [
    Ty::Void,
    Ty::I1,
    Ty::I8,
    Ty::I16,
    Ty::I32,
    Ty::I64,
    Ty::Float,
    Ty::Double,
    Ty::V4I1,
    Ty::V8I1,
    Ty::V16I1,
    Ty::V16I8,
    Ty::V8I16,
    Ty::V4I32,
    Ty::V4Float,
];

impl Ty {
    /// The integer type of `bits` bits, if PNaCl has one.
    pub fn int(bits: u64) -> Option<Ty> {
        Some(match bits {
            1 => Ty::I1,
            8 => Ty::I8,
            16 => Ty::I16,
            32 => Ty::I32,
            64 => Ty::I64,
            _ => return None,
        })
    }

    /// The vector of `count` elements of `elem`, if PNaCl allows it.
    pub fn vector(count: u64, elem: Ty) -> Option<Ty> {
        Some(match (count, elem) {
            (4, Ty::I1) => Ty::V4I1,
            (8, Ty::I1) => Ty::V8I1,
            (16, Ty::I1) => Ty::V16I1,
            (16, Ty::I8) => Ty::V16I8,
            (8, Ty::I16) => Ty::V8I16,
            (4, Ty::I32) => Ty::V4I32,
            (4, Ty::Float) => Ty::V4Float,
            _ => return None,
        })
    }

    /// True for `i1` .. `i64`.
    pub fn is_integer(self) -> bool {
        matches!(self, Ty::I1 | Ty::I8 | Ty::I16 | Ty::I32 | Ty::I64)
    }

    /// True for `float` and `double`.
    pub fn is_float(self) -> bool {
        matches!(self, Ty::Float | Ty::Double)
    }

    /// True for an integer or floating-point scalar (the reference's IsPrimitive).
    pub fn is_primitive(self) -> bool {
        self.is_integer() || self.is_float()
    }

    /// True for vector types.
    pub fn is_vector(self) -> bool {
        self.lanes() != 0
    }

    /// True for any type a value can have (everything but void).
    pub fn is_value(self) -> bool {
        self != Ty::Void
    }

    /// The element type of a vector, or the type itself (the reference's UnderlyingType).
    pub fn element(self) -> Ty {
        match self {
            Ty::V4I1 | Ty::V8I1 | Ty::V16I1 => Ty::I1,
            Ty::V16I8 => Ty::I8,
            Ty::V8I16 => Ty::I16,
            Ty::V4I32 => Ty::I32,
            Ty::V4Float => Ty::Float,
            t => t,
        }
    }

    /// Number of vector elements, 0 for scalars (the reference's UnderlyingCount).
    pub fn lanes(self) -> u32 {
        match self {
            Ty::V4I1 | Ty::V4I32 | Ty::V4Float => 4,
            Ty::V8I1 | Ty::V8I16 => 8,
            Ty::V16I1 | Ty::V16I8 => 16,
            _ => 0,
        }
    }

    /// Size in bits (the reference's BitSizeOf); 0 for void.
    pub fn bits(self) -> u32 {
        match self {
            Ty::Void => 0,
            Ty::I1 => 1,
            Ty::I8 => 8,
            Ty::I16 => 16,
            Ty::I32 | Ty::Float => 32,
            Ty::I64 | Ty::Double => 64,
            v => v.lanes() * v.element().bits(),
        }
    }

    /// The `i1` vector (or `i1`) a comparison of this type produces.
    pub fn compare_result(self) -> Ty {
        if self.is_vector() { Ty::vector(u64::from(self.lanes()), Ty::I1).expect("lane counts match") } else { Ty::I1 }
    }

    /// True if an ordinary function may take or return it: i32, i64, float, double or a
    /// vector (the reference's IsFcnArgType).
    pub fn is_fcn_arg(self) -> bool {
        matches!(self, Ty::I32 | Ty::I64 | Ty::Float | Ty::Double) || self.is_vector()
    }
}

impl fmt::Display for Ty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ty::Void => f.write_str("void"),
            Ty::I1 => f.write_str("i1"),
            Ty::I8 => f.write_str("i8"),
            Ty::I16 => f.write_str("i16"),
            Ty::I32 => f.write_str("i32"),
            Ty::I64 => f.write_str("i64"),
            Ty::Float => f.write_str("float"),
            Ty::Double => f.write_str("double"),
            v => write!(f, "<{} x {}>", v.lanes(), v.element()),
        }
    }
}

/// A function signature.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Signature {
    /// The return type (possibly void).
    pub ret: Ty,
    /// The parameter types.
    pub params: Vec<Ty>,
    /// The vararg flag of the type record. PNaCl forbids varargs; the flag is kept so the
    /// verifier can say so.
    pub vararg: bool,
}

impl fmt::Display for Signature {
    /// Prints `ret (p1, p2)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (", self.ret)?;
        for (i, p) in self.params.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{p}")?;
        }
        if self.vararg {
            f.write_str(if self.params.is_empty() { "..." } else { ", ..." })?;
        }
        f.write_str(")")
    }
}

/// One entry of the types block.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TypeDef {
    /// A value type (or void).
    Value(Ty),
    /// A function type.
    Function(Signature),
}

impl fmt::Display for TypeDef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TypeDef::Value(t) => write!(f, "{t}"),
            TypeDef::Function(s) => write!(f, "{s}"),
        }
    }
}

/// Index of a type in the types block (`@tN`).
pub type TypeId = u32;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vector_shapes() {
        for t in ALL_TYPES {
            if t.is_vector() {
                assert_eq!(Ty::vector(u64::from(t.lanes()), t.element()), Some(t));
                assert!(t.element() == Ty::I1 || t.bits() == 128, "{t}");
            }
        }
        assert_eq!(Ty::vector(3, Ty::I32), None);
        assert_eq!(Ty::V8I16.compare_result(), Ty::V8I1);
        assert_eq!(Ty::V4Float.to_string(), "<4 x float>");
    }
}
