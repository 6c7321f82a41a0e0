//! Today's spelling of PNaCl's intrinsics, spelled back as PNaCl froze them.
//!
//! LLVM 7 moved the alignment argument of `llvm.memcpy`, `llvm.memmove` and `llvm.memset`
//! into `align` parameter attributes, and LLVM 15 renamed the pointer-overloaded
//! intrinsics after opaque pointers (`llvm.memcpy.p0.p0.i32`, `llvm.stacksave.p0`). A pexe
//! holds LLVM 3.3's forms, which is what these functions give back. `llvm-as` of LLVM 14 or
//! 19 upgrades the old forms on reading (moving the declarations to the end of the module),
//! so bitcode from today's tools always needs this before freezing.

use pnacl_llvm::ir::{Attr, Attrs, Const, FuncId, InstKind, Module, Param, TypeId, Value, attr_kind};

/// What an intrinsic of today becomes.
struct Respelling {
    /// PNaCl's name.
    name: String,
    /// Whether an alignment argument goes back in as the 4th argument.
    add_align: bool,
}

fn respelling(name: &str, params: usize) -> Option<Respelling> {
    if !name.starts_with("llvm.") {
        return None;
    }
    let mem = |base: &str, pointers: usize, width: &str| Respelling {
        name: format!("llvm.{base}.{}{width}", "p0i8.".repeat(pointers)),
        add_align: true,
    };
    for (base, pointers) in [("memcpy", 2), ("memmove", 2), ("memset", 1)] {
        for width in ["i32", "i64"] {
            let opaque = format!("llvm.{base}.{}{width}", "p0.".repeat(pointers));
            let typed = format!("llvm.{base}.{}{width}", "p0i8.".repeat(pointers));
            if (name == opaque || name == typed) && params == 4 {
                return Some(mem(base, pointers, width));
            }
        }
    }
    match name {
        "llvm.stacksave.p0" => Some(Respelling { name: "llvm.stacksave".into(), add_align: false }),
        "llvm.stackrestore.p0" => Some(Respelling { name: "llvm.stackrestore".into(), add_align: false }),
        _ => None,
    }
}

/// The alignment of a call's first parameter, as its `align` attribute says (1 without
/// one: LLVM reads a missing alignment as 1).
fn call_align(call: &Attrs, decl: &Attrs) -> u64 {
    let find = |a: &Attrs| {
        a.param(0).iter().find_map(|x| match x {
            Attr::Int(k, v) if *k == attr_kind::ALIGN => Some(*v),
            _ => None,
        })
    };
    find(call).or_else(|| find(decl)).unwrap_or(1)
}

/// Respells every intrinsic declaration and call of `m` in PNaCl's LLVM 3.3 form.
/// Idempotent: a module already in that form is left as it is.
///
/// Two spellings of one intrinsic (a program of today's clang linked with library members
/// of clang 14: `llvm.memset.p0.i32` and `llvm.memset.p0i8.i32`) become one declaration:
/// the calls of the second go to the first, and the second is removed, since a pexe names
/// each intrinsic once.
pub fn respell_intrinsics(m: &mut Module) {
    let mut changed: Vec<(usize, bool, TypeId)> = Vec::new();
    // Calls of a removed duplicate (first) go to the kept declaration (second).
    let mut merged: Vec<(usize, usize)> = Vec::new();
    for i in 0..m.functions.len() {
        let f = &m.functions[i];
        let Some((ret, params, vararg)) = m.types.as_function(f.ty) else { continue };
        let Some(r) = respelling(&f.props.name, params.len()) else { continue };
        let mut params = params.to_vec();
        if r.add_align {
            let i32t = m.types.int(32);
            params.insert(3, i32t);
        }
        let arity_now = params.len();
        let new_ty = m.types.function(ret, params, vararg);
        // The twin may differ in its pointer types (`i8*` in a typed member, `ptr` in an
        // opaque one): PNaCl's name fixes everything else, and a pexe's pointers are `i32`.
        let arity = |j: usize| m.types.as_function(m.functions[j].ty).map(|(_, p, _)| p.len());
        let twin = (0..m.functions.len()).find(|&j| {
            j != i
                && m.functions[j].props.name == r.name
                && arity(j) == Some(arity_now)
                && m.functions[j].is_declaration()
        });
        let f = &mut m.functions[i];
        f.props.name = r.name;
        f.ty = new_ty;
        if r.add_align {
            f.params.insert(3.min(f.params.len()), Param::default());
        }
        changed.push((i, r.add_align, new_ty));
        if let Some(j) = twin.filter(|_| m.functions[i].is_declaration()) {
            merged.push((i, j));
        }
    }
    if changed.is_empty() {
        return;
    }
    let i32t = m.types.int(32);
    for fi in 0..m.functions.len() {
        for ii in 0..m.functions[fi].insts.len() {
            let InstKind::Call { callee, .. } = &m.functions[fi].insts[ii].kind else { continue };
            let Some(target) = m.as_function(*callee) else { continue };
            let Some(&(_, add_align, new_ty)) = changed.iter().find(|c| c.0 == target.0 as usize) else { continue };
            let align = match &m.functions[fi].insts[ii].kind {
                InstKind::Call { attrs, .. } => call_align(attrs, &m.functions[target.0 as usize].attrs),
                _ => 1,
            };
            let c = m.consts.intern(Const::Int { ty: i32t, value: align & 0xffff_ffff });
            let kept = merged.iter().find(|&&(from, _)| from == target.0 as usize).map(|&(_, to)| to);
            let kept = kept.map(|to| (m.consts.intern(Const::Function(FuncId(to as u32))), m.functions[to].ty));
            if let InstKind::Call { callee, fn_ty, args, .. } = &mut m.functions[fi].insts[ii].kind {
                *fn_ty = new_ty;
                if add_align && args.len() == 4 {
                    args.insert(3, Value::Const(c));
                }
                if let Some((kept, kept_ty)) = kept {
                    *callee = Value::Const(kept);
                    *fn_ty = kept_ty;
                }
            }
        }
    }
    if !merged.is_empty() {
        m.retain_functions(|id, _| !merged.iter().any(|&(from, _)| from == id.0 as usize));
    }
}
