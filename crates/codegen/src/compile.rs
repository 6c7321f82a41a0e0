//! Translating a module: every defined function lowered to Cranelift IR and compiled, in
//! parallel on all cores, then assembled into one [`Object`].

use crate::isa::{self, Tier};
use crate::layout::GuestLayout;
use crate::link::{self, Compiled};
use crate::object::{CodeRange, Object};
use crate::sigs::SigTable;
use crate::translate;
use cranelift_codegen::control::ControlPlane;
use cranelift_codegen::ir::{ExternalName, UserExternalName};
use cranelift_codegen::isa::TargetIsa;
use cranelift_codegen::{FinalizedMachReloc, FinalizedRelocTarget};
use cranelift_frontend::FunctionBuilderContext;
use pnacl_bitcode::Module;
use pnacl_bitcode::abi::{Intrinsic, intrinsic};
use pnacl_bitcode::ir::{Signature, SsaCheck, ValueId};
use rayon::prelude::*;
use std::sync::Mutex;
use std::time::Instant;

/// The intrinsic each function of `m` is, by its symbol-table name.
pub fn intrinsics(m: &Module) -> Vec<Option<&'static Intrinsic>> {
    let names = m.names();
    (0..m.functions.len() as u32).map(|f| names.get(ValueId(f)).and_then(intrinsic)).collect()
}

/// The most functions one rayon job translates.
const FUNCTIONS_PER_JOB: usize = 16;

/// What translating a function needs besides the module, kept from one function to the
/// next: its buffers grow to the largest function once instead of for every job.
struct Workspace {
    fbc: FunctionBuilderContext,
    ctx: cranelift_codegen::Context,
    ssa: SsaCheck,
}

/// A workspace borrowed from the pool for one job, given back when the job ends.
struct Lease<'a>(Option<Workspace>, &'a Mutex<Vec<Workspace>>);

impl<'a> Lease<'a> {
    fn take(pool: &'a Mutex<Vec<Workspace>>) -> Lease<'a> {
        let ws = pool.lock().ok().and_then(|mut p| p.pop()).unwrap_or_else(|| Workspace {
            fbc: FunctionBuilderContext::new(),
            ctx: cranelift_codegen::Context::new(),
            ssa: SsaCheck::default(),
        });
        Lease(Some(ws), pool)
    }
}

impl Drop for Lease<'_> {
    fn drop(&mut self) {
        if let (Some(ws), Ok(mut pool)) = (self.0.take(), self.1.lock()) {
            pool.push(ws);
        }
    }
}

/// Translates every defined function of `m` into an [`Object`]. `table_len` is the number
/// of function table entries; `host_sigs` are the signatures of the host functions the
/// runtime puts in the table (numbered with the module's). `verify` runs Cranelift's IR
/// verifier on every function (slower; for tests; debug builds always do).
pub fn compile(
    m: &Module,
    table_len: u32,
    tier: Tier,
    verify: bool,
    host_sigs: &[Signature],
) -> Result<Object, String> {
    let started = Instant::now();
    let layout = GuestLayout::new(m)?;
    let sigs = SigTable::new(m, host_sigs);
    let intrinsics = intrinsics(m);
    let fast = isa::isa(true, tier, verify)?;
    let plain = isa::isa(false, tier, verify)?;
    let env = translate::Env {
        m,
        layout: &layout,
        sigs: &sigs,
        intrinsics: &intrinsics,
        table_len,
        call_conv: fast.default_call_conv(),
        frontend: fast.frontend_config(),
        checks_at_calls: tier == Tier::Optimizing,
        unroll_loops: tier == Tier::Optimizing,
    };
    let defined: Vec<u32> =
        m.functions.iter().enumerate().filter(|(_, f)| f.body.is_some()).map(|(i, _)| i as u32).collect();
    // Work is handed out a few functions at a time: rayon otherwise stops splitting a
    // part nobody has stolen yet, and one core could be left translating the last
    // quarter of a large program alone (measured: 10% of the wall time).
    let workspaces = Mutex::new(Vec::new());
    let compiled: Vec<Compiled> = defined
        .par_iter()
        .with_max_len(FUNCTIONS_PER_JOB)
        .map_init(
            || Lease::take(&workspaces),
            |lease, &f| {
                let Workspace { fbc, ctx, ssa } = lease.0.as_mut().expect("a lease holds its workspace");
                ctx.clear();
                let t = translate::function(&env, f, &mut ctx.func, fbc, ssa).map_err(|e| format!("@f{f}: {e}"))?;
                let isa: &dyn TargetIsa = if t.setjmp { &*plain } else { &*fast };
                let cranelift = |e: cranelift_codegen::CompileError<'_>| format!("@f{f}: cranelift: {:?}", e.inner);
                let frame = ctx.compile(isa, &mut ControlPlane::default()).map_err(cranelift)?.buffer.frame_layout();
                let frame = frame.map(|l| l.frame_to_fp_offset);
                if let Some(limit) = t.deferred_stack_limit {
                    // A frame too large to go without the prologue check: compiled again
                    // with it (see translate's stack_check module).
                    if !translate::frame_fits_unchecked(frame) {
                        ctx.func.stack_limit = Some(limit);
                        ctx.compile(isa, &mut ControlPlane::default()).map_err(cranelift)?;
                    }
                }
                let code = ctx.compiled_code().ok_or_else(|| format!("@f{f}: cranelift made no code"))?;
                let names = ctx.func.params.user_named_funcs();
                let relocs = code
                    .buffer
                    .relocs()
                    .iter()
                    .map(|r| {
                        let name = match &r.target {
                            FinalizedRelocTarget::ExternalName(ExternalName::User(n)) => Some(names[*n].clone()),
                            _ => None,
                        };
                        (r.clone(), name)
                    })
                    .collect::<Vec<(FinalizedMachReloc, Option<UserExternalName>)>>();
                let traps = code.buffer.traps().iter().map(|t| (t.offset, t.code)).collect();
                let unrolled_loops = t.unrolled_loops;
                Ok(Compiled { function: f, code: code.code_buffer().to_vec(), relocs, traps, unrolled_loops })
            },
        )
        .collect::<Result<_, String>>()?;
    let ranges: Vec<(u32, u32)> = compiled.iter().map(|c| (c.function, c.code.len() as u32)).collect();
    let unrolled_loops = compiled.iter().map(|c| c.unrolled_loops).sum();
    let assembled = link::assemble(compiled, m.functions.len())?;
    let mut functions = vec![None; m.functions.len()];
    for (&(f, len), &offset) in ranges.iter().zip(&assembled.offsets) {
        functions[f as usize] = Some(CodeRange { offset, len });
    }
    Ok(Object {
        code: assembled.code,
        functions,
        traps: assembled.traps,
        relocs: assembled.relocs,
        table_len,
        tier,
        layout,
        sigs,
        time: started.elapsed(),
        unrolled_loops,
    })
}
