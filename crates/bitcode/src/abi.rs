//! Facts of the PNaCl ABI shared by the reader (in strict mode), the verifier and the code
//! generator: the intrinsic whitelist with exact signatures, and the type and alignment
//! predicates.

use crate::ir::{ALL_TYPES, Signature, Ty};

/// What an intrinsic does (its overloads share a kind).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IntrinsicKind {
    /// `llvm.bswap.*`.
    Bswap,
    /// `llvm.ctlz.*`.
    Ctlz,
    /// `llvm.cttz.*`.
    Cttz,
    /// `llvm.ctpop.*`.
    Ctpop,
    /// `llvm.fabs.*`.
    Fabs,
    /// `llvm.sqrt.*`.
    Sqrt,
    /// `llvm.nacl.read.tp`.
    ReadTp,
    /// `llvm.nacl.setjmp`.
    Setjmp,
    /// `llvm.nacl.longjmp`.
    Longjmp,
    /// `llvm.nacl.atomic.load.*`.
    AtomicLoad,
    /// `llvm.nacl.atomic.store.*`.
    AtomicStore,
    /// `llvm.nacl.atomic.rmw.*`.
    AtomicRmw,
    /// `llvm.nacl.atomic.cmpxchg.*`.
    AtomicCmpxchg,
    /// `llvm.nacl.atomic.fence`.
    AtomicFence,
    /// `llvm.nacl.atomic.fence.all`.
    AtomicFenceAll,
    /// `llvm.nacl.atomic.is.lock.free`.
    AtomicIsLockFree,
    /// `llvm.stacksave`.
    StackSave,
    /// `llvm.stackrestore`.
    StackRestore,
    /// `llvm.trap`.
    Trap,
    /// `llvm.memcpy.p0i8.p0i8.i32`.
    Memcpy,
    /// `llvm.memmove.p0i8.p0i8.i32`.
    Memmove,
    /// `llvm.memset.p0i8.i32`.
    Memset,
}

/// A parameter or result type of an intrinsic as LLVM declares it. Pointers are `i32` in
/// PNaCl bitcode, but messages name them as LLVM does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IType {
    /// A value type.
    Val(Ty),
    /// A pointer to the given type (`i8*`, `i32*`, ...), an `i32` in PNaCl.
    Ptr(Ty),
}

impl IType {
    /// The PNaCl type of the parameter.
    pub fn pnacl(self) -> Ty {
        match self {
            IType::Val(t) => t,
            IType::Ptr(_) => Ty::I32,
        }
    }
}

impl std::fmt::Display for IType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            IType::Val(t) => write!(f, "{t}"),
            IType::Ptr(t) => write!(f, "{t}*"),
        }
    }
}

/// One whitelisted intrinsic overload.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Intrinsic {
    /// Its exact name, e.g. `llvm.nacl.atomic.rmw.i32`.
    pub name: &'static str,
    /// What it does.
    pub kind: IntrinsicKind,
    /// The overload's integer or float type, where it has one (e.g. `i32` for `rmw.i32`).
    pub overload: Option<Ty>,
    /// Result type.
    pub ret: IType,
    /// Parameter types.
    pub params: &'static [IType],
}

impl Intrinsic {
    /// The PNaCl signature it must be declared with.
    pub fn signature(&self) -> Signature {
        Signature { ret: self.ret.pnacl(), params: self.params.iter().map(|p| p.pnacl()).collect(), vararg: false }
    }
}

use IType::{Ptr, Val};
use IntrinsicKind as K;

