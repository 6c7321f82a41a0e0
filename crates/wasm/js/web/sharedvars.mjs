// Object variables (strings, arrays, dictionaries, ArrayBuffers) across the module's
// threads. Each Worker keeps its own table of variables (vars.mjs), but a module may make
// a var on one thread and use it on another: nacl_io's demo and the SuperNET modules
// built on it take each message in `HandleMessage` on the main thread, add a reference,
// and hand it to a worker thread. So every object var is also published to the page
// (which never blocks) when it is made and when it changes, and a thread that meets an
// id it does not hold asks the page for it, waiting for the answer (`Atomics.wait`), and
// keeps a copy under the same id. An ArrayBuffer is published by reference: its bytes
// are in guest memory, which every thread shares.
//
// Limits: the copy is a snapshot (a change made later on the owner's thread is published
// to the page, but a thread that already holds a copy keeps the old one), and references
// taken and released on another thread count on that thread's copy, not on the owner's.

/** Bytes of a fetch's reply: four words, then the record as JSON. */
const REPLY_BYTES = 1 << 20;

/**
 * A published var: its type and content (`s` a string's text; `ptr`, `len` an
 * ArrayBuffer's bytes in guest memory; `items` an array's elements and `map` a
 * dictionary's entries, as `[type, value]` pairs).
 * @typedef {{t: number, s?: string, ptr?: number, len?: number, items?: [number, any][],
 *   map?: [string, [number, any]][]}} Record
 */

/** How many dropped ids the page remembers. */
const DROPPED_KEPT = 65536;

/** A thread's side: publishes its vars and fetches others'. */
export class SharedVars {
  /** @param {(m: any) => void} post  to the page (as a PPAPI message) */
  constructor(post) {
    this.post = post;
    /** @type {SharedArrayBuffer | null} */
    this.reply = null;
    this.dec = new TextDecoder();
  }

  /**
   * Publishes (or publishes again) var `id`.
   * @param {number} id @param {import('./vars.mjs').Entry} e
   */
  publish(id, e) {
    /** @type {Record} */
    const rec = { t: e.t };
    if (e.s !== undefined) rec.s = e.s;
    else if (e.items) rec.items = e.items.map((i) => [i.t, i.v]);
    else if (e.map) rec.map = [...e.map].map(([k, i]) => [k, [i.t, i.v]]);
    else {
      rec.ptr = e.ptr;
      rec.len = e.len;
    }
    this.post({ op: 'var-publish', id, rec });
  }

  /** @param {number} id  a var whose last reference its owner released */
  drop(id) {
    this.post({ op: 'var-drop', id });
  }

  /**
   * The record of var `id`, made on another thread, or null.
   * @param {number} id
   * @returns {Record | null}
   */
  fetch(id) {
    this.reply ??= new SharedArrayBuffer(REPLY_BYTES);
    const words = new Int32Array(this.reply, 0, 4);
    Atomics.store(words, 0, 0);
    this.post({ op: 'var-fetch', id, reply: this.reply });
    while (Atomics.load(words, 0) === 0) Atomics.wait(words, 0, 0, 1000);
    if (words[1] !== 0 || words[2] <= 0) return null;
    return JSON.parse(this.dec.decode(new Uint8Array(this.reply, 16, words[2]).slice()));
  }
}

/** The page's side: the published vars of one instance. */
export class VarStore {
  /** @param {() => number} issued  the highest id given out so far */
  constructor(issued) {
    this.issued = issued;
    /** @type {Set<number>} vars dropped lately (answered at once) */
    this.dropped = new Set();
    /** @type {Map<number, Record>} */
    this.vars = new Map();
    /** @type {Map<number, SharedArrayBuffer[]>} fetches of vars not yet published */
    this.waiting = new Map();
  }

  /**
   * Handles a `var-*` message of the module's threads; `answer` writes a reply (see
   * fileserver.mjs).
   * @param {any} m
   * @param {(reply: SharedArrayBuffer, result: number, body: any) => void} answer
   */
  handle(m, answer) {
    if (m.op === 'var-publish') {
      this.vars.set(m.id, m.rec);
      for (const reply of this.waiting.get(m.id) ?? []) answer(reply, 0, m.rec);
      this.waiting.delete(m.id);
    } else if (m.op === 'var-drop') {
      this.vars.delete(m.id);
      this.dropped.add(m.id);
      if (this.dropped.size > DROPPED_KEPT) this.dropped.delete(/** @type {number} */ (this.dropped.values().next().value));
    } else if (m.op === 'var-fetch' && m.reply) {
      const rec = this.vars.get(m.id);
      if (rec) return answer(m.reply, 0, rec);
      if (this.dropped.has(m.id) || m.id > this.issued() || m.id <= 0) return answer(m.reply, -1, null);
      // The owner's publication may still be on its way (messages of different Workers
      // are not ordered): wait for it a little.
      const list = this.waiting.get(m.id) ?? [];
      list.push(m.reply);
      this.waiting.set(m.id, list);
      setTimeout(() => {
        const left = this.waiting.get(m.id);
        if (!left?.includes(m.reply)) return;
        left.splice(left.indexOf(m.reply), 1);
        if (left.length === 0) this.waiting.delete(m.id);
        answer(m.reply, -1, null);
      }, 250);
    }
    return undefined;
  }
}
