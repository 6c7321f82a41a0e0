// `PPB_Var` (1.0, 1.1, 1.2), `PPB_VarArrayBuffer;1.0`, `PPB_VarArray;1.0` and
// `PPB_VarDictionary;1.0`: the module's variables.
//
// A `PP_Var` is 16 bytes: its `PP_VarType` (i32), padding, and an 8-byte value (`PP_Bool`
// or `int32_t` in the low word, a `double`, or an object's 64-bit id). Strings, arrays,
// dictionaries and ArrayBuffers are objects: ids into this thread's table, with
// reference counts (`AddRef`/`Release`); a var returned to the module carries one
// reference for it, a var it passes in stays its own. An ArrayBuffer's bytes live in
// guest memory from its creation, so `Map` returns them without a copy. Ids are unique
// across the module's threads; each Worker keeps its own table, and an object made on
// one thread reaches another through the page (sharedvars.mjs).

import { VAR, nextId } from './channel.mjs';

/** A variable as the host holds it: its type and value (an object's id). */
/** @typedef {{t: number, v: any}} Var */

/** An object in the table. */
/**
 * @typedef {object} Entry
 * @property {number} t  STRING, ARRAY, DICTIONARY or ARRAY_BUFFER
 * @property {number} refs
 * @property {string} [s]  a string's text
 * @property {number} [ptr]  its UTF-8 bytes (made on first `VarToUtf8`), an ArrayBuffer's bytes
 * @property {number} [len]  their length
 * @property {Var[]} [items]  an array's elements (each holding a reference)
 * @property {Map<string, Var>} [map]  a dictionary's entries (each holding a reference)
 * @property {boolean} [adopted]  a copy of another thread's object (its elements hold no reference here)
 */

export const UNDEFINED = Object.freeze({ t: VAR.UNDEFINED, v: 0 });
const OBJECTS = new Set([VAR.STRING, VAR.ARRAY, VAR.DICTIONARY, VAR.ARRAY_BUFFER]);

/** The variables of one thread. */
export class Vars {
  /**
   * @param {import('../worker.mjs').Context} ctx
   * @param {import('./heap.mjs').HostHeap} heap
   * @param {SharedArrayBuffer} ids  the mailbox, whose counter gives ids
   */
  constructor(ctx, heap, ids) {
    this.ctx = ctx;
    this.heap = heap;
    this.ids = ids;
    /** @type {Map<number, Entry>} */
    this.table = new Map();
    /** @type {import('./sharedvars.mjs').SharedVars | null} where objects are published for the other threads */
    this.shared = null;
  }

  /**
   * Reads the `PP_Var` at `at`.
   * @param {number} at
   * @returns {Var}
   */
  read(at) {
    const { mem } = this.ctx;
    mem.check(at, 16);
    const t = mem.dv.getInt32(at, true);
    switch (t) {
      case VAR.BOOL: return { t, v: mem.dv.getInt32(at + 8, true) !== 0 };
      case VAR.INT32: return { t, v: mem.dv.getInt32(at + 8, true) };
      case VAR.DOUBLE: return { t, v: mem.dv.getFloat64(at + 8, true) };
      case VAR.NULL: return { t, v: 0 };
      default:
        if (OBJECTS.has(t) || t === VAR.RESOURCE || t === VAR.OBJECT) return { t, v: mem.dv.getInt32(at + 8, true) };
        return UNDEFINED;
    }
  }

  /**
   * Writes `v` as a `PP_Var` at `at`.
   * @param {number} at @param {Var} v
   */
  write(at, v) {
    const { mem } = this.ctx;
    mem.check(at, 16);
    mem.dv.setInt32(at, v.t, true);
    mem.dv.setInt32(at + 4, 0, true);
    mem.dv.setBigInt64(at + 8, 0n, true);
    if (v.t === VAR.DOUBLE) mem.dv.setFloat64(at + 8, v.v, true);
    else if (v.t === VAR.BOOL) mem.dv.setInt32(at + 8, v.v ? 1 : 0, true);
    else if (v.t !== VAR.UNDEFINED && v.t !== VAR.NULL) mem.dv.setInt32(at + 8, v.v, true);
  }

