// One guest thread: a Worker with its own instance of the module on the shared memory.
// The main thread writes the globals' data and the startup block and calls `_start`;
// another thread calls its start function on the stack its creator gave it.
//
// A thread leaves guest code by an exception: `exit` (from any thread: the process ends),
// `thread_exit`, a trap. The supervisor (the thread that created the Workers) ends the
// process when told; guest threads only post to it.

import { CTL, Control, GuestMemory, NULL_PAGE_END } from './guest.mjs';
import { Files, Mount } from './files.mjs';
import { irtImports, metadata } from './meta.mjs';
import { isNode, platform as makePlatform } from './platform.mjs';
import { placeStartup } from './startup.mjs';
import { trapLine } from './trap.mjs';
import * as basic from './irt/basic.mjs';
import * as fdio from './irt/fdio.mjs';
import * as filename from './irt/filename.mjs';
import * as memory from './irt/memory.mjs';
import * as query from './irt/query.mjs';
import * as threads from './irt/threads.mjs';

/**
 * What a guest thread starts with.
 * @typedef {object} ThreadData
 * @property {'main' | 'thread'} role
 * @property {WebAssembly.Module} module
 * @property {WebAssembly.Memory | null} memory  null for a plain memory, which the main thread makes
 * @property {SharedArrayBuffer | ArrayBuffer} control
 * @property {string} argv0  what the program is called in messages
 * @property {{host: string, guest: string}[]} mounts
 * @property {Uint8Array[]} [args]  the main thread's argv
 * @property {Uint8Array[]} [env]  its environment
 * @property {number} [maxPages]  --max-memory, in pages (0: none)
 * @property {number} [start]  a thread's start function
 * @property {number} [stack]  its stack top
 * @property {number} [tp]  its thread pointer
 * @property {import('./web/ppapi.mjs').PpapiData} [ppapi]  a browser program's instance (`pnacl web`)
 */

/**
 * What the IRT functions share.
 * @typedef {object} Context
 * @property {GuestMemory} mem
 * @property {WebAssembly.Memory} memory
 * @property {Control} control
 * @property {Files} files
 * @property {import('./platform.mjs').Platform} platform
 * @property {import('./meta.mjs').Meta} meta
 * @property {string[]} irtNames
 * @property {string} argv0
 * @property {boolean} browser  a browser program's host (which offers the PPAPI hook)
 * @property {() => any} exports
 * @property {(status: number) => never} exit
 * @property {(text: string) => void} stderr
 * @property {() => void} beforeOutput
 * @property {import('./gather.mjs').Gather | null} gather  standard output's gathering (Node, not a terminal)
 * @property {() => never} brokenPipe
 * @property {(start: number, stack: number, tp: number) => void} startThread
 * @property {(flag: number) => never} threadExit
 */

/** Thrown to leave guest code when the process is ending. */
class Unwind {}

/** Thrown by `thread_exit`. */
class ThreadExit {
  /** @param {number} flag */
  constructor(flag) {
    this.flag = flag;
  }
}

/**
 * Runs a guest thread to its end.
 * @param {ThreadData} data
 * @param {(message: any) => void} post  to the supervisor
 */
