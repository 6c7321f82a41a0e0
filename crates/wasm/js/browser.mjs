// Running a translated program in a web page. The page is the supervisor: it compiles the
// module once and starts every guest thread, the main one included, in a module Worker
// (so that blocking calls, `Atomics.wait` among them, are allowed); it never runs guest
// code itself. What the program writes reaches the page in order (see supervisor.mjs).
//
// What a page offers the guest: its arguments and environment as given; standard input
// is empty (a read returns end of file); no files (a path names nothing: ENOENT); clocks,
// random bytes and the processor count from the browser. Threads need a shared memory,
// which browsers give only to cross-origin isolated pages (served with
// `Cross-Origin-Opener-Policy: same-origin` and `Cross-Origin-Embedder-Policy:
// require-corp`, as `pnacl serve` serves them); a program that may start threads is
// refused elsewhere (status 125), a single-threaded one runs anywhere.

import { Control } from './guest.mjs';
import { metadata } from './meta.mjs';
import { Supervisor } from './supervisor.mjs';

/** The statuses `pnacl run` gives when it cannot start a program. */
export const LOAD_ERROR = 125, UNSUPPORTED = 126;

/**
 * Fetches and compiles a module written by `pnacl wasm`.
 * @param {URL} url
 * @returns {Promise<{module: WebAssembly.Module, meta: import('./meta.mjs').Meta}>}
 */
export async function load(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`HTTP status ${response.status}`);
  // compileStreaming needs the type application/wasm; other servers get the bytes compiled.
  const type = response.headers.get('Content-Type') ?? '';
  const module = type.split(';')[0].trim() === 'application/wasm'
    ? await WebAssembly.compileStreaming(response)
    : await WebAssembly.compile(await response.arrayBuffer());
  return { module, meta: metadata(module) };
}

/**
 * What a program is started with, and where its results go.
 * @typedef {object} Program
 * @property {WebAssembly.Module} module
 * @property {import('./meta.mjs').Meta} meta
 * @property {string} argv0  its `argv[0]`, and its name in messages
 * @property {string[]} args  the other arguments
 * @property {string[]} env  `KEY=VALUE` entries
 * @property {(fd: number, bytes: Uint8Array) => void} output  standard output (1) and error (2)
 * @property {(status: number) => void} exit  called once, when the program has ended
 */

/**
 * Starts a program in Workers; returns a function that stops it (its threads are
 * terminated, and `exit` is not called). Throws, before starting anything, if the page
 * cannot run it: a browser (PPAPI) program (status {@link UNSUPPORTED}), or one that
 * needs a shared memory in a page that is not cross-origin isolated ({@link LOAD_ERROR});
 * the error's `status` says which.
 * @param {Program} p
 * @returns {() => void}
 */
export function start(p) {
  const refuse = (/** @type {string} */ message, /** @type {number} */ status) =>
    Object.assign(new Error(message), { status });
  if (p.meta.browser) {
    throw refuse(`${p.argv0}: a browser (PPAPI) application: it uses the nacl-irt-ppapihook interface. This page `
      + 'runs command-line pexes only.', UNSUPPORTED);
  }
  let memory = null;
  if (p.meta.shared) {
    if (!globalThis.crossOriginIsolated) {
      throw refuse(`${p.argv0}: this program may start threads, which need a shared memory: serve the page `
        + 'cross-origin isolated (pnacl serve does; the headers are Cross-Origin-Opener-Policy: same-origin and '
        + 'Cross-Origin-Embedder-Policy: require-corp)', LOAD_ERROR);
    }
    memory = new WebAssembly.Memory({ initial: p.meta.initial_pages, maximum: p.meta.maximum_pages, shared: true });
  }
  const workerUrl = new URL('./worker.mjs', import.meta.url);
  const enc = new TextEncoder();
  /** @type {Supervisor} */
  const supervisor = new Supervisor(
    (main) => {
      const w = new Worker(workerUrl, { type: 'module', name: `${p.argv0} ${main ? 'main' : 'thread'}` });
      return {
        post: (data) => w.postMessage(data),
        on(event, f) {
          if (event === 'message') w.onmessage = (e) => f(e.data);
          else if (event === 'error') {
            w.onerror = (e) => {
              e.preventDefault();
              f(e.message || 'a Worker failed to start (is its script served?)');
            };
          }
        },
        terminate: () => w.terminate(),
      };
    },
    (status) => {
      supervisor.terminate();
      p.exit(status);
    },
    p.output,
  );
  supervisor.start({
    role: 'main',
    module: p.module,
    memory,
    control: Control.allocate(),
    argv0: p.argv0,
    mounts: [],
    args: [p.argv0, ...p.args].map((a) => enc.encode(a)),
    env: p.env.map((e) => enc.encode(e)),
    maxPages: 0,
  });
  return () => supervisor.terminate();
}
