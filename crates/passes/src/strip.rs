//! `strip`: what `pnacl-finalize` removed before freezing.
//!
//! pnacl-finalize ran `opt -strip-metadata -strip-module-flags -strip` (LLVM 3.7,
//! `lib/Transforms/IPO/StripSymbols.cpp`): debug information (the `llvm.dbg.*` calls and
//! the two debug intrinsics' declarations), every named metadata node, the names of
//! internal globals and functions that `llvm.used` does not keep, and every name inside
//! functions. External names (`_start`, the intrinsics) stay. Attributes never reach a pexe;
//! they are dropped too, so that the module printed afterwards shows what the pexe holds.
//!
//! [`strip_keeping_names`] is `pnacl-finalize --no-strip-syms`, which ran `-strip-debug`
//! instead of `-strip`: every function and global variable keeps its name, which the pexe's
//! module symbol table then holds (the ABI allows it; `pnacl run` names functions in traps
//! with it). Names inside functions go all the same: a pexe has no local symbol tables.

use pnacl_llvm::ir::{Attrs, Const, ConstId, GlobalRef, Module, Value};
use std::collections::HashSet;

/// The pass (`strip`): [`strip`] as a [`crate::Pass`].
pub struct Strip;

impl crate::Pass for Strip {
    fn name(&self) -> &'static str {
        "strip"
    }

    fn run(&self, m: &mut Module) -> Result<(), crate::PassError> {
        strip(m);
        Ok(())
    }
}

/// Strips `m` as pnacl-finalize did.
pub fn strip(m: &mut Module) {
    strip_with(m, false);
}

/// Strips `m` as `pnacl-finalize --no-strip-syms` did: global names stay.
pub fn strip_keeping_names(m: &mut Module) {
    strip_with(m, true);
}

fn strip_with(m: &mut Module, keep_global_names: bool) {
    strip_debug_info(m);
    m.named_metadata.clear();
    strip_symbol_names(m, keep_global_names);
    for f in &mut m.functions {
        f.attrs = Attrs::default();
        for inst in &mut f.insts {
            if let pnacl_llvm::ir::InstKind::Call { attrs, .. } | pnacl_llvm::ir::InstKind::Invoke { attrs, .. } =
                &mut inst.kind
            {
                **attrs = Attrs::default();
            }
        }
    }
}

/// Removes every call to an `llvm.dbg.*` function, then the declarations of
/// `llvm.dbg.declare` and `llvm.dbg.value` (`StripDebugInfo`).
fn strip_debug_info(m: &mut Module) {
    let debug: HashSet<u32> = m
        .functions
        .iter()
        .enumerate()
        .filter(|(_, f)| f.props.name.starts_with("llvm.dbg."))
        .map(|(i, _)| i as u32)
        .collect();
    if debug.is_empty() {
        return;
    }
    let is_debug_call = |m: &Module, v: Value| m.as_function(v).is_some_and(|f| debug.contains(&f.0));
    for fi in 0..m.functions.len() {
        let f = &m.functions[fi];
        let dead: HashSet<u32> = f
            .layout()
            .filter(|&(_, i)| match &f.inst(i).kind {
                pnacl_llvm::ir::InstKind::Call { callee, .. } => is_debug_call(m, *callee),
                _ => false,
            })
            .map(|(_, i)| i.0)
            .collect();
        if dead.is_empty() {
            continue;
        }
        for b in &mut m.functions[fi].blocks {
            b.insts.retain(|i| !dead.contains(&i.0));
        }
    }
    m.retain_functions(|_, f| f.props.name != "llvm.dbg.declare" && f.props.name != "llvm.dbg.value");
}

/// The globals and functions an `llvm.used` or `llvm.compiler.used` array keeps.
fn used_values(m: &Module) -> HashSet<GlobalRef> {
    fn collect(m: &Module, c: ConstId, out: &mut HashSet<GlobalRef>, depth: u32) {
        if depth > 64 {
            return;
        }
        match m.consts.get(c) {
            Const::Function(f) => {
                out.insert(GlobalRef::Function(*f));
            }
            Const::Global(g) => {
                out.insert(GlobalRef::Global(*g));
            }
            Const::Alias(a) => {
                out.insert(GlobalRef::Alias(*a));
            }
            other => other.operands().iter().for_each(|&op| collect(m, op, out, depth + 1)),
        }
    }
    let mut out = HashSet::new();
    for g in &m.globals {
        if (g.props.name == "llvm.used" || g.props.name == "llvm.compiler.used")
            && let Some(init) = g.init
        {
            collect(m, init, &mut out, 0);
        }
    }
    out
}

/// `StripSymbolNames`: internal names not kept by `llvm.used` (unless `keep_global_names`),
/// and every local name.
fn strip_symbol_names(m: &mut Module, keep_global_names: bool) {
    let used = if keep_global_names { HashSet::new() } else { used_values(m) };
    for (i, g) in m.globals.iter_mut().enumerate() {
        if !keep_global_names
            && g.props.linkage.is_local()
            && !used.contains(&GlobalRef::Global(pnacl_llvm::ir::GlobalId(i as u32)))
        {
            g.props.name.clear();
        }
    }
    for (i, f) in m.functions.iter_mut().enumerate() {
        if !keep_global_names
            && f.props.linkage.is_local()
            && !used.contains(&GlobalRef::Function(pnacl_llvm::ir::FuncId(i as u32)))
        {
            f.props.name.clear();
        }
        f.params.iter_mut().for_each(|p| p.name = None);
        f.blocks.iter_mut().for_each(|b| b.name = None);
        f.insts.iter_mut().for_each(|i| i.name = None);
    }
}
