//! One function: PNaCl IR to a wasm function body.
//!
//! The body's control-flow graph ([`crate::cfg`], made reducible by
//! [`crate::irreducible`]) is emitted as structured code by [`structure`]; each node's
//! instructions by the modules beside it. Values live in locals (phis included: each
//! edge assigns the phis of the block it leads to), except those [`stackify`] leaves on
//! the wasm stack, and constants, global and function addresses and static allocas,
//! which are materialised at each use.
//!
//! `i1`, `i8` and `i16` values are `i32`s whose bits above their width are unspecified:
//! operations that read those bits (division, comparison, right shifts, extensions,
//! conditions) clear or extend them first, unless the value is known to be clean (zero
//! above its width: compares, narrow loads, zero extensions).

mod calls;
mod control;
mod intrinsics;
mod memory;
mod ops;
mod stackify;
mod structure;
mod vector;

use crate::cfg::Graph;
use crate::error::Refusal;
use crate::irreducible;
use crate::module::{Env, val_type};
use pnacl_bitcode::abi::IntrinsicKind as K;
use pnacl_bitcode::ir::{ConstValue, FunctionBody, Inst, Signature, Ty, ValueId, ValueKind, ValueSpace};
use stackify::MANY;
use wasm_encoder::{InstructionSink, ValType};

const NONE: u32 = u32::MAX;

/// A translated function: its locals (after the parameters) and its instructions.
pub struct Body {
    /// Types of the locals after the parameters.
    pub locals: Vec<ValType>,
    /// The instructions, `end` included.
    pub code: Vec<u8>,
    /// The wasm indices of the defined functions it calls directly, one per call (for
    /// [`call_sites`]).
    pub direct_calls: Vec<u32>,
    /// The code ends with an `unreachable` that only closes the structure: every path
    /// before it returns (for the inliner, which may drop it).
    pub closing_unreachable: bool,
    /// How deeply its loops nest: 0 without a loop, 1 with loops none of which is inside
    /// another, and so on (for the compilation hints).
    pub loop_nesting: u32,
}

/// The state of one function's translation.
pub(crate) struct Func<'e, 'm> {
    pub env: &'e Env<'m>,
    /// The function, `@fN`.
    pub f: u32,
    pub body: &'m FunctionBody,
    pub space: ValueSpace,
    pub sig: &'m Signature,
    /// The instructions so far.
    pub out: Vec<u8>,
    /// Types of the locals after the parameters.
    locals: Vec<ValType>,
    /// Per instruction: the `%vN` it defines, or `NONE`.
    pub inst_value: Vec<u32>,
    /// Per `%vN`: its instruction.
    pub value_inst: Vec<u32>,
    /// Per `%vN`: its local, or `NONE` (not allocated yet).
    local_of: Vec<u32>,
    /// Per `%vN`: number of uses ([`MANY`] if one is a phi's or the count overflows).
    pub uses: Vec<u32>,
    /// Per `%vN`: the instruction of its last use.
    pub use_at: Vec<u32>,
    /// Per `%vN`: computed at its (single) use.
    pub stacked: Vec<bool>,
    /// Per `%vN`: known to be zero above its width (narrow integers).
    pub clean: Vec<bool>,
    /// Free temporary locals by type.
    temps: Vec<(ValType, u32)>,
    /// The stack frame, if the function allocates on the guest stack.
    pub frame: Option<memory::Frame>,
    /// The local a dispatch reads.
    pub label_local: Option<u32>,
    /// setjmp state, if the function calls setjmp.
    pub sjlj: Option<intrinsics::Sjlj>,
    /// The structured-control context, innermost last.
    pub ctx: Vec<structure::Ctx>,
    /// The last instruction emitted transfers control (nothing after it runs).
    pub terminated: bool,
    /// [`Func::stackify`]'s work arrays.
    scratch: stackify::Scratch,
    /// The structurer's work stack (kept, like the arrays above, for the next function).
    work: Vec<structure::Work>,
    /// The locals an edge's phi copies store to (kept to spare an allocation per edge).
    phi_stores: Vec<u32>,
    /// Where the last `br 0` starts, if it was the last instruction emitted.
    pub last_br0: Option<usize>,
    /// The defined functions called directly, by wasm index.
    pub direct_calls: Vec<u32>,
    /// The deepest nesting of the loops emitted so far ([`Body::loop_nesting`]).
    pub loop_nesting: u32,
}

