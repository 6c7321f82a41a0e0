// The in-browser translator's Worker: pnacl's own translator (reader, ABI verifier and
// pexe-to-WebAssembly translator, the `pnacl-translator-web` crate built for
// wasm32-unknown-unknown) turns one pexe into the module that `pnacl wasm` would write,
// byte for byte. It runs here, off the page's thread, as Chrome's PNaCl translator ran in
// its own process.
//
// Asked with `{translator: URL, pexe: ArrayBuffer}`; answers `{wasm: ArrayBuffer}` or
// `{error: string}` (a refusal's message, or why the translator could not run).

/**
 * The translator's exports (see crates/translator-web/src/lib.rs).
 * @typedef {object} Translator
 * @property {WebAssembly.Memory} memory
 * @property {(len: number) => number} pnacl_input  where to put a pexe of `len` bytes (0: no room)
 * @property {() => number} pnacl_translate  0: translated; 1: refused
 * @property {() => number} pnacl_output
 * @property {() => number} pnacl_output_len
 */

/**
 * @param {string} url
 * @returns {Promise<Translator>}
 */
async function instantiate(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP status ${response.status}: ${(await response.text()).slice(0, 300)}`);
  const { instance } = await WebAssembly.instantiate(await response.arrayBuffer(), {});
  return /** @type {Translator} */ (/** @type {unknown} */ (instance.exports));
}

/**
 * @param {Translator} t
 * @param {ArrayBuffer} pexe
 * @returns {{wasm: ArrayBuffer} | {error: string}}
 */
function translate(t, pexe) {
  const at = t.pnacl_input(pexe.byteLength);
  if (at === 0 && pexe.byteLength > 0) return { error: 'the translator has no memory for the pexe' };
  new Uint8Array(t.memory.buffer, at, pexe.byteLength).set(new Uint8Array(pexe));
  const status = t.pnacl_translate();
  // A copy: the translator's memory is reused by the next call.
  const out = new Uint8Array(t.memory.buffer, t.pnacl_output(), t.pnacl_output_len()).slice();
  return status === 0 ? { wasm: out.buffer } : { error: new TextDecoder().decode(out) };
}

self.onmessage = async (/** @type {MessageEvent} */ e) => {
  /** @type {{wasm: ArrayBuffer} | {error: string}} */
  let answer;
  try {
    answer = translate(await instantiate(e.data.translator), e.data.pexe);
  } catch (err) {
    // A trap in the translator (a bug: it refuses bad input with a message) or no translator.
    answer = { error: `the in-browser translator failed: ${/** @type {Error} */ (err).message ?? err}` };
  }
  self.postMessage(answer, 'wasm' in answer ? [answer.wasm] : []);
};
