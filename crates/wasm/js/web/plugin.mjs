// The page's side of one NaCl module instance: what an `<embed type="application/x-pnacl">`
// element becomes. It reads the manifest (`program.portable.pnacl-translate.url`,
// relative to the manifest), fetches the module `pnacl web` translated from that pexe
// (the pexe's URL with `.wasm` appended) or translates the pexe in the page
// (translate.mjs), and runs it in Workers on a shared memory, as
// browser.mjs runs command-line programs. The element gets NaCl's scripting interface:
// `postMessage`, `readyState`, `lastError`, `exitStatus`, and the events `loadstart`,
// `progress`, `load`, `error`, `loadend`, `message` and `crash`, fired on the element.

import { Control } from '../guest.mjs';
import { load } from '../browser.mjs';
import { Supervisor } from '../supervisor.mjs';
import { MailboxWriter, encode, mailbox } from './channel.mjs';
import { Surface } from './surface.mjs';
import { translatePexe } from './translate.mjs';
import { metadata } from '../meta.mjs';
import { SERVER_NAME, answer } from './fileserver.mjs';
import { VarStore } from './sharedvars.mjs';
import { PageInput } from './events.mjs';
import { PageSockets } from './sockets.mjs';
import { PageLoaders } from './loaders.mjs';

let instances = 0;

/** `readyState` values (as Chrome's NaCl plugin, like XMLHttpRequest's). */
const READY = { UNSENT: 0, OPENED: 1, LOADING: 3, DONE: 4 };

/**
 * How the polyfill was included: by `pnacl web`, which serves each pexe's translation
 * beside it (`beside`), or by hand, so that the page translates its pexes (`in-page`).
 * @typedef {{translated: string}} Options
 */

/** One module instance, for one element. */
export class Plugin {
  /** @param {HTMLElement} el @param {Options} options */
  constructor(el, options) {
    this.el = el;
    this.options = options;
    /** The in-page translation, once made (`el.pnaclTranslation`). @type {object | null} */
    this.translation = null;
    /**
     * When the start-up's steps happened (`performance.now()`; `el.pnaclTimes`): the
     * element became a module, the module was compiled, it loaded, its first message.
     * @type {{created: number, compiled?: number, loaded?: number, firstMessage?: number}}
     */
    this.times = { created: performance.now() };
    /** @type {WebAssembly.Memory | null} */
    this.memory = null;
    this.id = ++instances;
    this.readyState = READY.UNSENT;
    this.lastError = '';
    /** @type {number | undefined} */
    this.exitStatus = undefined;
    this.loaded = false;
    this.box = mailbox();
    this.writer = new MailboxWriter(this.box);
    /** @type {(() => void) | null} */
    this.stop = null;
    this.name = el.getAttribute('src') ?? 'module';
    /** Where the start-up is (for scripts and people debugging a page: `el.pnaclState`). */
    this.state = 'created';
    /** @type {ResizeObserver | null} */
    this.resized = null;
    /** The view the module was last told about. */
    this.view = '';
    /** @type {Worker | null} the instance's file server (fileserver.mjs), once asked for */
    this.fileServer = null;
    /** @type {Set<SharedArrayBuffer>} the reply buffers of the threads that asked it */
    this.replies = new Set();
    /** The module's object vars, for its other threads. */
    this.sharedVars = new VarStore(() => Atomics.load(new Int32Array(this.box, 0, 4), 3));
    this.input = new PageInput((r) => this.writer.send(r), () => this.loaded && this.stop !== null);
    this.input.attach(el);
    this.sockets = new PageSockets((r) => this.writer.send(r));
    /** @type {Map<number, (answer: {result: number, body: any}) => void>} the page's own file requests */
    this.fileCalls = new Map();
    this.fileTag = 0;
    this.loaders = new PageLoaders((r) => this.writer.send(r), (request, transfer) => this.fileCall(request, transfer));
    this.surface = new Surface(el, (g, func, user) => this.writer.send(encode(['flushed', g, func, user])));
    const plugin = this;
    Object.defineProperties(el, {
      postMessage: {
        configurable: true,
        value(/** @type {unknown} */ message) {
          plugin.writer.send(encode(['message', message]));
        },
      },
      readyState: { configurable: true, get: () => plugin.readyState },
      lastError: { configurable: true, get: () => plugin.lastError },
      exitStatus: { configurable: true, get: () => plugin.exitStatus },
      pnaclState: { configurable: true, get: () => plugin.state },
      pnaclTranslation: { configurable: true, get: () => plugin.translation },
      pnaclTimes: { configurable: true, get: () => ({ ...plugin.times }) },
      // The guest's memory in bytes (its linear memory, as large as it has grown).
      pnaclMemory: { configurable: true, get: () => plugin.memory?.buffer.byteLength ?? 0 },
    });
  }

