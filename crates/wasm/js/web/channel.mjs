// The page's way into a module's main thread, which never returns to its event loop
// (it runs the module's message loop inside `ppapi_start`, as Chrome's plugin process
// did) and so cannot receive `postMessage`: a mailbox in shared memory that the page
// fills and the module's thread empties, waiting on it with `Atomics.wait`. Records are
// values in the wire format below; one larger than the mailbox goes in several chunks.
// The other way (module to page) is the Worker's ordinary `postMessage`.
//
// Wire format of a value (what `postMessage` carries to a module, as Chrome converted it
// to a `PP_Var`): a tag byte, then 0 undefined, 1 null, 2 bool (1 byte), 3 int32, 4 double,
// 5 string (u32 length + UTF-8), 9 ArrayBuffer (u32 length + bytes; a typed array or
// DataView gives its bytes), 7 array (u32 count + values), 8 dictionary (u32 count +
// string key, value pairs). The tags are PPAPI's `PP_VarType` values.

import { concatBytes } from '../guest.mjs';

/** `PP_VarType`. */
export const VAR = {
  UNDEFINED: 0, NULL: 1, BOOL: 2, INT32: 3, DOUBLE: 4, STRING: 5, OBJECT: 6, ARRAY: 7, DICTIONARY: 8,
  ARRAY_BUFFER: 9, RESOURCE: 10,
};

/** Bytes a mailbox carries at once. */
const MAILBOX_BYTES = 1 << 20;
/** Header words: state (0 empty, 1 full), length, more chunks follow, next id. */
const STATE = 0, LENGTH = 1, MORE = 2, IDS = 3, HEADER = 16;

/**
 * Encodes a JavaScript value as PPAPI would see it. Throws a TypeError for what a
 * `PP_Var` cannot hold (functions, symbols, cycles).
 * @param {unknown} value
 * @returns {Uint8Array}
 */
export function encode(value) {
  let buf = new Uint8Array(256);
  let dv = new DataView(buf.buffer);
  let at = 0;
  const room = (/** @type {number} */ n) => {
    if (at + n <= buf.length) return;
    const bigger = new Uint8Array(Math.max(buf.length * 2, at + n));
    bigger.set(buf);
    buf = bigger;
    dv = new DataView(buf.buffer);
  };
  const u8 = (/** @type {number} */ v) => {
    room(1);
    buf[at++] = v;
  };
  const u32 = (/** @type {number} */ v) => {
    room(4);
    dv.setUint32(at, v, true);
    at += 4;
  };
  const bytes = (/** @type {Uint8Array} */ b) => {
    u32(b.length);
    room(b.length);
    buf.set(b, at);
    at += b.length;
  };
  const enc = new TextEncoder();
  /** @type {Set<object>} */
  const open = new Set();
  const put = (/** @type {any} */ v) => {
    if (v === undefined) u8(VAR.UNDEFINED);
    else if (v === null) u8(VAR.NULL);
    else if (typeof v === 'boolean') {
      u8(VAR.BOOL);
      u8(v ? 1 : 0);
    } else if (typeof v === 'number') {
      if ((v | 0) === v && !Object.is(v, -0)) {
        u8(VAR.INT32);
        u32(v >>> 0);
      } else {
        u8(VAR.DOUBLE);
        room(8);
        dv.setFloat64(at, v, true);
        at += 8;
      }
    } else if (typeof v === 'string') {
      u8(VAR.STRING);
      bytes(enc.encode(v));
    } else if (v instanceof ArrayBuffer || (typeof SharedArrayBuffer === 'function' && v instanceof SharedArrayBuffer)) {
      u8(VAR.ARRAY_BUFFER);
      bytes(new Uint8Array(v));
    } else if (ArrayBuffer.isView(v)) {
      u8(VAR.ARRAY_BUFFER);
      bytes(new Uint8Array(v.buffer, v.byteOffset, v.byteLength));
    } else if (typeof v === 'object') {
      if (open.has(v)) throw new TypeError('a value that contains itself cannot be sent to a NaCl module');
      open.add(v);
      if (Array.isArray(v)) {
        u8(VAR.ARRAY);
        u32(v.length);
        for (const e of v) put(e);
      } else {
        const entries = v instanceof Map ? [...v.entries()].map(([k, e]) => [String(k), e]) : Object.entries(v);
        u8(VAR.DICTIONARY);
        u32(entries.length);
        for (const [k, e] of entries) {
          bytes(enc.encode(k));
          put(e);
        }
      }
      open.delete(v);
    } else throw new TypeError(`a ${typeof v} cannot be sent to a NaCl module`);
  };
  put(value);
  return buf.slice(0, at);
}

/**
 * Decodes a value `encode` wrote; `arrayBuffer` makes each ArrayBuffer's value (the
 * module's side keeps them in its own memory).
 * @param {Uint8Array} b
 * @param {(bytes: Uint8Array) => any} [arrayBuffer]
 * @returns {any}
 */
