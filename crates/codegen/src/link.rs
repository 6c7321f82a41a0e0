//! From compiled functions to running code, in two steps.
//!
//! [`assemble`] lays the functions out one after another in one block of code and resolves
//! the calls between them (PC-relative, so the block can be loaded anywhere); what is left
//! are absolute relocations to things only the running process knows: host helpers, guest
//! memory, the function table. [`load`] copies such a block into executable memory and
//! applies them. Translating does both at once; a translation loaded from a file does the
//! second only.

use crate::abi::TrapKind;
use crate::clif::{NS_GUEST, NS_HOST, NS_RUNTIME, RuntimeSymbol};
use cranelift_codegen::FinalizedMachReloc;
use cranelift_codegen::FinalizedRelocTarget;
use cranelift_codegen::binemit::Reloc;
use cranelift_codegen::ir::{ExternalName, UserExternalName};
use rayon::prelude::*;

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
    /// How many of its loops were unrolled.
    pub unrolled_loops: u32,
}

/// What an absolute relocation of assembled code designates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RelocTarget {
    /// A host helper, by its [`HostFn`](crate::abi::HostFn) number.
    Host(u32),
    /// The host address of guest address 0.
    MemoryBase,
    /// The function table.
    FunctionTable,
    /// An offset in the code itself.
    Code(u32),
}

/// An absolute relocation: the 8 bytes at `offset` become the target's address plus
/// `addend`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AbsReloc {
    /// Where in the code.
    pub offset: u32,
    /// What address goes there.
    pub target: RelocTarget,
    /// Added to the address.
    pub addend: i64,
}

/// The addresses the running process gives relocations.
#[derive(Clone, Debug)]
pub struct Addresses {
    /// Host address of guest address 0.
    pub mem_base: u64,
    /// Host address of the function table.
    pub table_addr: u64,
    /// Host address of each [`HostFn`](crate::abi::HostFn), by its number.
    pub host_fns: Vec<u64>,
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
            // SAFETY: `ptr`/`len` is the mapping made in `load`, unmapped once.
            unsafe {
                libc::munmap(self.ptr.cast(), self.len);
            }
        }
    }
}

/// Functions laid out in one block of code.
pub(crate) struct Assembled {
    pub code: Vec<u8>,
    /// Start offset of each compiled function (same order as given).
    pub offsets: Vec<u32>,
    /// The absolute relocations left.
    pub relocs: Vec<AbsReloc>,
    /// The trap sites pnacl knows, by offset in the block.
    pub traps: Vec<(u32, TrapKind)>,
}

/// Where functions start in assembled code: each at the first multiple of this after the
/// end of the one before (the first at 0).
pub const FUNCTION_ALIGN: usize = 16;

/// Whether the 8 bytes at `offset` of assembled code are where the translator puts an
/// absolute relocation: the immediate of a `movabs` (x86-64 `REX.W B8+r`, `48` or `49`
/// then `B8`..`BF`), left zero until loading. Every absolute relocation Cranelift emits for
/// pnacl is one (host functions, the memory base, the function table): a relocation
/// anywhere else would overwrite instructions.
pub fn is_relocation_site(code: &[u8], offset: u32) -> bool {
    let at = offset as usize;
    let Some(imm) = at.checked_add(8).and_then(|end| code.get(at..end)) else { return false };
    let opcode = if cfg!(target_arch = "x86_64") {
        at >= 2 && matches!(code[at - 2], 0x48 | 0x49) && code[at - 1] & 0xf8 == 0xb8
    } else {
        true
    };
    opcode && imm.iter().all(|&b| b == 0)
}

/// Lays `compiled` out (module function `f` is `compiled[i]` with `function == f`) and
/// resolves the calls between them. The functions are copied and patched in parallel, each
/// into its own part of the block, and freed as they are copied: for a large program this
/// was the longest serial step after translation.
pub(crate) fn assemble(compiled: Vec<Compiled>, num_functions: usize) -> Result<Assembled, String> {
    let mut offsets = Vec::with_capacity(compiled.len());
    let mut size = 0usize;
    for c in &compiled {
        size = size.div_ceil(FUNCTION_ALIGN) * FUNCTION_ALIGN;
        offsets.push(u32::try_from(size).map_err(|_| "more than 4 GiB of code")?);
        size += c.code.len();
    }
    u32::try_from(size).map_err(|_| "more than 4 GiB of code")?;
    let mut entry = vec![None; num_functions];
    for (c, &off) in compiled.iter().zip(&offsets) {
        *entry.get_mut(c.function as usize).ok_or("a function outside the module")? = Some(off);
    }
    // Zeroed lazily by the kernel (the padding between functions stays zero); each
    // function's part is written by the worker that copies it.
    let mut code = vec![0u8; size];
    let mut parts = Vec::with_capacity(compiled.len());
    let mut rest: &mut [u8] = &mut code;
    let mut at = 0usize;
    for (c, &off) in compiled.iter().zip(&offsets) {
        let (_, tail) = std::mem::take(&mut rest).split_at_mut(off as usize - at);
        let (part, tail) = tail.split_at_mut(c.code.len());
        parts.push(part);
        rest = tail;
        at = off as usize + c.code.len();
    }
    let linked: Vec<Linked> = compiled
        .into_par_iter()
        .zip(parts)
        .zip(&offsets)
        .map(|((c, part), &off)| link_function(c, part, off, &entry))
        .collect::<Result<_, String>>()?;
    let mut relocs = Vec::with_capacity(linked.iter().map(|l| l.0.len()).sum());
    let mut traps = Vec::with_capacity(linked.iter().map(|l| l.1.len()).sum());
    for (r, t) in linked {
        relocs.extend(r);
        traps.extend(t);
    }
    // Already in order (functions laid out in order, each one's traps in the order it was
    // emitted): the sort is one pass over sorted data, and keeps the order `validate`
    // requires should either ever change.
    traps.sort_by_key(|t| t.0);
    Ok(Assembled { code, offsets, relocs, traps })
}

