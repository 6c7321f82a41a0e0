//! The typed, arena-based IR every later stage reads.
//!
//! A [`Module`] owns its types, function addresses, globals and symbol table. Each defined
//! function's [`FunctionBody`] is self-contained (instructions, constants, operand pools), so
//! bodies can be walked independently and in parallel. Values are named by their absolute
//! index in the reference's numbering ([`ValueId`]); [`ValueSpace`] turns an index into the
//! `@f`/`@g`/`%p`/`%c`/`%v` form the text uses.

mod cfg;
mod inst;
mod layout;
mod module;
mod types;

pub use cfg::{Dominators, SsaCheck, SsaError};
pub use inst::{Align, BinOp, CastOp, Inst, PoolRange, Pred, ValueId, ValueKind, ValueSpace};
pub use layout::{
    BlockLayout, BlockinfoItem, BlockinfoLayout, BodyLayout, ITEM_ABBREV, ITEM_BLOCK, ITEM_UNABBREVIATED, ModuleLayout,
};
pub use module::{
    ConstValue, Constant, Function, FunctionBody, Global, Init, Linkage, LocalSymbol, Module, ModulePositions, Names,
    SetType, SwitchCase, Symbol, decode_sign_rotated, encode_sign_rotated,
};
pub use types::{ALL_TYPES, Signature, Ty, TypeDef, TypeId};
