//! PNaCl IR to Cranelift IR, one function at a time.
//!
//! Every guest function takes the thread context (`vmctx`) as a hidden first parameter.
//! Guest memory is reached as `base + zext(i32 address)` with `base` a constant: the 4 GiB
//! guest space plus a guard region are reserved, so no address computed this way leaves
//! the sandbox, and unmapped pages fault (the runtime turns the fault into a trap).
//!
//! Basic blocks are translated in reverse postorder, so every value is translated before
//! its uses (definitions dominate uses); phis become block parameters.
//!
//! Functions that call `llvm.nacl.setjmp` are translated in "setjmp mode": every value
//! lives in a stack slot of its own (stored when defined, loaded at each use), constants
//! are materialised at each use, and such functions are compiled without optimisation, so
//! that no register or spill slot holds a value across the setjmp call that code running
//! before a `longjmp` could overwrite.

mod arith;
mod calls;
mod casts;
mod control;
mod flags;
mod intrinsics;
mod memory;
mod stack_check;
mod unroll;
mod values;
mod vectors;

use crate::abi::{self, HostFn, TrapKind};
use crate::clif::{NS_GUEST, RuntimeSymbol, clif_type, guest_signature};
use crate::layout::GuestLayout;
use crate::sigs::SigTable;
use cranelift_codegen::ir::immediates::Offset32;
use cranelift_codegen::ir::types::*;
use cranelift_codegen::ir::{
    Block, FuncRef, Function, GlobalValue, GlobalValueData, InstBuilder, SigRef, StackSlot, UserFuncName, Value,
};
use cranelift_codegen::isa::CallConv;
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};
use flags::{heap, trusted};
use pnacl_bitcode::Module;
use pnacl_bitcode::abi::{Intrinsic, IntrinsicKind as K};
use pnacl_bitcode::ir::{BinOp, FunctionBody, Inst, SsaCheck, Ty, ValueId, ValueSpace};
use std::collections::HashMap;

/// What translating any function needs.
pub(crate) struct Env<'a> {
    pub m: &'a Module,
    pub layout: &'a GuestLayout,
    pub sigs: &'a SigTable,
    pub intrinsics: &'a [Option<&'static Intrinsic>],
    /// Number of function table entries.
    pub table_len: u32,
    pub call_conv: CallConv,
    pub frontend: cranelift_codegen::isa::TargetFrontendConfig,
    /// Whether functions may check the host stack at their calls rather than in their
    /// prologue (see `stack_check`): the optimizing tier's choice, for faster code; the
    /// baseline tier, made to translate fast, keeps the prologue check, which is less IR.
    pub checks_at_calls: bool,
    /// Whether small counted loops are unrolled (see `unroll`): the optimizing tier's
    /// choice; the baseline tier translates each block once.
    pub unroll_loops: bool,
}

/// True if the function calls `llvm.nacl.setjmp`.
fn calls_setjmp(env: &Env<'_>, body: &FunctionBody) -> bool {
    body.insts.iter().any(|i| match *i {
        Inst::Call { callee, indirect_ret: None, .. } => {
            env.intrinsics.get(callee.0 as usize).copied().flatten().is_some_and(|i| i.kind == K::Setjmp)
        }
        _ => false,
    })
}

pub(crate) use stack_check::frame_fits_unchecked;

/// What translating a function found out, beyond the Cranelift function itself.
pub(crate) struct Translated {
    /// Whether the function calls `llvm.nacl.setjmp` (such functions are compiled without
    /// optimisation).
    pub setjmp: bool,
    /// Set when the function checks the host stack before its calls instead of in its
    /// prologue: the limit to give Cranelift's prologue check (`Function::stack_limit`) if
    /// its frame turns out too large for that (see [`frame_fits_unchecked`]).
    pub deferred_stack_limit: Option<GlobalValue>,
    /// How many loops were unrolled (see the `unroll` module).
    pub unrolled_loops: u32,
}

