// The module's side of PPAPI: `nacl-irt-ppapihook-0.1`, `PPB_GetInterface` and its
// interface tables, and the main thread's message loop.
//
// As in Chrome, `ppapi_start` (called by the module's main thread, from `main` in the
// SDK's ppapi_main or ppapi_cpp) never returns while the module lives: it calls
// `PPP_InitializeModule`, creates the instance (`PPP_Instance.DidCreate` with the
// embed's attributes, then `DidChangeView`), tells the page the module loaded, and then
// runs the main thread's message loop: completion callbacks when they are due, and what
// the page sends (messages for `PPP_Messaging.HandleMessage`, view and focus changes,
// callbacks posted from other threads) through the mailbox (see channel.mjs), waiting on
// it with `Atomics.wait` in between. Every `PPB_*` function is a host import of the
// module (see the translator's `irt.rs`); an interface table is an array of their guest
// function values, made in guest memory the first time it is asked for.

import { MailboxReader, decode } from './channel.mjs';
import { HostHeap } from './heap.mjs';
import { Vars } from './vars.mjs';
import { irtValue } from '../irt/query.mjs';
import * as core from './core.mjs';
import * as instance from './instance.mjs';
import * as graphics from './graphics.mjs';
import * as files from './files.mjs';
import { SharedVars } from './sharedvars.mjs';
import * as input from './input.mjs';
import * as websocket from './websocket.mjs';
import * as urlloader from './urlloader.mjs';

/**
 * What the page gives a module's threads.
 * @typedef {object} PpapiData
 * @property {SharedArrayBuffer} mailbox
 * @property {number} instance  the `PP_Instance`
 * @property {[string, string][]} attrs  the embed's attributes, for DidCreate
 * @property {number[]} view  the element's rectangle: x, y, width, height
 */

/** `PP_Module` of the (only) module. */
const MODULE = 1;

/** The interfaces offered: name -> the import names of its slots, in order. */
const INTERFACES = new Map([
  ['PPB_Core;1.0', ['ppb_core_add_ref_resource', 'ppb_core_release_resource', 'ppb_core_get_time',
    'ppb_core_get_time_ticks', 'ppb_core_call_on_main_thread', 'ppb_core_is_main_thread']],
  ['PPB_Instance;1.0', ['ppb_instance_bind_graphics', 'ppb_instance_is_full_frame']],
  ['PPB_Messaging;1.0', ['ppb_messaging_post_message']],
  ['PPB_Messaging;1.2', ['ppb_messaging_post_message', 'ppb_messaging_register_message_handler',
    'ppb_messaging_unregister_message_handler']],
  ['PPB_Var;1.0', ['ppb_var_add_ref', 'ppb_var_release', 'ppb_var_var_from_utf8_1_0', 'ppb_var_var_to_utf8']],
  ['PPB_Var;1.1', ['ppb_var_add_ref', 'ppb_var_release', 'ppb_var_var_from_utf8', 'ppb_var_var_to_utf8']],
  ['PPB_Var;1.2', ['ppb_var_add_ref', 'ppb_var_release', 'ppb_var_var_from_utf8', 'ppb_var_var_to_utf8',
    'ppb_var_var_to_resource', 'ppb_var_var_from_resource']],
  ['PPB_VarArrayBuffer;1.0', ['ppb_var_array_buffer_create', 'ppb_var_array_buffer_byte_length',
    'ppb_var_array_buffer_map', 'ppb_var_array_buffer_unmap']],
  ['PPB_VarArray;1.0', ['ppb_var_array_create', 'ppb_var_array_get', 'ppb_var_array_set', 'ppb_var_array_get_length',
    'ppb_var_array_set_length']],
  ['PPB_VarDictionary;1.0', ['ppb_var_dictionary_create', 'ppb_var_dictionary_get', 'ppb_var_dictionary_set',
    'ppb_var_dictionary_delete', 'ppb_var_dictionary_has_key', 'ppb_var_dictionary_get_keys']],
  ['PPB_Console;1.0', ['ppb_console_log', 'ppb_console_log_with_source']],
  ['PPB_View;1.0', instance.VIEW_1_2.slice(0, 6)],
  ['PPB_View;1.1', instance.VIEW_1_2.slice(0, 8)],
  ['PPB_View;1.2', instance.VIEW_1_2],
  ['PPB_MessageLoop;1.0', ['ppb_message_loop_create', 'ppb_message_loop_get_for_main_thread',
    'ppb_message_loop_get_current', 'ppb_message_loop_attach_to_current_thread', 'ppb_message_loop_run',
    'ppb_message_loop_post_work', 'ppb_message_loop_post_quit']],
  ['PPB_Graphics2D;1.0', graphics.GRAPHICS_2D_1_1.slice(0, 7)],
  ['PPB_Graphics2D;1.1', graphics.GRAPHICS_2D_1_1],
  ['PPB_ImageData;1.0', graphics.IMAGE_DATA_1_0],
  ['PPB_FileSystem;1.0', files.FILE_SYSTEM_1_0],
  ['PPB_FileRef;1.0', files.FILE_REF_1_0],
  ['PPB_FileRef;1.1', files.FILE_REF_1_1],
  ['PPB_FileRef;1.2', files.FILE_REF_1_2],
  ['PPB_FileIO;1.0', files.FILE_IO_1_1.slice(0, 10)],
  ['PPB_FileIO;1.1', files.FILE_IO_1_1],
  ['PPB_InputEvent;1.0', input.INPUT_EVENT_1_0],
  ['PPB_MouseInputEvent;1.0', input.MOUSE_1_0],
  ['PPB_MouseInputEvent;1.1', input.MOUSE_1_1],
  ['PPB_WheelInputEvent;1.0', input.WHEEL_1_0],
  ['PPB_KeyboardInputEvent;1.0', input.KEYBOARD_1_0],
  ['PPB_KeyboardInputEvent;1.2', input.KEYBOARD_1_2],
  ['PPB_TouchInputEvent;1.0', input.TOUCH_1_0],
  ['PPB_WebSocket;1.0', websocket.WEBSOCKET_1_0],
  ['PPB_URLLoader;1.0', urlloader.URL_LOADER_1_0],
  ['PPB_URLRequestInfo;1.0', urlloader.URL_REQUEST_INFO_1_0],
  ['PPB_URLResponseInfo;1.0', urlloader.URL_RESPONSE_INFO_1_0],
]);

