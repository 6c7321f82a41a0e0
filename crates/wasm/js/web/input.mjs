// `PPB_InputEvent;1.0`, `PPB_MouseInputEvent` (1.0, 1.1), `PPB_WheelInputEvent;1.0`,
// `PPB_KeyboardInputEvent` (1.0, 1.2), `PPB_TouchInputEvent;1.0` and the module's
// `PPP_InputEvent;0.1`.
//
// The instance asks for classes of events (`RequestInputEvents`, or
// `RequestFilteringInputEvents`); the page is told, listens for them on the element (or
// the canvas in its place) and sends each, as a record `['input', class, fields...]`,
// to the main thread, which makes an event resource, calls `HandleInputEvent` and
// releases it. Events of classes requested without filtering are taken from the page
// (`preventDefault`), as Chrome did; the page cannot wait for a filtering module's
// answer (it runs in another thread), so filtered events always go on to the page too
// (a listed limit).

import { VAR } from './channel.mjs';
import { PP, guarded, releaseResource } from './core.mjs';

/** `PP_InputEvent_Class`. */
export const CLASS = { MOUSE: 1, KEYBOARD: 2, WHEEL: 4, TOUCH: 8, IME: 16 };

/** `PPB_InputEvent;1.0`'s slots. */
export const INPUT_EVENT_1_0 = ['ppb_input_event_request_input_events', 'ppb_input_event_request_filtering_input_events',
  'ppb_input_event_clear_input_event_request', 'ppb_input_event_is_input_event', 'ppb_input_event_get_type',
  'ppb_input_event_get_time_stamp', 'ppb_input_event_get_modifiers'];
/** `PPB_MouseInputEvent;1.1`'s slots; 1.0 has the first five, with its own Create. */
export const MOUSE_1_1 = ['ppb_mouse_input_event_create', 'ppb_mouse_input_event_is_mouse_input_event',
  'ppb_mouse_input_event_get_button', 'ppb_mouse_input_event_get_position', 'ppb_mouse_input_event_get_click_count',
  'ppb_mouse_input_event_get_movement'];
export const MOUSE_1_0 = ['ppb_mouse_input_event_create_1_0', ...MOUSE_1_1.slice(1, 5)];
/** `PPB_WheelInputEvent;1.0`'s slots. */
export const WHEEL_1_0 = ['ppb_wheel_input_event_create', 'ppb_wheel_input_event_is_wheel_input_event',
  'ppb_wheel_input_event_get_delta', 'ppb_wheel_input_event_get_ticks', 'ppb_wheel_input_event_get_scroll_by_page'];
/** `PPB_KeyboardInputEvent;1.2`'s slots; 1.0 has the first four, with its own Create. */
export const KEYBOARD_1_2 = ['ppb_keyboard_input_event_create', 'ppb_keyboard_input_event_is_keyboard_input_event',
  'ppb_keyboard_input_event_get_key_code', 'ppb_keyboard_input_event_get_character_text',
  'ppb_keyboard_input_event_get_code'];
export const KEYBOARD_1_0 = ['ppb_keyboard_input_event_create_1_0', ...KEYBOARD_1_2.slice(1, 4)];
/** `PPB_TouchInputEvent;1.0`'s slots. */
export const TOUCH_1_0 = ['ppb_touch_input_event_create', 'ppb_touch_input_event_add_touch_point',
  'ppb_touch_input_event_is_touch_input_event', 'ppb_touch_input_event_get_touch_count',
  'ppb_touch_input_event_get_touch_by_index', 'ppb_touch_input_event_get_touch_by_id'];

/** A touch list's most points (a guest's `AddTouchPoint` beyond it is ignored). */
const MAX_TOUCHES = 64;

