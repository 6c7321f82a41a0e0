//! The contract between translated code and the runtime: the per-thread context every
//! guest function receives, the table indirect calls go through, the host helpers the code
//! calls, the guest memory map and the trap codes.

use cranelift_codegen::ir::TrapCode;

/// The per-thread context. Translated functions receive a pointer to it as their first
/// (hidden) parameter; host functions called from guest code receive it too.
///
/// It lives in host memory, out of the guest's reach.
#[repr(C)]
#[derive(Debug, Default)]
pub struct VmCtx {
    /// The guest stack pointer (allocas grow down from it).
    pub guest_sp: u32,
    /// The lowest the guest stack pointer may go.
    pub guest_stack_limit: u32,
    /// The thread pointer (`llvm.nacl.read.tp`, IRT `tls_get`).
    pub tp: u32,
    /// The guest function on whose behalf host code is touching guest memory (memory
    /// intrinsics set it), so that a fault there can name the function.
    pub host_caller: u32,
    /// Non-zero once the process has more than one thread: atomic operations must then be
    /// real locked ones. Set in every thread's context when the first extra thread starts.
    pub threads_started: u32,
    /// Unused; keeps the next field 8-aligned.
    pub _pad: u32,
    /// The lowest host stack address translated code may use (checked in every prologue).
    pub host_stack_limit: u64,
    /// The runtime's per-process state (opaque to translated code).
    pub runtime: u64,
    /// The runtime's per-thread state (opaque to translated code).
    pub thread: u64,
}

/// The largest frame (below the saved frame pointer: callee-saved registers, spill slots,
/// stack slots and outgoing arguments) a translated function may have without checking the
/// host stack in its prologue; such a function checks before its calls instead. It may
/// therefore run up to `16 + MAX_UNCHECKED_FRAME` bytes below
/// [`VmCtx::host_stack_limit`] (return address and saved frame pointer included), and the
/// runtime must keep that much host stack below the limit, beyond what host functions the
/// guest calls need.
pub const MAX_UNCHECKED_FRAME: u32 = 4096;

/// Offset of [`VmCtx::guest_sp`].
pub const VMCTX_GUEST_SP: i32 = std::mem::offset_of!(VmCtx, guest_sp) as i32;
/// Offset of [`VmCtx::guest_stack_limit`].
pub const VMCTX_GUEST_STACK_LIMIT: i32 = std::mem::offset_of!(VmCtx, guest_stack_limit) as i32;
/// Offset of [`VmCtx::tp`].
pub const VMCTX_TP: i32 = std::mem::offset_of!(VmCtx, tp) as i32;
/// Offset of [`VmCtx::host_caller`].
pub const VMCTX_HOST_CALLER: i32 = std::mem::offset_of!(VmCtx, host_caller) as i32;
/// Offset of [`VmCtx::threads_started`].
pub const VMCTX_THREADS_STARTED: i32 = std::mem::offset_of!(VmCtx, threads_started) as i32;
/// Offset of [`VmCtx::host_stack_limit`].
pub const VMCTX_HOST_STACK_LIMIT: i32 = std::mem::offset_of!(VmCtx, host_stack_limit) as i32;

/// An entry of the function table: what a guest function value designates.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct TableEntry {
    /// The code to call (with the guest calling convention: `vmctx` first).
    pub code: u64,
    /// The signature id the caller must use ([`NO_SIGNATURE`] for the null entry).
    pub sig: u32,
    /// Padding.
    pub _pad: u32,
}

/// Offset of [`TableEntry::code`].
pub const ENTRY_CODE: i32 = std::mem::offset_of!(TableEntry, code) as i32;
/// Offset of [`TableEntry::sig`].
pub const ENTRY_SIG: i32 = std::mem::offset_of!(TableEntry, sig) as i32;
/// log2 of the size of a [`TableEntry`].
pub const ENTRY_SHIFT: u32 = 4;
const _: () = assert!(std::mem::size_of::<TableEntry>() == 1 << ENTRY_SHIFT);

/// A signature id no call site has.
pub const NO_SIGNATURE: u32 = u32::MAX;

/// Guest function values ("addresses") are table indices shifted left by this much: they
/// are 16-aligned, and 0 (the null entry) is never a function.
pub const FUNCTION_VALUE_SHIFT: u32 = 4;

/// The table index of the module's function `f`: index 0 is the null entry.
pub fn function_table_index(f: u32) -> u32 {
    f + 1
}

/// The guest value of the function at table index `index`.
pub fn function_value(index: u32) -> u32 {
    index << FUNCTION_VALUE_SHIFT
}

/// The guest memory map.
pub mod memory {
    /// Size of the guest address space.
    pub const SIZE: u64 = 1 << 32;
    /// Bytes reserved (inaccessible) after the guest space, so that an access of up to 16
    /// bytes at the last guest address faults instead of reaching host memory.
    pub const GUARD: u64 = 1 << 16;
    /// The granule of guest mappings (NaCl's page size).
    pub const PAGE: u32 = 1 << 16;
    /// Guest addresses below this are never mapped (the null page).
    pub const NULL_PAGE_END: u32 = PAGE;
    /// Where global variables start.
    pub const GLOBALS_START: u32 = NULL_PAGE_END;
    /// The main thread's guest stack: its top (an unmapped page lies above it).
    pub const MAIN_STACK_TOP: u32 = 0u32.wrapping_sub(PAGE);
    /// Size of the main thread's guest stack (NaCl's default).
    pub const MAIN_STACK_SIZE: u32 = 16 << 20;
}

