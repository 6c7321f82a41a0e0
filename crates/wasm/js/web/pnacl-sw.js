// pnacl's service worker, for hosts that cannot send the two headers that make a page
// cross-origin isolated (which shared memory, and so every NaCl module, needs): it adds
// them to every response of the pages it controls. pnacl-embed.js registers it (from
// beside the `.pnacl/` folder: a service worker controls only pages at or below its own
// folder) when a page is not isolated, and reloads the page once it is in control. The
// same idea as coi-serviceworker; browsers allow service workers on https and localhost.
'use strict';

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

self.addEventListener('fetch', (event) => {
  const request = event.request;
  // Chrome refuses `only-if-cached` outside same-origin mode; leave such requests alone.
  if (request.cache === 'only-if-cached' && request.mode !== 'same-origin') return;
  event.respondWith(
    fetch(request).then((response) => {
      // Opaque responses (no-cors, cross-origin) cannot be changed, and need not be.
      if (response.status === 0) return response;
      const headers = new Headers(response.headers);
      headers.set('Cross-Origin-Opener-Policy', 'same-origin');
      headers.set('Cross-Origin-Embedder-Policy', 'require-corp');
      return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
    }),
  );
});
