// `PPB_URLLoader;1.0`, `PPB_URLRequestInfo;1.0` and `PPB_URLResponseInfo;1.0` over the
// page's `fetch`.
//
// A loader lives on the page (loaders.mjs), like a WebSocket (see pagecall.mjs), and so
// do requests and response infos (urlinfos.mjs), so any of the module's threads may use
// them: `Open` sends the request there, `fetch` runs it with the page's
// rules (a same-origin request unless `allow_cross_origin_requests`, and then only what
// the browser's CORS allows, with credentials only if `allow_credentials`), and the body
// streams in as `ReadResponseBody` asks for it. A response info is the response's URL,
// status and headers. As in
// Chrome, a custom referrer, content-transfer-encoding or user agent makes `Open` fail
// with PP_ERROR_NOACCESS (only trusted plugins could set them).
//
// Files: with `PP_URLREQUESTPROPERTY_STREAMTOFILE` the page writes the body, chunk by
// chunk as `fetch` gives it, into a temporary file of the instance's file server
// (fileserver.mjs), never through the module; `GetBodyAsFileRef` returns its FileRef
// (valid until the loader is closed) and `FinishStreamingToFile` completes when all has
// come; `ReadResponseBody` of such a body fails (PP_ERROR_FAILED: its bytes are in the
// file). (Today's Chrome answers FinishStreamingToFile with PP_ERROR_NOTSUPPORTED; this
// follows the headers, as Chrome did before.) `AppendFileToBody` adds a FileRef's bytes to the body: the file server gives
// the page a Blob slice of the file, sent as part of the request body.
//
// Completion callbacks: on the main thread they run on its loop when the page says the
// call completed; on another thread the call waits for the page, then the callback is
// queued on that thread's message loop (core.mjs `completeHere`, as for file calls).
// Requests and response infos live on the page (urlinfos.mjs), usable from any thread.

import { VAR } from './channel.mjs';
import { PP, guarded, nextResource } from './core.mjs';
import { PageCaller, pageCall } from './pagecall.mjs';
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
  /** An asynchronous call (pagecall.mjs `pageCall`): its result; bytes read go to `buffer`. */
  const pending = (/** @type {Record<string, any>} */ m, /** @type {number} */ cbAt, /** @type {number} */ buffer = 0) =>
    pageCall(caller, { ...m, buffer }, cbAt, ([result, bytes]) => {
      if (buffer && bytes instanceof Uint8Array) mem.write(buffer, bytes);
      return result;
    });
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
    ppb_url_loader_open: (/** @type {number} */ r, /** @type {number} */ req, /** @type {number} */ cbAt) =>
      pending({ act: 'open', id: r, request: req }, cbAt),
    ppb_url_loader_follow_redirect: (/** @type {number} */ r, /** @type {number} */ cbAt) =>
      pending({ act: 'follow', id: r }, cbAt),
    ppb_url_loader_get_upload_progress: (/** @type {number} */ r, /** @type {number} */ sent,
      /** @type {number} */ total) => progress('upload', r, sent, total),
    ppb_url_loader_get_download_progress: (/** @type {number} */ r, /** @type {number} */ got,
      /** @type {number} */ total) => progress('download', r, got, total),
    ppb_url_loader_get_response_info: (/** @type {number} */ r) => {
      const id = nextResource(p);
      return ask({ act: 'response', id: r, as: id })[0] ? id : 0;
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
      const id = nextResource(p);
      ask({ act: 'request-create', id });
      return id;
    },
    ppb_url_request_info_is_url_request_info: (/** @type {number} */ r) => (ask({ act: 'request-is', id: r })[0] ? 1 : 0),
    ppb_url_request_info_set_property: (/** @type {number} */ r, /** @type {number} */ prop, /** @type {number} */ at) => {
      const known = REQUEST_PROPERTIES[prop];
      if (!known) return 0;
      const [name, type] = known;
      const v = p.vars.read(at);
      // The custom strings may be reset to undefined (the default).
      const reset = v.t === VAR.UNDEFINED && ['referrer', 'transferEncoding', 'userAgent'].includes(name);
      if (v.t !== type && !reset) return 0;
      return ask({ act: 'request-set', id: r, name, value: reset ? null : p.vars.toValue(v) })[0];
    },
    ppb_url_request_info_append_data_to_body: (/** @type {number} */ r, /** @type {number} */ data,
      /** @type {number} */ len) => {
      len >>>= 0;
      if (len && !data) return 0;
      return ask({ act: 'request-append', id: r, part: mem.view(data, len).slice() })[0];
    },
    ppb_url_request_info_append_file_to_body: (/** @type {number} */ r, /** @type {number} */ ref,
      /** @type {bigint} */ start, /** @type {bigint} */ length, /** @type {number} */ modified) => {
      if (start < 0n || length < -1n || !Number.isFinite(modified)) return 0;
      if (fileRequests(p)('is', { id: ref, kind: 'ref' }).result !== 1) return 0;
      // The request holds a reference to the file.
      p.foreignRef(ref, 1);
      const part = { ref, start: Number(start), length: Number(length), modified };
      if (ask({ act: 'request-append', id: r, part })[0]) return 1;
      p.foreignRef(ref, -1);
      return 0;
    },

    ppb_url_response_info_is_url_response_info: (/** @type {number} */ r) => (ask({ act: 'response-is', id: r })[0] ? 1 : 0),
    ppb_url_response_info_get_property: (/** @type {number} */ out, /** @type {number} */ r, /** @type {number} */ prop) => {
      const name = RESPONSE_PROPERTIES[prop];
      const [value] = name ? ask({ act: 'response-get', id: r, name }) : [undefined];
      if (typeof value === 'number') p.vars.write(out, { t: VAR.INT32, v: value | 0 });
      else if (typeof value === 'string') p.vars.write(out, p.vars.string(value));
      else p.vars.write(out, { t: VAR.UNDEFINED, v: 0 });
    },
    ppb_url_response_info_get_body_as_file_ref: (/** @type {number} */ r) => ask({ act: 'response-file', id: r })[0] || 0,
  };
  guarded(fns, ['ppb_url_loader_open', 'ppb_url_loader_follow_redirect', 'ppb_url_loader_read_response_body',
    'ppb_url_loader_finish_streaming_to_file'], PP.ERROR_BADARGUMENT);
  guarded(fns, ['ppb_url_loader_get_upload_progress', 'ppb_url_loader_get_download_progress',
    'ppb_url_request_info_set_property', 'ppb_url_request_info_append_data_to_body',
    'ppb_url_request_info_append_file_to_body', 'ppb_url_response_info_get_property'], 0);
  return fns;
}