/// How many direct calls each of `bodies` (the defined functions, in order from wasm index
/// `first`) receives from all of them: the inliner reads only functions something calls,
/// and the compilation hints favour functions called from few places.
pub(crate) fn call_sites(bodies: &[Body], first: u32) -> Vec<u32> {
    let mut sites = vec![0u32; bodies.len()];
    for body in bodies {
        for &callee in &body.direct_calls {
            if let Some(n) = callee.checked_sub(first).and_then(|k| sites.get_mut(k as usize)) {
                *n += 1;
            }
        }
    }
    sites
}

/// Translates function `f` (which has a body).
pub(crate) fn translate(env: &Env<'_>, f: u32) -> Result<Body, Refusal> {
    let m = env.m;
    let original = m.functions[f as usize].body.as_deref().expect("defined functions have bodies");
    let reduced = crate::cse::eliminate(m, f, original);
    let body = reduced.as_ref().unwrap_or(original);
    let mut t = Func::new(env, f, body);
    let mut g = SPARE_GRAPH.with(|c| c.take());
    g.rebuild(body, |i| t.is_setjmp(i));
    // The dominator tree serves the reducibility check, the frame's placement and the
    // structurer alike; only a graph made reducible (new nodes) needs it again.
    let mut dom = SPARE_DOM.with(|c| c.take());
    dom.compute(&g);
    if !irreducible::is_reducible_with(&g, &dom) {
        irreducible::make_reducible(&mut g);
        dom.compute(&g);
    }
    t.prologue(&g, &dom)?;
    t.structure(&g, &dom)?;
    t.close_sjlj();
    let closing_unreachable = !t.terminated;
    if closing_unreachable {
        t.sink().unreachable();
    }
    t.sink().end();
    SPARE_GRAPH.with(|c| c.set(g));
    SPARE_DOM.with(|c| c.set(dom));
    Ok(t.finish(closing_unreachable))
}

/// The per-function arrays of a [`Func`], kept by each thread from one function to the
/// next: a module has many small functions (supernet_api: 11,239 of 50 instructions on
/// average), for which allocating and freeing them cost as much as the translation.
#[derive(Default)]
struct Spare {
    inst_value: Vec<u32>,
    value_inst: Vec<u32>,
    local_of: Vec<u32>,
    uses: Vec<u32>,
    use_at: Vec<u32>,
    stacked: Vec<bool>,
    clean: Vec<bool>,
    temps: Vec<(ValType, u32)>,
    ctx: Vec<structure::Ctx>,
    scratch: stackify::Scratch,
    work: Vec<structure::Work>,
    phi_stores: Vec<u32>,
}

thread_local! {
    static SPARE: std::cell::Cell<Spare> = std::cell::Cell::new(Spare::default());
    /// The last function's graph, whose nodes' edge vectors the next one reuses.
    static SPARE_GRAPH: std::cell::Cell<Graph> = std::cell::Cell::new(Graph::default());
    /// The last function's dominator tree, whose arrays the next one reuses.
    static SPARE_DOM: std::cell::Cell<crate::cfg::DomTree> = std::cell::Cell::new(crate::cfg::DomTree::default());
}

impl<'e, 'm> Func<'e, 'm> {
    /// The translated body; the arrays go back to the thread's spares.
    fn finish(self, closing_unreachable: bool) -> Body {
        let spare = Spare {
            inst_value: self.inst_value,
            value_inst: self.value_inst,
            local_of: self.local_of,
            uses: self.uses,
            use_at: self.use_at,
            stacked: self.stacked,
            clean: self.clean,
            temps: self.temps,
            ctx: self.ctx,
            scratch: self.scratch,
            work: self.work,
            phi_stores: self.phi_stores,
        };
        SPARE.with(|c| c.set(spare));
        Body {
            locals: self.locals,
            code: self.out,
            direct_calls: self.direct_calls,
            closing_unreachable,
            loop_nesting: self.loop_nesting,
        }
    }

