//! Calls: to guest functions (direct, or through the checked function table) and to the
//! runtime's host helpers.

use super::Translator;
use super::flags::trusted;
use crate::abi::{self, HostFn, TrapKind};
use crate::clif::{NS_GUEST, NS_HOST, RuntimeSymbol, clif_type, guest_signature, host_signature};
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::*;
use cranelift_codegen::ir::{
    Block, BlockArg, ExtFuncData, ExternalName, FuncRef, InstBuilder, UserExternalName, Value,
};
use pnacl_bitcode::abi::call_result_compatible;
use pnacl_bitcode::ir::{ALL_TYPES, Ty, ValueId, ValueKind};

impl Translator<'_, '_, '_> {
    pub(super) fn func_ref(&mut self, f: u32) -> FuncRef {
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

    pub(super) fn call_host(&mut self, h: HostFn, args: &[Value]) -> Vec<Value> {
        self.check_host_stack();
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
    pub(super) fn set_host_caller(&mut self, vmctx: Value) {
        let f = self.b.ins().iconst(I32, i64::from(self.f));
        self.b.ins().store(trusted(), f, vmctx, abi::VMCTX_HOST_CALLER);
    }

    /// A direct call of guest function `f`.
    pub(super) fn direct_call(&mut self, f: u32, args: &[ValueId]) -> Result<Option<Value>, String> {
        self.check_host_stack();
        let r = self.func_ref(f);
        let mut a = vec![self.vmctx()];
        for &v in args {
            a.push(self.get(v)?);
        }
        let call = self.b.ins().call(r, &a);
        Ok(self.b.inst_results(call).first().copied())
    }

    /// An indirect call of `callee` as a function of type `ret (types of args)`.
    ///
    /// The callee's table entry must hold that signature, or a compatible one: parameters
    /// that are a prefix of the arguments (the others are dropped, as native PNaCl did: its
    /// `_start` calls `main` with three arguments whatever `main` declares), and the same
    /// result, or no result where the call wants one (the call gets zero; natively it got
    /// whatever the return register held: real pexes call `void` thread functions through
    /// `void *(*)(void *)`), or a scalar result where the call wants none (dropped). Any
    /// other mismatch traps. The signature compared is the runtime's, from the table; the
    /// guest value only selects an entry.
    pub(super) fn indirect_call(
        &mut self,
        callee: ValueId,
        ret: Ty,
        args: &[ValueId],
    ) -> Result<Option<Value>, String> {
        let params: Vec<Ty> = args.iter().map(|&a| self.ty(a)).collect();
        if let ValueKind::Function(f) = self.space.kind(callee)
            && self.env.m.functions.get(f as usize).is_some_and(|func| func.body.is_some())
        {
            return self.call_through_own_address(f, ret, &params, args);
        }
        let sig_id = self.env.sigs.id(ret, &params).ok_or("indirect call signature not numbered")?;
        // Before the signature dispatch, whose branches each call.
        self.check_host_stack();
        let callee = self.get(callee)?;
        let entry = self.table_entry(callee);
        let sig = self.b.ins().load(I32, trusted(), entry, abi::ENTRY_SIG);
        let same = self.b.ins().icmp_imm_s(IntCC::Equal, sig, i64::from(sig_id));
        // The compatible signatures a table entry may have, longest parameter list first.
        let others: Vec<(usize, Ty, u32)> = (0..=params.len())
            .rev()
            .flat_map(|n| ALL_TYPES.into_iter().filter(|&r| call_result_compatible(ret, r)).map(move |r| (n, r)))
            .filter(|&(n, r)| (n, r) != (params.len(), ret))
            .filter_map(|(n, r)| Some((n, r, self.env.sigs.id(r, &params[..n])?)))
            .collect();
        if others.is_empty() {
            self.b.ins().trapz(same, TrapKind::BadSignature.code());
            return self.call_entry(entry, ret, &params, args);
        }
        let join = self.b.create_block();
        if ret != Ty::Void {
            self.b.append_block_param(join, clif_type(ret));
        }
        let (exact, mut check) = (self.b.create_block(), self.b.create_block());
        self.b.ins().brif(same, exact, &[], check, &[]);
        self.b.switch_to_block(exact);
        let r = self.call_entry(entry, ret, &params, args)?;
        self.jump_with(join, r);
        for (n, callee_ret, id) in others {
            self.b.switch_to_block(check);
            let (call, next) = (self.b.create_block(), self.b.create_block());
            let same = self.b.ins().icmp_imm_s(IntCC::Equal, sig, i64::from(id));
            self.b.ins().brif(same, call, &[], next, &[]);
            self.b.switch_to_block(call);
            let r = self.call_entry(entry, callee_ret, &params[..n], &args[..n])?;
            let r = self.result_as(ret, r);
            self.jump_with(join, r);
            check = next;
        }
        self.b.switch_to_block(check);
        self.trap(TrapKind::BadSignature);
        self.b.switch_to_block(join);
        Ok(self.b.block_params(join).first().copied())
    }

    /// A call through the address of guest function `f` itself: checked here, once, rather
    /// than at run time, with the same outcome (see [`Translator::indirect_call`]).
    fn call_through_own_address(
        &mut self,
        f: u32,
        ret: Ty,
        params: &[Ty],
        args: &[ValueId],
    ) -> Result<Option<Value>, String> {
        let sig = self.env.m.signature(f);
        if call_result_compatible(ret, sig.ret) && params.starts_with(&sig.params) {
            let declared = sig.params.len();
            let r = self.direct_call(f, &args[..declared])?;
            return Ok(self.result_as(ret, r));
        }
        self.trap(TrapKind::BadSignature);
        // The block goes on in the bitcode; its code is unreachable.
        let cont = self.b.create_block();
        self.b.switch_to_block(cont);
        Ok((ret != Ty::Void).then(|| self.zero(clif_type(ret))))
    }

    /// The host address of the table entry a guest function value designates, trapping
    /// unless it is a table index shifted left, for an index in 1..len.
    fn table_entry(&mut self, callee: Value) -> Value {
        let low = self.b.ins().band_imm_s(callee, (1 << abi::FUNCTION_VALUE_SHIFT) - 1);
        self.b.ins().trapnz(low, TrapKind::BadCallTarget.code());
        let index = self.b.ins().ushr_imm_s(callee, i64::from(abi::FUNCTION_VALUE_SHIFT));
        let from1 = self.b.ins().iadd_imm_s(index, -1);
        let inside = self.b.ins().icmp_imm_s(IntCC::UnsignedLessThan, from1, i64::from(self.env.table_len) - 1);
        self.b.ins().trapz(inside, TrapKind::BadCallTarget.code());
        let index64 = self.b.ins().uextend(I64, index);
        let offset = self.b.ins().ishl_imm_s(index64, i64::from(abi::ENTRY_SHIFT));
        let table = self.runtime_address(RuntimeSymbol::FunctionTable);
        self.b.ins().iadd(table, offset)
    }

    /// Calls the code of a checked table entry as a function of type `ret (params)`.
    fn call_entry(&mut self, entry: Value, ret: Ty, params: &[Ty], args: &[ValueId]) -> Result<Option<Value>, String> {
        let code = self.b.ins().load(I64, trusted(), entry, abi::ENTRY_CODE);
        let key = (ret, params.to_vec());
        let sigref = match self.sigrefs.get(&key) {
            Some(&s) => s,
            None => {
                let s = self.b.import_signature(guest_signature(self.env.call_conv, ret, params));
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

    /// A compatible callee's result `r` as a call that wants `ret` gets it (see
    /// [`call_result_compatible`]): dropped, zero for a callee that has none, or itself.
    fn result_as(&mut self, ret: Ty, r: Option<Value>) -> Option<Value> {
        match (ret, r) {
            (Ty::Void, _) => None,
            (_, None) => Some(self.zero(clif_type(ret))),
            (_, r) => r,
        }
    }

    fn jump_with(&mut self, block: Block, v: Option<Value>) {
        match v {
            Some(v) => self.b.ins().jump(block, &[BlockArg::Value(v)]),
            None => self.b.ins().jump(block, &[]),
        };
    }
}
