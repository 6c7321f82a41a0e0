//! The Cranelift target: the host's instruction set with pnacl's code-generation settings.

use cranelift_codegen::isa::OwnedTargetIsa;
use cranelift_codegen::settings::{self, Configurable};

/// How much work translation puts into the code.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Tier {
    /// Cranelift's optimiser (e-graphs, `speed`) and its backtracking register allocator:
    /// the code `pnacl run` caches.
    #[default]
    Optimizing,
    /// No optimisation and the single-pass register allocator: about twice as fast to
    /// translate, for code that runs once (the code runs up to twice as slowly).
    Baseline,
}

/// The host's target, optimising (`speed`) or not, with Cranelift's IR verifier when
/// `verify` is set (always in debug builds). The baseline tier also allocates registers
/// in a single pass.
pub(crate) fn isa(optimize: bool, tier: Tier, verify: bool) -> Result<OwnedTargetIsa, String> {
    let mut flags = settings::builder();
    let set = |f: &mut settings::Builder, k: &str, v: &str| f.set(k, v).map_err(|e| format!("{k}={v}: {e}"));
    let optimize = optimize && tier == Tier::Optimizing;
    set(&mut flags, "opt_level", if optimize { "speed" } else { "none" })?;
    if tier == Tier::Baseline {
        set(&mut flags, "regalloc_algorithm", "single_pass")?;
    }
    set(&mut flags, "enable_verifier", if verify || cfg!(debug_assertions) { "true" } else { "false" })?;
    set(&mut flags, "enable_probestack", "true")?;
    set(&mut flags, "probestack_strategy", "inline")?;
    set(&mut flags, "preserve_frame_pointers", "true")?;
    // Translated code unwinds by its frame pointers: no unwind tables to compute.
    set(&mut flags, "unwind_info", "false")?;
    let builder = cranelift_native::builder().map_err(|e| format!("unsupported host: {e}"))?;
    builder.finish(settings::Flags::new(flags)).map_err(|e| e.to_string())
}

/// What code translated on this host assumes of the processor: the target triple and every
/// instruction-set flag Cranelift detected, as `name=value` pairs. A translation made
/// elsewhere runs here only if this is the same.
pub fn target_features() -> Result<String, String> {
    let isa = isa(true, Tier::Optimizing, false)?;
    let mut out = isa.triple().to_string();
    for v in isa.isa_flags() {
        out.push_str(&format!(",{}={}", v.name, v.value_string()));
    }
    Ok(out)
}
