//! Loads, stores, the guest stack (allocas, the frame, its restore at return) and the
//! function prologue.
//!
//! Allocas of constant size in the entry block make one frame, allocated in the prologue
//! (one stack check); each is the frame base plus an offset, computed where it is used.
//! Other allocas move the stack pointer (the `sp` global) at run time. Either traps with
//! "guest stack exhausted" below the thread's stack limit (`stack_limit`). Returning
//! restores the stack pointer the function started with.
//!
//! An address `p + C` computed only for the access (a constant `C` below 64 KiB) becomes
//! the access's offset, as in any wasm compiler's output: V8's baseline tier, which runs a
//! function called once (a benchmark's `main`) to its end, emits the addition otherwise.
//! wasm adds the offset without wrapping where PNaCl's address arithmetic wraps at 2**32;
//! the two differ only if `p + C` wraps, where PNaCl's address is in the null page (below
//! `C`) and the access traps under `pnacl run`: wasm's sum is then past the memory's end,
//! so the access traps as well ("memory access out of bounds"), where unfolded it would
//! read the zeros there. With `--checked`, nothing is folded (the check is of the whole
//! address), and an access below 64 KiB (the null page) traps.

use super::Func;
use crate::cfg::{DomTree, Graph, NodeId, NodeKind};
use crate::error::Refusal;
use crate::layout::NULL_PAGE_END;
use crate::module::{GLOBAL_SP, GLOBAL_STACK_LIMIT, Helper};
use pnacl_bitcode::ir::{BinOp, Inst, Ty, ValueId, ValueKind};
use wasm_encoder::{BlockType, MemArg, MemArgTarget, ValType};

/// A function's frame on the guest stack.
pub(crate) struct Frame {
    /// The local holding the stack pointer at entry.
    saved: u32,
    /// The local holding the frame base (if there are static allocas).
    base: Option<u32>,
    /// The frame offset of each instruction that is a static alloca, by instruction index
    /// (`u32::MAX` for the others): looked up at every use of a value, so a table rather
    /// than a search.
    offsets: Vec<u32>,
    /// The frame's size and alignment.
    size: u32,
    align: u32,
    /// Where the frame is allocated, when not in the prologue: the nearest common
    /// dominator of its uses (not in a loop), so that a path that does not need it does
    /// not allocate it, as under `pnacl run`.
    pub at: Option<NodeId>,
}

/// A memory argument at offset 0 with alignment `align` bytes (at most the natural one).
pub(crate) fn memarg(align: u32, natural: u32) -> MemArg {
    let a = align.clamp(1, natural.max(1));
    MemArg { offset: 0, align: a.trailing_zeros(), target: MemArgTarget::Memory(0), ordering: None }
}

impl Func<'_, '_> {
    /// The frame offset of instruction `i` if it is a static alloca.
    pub(super) fn static_alloca(&self, i: usize) -> Option<u32> {
        let f = self.frame.as_ref()?;
        f.offsets.get(i).copied().filter(|&off| off != u32::MAX)
    }

    /// Pushes the frame base plus `off`.
    pub(super) fn frame_address(&mut self, off: u32) {
        let base = self.frame.as_ref().and_then(|f| f.base).unwrap_or(0);
        let mut s = self.sink();
        s.local_get(base);
        if off != 0 {
            s.i32_const(off as i32).i32_add();
        }
    }

    /// The constant value of `v`, if it is an integer constant.
    pub(super) fn const_int(&self, v: ValueId) -> Option<i64> {
        match self.space.kind(v) {
            ValueKind::Const(c) => self.body.constants.get(c as usize)?.value.as_int(),
            _ => None,
        }
    }

    /// The prologue: the frame, setjmp's state and its `loop` and `try`.
    pub(super) fn prologue(&mut self, g: &Graph, dom: &DomTree) -> Result<(), Refusal> {
        let mut offsets = Vec::new();
        let (mut total, mut max_align) = (0u64, 1u32);
        let (mut any, mut dynamic) = (false, false);
        let entry = self.body.block_insts(0);
        for (i, inst) in self.body.insts.iter().enumerate() {
            if self.is_stack_restore(inst) {
                dynamic = true;
            }
            let Inst::Alloca { size, align } = *inst else { continue };
            any = true;
            dynamic |= self.const_int(size).is_none() || !entry.contains(&i);
            let Some(n) = self.const_int(size).filter(|_| entry.contains(&i)) else { continue };
            let a = align.bytes().max(1);
            let off = total.div_ceil(u64::from(a)) * u64::from(a);
            total = off + (n as u64 & 0xffff_ffff);
            max_align = max_align.max(a);
            offsets.push((i as u32, off as u32));
        }
        let total = total.div_ceil(u64::from(max_align)) * u64::from(max_align);
        if total > (1 << 30) {
            return Err(Refusal::internal(self, "a stack frame larger than 1 GiB"));
        }
        if any {
            let saved = self.new_local(ValType::I32);
            self.sink().global_get(GLOBAL_SP).local_set(saved);
            let base = (!offsets.is_empty()).then(|| self.new_local(ValType::I32));
            // The frame is computed from the stack pointer at entry, so it may be allocated
            // later only if nothing else moves the stack pointer (a dynamic alloca made
            // before it would lie in it) and no setjmp re-enters the function.
            let movable = !offsets.is_empty() && !dynamic && g.setjmps.is_empty();
            let mut by_inst = Vec::new();
            if !offsets.is_empty() {
                by_inst = vec![u32::MAX; self.body.insts.len()];
                for &(i, off) in &offsets {
                    by_inst[i as usize] = off;
                }
            }
            let offsets = by_inst;
            let at = if movable { self.frame_place(g, dom, &offsets) } else { None };
            self.frame = Some(Frame { saved, base, offsets, size: total as u32, align: max_align, at });
            if at.is_none() && base.is_some() {
                self.allocate_frame();
            }
        }
        self.sjlj_prologue(g);
        Ok(())
    }

