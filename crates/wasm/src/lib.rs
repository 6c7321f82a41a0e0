//! PNaCl IR to one WebAssembly module, and the JavaScript host that runs it.
//!
//! [`translate`] takes a [`Module`] (read by `pnacl-bitcode`, checked by `pnacl-verify`)
//! and writes one wasm module with `wasm-encoder`; [`validate`] checks it with
//! `wasmparser` against exactly the features it uses. No LLVM, no external tool: the crate
//! builds for `wasm32-unknown-unknown`, so the translator can run in a browser. The host,
//! plain ES modules in `js/` ([`HOST_FILES`]), provides the NaCl IRT in JavaScript, the
//! same in Node and in browsers (see `js/README.md`).
//!
//! # Design
//!
//! **Memory.** Guest addresses are wasm32 addresses in one imported linear memory
//! (`env.memory`), so pointers keep their values: the globals are laid out exactly as
//! `pnacl run` lays them out ([`layout`]), from 64 KiB; the main thread's stack (16 MiB,
//! allocas only: wasm keeps the call stack itself) follows them, then the heap, which the
//! IRT's `mmap` grows with `memory.grow`. The first 64 KiB are never handed out. An
//! access there does not trap by default (wasm cannot protect a page; it reads the zeros
//! that are there, or writes them); [`Options::checked`] (`pnacl wasm --checked`) adds a
//! check before every access that traps with `memory access out of bounds`, as `pnacl run`
//! does. Constants are not read-only. The memory is shared (and the threads feature
//! declared) when the program may start threads: its data names `nacl-irt-thread-0.1`, the
//! interface newlib's pthreads ask for, or it is a browser program; otherwise it is plain,
//! so that a single-threaded program runs where `SharedArrayBuffer` is not available.
//! On a shared memory PNaCl's atomics are wasm atomics; on a plain one the program is the
//! memory's only agent (the host refuses `thread_create`), so they are plain accesses and
//! fences are nothing, which makes newlib's locks free ([`Options::shared_memory`] forces a
//! shared memory).
//!
//! **Functions and the table.** One table holds the module's functions (`@fN` at index
//! N, declarations null) and then the IRT's, as `pnacl run` numbers them; a function's
//! guest value is `(index + 1) * 16`, the same number as under `pnacl run` (16-aligned,
//! never 0). An indirect call turns the value back into an index with `(v - 16) rotr 4`
//! (any other value lands past the table: "indirect call to a non-function") and uses
//! `call_indirect`, whose signature check wasm does. `pnacl run`'s rule for compatible
//! signatures (more arguments than the callee declares; a result the callee lacks, which
//! is zero, or one the call does not want, which is dropped) is kept by adapters: a call
//! site with a compatible signature that some table entry has calls a generated adapter,
//! which reads the entry's signature from a second table of getters and calls it with the
//! arguments it declares. A call through a function's own address is decided at
//! translation time.
//!
//! **Control flow.** Each function's blocks (split after setjmp calls) form a graph
//! ([`cfg`](mod@cfg)); irreducible loops get a dispatch node ([`irreducible`]); Ramsey's
//! translation over the dominator tree (`function/structure.rs`) gives `block`s,
//! `loop`s and `br`s. Phis are locals assigned on the edges; a value with one use later in
//! the same block stays on the wasm stack.
//!
//! **Before and after.** A finalized pexe never went through a code generator, and V8
//! neither inlines wasm calls nor leaves its baseline code for a function called once
//! (a benchmark's `main`), so the translator does what pnacl-llc did for such code: it
//! removes common subexpressions (`cse.rs`: the repeated address arithmetic of field
//! accesses), folds a constant offset below 64 KiB into the access that alone uses it
//! (`function/memory.rs`), and inlines small functions that cannot trap or touch memory
//! (`inline`: newlib's `__fpclassifyd` in `sqrt`). A `compilationHints` section
//! (`hints.rs`) asks V8 to compile functions with nested loops and few call sites with
//! TurboFan from their first call, since V8 cannot move a running call out of its
//! baseline code.
//!
//! **setjmp/longjmp** use exception handling (the legacy `try`/`catch`/`throw`, which Node
//! 20 runs; see `function/intrinsics.rs`): `longjmp` throws, the frame that called
//! `setjmp` catches, checks its token in the `jmp_buf` and re-enters its body at the code
//! after that setjmp call through its entry dispatch.
//!
//! **Traps** are wasm's own where wasm has the trap (division, memory, unreachable,
//! indirect calls, the call stack); the others are calls of helper functions that trap,
//! whose index the host maps to `pnacl run`'s message ([`meta`]). The host reads the
//! function name from the stack trace and the name section.
//!
//! **Threads.** Globals (the stack and thread pointers, the stack limit) are per
//! instance; every guest thread is a Worker with its own instance of the module on the
//! shared memory. The data is copied in by `pnacl_init_memory`, which the host calls once.
//!
//! # What the next steps are
//!
//! Threads in the browser (the host already runs every guest thread, the main one
//! included, in a Worker), the csmith runs, performance (folding constant offsets into
//! accesses where the address cannot wrap, local reuse, a buffered stdout), `--html` and
//! `pnacl serve`.

