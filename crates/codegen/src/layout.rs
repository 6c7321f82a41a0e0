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

    /// The globals' initial contents, from [`memory::GLOBALS_START`] to
    /// [`GuestLayout::data_end`]: their size, and the runs of bytes that are not zero.
    /// Zero-fill is only a size, whatever it amounts to (a 1 GiB array is a number here,
    /// and pages the loader never touches).
    pub fn initial_data(&self, m: &Module) -> InitialData {
        let start = memory::GLOBALS_START;
        let mut runs = Runs::default();
        // In address order, as runs are made.
        let mut order: Vec<usize> = (0..m.globals.len()).collect();
        order.sort_by_key(|&g| self.globals[g]);
        for g in order {
            let mut at = u64::from(self.globals[g] - start);
            for init in &m.globals[g].inits {
                match init {
                    Init::Zerofill(n) => at += *n,
                    Init::Data(bytes) => {
                        runs.put(at, bytes);
                        at += bytes.len() as u64;
                    }
                    Init::Reloc { target, addend } => {
                        let v = self.address(m, *target).wrapping_add(addend.unwrap_or(0));
                        runs.put(at, &v.to_le_bytes());
                        at += 4;
                    }
                }
            }
        }
        InitialData { len: self.data_end - start, runs: runs.0 }
    }
}

/// The initial contents of the globals: zeros, but for runs of bytes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct InitialData {
    /// The size, in bytes (from [`memory::GLOBALS_START`]).
    pub len: u32,
    /// Runs of bytes, each at its offset from [`memory::GLOBALS_START`]: in order, apart
    /// from each other, inside `len`.
    pub runs: Vec<(u32, Vec<u8>)>,
}

/// A stretch of at least this many zeros is left out of the runs (a page: the loader
/// never touches a page of zeros).
pub const ZERO_STRETCH: usize = 4096;

/// Runs of bytes being made, in address order.
#[derive(Default)]
struct Runs(Vec<(u32, Vec<u8>)>);

impl Runs {
    /// Adds `bytes` at offset `at` (not before what came earlier), leaving out the zeros
    /// that begin or end them and every stretch of [`ZERO_STRETCH`] zeros or more.
    fn put(&mut self, at: u64, bytes: &[u8]) {
        let mut i = 0;
        while let Some(nonzero) = bytes[i..].iter().position(|&b| b != 0) {
            let first = i + nonzero;
            // The part ends where a long enough stretch of zeros, or the zeros that end the
            // bytes, begin.
            let mut end = first;
            loop {
                let Some(zero) = bytes[end..].iter().position(|&b| b == 0) else {
                    end = bytes.len();
                    break;
                };
                let zeros_at = end + zero;
                let zeros = bytes[zeros_at..].iter().take_while(|&&b| b == 0).count();
                if zeros >= ZERO_STRETCH || zeros_at + zeros == bytes.len() {
                    end = zeros_at;
                    break;
                }
                end = zeros_at + zeros;
            }
            self.append(at + first as u64, &bytes[first..end]);
            i = end;
        }
    }

    /// Appends `bytes` at `at`: to the last run, over a short gap of zeros, or as a new run.
    fn append(&mut self, at: u64, bytes: &[u8]) {
        let at = at as u32;
        if let Some((offset, run)) = self.0.last_mut() {
            let end = *offset + run.len() as u32;
            if at >= end && ((at - end) as usize) < ZERO_STRETCH {
                run.resize((at - *offset) as usize, 0);
                run.extend_from_slice(bytes);
                return;
            }
        }
        self.0.push((at, bytes.to_vec()));
    }
}

#[cfg(test)]
mod tests {
    use super::{Runs, ZERO_STRETCH};

    /// The bytes the runs stand for, `len` of them.
    fn expand(runs: &Runs, len: usize) -> Vec<u8> {
        let mut out = vec![0; len];
        for (at, bytes) in &runs.0 {
            out[*at as usize..*at as usize + bytes.len()].copy_from_slice(bytes);
        }
        out
    }

    #[test]
    fn runs_leave_out_long_stretches_of_zeros_only() {
        let mut data = vec![0u8; 5 * ZERO_STRETCH];
        data[10] = 1;
        data[20] = 2; // a short gap: one run
        data[20 + ZERO_STRETCH + 1] = 3; // after a long stretch: a run of its own
        let mut runs = Runs::default();
        runs.put(100, &data);
        runs.put(100 + data.len() as u64 + 5, &[0, 0, 9]); // a short gap from nothing
        runs.put(100 + data.len() as u64 + 9, &[4, 0, 0]);
        assert_eq!(runs.0.len(), 3, "{:?}", runs.0.iter().map(|r| (r.0, r.1.len())).collect::<Vec<_>>());
        assert_eq!(runs.0[0], (110, vec![1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2]));
        assert_eq!(runs.0[2], (100 + data.len() as u32 + 7, vec![9, 0, 4]));
        let mut all = vec![0u8; 100];
        all.extend_from_slice(&data);
        all.extend_from_slice(&[0, 0, 0, 0, 0, 0, 0, 9, 0, 4, 0, 0]);
        assert_eq!(expand(&runs, all.len()), all);
        let mut none = Runs::default();
        none.put(0, &[0; 100]);
        assert!(none.0.is_empty());
    }
}
