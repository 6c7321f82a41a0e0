//! Modules, functions, basic blocks, global variables and aliases.

use super::attributes::Attrs;
use super::constants::{Const, ConstId, Consts};
use super::instructions::{Inst, InstId, InstKind, Value};
use super::types::{Type, TypeId, Types};

/// Index of a function in its module.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FuncId(pub u32);

/// Index of a global variable in its module.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct GlobalId(pub u32);

/// Index of an alias in its module.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct AliasId(pub u32);

/// Index of a basic block in its function (layout order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct BlockId(pub u32);

/// A module-level named value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum GlobalRef {
    /// A function.
    Function(FuncId),
    /// A global variable.
    Global(GlobalId),
    /// An alias.
    Alias(AliasId),
}

/// Linkage of a global value.
#[allow(missing_docs)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Linkage {
    #[default]
    External,
    AvailableExternally,
    LinkOnceAny,
    LinkOnceOdr,
    WeakAny,
    WeakOdr,
    Appending,
    Internal,
    Private,
    ExternalWeak,
    Common,
}

impl Linkage {
    /// The keyword (empty for `external`, which LLVM does not print on definitions).
    pub fn name(self) -> &'static str {
        use Linkage::*;
        match self {
            External => "",
            AvailableExternally => "available_externally",
            LinkOnceAny => "linkonce",
            LinkOnceOdr => "linkonce_odr",
            WeakAny => "weak",
            WeakOdr => "weak_odr",
            Appending => "appending",
            Internal => "internal",
            Private => "private",
            ExternalWeak => "extern_weak",
            Common => "common",
        }
    }

    /// True for `internal` and `private`.
    pub fn is_local(self) -> bool {
        matches!(self, Linkage::Internal | Linkage::Private)
    }
}

/// Visibility of a global value.
#[allow(missing_docs)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Visibility {
    #[default]
    Default,
    Hidden,
    Protected,
}

/// Thread-local mode of a global variable.
#[allow(missing_docs)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum ThreadLocal {
    #[default]
    NotThreadLocal,
    GeneralDynamic,
    LocalDynamic,
    InitialExec,
    LocalExec,
}

/// `unnamed_addr` / `local_unnamed_addr`.
#[allow(missing_docs)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum UnnamedAddr {
    #[default]
    None,
    Global,
    Local,
}

/// Properties every global value has.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GlobalProps {
    /// The name, without `@`; empty for an unnamed value (`@0`).
    pub name: String,
    /// Linkage.
    pub linkage: Linkage,
    /// Visibility.
    pub visibility: Visibility,
    /// `unnamed_addr`.
    pub unnamed_addr: UnnamedAddr,
    /// `dso_local`.
    pub dso_local: bool,
    /// `section "..."`.
    pub section: Option<String>,
    /// Alignment in bytes (0: none given).
    pub align: u32,
    /// Address space.
    pub addr_space: u32,
}

/// A basic block.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Block {
    /// Its name (`%entry`), if it has one.
    pub name: Option<String>,
    /// Its instructions, in order, the terminator last.
    pub insts: Vec<InstId>,
}

/// A function parameter.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Param {
    /// Its name, if it has one.
    pub name: Option<String>,
}

/// A function: declared, or defined with a body.
#[derive(Clone, Debug, PartialEq)]
pub struct Function {
    /// Name, linkage and the rest.
    pub props: GlobalProps,
    /// The function type.
    pub ty: TypeId,
    /// Calling convention (0 = C).
    pub cc: u32,
    /// Function, return and parameter attributes.
    pub attrs: Attrs,
    /// `gc "..."`.
    pub gc: Option<String>,
    /// `personality` (C++ exceptions).
    pub personality: Option<ConstId>,
    /// Parameters (as many as the type has).
    pub params: Vec<Param>,
    /// Basic blocks in layout order; empty for a declaration.
    pub blocks: Vec<Block>,
    /// Every instruction of the body, by [`InstId`]. Blocks list the live ones in order;
    /// an instruction no block lists is dead (passes may leave such slots).
    pub insts: Vec<Inst>,
}

