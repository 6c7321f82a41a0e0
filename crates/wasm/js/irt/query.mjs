// The IRT query function and the interfaces it hands out: every interface `pnacl run`
// offers, with the NaCl headers' names, table sizes and slot orders.

import { functionValue } from '../startup.mjs';

/** `dev-fdio-0.3`'s slots; `dev-fdio-0.2` has all but the last, `fdio-0.1` the first eight. */
const DEV_FDIO_3 = ['close', 'dup', 'dup2', 'read', 'write', 'seek', 'fstat', 'getdents', 'fchdir', 'fchmod',
  'fsync', 'fdatasync', 'ftruncate', 'isatty'];
/** `dev-filename-0.3`'s slots; the older versions have the first ones. */
const FILENAME_3 = ['open', 'stat', 'mkdir', 'rmdir', 'chdir', 'getcwd', 'unlink', 'truncate', 'lstat', 'link',
  'rename', 'symlink', 'chmod', 'access', 'readlink', 'utimes'];

/** @type {[string, string[]][]} */
export const INTERFACES = [
  ['nacl-irt-basic-0.1', ['exit', 'gettod', 'clock', 'nanosleep', 'sched_yield', 'sysconf']],
  ['nacl-irt-fdio-0.1', DEV_FDIO_3.slice(0, 8)],
  ['nacl-irt-dev-fdio-0.1', DEV_FDIO_3.slice(0, 8)],
  ['nacl-irt-dev-fdio-0.2', DEV_FDIO_3.slice(0, 13)],
  ['nacl-irt-dev-fdio-0.3', DEV_FDIO_3],
  ['nacl-irt-filename-0.1', FILENAME_3.slice(0, 2)],
  ['nacl-irt-dev-filename-0.2', FILENAME_3.slice(0, 7)],
  ['nacl-irt-dev-filename-0.3', FILENAME_3],
  ['nacl-irt-memory-0.3', ['mmap', 'munmap', 'mprotect']],
  ['nacl-irt-tls-0.1', ['tls_init', 'tls_get']],
  ['nacl-irt-thread-0.1', ['thread_create', 'thread_exit', 'thread_nice']],
  ['nacl-irt-futex-0.1', ['futex_wait_abs', 'futex_wake']],
  ['nacl-irt-clock_get-0.1', ['clock_getres', 'clock_gettime']],
  ['nacl-irt-random-0.1', ['get_random_bytes']],
  ['nacl-irt-dev-getpid-0.1', ['getpid']],
];

/** The PPAPI hook, offered to browser programs that a page hosts (`pnacl web`). */
const PPAPI_INTERFACES = /** @type {[string, string[]][]} */ ([
  ['nacl-irt-ppapihook-0.1', ['ppapi_start', 'ppapi_register_thread_creator']],
]);

/** The prefix of the interfaces only browser (PPAPI) programs ask for. */
export const PPAPI_PREFIX = 'nacl-irt-ppapihook';

/**
 * The guest value of the IRT function `name`.
 * @param {import('../worker.mjs').Context} ctx @param {string} name
 */
export function irtValue(ctx, name) {
  const k = ctx.irtNames.indexOf(name);
  if (k < 0) throw new Error(`the module does not import irt.${name}`);
  return functionValue(ctx.meta.functions + k);
}

/**
 * `size_t nacl_irt_query(const char *name, void *table, size_t size)`: fills `table` and
 * returns the interface's size, or 0 (unknown interface, or `size` too small).
 * @param {import('../worker.mjs').Context} ctx
 */
export function functions(ctx) {
  const offered = ctx.browser ? [...INTERFACES, ...PPAPI_INTERFACES] : INTERFACES;
  const tables = new Map(offered.map(([n, slots]) => [n, slots.map((s) => irtValue(ctx, s))]));
  return {
    /** @param {number} name @param {number} table @param {number} size */
    query(name, table, size) {
      let s;
      try {
        s = new TextDecoder().decode(ctx.mem.cstr(name, 256));
      } catch {
        return 0;
      }
      if (s.startsWith(PPAPI_PREFIX) && !ctx.browser) {
        ctx.stderr(`pnacl: ${ctx.argv0} is a browser (PPAPI) application: it asked for ${s}. pnacl runs `
          + 'command-line pexes only.\n');
        ctx.exit(126);
      }
      const values = tables.get(s);
      if (!values || size >>> 0 < values.length * 4) return 0;
      try {
        ctx.mem.check(table, values.length * 4);
        values.forEach((v, k) => ctx.mem.setU32(table + 4 * k, v));
      } catch {
        return 0;
      }
      return values.length * 4;
    },
  };
}
