//! Cranelift's view of guest and host functions: the type of each PNaCl type, the
//! signatures of guest functions and host helpers, and the external-name namespaces that
//! calls between them use.

use crate::abi::HostFn;
use cranelift_codegen::ir::types::*;
use cranelift_codegen::ir::{AbiParam, ArgumentPurpose, Signature as ClifSig, Type};
use cranelift_codegen::isa::CallConv;
use pnacl_bitcode::ir::Ty;

/// External-name namespace of guest functions (index: function number).
pub(crate) const NS_GUEST: u32 = 0;
/// External-name namespace of host helpers (index: [`HostFn`]).
pub(crate) const NS_HOST: u32 = 1;
/// External-name namespace of the runtime's data (index: [`RuntimeSymbol`]).
pub(crate) const NS_RUNTIME: u32 = 2;

/// Runtime data whose address translated code uses: relocated when the code is loaded, so
/// that a translation does not depend on where the process put them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RuntimeSymbol {
    /// Guest address 0.
    MemoryBase = 0,
    /// The function table.
    FunctionTable = 1,
}

impl RuntimeSymbol {
    /// The symbol numbered `index`.
    pub fn from_index(index: u32) -> Option<RuntimeSymbol> {
        [RuntimeSymbol::MemoryBase, RuntimeSymbol::FunctionTable].get(index as usize).copied()
    }
}

/// The Cranelift type of a PNaCl type (`i1` is a byte holding 0 or 1; `i1` vectors are
/// lane masks of all ones or zeros).
pub(crate) fn clif_type(t: Ty) -> Type {
    match t {
        Ty::I1 | Ty::I8 => I8,
        Ty::I16 => I16,
        Ty::I32 | Ty::Void => I32,
        Ty::I64 => I64,
        Ty::Float => F32,
        Ty::Double => F64,
        Ty::V4I1 | Ty::V4I32 => I32X4,
        Ty::V8I1 | Ty::V8I16 => I16X8,
        Ty::V16I1 | Ty::V16I8 => I8X16,
        Ty::V4Float => F32X4,
    }
}

/// The Cranelift signature of a guest function of type `ret (params)`.
pub(crate) fn guest_signature(call_conv: CallConv, ret: Ty, params: &[Ty]) -> ClifSig {
    let mut s = ClifSig::new(call_conv);
    s.params.push(AbiParam::special(I64, ArgumentPurpose::VMContext));
    s.params.extend(params.iter().map(|&t| AbiParam::new(clif_type(t))));
    if ret != Ty::Void {
        s.returns.push(AbiParam::new(clif_type(ret)));
    }
    s
}

/// The Cranelift signature of a host helper.
pub(crate) fn host_signature(call_conv: CallConv, f: HostFn) -> ClifSig {
    let mut s = ClifSig::new(call_conv);
    let (params, returns): (&[Type], &[Type]) = match f {
        HostFn::Memcpy | HostFn::Memmove | HostFn::Memset => (&[I64, I32, I32, I32], &[]),
        HostFn::Fmod => (&[F64, F64], &[F64]),
        HostFn::Fmodf => (&[F32, F32], &[F32]),
        HostFn::SjljEnter => (&[I64], &[I64]),
        HostFn::SjljLeave => (&[I64, I64], &[]),
        HostFn::SjljRegister => (&[I64, I32, I64], &[I64]),
        HostFn::Setjmp => (&[I64], &[I32]),
        HostFn::Longjmp => (&[I64, I32, I32], &[]),
    };
    s.params.extend(params.iter().map(|&t| AbiParam::new(t)));
    s.returns.extend(returns.iter().map(|&t| AbiParam::new(t)));
    s
}