/**
 * One thread's PPAPI state, shared by the interface groups.
 */
export class Ppapi {
  /**
   * @param {import('../worker.mjs').Context} ctx
   * @param {PpapiData} data
   * @param {boolean} main  the module's main thread
   * @param {(m: any) => void} post  to the page
   */
  constructor(ctx, data, main, post) {
    this.ctx = ctx;
    this.data = data;
    this.main = main;
    /** Posts a PPAPI message to the page. */
    this.post = (/** @type {any} */ m) => post({ type: 'ppapi', ...m });
    this.heap = new HostHeap(ctx);
    this.vars = new Vars(ctx, this.heap, data.mailbox);
    this.vars.shared = new SharedVars(this.post);
    /** @type {Map<string, number>} interface tables made so far */
    this.tables = new Map();
    /** @type {Map<number, {refs: number, kind: string, [k: string]: any}>} */
    this.resources = new Map();
    this.loops = new core.Loops(this);
    /** `PPP_Instance` and `PPP_Messaging`, once known. */
    this.pppInstance = 0;
    this.pppMessaging = 0;
    /** A reference count change for a resource this thread does not hold (a file's). */
    this.foreignRef = (/** @type {number} */ id, /** @type {number} */ delta) => files.foreignRef(this, id, delta);
    /** `PPP_InputEvent`, once known. */
    this.pppInputEvent = 0;
  }

  /**
   * Calls the guest function whose value is `fv`.
   * @param {number} fv @param {...(number | bigint)} args
   * @returns {any}
   */
  call(fv, ...args) {
    fv >>>= 0;
    const table = this.ctx.exports().table;
    const index = (fv - 16) / 16;
    const f = fv % 16 === 0 && index >= 0 && index < table.length ? table.get(index) : null;
    if (!f) throw new Error(`the module gave PPAPI a bad function pointer (${fv})`);
    return f(...args);
  }

  /**
   * Runs `f` with `size` bytes of the guest's stack (below its stack pointer).
   * @template T
   * @param {number} size @param {(at: number) => T} f
   * @returns {T}
   */
  withStack(size, f) {
    const exports = this.ctx.exports();
    const sp = exports.sp.value;
    const at = (sp - size) & ~15;
    exports.sp.value = at;
    try {
      return f(at);
    } finally {
      exports.sp.value = sp;
    }
  }

  /**
   * Copies strings to the guest's stack and runs `f` with their addresses.
   * @template T
   * @param {string[]} strings @param {(addrs: number[]) => T} f
   * @returns {T}
   */
  withStrings(strings, f) {
    const enc = new TextEncoder();
    const bytes = strings.map((s) => enc.encode(s));
    const size = bytes.reduce((n, b) => n + b.length + 1, 0);
    return this.withStack(size, (at) => {
      const addrs = [];
      for (const b of bytes) {
        this.ctx.mem.write(at, b);
        this.ctx.mem.u8[at + b.length] = 0;
        addrs.push(at);
        at += b.length + 1;
      }
      return f(addrs);
    });
  }

  /**
   * A new resource with one reference.
   * @param {string} kind @param {Record<string, any>} [fields]
   */
  resource(kind, fields = {}) {
    const id = core.nextResource(this);
    this.resources.set(id, { refs: 1, kind, ...fields });
    return id;
  }

  /**
   * The interface table of `name`, or 0 (with a line on the page's console) if it is
   * not offered.
   * @param {string} name
   */
  getInterface(name) {
    const made = this.tables.get(name);
    if (made !== undefined) return made;
    const slots = INTERFACES.get(name);
    if (!slots) {
      this.post({ op: 'console', level: 'warn', text: `pnacl: the module asked for ${name}, which pnacl web does `
        + 'not offer yet: PPB_GetInterface returned NULL' });
      this.tables.set(name, 0);
      return 0;
    }
    const at = this.heap.alloc(slots.length * 4);
    slots.forEach((s, k) => this.ctx.mem.setU32(at + 4 * k, irtValue(this.ctx, s)));
    this.tables.set(name, at);
    return at;
  }

