//! The translator: PNaCl IR to native code with Cranelift.
//!
//! [`compile`] lowers every defined function of a module to Cranelift IR
//! ([`translate`](mod@translate) module) and compiles them in parallel on all cores into an
//! [`Object`]: position-independent code with relocations; [`Object::link`] loads it into
//! executable memory ([`translate`] does both). The code follows the contract of [`abi`]: a
//! hidden thread-context parameter, guest memory at a base the runtime relocates in,
//! indirect calls through a checked function table, and a trap code for every way guest
//! code can fail.

pub mod abi;
mod clif;
mod compile;
mod config;
mod isa;
mod layout;
mod link;
mod object;
mod sigs;
mod trampoline;
mod translate;
mod translation;

pub use compile::{compile, intrinsics};
pub use config::Config;
pub use isa::{Tier, target_features};
pub use layout::{GuestLayout, InitialData};
pub use link::{AbsReloc, Addresses, CodeMemory, FUNCTION_ALIGN, RelocTarget, is_relocation_site};
pub use object::{CodeRange, Object};
pub use sigs::SigTable;
pub use trampoline::{Trampolines, trampolines};
pub use translation::{FunctionCode, Translation, TrapSite};

use pnacl_bitcode::Module;
use pnacl_bitcode::ir::Signature;

/// Translates every defined function of `m` and loads the code at the addresses `config`
/// gives. `host_sigs` are the signatures of the host functions the runtime puts in the
/// function table (numbered with the module's).
pub fn translate(m: &Module, config: &Config, host_sigs: &[Signature]) -> Result<Translation, String> {
    let object = compile(m, config.table_len, Tier::Optimizing, config.verify, host_sigs)?;
    object.link(&config.addresses())
}
