//! Guest memory: one reservation of the whole 4 GiB guest space plus a guard region.
//!
//! Translated code reaches guest address `a` at `base + a` with `a` zero-extended from 32
//! bits, so it can never address anything outside the reservation. Pages the guest has
//! not mapped stay inaccessible (`PROT_NONE`), and touching them faults; the signal
//! handler turns the fault into a trap. Mappings are made in NaCl's 64 KiB pages.
//!
//! The runtime itself reads and writes guest memory only through [`GuestMemory`]'s
//! checked accessors, which consult the page table first, so a bad guest pointer passed to
//! the IRT gives `EFAULT` rather than a fault in host code.

use crate::errno::Errno;
use pnacl_codegen::abi::memory::{GUARD, PAGE, SIZE};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

/// Number of guest pages.
const PAGES: usize = (SIZE / PAGE as u64) as usize;

/// The state of a guest page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
enum Page {
    /// Not mapped.
    Free = 0,
    /// Mapped by the guest with `PROT_NONE`.
    NoAccess = 1,
    /// Mapped read-only.
    ReadOnly = 2,
    /// Mapped read-write.
    ReadWrite = 3,
}

impl Page {
    fn from_u8(v: u8) -> Page {
        match v {
            1 => Page::NoAccess,
            2 => Page::ReadOnly,
            3 => Page::ReadWrite,
            _ => Page::Free,
        }
    }

    fn from_prot(prot: i32) -> Page {
        match prot & (PROT_READ | PROT_WRITE) {
            0 => Page::NoAccess,
            PROT_READ => Page::ReadOnly,
            _ => Page::ReadWrite,
        }
    }

    fn host_prot(self) -> i32 {
        match self {
            Page::Free | Page::NoAccess => libc::PROT_NONE,
            Page::ReadOnly => libc::PROT_READ,
            Page::ReadWrite => libc::PROT_READ | libc::PROT_WRITE,
        }
    }

    fn accessible(self) -> bool {
        matches!(self, Page::ReadOnly | Page::ReadWrite)
    }
}

/// NaCl `PROT_READ`.
pub const PROT_READ: i32 = 1;
/// NaCl `PROT_WRITE`.
pub const PROT_WRITE: i32 = 2;

/// The guest address space.
pub struct GuestMemory {
    base: *mut u8,
    pages: Box<[AtomicU8]>,
    /// Serialises changes to the mappings; readers use the page states without it.
    changes: Mutex<Heap>,
    /// Accessible bytes, against the limit.
    committed: AtomicU64,
    /// The most bytes ever accessible at once.
    peak: AtomicU64,
    limit: u64,
}

// The reservation is shared by every guest thread; its page table is atomic and changes
// to the mappings are serialised by a mutex.
unsafe impl Send for GuestMemory {}
unsafe impl Sync for GuestMemory {}

/// Where `mmap` may place mappings.
#[derive(Debug, Default)]
struct Heap {
    /// First page of the heap region.
    start: usize,
    /// One past its last page.
    end: usize,
    /// No free page lies below this one (a search hint).
    lowest_free: usize,
}

