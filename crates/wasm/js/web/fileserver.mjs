// The file server of one module instance: a Worker (started by the page on the module's
// first file request) that holds every `PPB_FileSystem`, `PPB_FileRef` and `PPB_FileIO`
// resource of the instance and keeps the file systems in the browser's origin private
// file system (OPFS): `pnacl/persistent/` and `pnacl/temporary/` under its root, so
// that persistent files outlive the page, in the same browser profile and origin. It
// answers each request (files.mjs sends them through the page) in the requester's reply
// buffer, one at a time in the order they came, and reads and writes the module's
// memory directly. Open files use synchronous access handles, one per file shared by
// every FileIO that has it open.
//
// Limits: OPFS keeps no creation or access time, so `Touch` times last as long as the
// server; a directory is renamed by copying its tree (Chrome's OPFS moves files only); a
// file open in this instance cannot be deleted or renamed (PPAPI calls that an error); a
// directory listing must fit the reply buffer (about 4,000 long names).
//
// URLLoader's files (urlloader.mjs): a body streamed to a file goes to a temporary file
// of its own, in `pnacl/url/SERVER/` (SERVER: a random name per server), named by its
// FileRef, in a file system of type `PP_FILESYSTEMTYPE_EXTERNAL` that the module cannot
// create; the file is deleted with its last FileRef, and the files of a server that
// ended with some left, by the next server to stream a body. The page's own requests
// (`{request, tag}`) are answered by a message `{tag, result, body}`.

import { nextId } from './channel.mjs';

/** `pp_errors.h`. */
const PP = {
  OK: 0, FAILED: -2, BADARGUMENT: -4, BADRESOURCE: -5, NOACCESS: -7, NOSPACE: -9, INPROGRESS: -11,
  FILENOTFOUND: -20, FILEEXISTS: -21, NOTAFILE: -24,
};

/** `PP_FileOpenFlags`. */
const OPEN = { READ: 1, WRITE: 2, CREATE: 4, TRUNCATE: 8, EXCLUSIVE: 16, APPEND: 32 };
/** `PP_MakeDirectoryFlags`. */
const MKDIR = { WITH_ANCESTORS: 1, EXCLUSIVE: 2 };
/** `PP_FileType`. */
const FILE_TYPE = { REGULAR: 0, DIRECTORY: 1 };

/** Guest addresses below this are never mapped (as guest.mjs's `NULL_PAGE_END`). */
const NULL_PAGE_END = 0x10000;

/**
 * @typedef {{kind: 'fs', refs: number, type: number, opened: boolean}} FileSystem
 * @typedef {{kind: 'ref', refs: number, fs: number, type: number, path: string}} FileRef
 * @typedef {{handle: FileSystemSyncAccessHandle, users: number}} Opened
 * @typedef {{kind: 'io', refs: number, state: 'new' | 'open' | 'closed', flags: number, key: string,
 *   file: Opened | null}} FileIO
 * @typedef {FileSystem | FileRef | FileIO} Resource
 * @typedef {{kind: 'file', handle: FileSystemFileHandle, parent: FileSystemDirectoryHandle, name: string}
 *   | {kind: 'directory', handle: FileSystemDirectoryHandle, parent: FileSystemDirectoryHandle | null, name: string}}
 *   Entry
 */

/** @type {WebAssembly.Memory | null} */
let memory = null;
/** @type {SharedArrayBuffer | null} the instance's mailbox, whose counter gives resource ids */
let mailbox = null;
/** @type {Map<number, Resource>} */
const resources = new Map();
/** @type {Map<string, Opened>} open files, by `TYPE:path` */
const opened = new Map();
/** @type {Map<string, {accessed: number, modified: number}>} times set by Touch, by `TYPE:path` */
const touched = new Map();
/** @type {Map<number, Promise<FileSystemDirectoryHandle>>} each file system's root */
const roots = new Map();

