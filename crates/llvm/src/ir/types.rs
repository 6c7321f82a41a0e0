//! LLVM types, interned in a per-module table.

use crate::hash::FastMap;

/// Index of a type in its module's [`Types`] table. Two equal literal types have the same
/// id; every named struct has its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TypeId(pub u32);

/// A struct type. Named structs are identified by their id, literal (unnamed) structs by
/// their contents.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct StructType {
    /// The name (`%struct.foo`), without the `%`; `None` for a literal struct.
    pub name: Option<String>,
    /// Field types.
    pub fields: Vec<TypeId>,
    /// `<{ ... }>`: no padding between fields.
    pub packed: bool,
    /// Declared without a body (`%T = type opaque`).
    pub opaque: bool,
}

/// An LLVM type.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    /// `void`.
    Void,
    /// `label`.
    Label,
    /// `metadata`.
    Metadata,
    /// `token`.
    Token,
    /// `x86_mmx`.
    X86Mmx,
    /// `x86_amx`.
    X86Amx,
    /// `half`.
    Half,
    /// `bfloat`.
    BFloat,
    /// `float`.
    Float,
    /// `double`.
    Double,
    /// `x86_fp80`.
    X86Fp80,
    /// `fp128`.
    Fp128,
    /// `ppc_fp128`.
    PpcFp128,
    /// `iN`, for any width from 1 to 2^23.
    Int(u32),
    /// `T*` / `T addrspace(N)*` with a pointee (typed pointers, LLVM 14 and older), or
    /// `ptr` / `ptr addrspace(N)` without one (opaque pointers, LLVM 15 and newer).
    Pointer {
        /// The pointee type; `None` for an opaque pointer.
        pointee: Option<TypeId>,
        /// The address space.
        addr_space: u32,
    },
    /// `[N x T]`.
    Array {
        /// Number of elements.
        len: u64,
        /// Element type.
        elem: TypeId,
    },
    /// `<N x T>` or `<vscale x N x T>`.
    Vector {
        /// Number of elements (the minimum, for scalable vectors).
        len: u32,
        /// Element type.
        elem: TypeId,
        /// `vscale` vectors.
        scalable: bool,
    },
    /// A struct.
    Struct(StructType),
    /// A function type.
    Function {
        /// Return type.
        ret: TypeId,
        /// Parameter types.
        params: Vec<TypeId>,
        /// `...`.
        vararg: bool,
    },
}

impl Type {
    /// True for `half` through `ppc_fp128`.
    pub fn is_float(&self) -> bool {
        matches!(
            self,
            Type::Half | Type::BFloat | Type::Float | Type::Double | Type::X86Fp80 | Type::Fp128 | Type::PpcFp128
        )
    }

    /// True for pointers, typed or opaque.
    pub fn is_pointer(&self) -> bool {
        matches!(self, Type::Pointer { .. })
    }

    /// The width of an integer type.
    pub fn int_width(&self) -> Option<u32> {
        match self {
            Type::Int(w) => Some(*w),
            _ => None,
        }
    }
}

/// The type table of a module: every type by id, literal types interned.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Types {
    list: Vec<Type>,
    interned: FastMap<Type, TypeId>,
}

impl Types {
    /// An empty table.
    pub fn new() -> Self {
        Self::default()
    }

    /// The type with id `id`.
    ///
    /// # Panics
    /// If `id` is not from this table.
    #[inline]
    pub fn get(&self, id: TypeId) -> &Type {
        &self.list[id.0 as usize]
    }

    /// The type with id `id`, if there is one.
    pub fn try_get(&self, id: TypeId) -> Option<&Type> {
        self.list.get(id.0 as usize)
    }

    /// Number of types.
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// True if the table has no types.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// Every type id, in order.
    pub fn ids(&self) -> impl Iterator<Item = TypeId> + use<> {
        (0..self.list.len() as u32).map(TypeId)
    }

    /// The id of `t`: the existing one for a literal type already in the table, a new one
    /// otherwise. A named struct always gets a new id (see [`Types::named_struct`]).
    pub fn intern(&mut self, t: Type) -> TypeId {
        let named = matches!(&t, Type::Struct(s) if s.name.is_some());
        if !named && let Some(&id) = self.interned.get(&t) {
            return id;
        }
        let id = TypeId(self.list.len() as u32);
        if !named {
            self.interned.insert(t.clone(), id);
        }
        self.list.push(t);
        id
    }

    /// The id of the literal type `t`, if the table has it.
    pub fn find(&self, t: &Type) -> Option<TypeId> {
        self.interned.get(t).copied()
    }

