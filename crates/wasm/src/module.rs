//! The module: its index spaces, what every function's translation needs from them
//! ([`Env`]), and the assembly of the sections.
//!
//! Functions: the IRT imports (`irt.*`, in [`crate::irt::functions`]'s order), the
//! `pnacl.fmod` import, the module's defined functions in order, then the helpers
//! ([`Helper`]), the signature getters and the call adapters. Globals: the stack pointer,
//! the thread pointer, the stack limit, the setjmp token counter and the function that
//! last called longjmp, all per instance (so per thread). Table 0 holds the guest's
//! functions (`@fN` at index N) and the IRT's after them; table 1, when a call needs an
//! adapter, a signature getter at the same indices.

use crate::error::Refusal;
use crate::irt;
use crate::layout::{Layout, PAGE};
use pnacl_bitcode::Module;
use pnacl_bitcode::abi::{Intrinsic, IntrinsicKind as K, intrinsic};
use pnacl_bitcode::ir::{Inst, Linkage, Ty, ValueId};
use std::collections::HashMap;
use wasm_encoder::ValType;

/// The stack pointer global.
pub const GLOBAL_SP: u32 = 0;
/// The thread pointer global.
pub const GLOBAL_TP: u32 = 1;
/// The stack limit global.
pub const GLOBAL_STACK_LIMIT: u32 = 2;
/// The setjmp token counter global.
pub const GLOBAL_SJLJ_NEXT: u32 = 3;
/// The global naming the function that last called longjmp.
pub const GLOBAL_LONGJMP_FROM: u32 = 4;
/// The tag longjmp throws.
pub const LONGJMP_TAG: u32 = 0;

/// Helper functions the translated code calls.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Helper {
    /// `llvm.trap`: traps ("llvm.trap called").
    TrapLlvm,
    /// The guest stack is exhausted: traps.
    TrapStack,
    /// A call with the wrong signature: traps.
    TrapSignature,
    /// An access to the null page (`--checked`): traps.
    TrapNull,
    /// A memory intrinsic's range runs past 4 GiB: traps.
    TrapIntrinsic,
    /// `memcpy(dst, src, len)`.
    Memcpy,
    /// `memmove(dst, src, len)`.
    Memmove,
    /// `memset(dst, byte, len)`.
    Memset,
    /// Copies the globals' initial contents into memory (once, by the main thread).
    InitMemory,
    /// Calls a guest function value of type `void ()` (a new thread's start).
    ThreadEntry,
}

impl Helper {
    /// Every helper, in function index order.
    pub const ALL: [Helper; 10] = [
        Helper::TrapLlvm,
        Helper::TrapStack,
        Helper::TrapSignature,
        Helper::TrapNull,
        Helper::TrapIntrinsic,
        Helper::Memcpy,
        Helper::Memmove,
        Helper::Memset,
        Helper::InitMemory,
        Helper::ThreadEntry,
    ];

    /// The trap message of a helper that traps (its callers are named in the message).
    pub fn trap_message(self) -> Option<&'static str> {
        Some(match self {
            Helper::TrapLlvm => "llvm.trap called",
            Helper::TrapStack => "guest stack exhausted",
            Helper::TrapSignature => "indirect call signature mismatch",
            Helper::TrapNull => "memory access out of bounds",
            Helper::TrapIntrinsic => "memory intrinsic out of bounds",
            _ => return None,
        })
    }

    /// True for a helper that traps' callers are named in messages instead of it (its own
    /// traps keep wasm's message).
    pub fn is_transparent(self) -> bool {
        matches!(self, Helper::Memcpy | Helper::Memmove | Helper::Memset)
    }

    /// Its name in the name section.
    pub fn name(self) -> &'static str {
        match self {
            Helper::TrapLlvm => "pnacl.trap.llvm",
            Helper::TrapStack => "pnacl.trap.stack",
            Helper::TrapSignature => "pnacl.trap.signature",
            Helper::TrapNull => "pnacl.trap.null",
            Helper::TrapIntrinsic => "pnacl.trap.intrinsic",
            Helper::Memcpy => "pnacl.memcpy",
            Helper::Memmove => "pnacl.memmove",
            Helper::Memset => "pnacl.memset",
            Helper::InitMemory => "pnacl.init_memory",
            Helper::ThreadEntry => "pnacl.thread_entry",
        }
    }
}

