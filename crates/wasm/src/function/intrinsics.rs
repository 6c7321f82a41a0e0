//! The intrinsics: bit and float operations, the thread and stack pointers, atomics (wasm
//! threads' sequentially consistent instructions, which satisfy every PNaCl memory
//! order), the memory intrinsics (bulk memory, in helpers so a trap in them is named
//! "memory intrinsic out of bounds"), `llvm.trap`, and setjmp and longjmp.
//!
//! setjmp and longjmp use wasm exception handling (the legacy `try`/`catch`, which Node 20
//! has). A function that calls setjmp draws a token (a counter global) on entry, and runs
//! its body in `loop { try { ... } catch $longjmp { ... } }`. Its graph starts with a
//! dispatch on the label local: label 0 is the first block, label `k` the code after the
//! `k`th setjmp call. `setjmp(buf)` writes the token, `k` and the stack pointer to `buf`
//! and returns 0; `longjmp(buf, val)` throws `$longjmp(buf, val)`. A frame catching it
//! whose token is in `buf` restores the stack pointer, sets the label, makes `val` (1 for
//! 0) the setjmp's result and goes round the loop to the dispatch; any other frame
//! rethrows. A token is never reused, so a `buf` whose frame has returned matches no
//! frame: the exception reaches the host, which reports "longjmp to an invalid jmp_buf".

use super::Func;
use super::memory::memarg;
use super::structure::Ctx;
use crate::cfg::{Graph, NodeId};
use crate::error::Refusal;
use crate::module::{GLOBAL_LONGJMP_FROM, GLOBAL_SJLJ_NEXT, GLOBAL_SP, GLOBAL_TP, Helper, LONGJMP_TAG};
use pnacl_bitcode::abi::{Intrinsic, IntrinsicKind as K};
use pnacl_bitcode::ir::{Ty, ValueId};
use wasm_encoder::{BlockType, MemArg, MemArgTarget, ValType};

/// The state of a function that calls setjmp.
pub(crate) struct Sjlj {
    /// The local holding this activation's token.
    token: u32,
    /// The local a longjmp leaves its value in.
    value: u32,
    /// Each setjmp call's instruction and continuation node, in label order (from 1).
    calls: Vec<(NodeId, u32)>,
}

/// The width in bytes of an atomic access of `t`.
fn atomic_bytes(t: Ty) -> u32 {
    match t {
        Ty::I8 => 1,
        Ty::I16 => 2,
        Ty::I64 => 8,
        _ => 4,
    }
}

fn atomic_arg(bytes: u32, offset: u64) -> MemArg {
    MemArg { offset, align: bytes.trailing_zeros(), target: MemArgTarget::Memory(0), ordering: None }
}

