// Guest memory the host hands out: PPAPI's interface tables, the bytes of string and
// ArrayBuffer variables (`VarToUtf8` and `Map` return pointers into it, valid while the
// variable lives). Blocks of up to 32 KiB come in power-of-two sizes from 64 KiB pages
// the IRT's page allocator maps (the same pages `mmap` hands out, so the guest's malloc
// never overlaps them); larger ones get their own pages. Each Worker has its own free
// lists: a block released by another thread than the one that made it is not reused.

import { mapForHost, unmapForHost } from '../irt/memory.mjs';
import { PAGE } from '../guest.mjs';

const LARGEST_CLASS = 32768;

export class HostHeap {
  /** @param {import('../worker.mjs').Context} ctx */
  constructor(ctx) {
    this.ctx = ctx;
    /** @type {Map<number, number[]>} free blocks by size class */
    this.free = new Map();
    /** @type {Map<number, number>} live block -> its size class, or page-rounded length */
    this.sizes = new Map();
  }

  /**
   * A zeroed block of at least `n` bytes (16-aligned); throws a RangeError when memory is
   * exhausted.
   * @param {number} n
   */
  alloc(n) {
    const { mem } = this.ctx;
    if (n > LARGEST_CLASS) {
      const len = Math.ceil(n / PAGE) * PAGE;
      const at = this.map(len);
      this.sizes.set(at, len);
      return at;
    }
    let size = 16;
    while (size < n) size *= 2;
    let list = this.free.get(size);
    if (!list) this.free.set(size, list = []);
    if (list.length === 0) {
      const page = this.map(PAGE);
      for (let at = page + PAGE - size; at >= page; at -= size) list.push(at);
    }
    const at = /** @type {number} */ (list.pop());
    mem.refresh();
    mem.u8.fill(0, at, at + size);
    this.sizes.set(at, size);
    return at;
  }

  /** @param {number} len */
  map(len) {
    try {
      return mapForHost(this.ctx, len);
    } catch {
      throw new RangeError(`the module's memory is exhausted (the host needed ${len} bytes)`);
    }
  }

  /**
   * Frees a block `alloc` returned (anything else is ignored).
   * @param {number} at
   */
  release(at) {
    const size = this.sizes.get(at);
    if (size === undefined) return;
    this.sizes.delete(at);
    if (size > LARGEST_CLASS) unmapForHost(this.ctx, at, size);
    else this.free.get(size)?.push(at);
  }

  /**
   * Copies bytes into a new block (with a NUL after them).
   * @param {Uint8Array} bytes
   */
  copy(bytes) {
    const at = this.alloc(bytes.length + 1);
    this.ctx.mem.write(at, bytes);
    return at;
  }
}
