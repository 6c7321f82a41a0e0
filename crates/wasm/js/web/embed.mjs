// The embed polyfill's modules, loaded by `pnacl-embed.js` (the script `pnacl web` adds
// to every HTML page, which has already listed the NaCl MIME types): every
// `<embed type="application/x-pnacl">` (or `application/x-nacl`) element, in the page
// at load or added later, becomes a live module (see plugin.mjs). An element that
// leaves the page ends its module, as Chrome destroyed the instance.

import { Plugin } from './plugin.mjs';

const TYPES = ['application/x-pnacl', 'application/x-nacl'];

/** @type {WeakMap<Element, Plugin>} */
const plugins = new WeakMap();

/** @param {Element} el */
function isModule(el) {
  return el instanceof HTMLEmbedElement && TYPES.includes((el.getAttribute('type') ?? '').toLowerCase());
}

/** How the polyfill was included. @type {import('./plugin.mjs').Options} */
let options = { translated: 'in-page' };

/** @param {Element} el */
function upgrade(el) {
  if (!isModule(el) || plugins.has(el)) return;
  const plugin = new Plugin(/** @type {HTMLElement} */ (el), options);
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

/**
 * Makes the page's module elements, and those added later, live modules.
 * @param {import('./plugin.mjs').Options} how
 */
export function start(how) {
  options = how;
  new MutationObserver((records) => {
    for (const r of records) {
      r.addedNodes.forEach(scan);
      r.removedNodes.forEach(removed);
    }
  }).observe(document, { childList: true, subtree: true });
  scan(document.documentElement);
}
