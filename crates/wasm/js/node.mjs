// Running a translated program under Node: `node APP.mjs [OPTIONS] [--] [ARGS...]` behaves
// as `pnacl run APP.pexe ARGS...`. The options come first (the first argument that is not
// one starts the guest's; `--` ends them and is dropped):
//
//   --dir HOST[::GUEST]   let the guest reach a host directory, seen at GUEST (default:
//                         HOST; relative guest paths are taken from /)
//   --env KEY=VALUE       set a guest environment variable (the environment is empty
//                         unless --inherit-env starts it from the host's)
//   --inherit-env
//   --max-memory SIZE     most memory mmap may hand out (bytes, or with K, M or G)
//   --argv0 NAME          the guest's argv[0] (default: the pexe as named to pnacl wasm)
//
// Exit status: the guest's; 134 when it traps; 125 when the module cannot be loaded; 126
// for a browser (PPAPI) program; 2 for a usage error.

// Start-up: the main guest thread's Worker is started first of all (a Worker takes longer
// to start than the rest), by the launcher before it loads this module (node-spawn.mjs);
// the host modules this thread needs while the Worker starts are imported then.

import { setFlagsFromString } from 'node:v8';
import { readFile, realpathSync, writeSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { spawnWorker } from './node-spawn.mjs';
import { Supervisor } from './supervisor.mjs';

/**
 * V8 reads the module's `compilationHints` section (which functions TurboFan compiles from
 * their first call; see the translator's `hints.rs`) only behind a flag. The versions
 * listed are those whose reader of the section pnacl checked (Node 20 to 23); another
 * would print an error for an unknown flag, or might read the section otherwise.
 */
const V8_READS_HINTS = [11, 12, 13].includes(Number(process.versions.v8.split('.')[0]));

/**
 * Compiles a module with its compilation hints. The flag is process-wide and V8 takes the
 * features a compilation uses when it starts, so it is set only around that call: nothing
 * else this process compiles sees it, and V8's code caches (checked against the flags)
 * stay valid; with the flag left on, Node's start took 23 ms longer.
 * @param {Buffer} bytes
 * @returns {Promise<WebAssembly.Module>}
 */
function compileWithHints(bytes) {
  if (!V8_READS_HINTS) return WebAssembly.compile(bytes);
  setFlagsFromString('--experimental-wasm-compilation-hints');
  try {
    return WebAssembly.compile(bytes);
  } finally {
    setFlagsFromString('--no-experimental-wasm-compilation-hints');
  }
}

/** @param {string} text */
function stderr(text) {
  writeSync(2, text);
}

/**
 * @param {string} message @param {number} status
 * @returns {never}
 */
function fail(message, status) {
  stderr(`pnacl: ${message}\n`);
  process.exit(status);
}

/** @param {string} s  `123`, `64K`, `512M`, `2G` */
function parseSize(s) {
  const m = /^(\d+)([kKmMgG]?)$/.exec(s);
  if (!m) return fail(`not a size: ${JSON.stringify(s)} (use bytes, or a number with K, M or G)`, 2);
  const shift = { '': 0, k: 10, m: 20, g: 30 }[m[2].toLowerCase()] ?? 0;
  return Number(m[1]) * 2 ** shift;
}

/**
 * The host options and the guest's arguments.
 * @param {string[]} argv
 */
export function parseArguments(argv) {
  const o = { dirs: /** @type {string[]} */ ([]), env: /** @type {string[]} */ ([]), inheritEnv: false,
    maxMemory: 0, argv0: /** @type {string | null} */ (null), args: /** @type {string[]} */ ([]) };
  let k = 0;
  const value = (/** @type {string} */ name) => {
    if (k + 1 >= argv.length) fail(`${name} needs a value`, 2);
    return argv[++k];
  };
  for (; k < argv.length; k++) {
    const a = argv[k];
    const [name, inline] = a.startsWith('--') && a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, null];
    const arg = () => (inline !== null ? inline : value(name));
    if (a === '--') {
      k++;
      break;
    } else if (name === '--dir') o.dirs.push(arg());
    else if (name === '--env') o.env.push(arg());
    else if (name === '--max-memory') o.maxMemory = parseSize(arg());
    else if (name === '--argv0') o.argv0 = arg();
    else if (a === '--inherit-env') o.inheritEnv = true;
    else if (a === '--help') {
      stderr('usage: node APP.mjs [--dir HOST[::GUEST]]... [--env KEY=VALUE]... [--inherit-env] [--max-memory SIZE] '
        + '[--argv0 NAME] [--] [ARGS...]\n');
      process.exit(0);
    } else break;
  }
  o.args = argv.slice(k);
  return o;
}

