//! Types as pnacl-bcdis knows them while it dumps: any LLVM type a record can describe
//! (`i7`, `<3 x i32>`, variadic functions), not only the PNaCl ones, because the dumper goes
//! on after an error with the type the record asked for or a stand-in. Types are interned,
//! so that equality is identity, as for LLVM's uniqued types; the PNaCl ABI predicates the
//! dumper checks are here too.

use super::format::Tokens;
use std::collections::HashMap;
use std::fmt;

/// An interned type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct T(u32);

impl T {
    /// Its index in the interner.
    pub(crate) fn index(self) -> u32 {
        self.0
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Def {
    Void,
    Float,
    Double,
    Int(u32),
    Vector(u32, T),
    /// Return type, then parameters.
    Function {
        sig: Box<[T]>,
        vararg: bool,
    },
}

/// `void`, the type of unknown things.
pub(crate) const VOID: T = T(0);
/// `float`.
pub(crate) const FLOAT: T = T(1);
/// `double`.
pub(crate) const DOUBLE: T = T(2);
/// `i1`, the type of comparisons.
pub(crate) const I1: T = T(3);
/// `i32`, the type of pointers.
pub(crate) const I32: T = T(4);

/// The interner.
#[derive(Clone)]
pub(crate) struct Types {
    defs: Vec<Def>,
    /// The name of each scalar type (printed as one piece of text).
    names: Vec<Option<&'static str>>,
    ids: HashMap<Def, T>,
}

impl Default for Types {
    fn default() -> Self {
        let mut t = Types { defs: Vec::new(), names: Vec::new(), ids: HashMap::new() };
        for d in [Def::Void, Def::Float, Def::Double, Def::Int(1), Def::Int(32)] {
            t.intern(d);
        }
        t
    }
}

impl Types {
    fn intern(&mut self, d: Def) -> T {
        if let Some(&t) = self.ids.get(&d) {
            return t;
        }
        let t = T(self.defs.len() as u32);
        self.names.push(match d {
            Def::Void => Some("void"),
            Def::Float => Some("float"),
            Def::Double => Some("double"),
            Def::Int(1) => Some("i1"),
            Def::Int(8) => Some("i8"),
            Def::Int(16) => Some("i16"),
            Def::Int(32) => Some("i32"),
            Def::Int(64) => Some("i64"),
            _ => None,
        });
        self.defs.push(d.clone());
        self.ids.insert(d, t);
        t
    }

    fn def(&self, t: T) -> &Def {
        &self.defs[t.0 as usize]
    }

    /// `iN`.
    pub(crate) fn int(&mut self, bits: u32) -> T {
        self.intern(Def::Int(bits))
    }

    /// `<N x E>`.
    pub(crate) fn vector(&mut self, lanes: u32, elt: T) -> T {
        self.intern(Def::Vector(lanes, elt))
    }

    /// A function type.
    pub(crate) fn function(&mut self, ret: T, params: &[T], vararg: bool) -> T {
        let sig: Box<[T]> = std::iter::once(ret).chain(params.iter().copied()).collect();
        self.intern(Def::Function { sig, vararg })
    }

    pub(crate) fn is_float(&self, t: T) -> bool {
        t == FLOAT || t == DOUBLE
    }

    /// Integer width, for integer types.
    pub(crate) fn int_bits(&self, t: T) -> Option<u32> {
        match self.def(t) {
            Def::Int(b) => Some(*b),
            _ => None,
        }
    }

    pub(crate) fn is_vector(&self, t: T) -> bool {
        matches!(self.def(t), Def::Vector(..))
    }

    /// Lanes of a vector type.
    pub(crate) fn lanes(&self, t: T) -> Option<u32> {
        match self.def(t) {
            Def::Vector(n, _) => Some(*n),
            _ => None,
        }
    }

    /// The element type of a vector, or the type itself.
    pub(crate) fn scalar(&self, t: T) -> T {
        match self.def(t) {
            Def::Vector(_, e) => *e,
            _ => t,
        }
    }

    /// Return type and parameters of a function type.
    pub(crate) fn signature(&self, t: T) -> Option<(T, &[T], bool)> {
        match self.def(t) {
            Def::Function { sig, vararg } => Some((sig[0], &sig[1..], *vararg)),
            _ => None,
        }
    }

    /// Bits of a scalar (0 for void and functions).
    fn scalar_bits(&self, t: T) -> u64 {
        match self.def(self.scalar(t)) {
            Def::Float => 32,
            Def::Double => 64,
            Def::Int(b) => u64::from(*b),
            _ => 0,
        }
    }

    /// The type as LLVM prints it in messages.
    pub(crate) fn show(&self, t: T) -> Shown<'_> {
        Shown(self, t)
    }

    /// Writes the type as tokens, clustered as pnacl-bcdis clusters it; a function type
    /// may be named (`@fN`) and have its parameters named (`%pN`).
    #[inline]
    pub(crate) fn tokens(&self, out: &mut Tokens, t: T, name: Option<u32>, param_names: bool) {
        match self.names[t.0 as usize] {
            Some(n) => {
                out.text(n);
            }
            None => self.compound_tokens(out, t, name, param_names),
        }
    }

    fn compound_tokens(&self, out: &mut Tokens, t: T, name: Option<u32>, param_names: bool) {
        match self.def(t) {
            Def::Void | Def::Float | Def::Double => {}
            Def::Int(b) => {
                out.text("i").num(u64::from(*b));
            }
            Def::Vector(n, e) => {
                out.start().open("<").num(u64::from(*n)).space().text("x").space();
                self.tokens(out, *e, None, false);
                out.close(">").finish();
            }
            Def::Function { sig, vararg } => {
                let params = &sig[1..];
                out.start();
                self.tokens(out, sig[0], None, false);
                out.space().start();
                if !params.is_empty() {
                    out.start();
                }
                if let Some(f) = name {
                    out.text("@f").num(u64::from(f));
                }
                out.open("(").finish();
                let mut open = false;
                for (i, &p) in params.iter().enumerate() {
                    if i > 0 {
                        out.token(",").finish().space();
                    }
                    out.start();
                    self.tokens(out, p, None, false);
                    if param_names {
                        out.space().text("%p").num(i as u64);
                    }
                    open = true;
                }
                if *vararg {
                    if open {
                        out.token(",").finish().space();
                    }
                    out.start().text("...");
                    open = true;
                }
                if open {
                    out.finish();
                }
                out.close(")").finish();
                if !params.is_empty() {
                    out.finish();
                }
            }
        }
    }

    // The PNaCl ABI type predicates (PNaClABITypeChecker, PNaClABIProps).

    /// `void`, `i1`, `i8`, `i16`, `i32`, `i64`, `float` or `double`.
    pub(crate) fn is_valid_scalar(&self, t: T) -> bool {
        match self.def(t) {
            Def::Void | Def::Float | Def::Double => true,
            Def::Int(b) => matches!(b, 1 | 8 | 16 | 32 | 64),
            _ => false,
        }
    }

    /// One of the vector types PNaCl allows.
    pub(crate) fn is_valid_vector(&self, t: T) -> bool {
        match self.def(t) {
            Def::Vector(n, e) => match self.def(*e) {
                Def::Int(1) => matches!(n, 4 | 8 | 16),
                Def::Int(8) => *n == 16,
                Def::Int(16) => *n == 8,
                Def::Int(32) | Def::Float => *n == 4,
                _ => false,
            },
            _ => false,
        }
    }

    /// Integer arithmetic is allowed on it: a valid integer scalar or vector, not of `i1`.
    pub(crate) fn is_valid_int_arithmetic(&self, t: T) -> bool {
        let valid = if self.is_vector(t) { self.is_valid_vector(t) } else { self.is_valid_scalar(t) };
        valid && matches!(self.int_bits(self.scalar(t)), Some(b) if b != 1)
    }

    /// A type a function may take or return (`i32`, `i64`, `float`, `double`, vectors).
    pub(crate) fn is_valid_param(&self, t: T) -> bool {
        match self.def(t) {
            Def::Float | Def::Double => true,
            Def::Int(b) => matches!(b, 32 | 64),
            Def::Vector(..) => self.is_valid_vector(t),
            _ => false,
        }
    }

    /// A signature an ordinary function may have.
    pub(crate) fn is_valid_function(&self, t: T) -> bool {
        match self.signature(t) {
            Some((ret, params, vararg)) => {
                !vararg && (ret == VOID || self.is_valid_param(ret)) && params.iter().all(|&p| self.is_valid_param(p))
            }
            None => false,
        }
    }

    /// Whether a load or store of `t` may use `align` bytes.
    pub(crate) fn is_allowed_alignment(&self, t: T, align: u32) -> bool {
        match self.def(t) {
            Def::Int(_) => align == 1,
            Def::Float => align == 1 || align == 4,
            Def::Double => align == 1 || align == 8,
            Def::Vector(_, e) => match self.def(*e) {
                Def::Int(1) => false,
                _ => u64::from(align) * 8 == self.scalar_bits(*e),
            },
            _ => false,
        }
    }

    /// LLVM's `CastInst::castIsValid` for the casts PNaCl encodes.
    pub(crate) fn cast_is_valid(&self, cast: &str, from: T, to: T) -> bool {
        let first_class = |t: T| matches!(self.def(t), Def::Float | Def::Double | Def::Int(_) | Def::Vector(..));
        if !first_class(from) || !first_class(to) {
            return false;
        }
        let (fb, tb) = (self.scalar_bits(from), self.scalar_bits(to));
        let (fl, tl) = (self.lanes(from), self.lanes(to));
        let int = |t: T| self.int_bits(self.scalar(t)).is_some();
        let fp = |t: T| self.is_float(self.scalar(t));
        match cast {
            "trunc" => int(from) && int(to) && fl == tl && fb > tb,
            "zext" | "sext" => int(from) && int(to) && fl == tl && fb < tb,
            "fptrunc" => fp(from) && fp(to) && fl == tl && fb > tb,
            "fpext" => fp(from) && fp(to) && fl == tl && fb < tb,
            "uitofp" | "sitofp" => fl == tl && int(from) && fp(to),
            "fptoui" | "fptosi" => fl == tl && fp(from) && int(to),
            "bitcast" => {
                let total = |t: T, b: u64| b * u64::from(self.lanes(t).unwrap_or(1));
                total(from, fb) == total(to, tb)
            }
            _ => false,
        }
    }
}

/// A type as LLVM prints it (`i32`, `<4 x float>`, `void (i32, ...)`).
pub(crate) struct Shown<'a>(&'a Types, T);

