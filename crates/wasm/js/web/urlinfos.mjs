// The page's side of `PPB_URLRequestInfo` and `PPB_URLResponseInfo` (see urlloader.mjs):
// requests and response infos are kept here, not in the thread that made them, so that
// any of the module's threads may use them (and add or drop references to them, which
// come through the page's `files` channel as for any resource a thread does not hold).
// A request's file parts hold a reference to their FileRef (in the file server).

/** The most bytes of guest data a request body holds (an `AppendDataToBody` beyond it fails). */
const MAX_BODY = 64 << 20;

/**
 * @typedef {{refs: number, fields: Record<string, any>,
 *   body: (Uint8Array | {ref: number, start: number, length: number, modified: number})[], bytes: number}} Request
 * @typedef {{refs: number, info: Record<string, any>}} Response
 */

export class PageUrlInfos {
  /** @param {(request: Record<string, any>) => void} files  a request to the file server */
  constructor(files) {
    this.files = files;
    /** @type {Map<number, Request>} */
    this.requests = new Map();
    /** @type {Map<number, Response>} */
    this.responses = new Map();
  }

  /**
   * A call about a request or a response info; its answer's values.
   * @param {Record<string, any>} m
   * @returns {any[]}
   */
  handle(m) {
    const q = this.requests.get(m.id);
    switch (m.act) {
      case 'request-create':
        this.requests.set(m.id, { refs: 1, fields: {}, body: [], bytes: 0 });
        return [1];
      case 'request-is': return [q ? 1 : 0];
      case 'request-set':
        if (!q) return [0];
        if (m.value === undefined || m.value === null) delete q.fields[m.name];
        else q.fields[m.name] = m.value;
        return [1];
      case 'request-append': {
        if (!q) return [0];
        const part = m.part;
        if (part instanceof Uint8Array) {
          if (q.bytes + part.length > MAX_BODY) return [0];
          q.bytes += part.length;
        }
        q.body.push(part);
        return [1];
      }
      case 'response-get': return [this.responses.get(m.id)?.info[m.name]];
      case 'response-is': return [this.responses.has(m.id) ? 1 : 0];
      case 'response-file': {
        const ref = this.responses.get(m.id)?.info.bodyRef ?? 0;
        // A new reference for the caller, taken before it hears of the FileRef.
        if (ref) this.files({ op: 'ref', id: ref, delta: 1 });
        return [ref];
      }
      default: return [0];
    }
  }

  /**
   * A copy of request `id` for `Open` (its files get a reference of their own, dropped
   * with `release`), or null.
   * @param {number} id
   */
  request(id) {
    const q = this.requests.get(id);
    if (!q) return null;
    for (const part of q.body) if (!(part instanceof Uint8Array)) this.files({ op: 'ref', id: part.ref, delta: 1 });
    return { ...q.fields, body: q.body.length ? [...q.body] : null };
  }

  /**
   * Drops the references of a request copy's files.
   * @param {Record<string, any>} request
   */
  release(request) {
    for (const part of request.body ?? []) if (!(part instanceof Uint8Array)) this.files({ op: 'ref', id: part.ref, delta: -1 });
    request.body = null;
  }

  /**
   * Keeps a response info `id`.
   * @param {number} id @param {Record<string, any>} info
   */
  respond(id, info) {
    this.responses.set(id, { refs: 1, info });
  }

  /**
   * A reference added or dropped by a module thread; false if `id` is neither a request
   * nor a response info.
   * @param {number} id @param {number} delta
   */
  reference(id, delta) {
    const r = this.requests.get(id) ?? this.responses.get(id);
    if (!r) return false;
    r.refs += delta < 0 ? -1 : 1;
    if (r.refs <= 0) {
      const q = this.requests.get(id);
      if (q) this.release(q);
      this.requests.delete(id);
      this.responses.delete(id);
    }
    return true;
  }
}
