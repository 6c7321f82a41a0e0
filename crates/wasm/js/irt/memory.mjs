// `nacl-irt-memory-0.3`: mmap, munmap and mprotect over the heap, which lies above the main
// thread's stack and grows the linear memory (`memory.grow`) as mappings need it. Pages
// are NaCl's 64 KiB; freed pages are zeroed, so a new mapping reads as zeros. Wasm cannot
// protect memory: `mprotect` checks its range and changes nothing.

import { ERRNO, Errno, irtCall } from '../errno.mjs';
import { CTL, PAGE } from '../guest.mjs';

const MAP_SHARED = 0x01, MAP_PRIVATE = 0x02, MAP_FIXED = 0x10, MAP_ANONYMOUS = 0x20;
const PAGES = 65536;

/**
 * The page allocator the IRT's mmap and the host's own allocations share.
 * @param {import('../worker.mjs').Context} ctx
 */
function pageHeap(ctx) {
  const { mem, control } = ctx;
  const pages = control.pages;
  const words = control.words;
  const heapStart = Math.ceil(ctx.meta.stack_top / PAGE);
  /** The pages `[addr, addr+len)` covers, if page-aligned and in the heap. */
  const range = (/** @type {number} */ addr, /** @type {number} */ len) => {
    addr >>>= 0;
    len >>>= 0;
    if (addr % PAGE !== 0 || len === 0) throw new Errno(ERRNO.EINVAL);
    const first = addr / PAGE, n = Math.ceil(len / PAGE);
    if (first < heapStart || first + n > PAGES) throw new Errno(ERRNO.EINVAL);
    return [first, n];
  };
  /** Marks pages free, zeroing those that were mapped. */
  const free = (/** @type {number} */ first, /** @type {number} */ n) => {
    mem.refresh();
    for (let p = first; p < first + n; p++) {
      if (pages[p]) {
        mem.u8.fill(0, p * PAGE, (p + 1) * PAGE);
        pages[p] = 0;
        words[CTL.COMMITTED]--;
      }
    }
  };
  /** Maps free pages, growing the memory to hold them. */
  const map = (/** @type {number} */ first, /** @type {number} */ n) => {
    const max = words[CTL.MAX_PAGES];
    if (max && words[CTL.COMMITTED] + n > max) throw new Errno(ERRNO.ENOMEM);
    const have = ctx.memory.buffer.byteLength / PAGE;
    if (first + n > have) {
      try {
        ctx.memory.grow(first + n - have);
      } catch {
        throw new Errno(ERRNO.ENOMEM);
      }
    }
    mem.refresh();
    pages.fill(1, first, first + n);
    words[CTL.COMMITTED] += n;
  };
  const firstFit = (/** @type {number} */ n) => {
    let run = 0;
    for (let p = Math.max(words[CTL.LOWEST_FREE], heapStart); p < PAGES; p++) {
      run = pages[p] ? 0 : run + 1;
      if (run === n) return p + 1 - n;
    }
    throw new Errno(ERRNO.ENOMEM);
  };
  return { range, free, map, firstFit, heapStart };
}

/**
 * Maps `len` bytes of zeroed pages for the host itself (the browser's data the guest
 * reads, as PPAPI's interface tables and variables); returns their address.
 * @param {import('../worker.mjs').Context} ctx @param {number} len
 */
export function mapForHost(ctx, len) {
  const { map, firstFit } = pageHeap(ctx);
  const words = ctx.control.words;
  const n = Math.ceil(len / PAGE);
  return ctx.control.locked(CTL.MMAP_LOCK, () => {
    const first = firstFit(n);
    map(first, n);
    if (first === words[CTL.LOWEST_FREE]) words[CTL.LOWEST_FREE] = first + n;
    return first * PAGE;
  });
}

/**
 * Unmaps pages that {@link mapForHost} mapped.
 * @param {import('../worker.mjs').Context} ctx @param {number} addr @param {number} len
 */
