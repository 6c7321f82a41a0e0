// The page's side of Graphics2D (see graphics.mjs): a canvas in place of the embed, as
// Chrome's plugin drew into the element's box. While a context is bound the element is
// hidden and the canvas, inserted just before it, takes its size (CSS pixels; the
// element's `width`/`height` attributes when they are numbers, else its box when the
// context was bound) and its `class`; the element stays in the page, so the page's
// scripts keep finding it and talking to it. Flushes wait for the next display frame
// (`requestAnimationFrame`); the frame shows the last flush of the bound context, drawn
// at the context's scale from the canvas's top left corner, and then every flush's
// completion callback goes back to the module, in order.

/**
 * @typedef {object} Frame
 * @property {number} graphics @property {number} width @property {number} height
 * @property {number} scale @property {Uint8ClampedArray} pixels  RGBA, not premultiplied
 * @property {number} func @property {number} user  the completion callback
 */

export class Surface {
  /**
   * @param {HTMLElement} el  the embed
   * @param {(graphics: number, func: number, user: number) => void} done  a flush was shown
   */
  constructor(el, done) {
    this.el = el;
    this.done = done;
    /** The bound context (0: none). */
    this.bound = 0;
    /** @type {HTMLCanvasElement | null} */
    this.canvas = null;
    /** @type {Frame[]} flushes waiting for the display's frame */
    this.frames = [];
    /** @type {HTMLCanvasElement | null} for drawing at a scale other than 1 */
    this.scratch = null;
    /** The element's size when the context was bound. */
    this.boxSize = [0, 0];
    this.display = '';
    new MutationObserver(() => this.resize()).observe(el, { attributes: true, attributeFilter: ['width', 'height', 'class'] });
  }

  /** The element whose box is the module's view. */
  box() {
    return this.canvas ?? this.el;
  }

  /** @param {number} graphics  the context to show, or 0 */
  bind(graphics) {
    this.bound = graphics;
    if (graphics === 0) {
      this.canvas?.remove();
      this.canvas = null;
      this.el.style.display = this.display;
      return;
    }
    if (this.canvas) return;
    const r = this.el.getBoundingClientRect();
    this.boxSize = [Math.round(r.width), Math.round(r.height)];
    this.canvas = document.createElement('canvas');
    this.resize();
    this.el.before(this.canvas);
    this.display = this.el.style.display;
    this.el.style.display = 'none';
  }

  /** Sizes the canvas from the element. */
  resize() {
    const c = this.canvas;
    if (!c) return;
    const side = (/** @type {string} */ name, /** @type {number} */ k) => {
      const v = this.el.getAttribute(name);
      return v !== null && /^\s*\d+\s*$/.test(v) ? Number(v) : this.boxSize[k];
    };
    const w = side('width', 0), h = side('height', 1);
    if (c.width !== w || c.height !== h) {
      c.width = w;
      c.height = h;
    }
    c.style.width = `${w}px`;
    c.style.height = `${h}px`;
    c.className = this.el.className;
  }

  /** @param {Frame} frame */
  flush(frame) {
    this.frames.push(frame);
    if (this.frames.length === 1) requestAnimationFrame(() => this.show());
  }

  /** Draws the last flush of the bound context and answers every flush. */
  show() {
    const frames = this.frames.splice(0);
    const last = frames.filter((f) => f.graphics === this.bound).pop();
    if (last && this.canvas) this.draw(this.canvas, last);
    for (const f of frames) this.done(f.graphics, f.func, f.user);
  }

  /** @param {HTMLCanvasElement} canvas @param {Frame} f */
  draw(canvas, f) {
    const g = /** @type {CanvasRenderingContext2D} */ (canvas.getContext('2d'));
    const image = new ImageData(new Uint8ClampedArray(f.pixels), f.width, f.height);
    if (f.scale === 1) {
      g.putImageData(image, 0, 0);
      return;
    }
    const s = this.scratch ??= document.createElement('canvas');
    s.width = f.width;
    s.height = f.height;
    /** @type {CanvasRenderingContext2D} */ (s.getContext('2d')).putImageData(image, 0, 0);
    g.clearRect(0, 0, canvas.width, canvas.height);
    g.drawImage(s, 0, 0, f.width * f.scale, f.height * f.scale);
  }
}