macro_rules! atomics {
    ($t:ident, $n:literal) => {
        [
            Intrinsic {
                name: concat!("llvm.nacl.atomic.load.", $n),
                kind: K::AtomicLoad,
                overload: Some(Ty::$t),
                ret: Val(Ty::$t),
                params: &[Ptr(Ty::$t), Val(Ty::I32)],
            },
            Intrinsic {
                name: concat!("llvm.nacl.atomic.store.", $n),
                kind: K::AtomicStore,
                overload: Some(Ty::$t),
                ret: Val(Ty::Void),
                params: &[Val(Ty::$t), Ptr(Ty::$t), Val(Ty::I32)],
            },
            Intrinsic {
                name: concat!("llvm.nacl.atomic.rmw.", $n),
                kind: K::AtomicRmw,
                overload: Some(Ty::$t),
                ret: Val(Ty::$t),
                params: &[Val(Ty::I32), Ptr(Ty::$t), Val(Ty::$t), Val(Ty::I32)],
            },
            Intrinsic {
                name: concat!("llvm.nacl.atomic.cmpxchg.", $n),
                kind: K::AtomicCmpxchg,
                overload: Some(Ty::$t),
                ret: Val(Ty::$t),
                params: &[Ptr(Ty::$t), Val(Ty::$t), Val(Ty::$t), Val(Ty::I32), Val(Ty::I32)],
            },
        ]
    };
}

const fn simple(name: &'static str, kind: IntrinsicKind, t: Ty, params: &'static [IType]) -> Intrinsic {
    Intrinsic { name, kind, overload: Some(t), ret: Val(t), params }
}

const fn untyped(name: &'static str, kind: IntrinsicKind, ret: IType, params: &'static [IType]) -> Intrinsic {
    Intrinsic { name, kind, overload: None, ret, params }
}

const A8: [Intrinsic; 4] = atomics!(I8, "i8");
const A16: [Intrinsic; 4] = atomics!(I16, "i16");
const A32: [Intrinsic; 4] = atomics!(I32, "i32");
const A64: [Intrinsic; 4] = atomics!(I64, "i64");

/// The PNaCl intrinsic whitelist (the debug intrinsics, allowed only in development
/// bitcode, are not part of it).
pub const INTRINSICS: &[Intrinsic] = &[
    simple("llvm.bswap.i16", K::Bswap, Ty::I16, &[Val(Ty::I16)]),
    simple("llvm.bswap.i32", K::Bswap, Ty::I32, &[Val(Ty::I32)]),
    simple("llvm.bswap.i64", K::Bswap, Ty::I64, &[Val(Ty::I64)]),
    simple("llvm.ctlz.i32", K::Ctlz, Ty::I32, &[Val(Ty::I32), Val(Ty::I1)]),
    simple("llvm.ctlz.i64", K::Ctlz, Ty::I64, &[Val(Ty::I64), Val(Ty::I1)]),
    simple("llvm.cttz.i32", K::Cttz, Ty::I32, &[Val(Ty::I32), Val(Ty::I1)]),
    simple("llvm.cttz.i64", K::Cttz, Ty::I64, &[Val(Ty::I64), Val(Ty::I1)]),
    simple("llvm.ctpop.i32", K::Ctpop, Ty::I32, &[Val(Ty::I32)]),
    simple("llvm.ctpop.i64", K::Ctpop, Ty::I64, &[Val(Ty::I64)]),
    simple("llvm.fabs.f32", K::Fabs, Ty::Float, &[Val(Ty::Float)]),
    simple("llvm.fabs.f64", K::Fabs, Ty::Double, &[Val(Ty::Double)]),
    simple("llvm.fabs.v4f32", K::Fabs, Ty::V4Float, &[Val(Ty::V4Float)]),
    simple("llvm.sqrt.f32", K::Sqrt, Ty::Float, &[Val(Ty::Float)]),
    simple("llvm.sqrt.f64", K::Sqrt, Ty::Double, &[Val(Ty::Double)]),
    untyped("llvm.nacl.read.tp", K::ReadTp, Ptr(Ty::I8), &[]),
    untyped("llvm.nacl.setjmp", K::Setjmp, Val(Ty::I32), &[Ptr(Ty::I8)]),
    untyped("llvm.nacl.longjmp", K::Longjmp, Val(Ty::Void), &[Ptr(Ty::I8), Val(Ty::I32)]),
    A8[0],
    A8[1],
    A8[2],
    A8[3],
    A16[0],
    A16[1],
    A16[2],
    A16[3],
    A32[0],
    A32[1],
    A32[2],
    A32[3],
    A64[0],
    A64[1],
    A64[2],
    A64[3],
    untyped("llvm.nacl.atomic.fence", K::AtomicFence, Val(Ty::Void), &[Val(Ty::I32)]),
    untyped("llvm.nacl.atomic.fence.all", K::AtomicFenceAll, Val(Ty::Void), &[]),
    untyped("llvm.nacl.atomic.is.lock.free", K::AtomicIsLockFree, Val(Ty::I1), &[Val(Ty::I32), Ptr(Ty::I8)]),
    untyped("llvm.stacksave", K::StackSave, Ptr(Ty::I8), &[]),
    untyped("llvm.stackrestore", K::StackRestore, Val(Ty::Void), &[Ptr(Ty::I8)]),
    untyped("llvm.trap", K::Trap, Val(Ty::Void), &[]),
    untyped(
        "llvm.memcpy.p0i8.p0i8.i32",
        K::Memcpy,
        Val(Ty::Void),
        &[Ptr(Ty::I8), Ptr(Ty::I8), Val(Ty::I32), Val(Ty::I32), Val(Ty::I1)],
    ),
    untyped(
        "llvm.memmove.p0i8.p0i8.i32",
        K::Memmove,
        Val(Ty::Void),
        &[Ptr(Ty::I8), Ptr(Ty::I8), Val(Ty::I32), Val(Ty::I32), Val(Ty::I1)],
    ),
    untyped(
        "llvm.memset.p0i8.i32",
        K::Memset,
        Val(Ty::Void),
        &[Ptr(Ty::I8), Val(Ty::I8), Val(Ty::I32), Val(Ty::I32), Val(Ty::I1)],
    ),
];