/** `PP_FileSystemType`s. */
const EXTERNAL = 1, PERSISTENT = 2;
/** This server's directory of URLLoader files, under `pnacl/url`. */
const URL_FILES = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
/** The EXTERNAL file system of URLLoader's files (made with the first). */
let urlFs = 0;
/** @type {Map<number, Opened>} the files bodies are being streamed to, by FileRef */
const streams = new Map();

/**
 * This server's directory of URLLoader files in `url` (pnacl/url). The server holds a
 * Web Lock named after it for as long as it lives, taken before the directory is made;
 * the directories of servers that no longer hold theirs (ended with files left) are
 * removed.
 * @param {FileSystemDirectoryHandle} url
 */
async function urlFiles(url) {
  const locks = /** @type {any} */ (navigator).locks;
  if (locks) {
    await new Promise((granted) => {
      locks.request(`pnacl/url/${URL_FILES}`, () => {
        granted(undefined);
        return new Promise(() => {});
      });
    });
    /** @type {Set<string>} */
    const held = new Set(((await locks.query()).held ?? []).map((/** @type {any} */ l) => l.name));
    for await (const [name] of /** @type {any} */ (url).entries()) {
      if (name !== URL_FILES && !held.has(`pnacl/url/${name}`)) url.removeEntry(name, { recursive: true }).catch(() => {});
    }
  }
  return url.getDirectoryHandle(URL_FILES, { create: true });
}

/** @param {number} type */
function root(type) {
  let r = roots.get(type);
  if (!r) {
    const dir = navigator.storage.getDirectory().then((d) => d.getDirectoryHandle('pnacl', { create: true }));
    r = type === EXTERNAL
      ? dir.then((d) => d.getDirectoryHandle('url', { create: true })).then(urlFiles)
      : dir.then((d) => d.getDirectoryHandle(type === PERSISTENT ? 'persistent' : 'temporary', { create: true }));
    roots.set(type, r);
    r.catch(() => roots.delete(type));
  }
  return r;
}

/** @param {string} path */
const components = (path) => path.split('/').filter((c) => c !== '' && c !== '.');

/**
 * What `parts` names in file system `type`, or null if nothing.
 * @param {number} type @param {string[]} parts
 * @returns {Promise<Entry | null>}
 */
async function lookup(type, parts) {
  /** @type {FileSystemDirectoryHandle | null} */
  let parent = null;
  let dir = await root(type);
  for (let k = 0; k < parts.length; k++) {
    const name = parts[k];
    try {
      parent = dir;
      dir = await dir.getDirectoryHandle(name);
    } catch (e) {
      const why = /** @type {Error} */ (e).name;
      if (k === parts.length - 1 && why === 'TypeMismatchError') {
        return { kind: 'file', handle: await dir.getFileHandle(name), parent: dir, name };
      }
      if (why === 'NotFoundError' || why === 'TypeMismatchError') return null;
      throw e;
    }
  }
  return { kind: 'directory', handle: dir, parent, name: parts[parts.length - 1] ?? '' };
}

/** The parent directory of `parts`, or null if it does not exist. */
async function parentOf(/** @type {number} */ type, /** @type {string[]} */ parts) {
  const e = await lookup(type, parts.slice(0, -1));
  return e?.kind === 'directory' ? e.handle : null;
}

/** A PPAPI error code for what OPFS threw. */
function code(/** @type {any} */ e) {
  switch (e?.name) {
    case 'NotFoundError': return PP.FILENOTFOUND;
    case 'TypeMismatchError': return PP.NOTAFILE;
    case 'QuotaExceededError': return PP.NOSPACE;
    case 'NoModificationAllowedError': return PP.INPROGRESS;
    case 'SecurityError': case 'NotAllowedError': return PP.NOACCESS;
    default: return PP.FAILED;
  }
}

/**
 * Copies a file or a directory tree to `name` in `into`.
 * @param {FileSystemFileHandle | FileSystemDirectoryHandle} from
 * @param {FileSystemDirectoryHandle} into @param {string} name
 */