impl Func<'_, '_> {
    pub(super) fn intrinsic(&mut self, i: usize, intr: &Intrinsic, args: &[ValueId]) -> Result<(), Refusal> {
        if args.len() < intr.params.len() {
            return Err(self.refuse(i, format!("too few arguments for {}", intr.name)));
        }
        let overload = intr.overload.unwrap_or(Ty::I32);
        let wide = overload == Ty::I64;
        match intr.kind {
            K::Bswap => {
                self.push(args[0])?;
                self.bswap(overload);
            }
            K::Ctlz | K::Cttz | K::Ctpop => {
                self.push(args[0])?;
                let mut s = self.sink();
                match (intr.kind, wide) {
                    (K::Ctlz, false) => s.i32_clz(),
                    (K::Ctlz, true) => s.i64_clz(),
                    (K::Cttz, false) => s.i32_ctz(),
                    (K::Cttz, true) => s.i64_ctz(),
                    (_, false) => s.i32_popcnt(),
                    (_, true) => s.i64_popcnt(),
                };
            }
            K::Fabs => {
                self.push(args[0])?;
                let mut s = self.sink();
                match overload {
                    Ty::Float => s.f32_abs(),
                    Ty::Double => s.f64_abs(),
                    _ => s.f32x4_abs(),
                };
            }
            K::Sqrt => {
                self.push(args[0])?;
                if overload == Ty::Float {
                    self.sink().f32_sqrt();
                } else {
                    self.sink().f64_sqrt();
                }
            }
            K::ReadTp => {
                self.sink().global_get(GLOBAL_TP);
            }
            K::StackSave => {
                self.sink().global_get(GLOBAL_SP);
            }
            K::StackRestore => {
                self.push(args[0])?;
                self.sink().global_set(GLOBAL_SP);
            }
            K::Trap => {
                let trap = self.env.helper(Helper::TrapLlvm);
                self.sink().call(trap);
            }
            K::Memcpy | K::Memmove | K::Memset => {
                for &a in &args[..3] {
                    self.push(a)?;
                }
                let h = match intr.kind {
                    K::Memcpy => Helper::Memcpy,
                    K::Memmove => Helper::Memmove,
                    _ => Helper::Memset,
                };
                let h = self.env.helper(h);
                self.sink().call(h);
            }
            K::Setjmp => self.setjmp(i, args[0])?,
            K::Longjmp => {
                let f = self.env.function_index(self.f);
                self.sink().i32_const(f as i32).global_set(GLOBAL_LONGJMP_FROM);
                self.push(args[0])?;
                self.push(args[1])?;
                self.sink().throw(LONGJMP_TAG);
                self.terminated = true;
            }
            K::AtomicLoad => {
                self.push_address(args[0])?;
                self.atomic_load(overload);
            }
            K::AtomicStore => {
                self.push_address(args[1])?;
                self.push(args[0])?;
                self.atomic_store(overload);
            }
            K::AtomicRmw => {
                let op = self.const_int(args[0]).ok_or_else(|| self.refuse(i, "an atomic operation not constant"))?;
                if !(1..=6).contains(&op) {
                    return Err(self.refuse(i, format!("atomic operation {op}")));
                }
                self.push_address(args[1])?;
                self.push(args[2])?;
                self.rmw(op, overload);
            }
            K::AtomicCmpxchg => {
                self.push_address(args[0])?;
                self.push_zext(args[1])?;
                self.push(args[2])?;
                if !self.env.shared {
                    self.single_agent_cmpxchg(overload);
                    return Ok(());
                }
                let mut s = self.sink();
                match overload {
                    Ty::I8 => s.i32_atomic_rmw8_cmpxchg_u(atomic_arg(1, 0)),
                    Ty::I16 => s.i32_atomic_rmw16_cmpxchg_u(atomic_arg(2, 0)),
                    Ty::I64 => s.i64_atomic_rmw_cmpxchg(atomic_arg(8, 0)),
                    _ => s.i32_atomic_rmw_cmpxchg(atomic_arg(4, 0)),
                };
            }
            K::AtomicFence | K::AtomicFenceAll => {
                if self.env.shared {
                    self.sink().atomic_fence(wasm_encoder::Ordering::SeqCst);
                }
            }
            K::AtomicIsLockFree => {
                let size = self.const_int(args[0]).ok_or_else(|| self.refuse(i, "a size not constant"))?;
                self.sink().i32_const(i32::from(matches!(size, 1 | 2 | 4 | 8)));
            }
        }
        Ok(())
    }

