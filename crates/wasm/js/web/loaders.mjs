// The page's side of `PPB_URLLoader` (see urlloader.mjs): each loader's request on
// `fetch`, its response and the body as it streams in. Calls are answered in the
// calling thread's reply mailbox (pagecall.mjs), at once or, for a blocking call, when it
// completes; a completion with a callback goes to the main thread's mailbox. A body
// streamed to a file goes chunk by chunk to the instance's file server (one chunk in
// flight), and a request body's files come from it as Blob slices.

import { encode } from './channel.mjs';
import { PageReplies } from './pagecall.mjs';
import { PageUrlInfos } from './urlinfos.mjs';

/** `pp_errors.h`. */
const OK = 0, COMPLETIONPENDING = -1, FAILED = -2, ABORTED = -3, BADARGUMENT = -4, BADRESOURCE = -5, NOACCESS = -7,
  INPROGRESS = -11;
/** The body bytes read ahead of the module before the page waits for it to read. */
const READ_AHEAD = 1 << 20;

/** @typedef {{thread: number, func: number, user: number, buffer: number, size?: number}} Waiter */
/** @typedef {(request: Record<string, any>, transfer?: Transferable[]) => Promise<{result: number, body: any}>} FileCall */

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
 * @property {number} file  the FileRef the body streams to (0 if none)
 * @property {Waiter | null} finishing  a FinishStreamingToFile
 */