export function unmapForHost(ctx, addr, len) {
  const { range, free } = pageHeap(ctx);
  const words = ctx.control.words;
  ctx.control.locked(CTL.MMAP_LOCK, () => {
    const [first, n] = range(addr, len);
    free(first, n);
    words[CTL.LOWEST_FREE] = Math.min(words[CTL.LOWEST_FREE], first);
  });
}

/** @param {import('../worker.mjs').Context} ctx */
export function functions(ctx) {
  const { mem, control } = ctx;
  const pages = control.pages;
  const words = control.words;
  const { range, free, map, firstFit, heapStart } = pageHeap(ctx);
  return {
    /** `int mmap(void **addr, size_t len, int prot, int flags, int fd, off_t off)`. */
    mmap(/** @type {number} */ addr, /** @type {number} */ len, /** @type {number} */ prot, /** @type {number} */ flags,
      /** @type {number} */ fd, /** @type {bigint} */ off) {
      return irtCall(() => {
        const hint = mem.u32(addr);
        const sharing = flags & (MAP_SHARED | MAP_PRIVATE);
        if (sharing !== MAP_SHARED && sharing !== MAP_PRIVATE) throw new Errno(ERRNO.EINVAL);
        if (len >>> 0 === 0) throw new Errno(ERRNO.EINVAL);
        const anonymous = (flags & MAP_ANONYMOUS) !== 0;
        let file = null;
        if (!anonymous) {
          if (sharing === MAP_SHARED && prot & 2) throw new Errno(ERRNO.EINVAL);
          if (off < 0n || off % BigInt(PAGE) !== 0n) throw new Errno(ERRNO.EINVAL);
          file = ctx.files.get(fd);
          if (!ctx.platform.fs) throw new Errno(ERRNO.ENODEV);
        }
        const n = Math.ceil((len >>> 0) / PAGE);
        const at = control.locked(CTL.MMAP_LOCK, () => {
          let first;
          if (flags & MAP_FIXED) {
            if (hint % PAGE !== 0) throw new Errno(ERRNO.EINVAL);
            first = hint / PAGE;
            if (first < heapStart || first + n > PAGES) throw new Errno(ERRNO.EINVAL);
            free(first, n);
          } else {
            const wanted = hint / PAGE;
            const fits = hint !== 0 && hint % PAGE === 0 && wanted >= heapStart && wanted + n <= PAGES
              && !pages.subarray(wanted, wanted + n).some((x) => x !== 0);
            first = fits ? wanted : firstFit(n);
          }
          map(first, n);
          if (first === words[CTL.LOWEST_FREE]) words[CTL.LOWEST_FREE] = first + n;
          return first * PAGE;
        });
        if (file) {
          const view = mem.view(at, len >>> 0);
          let done = 0;
          while (done < view.length) {
            const k = ctx.platform.fs.readSync(file.host, view, done, view.length - done, off + BigInt(done));
            if (k === 0) break;
            done += k;
          }
        }
        mem.setU32(addr, at);
      });
    },
    /** `int munmap(void *addr, size_t len)`. */
    munmap(/** @type {number} */ addr, /** @type {number} */ len) {
      return irtCall(() => control.locked(CTL.MMAP_LOCK, () => {
        const [first, n] = range(addr, len);
        free(first, n);
        words[CTL.LOWEST_FREE] = Math.min(words[CTL.LOWEST_FREE], first);
      }));
    },
    /** `int mprotect(void *addr, size_t len, int prot)`: checked, not enforced. */
    mprotect(/** @type {number} */ addr, /** @type {number} */ len) {
      return irtCall(() => control.locked(CTL.MMAP_LOCK, () => {
        const [first, n] = range(addr, len);
        if (pages.subarray(first, first + n).some((x) => x === 0)) throw new Errno(ERRNO.ENOMEM);
      }));
    },
  };
}
