// The page's side of input events (see input.mjs): listens on the element, and on the
// canvas in its place, for the classes of events the instance asked for, and sends each
// to the module as PPAPI describes it: mouse (down, up, move, enter, leave, context
// menu; the position in CSS pixels from the element's top left corner), wheel (the
// delta in pixels, positive up and left, a line being 40 pixels and a tick 100 pixels;
// by page when the browser scrolls by pages), keyboard (key down with the key's Windows
// virtual-key code, key up, and a character event after a key down that types text),
// touch (start, move, end, cancel; each of the three lists with its points' ids,
// positions from the element's top left corner, radii, angles and pressures).
// As in Chrome, a click gives the element the keyboard's focus. Events of classes asked
// for without filtering stop here (`preventDefault`); filtered ones also go on to the
// page.

import { encode } from './channel.mjs';

/** `PP_InputEvent_Class`. */
const MOUSE = 1, KEYBOARD = 2, WHEEL = 4, TOUCH = 8;

/** `PP_InputEvent_Type` of each DOM event. */
const TYPES = { mousedown: 0, mouseup: 1, mousemove: 2, mouseenter: 3, mouseleave: 4, wheel: 5, keydown: 7, keyup: 8,
  contextmenu: 10, touchstart: 15, touchmove: 16, touchend: 17, touchcancel: 18 };
/** `PP_INPUTEVENT_TYPE_CHAR`. */
const CHAR = 9;

/**
 * `PP_InputEvent_Modifier` bits of a DOM event.
 * @param {any} e
 */
function modifiers(e) {
  let m = (e.shiftKey ? 1 : 0) | (e.ctrlKey ? 2 : 0) | (e.altKey ? 4 : 0) | (e.metaKey ? 8 : 0);
  if (e instanceof KeyboardEvent) {
    m |= (e.location === 3 ? 16 : 0) | (e.repeat ? 32 : 0) | (e.location === 1 ? 2048 : 0) | (e.location === 2 ? 4096 : 0);
  }
  const buttons = e.buttons ?? 0;
  m |= (buttons & 1 ? 64 : 0) | (buttons & 4 ? 128 : 0) | (buttons & 2 ? 256 : 0);
  if (e.getModifierState?.('CapsLock')) m |= 512;
  if (e.getModifierState?.('NumLock')) m |= 1024;
  return m;
}

export class PageInput {
  /**
   * @param {(record: Uint8Array) => void} send  to the module's main thread
   * @param {() => boolean} live  the module has loaded and not ended
   */
  constructor(send, live) {
    this.send = send;
    this.live = live;
    /** The classes asked for, and those with filtering. */
    this.all = 0;
    this.filtered = 0;
    /** @type {WeakSet<Element>} */
    this.attached = new WeakSet();
  }

  /** @param {{all: number, filtered: number}} m */
  classes(m) {
    this.all = m.all;
    this.filtered = m.filtered;
  }

  /**
   * Listens on `target` (the element, or the canvas in its place).
   * @param {HTMLElement} target
   */
  attach(target) {
    if (this.attached.has(target)) return;
    this.attached.add(target);
    if (!target.hasAttribute('tabindex')) target.tabIndex = 0;
    for (const type of ['mousedown', 'mouseup', 'mousemove', 'mouseenter', 'mouseleave', 'contextmenu']) {
      target.addEventListener(type, (e) => this.mouse(target, /** @type {MouseEvent} */ (e)));
    }
    target.addEventListener('wheel', (e) => this.wheel(e), { passive: false });
    target.addEventListener('keydown', (e) => this.key(e));
    target.addEventListener('keyup', (e) => this.key(e));
    for (const type of ['touchstart', 'touchmove', 'touchend', 'touchcancel']) {
      target.addEventListener(type, (e) => this.touch(target, /** @type {TouchEvent} */ (e)), { passive: false });
    }
  }

  /**
   * Sends an event of class `cls` if it was asked for; true if it stops here.
   * @param {number} cls @param {Event} e @param {any[]} fields
   */
  deliver(cls, e, fields) {
    if (!(this.all & cls) || !this.live()) return false;
    const time = (performance.timeOrigin + e.timeStamp);
    this.send(encode(['input', cls, fields[0], time, modifiers(e), ...fields.slice(1)]));
    if (!(this.filtered & cls)) e.preventDefault();
    return true;
  }

  /** @param {HTMLElement} target @param {MouseEvent} e */
  mouse(target, e) {
    if (e.type === 'mousedown') target.focus();
    const r = target.getBoundingClientRect();
    const moving = e.type === 'mousemove' || e.type === 'mouseenter' || e.type === 'mouseleave';
    this.deliver(MOUSE, e, [TYPES[/** @type {keyof TYPES} */ (e.type)], moving ? -1 : e.button,
      [Math.round(e.clientX - r.left), Math.round(e.clientY - r.top)], moving ? 0 : e.detail,
      [Math.round(e.movementX), Math.round(e.movementY)]]);
  }

  /** @param {WheelEvent} e */
  wheel(e) {
    const unit = e.deltaMode === 1 ? 40 : 1;
    const byPage = e.deltaMode === 2;
    const delta = [-e.deltaX * unit, -e.deltaY * unit];
    const ticks = byPage ? [-e.deltaX, -e.deltaY] : delta.map((d) => d / 100);
    this.deliver(WHEEL, e, [TYPES.wheel, delta, ticks, byPage]);
  }

  /** @param {KeyboardEvent} e */
  key(e) {
    const type = TYPES[/** @type {'keydown' | 'keyup'} */ (e.type)];
    if (!this.deliver(KEYBOARD, e, [type, e.keyCode, '', e.code])) return;
    if (type !== TYPES.keydown || e.ctrlKey || e.metaKey) return;
    const text = e.key === 'Enter' ? '\r' : [...e.key].length === 1 ? e.key : '';
    if (text) this.deliver(KEYBOARD, e, [CHAR, e.keyCode, text, e.code]);
  }

  /**
   * A touch event: its touches, changed touches and target touches, each point as
   * [id, x, y, radius x, radius y, angle, pressure].
   * @param {HTMLElement} target @param {TouchEvent} e
   */
  touch(target, e) {
    const r = target.getBoundingClientRect();
    const points = (/** @type {TouchList} */ list) => [...list].map((t) => [t.identifier >>> 0, t.clientX - r.left,
      t.clientY - r.top, t.radiusX, t.radiusY, t.rotationAngle, t.force]);
    this.deliver(TOUCH, e, [TYPES[/** @type {'touchstart'} */ (e.type)], points(e.touches), points(e.changedTouches),
      points(e.targetTouches)]);
  }
}
