// Guest memory as the IRT sees it, and the control block the guest's threads share.

import { ERRNO, Errno } from './errno.mjs';

/** Guest addresses below this are never mapped: an IRT access there is EFAULT. */
export const NULL_PAGE_END = 0x10000;
/** NaCl's page, and wasm's. */
export const PAGE = 0x10000;

/** Checked access to the guest's linear memory (views renewed when it grows). */
export class GuestMemory {
  /** @param {WebAssembly.Memory} memory */
  constructor(memory) {
    this.memory = memory;
    /** @type {Uint8Array} */
    this.u8 = new Uint8Array(0);
    /** @type {DataView} */
    this.dv = new DataView(new ArrayBuffer(0));
    this.refresh();
  }

  /** Renews the views if the memory grew. */
  refresh() {
    const buffer = this.memory.buffer;
    if (buffer.byteLength !== this.u8.byteLength || buffer !== this.u8.buffer) {
      this.u8 = new Uint8Array(buffer);
      this.dv = new DataView(buffer);
      this.i32 = new Int32Array(buffer, 0, buffer.byteLength >>> 2);
    }
  }

  /**
   * Checks that `[addr, addr+len)` is guest memory the IRT may touch.
   * @param {number} addr
   * @param {number} len
   */
  check(addr, len) {
    addr >>>= 0;
    if (len > 0 && addr < NULL_PAGE_END) throw new Errno(ERRNO.EFAULT);
    if (addr + len > this.u8.byteLength) {
      this.refresh();
      if (addr + len > this.u8.byteLength) throw new Errno(ERRNO.EFAULT);
    }
  }

  /** @param {number} addr */
  u32(addr) {
    this.check(addr, 4);
    return this.dv.getUint32(addr >>> 0, true);
  }

  /** @param {number} addr @param {number} v */
  setU32(addr, v) {
    this.check(addr, 4);
    this.dv.setUint32(addr >>> 0, v >>> 0, true);
  }

  /** @param {number} addr @param {bigint} v */
  setU64(addr, v) {
    this.check(addr, 8);
    this.dv.setBigUint64(addr >>> 0, BigInt.asUintN(64, v), true);
  }

  /** @param {number} addr */
  i64(addr) {
    this.check(addr, 8);
    return this.dv.getBigInt64(addr >>> 0, true);
  }

  /**
   * A view of guest bytes (no copy).
   * @param {number} addr @param {number} len
   */
  view(addr, len) {
    this.check(addr, len);
    return this.u8.subarray(addr >>> 0, (addr >>> 0) + len);
  }

  /**
   * Copies bytes in.
   * @param {number} addr @param {Uint8Array} bytes
   */
  write(addr, bytes) {
    this.check(addr, bytes.length);
    this.u8.set(bytes, addr >>> 0);
  }

  /**
   * A NUL-terminated string (a copy, without the NUL).
   * @param {number} addr @param {number} max  the most bytes read
   */
  cstr(addr, max) {
    addr >>>= 0;
    this.check(addr, 1);
    const end = Math.min(this.u8.byteLength, addr + max);
    const nul = this.u8.subarray(addr, end).indexOf(0);
    if (nul < 0) throw new Errno(end - addr >= max ? ERRNO.ENAMETOOLONG : ERRNO.EFAULT);
    return this.u8.slice(addr, addr + nul);
  }

  /**
   * Writes a `struct timespec` / `struct timeval`: an i64 and an i32, padded to 16 bytes.
   * @param {number} addr @param {bigint} sec @param {number} frac
   */
  putTime(addr, sec, frac) {
    this.check(addr, 16);
    this.dv.setBigInt64(addr, sec, true);
    this.dv.setInt32(addr + 8, frac, true);
    this.dv.setInt32(addr + 12, 0, true);
  }

  /**
   * Reads a `struct timespec`, as nanoseconds since the epoch (EINVAL if malformed).
   * @param {number} addr
   */
  timespec(addr) {
    const sec = this.i64(addr);
    this.check(addr, 12);
    const nsec = this.dv.getInt32(addr + 8, true);
    if (sec < 0n || nsec < 0 || nsec >= 1e9) throw new Errno(ERRNO.EINVAL);
    return sec * 1000000000n + BigInt(nsec);
  }
}

