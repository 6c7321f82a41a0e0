// The startup block `_start` receives: argv, envp and the auxiliary vector, whose
// AT_SYSINFO entry is the IRT query function. Word layout, as NaCl's loader writes it:
// [fini, envc, argc, argv..., 0, envp..., 0, AT_SYSINFO, query, AT_NULL, 0], then the
// strings; placed just below the top of the main thread's stack.

const AT_NULL = 0, AT_SYSINFO = 32;

/**
 * The guest value of function table index `index`.
 * @param {number} index
 */
export function functionValue(index) {
  return ((index + 1) * 16) >>> 0;
}

/**
 * Writes the startup block below `top`; returns its address.
 * @param {import('./guest.mjs').GuestMemory} mem
 * @param {number} top
 * @param {Uint8Array[]} args
 * @param {Uint8Array[]} env
 * @param {number} query  the query function's value
 */
export function placeStartup(mem, top, args, env, query) {
  const words = 3 + args.length + 1 + env.length + 1 + 4;
  const strings = [...args, ...env].reduce((n, s) => n + s.length + 1, 0);
  const size = words * 4 + strings;
  if (size > 1 << 20) throw new Error(`the arguments and environment take ${size} bytes; the limit is 1 MiB`);
  const at = (top - size) & ~15;
  let text = at + words * 4;
  const out = [0, env.length, args.length];
  const bytes = new Uint8Array(strings);
  let k = 0;
  for (const list of [args, env]) {
    for (const s of list) {
      out.push(text);
      bytes.set(s, k);
      k += s.length + 1;
      text += s.length + 1;
    }
    out.push(0);
  }
  out.push(AT_SYSINFO, query, AT_NULL, 0);
  out.forEach((w, i) => mem.setU32(at + 4 * i, w));
  mem.write(at + words * 4, bytes);
  return at >>> 0;
}