    /// True if `inst` calls `llvm.stackrestore`.
    fn is_stack_restore(&self, inst: &Inst) -> bool {
        matches!(*inst, Inst::Call { callee, indirect_ret: None, .. }
            if self.env.intrinsic(callee.0).is_some_and(|i| i.kind == pnacl_bitcode::abi::IntrinsicKind::StackRestore))
    }

    /// Allocates the static frame: the base from the stack pointer at entry (so doing it
    /// again, in a loop, changes nothing), checked against the stack limit.
    pub(super) fn allocate_frame(&mut self) {
        let Some(f) = &self.frame else { return };
        let (Some(base), saved, size, align) = (f.base, f.saved, f.size, f.align) else { return };
        let trap = self.env.helper(Helper::TrapStack);
        let mut s = self.sink();
        s.local_get(saved).global_get(GLOBAL_STACK_LIMIT).i32_sub().i32_const(size as i32).i32_lt_u();
        s.local_get(saved).i32_const(size as i32).i32_sub().i32_const(-(align as i32)).i32_and();
        s.local_tee(base).global_get(GLOBAL_STACK_LIMIT).i32_lt_u().i32_or();
        s.if_(BlockType::Empty).call(trap).end();
        s.local_get(base).global_set(GLOBAL_SP);
    }

    /// Where to allocate the static frame: `None` for the prologue, or the nearest common
    /// dominator of the static allocas' uses when that is not the entry and not in a loop.
    fn frame_place(&self, g: &Graph, dom: &DomTree, offsets: &[u32]) -> Option<NodeId> {
        let (rank, idom) = (&dom.rank, &dom.idom);
        let mut last_of_block = vec![u32::MAX; self.body.num_blocks as usize];
        for (x, node) in g.nodes.iter().enumerate() {
            if let NodeKind::Code { block, .. } = node.kind {
                last_of_block[block as usize] = x as u32;
            }
        }
        let first = self.space.first_inst();
        let is_frame_value = |v: pnacl_bitcode::ir::ValueId| {
            v.0.checked_sub(first)
                .and_then(|n| self.value_inst.get(n as usize))
                .is_some_and(|&i| offsets.get(i as usize).is_some_and(|&off| off != u32::MAX))
        };
        // The nearest common dominator of the nodes using a frame value (a phi's use is at
        // the end of the incoming block), visiting each node's instructions in place.
        let mut common: Option<NodeId> = None;
        let mut meet = |x: NodeId| {
            if x == u32::MAX || rank[x as usize] == u32::MAX {
                return;
            }
            common = Some(match common {
                None => x,
                Some(c) => {
                    let (mut a, mut b) = (c, x);
                    while a != b {
                        while rank[a as usize] > rank[b as usize] {
                            a = idom[a as usize];
                        }
                        while rank[b as usize] > rank[a as usize] {
                            b = idom[b as usize];
                        }
                    }
                    a
                }
            });
        };
        for (x, node) in g.nodes.iter().enumerate() {
            let NodeKind::Code { start, end, .. } = node.kind else { continue };
            for inst in &self.body.insts[start as usize..end as usize] {
                inst.for_each_operand(self.body, |v, incoming| {
                    if is_frame_value(v) {
                        meet(match incoming {
                            Some(b) => last_of_block.get(b as usize).copied().unwrap_or(u32::MAX),
                            None => x as u32,
                        });
                    }
                });
            }
        }
        let x = common?;
        if x == g.entry || in_cycle(g, x) {
            return None;
        }
        Some(x)
    }

    /// Restores the stack pointer before a return.
    pub(super) fn epilogue(&mut self) {
        if let Some(saved) = self.frame.as_ref().map(|f| f.saved) {
            self.sink().local_get(saved).global_set(GLOBAL_SP);
        }
    }

