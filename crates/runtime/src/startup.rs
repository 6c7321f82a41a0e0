//! The startup block `_start` receives: `argv`, `envp` and the auxiliary vector, whose
//! `AT_SYSINFO` entry is the IRT query function.
//!
//! Word layout: `[fini, envc, argc, argv..., 0, envp..., 0, AT_SYSINFO, query, AT_NULL,
//! 0]`, then the strings. Like NaCl's loader, it is placed at the top of the main
//! thread's stack.

use crate::memory::GuestMemory;

/// `AT_NULL`: ends the auxiliary vector.
const AT_NULL: u32 = 0;
/// `AT_SYSINFO`: the IRT query function.
const AT_SYSINFO: u32 = 32;

/// A startup block, before it is placed in guest memory.
pub(crate) struct Block<'a> {
    args: &'a [Vec<u8>],
    env: &'a [Vec<u8>],
    query: u32,
}

impl<'a> Block<'a> {
    pub fn new(args: &'a [Vec<u8>], env: &'a [Vec<u8>], query: u32) -> Self {
        Block { args, env, query }
    }

    fn words(&self) -> usize {
        3 + self.args.len() + 1 + self.env.len() + 1 + 4
    }

    /// Writes the block just below guest address `top`; returns its address.
    pub fn place(&self, memory: &GuestMemory, top: u32) -> Result<u32, String> {
        let strings: usize = self.args.iter().chain(self.env).map(|s| s.len() + 1).sum();
        let size = self.words() * 4 + strings;
        if size > (1 << 20) {
            return Err(format!("the arguments and environment take {size} bytes; the limit is 1 MiB"));
        }
        let at = (top - size as u32) & !15;
        let mut words: Vec<u32> = Vec::with_capacity(self.words());
        let mut text: Vec<u8> = Vec::with_capacity(strings);
        let text_at = at + self.words() as u32 * 4;
        let mut pointers = |list: &[Vec<u8>], words: &mut Vec<u32>| {
            for s in list {
                words.push(text_at + text.len() as u32);
                text.extend_from_slice(s);
                text.push(0);
            }
            words.push(0);
        };
        words.extend([0, self.env.len() as u32, self.args.len() as u32]);
        pointers(self.args, &mut words);
        pointers(self.env, &mut words);
        words.extend([AT_SYSINFO, self.query, AT_NULL, 0]);
        let mut bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        bytes.extend_from_slice(&text);
        memory.write(at, &bytes).map_err(|e| format!("cannot write the startup block: errno {}", e.0))?;
        Ok(at)
    }
}