/// What linking one function leaves: its absolute relocations and its trap sites, both by
/// offset in the block.
type Linked = (Vec<AbsReloc>, Vec<(u32, TrapKind)>);

/// Copies one function into `part` (its place, at offset `off` of the block), resolves its
/// PC-relative relocations there, and returns its absolute relocations and trap sites.
fn link_function(c: Compiled, part: &mut [u8], off: u32, entry: &[Option<u32>]) -> Result<Linked, String> {
    part.copy_from_slice(&c.code);
    let mut relocs = Vec::new();
    for (r, name) in &c.relocs {
        let site = off + r.offset;
        let target = match (&r.target, name) {
            (FinalizedRelocTarget::ExternalName(ExternalName::User(_)), Some(n)) if n.namespace == NS_GUEST => {
                let f = entry
                    .get(n.index as usize)
                    .copied()
                    .flatten()
                    .ok_or_else(|| format!("call to @f{}, which has no code", n.index))?;
                RelocTarget::Code(f)
            }
            (FinalizedRelocTarget::ExternalName(ExternalName::User(_)), Some(n)) if n.namespace == NS_HOST => {
                RelocTarget::Host(n.index)
            }
            (FinalizedRelocTarget::ExternalName(ExternalName::User(_)), Some(n)) if n.namespace == NS_RUNTIME => {
                match RuntimeSymbol::from_index(n.index) {
                    Some(RuntimeSymbol::MemoryBase) => RelocTarget::MemoryBase,
                    Some(RuntimeSymbol::FunctionTable) => RelocTarget::FunctionTable,
                    None => return Err(format!("unknown runtime symbol {}", n.index)),
                }
            }
            (FinalizedRelocTarget::Func(o), _) => RelocTarget::Code(off + o),
            (t, _) => return Err(format!("unsupported relocation target {t:?}")),
        };
        match (r.kind, target) {
            (Reloc::Abs8, _) => relocs.push(AbsReloc { offset: site, target, addend: r.addend }),
            // Within the block: resolved now, once and for all.
            (Reloc::X86CallPCRel4 | Reloc::X86PCRel4 | Reloc::X86CallPLTRel4, RelocTarget::Code(to)) => {
                let rel = i64::from(to) + r.addend - i64::from(site);
                let rel = i32::try_from(rel).map_err(|_| "relative call out of range")?;
                let at = r.offset as usize;
                part.get_mut(at..at + 4)
                    .ok_or("a relocation outside its function")?
                    .copy_from_slice(&rel.to_le_bytes());
            }
            (k, t) => return Err(format!("unsupported relocation {k:?} to {t:?}")),
        }
    }
    let traps = c.traps.iter().filter_map(|&(o, code)| Some((off + o, TrapKind::from_code(code)?))).collect();
    Ok((relocs, traps))
}

/// Copies `code` into fresh executable memory and applies `relocs` with the addresses
/// `at`. Every relocation is checked to lie in the code and to name a known target first,
/// so that whatever the relocations say, nothing outside the new mapping is written.
pub fn load(code: &[u8], relocs: &[AbsReloc], at: &Addresses) -> Result<CodeMemory, String> {
    let page = 4096;
    let len = code.len().max(1).div_ceil(page) * page;
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
    bytes[..code.len()].copy_from_slice(code);
    let base = memory.start();
    for r in relocs {
        let site = r.offset as usize;
        if site.checked_add(8).is_none_or(|end| end > code.len()) {
            return Err(format!("relocation at {site} outside the code"));
        }
        let target = match r.target {
            RelocTarget::Host(h) => *at.host_fns.get(h as usize).ok_or("unknown host function")?,
            RelocTarget::MemoryBase => at.mem_base,
            RelocTarget::FunctionTable => at.table_addr,
            RelocTarget::Code(o) if (o as usize) < code.len() => base + u64::from(o),
            RelocTarget::Code(o) => return Err(format!("relocation to code offset {o}, outside the code")),
        };
        bytes[site..site + 8].copy_from_slice(&target.wrapping_add_signed(r.addend).to_le_bytes());
    }
    // SAFETY: the mapping made above; code is complete, so it becomes read-only executable.
    let rc = unsafe { libc::mprotect(memory.ptr.cast(), len, libc::PROT_READ | libc::PROT_EXEC) };
    if rc != 0 {
        return Err(format!("cannot make code executable: {}", std::io::Error::last_os_error()));
    }
    Ok(memory)
}