/// The wasm type of a PNaCl value type.
pub fn val_type(t: Ty) -> ValType {
    match t {
        Ty::I64 => ValType::I64,
        Ty::Float => ValType::F32,
        Ty::Double => ValType::F64,
        t if t.is_vector() => ValType::V128,
        _ => ValType::I32,
    }
}

/// A function type: parameters and results.
pub type FuncType = (Vec<ValType>, Vec<ValType>);

/// The wasm type of a PNaCl signature.
pub fn func_type(ret: Ty, params: &[Ty]) -> FuncType {
    let results = if ret == Ty::Void { Vec::new() } else { vec![val_type(ret)] };
    (params.iter().map(|&p| val_type(p)).collect(), results)
}

/// What every function's translation needs from the module.
pub(crate) struct Env<'m> {
    pub m: &'m Module,
    pub layout: Layout,
    /// Each function's name in messages (the symbol table's, or `@fN`).
    pub names: Vec<String>,
    /// The intrinsic each declared function is, if any.
    intrinsics: Vec<Option<&'static Intrinsic>>,
    /// The wasm function index of each defined module function (`u32::MAX` if none).
    functions: Vec<u32>,
    /// The host functions the module imports, in table order ([`irt::functions`]).
    pub host: &'static [irt::HostFunction],
    /// The `pnacl.fmod` import.
    pub fmod: u32,
    /// The first helper's index.
    first_helper: u32,
    /// The types, interned.
    pub types: Vec<FuncType>,
    type_ids: HashMap<FuncType, u32>,
    /// Call sites that need an adapter: their type, and the adapter's function index.
    pub adapters: Vec<(FuncType, u32)>,
    adapter_ids: HashMap<FuncType, u32>,
    /// The distinct types of the table's entries, when there are adapters (a signature
    /// getter each, in this order).
    pub getters: Vec<FuncType>,
    /// Trap below 64 KiB.
    pub checked: bool,
    /// The memory is shared: the program may start threads. When it is not, the program
    /// is the memory's only agent (the host refuses `thread_create` then), so its atomics
    /// are plain accesses and its fences nothing, as emscripten lowers them without
    /// pthreads: a locked `xchg` costs more than malloc's whole fast path.
    pub shared: bool,
    /// It is a browser (PPAPI) program ([`crate::is_browser_program`]).
    pub browser: bool,
    /// The module calls setjmp or longjmp.
    pub sjlj: bool,
}