    fn new(env: &'e Env<'m>, f: u32, body: &'m FunctionBody) -> Self {
        let m = env.m;
        let values = body.values().len();
        let mut spare = SPARE.with(|c| c.take());
        // `refill` empties a spare array and fills it with `n` copies of `x`.
        fn refill<T: Copy>(mut v: Vec<T>, n: usize, x: T) -> Vec<T> {
            v.clear();
            v.resize(n, x);
            v
        }
        let mut inst_value = refill(spare.inst_value, body.insts.len(), NONE);
        let mut value_inst = spare.value_inst;
        value_inst.clear();
        for (i, inst) in body.insts.iter().enumerate() {
            if m.defines_value(inst) && value_inst.len() < values {
                inst_value[i] = value_inst.len() as u32;
                value_inst.push(i as u32);
            }
        }
        spare.temps.clear();
        spare.ctx.clear();
        let mut t = Func {
            env,
            f,
            body,
            space: m.value_space(f),
            sig: m.signature(f),
            // About 7 bytes of code per instruction: room for most functions at once.
            out: Vec::with_capacity(body.insts.len() * 8 + 16),
            // Most values that are not computed in place get a local.
            locals: Vec::with_capacity(values),
            inst_value,
            value_inst,
            local_of: refill(spare.local_of, values, NONE),
            uses: refill(spare.uses, values, 0),
            use_at: refill(spare.use_at, values, 0),
            stacked: refill(spare.stacked, values, false),
            clean: refill(spare.clean, values, false),
            temps: spare.temps,
            frame: None,
            label_local: None,
            sjlj: None,
            ctx: spare.ctx,
            terminated: false,
            last_br0: None,
            scratch: spare.scratch,
            work: spare.work,
            phi_stores: spare.phi_stores,
            direct_calls: Vec::new(),
            loop_nesting: 0,
        };
        t.count_uses();
        for (i, &n) in t.inst_value.iter().enumerate() {
            if n != NONE && t.body.values()[n as usize].bits() < 32 {
                t.clean[n as usize] = t.result_is_clean(i);
            }
        }
        t
    }

    /// Counts the uses of each instruction result.
    fn count_uses(&mut self) {
        let first = self.space.first_inst();
        for (i, inst) in self.body.insts.iter().enumerate() {
            let (uses, use_at) = (&mut self.uses, &mut self.use_at);
            inst.for_each_operand(self.body, |v, incoming| {
                let Some(n) = v.0.checked_sub(first) else { return };
                let Some(u) = uses.get_mut(n as usize) else { return };
                *u = if incoming.is_some() { MANY } else { u.saturating_add(1) };
                use_at[n as usize] = i as u32;
            });
        }
    }