/// Translates function `f` (which has a body) into `func`, which must be empty (a cleared
/// function is reused: its storage is already allocated).
pub(crate) fn function(
    env: &Env<'_>,
    f: u32,
    func: &mut Function,
    ctx: &mut FunctionBuilderContext,
    ssa: &mut SsaCheck,
) -> Result<Translated, String> {
    let m = env.m;
    let body = m.functions[f as usize].body.as_ref().ok_or("function without a body")?;
    // Blocks go in reverse postorder, so that (in SSA form) every value is translated
    // before its uses; a body that is not in SSA form is refused.
    ssa.run(m, f).map_err(|e| e.to_string())?;
    let order: Vec<usize> = ssa.dominators(body).reverse_postorder().iter().map(|&k| k as usize).collect();
    let sig = m.signature(f);
    func.name = UserFuncName::user(NS_GUEST, f);
    func.signature = guest_signature(env.call_conv, sig.ret, &sig.params);
    let setjmp_mode = calls_setjmp(env, body);
    let b = FunctionBuilder::new(func, ctx);
    let mut t = Translator::new(env, f, body, b, setjmp_mode, order);
    let deferred_stack_limit = t.call_stack_limit;
    t.place_frame(ssa.dominators(body));
    let unrolled_loops = match t.run() {
        Ok(()) => {
            let n = t.unrolled_loops;
            t.b.finalize(env.frontend);
            n
        }
        Err(e) => {
            // The builder context holds the half-built function's state; it is reused for
            // the next function.
            drop(t);
            *ctx = FunctionBuilderContext::new();
            return Err(e);
        }
    };
    Ok(Translated { setjmp: setjmp_mode, deferred_stack_limit, unrolled_loops })
}

struct Translator<'e, 'a, 'b> {
    env: &'e Env<'a>,
    /// The function being translated.
    f: u32,
    /// Its reachable blocks, in reverse postorder.
    order: Vec<usize>,
    body: &'a FunctionBody,
    b: FunctionBuilder<'b>,
    space: ValueSpace,
    /// Functions plus globals: where local values start.
    fg: u32,
    /// The Cranelift value of each local value (parameters, constants, instruction results).
    vals: Vec<Option<Value>>,
    /// In setjmp mode, the slot of each local value.
    slots: Vec<Option<StackSlot>>,
    setjmp_mode: bool,
    /// The local value each instruction defines.
    results: Vec<Option<u32>>,
    /// The instruction that defines each local value (`u32::MAX` for parameters and
    /// constants).
    defs: Vec<u32>,
    /// The Cranelift block of each reachable basic block.
    blocks: Vec<Option<Block>>,
    /// The function's entry block (the prologue).
    entry: Block,
    vmctx: Value,
    vmctx_slot: Option<StackSlot>,
    /// The guest stack pointer at entry, restored at every return (functions with allocas).
    saved_sp: Option<Value>,
    saved_sp_slot: Option<StackSlot>,
    /// The setjmp frame token (setjmp mode).
    token_slot: Option<StackSlot>,
    funcs: HashMap<u32, FuncRef>,
    hosts: HashMap<HostFn, FuncRef>,
    sigrefs: HashMap<(Ty, Vec<Ty>), SigRef>,
    mem_base: Option<Value>,
    /// The global value of each [`RuntimeSymbol`] the function uses.
    runtime_symbols: [Option<GlobalValue>; 2],
    /// The entry block's allocas already allocated by the prologue (instruction indices).
    static_allocas: Vec<usize>,
    /// Where the static frame may be allocated late (see [`Translator::place_frame`]): the
    /// block that dominates every use of each entry-block alloca (instruction index), or
    /// `None` for an alloca never used. Empty when the frame is allocated in the prologue.
    frame_places: HashMap<usize, Option<u32>>,
    /// The static frame's size and alignment, and its allocas to define at the start of a
    /// later block: (block, instruction, offset in the frame).
    late_frame: Option<(u64, u64)>,
    late_allocas: Vec<(u32, usize, u64)>,
    /// The host stack limit, when the function checks it before its calls rather than in
    /// its prologue (see the `stack_check` module).
    call_stack_limit: Option<GlobalValue>,
    /// The block that last checked the host stack before a call.
    stack_checked_in: Option<Block>,
    /// How many loops were unrolled.
    unrolled_loops: u32,
}

