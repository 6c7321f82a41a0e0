//! PNaClAsm types as they appear in listings: parsing them out of the assembly column,
//! building them from type records, printing them back.

use std::fmt;

/// A PNaCl type.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Ty {
    /// `void`.
    Void,
    /// `float`.
    Float,
    /// `double`.
    Double,
    /// `iN`.
    Int(u32),
    /// `<N x T>`.
    Vector(u32, Box<Ty>),
    /// `RET (PARAMS)`: a function signature.
    Func(Box<Ty>, Vec<Ty>),
}

impl fmt::Display for Ty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ty::Void => write!(f, "void"),
            Ty::Float => write!(f, "float"),
            Ty::Double => write!(f, "double"),
            Ty::Int(w) => write!(f, "i{w}"),
            Ty::Vector(n, e) => write!(f, "<{n} x {e}>"),
            Ty::Func(ret, params) => {
                write!(f, "{ret} (")?;
                for (i, p) in params.iter().enumerate() {
                    if i > 0 {
                        write!(f, ", ")?;
                    }
                    write!(f, "{p}")?;
                }
                write!(f, ")")
            }
        }
    }
}

impl Ty {
    /// The types this one is built from (a vector's element, a signature's return and
    /// parameter types): they must be defined before it.
    pub fn components(&self) -> Vec<&Ty> {
        match self {
            Ty::Vector(_, e) => vec![e],
            Ty::Func(ret, params) => std::iter::once(&**ret).chain(params).collect(),
            _ => Vec::new(),
        }
    }

    /// True for a function signature.
    pub fn is_func(&self) -> bool {
        matches!(self, Ty::Func(..))
    }

    /// The return type of a signature.
    pub fn ret(&self) -> Option<&Ty> {
        match self {
            Ty::Func(ret, _) => Some(ret),
            _ => None,
        }
    }

    /// The parameter types of a signature.
    pub fn params(&self) -> &[Ty] {
        match self {
            Ty::Func(_, params) => params,
            _ => &[],
        }
    }

    /// The type a types-block record defines (`values` is the record, code first), given
    /// the types defined before it. `None` for the count record and unknown codes.
    pub fn from_record(values: &[u64], table: &[Ty]) -> Option<Ty> {
        let at = |i: usize| values.get(i).and_then(|&t| table.get(t as usize)).cloned();
        Some(match *values.first()? {
            2 => Ty::Void,
            3 => Ty::Float,
            4 => Ty::Double,
            7 => Ty::Int(u32::try_from(*values.get(1)?).ok()?),
            12 => Ty::Vector(u32::try_from(*values.get(1)?).ok()?, Box::new(at(2)?)),
            21 => {
                let params = (3..values.len()).map(at).collect::<Option<Vec<_>>>()?;
                Ty::Func(Box::new(at(2)?), params)
            }
            _ => return None,
        })
    }
}

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'.'
}

/// Parses the value type at the start of `s` (after blanks); returns it and the rest.
pub fn parse_type(s: &str) -> Option<(Ty, &str)> {
    let s = s.trim_start();
    if let Some(rest) = s.strip_prefix('<') {
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        let n: u32 = rest[..digits].parse().ok()?;
        let rest = rest[digits..].trim_start().strip_prefix('x')?;
        let (elem, rest) = parse_type(rest)?;
        let rest = rest.trim_start().strip_prefix('>')?;
        return Some((Ty::Vector(n, Box::new(elem)), rest));
    }
    let len = s.bytes().take_while(|&b| is_word_byte(b)).count();
    let (word, rest) = s.split_at(len);
    let ty = match word {
        "void" => Ty::Void,
        "float" => Ty::Float,
        "double" => Ty::Double,
        w if w.len() > 1 && w.starts_with('i') && w[1..].bytes().all(|b| b.is_ascii_digit()) => {
            Ty::Int(w[1..].parse().ok()?)
        }
        _ => return None,
    };
    Some((ty, rest))
}

/// Every value type written in `asm`, in order of appearance.
pub fn types_in(asm: &str) -> Vec<Ty> {
    let bytes = asm.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let boundary = i == 0 || !(is_word_byte(bytes[i - 1]) || matches!(bytes[i - 1], b'%' | b'@'));
        if boundary && let Some((ty, rest)) = parse_type(&asm[i..]) {
            let end = asm.len() - rest.len();
            if !asm[end..].bytes().next().is_some_and(is_word_byte) {
                out.push(ty);
                i = end;
                continue;
            }
        }
        i += 1;
    }
    out
}

/// The number `N` of the first `@<kind>N` in `asm`.
pub fn first_global(asm: &str, kind: char) -> Option<usize> {
    globals(asm, kind).into_iter().next()
}

/// The numbers `N` of every `@<kind>N` in `asm`.
pub fn globals(asm: &str, kind: char) -> Vec<usize> {
    let pat = format!("@{kind}");
    let mut out = Vec::new();
    for (at, _) in asm.match_indices(&pat) {
        let rest = &asm[at + pat.len()..];
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        if digits > 0 {
            out.push(rest[..digits].parse().expect("digits"));
        }
    }
    out
}

/// Parses `RET @fN(T1 [%pK], ...)` somewhere in `asm` (a function address record or a
/// function block header): the function number and its signature.
pub fn parse_signature(asm: &str) -> Option<(usize, Ty)> {
    let at = asm.find("@f")?;
    let n = first_global(&asm[at..], 'f')?;
    let before = asm[..at].trim_end();
    // The return type is the last type before `@fN`.
    let ret = types_in(before).pop()?;
    let open = at + asm[at..].find('(')?;
    let close = open + asm[open..].find(')')?;
    let inner = asm[open + 1..close].trim();
    let mut params = Vec::new();
    if !inner.is_empty() {
        for p in inner.split(',') {
            params.push(parse_type(p)?.0);
        }
    }
    Some((n, Ty::Func(Box::new(ret), params)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_types_and_signatures() {
        assert_eq!(types_in("%v0 = zext i8 %c0 to i32;"), vec![Ty::Int(8), Ty::Int(32)]);
        assert_eq!(types_in("%c2 = <4 x i1> undef;"), vec![Ty::Vector(4, Box::new(Ty::Int(1)))]);
        assert_eq!(types_in("fcmp false float %c0"), vec![Ty::Float]);
        let (n, sig) = parse_signature("function double @f0(double %p0, double %p1) {").unwrap();
        assert_eq!(n, 0);
        assert_eq!(sig.to_string(), "double (double, double)");
        let (n, sig) = parse_signature("declare external void @f1();").unwrap();
        assert_eq!((n, sig.to_string()), (1, "void ()".to_string()));
    }
}
