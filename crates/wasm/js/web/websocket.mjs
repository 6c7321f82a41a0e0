// `PPB_WebSocket;1.0` over the browser's WebSocket.
//
// The socket and its state live on the page (sockets.mjs): a module's threads wait in
// `Atomics.wait`, so a Worker's own WebSocket would never get its events, and a module
// may make a socket on one thread and use it on another (pnacl_compress's decompress
// module connects on the main thread and sends and receives on a worker thread). Every
// call goes to the page (`{op: 'websocket', ...}`) and waits for its answer in the
// calling thread's own reply mailbox. As `ppb_websocket.h` says, `Connect` and `Close`
// complete later, and `ReceiveMessage` returns `PP_OK` at once when a message is waiting
// (its callback is then not called) or completes when one comes; once the socket has
// closed and every buffered message has been taken, it fails with `PP_ERROR_FAILED`.
// On the main thread a completion callback runs on the main thread's loop when the page
// says the call completed. On another thread the call waits for the page's answer (as a
// file call does, core.mjs `completeHere`), then a callback is queued on that thread's
// message loop with the result (PP_ERROR_NO_MESSAGE_LOOP if it has none): so a
// `ReceiveMessage` there holds its thread, and its loop, until a message comes.

import { VAR } from './channel.mjs';
import { PP, guarded } from './core.mjs';
import { PageCaller, pageCall } from './pagecall.mjs';

/** `PPB_WebSocket;1.0`'s slots. */
export const WEBSOCKET_1_0 = ['ppb_websocket_create', 'ppb_websocket_is_websocket', 'ppb_websocket_connect',
  'ppb_websocket_close', 'ppb_websocket_receive_message', 'ppb_websocket_send_message',
  'ppb_websocket_get_buffered_amount', 'ppb_websocket_get_close_code', 'ppb_websocket_get_close_reason',
  'ppb_websocket_get_close_was_clean', 'ppb_websocket_get_extensions', 'ppb_websocket_get_protocol',
  'ppb_websocket_get_ready_state', 'ppb_websocket_get_url'];

/** `pp_errors.h` codes beyond core.mjs's. */
const NOACCESS = -7;
/** `PP_WEBSOCKETSTATUSCODE_NOT_SPECIFIED`. */
const NOT_SPECIFIED = 1005;
/** The most sub-protocols `Connect` reads (a guest's count beyond it is refused). */
const MAX_PROTOCOLS = 64;

/**
 * A completion that ends on the main thread: a received message (if any) goes to `out`,
 * then the callback runs.
 * @param {import('./ppapi.mjs').Ppapi} p
 * @param {any[]} args  func, user, result, out, message
 */
export function received(p, args) {
  const [func, user, result, out, message, held] = args;
  if (out && message !== undefined) p.vars.write(out, toVar(p, message));
  if (held && heldStates(p).get(held[0]) === held[1]) heldStates(p).delete(held[0]);
  p.call(func, user, result);
}

/**
 * The states the main thread reads for sockets whose `Connect` or `Close` callback has yet
 * to run there (CONNECTING or CLOSING), though the page's socket may have moved on: as in
 * Chrome, where the state and the callback change together when the module hears of it.
 * @param {import('./ppapi.mjs').Ppapi} p
 * @returns {Map<number, number>}
 */
function heldStates(p) {
  const q = /** @type {any} */ (p);
  q.heldSocketStates ??= new Map();
  return q.heldSocketStates;
}

/** `PP_WebSocketReadyState`'s CONNECTING and CLOSING. */
const CONNECTING = 0, CLOSING = 2;
/** `PP_OK_COMPLETIONPENDING`. */
const COMPLETIONPENDING = -1;

/**
 * A message from the page as a var of this thread.
 * @param {import('./ppapi.mjs').Ppapi} p @param {any} m
 */
function toVar(p, m) {
  return m?.isVar ? { t: m.t, v: m.v } : p.vars.string(String(m ?? ''));
}

