//! The globals block: each global variable's alignment, constness and initializer, in
//! FlattenGlobals' normal form (`WriteGlobalVars` and `WriteGlobalInit` of LLVM 3.7's
//! PNaCl writer, whose error messages are kept).

use super::error::Refusal;
use pnacl_bitcode::ir::{Global, Init, ValueId};
use pnacl_llvm::ir::{BinaryOp, CastOp, Const, ConstId, ExprOp, GlobalVar, Module, Type};

/// The PNaCl global for `g`.
pub(crate) fn global(m: &Module, g: &GlobalVar) -> Result<Global, Refusal> {
    let init = g.init.ok_or_else(|| Refusal::new("Global variable initializer not a constant"))?;
    let align = super::body::alignment(g.props.align)?;
    let mut out = Global { align, is_const: g.is_constant, inits: Vec::new(), compound: false };
    let ty = m.consts.get(init).own_type().map(|t| m.types.get(t));
    match (m.consts.get(init), ty) {
        (Const::Aggregate { elems, .. }, Some(Type::Struct(s))) => {
            if !s.packed {
                return Err(Refusal::new("Global variable type not packed"));
            }
            if s.name.is_some() {
                return Err(Refusal::new("Global variable type is named"));
            }
            out.compound = true;
            for &e in elems {
                out.inits.push(simple(m, e)?);
            }
        }
        _ => out.inits.push(simple(m, init)?),
    }
    Ok(out)
}

/// One SimpleElement: `[N x i8]` zeros or bytes, or a relocation.
fn simple(m: &Module, c: ConstId) -> Result<Init, Refusal> {
    let konst = m.consts.get(c);
    let ty = konst.own_type().map(|t| m.types.get(t));
    if let Some(&Type::Array { len, elem }) = ty {
        if *m.types.get(elem) != Type::Int(8) {
            return Err(Refusal::new("Global array initializer not i8"));
        }
        return match konst {
            Const::Zero(_) => Ok(Init::Zerofill(len)),
            // LLVM folds an all-zero byte array to zeroinitializer; a model built in memory
            // may not have, so fold it here too.
            Const::Data { elems, .. } if elems.iter().all(|&b| b == 0) => Ok(Init::Zerofill(len)),
            Const::Data { elems, .. } => Ok(Init::Data(elems.iter().map(|&b| b as u8).collect())),
            _ => Err(Refusal::new("Global initializer is not a SimpleElement")),
        };
    }
    if ty == Some(&Type::Int(32)) || konst.own_type().is_none() {
        let Const::Expr { op, operands, .. } = konst else {
            return Err(Refusal::new("Global i32 initializer not constant"));
        };
        let (base, addend) = match op {
            ExprOp::Binary(BinaryOp::Add, _) => {
                let addend = match m.consts.get(operands[1]) {
                    Const::Int { value, .. } => *value as u32,
                    _ => return Err(Refusal::new("Malformed addend in global relocation initializer")),
                };
                match m.consts.get(operands[0]) {
                    Const::Expr { op, operands, .. } => (Some((op, operands)), addend),
                    _ => return Err(Refusal::new("Base of global relocation initializer not constant")),
                }
            }
            _ => (Some((op, operands)), 0),
        };
        let Some((ExprOp::Cast(CastOp::PtrToInt), operands)) = base else {
            return Err(Refusal::new("Global relocation base doesn't contain ptrtoint"));
        };
        let target = match m.consts.get(operands[0]) {
            Const::Function(f) => ValueId(f.0),
            Const::Global(g) => ValueId(m.functions.len() as u32 + g.0),
            _ => return Err(Refusal::new("Argument of ptrtoint in global relocation no global value")),
        };
        return Ok(Init::Reloc { target, addend: (addend != 0).then_some(addend) });
    }
    Err(Refusal::new("Global initializer is not a SimpleElement"))
}