impl<'e, 'a, 'b> Translator<'e, 'a, 'b> {
    fn new(
        env: &'e Env<'a>,
        f: u32,
        body: &'a FunctionBody,
        mut b: FunctionBuilder<'b>,
        setjmp_mode: bool,
        order: Vec<usize>,
    ) -> Self {
        let m = env.m;
        let space = m.value_space(f);
        let space = ValueSpace { consts: body.constants.len() as u32, ..space };
        let fg = space.functions + space.globals;
        let locals = body.local_types.len();
        let entry = b.create_block();
        b.append_block_params_for_function_params(entry);
        let vmctx = b.block_params(entry)[0];
        // The host stack is checked against the thread's limit in the prologue or before
        // each call.
        let vmctx_gv = b.create_global_value(GlobalValueData::VMContext);
        let flags = b.func.dfg.mem_flags.insert_unchecked(trusted());
        let limit = b.create_global_value(GlobalValueData::Load {
            base: vmctx_gv,
            offset: Offset32::new(abi::VMCTX_HOST_STACK_LIMIT),
            global_type: I64,
            flags,
        });
        let call_stack_limit =
            (env.checks_at_calls && stack_check::checks_at_calls(body, setjmp_mode)).then_some(limit);
        if call_stack_limit.is_none() {
            b.func.stack_limit = Some(limit);
        }
        let mut results = vec![None; body.insts.len()];
        let mut defs = vec![u32::MAX; locals];
        let mut next = space.first_inst() - fg;
        for (i, inst) in body.insts.iter().enumerate() {
            if env.m.defines_value(inst) {
                results[i] = Some(next);
                if let Some(d) = defs.get_mut(next as usize) {
                    *d = i as u32;
                }
                next += 1;
            }
        }
        Translator {
            env,
            f,
            order,
            body,
            b,
            space,
            fg,
            vals: vec![None; locals],
            slots: vec![None; locals],
            setjmp_mode,
            results,
            defs,
            blocks: vec![None; body.num_blocks as usize],
            entry,
            vmctx,
            vmctx_slot: None,
            saved_sp: None,
            saved_sp_slot: None,
            token_slot: None,
            funcs: HashMap::new(),
            hosts: HashMap::new(),
            sigrefs: HashMap::new(),
            mem_base: None,
            runtime_symbols: [None; 2],
            static_allocas: Vec::new(),
            frame_places: HashMap::new(),
            late_frame: None,
            late_allocas: Vec::new(),
            call_stack_limit,
            stack_checked_in: None,
            unrolled_loops: 0,
        }
    }

    /// The instructions of basic block `k`.
    fn block_insts(&self, k: usize) -> std::ops::Range<usize> {
        self.body.block_insts(k)
    }

    fn run(&mut self) -> Result<(), String> {
        // Blocks go in reverse postorder, so that (in a module in SSA form) every value is
        // translated before its uses; a module that is not is refused.
        let order: Vec<usize> = self.order.clone();
        for &k in &order {
            let blk = self.b.create_block();
            self.blocks[k] = Some(blk);
            // Phis become block parameters, in order.
            for i in self.block_insts(k) {
                match &self.body.insts[i] {
                    Inst::Phi { ty, .. } => {
                        self.b.append_block_param(blk, clif_type(*ty));
                    }
                    Inst::ForwardDecl { .. } => {}
                    _ => break,
                }
            }
        }
        self.prologue();
        for &k in &order {
            self.block(k)?;
        }
        self.b.seal_all_blocks();
        Ok(())
    }