async function copy(from, into, name) {
  if (from.kind === 'file') {
    const w = await (await into.getFileHandle(name, { create: true })).createWritable();
    await w.write(await /** @type {FileSystemFileHandle} */ (from).getFile());
    await w.close();
    return;
  }
  const dir = await into.getDirectoryHandle(name, { create: true });
  for await (const [child, h] of /** @type {any} */ (from).entries()) await copy(h, dir, child);
}

/** @param {number} id @param {Resource['kind']} kind */
function get(id, kind) {
  const r = resources.get(id);
  return r?.kind === kind ? /** @type {any} */ (r) : null;
}

/**
 * The FileRef `id`, if its file system is open; else a PPAPI error.
 * @param {number} id
 * @returns {FileRef | number}
 */
function usableRef(id) {
  /** @type {FileRef | null} */
  const ref = get(id, 'ref');
  if (!ref) return PP.BADRESOURCE;
  return get(ref.fs, 'fs')?.opened ? ref : PP.FAILED;
}

/** A new FileRef resource. */
function newRef(/** @type {number} */ id, /** @type {number} */ fs, /** @type {number} */ type, /** @type {string} */ path) {
  resources.set(id, { kind: 'ref', refs: 1, fs, type, path });
  const f = resources.get(fs);
  if (f) f.refs++;
}

/** @param {number} id @param {number} delta */
function reference(id, delta) {
  const r = resources.get(id);
  if (!r) return;
  r.refs += delta;
  if (r.refs > 0) return;
  resources.delete(id);
  if (r.kind === 'ref') reference(r.fs, -1);
  if (r.kind === 'ref' && r.type === EXTERNAL && !inUse(`${EXTERNAL}:${components(r.path).join('/')}`)) {
    // A URLLoader's file goes with its last FileRef.
    root(EXTERNAL).then((d) => d.removeEntry(components(r.path).join('/'))).catch(() => {});
  }
  if (r.kind === 'io') closeIo(r);
}

/** @param {FileIO} io */
function closeIo(io) {
  if (io.file && --io.file.users === 0) {
    io.file.handle.close();
    opened.delete(io.key);
  }
  io.file = null;
  io.state = 'closed';
}

/** @param {string} key */
const keyPath = (key) => key.slice(key.indexOf(':') + 1);
/** Whether anything at or under `key` is open. */
const inUse = (/** @type {string} */ key) => [...opened.keys()].some((k) => k === key || k.startsWith(`${key}/`));

/**
 * A `PP_FileInfo` (as JSON) for `entry`.
 * @param {number} type @param {string} key @param {Entry} entry
 */
async function info(type, key, entry) {
  const t = touched.get(key);
  if (entry.kind === 'directory') {
    return { size: 0, type: FILE_TYPE.DIRECTORY, system: type, created: 0, accessed: t?.accessed ?? 0, modified: t?.modified ?? 0 };
  }
  const open = opened.get(key);
  let size, modified;
  if (open) {
    size = open.handle.getSize();
    modified = Date.now() / 1000;
  } else {
    const file = await entry.handle.getFile();
    size = file.size;
    modified = file.lastModified / 1000;
  }
  return { size, type: FILE_TYPE.REGULAR, system: type, created: modified, accessed: t?.accessed ?? modified,
    modified: t?.modified ?? modified };
}

/**
 * Guest bytes `[at, at+n)`, or null if they are not all guest memory.
 * @param {number} at @param {number} n
 */
function guest(at, n) {
  if (!memory || at < NULL_PAGE_END || at + n > memory.buffer.byteLength) return null;
  return new Uint8Array(memory.buffer, at, n);
}

/** An open FileIO `id` with one of `access` flags, or an error. */
function openIo(/** @type {number} */ id, /** @type {number} */ access) {
  /** @type {FileIO | null} */
  const io = get(id, 'io');
  if (!io) return PP.BADRESOURCE;
  if (io.state !== 'open' || !io.file) return PP.FAILED;
  if (access && !(io.flags & access)) return PP.NOACCESS;
  return io;
}

