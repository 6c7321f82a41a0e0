// The page's side of `PPB_WebSocket` (see websocket.mjs): the module's sockets, each on
// a browser WebSocket, with their state. Each call of a module's thread is answered in
// that thread's reply mailbox, at once or, for a blocking call, when it completes; a
// completion with a callback goes to the main thread's mailbox.

import { encode } from './channel.mjs';
import { PageReplies } from './pagecall.mjs';

/** `pp_errors.h`. */
const OK = 0, COMPLETIONPENDING = -1, FAILED = -2, ABORTED = -3, BADRESOURCE = -5, INPROGRESS = -11;
/** `PP_WebSocketReadyState`. */
const STATE = { INVALID: -1, CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3 };

/**
 * A call waiting for its completion: who gets it.
 * @typedef {{thread: number, main: boolean, func: number, user: number, out: number}} Waiter
 */

/**
 * @typedef {object} Socket
 * @property {WebSocket | null} ws
 * @property {number} state @property {string} url @property {string} protocol @property {string} extensions
 * @property {number} code @property {string} reason @property {boolean} clean
 * @property {(string | ArrayBuffer)[]} messages  received, not yet taken
 * @property {Waiter | null} connecting @property {Waiter | null} closing @property {Waiter | null} receiving
 * @property {number} late  bytes sent after closing (they only add to the buffered amount)
 */

export class PageSockets {
  /** @param {(record: Uint8Array) => void} send  to the module's main thread */
  constructor(send) {
    this.send = send;
    this.replies = new PageReplies();
    /** @type {Map<number, Socket>} */
    this.sockets = new Map();
  }

  /** Answers a thread's call. @param {number} thread @param {...any} values */
  answer(thread, ...values) {
    this.replies.answer(thread, ...values);
  }

  /**
   * Ends a waiting call: a blocking one gets its answer, one with a callback has it run on
   * the main thread.
   * @param {Waiter | null} w @param {number} result @param {string | ArrayBuffer} [message]
   */
  complete(w, result, message) {
    if (!w) return;
    if (w.func) this.send(encode(['websocket', w.func, w.user, result, w.out, message, w.held ?? null]));
    else this.answer(w.thread, result, message);
  }

  /**
   * Gives a waiting `ReceiveMessage` the next message, or its failure once the socket has
   * closed and nothing is left.
   * @param {Socket} s
   */
  feed(s) {
    if (!s.receiving) return;
    const w = s.receiving;
    if (s.messages.length > 0) {
      s.receiving = null;
      this.complete(w, OK, s.messages.shift());
    } else if (s.state === STATE.CLOSED) {
      s.receiving = null;
      this.complete(w, FAILED);
    }
  }

