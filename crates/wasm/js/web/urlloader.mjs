// `PPB_URLLoader;1.0`, `PPB_URLRequestInfo;1.0` and `PPB_URLResponseInfo;1.0` over the
// page's `fetch`.
//
// A request is this thread's resource (its properties and body). A loader lives on the
// page (loaders.mjs), like a WebSocket (see pagecall.mjs), so any of the module's
// threads may use it: `Open` sends the request there, `fetch` runs it with the page's
// rules (a same-origin request unless `allow_cross_origin_requests`, and then only what
// the browser's CORS allows, with credentials only if `allow_credentials`), and the body
// streams in as `ReadResponseBody` asks for it. A response info is a snapshot of the
// response's URL, status and headers, made when `GetResponseInfo` is called. As in
// Chrome, a custom referrer, content-transfer-encoding or user agent makes `Open` fail
// with PP_ERROR_NOACCESS (only trusted plugins could set them).
//
// Files: with `PP_URLREQUESTPROPERTY_STREAMTOFILE` the page writes the body, chunk by
// chunk as `fetch` gives it, into a temporary file of the instance's file server
// (fileserver.mjs), never through the module; `GetBodyAsFileRef` returns its FileRef
// (valid until the loader is closed) and `FinishStreamingToFile` completes when all has
// come. `AppendFileToBody` adds a FileRef's bytes to the body: the file server gives
// the page a Blob slice of the file, sent as part of the request body.
//
// Completion callbacks: on the main thread they run on its loop when the page says the
// call completed; on another thread the call waits for the page, then the callback is
// queued on that thread's message loop (core.mjs `completeHere`, as for file calls).
// Requests and response infos are resources of the thread that made them.

import { VAR } from './channel.mjs';
import { PP, callableHere, completeHere, completionCallback, guarded } from './core.mjs';
import { PageCaller } from './pagecall.mjs';
import { fileRequests } from './files.mjs';

/** `PPB_URLLoader;1.0`'s slots. */
export const URL_LOADER_1_0 = ['ppb_url_loader_create', 'ppb_url_loader_is_url_loader', 'ppb_url_loader_open',
  'ppb_url_loader_follow_redirect', 'ppb_url_loader_get_upload_progress', 'ppb_url_loader_get_download_progress',
  'ppb_url_loader_get_response_info', 'ppb_url_loader_read_response_body',
  'ppb_url_loader_finish_streaming_to_file', 'ppb_url_loader_close'];
/** `PPB_URLRequestInfo;1.0`'s slots. */
export const URL_REQUEST_INFO_1_0 = ['ppb_url_request_info_create', 'ppb_url_request_info_is_url_request_info',
  'ppb_url_request_info_set_property', 'ppb_url_request_info_append_data_to_body',
  'ppb_url_request_info_append_file_to_body'];
/** `PPB_URLResponseInfo;1.0`'s slots. */
export const URL_RESPONSE_INFO_1_0 = ['ppb_url_response_info_is_url_response_info',
  'ppb_url_response_info_get_property', 'ppb_url_response_info_get_body_as_file_ref'];

/** `PP_URLRequestProperty`: name, and the var type it takes. */
const REQUEST_PROPERTIES = [
  ['url', VAR.STRING], ['method', VAR.STRING], ['headers', VAR.STRING], ['streamToFile', VAR.BOOL],
  ['followRedirects', VAR.BOOL], ['recordDownload', VAR.BOOL], ['recordUpload', VAR.BOOL],
  ['referrer', VAR.STRING], ['allowCrossOrigin', VAR.BOOL], ['allowCredentials', VAR.BOOL],
  ['transferEncoding', VAR.STRING], ['prefetchUpper', VAR.INT32], ['prefetchLower', VAR.INT32],
  ['userAgent', VAR.STRING],
];
/** `PP_URLResponseProperty`, in order. */
const RESPONSE_PROPERTIES = ['url', 'redirectUrl', 'redirectMethod', 'status', 'statusLine', 'headers'];
/** The most bytes a request body holds (a guest's `AppendDataToBody` beyond it fails). */
const MAX_BODY = 64 << 20;

/**
 * A completion on the main thread: bytes read go to `buffer`, then the callback runs.
 * @param {import('./ppapi.mjs').Ppapi} p
 * @param {any[]} args  func, user, result, buffer, bytes (a var the record made)
 */
