//! Function and call-site attributes.

use super::types::TypeId;

/// A function or call attribute.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Attr {
    /// A flag attribute, by its bitcode kind number ([`attr_kind`]).
    Flag(u32),
    /// An attribute with an integer (`align 8`, `dereferenceable(4)`).
    Int(u32, u64),
    /// An attribute with a type (`byval(%T)`, `sret(%T)`, `elementtype(i32)`); `None` for
    /// the typeless form of older bitcode.
    Type(u32, Option<TypeId>),
    /// A string attribute (`"frame-pointer"="all"`).
    Str(String, Option<String>),
}

/// Bitcode attribute kind numbers (LLVM's `AttributeKindCodes`, stable across versions).
#[allow(missing_docs)]
pub mod attr_kind {
    pub const ALIGN: u32 = 1;
    pub const ALWAYS_INLINE: u32 = 2;
    pub const BYVAL: u32 = 3;
    pub const INLINE_HINT: u32 = 4;
    pub const IN_REG: u32 = 5;
    pub const NEST: u32 = 8;
    pub const NO_ALIAS: u32 = 9;
    pub const NO_BUILTIN: u32 = 10;
    pub const NO_CAPTURE: u32 = 11;
    pub const NO_INLINE: u32 = 14;
    pub const NO_RETURN: u32 = 17;
    pub const NO_UNWIND: u32 = 18;
    pub const READ_NONE: u32 = 20;
    pub const READ_ONLY: u32 = 21;
    pub const RETURNED: u32 = 22;
    pub const RETURNS_TWICE: u32 = 23;
    pub const SIGN_EXT: u32 = 24;
    pub const STRUCT_RET: u32 = 29;
    pub const ZERO_EXT: u32 = 34;
    pub const INALLOCA: u32 = 38;
    pub const ELEMENT_TYPE: u32 = 77;
}

/// Attributes of a function or a call site: on the function, the return value and each
/// parameter.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Attrs {
    /// Function attributes.
    pub function: Vec<Attr>,
    /// Return-value attributes.
    pub ret: Vec<Attr>,
    /// Parameter attributes, by parameter index (may be shorter than the parameter list).
    pub params: Vec<Vec<Attr>>,
}

impl Attrs {
    /// True if there are none.
    pub fn is_empty(&self) -> bool {
        self.function.is_empty() && self.ret.is_empty() && self.params.iter().all(Vec::is_empty)
    }

    /// The attributes of parameter `i`.
    pub fn param(&self, i: usize) -> &[Attr] {
        self.params.get(i).map_or(&[], Vec::as_slice)
    }

    /// True if parameter `i` has the attribute of kind `kind` (any form).
    pub fn param_has(&self, i: usize, kind: u32) -> bool {
        self.param(i).iter().any(|a| a.kind() == Some(kind))
    }

    /// Replaces every type an attribute holds (`byval(T)`, `sret(T)`, `elementtype(T)`, ...)
    /// by `f(type)`: what moving the attributes into another type table needs.
    pub fn map_types(&mut self, mut f: impl FnMut(TypeId) -> TypeId) {
        let lists = std::iter::once(&mut self.function).chain(std::iter::once(&mut self.ret)).chain(&mut self.params);
        for list in lists {
            for a in list {
                if let Attr::Type(_, Some(t)) = a {
                    *t = f(*t);
                }
            }
        }
    }
}

impl Attr {
    /// The kind number of a non-string attribute.
    pub fn kind(&self) -> Option<u32> {
        match self {
            Attr::Flag(k) | Attr::Int(k, _) | Attr::Type(k, _) => Some(*k),
            Attr::Str(..) => None,
        }
    }
}