    /// A sequentially consistent load of `t` from the address on the stack. wasm's atomic
    /// accesses trap when not naturally aligned, where x86 (and so `pnacl run`) performs
    /// them: PNaCl makes every `volatile` access such an atomic, and C's packed structs
    /// put volatile fields at any address (csmith's programs do). An unaligned address
    /// gets a plain access between fences instead: the same value for one thread, though
    /// no longer indivisible against another thread's write.
    fn atomic_load(&mut self, t: Ty) {
        let bytes = atomic_bytes(t);
        if !self.env.shared {
            self.load_op(t, |natural| memarg(1, natural));
            return;
        }
        if bytes == 1 {
            self.sink().i32_atomic_load8_u(atomic_arg(1, 0));
            return;
        }
        let result = if t == Ty::I64 { ValType::I64 } else { ValType::I32 };
        let a = self.temp(ValType::I32);
        let mut s = self.sink();
        s.local_tee(a).i32_const(bytes as i32 - 1).i32_and().if_(BlockType::Result(result));
        s.atomic_fence(wasm_encoder::Ordering::SeqCst).local_get(a);
        self.load_op(t, |natural| memarg(1, natural));
        let mut s = self.sink();
        s.atomic_fence(wasm_encoder::Ordering::SeqCst).else_().local_get(a);
        match t {
            Ty::I16 => s.i32_atomic_load16_u(atomic_arg(2, 0)),
            Ty::I64 => s.i64_atomic_load(atomic_arg(8, 0)),
            _ => s.i32_atomic_load(atomic_arg(4, 0)),
        };
        s.end();
        self.free_temp(ValType::I32, a);
    }

    /// A sequentially consistent store of the value on the stack (`t`) to the address
    /// under it; an unaligned address as in [`Self::atomic_load`].
    fn atomic_store(&mut self, t: Ty) {
        let bytes = atomic_bytes(t);
        if !self.env.shared {
            self.store_op(t, |natural| memarg(1, natural));
            return;
        }
        if bytes == 1 {
            self.sink().i32_atomic_store8(atomic_arg(1, 0));
            return;
        }
        let vt = if t == Ty::I64 { ValType::I64 } else { ValType::I32 };
        let v = self.temp(vt);
        let a = self.temp(ValType::I32);
        let mut s = self.sink();
        s.local_set(v).local_tee(a).i32_const(bytes as i32 - 1).i32_and().if_(BlockType::Empty);
        s.atomic_fence(wasm_encoder::Ordering::SeqCst).local_get(a).local_get(v);
        self.store_op(t, |natural| memarg(1, natural));
        let mut s = self.sink();
        s.atomic_fence(wasm_encoder::Ordering::SeqCst).else_().local_get(a).local_get(v);
        match t {
            Ty::I16 => s.i32_atomic_store16(atomic_arg(2, 0)),
            Ty::I64 => s.i64_atomic_store(atomic_arg(8, 0)),
            _ => s.i32_atomic_store(atomic_arg(4, 0)),
        };
        s.end();
        self.free_temp(ValType::I32, a);
        self.free_temp(vt, v);
    }

    /// An atomic read-modify-write; `op` is 1 add, 2 sub, 3 or, 4 and, 5 xor, 6 exchange.
    fn rmw(&mut self, op: i64, t: Ty) {
        if !self.env.shared {
            self.single_agent_rmw(op, t);
            return;
        }
        let mut s = self.sink();
        macro_rules! by_width {
            ($b8:ident, $b16:ident, $b32:ident, $b64:ident) => {
                match t {
                    Ty::I8 => s.$b8(atomic_arg(1, 0)),
                    Ty::I16 => s.$b16(atomic_arg(2, 0)),
                    Ty::I64 => s.$b64(atomic_arg(8, 0)),
                    _ => s.$b32(atomic_arg(4, 0)),
                }
            };
        }
        match op {
            1 => by_width!(i32_atomic_rmw8_add_u, i32_atomic_rmw16_add_u, i32_atomic_rmw_add, i64_atomic_rmw_add),
            2 => by_width!(i32_atomic_rmw8_sub_u, i32_atomic_rmw16_sub_u, i32_atomic_rmw_sub, i64_atomic_rmw_sub),
            3 => by_width!(i32_atomic_rmw8_or_u, i32_atomic_rmw16_or_u, i32_atomic_rmw_or, i64_atomic_rmw_or),
            4 => by_width!(i32_atomic_rmw8_and_u, i32_atomic_rmw16_and_u, i32_atomic_rmw_and, i64_atomic_rmw_and),
            5 => by_width!(i32_atomic_rmw8_xor_u, i32_atomic_rmw16_xor_u, i32_atomic_rmw_xor, i64_atomic_rmw_xor),
            _ => by_width!(i32_atomic_rmw8_xchg_u, i32_atomic_rmw16_xchg_u, i32_atomic_rmw_xchg, i64_atomic_rmw_xchg),
        };
    }