export function decode(b, arrayBuffer = (bytes) => bytes.slice().buffer) {
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const dec = new TextDecoder();
  let at = 0;
  const need = (/** @type {number} */ n) => {
    if (at + n > b.length) throw new RangeError('a truncated message');
  };
  const u32 = () => {
    need(4);
    at += 4;
    return dv.getUint32(at - 4, true);
  };
  const bytes = () => {
    const n = u32();
    need(n);
    at += n;
    return b.subarray(at - n, at);
  };
  /** @returns {any} */
  const get = () => {
    need(1);
    const tag = b[at++];
    switch (tag) {
      case VAR.UNDEFINED: return undefined;
      case VAR.NULL: return null;
      case VAR.BOOL: need(1); return b[at++] !== 0;
      case VAR.INT32: return u32() | 0;
      case VAR.DOUBLE: need(8); at += 8; return dv.getFloat64(at - 8, true);
      case VAR.STRING: return dec.decode(bytes());
      case VAR.ARRAY_BUFFER: return arrayBuffer(bytes());
      case VAR.ARRAY: {
        const n = u32();
        const out = [];
        for (let k = 0; k < n; k++) out.push(get());
        return out;
      }
      case VAR.DICTIONARY: {
        const n = u32();
        /** @type {Map<string, any>} */
        const out = new Map();
        for (let k = 0; k < n; k++) {
          const key = dec.decode(bytes());
          out.set(key, get());
        }
        return out;
      }
      default: throw new RangeError(`an unknown value tag ${tag}`);
    }
  };
  return get();
}

/** A new mailbox (shared). */
export function mailbox() {
  return new SharedArrayBuffer(HEADER * 4 + MAILBOX_BYTES);
}

/**
 * A fresh id from the counter every thread of a module shares (`PP_Var` object ids and
 * resources: unique across the module's Workers).
 * @param {SharedArrayBuffer} box
 */
export function nextId(box) {
  return Atomics.add(new Int32Array(box, 0, HEADER), IDS, 1) + 1;
}

/** The page's end: records are written in order, one chunk at a time. */
export class MailboxWriter {
  /** @param {SharedArrayBuffer} box */
  constructor(box) {
    this.words = new Int32Array(box, 0, HEADER);
    this.bytes = new Uint8Array(box, HEADER * 4);
    /** @type {Uint8Array[]} chunks not yet written */
    this.queue = [];
    this.pumping = false;
    Atomics.store(this.words, IDS, 1 << 20);
  }

  /** @param {Uint8Array} record */
  send(record) {
    for (let at = 0; at < record.length || at === 0; at += MAILBOX_BYTES) {
      const chunk = record.subarray(at, at + MAILBOX_BYTES);
      const more = at + MAILBOX_BYTES < record.length;
      this.queue.push(Object.assign(chunk, { more }));
      if (!more) break;
    }
    if (!this.pumping) this.pump();
  }

  async pump() {
    this.pumping = true;
    while (this.queue.length > 0) {
      if (Atomics.load(this.words, STATE) !== 0) {
        // Wait for the module to take the last chunk (without blocking the page).
        const waitAsync = /** @type {any} */ (Atomics).waitAsync;
        if (typeof waitAsync === 'function') {
          const w = waitAsync(this.words, STATE, 1, 1000);
          if (w.async) await w.value;
        } else await new Promise((r) => setTimeout(r, 1));
        continue;
      }
      const chunk = /** @type {Uint8Array & {more: boolean}} */ (this.queue.shift());
      this.bytes.set(chunk);
      Atomics.store(this.words, LENGTH, chunk.length);
      Atomics.store(this.words, MORE, chunk.more ? 1 : 0);
      Atomics.store(this.words, STATE, 1);
      Atomics.notify(this.words, STATE);
    }
    this.pumping = false;
  }
}

/** The module's end. */
export class MailboxReader {
  /** @param {SharedArrayBuffer} box */
  constructor(box) {
    this.words = new Int32Array(box, 0, HEADER);
    this.bytes = new Uint8Array(box, HEADER * 4);
  }

  /**
   * The next record, or null if none came within `timeout` milliseconds.
   * @param {number} timeout
   * @returns {Uint8Array | null}
   */
  take(timeout) {
    if (Atomics.load(this.words, STATE) === 0) {
      Atomics.wait(this.words, STATE, 0, timeout);
      if (Atomics.load(this.words, STATE) === 0) return null;
    }
    /** @type {Uint8Array[]} */
    const parts = [];
    for (;;) {
      const n = Atomics.load(this.words, LENGTH);
      const more = Atomics.load(this.words, MORE) !== 0;
      parts.push(this.bytes.slice(0, n));
      Atomics.store(this.words, STATE, 0);
      Atomics.notify(this.words, STATE);
      if (!more) break;
      while (Atomics.load(this.words, STATE) === 0) Atomics.wait(this.words, STATE, 0);
    }
    return parts.length === 1 ? parts[0] : concatBytes(parts);
  }
}
