// `PPB_FileSystem;1.0`, `PPB_FileRef` (1.0, 1.1, 1.2) and `PPB_FileIO` (1.0, 1.1): the
// module's side. The file systems live in the browser's origin private file system
// (OPFS), which only a Worker free to wait for promises can use, and the module's
// threads block in the guest: so every file resource lives in one file server per
// instance (fileserver.mjs, a Worker the page starts on the first request), and each
// call here sends its request through the page and waits (`Atomics.wait`) for the
// server's answer in a small shared reply buffer. The server reads and writes guest
// memory directly (a `Read` fills the guest's buffer, never a copy sized by the guest's
// count), so a resource made on one thread is usable on any other, as in PPAPI.
//
// Completion callbacks: the work is done at once; then a blocking call
// (`PP_BlockUntilComplete()`, a callback without a function) returns the result,
// refused on the main thread (`PP_ERROR_BLOCKS_MAIN_THREAD`); an optional callback
// returns it too; any other callback is queued on the calling thread's message loop with
// the result, and the call returns `PP_OK_COMPLETIONPENDING` (`PP_ERROR_NO_MESSAGE_LOOP`
// on a thread without one). A bad pointer from the guest is `PP_ERROR_BADARGUMENT`, an
// unknown resource `PP_ERROR_BADRESOURCE`: never an exception.

import { PP, completeHere, completionCallback, nextResource } from './core.mjs';
import { VAR } from './channel.mjs';

/** `pp_errors.h` codes beyond core.mjs's. */
export const FILE_ERROR = {
  COMPLETIONPENDING: -1, NOACCESS: -7, NOSPACE: -9, NO_MESSAGE_LOOP: -51, FILENOTFOUND: -20, FILEEXISTS: -21,
  NOTAFILE: -24,
};

/** `PP_FileSystemType`. */
export const FS_TYPE = { INVALID: 0, EXTERNAL: 1, LOCALPERSISTENT: 2, LOCALTEMPORARY: 3, ISOLATED: 4 };

/** Bytes of a reply: four words, then a JSON body. */
const REPLY_BYTES = 1 << 20;

/** Longest path a FileRef may name (bytes). */
const MAX_PATH = 4096;

/** `PPB_FileSystem;1.0`'s slots. */
export const FILE_SYSTEM_1_0 = ['ppb_file_system_create', 'ppb_file_system_is_file_system', 'ppb_file_system_open',
  'ppb_file_system_get_type'];

const REF_COMMON = ['ppb_file_ref_create', 'ppb_file_ref_is_file_ref', 'ppb_file_ref_get_file_system_type',
  'ppb_file_ref_get_name', 'ppb_file_ref_get_path', 'ppb_file_ref_get_parent'];
const REF_REST = ['ppb_file_ref_touch', 'ppb_file_ref_delete', 'ppb_file_ref_rename'];
/** `PPB_FileRef;1.0`'s slots (MakeDirectory takes a `PP_Bool make_ancestors`). */
export const FILE_REF_1_0 = [...REF_COMMON, 'ppb_file_ref_make_directory_1_1', ...REF_REST];
/** `PPB_FileRef;1.1`'s slots. */
export const FILE_REF_1_1 = [...FILE_REF_1_0, 'ppb_file_ref_query', 'ppb_file_ref_read_directory_entries'];
/** `PPB_FileRef;1.2`'s slots (MakeDirectory takes `PP_MakeDirectoryFlags`). */
export const FILE_REF_1_2 = [...REF_COMMON, 'ppb_file_ref_make_directory', ...REF_REST, 'ppb_file_ref_query',
  'ppb_file_ref_read_directory_entries'];

/** `PPB_FileIO;1.1`'s slots; 1.0 has the first ten. */
export const FILE_IO_1_1 = ['ppb_file_io_create', 'ppb_file_io_is_file_io', 'ppb_file_io_open', 'ppb_file_io_query',
  'ppb_file_io_touch', 'ppb_file_io_read', 'ppb_file_io_write', 'ppb_file_io_set_length', 'ppb_file_io_flush',
  'ppb_file_io_close', 'ppb_file_io_read_to_array'];

/**
 * A FileRef's path as PPAPI keeps it, or null if `FileRef.Create` must refuse it: it
 * must start with '/', and no component may be '..' (Chrome's `IsValidInternalPath`);
 * a trailing '/' is dropped (its `NormalizeInternalPath`).
 * @param {string} path
 */