export async function runThread(data, post) {
  const control = new Control(data.control);
  const words = control.words;
  // A browser's outputs are numbered, so that the page shows them in the order they were
  // written whichever thread wrote them (see supervisor.mjs).
  const send = (/** @type {any} */ m) => post(m.type === 'output' ? { ...m, seq: Atomics.add(words, CTL.OUTPUTS, 1) } : m);
  /** Tells the supervisor to end the process, after the outputs sent so far. */
  const postExit = (/** @type {number} */ status) => post({ type: 'exit', status, outputs: Atomics.load(words, CTL.OUTPUTS) });
  const platform = await makePlatform(send);
  const meta = metadata(data.module);
  const guestMemory = data.memory
    ?? new WebAssembly.Memory({ initial: meta.initial_pages, maximum: meta.maximum_pages, shared: false });
  const mem = new GuestMemory(guestMemory);
  const files = new Files(control, data.mounts.map((m) => new Mount(m.host, m.guest)), platform.fs, platform.isatty);
  const enc = new TextEncoder();
  /** @type {any} */
  let exports = null;
  const stderr = (/** @type {string} */ text) => {
    if (platform.fs) {
      try {
        platform.fs.writeSync(2, text);
      } catch {
        // Nowhere else to say it.
      }
    } else send({ type: 'output', fd: 2, bytes: enc.encode(text) });
  };
  /** Claims the process's exit; true if this thread is the one to end it. */
  const claim = () => Atomics.compareExchange(words, CTL.EXIT_CLAIMED, 0, 1) === 0;
  /** @type {Context} */
  const ctx = {
    mem,
    memory: guestMemory,
    control,
    files,
    platform,
    meta,
    irtNames: irtImports(data.module),
    argv0: data.argv0,
    browser: data.ppapi !== undefined,
    exports: () => exports,
    gather: null,
    exit(status) {
      const lost = ctx.gather?.finish() ?? null;
      if (lost !== null) {
        stderr(lost);
        if (status === 0) status = 1;
      }
      if (claim()) {
        Atomics.store(words, CTL.EXIT_STATUS, status);
        postExit(status);
      }
      throw new Unwind();
    },
    stderr,
    beforeOutput() {
      if (Atomics.load(words, CTL.EXIT_CLAIMED)) throw new Unwind();
    },
    brokenPipe() {
      // A native program dies of SIGPIPE here; the shell sees 128 + 13.
      return ctx.exit(141);
    },
    startThread(start, stack, tp) {
      Atomics.add(words, CTL.THREADS, 1);
      post({ type: 'thread', start, stack, tp });
    },
    threadExit(flag) {
      throw new ThreadExit(flag);
    },
  };
  /** @type {Record<string, Function>} */
  const calls = {
    ...query.functions(ctx),
    ...basic.functions(ctx),
    ...fdio.functions(ctx),
    ...filename.functions(ctx),
    ...memory.functions(ctx),
    ...threads.functions(ctx),
    // Only a browser program's host loads the PPAPI (seven modules).
    ...(data.ppapi ? (await import('./web/ppapi.mjs')).functions(ctx, data.ppapi, data.role === 'main', post) : {}),
  };
  // Every IRT call but a write first passes on what standard output gathered (gather.mjs).
  const irt = Object.fromEntries(
    Object.entries(calls).map(([name, f]) => [
      name,
      name === 'write'
        ? f
        : (/** @type {any[]} */ ...args) => {
            if (ctx.gather !== null && ctx.gather.len !== 0) ctx.gather.tick();
            return f(...args);
          },
    ]),
  );
  // A browser program's PPAPI imports, where no page hosts it: never called, since its
  // query for the PPAPI hook ends the process first (status 126).
  for (const name of ctx.irtNames) {
    if (!(name in irt)) {
      Object.assign(irt, { [name]: () => ctx.stderr(`pnacl: ${name}: no browser hosts this module\n`) || ctx.exit(126) });
    }
  }
  const imports = { irt, pnacl: { fmod: (/** @type {number} */ a, /** @type {number} */ b) => a % b }, env: { memory: guestMemory } };
  const instance = new WebAssembly.Instance(data.module, imports);
  exports = instance.exports;
  const ended = () => {
    ctx.gather?.flush();
    if (Atomics.sub(words, CTL.THREADS, 1) === 1 && claim()) postExit(0);
  };
  try {
    if (data.role === 'main') {
      files.init();
      Atomics.store(words, CTL.THREADS, 1);
      Atomics.store(words, CTL.MAX_PAGES, data.maxPages ?? 0);
      exports.pnacl_init_memory();
      exports.stack_limit.value = meta.stack_bottom;
      const at = placeStartup(mem, meta.stack_top, data.args ?? [], data.env ?? [], query.irtValue(ctx, 'query'));
      exports.sp.value = at;
      exports._start(at);
      // `_start` returned: the process ends as if it had called exit(0).
      ctx.exit(0);
    } else {
      exports.sp.value = (data.stack ?? 0) & ~15;
      exports.tp.value = data.tp ?? 0;
      exports.stack_limit.value = NULL_PAGE_END;
      exports.pnacl_thread_entry(data.start ?? 0);
      // Returning from a thread function is undefined; it ends the thread.
      ended();
    }
  } catch (e) {
    if (e instanceof Unwind) return;
    if (e instanceof ThreadExit) {
      if (e.flag !== 0) {
        try {
          mem.check(e.flag, 4);
          Atomics.store(mem.i32, e.flag >>> 2, 0);
          Atomics.notify(mem.i32, e.flag >>> 2);
        } catch {
          // A bad flag address: nothing to clear.
        }
      }
      ended();
      return;
    }
    ctx.gather?.finish();
    const tag = exports.longjmp;
    const line = trapLine(e, data.module, meta, { tag, longjmpFrom: () => exports.longjmp_from.value });
    if (claim()) {
      Atomics.store(words, CTL.EXIT_STATUS, 134);
      stderr(line ?? `pnacl: internal error: ${/** @type {Error} */ (e)?.stack ?? e}\n`);
      postExit(134);
    }
  }
}

/**
 * Runs the thread of the first message its creator sends (the Worker may start before its
 * data is known: see supervisor.mjs). A failure of the host itself (the module does not
 * instantiate, ...) ends the process. Node's Workers start in node-worker.cjs (bundled),
 * which calls this; a browser's start here.
 * @param {ThreadData} data
 * @param {(message: any) => void} post
 */
export function run(data, post) {
  runThread(data, post).catch((err) => post({ type: 'crash', message: `${err?.stack ?? err}` }));
}

// Started as a browser's Worker: run the thread the creator describes.
if (!isNode && typeof WorkerGlobalScope !== 'undefined' && self instanceof WorkerGlobalScope) {
  self.onmessage = (/** @type {MessageEvent} */ e) => {
    self.onmessage = null;
    run(e.data, (m) => self.postMessage(m));
  };
}