impl fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let types = self.0;
        match types.def(self.1) {
            Def::Void => f.write_str("void"),
            Def::Float => f.write_str("float"),
            Def::Double => f.write_str("double"),
            Def::Int(b) => write!(f, "i{b}"),
            Def::Vector(n, e) => write!(f, "<{n} x {}>", types.show(*e)),
            Def::Function { sig, vararg } => {
                write!(f, "{} (", types.show(sig[0]))?;
                for (i, &p) in sig[1..].iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{}", types.show(p))?;
                }
                if *vararg {
                    f.write_str(if sig.len() > 1 { ", ..." } else { "..." })?;
                }
                f.write_str(")")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interned_types_print_as_llvm_prints_them() {
        let mut t = Types::default();
        let v = t.vector(4, I32);
        assert_eq!(t.vector(4, I32), v);
        let f = t.function(VOID, &[I32, v], true);
        assert_eq!(t.show(f).to_string(), "void (i32, <4 x i32>, ...)");
        assert!(t.is_valid_vector(v) && !t.is_valid_function(f));
        let i8 = t.int(8);
        assert!(t.cast_is_valid("zext", i8, I32) && !t.cast_is_valid("zext", I32, I32));
        let v2d = t.vector(2, DOUBLE);
        assert!(t.cast_is_valid("bitcast", v, v2d));
        let i16 = t.int(16);
        let v8i16 = t.vector(8, i16);
        assert!(t.is_allowed_alignment(v8i16, 2) && !t.is_allowed_alignment(v8i16, 1));
    }
}
