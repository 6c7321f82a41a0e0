//! PNaCl's intrinsics as today's LLVM spells them.
//!
//! PNaCl froze LLVM 3.3's intrinsic signatures: `llvm.memcpy` took an alignment argument,
//! and pointers were typed. LLVM 7 moved that alignment into `align` parameter attributes,
//! and LLVM 15 made pointers opaque, renaming the pointer-overloaded intrinsics
//! (`llvm.memcpy.p0.p0.i32`, `llvm.stacksave.p0`). A thawed module uses today's spelling, so
//! that LLVM keeps its functions where they are instead of upgrading (and moving) them;
//! `freeze` spells them back ([`crate::freeze::intrinsics`]).

use super::value_type;
use pnacl_bitcode::abi::{IType, IntrinsicKind, intrinsic};
use pnacl_bitcode::ir::Signature;
use pnacl_llvm::ir::{Module, TypeId};

/// The LLVM name and function type to declare PNaCl intrinsic `name` with, if it is one
/// whose declaration matches the whitelist (an intrinsic declared with another signature
/// is thawed as the plain function it is).
pub(super) fn declaration(m: &mut Module, name: &str, sig: &Signature) -> Option<(String, TypeId)> {
    let i = intrinsic(name.as_bytes())?;
    if i.signature() != *sig {
        return None;
    }
    let mut params: Vec<TypeId> = i.params.iter().map(|&p| itype(m, p)).collect();
    if is_mem(i.kind) {
        // The alignment moved into attributes.
        params.remove(3);
    }
    let ret = itype(m, i.ret);
    let ty = m.types.function(ret, params, false);
    Some((llvm_name(name, i.kind, m.opaque_pointers).to_string(), ty))
}

/// True for `llvm.memcpy`, `llvm.memmove` and `llvm.memset`, whose 4th PNaCl argument is an
/// alignment that today's LLVM keeps as parameter attributes.
pub(crate) fn is_mem(kind: IntrinsicKind) -> bool {
    matches!(kind, IntrinsicKind::Memcpy | IntrinsicKind::Memmove | IntrinsicKind::Memset)
}

/// Today's name of PNaCl intrinsic `name`.
fn llvm_name(name: &str, kind: IntrinsicKind, opaque: bool) -> &str {
    if !opaque {
        return name;
    }
    match kind {
        IntrinsicKind::Memcpy => "llvm.memcpy.p0.p0.i32",
        IntrinsicKind::Memmove => "llvm.memmove.p0.p0.i32",
        IntrinsicKind::Memset => "llvm.memset.p0.i32",
        IntrinsicKind::StackSave => "llvm.stacksave.p0",
        IntrinsicKind::StackRestore => "llvm.stackrestore.p0",
        _ => name,
    }
}

/// The model type of an intrinsic parameter or result.
pub(super) fn itype(m: &mut Module, t: IType) -> TypeId {
    match t {
        IType::Val(v) => value_type(m, v),
        IType::Ptr(p) => {
            let pointee = value_type(m, p);
            m.pointer_type(pointee, 0)
        }
    }
}