    /// The instruction sink.
    pub fn sink(&mut self) -> InstructionSink<'_> {
        self.terminated = false;
        self.last_br0 = None;
        InstructionSink::new(&mut self.out)
    }

    /// The type of a value.
    pub fn ty(&self, v: ValueId) -> Ty {
        match self.space.kind(v) {
            ValueKind::Function(_) | ValueKind::Global(_) => Ty::I32,
            ValueKind::Param(i) | ValueKind::Const(i) | ValueKind::Inst(i) => {
                let k = match self.space.kind(v) {
                    ValueKind::Param(_) => i as usize,
                    ValueKind::Const(_) => self.body.num_params as usize + i as usize,
                    _ => self.body.num_params as usize + self.body.constants.len() + i as usize,
                };
                self.body.local_types.get(k).copied().unwrap_or(Ty::I32)
            }
        }
    }

    /// True if `inst` calls `llvm.nacl.setjmp`.
    fn is_setjmp(&self, inst: &Inst) -> bool {
        matches!(*inst, Inst::Call { callee, indirect_ret: None, .. }
            if self.env.intrinsic(callee.0).is_some_and(|i| i.kind == K::Setjmp))
    }

    /// A new local of type `t`.
    pub fn new_local(&mut self, t: ValType) -> u32 {
        self.locals.push(t);
        self.sig.params.len() as u32 + self.locals.len() as u32 - 1
    }

    /// A temporary local of type `t`; give it back with [`Func::free_temp`].
    pub fn temp(&mut self, t: ValType) -> u32 {
        match self.temps.iter().position(|&(ty, _)| ty == t) {
            Some(k) => self.temps.swap_remove(k).1,
            None => self.new_local(t),
        }
    }

    /// Gives a temporary back.
    pub fn free_temp(&mut self, t: ValType, l: u32) {
        self.temps.push((t, l));
    }

    /// The local of `%vN` (allocated on first use).
    pub fn local(&mut self, n: u32) -> u32 {
        if self.local_of[n as usize] == NONE {
            let t = val_type(self.body.values()[n as usize]);
            self.local_of[n as usize] = self.new_local(t);
        }
        self.local_of[n as usize]
    }

    /// True if a narrow integer value is known to be zero above its width.
    pub fn is_clean(&self, v: ValueId) -> bool {
        match self.space.kind(v) {
            ValueKind::Const(_) | ValueKind::Function(_) | ValueKind::Global(_) => true,
            ValueKind::Param(_) => self.ty(v).bits() >= 32,
            ValueKind::Inst(n) => self.clean.get(n as usize).copied().unwrap_or(false),
        }
    }

    /// Pushes a value (narrow integers possibly with junk above their width).
    pub fn push(&mut self, v: ValueId) -> Result<(), Refusal> {
        match self.space.kind(v) {
            ValueKind::Function(_) | ValueKind::Global(_) => {
                let a = self.env.layout.address(self.env.m, v);
                self.sink().i32_const(a as i32);
            }
            ValueKind::Param(i) => {
                self.sink().local_get(i);
            }
            ValueKind::Const(i) => {
                let c = self.body.constants.get(i as usize).copied();
                let (ty, value) = c.map_or((Ty::I32, ConstValue::Undef), |c| (c.ty, c.value));
                self.constant(ty, value);
            }
            ValueKind::Inst(n) => {
                let Some(&i) = self.value_inst.get(n as usize) else {
                    self.zero(self.ty(v));
                    return Ok(());
                };
                if let Some(off) = self.static_alloca(i as usize) {
                    self.frame_address(off);
                } else if self.stacked[n as usize] {
                    self.expr(i as usize)?;
                } else {
                    let l = self.local(n);
                    self.sink().local_get(l);
                }
            }
        }
        Ok(())
    }

    /// Pushes a narrow integer zero-extended (wider values as they are).
    pub fn push_zext(&mut self, v: ValueId) -> Result<(), Refusal> {
        self.push(v)?;
        let t = self.ty(v);
        if !self.is_clean(v) {
            self.mask(t);
        }
        Ok(())
    }

    /// Clears the bits of the `i32` on the stack above the width of `t` (narrow types).
    pub fn mask(&mut self, t: Ty) {
        let m = match t {
            Ty::I1 => 1,
            Ty::I8 => 0xff,
            Ty::I16 => 0xffff,
            _ => return,
        };
        self.sink().i32_const(m).i32_and();
    }

    /// Pushes a narrow integer sign-extended to 32 bits (wider values as they are).
    pub fn push_sext(&mut self, v: ValueId) -> Result<(), Refusal> {
        self.push(v)?;
        self.sext(self.ty(v));
        Ok(())
    }

    /// Sign-extends the narrow integer on the stack to 32 bits.
    pub fn sext(&mut self, t: Ty) {
        match t {
            Ty::I1 => {
                self.sink().i32_const(31).i32_shl().i32_const(31).i32_shr_s();
            }
            Ty::I8 => {
                self.sink().i32_extend8_s();
            }
            Ty::I16 => {
                self.sink().i32_extend16_s();
            }
            _ => {}
        }
    }

    /// Pushes a constant.
    pub fn constant(&mut self, ty: Ty, value: ConstValue) {
        let bits = match value {
            ConstValue::Undef => return self.zero(ty),
            ConstValue::Int(_) => value.as_int().unwrap_or(0) as u64,
            ConstValue::Float(b) => b,
        };
        let mut s = self.sink();
        match ty {
            Ty::I1 => s.i32_const((bits & 1) as i32),
            Ty::I8 => s.i32_const((bits & 0xff) as i32),
            Ty::I16 => s.i32_const((bits & 0xffff) as i32),
            Ty::I32 => s.i32_const(bits as i32),
            Ty::I64 => s.i64_const(bits as i64),
            Ty::Float => s.f32_const(f32::from_bits(bits as u32).into()),
            Ty::Double => s.f64_const(f64::from_bits(bits).into()),
            _ => s.v128_const(0),
        };
    }

    /// Pushes the zero of a type.
    pub fn zero(&mut self, ty: Ty) {
        let mut s = self.sink();
        match val_type(ty) {
            ValType::I64 => s.i64_const(0),
            ValType::F32 => s.f32_const(0.0.into()),
            ValType::F64 => s.f64_const(0.0.into()),
            ValType::V128 => s.v128_const(0),
            _ => s.i32_const(0),
        };
    }

    /// The refusal of instruction `i`.
    pub fn refuse(&self, i: usize, why: impl Into<String>) -> Refusal {
        let block = self.body.block_starts.partition_point(|&s| s as usize <= i).saturating_sub(1);
        let what = match self.inst_value.get(i) {
            Some(&v) if v != NONE => format!("%v{v} = {}", opcode(&self.body.insts[i])),
            _ => opcode(&self.body.insts[i]).to_string(),
        };
        Refusal { function: self.env.names[self.f as usize].clone(), at: format!("%b{block}: {what}"), why: why.into() }
    }

    /// Emits the instructions of `start..end` (one node), phis left out and the last one
    /// included only if it is not the block's terminator.
    pub fn code(&mut self, start: usize, end: usize) -> Result<(), Refusal> {
        self.stackify(start, end);
        for i in start..end {
            let inst = &self.body.insts[i];
            if inst.is_terminator() || matches!(inst, Inst::Phi { .. } | Inst::ForwardDecl { .. }) {
                continue;
            }
            let v = self.inst_value[i];
            if v != NONE && (self.stacked[v as usize] || self.static_alloca(i).is_some()) {
                continue;
            }
            // An unused pure instruction (one common-subexpression elimination replaced,
            // or dead in the pexe) computes nothing anyone reads.
            if v != NONE && self.uses[v as usize] == 0 && self.is_pure(i) {
                continue;
            }
            self.expr(i)?;
            if v != NONE {
                if self.uses[v as usize] == 0 {
                    self.sink().drop();
                } else {
                    let l = self.local(v);
                    self.sink().local_set(l);
                }
            }
        }
        Ok(())
    }
}

/// The opcode of an instruction, for messages.
fn opcode(inst: &Inst) -> &'static str {
    match inst {
        Inst::Binop { op, .. } => op.int_name(),
        Inst::Cast { op, .. } => op.name(),
        Inst::Cmp { .. } => "compare",
        Inst::Select { .. } => "select",
        Inst::ExtractElement { .. } => "extractelement",
        Inst::InsertElement { .. } => "insertelement",
        Inst::Alloca { .. } => "alloca",
        Inst::Load { .. } => "load",
        Inst::Store { .. } => "store",
        Inst::Ret { .. } => "ret",
        Inst::Br { .. } | Inst::CondBr { .. } => "br",
        Inst::Switch { .. } => "switch",
        Inst::Unreachable => "unreachable",
        Inst::Phi { .. } => "phi",
        Inst::Call { .. } => "call",
        Inst::ForwardDecl { .. } => "declare",
    }
}
