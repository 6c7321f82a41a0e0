// Standard output gathered into blocks, as `pnacl run` gathers it: a guest whose C library
// writes line by line (the SDK's newlib does, to a pipe too) would otherwise pay one host
// write per line (fasta 2500000: 416,000 writes, 2.3 s against 0.4 s for the same program
// built for WASI). Only when standard output is not a terminal (a person sees a terminal's
// output at once), and only once a first write has gone straight through (so that a
// stream that cannot be written, `> /dev/full`, fails the guest's first write itself).
//
// Gathered bytes are passed on when 64 KiB have gathered, before any other IRT call of the
// thread (so that stdout keeps its order against stderr, files, and the other threads,
// which it can only meet through an IRT call: a futex, a write, thread start or exit), at
// the thread's next IRT call once 50 ms have passed since the first byte gathered, and at
// exit or a trap. A guest computing without any IRT call keeps its last output until it
// makes one, as a C program keeps a pipe's output in its stdio buffer. A failed pass-on is
// the answer to the guest's next write (as a C `FILE` reports it at the next `fflush`); a
// closed pipe ends the process as SIGPIPE would (141).

/** The most gathered before passing on. */
const BLOCK = 64 << 10;
/** The longest gathered bytes wait for an IRT call to pass them on. */
const MAX_WAIT_MS = 50;

export class Gather {
  /**
   * @param {any} fs  node:fs
   * @param {number} host  the host descriptor of standard output
   * @param {() => never} brokenPipe
   * @param {(bytes: Uint8Array, at: number) => number} writeSome  one host write from `at`
   */
  constructor(fs, host, brokenPipe, writeSome) {
    this.fs = fs;
    this.host = host;
    this.brokenPipe = brokenPipe;
    this.writeSome = writeSome;
    // Node makes a pipe on standard output non-blocking, so a full pipe answers EAGAIN
    // and the writer must poll. A descriptor of its own for the same pipe (opened through
    // /proc) blocks instead, and wakes when the reader has read. Pipes only: opening a
    // regular file so would truncate it.
    try {
      if (fs.fstatSync(host).isFIFO()) {
        const own = fs.openSync(`/proc/self/fd/${host}`, fs.constants.O_WRONLY);
        this.writeSome = (/** @type {Uint8Array} */ b, /** @type {number} */ at) =>
          fs.writeSync(own, b, at, b.length - at, null);
      }
    } catch {
      // No /proc, or no access: poll as before.
    }
    this.buf = new Uint8Array(BLOCK);
    this.len = 0;
    /** When the first gathered byte came (ms), 0 when nothing is gathered. */
    this.since = 0;
    /** Whether a write has gone straight through (gathering starts after it). */
    this.started = false;
    /** @type {unknown} a failed pass-on not yet told to the guest */
    this.failure = null;
  }

  /**
   * Takes a guest write to standard output; returns the bytes taken, or throws what the
   * host said (a failure of an earlier pass-on first).
   * @param {Uint8Array} view
   * @param {() => number} direct  the write straight through
   */
  write(view, direct) {
    if (this.failure !== null) {
      const f = this.failure;
      this.failure = null;
      throw f;
    }
    if (!this.started || view.length >= BLOCK) {
      this.flush();
      const n = direct();
      this.started = true;
      return n;
    }
    if (this.len + view.length > BLOCK) this.flush();
    this.buf.set(view, this.len);
    this.len += view.length;
    const now = Date.now();
    if (this.since === 0) this.since = now;
    else if (now - this.since >= MAX_WAIT_MS) this.flush();
    return view.length;
  }

  /** Passes on what is gathered when it has waited long enough (at any IRT call). */
  tick() {
    if (this.len !== 0) this.flush();
  }

  /** Passes on what is gathered; a failure is kept for the guest's next write. */
  flush() {
    if (this.len === 0) return;
    const bytes = this.buf.subarray(0, this.len);
    this.len = 0;
    this.since = 0;
    let at = 0;
    try {
      while (at < bytes.length) at += this.writeSome(bytes, at);
    } catch (e) {
      if (/** @type {{code?: string}} */ (e).code === 'EPIPE') this.brokenPipe();
      this.failure = e;
    }
  }

  /**
   * At exit: passes on what is gathered; the text of a failure the guest was never told
   * (then an exit status of 0 becomes 1), or null.
   * @returns {string | null}
   */
  finish() {
    this.flush();
    const f = this.failure;
    this.failure = null;
    if (f === null) return null;
    return `pnacl: <stdout>: the guest's last output could not be written: ${/** @type {Error} */ (f).message ?? f}\n`;
  }
}
