//! The ordered pass lists (`../shared/design/freeze-facts.md` §6), and running them.

use crate::*;
use pnacl_llvm::Module;

/// `-pnacl-abi-simplify-preopt`, in order (with pnacl's own expansion of intrinsics newer
/// than PNaCl, which must run before dead code goes).
pub static PRE_OPT: &[&dyn Pass] = &[
    &unsupported::StripDanglingDISubprograms,
    &lower_invoke::LowerInvoke,
    &simplify_cfg::SimplifyCfg,
    &internalize::Internalize,
    &expand_indirectbr::ExpandIndirectBr,
    &rewrite_llvm_intrinsics::LowerExpect,
    &rewrite_llvm_intrinsics::RewriteLlvmIntrinsics,
    &expand_modern_intrinsics::ExpandModernIntrinsics,
    &expand_varargs::ExpandVarArgs,
    &unsupported::SimplifyStructRegSignatures,
    &expand_struct_regs::ExpandStructRegs,
    &expand_ctors::ExpandCtors,
    &resolve_aliases::ResolveAliases,
    &expand_tls::ExpandTls,
    &global_cleanup::GlobalCleanup,
];

/// The dead-code cleanup between the two lists (what made pexes small).
pub static CLEANUP: &[&dyn Pass] = &[&global_dce::GlobalDce];

/// `-pnacl-abi-simplify-postopt`, in order.
pub static POST_OPT: &[&dyn Pass] = &[
    &rewrite_library_calls::RewritePnaclLibraryCalls,
    &expand_arith_with_overflow::ExpandArithWithOverflow,
    &expand_byval::ExpandByVal,
    &expand_small_arguments::ExpandSmallArguments,
    &promote_i1_ops::PromoteI1Ops,
    &unsupported::ExpandShuffleVector,
    &expand_constant_expr::ExpandConstantExpr,
    &canonicalize_mem_intrinsics::CanonicalizeMemIntrinsics,
    &strip_metadata::StripMetadata,
    &unsupported::ConstantMerge,
    &flatten_globals::FlattenGlobals,
    &expand_large_integers::ExpandLargeIntegers,
    &promote_integers::PromoteIntegers,
    &expand_gep::ExpandGetElementPtr,
    &rewrite_atomics::RewriteAtomics,
    &remove_asm_memory::RemoveAsmMemory,
    &simplify_allocas::SimplifyAllocas,
    &replace_ptrs_with_ints::ReplacePtrsWithInts,
    &expand_struct_regs::ExpandStructRegs,
    &strip_attributes::StripAttributes,
    &normalize_alignment::NormalizeAlignment,
    &strip_dead_prototypes::StripDeadPrototypes,
    &dce::DeadCodeElimination,
    &cleanup_used_globals::CleanupUsedGlobalsMetadata,
];

/// Every pass the crate has.
pub(crate) static ALL: &[&dyn Pass] = &[
    &strip::Strip,
    &unsupported::StripDanglingDISubprograms,
    &lower_invoke::LowerInvoke,
    &simplify_cfg::SimplifyCfg,
    &internalize::Internalize,
    &expand_indirectbr::ExpandIndirectBr,
    &rewrite_llvm_intrinsics::LowerExpect,
    &rewrite_llvm_intrinsics::RewriteLlvmIntrinsics,
    &expand_modern_intrinsics::ExpandModernIntrinsics,
    &expand_varargs::ExpandVarArgs,
    &unsupported::SimplifyStructRegSignatures,
    &expand_struct_regs::ExpandStructRegs,
    &expand_ctors::ExpandCtors,
    &resolve_aliases::ResolveAliases,
    &expand_tls::ExpandTls,
    &global_cleanup::GlobalCleanup,
    &global_dce::GlobalDce,
    &rewrite_library_calls::RewritePnaclLibraryCalls,
    &expand_arith_with_overflow::ExpandArithWithOverflow,
    &expand_byval::ExpandByVal,
    &expand_small_arguments::ExpandSmallArguments,
    &promote_i1_ops::PromoteI1Ops,
    &unsupported::ExpandShuffleVector,
    &expand_constant_expr::ExpandConstantExpr,
    &canonicalize_mem_intrinsics::CanonicalizeMemIntrinsics,
    &strip_metadata::StripMetadata,
    &unsupported::ConstantMerge,
    &flatten_globals::FlattenGlobals,
    &expand_large_integers::ExpandLargeIntegers,
    &promote_integers::PromoteIntegers,
    &expand_gep::ExpandGetElementPtr,
    &rewrite_atomics::RewriteAtomics,
    &remove_asm_memory::RemoveAsmMemory,
    &simplify_allocas::SimplifyAllocas,
    &replace_ptrs_with_ints::ReplacePtrsWithInts,
    &strip_attributes::StripAttributes,
    &normalize_alignment::NormalizeAlignment,
    &strip_dead_prototypes::StripDeadPrototypes,
    &dce::DeadCodeElimination,
    &cleanup_used_globals::CleanupUsedGlobalsMetadata,
];

/// The whole simplification: pre-opt, cleanup, post-opt.
pub fn simplify_passes() -> Vec<&'static dyn Pass> {
    PRE_OPT.iter().chain(CLEANUP).chain(POST_OPT).copied().collect()
}

/// Runs `passes` in order on `m`, calling `after` with each pass's name and the module it
/// left (for `--print-after`).
pub fn run(m: &mut Module, passes: &[&dyn Pass], mut after: impl FnMut(&str, &Module)) -> Result<(), PassError> {
    for p in passes {
        p.run(m)?;
        after(p.name(), m);
    }
    Ok(())
}

/// Passes named in `names`, in that order; the first unknown name is the error.
pub fn by_names<'a>(names: impl IntoIterator<Item = &'a str>) -> Result<Vec<&'static dyn Pass>, String> {
    names.into_iter().map(|n| crate::lookup(n).ok_or_else(|| n.to_string())).collect()
}
