//! `thaw`: a PNaCl module back to LLVM IR that today's LLVM reads.
//!
//! PNaCl bitcode has no pointers: addresses are `i32`, and the casts between integers and
//! pointers were elided by the writer. Thawing puts them back, as PNaCl's reader did:
//! an address used by a load, store or call becomes a pointer through `inttoptr` (or
//! `bitcast`, for values that are pointers already: allocas, globals, functions and the
//! pointer-returning intrinsics), and a pointer used as a number goes through `ptrtoint`.
//! Intrinsics get their LLVM signatures back, in the spelling of LLVM 14 (typed pointers)
//! or LLVM 15 and newer (opaque pointers).
//!
//! The result freezes back to the same PNaCl module: the casts it adds are exactly the ones
//! the writer elides, and the values keep their order. Values the pexe leaves unnamed keep
//! no name at module level (a name would enter the symbol table of a re-frozen pexe), and
//! get the pexe's numbering inside functions (`%p0`, `%v12`, `%b3`).

mod body;
mod intrinsics;

use pnacl_bitcode::ir::{Global as PGlobal, Init, Linkage as PLinkage, Module as PModule, Signature, Ty, TypeDef};
use pnacl_llvm::ir::{
    Const, ConstId, ExprOp, FuncId, Function, GlobalId, GlobalProps, GlobalVar, Linkage, Module, Param, StructType,
    ThreadLocal, Type, TypeId,
};

/// How to thaw.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ThawOptions {
    /// Typed pointers (`i32*`, LLVM 14 and older) instead of opaque ones (`ptr`).
    pub typed_pointers: bool,
    /// Give unnamed functions and globals the pexe's names (`@f3`, `@g2`). Off by default:
    /// a re-frozen pexe would then carry those names in its symbol table.
    pub name_module_values: bool,
}

/// A pexe the thawer cannot express in LLVM IR.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ThawError(pub String);

/// The `target datalayout` clang writes for `le32-unknown-nacl`.
pub const LE32_DATALAYOUT: &str = "e-p:32:32-i64:64";
/// The `target triple` of PNaCl.
pub const LE32_TRIPLE: &str = "le32-unknown-nacl";

/// Thaws a PNaCl module.
pub fn thaw(pm: &PModule, options: &ThawOptions) -> Result<Module, ThawError> {
    let mut m = Module {
        triple: LE32_TRIPLE.into(),
        datalayout: LE32_DATALAYOUT.into(),
        opaque_pointers: !options.typed_pointers,
        ..Module::default()
    };
    let names = pm.names();
    let mut sigs = Vec::with_capacity(pm.functions.len());
    for (i, f) in pm.functions.iter().enumerate() {
        let name = names.function(i as u32).map(str::to_owned);
        let sig = match pm.types.get(f.ty as usize) {
            Some(TypeDef::Function(s)) => s.clone(),
            _ => return Err(ThawError(format!("function @f{i} does not have a function type"))),
        };
        let (name, ty) = match name.as_deref().and_then(|n| intrinsics::declaration(&mut m, n, &sig)) {
            Some((n, t)) => (n, t),
            None => {
                let ty = function_type(&mut m, &sig);
                (name.unwrap_or_else(|| if options.name_module_values { format!("f{i}") } else { String::new() }), ty)
            }
        };
        let params = m.types.as_function(ty).map_or(0, |(_, p, _)| p.len());
        m.functions.push(Function {
            props: GlobalProps {
                name,
                linkage: if f.linkage == PLinkage::Internal { Linkage::Internal } else { Linkage::External },
                ..GlobalProps::default()
            },
            ty,
            cc: 0,
            attrs: Default::default(),
            gc: None,
            personality: None,
            params: vec![Param::default(); params],
            blocks: Vec::new(),
            insts: Vec::new(),
        });
        m.pointer_type(ty, 0);
        sigs.push(sig);
    }
    let f_count = pm.functions.len() as u32;
    for (i, g) in pm.globals.iter().enumerate() {
        let name =
            names.get(pnacl_bitcode::ir::ValueId(f_count + i as u32)).map(|n| String::from_utf8_lossy(n).into_owned());
        let value_ty = global_type(&mut m, g);
        m.pointer_type(value_ty, 0);
        m.globals.push(GlobalVar {
            props: GlobalProps {
                name: name.unwrap_or_else(|| if options.name_module_values { format!("g{i}") } else { String::new() }),
                linkage: Linkage::Internal,
                align: g.align.bytes(),
                ..GlobalProps::default()
            },
            value_ty,
            is_constant: g.is_const,
            init: None,
            thread_local: ThreadLocal::NotThreadLocal,
            externally_initialized: false,
        });
    }
    for (i, g) in pm.globals.iter().enumerate() {
        let init = global_init(&mut m, pm, g)?;
        m.globals[i].init = Some(init);
    }
    let mut module_srcs = None;
    for (i, f) in pm.functions.iter().enumerate() {
        if let Some(b) = &f.body {
            let srcs = module_srcs.get_or_insert_with(|| body::module_srcs(&mut m, pm));
            body::thaw_body(&mut m, pm, srcs, FuncId(i as u32), &sigs[i], b)?;
        }
    }
    if made_by_2015_writer(&m, pm) {
        m.named_metadata.push(crate::freeze::WRITER_2015_MARK.to_string());
    }
    Ok(m)
}

