// `PPB_Graphics2D` (1.0, 1.1) and `PPB_ImageData;1.0`: 2D drawing onto a canvas in place
// of the embed.
//
// An image's pixels live in guest memory (the module maps and writes them), in either
// format PPAPI names, premultiplied; BGRA is the native one, as on Chrome's x86.
// A Graphics2D keeps its backing store here, on the module's thread, in the canvas's
// own layout (RGBA, not premultiplied): `PaintImageData`, `Scroll` and
// `ReplaceContents` are queued and applied in order at `Flush` (as PPAPI says: nothing
// shows before it), which then hands a copy of the backing store to the page. The page
// draws it on the next display frame (`requestAnimationFrame`) if the context is bound
// to the instance, and only then sends the completion callback back to the main thread,
// so a module that paints from its Flush callback runs at the display's rate.

import { PP, addRefResource, completionCallback, releaseResource } from './core.mjs';

/** `PP_ImageDataFormat`. */
export const FORMAT = { BGRA_PREMUL: 0, RGBA_PREMUL: 1 };

/** `PP_OK_COMPLETIONPENDING`. */
const COMPLETION_PENDING = -1;

/** Largest side of an image or context (Chrome refused larger ones too). */
const MAX_SIDE = 16384;

/** `PPB_Graphics2D;1.1`'s slots; 1.0 has the first seven. */
export const GRAPHICS_2D_1_1 = ['ppb_graphics2d_create', 'ppb_graphics2d_is_graphics2d', 'ppb_graphics2d_describe',
  'ppb_graphics2d_paint_image_data', 'ppb_graphics2d_scroll', 'ppb_graphics2d_replace_contents',
  'ppb_graphics2d_flush', 'ppb_graphics2d_set_scale', 'ppb_graphics2d_get_scale'];

/** `PPB_ImageData;1.0`'s slots. */
export const IMAGE_DATA_1_0 = ['ppb_image_data_get_native_image_data_format',
  'ppb_image_data_is_image_data_format_supported', 'ppb_image_data_create', 'ppb_image_data_is_image_data',
  'ppb_image_data_describe', 'ppb_image_data_map', 'ppb_image_data_unmap'];

/**
 * @typedef {object} Image
 * @property {number} format @property {number} width @property {number} height
 * @property {number} stride @property {number} at  where its pixels are in guest memory
 */

/**
 * @typedef {object} Graphics
 * @property {number} width @property {number} height @property {boolean} opaque
 * @property {number} scale @property {Uint8ClampedArray} backing  RGBA, not premultiplied
 * @property {(() => void)[]} pending  queued operations
 * @property {boolean} flushing  a Flush's callback has not run yet
 */

/**
 * Copies a rectangle of an image into a backing store, converting its pixels.
 * @param {Uint8Array} mem  guest memory
 * @param {Image} img @param {Graphics} g
 * @param {number} sx @param {number} sy  the rectangle's corner in the image
 * @param {number} dx @param {number} dy  where it goes in the backing store
 * @param {number} w @param {number} h
 */
function blit(mem, img, g, sx, sy, dx, dy, w, h) {
  const [r, b] = img.format === FORMAT.BGRA_PREMUL ? [2, 0] : [0, 2];
  const out = g.backing;
  for (let y = 0; y < h; y++) {
    let s = img.at + (sy + y) * img.stride + sx * 4;
    let d = ((dy + y) * g.width + dx) * 4;
    for (let x = 0; x < w; x++, s += 4, d += 4) {
      const a = mem[s + 3];
      if (g.opaque || a === 255) {
        out[d] = mem[s + r];
        out[d + 1] = mem[s + 1];
        out[d + 2] = mem[s + b];
        out[d + 3] = 255;
      } else if (a === 0) {
        out[d] = out[d + 1] = out[d + 2] = out[d + 3] = 0;
      } else {
        const k = 255 / a;
        out[d] = mem[s + r] * k;
        out[d + 1] = mem[s + 1] * k;
        out[d + 2] = mem[s + b] * k;
        out[d + 3] = a;
      }
    }
  }
}

/**
 * Clips a rectangle to [0, w) x [0, h); null if nothing is left.
 * @param {number} x @param {number} y @param {number} rw @param {number} rh
 * @param {number} w @param {number} h
 */