    /// An alloca that moves the stack pointer at run time (trapping if the size does not
    /// fit between it and the limit).
    pub(super) fn dynamic_alloca(&mut self, size: ValueId, align: u32) -> Result<(), Refusal> {
        let (new, old, n) = (self.temp(ValType::I32), self.temp(ValType::I32), self.temp(ValType::I32));
        self.push(size)?;
        let trap = self.env.helper(Helper::TrapStack);
        let a = align.max(1) as i32;
        let mut s = self.sink();
        s.local_set(n).global_get(GLOBAL_SP).local_set(old);
        s.local_get(old).global_get(GLOBAL_STACK_LIMIT).i32_sub().local_get(n).i32_lt_u();
        s.local_get(old).local_get(n).i32_sub().i32_const(-a).i32_and();
        s.local_tee(new).global_get(GLOBAL_STACK_LIMIT).i32_lt_u().i32_or();
        s.if_(BlockType::Empty).call(trap).end();
        s.local_get(new).global_set(GLOBAL_SP).local_get(new);
        for t in [new, old, n] {
            self.free_temp(ValType::I32, t);
        }
        Ok(())
    }

    /// Pushes an address for an access (checked against the null page with `--checked`).
    pub(super) fn push_address(&mut self, ptr: ValueId) -> Result<(), Refusal> {
        self.push(ptr)?;
        if self.env.checked {
            self.null_check();
        }
        Ok(())
    }

    /// Traps if the address on the stack is below 64 KiB (leaving it there).
    pub(super) fn null_check(&mut self) {
        let t = self.temp(ValType::I32);
        let trap = self.env.helper(Helper::TrapNull);
        let mut s = self.sink();
        s.local_tee(t).i32_const(crate::layout::NULL_PAGE_END as i32).i32_lt_u();
        s.if_(BlockType::Empty).call(trap).end().local_get(t);
        self.free_temp(ValType::I32, t);
    }

    /// Pushes the address of a load or store, less the constant it adds (see the module's
    /// comment), which it returns for the access's offset.
    fn push_access_address(&mut self, ptr: ValueId) -> Result<u64, Refusal> {
        if !self.env.checked
            && let ValueKind::Inst(n) = self.space.kind(ptr)
            && self.stacked.get(n as usize).copied().unwrap_or(false)
            && let Some(&i) = self.value_inst.get(n as usize)
            && let Inst::Binop { op: BinOp::Add, lhs, rhs, .. } = self.body.insts[i as usize]
            && self.ty(ptr) == Ty::I32
            && let Some(c) = self.const_int(rhs).filter(|c| (0..NULL_PAGE_END as i64).contains(c))
        {
            self.push(lhs)?;
            return Ok(c as u64);
        }
        self.push_address(ptr)?;
        Ok(0)
    }

    pub(super) fn load(&mut self, ptr: ValueId, ty: Ty, align: u32) -> Result<(), Refusal> {
        let offset = self.push_access_address(ptr)?;
        self.load_op(ty, |natural| MemArg { offset, ..memarg(align, natural) });
        Ok(())
    }

    /// The load of a `ty` from the address on the stack (narrow integers zero-extended to
    /// `i32`), with the memory argument `at(its natural size)`.
    pub(super) fn load_op(&mut self, ty: Ty, at: impl Fn(u32) -> MemArg) {
        let mut s = self.sink();
        match ty {
            Ty::I1 | Ty::I8 => s.i32_load8_u(at(1)),
            Ty::I16 => s.i32_load16_u(at(2)),
            Ty::I32 => s.i32_load(at(4)),
            Ty::I64 => s.i64_load(at(8)),
            Ty::Float => s.f32_load(at(4)),
            Ty::Double => s.f64_load(at(8)),
            _ => s.v128_load(at(16)),
        };
    }

    pub(super) fn store(&mut self, ptr: ValueId, val: ValueId, align: u32) -> Result<(), Refusal> {
        let offset = self.push_access_address(ptr)?;
        self.push(val)?;
        self.store_op(self.ty(val), |natural| MemArg { offset, ..memarg(align, natural) });
        Ok(())
    }

    /// The store of the `ty` on the stack to the address under it, with the memory
    /// argument `at(its natural size)`.
    pub(super) fn store_op(&mut self, ty: Ty, at: impl Fn(u32) -> MemArg) {
        let mut s = self.sink();
        match ty {
            Ty::I1 | Ty::I8 => s.i32_store8(at(1)),
            Ty::I16 => s.i32_store16(at(2)),
            Ty::I32 => s.i32_store(at(4)),
            Ty::I64 => s.i64_store(at(8)),
            Ty::Float => s.f32_store(at(4)),
            Ty::Double => s.f64_store(at(8)),
            _ => s.v128_store(at(16)),
        };
    }
}

/// True if node `x` lies on a cycle (it can reach itself).
fn in_cycle(g: &Graph, x: NodeId) -> bool {
    let mut seen = vec![false; g.nodes.len()];
    let mut stack: Vec<NodeId> = g.nodes[x as usize].succ.iter().map(|e| e.to).collect();
    while let Some(y) = stack.pop() {
        if y == x {
            return true;
        }
        if !std::mem::replace(&mut seen[y as usize], true) {
            stack.extend(g.nodes[y as usize].succ.iter().map(|e| e.to));
        }
    }
    false
}
