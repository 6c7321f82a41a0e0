//! `freeze`: an LLVM module to PNaCl bitcode, as Google's `pnacl-freeze` wrote it.
//!
//! pnacl-freeze was LLVM 3.7's PNaCl writer alone: no passes, no ABI check. It wrote
//! whatever it could express (IR that breaks the ABI included) and stopped at what it could
//! not. This module reproduces its decisions (value numbering, the type table's order, the
//! constants' order, cast elision, forward type declarations, the symbol table's hash order)
//! and builds a [`pnacl_bitcode::Module`]; the PNaCl writer then encodes it with the
//! standard abbreviations, bit for bit as pnacl-freeze did.

mod body;
mod error;
mod globals;
mod intrinsics;
mod pointers;
mod string_map;
mod symtab;
mod types;

pub use error::{FreezeError, Refusal};
pub use intrinsics::respell_intrinsics;
pub use symtab::{NameHistory, name_history};

use pnacl_bitcode::ir::{Function as PFunction, Linkage as PLinkage, Module as PModule};
use pnacl_bitstream::{
    FIELD_ALIGN_RECORDS, FIELD_PNACL_VERSION, FIELD_TYPE_FLAG, FIELD_TYPE_U32, HeaderField, PexeHeader,
};
use pnacl_llvm::ir::{FuncId, Function, InstId, Linkage, Module, Value};

/// Which version of PNaCl's writer to reproduce. They differ in one rule of the type
/// table's order: whether an elided pointer cast counts the type of the value it stands for
/// (lines 92–98 of `NaClValueEnumerator.cpp`, the fix of NaCl issue 4353; see [`types`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Writer {
    /// The writer of the SDKs' toolchains, before that fix: elided casts count nothing.
    /// Every pexe of the corpus, and the Pepper 49 SDK's (LLVM 3.7-based) `part2` pexe
    /// from `llvm/part2_unstripped.bc`, have its order.
    Pnacl2015,
    /// The last writer (pnacl-llvm at its final state, 2016), whose tests are Google's
    /// freeze goldens: elided casts count the elided value's type.
    #[default]
    Pnacl2016,
}

/// The name of the named metadata with which `thaw` marks a module whose pexe came from
/// the 2015 writer, so that freezing it again reproduces that pexe.
pub const WRITER_2015_MARK: &str = "pnacl.writer.2015";

impl Writer {
    /// The writer for a module read from bitcode: the 2015 one if `thaw` marked it so, or
    /// if the bitcode has no identification block, that is if an LLVM of PNaCl's time (3.7
    /// or older: the SDKs' own `pnacl-clang`, whose bitcode their `pnacl-finalize` froze)
    /// wrote it; the last one for bitcode of LLVM 3.8 and newer (today's `llvm-as` and
    /// `clang`), which only the last `pnacl-freeze` can have met. Instruction records do
    /// not tell: a module of stores alone reads the same from LLVM 3.6 and 14.
    pub fn for_module(m: &Module) -> Writer {
        if m.named_metadata.iter().any(|n| n == WRITER_2015_MARK) || m.producer.is_none() {
            Writer::Pnacl2015
        } else {
            Writer::Pnacl2016
        }
    }
}

/// pnacl-freeze's options.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FreezeOptions {
    /// The writer version whose type-table order to reproduce.
    pub writer: Writer,
    /// `-allow-local-symbol-tables`: also write each function's own symbol table (names of
    /// arguments, blocks and instructions).
    pub allow_local_symbol_tables: bool,
    /// `-align-bitcode-records`: set the header's flag and byte-align every record.
    pub align_bitcode_records: bool,
}

