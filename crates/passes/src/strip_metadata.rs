//! `strip-metadata`: removes named metadata (instruction attachments are never kept by the
//! model).

use crate::{Pass, PassError};
use pnacl_llvm::ir::Module;

/// The pass.
pub struct StripMetadata;

impl Pass for StripMetadata {
    fn name(&self) -> &'static str {
        "strip-metadata"
    }

    fn run(&self, m: &mut Module) -> Result<(), PassError> {
        m.named_metadata.clear();
        Ok(())
    }
}