    fn prologue(&mut self) {
        let entry = self.entry;
        self.b.switch_to_block(entry);
        let params: Vec<Value> = self.b.block_params(entry)[1..].to_vec();
        let uses_stack = self.body.insts.iter().any(|i| {
            matches!(i, Inst::Alloca { .. })
                || matches!(*i, Inst::Call { callee, indirect_ret: None, .. }
                    if self.intrinsic(callee).is_some_and(|x| matches!(x.kind, K::StackRestore | K::Setjmp)))
        });
        if self.setjmp_mode {
            let slot = self.slot(I64);
            self.b.ins().stack_store(I64, self.vmctx, slot, 0);
            self.vmctx_slot = Some(slot);
            for (local, ty) in self.body.local_types.iter().enumerate() {
                let t = clif_type(*ty);
                self.slots[local] = Some(self.slot(t));
            }
            let vmctx = self.vmctx;
            let token = self.call_host(HostFn::SjljEnter, &[vmctx]);
            let slot = self.slot(I64);
            self.b.ins().stack_store(I64, token[0], slot, 0);
            self.token_slot = Some(slot);
        }
        if uses_stack {
            let vmctx = self.vmctx();
            let sp = self.b.ins().load(I32, trusted(), vmctx, abi::VMCTX_GUEST_SP);
            if self.setjmp_mode {
                let slot = self.slot(I32);
                self.b.ins().stack_store(I64, sp, slot, 0);
                self.saved_sp_slot = Some(slot);
            } else {
                self.saved_sp = Some(sp);
            }
        }
        for (i, p) in params.into_iter().enumerate() {
            self.define(i as u32, p);
        }
        if uses_stack {
            self.static_frame();
        }
        if !self.setjmp_mode {
            self.mem_base = Some(self.runtime_address(RuntimeSymbol::MemoryBase));
        }
        if !self.setjmp_mode {
            for i in 0..self.body.constants.len() {
                let v = self.constant(i);
                self.vals[self.body.num_params as usize + i] = Some(v);
            }
        }
        let first = self.blocks[0].expect("the entry block is reachable");
        self.b.ins().jump(first, &[]);
    }

