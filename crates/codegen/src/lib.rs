//! The translator: PNaCl IR to native code with Cranelift.
//!
//! [`translate`] lowers every defined function of a module to Cranelift IR
//! ([`translate`](mod@translate) module), compiles them in parallel on all cores, and links
//! the result into executable memory. The code follows the contract of [`abi`]: a hidden
//! thread-context parameter, guest memory at a fixed base, indirect calls through a
//! checked function table, and a trap code for every way guest code can fail.

pub mod abi;
mod clif;
mod config;
mod isa;
mod layout;
mod link;
mod sigs;
mod trampoline;
mod translate;

pub use config::Config;
pub use layout::GuestLayout;
pub use link::CodeMemory;
pub use sigs::SigTable;
pub use trampoline::{Trampolines, trampolines};

use abi::TrapKind;
use cranelift_codegen::control::ControlPlane;
use cranelift_codegen::ir::UserExternalName;
use cranelift_codegen::isa::TargetIsa;
use cranelift_frontend::FunctionBuilderContext;
use pnacl_bitcode::Module;
use pnacl_bitcode::abi::{Intrinsic, intrinsic};
use pnacl_bitcode::ir::{Signature, SsaCheck, ValueId};
use rayon::prelude::*;
use std::time::{Duration, Instant};

/// A trap site: where translated code traps, why, and in which function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TrapSite {
    /// Host address of the trapping instruction.
    pub addr: u64,
    /// Why it traps.
    pub kind: TrapKind,
}

/// The code of one function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FunctionCode {
    /// Host address of its entry.
    pub start: u64,
    /// Size in bytes.
    pub len: u64,
}

/// Translated code, ready to run.
pub struct Translation {
    /// The executable memory.
    pub code: CodeMemory,
    /// The code of each module function (`None` for declarations).
    pub functions: Vec<Option<FunctionCode>>,
    /// Trap sites, by address.
    pub traps: Vec<TrapSite>,
    /// Where globals are.
    pub layout: GuestLayout,
    /// Signature ids.
    pub sigs: SigTable,
    /// Time spent.
    pub time: Duration,
}

impl Translation {
    /// The function whose code contains `pc`, if any.
    pub fn function_at(&self, pc: u64) -> Option<u32> {
        self.functions.iter().position(|c| c.is_some_and(|c| pc >= c.start && pc < c.start + c.len)).map(|f| f as u32)
    }

    /// The trap recorded at `pc`, if any.
    pub fn trap_at(&self, pc: u64) -> Option<TrapKind> {
        self.traps.binary_search_by_key(&pc, |t| t.addr).ok().map(|i| self.traps[i].kind)
    }
}

/// The intrinsic each function of `m` is, by its symbol-table name.
pub fn intrinsics(m: &Module) -> Vec<Option<&'static Intrinsic>> {
    let names = m.names();
    (0..m.functions.len() as u32).map(|f| names.get(ValueId(f)).and_then(intrinsic)).collect()
}

/// Translates every defined function of `m`. `host_sigs` are the signatures of the host
/// functions the runtime puts in the function table (numbered with the module's).
pub fn translate(m: &Module, config: &Config, host_sigs: &[Signature]) -> Result<Translation, String> {
    let started = Instant::now();
    let layout = GuestLayout::new(m)?;
    let sigs = SigTable::new(m, host_sigs);
    let intrinsics = intrinsics(m);
    let fast = isa::isa(true, config.verify)?;
    let plain = isa::isa(false, config.verify)?;
    let env = translate::Env {
        m,
        layout: &layout,
        sigs: &sigs,
        intrinsics: &intrinsics,
        config,
        call_conv: fast.default_call_conv(),
        frontend: fast.frontend_config(),
    };
    let defined: Vec<u32> =
        m.functions.iter().enumerate().filter(|(_, f)| f.body.is_some()).map(|(i, _)| i as u32).collect();
    let compiled: Vec<Result<link::Compiled, String>> = defined
        .par_iter()
        .map_init(
            || (FunctionBuilderContext::new(), cranelift_codegen::Context::new(), SsaCheck::default()),
            |(fbc, ctx, ssa), &f| {
                let func = translate::function(&env, f, fbc, ssa).map_err(|e| format!("@f{f}: {e}"))?;
                let setjmp = m.functions[f as usize].body.as_ref().is_some_and(|b| translate::calls_setjmp(&env, b));
                let isa: &dyn TargetIsa = if setjmp { &*plain } else { &*fast };
                ctx.clear();
                ctx.func = func;
                let code = ctx
                    .compile(isa, &mut ControlPlane::default())
                    .map_err(|e| format!("@f{f}: cranelift: {:?}", e.inner))?;
                let bytes = code.code_buffer().to_vec();
                let raw_relocs = code.buffer.relocs().to_vec();
                let traps = code.buffer.traps().iter().map(|t| (t.offset, t.code)).collect();
                let names = ctx.func.params.user_named_funcs();
                let relocs = raw_relocs
                    .iter()
                    .map(|r| {
                        let name = match &r.target {
                            cranelift_codegen::FinalizedRelocTarget::ExternalName(
                                cranelift_codegen::ir::ExternalName::User(n),
                            ) => Some(names[*n].clone()),
                            _ => None,
                        };
                        (r.clone(), name)
                    })
                    .collect::<Vec<(cranelift_codegen::FinalizedMachReloc, Option<UserExternalName>)>>();
                Ok(link::Compiled { function: f, code: bytes, relocs, traps })
            },
        )
        .collect();
    let compiled: Vec<link::Compiled> = compiled.into_iter().collect::<Result<_, _>>()?;
    let linked = link::link(&compiled, m.functions.len(), &config.host_fns)?;
    let base = linked.memory.start();
    let mut functions = vec![None; m.functions.len()];
    let mut traps = Vec::new();
    for (c, &off) in compiled.iter().zip(&linked.offsets) {
        let start = base + off as u64;
        functions[c.function as usize] = Some(FunctionCode { start, len: c.code.len() as u64 });
        for &(o, code) in &c.traps {
            if let Some(kind) = TrapKind::from_code(code) {
                traps.push(TrapSite { addr: start + u64::from(o), kind });
            }
        }
    }
    traps.sort_by_key(|t| t.addr);
    Ok(Translation { code: linked.memory, functions, traps, layout, sigs, time: started.elapsed() })
}
