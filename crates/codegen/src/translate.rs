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

use crate::abi::{self, HostFn, TrapKind};
use crate::sigs::{SigTable, body_type};
use crate::{Config, GuestLayout};
use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::immediates::Offset32;
use cranelift_codegen::ir::types::*;
use cranelift_codegen::ir::{
    AbiParam, ArgumentPurpose, AtomicRmwOp, Block, BlockArg, Endianness, ExtFuncData, ExternalName, FuncRef, Function,
    GlobalValueData, InstBuilder, MemFlagsData, SigRef, Signature as ClifSig, StackSlot, StackSlotData, StackSlotKind,
    Type, UserExternalName, UserFuncName, Value,
};
use cranelift_codegen::isa::CallConv;
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext, Switch};
use pnacl_bitcode::Module;
use pnacl_bitcode::abi::{Intrinsic, IntrinsicKind as K};
use pnacl_bitcode::ir::{
    BinOp, CastOp, ConstValue, FunctionBody, Inst, Pred, SsaCheck, Ty, ValueId, ValueKind, ValueSpace,
    decode_sign_rotated,
};
use std::collections::HashMap;

/// The `seq_cst` memory order of the atomic intrinsics.
const ORDER_SEQ_CST: i64 = 6;

/// True if the host orders memory like x86 (TSO): loads are acquires and stores releases.
const TOTAL_STORE_ORDER: bool = cfg!(target_arch = "x86_64");

/// External-name namespace of guest functions (index: function number).
pub(crate) const NS_GUEST: u32 = 0;
/// External-name namespace of host helpers (index: [`HostFn`]).
pub(crate) const NS_HOST: u32 = 1;

/// What translating any function needs.
pub(crate) struct Env<'a> {
    pub m: &'a Module,
    pub layout: &'a GuestLayout,
    pub sigs: &'a SigTable,
    pub intrinsics: &'a [Option<&'static Intrinsic>],
    pub config: &'a Config,
    pub call_conv: CallConv,
    pub frontend: cranelift_codegen::isa::TargetFrontendConfig,
}

/// The Cranelift type of a PNaCl type (`i1` is a byte holding 0 or 1; `i1` vectors are
/// lane masks of all ones or zeros).
pub(crate) fn clif_type(t: Ty) -> Type {
    match t {
        Ty::I1 | Ty::I8 => I8,
        Ty::I16 => I16,
        Ty::I32 | Ty::Void => I32,
        Ty::I64 => I64,
        Ty::Float => F32,
        Ty::Double => F64,
        Ty::V4I1 | Ty::V4I32 => I32X4,
        Ty::V8I1 | Ty::V8I16 => I16X8,
        Ty::V16I1 | Ty::V16I8 => I8X16,
        Ty::V4Float => F32X4,
    }
}

/// The Cranelift signature of a guest function of type `ret (params)`.
pub(crate) fn guest_signature(call_conv: CallConv, ret: Ty, params: &[Ty]) -> ClifSig {
    let mut s = ClifSig::new(call_conv);
    s.params.push(AbiParam::special(I64, ArgumentPurpose::VMContext));
    s.params.extend(params.iter().map(|&t| AbiParam::new(clif_type(t))));
    if ret != Ty::Void {
        s.returns.push(AbiParam::new(clif_type(ret)));
    }
    s
}

/// The Cranelift signature of a host helper.
pub(crate) fn host_signature(call_conv: CallConv, f: HostFn) -> ClifSig {
    let mut s = ClifSig::new(call_conv);
    let (params, returns): (&[Type], &[Type]) = match f {
        HostFn::Memcpy | HostFn::Memmove | HostFn::Memset => (&[I64, I32, I32, I32], &[]),
        HostFn::Fmod => (&[F64, F64], &[F64]),
        HostFn::Fmodf => (&[F32, F32], &[F32]),
        HostFn::SjljEnter => (&[I64], &[I64]),
        HostFn::SjljLeave => (&[I64, I64], &[]),
        HostFn::SjljRegister => (&[I64, I32, I64], &[I64]),
        HostFn::Setjmp => (&[I64], &[I32]),
        HostFn::Longjmp => (&[I64, I32, I32], &[]),
    };
    s.params.extend(params.iter().map(|&t| AbiParam::new(t)));
    s.returns.extend(returns.iter().map(|&t| AbiParam::new(t)));
    s
}

/// True if the function calls `llvm.nacl.setjmp`.
pub(crate) fn calls_setjmp(env: &Env<'_>, body: &FunctionBody) -> bool {
    body.insts.iter().any(|i| match *i {
        Inst::Call { callee, indirect_ret: None, .. } => {
            env.intrinsics.get(callee.0 as usize).copied().flatten().is_some_and(|i| i.kind == K::Setjmp)
        }
        _ => false,
    })
}

/// Translates function `f` (which has a body).
pub(crate) fn function(
    env: &Env<'_>,
    f: u32,
    ctx: &mut FunctionBuilderContext,
    ssa: &mut SsaCheck,
) -> Result<Function, String> {
    let m = env.m;
    let body = m.functions[f as usize].body.as_ref().ok_or("function without a body")?;
    // Blocks go in reverse postorder, so that (in SSA form) every value is translated
    // before its uses; a body that is not in SSA form is refused.
    ssa.run(m, f).map_err(|e| e.to_string())?;
    let order: Vec<usize> = ssa.dominators(body).reverse_postorder().iter().map(|&k| k as usize).collect();
    let sig = m.signature(f);
    let mut func = Function::with_name_signature(
        UserFuncName::user(NS_GUEST, f),
        guest_signature(env.call_conv, sig.ret, &sig.params),
    );
    let setjmp_mode = calls_setjmp(env, body);
    let b = FunctionBuilder::new(&mut func, ctx);
    let mut t = Translator::new(env, f, body, b, setjmp_mode, order);
    match t.run() {
        Ok(()) => t.b.finalize(env.frontend),
        Err(e) => {
            // The builder context holds the half-built function's state; it is reused for
            // the next function.
            drop(t);
            *ctx = FunctionBuilderContext::new();
            return Err(e);
        }
    }
    Ok(func)
}