impl<'m> Env<'m> {
    /// Lays out the index spaces of `m`.
    pub fn new(m: &'m Module, options: &crate::Options) -> Result<Env<'m>, Refusal> {
        let layout = Layout::new(m).map_err(Refusal::module)?;
        let names_table = m.names();
        let names: Vec<String> = (0..m.functions.len() as u32)
            .map(|f| match names_table.get(ValueId(f)) {
                Some(n) => String::from_utf8_lossy(n).into_owned(),
                None => format!("@f{f}"),
            })
            .collect();
        let intrinsics: Vec<Option<&'static Intrinsic>> = (0..m.functions.len() as u32)
            .map(|f| {
                if m.functions[f as usize].body.is_none() {
                    names_table.get(ValueId(f)).and_then(intrinsic)
                } else {
                    None
                }
            })
            .collect();
        let browser = crate::is_browser_program(m);
        let shared = options.shared_memory || browser || crate::data_contains(m, irt::THREAD_INTERFACE);
        let host = irt::functions(browser);
        let fmod = host.len() as u32;
        let mut next = fmod + 1;
        let functions = m
            .functions
            .iter()
            .map(|f| {
                if f.body.is_some() {
                    next += 1;
                    next - 1
                } else {
                    u32::MAX
                }
            })
            .collect();
        let first_helper = next;
        let mut env = Env {
            m,
            layout,
            names,
            intrinsics,
            functions,
            host,
            fmod,
            first_helper,
            types: Vec::new(),
            type_ids: HashMap::new(),
            adapters: Vec::new(),
            adapter_ids: HashMap::new(),
            getters: Vec::new(),
            checked: options.checked,
            shared,
            browser,
            sjlj: false,
        };
        env.number_types();
        Ok(env)
    }

    /// Interns every type the module needs, and finds the call sites that need adapters.
    fn number_types(&mut self) {
        let m = self.m;
        for h in self.host {
            self.intern(func_type(h.ret, h.params));
        }
        self.intern((vec![ValType::F64, ValType::F64], vec![ValType::F64]));
        // The table's signatures, for adapters.
        let mut table_types: Vec<FuncType> = self.host.iter().map(|h| func_type(h.ret, h.params)).collect();
        // Functions share their signatures: each type id is converted and interned once
        // (the first time, so the type indices come out in the same order).
        let (mut interned, mut in_table) = (vec![false; m.types.len()], vec![false; m.types.len()]);
        for (f, func) in m.functions.iter().enumerate() {
            let k = func.ty as usize;
            let first = !interned.get(k).copied().unwrap_or(false);
            let table_first = func.body.is_some() && !in_table.get(k).copied().unwrap_or(false);
            if !first && !table_first {
                continue;
            }
            let s = m.signature(f as u32);
            let t = func_type(s.ret, &s.params);
            if table_first {
                in_table[k] = true;
                table_types.push(t.clone());
            }
            if first {
                interned[k] = true;
                self.intern(t);
            }
        }
        for h in Helper::ALL {
            self.intern(helper_type(h));
        }
        self.intern((Vec::new(), vec![ValType::I32]));
        let mut sites: Vec<FuncType> = Vec::new();
        for (f, func) in m.functions.iter().enumerate() {
            let Some(body) = &func.body else { continue };
            let space = m.value_space(f as u32);
            let ty = |v: ValueId| match space.kind(v) {
                pnacl_bitcode::ir::ValueKind::Function(_) | pnacl_bitcode::ir::ValueKind::Global(_) => Ty::I32,
                _ => body.local_types.get((v.0 - space.first_param()) as usize).copied().unwrap_or(Ty::I32),
            };
            for inst in &body.insts {
                let Inst::Call { callee, indirect_ret, args, .. } = *inst else { continue };
                if let Some(ret) = indirect_ret {
                    let params: Vec<Ty> = body.args(args).map(ty).collect();
                    sites.push(func_type(ret, &params));
                } else if self
                    .intrinsics
                    .get(callee.0 as usize)
                    .copied()
                    .flatten()
                    .is_some_and(|i| matches!(i.kind, K::Setjmp | K::Longjmp))
                {
                    self.sjlj = true;
                }
            }
        }
        sites.sort();
        sites.dedup();
        let table: std::collections::HashSet<FuncType> = table_types.into_iter().collect();
        let mut next_adapter = self.first_helper + Helper::ALL.len() as u32;
        let getters: Vec<FuncType> = {
            let mut t: Vec<FuncType> = table.iter().cloned().collect();
            t.sort();
            t
        };
        let need: Vec<FuncType> =
            sites.iter().filter(|site| table.iter().any(|t| t != *site && compatible(site, t))).cloned().collect();
        if !need.is_empty() {
            next_adapter += getters.len() as u32;
        }
        for s in sites {
            self.intern(s);
        }
        self.intern(crate::assemble::longjmp_type());
        if !need.is_empty() {
            self.getters = getters;
        }
        for s in need {
            self.intern(crate::assemble::adapter_type(&s));
            self.adapter_ids.insert(s.clone(), next_adapter);
            self.adapters.push((s, next_adapter));
            next_adapter += 1;
        }
    }

    fn intern(&mut self, t: FuncType) -> u32 {
        if let Some(&k) = self.type_ids.get(&t) {
            return k;
        }
        let k = self.types.len() as u32;
        self.types.push(t.clone());
        self.type_ids.insert(t, k);
        k
    }

    /// The type index of a signature, if the module uses it.
    pub fn type_index(&self, ret: Ty, params: &[Ty]) -> Option<u32> {
        self.type_ids.get(&func_type(ret, params)).copied()
    }

    /// The type index of a function type the module uses.
    pub fn type_of(&self, t: &FuncType) -> u32 {
        self.type_ids[t]
    }

    /// The type index of a function type, if the module uses it.
    pub(crate) fn type_ids_get(&self, t: &FuncType) -> Option<u32> {
        self.type_ids.get(t).copied()
    }

    /// The adapter for indirect calls of this signature, if they need one.
    pub fn adapter(&self, ret: Ty, params: &[Ty]) -> Option<u32> {
        if self.adapters.is_empty() {
            return None;
        }
        self.adapter_ids.get(&func_type(ret, params)).copied()
    }

    /// The intrinsic function `f` is, if it is one.
    pub fn intrinsic(&self, f: u32) -> Option<&'static Intrinsic> {
        self.intrinsics.get(f as usize).copied().flatten()
    }