/**
 * An event resource's fields.
 * @typedef {object} InputEvent
 * @property {number} cls  its `PP_InputEvent_Class`
 * @property {number} type  `PP_InputEvent_Type`
 * @property {number} time  seconds, on `GetTimeTicks`'s clock
 * @property {number} modifiers  `PP_InputEvent_Modifier` bits
 * @property {number} [button] @property {number[]} [position] @property {number} [clicks]
 * @property {number[]} [movement] @property {number[]} [delta] @property {number[]} [ticks]
 * @property {boolean} [byPage] @property {number} [keyCode] @property {string} [text] @property {string} [code]
 * @property {number[][][]} [touches]  `PP_TouchListType` -> its points: id, x, y, radius x, radius y,
 *   angle, pressure
 */

/**
 * The page sent an event: the module handles it.
 * @param {import('./ppapi.mjs').Ppapi} p
 * @param {any[]} args  class, type, time, modifiers, then the class's fields
 */
export function deliver(p, args) {
  if (!p.pppInputEvent) return;
  const [cls, type, when, modifiers, ...rest] = args;
  // The page's clock (milliseconds since the epoch) on this thread's `GetTimeTicks`.
  const time = (when - performance.timeOrigin) / 1000;
  /** @type {InputEvent} */
  const e = { cls, type, time, modifiers };
  if (cls === CLASS.MOUSE) [e.button, e.position, e.clicks, e.movement] = rest;
  else if (cls === CLASS.WHEEL) [e.delta, e.ticks, e.byPage] = rest;
  else if (cls === CLASS.KEYBOARD) [e.keyCode, e.text, e.code] = rest;
  else if (cls === CLASS.TOUCH) e.touches = rest.slice(0, 3).map((l) => l.slice(0, MAX_TOUCHES));
  else return;
  const id = p.resource('input-event', e);
  try {
    p.call(p.ctx.mem.u32(p.pppInputEvent), p.data.instance, id);
  } finally {
    releaseResource(p, id);
  }
}