/// Flags of guest memory accesses: little-endian, possibly unaligned, trapping (a fault
/// there is a guest memory error).
fn heap() -> MemFlagsData {
    MemFlagsData::new().with_endianness(Endianness::Little).with_trap_code(Some(TrapKind::MemoryOutOfBounds.code()))
}

/// Flags of accesses to runtime structures (vmctx, the function table): never faulting.
fn trusted() -> MemFlagsData {
    MemFlagsData::trusted()
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
    /// The entry block's allocas already allocated by the prologue (instruction indices).
    static_allocas: Vec<usize>,
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
        // The prologue checks the host stack against the thread's limit.
        let vmctx_gv = b.create_global_value(GlobalValueData::VMContext);
        let flags = b.func.dfg.mem_flags.insert_unchecked(trusted());
        let limit = b.create_global_value(GlobalValueData::Load {
            base: vmctx_gv,
            offset: Offset32::new(abi::VMCTX_HOST_STACK_LIMIT),
            global_type: I64,
            flags,
        });
        b.func.stack_limit = Some(limit);
        let mut results = vec![None; body.insts.len()];
        let mut next = space.first_inst() - fg;
        for (i, inst) in body.insts.iter().enumerate() {
            if env.m.defines_value(inst) {
                results[i] = Some(next);
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
            static_allocas: Vec::new(),
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
            self.mem_base = Some(self.b.ins().iconst(I64, self.env.config.mem_base as i64));
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

    /// Allocates the entry block's constant-size allocas as one frame of guest stack, with
    /// one limit check (they run once per call, before anything else can move the stack
    /// pointer). Their results are defined here.
    fn static_frame(&mut self) {
        let mut frame = Vec::new();
        let mut size: u64 = 0;
        let mut max_align: u64 = 1;
        for i in self.block_insts(0) {
            if let Inst::Alloca { size: n, align } = self.body.insts[i] {
                let Some(n) = self.const_int(n).filter(|&n| (0..1 << 24).contains(&n)) else { continue };
                let a = u64::from(align.bytes().max(1));
                size = size.div_ceil(a) * a;
                frame.push((i, size));
                size += n as u64;
                max_align = max_align.max(a);
            }
        }
        if frame.is_empty() {
            return;
        }
        let base = self.alloca_bytes(size, max_align);
        for (i, offset) in frame {
            let v = self.b.ins().iadd_imm_s(base, offset as i64);
            let local = self.results[i].expect("alloca defines a value");
            self.define(local, v);
            self.static_allocas.push(i);
        }
    }

    /// Moves the guest stack pointer down by `size` bytes, aligned to `align`, checking
    /// the limit; returns the new stack pointer.
    fn alloca_bytes(&mut self, size: u64, align: u64) -> Value {
        let size = self.b.ins().iconst(I32, size as i64);
        self.alloca(size, align as u32)
    }

    fn slot(&mut self, t: Type) -> StackSlot {
        let size = t.bytes();
        self.b.create_sized_stack_slot(StackSlotData::new(
            StackSlotKind::ExplicitSlot,
            size,
            size.trailing_zeros() as u8,
        ))
    }

    fn vmctx(&mut self) -> Value {
        match self.vmctx_slot {
            Some(s) => self.b.ins().stack_load(I64, I64, s, 0),
            None => self.vmctx,
        }
    }

    fn intrinsic(&self, callee: ValueId) -> Option<&'static Intrinsic> {
        self.env.intrinsics.get(callee.0 as usize).copied().flatten()
    }

    /// The value of constant `i` of the constants block.
    fn constant(&mut self, i: usize) -> Value {
        let c = self.body.constants[i];
        let t = clif_type(c.ty);
        match c.value {
            ConstValue::Undef => self.zero(t),
            ConstValue::Int(raw) => {
                let v = decode_sign_rotated(raw);
                let v = if c.ty == Ty::I1 { v & 1 } else { v };
                self.int_const(t, v)
            }
            ConstValue::Float(bits) => {
                if c.ty == Ty::Float {
                    self.b.ins().f32const(f32::from_bits(bits as u32))
                } else {
                    self.b.ins().f64const(f64::from_bits(bits))
                }
            }
        }
    }

    fn int_const(&mut self, t: Type, v: i64) -> Value {
        let mask = if t.bits() >= 64 { u64::MAX } else { (1u64 << t.bits()) - 1 };
        self.b.ins().iconst(t, ((v as u64) & mask) as i64)
    }

    fn zero(&mut self, t: Type) -> Value {
        if t.is_vector() {
            let z = self.b.ins().iconst(I32, 0);
            let v = self.b.ins().splat(I32X4, z);
            if t == I32X4 {
                v
            } else {
                self.b.ins().bitcast(t, MemFlagsData::new().with_endianness(Endianness::Little), v)
            }
        } else if t == F32 {
            self.b.ins().f32const(0.0)
        } else if t == F64 {
            self.b.ins().f64const(0.0)
        } else {
            self.b.ins().iconst(t, 0)
        }
    }

    fn local_type(&self, local: u32) -> Type {
        clif_type(self.body.local_types[local as usize])
    }

    /// Records the value of local `local` (and, in setjmp mode, stores it in its slot).
    fn define(&mut self, local: u32, v: Value) {
        if let Some(slot) = self.slots[local as usize] {
            let t = self.local_type(local);
            self.b.ins().stack_store(I64, v, slot, 0);
            debug_assert_eq!(t, self.b.func.dfg.value_type(v));
        } else {
            self.vals[local as usize] = Some(v);
        }
    }

    /// The Cranelift value of an operand.
    fn get(&mut self, v: ValueId) -> Result<Value, String> {
        match self.space.kind(v) {
            ValueKind::Function(_) | ValueKind::Global(_) => {
                let addr = self.env.layout.address(self.env.m, v);
                Ok(self.b.ins().iconst(I32, i64::from(addr)))
            }
            ValueKind::Const(i) if self.setjmp_mode => Ok(self.constant(i as usize)),
            _ => {
                let local = v.0 - self.fg;
                if let Some(slot) = self.slots.get(local as usize).copied().flatten() {
                    let t = self.local_type(local);
                    return Ok(self.b.ins().stack_load(I64, t, slot, 0));
                }
                self.vals
                    .get(local as usize)
                    .copied()
                    .flatten()
                    .ok_or_else(|| format!("value {} used before it is defined", v.0))
            }
        }
    }

    fn ty(&self, v: ValueId) -> Ty {
        body_type(self.env.m, self.body, v)
    }

    /// The host address of a guest address operand.
    fn addr(&mut self, ptr: ValueId) -> Result<Value, String> {
        let p = self.get(ptr)?;
        let p64 = self.b.ins().uextend(I64, p);
        let base = self.base();
        Ok(self.b.ins().iadd(base, p64))
    }

    /// The host address of guest address 0. Outside setjmp mode it is one value, defined
    /// in the prologue (and removed if unused).
    fn base(&mut self) -> Value {
        match self.mem_base {
            Some(b) if !self.setjmp_mode => b,
            _ => self.b.ins().iconst(I64, self.env.config.mem_base as i64),
        }
    }

    fn func_ref(&mut self, f: u32) -> FuncRef {
        if let Some(&r) = self.funcs.get(&f) {
            return r;
        }
        let sig = self.env.m.signature(f);
        let s = guest_signature(self.env.call_conv, sig.ret, &sig.params);
        let sigref = self.b.import_signature(s);
        let name = self.b.func.declare_imported_user_function(UserExternalName::new(NS_GUEST, f));
        let r = self.b.import_function(ExtFuncData {
            name: ExternalName::user(name),
            signature: sigref,
            colocated: true,
            patchable: false,
        });
        self.funcs.insert(f, r);
        r
    }

    fn call_host(&mut self, h: HostFn, args: &[Value]) -> Vec<Value> {
        let r = match self.hosts.get(&h) {
            Some(&r) => r,
            None => {
                let sigref = self.b.import_signature(host_signature(self.env.call_conv, h));
                let name = self.b.func.declare_imported_user_function(UserExternalName::new(NS_HOST, h as u32));
                let r = self.b.import_function(ExtFuncData {
                    name: ExternalName::user(name),
                    signature: sigref,
                    colocated: false,
                    patchable: false,
                });
                self.hosts.insert(h, r);
                r
            }
        };
        let call = self.b.ins().call(r, args);
        self.b.inst_results(call).to_vec()
    }

    /// Records in the thread context that host code is about to act for this function (so
    /// that a fault or trap there names it).
    fn set_host_caller(&mut self, vmctx: Value) {
        let f = self.b.ins().iconst(I32, i64::from(self.f));
        self.b.ins().store(trusted(), f, vmctx, abi::VMCTX_HOST_CALLER);
    }

    fn trap(&mut self, kind: TrapKind) {
        self.b.ins().trap(kind.code());
    }

    fn block(&mut self, k: usize) -> Result<(), String> {
        let blk = self.blocks[k].expect("reachable");
        self.b.switch_to_block(blk);
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

    /// The arguments of the edge from basic block `from` to `to`: the incoming values of
    /// `to`'s phis.
    fn edge_args(&mut self, from: usize, to: u32) -> Result<Vec<BlockArg>, String> {
        let mut args = Vec::new();
        for i in self.block_insts(to as usize) {
            match self.body.insts[i] {
                Inst::Phi { incoming, .. } => {
                    let v = self
                        .body
                        .incoming(incoming)
                        .find(|&(_, b)| b as usize == from)
                        .map(|(v, _)| v)
                        .ok_or_else(|| format!("phi in %b{to} has no value for %b{from}"))?;
                    let v = self.get(v)?;
                    args.push(BlockArg::Value(v));
                }
                Inst::ForwardDecl { .. } => {}
                _ => break,
            }
        }
        Ok(args)
    }

    fn has_phis(&self, b: u32) -> bool {
        self.block_insts(b as usize)
            .map(|i| &self.body.insts[i])
            .find(|i| !matches!(i, Inst::ForwardDecl { .. }))
            .is_some_and(|i| matches!(i, Inst::Phi { .. }))
    }

    fn target(&self, b: u32) -> Result<Block, String> {
        self.blocks.get(b as usize).copied().flatten().ok_or_else(|| format!("branch to unreachable %b{b}"))
    }

    fn ret(&mut self, v: Option<Value>) {
        if let Some(slot) = self.saved_sp_slot {
            let sp = self.b.ins().stack_load(I64, I32, slot, 0);
            let vmctx = self.vmctx();
            self.b.ins().store(trusted(), sp, vmctx, abi::VMCTX_GUEST_SP);
        } else if let Some(sp) = self.saved_sp {
            let vmctx = self.vmctx();
            self.b.ins().store(trusted(), sp, vmctx, abi::VMCTX_GUEST_SP);
        }
        if let Some(slot) = self.token_slot {
            let token = self.b.ins().stack_load(I64, I64, slot, 0);
            let vmctx = self.vmctx();
            self.call_host(HostFn::SjljLeave, &[vmctx, token]);
        }
        match v {
            Some(v) => self.b.ins().return_(&[v]),
            None => self.b.ins().return_(&[]),
        };
    }

    fn instruction(&mut self, k: usize, i: usize) -> Result<(), String> {
        let body = self.body;
        let result = self.results[i];
        let value = match body.insts[i] {
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
                let a = self.addr(ptr)?;
                Some(self.b.ins().load(clif_type(ty), heap(), a, 0))
            }
            Inst::Store { ptr, val, .. } => {
                let a = self.addr(ptr)?;
                let v = self.get(val)?;
                self.b.ins().store(heap(), v, a, 0);
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
                let c = self.get(cond)?;
                let ta = self.edge_args(k, on_true)?;
                let fa = self.edge_args(k, on_false)?;
                let (tb, fb) = (self.target(on_true)?, self.target(on_false)?);
                self.b.ins().brif(c, tb, &ta, fb, &fa);
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
                        None => {
                            let f = self.func_ref(callee.0);
                            let mut a = vec![self.vmctx()];
                            for &v in &args {
                                a.push(self.get(v)?);
                            }
                            let call = self.b.ins().call(f, &a);
                            self.b.inst_results(call).first().copied()
                        }
                    },
                    Some(ret) => {
                        let c = self.get(callee)?;
                        self.indirect_call(c, ret, &args)?
                    }
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

    fn bitcast(&mut self, t: Type, v: Value) -> Value {
        self.b.ins().bitcast(t, MemFlagsData::new().with_endianness(Endianness::Little), v)
    }

    /// An i1 vector lane (all ones or zeros) as an `i1` (0 or 1).
    fn mask_to_bool(&mut self, x: Value) -> Value {
        let one = self.b.ins().band_imm_s(x, 1);
        let t = self.b.func.dfg.value_type(one);
        if t == I8 { one } else { self.b.ins().ireduce(I8, one) }
    }

    /// An `i1` (0 or 1) as an i1 vector lane of type `lane`.
    fn bool_to_lane(&mut self, e: Value, lane: Type) -> Value {
        let e = if lane == I8 { e } else { self.b.ins().uextend(lane, e) };
        self.b.ins().ineg(e)
    }

    fn lane(&self, index: ValueId, vt: Ty) -> Result<u8, String> {
        match self.space.kind(index) {
            ValueKind::Const(i) => {
                let v = self.body.constants[i as usize].value.as_int().ok_or("vector index not an integer")?;
                if v < 0 || v >= i64::from(vt.lanes()) {
                    return Err(format!("vector index {v} out of range"));
                }
                Ok(v as u8)
            }
            _ => Err("vector index not constant".into()),
        }
    }

    fn binop(&mut self, op: BinOp, t: Ty, a: Value, c: Value) -> Result<Value, String> {
        let float = t.element().is_float();
        // Cranelift has no vector division, and shifts vectors by one scalar amount.
        let lane_wise = matches!(op, BinOp::UDiv | BinOp::SDiv | BinOp::URem | BinOp::SRem)
            || matches!(op, BinOp::Shl | BinOp::LShr | BinOp::AShr);
        if t.is_vector() && lane_wise && !(float && op == BinOp::SDiv) {
            return self.per_lane(t, a, c, |s, x, y| s.binop(op, t.element(), x, y));
        }
        if op == BinOp::Mul && t == Ty::V16I8 {
            return Ok(self.mul_i8x16(a, c));
        }
        if op == BinOp::SRem && float {
            let h = if t == Ty::Float { HostFn::Fmodf } else { HostFn::Fmod };
            return Ok(self.call_host(h, &[a, c])[0]);
        }
        let ins = self.b.ins();
        Ok(match (op, float) {
            (BinOp::Add, false) => ins.iadd(a, c),
            (BinOp::Add, true) => ins.fadd(a, c),
            (BinOp::Sub, false) => ins.isub(a, c),
            (BinOp::Sub, true) => ins.fsub(a, c),
            (BinOp::Mul, false) => ins.imul(a, c),
            (BinOp::Mul, true) => ins.fmul(a, c),
            (BinOp::UDiv, _) => ins.udiv(a, c),
            (BinOp::SDiv, false) => ins.sdiv(a, c),
            (BinOp::SDiv, true) => ins.fdiv(a, c),
            (BinOp::URem, _) => ins.urem(a, c),
            (BinOp::SRem, false) => ins.srem(a, c),
            (BinOp::SRem, true) => unreachable!("handled above"),
            (BinOp::Shl, _) => ins.ishl(a, c),
            (BinOp::LShr, _) => ins.ushr(a, c),
            (BinOp::AShr, _) => ins.sshr(a, c),
            (BinOp::And, _) => ins.band(a, c),
            (BinOp::Or, _) => ins.bor(a, c),
            (BinOp::Xor, _) => ins.bxor(a, c),
        })
    }

    /// `mul <16 x i8>`, which Cranelift's x86 backend lacks: multiplies the halves as
    /// `<8 x i16>` and keeps the low byte of each product.
    fn mul_i8x16(&mut self, a: Value, c: Value) -> Value {
        let ff = self.b.ins().iconst(I16, 0xff);
        let mask = self.b.ins().splat(I16X8, ff);
        let mut halves = [a; 2];
        for (i, half) in halves.iter_mut().enumerate() {
            let (x, y) = if i == 0 {
                (self.b.ins().uwiden_low(a), self.b.ins().uwiden_low(c))
            } else {
                (self.b.ins().uwiden_high(a), self.b.ins().uwiden_high(c))
            };
            let p = self.b.ins().imul(x, y);
            *half = self.b.ins().band(p, mask);
        }
        // Every lane is in 0..=255, so the saturating narrow keeps it as is.
        self.b.ins().unarrow(halves[0], halves[1])
    }

    /// A vector of `i1` lanes (all ones or zeros) from integer lanes: the low bit of each.
    fn low_bit_mask(&mut self, x: Value) -> Value {
        let t = self.b.func.dfg.value_type(x);
        let one = self.b.ins().iconst(t.lane_type(), 1);
        let ones = self.b.ins().splat(t, one);
        let low = self.b.ins().band(x, ones);
        self.b.ins().icmp(IntCC::Equal, low, ones)
    }

    /// Applies a scalar operation lane by lane.
    fn per_lane(
        &mut self,
        t: Ty,
        a: Value,
        c: Value,
        mut f: impl FnMut(&mut Self, Value, Value) -> Result<Value, String>,
    ) -> Result<Value, String> {
        let mut out = a;
        for lane in 0..t.lanes() as u8 {
            let x = self.b.ins().extractlane(a, lane);
            let y = self.b.ins().extractlane(c, lane);
            let r = f(self, x, y)?;
            out = self.b.ins().insertlane(out, r, lane);
        }
        Ok(out)
    }

    fn cast(&mut self, op: CastOp, from: Ty, to: Ty, x: Value) -> Value {
        let tt = clif_type(to);
        let ft = clif_type(from);
        if from.is_vector() {
            return self.vector_cast(op, from, to, x);
        }
        let ins = self.b.ins();
        match op {
            CastOp::Trunc => {
                let v = if tt == ft { x } else { ins.ireduce(tt, x) };
                if to == Ty::I1 { self.b.ins().band_imm_s(v, 1) } else { v }
            }
            CastOp::ZExt => {
                if tt == ft {
                    x
                } else {
                    ins.uextend(tt, x)
                }
            }
            CastOp::SExt => {
                if from == Ty::I1 {
                    let v = if tt == ft { x } else { ins.uextend(tt, x) };
                    self.b.ins().ineg(v)
                } else if tt == ft {
                    x
                } else {
                    ins.sextend(tt, x)
                }
            }
            CastOp::FpToUi | CastOp::FpToSi => {
                let wide = if tt.bits() < 32 { I32 } else { tt };
                let v =
                    if op == CastOp::FpToSi { ins.fcvt_to_sint_sat(wide, x) } else { ins.fcvt_to_uint_sat(wide, x) };
                let v = if wide == tt { v } else { self.b.ins().ireduce(tt, v) };
                if to == Ty::I1 { self.b.ins().band_imm_s(v, 1) } else { v }
            }
            CastOp::UiToFp | CastOp::SiToFp => {
                let x = if ft.bits() < 32 {
                    if op == CastOp::SiToFp && from != Ty::I1 { ins.sextend(I32, x) } else { ins.uextend(I32, x) }
                } else {
                    x
                };
                if op == CastOp::SiToFp && from == Ty::I1 {
                    // i1 true is -1 as a signed number.
                    let n = self.b.ins().ineg(x);
                    self.b.ins().fcvt_from_sint(tt, n)
                } else if op == CastOp::SiToFp {
                    self.b.ins().fcvt_from_sint(tt, x)
                } else {
                    self.b.ins().fcvt_from_uint(tt, x)
                }
            }
            CastOp::FpTrunc => ins.fdemote(tt, x),
            CastOp::FpExt => ins.fpromote(tt, x),
            CastOp::Bitcast => {
                if tt == ft {
                    x
                } else {
                    self.bitcast(tt, x)
                }
            }
        }
    }

    fn vector_cast(&mut self, op: CastOp, from: Ty, to: Ty, x: Value) -> Value {
        let tt = clif_type(to);
        let lane = tt.lane_type();
        match op {
            CastOp::ZExt if from.element() == Ty::I1 => {
                let one = self.b.ins().iconst(lane, 1);
                let ones = self.b.ins().splat(tt, one);
                self.b.ins().band(x, ones)
            }
            CastOp::SExt if from.element() == Ty::I1 => x,
            CastOp::Trunc if to.element() == Ty::I1 => self.low_bit_mask(x),
            // To i1 lanes: convert to i32 lanes, then keep the low bit as a lane mask.
            CastOp::FpToSi | CastOp::FpToUi if to.element() == Ty::I1 => {
                let v = if op == CastOp::FpToSi {
                    self.b.ins().fcvt_to_sint_sat(I32X4, x)
                } else {
                    self.b.ins().fcvt_to_uint_sat(I32X4, x)
                };
                self.low_bit_mask(v)
            }
            CastOp::FpToSi => self.b.ins().fcvt_to_sint_sat(tt, x),
            CastOp::FpToUi => self.b.ins().fcvt_to_uint_sat(tt, x),
            // From i1 lanes: a true lane (all ones) is -1 signed and 1 unsigned.
            CastOp::UiToFp if from.element() == Ty::I1 => {
                let one = self.b.ins().iconst(I32, 1);
                let ones = self.b.ins().splat(I32X4, one);
                let v = self.b.ins().band(x, ones);
                self.b.ins().fcvt_from_sint(tt, v)
            }
            CastOp::SiToFp => self.b.ins().fcvt_from_sint(tt, x),
            CastOp::UiToFp => self.b.ins().fcvt_from_uint(tt, x),
            _ => {
                if clif_type(from) == tt {
                    x
                } else {
                    self.bitcast(tt, x)
                }
            }
        }
    }

    fn compare(&mut self, pred: Pred, t: Ty, a: Value, c: Value) -> Value {
        let n = pred.0;
        if pred.is_integer() {
            let cc = match n {
                32 => IntCC::Equal,
                33 => IntCC::NotEqual,
                34 => IntCC::UnsignedGreaterThan,
                35 => IntCC::UnsignedGreaterThanOrEqual,
                36 => IntCC::UnsignedLessThan,
                37 => IntCC::UnsignedLessThanOrEqual,
                38 => IntCC::SignedGreaterThan,
                39 => IntCC::SignedGreaterThanOrEqual,
                40 => IntCC::SignedLessThan,
                _ => IntCC::SignedLessThanOrEqual,
            };
            return self.b.ins().icmp(cc, a, c);
        }
        let cc = match n {
            1 => Some(FloatCC::Equal),
            2 => Some(FloatCC::GreaterThan),
            3 => Some(FloatCC::GreaterThanOrEqual),
            4 => Some(FloatCC::LessThan),
            5 => Some(FloatCC::LessThanOrEqual),
            6 => Some(FloatCC::OrderedNotEqual),
            7 => Some(FloatCC::Ordered),
            8 => Some(FloatCC::Unordered),
            9 => Some(FloatCC::UnorderedOrEqual),
            10 => Some(FloatCC::UnorderedOrGreaterThan),
            11 => Some(FloatCC::UnorderedOrGreaterThanOrEqual),
            12 => Some(FloatCC::UnorderedOrLessThan),
            13 => Some(FloatCC::UnorderedOrLessThanOrEqual),
            14 => Some(FloatCC::NotEqual),
            _ => None,
        };
        match cc {
            // Cranelift's x86 backend has no vector `one` and `ueq`: build them from the
            // predicates it has.
            Some(FloatCC::OrderedNotEqual) if t.is_vector() => {
                let ordered = self.b.ins().fcmp(FloatCC::Ordered, a, c);
                let ne = self.b.ins().fcmp(FloatCC::NotEqual, a, c);
                self.b.ins().band(ordered, ne)
            }
            Some(FloatCC::UnorderedOrEqual) if t.is_vector() => {
                let unordered = self.b.ins().fcmp(FloatCC::Unordered, a, c);
                let eq = self.b.ins().fcmp(FloatCC::Equal, a, c);
                self.b.ins().bor(unordered, eq)
            }
            Some(cc) => self.b.ins().fcmp(cc, a, c),
            None => {
                // `false` (0) and `true` (15).
                let result = clif_type(t.compare_result());
                let v = if n == 15 { -1 } else { 0 };
                if result.is_vector() {
                    let lane = self.b.ins().iconst(result.lane_type(), v);
                    self.b.ins().splat(result, lane)
                } else {
                    self.b.ins().iconst(I8, v & 1)
                }
            }
        }
    }

    fn alloca(&mut self, size: Value, align: u32) -> Value {
        let vmctx = self.vmctx();
        let sp = self.b.ins().load(I32, trusted(), vmctx, abi::VMCTX_GUEST_SP);
        let limit = self.b.ins().load(I32, trusted(), vmctx, abi::VMCTX_GUEST_STACK_LIMIT);
        let sp64 = self.b.ins().uextend(I64, sp);
        let size64 = self.b.ins().uextend(I64, size);
        let new = self.b.ins().isub(sp64, size64);
        let new = self.b.ins().band_imm_s(new, -i64::from(align));
        let limit64 = self.b.ins().uextend(I64, limit);
        let low = self.b.ins().icmp(IntCC::SignedLessThan, new, limit64);
        self.b.ins().trapnz(low, TrapKind::GuestStackOverflow.code());
        let new32 = self.b.ins().ireduce(I32, new);
        self.b.ins().store(trusted(), new32, vmctx, abi::VMCTX_GUEST_SP);
        new32
    }

    fn switch(
        &mut self,
        k: usize,
        ty: Ty,
        cond: Value,
        default: u32,
        cases: &[pnacl_bitcode::ir::SwitchCase],
    ) -> Result<(), String> {
        let bits = clif_type(ty).bits();
        let mask: u128 = if bits >= 64 { u64::MAX as u128 } else { (1u128 << bits) - 1 };
        let mut sw = Switch::new();
        // An edge block per target that has phis (the switch cannot pass arguments); it is
        // filled once the switch has ended the current block.
        let mut edge: HashMap<u32, Block> = HashMap::new();
        let mut pending = Vec::new();
        let mut targets = vec![default];
        targets.extend(cases.iter().map(|c| c.target));
        for &t in &targets {
            if edge.contains_key(&t) {
                continue;
            }
            let dest = self.target(t)?;
            let blk = if self.has_phis(t) {
                let e = self.b.create_block();
                pending.push((e, t, dest));
                e
            } else {
                dest
            };
            edge.insert(t, blk);
        }
        let mut used = std::collections::HashSet::new();
        for c in cases {
            let v = (decode_sign_rotated(c.raw) as i128 as u128) & mask;
            if used.insert(v) {
                sw.set_entry(v, edge[&c.target]);
            }
        }
        sw.emit(&mut self.b, cond, edge[&default]);
        for (e, t, dest) in pending {
            self.b.switch_to_block(e);
            let args = self.edge_args(k, t)?;
            self.b.ins().jump(dest, &args);
        }
        Ok(())
    }

    fn indirect_call(&mut self, callee: Value, ret: Ty, args: &[ValueId]) -> Result<Option<Value>, String> {
        let params: Vec<Ty> = args.iter().map(|&a| self.ty(a)).collect();
        let sig_id = self.env.sigs.id(ret, &params).ok_or("indirect call signature not numbered")?;
        let config = self.env.config;
        // The value must be a table index shifted left, for an index in 1..len.
        let low = self.b.ins().band_imm_s(callee, (1 << abi::FUNCTION_VALUE_SHIFT) - 1);
        self.b.ins().trapnz(low, TrapKind::BadCallTarget.code());
        let index = self.b.ins().ushr_imm_s(callee, i64::from(abi::FUNCTION_VALUE_SHIFT));
        let from1 = self.b.ins().iadd_imm_s(index, -1);
        let inside = self.b.ins().icmp_imm_s(IntCC::UnsignedLessThan, from1, i64::from(config.table_len) - 1);
        self.b.ins().trapz(inside, TrapKind::BadCallTarget.code());
        let index64 = self.b.ins().uextend(I64, index);
        let offset = self.b.ins().ishl_imm_s(index64, i64::from(abi::ENTRY_SHIFT));
        let table = self.b.ins().iconst(I64, config.table_addr as i64);
        let entry = self.b.ins().iadd(table, offset);
        let sig = self.b.ins().load(I32, trusted(), entry, abi::ENTRY_SIG);
        let same = self.b.ins().icmp_imm_s(IntCC::Equal, sig, i64::from(sig_id));
        self.b.ins().trapz(same, TrapKind::BadSignature.code());
        let code = self.b.ins().load(I64, trusted(), entry, abi::ENTRY_CODE);
        let key = (ret, params.clone());
        let sigref = match self.sigrefs.get(&key) {
            Some(&s) => s,
            None => {
                let s = self.b.import_signature(guest_signature(self.env.call_conv, ret, &params));
                self.sigrefs.insert(key, s);
                s
            }
        };
        let mut a = vec![self.vmctx()];
        for &v in args {
            a.push(self.get(v)?);
        }
        let call = self.b.ins().call_indirect(sigref, code, &a);
        Ok(self.b.inst_results(call).first().copied())
    }

    /// The integer value of a constant operand.
    fn const_int(&self, v: ValueId) -> Option<i64> {
        match self.space.kind(v) {
            ValueKind::Const(i) => self.body.constants.get(i as usize)?.value.as_int(),
            _ => None,
        }
    }

    fn intrinsic_call(&mut self, intr: &Intrinsic, args: &[ValueId]) -> Result<Option<Value>, String> {
        let mut a = Vec::with_capacity(args.len());
        for &v in args {
            a.push(self.get(v)?);
        }
        let ty = intr.overload.map(clif_type);
        Ok(match intr.kind {
            K::Bswap => Some(self.b.ins().bswap(a[0])),
            K::Ctlz => Some(self.b.ins().clz(a[0])),
            K::Cttz => Some(self.b.ins().ctz(a[0])),
            K::Ctpop => Some(self.b.ins().popcnt(a[0])),
            K::Fabs => Some(self.b.ins().fabs(a[0])),
            K::Sqrt => Some(self.b.ins().sqrt(a[0])),
            K::ReadTp => {
                let vmctx = self.vmctx();
                Some(self.b.ins().load(I32, trusted(), vmctx, abi::VMCTX_TP))
            }
            K::StackSave => {
                let vmctx = self.vmctx();
                Some(self.b.ins().load(I32, trusted(), vmctx, abi::VMCTX_GUEST_SP))
            }
            K::StackRestore => {
                let vmctx = self.vmctx();
                self.b.ins().store(trusted(), a[0], vmctx, abi::VMCTX_GUEST_SP);
                None
            }
            K::Trap => {
                self.trap(TrapKind::Trap);
                // The block goes on in the bitcode (normally with unreachable).
                let cont = self.b.create_block();
                self.b.switch_to_block(cont);
                None
            }
            K::Setjmp => {
                let vmctx = self.vmctx();
                let slot = self.token_slot.ok_or("setjmp outside setjmp mode")?;
                let token = self.b.ins().stack_load(I64, I64, slot, 0);
                self.set_host_caller(vmctx);
                let buf = self.call_host(HostFn::SjljRegister, &[vmctx, a[0], token])[0];
                Some(self.call_host(HostFn::Setjmp, &[buf])[0])
            }
            K::Longjmp => {
                let vmctx = self.vmctx();
                self.set_host_caller(vmctx);
                self.call_host(HostFn::Longjmp, &[vmctx, a[0], a[1]]);
                self.trap(TrapKind::BadLongjmp);
                let cont = self.b.create_block();
                self.b.switch_to_block(cont);
                None
            }
            K::AtomicLoad => {
                let addr = self.atomic_addr(a[0]);
                Some(self.b.ins().atomic_load(ty.expect("typed"), heap(), addr))
            }
            K::AtomicStore => {
                let addr = self.atomic_addr(a[1]);
                // On x86 every store is a release store; only a sequentially consistent one
                // needs more, and a locked exchange is cheaper than a store and a fence.
                if !TOTAL_STORE_ORDER {
                    self.b.ins().atomic_store(heap(), a[0], addr);
                } else if self.const_int(args[2]) == Some(ORDER_SEQ_CST) {
                    let t = self.b.func.dfg.value_type(a[0]);
                    self.read_modify_write(t, addr, Rmw::Op(AtomicRmwOp::Xchg, a[0]));
                } else {
                    self.b.ins().store(heap(), a[0], addr, 0);
                }
                None
            }
            K::AtomicRmw => {
                let op = match self.const_int(args[0]) {
                    Some(1) => AtomicRmwOp::Add,
                    Some(2) => AtomicRmwOp::Sub,
                    Some(3) => AtomicRmwOp::Or,
                    Some(4) => AtomicRmwOp::And,
                    Some(5) => AtomicRmwOp::Xor,
                    Some(6) => AtomicRmwOp::Xchg,
                    _ => return Err("atomic rmw operation is not a constant from 1 to 6".into()),
                };
                let addr = self.atomic_addr(a[1]);
                Some(self.read_modify_write(ty.expect("typed"), addr, Rmw::Op(op, a[2])))
            }
            K::AtomicCmpxchg => {
                let addr = self.atomic_addr(a[0]);
                Some(self.read_modify_write(ty.expect("typed"), addr, Rmw::Cas(a[1], a[2])))
            }
            K::AtomicFence | K::AtomicFenceAll => {
                // Only a sequentially consistent fence orders anything x86 does not already
                // order (Cranelift never moves memory accesses across one another).
                if !TOTAL_STORE_ORDER
                    || intr.kind == K::AtomicFenceAll
                    || self.const_int(args[0]) == Some(ORDER_SEQ_CST)
                {
                    self.b.ins().fence();
                }
                None
            }
            K::AtomicIsLockFree => {
                let free = matches!(self.const_int(args[0]), Some(1 | 2 | 4 | 8));
                Some(self.b.ins().iconst(I8, i64::from(free)))
            }
            K::Memcpy | K::Memmove | K::Memset => {
                let h = match intr.kind {
                    K::Memcpy => HostFn::Memcpy,
                    K::Memmove => HostFn::Memmove,
                    _ => HostFn::Memset,
                };
                let vmctx = self.vmctx();
                let second = if intr.kind == K::Memset { self.b.ins().uextend(I32, a[1]) } else { a[1] };
                self.set_host_caller(vmctx);
                self.call_host(h, &[vmctx, a[0], second, a[2]]);
                None
            }
        })
    }

    /// An atomic read-modify-write. While the guest has a single thread nobody can observe
    /// the difference between a locked instruction and a plain load and store, which cost
    /// far less; the thread context says which applies (it changes only when the one
    /// thread starts another, outside translated code).
    fn read_modify_write(&mut self, t: Type, addr: Value, rmw: Rmw) -> Value {
        let vmctx = self.vmctx();
        let shared = self.b.ins().load(I32, trusted(), vmctx, abi::VMCTX_THREADS_STARTED);
        let (locked, plain, join) = (self.b.create_block(), self.b.create_block(), self.b.create_block());
        self.b.append_block_param(join, t);
        self.b.ins().brif(shared, locked, &[], plain, &[]);
        self.b.switch_to_block(locked);
        let old = match rmw {
            Rmw::Op(op, x) => self.b.ins().atomic_rmw(t, heap(), op, addr, x),
            Rmw::Cas(expected, desired) => self.b.ins().atomic_cas(heap(), addr, expected, desired),
        };
        self.b.ins().jump(join, &[BlockArg::Value(old)]);
        self.b.switch_to_block(plain);
        let old = self.b.ins().load(t, heap(), addr, 0);
        let new = match rmw {
            Rmw::Op(AtomicRmwOp::Add, x) => self.b.ins().iadd(old, x),
            Rmw::Op(AtomicRmwOp::Sub, x) => self.b.ins().isub(old, x),
            Rmw::Op(AtomicRmwOp::Or, x) => self.b.ins().bor(old, x),
            Rmw::Op(AtomicRmwOp::And, x) => self.b.ins().band(old, x),
            Rmw::Op(AtomicRmwOp::Xor, x) => self.b.ins().bxor(old, x),
            Rmw::Op(_, x) => x,
            Rmw::Cas(expected, desired) => {
                // A failed compare-exchange still writes (the old value), like the locked one.
                let same = self.b.ins().icmp(IntCC::Equal, old, expected);
                self.b.ins().select(same, desired, old)
            }
        };
        self.b.ins().store(heap(), new, addr, 0);
        self.b.ins().jump(join, &[BlockArg::Value(old)]);
        self.b.switch_to_block(join);
        self.b.block_params(join)[0]
    }

    fn atomic_addr(&mut self, p: Value) -> Value {
        let p64 = self.b.ins().uextend(I64, p);
        let base = self.base();
        self.b.ins().iadd(base, p64)
    }
}

/// An atomic read-modify-write operation.
#[derive(Clone, Copy)]
enum Rmw {
    /// An arithmetic, logical or exchange operation with its operand.
    Op(AtomicRmwOp, Value),
    /// Compare-exchange: expected and desired values.
    Cas(Value, Value),
}