    /// A new named struct, opaque until [`Types::set_struct_body`] gives it fields.
    pub fn named_struct(&mut self, name: impl Into<String>) -> TypeId {
        self.intern(Type::Struct(StructType {
            name: Some(name.into()),
            fields: Vec::new(),
            packed: false,
            opaque: true,
        }))
    }

    /// Gives the named struct `id` its body.
    ///
    /// # Panics
    /// If `id` is not a named struct.
    pub fn set_struct_body(&mut self, id: TypeId, fields: Vec<TypeId>, packed: bool) {
        match &mut self.list[id.0 as usize] {
            Type::Struct(s) if s.name.is_some() => {
                s.fields = fields;
                s.packed = packed;
                s.opaque = false;
            }
            other => panic!("set_struct_body on {other:?}"),
        }
    }

    /// `void`.
    pub fn void(&mut self) -> TypeId {
        self.intern(Type::Void)
    }

    /// `label`.
    pub fn label(&mut self) -> TypeId {
        self.intern(Type::Label)
    }

    /// `iN`.
    pub fn int(&mut self, bits: u32) -> TypeId {
        self.intern(Type::Int(bits))
    }

    /// `float`.
    pub fn float(&mut self) -> TypeId {
        self.intern(Type::Float)
    }

    /// `double`.
    pub fn double(&mut self) -> TypeId {
        self.intern(Type::Double)
    }

    /// `T*` in address space 0.
    pub fn pointer_to(&mut self, pointee: TypeId) -> TypeId {
        self.intern(Type::Pointer { pointee: Some(pointee), addr_space: 0 })
    }

    /// `ptr` in address space 0.
    pub fn opaque_pointer(&mut self) -> TypeId {
        self.intern(Type::Pointer { pointee: None, addr_space: 0 })
    }

    /// A function type.
    pub fn function(&mut self, ret: TypeId, params: Vec<TypeId>, vararg: bool) -> TypeId {
        self.intern(Type::Function { ret, params, vararg })
    }

    /// The return type, parameter types and vararg flag of a function type.
    pub fn as_function(&self, id: TypeId) -> Option<(TypeId, &[TypeId], bool)> {
        match self.get(id) {
            Type::Function { ret, params, vararg } => Some((*ret, params, *vararg)),
            _ => None,
        }
    }

    /// A short LLVM spelling of type `t`, for messages (`i32*`, `<4 x float>`, `%name`;
    /// `{...}` for a literal struct, and `...` below a few levels of nesting).
    pub fn short_name(&self, t: TypeId) -> String {
        self.short_name_at(t, 0)
    }

    fn short_name_at(&self, t: TypeId, depth: u32) -> String {
        match self.get(t) {
            _ if depth > 4 => "...".into(),
            Type::Int(w) => format!("i{w}"),
            Type::Pointer { pointee: Some(p), .. } => format!("{}*", self.short_name_at(*p, depth + 1)),
            Type::Pointer { pointee: None, .. } => "ptr".into(),
            Type::Vector { len, elem, .. } => format!("<{len} x {}>", self.short_name_at(*elem, depth + 1)),
            Type::Array { len, elem } => format!("[{len} x {}]", self.short_name_at(*elem, depth + 1)),
            Type::Struct(s) => s.name.as_ref().map_or_else(|| "{...}".into(), |n| format!("%{n}")),
            Type::Function { .. } => "a function type".into(),
            other => format!("{other:?}").to_lowercase(),
        }
    }

    /// The pointee of a typed pointer (`None` for opaque pointers and non-pointers).
    pub fn pointee(&self, id: TypeId) -> Option<TypeId> {
        match self.get(id) {
            Type::Pointer { pointee, .. } => *pointee,
            _ => None,
        }
    }

    /// The element type of an array or vector.
    pub fn element(&self, id: TypeId) -> Option<TypeId> {
        match self.get(id) {
            Type::Array { elem, .. } | Type::Vector { elem, .. } => Some(*elem),
            _ => None,
        }
    }

    /// The width of an integer type, or of the elements of an integer vector.
    pub fn scalar_int_width(&self, id: TypeId) -> Option<u32> {
        match self.get(id) {
            Type::Int(w) => Some(*w),
            Type::Vector { elem, .. } => self.get(*elem).int_width(),
            _ => None,
        }
    }

    /// Size in bytes of a value of type `id` in memory, for the ILP32 data layout of
    /// `le32-unknown-nacl` (pointers 4 bytes; i64 and double aligned to 8), the only
    /// layout PNaCl has. `None` for unsized types (void, label, functions, opaque structs,
    /// scalable vectors).
    pub fn alloc_size(&self, id: TypeId) -> Option<u64> {
        let size = self.store_size(id)?;
        let align = u64::from(self.abi_align(id)?);
        Some(size.div_ceil(align) * align)
    }

