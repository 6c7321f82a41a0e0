//! Lays compiled functions out in one block of executable memory and resolves their
//! relocations: calls between guest functions (PC-relative) and calls to host helpers
//! (absolute addresses).

use crate::clif::{NS_GUEST, NS_HOST};
use cranelift_codegen::FinalizedMachReloc;
use cranelift_codegen::FinalizedRelocTarget;
use cranelift_codegen::binemit::Reloc;
use cranelift_codegen::ir::{ExternalName, UserExternalName};

/// A compiled function before linking.
pub(crate) struct Compiled {
    /// The module function it is.
    pub function: u32,
    /// Its machine code.
    pub code: Vec<u8>,
    /// Its relocations, with their targets resolved to user names.
    pub relocs: Vec<(FinalizedMachReloc, Option<UserExternalName>)>,
    /// Its trap sites: offset and code.
    pub traps: Vec<(u32, cranelift_codegen::ir::TrapCode)>,
}

/// Executable memory holding translated code; unmapped when dropped.
pub struct CodeMemory {
    ptr: *mut u8,
    len: usize,
}

// The code is immutable once mapped executable, so sharing it between threads is safe.
unsafe impl Send for CodeMemory {}
unsafe impl Sync for CodeMemory {}

impl CodeMemory {
    /// Start address.
    pub fn start(&self) -> u64 {
        self.ptr as u64
    }

    /// Size in bytes.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True if empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// True if `pc` is inside the code.
    pub fn contains(&self, pc: u64) -> bool {
        pc >= self.start() && pc < self.start() + self.len as u64
    }
}

impl Drop for CodeMemory {
    fn drop(&mut self) {
        if self.len > 0 {
            // SAFETY: `ptr`/`len` is the mapping made in `link`, unmapped once.
            unsafe {
                libc::munmap(self.ptr.cast(), self.len);
            }
        }
    }
}

/// Where each function ended up.
pub(crate) struct Linked {
    pub memory: CodeMemory,
    /// Start offset of each compiled function (same order as given).
    pub offsets: Vec<usize>,
}

const FUNCTION_ALIGN: usize = 16;

/// Links `compiled`: `starts[f]` is filled with the entry address of module function `f`.
pub(crate) fn link(compiled: &[Compiled], num_functions: usize, host: &[u64]) -> Result<Linked, String> {
    let mut offsets = Vec::with_capacity(compiled.len());
    let mut size = 0usize;
    for c in compiled {
        size = size.div_ceil(FUNCTION_ALIGN) * FUNCTION_ALIGN;
        offsets.push(size);
        size += c.code.len();
    }
    let page = 4096;
    let len = size.max(1).div_ceil(page) * page;
    // SAFETY: a fresh private anonymous mapping; checked for failure below.
    let ptr = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            len,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
            -1,
            0,
        )
    };
    if ptr == libc::MAP_FAILED {
        return Err(format!("cannot map {len} bytes for code: {}", std::io::Error::last_os_error()));
    }
    let memory = CodeMemory { ptr: ptr.cast(), len };
    // SAFETY: the mapping is `len` bytes, writable, and owned by `memory`.
    let bytes = unsafe { std::slice::from_raw_parts_mut(memory.ptr, len) };
    let mut entry = vec![None; num_functions];
    for (c, &off) in compiled.iter().zip(&offsets) {
        bytes[off..off + c.code.len()].copy_from_slice(&c.code);
        entry[c.function as usize] = Some(off);
    }
    let base = memory.start();
    for (c, &off) in compiled.iter().zip(&offsets) {
        for (r, name) in &c.relocs {
            let site = off + r.offset as usize;
            let target = match (&r.target, name) {
                (FinalizedRelocTarget::ExternalName(ExternalName::User(_)), Some(n)) if n.namespace == NS_GUEST => {
                    let f = entry
                        .get(n.index as usize)
                        .copied()
                        .flatten()
                        .ok_or_else(|| format!("call to @f{}, which has no code", n.index))?;
                    base + f as u64
                }
                (FinalizedRelocTarget::ExternalName(ExternalName::User(_)), Some(n)) if n.namespace == NS_HOST => {
                    *host.get(n.index as usize).ok_or("unknown host function")?
                }
                (FinalizedRelocTarget::Func(o), _) => base + (off + *o as usize) as u64,
                (t, _) => return Err(format!("unsupported relocation target {t:?}")),
            };
            let value = (target as i64).wrapping_add(r.addend);
            match r.kind {
                Reloc::Abs8 => bytes[site..site + 8].copy_from_slice(&(value as u64).to_le_bytes()),
                Reloc::X86CallPCRel4 | Reloc::X86PCRel4 | Reloc::X86CallPLTRel4 => {
                    let pc = (base + site as u64) as i64;
                    let rel = i32::try_from(value - pc).map_err(|_| "relative call out of range")?;
                    bytes[site..site + 4].copy_from_slice(&rel.to_le_bytes());
                }
                k => return Err(format!("unsupported relocation {k:?}")),
            }
        }
    }
    // SAFETY: the mapping made above; code is complete, so it becomes read-only executable.
    let rc = unsafe { libc::mprotect(memory.ptr.cast(), len, libc::PROT_READ | libc::PROT_EXEC) };
    if rc != 0 {
        return Err(format!("cannot make code executable: {}", std::io::Error::last_os_error()));
    }
    Ok(Linked { memory, offsets })
}