export class PageLoaders {
  /**
   * @param {(record: Uint8Array) => void} send  to the module's main thread
   * @param {FileCall} files  a request to the instance's file server
   */
  constructor(send, files) {
    this.send = send;
    this.files = files;
    /** The module's requests and response infos. */
    this.infos = new PageUrlInfos((request) => void files(request));
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
    if (m.act.startsWith('request-') || m.act.startsWith('response-')) {
      answer(...this.infos.handle(m));
      return;
    }
    /** @type {Waiter} */
    const w = { thread: m.thread, func: m.func ?? 0, user: m.user ?? 0, buffer: m.buffer ?? 0, size: m.size };
    if (m.act === 'create') {
      this.loaders.set(m.id, { state: 'new', request: null, info: null, reader: null, chunks: [], buffered: 0,
        ended: false, failed: false, reading: false, received: 0, total: -1, opening: null, waiting: null,
        abort: new AbortController(), file: 0, finishing: null });
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
      case 'open': {
        const request = l.state === 'new' ? this.infos.request(m.request) : null;
        if (l.state !== 'new') answer(INPROGRESS);
        else if (!request) answer(BADARGUMENT);
        else if (request.referrer !== undefined || request.transferEncoding !== undefined
          || request.userAgent !== undefined) {
          // Only trusted plugins could set them.
          this.infos.release(request);
          answer(NOACCESS);
        } else {
          Object.assign(request, { url: request.url ?? '', method: request.method ?? 'GET',
            headers: request.headers ?? '', followRedirects: request.followRedirects ?? true });
          this.open(l, request, w, pending, answer);
          if (l.request !== request) this.infos.release(request);
        }
        break;
      }
      case 'follow':
        if (l.state !== 'redirect' || !l.request) answer(FAILED);
        else {
          l.request.followRedirects = true;
          l.state = 'new';
          this.open(l, l.request, w, pending, answer);
        }
        break;
      case 'upload': {
        const size = l.request?.bodySize ?? 0;
        answer(l.request?.recordUpload ? 1 : 0, l.info ? size : 0, size);
        break;
      }
      case 'finish':
        if (!l.request?.streamToFile || l.finishing || (l.state !== 'open' && l.state !== 'done')) answer(FAILED);
        else if (l.ended) answer(l.failed ? FAILED : OK);
        else {
          l.finishing = w;
          pending();
        }
        break;
      case 'download':
        answer(l.request?.recordDownload ? 1 : 0, l.received, l.total);
        break;
      case 'response':
        if (l.info) this.infos.respond(m.as, l.info);
        answer(l.info ? 1 : 0);
        break;
      case 'read':
        if (l.waiting) answer(INPROGRESS);
        else if (l.file) answer(FAILED);
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
        this.complete(l.finishing, ABORTED);
        l.opening = l.waiting = l.finishing = null;
        l.chunks = [];
        if (l.request) this.infos.release(l.request);
        // The loader's reference to its body's file (the file goes with the last one).
        if (l.file) this.files({ op: 'stream-end', ref: l.file, drop: true });
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
    this.fetch(l, url, same, headers).catch(() => this.failed(l));
  }

  /**
   * The request body: the guest's bytes and the Blob slices of its files, or an error.
   * @param {(Uint8Array | {ref: number, start: number, length: number, modified: number})[]} parts
   * @returns {Promise<Blob | number>}
   */
  async body(parts) {
    /** @type {BlobPart[]} */
    const blobs = [];
    for (const part of parts) {
      if (part instanceof Uint8Array) blobs.push(part);
      else {
        const r = await this.files({ op: 'blob', ...part });
        if (r.result !== OK || !(r.body instanceof Blob)) return r.result < 0 ? r.result : FAILED;
        blobs.push(r.body);
      }
    }
    return new Blob(blobs);
  }

  /**
   * Runs the request and completes the Open.
   * @param {Loader} l @param {URL} url @param {boolean} same @param {Headers} headers
   */
  async fetch(l, url, same, headers) {
    const request = /** @type {Record<string, any>} */ (l.request);
    const method = String(request.method || 'GET').toUpperCase();
    const body = request.body && method !== 'GET' && method !== 'HEAD' ? await this.body(request.body) : undefined;
    if (l.state === 'closed') return;
    if (typeof body === 'number') {
      this.failed(l, body);
      return;
    }
    request.bodySize = body?.size ?? 0;
    const r = await fetch(url, {
      method, headers, body,
      mode: same ? 'same-origin' : 'cors', credentials: same ? 'same-origin' : request.allowCredentials ? 'include' : 'omit',
      redirect: request.followRedirects ? 'follow' : 'manual', signal: l.abort.signal,
    });
    if (l.state === 'closed') return;
    /** @type {string[]} */
    const lines = [];
    r.headers.forEach((value, name) => lines.push(`${name}: ${value}`));
    const redirect = r.type === 'opaqueredirect';
    const info = { url: redirect ? url.href : r.url, redirectUrl: '', redirectMethod: redirect ? method : '',
      status: redirect ? 302 : r.status, statusLine: redirect ? '' : `HTTP/1.1 ${r.status} ${r.statusText}`.trim(),
      headers: lines.join('\n'), bodyRef: 0 };
    const length = Number(r.headers.get('content-length') ?? -1);
    l.total = Number.isFinite(length) ? length : -1;
    l.reader = redirect ? null : r.body?.getReader() ?? null;
    if (request.streamToFile && !redirect) {
      const made = await this.files({ op: 'stream-open' });
      if (l.state === 'closed') {
        if (made.result === OK) this.files({ op: 'stream-end', ref: made.body, drop: true });
        return;
      }
      if (made.result !== OK) {
        this.failed(l, made.result);
        return;
      }
      l.file = info.bodyRef = made.body;
    }
    l.info = info;
    l.state = redirect ? 'redirect' : 'open';
    if (!l.reader) l.ended = true;
    this.complete(l.opening, OK);
    l.opening = null;
    if (l.file) this.stream(l).catch(() => this.streamed(l, true));
    else this.pull(l);
  }

  /**
   * Ends an Open that failed.
   * @param {Loader} l @param {number} [result]
   */
  failed(l, result = FAILED) {
    if (l.state === 'closed') return;
    l.state = 'done';
    l.failed = true;
    this.complete(l.opening, result);
    l.opening = null;
  }

  /**
   * Writes the body to the loader's file as it comes, one chunk at a time.
   * @param {Loader} l
   */
  async stream(l) {
    const reader = l.reader;
    let at = 0;
    while (reader && l.state !== 'closed') {
      const { done, value } = await reader.read();
      if (done || l.state === 'closed') break;
      const n = value?.length ?? 0;
      if (!n) continue;
      // The chunk's buffer moves to the server (a chunk that is part of a larger buffer is copied).
      const chunk = value.byteLength === value.buffer.byteLength ? value : value.slice();
      const r = await this.files({ op: 'stream-write', ref: l.file, at, chunk }, [chunk.buffer]);
      if (r.result < 0) throw new Error('stream-write');
      at += n;
      l.received += n;
    }
    if (l.state === 'closed') return;
    const r = await this.files({ op: 'stream-end', ref: l.file });
    this.streamed(l, r.result !== OK);
  }

  /**
   * The body has all been written to the file (or failed): a FinishStreamingToFile completes.
   * @param {Loader} l @param {boolean} failed
   */
  streamed(l, failed) {
    if (l.state === 'closed') return;
    l.ended = true;
    l.failed ||= failed;
    l.state = 'done';
    this.complete(l.finishing, l.failed ? FAILED : OK);
    l.finishing = null;
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