/// True if the 2015 writer's type-table order, and not the last writer's, gives the pexe's:
/// the thawed module then says so, for freezing it back the same way.
fn made_by_2015_writer(m: &Module, pm: &PModule) -> bool {
    use crate::freeze::{FreezeOptions, NameHistory, Writer, freeze, respell_intrinsics};
    let mut copy = m.clone();
    respell_intrinsics(&mut copy);
    let types_with = |writer| {
        freeze(&copy, NameHistory::Assembled, &FreezeOptions { writer, ..FreezeOptions::default() })
            .ok()
            .map(|p| p.types)
    };
    types_with(Writer::Pnacl2016).as_ref() != Some(&pm.types)
        && types_with(Writer::Pnacl2015).as_ref() == Some(&pm.types)
}

/// The model type of a PNaCl value type.
pub(crate) fn value_type(m: &mut Module, t: Ty) -> TypeId {
    match t {
        Ty::Void => m.types.void(),
        Ty::Float => m.types.float(),
        Ty::Double => m.types.double(),
        t if t.is_integer() => m.types.int(t.bits()),
        v => {
            let elem = value_type(m, v.element());
            m.types.intern(Type::Vector { len: v.lanes(), elem, scalable: false })
        }
    }
}

/// The model type of a PNaCl signature.
pub(crate) fn function_type(m: &mut Module, sig: &Signature) -> TypeId {
    let ret = value_type(m, sig.ret);
    let params = sig.params.iter().map(|&p| value_type(m, p)).collect();
    m.types.function(ret, params, false)
}

/// The type of one initializer: `[N x i8]`, or `i32` for a relocation.
fn init_type(m: &mut Module, init: &Init) -> TypeId {
    match init {
        Init::Reloc { .. } => m.types.int(32),
        other => {
            let elem = m.types.int(8);
            m.types.intern(Type::Array { len: other.size(), elem })
        }
    }
}

/// A global's value type: its one initializer's, or a packed struct of a compound's.
fn global_type(m: &mut Module, g: &PGlobal) -> TypeId {
    if !g.compound && g.inits.len() == 1 {
        return init_type(m, &g.inits[0]);
    }
    let fields = g.inits.iter().map(|i| init_type(m, i)).collect();
    m.types.intern(Type::Struct(StructType { name: None, fields, packed: true, opaque: false }))
}

fn global_init(m: &mut Module, pm: &PModule, g: &PGlobal) -> Result<ConstId, ThawError> {
    let mut parts = Vec::with_capacity(g.inits.len());
    for init in &g.inits {
        let ty = init_type(m, init);
        let c = match init {
            Init::Zerofill(_) => m.consts.intern(Const::Zero(ty)),
            Init::Data(bytes) if bytes.iter().all(|&b| b == 0) => m.consts.intern(Const::Zero(ty)),
            Init::Data(bytes) => {
                m.consts.intern(Const::Data { ty, elems: bytes.iter().map(|&b| u64::from(b)).collect() })
            }
            Init::Reloc { target, addend } => {
                let f_count = pm.functions.len() as u32;
                let base = if target.0 < f_count {
                    Const::Function(FuncId(target.0))
                } else if target.0 - f_count < pm.globals.len() as u32 {
                    Const::Global(GlobalId(target.0 - f_count))
                } else {
                    return Err(ThawError(format!("relocation to value {} that is not a global address", target.0)));
                };
                let base = m.consts.intern(base);
                let i32t = m.types.int(32);
                let p = m.consts.intern(Const::Expr {
                    ty: i32t,
                    op: ExprOp::Cast(pnacl_llvm::ir::CastOp::PtrToInt),
                    operands: vec![base],
                });
                match addend {
                    None => p,
                    Some(a) => {
                        let k = m.consts.int(i32t, 32, u64::from(*a));
                        m.consts.intern(Const::Expr {
                            ty: i32t,
                            op: ExprOp::Binary(pnacl_llvm::ir::BinaryOp::Add, 0),
                            operands: vec![p, k],
                        })
                    }
                }
            }
        };
        parts.push(c);
    }
    if !g.compound && parts.len() == 1 {
        return Ok(parts[0]);
    }
    let ty = global_type(m, g);
    Ok(m.consts.intern(Const::Aggregate { ty, elems: parts }))
}