impl GuestMemory {
    /// Reserves the guest space. At most `limit` bytes may be accessible at once.
    pub fn reserve(limit: u64) -> Result<GuestMemory, String> {
        let len = (SIZE + GUARD) as usize;
        // SAFETY: a fresh inaccessible private mapping; checked for failure below.
        let base = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_NONE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
                -1,
                0,
            )
        };
        if base == libc::MAP_FAILED {
            return Err(format!("cannot reserve guest memory: {}", std::io::Error::last_os_error()));
        }
        Ok(GuestMemory {
            base: base.cast(),
            pages: (0..PAGES).map(|_| AtomicU8::new(Page::Free as u8)).collect(),
            changes: Mutex::new(Heap::default()),
            committed: AtomicU64::new(0),
            peak: AtomicU64::new(0),
            limit,
        })
    }

    /// Host address of guest address 0.
    pub fn base(&self) -> u64 {
        self.base as u64
    }

    /// True if `host` lies in the reservation (guest space or guard).
    pub fn contains_host(&self, host: u64) -> bool {
        host >= self.base() && host < self.base() + SIZE + GUARD
    }

    /// Bytes accessible now, and the most ever.
    pub fn usage(&self) -> (u64, u64) {
        (self.committed.load(Ordering::Relaxed), self.peak.load(Ordering::Relaxed))
    }

    fn page(&self, p: usize) -> Page {
        Page::from_u8(self.pages[p].load(Ordering::Acquire))
    }

    /// Makes `[addr, addr+len)` read-write for the loader (globals, the main stack); both
    /// must be page-aligned.
    pub fn map_fixed(&self, addr: u32, len: u32) -> Result<(), String> {
        let heap = self.changes.lock().unwrap_or_else(|e| e.into_inner());
        let (first, n) = (addr as usize / PAGE as usize, len.div_ceil(PAGE) as usize);
        self.set(&heap, first, n, Page::ReadWrite).map_err(|e| format!("cannot map guest memory: errno {}", e.0))
    }

    /// Makes loader-mapped pages `[addr, addr+len)` read-only (page-aligned).
    pub fn seal(&self, addr: u32, len: u32) -> Result<(), String> {
        let heap = self.changes.lock().unwrap_or_else(|e| e.into_inner());
        let (first, n) = (addr as usize / PAGE as usize, len.div_ceil(PAGE) as usize);
        self.set(&heap, first, n, Page::ReadOnly).map_err(|e| format!("cannot protect guest memory: errno {}", e.0))
    }

    /// Sets the region `mmap` places mappings in: `[start, end)`, page-aligned.
    pub fn set_heap(&self, start: u32, end: u32) {
        let mut heap = self.changes.lock().unwrap_or_else(|e| e.into_inner());
        heap.start = start as usize / PAGE as usize;
        heap.end = end as usize / PAGE as usize;
        heap.lowest_free = heap.start;
    }

    /// Sets pages `first..first+n` to `state`, with the host protection and the accounting
    /// that go with it. Freed pages are replaced by fresh ones, so a later mapping there
    /// reads zeros and the host can reclaim the memory.
    fn set(&self, _heap: &Heap, first: usize, n: usize, state: Page) -> Result<(), Errno> {
        let was: u64 = (first..first + n).filter(|&p| self.page(p).accessible()).count() as u64 * u64::from(PAGE);
        let will = if state.accessible() { n as u64 * u64::from(PAGE) } else { 0 };
        let now = self.committed.load(Ordering::Relaxed);
        let after = now - was + will;
        if will > was && after > self.limit {
            return Err(Errno::ENOMEM);
        }
        // SAFETY: the range is inside the reservation (first + n <= PAGES is checked by
        // every caller), and only guest pages are remapped.
        let host = unsafe { self.base.add(first * PAGE as usize) };
        let len = n * PAGE as usize;
        let rc = if state == Page::Free {
            // SAFETY: see above; MAP_FIXED replaces guest pages only.
            let p = unsafe {
                libc::mmap(
                    host.cast(),
                    len,
                    libc::PROT_NONE,
                    libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE | libc::MAP_FIXED,
                    -1,
                    0,
                )
            };
            if p == libc::MAP_FAILED { -1 } else { 0 }
        } else {
            // SAFETY: see above.
            unsafe { libc::mprotect(host.cast(), len, state.host_prot()) }
        };
        if rc != 0 {
            return Err(Errno::ENOMEM);
        }
        for p in first..first + n {
            self.pages[p].store(state as u8, Ordering::Release);
        }
        self.committed.store(after, Ordering::Relaxed);
        self.peak.fetch_max(after, Ordering::Relaxed);
        Ok(())
    }

    /// IRT `mmap` of an anonymous region: `len` bytes (rounded up to pages) at `hint` if
    /// that range is free, anywhere free otherwise, or exactly at `hint` with `fixed`
    /// (replacing what was there). Returns the address; the memory reads as zeros.
    pub fn mmap(&self, hint: u32, len: u32, prot: i32, fixed: bool) -> Result<u32, Errno> {
        if len == 0 {
            return Err(Errno::EINVAL);
        }
        let n = (len as usize).div_ceil(PAGE as usize);
        let mut heap = self.changes.lock().unwrap_or_else(|e| e.into_inner());
        let state = Page::from_prot(prot);
        let first = if fixed {
            if !hint.is_multiple_of(PAGE) {
                return Err(Errno::EINVAL);
            }
            let first = hint as usize / PAGE as usize;
            if first < heap.start || first + n > heap.end {
                return Err(Errno::EINVAL);
            }
            // Whatever was there goes, and the new mapping reads as zeros.
            self.set(&heap, first, n, Page::Free)?;
            first
        } else {
            let wanted = hint as usize / PAGE as usize;
            let fits =
                |p: usize| p >= heap.start && p + n <= heap.end && (p..p + n).all(|q| self.page(q) == Page::Free);
            if hint != 0 && hint.is_multiple_of(PAGE) && fits(wanted) {
                wanted
            } else {
                self.first_fit(&heap, n).ok_or(Errno::ENOMEM)?
            }
        };
        self.set(&heap, first, n, state)?;
        if first == heap.lowest_free {
            heap.lowest_free = first + n;
        }
        Ok((first * PAGE as usize) as u32)
    }

    fn first_fit(&self, heap: &Heap, n: usize) -> Option<usize> {
        let mut run = 0;
        let mut p = heap.lowest_free.max(heap.start);
        while p < heap.end {
            if self.page(p) == Page::Free {
                run += 1;
                if run == n {
                    return Some(p + 1 - n);
                }
            } else {
                run = 0;
            }
            p += 1;
        }
        None
    }

    /// The heap pages `[addr, addr+len)` covers, if `addr` is page-aligned and the range
    /// lies in the heap.
    fn heap_range(heap: &Heap, addr: u32, len: u32) -> Result<(usize, usize), Errno> {
        if !addr.is_multiple_of(PAGE) || len == 0 {
            return Err(Errno::EINVAL);
        }
        let first = addr as usize / PAGE as usize;
        let n = (len as usize).div_ceil(PAGE as usize);
        if first < heap.start || first + n > heap.end {
            return Err(Errno::EINVAL);
        }
        Ok((first, n))
    }

    /// IRT `munmap`: the pages become free (and zero when mapped again).
    pub fn munmap(&self, addr: u32, len: u32) -> Result<(), Errno> {
        let mut heap = self.changes.lock().unwrap_or_else(|e| e.into_inner());
        let (first, n) = Self::heap_range(&heap, addr, len)?;
        self.set(&heap, first, n, Page::Free)?;
        heap.lowest_free = heap.lowest_free.min(first);
        Ok(())
    }

    /// IRT `mprotect` on mapped heap pages.
    pub fn mprotect(&self, addr: u32, len: u32, prot: i32) -> Result<(), Errno> {
        let heap = self.changes.lock().unwrap_or_else(|e| e.into_inner());
        let (first, n) = Self::heap_range(&heap, addr, len)?;
        if (first..first + n).any(|p| self.page(p) == Page::Free) {
            return Err(Errno::ENOMEM);
        }
        self.set(&heap, first, n, Page::from_prot(prot))
    }

    /// True if the guest page holding host address `host` is mapped read-only (so a fault
    /// there was a write). Lock-free: the signal handler asks.
    pub fn is_read_only_host(&self, host: u64) -> bool {
        host.checked_sub(self.base())
            .is_some_and(|a| a < SIZE && self.page((a / u64::from(PAGE)) as usize) == Page::ReadOnly)
    }

    /// The host address of `[addr, addr+len)` for a system call, which reports unmapped
    /// pages itself (`EFAULT`); the range must lie in the guest space.
    pub fn span(&self, addr: u32, len: u32) -> Result<*mut u8, Errno> {
        if u64::from(addr) + u64::from(len) > SIZE {
            return Err(Errno::EFAULT);
        }
        // SAFETY: inside the reservation.
        Ok(unsafe { self.base.add(addr as usize) })
    }

    fn check(&self, addr: u32, len: usize, write: bool) -> Result<*mut u8, Errno> {
        let end = u64::from(addr) + len as u64;
        if end > SIZE {
            return Err(Errno::EFAULT);
        }
        if len > 0 {
            let (first, last) = (addr as usize / PAGE as usize, (end as usize - 1) / PAGE as usize);
            for p in first..=last {
                match self.page(p) {
                    Page::ReadWrite => {}
                    Page::ReadOnly if !write => {}
                    _ => return Err(Errno::EFAULT),
                }
            }
        }
        // SAFETY: inside the reservation.
        Ok(unsafe { self.base.add(addr as usize) })
    }

    /// The guest bytes `[addr, addr+len)`, if mapped readable. Guest threads may change
    /// them meanwhile (their own race); another thread unmapping them meanwhile makes the
    /// reader fault, which is reported as a trap.
    pub fn slice(&self, addr: u32, len: u32) -> Result<&[u8], Errno> {
        let p = self.check(addr, len as usize, false)?;
        // SAFETY: mapped and inside the reservation, which lives as long as `self`.
        Ok(unsafe { std::slice::from_raw_parts(p, len as usize) })
    }

    /// Copies guest bytes at `addr` into `out`.
    pub fn read(&self, addr: u32, out: &mut [u8]) -> Result<(), Errno> {
        let src = self.check(addr, out.len(), false)?;
        // SAFETY: the range is mapped readable (checked above); guest threads may write it
        // concurrently, which is the guest's own race and only affects the bytes read.
        unsafe { std::ptr::copy_nonoverlapping(src, out.as_mut_ptr(), out.len()) };
        Ok(())
    }

    /// Copies `bytes` to guest address `addr`.
    pub fn write(&self, addr: u32, bytes: &[u8]) -> Result<(), Errno> {
        let dst = self.check(addr, bytes.len(), true)?;
        // SAFETY: the range is mapped writable (checked above).
        unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), dst, bytes.len()) };
        Ok(())
    }

    /// The guest `u32` at `addr`.
    pub fn read_u32(&self, addr: u32) -> Result<u32, Errno> {
        let mut b = [0; 4];
        self.read(addr, &mut b)?;
        Ok(u32::from_le_bytes(b))
    }

    /// Writes a guest `u32`.
    pub fn write_u32(&self, addr: u32, v: u32) -> Result<(), Errno> {
        self.write(addr, &v.to_le_bytes())
    }

    /// Writes a guest `u64`.
    pub fn write_u64(&self, addr: u32, v: u64) -> Result<(), Errno> {
        self.write(addr, &v.to_le_bytes())
    }

    /// The guest `i64` at `addr`.
    pub fn read_i64(&self, addr: u32) -> Result<i64, Errno> {
        let mut b = [0; 8];
        self.read(addr, &mut b)?;
        Ok(i64::from_le_bytes(b))
    }

    /// The NUL-terminated guest string at `addr` (without the NUL); longer than `max`
    /// bytes gives `ENAMETOOLONG`.
    pub fn read_cstr(&self, addr: u32, max: usize) -> Result<Vec<u8>, Errno> {
        let mut out = Vec::new();
        let mut at = addr;
        loop {
            // Read up to the end of the current page at a time.
            let room = (PAGE - at % PAGE) as usize;
            let p = self.check(at, 1, false)?;
            // SAFETY: the page holding `at` is readable, and `room` stays inside it.
            let chunk = unsafe { std::slice::from_raw_parts(p, room) };
            match chunk.iter().position(|&b| b == 0) {
                Some(n) => {
                    out.extend_from_slice(&chunk[..n]);
                    return if out.len() > max { Err(Errno::ENAMETOOLONG) } else { Ok(out) };
                }
                None => out.extend_from_slice(chunk),
            }
            if out.len() > max {
                return Err(Errno::ENAMETOOLONG);
            }
            at = at.checked_add(room as u32).ok_or(Errno::EFAULT)?;
        }
    }

    /// The host address of a naturally aligned guest `u32` that is mapped writable (for
    /// futexes and atomics done by the runtime).
    pub fn atomic_u32(&self, addr: u32) -> Result<&std::sync::atomic::AtomicU32, Errno> {
        if !addr.is_multiple_of(4) {
            return Err(Errno::EINVAL);
        }
        let p = self.check(addr, 4, true)?;
        // SAFETY: aligned, mapped, and inside the reservation, which outlives every guest
        // thread; guest code accesses it with atomics or plain moves, both fine on a word.
        Ok(unsafe { &*(p as *const std::sync::atomic::AtomicU32) })
    }
}