  /**
   * A PPP interface of the module, or 0.
   * @param {number} getInterface @param {string} name
   */
  moduleInterface(getInterface, name) {
    return this.withStrings([name], ([at]) => this.call(getInterface, at) >>> 0);
  }

  /**
   * `int ppapi_start(const struct PP_StartFunctions *)`: runs the module; returns only
   * if it fails to start.
   * @param {number} start
   */
  start(start) {
    const { mem } = this.ctx;
    const initializeModule = mem.u32(start), getInterface = mem.u32(start + 8);
    const failed = (/** @type {string} */ why) => {
      this.post({ op: 'load-error', message: why });
      return 1;
    };
    const r = this.call(initializeModule, MODULE, irtValue(this.ctx, 'ppb_get_interface')) | 0;
    if (r !== 0) return failed(`PPP_InitializeModule failed (${r})`);
    this.pppInstance = this.moduleInterface(getInterface, 'PPP_Instance;1.1')
      || this.moduleInterface(getInterface, 'PPP_Instance;1.0');
    if (!this.pppInstance) return failed('the module has no PPP_Instance interface');
    this.pppMessaging = this.moduleInterface(getInterface, 'PPP_Messaging;1.0');
    this.pppInputEvent = this.moduleInterface(getInterface, 'PPP_InputEvent;0.1');
    const inst = this.data.instance;
    const attrs = this.data.attrs;
    const created = this.withStrings(attrs.flatMap(([k, v]) => [k, v]), (addrs) => this.withStack(attrs.length * 8, (arrays) => {
      addrs.forEach((a, k) => mem.setU32(arrays + 4 * ((k >> 1) + (k & 1) * attrs.length), a));
      return this.call(mem.u32(this.pppInstance), inst, attrs.length, arrays, arrays + attrs.length * 4);
    }));
    if (!created) return failed('PPP_Instance.DidCreate failed');
    this.changeView(this.data.view);
    this.post({ op: 'loaded' });
    const reader = new MailboxReader(this.data.mailbox);
    for (;;) {
      const wait = this.loops.runDue(this.loops.main);
      const record = reader.take(wait);
      if (record) this.dispatch(record);
    }
  }

  /** @param {number[]} rect  x, y, width, height */
  changeView(rect) {
    const view = this.resource('view', { rect });
    this.call(this.ctx.mem.u32(this.pppInstance + 8), this.data.instance, view);
    core.releaseResource(this, view);
  }

  /**
   * Handles what the page sent.
   * @param {Uint8Array} record
   */
  dispatch(record) {
    const [kind, ...args] = decode(record, (bytes) => ({ isVar: true, ...this.vars.arrayBuffer(bytes) }));
    switch (kind) {
      case 'message': {
        const v = this.vars.fromValue(args[0]);
        if (this.pppMessaging) {
          this.withStack(16, (at) => {
            this.vars.write(at, v);
            this.call(this.ctx.mem.u32(this.pppMessaging), this.data.instance, at);
          });
        }
        this.vars.release(v);
        break;
      }
      case 'work':
        this.call(args[0], args[1], args[2]);
        break;
      case 'view':
        this.changeView(args);
        break;
      case 'input':
        input.deliver(this, args);
        break;
      case 'websocket':
        websocket.received(this, args);
        break;
      case 'url':
        urlloader.received(this, args);
        break;
      case 'flushed':
        graphics.flushed(this, args[0], args[1], args[2]);
        break;
      case 'focus':
        this.call(this.ctx.mem.u32(this.pppInstance + 12), this.data.instance, args[0] ? 1 : 0);
        break;
      default:
        break;
    }
  }
}

/**
 * The host imports of a browser program's thread: the PPAPI hook, `PPB_GetInterface` and
 * every PPB function.
 * @param {import('../worker.mjs').Context} ctx
 * @param {PpapiData} data
 * @param {boolean} main
 * @param {(m: any) => void} post  to the page
 */
export function functions(ctx, data, main, post) {
  const p = new Ppapi(ctx, data, main, post);
  const dec = new TextDecoder();
  return {
    ppapi_start: (/** @type {number} */ start) => p.start(start),
    ppapi_register_thread_creator: () => {},
    ppb_get_interface: (/** @type {number} */ name) => {
      let s;
      try {
        s = dec.decode(ctx.mem.cstr(name, 256));
      } catch {
        return 0;
      }
      return p.getInterface(s);
    },
    ...p.vars.functions((id) => core.addRefResource(p, id)),
    ...core.functions(p),
    ...instance.functions(p),
    ...graphics.functions(p),
    ...files.functions(p),
    ...input.functions(p),
    ...websocket.functions(p),
    ...urlloader.functions(p),
  };
}