    /// [`Self::rmw`] for a memory with one agent: the old value, loaded; the new one,
    /// stored.
    fn single_agent_rmw(&mut self, op: i64, t: Ty) {
        let vt = if t == Ty::I64 { ValType::I64 } else { ValType::I32 };
        let v = self.temp(vt);
        let a = self.temp(ValType::I32);
        let old = self.temp(vt);
        self.sink().local_set(v).local_tee(a).local_get(a);
        self.load_op(t, |natural| memarg(1, natural));
        let mut s = self.sink();
        s.local_tee(old);
        if op == 6 {
            s.drop().local_get(v);
        } else {
            s.local_get(v);
            match (op, vt) {
                (1, ValType::I64) => s.i64_add(),
                (2, ValType::I64) => s.i64_sub(),
                (3, ValType::I64) => s.i64_or(),
                (4, ValType::I64) => s.i64_and(),
                (_, ValType::I64) => s.i64_xor(),
                (1, _) => s.i32_add(),
                (2, _) => s.i32_sub(),
                (3, _) => s.i32_or(),
                (4, _) => s.i32_and(),
                _ => s.i32_xor(),
            };
        }
        self.store_op(t, |natural| memarg(1, natural));
        self.sink().local_get(old);
        self.free_temp(vt, old);
        self.free_temp(ValType::I32, a);
        self.free_temp(vt, v);
    }

    /// A compare-exchange for a memory with one agent: the address, the expected value
    /// (zero-extended) and the replacement are on the stack; leaves the old value, having
    /// stored the replacement if the old value was the expected one.
    fn single_agent_cmpxchg(&mut self, t: Ty) {
        let vt = if t == Ty::I64 { ValType::I64 } else { ValType::I32 };
        let new = self.temp(vt);
        let expected = self.temp(vt);
        let a = self.temp(ValType::I32);
        let old = self.temp(vt);
        self.sink().local_set(new).local_set(expected).local_tee(a);
        self.load_op(t, |natural| memarg(1, natural));
        let mut s = self.sink();
        s.local_tee(old).local_get(expected);
        if vt == ValType::I64 {
            s.i64_eq();
        } else {
            s.i32_eq();
        }
        s.if_(BlockType::Empty).local_get(a).local_get(new);
        self.store_op(t, |natural| memarg(1, natural));
        self.sink().end().local_get(old);
        self.free_temp(vt, old);
        self.free_temp(ValType::I32, a);
        self.free_temp(vt, expected);
        self.free_temp(vt, new);
    }

    /// Byte swap of the `i16`, `i32` or `i64` on the stack.
    fn bswap(&mut self, t: Ty) {
        match t {
            Ty::I16 => {
                let x = self.temp(ValType::I32);
                let mut s = self.sink();
                s.local_tee(x).i32_const(8).i32_shl().local_get(x).i32_const(8).i32_shr_u().i32_const(0xff).i32_and();
                s.i32_or();
                self.free_temp(ValType::I32, x);
            }
            Ty::I32 => self.bswap32(),
            _ => {
                // The swapped halves, swapped.
                let x = self.temp(ValType::I64);
                self.sink().local_tee(x).i32_wrap_i64();
                self.bswap32();
                self.sink().i64_extend_i32_u().i64_const(32).i64_shl().local_get(x).i64_const(32).i64_shr_u();
                self.sink().i32_wrap_i64();
                self.bswap32();
                self.sink().i64_extend_i32_u().i64_or();
                self.free_temp(ValType::I64, x);
            }
        }
    }

    /// Byte swap of the `i32` on the stack.
    fn bswap32(&mut self) {
        let x = self.temp(ValType::I32);
        let mut s = self.sink();
        s.local_tee(x).i32_const(0x00ff_00ff).i32_and().i32_const(8).i32_rotr();
        s.local_get(x).i32_const(0xff00_ff00u32 as i32).i32_and().i32_const(8).i32_rotl().i32_or();
        self.free_temp(ValType::I32, x);
    }