mod assemble;
pub mod cfg;
mod cse;
mod error;
mod function;
mod hints;
mod host;
mod inline;
pub mod irreducible;
pub mod irt;
pub mod layout;
pub mod meta;
mod module;

pub use error::Refusal;
pub use host::{EMBED_SCRIPT, HOST_BUNDLED, HOST_DIR, HOST_FILES, ISOLATION_WORKER, html_escape, launcher, page};

use pnacl_bitcode::Module;
use pnacl_bitcode::ir::Init;
use rayon::prelude::*;
use wasmparser::WasmFeatures;

/// How to translate.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Trap on accesses to the null page (below 64 KiB), as `pnacl run` does.
    pub checked: bool,
    /// Give the module a shared memory (and its atomics wasm atomics) even if it never
    /// starts threads, as if it named `nacl-irt-thread-0.1`: for a host where other agents
    /// share the memory. Otherwise only a program that may start threads gets one, and a
    /// program alone on its memory gets plain accesses for its atomics.
    pub shared_memory: bool,
}

/// A translated module.
#[derive(Clone, Debug)]
pub struct Output {
    /// The module's bytes.
    pub wasm: Vec<u8>,
    /// The features it uses.
    pub features: WasmFeatures,
    /// Its memory is shared.
    pub shared: bool,
    /// It is a browser (PPAPI) program.
    pub browser: bool,
}

/// True if a global's data contains `needle`.
pub(crate) fn data_contains(m: &Module, needle: &[u8]) -> bool {
    m.globals
        .iter()
        .any(|g| g.inits.iter().any(|i| matches!(i, Init::Data(d) if d.windows(needle.len()).any(|w| w == needle))))
}

/// True if `m` is a browser (PPAPI) program: its data names the `nacl-irt-ppapihook`
/// interface (as `pnacl run` decides).
pub fn is_browser_program(m: &Module) -> bool {
    data_contains(m, irt::PPAPI_PREFIX)
}

/// Translates a module (which should have passed `pnacl-verify`: the translator refuses
/// what it cannot translate, and never panics on what the reader accepts).
pub fn translate(m: &Module, options: &Options) -> Result<Output, Refusal> {
    let env = module::Env::new(m, options)?;
    let entry = env.entry()?;
    let defined: Vec<u32> = m.defined_functions().collect();
    let bodies: Vec<Result<function::Body, Refusal>> =
        defined.par_iter().map(|&f| function::translate(&env, f)).collect();
    let mut bodies = bodies.into_iter().collect::<Result<Vec<_>, _>>()?;
    inline::inline_small_calls(&env, &defined, &mut bodies);
    let (shared, browser) = (env.shared, env.browser);
    let parts = assemble::Parts { bodies, entry };
    let wasm = assemble::module(&env, parts);
    let mut features = WasmFeatures::MUTABLE_GLOBAL
        | WasmFeatures::SATURATING_FLOAT_TO_INT
        | WasmFeatures::SIGN_EXTENSION
        | WasmFeatures::FLOATS
        | WasmFeatures::BULK_MEMORY
        | WasmFeatures::GC_TYPES;
    let vectors = m.types.iter().any(|t| matches!(t, pnacl_bitcode::ir::TypeDef::Value(v) if v.is_vector()))
        || m.functions.iter().filter_map(|f| f.body.as_ref()).any(|b| b.local_types.iter().any(|t| t.is_vector()));
    if vectors {
        features |= WasmFeatures::SIMD;
    }
    // Atomics are wasm atomics only on a shared memory (see `module::Env::shared`).
    if shared {
        features |= WasmFeatures::THREADS;
    }
    if env.sjlj {
        features |= WasmFeatures::EXCEPTIONS | WasmFeatures::LEGACY_EXCEPTIONS;
    }
    if !env.adapters.is_empty() {
        features |= WasmFeatures::REFERENCE_TYPES;
    }
    Ok(Output { wasm, features, shared, browser })
}

/// Checks a translated module with `wasmparser`, with exactly the features it declares.
pub fn validate(out: &Output) -> Result<(), String> {
    let mut v = wasmparser::Validator::new_with_features(out.features);
    v.validate_all(&out.wasm).map(|_| ()).map_err(|e| e.to_string())
}
