// Pexes translated in the page, for pages that include pnacl's polyfill by hand (no
// server-side step), as Chrome's in-browser PNaCl translator did: the pexe is fetched,
// translated in a Worker by pnacl's own translator (`../translator.wasm`, see
// translator-worker.mjs) and the module is kept in the browser's Cache Storage. The key is
// the pexe's SHA-256 and the translator's build (`../translator.json`), so a new pexe or a
// new translator gets a new translation, and entries of older translators are dropped.

const CACHE = 'pnacl-translations';

/**
 * What the page gets: the compiled module and how it was had.
 * @typedef {object} Translated
 * @property {WebAssembly.Module} module
 * @property {boolean} cached  found in Cache Storage
 * @property {number} ms  milliseconds from the pexe's bytes to the compiled module
 * @property {number} pexeBytes
 * @property {number} wasmBytes
 */

/** @param {ArrayBuffer} bytes */
async function sha256(bytes) {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** @returns {Promise<Cache | null>} the translations' cache, where the page may have one */
async function openCache() {
  try {
    return globalThis.caches ? await caches.open(CACHE) : null;
  } catch {
    return null; // (an opaque origin, or storage turned off)
  }
}

/**
 * Translates `pexe` in a Worker.
 * @param {ArrayBuffer} pexe
 * @returns {Promise<ArrayBuffer>}
 */
function inWorker(pexe) {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./translator-worker.mjs', import.meta.url), {
      type: 'module',
      name: 'pnacl translator',
    });
    worker.onmessage = (e) => {
      worker.terminate();
      if (e.data.wasm) resolve(e.data.wasm);
      else reject(new Error(e.data.error));
    };
    worker.onerror = (e) => {
      e.preventDefault();
      worker.terminate();
      reject(new Error(e.message || 'the translator Worker did not start'));
    };
    const translator = new URL('../translator.wasm', import.meta.url).href;
    worker.postMessage({ translator, pexe }, [pexe]);
  });
}

/**
 * The module of the pexe at `url`: from Cache Storage, or translated now and kept.
 * @param {URL} url
 * @returns {Promise<Translated>}
 */
export async function translatePexe(url) {
  const infoUrl = new URL('../translator.json', import.meta.url);
  const [response, info] = await Promise.all([
    fetch(url),
    fetch(infoUrl).then(async (r) => {
      if (!r.ok) throw new Error(`${infoUrl}: HTTP status ${r.status}: ${(await r.text()).slice(0, 300)}`);
      return r.json();
    }),
  ]);
  if (!response.ok) throw new Error(`${url}: HTTP status ${response.status}`);
  const pexe = await response.arrayBuffer();
  const pexeBytes = pexe.byteLength;
  const start = performance.now();
  const key = new URL(`/.pnacl-translations/${info.id}/${await sha256(pexe)}.wasm`, location.origin).href;
  const cache = await openCache();
  const hit = await cache?.match(key);
  if (hit) {
    const bytes = await hit.arrayBuffer();
    const module = await WebAssembly.compile(bytes);
    return { module, cached: true, ms: performance.now() - start, pexeBytes, wasmBytes: bytes.byteLength };
  }
  const wasm = await inWorker(pexe);
  const module = await WebAssembly.compile(wasm);
  const ms = performance.now() - start;
  if (cache) {
    try {
      for (const old of await cache.keys()) {
        if (!old.url.includes(`/.pnacl-translations/${info.id}/`)) await cache.delete(old);
      }
      await cache.put(key, new Response(wasm, { headers: { 'Content-Type': 'application/wasm' } }));
    } catch (e) {
      // A full quota costs the next load a translation, nothing more.
      console.warn(`pnacl: the translation of ${url} was not kept: ${/** @type {Error} */ (e).message}`);
    }
  }
  return { module, cached: false, ms, pexeBytes, wasmBytes: wasm.byteLength };
}