/**
 * The guest environment: the host's if asked, then the --env entries (later ones replace
 * earlier ones with the same key).
 * @param {{env: string[], inheritEnv: boolean}} o
 */
function environment(o) {
  /** @type {string[]} */
  const env = [];
  const set = (/** @type {string} */ e) => {
    const key = e.slice(0, e.indexOf('=') + 1);
    const at = env.findIndex((x) => x.startsWith(key));
    if (at >= 0) env.splice(at, 1);
    env.push(e);
  };
  if (o.inheritEnv) for (const [k, v] of Object.entries(process.env)) set(`${k}=${v}`);
  for (const e of o.env) {
    if (!e.includes('=') || e.startsWith('=') || e.includes('\0')) fail(`--env ${e}: expected KEY=VALUE`, 2);
    set(e);
  }
  return env;
}

/**
 * Runs the program of module `wasm`.
 * @param {{wasm: URL, argv0: string, mainWorker?: import('node:worker_threads').Worker}} app  the
 *   module, the pexe it was translated from, and the main thread's Worker if the launcher
 *   has started it (see node-spawn.mjs)
 */
export async function main(app) {
  const o = parseArguments(process.argv.slice(2));
  const argv0 = o.argv0 ?? app.argv0;
  const wasmPath = fileURLToPath(app.wasm);
  let started = app.mainWorker ?? null;
  const supervisor = new Supervisor(
    (isMain) => {
      const w = (isMain ? started : null) ?? spawnWorker(isMain);
      if (isMain) started = null;
      return { on: (event, f) => w.on(event, f), post: (data) => w.postMessage(data) };
    },
    (status) => process.exit(status),
    (fd, bytes) => writeSync(fd, bytes),
  );
  supervisor.prepare();
  // While the Worker starts: read and compile the module, load what this thread needs.
  /** @type {Promise<{module?: WebAssembly.Module, error?: Error}>} */
  const compiled = new Promise((resolve, reject) => readFile(wasmPath, (e, b) => (e ? reject(e) : resolve(b))))
    .then((bytes) => compileWithHints(/** @type {Buffer} */ (bytes)))
    .then((module) => ({ module }), (error) => ({ error }));
  const [{ Control }, { normalize }, { metadata }] = await Promise.all(
    [import('./guest.mjs'), import('./files.mjs'), import('./meta.mjs')]);
  let module, meta;
  try {
    const c = await compiled;
    if (c.error) throw c.error;
    module = /** @type {WebAssembly.Module} */ (c.module);
    meta = metadata(module);
  } catch (e) {
    return fail(`${wasmPath}: cannot load the module: ${/** @type {Error} */ (e).message}`, 125);
  }
  if (meta.browser) {
    return fail(`${argv0}: a browser (PPAPI) application: it uses the nacl-irt-ppapihook interface. pnacl runs `
      + 'command-line pexes only.', 126);
  }
  // A plain memory cannot be handed to a Worker: the main thread makes its own.
  let memory = null;
  if (meta.shared) {
    try {
      memory = new WebAssembly.Memory({ initial: meta.initial_pages, maximum: meta.maximum_pages, shared: true });
    } catch (e) {
      return fail(`${wasmPath}: cannot make the guest memory: ${/** @type {Error} */ (e).message}`, 125);
    }
  }
  const mounts = o.dirs.map((d) => {
    const [host, guest] = d.includes('::') ? [d.slice(0, d.indexOf('::')), d.slice(d.indexOf('::') + 2)] : [d, d];
    try {
      return { host: realpathSync(host), guest: normalize('/', guest) };
    } catch (e) {
      return fail(`--dir ${host}: ${/** @type {Error} */ (e).message}`, 125);
    }
  });
  const enc = new TextEncoder();
  supervisor.start({
    role: 'main',
    module,
    memory,
    control: Control.allocate(),
    argv0,
    mounts,
    args: [argv0, ...o.args].map((a) => enc.encode(a)),
    env: environment(o).map((e) => enc.encode(e)),
    maxPages: o.maxMemory ? Math.max(1, Math.floor(o.maxMemory / 65536)) : 0,
  });
}