export function internalPath(path) {
  if (!path.startsWith('/') || path.includes('\0')) return null;
  if (path.split('/').includes('..')) return null;
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

/**
 * Sends a request to the file server and waits for its answer.
 * @param {import('./ppapi.mjs').Ppapi} p
 */
function client(p) {
  const reply = new SharedArrayBuffer(REPLY_BYTES);
  const words = new Int32Array(reply, 0, 4);
  const dec = new TextDecoder();
  /**
   * @param {string} op @param {Record<string, any>} [args]
   * @returns {{result: number, body: any}}
   */
  return (op, args = {}) => {
    Atomics.store(words, 0, 0);
    p.post({ op: 'files', request: { op, ...args }, reply });
    while (Atomics.load(words, 0) === 0) Atomics.wait(words, 0, 0, 1000);
    const length = words[2];
    const body = length > 0 ? JSON.parse(dec.decode(new Uint8Array(reply, 16, length).slice())) : null;
    return { result: words[1], body };
  };
}

/** @type {WeakMap<object, ReturnType<typeof client>>} each thread's client, made on its first request */
const clients = new WeakMap();

/**
 * This thread's way to ask the file server (urlloader.mjs asks it too).
 * @param {import('./ppapi.mjs').Ppapi} p
 * @returns {ReturnType<typeof client>}
 */
export function fileRequests(p) {
  return (op, args) => {
    let ask = clients.get(p);
    if (!ask) {
      ask = client(p);
      clients.set(p, ask);
    }
    return ask(op, args);
  };
}

/** @param {import('./ppapi.mjs').Ppapi} p */
export function functions(p) {
  const { mem } = p.ctx;
  const request = fileRequests(p);

  /** Finishes a call with callback `cb` (a pointer to a copy) whose work gave `result`. */
  const complete = (/** @type {number} */ cb, /** @type {number} */ result) =>
    completeHere(p, completionCallback(p, cb), result);
  /**
   * A call that completes through callback `cb`: refused on the main thread if blocking
   * (before the work is done), else `work()` is its result.
   * @param {number} cb @param {() => number} work
   */
  const withCallback = (cb, work) => {
    let c;
    try {
      c = completionCallback(p, cb);
    } catch {
      return PP.ERROR_BADARGUMENT;
    }
    if (!c.func && p.main) return PP.ERROR_BLOCKS_MAIN_THREAD;
    let result;
    try {
      result = work();
    } catch {
      result = PP.ERROR_BADARGUMENT;
    }
    return complete(cb, result);
  };
  /** Runs `f`; a bad guest pointer (or anything else it throws) gives `fallback`. */
  const guard = (/** @type {() => any} */ f, /** @type {any} */ fallback) => {
    try {
      return f();
    } catch {
      return fallback;
    }
  };
  /** Writes a `PP_FileInfo` (40 bytes) from the server's answer. */
  const putInfo = (/** @type {number} */ at, /** @type {any} */ info) => {
    mem.check(at, 40);
    mem.dv.setBigInt64(at, BigInt(info.size), true);
    mem.dv.setInt32(at + 8, info.type, true);
    mem.dv.setInt32(at + 12, info.system, true);
    mem.dv.setFloat64(at + 16, info.created, true);
    mem.dv.setFloat64(at + 24, info.accessed, true);
    mem.dv.setFloat64(at + 32, info.modified, true);
  };
  /**
   * Asks a `PP_ArrayOutput` ({GetDataBuffer, user_data}, at `output`) for `count`
   * elements of `size` bytes; returns where to write them (0 if it gave none).
   */
  const arrayBuffer = (/** @type {number} */ output, /** @type {number} */ count, /** @type {number} */ size) => {
    const get = mem.u32(output), user = mem.u32(output + 4);
    const at = p.call(get, user, count, size) >>> 0;
    if (count > 0 && at) mem.check(at, count * size);
    return at;
  };
  /** A string var, written as a `PP_Var` result at `ret`. */
  const putString = (/** @type {number} */ ret, /** @type {string | null} */ s) => {
    p.vars.write(ret, s === null ? { t: VAR.UNDEFINED, v: 0 } : p.vars.string(s));
  };
  /** The server's description of a FileRef, or null. */
  const refInfo = (/** @type {number} */ ref) => {
    const r = request('ref-info', { ref });
    return r.result === PP.OK ? /** @type {{type: number, path: string}} */ (r.body) : null;
  };
  const makeDirectory = (/** @type {number} */ ref, /** @type {number} */ flags, /** @type {number} */ cb) =>
    withCallback(cb, () => request('mkdir', { ref, flags }).result);
  /** A Read: `n` bytes at file offset `offset` into guest memory at `at`. */
  const read = (/** @type {number} */ io, /** @type {bigint} */ offset, /** @type {number} */ at, /** @type {number} */ n) => {
    if (n < 0 || offset < 0n) return PP.ERROR_BADARGUMENT;
    // The server checks the bytes it fills (the file may be shorter than the count).
    return request('read', { io, offset: Number(offset), at: at >>> 0, n }).result;
  };

  return {
    // PPB_FileSystem;1.0
    ppb_file_system_create: (/** @type {number} */ _instance, /** @type {number} */ type) => {
      if (type !== FS_TYPE.LOCALPERSISTENT && type !== FS_TYPE.LOCALTEMPORARY) return 0;
      const id = nextResource(p);
      return request('fs-create', { id, type }).result === PP.OK ? id : 0;
    },
    ppb_file_system_is_file_system: (/** @type {number} */ r) => request('is', { id: r, kind: 'fs' }).result,
    ppb_file_system_open: (/** @type {number} */ fs, /** @type {bigint} */ _expected, /** @type {number} */ cb) =>
      withCallback(cb, () => request('fs-open', { fs }).result),
    ppb_file_system_get_type: (/** @type {number} */ fs) => {
      const r = request('fs-type', { fs });
      return r.result === PP.OK ? r.body : FS_TYPE.INVALID;
    },

    // PPB_FileRef;1.0, 1.1, 1.2
    ppb_file_ref_create: (/** @type {number} */ fs, /** @type {number} */ at) => guard(() => {
      const bytes = mem.cstr(at, MAX_PATH + 1);
      let s;
      try {
        s = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
      } catch {
        return 0;
      }
      const path = internalPath(s);
      if (path === null) return 0;
      const id = nextResource(p);
      return request('ref-create', { id, fs, path }).result === PP.OK ? id : 0;
    }, 0),
    ppb_file_ref_is_file_ref: (/** @type {number} */ r) => request('is', { id: r, kind: 'ref' }).result,
    ppb_file_ref_get_file_system_type: (/** @type {number} */ ref) => refInfo(ref)?.type ?? FS_TYPE.INVALID,
    ppb_file_ref_get_name: (/** @type {number} */ ret, /** @type {number} */ ref) => guard(() => {
      const info = refInfo(ref);
      putString(ret, info ? (info.path === '/' ? '/' : info.path.slice(info.path.lastIndexOf('/') + 1)) : null);
    }, undefined),
    ppb_file_ref_get_path: (/** @type {number} */ ret, /** @type {number} */ ref) => guard(() => {
      putString(ret, refInfo(ref)?.path ?? null);
    }, undefined),
    ppb_file_ref_get_parent: (/** @type {number} */ ref) => {
      const id = nextResource(p);
      return request('ref-parent', { id, ref }).result === PP.OK ? id : 0;
    },
    ppb_file_ref_make_directory_1_1: (/** @type {number} */ ref, /** @type {number} */ ancestors, /** @type {number} */ cb) =>
      // As Chrome's thunk: without ancestors, the directory must not exist yet.
      makeDirectory(ref, ancestors ? 1 : 2, cb),
    ppb_file_ref_make_directory: makeDirectory,
    ppb_file_ref_touch: (/** @type {number} */ ref, /** @type {number} */ atime, /** @type {number} */ mtime, /** @type {number} */ cb) =>
      withCallback(cb, () => request('touch', { ref, atime, mtime }).result),
    ppb_file_ref_delete: (/** @type {number} */ ref, /** @type {number} */ cb) =>
      withCallback(cb, () => request('delete', { ref }).result),
    ppb_file_ref_rename: (/** @type {number} */ ref, /** @type {number} */ to, /** @type {number} */ cb) =>
      withCallback(cb, () => request('rename', { ref, to }).result),
    ppb_file_ref_query: (/** @type {number} */ ref, /** @type {number} */ info, /** @type {number} */ cb) =>
      withCallback(cb, () => {
        mem.check(info, 40);
        const r = request('ref-query', { ref });
        if (r.result === PP.OK) putInfo(info, r.body);
        return r.result;
      }),
    ppb_file_ref_read_directory_entries: (/** @type {number} */ ref, /** @type {number} */ output, /** @type {number} */ cb) =>
      withCallback(cb, () => {
        mem.check(output, 8);
        const r = request('readdir', { ref });
        if (r.result !== PP.OK) return r.result;
        /** @type {{id: number, type: number}[]} */
        const entries = r.body;
        const at = arrayBuffer(output, entries.length, 8);
        if (entries.length > 0 && !at) {
          for (const e of entries) request('ref', { id: e.id, delta: -1 });
          return PP.ERROR_FAILED;
        }
        entries.forEach((e, k) => {
          mem.dv.setInt32(at + 8 * k, e.id, true);
          mem.dv.setInt32(at + 8 * k + 4, e.type, true);
        });
        return PP.OK;
      }),

    // PPB_FileIO;1.0, 1.1
    ppb_file_io_create: (/** @type {number} */ _instance) => {
      const id = nextResource(p);
      return request('io-create', { id }).result === PP.OK ? id : 0;
    },
    ppb_file_io_is_file_io: (/** @type {number} */ r) => request('is', { id: r, kind: 'io' }).result,
    ppb_file_io_open: (/** @type {number} */ io, /** @type {number} */ ref, /** @type {number} */ flags, /** @type {number} */ cb) =>
      withCallback(cb, () => request('open', { io, ref, flags }).result),
    ppb_file_io_query: (/** @type {number} */ io, /** @type {number} */ info, /** @type {number} */ cb) =>
      withCallback(cb, () => {
        mem.check(info, 40);
        const r = request('io-query', { io });
        if (r.result === PP.OK) putInfo(info, r.body);
        return r.result;
      }),
    ppb_file_io_touch: (/** @type {number} */ io, /** @type {number} */ atime, /** @type {number} */ mtime, /** @type {number} */ cb) =>
      withCallback(cb, () => request('io-touch', { io, atime, mtime }).result),
    ppb_file_io_read: (/** @type {number} */ io, /** @type {bigint} */ offset, /** @type {number} */ at, /** @type {number} */ n,
      /** @type {number} */ cb) => withCallback(cb, () => read(io, offset, at, n)),
    ppb_file_io_write: (/** @type {number} */ io, /** @type {bigint} */ offset, /** @type {number} */ at, /** @type {number} */ n,
      /** @type {number} */ cb) => withCallback(cb, () => {
      if (n < 0 || offset < 0n) return PP.ERROR_BADARGUMENT;
      if (n > 0) mem.check(at, n);
      return request('write', { io, offset: Number(offset), at: at >>> 0, n }).result;
    }),
    ppb_file_io_set_length: (/** @type {number} */ io, /** @type {bigint} */ length, /** @type {number} */ cb) =>
      withCallback(cb, () => (length < 0n ? PP.ERROR_BADARGUMENT : request('set-length', { io, length: Number(length) }).result)),
    ppb_file_io_flush: (/** @type {number} */ io, /** @type {number} */ cb) =>
      withCallback(cb, () => request('flush', { io }).result),
    ppb_file_io_close: (/** @type {number} */ io) => {
      request('close', { io });
    },
    ppb_file_io_read_to_array: (/** @type {number} */ io, /** @type {bigint} */ offset, /** @type {number} */ max,
      /** @type {number} */ output, /** @type {number} */ cb) => withCallback(cb, () => {
      if (max < 0 || offset < 0n) return PP.ERROR_BADARGUMENT;
      mem.check(output, 8);
      // How much there is to read first, so that the buffer asked for follows the file,
      // not the guest's maximum.
      const r = request('readable', { io, offset: Number(offset), n: max });
      if (r.result < 0) return r.result;
      const at = arrayBuffer(output, r.result, 1);
      if (r.result > 0 && !at) return PP.ERROR_FAILED;
      return r.result > 0 ? read(io, offset, at, r.result) : 0;
    }),
  };
}

/**
 * Passes a reference count change of a resource this thread does not hold to the file
 * server (which ignores ids it does not know).
 * @param {import('./ppapi.mjs').Ppapi} p @param {number} id @param {number} delta
 */
export function foreignRef(p, id, delta) {
  p.post({ op: 'files', request: { op: 'ref', id, delta } });
}
