//! Where things live in the module's linear memory, and the guest values of functions and
//! globals.
//!
//! The globals are laid out exactly as `pnacl run` lays them out (the codegen crate's
//! `GuestLayout`): variables from 64 KiB, each at its alignment, then the constants from
//! the next 64 KiB boundary. A pointer to a global, or a function value stored in data, is
//! therefore the same number under both. Above the globals come the main thread's stack
//! ([`STACK_SIZE`], the startup block at its top) and then the heap, which the IRT's
//! `mmap` grows page by page with `memory.grow`.
//!
//! A function's value is `(table index + 1) * 16`, its index in the module's function
//! table shifted as `pnacl run` shifts it: values are 16-aligned (C++ member pointers use
//! the low bit), 0 is never a function, and a function value prints the same under both.

use pnacl_bitcode::Module;
use pnacl_bitcode::ir::{Init, ValueId};

/// NaCl's page, and wasm's: 64 KiB.
pub const PAGE: u32 = 1 << 16;
/// Guest addresses below this are never handed out (the null page).
pub const NULL_PAGE_END: u32 = PAGE;
/// Where global variables start.
pub const GLOBALS_START: u32 = NULL_PAGE_END;
/// Size of the main thread's stack in linear memory (allocas; wasm keeps the call stack
/// itself out of guest memory). NaCl's default.
pub const STACK_SIZE: u32 = 16 << 20;
/// log2 of the spacing of function values.
pub const FUNCTION_VALUE_SHIFT: u32 = 4;

/// The guest value of function table index `index`.
pub fn function_value(index: u32) -> u32 {
    (index + 1) << FUNCTION_VALUE_SHIFT
}

/// The addresses of a module's globals and of the regions above them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Layout {
    /// The address of each global, `@gN`.
    pub globals: Vec<u32>,
    /// Where the constants start (page-aligned); `data_end` if there are none.
    pub constants_start: u32,
    /// The first address after the globals.
    pub data_end: u32,
    /// The bottom of the main thread's stack (page-aligned, above the globals).
    pub stack_bottom: u32,
    /// The top of the main thread's stack; the heap starts here.
    pub stack_top: u32,
}

impl Layout {
    /// Lays the globals out as `pnacl run` does, then the main stack above them.
    pub fn new(m: &Module) -> Result<Layout, String> {
        let mut at = u64::from(GLOBALS_START);
        // pnacl run's limit: half of the space below its main stack.
        let limit = u64::from(0u32.wrapping_sub(PAGE) - (16 << 20)) / 2;
        let mut globals = vec![0; m.globals.len()];
        let mut constants_start = None;
        for constants in [false, true] {
            if constants && m.globals.iter().any(|g| g.is_const) {
                at = at.div_ceil(u64::from(PAGE)) * u64::from(PAGE);
                constants_start = Some(at);
            }
            for (i, g) in m.globals.iter().enumerate().filter(|(_, g)| g.is_const == constants) {
                let align = u64::from(g.align.bytes().max(1));
                at = at.div_ceil(align) * align;
                globals[i] = at as u32;
                at += g.size();
                if at > limit {
                    return Err(format!("the globals do not fit in guest memory (at @g{i}: {at} bytes)"));
                }
            }
        }
        let stack_bottom = at.div_ceil(u64::from(PAGE)) * u64::from(PAGE);
        let stack_top = stack_bottom + u64::from(STACK_SIZE);
        Ok(Layout {
            globals,
            constants_start: constants_start.unwrap_or(at) as u32,
            data_end: at as u32,
            stack_bottom: stack_bottom as u32,
            stack_top: stack_top as u32,
        })
    }

    /// The guest value of a function or global address.
    pub fn address(&self, m: &Module, v: ValueId) -> u32 {
        let functions = m.functions.len() as u32;
        if v.0 < functions {
            function_value(v.0)
        } else {
            self.globals.get((v.0 - functions) as usize).copied().unwrap_or(0)
        }
    }

    /// The globals' initial contents, from [`GLOBALS_START`] to [`Layout::data_end`].
    pub fn initial_data(&self, m: &Module) -> Vec<u8> {
        let mut data = vec![0u8; (self.data_end - GLOBALS_START) as usize];
        for (g, &addr) in m.globals.iter().zip(&self.globals) {
            let mut at = (addr - GLOBALS_START) as usize;
            for init in &g.inits {
                match init {
                    Init::Zerofill(n) => at += *n as usize,
                    Init::Data(bytes) => {
                        data[at..at + bytes.len()].copy_from_slice(bytes);
                        at += bytes.len();
                    }
                    Init::Reloc { target, addend } => {
                        let v = self.address(m, *target).wrapping_add(addend.unwrap_or(0));
                        data[at..at + 4].copy_from_slice(&v.to_le_bytes());
                        at += 4;
                    }
                }
            }
        }
        data
    }

    /// The initial number of 64 KiB pages: the globals and the main stack.
    pub fn initial_pages(&self) -> u32 {
        self.stack_top / PAGE
    }
}
