// The page's side of `PPB_URLLoader` (see urlloader.mjs): each loader's request on
// `fetch`, its response and the body as it streams in. Calls are answered in the
// calling thread's reply mailbox (pagecall.mjs), at once or, for a blocking call, when it
// completes; a completion with a callback goes to the main thread's mailbox.

import { encode } from './channel.mjs';
import { PageReplies } from './pagecall.mjs';

/** `pp_errors.h`. */
const OK = 0, COMPLETIONPENDING = -1, FAILED = -2, ABORTED = -3, BADRESOURCE = -5, NOACCESS = -7,
  INPROGRESS = -11;
/** The body bytes read ahead of the module before the page waits for it to read. */
const READ_AHEAD = 1 << 20;

/** @typedef {{thread: number, func: number, user: number, buffer: number, size?: number}} Waiter */

/**
 * @typedef {object} Loader
 * @property {'new' | 'opening' | 'open' | 'redirect' | 'done' | 'closed'} state
 * @property {Record<string, any> | null} request
 * @property {Record<string, any> | null} info  the response's URL, status and headers
 * @property {ReadableStreamDefaultReader<Uint8Array> | null} reader
 * @property {Uint8Array[]} chunks  read, not yet taken @property {number} buffered
 * @property {boolean} ended  the body has all come @property {boolean} failed
 * @property {boolean} reading  a chunk is being read
 * @property {number} received @property {number} total
 * @property {Waiter | null} opening @property {Waiter | null} waiting  a ReadResponseBody
 * @property {AbortController} abort
 */

export class PageLoaders {
  /** @param {(record: Uint8Array) => void} send  to the module's main thread */
  constructor(send) {
    this.send = send;
    this.replies = new PageReplies();
    /** @type {Map<number, Loader>} */
    this.loaders = new Map();
  }

  /** @param {Waiter | null} w @param {number} result @param {Uint8Array} [bytes] */
  complete(w, result, bytes) {
    if (!w) return;
    if (w.func) this.send(encode(['url', w.func, w.user, result, w.buffer, bytes]));
    else this.replies.answer(w.thread, result, bytes);
  }

  /**
   * A call from one of the module's threads.
   * @param {Record<string, any>} m
   */
  handle(m) {
    if (this.replies.register(m)) return;
    const answer = (/** @type {any[]} */ ...v) => this.replies.answer(m.thread, ...v);
    /** @type {Waiter} */
    const w = { thread: m.thread, func: m.func ?? 0, user: m.user ?? 0, buffer: m.buffer ?? 0, size: m.size };
    if (m.act === 'create') {
      this.loaders.set(m.id, { state: 'new', request: null, info: null, reader: null, chunks: [], buffered: 0,
        ended: false, failed: false, reading: false, received: 0, total: -1, opening: null, waiting: null,
        abort: new AbortController() });
      answer(OK);
      return;
    }
    const l = this.loaders.get(m.id);
    if (!l) {
      answer(m.act === 'is' || m.act === 'upload' || m.act === 'download' || m.act === 'response' ? 0 : BADRESOURCE);
      return;
    }
    const pending = () => (w.func ? answer(COMPLETIONPENDING) : undefined);
    switch (m.act) {
      case 'is': answer(1); break;
      case 'open':
        if (l.state !== 'new') answer(INPROGRESS);
        else this.open(l, m.request, w, pending, answer);
        break;
      case 'follow':
        if (l.state !== 'redirect' || !l.request) answer(FAILED);
        else {
          l.request.followRedirects = true;
          l.state = 'new';
          this.open(l, l.request, w, pending, answer);
        }
        break;
      case 'upload': {
        const size = l.request?.body?.length ?? 0;
        answer(l.request?.recordUpload ? 1 : 0, l.info ? size : 0, size);
        break;
      }
      case 'download':
        answer(l.request?.recordDownload ? 1 : 0, l.received, l.total);
        break;
      case 'response': answer(l.info); break;
      case 'read':
        if (l.waiting) answer(INPROGRESS);
        else if (l.state !== 'open' && l.state !== 'done') answer(FAILED);
        else if (l.chunks.length > 0 || l.ended) {
          answer(...this.take(l, w.size ?? 0));
          this.pull(l);
        } else {
          l.waiting = w;
          pending();
          this.pull(l);
        }
        break;
      case 'close':
        l.abort.abort();
        l.state = 'closed';
        this.complete(l.opening, ABORTED);
        this.complete(l.waiting, ABORTED);
        l.opening = l.waiting = null;
        l.chunks = [];
        this.loaders.delete(m.id);
        answer(OK);
        break;
      default: answer(FAILED);
    }
  }

