//! Where the module's global variables live in guest memory, and the guest values of
//! functions and globals that code and initializers use.

use crate::abi::{self, memory};
use pnacl_bitcode::Module;
use pnacl_bitcode::ir::{Init, ValueId};

/// The addresses of a module's globals.
///
/// Variables come first; constants follow from the next page boundary, so that the
/// runtime can make their pages read-only once they are initialized (a guest store to a
/// constant faults, as it would natively).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GuestLayout {
    /// The address of each global, `@gN`.
    pub globals: Vec<u32>,
    /// Where the constants start (page-aligned); `data_end` if there are none.
    pub constants_start: u32,
    /// The first address after the globals.
    pub data_end: u32,
}

impl GuestLayout {
    /// Lays the globals out from [`memory::GLOBALS_START`], each at its alignment:
    /// variables, then constants.
    pub fn new(m: &Module) -> Result<Self, String> {
        let mut at = u64::from(memory::GLOBALS_START);
        let limit = u64::from(memory::MAIN_STACK_TOP - memory::MAIN_STACK_SIZE) / 2;
        let mut globals = vec![0; m.globals.len()];
        let mut constants_start = None;
        for constants in [false, true] {
            if constants && m.globals.iter().any(|g| g.is_const) {
                at = at.div_ceil(u64::from(memory::PAGE)) * u64::from(memory::PAGE);
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
        Ok(GuestLayout { globals, constants_start: constants_start.unwrap_or(at) as u32, data_end: at as u32 })
    }

    /// The guest value of a function or global address.
    pub fn address(&self, m: &Module, v: ValueId) -> u32 {
        let functions = m.functions.len() as u32;
        if v.0 < functions {
            abi::function_value(abi::function_table_index(v.0))
        } else {
            self.globals.get((v.0 - functions) as usize).copied().unwrap_or(0)
        }
    }

    /// The bytes of the globals' initial contents, from [`memory::GLOBALS_START`] to
    /// [`GuestLayout::data_end`].
    pub fn initial_data(&self, m: &Module) -> Vec<u8> {
        let start = memory::GLOBALS_START;
        let mut data = vec![0u8; (self.data_end - start) as usize];
        for (g, &addr) in m.globals.iter().zip(&self.globals) {
            let mut at = (addr - start) as usize;
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
}