/// Looks up a whitelisted intrinsic by exact name.
pub fn intrinsic(name: &[u8]) -> Option<&'static Intrinsic> {
    INTRINSICS.iter().find(|i| i.name.as_bytes() == name)
}

/// True for names in LLVM's reserved intrinsic namespace.
pub fn is_intrinsic_name(name: &[u8]) -> bool {
    name.starts_with(b"llvm.")
}

/// Compares a declared signature with an intrinsic's, returning the message PNaCl's
/// disassembler prints for the first difference.
pub fn intrinsic_signature_error(i: &Intrinsic, sig: &Signature) -> Option<String> {
    if sig.ret != i.ret.pnacl() {
        return Some(format!("Intrinsic {} expects return type {}. Found: {}", i.name, i.ret, sig.ret));
    }
    if sig.params.len() != i.params.len() {
        return Some(format!("Intrinsic {} expects {} arguments. Found: {}", i.name, i.params.len(), sig.params.len()));
    }
    for (n, (want, got)) in i.params.iter().zip(&sig.params).enumerate() {
        if want.pnacl() != *got {
            return Some(format!("Intrinsic {} expects {want} for argument {}. Found: {got}", i.name, n + 1));
        }
    }
    if sig.vararg {
        return Some(format!("Intrinsic {} can't be variadic", i.name));
    }
    None
}

/// True for types integer arithmetic is allowed on: integers (and integer vectors) of 8 to
/// 64 bits, not `i1`.
pub fn is_int_arith(ty: Ty) -> bool {
    let e = ty.element();
    e.is_integer() && e != Ty::I1
}

/// True if an ordinary (non-intrinsic) function signature is allowed.
pub fn is_valid_signature(sig: &Signature) -> bool {
    !sig.vararg && (sig.ret == Ty::Void || sig.ret.is_fcn_arg()) && sig.params.iter().all(|p| p.is_fcn_arg())
}