  /** @param {string} type @param {EventInit & {data?: any}} [init] */
  fire(type, init = {}) {
    const event = type === 'message' ? new MessageEvent(type, init)
      : type === 'progress' ? new ProgressEvent(type, init) : new Event(type, init);
    this.el.dispatchEvent(event);
  }

  /** @param {string} why */
  fail(why) {
    this.state = 'failed';
    this.lastError = why;
    this.readyState = READY.DONE;
    console.error(`pnacl: ${this.name}: ${why}`);
    this.fire('error');
    this.fire('loadend');
  }

  /** The element's rectangle in the page: x, y, width, height. */
  rect() {
    const r = this.surface.box().getBoundingClientRect();
    return [Math.round(r.left + scrollX), Math.round(r.top + scrollY), Math.round(r.width), Math.round(r.height)];
  }

  async start() {
    this.readyState = READY.OPENED;
    this.fire('loadstart');
    if (!globalThis.crossOriginIsolated) {
      return this.fail('the page is not cross-origin isolated, so the module cannot have shared memory (serve the '
        + 'site with pnacl web --serve, or with the headers Cross-Origin-Opener-Policy: same-origin and '
        + 'Cross-Origin-Embedder-Policy: require-corp)');
    }
    let loaded;
    try {
      const manifestUrl = new URL(this.name, document.baseURI);
      this.state = 'fetching the manifest';
      const response = await fetch(manifestUrl);
      if (!response.ok) throw new Error(`${manifestUrl}: HTTP status ${response.status}`);
      const manifest = await response.json();
      const entry = manifest?.program?.portable?.['pnacl-translate']?.url;
      if (typeof entry !== 'string') throw new Error('the manifest names no program.portable.pnacl-translate.url');
      const pexeUrl = new URL(entry, manifestUrl);
      this.readyState = READY.LOADING;
      if (this.options.translated === 'beside') {
        const wasmUrl = new URL(pexeUrl);
        wasmUrl.pathname += '.wasm';
        this.state = 'loading the module';
        loaded = await load(wasmUrl);
      } else {
        this.state = 'translating the pexe';
        const t = await translatePexe(pexeUrl);
        const { module, ...figures } = t;
        this.translation = figures;
        loaded = { module, meta: metadata(module) };
      }
      this.fire('progress', { lengthComputable: false });
    } catch (e) {
      return this.fail(`could not load the module: ${/** @type {Error} */ (e).message}`);
    }
    this.times.compiled = performance.now();
    if (!loaded.meta.browser) return this.fail('the module is not a browser (PPAPI) program');
    this.run(loaded);
  }

