//! Calls of the whitelisted intrinsics: bit and float operations, the thread pointer,
//! stack save and restore, setjmp and longjmp, atomics and the memory intrinsics.

use super::Translator;
use super::flags::{heap, trusted};
use crate::abi::{self, HostFn, TrapKind};
use crate::clif::clif_type;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::*;
use cranelift_codegen::ir::{AtomicRmwOp, BlockArg, InstBuilder, Type, Value};
use pnacl_bitcode::abi::{Intrinsic, IntrinsicKind as K};
use pnacl_bitcode::ir::ValueId;

/// The `seq_cst` memory order of the atomic intrinsics.
const ORDER_SEQ_CST: i64 = 6;

/// True if the host orders memory like x86 (TSO): loads are acquires and stores releases.
const TOTAL_STORE_ORDER: bool = cfg!(target_arch = "x86_64");

impl Translator<'_, '_, '_> {
    pub(super) fn intrinsic_call(&mut self, intr: &Intrinsic, args: &[ValueId]) -> Result<Option<Value>, String> {
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
}

/// An atomic read-modify-write operation.
#[derive(Clone, Copy)]
enum Rmw {
    /// An arithmetic, logical or exchange operation with its operand.
    Op(AtomicRmwOp, Value),
    /// Compare-exchange: expected and desired values.
    Cas(Value, Value),
}
