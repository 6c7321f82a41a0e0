//! Passes of PNaCl's lists for constructs pnacl does not lower yet, which refuse them with a
//! clear message instead (so that no pexe ever holds them), and passes whose work the model
//! makes unnecessary.

use crate::util::error;
use crate::{Pass, PassError};
use pnacl_llvm::ir::{InstKind, Module};

/// Refuses every instruction `pred` matches.
fn refuse(
    m: &Module,
    pass: &'static str,
    what: &str,
    pred: impl Fn(&Module, &InstKind) -> bool,
) -> Result<(), PassError> {
    for f in crate::util::defined(m) {
        let func = &m.functions[f.0 as usize];
        if let Some((_, id)) = func.layout().find(|&(_, id)| pred(m, &func.inst(id).kind)) {
            return Err(error(m, pass, f, id, what.to_string()));
        }
    }
    Ok(())
}

/// `simplify-struct-reg-signatures`: functions that take or return structs by value in
/// registers (rather than clang's `byval` / `sret` pointers) are refused.
pub struct SimplifyStructRegSignatures;

impl Pass for SimplifyStructRegSignatures {
    fn name(&self) -> &'static str {
        "simplify-struct-reg-signatures"
    }

    fn run(&self, m: &mut Module) -> Result<(), PassError> {
        for f in &m.functions {
            if f.is_intrinsic() {
                continue;
            }
            let Some((ret, params, _)) = m.types.as_function(f.ty) else { continue };
            if crate::util::is_aggregate(m, ret) || params.iter().any(|&p| crate::util::is_aggregate(m, p)) {
                return Err(PassError {
                    pass: self.name(),
                    function: Some(f.props.name.clone()),
                    construct: "the function's signature".into(),
                    message: "structs passed or returned by value in registers are not supported".into(),
                });
            }
        }
        Ok(())
    }
}

/// `expand-shufflevector` and the other vector passes: vector shuffles are refused (PNaCl's
/// 128-bit vectors otherwise pass through as they are).
pub struct ExpandShuffleVector;

impl Pass for ExpandShuffleVector {
    fn name(&self) -> &'static str {
        "expand-shufflevector"
    }

    fn run(&self, m: &mut Module) -> Result<(), PassError> {
        refuse(m, self.name(), "shufflevector is not supported", |_, k| matches!(k, InstKind::ShuffleVector { .. }))
    }
}

/// `constmerge`: merging identical constant globals only saves space; pnacl leaves them.
pub struct ConstantMerge;

impl Pass for ConstantMerge {
    fn name(&self) -> &'static str {
        "constmerge"
    }

    fn run(&self, _m: &mut Module) -> Result<(), PassError> {
        Ok(())
    }
}

/// `strip-dangling-disubprograms`: the model keeps no debug metadata, so there is nothing
/// to strip.
pub struct StripDanglingDISubprograms;

impl Pass for StripDanglingDISubprograms {
    fn name(&self) -> &'static str {
        "strip-dangling-disubprograms"
    }

    fn run(&self, _m: &mut Module) -> Result<(), PassError> {
        Ok(())
    }
}
