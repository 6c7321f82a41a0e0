// The thread that creates the guest's Workers and ends the process when a guest thread
// says so. It never runs guest code and never blocks, so it can always hear them.

/**
 * @typedef {object} WorkerLike
 * @property {(event: string, f: (m: any) => void) => void} on
 */

export class Supervisor {
  /**
   * @param {(data: import('./worker.mjs').ThreadData, main: boolean) => WorkerLike} spawn  a Worker running worker.mjs
   * @param {(status: number) => void} exit  ends the process
   * @param {(fd: number, bytes: Uint8Array) => void} output  a browser thread's output
   */
  constructor(spawn, exit, output) {
    this.spawn = spawn;
    this.exit = exit;
    this.output = output;
    this.ended = false;
  }

  /**
   * Starts the main thread.
   * @param {import('./worker.mjs').ThreadData} data
   */
  start(data) {
    this.base = data;
    this.watch(this.spawn(data, true));
  }

  /** @param {WorkerLike} w */
  watch(w) {
    w.on('message', (m) => this.message(m));
    w.on('error', (e) => {
      if (this.ended) return;
      this.ended = true;
      this.output(2, new TextEncoder().encode(`pnacl: internal error: ${e?.stack ?? e}\n`));
      this.exit(134);
    });
  }

  /** @param {any} m */
  message(m) {
    if (this.ended) return;
    switch (m?.type) {
      case 'exit':
        this.ended = true;
        this.exit(m.status);
        break;
      case 'thread': {
        const { args, env, ...base } = /** @type {import('./worker.mjs').ThreadData} */ (this.base);
        void args;
        void env;
        this.watch(this.spawn({ ...base, role: 'thread', start: m.start, stack: m.stack, tp: m.tp }, false));
        break;
      }
      case 'output':
        this.output(m.fd, m.bytes);
        break;
      default:
        break;
    }
  }
}