function clip(x, y, rw, rh, w, h) {
  const x0 = Math.max(0, x), y0 = Math.max(0, y);
  const x1 = Math.min(w, x + rw), y1 = Math.min(h, y + rh);
  return x1 > x0 && y1 > y0 ? [x0, y0, x1 - x0, y1 - y0] : null;
}

/** @param {import('./ppapi.mjs').Ppapi} p */
export function functions(p) {
  const { mem } = p.ctx;
  /** @returns {Image | undefined} */
  const image = (/** @type {number} */ r) => {
    const res = p.resources.get(r);
    return res?.kind === 'image-data' ? /** @type {any} */ (res) : undefined;
  };
  /** @returns {Graphics | undefined} */
  const graphics = (/** @type {number} */ r) => {
    const res = p.resources.get(r);
    return res?.kind === 'graphics-2d' ? /** @type {any} */ (res) : undefined;
  };
  /** Reads a `PP_Size` (width, height: int32), or null if it is not a usable size. */
  const size = (/** @type {number} */ at) => {
    mem.check(at, 8);
    const w = mem.dv.getInt32(at, true), h = mem.dv.getInt32(at + 4, true);
    return w > 0 && h > 0 && w <= MAX_SIDE && h <= MAX_SIDE ? [w, h] : null;
  };
  const i32s = (/** @type {number} */ at, /** @type {number} */ n) => {
    mem.check(at, 4 * n);
    return Array.from({ length: n }, (_, k) => mem.dv.getInt32(at + 4 * k, true));
  };
  const u8 = () => {
    mem.refresh();
    return mem.u8;
  };
  return {
    ppb_image_data_get_native_image_data_format: () => FORMAT.BGRA_PREMUL,
    ppb_image_data_is_image_data_format_supported: (/** @type {number} */ f) =>
      (f === FORMAT.BGRA_PREMUL || f === FORMAT.RGBA_PREMUL ? 1 : 0),
    ppb_image_data_create: (/** @type {number} */ _instance, /** @type {number} */ format, /** @type {number} */ sizeAt,
      /** @type {number} */ _zero) => {
      const s = size(sizeAt);
      if (!s || (format !== FORMAT.BGRA_PREMUL && format !== FORMAT.RGBA_PREMUL)) return 0;
      const [width, height] = s;
      let at;
      try {
        at = p.heap.alloc(width * height * 4);
      } catch {
        return 0;
      }
      // The heap's blocks are zeroed, so init_to_zero always holds.
      return p.resource('image-data', { format, width, height, stride: width * 4, at,
        free: () => p.heap.release(at) });
    },
    ppb_image_data_is_image_data: (/** @type {number} */ r) => (image(r) ? 1 : 0),
    ppb_image_data_describe: (/** @type {number} */ r, /** @type {number} */ at) => {
      const img = image(r);
      mem.check(at, 16);
      if (!img) {
        for (let k = 0; k < 16; k += 4) mem.setU32(at + k, 0);
        return 0;
      }
      [img.format, img.width, img.height, img.stride].forEach((v, k) => mem.setU32(at + 4 * k, v));
      return 1;
    },
    ppb_image_data_map: (/** @type {number} */ r) => image(r)?.at ?? 0,
    ppb_image_data_unmap: () => {},

    ppb_graphics2d_create: (/** @type {number} */ _instance, /** @type {number} */ sizeAt, /** @type {number} */ opaque) => {
      const s = size(sizeAt);
      if (!s) return 0;
      const [width, height] = s;
      return p.resource('graphics-2d', { width, height, opaque: opaque !== 0, scale: 1,
        backing: new Uint8ClampedArray(width * height * 4), pending: [], flushing: false });
    },
    ppb_graphics2d_is_graphics2d: (/** @type {number} */ r) => (graphics(r) ? 1 : 0),
    ppb_graphics2d_describe: (/** @type {number} */ r, /** @type {number} */ sizeAt, /** @type {number} */ opaqueAt) => {
      const g = graphics(r);
      mem.check(sizeAt, 8);
      mem.check(opaqueAt, 4);
      mem.setU32(sizeAt, g?.width ?? 0);
      mem.setU32(sizeAt + 4, g?.height ?? 0);
      mem.setU32(opaqueAt, g?.opaque ? 1 : 0);
      return g ? 1 : 0;
    },
    ppb_graphics2d_paint_image_data: (/** @type {number} */ r, /** @type {number} */ imageId,
      /** @type {number} */ topLeft, /** @type {number} */ srcRect) => {
      const g = graphics(r), img = image(imageId);
      if (!g || !img) return;
      const [px, py] = i32s(topLeft, 2);
      const [sx, sy, sw, sh] = srcRect ? i32s(srcRect, 4) : [0, 0, img.width, img.height];
      const src = clip(sx, sy, sw, sh, img.width, img.height);
      if (!src) return;
      addRefResource(p, imageId);
      g.pending.push(() => {
        // The source rectangle, moved by top_left, clipped to the context.
        const dst = clip(src[0] + px, src[1] + py, src[2], src[3], g.width, g.height);
        if (dst) blit(u8(), img, g, dst[0] - px, dst[1] - py, dst[0], dst[1], dst[2], dst[3]);
        releaseResource(p, imageId);
      });
    },
    ppb_graphics2d_scroll: (/** @type {number} */ r, /** @type {number} */ clipAt, /** @type {number} */ amountAt) => {
      const g = graphics(r);
      if (!g) return;
      const [cx, cy, cw, ch] = clipAt ? i32s(clipAt, 4) : [0, 0, g.width, g.height];
      const [dx, dy] = i32s(amountAt, 2);
      g.pending.push(() => {
        const c = clip(cx, cy, cw, ch, g.width, g.height);
        if (!c) return;
        const [x, y, w, h] = c;
        const from = g.backing.slice();
        // Every pixel of the clip rectangle whose source (it minus the amount) is inside it.
        for (let ty = Math.max(y, y + dy); ty < Math.min(y + h, y + h + dy); ty++) {
          const x0 = Math.max(x, x + dx), x1 = Math.min(x + w, x + w + dx);
          if (x1 <= x0) break;
          const s = ((ty - dy) * g.width + (x0 - dx)) * 4;
          g.backing.set(from.subarray(s, s + (x1 - x0) * 4), (ty * g.width + x0) * 4);
        }
      });
    },
    ppb_graphics2d_replace_contents: (/** @type {number} */ r, /** @type {number} */ imageId) => {
      const g = graphics(r), img = image(imageId);
      if (!g || !img || img.width !== g.width || img.height !== g.height) return;
      addRefResource(p, imageId);
      g.pending.push(() => {
        blit(u8(), img, g, 0, 0, 0, 0, g.width, g.height);
        releaseResource(p, imageId);
      });
    },
    ppb_graphics2d_flush: (/** @type {number} */ r, /** @type {number} */ cb) => {
      const g = graphics(r);
      if (!g) return PP.ERROR_BADRESOURCE;
      const c = completionCallback(p, cb);
      if (!c.func && p.main) return PP.ERROR_BLOCKS_MAIN_THREAD;
      if (g.flushing) return PP.ERROR_INPROGRESS;
      for (const op of g.pending.splice(0)) op();
      const pixels = g.backing.slice();
      g.flushing = c.func !== 0;
      p.post({ op: 'flush', graphics: r, width: g.width, height: g.height, scale: g.scale, pixels,
        func: c.func, user: c.user });
      return c.func ? COMPLETION_PENDING : PP.OK;
    },
    ppb_graphics2d_set_scale: (/** @type {number} */ r, /** @type {number} */ scale) => {
      const g = graphics(r);
      if (!g || !(scale > 0) || !Number.isFinite(scale)) return 0;
      g.scale = scale;
      return 1;
    },
    ppb_graphics2d_get_scale: (/** @type {number} */ r) => graphics(r)?.scale ?? 0,
  };
}

/**
 * The page drew a Flush (or dropped it): the context may flush again, and its callback runs.
 * @param {import('./ppapi.mjs').Ppapi} p
 * @param {number} r @param {number} func @param {number} user
 */
export function flushed(p, r, func, user) {
  const g = p.resources.get(r);
  if (g?.kind === 'graphics-2d') g.flushing = false;
  if (func) p.call(func, user, PP.OK);
}
