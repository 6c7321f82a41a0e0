//! The model of an LLVM module.
//!
//! Everything is held in arenas and referred to by index: types ([`TypeId`]) and constants
//! ([`ConstId`]) are interned per module, as LLVM uniques them; functions, global variables
//! and aliases are numbered in module order ([`FuncId`], [`GlobalId`], [`AliasId`]); each
//! function owns its instructions ([`InstId`]) and lists them per basic block ([`BlockId`]).
//! An operand is a [`Value`]: a constant (function and global addresses included), an
//! argument or an instruction result. Pointers are typed (`i32*`) or opaque (`ptr`), as the
//! input had them ([`Module::opaque_pointers`]).

mod attributes;
mod constants;
mod edit;
mod instructions;
mod module;
mod operators;
mod types;

pub use attributes::{Attr, Attrs, attr_kind};
pub use constants::{Const, ConstId, Consts, ExprOp};
pub use instructions::{AsmId, Clause, Inst, InstId, InstKind, TailKind, Value};
pub use module::{
    Alias, AliasId, Block, BlockId, FuncId, Function, GlobalId, GlobalProps, GlobalRef, GlobalVar, InlineAsm, Linkage,
    Module, Param, ThreadLocal, UnnamedAddr, Visibility,
};
pub use operators::{BinaryOp, CastOp, FloatPred, IntPred, Ordering, RmwOp, flags};
pub use types::{StructType, Type, TypeId, Types};