    /// Bytes written by a store of type `id` (the data layout's "store size").
    pub fn store_size(&self, id: TypeId) -> Option<u64> {
        Some(match self.get(id) {
            Type::Int(w) => u64::from(*w).div_ceil(8),
            Type::Half | Type::BFloat => 2,
            Type::Float => 4,
            Type::Double | Type::X86Mmx => 8,
            Type::X86Fp80 => 10,
            Type::Fp128 | Type::PpcFp128 => 16,
            Type::Pointer { .. } => 4,
            Type::Array { len, elem } => len.checked_mul(self.alloc_size(*elem)?)?,
            Type::Vector { len, elem, scalable: false } => {
                let bits = u64::from(*len) * self.primitive_bits(*elem)?;
                bits.div_ceil(8)
            }
            Type::Struct(s) if !s.opaque => {
                let mut offset = 0u64;
                let mut align = 1u64;
                for &f in &s.fields {
                    let a = if s.packed { 1 } else { u64::from(self.abi_align(f)?) };
                    align = align.max(a);
                    offset = offset.div_ceil(a) * a;
                    offset = offset.checked_add(self.alloc_size(f)?)?;
                }
                offset.div_ceil(align) * align
            }
            _ => return None,
        })
    }

    /// Bits of a scalar (integer, float or pointer) type.
    fn primitive_bits(&self, id: TypeId) -> Option<u64> {
        Some(match self.get(id) {
            Type::Int(w) => u64::from(*w),
            Type::Pointer { .. } => 32,
            t if t.is_float() => self.store_size(id)? * 8,
            _ => return None,
        })
    }

    /// ABI alignment in bytes in the `le32` data layout
    /// (`e-p:32:32-i64:64-v128:32:128-n32-S128`, clang's `le32-unknown-nacl`).
    pub fn abi_align(&self, id: TypeId) -> Option<u32> {
        Some(match self.get(id) {
            Type::Int(w) if *w <= 8 => 1,
            Type::Int(w) if *w <= 16 => 2,
            Type::Int(w) if *w <= 32 => 4,
            Type::Int(_) => 8,
            Type::Half | Type::BFloat => 2,
            Type::Float | Type::Pointer { .. } => 4,
            Type::Double | Type::X86Mmx => 8,
            Type::X86Fp80 | Type::Fp128 | Type::PpcFp128 => 16,
            Type::Array { elem, .. } => self.abi_align(*elem)?,
            Type::Vector { scalable: false, .. } => {
                let size = self.store_size(id)?;
                if size >= 16 { 16 } else { size.next_power_of_two().max(1) as u32 }
            }
            Type::Struct(s) if !s.opaque => {
                if s.packed {
                    1
                } else {
                    let mut a = 1;
                    for &f in &s.fields {
                        a = a.max(self.abi_align(f)?);
                    }
                    a
                }
            }
            _ => return None,
        })
    }

    /// Byte offset of field `index` of struct type `id`.
    pub fn field_offset(&self, id: TypeId, index: usize) -> Option<u64> {
        let Type::Struct(s) = self.get(id) else { return None };
        let mut offset = 0u64;
        for (i, &f) in s.fields.iter().enumerate() {
            let a = if s.packed { 1 } else { u64::from(self.abi_align(f)?) };
            offset = offset.div_ceil(a) * a;
            if i == index {
                return Some(offset);
            }
            offset = offset.checked_add(self.alloc_size(f)?)?;
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literal_types_are_interned_named_structs_are_not() {
        let mut t = Types::new();
        let i32a = t.int(32);
        assert_eq!(t.int(32), i32a);
        let p = t.pointer_to(i32a);
        assert_eq!(t.pointer_to(i32a), p);
        let a = t.named_struct("a");
        let b = t.named_struct("a");
        assert_ne!(a, b);
    }

    #[test]
    fn le32_layout() {
        let mut t = Types::new();
        let (i8t, i32t, i64t, dbl) = (t.int(8), t.int(32), t.int(64), t.double());
        let s = t.intern(Type::Struct(StructType {
            name: None,
            fields: vec![i8t, i64t, i32t],
            packed: false,
            opaque: false,
        }));
        assert_eq!(t.field_offset(s, 1), Some(8));
        assert_eq!(t.field_offset(s, 2), Some(16));
        assert_eq!(t.alloc_size(s), Some(24));
        let p = t.intern(Type::Struct(StructType { name: None, fields: vec![i8t, dbl], packed: true, opaque: false }));
        assert_eq!(t.alloc_size(p), Some(9));
        let i7 = t.int(7);
        assert_eq!(t.alloc_size(i7), Some(1));
        let arr = t.intern(Type::Array { len: 3, elem: i64t });
        assert_eq!(t.alloc_size(arr), Some(24));
    }
}