/** @type {Record<string, (r: any) => Promise<number | [number, any]> | number | [number, any]>} */
const OPS = {
  is: ({ id, kind }) => (get(id, kind) ? 1 : 0),
  'fs-create': ({ id, type }) => {
    resources.set(id, { kind: 'fs', refs: 1, type, opened: false });
    return PP.OK;
  },
  'fs-open': async ({ fs }) => {
    /** @type {FileSystem | null} */
    const f = get(fs, 'fs');
    if (!f) return PP.BADRESOURCE;
    if (f.opened) return PP.INPROGRESS;
    await root(f.type);
    f.opened = true;
    return PP.OK;
  },
  'fs-type': ({ fs }) => {
    const f = get(fs, 'fs');
    return f ? [PP.OK, f.type] : PP.BADRESOURCE;
  },
  'ref-create': ({ id, fs, path }) => {
    /** @type {FileSystem | null} */
    const f = get(fs, 'fs');
    if (!f) return PP.BADRESOURCE;
    newRef(id, fs, f.type, path);
    return PP.OK;
  },
  'ref-info': ({ ref }) => {
    /** @type {FileRef | null} */
    const r = get(ref, 'ref');
    return r ? [PP.OK, { type: r.type, path: r.path }] : PP.BADRESOURCE;
  },
  'ref-parent': ({ id, ref }) => {
    /** @type {FileRef | null} */
    const r = get(ref, 'ref');
    if (!r) return PP.BADRESOURCE;
    const cut = r.path.lastIndexOf('/');
    newRef(id, r.fs, r.type, cut <= 0 ? '/' : r.path.slice(0, cut));
    return PP.OK;
  },
  mkdir: async ({ ref, flags }) => {
    const r = usableRef(ref);
    if (typeof r === 'number') return r;
    const parts = components(r.path);
    if (parts.length === 0) return flags & MKDIR.EXCLUSIVE ? PP.FILEEXISTS : PP.OK;
    let dir = await root(r.type);
    if (flags & MKDIR.WITH_ANCESTORS) {
      for (const name of parts.slice(0, -1)) dir = await dir.getDirectoryHandle(name, { create: true });
    } else {
      const parent = await parentOf(r.type, parts);
      if (!parent) return PP.FILENOTFOUND;
      dir = parent;
    }
    const existing = await lookup(r.type, parts);
    if (existing) return existing.kind === 'directory' && !(flags & MKDIR.EXCLUSIVE) ? PP.OK : PP.FILEEXISTS;
    await dir.getDirectoryHandle(/** @type {string} */ (parts.at(-1)), { create: true });
    return PP.OK;
  },
  touch: async ({ ref, atime, mtime }) => {
    const r = usableRef(ref);
    if (typeof r === 'number') return r;
    if (!(await lookup(r.type, components(r.path)))) return PP.FILENOTFOUND;
    touched.set(`${r.type}:${components(r.path).join('/')}`, { accessed: atime, modified: mtime });
    return PP.OK;
  },
  delete: async ({ ref }) => {
    const r = usableRef(ref);
    if (typeof r === 'number') return r;
    const parts = components(r.path);
    if (parts.length === 0) return PP.NOACCESS;
    const e = await lookup(r.type, parts);
    if (!e || !e.parent) return PP.FILENOTFOUND;
    if (inUse(`${r.type}:${parts.join('/')}`)) return PP.FAILED;
    try {
      await e.parent.removeEntry(e.name);
    } catch (err) {
      return /** @type {Error} */ (err).name === 'InvalidModificationError' ? PP.FAILED : code(err);
    }
    return PP.OK;
  },
  rename: async ({ ref, to }) => {
    const from = usableRef(ref), dest = usableRef(to);
    if (typeof from === 'number') return from;
    if (typeof dest === 'number') return dest;
    if (from.type !== dest.type) return PP.BADARGUMENT;
    const src = components(from.path), dst = components(dest.path);
    const srcKey = src.join('/'), dstKey = dst.join('/');
    if (src.length === 0 || dst.length === 0 || dstKey === srcKey || dstKey.startsWith(`${srcKey}/`)) return PP.FAILED;
    const e = await lookup(from.type, src);
    if (!e) return PP.FILENOTFOUND;
    if (inUse(`${from.type}:${srcKey}`) || inUse(`${from.type}:${dstKey}`)) return PP.FAILED;
    const parent = await parentOf(from.type, dst);
    if (!parent) return PP.FILENOTFOUND;
    const there = await lookup(from.type, dst);
    if (there) {
      if (there.kind !== e.kind) return PP.FAILED;
      try {
        await parent.removeEntry(there.name);
      } catch (err) {
        return code(err);
      }
    }
    const name = /** @type {string} */ (dst.at(-1));
    const handle = /** @type {any} */ (e.handle);
    if (typeof handle.move === 'function') {
      try {
        await handle.move(parent, name);
        return PP.OK;
      } catch {
        // Chrome moves files but not directories: copy those.
      }
    }
    await copy(e.handle, parent, name);
    await /** @type {FileSystemDirectoryHandle} */ (e.parent).removeEntry(e.name, { recursive: true });
    return PP.OK;
  },
  'ref-query': async ({ ref }) => {
    const r = usableRef(ref);
    if (typeof r === 'number') return r;
    const parts = components(r.path);
    const e = await lookup(r.type, parts);
    return e ? [PP.OK, await info(r.type, `${r.type}:${parts.join('/')}`, e)] : PP.FILENOTFOUND;
  },
  readdir: async ({ ref }) => {
    const r = usableRef(ref);
    if (typeof r === 'number') return r;
    const e = await lookup(r.type, components(r.path));
    if (!e) return PP.FILENOTFOUND;
    if (e.kind !== 'directory' || !mailbox) return PP.FAILED;
    /** @type {[string, string][]} */
    const names = [];
    for await (const [name, h] of /** @type {any} */ (e.handle).entries()) names.push([name, h.kind]);
    names.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const base = r.path === '/' ? '' : r.path;
    const box = mailbox;
    return [PP.OK, names.map(([name, kind]) => {
      const id = nextId(box);
      newRef(id, r.fs, r.type, `${base}/${name}`);
      return { id, type: kind === 'directory' ? FILE_TYPE.DIRECTORY : FILE_TYPE.REGULAR };
    })];
  },
  'io-create': ({ id }) => {
    resources.set(id, { kind: 'io', refs: 1, state: 'new', flags: 0, key: '', file: null });
    return PP.OK;
  },
  open: async ({ io: id, ref, flags }) => {
    /** @type {FileIO | null} */
    const io = get(id, 'io');
    if (!io) return PP.BADRESOURCE;
    const r = usableRef(ref);
    if (typeof r === 'number') return r;
    if (io.state !== 'new') return PP.FAILED;
    const known = OPEN.READ | OPEN.WRITE | OPEN.CREATE | OPEN.TRUNCATE | OPEN.EXCLUSIVE | OPEN.APPEND;
    if ((flags & ~known) || ((flags & OPEN.TRUNCATE) && !(flags & OPEN.WRITE))
      || ((flags & OPEN.APPEND) && (flags & OPEN.WRITE))) return PP.BADARGUMENT;
    const parts = components(r.path);
    if (parts.length === 0) return PP.NOTAFILE;
    const e = await lookup(r.type, parts);
    /** @type {FileSystemFileHandle} */
    let file;
    if (e) {
      if (e.kind === 'directory') return PP.NOTAFILE;
      if ((flags & OPEN.CREATE) && (flags & OPEN.EXCLUSIVE)) return PP.FILEEXISTS;
      file = e.handle;
    } else {
      if (!(flags & OPEN.CREATE)) return PP.FILENOTFOUND;
      const parent = await parentOf(r.type, parts);
      if (!parent) return PP.FILENOTFOUND;
      file = await parent.getFileHandle(/** @type {string} */ (parts.at(-1)), { create: true });
    }
    const key = `${r.type}:${parts.join('/')}`;
    let o = opened.get(key);
    if (!o) {
      const handle = await /** @type {any} */ (file).createSyncAccessHandle({ mode: 'readwrite-unsafe' });
      o = { handle, users: 0 };
      opened.set(key, o);
    }
    o.users++;
    Object.assign(io, { state: 'open', flags, key, file: o });
    if (flags & OPEN.TRUNCATE) o.handle.truncate(0);
    return PP.OK;
  },
  'io-query': async ({ io: id }) => {
    const io = openIo(id, 0);
    if (typeof io === 'number') return io;
    const type = Number(io.key.slice(0, io.key.indexOf(':')));
    const e = await lookup(type, components(keyPath(io.key)));
    return e ? [PP.OK, await info(type, io.key, e)] : PP.FILENOTFOUND;
  },
  'io-touch': ({ io: id, atime, mtime }) => {
    const io = openIo(id, 0);
    if (typeof io === 'number') return io;
    touched.set(io.key, { accessed: atime, modified: mtime });
    return PP.OK;
  },
  readable: ({ io: id, offset, n }) => {
    const io = openIo(id, OPEN.READ);
    if (typeof io === 'number') return io;
    return Math.max(0, Math.min(n, /** @type {Opened} */ (io.file).handle.getSize() - offset));
  },
  read: ({ io: id, offset, at, n }) => {
    const io = openIo(id, OPEN.READ);
    if (typeof io === 'number') return io;
    const count = Math.max(0, Math.min(n, /** @type {Opened} */ (io.file).handle.getSize() - offset));
    if (count === 0) return 0;
    const view = guest(at, count);
    if (!view) return PP.BADARGUMENT;
    return /** @type {Opened} */ (io.file).handle.read(view, { at: offset });
  },
  write: ({ io: id, offset, at, n }) => {
    const io = openIo(id, OPEN.WRITE | OPEN.APPEND);
    if (typeof io === 'number') return io;
    const handle = /** @type {Opened} */ (io.file).handle;
    if (n === 0) return 0;
    const view = guest(at, n);
    if (!view) return PP.BADARGUMENT;
    return handle.write(view, { at: io.flags & OPEN.APPEND ? handle.getSize() : offset });
  },
  'set-length': ({ io: id, length }) => {
    const io = openIo(id, OPEN.WRITE | OPEN.APPEND);
    if (typeof io === 'number') return io;
    /** @type {Opened} */ (io.file).handle.truncate(length);
    return PP.OK;
  },
  flush: ({ io: id }) => {
    const io = openIo(id, 0);
    if (typeof io === 'number') return io;
    if (io.flags & (OPEN.WRITE | OPEN.APPEND)) /** @type {Opened} */ (io.file).handle.flush();
    return PP.OK;
  },
  close: ({ io: id }) => {
    /** @type {FileIO | null} */
    const io = get(id, 'io');
    if (!io) return PP.BADRESOURCE;
    closeIo(io);
    return PP.OK;
  },
  'stream-open': async () => {
    if (!mailbox) return PP.FAILED;
    const dir = await root(EXTERNAL);
    if (!urlFs) {
      urlFs = nextId(mailbox);
      resources.set(urlFs, { kind: 'fs', refs: 1, type: EXTERNAL, opened: true });
    }
    const id = nextId(mailbox);
    const file = await dir.getFileHandle(String(id), { create: true });
    const handle = await /** @type {any} */ (file).createSyncAccessHandle({ mode: 'readwrite-unsafe' });
    /** @type {Opened} */
    const o = { handle, users: 1 };
    opened.set(`${EXTERNAL}:${id}`, o);
    streams.set(id, o);
    newRef(id, urlFs, EXTERNAL, `/${id}`);
    return [PP.OK, id];
  },
  'stream-write': ({ ref, at, chunk }) => {
    const o = streams.get(ref);
    if (!o || !(chunk instanceof Uint8Array)) return PP.FAILED;
    let done = 0;
    while (done < chunk.length) done += o.handle.write(chunk.subarray(done), { at: at + done });
    return done;
  },
  'stream-end': ({ ref, drop }) => {
    const o = streams.get(ref);
    streams.delete(ref);
    if (o) {
      o.handle.flush();
      if (--o.users === 0) {
        o.handle.close();
        opened.delete(`${EXTERNAL}:${ref}`);
      }
    }
    if (drop) reference(ref, -1);
    return PP.OK;
  },
  blob: async ({ ref, start, length, modified }) => {
    const r = usableRef(ref);
    if (typeof r === 'number') return r;
    const parts = components(r.path);
    const e = await lookup(r.type, parts);
    if (!e) return PP.FILENOTFOUND;
    if (e.kind !== 'file') return PP.NOTAFILE;
    const open = opened.get(`${r.type}:${parts.join('/')}`);
    /** @type {Blob} */
    let file;
    // As Chrome: a file changed since the time the module expects fails the request (one
    // open here is taken as changed: OPFS gives no time for it).
    if (modified && open) return PP.FAILED;
    if (open) {
      // A file open here is read through its handle, a piece at a time (Chrome keeps a
      // large Blob on disk).
      /** @type {BlobPart[]} */
      const pieces = [];
      const size = open.handle.getSize();
      for (let at = 0; at < size; at += 1 << 20) {
        const piece = new Uint8Array(Math.min(1 << 20, size - at));
        open.handle.read(piece, { at });
        pieces.push(piece);
      }
      file = new Blob(pieces);
    } else {
      const f = await e.handle.getFile();
      if (modified && Math.abs(f.lastModified / 1000 - modified) > 1e-3) return PP.FAILED;
      file = f;
    }
    return [PP.OK, file.slice(start, length < 0 ? undefined : start + length)];
  },
  ref: ({ id, delta }) => {
    reference(id, delta < 0 ? -1 : 1);
    return PP.OK;
  },
};

