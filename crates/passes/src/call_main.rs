//! The C start-up's call of `main`, fitted to the `main` the program defines.
//!
//! Start-up code calls `main(argc, argv, envp)` whatever the program's `main` takes (`int
//! main(void)`, `int main(int, char **)` or all three), as every C runtime's does: its
//! call cannot know, and on native targets the calling convention makes the extra arguments
//! harmless. Linked LLVM IR shows that as a call through a cast of `main` (typed pointers)
//! or a call whose function type is not `main`'s (opaque pointers), which the PNaCl writer
//! can only write as an indirect call through `main`'s address, and which `pnacl check`
//! warns about (`abi.call-argument-count`). [`fit_calls_to_main`] makes each such call a
//! direct call of `main` with the arguments `main` declares, as LLVM's InstCombine makes a
//! call through a cast of a function whose leading parameters match (it drops the extra
//! ones). Only `main` is fitted: elsewhere such a call is the program's own mismatch, which
//! the warning is right to point at.

use pnacl_llvm::ir::{CastOp, Const, ConstId, ExprOp, FuncId, InstKind, Module, Value};

/// The function `c` names, through any number of bitcasts.
fn function_through_casts(m: &Module, mut c: ConstId) -> Option<FuncId> {
    for _ in 0..16 {
        match m.consts.get(c) {
            Const::Function(f) => return Some(*f),
            Const::Expr { op: ExprOp::Cast(CastOp::Bitcast), operands, .. } => c = operands[0],
            _ => return None,
        }
    }
    None
}

/// Makes every call of a defined, non-variadic `main` that passes more arguments than
/// `main` declares, the others of `main`'s parameter types and expecting its return type, a
/// direct call of `main` without the extra arguments.
pub fn fit_calls_to_main(m: &mut Module) {
    let Some(main) = m.function_by_name("main") else { return };
    let main_fn = &m.functions[main.0 as usize];
    if main_fn.is_declaration() {
        return;
    }
    let main_ty = main_fn.ty;
    let Some((ret, params, false)) = m.types.as_function(main_ty) else { return };
    let (ret, params) = (ret, params.to_vec());
    let direct = m.consts.intern(Const::Function(main));
    for f in 0..m.functions.len() {
        for i in 0..m.functions[f].insts.len() {
            let inst = &m.functions[f].insts[i];
            let InstKind::Call { callee: Value::Const(c), fn_ty, args, .. } = &inst.kind else { continue };
            if *fn_ty == main_ty || function_through_casts(m, *c) != Some(main) {
                continue;
            }
            let Some((call_ret, call_params, false)) = m.types.as_function(*fn_ty) else { continue };
            let fits = call_ret == ret
                && args.len() == call_params.len()
                && call_params.len() > params.len()
                && call_params[..params.len()] == params[..];
            if !fits {
                continue;
            }
            let keep = params.len();
            if let InstKind::Call { callee, fn_ty, args, attrs, .. } = &mut m.functions[f].insts[i].kind {
                *callee = Value::Const(direct);
                *fn_ty = main_ty;
                args.truncate(keep);
                attrs.params.truncate(keep);
            }
        }
    }
}