/// Freezes `m` into a PNaCl module. `history` says how the module's names entered LLVM's
/// symbol table (it decides the module symbol table's order).
pub fn freeze(m: &Module, history: NameHistory<'_>, options: &FreezeOptions) -> Result<PModule, FreezeError> {
    if let Some(a) = m.aliases.first() {
        return Err(FreezeError::Module(format!(
            "alias @{}: aliases have no encoding in PNaCl bitcode (resolve them first; `pnacl simplify` does)",
            a.props.name
        )));
    }
    for f in &m.functions {
        let fail = |reason: &str| FreezeError::Function {
            function: f.props.name.clone(),
            what: "the function's declaration".into(),
            reason: reason.into(),
        };
        if f.cc != 0 {
            return Err(fail("Calling convention not supported by PNaCL bitcode"));
        }
        if !matches!(f.props.linkage, Linkage::External | Linkage::Internal) {
            return Err(fail("Invalid linkage"));
        }
    }
    let table = types::enumerate(m, options.writer).map_err(|(at, r)| match at {
        Some((func, inst)) => function_error(m, func, inst.map(|k| nth_inst(m, func, k)), r),
        None => FreezeError::Module(r.reason),
    })?;

    let mut out = PModule { header: header(options), types: table.defs.clone(), ..PModule::default() };
    let module_values = (m.functions.len() + m.globals.len()) as u32;
    for (fi, f) in m.functions.iter().enumerate() {
        let func = FuncId(fi as u32);
        let ty = types::function_type(m, f.ty).map_err(|r| function_error(m, func, None, r))?;
        let body = if f.is_declaration() {
            None
        } else {
            let mut b =
                body::body(m, func, &table, module_values).map_err(|(inst, r)| function_error(m, func, inst, r))?;
            if options.allow_local_symbol_tables {
                b.symtab = local_symtab(m, f, &b, module_values);
            }
            Some(Box::new(b))
        };
        out.functions.push(PFunction {
            ty: table.id(&ty),
            cc: 0,
            is_proto: f.is_declaration(),
            linkage: if f.props.linkage == Linkage::Internal { PLinkage::Internal } else { PLinkage::External },
            body,
        });
    }
    for g in &m.globals {
        out.globals.push(
            globals::global(m, g)
                .map_err(|r| FreezeError::Global { global: g.props.name.clone(), reason: r.reason })?,
        );
    }
    let symtab = symtab::module_symtab(m, history);
    out.symtab = (!symtab.is_empty()).then_some(symtab);
    Ok(out)
}

/// The header pnacl-freeze writes: PNaCl version 2, and the align flag when asked.
fn header(options: &FreezeOptions) -> PexeHeader {
    if !options.align_bitcode_records {
        return PexeHeader::standard();
    }
    PexeHeader::from_fields(vec![
        HeaderField { id: FIELD_PNACL_VERSION, ty: FIELD_TYPE_U32, data: 2u32.to_le_bytes().to_vec() },
        HeaderField { id: FIELD_ALIGN_RECORDS, ty: FIELD_TYPE_FLAG, data: Vec::new() },
    ])
}

/// The function's own symbol table, with the absolute ids the body gave its values.
fn local_symtab(
    m: &Module,
    f: &Function,
    body: &pnacl_bitcode::ir::FunctionBody,
    module_values: u32,
) -> Option<Vec<pnacl_bitcode::ir::LocalSymbol>> {
    // Instruction ids follow the constants in layout order, skipping what defines nothing.
    let first_inst = module_values + body.num_params + body.constants.len() as u32;
    let mut inst_ids = std::collections::HashMap::new();
    let mut next = first_inst;
    for (_, id) in f.layout() {
        let inst = f.inst(id);
        if *m.types.get(inst.ty) != pnacl_llvm::ir::Type::Void && !pointers::is_elided(m, f, Value::Inst(id)) {
            inst_ids.insert(id, next);
            next += 1;
        }
    }
    symtab::function_symtab(m, f, |v| match v {
        Value::Arg(i) => Some(module_values + i),
        Value::Inst(i) => inst_ids.get(&i).copied(),
        _ => None,
    })
}

/// The `k`th instruction of `func` in layout order.
fn nth_inst(m: &Module, func: FuncId, k: usize) -> InstId {
    m.functions[func.0 as usize].layout().nth(k).map(|(_, i)| i).expect("index from the same walk")
}

fn function_error(m: &Module, func: FuncId, inst: Option<InstId>, r: Refusal) -> FreezeError {
    let f = &m.functions[func.0 as usize];
    let what = match inst {
        Some(i) => describe(m, func, i),
        None => "the function's signature".into(),
    };
    FreezeError::Function { function: f.props.name.clone(), what, reason: r.reason }
}

/// The instruction as LLVM IR text, for messages.
fn describe(m: &Module, func: FuncId, i: InstId) -> String {
    pnacl_llvm::print::instruction(m, func.0 as usize, i, &pnacl_llvm::print::PrintOptions::default())
}