  /** @param {{module: WebAssembly.Module, meta: import('../meta.mjs').Meta}} loaded */
  run({ module, meta }) {
    const memory = new WebAssembly.Memory({ initial: meta.initial_pages, maximum: meta.maximum_pages, shared: true });
    this.memory = memory;
    const workerUrl = new URL('../worker.mjs', import.meta.url);
    const dec = new TextDecoder();
    /** @type {Record<number, string>} */
    const partial = { 1: '', 2: '' };
    const output = (/** @type {number} */ fd, /** @type {Uint8Array} */ bytes) => {
      const lines = (partial[fd] + dec.decode(bytes)).split('\n');
      partial[fd] = lines.pop() ?? '';
      for (const line of lines) (fd === 2 ? console.warn : console.log)(`${this.name}: ${line}`);
    };
    const supervisor = new Supervisor(
      (main) => {
        const w = new Worker(workerUrl, { type: 'module', name: `${this.name} ${main ? 'main' : 'thread'}` });
        return {
          post: (data) => w.postMessage(data),
          on: (event, f) => {
            if (event === 'message') w.onmessage = (e) => (e.data?.type === 'ppapi' ? this.fromModule(e.data) : f(e.data));
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
      (status) => this.ended(status),
      output,
    );
    this.stop = () => supervisor.terminate();
    this.state = 'starting';
    const attrs = [...this.el.attributes].map((a) => [a.name, a.value]);
    supervisor.start({
      role: 'main', module, memory, control: Control.allocate(), argv0: this.name, mounts: [],
      args: [new TextEncoder().encode(this.name)], env: [], maxPages: 0,
      ppapi: { mailbox: this.box, instance: this.id, attrs: /** @type {[string, string][]} */ (attrs), view: this.rect() },
    });
    this.view = String(this.rect());
    this.resized = new ResizeObserver(() => {
      const rect = this.rect();
      if (!this.loaded || String(rect) === this.view) return;
      this.view = String(rect);
      this.writer.send(encode(['view', ...rect]));
    });
    this.resized.observe(this.el);
    this.focusable(this.el);
  }

  /**
   * Tells the module when `target` (the element, or the canvas in its place) gains or
   * loses the focus.
   * @param {HTMLElement} target
   */
  focusable(target) {
    target.addEventListener('focus', () => this.writer.send(encode(['focus', true])));
    target.addEventListener('blur', () => this.writer.send(encode(['focus', false])));
  }

  /**
   * A PPAPI message from the module's threads.
   * @param {any} m
   */
  fromModule(m) {
    switch (m.op) {
      case 'loaded':
        this.times.loaded = performance.now();
        this.state = 'running';
        this.loaded = true;
        this.readyState = READY.DONE;
        this.fire('load');
        this.fire('loadend');
        break;
      case 'load-error':
        this.fail(m.message);
        break;
      case 'message':
        this.times.firstMessage ??= performance.now();
        this.fire('message', { data: m.data });
        break;
      case 'console': {
        const log = /** @type {any} */ (console)[m.level] ?? console.log;
        log(m.text);
        break;
      }
      case 'bind':
        this.surface.bind(m.graphics);
        if (this.surface.canvas) {
          this.resized?.observe(this.surface.canvas);
          this.input.attach(this.surface.canvas);
          this.focusable(this.surface.canvas);
        }
        break;
      case 'input-classes':
        this.input.classes(m);
        break;
      case 'websocket':
        this.sockets.handle(m);
        break;
      case 'url':
        this.loaders.handle(m);
        break;
      case 'flush':
        this.surface.flush(m);
        break;
      case 'files':
        this.files(m.request, m.reply);
        break;
      case 'var-publish': case 'var-drop': case 'var-fetch':
        this.sharedVars.handle(m, answer);
        break;
      case 'work':
        setTimeout(() => this.writer.send(encode(['work', m.func, m.user, m.result])), m.delay);
        break;
      default:
        break;
    }
  }

  /**
   * Passes a file request of the module's threads to the instance's file server, which
   * answers in `reply` (started on the first request; if it cannot start, every request
   * fails with `PP_ERROR_FAILED`).
   * @param {any} request @param {SharedArrayBuffer | undefined} reply
   */
  files(request, reply) {
    // (A reference to a request or a response info of URLLoader's is kept on the page.)
    if (request?.op === 'ref' && this.loaders.infos.reference(request.id, request.delta)) return;
    if (!this.fileServer && request?.op === 'ref') return;
    const server = this.server();
    // A thread has one request out at a time, so each thread's buffer is kept once.
    if (reply) this.replies.add(reply);
    try {
      server.postMessage({ request, reply });
    } catch (e) {
      console.error(`pnacl: ${this.name}: a file request could not be passed on: ${e}`);
      if (reply) answer(reply, -2, null);
    }
  }

  /**
   * A file request of the page's own (loaders.mjs), answered by a message from the server.
   * @param {Record<string, any>} request @param {Transferable[]} [transfer]
   * @returns {Promise<{result: number, body: any}>}
   */
  fileCall(request, transfer = []) {
    const tag = ++this.fileTag;
    return new Promise((resolve) => {
      this.fileCalls.set(tag, resolve);
      try {
        this.server().postMessage({ request, tag }, transfer);
      } catch {
        this.fileCalls.delete(tag);
        resolve({ result: -2, body: null });
      }
    });
  }

  /**
   * The instance's file server, started on the first request; if it fails, every request
   * out fails with `PP_ERROR_FAILED`.
   * @returns {Worker}
   */
  server() {
    if (this.fileServer) return this.fileServer;
    const server = new Worker(new URL('./fileserver.mjs', import.meta.url), { type: 'module', name: SERVER_NAME });
    server.onerror = (e) => {
      e.preventDefault();
      console.error(`pnacl: ${this.name}: the file server failed: ${e.message}`);
      this.fileServer = null;
      for (const r of this.replies) if (Atomics.load(new Int32Array(r, 0, 1), 0) === 0) answer(r, -2, null);
      for (const resolve of this.fileCalls.values()) resolve({ result: -2, body: null });
      this.fileCalls.clear();
    };
    server.onmessage = (e) => {
      const resolve = this.fileCalls.get(e.data?.tag);
      this.fileCalls.delete(e.data?.tag);
      resolve?.({ result: e.data.result, body: e.data.body });
    };
    server.postMessage({ op: 'attach', memory: this.memory, mailbox: this.box });
    this.fileServer = server;
    return server;
  }

  /** @param {number} status  the module's exit status (134 after a trap) */
  ended(status) {
    this.state = 'ended';
    this.stop?.();
    this.fileServer?.terminate();
    this.fileServer = null;
    this.exitStatus = status;
    if (!this.loaded) return this.fail(`the module ended before it loaded (status ${status})`);
    this.lastError = 'NaCl module crashed';
    console.error(`pnacl: ${this.name}: the module ended (status ${status})`);
    this.fire('crash');
  }

  /** Ends the module (its element left the page). */
  destroy() {
    this.fileServer?.terminate();
    this.fileServer = null;
    this.stop?.();
    this.stop = null;
  }
}
