// A guest thread's end by an exception: wasm's traps, the helpers that trap, a longjmp
// no frame catches, host stack exhaustion, told in `pnacl run`'s words:
// `pnacl: trap: MESSAGE in function NAME`.

import { functionNames } from './meta.mjs';

/** wasm trap messages (V8's) and what `pnacl run` calls them. */
const MESSAGES = [
  ['divide by zero', 'integer divide by zero'],
  ['remainder by zero', 'integer divide by zero'],
  ['divide result unrepresentable', 'integer overflow'],
  ['memory access out of bounds', 'memory access out of bounds'],
  ['operation does not support unaligned accesses', 'memory access out of bounds'],
  ['table index is out of bounds', 'indirect call to a non-function'],
  ['null function or function signature mismatch', 'indirect call signature mismatch'],
  ['unreachable', 'unreachable executed'],
  ['Maximum call stack size exceeded', 'call stack exhausted'],
];

/**
 * The wasm function indices of the frames of a stack trace, innermost first.
 * @param {unknown} e
 */
function frames(e) {
  const stack = String(/** @type {{stack?: string}} */ (e)?.stack ?? '');
  return [...stack.matchAll(/wasm-function\[(\d+)\]/g)].map((m) => Number(m[1]));
}

/**
 * The trap line for exception `e`, or null if it is not the guest's trap.
 * @param {unknown} e
 * @param {WebAssembly.Module} module
 * @param {import('./meta.mjs').Meta} meta
 * @param {{tag?: WebAssembly.Tag, longjmpFrom: () => number}} sjlj
 */
export function trapLine(e, module, meta, sjlj) {
  const names = () => functionNames(module);
  if (sjlj.tag && e instanceof WebAssembly.Exception && e.is(sjlj.tag)) {
    const name = names().get(sjlj.longjmpFrom());
    return `pnacl: trap: longjmp to an invalid jmp_buf${name ? ` in function ${name}` : ''}\n`;
  }
  const isTrap = e instanceof WebAssembly.RuntimeError
    || (e instanceof RangeError && /Maximum call stack size exceeded/.test(e.message));
  if (!isTrap) return null;
  const text = /** @type {Error} */ (e).message;
  let message = MESSAGES.find(([wasm]) => text.includes(wasm))?.[1] ?? text;
  let f = frames(e);
  if (f.length > 0 && meta.traps[String(f[0])] !== undefined) {
    if (text.includes('unreachable')) message = meta.traps[String(f[0])];
    f = f.slice(1);
  }
  while (f.length > 0 && meta.transparent.includes(f[0])) f = f.slice(1);
  const name = f.length > 0 ? names().get(f[0]) : undefined;
  return `pnacl: trap: ${message}${name ? ` in function ${name}` : ''}\n`;
}