export function received(p, args) {
  const [func, user, result, buffer, bytes] = args;
  if (bytes?.isVar) {
    const data = p.vars.toValue({ t: bytes.t, v: bytes.v });
    p.vars.release({ t: bytes.t, v: bytes.v });
    if (buffer && data) p.ctx.mem.write(buffer, new Uint8Array(data));
  }
  p.call(func, user, result);
}

/** @param {import('./ppapi.mjs').Ppapi} p */
export function functions(p) {
  const { mem } = p.ctx;
  const caller = new PageCaller(p, 'url');
  const ask = (/** @type {Record<string, any>} */ m) => caller.ask(m);
  /** @returns {Record<string, any> | undefined} */
  const local = (/** @type {number} */ r, /** @type {string} */ kind) => {
    const res = /** @type {any} */ (p.resources.get(r));
    return res?.kind === kind ? res : undefined;
  };
  /** An asynchronous call (see websocket.mjs): its result; bytes read go to `buffer`. */
  const pending = (/** @type {Record<string, any>} */ m, /** @type {number} */ cbAt, /** @type {number} */ buffer = 0) => {
    const c = completionCallback(p, cbAt);
    const refused = p.main ? (c.func ? PP.OK : PP.ERROR_BLOCKS_MAIN_THREAD) : callableHere(p, c);
    if (refused !== PP.OK) return refused;
    // Off the main thread the page answers when the call completes.
    const [result, bytes] = ask({ ...m, func: p.main ? c.func : 0, user: c.user, buffer });
    if (buffer && bytes instanceof Uint8Array) mem.write(buffer, bytes);
    return p.main ? result : completeHere(p, c, result);
  };
  const progress = (/** @type {string} */ act, /** @type {number} */ r, /** @type {number} */ doneAt,
    /** @type {number} */ totalAt) => {
    const [ok, done, total] = ask({ act, id: r });
    if (!ok) return 0;
    mem.check(doneAt, 8);
    mem.check(totalAt, 8);
    mem.dv.setBigInt64(doneAt, BigInt(done), true);
    mem.dv.setBigInt64(totalAt, BigInt(total), true);
    return 1;
  };
  const fns = {
    ppb_url_loader_create: () => {
      const id = p.resource('url-loader', { free: () => ask({ act: 'close', id }) });
      ask({ act: 'create', id });
      return id;
    },
    ppb_url_loader_is_url_loader: (/** @type {number} */ r) => (ask({ act: 'is', id: r })[0] ? 1 : 0),
    ppb_url_loader_open: (/** @type {number} */ r, /** @type {number} */ req, /** @type {number} */ cbAt) => {
      const q = local(req, 'url-request');
      if (!q) return PP.ERROR_BADARGUMENT;
      if (q.referrer !== undefined || q.transferEncoding !== undefined || q.userAgent !== undefined) return -7;
      const request = { url: q.url ?? '', method: q.method ?? 'GET', headers: q.headers ?? '',
        followRedirects: q.followRedirects ?? true, recordDownload: Boolean(q.recordDownload),
        recordUpload: Boolean(q.recordUpload), allowCrossOrigin: Boolean(q.allowCrossOrigin),
        allowCredentials: Boolean(q.allowCredentials), streamToFile: Boolean(q.streamToFile),
        body: q.body.length ? q.body : null };
      return pending({ act: 'open', id: r, request }, cbAt);
    },
    ppb_url_loader_follow_redirect: (/** @type {number} */ r, /** @type {number} */ cbAt) =>
      pending({ act: 'follow', id: r }, cbAt),
    ppb_url_loader_get_upload_progress: (/** @type {number} */ r, /** @type {number} */ sent,
      /** @type {number} */ total) => progress('upload', r, sent, total),
    ppb_url_loader_get_download_progress: (/** @type {number} */ r, /** @type {number} */ got,
      /** @type {number} */ total) => progress('download', r, got, total),
    ppb_url_loader_get_response_info: (/** @type {number} */ r) => {
      // (The wire carries an object as a Map.)
      const [info] = ask({ act: 'response', id: r });
      return info ? p.resource('url-response', { info: Object.fromEntries(info) }) : 0;
    },
    ppb_url_loader_read_response_body: (/** @type {number} */ r, /** @type {number} */ buffer,
      /** @type {number} */ size, /** @type {number} */ cbAt) => {
      if (size < 0 || (size > 0 && !buffer)) return PP.ERROR_BADARGUMENT;
      if (size > 0) mem.check(buffer, size);
      return pending({ act: 'read', id: r, size }, cbAt, buffer);
    },
    ppb_url_loader_finish_streaming_to_file: (/** @type {number} */ r, /** @type {number} */ cbAt) =>
      pending({ act: 'finish', id: r }, cbAt),
    ppb_url_loader_close: (/** @type {number} */ r) => void ask({ act: 'close', id: r }),

    ppb_url_request_info_create: () => {
      /** @type {Record<string, any>} */
      const q = { body: [], bodySize: 0 };
      // The request holds a reference to each file in its body.
      q.free = () => q.body.forEach((/** @type {any} */ part) => part.ref && p.foreignRef(part.ref, -1));
      return p.resource('url-request', q);
    },
    ppb_url_request_info_is_url_request_info: (/** @type {number} */ r) => (local(r, 'url-request') ? 1 : 0),
    ppb_url_request_info_set_property: (/** @type {number} */ r, /** @type {number} */ prop, /** @type {number} */ at) => {
      const q = local(r, 'url-request');
      const known = REQUEST_PROPERTIES[prop];
      if (!q || !known) return 0;
      const [name, type] = known;
      const v = p.vars.read(at);
      // The custom strings may be reset to undefined (the default).
      if (v.t === VAR.UNDEFINED && ['referrer', 'transferEncoding', 'userAgent'].includes(name)) {
        delete q[name];
        return 1;
      }
      if (v.t !== type) return 0;
      q[name] = p.vars.toValue(v);
      return 1;
    },
    ppb_url_request_info_append_data_to_body: (/** @type {number} */ r, /** @type {number} */ data,
      /** @type {number} */ len) => {
      const q = local(r, 'url-request');
      len >>>= 0;
      if (!q || (len && !data) || q.bodySize + len > MAX_BODY) return 0;
      q.body.push(mem.view(data, len).slice());
      q.bodySize += len;
      return 1;
    },
    ppb_url_request_info_append_file_to_body: (/** @type {number} */ r, /** @type {number} */ ref,
      /** @type {bigint} */ start, /** @type {bigint} */ length, /** @type {number} */ modified) => {
      const q = local(r, 'url-request');
      if (!q || start < 0n || length < -1n || !Number.isFinite(modified)) return 0;
      if (fileRequests(p)('is', { id: ref, kind: 'ref' }).result !== 1) return 0;
      p.foreignRef(ref, 1);
      q.body.push({ ref, start: Number(start), length: Number(length), modified });
      return 1;
    },

    ppb_url_response_info_is_url_response_info: (/** @type {number} */ r) => (local(r, 'url-response') ? 1 : 0),
    ppb_url_response_info_get_property: (/** @type {number} */ out, /** @type {number} */ r, /** @type {number} */ prop) => {
      const info = local(r, 'url-response')?.info;
      const name = RESPONSE_PROPERTIES[prop];
      const value = info && name ? info[name] : undefined;
      if (typeof value === 'number') p.vars.write(out, { t: VAR.INT32, v: value | 0 });
      else if (typeof value === 'string') p.vars.write(out, p.vars.string(value));
      else p.vars.write(out, { t: VAR.UNDEFINED, v: 0 });
    },
    ppb_url_response_info_get_body_as_file_ref: (/** @type {number} */ r) => {
      const ref = local(r, 'url-response')?.info.bodyRef;
      if (!ref) return 0;
      // A new reference for the caller (the loader keeps its own until it is closed).
      p.foreignRef(ref, 1);
      return ref;
    },
  };
  guarded(fns, ['ppb_url_loader_open', 'ppb_url_loader_follow_redirect', 'ppb_url_loader_read_response_body',
    'ppb_url_loader_finish_streaming_to_file'], PP.ERROR_BADARGUMENT);
  guarded(fns, ['ppb_url_loader_get_upload_progress', 'ppb_url_loader_get_download_progress',
    'ppb_url_request_info_set_property', 'ppb_url_request_info_append_data_to_body',
    'ppb_url_request_info_append_file_to_body', 'ppb_url_response_info_get_property'], 0);
  return fns;
}
