//! Module-level rules: types, function declarations, linkage and the entry point, the
//! intrinsic whitelist, the symbol table and global initializers.

use crate::{Context, Diagnostic, Location, Rule};
use pnacl_bitcode::abi;
use pnacl_bitcode::ir::{Init, Linkage, TypeDef, ValueId};
use std::collections::HashMap;

/// The entry point of an executable.
const START: &[u8] = b"_start";
/// The entry point of a PNaCl shared object.
const PSO_ROOT: &[u8] = b"__pnacl_pso_root";

pub(crate) fn check(cx: &Context<'_>) -> Vec<Diagnostic> {
    let m = cx.m;
    let positions = m.positions.as_deref();
    let mut out = Vec::new();
    let mut report = |rule, location, pos, message: String| out.push(Diagnostic { rule, location, pos, message });

    for (t, def) in m.types.iter().enumerate() {
        if let TypeDef::Function(sig) = def
            && sig.vararg
        {
            let message = format!("Functions with variable length arguments is not supported: @t{t} = {sig}");
            report(Rule::Vararg, Location::Type(t as u32), None, message);
        }
    }

    let mut entry_points = 0;
    for (i, func) in m.functions.iter().enumerate() {
        let f = i as u32;
        let at = Location::Function(f);
        let pos = positions.and_then(|p| p.functions.get(i).copied());
        let name = cx.function_name(f);
        let sig = m.signature(f);
        if func.cc != 0 {
            let message = format!("Function {name} has disallowed calling convention: {}", func.cc);
            report(Rule::CallingConv, at.clone(), pos, message);
        }
        if cx.is_intrinsic_name(f) {
            match cx.intrinsics[i] {
                None => {
                    report(Rule::Intrinsic, at.clone(), pos, format!("Function {name} is a disallowed LLVM intrinsic"))
                }
                Some(intr) => {
                    if let Some(why) = abi::intrinsic_signature_error(intr, sig) {
                        report(Rule::Intrinsic, at.clone(), pos, why);
                    }
                }
            }
            if !func.is_proto {
                report(
                    Rule::IntrinsicDefined,
                    at,
                    pos,
                    format!("Intrinsic {name} is defined: intrinsics have no body"),
                );
            }
            continue;
        }
        if !abi::is_valid_signature(sig) {
            report(Rule::Signature, at.clone(), pos, format!("Function {name} has disallowed type: {sig}"));
        }
        if func.is_proto {
            report(Rule::UndefinedFunction, at.clone(), pos, format!("Function {name} is declared but not defined"));
        }
        let is_start = cx.names[i] == Some(START);
        if func.linkage == Linkage::External {
            if is_start && !func.is_proto {
                entry_points += 1;
            } else if !func.is_proto {
                report(Rule::External, at, pos, format!("{name} is not a valid external symbol"));
            }
        }
    }

    let names = m.names();
    let first_global = m.functions.len() as u32;
    for g in 0..m.globals.len() as u32 {
        if names.get(ValueId(first_global + g)) == Some(PSO_ROOT) {
            entry_points += 1;
        }
    }
    if entry_points == 0 {
        report(
            Rule::EntryPoint,
            Location::Module,
            None,
            "Module has no entry point: no defined external _start".into(),
        );
    } else if entry_points > 1 {
        report(Rule::EntryPoint, Location::Module, None, "Module has multiple entry points".into());
    }

    if let Some(symtab) = &m.symtab {
        let mut by_name: HashMap<&[u8], ValueId> = HashMap::new();
        let mut by_value: HashMap<ValueId, &[u8]> = HashMap::new();
        for (i, s) in symtab.iter().enumerate() {
            let pos = positions.and_then(|p| p.symbols.get(i).copied());
            let shown = String::from_utf8_lossy(&s.name);
            if let Some(first) = by_name.insert(&s.name, s.value)
                && first != s.value
            {
                let message = format!("Module valuesymtab defines duplicate value name: '{shown}'");
                report(Rule::DuplicateName, Location::Module, pos, message);
            }
            if let Some(first) = by_value.insert(s.value, &s.name)
                && first != s.name.as_slice()
            {
                let message =
                    format!("Value {} named twice: '{}' and '{shown}'", s.value.0, String::from_utf8_lossy(first));
                report(Rule::DuplicateName, Location::Module, pos, message);
            }
        }
    }

    for (i, g) in m.globals.iter().enumerate() {
        let at = Location::Global(i as u32);
        let pos = positions.and_then(|p| p.globals.get(i).copied());
        if g.compound && g.inits.len() < 2 {
            let message =
                format!("Global @g{i} has a compound initializer of {} element(s): it needs at least 2", g.inits.len());
            report(Rule::GlobalInitializer, at.clone(), pos, message);
        }
        for init in &g.inits {
            if let Init::Reloc { target, .. } = init
                && target.0 < first_global
                && cx.is_intrinsic_name(target.0)
            {
                let message = format!("Global @g{i} holds the address of intrinsic {}", cx.function_name(target.0));
                report(Rule::IntrinsicAddress, at.clone(), pos, message);
            }
        }
    }
    out
}
