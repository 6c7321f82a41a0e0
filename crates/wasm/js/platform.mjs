// What the host platform gives the IRT: clocks, random bytes, the process id, the file
// system (Node's `fs`; none in a browser) and the standard streams.

/**
 * @typedef {object} Platform
 * @property {boolean} node
 * @property {any} fs  node:fs, or null
 * @property {(fd: number) => boolean} isatty
 * @property {() => bigint} realtimeNs
 * @property {() => bigint} monotonicNs
 * @property {() => bigint} cpuNs
 * @property {(id: number) => number} resolutionNs
 * @property {(bytes: Uint8Array) => void} random
 * @property {number} pid
 * @property {number} processors
 * @property {(fd: number, bytes: Uint8Array) => number} writeStream  without `fs`
 * @property {(fd: number, bytes: Uint8Array) => number} readStdin  without `fs`
 */

/** True when running under Node. */
export const isNode = typeof process !== 'undefined' && !!process.versions?.node;

/** The nanoseconds of `performance.now()` since the epoch. */
function realtimeNs() {
  return BigInt(Math.round((performance.timeOrigin + performance.now()) * 1e6));
}

/**
 * The platform of this thread.
 * @param {(message: any) => void} post  to the supervisor (a browser's output goes there)
 * @returns {Promise<Platform>}
 */
export async function platform(post) {
  const random = (/** @type {Uint8Array} */ bytes) => {
    for (let at = 0; at < bytes.length; at += 65536) crypto.getRandomValues(bytes.subarray(at, at + 65536));
  };
  if (isNode) {
    // node:tty (which loads node:net) and node:os are loaded when first needed: most
    // programs never ask, and a Worker compiles every module it loads.
    // process.getBuiltinModule (Node 20.16 and later) does not load the ES module loader,
    // which a Worker started by node-worker.bundle.cjs has not loaded.
    /** @type {((name: string) => any) | undefined} */
    const builtin = /** @type {any} */ (process).getBuiltinModule?.bind(process);
    const fs = builtin ? builtin('node:fs') : await import('node:fs');
    // Only Node's own modules are required, so any absolute base will do.
    const require = builtin ?? (await import('node:module')).createRequire('/');
    /** @type {any} */
    let tty = null;
    /** @type {number | null} */
    let processors = null;
    return {
      node: true,
      fs,
      isatty: (fd) => {
        // A terminal is a character device; anything else needs no more asking.
        try {
          if (!fs.fstatSync(fd).isCharacterDevice()) return false;
        } catch {
          return false;
        }
        tty ??= require('node:tty');
        return tty.isatty(fd);
      },
      realtimeNs,
      monotonicNs: () => process.hrtime.bigint(),
      cpuNs: () => {
        const u = process.cpuUsage();
        return BigInt(u.user + u.system) * 1000n;
      },
      resolutionNs: (id) => (id >= 2 ? 1000 : 1),
      random,
      pid: process.pid,
      get processors() {
        if (processors === null) {
          const os = require('node:os');
          processors = os.availableParallelism ? os.availableParallelism() : os.cpus().length;
        }
        return /** @type {number} */ (processors);
      },
      writeStream: () => 0,
      readStdin: () => 0,
    };
  }
  return {
    node: false,
    fs: null,
    isatty: () => false,
    realtimeNs,
    monotonicNs: () => BigInt(Math.round(performance.now() * 1e6)),
    cpuNs: () => BigInt(Math.round(performance.now() * 1e6)),
    resolutionNs: () => 1000,
    random,
    pid: 1,
    processors: navigator.hardwareConcurrency || 1,
    writeStream: (fd, bytes) => {
      post({ type: 'output', fd, bytes: bytes.slice() });
      return bytes.length;
    },
    readStdin: () => 0,
  };
}
