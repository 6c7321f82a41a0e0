//! Constants, interned per module as LLVM uniques them.

use super::module::{AliasId, BlockId, FuncId, GlobalId};
use super::operators::{BinaryOp, CastOp, FloatPred, IntPred};
use super::types::TypeId;
use crate::hash::FastMap;

/// Index of a constant in its module's [`Consts`] pool. Equal constants (same type, same
/// contents) have the same id, as LLVM's uniquing gives them the same `Constant*`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ConstId(pub u32);

/// The operator of a constant expression.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ExprOp {
    /// A cast (`bitcast (T* @g to i8*)`, `ptrtoint`, ...).
    Cast(CastOp),
    /// A binary operator, with its bitcode flags (nuw/nsw/exact).
    Binary(BinaryOp, u8),
    /// `fneg`.
    FNeg,
    /// `getelementptr [inbounds] (T, T* P, indices...)`: operands are the base, then
    /// the indices.
    GetElementPtr {
        /// The source element type (the `T` LLVM 3.7 and later print first).
        source_ty: TypeId,
        /// `inbounds`.
        inbounds: bool,
        /// `inrange` operand index, if any.
        in_range: Option<u32>,
    },
    /// `icmp`.
    ICmp(IntPred),
    /// `fcmp`.
    FCmp(FloatPred),
    /// `select (c, a, b)`.
    Select,
    /// `extractelement (v, i)`.
    ExtractElement,
    /// `insertelement (v, e, i)`.
    InsertElement,
    /// `shufflevector (a, b, mask)`: the mask is the third operand.
    ShuffleVector,
    /// `extractvalue (agg, indices)`.
    ExtractValue(Vec<u32>),
    /// `insertvalue (agg, val, indices)`.
    InsertValue(Vec<u32>),
}

/// A constant.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Const {
    /// An integer of at most 64 bits, its bits zero-extended (the top bits above the
    /// width are 0).
    Int {
        /// Its integer type.
        ty: TypeId,
        /// The value's bits.
        value: u64,
    },
    /// An integer wider than 64 bits, as little-endian 64-bit words (top bits above the
    /// width are 0).
    WideInt {
        /// Its integer type.
        ty: TypeId,
        /// The words, least significant first.
        words: Vec<u64>,
    },
    /// A floating-point value, as its IEEE (or x87 / double-double) bit pattern.
    Float {
        /// Its type.
        ty: TypeId,
        /// The bits, zero-extended.
        bits: u128,
    },
    /// `null` (a pointer).
    Null(TypeId),
    /// `undef`.
    Undef(TypeId),
    /// `poison`.
    Poison(TypeId),
    /// `zeroinitializer` of an aggregate or vector (or any type).
    Zero(TypeId),
    /// An array, struct or vector constant element by element.
    Aggregate {
        /// Its array, struct or vector type.
        ty: TypeId,
        /// The elements.
        elems: Vec<ConstId>,
    },
    /// An array or vector of integers or floats stored compactly (LLVM's
    /// `ConstantDataSequential`: `c"..."` strings and numeric tables).
    Data {
        /// Its array or vector type.
        ty: TypeId,
        /// The elements' bits (integers zero-extended, floats as bit patterns).
        elems: Vec<u64>,
    },
    /// The address of a function.
    Function(FuncId),
    /// The address of a global variable.
    Global(GlobalId),
    /// The address an alias names.
    Alias(AliasId),
    /// A constant expression.
    Expr {
        /// Its result type.
        ty: TypeId,
        /// The operator.
        op: ExprOp,
        /// The operands.
        operands: Vec<ConstId>,
    },
    /// `blockaddress(@f, %bb)`.
    BlockAddress {
        /// Its pointer type.
        ty: TypeId,
        /// The function.
        func: FuncId,
        /// The block.
        block: BlockId,
    },
}

/// The constants of a module, uniqued.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Consts {
    list: Vec<Const>,
    interned: FastMap<Const, ConstId>,
}

impl Consts {
    /// An empty pool.
    pub fn new() -> Self {
        Self::default()
    }

    /// A pool holding `list` in this order (a constant listed twice keeps its first id for
    /// lookups).
    pub fn from_list(list: Vec<Const>) -> Self {
        let mut interned = FastMap::with_capacity_and_hasher(list.len(), Default::default());
        for (i, c) in list.iter().enumerate() {
            interned.entry(c.clone()).or_insert(ConstId(i as u32));
        }
        Consts { list, interned }
    }

    /// The constant with id `id`.
    ///
    /// # Panics
    /// If `id` is not from this pool.
    #[inline]
    pub fn get(&self, id: ConstId) -> &Const {
        &self.list[id.0 as usize]
    }

    /// The constant with id `id`, if there is one.
    pub fn try_get(&self, id: ConstId) -> Option<&Const> {
        self.list.get(id.0 as usize)
    }

    /// Number of constants.
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// True if the pool is empty.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// The id of `c`, adding it if it is new.
    pub fn intern(&mut self, c: Const) -> ConstId {
        if let Some(&id) = self.interned.get(&c) {
            return id;
        }
        let id = ConstId(self.list.len() as u32);
        self.interned.insert(c.clone(), id);
        self.list.push(c);
        id
    }

    /// The id of `c` if the pool already has it.
    pub fn find(&self, c: &Const) -> Option<ConstId> {
        self.interned.get(c).copied()
    }

    /// An integer constant of type `ty` (`width` bits): `value` truncated to the width.
    pub fn int(&mut self, ty: TypeId, width: u32, value: u64) -> ConstId {
        let value = if width >= 64 { value } else { value & ((1u64 << width) - 1) };
        self.intern(Const::Int { ty, value })
    }
}

impl Const {
    /// The type of a constant that carries it. Function, global and alias addresses don't:
    /// ask the [`Module`](super::Module) (their type is a pointer to the value type, typed or
    /// opaque).
    pub fn own_type(&self) -> Option<TypeId> {
        Some(match self {
            Const::Int { ty, .. }
            | Const::WideInt { ty, .. }
            | Const::Float { ty, .. }
            | Const::Aggregate { ty, .. }
            | Const::Data { ty, .. }
            | Const::Expr { ty, .. }
            | Const::BlockAddress { ty, .. } => *ty,
            Const::Null(ty) | Const::Undef(ty) | Const::Poison(ty) | Const::Zero(ty) => *ty,
            Const::Function(_) | Const::Global(_) | Const::Alias(_) => return None,
        })
    }

    /// The constants this one is built from, in operand order.
    pub fn operands(&self) -> &[ConstId] {
        match self {
            Const::Aggregate { elems, .. } => elems,
            Const::Expr { operands, .. } => operands,
            _ => &[],
        }
    }
}