/// The alignments (in bytes) a load or store of `ty` may use, or `None` if `ty` can't be
/// loaded or stored at all.
pub fn allowed_alignments(ty: Ty) -> Option<&'static [u32]> {
    match ty {
        Ty::I8 | Ty::I16 | Ty::I32 | Ty::I64 => Some(&[1]),
        Ty::Float => Some(&[1, 4]),
        Ty::Double => Some(&[1, 8]),
        Ty::V16I8 => Some(&[1]),
        Ty::V8I16 => Some(&[2]),
        Ty::V4I32 | Ty::V4Float => Some(&[4]),
        _ => None,
    }
}

/// True if a load or store of `ty` may use an alignment of `bytes`.
#[inline]
pub fn alignment_ok(ty: Ty, bytes: u32) -> bool {
    // One table lookup rather than a match (a jump table): the reader asks for every load
    // and store record. Bit `b` of a type's entry is set if `b` bytes are allowed.
    const fn allowed(ty: Ty) -> u16 {
        match ty {
            Ty::I8 | Ty::I16 | Ty::I32 | Ty::I64 | Ty::V16I8 => 1 << 1,
            Ty::Float => 1 << 1 | 1 << 4,
            Ty::Double => 1 << 1 | 1 << 8,
            Ty::V8I16 => 1 << 2,
            Ty::V4I32 | Ty::V4Float => 1 << 4,
            _ => 0,
        }
    }
    const ALLOWED: [u16; ALL_TYPES.len()] = {
        let mut t = [0; ALL_TYPES.len()];
        let mut i = 0;
        while i < t.len() {
            t[ALL_TYPES[i] as usize] = allowed(ALL_TYPES[i]);
            i += 1;
        }
        t
    };
    bytes < 16 && ALLOWED[ty as usize] >> bytes & 1 != 0
}

/// The alignment rule message for a load or store of `ty` with alignment `bytes`, if it
/// breaks the rule.
pub fn alignment_error(op: &str, ty: Ty, bytes: u32) -> Option<String> {
    match allowed_alignments(ty) {
        None => Some(format!("{op}: Illegal type {ty}: can't be loaded or stored")),
        Some(allowed) if !allowed.contains(&bytes) => {
            let expects = allowed.iter().map(|a| a.to_string()).collect::<Vec<_>>().join(" or ");
            Some(format!("{op}: Illegal alignment for {ty}. Expects: {expects}"))
        }
        Some(_) => None,
    }
}

/// Whether a call that wants a result of type `want` may call a function whose result is
/// `has`, as `pnacl run` and `pnacl wasm` allow it (with a call's extra arguments, the
/// other mismatch native PNaCl let pass): the same type; none where the call wants one
/// (the call gets zero: real pexes call `void` thread functions through
/// `void *(*)(void *)`); or a scalar where the call wants none (it is dropped).
pub fn call_result_compatible(want: Ty, has: Ty) -> bool {
    want == has
        || (has == Ty::Void && want != Ty::Void)
        || (want == Ty::Void && matches!(has, Ty::I32 | Ty::I64 | Ty::Float | Ty::Double))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whitelist_lookup() {
        assert_eq!(INTRINSICS.len(), 42);
        let sj = intrinsic(b"llvm.nacl.setjmp").unwrap();
        let bad = Signature { ret: Ty::I32, params: vec![Ty::Double], vararg: false };
        assert_eq!(
            intrinsic_signature_error(sj, &bad).unwrap(),
            "Intrinsic llvm.nacl.setjmp expects i8* for argument 1. Found: double"
        );
        assert_eq!(intrinsic_signature_error(sj, &sj.signature()), None);
        assert!(intrinsic(b"llvm.fake.i32").is_none());
        assert_eq!(alignment_error("load", Ty::I32, 4).unwrap(), "load: Illegal alignment for i32. Expects: 1");
        assert_eq!(
            alignment_error("load", Ty::Float, 2).unwrap(),
            "load: Illegal alignment for float. Expects: 1 or 4"
        );
    }
}
