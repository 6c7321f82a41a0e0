//! `cleanup-used-globals-metadata`: deletes `llvm.used`, whose job (keeping globals alive
//! through optimization) is done.

use crate::{Pass, PassError};
use pnacl_llvm::ir::Module;

/// The pass.
pub struct CleanupUsedGlobalsMetadata;

impl Pass for CleanupUsedGlobalsMetadata {
    fn name(&self) -> &'static str {
        "cleanup-used-globals-metadata"
    }

    fn run(&self, m: &mut Module) -> Result<(), PassError> {
        m.retain_globals(|_, g| g.props.name != "llvm.used");
        Ok(())
    }
}