  /**
   * Starts the request.
   * @param {Loader} l @param {Record<string, any>} request @param {Waiter} w
   * @param {() => void} pending @param {(...v: any[]) => void} answer
   */
  open(l, request, w, pending, answer) {
    let url;
    try {
      url = new URL(request.url, document.baseURI);
    } catch {
      answer(-4);
      return;
    }
    const same = url.origin === location.origin;
    if (!same && !request.allowCrossOrigin) {
      answer(NOACCESS);
      return;
    }
    /** @type {Headers} */
    const headers = new Headers();
    try {
      for (const line of String(request.headers).split('\n')) {
        const k = line.indexOf(':');
        if (k > 0) headers.append(line.slice(0, k).trim(), line.slice(k + 1).trim());
      }
    } catch {
      answer(-4);
      return;
    }
    l.request = request;
    l.state = 'opening';
    l.opening = w;
    pending();
    const method = String(request.method || 'GET').toUpperCase();
    fetch(url, {
      method, headers, body: request.body && method !== 'GET' && method !== 'HEAD' ? request.body : undefined,
      mode: same ? 'same-origin' : 'cors', credentials: same ? 'same-origin' : request.allowCredentials ? 'include' : 'omit',
      redirect: request.followRedirects ? 'follow' : 'manual', signal: l.abort.signal,
    }).then((r) => {
      if (l.state === 'closed') return;
      /** @type {string[]} */
      const lines = [];
      r.headers.forEach((value, name) => lines.push(`${name}: ${value}`));
      const redirect = r.type === 'opaqueredirect';
      l.info = { url: redirect ? url.href : r.url, redirectUrl: '', redirectMethod: redirect ? method : '',
        status: redirect ? 302 : r.status, statusLine: redirect ? '' : `HTTP/1.1 ${r.status} ${r.statusText}`.trim(),
        headers: lines.join('\n') };
      const length = Number(r.headers.get('content-length') ?? -1);
      l.total = Number.isFinite(length) ? length : -1;
      l.state = redirect ? 'redirect' : 'open';
      l.reader = redirect ? null : r.body?.getReader() ?? null;
      if (!l.reader) l.ended = true;
      this.complete(l.opening, OK);
      l.opening = null;
      this.pull(l);
    }, () => {
      if (l.state === 'closed') return;
      l.state = 'done';
      l.failed = true;
      this.complete(l.opening, FAILED);
      l.opening = null;
    });
  }

  /**
   * Reads the body ahead of the module, up to READ_AHEAD bytes.
   * @param {Loader} l
   */
  pull(l) {
    if (!l.reader || l.reading || l.ended || l.buffered >= READ_AHEAD) return;
    l.reading = true;
    l.reader.read().then(({ done, value }) => {
      l.reading = false;
      if (l.state === 'closed') return;
      if (done) {
        l.ended = true;
        l.state = 'done';
      } else if (value && value.length) {
        l.chunks.push(value);
        l.buffered += value.length;
        l.received += value.length;
      }
      this.feed(l);
      this.pull(l);
    }, () => {
      l.reading = false;
      l.ended = l.failed = true;
      l.state = 'done';
      this.feed(l);
    });
  }

  /**
   * Gives a waiting ReadResponseBody what has come.
   * @param {Loader} l
   */
  feed(l) {
    const w = l.waiting;
    if (!w || (l.chunks.length === 0 && !l.ended)) return;
    l.waiting = null;
    this.complete(w, ...this.take(l, w.size ?? 0));
  }

  /**
   * Up to `size` bytes of what has come: the result (the count, or the failure at the
   * end of a failed body) and the bytes.
   * @param {Loader} l @param {number} size
   * @returns {[number, Uint8Array | undefined]}
   */
  take(l, size) {
    if (l.chunks.length === 0) return [l.failed ? FAILED : OK, undefined];
    const out = new Uint8Array(Math.min(Math.max(0, size), l.buffered));
    let at = 0;
    while (at < out.length) {
      const c = l.chunks[0];
      const n = Math.min(c.length, out.length - at);
      out.set(c.subarray(0, n), at);
      at += n;
      if (n === c.length) l.chunks.shift();
      else l.chunks[0] = c.subarray(n);
    }
    l.buffered -= out.length;
    return [out.length, out];
  }
}
