// `PPB_Core;1.0` and `PPB_MessageLoop;1.0`: resources' reference counts, clocks, and
// completion callbacks.
//
// The main thread's loop runs inside `ppapi_start` (see ppapi.mjs); a callback posted to
// it from its own thread waits in its queue, one posted from another thread goes through
// the page into the mailbox (the page keeps the delay). A loop another thread creates
// and attaches runs on that thread (`Run` until `PostQuit`); work for it must come from
// the same thread (a listed limit).

import { nextId } from './channel.mjs';
import { sleep } from '../guest.mjs';
import { Errno } from '../errno.mjs';

/** `pp_errors.h`. */
export const PP = {
  OK: 0, ERROR_FAILED: -2, ERROR_BADARGUMENT: -4, ERROR_BADRESOURCE: -5, ERROR_NOINTERFACE: -6,
  ERROR_INPROGRESS: -11, ERROR_NOTSUPPORTED: -12, ERROR_BLOCKS_MAIN_THREAD: -13, ERROR_NO_MESSAGE_LOOP: -51,
  ERROR_WRONG_THREAD: -52, OK_COMPLETIONPENDING: -1,
};

/** `PP_COMPLETIONCALLBACK_FLAG_OPTIONAL`. */
export const OPTIONAL = 1;

/** The main thread's `PPB_MessageLoop` resource. */
const MAIN_LOOP = 1;

/** @typedef {{at: number, func: number, user: number, result: number}} Work */
/** @typedef {{queue: Work[], quit: boolean}} Loop */

/** @param {import('./ppapi.mjs').Ppapi} p */
export function nextResource(p) {
  return nextId(p.data.mailbox);
}

/** @param {import('./ppapi.mjs').Ppapi} p @param {number} id */
export function addRefResource(p, id) {
  const r = p.resources.get(id);
  if (r) r.refs++;
  else p.foreignRef(id, 1);
}

/** @param {import('./ppapi.mjs').Ppapi} p @param {number} id */
export function releaseResource(p, id) {
  const r = p.resources.get(id);
  if (!r) p.foreignRef(id, -1);
  if (r && --r.refs <= 0) {
    p.resources.delete(id);
    r.free?.();
  }
}

/**
 * Reads a `PP_CompletionCallback` {func, user_data, flags}.
 * @param {import('./ppapi.mjs').Ppapi} p @param {number} at
 */
export function completionCallback(p, at) {
  const { mem } = p.ctx;
  return { func: mem.u32(at), user: mem.u32(at + 4), flags: mem.u32(at + 8) };
}

/**
 * Whether this thread may make a call with callback `c` that is done at once (the
 * thread waits for the work): PP_OK, or the call's error (a blocking call on the main
 * thread; a callback to run on a thread with no message loop).
 * @param {import('./ppapi.mjs').Ppapi} p @param {{func: number, flags: number}} c
 */
export function callableHere(p, c) {
  if (!c.func) return p.main ? PP.ERROR_BLOCKS_MAIN_THREAD : PP.OK;
  if (p.main || c.flags & OPTIONAL) return PP.OK;
  return p.loops.own.has(p.loops.current) ? PP.OK : PP.ERROR_NO_MESSAGE_LOOP;
}

/**
 * Finishes a call with callback `c` whose work, done at once, gave `result`: a
 * blocking call returns it (refused on the main thread), as does an optional callback;
 * any other callback is queued on the calling thread's message loop with the result, and
 * the call returns PP_OK_COMPLETIONPENDING (PP_ERROR_NO_MESSAGE_LOOP on a thread
 * without one). Files (files.mjs) and, off the main thread, URLLoader and WebSocket use it.
 * @param {import('./ppapi.mjs').Ppapi} p @param {{func: number, user: number, flags: number}} c
 * @param {number} result
 */
export function completeHere(p, c, result) {
  if (!c.func) return p.main ? PP.ERROR_BLOCKS_MAIN_THREAD : result;
  if (c.flags & OPTIONAL) return result;
  if (p.main) p.loops.toMain(c.func, c.user, result, 0);
  else {
    const loop = p.loops.own.get(p.loops.current);
    if (!loop) return PP.ERROR_NO_MESSAGE_LOOP;
    loop.queue.push({ at: performance.now(), func: c.func, user: c.user, result });
  }
  return PP.OK_COMPLETIONPENDING;
}

/** The message loops this thread runs. */
export class Loops {
  /** @param {import('./ppapi.mjs').Ppapi} p */
  constructor(p) {
    this.p = p;
    /** @type {Loop} */
    this.main = { queue: [], quit: false };
    /** @type {Map<number, Loop>} loops created on this thread */
    this.own = new Map();
    /** The loop attached to this thread (the main loop on the main thread). */
    this.current = p.main ? MAIN_LOOP : 0;
  }