  /**
   * The object `v` names, if it is one this thread knows (of type `t`, if given).
   * @param {Var} v @param {number} [t]
   */
  entry(v, t) {
    if (!OBJECTS.has(v.t) || (t !== undefined && v.t !== t)) return undefined;
    return this.table.get(v.v) ?? this.adopt(v);
  }

  /**
   * A copy of an object made on another thread, kept under its id (or undefined).
   * @param {Var} v
   */
  adopt(v) {
    const rec = this.shared?.fetch(v.v);
    if (!rec || rec.t !== v.t) return undefined;
    const item = (/** @type {[number, any]} */ [t, x]) => ({ t, v: x });
    /** @type {Entry} */
    const e = { t: rec.t, refs: 1, adopted: true };
    if (rec.s !== undefined) e.s = rec.s;
    else if (rec.items) e.items = rec.items.map(item);
    else if (rec.map) e.map = new Map(rec.map.map(([k, i]) => [k, item(i)]));
    else {
      e.ptr = rec.ptr;
      e.len = rec.len;
    }
    this.table.set(v.v, e);
    return e;
  }

  /** Publishes object `id` again after a change. */
  changed(/** @type {number} */ id) {
    const e = this.table.get(id);
    if (e && !e.adopted) this.shared?.publish(id, e);
  }

  /**
   * A new object with one reference.
   * @param {Entry} e
   * @returns {Var}
   */
  make(e) {
    const id = nextId(this.ids);
    this.table.set(id, e);
    this.shared?.publish(id, e);
    return { t: e.t, v: id };
  }

  /** @param {Var} v */
  addRef(v) {
    const e = this.entry(v);
    if (e) e.refs++;
    return v;
  }

  /** @param {Var} v */
  release(v) {
    const e = this.entry(v);
    if (!e || --e.refs > 0) return;
    this.table.delete(v.v);
    if (e.adopted) return;
    this.shared?.drop(v.v);
    if (e.ptr !== undefined) this.heap.release(e.ptr);
    for (const item of e.items ?? []) this.release(item);
    for (const item of e.map?.values() ?? []) this.release(item);
  }

  /** @param {string} s */
  string(s) {
    return this.make({ t: VAR.STRING, refs: 1, s });
  }

  /** @param {Uint8Array} bytes  copied into guest memory */
  arrayBuffer(bytes) {
    const ptr = this.heap.alloc(Math.max(1, bytes.length));
    this.ctx.mem.write(ptr, bytes);
    return this.make({ t: VAR.ARRAY_BUFFER, refs: 1, ptr, len: bytes.length });
  }

  /**
   * A variable for a value the page sent (decoded from the wire: dictionaries are Maps,
   * ArrayBuffers already variables).
   * @param {any} x
   * @returns {Var}
   */
  fromValue(x) {
    if (x === undefined) return UNDEFINED;
    if (x === null) return { t: VAR.NULL, v: 0 };
    if (typeof x === 'boolean') return { t: VAR.BOOL, v: x };
    if (typeof x === 'number') return (x | 0) === x ? { t: VAR.INT32, v: x } : { t: VAR.DOUBLE, v: x };
    if (typeof x === 'string') return this.string(x);
    if (x?.isVar) return { t: x.t, v: x.v };
    if (Array.isArray(x)) return this.make({ t: VAR.ARRAY, refs: 1, items: x.map((e) => this.fromValue(e)) });
    if (x instanceof Map) {
      /** @type {Map<string, Var>} */
      const map = new Map();
      for (const [k, e] of x) map.set(k, this.fromValue(e));
      return this.make({ t: VAR.DICTIONARY, refs: 1, map });
    }
    return UNDEFINED;
  }