impl Function {
    /// True for a declaration (no body).
    pub fn is_declaration(&self) -> bool {
        self.blocks.is_empty()
    }

    /// The instruction `id`.
    #[inline]
    pub fn inst(&self, id: InstId) -> &Inst {
        &self.insts[id.0 as usize]
    }

    /// The instruction `id`, mutably.
    #[inline]
    pub fn inst_mut(&mut self, id: InstId) -> &mut Inst {
        &mut self.insts[id.0 as usize]
    }

    /// Adds an instruction to the arena (not to any block) and returns its id.
    pub fn add_inst(&mut self, inst: Inst) -> InstId {
        let id = InstId(self.insts.len() as u32);
        self.insts.push(inst);
        id
    }

    /// The live instructions in layout order, with their blocks.
    pub fn layout(&self) -> impl Iterator<Item = (BlockId, InstId)> + '_ {
        self.blocks.iter().enumerate().flat_map(|(b, blk)| blk.insts.iter().map(move |&i| (BlockId(b as u32), i)))
    }

    /// True if the function is an LLVM intrinsic (`llvm.*`).
    pub fn is_intrinsic(&self) -> bool {
        self.props.name.starts_with("llvm.")
    }
}

/// A global variable.
#[derive(Clone, Debug, PartialEq)]
pub struct GlobalVar {
    /// Name, linkage and the rest.
    pub props: GlobalProps,
    /// The type of the value stored (the global's own type is a pointer to it).
    pub value_ty: TypeId,
    /// `constant` rather than `global`.
    pub is_constant: bool,
    /// The initializer; `None` for a declaration.
    pub init: Option<ConstId>,
    /// Thread-local mode.
    pub thread_local: ThreadLocal,
    /// `externally_initialized`.
    pub externally_initialized: bool,
}

/// An alias (`@a = alias T, T* @b`).
#[derive(Clone, Debug, PartialEq)]
pub struct Alias {
    /// Name, linkage and the rest.
    pub props: GlobalProps,
    /// The aliased value's type.
    pub value_ty: TypeId,
    /// What it names.
    pub aliasee: ConstId,
    /// Thread-local mode.
    pub thread_local: ThreadLocal,
}

/// `module asm`, `asm sideeffect ...`: an inline-assembly callee.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct InlineAsm {
    /// Its function type.
    pub fn_ty: TypeId,
    /// The assembly text.
    pub asm: String,
    /// The constraint string.
    pub constraints: String,
    /// `sideeffect`.
    pub side_effects: bool,
    /// `alignstack`.
    pub align_stack: bool,
    /// `inteldialect`.
    pub intel_dialect: bool,
}

/// An LLVM module.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Module {
    /// `target triple`.
    pub triple: String,
    /// `target datalayout`.
    pub datalayout: String,
    /// `source_filename`.
    pub source_filename: Option<String>,
    /// Module-level inline assembly.
    pub module_asm: String,
    /// The producer named by the identification block (`LLVM14.0.6`), if any.
    pub producer: Option<String>,
    /// True when pointers are opaque (`ptr`, LLVM 15 and newer); false for typed pointers.
    pub opaque_pointers: bool,
    /// Every type.
    pub types: Types,
    /// Every constant.
    pub consts: Consts,
    /// Global variables, in module order.
    pub globals: Vec<GlobalVar>,
    /// Functions, in module order.
    pub functions: Vec<Function>,
    /// Aliases, in module order.
    pub aliases: Vec<Alias>,
    /// Inline-assembly callees.
    pub inline_asms: Vec<InlineAsm>,
    /// Names of the module's named metadata (`!llvm.module.flags`, `!llvm.dbg.cu`, ...);
    /// their contents are not kept.
    pub named_metadata: Vec<String>,
    /// The order in which LLVM's reader entered the module's global names into its symbol
    /// table: the order of the input's module symbol-table records (LLVM 3.x), or of the
    /// global-value records when names come from a string table (LLVM 5 and newer).
    /// `freeze` needs it to reproduce LLVM's hash-table iteration order; a module built by
    /// other means may leave it empty (module order is then assumed).
    pub name_order: Vec<GlobalRef>,
    /// True when the file named its globals through a string table (LLVM 5 and newer), so
    /// that [`Module::name_order`] is record order, not the order of a symbol table.
    pub names_from_string_table: bool,
    /// True when the file's instruction records carry explicit types (LLVM 3.7 and newer
    /// write loads, GEPs and calls that way), a sign of the LLVM that wrote it.
    pub explicit_type_records: bool,
}