    /// The wasm index of defined module function `f`.
    pub fn function_index(&self, f: u32) -> u32 {
        self.functions[f as usize]
    }

    /// The wasm index of the first defined function; the others follow it in order.
    pub fn first_defined(&self) -> u32 {
        self.fmod + 1
    }

    /// The wasm indices of the defined module functions (`u32::MAX` for declarations).
    pub fn function_indices(&self) -> &[u32] {
        &self.functions
    }

    /// The index of a helper.
    pub fn helper(&self, h: Helper) -> u32 {
        self.first_helper + Helper::ALL.iter().position(|&x| x == h).expect("listed") as u32
    }

    /// The index of the first signature getter (when there are adapters).
    pub fn first_getter(&self) -> u32 {
        self.first_helper + Helper::ALL.len() as u32
    }

    /// The entry point: the one defined function with external linkage, taking one `i32`.
    pub fn entry(&self) -> Result<u32, Refusal> {
        let m = self.m;
        let f = m
            .functions
            .iter()
            .position(|f| f.linkage == Linkage::External && f.body.is_some())
            .ok_or_else(|| Refusal::module("the module defines no entry point (_start)"))? as u32;
        if m.signature(f).params != [Ty::I32] {
            return Err(Refusal::module(format!("the entry point {} does not take one i32", self.names[f as usize])));
        }
        Ok(f)
    }

    /// The number of 64 KiB pages the module starts with.
    pub fn initial_pages(&self) -> u32 {
        self.layout.initial_pages().max(1)
    }

    /// The largest number of pages memory may grow to.
    pub fn maximum_pages(&self) -> u32 {
        (1u64 << 32).div_ceil(u64::from(PAGE)) as u32
    }
}

/// The type of a helper.
pub fn helper_type(h: Helper) -> FuncType {
    use ValType::I32;
    match h {
        Helper::Memcpy | Helper::Memmove | Helper::Memset => (vec![I32, I32, I32], Vec::new()),
        Helper::ThreadEntry => (vec![I32], Vec::new()),
        _ => (Vec::new(), Vec::new()),
    }
}

/// Whether a function of type `entry` may be called through a call site of type `site`:
/// its parameters begin the site's (the others are dropped), and its result is the site's,
/// or none where the site wants one (the site gets zero), or a scalar where the site wants
/// none (dropped): [`pnacl_bitcode::abi::call_result_compatible`] in wasm's types.
pub(crate) fn compatible(site: &FuncType, entry: &FuncType) -> bool {
    site.0.starts_with(&entry.0)
        && (site.1 == entry.1
            || (entry.1.is_empty() && site.1.len() == 1)
            || (site.1.is_empty()
                && matches!(entry.1[..], [ValType::I32 | ValType::I64 | ValType::F32 | ValType::F64])))
}
