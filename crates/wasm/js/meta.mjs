// What the module says about itself: the `pnacl` custom section (JSON, see the crate's
// `meta` module) and the function names of the `name` section.

/**
 * @typedef {object} Meta
 * @property {number} format
 * @property {number} functions  the module's functions; the IRT's follow them in the table
 * @property {string} entry
 * @property {boolean} shared
 * @property {boolean} browser
 * @property {number} initial_pages
 * @property {number} maximum_pages
 * @property {number} data_end
 * @property {number} stack_bottom
 * @property {number} stack_top
 * @property {Record<string, string>} traps  trapping helpers by function index
 * @property {number[]} transparent  helpers whose traps name their caller
 */

/** The metadata format this host reads. */
export const FORMAT = 1;

/**
 * The module's metadata.
 * @param {WebAssembly.Module} module
 * @returns {Meta}
 */
export function metadata(module) {
  const sections = WebAssembly.Module.customSections(module, 'pnacl');
  if (sections.length !== 1) throw new Error('not a module written by pnacl wasm (no pnacl section)');
  const meta = JSON.parse(new TextDecoder().decode(sections[0]));
  if (meta.format !== FORMAT) throw new Error(`written for another version of the host (format ${meta.format})`);
  return meta;
}

/**
 * The function names of the `name` section, by function index.
 * @param {WebAssembly.Module} module
 * @returns {Map<number, string>}
 */
export function functionNames(module) {
  const names = new Map();
  for (const section of WebAssembly.Module.customSections(module, 'name')) {
    const b = new Uint8Array(section);
    let at = 0;
    const leb = () => {
      let v = 0, shift = 0, byte;
      do {
        byte = b[at++];
        v += (byte & 0x7f) * 2 ** shift;
        shift += 7;
      } while (byte & 0x80);
      return v;
    };
    while (at < b.length) {
      const id = b[at++];
      const size = leb();
      const end = at + size;
      if (id === 1) {
        const count = leb();
        for (let k = 0; k < count; k++) {
          const index = leb();
          const len = leb();
          names.set(index, new TextDecoder().decode(b.subarray(at, at + len)));
          at += len;
        }
      }
      at = end;
    }
  }
  return names;
}

/**
 * The IRT functions the module imports, in table order (their table index is
 * `meta.functions` plus their place here).
 * @param {WebAssembly.Module} module
 * @returns {string[]}
 */
export function irtImports(module) {
  return WebAssembly.Module.imports(module).filter((i) => i.module === 'irt').map((i) => i.name);
}