/** Most guest file descriptors, and open file descriptions. */
export const MAX_FDS = 1024;

/** Word indices of the control block's header. */
export const CTL = {
  /** 1 once some thread has claimed the process's exit. */
  EXIT_CLAIMED: 0,
  EXIT_STATUS: 1,
  /** Guest threads running. */
  THREADS: 2,
  /** Lock of the mappings (mmap). */
  MMAP_LOCK: 3,
  /** Lock of the descriptors and the working directory. */
  FILES_LOCK: 4,
  /** Pages mapped by mmap (for --max-memory). */
  COMMITTED: 5,
  /** No free heap page lies below this one. */
  LOWEST_FREE: 6,
  /** Bytes of the working directory. */
  CWD_LENGTH: 7,
  /** Pages mapped at most (--max-memory), 0 for no limit. */
  MAX_PAGES: 8,
  /** Outputs sent to the supervisor (a browser's standard streams; see supervisor.mjs). */
  OUTPUTS: 9,
  HEADER_WORDS: 16,
};

/**
 * The state the guest's threads share: the exit claim, the thread count, the mappings,
 * the file descriptors and the working directory. One buffer, shared between Workers.
 */
export class Control {
  /**
   * A new control block (shared if the platform can share memory).
   * @returns {SharedArrayBuffer | ArrayBuffer}
   */
  static allocate() {
    const size = Control.size();
    return typeof SharedArrayBuffer === 'function' ? new SharedArrayBuffer(size) : new ArrayBuffer(size);
  }

  static size() {
    return CTL.HEADER_WORDS * 4 + MAX_FDS * 4 + MAX_FDS * 16 + MAX_FDS * 8 + 65536 + 4096;
  }

  /** @param {SharedArrayBuffer | ArrayBuffer} buffer */
  constructor(buffer) {
    this.buffer = buffer;
    let at = 0;
    /** The header words. */
    this.words = new Int32Array(buffer, at, CTL.HEADER_WORDS);
    at += CTL.HEADER_WORDS * 4;
    /** Guest descriptor -> description + 1 (0: closed). */
    this.fds = new Int32Array(buffer, at, MAX_FDS);
    at += MAX_FDS * 4;
    /** Per description: host fd + 1, references, flags, spare. */
    this.descs = new Int32Array(buffer, at, MAX_FDS * 4);
    at += MAX_FDS * 16;
    /** Per description: the file position. */
    this.positions = new BigInt64Array(buffer, at, MAX_FDS);
    at += MAX_FDS * 8;
    /** Per 64 KiB page of the 4 GiB space: 1 if mapped. */
    this.pages = new Uint8Array(buffer, at, 65536);
    at += 65536;
    /** The working directory's bytes. */
    this.cwd = new Uint8Array(buffer, at, 4096);
  }

  /**
   * Runs `f` holding lock word `k` (a spin lock: the sections are short).
   * @template T
   * @param {number} k @param {() => T} f
   * @returns {T}
   */
  locked(k, f) {
    while (Atomics.compareExchange(this.words, k, 0, 1) !== 0) {
      if (this.buffer instanceof SharedArrayBuffer) Atomics.wait(this.words, k, 1, 1);
    }
    try {
      return f();
    } finally {
      Atomics.store(this.words, k, 0);
      if (this.buffer instanceof SharedArrayBuffer) Atomics.notify(this.words, k, 1);
    }
  }
}

/**
 * Sleeps `ms` milliseconds (blocking: guest code runs in Workers).
 * @param {number} ms
 */
export function sleep(ms) {
  if (ms <= 0) return;
  if (typeof SharedArrayBuffer === 'function') {
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
  } else {
    const end = Date.now() + ms;
    while (Date.now() < end);
  }
}

/**
 * The bytes of `parts`, one after another, in one array.
 * @param {Uint8Array[]} parts
 * @returns {Uint8Array}
 */
export function concatBytes(parts) {
  const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.length;
  }
  return all;
}