/** @param {import('./ppapi.mjs').Ppapi} p */
export function functions(p) {
  const enc = new TextEncoder();
  const caller = new PageCaller(p, 'websocket', (bytes) => ({ isVar: true, ...p.vars.arrayBuffer(bytes) }));
  const ask = (/** @type {Record<string, any>} */ m) => caller.ask(m);
  /** A string var's text, or null. */
  const text = (/** @type {number} */ at) => {
    const v = p.vars.read(at);
    return v.t === VAR.STRING ? /** @type {string | undefined} */ (p.vars.toValue(v)) ?? null : null;
  };
  const putString = (/** @type {number} */ out, /** @type {string | undefined} */ s) =>
    p.vars.write(out, s === undefined || s === null ? { t: VAR.UNDEFINED, v: 0 } : p.vars.string(s));
  /** An asynchronous call: its result; a message it received goes to `out`. */
  const pending = (/** @type {Record<string, any>} */ m, /** @type {number} */ cbAt, /** @type {number} */ out = 0) =>
    pageCall(
      caller,
      { ...m, out },
      cbAt,
      ([result, message]) => {
        if (out && result === PP.OK && message !== undefined) p.vars.write(out, toVar(p, message));
        return result;
      },
      () => out && p.ctx.mem.check(out, 16),
    );
  const query = (/** @type {string} */ act, /** @type {number} */ r) => ask({ act, id: r })[0];
  const fns = {
    ppb_websocket_create: () => {
      const id = p.resource('websocket', { free: () => ask({ act: 'release', id }) });
      ask({ act: 'create', id });
      return id;
    },
    ppb_websocket_is_websocket: (/** @type {number} */ r) => (query('is', r) ? 1 : 0),
    ppb_websocket_connect: (/** @type {number} */ r, /** @type {number} */ urlAt, /** @type {number} */ protocolsAt,
      /** @type {number} */ count, /** @type {number} */ cbAt) => {
      const url = text(urlAt);
      if (url === null || (count >>> 0) > MAX_PROTOCOLS || (count && !protocolsAt)) return PP.ERROR_BADARGUMENT;
      let parsed;
      try {
        parsed = new URL(url);
      } catch {
        return PP.ERROR_BADARGUMENT;
      }
      if ((parsed.protocol !== 'ws:' && parsed.protocol !== 'wss:') || parsed.hash) return PP.ERROR_BADARGUMENT;
      if (parsed.protocol === 'ws:' && /** @type {any} */ (globalThis).location?.protocol === 'https:') return NOACCESS;
      const protocols = [];
      for (let k = 0; k < count >>> 0; k++) {
        const proto = text(protocolsAt + 16 * k);
        if (proto === null || !/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(proto) || protocols.includes(proto)) {
          return PP.ERROR_BADARGUMENT;
        }
        protocols.push(proto);
      }
      const result = pending({ act: 'connect', id: r, url: parsed.href, protocols }, cbAt);
      if (result === COMPLETIONPENDING && p.main) heldStates(p).set(r, CONNECTING);
      return result;
    },
    ppb_websocket_close: (/** @type {number} */ r, /** @type {number} */ code, /** @type {number} */ reasonAt,
      /** @type {number} */ cbAt) => {
      code &= 0xffff;
      if (code !== NOT_SPECIFIED && code !== 1000 && !(code >= 3000 && code <= 4999)) return NOACCESS;
      const rv = p.vars.read(reasonAt);
      const reason = rv.t === VAR.UNDEFINED ? '' : text(reasonAt);
      if (reason === null || enc.encode(reason).length > 123) return PP.ERROR_BADARGUMENT;
      const result = pending({ act: 'close', id: r, code: code === NOT_SPECIFIED ? null : code, reason }, cbAt);
      if (result === COMPLETIONPENDING && p.main) heldStates(p).set(r, CLOSING);
      return result;
    },
    ppb_websocket_receive_message: (/** @type {number} */ r, /** @type {number} */ out, /** @type {number} */ cbAt) =>
      pending({ act: 'receive', id: r }, cbAt, out),
    ppb_websocket_send_message: (/** @type {number} */ r, /** @type {number} */ at) => {
      const v = p.vars.read(at);
      if (v.t !== VAR.STRING && v.t !== VAR.ARRAY_BUFFER) return PP.ERROR_BADARGUMENT;
      const data = p.vars.toValue(v);
      if (data === undefined) return PP.ERROR_BADARGUMENT;
      return ask({ act: 'send', id: r, data })[0];
    },
    ppb_websocket_get_buffered_amount: (/** @type {number} */ r) => BigInt(query('buffered', r) ?? 0),
    ppb_websocket_get_close_code: (/** @type {number} */ r) => query('code', r) ?? 0,
    ppb_websocket_get_close_reason: (/** @type {number} */ out, /** @type {number} */ r) =>
      putString(out, query('reason', r)),
    ppb_websocket_get_close_was_clean: (/** @type {number} */ r) => (query('clean', r) ? 1 : 0),
    ppb_websocket_get_extensions: (/** @type {number} */ out, /** @type {number} */ r) =>
      putString(out, query('extensions', r)),
    ppb_websocket_get_protocol: (/** @type {number} */ out, /** @type {number} */ r) =>
      putString(out, query('protocol', r)),
    ppb_websocket_get_ready_state: (/** @type {number} */ r) => heldStates(p).get(r) ?? query('state', r) ?? -1,
    ppb_websocket_get_url: (/** @type {number} */ out, /** @type {number} */ r) => putString(out, query('url', r)),
  };
  guarded(fns, ['ppb_websocket_connect', 'ppb_websocket_close', 'ppb_websocket_receive_message',
    'ppb_websocket_send_message'], PP.ERROR_BADARGUMENT);
  guarded(fns, ['ppb_websocket_get_close_reason', 'ppb_websocket_get_extensions', 'ppb_websocket_get_protocol',
    'ppb_websocket_get_url'], 0);
  return fns;
}