const enc = new TextEncoder();

/**
 * Writes an answer into a reply buffer (files.mjs): words [done, result, body length],
 * the body (JSON) from byte 16; then wakes the requester.
 * @param {SharedArrayBuffer} reply @param {number} result @param {any} body
 */
export function answer(reply, result, body) {
  const words = new Int32Array(reply, 0, 4);
  let bytes = body === null || body === undefined ? new Uint8Array(0) : enc.encode(JSON.stringify(body));
  if (bytes.length > reply.byteLength - 16) {
    bytes = new Uint8Array(0);
    result = PP.FAILED;
  }
  new Uint8Array(reply, 16, bytes.length).set(bytes);
  words[1] = result;
  words[2] = bytes.length;
  Atomics.store(words, 0, 1);
  Atomics.notify(words, 0);
}

/** @param {{op?: string, memory?: WebAssembly.Memory, mailbox?: SharedArrayBuffer, request?: any, reply?: SharedArrayBuffer, tag?: number}} m */
async function serve(m) {
  if (m.op === 'attach') {
    memory = m.memory ?? null;
    mailbox = m.mailbox ?? null;
    return;
  }
  const op = OPS[m.request?.op];
  let result = PP.FAILED, body = null;
  try {
    if (op) {
      const out = await op(m.request);
      [result, body] = Array.isArray(out) ? out : [out, null];
    }
  } catch (e) {
    result = code(e);
  }
  if (m.reply) answer(m.reply, result, body);
  else if (m.tag !== undefined) globalThis.postMessage({ tag: m.tag, result, body });
}

/** The server Worker's name (the page imports this module too, for `answer`). */
export const SERVER_NAME = 'pnacl file server';

if (globalThis.name === SERVER_NAME) {
  let queue = Promise.resolve();
  globalThis.onmessage = (/** @type {MessageEvent} */ e) => {
    queue = queue.then(() => serve(e.data));
  };
}
