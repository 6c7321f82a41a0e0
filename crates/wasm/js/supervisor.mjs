// The thread that creates the guest's Workers and ends the process when a guest thread
// says so (Node's main thread, or a web page). It never runs guest code and never blocks,
// so it can always hear them.
//
// In a browser the guest's standard streams reach the page as messages from several
// Workers, which the page may receive in another order than they were sent. Each output
// message carries a number from a counter in the control block, and the exit message the
// counter's value when the process ended: outputs are passed on in their numbers' order,
// and the end waits for every output numbered before it. (Under Node, threads write to
// the streams themselves and their messages carry no number.)

/**
 * A guest thread's Worker, running worker.mjs: it waits for its {@link import('./worker.mjs').ThreadData}.
 * @typedef {object} WorkerLike
 * @property {(event: string, f: (m: any) => void) => void} on
 * @property {(data: import('./worker.mjs').ThreadData) => void} post  sends the thread's data
 * @property {() => void} [terminate]
 */

export class Supervisor {
  /**
   * @param {(main: boolean) => WorkerLike} spawn  starts a Worker for the main thread or another
   * @param {(status: number) => void} exit  ends the process
   * @param {(fd: number, bytes: Uint8Array) => void} output  a browser thread's output
   */
  constructor(spawn, exit, output) {
    this.spawn = spawn;
    this.exit = exit;
    this.output = output;
    this.ended = false;
    /** @type {WorkerLike[]} */
    this.workers = [];
    /** The number of the next output to pass on. */
    this.nextOutput = 0;
    /** @type {Map<number, {fd: number, bytes: Uint8Array}>} outputs that arrived early */
    this.early = new Map();
    /** @type {{status: number, outputs: number} | null} the exit, once told */
    this.ending = null;
    /** @type {WorkerLike | null} the main thread's Worker, started before its data was known */
    this.first = null;
  }

  /**
   * Starts the main thread's Worker now, before its data is known: a Worker takes longer
   * to start (a JavaScript environment, the host's modules) than the module to compile.
   */
  prepare() {
    this.first ??= this.watch(this.spawn(true));
  }

  /**
   * Starts the main thread.
   * @param {import('./worker.mjs').ThreadData} data
   */
  start(data) {
    this.base = data;
    const w = this.first ?? this.watch(this.spawn(true));
    this.first = null;
    w.post(data);
  }

  /**
   * @param {WorkerLike} w
   * @returns {WorkerLike}
   */
  watch(w) {
    this.workers.push(w);
    w.on('message', (m) => this.message(m));
    w.on('error', (e) => this.crash(`${e?.stack ?? e?.message ?? e}`));
    return w;
  }

  /**
   * Ends the process after a failure of the host itself.
   * @param {string} what
   */
  crash(what) {
    if (this.ended) return;
    this.output(2, new TextEncoder().encode(`pnacl: internal error: ${what}\n`));
    this.end(134);
  }

  /** @param {number} status */
  end(status) {
    this.ended = true;
    this.exit(status);
  }

  /** Stops every guest thread (a page's; Node's end with the process). */
  terminate() {
    this.ended = true;
    for (const w of this.workers) w.terminate?.();
  }

  /** Passes on the outputs whose turn it is; ends the process when its exit's turn comes. */
  drain() {
    for (let o = this.early.get(this.nextOutput); o; o = this.early.get(this.nextOutput)) {
      this.early.delete(this.nextOutput++);
      this.output(o.fd, o.bytes);
    }
    if (this.ending && this.nextOutput >= this.ending.outputs) this.end(this.ending.status);
  }

  /** @param {any} m */
  message(m) {
    if (this.ended) return;
    switch (m?.type) {
      case 'exit':
        if (typeof m.outputs !== 'number') this.end(m.status);
        else {
          this.ending = { status: m.status, outputs: m.outputs };
          this.drain();
        }
        break;
      case 'thread': {
        const { args, env, ...base } = /** @type {import('./worker.mjs').ThreadData} */ (this.base);
        void args;
        void env;
        this.watch(this.spawn(false)).post({ ...base, role: 'thread', start: m.start, stack: m.stack, tp: m.tp });
        break;
      }
      case 'output':
        if (typeof m.seq !== 'number') this.output(m.fd, m.bytes);
        else {
          this.early.set(m.seq, m);
          this.drain();
        }
        break;
      case 'crash':
        this.crash(m.message);
        break;
      default:
        break;
    }
  }
}
