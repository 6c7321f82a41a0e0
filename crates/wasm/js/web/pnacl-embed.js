// pnacl's NaCl embed polyfill, the one script `pnacl web` adds to a page (right after its
// <head> tag). A classic script, so that it runs before the page's own: SDK pages and
// others test `navigator.mimeTypes` for the NaCl types while they load, and some ask for
// persistent storage before they create their module. It lists the types, grants the
// quota requests of `navigator.webkitPersistentStorage` / `webkitTemporaryStorage`
// (which today's browsers refuse or lack), then loads the rest as ES modules
// (web/embed.mjs: the `<embed>` elements become modules). Where the page is not
// cross-origin isolated, it first has pnacl-sw.js make it so (see below).
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

  var script = document.currentScript;
  var here = script ? script.src : location.href;
  // `pnacl web` marks its tag: each pexe's translation is then served beside it
  // (X.pexe.wasm). A tag added by hand has no mark, and the page translates its pexes
  // itself (web/translate.mjs).
  var translated = (script && script.getAttribute('data-translated')) || 'in-page';
  function startModules() {
    import(new URL('web/embed.mjs', here).href).then(function (m) {
      m.start({ translated: translated });
    }).catch(function (e) {
      console.error('pnacl: the embed polyfill did not load: ' + e);
    });
  }

  // Modules need shared memory, which needs a cross-origin isolated page. Where the host
  // did not send the headers, pnacl-sw.js (beside the .pnacl folder) adds them: it is
  // registered, and the page reloads once it is in control. Once per tab, so that a page
  // it cannot isolate does not reload forever (its modules then fail, saying why).
  var RELOADED = 'pnacl-isolation-reload';
  var worker = navigator.serviceWorker;
  if (self.crossOriginIsolated || !self.isSecureContext || !worker || sessionStorage.getItem(RELOADED)) {
    if (self.crossOriginIsolated) sessionStorage.removeItem(RELOADED);
    startModules();
    return;
  }
  var reload = function () {
    sessionStorage.setItem(RELOADED, '1');
    location.reload();
  };
  if (worker.controller) {
    reload();
    return;
  }
  worker.addEventListener('controllerchange', reload);
  var sw = new URL('../pnacl-sw.js', here);
  worker.register(sw.href, { scope: new URL('./', sw).href }).catch(function (e) {
    worker.removeEventListener('controllerchange', reload);
    console.warn('pnacl: the page is not cross-origin isolated and ' + sw.href + ' could not make it so: ' + e);
    startModules();
  });
})();
