// The instance's interfaces: `PPB_Instance;1.0`, `PPB_Messaging` (1.0, 1.2),
// `PPB_Console;1.0` and `PPB_View` (1.0, 1.1, 1.2).
//
// `PostMessage` converts the var to a JavaScript value here and the page fires the
// embed's `message` event with it; a console line goes to the page's console. A view is
// the element's rectangle (CSS pixels, device scale 1) when the page last told the
// module. `BindGraphics` takes a Graphics2D (graphics.mjs); the page then shows its
// flushes on a canvas in place of the element.

import { PP } from './core.mjs';

/** `PPB_View;1.2`'s slots; 1.0 has the first six, 1.1 the first eight. */
export const VIEW_1_2 = ['ppb_view_is_view', 'ppb_view_get_rect', 'ppb_view_is_fullscreen', 'ppb_view_is_visible',
  'ppb_view_is_page_visible', 'ppb_view_get_clip_rect', 'ppb_view_get_device_scale', 'ppb_view_get_css_scale',
  'ppb_view_get_scroll_offset'];

/** `PP_LogLevel` -> the console method. */
const LEVELS = ['info', 'log', 'warn', 'error'];

/** @param {import('./ppapi.mjs').Ppapi} p */
export function functions(p) {
  const { mem } = p.ctx;
  const vars = p.vars;
  const view = (/** @type {number} */ r) => {
    const res = p.resources.get(r);
    return res?.kind === 'view' ? res : undefined;
  };
  /** Writes a `PP_Rect` (x, y, width, height: int32 each). */
  const putRect = (/** @type {number} */ at, /** @type {number[]} */ rect) => {
    mem.check(at, 16);
    rect.forEach((v, k) => mem.dv.setInt32(at + 4 * k, v | 0, true));
  };
  const text = (/** @type {import('./vars.mjs').Var} */ v) => {
    const x = vars.toValue(v);
    return typeof x === 'string' ? x : JSON.stringify(x) ?? String(x);
  };
  return {
    ppb_instance_bind_graphics: (/** @type {number} */ _instance, /** @type {number} */ device) => {
      const g = p.resources.get(device);
      if (device !== 0 && g?.kind !== 'graphics-2d') return 0;
      p.post({ op: 'bind', graphics: device, width: g?.width ?? 0, height: g?.height ?? 0 });
      return 1;
    },
    ppb_instance_is_full_frame: () => 0,
    ppb_messaging_post_message: (/** @type {number} */ _instance, /** @type {number} */ v) => {
      p.post({ op: 'message', data: vars.toValue(vars.read(v)) });
    },
    ppb_messaging_register_message_handler: () => PP.ERROR_NOTSUPPORTED,
    ppb_messaging_unregister_message_handler: () => {},
    ppb_console_log: (/** @type {number} */ _instance, /** @type {number} */ level, /** @type {number} */ v) => {
      p.post({ op: 'console', level: LEVELS[level] ?? 'log', text: text(vars.read(v)) });
    },
    ppb_console_log_with_source: (/** @type {number} */ _instance, /** @type {number} */ level, /** @type {number} */ source,
      /** @type {number} */ v) => {
      p.post({ op: 'console', level: LEVELS[level] ?? 'log', text: `${text(vars.read(source))}: ${text(vars.read(v))}` });
    },
    ppb_view_is_view: (/** @type {number} */ r) => (view(r) ? 1 : 0),
    ppb_view_get_rect: (/** @type {number} */ r, /** @type {number} */ at) => {
      const v = view(r);
      if (!v) return 0;
      putRect(at, v.rect);
      return 1;
    },
    ppb_view_is_fullscreen: () => 0,
    ppb_view_is_visible: (/** @type {number} */ r) => (view(r) ? 1 : 0),
    ppb_view_is_page_visible: (/** @type {number} */ r) => (view(r) ? 1 : 0),
    ppb_view_get_clip_rect: (/** @type {number} */ r, /** @type {number} */ at) => {
      const v = view(r);
      if (!v) return 0;
      putRect(at, [0, 0, v.rect[2], v.rect[3]]);
      return 1;
    },
    ppb_view_get_device_scale: (/** @type {number} */ r) => (view(r) ? 1 : 0),
    ppb_view_get_css_scale: (/** @type {number} */ r) => (view(r) ? 1 : 0),
    ppb_view_get_scroll_offset: (/** @type {number} */ r, /** @type {number} */ at) => {
      if (!view(r)) return 0;
      mem.check(at, 8);
      mem.dv.setBigInt64(at, 0n, true);
      return 1;
    },
  };
}
