//! Entry trampolines: how host code starts guest code.
//!
//! A trampoline calls the C library's `_setjmp` on a runtime-owned buffer, then the guest
//! function. Host code can end the guest's run at any depth by `longjmp`ing to that buffer
//! (IRT `thread_exit`); the trampoline then returns the jump's value instead of 0. It is
//! compiled without optimisation and keeps nothing live across `_setjmp` that the second
//! return needs.

use crate::abi::HostFn;
use crate::clif::{NS_HOST, host_signature};
use crate::link::{self, Addresses, CodeMemory, Compiled};
use cranelift_codegen::control::ControlPlane;
use cranelift_codegen::ir::types::{I32, I64};
use cranelift_codegen::ir::{
    AbiParam, ArgumentPurpose, ExtFuncData, ExternalName, Function, InstBuilder, Signature, UserExternalName,
    UserFuncName,
};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};

/// The entry trampolines.
pub struct Trampolines {
    /// Keeps the code mapped.
    pub code: CodeMemory,
    /// `extern "C" fn(vmctx, code, arg: u32, jmp_buf) -> i32`: calls `code(vmctx, arg)`.
    pub call_with_arg: u64,
    /// `extern "C" fn(vmctx, code, jmp_buf) -> i32`: calls `code(vmctx)`.
    pub call: u64,
}

fn build(with_arg: bool, index: u32) -> Result<(Function, cranelift_codegen::isa::OwnedTargetIsa), String> {
    let isa = crate::isa::isa(false, crate::isa::Tier::Optimizing, false)?;
    let cc = isa.default_call_conv();
    let mut sig = Signature::new(cc);
    sig.params.push(AbiParam::new(I64));
    sig.params.push(AbiParam::new(I64));
    if with_arg {
        sig.params.push(AbiParam::new(I32));
    }
    sig.params.push(AbiParam::new(I64));
    sig.returns.push(AbiParam::new(I32));
    let mut func = Function::with_name_signature(UserFuncName::user(2, index), sig);
    let mut ctx = FunctionBuilderContext::new();
    let mut b = FunctionBuilder::new(&mut func, &mut ctx);
    let entry = b.create_block();
    let go = b.create_block();
    let done = b.create_block();
    b.append_block_params_for_function_params(entry);
    b.switch_to_block(entry);
    let p = b.block_params(entry).to_vec();
    let (vmctx, code, buf) = (p[0], p[1], p[p.len() - 1]);
    let setjmp_sig = b.import_signature(host_signature(cc, HostFn::Setjmp));
    let name = b.func.declare_imported_user_function(UserExternalName::new(NS_HOST, HostFn::Setjmp as u32));
    let setjmp = b.import_function(ExtFuncData {
        name: ExternalName::user(name),
        signature: setjmp_sig,
        colocated: false,
        patchable: false,
    });
    let call = b.ins().call(setjmp, &[buf]);
    let r = b.inst_results(call)[0];
    b.ins().brif(r, done, &[], go, &[]);
    b.switch_to_block(go);
    let mut guest = Signature::new(cc);
    guest.params.push(AbiParam::special(I64, ArgumentPurpose::VMContext));
    let mut args = vec![vmctx];
    if with_arg {
        guest.params.push(AbiParam::new(I32));
        args.push(p[2]);
    }
    let guest = b.import_signature(guest);
    b.ins().call_indirect(guest, code, &args);
    let zero = b.ins().iconst(I32, 0);
    b.ins().return_(&[zero]);
    b.switch_to_block(done);
    // The value `longjmp` passed, reloaded from nothing live across `_setjmp`: it is the
    // call's result on this path.
    b.ins().return_(&[r]);
    b.seal_all_blocks();
    b.finalize(isa.frontend_config());
    Ok((func, isa))
}

/// Compiles and links the trampolines; `host` holds the address of each [`HostFn`].
pub fn trampolines(host: &[u64]) -> Result<Trampolines, String> {
    let mut compiled = Vec::new();
    for (i, with_arg) in [true, false].into_iter().enumerate() {
        let (func, isa) = build(with_arg, i as u32)?;
        let mut ctx = cranelift_codegen::Context::for_function(func);
        let code = ctx.compile(&*isa, &mut ControlPlane::default()).map_err(|e| format!("{:?}", e.inner))?;
        let bytes = code.code_buffer().to_vec();
        let relocs = code.buffer.relocs().to_vec();
        let names = ctx.func.params.user_named_funcs();
        let relocs = relocs
            .into_iter()
            .map(|r| {
                let n = match &r.target {
                    cranelift_codegen::FinalizedRelocTarget::ExternalName(ExternalName::User(n)) => {
                        Some(names[*n].clone())
                    }
                    _ => None,
                };
                (r, n)
            })
            .collect();
        compiled.push(Compiled { function: i as u32, code: bytes, relocs, traps: Vec::new(), unrolled_loops: 0 });
    }
    let assembled = link::assemble(compiled, 2)?;
    // Trampolines use no guest memory and no table.
    let at = Addresses { mem_base: 0, table_addr: 0, host_fns: host.to_vec() };
    let code = link::load(&assembled.code, &assembled.relocs, &at)?;
    let base = code.start();
    Ok(Trampolines {
        call_with_arg: base + u64::from(assembled.offsets[0]),
        call: base + u64::from(assembled.offsets[1]),
        code,
    })
}