/// Host functions translated code calls directly (not through the table).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u32)]
pub enum HostFn {
    /// `(vmctx, dst, src, len)`: guest `memcpy`, bounds-checked. Translated code stores
    /// its function number in [`VmCtx::host_caller`] before calling this and the other
    /// helpers that touch guest memory, so that their traps can name it.
    Memcpy = 0,
    /// `(vmctx, dst, src, len)`: guest `memmove`, bounds-checked.
    Memmove,
    /// `(vmctx, dst, byte, len)`: guest `memset`, bounds-checked.
    Memset,
    /// `(f64, f64) -> f64`: C `fmod`.
    Fmod,
    /// `(f32, f32) -> f32`: C `fmodf`.
    Fmodf,
    /// `(vmctx) -> i64`: a function that calls setjmp starts; returns its frame token.
    SjljEnter,
    /// `(vmctx, token)`: that function returns.
    SjljLeave,
    /// `(vmctx, guest jmp_buf, token) -> i64`: prepares a host jump buffer for a setjmp
    /// and returns its host address (a runtime-owned buffer, never guest memory).
    SjljRegister,
    /// `(host jmp_buf) -> i32`: the C library's `_setjmp`, called from the guest frame.
    Setjmp,
    /// `(vmctx, guest jmp_buf, value)`: longjmp (never returns).
    Longjmp,
}

impl HostFn {
    /// Every host function.
    pub const ALL: [HostFn; 10] = [
        HostFn::Memcpy,
        HostFn::Memmove,
        HostFn::Memset,
        HostFn::Fmod,
        HostFn::Fmodf,
        HostFn::SjljEnter,
        HostFn::SjljLeave,
        HostFn::SjljRegister,
        HostFn::Setjmp,
        HostFn::Longjmp,
    ];
}

/// Why translated code traps. Each has its own Cranelift trap code, so the runtime's
/// signal handler can say what happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TrapKind {
    /// A load or store outside mapped guest memory.
    MemoryOutOfBounds,
    /// Integer division or remainder by zero.
    DivideByZero,
    /// Signed division overflow (`INT_MIN / -1`).
    IntegerOverflow,
    /// The host stack is exhausted (deep recursion).
    StackOverflow,
    /// The guest stack is exhausted (allocas).
    GuestStackOverflow,
    /// An `unreachable` instruction was reached.
    Unreachable,
    /// `llvm.trap` was called.
    Trap,
    /// An indirect call through a value that is not a function.
    BadCallTarget,
    /// An indirect call to a function of another signature.
    BadSignature,
    /// A memory intrinsic whose range leaves guest memory.
    MemoryIntrinsicOutOfBounds,
    /// `longjmp` to a buffer that no live `setjmp` frame of this thread set.
    BadLongjmp,
    /// A store to read-only guest memory (constants, or pages mapped without write access).
    /// Translated code has no trap code for it: the runtime tells it from
    /// [`TrapKind::MemoryOutOfBounds`] by the page.
    ReadOnlyMemory,
}

impl TrapKind {
    /// The Cranelift trap code for the kind.
    pub fn code(self) -> TrapCode {
        match self {
            TrapKind::MemoryOutOfBounds => TrapCode::HEAP_OUT_OF_BOUNDS,
            TrapKind::DivideByZero => TrapCode::INTEGER_DIVISION_BY_ZERO,
            TrapKind::IntegerOverflow => TrapCode::INTEGER_OVERFLOW,
            TrapKind::StackOverflow => TrapCode::STACK_OVERFLOW,
            TrapKind::GuestStackOverflow => TrapCode::unwrap_user(1),
            TrapKind::Unreachable => TrapCode::unwrap_user(2),
            TrapKind::Trap => TrapCode::unwrap_user(3),
            TrapKind::BadCallTarget => TrapCode::unwrap_user(4),
            TrapKind::BadSignature => TrapCode::unwrap_user(5),
            TrapKind::MemoryIntrinsicOutOfBounds => TrapCode::unwrap_user(6),
            TrapKind::BadLongjmp => TrapCode::unwrap_user(7),
            TrapKind::ReadOnlyMemory => TrapCode::unwrap_user(8),
        }
    }

    /// The kind of a Cranelift trap code, if it is one of ours.
    pub fn from_code(code: TrapCode) -> Option<TrapKind> {
        Self::ALL.iter().copied().find(|k| k.code() == code)
    }

    /// Every kind.
    pub const ALL: [TrapKind; 12] = [
        TrapKind::MemoryOutOfBounds,
        TrapKind::DivideByZero,
        TrapKind::IntegerOverflow,
        TrapKind::StackOverflow,
        TrapKind::GuestStackOverflow,
        TrapKind::Unreachable,
        TrapKind::Trap,
        TrapKind::BadCallTarget,
        TrapKind::BadSignature,
        TrapKind::MemoryIntrinsicOutOfBounds,
        TrapKind::BadLongjmp,
        TrapKind::ReadOnlyMemory,
    ];

    /// What the trap message says.
    pub fn describe(self) -> &'static str {
        match self {
            TrapKind::MemoryOutOfBounds => "memory access out of bounds",
            TrapKind::DivideByZero => "integer divide by zero",
            TrapKind::IntegerOverflow => "integer overflow",
            TrapKind::StackOverflow => "call stack exhausted",
            TrapKind::GuestStackOverflow => "guest stack exhausted",
            TrapKind::Unreachable => "unreachable executed",
            TrapKind::Trap => "llvm.trap called",
            TrapKind::BadCallTarget => "indirect call to a non-function",
            TrapKind::BadSignature => "indirect call signature mismatch",
            TrapKind::MemoryIntrinsicOutOfBounds => "memory intrinsic out of bounds",
            TrapKind::BadLongjmp => "longjmp to an invalid jmp_buf",
            TrapKind::ReadOnlyMemory => "write to read-only memory",
        }
    }
}
