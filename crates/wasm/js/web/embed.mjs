// pnacl's embed polyfill (served as `/.pnacl/pnacl-embed.js` by `pnacl web`, which adds
// it to every HTML page): the page's NaCl modules run again. It lists the NaCl MIME
// types in `navigator.mimeTypes` (SDK pages check them before they create a module),
// and turns every `<embed type="application/x-pnacl">` (or `application/x-nacl`)
// element, in the page at load or added later, into a live module (see plugin.mjs). An
// element that leaves the page ends its module, as Chrome destroyed the instance.

import { Plugin } from './plugin.mjs';

const TYPES = ['application/x-pnacl', 'application/x-nacl'];

/** @type {WeakMap<Element, Plugin>} */
const plugins = new WeakMap();

/** Adds the NaCl types to `navigator.mimeTypes`. */
function listMimeTypes() {
  const original = [...(navigator.mimeTypes ?? [])];
  const ours = TYPES.map((type) => ({
    type, description: 'Native Client (pnacl web)', suffixes: type.endsWith('pnacl') ? 'pexe' : 'nexe', enabledPlugin: null,
  }));
  const all = [...original, ...ours];
  /** @type {Record<string | number, any>} */
  const list = {
    length: all.length,
    item: (/** @type {number} */ k) => all[k] ?? null,
    namedItem: (/** @type {string} */ name) => all.find((m) => m.type === name) ?? null,
    [Symbol.iterator]: () => all[Symbol.iterator](),
  };
  all.forEach((m, k) => {
    list[k] = m;
    list[m.type] = m;
  });
  Object.defineProperty(Navigator.prototype, 'mimeTypes', { configurable: true, get: () => list });
}

/** @param {Element} el */
function isModule(el) {
  return el instanceof HTMLEmbedElement && TYPES.includes((el.getAttribute('type') ?? '').toLowerCase());
}

/** @param {Element} el */
function upgrade(el) {
  if (!isModule(el) || plugins.has(el)) return;
  const plugin = new Plugin(/** @type {HTMLElement} */ (el));
  plugins.set(el, plugin);
  plugin.start();
}

/** @param {Node} node  upgrades it and the modules inside it */
function scan(node) {
  if (!(node instanceof Element)) return;
  upgrade(node);
  for (const el of node.querySelectorAll('embed')) upgrade(el);
}

/** @param {Node} node  ends its modules and those inside it */
function removed(node) {
  if (!(node instanceof Element)) return;
  for (const el of [node, ...node.querySelectorAll('embed')]) {
    if (!el.isConnected) {
      plugins.get(el)?.destroy();
      plugins.delete(el);
    }
  }
}

listMimeTypes();
new MutationObserver((records) => {
  for (const r of records) {
    r.addedNodes.forEach(scan);
    r.removedNodes.forEach(removed);
  }
}).observe(document, { childList: true, subtree: true });
scan(document.documentElement);
