//! Calls: to guest functions (direct, or through the checked function table) and to the
//! runtime's host helpers.

use super::Translator;
use super::flags::trusted;
use crate::abi::{self, HostFn, TrapKind};
use crate::clif::{NS_GUEST, NS_HOST, guest_signature, host_signature};
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::*;
use cranelift_codegen::ir::{ExtFuncData, ExternalName, FuncRef, InstBuilder, UserExternalName, Value};
use pnacl_bitcode::ir::{Ty, ValueId};

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

    pub(super) fn indirect_call(&mut self, callee: Value, ret: Ty, args: &[ValueId]) -> Result<Option<Value>, String> {
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
}
