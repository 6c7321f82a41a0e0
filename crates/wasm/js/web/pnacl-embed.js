// pnacl's NaCl embed polyfill, the one script `pnacl web` adds to a page (right after its
// <head> tag). A classic script, so that it runs before the page's own: SDK pages and
// others test `navigator.mimeTypes` for the NaCl types while they load, and some ask for
// persistent storage before they create their module. It lists the types, grants the
// quota requests of `navigator.webkitPersistentStorage` / `webkitTemporaryStorage`
// (which today's browsers refuse or lack), then loads the rest as ES modules
// (web/embed.mjs: the `<embed>` elements become modules).
(function () {
  'use strict';
  var TYPES = ['application/x-pnacl', 'application/x-nacl'];
  var original = [];
  try {
    original = Array.prototype.slice.call(navigator.mimeTypes || []);
  } catch (e) {
    original = [];
  }
  var all = original.concat(TYPES.map(function (type) {
    return { type: type, description: 'Native Client (pnacl web)', suffixes: /pnacl$/.test(type) ? 'pexe' : 'nexe',
      enabledPlugin: null };
  }));
  var list = {
    length: all.length,
    item: function (k) { return all[k] || null; },
    namedItem: function (name) { return all.filter(function (m) { return m.type === name; })[0] || null; },
  };
  list[Symbol.iterator] = function () { return all[Symbol.iterator](); };
  all.forEach(function (m, k) {
    list[k] = m;
    list[m.type] = m;
  });
  Object.defineProperty(Navigator.prototype, 'mimeTypes', { configurable: true, get: function () { return list; } });

  // Quota: granted as asked (the storage behind it is the browser's own).
  var storage = {
    requestQuota: function (bytes, granted) {
      if (typeof granted === 'function') setTimeout(function () { granted(bytes); }, 0);
    },
    queryUsageAndQuota: function (done) {
      if (typeof done === 'function') setTimeout(function () { done(0, 1 << 30); }, 0);
    },
  };
  ['webkitPersistentStorage', 'webkitTemporaryStorage'].forEach(function (name) {
    Object.defineProperty(Navigator.prototype, name, { configurable: true, get: function () { return storage; } });
  });

  var here = document.currentScript ? document.currentScript.src : location.href;
  import(new URL('web/embed.mjs', here).href).catch(function (e) {
    console.error('pnacl: the embed polyfill did not load: ' + e);
  });
})();
