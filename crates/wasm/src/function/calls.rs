//! Calls: direct, through a function's own address, and through the function table.
//!
//! A function value `v` designates table index `(v - 16) rotr 4`: a value that is not 16
//! times (an index plus one) becomes an index past the table, and `call_indirect` traps
//! ("indirect call to a non-function"); wasm checks the entry's signature against the call
//! site's. A call site with a compatible signature that some table entry has (a prefix of
//! its parameters; the same result, none where it wants one, or one where it wants none)
//! goes through an adapter instead, which reads the entry's signature from the signature
//! table, calls it with the arguments it declares and gives the call zero for a missing
//! result or drops an unwanted one, as `pnacl run` does.

use super::Func;
use crate::error::Refusal;
use crate::module::Helper;
use pnacl_bitcode::ir::{PoolRange, Ty, ValueId, ValueKind};

impl Func<'_, '_> {
    pub(super) fn call(
        &mut self,
        i: usize,
        callee: ValueId,
        indirect_ret: Option<Ty>,
        args: PoolRange,
    ) -> Result<(), Refusal> {
        let body = self.body;
        let pool = args;
        // The arguments straight from the body's operand pool: collecting them costs an
        // allocation per call.
        let args = body.pool(pool);
        let arg = |k: usize| ValueId(args[k]);
        let m = self.env.m;
        let own = match self.space.kind(callee) {
            ValueKind::Function(f) => Some(f),
            _ => None,
        };
        if indirect_ret.is_none() || own.is_some_and(|f| m.functions[f as usize].body.is_some()) {
            let Some(f) = own else { return Err(self.refuse(i, "a direct call of a value that is not a function")) };
            if indirect_ret.is_none()
                && let Some(intr) = self.env.intrinsic(f)
            {
                let args: Vec<ValueId> = body.args(pool).collect();
                return self.intrinsic(i, intr, &args);
            }
            if m.functions[f as usize].body.is_none() {
                return Err(self.refuse(i, format!("a call of {}, which has no body", self.env.names[f as usize])));
            }
            let sig = m.signature(f);
            let ret = indirect_ret.unwrap_or(sig.ret);
            let matches = args.len() >= sig.params.len()
                && pnacl_bitcode::abi::call_result_compatible(ret, sig.ret)
                && (0..sig.params.len()).all(|k| self.ty(arg(k)) == sig.params[k]);
            if !matches {
                // PNaCl's rule, as pnacl run applies it: extra arguments, and a result
                // missing (zero) or unwanted (dropped), are allowed; nothing else.
                let trap = self.env.helper(Helper::TrapSignature);
                self.sink().call(trap);
                if ret != Ty::Void {
                    self.zero(ret);
                }
                return Ok(());
            }
            for k in 0..sig.params.len() {
                self.push(arg(k))?;
            }
            let index = self.env.function_index(f);
            self.direct_calls.push(index);
            self.sink().call(index);
            if ret == Ty::Void && sig.ret != Ty::Void {
                self.sink().drop();
            } else if ret != Ty::Void && sig.ret == Ty::Void {
                self.zero(ret);
            }
            return Ok(());
        }
        let ret = indirect_ret.unwrap_or(Ty::Void);
        let params: Vec<Ty> = (0..args.len()).map(|k| self.ty(arg(k))).collect();
        for k in 0..args.len() {
            self.push(arg(k))?;
        }
        self.push(callee)?;
        if let Some(adapter) = self.env.adapter(ret, &params) {
            self.sink().call(adapter);
            return Ok(());
        }
        let ty = self.env.type_index(ret, &params).ok_or_else(|| Refusal::internal(self, "an unnumbered signature"))?;
        self.sink().i32_const(16).i32_sub().i32_const(4).i32_rotr().call_indirect(0, ty);
        Ok(())
    }
}
