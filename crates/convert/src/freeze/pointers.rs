//! Pointers as PNaCl's writer sees them: the casts it elides, and the pointee types it
//! counts.
//!
//! PNaCl bitcode has no pointer types: every pointer is an `i32`, and the casts that only
//! change a pointer's type (`inttoptr`, pointer `bitcast`, `ptrtoint` to `i32`) are not
//! written; their users refer to the value underneath (`ElideCasts` in LLVM 3.7's
//! `NaClValueEnumerator.cpp`).
//!
//! The writer's type-table order counts, for every pointer-typed operand, its *pointee*
//! type. Opaque pointers (LLVM 15 and newer) no longer carry one, so for such input the
//! pointee is recovered from what typed-pointer IR would have had: the accessed type of a
//! load or store address, the function type of a callee, the allocated type of an
//! `alloca`, the function type of a function address, and for intrinsics the pointer types
//! of their PNaCl signatures (`i8*`, or `iN*` for the `llvm.nacl.atomic.*.iN` family).
//! Anything else is taken as `i8*`, clang's generic pointer. For IR in PNaCl's normal
//! form this gives exactly the counts typed-pointer input gives.

use pnacl_llvm::ir::{CastOp, Const, FuncId, Function, Inst, InstKind, Module, Type, TypeId, Value};

/// ElideCasts: the value a pointer cast stands for, or `v` itself. Unlike LLVM 3.7, a cast
/// of an elided cast is followed down (pnacl-freeze wrote a garbage value id for it).
pub(crate) fn elide(m: &Module, f: &Function, v: Value) -> Value {
    let Value::Inst(i) = v else { return v };
    let inst = f.inst(i);
    match inst.kind {
        InstKind::Cast { op: CastOp::Bitcast, val } if m.types.get(inst.ty).is_pointer() => elide(m, f, val),
        InstKind::Cast { op: CastOp::IntToPtr, val } => elide(m, f, val),
        InstKind::Cast { op: CastOp::PtrToInt, val } if *m.types.get(inst.ty) == Type::Int(32) => elide(m, f, val),
        _ => v,
    }
}

/// ElideCasts exactly as LLVM 3.7's writer has it (`NaClValueEnumerator::ElideCasts`): a
/// pointer `bitcast` and a `ptrtoint` to `i32` stand for their operand, one level only; an
/// `inttoptr` for ElideCasts of its operand. The type-table count uses this value: for
/// `bitcast (bitcast %a to T*) to U*` it counts the inner cast's pointee `T`, not `%a`'s.
pub(crate) fn elide_once(m: &Module, f: &Function, v: Value) -> Value {
    let Value::Inst(i) = v else { return v };
    let inst = f.inst(i);
    match inst.kind {
        InstKind::Cast { op: CastOp::Bitcast, val } if m.types.get(inst.ty).is_pointer() => val,
        InstKind::Cast { op: CastOp::IntToPtr, val } => elide_once(m, f, val),
        InstKind::Cast { op: CastOp::PtrToInt, val } if *m.types.get(inst.ty) == Type::Int(32) => val,
        _ => v,
    }
}

/// True if instruction value `v` is a cast the writer does not write.
pub(crate) fn is_elided(m: &Module, f: &Function, v: Value) -> bool {
    elide(m, f, v) != v
}

/// Where a pointer-typed value is seen, for recovering its pointee from opaque pointers.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Seen<'a> {
    /// As operand `index` (in LLVM operand order) of an instruction.
    Operand(&'a Inst, usize),
    /// As the result of an instruction, or a value standing for itself.
    Itself,
}

/// A pointee type: one of the model's, or an integer type the model may not have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Pointee {
    /// A type of the model.
    Type(TypeId),
    /// `iN`.
    Int(u32),
}

/// The pointee counted for pointer type `ty` of value `v` in function `func`: the typed
/// pointer's pointee, or for an opaque pointer what typed IR would have had.
pub(crate) fn pointee(m: &Module, func: FuncId, v: Value, ty: TypeId, seen: Seen<'_>) -> Pointee {
    if let Some(p) = m.types.pointee(ty) {
        return Pointee::Type(p);
    }
    if let Seen::Operand(user, index) = seen
        && let Some(t) = pointee_from_user(m, func, user, index)
    {
        return t;
    }
    own_pointee(m, func, v)
}

/// The pointee of an argument of function `func` seen by itself (a declaration's
/// parameter list).
pub(crate) fn param_pointee(m: &Module, func: FuncId, ty: TypeId) -> Pointee {
    match m.types.pointee(ty) {
        Some(p) => Pointee::Type(p),
        None => intrinsic_pointee(m, func).unwrap_or(Pointee::Int(8)),
    }
}

/// The pointee a user imposes on its operand `index` in typed IR.
fn pointee_from_user(m: &Module, func: FuncId, user: &Inst, index: usize) -> Option<Pointee> {
    match &user.kind {
        // Operand order (value, pointer).
        InstKind::Store { val, .. } if index == 1 => m.value_type(func, *val).map(Pointee::Type),
        InstKind::Load { .. } => Some(Pointee::Type(user.ty)),
        InstKind::Call { fn_ty, args, callee, .. } | InstKind::Invoke { fn_ty, args, callee, .. } => {
            if index == args.len() {
                Some(Pointee::Type(*fn_ty))
            } else {
                let callee = m.as_function(*callee)?;
                intrinsic_pointee(m, callee)
            }
        }
        _ => None,
    }
}

/// The pointee a value has by itself: an alloca's allocated type, a function's type, a
/// global's value type, an intrinsic's pointer type.
fn own_pointee(m: &Module, func: FuncId, v: Value) -> Pointee {
    let f = &m.functions[func.0 as usize];
    let found = match v {
        Value::Inst(i) => match &f.inst(i).kind {
            InstKind::Alloca { allocated_ty, .. } => Some(Pointee::Type(*allocated_ty)),
            InstKind::Call { callee, .. } => m.as_function(*callee).and_then(|c| intrinsic_pointee(m, c)),
            _ => None,
        },
        Value::Const(c) => match m.consts.get(c) {
            Const::Function(g) => Some(Pointee::Type(m.functions[g.0 as usize].ty)),
            Const::Global(g) => Some(Pointee::Type(m.globals[g.0 as usize].value_ty)),
            _ => None,
        },
        Value::Arg(_) => intrinsic_pointee(m, func),
        _ => None,
    };
    found.unwrap_or(Pointee::Int(8))
}

/// The pointee of the pointer parameters and results of intrinsic `f` in PNaCl's typed
/// signatures: `iN` for `llvm.nacl.atomic.*.iN`, `i8` for the others.
fn intrinsic_pointee(m: &Module, f: FuncId) -> Option<Pointee> {
    let name = &m.functions[f.0 as usize].props.name;
    if !name.starts_with("llvm.") {
        return None;
    }
    let width = name
        .strip_prefix("llvm.nacl.atomic.")
        .and_then(|rest| rest.rsplit_once(".i"))
        .and_then(|(_, bits)| bits.parse::<u32>().ok());
    Some(Pointee::Int(width.unwrap_or(8)))
}