impl Module {
    /// The type of the address of a global value of type `value_ty` in `addr_space`: `T*`
    /// with typed pointers, `ptr` with opaque ones.
    pub fn pointer_type(&mut self, value_ty: TypeId, addr_space: u32) -> TypeId {
        let pointee = (!self.opaque_pointers).then_some(value_ty);
        self.types.intern(Type::Pointer { pointee, addr_space })
    }

    /// The type of a constant (for function, global and alias addresses, the pointer
    /// type, which must already be in the type table).
    pub fn const_type(&self, c: ConstId) -> Option<TypeId> {
        let c = self.consts.get(c);
        if let Some(t) = c.own_type() {
            return Some(t);
        }
        let (value_ty, addr_space) = match *c {
            Const::Function(f) => (self.functions[f.0 as usize].ty, self.functions[f.0 as usize].props.addr_space),
            Const::Global(g) => (self.globals[g.0 as usize].value_ty, self.globals[g.0 as usize].props.addr_space),
            Const::Alias(a) => (self.aliases[a.0 as usize].value_ty, self.aliases[a.0 as usize].props.addr_space),
            _ => return None,
        };
        let pointee = (!self.opaque_pointers).then_some(value_ty);
        self.types.find(&Type::Pointer { pointee, addr_space })
    }

    /// The type of `v` inside function `f`.
    pub fn value_type(&self, f: FuncId, v: Value) -> Option<TypeId> {
        let func = &self.functions[f.0 as usize];
        match v {
            Value::Const(c) => self.const_type(c),
            Value::Arg(i) => self.types.as_function(func.ty).and_then(|(_, p, _)| p.get(i as usize).copied()),
            Value::Inst(i) => func.insts.get(i.0 as usize).map(|inst| inst.ty),
            Value::InlineAsm(a) => {
                let fn_ty = self.inline_asms.get(a.0 as usize)?.fn_ty;
                let pointee = (!self.opaque_pointers).then_some(fn_ty);
                self.types.find(&Type::Pointer { pointee, addr_space: 0 })
            }
            Value::Metadata => self.types.find(&Type::Metadata),
        }
    }

    /// The properties of a global value.
    pub fn props(&self, r: GlobalRef) -> &GlobalProps {
        match r {
            GlobalRef::Function(f) => &self.functions[f.0 as usize].props,
            GlobalRef::Global(g) => &self.globals[g.0 as usize].props,
            GlobalRef::Alias(a) => &self.aliases[a.0 as usize].props,
        }
    }

    /// The function a value names directly (a function address constant), if any.
    pub fn as_function(&self, v: Value) -> Option<FuncId> {
        match v {
            Value::Const(c) => match self.consts.get(c) {
                Const::Function(f) => Some(*f),
                _ => None,
            },
            _ => None,
        }
    }

    /// The function named `name`, if any.
    pub fn function_by_name(&self, name: &str) -> Option<FuncId> {
        self.functions.iter().position(|f| f.props.name == name).map(|i| FuncId(i as u32))
    }

    /// The callee of a direct call or invoke, if the instruction is one.
    pub fn direct_callee(&self, inst: &Inst) -> Option<FuncId> {
        match &inst.kind {
            InstKind::Call { callee, .. } | InstKind::Invoke { callee, .. } => self.as_function(*callee),
            _ => None,
        }
    }
}
