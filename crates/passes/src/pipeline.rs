//! The ordered pass lists, and running them.

use crate::{Pass, PassError, strip};
use pnacl_llvm::Module;

/// Every pass the crate has.
pub(crate) static ALL: &[&dyn Pass] = &[&strip::Strip];

/// Runs `passes` in order on `m`, calling `after` with each pass's name and the module it
/// left (for `--print-after`).
pub fn run(
    m: &mut Module,
    passes: &[&dyn Pass],
    mut after: impl FnMut(&str, &Module),
) -> Result<(), PassError> {
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
