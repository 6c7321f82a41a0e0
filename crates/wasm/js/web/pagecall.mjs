// Calls from a module's thread to the page that wait for the page's answer, for the
// interfaces whose state lives on the page because the browser object behind them
// (WebSocket, fetch) must run on the page's event loop and may be used from any of the
// module's threads (websocket.mjs, urlloader.mjs). The thread posts
// `{op, thread, main, ...}` and waits in its own reply mailbox (made on its first call)
// for the answer, a record of values; `PageReplies` is the page's end.

import { MailboxReader, MailboxWriter, decode, encode, mailbox, nextId } from './channel.mjs';
import { PP, callableHere, completeHere, completionCallback } from './core.mjs';

/** One thread's way to ask the page. */
export class PageCaller {
  /**
   * @param {import('./ppapi.mjs').Ppapi} p @param {string} op
   * @param {(bytes: Uint8Array) => any} [arrayBuffer]  what an ArrayBuffer in an answer becomes
   */
  constructor(p, op, arrayBuffer) {
    this.p = p;
    this.op = op;
    this.arrayBuffer = arrayBuffer ?? ((/** @type {Uint8Array} */ b) => b.slice());
    /** @type {MailboxReader | null} */
    this.reader = null;
    this.thread = 0;
  }

  /**
   * Asks the page and waits for its answer.
   * @param {Record<string, any>} m
   * @returns {any[]}
   */
  ask(m) {
    const p = this.p;
    if (!this.reader) {
      const box = mailbox();
      this.reader = new MailboxReader(box);
      this.thread = nextId(p.data.mailbox);
      p.post({ op: this.op, act: 'thread', thread: this.thread, box });
    }
    p.post({ op: this.op, thread: this.thread, main: p.main, ...m });
    for (;;) {
      const record = this.reader.take(Infinity);
      if (record) return decode(record, this.arrayBuffer);
    }
  }
}

/**
 * An asynchronous call that the page carries out, with the completion callback at `cbAt`.
 * On the main thread the page completes it later through the callback; on another
 * thread the page answers when it is done (the thread waits), and the callback is then
 * queued on that thread's message loop (core.mjs `completeHere`). `take` handles the
 * page's answer before that and returns the call's result (the answer's first value);
 * `check`, run once the callback is allowed, checks the call's other arguments (it throws
 * on a bad one: see core.mjs `guarded`).
 * @param {PageCaller} caller @param {Record<string, any>} m @param {number} cbAt
 * @param {(answer: any[]) => number} [take] @param {() => void} [check]
 * @returns {number}
 */
export function pageCall(caller, m, cbAt, take = (answer) => answer[0], check = () => {}) {
  const p = caller.p;
  const c = completionCallback(p, cbAt);
  const refused = callableHere(p, c);
  if (refused !== PP.OK) return refused;
  check();
  const result = take(caller.ask({ ...m, func: p.main ? c.func : 0, user: c.user }));
  return p.main ? result : completeHere(p, c, result);
}

/** The page's end: each thread's reply mailbox. */
export class PageReplies {
  constructor() {
    /** @type {Map<number, MailboxWriter>} */
    this.threads = new Map();
  }

  /**
   * Takes a thread's reply mailbox; true if `m` was that.
   * @param {Record<string, any>} m
   */
  register(m) {
    if (m.act !== 'thread') return false;
    this.threads.set(m.thread, new MailboxWriter(m.box));
    return true;
  }

  /** Answers a thread's call. @param {number} thread @param {...any} values */
  answer(thread, ...values) {
    this.threads.get(thread)?.send(encode(values));
  }
}
