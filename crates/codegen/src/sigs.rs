//! Signature ids: each distinct function type gets a number, which the function table
//! stores for each function and every indirect call compares with its own.

use pnacl_bitcode::Module;
use pnacl_bitcode::ir::{Inst, Signature, Ty, TypeDef};
use std::collections::HashMap;

/// The signatures of a module (and of the runtime's host functions), numbered.
#[derive(Clone, Debug, Default)]
pub struct SigTable {
    ids: HashMap<(Ty, Vec<Ty>), u32>,
}

impl SigTable {
    /// Numbers every function type of `m`, the signatures of its indirect calls, and
    /// `extra` (the host functions' signatures).
    pub fn new(m: &Module, extra: &[Signature]) -> Self {
        let mut t = SigTable::default();
        for def in &m.types {
            if let TypeDef::Function(sig) = def {
                t.add(sig.ret, &sig.params);
            }
        }
        for body in m.functions.iter().filter_map(|f| f.body.as_ref()) {
            for inst in &body.insts {
                if let Inst::Call { indirect_ret: Some(ret), args, .. } = *inst {
                    let params: Vec<Ty> = body.args(args).map(|a| body_type(m, body, a)).collect();
                    t.add(ret, &params);
                }
            }
        }
        for sig in extra {
            t.add(sig.ret, &sig.params);
        }
        t
    }

    fn add(&mut self, ret: Ty, params: &[Ty]) {
        let next = self.ids.len() as u32;
        self.ids.entry((ret, params.to_vec())).or_insert(next);
    }

    /// A table numbering `signatures` in order (as [`SigTable::signatures`] lists them);
    /// `None` if one is listed twice.
    pub fn from_signatures(signatures: Vec<(Ty, Vec<Ty>)>) -> Option<Self> {
        let mut t = SigTable::default();
        for (ret, params) in signatures {
            let next = t.ids.len() as u32;
            if t.ids.insert((ret, params), next).is_some() {
                return None;
            }
        }
        Some(t)
    }

    /// Every numbered signature, by id.
    pub fn signatures(&self) -> Vec<(Ty, Vec<Ty>)> {
        let mut all: Vec<(&(Ty, Vec<Ty>), &u32)> = self.ids.iter().collect();
        all.sort_by_key(|(_, id)| **id);
        all.into_iter().map(|(s, _)| s.clone()).collect()
    }

    /// Number of signatures.
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    /// True if no signature is numbered.
    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    /// The id of a signature, if it is numbered.
    pub fn id(&self, ret: Ty, params: &[Ty]) -> Option<u32> {
        self.ids.get(&(ret, params.to_vec())).copied()
    }
}

/// The type of an operand of a function body.
pub(crate) fn body_type(m: &Module, body: &pnacl_bitcode::ir::FunctionBody, v: pnacl_bitcode::ir::ValueId) -> Ty {
    let fg = (m.functions.len() + m.globals.len()) as u32;
    if v.0 < fg { Ty::I32 } else { body.local_types.get((v.0 - fg) as usize).copied().unwrap_or(Ty::Void) }
}