  /**
   * Queues work on the main thread's loop, from any thread.
   * @param {number} func @param {number} user @param {number} result @param {number} delay
   */
  toMain(func, user, result, delay) {
    if (this.p.main) this.main.queue.push({ at: performance.now() + Math.max(0, delay), func, user, result });
    else this.p.post({ op: 'work', func, user, result, delay: Math.max(0, delay) });
  }

  /**
   * Runs the loop's work that is due (in the order it was posted); returns the
   * milliseconds until the next is due (Infinity if none).
   * @param {Loop} loop
   */
  runDue(loop) {
    for (;;) {
      const now = performance.now();
      const k = loop.queue.findIndex((w) => w.at <= now);
      if (k < 0) break;
      const [w] = loop.queue.splice(k, 1);
      this.p.call(w.func, w.user, w.result);
      if (loop.quit) return 0;
    }
    if (loop.queue.length === 0) return Infinity;
    return Math.max(0, Math.min(...loop.queue.map((w) => w.at)) - performance.now());
  }
}

/** @param {import('./ppapi.mjs').Ppapi} p */
export function functions(p) {
  const loops = p.loops;
  return {
    ppb_core_add_ref_resource: (/** @type {number} */ r) => addRefResource(p, r),
    ppb_core_release_resource: (/** @type {number} */ r) => releaseResource(p, r),
    ppb_core_get_time: () => Date.now() / 1000,
    ppb_core_get_time_ticks: () => performance.now() / 1000,
    ppb_core_call_on_main_thread: (/** @type {number} */ delay, /** @type {number} */ cb, /** @type {number} */ result) => {
      const c = completionCallback(p, cb);
      if (c.func) loops.toMain(c.func, c.user, result, delay | 0);
    },
    ppb_core_is_main_thread: () => (p.main ? 1 : 0),
    ppb_message_loop_create: () => {
      const id = nextResource(p);
      loops.own.set(id, { queue: [], quit: false });
      p.resources.set(id, { refs: 1, kind: 'message-loop' });
      return id;
    },
    ppb_message_loop_get_for_main_thread: () => MAIN_LOOP,
    ppb_message_loop_get_current: () => loops.current,
    ppb_message_loop_attach_to_current_thread: (/** @type {number} */ id) => {
      if (p.main || id === MAIN_LOOP) return PP.ERROR_INPROGRESS;
      if (!loops.own.has(id)) return PP.ERROR_BADRESOURCE;
      if (loops.current) return PP.ERROR_INPROGRESS;
      loops.current = id;
      return PP.OK;
    },
    ppb_message_loop_run: (/** @type {number} */ id) => {
      const loop = loops.own.get(id);
      if (id === MAIN_LOOP || p.main) return PP.ERROR_INPROGRESS;
      if (!loop) return PP.ERROR_BADRESOURCE;
      if (loops.current !== id) return PP.ERROR_WRONG_THREAD;
      while (!loop.quit) sleep(Math.min(100, loops.runDue(loop)));
      loop.quit = false;
      return PP.OK;
    },
    ppb_message_loop_post_work: (/** @type {number} */ id, /** @type {number} */ cb, /** @type {bigint} */ delay) => {
      const c = completionCallback(p, cb);
      if (!c.func) return PP.ERROR_BADARGUMENT;
      const ms = Number(delay);
      if (id === MAIN_LOOP) {
        loops.toMain(c.func, c.user, PP.OK, ms);
        return PP.OK;
      }
      const loop = loops.own.get(id);
      if (!loop) return PP.ERROR_BADRESOURCE;
      loop.queue.push({ at: performance.now() + Math.max(0, ms), func: c.func, user: c.user, result: PP.OK });
      return PP.OK;
    },
    ppb_message_loop_post_quit: (/** @type {number} */ id) => {
      if (id === MAIN_LOOP) return PP.ERROR_WRONG_THREAD;
      const loop = loops.own.get(id);
      if (!loop) return PP.ERROR_BADRESOURCE;
      loop.quit = true;
      return PP.OK;
    },
  };
}

/**
 * Wraps the PPB functions `names` of `fns` so that a bad guest pointer (an `Errno` from
 * guest memory's checks) makes the call return `result` (`PP_ERROR_BADARGUMENT`, or 0 for
 * one returning a resource or a `PP_Bool`, or nothing) instead of throwing, which would
 * end the module's thread.
 * @param {Record<string, Function>} fns @param {string[]} names @param {number} result
 */
export function guarded(fns, names, result) {
  for (const name of names) {
    const f = fns[name];
    fns[name] = (/** @type {any[]} */ ...args) => {
      try {
        return f(...args);
      } catch (e) {
        if (e instanceof Errno) return result;
        throw e;
      }
    };
  }
  return fns;
}