/** @param {import('./ppapi.mjs').Ppapi} p */
export function functions(p) {
  const { mem } = p.ctx;
  /** @returns {InputEvent | undefined} */
  const event = (/** @type {number} */ r, /** @type {number} */ cls = 0) => {
    const res = /** @type {any} */ (p.resources.get(r));
    return res?.kind === 'input-event' && (cls === 0 || res.cls === cls) ? res : undefined;
  };
  const points = (/** @type {number} */ at) => {
    if (!at) return [0, 0];
    mem.check(at, 8);
    return [mem.dv.getInt32(at, true), mem.dv.getInt32(at + 4, true)];
  };
  const floats = (/** @type {number} */ at) => {
    if (!at) return [0, 0];
    mem.check(at, 8);
    return [mem.dv.getFloat32(at, true), mem.dv.getFloat32(at + 4, true)];
  };
  const putInts = (/** @type {number} */ at, /** @type {number[] | undefined} */ v) => {
    mem.check(at, 8);
    mem.dv.setInt32(at, v?.[0] ?? 0, true);
    mem.dv.setInt32(at + 4, v?.[1] ?? 0, true);
  };
  const putFloats = (/** @type {number} */ at, /** @type {number[] | undefined} */ v) => {
    mem.check(at, 8);
    mem.dv.setFloat32(at, v?.[0] ?? 0, true);
    mem.dv.setFloat32(at + 4, v?.[1] ?? 0, true);
  };
  /** Writes a `PP_TouchPoint` (28 bytes; zeros for none). */
  const putTouch = (/** @type {number} */ at, /** @type {number[] | undefined} */ t) => {
    mem.check(at, 28);
    mem.dv.setUint32(at, t?.[0] ?? 0, true);
    for (let k = 1; k < 7; k++) mem.dv.setFloat32(at + 4 * k, t?.[k] ?? 0, true);
  };
  const keyboard = (/** @type {number} */ type, /** @type {number} */ time, /** @type {number} */ modifiers,
    /** @type {number} */ keyCode, /** @type {number} */ textAt, /** @type {number} */ codeAt) => {
    const str = (/** @type {number} */ at) => {
      const v = at ? p.vars.read(at) : null;
      return v && v.t === VAR.STRING ? p.vars.toValue(v) : '';
    };
    return p.resource('input-event', { cls: CLASS.KEYBOARD, type, time, modifiers, keyCode, text: str(textAt),
      code: str(codeAt) });
  };
  /** The classes asked for: all, and those with filtering. */
  let all = 0, filtered = 0;
  const tell = () => p.post({ op: 'input-classes', all, filtered });
  /** @param {number} classes @param {boolean} filtering */
  const request = (classes, filtering) => {
    const known = CLASS.MOUSE | CLASS.KEYBOARD | CLASS.WHEEL | CLASS.TOUCH;
    all |= classes & known;
    filtered = filtering ? filtered | (classes & known) : filtered & ~classes;
    tell();
    return classes & ~known ? PP.ERROR_NOTSUPPORTED : PP.OK;
  };
  const mouse = (/** @type {number} */ type, /** @type {number} */ time, /** @type {number} */ modifiers,
    /** @type {number} */ button, /** @type {number} */ position, /** @type {number} */ clicks,
    /** @type {number} */ movement) => p.resource('input-event', { cls: CLASS.MOUSE, type, time, modifiers, button,
    position: points(position), clicks, movement: points(movement) });
  const fns = {
    ppb_input_event_request_input_events: (/** @type {number} */ _i, /** @type {number} */ c) => request(c, false),
    ppb_input_event_request_filtering_input_events: (/** @type {number} */ _i, /** @type {number} */ c) => request(c, true),
    ppb_input_event_clear_input_event_request: (/** @type {number} */ _i, /** @type {number} */ c) => {
      all &= ~c;
      filtered &= ~c;
      tell();
    },
    ppb_input_event_is_input_event: (/** @type {number} */ r) => (event(r) ? 1 : 0),
    ppb_input_event_get_type: (/** @type {number} */ r) => event(r)?.type ?? -1,
    ppb_input_event_get_time_stamp: (/** @type {number} */ r) => event(r)?.time ?? 0,
    ppb_input_event_get_modifiers: (/** @type {number} */ r) => event(r)?.modifiers ?? 0,

    ppb_mouse_input_event_create_1_0: (/** @type {number} */ _i, /** @type {number} */ type, /** @type {number} */ time,
      /** @type {number} */ modifiers, /** @type {number} */ button, /** @type {number} */ position,
      /** @type {number} */ clicks) => mouse(type, time, modifiers, button, position, clicks, 0),
    ppb_mouse_input_event_create: (/** @type {number} */ _i, /** @type {number} */ type, /** @type {number} */ time,
      /** @type {number} */ modifiers, /** @type {number} */ button, /** @type {number} */ position,
      /** @type {number} */ clicks, /** @type {number} */ movement) =>
      mouse(type, time, modifiers, button, position, clicks, movement),
    ppb_mouse_input_event_is_mouse_input_event: (/** @type {number} */ r) => (event(r, CLASS.MOUSE) ? 1 : 0),
    ppb_mouse_input_event_get_button: (/** @type {number} */ r) => event(r, CLASS.MOUSE)?.button ?? -1,
    ppb_mouse_input_event_get_position: (/** @type {number} */ out, /** @type {number} */ r) =>
      putInts(out, event(r, CLASS.MOUSE)?.position),
    ppb_mouse_input_event_get_click_count: (/** @type {number} */ r) => event(r, CLASS.MOUSE)?.clicks ?? 0,
    ppb_mouse_input_event_get_movement: (/** @type {number} */ out, /** @type {number} */ r) =>
      putInts(out, event(r, CLASS.MOUSE)?.movement),

    ppb_wheel_input_event_create: (/** @type {number} */ _i, /** @type {number} */ time, /** @type {number} */ modifiers,
      /** @type {number} */ delta, /** @type {number} */ ticks, /** @type {number} */ byPage) =>
      p.resource('input-event', { cls: CLASS.WHEEL, type: 5, time, modifiers, delta: floats(delta), ticks: floats(ticks),
        byPage: byPage !== 0 }),
    ppb_wheel_input_event_is_wheel_input_event: (/** @type {number} */ r) => (event(r, CLASS.WHEEL) ? 1 : 0),
    ppb_wheel_input_event_get_delta: (/** @type {number} */ out, /** @type {number} */ r) =>
      putFloats(out, event(r, CLASS.WHEEL)?.delta),
    ppb_wheel_input_event_get_ticks: (/** @type {number} */ out, /** @type {number} */ r) =>
      putFloats(out, event(r, CLASS.WHEEL)?.ticks),
    ppb_wheel_input_event_get_scroll_by_page: (/** @type {number} */ r) => (event(r, CLASS.WHEEL)?.byPage ? 1 : 0),

    ppb_keyboard_input_event_create_1_0: (/** @type {number} */ _i, /** @type {number} */ type,
      /** @type {number} */ time, /** @type {number} */ modifiers, /** @type {number} */ keyCode,
      /** @type {number} */ textAt) => keyboard(type, time, modifiers, keyCode, textAt, 0),
    ppb_keyboard_input_event_create: (/** @type {number} */ _i, /** @type {number} */ type, /** @type {number} */ time,
      /** @type {number} */ modifiers, /** @type {number} */ keyCode, /** @type {number} */ textAt,
      /** @type {number} */ codeAt) => keyboard(type, time, modifiers, keyCode, textAt, codeAt),
    ppb_keyboard_input_event_is_keyboard_input_event: (/** @type {number} */ r) => (event(r, CLASS.KEYBOARD) ? 1 : 0),
    ppb_keyboard_input_event_get_key_code: (/** @type {number} */ r) => event(r, CLASS.KEYBOARD)?.keyCode ?? 0,
    ppb_keyboard_input_event_get_character_text: (/** @type {number} */ out, /** @type {number} */ r) => {
      const e = event(r, CLASS.KEYBOARD);
      p.vars.write(out, e && e.type === 9 ? p.vars.string(e.text ?? '') : { t: VAR.UNDEFINED, v: 0 });
    },
    ppb_keyboard_input_event_get_code: (/** @type {number} */ out, /** @type {number} */ r) => {
      const e = event(r, CLASS.KEYBOARD);
      p.vars.write(out, e ? p.vars.string(e.code ?? '') : { t: VAR.UNDEFINED, v: 0 });
    },

    ppb_touch_input_event_create: (/** @type {number} */ _i, /** @type {number} */ type, /** @type {number} */ time,
      /** @type {number} */ modifiers) =>
      p.resource('input-event', { cls: CLASS.TOUCH, type, time, modifiers, touches: [[], [], []] }),
    ppb_touch_input_event_add_touch_point: (/** @type {number} */ r, /** @type {number} */ list,
      /** @type {number} */ at) => {
      const l = event(r, CLASS.TOUCH)?.touches?.[list];
      if (!l || !at || l.length >= MAX_TOUCHES) return;
      mem.check(at, 28);
      const f = (/** @type {number} */ k) => mem.dv.getFloat32(at + k, true);
      l.push([mem.u32(at), f(4), f(8), f(12), f(16), f(20), f(24)]);
    },
    ppb_touch_input_event_is_touch_input_event: (/** @type {number} */ r) => (event(r, CLASS.TOUCH) ? 1 : 0),
    ppb_touch_input_event_get_touch_count: (/** @type {number} */ r, /** @type {number} */ list) =>
      event(r, CLASS.TOUCH)?.touches?.[list]?.length ?? 0,
    ppb_touch_input_event_get_touch_by_index: (/** @type {number} */ out, /** @type {number} */ r,
      /** @type {number} */ list, /** @type {number} */ index) =>
      putTouch(out, event(r, CLASS.TOUCH)?.touches?.[list]?.[index >>> 0]),
    ppb_touch_input_event_get_touch_by_id: (/** @type {number} */ out, /** @type {number} */ r,
      /** @type {number} */ list, /** @type {number} */ id) =>
      putTouch(out, event(r, CLASS.TOUCH)?.touches?.[list]?.find((t) => t[0] === id >>> 0)),
  };
  guarded(fns, Object.keys(fns).filter((k) => !k.startsWith('ppb_input_event_')), 0);
  return fns;
}