    fn intrinsic(&self, callee: ValueId) -> Option<&'static Intrinsic> {
        self.env.intrinsics.get(callee.0 as usize).copied().flatten()
    }

    fn block(&mut self, k: usize) -> Result<(), String> {
        if let Some(l) = self.counted_loop(k) {
            self.unrolled_loops += 1;
            return self.unrolled_block(k, &l);
        }
        let blk = self.blocks[k].expect("reachable");
        self.b.switch_to_block(blk);
        self.late_frame_at(k as u32);
        let params: Vec<Value> = self.b.block_params(blk).to_vec();
        let mut param = 0;
        for i in self.block_insts(k) {
            let inst = &self.body.insts[i];
            match inst {
                Inst::ForwardDecl { .. } => continue,
                Inst::Phi { .. } => {
                    let local = self.results[i].ok_or("phi without a result")?;
                    self.define(local, params[param]);
                    param += 1;
                }
                _ => self.instruction(k, i)?,
            }
        }
        Ok(())
    }

    fn instruction(&mut self, k: usize, i: usize) -> Result<(), String> {
        let body = self.body;
        let result = self.results[i];
        let value = match body.insts[i] {
            Inst::Binop { op: BinOp::Add, lhs, rhs, .. } if let Some(v) = self.add_of_bool(lhs, rhs)? => Some(v),
            Inst::Binop { op, lhs, rhs, .. } => {
                let t = self.ty(lhs);
                let (a, c) = (self.get(lhs)?, self.get(rhs)?);
                Some(self.binop(op, t, a, c)?)
            }
            Inst::Cast { op, val, to } => {
                let from = self.ty(val);
                let x = self.get(val)?;
                Some(self.cast(op, from, to, x))
            }
            Inst::Cmp { pred, lhs, rhs } => {
                let t = self.ty(lhs);
                let (a, c) = (self.get(lhs)?, self.get(rhs)?);
                Some(self.compare(pred, t, a, c))
            }
            Inst::Select { cond, on_true, on_false } => {
                let ct = self.ty(cond);
                let vt = self.ty(on_true);
                let (c, x, y) = (self.get(cond)?, self.get(on_true)?, self.get(on_false)?);
                Some(if ct.is_vector() {
                    let t = clif_type(vt);
                    let mask = if self.b.func.dfg.value_type(c) == t { c } else { self.bitcast(t, c) };
                    self.b.ins().bitselect(mask, x, y)
                } else {
                    self.b.ins().select(c, x, y)
                })
            }
            Inst::ExtractElement { vector, index } => {
                let vt = self.ty(vector);
                let lane = self.lane(index, vt)?;
                let v = self.get(vector)?;
                let x = self.b.ins().extractlane(v, lane);
                Some(if vt.element() == Ty::I1 { self.mask_to_bool(x) } else { x })
            }
            Inst::InsertElement { vector, element, index } => {
                let vt = self.ty(vector);
                let lane = self.lane(index, vt)?;
                let v = self.get(vector)?;
                let e = self.get(element)?;
                let e = if vt.element() == Ty::I1 { self.bool_to_lane(e, clif_type(vt).lane_type()) } else { e };
                Some(self.b.ins().insertlane(v, e, lane))
            }
            Inst::Alloca { .. } if self.static_allocas.contains(&i) => return Ok(()),
            Inst::Alloca { size, align } => {
                let s = self.get(size)?;
                Some(self.alloca(s, align.bytes().max(1)))
            }
            Inst::Load { ptr, ty, .. } => {
                let (a, offset) = self.addr(ptr)?;
                Some(self.b.ins().load(clif_type(ty), heap(), a, offset))
            }
            Inst::Store { ptr, val, .. } => {
                let (a, offset) = self.addr(ptr)?;
                let v = self.get(val)?;
                self.b.ins().store(heap(), v, a, offset);
                None
            }
            Inst::Ret { val } => {
                let v = match val {
                    Some(v) => Some(self.get(v)?),
                    None => None,
                };
                self.ret(v);
                None
            }
            Inst::Br { target } => {
                let args = self.edge_args(k, target)?;
                let t = self.target(target)?;
                self.b.ins().jump(t, &args);
                None
            }
            Inst::CondBr { cond, on_true, on_false } => {
                let ta = self.edge_args(k, on_true)?;
                let fa = self.edge_args(k, on_false)?;
                let (tb, fb) = (self.target(on_true)?, self.target(on_false)?);
                self.cond_branch(cond, (tb, &ta), (fb, &fa))?;
                None
            }
            Inst::Switch { ty, cond, cases } => {
                let c = self.get(cond)?;
                self.switch(k, ty, c, body.switch_default(cases), body.switch_cases(cases))?;
                None
            }
            Inst::Unreachable => {
                self.trap(TrapKind::Unreachable);
                None
            }
            Inst::Phi { .. } | Inst::ForwardDecl { .. } => None,
            Inst::Call { callee, indirect_ret, args, .. } => {
                let args: Vec<ValueId> = body.args(args).collect();
                match indirect_ret {
                    None => match self.intrinsic(callee) {
                        Some(intr) => self.intrinsic_call(intr, &args)?,
                        None => self.direct_call(callee.0, &args)?,
                    },
                    Some(ret) => self.indirect_call(callee, ret, &args)?,
                }
            }
        };
        match (result, value) {
            (Some(local), Some(v)) => self.define(local, v),
            (Some(_), None) => return Err(format!("instruction {i} produced no value")),
            _ => {}
        }
        Ok(())
    }
}
