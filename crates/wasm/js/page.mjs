// The script of the page `pnacl wasm --html` writes (APP.html): it runs the program of
// the module its `<body data-pnacl-module>` names, with the arguments of the page's query
// string (`?arg=a&arg=b`; `env=KEY=VALUE` entries make its environment), shows its
// standard output and error in `<pre id="stdout">` and `<pre id="stderr">` as they come,
// and when it ends sets `<body data-exit-status="N">`: the guest's status, 134 after a
// trap (with the one-line message on stderr), 125 when the module cannot be loaded or
// needs an isolation the page lacks, 126 for a browser (PPAPI) program, 2 for a malformed
// `env` entry.
//
// For scripts (tests, automation), `globalThis.pnaclPage` holds the exact bytes of each
// stream (binary output is shown decoded as UTF-8, but kept as written) and the status.

import { LOAD_ERROR, load, start } from './browser.mjs';
import { concatBytes } from './guest.mjs';

const body = document.body;
const query = new URLSearchParams(location.search);
const argv0 = body.dataset.pnaclArgv0 ?? 'program';
/** @type {Record<number, HTMLElement | null>} */
const shown = { 1: document.getElementById('stdout'), 2: document.getElementById('stderr') };
/** @type {Record<number, TextDecoder>} */
const decoders = { 1: new TextDecoder(), 2: new TextDecoder() };
/** @type {Record<number, Uint8Array[]>} */
const written = { 1: [], 2: [] };

/** What the page exposes of the run. */
const pnaclPage = {
  /** @type {number | null} the exit status, once the program has ended */
  status: null,
  /**
   * The bytes written to stream `fd` (1 or 2).
   * @param {number} fd
   */
  bytes(fd) {
    return concatBytes(written[fd] ?? []);
  },
  /**
   * The same, in base64 (what a WebDriver script can carry).
   * @param {number} fd
   */
  base64(fd) {
    const b = this.bytes(fd);
    let text = '';
    for (let at = 0; at < b.length; at += 0x8000) text += String.fromCharCode(...b.subarray(at, at + 0x8000));
    return btoa(text);
  },
};
Object.assign(globalThis, { pnaclPage });

/** @param {number} fd @param {Uint8Array} bytes */
function output(fd, bytes) {
  if (!written[fd]) return;
  written[fd].push(bytes);
  shown[fd]?.append(decoders[fd].decode(bytes, { stream: true }));
}

/** @param {string} text */
function say(text) {
  output(2, new TextEncoder().encode(`pnacl: ${text}\n`));
}

/** @param {number} status */
function finish(status) {
  for (const fd of [1, 2]) shown[fd]?.append(decoders[fd].decode());
  pnaclPage.status = status;
  body.dataset.exitStatus = String(status);
}

async function main() {
  const name = body.dataset.pnaclModule;
  if (!name) {
    say('this page names no module (<body data-pnacl-module="APP.wasm">)');
    return finish(LOAD_ERROR);
  }
  const env = query.getAll('env');
  const bad = env.find((e) => !e.includes('=') || e.startsWith('='));
  if (bad !== undefined) {
    say(`env=${bad}: expected KEY=VALUE`);
    return finish(2);
  }
  const url = new URL(encodeURIComponent(name), document.baseURI);
  let loaded;
  try {
    loaded = await load(url);
  } catch (e) {
    say(`${name}: cannot load the module: ${/** @type {Error} */ (e).message}`);
    return finish(LOAD_ERROR);
  }
  try {
    start({ ...loaded, argv0, args: query.getAll('arg'), env, output, exit: finish });
  } catch (e) {
    say(/** @type {Error} */ (e).message);
    return finish(/** @type {{status?: number}} */ (e).status ?? LOAD_ERROR);
  }
}

main();