    /// `setjmp(buf)`: records this activation's token, the call's label and the stack
    /// pointer in `buf`; returns 0.
    fn setjmp(&mut self, i: usize, buf: ValueId) -> Result<(), Refusal> {
        let Some(sj) = &self.sjlj else { return Err(Refusal::internal(self, "setjmp outside a setjmp function")) };
        let (token, value) = (sj.token, sj.value);
        let label = sj.calls.iter().position(|&(_, k)| k as usize == i).map_or(0, |k| k + 1);
        let b = self.temp(ValType::I32);
        self.push_address(buf)?;
        let mut s = self.sink();
        s.local_tee(b).local_get(token).i32_store(atomic_arg(1, 0));
        s.local_get(b).i32_const(label as i32).i32_store(MemArg {
            offset: 4,
            align: 0,
            target: MemArgTarget::Memory(0),
            ordering: None,
        });
        s.local_get(b).global_get(GLOBAL_SP).i32_store(MemArg {
            offset: 8,
            align: 0,
            target: MemArgTarget::Memory(0),
            ordering: None,
        });
        s.i32_const(0).local_set(value).i32_const(0);
        self.free_temp(ValType::I32, b);
        Ok(())
    }

    /// For a function that calls setjmp: draws the token, opens the `loop` and the `try`.
    pub(super) fn sjlj_prologue(&mut self, g: &Graph) {
        if g.setjmps.is_empty() {
            return;
        }
        let (token, value) = (self.new_local(ValType::I32), self.new_local(ValType::I32));
        self.label();
        let mut s = self.sink();
        s.global_get(GLOBAL_SJLJ_NEXT).i32_const(1).i32_add().local_tee(token).global_set(GLOBAL_SJLJ_NEXT);
        s.loop_(BlockType::Empty).try_(BlockType::Empty);
        self.ctx.extend([Ctx::Anon, Ctx::Anon]);
        self.sjlj = Some(Sjlj { token, value, calls: g.setjmps.clone() });
    }

    /// At the start of the code after a setjmp call: its result (0, or the longjmp's
    /// value).
    pub(super) fn resume_prologue(&mut self, g: &Graph, x: NodeId) {
        let Some(sj) = &self.sjlj else { return };
        let value = sj.value;
        let Some(&(_, call)) = g.setjmps.iter().find(|&&(c, _)| c == x) else { return };
        let n = self.inst_value[call as usize];
        if n != u32::MAX && self.uses[n as usize] > 0 {
            let l = self.local(n);
            self.sink().local_get(value).local_set(l);
        }
    }

    /// Closes a setjmp function's `try` with its `catch` and its `loop`.
    pub(super) fn close_sjlj(&mut self) {
        let Some(sj) = &self.sjlj else { return };
        let (token, value) = (sj.token, sj.value);
        let label = self.label();
        let (b, v) = (self.temp(ValType::I32), self.temp(ValType::I32));
        let mut s = self.sink();
        s.catch(LONGJMP_TAG).local_set(v).local_set(b);
        s.local_get(b)
            .i32_load(MemArg { offset: 0, align: 0, target: MemArgTarget::Memory(0), ordering: None })
            .local_get(token)
            .i32_ne();
        s.if_(BlockType::Empty).rethrow(1).end();
        s.local_get(b)
            .i32_load(MemArg { offset: 4, align: 0, target: MemArgTarget::Memory(0), ordering: None })
            .local_set(label);
        s.local_get(b)
            .i32_load(MemArg { offset: 8, align: 0, target: MemArgTarget::Memory(0), ordering: None })
            .global_set(GLOBAL_SP);
        s.local_get(v).i32_const(1).local_get(v).select().local_set(value);
        s.br(1).end().end();
        self.ctx.truncate(self.ctx.len().saturating_sub(2));
        self.free_temp(ValType::I32, b);
        self.free_temp(ValType::I32, v);
    }
}