  /**
   * The JavaScript value the page receives for `v` (as Chrome converted a `PP_Var`: a
   * dictionary is a plain object, an ArrayBuffer a copy).
   * @param {Var} v
   * @returns {any}
   */
  toValue(v) {
    switch (v.t) {
      case VAR.UNDEFINED: return undefined;
      case VAR.NULL: return null;
      case VAR.BOOL: case VAR.INT32: case VAR.DOUBLE: return v.v;
      default: break;
    }
    const e = this.entry(v);
    if (!e) return undefined;
    switch (e.t) {
      case VAR.STRING: return e.s;
      case VAR.ARRAY_BUFFER: return this.ctx.mem.view(e.ptr ?? 0, e.len ?? 0).slice().buffer;
      case VAR.ARRAY: return (e.items ?? []).map((i) => this.toValue(i));
      default: {
        /** @type {Record<string, any>} */
        const out = {};
        for (const [k, i] of e.map ?? []) Object.defineProperty(out, k, { value: this.toValue(i), enumerable: true, writable: true, configurable: true });
        return out;
      }
    }
  }

  /**
   * The import functions.
   * @param {(id: number) => void} addRefResource
   */
  functions(addRefResource) {
    const { mem } = this.ctx;
    const enc = new TextEncoder();
    const dec = new TextDecoder();
    const fromUtf8 = (/** @type {number} */ out, /** @type {number} */ data, /** @type {number} */ len) => {
      let v = { t: VAR.NULL, v: 0 };
      try {
        // (A copy: TextDecoder refuses views of shared memory.)
        const s = dec.decode(mem.view(data, len >>> 0).slice());
        v = this.string(s);
      } catch {
        // Bad memory: the var is null, as Chrome returned for invalid UTF-8.
      }
      this.write(out, v);
    };
    const bool = (/** @type {boolean} */ b) => (b ? 1 : 0);
    return {
      ppb_var_add_ref: (/** @type {number} */ p) => void this.addRef(this.read(p)),
      ppb_var_release: (/** @type {number} */ p) => this.release(this.read(p)),
      ppb_var_var_from_utf8_1_0: (/** @type {number} */ out, /** @type {number} */ _module, /** @type {number} */ data, /** @type {number} */ len) => fromUtf8(out, data, len),
      ppb_var_var_from_utf8: fromUtf8,
      ppb_var_var_to_utf8: (/** @type {number} */ p, /** @type {number} */ lenOut) => {
        const e = this.entry(this.read(p), VAR.STRING);
        if (!e) {
          if (lenOut) mem.setU32(lenOut, 0);
          return 0;
        }
        if (e.ptr === undefined) {
          const bytes = enc.encode(e.s);
          e.ptr = this.heap.copy(bytes);
          e.len = bytes.length;
        }
        if (lenOut) mem.setU32(lenOut, e.len ?? 0);
        return e.ptr;
      },
      ppb_var_var_to_resource: (/** @type {number} */ p) => {
        const v = this.read(p);
        if (v.t !== VAR.RESOURCE) return 0;
        addRefResource(v.v);
        return v.v;
      },
      ppb_var_var_from_resource: (/** @type {number} */ out, /** @type {number} */ r) => {
        addRefResource(r);
        this.write(out, r ? { t: VAR.RESOURCE, v: r } : { t: VAR.NULL, v: 0 });
      },
      // VarArrayBuffer
      ppb_var_array_buffer_create: (/** @type {number} */ out, /** @type {number} */ size) => {
        let v = { t: VAR.NULL, v: 0 };
        try {
          v = this.arrayBuffer(new Uint8Array(size >>> 0));
        } catch {
          // Out of memory: a null var, as Chrome returned.
        }
        this.write(out, v);
      },
      ppb_var_array_buffer_byte_length: (/** @type {number} */ p, /** @type {number} */ lenOut) => {
        const e = this.entry(this.read(p), VAR.ARRAY_BUFFER);
        if (!e) return 0;
        mem.setU32(lenOut, e.len ?? 0);
        return 1;
      },
      ppb_var_array_buffer_map: (/** @type {number} */ p) => this.entry(this.read(p), VAR.ARRAY_BUFFER)?.ptr ?? 0,
      ppb_var_array_buffer_unmap: () => {},
      // VarArray
      ppb_var_array_create: (/** @type {number} */ out) => this.write(out, this.make({ t: VAR.ARRAY, refs: 1, items: [] })),
      ppb_var_array_get: (/** @type {number} */ out, /** @type {number} */ p, /** @type {number} */ index) => {
        const item = this.entry(this.read(p), VAR.ARRAY)?.items?.[index >>> 0];
        this.write(out, item ? this.addRef(item) : UNDEFINED);
      },
      ppb_var_array_set: (/** @type {number} */ p, /** @type {number} */ index, /** @type {number} */ value) => {
        const items = this.entry(this.read(p), VAR.ARRAY)?.items;
        if (!items || index >>> 0 > 0x3fffffff) return 0;
        while (items.length <= index >>> 0) items.push(UNDEFINED);
        const old = items[index >>> 0];
        items[index >>> 0] = this.addRef(this.read(value));
        this.release(old);
        this.changed(this.read(p).v);
        return 1;
      },
      ppb_var_array_get_length: (/** @type {number} */ p) => this.entry(this.read(p), VAR.ARRAY)?.items?.length ?? 0,
      ppb_var_array_set_length: (/** @type {number} */ p, /** @type {number} */ n) => {
        const items = this.entry(this.read(p), VAR.ARRAY)?.items;
        if (!items || n >>> 0 > 0x3fffffff) return 0;
        while (items.length > n >>> 0) this.release(/** @type {Var} */ (items.pop()));
        while (items.length < n >>> 0) items.push(UNDEFINED);
        this.changed(this.read(p).v);
        return 1;
      },
      // VarDictionary
      ppb_var_dictionary_create: (/** @type {number} */ out) => this.write(out, this.make({ t: VAR.DICTIONARY, refs: 1, map: new Map() })),
      ppb_var_dictionary_get: (/** @type {number} */ out, /** @type {number} */ p, /** @type {number} */ key) => {
        const k = this.entry(this.read(key), VAR.STRING)?.s;
        const item = k === undefined ? undefined : this.entry(this.read(p), VAR.DICTIONARY)?.map?.get(k);
        this.write(out, item ? this.addRef(item) : UNDEFINED);
      },
      ppb_var_dictionary_set: (/** @type {number} */ p, /** @type {number} */ key, /** @type {number} */ value) => {
        const k = this.entry(this.read(key), VAR.STRING)?.s;
        const map = this.entry(this.read(p), VAR.DICTIONARY)?.map;
        if (k === undefined || !map) return 0;
        const old = map.get(k);
        map.set(k, this.addRef(this.read(value)));
        if (old) this.release(old);
        this.changed(this.read(p).v);
        return 1;
      },
      ppb_var_dictionary_delete: (/** @type {number} */ p, /** @type {number} */ key) => {
        const k = this.entry(this.read(key), VAR.STRING)?.s;
        const map = this.entry(this.read(p), VAR.DICTIONARY)?.map;
        const old = k === undefined ? undefined : map?.get(k);
        if (old && k !== undefined) {
          map?.delete(k);
          this.release(old);
          this.changed(this.read(p).v);
        }
      },
      ppb_var_dictionary_has_key: (/** @type {number} */ p, /** @type {number} */ key) => {
        const k = this.entry(this.read(key), VAR.STRING)?.s;
        return bool(k !== undefined && !!this.entry(this.read(p), VAR.DICTIONARY)?.map?.has(k));
      },
      ppb_var_dictionary_get_keys: (/** @type {number} */ out, /** @type {number} */ p) => {
        const map = this.entry(this.read(p), VAR.DICTIONARY)?.map;
        if (!map) return this.write(out, { t: VAR.NULL, v: 0 });
        const items = [...map.keys()].map((k) => this.string(k));
        return this.write(out, this.make({ t: VAR.ARRAY, refs: 1, items }));
      },
    };
  }
}