impl Drop for GuestMemory {
    fn drop(&mut self) {
        // SAFETY: the reservation made in `reserve`, unmapped once.
        unsafe {
            libc::munmap(self.base.cast(), (SIZE + GUARD) as usize);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn memory() -> GuestMemory {
        let m = GuestMemory::reserve(u64::MAX).unwrap();
        m.set_heap(16 * PAGE, 64 * PAGE);
        m
    }

    #[test]
    fn mappings_are_zero_filled_on_reuse() {
        let m = memory();
        let a = m.mmap(0, 100, PROT_READ | PROT_WRITE, false).unwrap();
        assert_eq!(a, 16 * PAGE);
        m.write(a + 10, b"dirty").unwrap();
        m.munmap(a, PAGE).unwrap();
        assert_eq!(m.read_u32(a), Err(Errno::EFAULT));
        let b = m.mmap(0, 100, PROT_READ | PROT_WRITE, false).unwrap();
        assert_eq!(b, a);
        let mut buf = [1u8; 5];
        m.read(b + 10, &mut buf).unwrap();
        assert_eq!(buf, [0; 5]);
    }

    #[test]
    fn hints_fixed_and_exhaustion() {
        let m = memory();
        let a = m.mmap(40 * PAGE, PAGE, PROT_READ, false).unwrap();
        assert_eq!(a, 40 * PAGE);
        assert_eq!(m.write_u32(a, 1), Err(Errno::EFAULT), "read-only");
        assert_eq!(m.mmap(3 * PAGE, PAGE, 3, true), Err(Errno::EINVAL), "fixed outside the heap");
        assert_eq!(m.mmap(40 * PAGE, PAGE, 3, true), Ok(40 * PAGE));
        assert_eq!(m.write_u32(a, 1), Ok(()));
        assert_eq!(m.mmap(0, 48 * PAGE, 3, false), Err(Errno::ENOMEM));
        let mut n = 0;
        while m.mmap(0, PAGE, 3, false).is_ok() {
            n += 1;
        }
        assert_eq!(n, 47);
    }

    #[test]
    fn limit_counts_accessible_pages() {
        let m = GuestMemory::reserve(2 * u64::from(PAGE)).unwrap();
        m.set_heap(16 * PAGE, 64 * PAGE);
        let a = m.mmap(0, 2 * PAGE, 3, false).unwrap();
        assert_eq!(m.mmap(0, 1, 3, false), Err(Errno::ENOMEM));
        assert!(m.mmap(0, 1, 0, false).is_ok(), "PROT_NONE costs nothing");
        m.munmap(a, PAGE).unwrap();
        assert!(m.mmap(0, 1, 3, false).is_ok());
        assert_eq!(m.usage().1, 2 * u64::from(PAGE));
    }

    #[test]
    fn strings_cross_pages_and_stop_at_unmapped_memory() {
        let m = memory();
        let a = m.mmap(0, 2 * PAGE, 3, false).unwrap();
        let at = a + PAGE - 3;
        m.write(at, b"hello\0").unwrap();
        assert_eq!(m.read_cstr(at, 100).unwrap(), b"hello");
        assert_eq!(m.read_cstr(at, 2), Err(Errno::ENAMETOOLONG));
        m.write(a + 2 * PAGE - 2, b"ab").unwrap();
        assert_eq!(m.read_cstr(a + 2 * PAGE - 2, 100), Err(Errno::EFAULT));
        assert_eq!(m.read_u32(u32::MAX - 1), Err(Errno::EFAULT));
        assert_eq!(m.span(u32::MAX, 2), Err(Errno::EFAULT));
    }
}