  /**
   * A call from one of the module's threads.
   * @param {Record<string, any>} m
   */
  handle(m) {
    if (this.replies.register(m)) return;
    /** @type {Waiter} */
    const w = { thread: m.thread, main: m.main, func: m.func ?? 0, user: m.user ?? 0, out: m.out ?? 0 };
    const s = this.sockets.get(m.id);
    if (m.act === 'create') {
      // As Chrome's: INVALID until Connect.
      this.sockets.set(m.id, { ws: null, state: STATE.INVALID, url: '', protocol: '', extensions: '', code: 0,
        reason: '', clean: false, messages: [], connecting: null, closing: null, receiving: null, late: 0 });
      this.answer(m.thread, OK);
      return;
    }
    if (!s) {
      this.answer(m.thread, m.act === 'is' ? false : ['connect', 'close', 'receive', 'send'].includes(m.act) ? BADRESOURCE
        : m.act === 'state' ? STATE.INVALID : undefined);
      return;
    }
    const pending = () => (w.func ? this.answer(m.thread, COMPLETIONPENDING) : undefined);
    switch (m.act) {
      case 'is': this.answer(m.thread, true); break;
      case 'state': this.answer(m.thread, s.state); break;
      case 'url': this.answer(m.thread, s.url); break;
      case 'protocol': this.answer(m.thread, s.protocol); break;
      case 'extensions': this.answer(m.thread, s.extensions); break;
      case 'code': this.answer(m.thread, s.code); break;
      case 'reason': this.answer(m.thread, s.reason); break;
      case 'clean': this.answer(m.thread, s.clean); break;
      case 'buffered': this.answer(m.thread, (s.ws?.bufferedAmount ?? 0) + s.late); break;
      case 'release':
        this.sockets.delete(m.id);
        s.ws?.close();
        this.answer(m.thread, OK);
        break;
      case 'connect': this.connect(m, s, w, pending); break;
      case 'close': this.close(m, s, w, pending); break;
      case 'receive':
        if (s.receiving) this.answer(m.thread, INPROGRESS);
        else if (s.messages.length > 0) this.answer(m.thread, OK, s.messages.shift());
        else if (s.state !== STATE.OPEN) this.answer(m.thread, FAILED);
        else {
          s.receiving = w;
          pending();
        }
        break;
      case 'send': {
        const data = m.data ?? '';
        if (s.state === STATE.CONNECTING || s.state === STATE.INVALID) this.answer(m.thread, FAILED);
        else if (s.state === STATE.OPEN && s.ws) {
          s.ws.send(data);
          this.answer(m.thread, OK);
        } else {
          s.late += typeof data === 'string' ? new TextEncoder().encode(data).length : data.byteLength;
          this.answer(m.thread, OK);
        }
        break;
      }
      default:
        this.answer(m.thread, undefined);
    }
  }

  /**
   * @param {Record<string, any>} m @param {Socket} s @param {Waiter} w @param {() => void} pending
   */
  connect(m, s, w, pending) {
    if (s.url) {
      this.answer(m.thread, INPROGRESS);
      return;
    }
    s.url = m.url;
    s.state = STATE.CONNECTING;
    // (the module reads CONNECTING until this completion's callback runs)
    s.connecting = Object.assign(w, { held: [m.id, STATE.CONNECTING] });
    pending();
    const closed = (/** @type {number} */ code, /** @type {string} */ reason, /** @type {boolean} */ clean) => {
      s.state = STATE.CLOSED;
      [s.code, s.reason, s.clean] = [code, reason, clean];
      this.complete(s.connecting, FAILED);
      this.complete(s.closing, OK);
      s.connecting = s.closing = null;
      this.feed(s);
    };
    try {
      const ws = new WebSocket(m.url, m.protocols ?? []);
      ws.binaryType = 'arraybuffer';
      s.ws = ws;
      ws.onopen = () => {
        if (s.state === STATE.CONNECTING) s.state = STATE.OPEN;
        [s.protocol, s.extensions] = [ws.protocol, ws.extensions];
        this.complete(s.connecting, OK);
        s.connecting = null;
      };
      ws.onmessage = (e) => {
        s.messages.push(e.data);
        this.feed(s);
      };
      ws.onclose = (e) => closed(e.code, e.reason, e.wasClean);
    } catch {
      closed(1006, '', false);
    }
  }

  /**
   * @param {Record<string, any>} m @param {Socket} s @param {Waiter} w @param {() => void} pending
   */
  close(m, s, w, pending) {
    if (s.closing) {
      this.answer(m.thread, INPROGRESS);
      return;
    }
    if (s.state === STATE.CLOSED || !s.ws) {
      s.state = STATE.CLOSED;
      this.answer(m.thread, OK);
      return;
    }
    this.complete(s.connecting, ABORTED);
    this.complete(s.receiving, ABORTED);
    s.connecting = s.receiving = null;
    s.state = STATE.CLOSING;
    // (the module reads CLOSING until this completion's callback runs: see websocket.mjs)
    s.closing = Object.assign(w, { held: [m.id, STATE.CLOSING] });
    pending();
    try {
      if (m.code === null) s.ws.close();
      else s.ws.close(m.code, m.reason);
    } catch {
      s.ws.close();
    }
  }
}
