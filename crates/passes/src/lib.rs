//! Passes over the LLVM IR model ([`pnacl_llvm::Module`]): what PNaCl's toolchain ran on a
//! module before writing it as a pexe.
//!
//! Each pass lives in its own module and is named as LLVM's `opt` named it
//! (`expand-varargs`, `nacl-expand-tls`, ...). [`pipeline`] holds the ordered lists of
//! `pnacl-abi-simplify-preopt` and `-postopt` (`../shared/design/freeze-facts.md` §6) and
//! runs them; [`lookup`] finds a pass by name, for `pnacl simplify --passes`.

pub mod pipeline;
pub mod strip;
pub mod util;

pub mod call_main;
pub mod canonicalize_mem_intrinsics;
pub mod cleanup_used_globals;
pub mod dce;
pub mod expand_arith_with_overflow;
pub mod expand_byval;
pub mod expand_constant_expr;
pub mod expand_ctors;
pub mod expand_gep;
pub mod expand_indirectbr;
pub mod expand_large_integers;
pub mod expand_modern_intrinsics;
pub mod expand_small_arguments;
pub mod expand_struct_regs;
pub mod expand_tls;
pub mod expand_varargs;
pub mod flatten_globals;
pub mod global_cleanup;
pub mod global_dce;
pub mod internalize;
mod intrinsic_fpclass;
mod intrinsic_ints;
mod intrinsic_reductions;
pub mod link;
pub mod lower_invoke;
pub mod normalize_alignment;
pub mod promote_i1_ops;
pub mod promote_integers;
pub mod remove_asm_memory;
pub mod replace_ptrs_with_ints;
pub mod resolve_aliases;
pub mod rewrite_atomics;
pub mod rewrite_library_calls;
pub mod rewrite_llvm_intrinsics;
pub mod simplify_allocas;
pub mod simplify_cfg;
pub mod strip_attributes;
pub mod strip_dead_prototypes;
pub mod strip_metadata;
pub mod unsupported;

use pnacl_llvm::Module;
use std::fmt;

/// A transformation of a module.
pub trait Pass: Sync {
    /// The pass's name, as LLVM's `opt` flag spells it (`expand-varargs`).
    fn name(&self) -> &'static str;
    /// Runs the pass on `m`.
    fn run(&self, m: &mut Module) -> Result<(), PassError>;
}

/// IR a pass cannot bring into PNaCl's form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PassError {
    /// The pass that refused.
    pub pass: &'static str,
    /// The function where it happened, if in one.
    pub function: Option<String>,
    /// The construct refused (an instruction, a global, an intrinsic name).
    pub construct: String,
    /// Why.
    pub message: String,
}

impl fmt::Display for PassError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(func) = &self.function {
            write!(f, "function @{func}: ")?;
        }
        write!(f, "{}: {} (pass {})", self.construct, self.message, self.pass)
    }
}

impl std::error::Error for PassError {}

/// Every pass, by name.
pub fn all() -> &'static [&'static dyn Pass] {
    pipeline::ALL
}

/// The pass named `name`.
pub fn lookup(name: &str) -> Option<&'static dyn Pass> {
    all().iter().copied().find(|p| p.name() == name)
}
