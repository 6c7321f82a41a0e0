//! `nacl-strip-attributes`: removes attributes, calling conventions, sections, alignments and
//! arithmetic flags, none of which a pexe can hold.

use crate::{Pass, PassError};
use pnacl_llvm::ir::{Attrs, InstKind, Linkage, Module, UnnamedAddr, Visibility};

/// The pass.
pub struct StripAttributes;

impl Pass for StripAttributes {
    fn name(&self) -> &'static str {
        "nacl-strip-attributes"
    }

    fn run(&self, m: &mut Module) -> Result<(), PassError> {
        for g in &mut m.globals {
            g.props.section = None;
            g.props.visibility = Visibility::Default;
            g.props.unnamed_addr = UnnamedAddr::None;
            g.props.dso_local = false;
            if g.props.linkage == Linkage::Private {
                g.props.linkage = Linkage::Internal;
            }
        }
        for f in &mut m.functions {
            let intrinsic = f.is_intrinsic();
            f.props.section = None;
            f.props.visibility = Visibility::Default;
            f.props.unnamed_addr = UnnamedAddr::None;
            f.props.dso_local = false;
            f.props.align = 0;
            f.gc = None;
            if f.props.linkage == Linkage::Private {
                f.props.linkage = Linkage::Internal;
            }
            if !intrinsic {
                f.attrs = Attrs::default();
                f.cc = 0;
            }
            for inst in &mut f.insts {
                match &mut inst.kind {
                    InstKind::Binary { flags, .. } | InstKind::FNeg { flags, .. } | InstKind::FCmp { flags, .. } => {
                        *flags = 0
                    }
                    InstKind::Call { attrs, cc, flags, .. } => {
                        **attrs = Attrs::default();
                        *cc = 0;
                        *flags = 0;
                    }
                    InstKind::Invoke { attrs, cc, .. } => {
                        **attrs = Attrs::default();
                        *cc = 0;
                    }
                    InstKind::GetElementPtr { inbounds, .. } => *inbounds = false,
                    _ => {}
                }
            }
        }
        Ok(())
    }
}
